package transport

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/kernelq"
)

// TestHandler: a handler takes the accepted datagrams on the worker's goroutine, the
// socket unread while it runs, those read together in one call (a read that ends in
// dropped datagrams included); they are counted as delivered (also when the handler
// reports one malformed) and never queued. SetHandler(nil) waits for a call in
// progress, and then the queue takes over.
func TestHandler(t *testing.T) {
	// Small datagrams: one read takes up to 32 (maxBatch) of them.
	rx := start(t, Config{Name: "rx", Interface: "lo", MaxDatagram: 512,
		Filter: func(d Datagram) bool { return string(d.Payload) != "junk" }})
	tx := start(t, Config{Name: "tx", Interface: "lo"})

	calls := make(chan []string, 16)                             // one per call with datagrams
	entered, release := make(chan struct{}), make(chan struct{}) // one of each per "hold"
	var holdsDone atomic.Int32                                   // calls with a "hold" that returned
	rx.SetHandler(func(ds []Datagram) {
		if len(ds) == 0 {
			return // SetHandler's first call
		}
		var ps []string
		held := false
		for _, d := range ds {
			ps = append(ps, string(d.Payload)) // d is the read buffer: copied here
			switch string(d.Payload) {
			case "hold":
				entered <- struct{}{}
				<-release
				held = true
			case "bad":
				rx.ReportMalformed()
			}
		}
		calls <- ps
		if held {
			holdsDone.Add(1) // the last thing the call does
		}
	})
	send := func(p string) {
		t.Helper()
		if err := tx.SendTo([]byte(p), rx.LocalAddr()); err != nil {
			t.Fatal(err)
		}
	}
	send("hold")
	<-entered
	// While the handler runs, the socket is not read: these wait in the kernel (loopback
	// queues a datagram on the socket before the send returns, so the queue grows with
	// each) and come in one read afterwards. The last "junk" is dropped after the last
	// accepted one: the handler's call with the batch still comes at once.
	var queued uint64
	for _, p := range []string{"p0", "p1", "p2", "p3", "junk", "bad", "junk"} {
		send(p)
		q, err := kernelq.Queued(rx.LocalAddr().Port())
		if err == nil && q <= queued {
			err = fmt.Errorf("%d bytes in the kernel's queue after %q, %d before; want more", q, p, queued)
		}
		if err != nil {
			release <- struct{}{} // or the worker never stops
			t.Fatalf("while the handler ran: %v", err)
		}
		queued = q
	}
	if s := rx.Stats(); s.Received != 1 || len(rx.Datagrams()) != 0 {
		t.Fatalf("while the handler ran: %+v, %d queued; want 1 received, none queued", s, len(rx.Datagrams()))
	}
	release <- struct{}{}
	want := [][]string{{"hold"}, {"p0", "p1", "p2", "p3", "bad"}}
	for i, w := range want {
		select {
		case got := <-calls:
			if !slices.Equal(got, w) {
				t.Fatalf("call %d: %q, want %q", i, got, w)
			}
		case <-time.After(waitLimit):
			t.Fatalf("call %d (%+v) did not come; stats %+v", i, w, rx.Stats())
		}
	}
	eventually(t, "all counted", func() bool { return rx.Stats().Received == 8 })
	if s := rx.Stats(); s.Delivered != 5 || s.Malformed != 1 || s.Filtered != 2 || s.Received != s.Delivered+s.Dropped() || len(rx.Datagrams()) != 0 {
		t.Fatalf("stats %+v, %d queued; want 5 delivered, 1 malformed, 2 filtered, none queued", s, len(rx.Datagrams()))
	}

	// SetHandler(nil) returns only once the call in progress has: when it returns, the
	// second "hold" call has returned too.
	send("hold")
	<-entered
	calling, cleared := make(chan struct{}), make(chan int32)
	go func() {
		close(calling) // this goroutine goes straight on into SetHandler
		rx.SetHandler(nil)
		cleared <- holdsDone.Load()
	}()
	<-calling
	release <- struct{}{}
	if n := <-cleared; n != 2 {
		t.Fatalf("SetHandler(nil) returned with %d held calls returned, want 2: it did not wait for the call in progress", n)
	}
	<-calls
	send("queued")
	if d := recv(t, rx); string(d.Payload) != "queued" {
		t.Fatalf("after SetHandler(nil): %q queued, want \"queued\"", d.Payload)
	}
	select {
	case c := <-calls:
		t.Fatalf("handler called after SetHandler(nil): %+v", c)
	default:
	}
}

// TestHandlerWake: after Wake the handler is called with no datagrams, on the worker's
// goroutine, while the socket is up and while it is down (between open attempts).
func TestHandlerWake(t *testing.T) {
	for _, up := range []bool{true, false} {
		cfg := Config{Name: "rx", Interface: "lo"}
		if !up {
			cfg.Interface = "dnetwork-none0" // never opens: the worker waits between attempts
			cfg.BackoffMin = time.Hour
		}
		w, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- w.Run(ctx) }()
		if up {
			if err := w.WaitUp(ctx); err != nil {
				t.Fatal(err)
			}
		}
		calls := make(chan int, 8)
		var n int
		w.SetHandler(func(ds []Datagram) {
			n++ // the worker's goroutine only: the race detector checks it
			calls <- len(ds)
		})
		for i, what := range []string{"SetHandler", "Wake", "a second Wake"} {
			if i > 0 {
				w.Wake()
			}
			select {
			case k := <-calls:
				if k != 0 {
					t.Fatalf("up %v: called with %d datagrams after %s", up, k, what)
				}
			case <-time.After(waitLimit):
				t.Fatalf("up %v: not called after %s", up, what)
			}
		}
		w.SetHandler(nil)
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}
