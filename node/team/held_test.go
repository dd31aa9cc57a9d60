package team

import (
	"fmt"
	"net/netip"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// TestBurstFlushedTogether: the TeamInfo messages of packets queued together are held
// and flushed once the queue is empty (every maxUnplanned under a longer stream), and
// none is left held while the component waits, on both the ticking and the timed Run.
func TestBurstFlushedTogether(t *testing.T) {
	src := netip.MustParseAddrPort("10.0.0.9:10017")
	packet := func(seq uint32) transport.Datagram {
		p := dnetFrom(t, 17, 3, seq, stampAt(harnessStart)+time.Duration(seq)*time.Millisecond, nil)
		return transport.Datagram{Payload: p, Src: src, Time: harnessStart}
	}
	for _, timed := range []bool{false, true} {
		for _, c := range []struct {
			queued, wantFlushes int
		}{
			{5, 1},                  // one sender's first packet waits for its second: 4 published
			{2*maxUnplanned + 8, 3}, // 39 published: flushed at 16, 32 and the last 7
			{maxUnplanned + 1, 1},   // 16 published: the 16th is both the bound and the last
		} {
			t.Run(fmt.Sprintf("timed=%v/%d", timed, c.queued), func(t *testing.T) {
				g := &fakeGame{s: NoGame, changed: make(chan struct{}, 1)}
				var view GameView = g
				if timed {
					view = notifyingGame{g}
				}
				// Queued before Run starts: the component finds them all waiting.
				h := startHarness(t, testConfig(), harnessStart, func(comp *Component) {
					for seq := range c.queued {
						if !comp.conn.(*bus.FakeConn).Deliver(packet(uint32(seq + 1))) {
							t.Fatal("fake socket queue full")
						}
					}
				}, g, view)
				for range c.queued {
					h.expect(eventDatagram)
				}
				want := c.queued - 1
				if got := h.rec.Len(); got != want || h.rec.Held() != 0 || h.rec.Flushes() != c.wantFlushes {
					t.Fatalf("published %d (want %d), held %d (want 0), in %d flushes (want %d)",
						got, want, h.rec.Held(), h.rec.Flushes(), c.wantFlushes)
				}
				// A packet alone is flushed at once.
				h.deliver(packet(uint32(c.queued + 1)).Payload)
				if h.rec.Len() != want+1 || h.rec.Held() != 0 || h.rec.Flushes() != c.wantFlushes+1 {
					t.Fatalf("after a lone packet: published %d, held %d, %d flushes", h.rec.Len(), h.rec.Held(), h.rec.Flushes())
				}
				h.checkInvariants()
			})
		}
	}
}
