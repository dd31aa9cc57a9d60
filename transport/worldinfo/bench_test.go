package worldinfo

import (
	"net/netip"
	"testing"
	"time"

	wi "github.com/robocup-dnetwork/dnetwork/proto/worldinfo"
)

// setFullUpdate sets the 280-byte full update of the test vectors.
func setFullUpdate(tb testing.TB, s *Sender) {
	for _, err := range []error{
		s.SetPose(1, 2, 0.5, zero9),
		s.SetVelocity(0.5, -0.5, 1, zero9),
		s.SetRelBallPos(2, 0.5, -0.25, zero9),
		s.SetGameState(3, wi.TeamCyan),
		s.AddPenalty(3, wi.PenaltyReqForPickup, 30),
		s.AddOpponent(1, 1, 0, zero4),
		s.AddOpponent(2, 2, 0.5, zero4),
		s.AddOpponent(3, 3, -0.5, zero4),
	} {
		if err != nil {
			tb.Fatal(err)
		}
	}
	s.SetRelBallVisible(true, 5)
}

// BenchmarkSend sets a full update and builds and encrypts its datagram.
func BenchmarkSend(b *testing.B) {
	s, err := NewSender(Config{})
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	write := func(d []byte) error { n += len(d); return nil }
	b.ReportAllocs()
	for b.Loop() {
		setFullUpdate(b, s)
		if err := s.Send(write); err != nil {
			b.Fatal(err)
		}
	}
	if n != 288*b.N {
		b.Fatalf("sent %d bytes in %d datagrams", n, b.N)
	}
	b.SetBytes(288)
}

// BenchmarkReceive decrypts, checks, parses and dispatches full updates to one handler.
func BenchmarkReceive(b *testing.B) {
	const ring = 1024
	s, err := NewSender(Config{})
	if err != nil {
		b.Fatal(err)
	}
	dgs := make([][]byte, 0, ring)
	for range ring {
		setFullUpdate(b, s)
		if err := s.Send(func(d []byte) error { dgs = append(dgs, append([]byte(nil), d...)); return nil }); err != nil {
			b.Fatal(err)
		}
	}
	clk := newClock()
	r, err := NewReceiver(Config{Now: clk.Now})
	if err != nil {
		b.Fatal(err)
	}
	records := 0
	count := func(netip.Addr, wi.Opponent) { records++ }
	if err := r.AddHandler(&Funcs{OnOpponent: count}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(288)
	i := 0
	for b.Loop() {
		if i == ring { // let the sender be forgotten so its sequence can start again
			i = 0
			clk.Advance(DefaultFlushAfter + time.Second)
		}
		if err := r.Receive(peerA, dgs[i]); err != nil {
			b.Fatal(err)
		}
		i++
	}
	if records != 3*b.N {
		b.Fatalf("%d opponents delivered for %d datagrams", records, b.N)
	}
}
