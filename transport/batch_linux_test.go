package transport

import (
	"errors"
	"net"
	"net/netip"
	"os"
	"slices"
	"sync"
	"testing"
	"time"
)

// TestBatchReadStaysInWait: one read hands every batch to deliver as it comes and
// waits between them: a datagram alone is delivered at once (not with the next one),
// a burst larger than a batch in full batches and the rest, and the read ends only
// when deliver asks to leave or the wait fails (here: the deadline).
func TestBatchReadStaysInWait(t *testing.T) {
	rx, err := net.ListenUDP("udp4", net.UDPAddrFromAddrPort(netip.MustParseAddrPort("127.0.0.1:0")))
	if err != nil {
		t.Fatal(err)
	}
	defer rx.Close()
	tx := loopbackSender(t, "127.0.0.1")
	dst := rx.LocalAddr().(*net.UDPAddr).AddrPort()
	send := func(n int) {
		t.Helper()
		for range n {
			if _, err := tx.WriteToUDPAddrPort([]byte("x"), dst); err != nil {
				t.Fatal(err)
			}
		}
	}
	rc, err := rx.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	b := newBatch(1500)
	full := len(b.hs)
	var mu sync.Mutex
	var reads []int
	leave := false
	var hold chan struct{} // while set, deliver waits for it to close after recording
	got := make(chan struct{}, 64)
	b.deliver = func(n int) bool {
		mu.Lock()
		reads = append(reads, n)
		h, l := hold, leave
		mu.Unlock()
		got <- struct{}{}
		if h != nil {
			<-h
		}
		return l
	}
	done := make(chan error, 1)
	go func() { done <- b.read(rc) }()
	wait := func(want ...int) {
		t.Helper()
		for range want {
			select {
			case <-got:
			case <-time.After(5 * time.Second):
				t.Fatalf("reads %v, want %v", reads, want)
			}
		}
		mu.Lock()
		defer mu.Unlock()
		if !slices.Equal(reads, want) {
			t.Fatalf("reads %v, want %v", reads, want)
		}
		reads = nil
	}
	for range 20 {
		send(1)
		wait(1)
	}
	// A burst queued while a batch is delivered (loopback sends are synchronous): the
	// next reads take a full batch and the rest, without waiting in between.
	h := make(chan struct{})
	mu.Lock()
	hold = h
	mu.Unlock()
	send(1)
	wait(1)
	mu.Lock()
	hold = nil
	mu.Unlock()
	send(full + 3)
	close(h)
	wait(full, 3)
	select {
	case err := <-done:
		t.Fatalf("read ended (%v) while deliver wanted more", err)
	default:
	}
	mu.Lock()
	leave = true
	mu.Unlock()
	send(1)
	wait(1)
	if err := <-done; err != nil {
		t.Fatalf("read left by deliver: %v", err)
	}
	// A deadline ends the wait, as the worker's interface events do.
	go func() { done <- b.read(rc) }()
	if err := rx.SetReadDeadline(time.Now()); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("read after the deadline: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("read still waits 5 s after its deadline")
	}
}

// TestDeliversEachDatagram: a worker delivers every datagram as it comes, alone or in
// bursts larger than a batch, without waiting for the next one.
func TestDeliversEachDatagram(t *testing.T) {
	rx := start(t, Config{Name: "rx", Interface: "lo"})
	tx := loopbackSender(t, "127.0.0.1")
	for round := range 50 {
		n := 1
		if round%5 == 4 {
			n = 3 * maxBatch / 2
		}
		for range n {
			if _, err := tx.WriteToUDPAddrPort([]byte{byte(round)}, rx.LocalAddr()); err != nil {
				t.Fatal(err)
			}
		}
		for i := range n {
			if d := recv(t, rx); len(d.Payload) != 1 || d.Payload[0] != byte(round) {
				t.Fatalf("round %d, datagram %d: got %v", round, i, d.Payload)
			}
		}
	}
	if s := rx.Stats(); s.Received != s.Delivered || s.Dropped() != 0 {
		t.Errorf("stats %+v", s)
	}
}
