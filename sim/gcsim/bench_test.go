package gcsim

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/clock"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// nopSender discards packets.
type nopSender struct{ n int }

func (s *nopSender) SendTo([]byte, netip.AddrPort) error { s.n++; return nil }
func (s *nopSender) Broadcast([]byte, uint16) error      { s.n++; return nil }

func benchSim(b testing.TB, l gcproto.Layout) (*Simulator, *clock.Manual, *nopSender) {
	b.Helper()
	clk := clock.NewManual(t0)
	out := &nopSender{}
	s := Setup{Layout: l, Teams: [2]uint8{teamA, teamB}}
	sc, err := ParseScript(strings.NewReader("half 10000s\n0 ready A\n0 set\n0 playing\n0 penalise B 2 100s"), s)
	if err != nil {
		b.Fatal(err)
	}
	sim, err := New(Config{Setup: s, Script: sc, Clock: clk, Control: out, Dest: dstOne, Logger: quiet})
	if err != nil {
		b.Fatal(err)
	}
	sim.start, sim.last, sim.sendAt = t0, t0, t0
	return sim, clk, out
}

// BenchmarkTick is one tick of a running game with a packet due: the timers advance
// and the control packet is encoded and sent.
func BenchmarkTick(b *testing.B) {
	for _, l := range []gcproto.Layout{gcproto.LayoutHSL20, gcproto.LayoutSPL18, gcproto.LayoutHL688} {
		b.Run(l.String(), func(b *testing.B) {
			sim, _, out := benchSim(b, l)
			now := t0
			b.ReportAllocs()
			for b.Loop() {
				now = now.Add(SendInterval)
				sim.step(now, nil)
			}
			if out.n == 0 {
				b.Fatal("nothing sent")
			}
		})
	}
}

// BenchmarkReturn is one valid return packet from a known robot.
func BenchmarkReturn(b *testing.B) {
	sim, _, _ := benchSim(b, gcproto.LayoutHSL20)
	r := gcproto.NewAlive(teamA, 3)
	payload, _ := r.MarshalBinary()
	d := transport.Datagram{Payload: payload, Src: robotSrc}
	sim.onReturn(d)
	b.ReportAllocs()
	for b.Loop() {
		sim.onReturn(d)
	}
	if rs := sim.Robots(); len(rs) != 1 || rs[0].Packets < 2 {
		b.Fatalf("robots %+v", rs)
	}
}

func TestTickDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	sim, _, _ := benchSim(t, gcproto.LayoutHSL20)
	now := t0
	allocs := testing.AllocsPerRun(100, func() {
		now = now.Add(SendInterval)
		sim.step(now, nil)
	})
	if allocs != 0 {
		t.Errorf("a tick allocates %v times, want 0", allocs)
	}
}
