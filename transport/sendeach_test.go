package transport

import (
	"errors"
	"net/netip"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSendToEach: one call sends the datagram to every destination, each counted and
// tapped as a SendTo would; a destination the kernel refuses in the middle of the batch
// fails alone and those after it are still sent.
func TestSendToEach(t *testing.T) {
	var txLog tapLog
	tx := start(t, Config{Name: "tx", Interface: "lo", Tap: txLog.tap})
	rxs := []*Worker{
		start(t, Config{Name: "rx1", Interface: "lo"}),
		start(t, Config{Name: "rx2", Interface: "lo"}),
		start(t, Config{Name: "rx3", Interface: "lo"}),
	}
	var dsts []netip.AddrPort
	for _, rx := range rxs {
		dsts = append(dsts, rx.LocalAddr())
	}

	n, err := tx.SendToEach([]byte("team"), dsts)
	if n != 3 || err != nil {
		t.Fatalf("SendToEach to 3 = %d, %v; want 3, nil", n, err)
	}
	for _, rx := range rxs {
		if d := recv(t, rx); string(d.Payload) != "team" || d.Src != tx.LocalAddr() {
			t.Fatalf("%s got %q from %v, want \"team\" from %v", rx.Name(), d.Payload, d.Src, tx.LocalAddr())
		}
	}
	if s := tx.Stats(); s.Sent != 3 || s.SendErrors != 0 {
		t.Fatalf("stats %+v after 3 sends; want 3 sent, no error", s)
	}

	// Port 0 is refused by the kernel (EINVAL): the second of three fails, the batch
	// stops there, and the third goes in the call after it. A v4-mapped address is sent
	// as IPv4.
	bad := netip.MustParseAddrPort("127.0.0.1:0")
	mapped := netip.AddrPortFrom(netip.AddrFrom16(rxs[2].LocalAddr().Addr().As16()), rxs[2].LocalAddr().Port())
	n, err = tx.SendToEach([]byte("again"), []netip.AddrPort{dsts[0], bad, mapped})
	if n != 2 || !errors.Is(err, syscall.EINVAL) || !strings.Contains(err.Error(), bad.String()) {
		t.Fatalf("SendToEach with a refused destination = %d, %v; want 2 and EINVAL naming %v", n, err, bad)
	}
	if d := recv(t, rxs[0]); string(d.Payload) != "again" {
		t.Fatalf("rx1 got %q, want \"again\"", d.Payload)
	}
	if d := recv(t, rxs[2]); string(d.Payload) != "again" {
		t.Fatalf("rx3 got %q after the refused destination, want \"again\"", d.Payload)
	}
	noRecv(t, rxs[1], 50*time.Millisecond)
	if s := tx.Stats(); s.Sent != 5 || s.SendErrors != 1 {
		t.Fatalf("stats %+v; want 5 sent, 1 send error", s)
	}
	var sent []netip.AddrPort
	for _, e := range txLog.get() {
		if e.dir == Sent {
			sent = append(sent, e.dst)
		}
	}
	want := append(slices.Clone(dsts), dsts[0], dsts[2])
	if !slices.Equal(sent, want) {
		t.Fatalf("tapped sends to %v, want %v (the refused one not among them)", sent, want)
	}

	// More destinations than the batch reports on without allocating.
	many := make([]netip.AddrPort, maxEach+4)
	for i := range many {
		many[i] = dsts[i%len(dsts)]
	}
	if n, err := tx.SendToEach([]byte("many"), many); n != len(many) || err != nil {
		t.Fatalf("SendToEach to %d = %d, %v", len(many), n, err)
	}
	for i := range many {
		if d := recv(t, rxs[i%len(rxs)]); string(d.Payload) != "many" {
			t.Fatalf("datagram %d: %q, want \"many\"", i, d.Payload)
		}
	}
	if s := tx.Stats(); s.Sent != 5+uint64(len(many)) {
		t.Fatalf("stats %+v; want %d sent", s, 5+len(many))
	}
}

// TestSendToEachErrors: a datagram that cannot be sent at all fails for every
// destination, each counted; an IPv6 destination among IPv4 ones is sent one by one
// (and fails alone on the IPv4 socket).
func TestSendToEachErrors(t *testing.T) {
	w := start(t, Config{Name: "tx", Interface: "lo", MaxDatagram: 8})
	rx := start(t, Config{Name: "rx", Interface: "lo"})
	dsts := []netip.AddrPort{rx.LocalAddr(), rx.LocalAddr()}
	if n, err := w.SendToEach([]byte("123456789"), dsts); n != 0 || !errors.Is(err, ErrTooLarge) {
		t.Fatalf("too large to 2 = %d, %v; want 0, ErrTooLarge", n, err)
	}
	if s := w.Stats(); s.SendErrors != 2 {
		t.Fatalf("stats %+v; want 2 send errors", s)
	}
	if n, err := w.SendToEach([]byte("x"), nil); n != 0 || err != nil {
		t.Fatalf("to nobody = %d, %v; want 0, nil", n, err)
	}
	v6 := netip.MustParseAddrPort("[::1]:9")
	n, err := w.SendToEach([]byte("v4v6"), []netip.AddrPort{rx.LocalAddr(), v6})
	if n != 1 || err == nil {
		t.Fatalf("to an IPv4 and an IPv6 destination = %d, %v; want 1 and an error", n, err)
	}
	if d := recv(t, rx); string(d.Payload) != "v4v6" {
		t.Fatalf("got %q, want \"v4v6\"", d.Payload)
	}
	if s := w.Stats(); s.Sent != 1 || s.SendErrors != 3 {
		t.Fatalf("stats %+v; want 1 sent, 3 send errors", s)
	}
}
