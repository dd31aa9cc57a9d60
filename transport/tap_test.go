package transport

import (
	"net/netip"
	"sync"
	"testing"
)

// tapped is what a test Tap saw.
type tapped struct {
	dir     Direction
	payload string
	src     netip.AddrPort
	dst     netip.AddrPort
}

type tapLog struct {
	mu   sync.Mutex
	seen []tapped
}

func (l *tapLog) tap(dir Direction, d Datagram) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seen = append(l.seen, tapped{dir, string(d.Payload), d.Src, d.Dst})
}

func (l *tapLog) get() []tapped {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]tapped(nil), l.seen...)
}

// TestTapSeesReceivedAndSent: the Tap sees every datagram a worker sends and every one
// it receives, filtered ones included, with addresses and direction.
func TestTapSeesReceivedAndSent(t *testing.T) {
	var rxLog, txLog tapLog
	rx := start(t, Config{Name: "rx", Interface: "lo", Tap: rxLog.tap,
		Filter: func(d Datagram) bool { return string(d.Payload) != "drop" }})
	tx := start(t, Config{Name: "tx", Interface: "lo", Tap: txLog.tap})
	for _, p := range []string{"drop", "keep"} {
		if err := tx.SendTo([]byte(p), rx.LocalAddr()); err != nil {
			t.Fatal(err)
		}
	}
	if d := recv(t, rx); string(d.Payload) != "keep" {
		t.Fatalf("delivered %q, want keep", d.Payload)
	}
	eventually(t, "both datagrams tapped", func() bool { return len(rxLog.get()) == 2 })
	want := []tapped{
		{Received, "drop", tx.LocalAddr(), rx.LocalAddr()},
		{Received, "keep", tx.LocalAddr(), rx.LocalAddr()},
	}
	if got := rxLog.get(); got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("rx tap saw %+v, want %+v", got, want)
	}
	got := txLog.get()
	if len(got) != 2 || got[0] != (tapped{Sent, "drop", tx.LocalAddr(), rx.LocalAddr()}) || got[1].payload != "keep" {
		t.Fatalf("tx tap saw %+v, want both datagrams sent from %v to %v", got, tx.LocalAddr(), rx.LocalAddr())
	}
	if Received.String() != "received" || Sent.String() != "sent" {
		t.Fatalf("direction names %q %q", Received, Sent)
	}
}
