package worldinfo

import (
	"context"
	"math"
	"net"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/internal/netnstest"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"github.com/robocup-dnetwork/dnetwork/transport"
	wit "github.com/robocup-dnetwork/dnetwork/transport/worldinfo"
	"go.uber.org/goleak"
)

// TestLoopbackUDP feeds a component through a real transport.Worker on 127.0.0.1: a plain
// UDP socket sends a peer's datagrams to the worker's port. With loopback on they are
// published; with loopback off they are dropped as Fawkes drops 127.0.0.1.
func TestLoopbackUDP(t *testing.T) {
	before := goleak.IgnoreCurrent()
	for _, loop := range []bool{true, false} {
		w, err := transport.New(transport.Config{Name: "wi-test", Interface: "lo", Logger: quiet})
		if err != nil {
			t.Fatal(err)
		}
		rec := &bus.Recorder[dmsgs.WorldInfo]{}
		cfg := testConfig()
		cfg.Loop = loop
		c, err := New(cfg, Deps{Clock: clock.NewManual(t0), Conn: w, Publisher: rec})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		wdone, cdone := make(chan error, 1), make(chan error, 1)
		go func() { wdone <- w.Run(ctx) }()
		go func() { cdone <- c.Run(ctx) }()
		up, upCancel := context.WithTimeout(ctx, 5*time.Second)
		if err := w.WaitUp(up); err != nil {
			t.Fatal(err)
		}
		upCancel()

		conn, err := net.Dial("udp4", w.LocalAddr().String())
		if err != nil {
			t.Fatal(err)
		}
		p := newPeer(t, wit.Config{})
		for i := range 3 {
			must(t, p.s.SetPose(float32(i), 1, 0.5, cov9))
			if _, err := conn.Write(p.send()[0]); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := conn.Write([]byte("junk")); err != nil {
			t.Fatal(err)
		}
		conn.Close()
		waitFor(t, "four datagrams", func() bool { return c.Status().Received == 4 })
		cancel()
		if err := <-wdone; err != nil {
			t.Errorf("worker: %v", err)
		}
		if err := <-cdone; err != nil {
			t.Errorf("component: %v", err)
		}

		st := c.Status()
		if st.Received != st.Published+st.PublishErrors+st.Recv.Dropped() ||
			st.Socket.Received != st.Socket.Delivered+st.Socket.Dropped() {
			t.Errorf("loop %v: counters do not add up: %+v", loop, st)
		}
		if !loop {
			// The loopback rule comes first: even the junk is a loopback drop, not malformed.
			if rec.Len() != 0 || st.Recv.Loopback != 4 || st.Socket.Malformed != 0 {
				t.Errorf("loopback off: published %d, status %+v", rec.Len(), st)
			}
			continue
		}
		if st.Socket.Malformed != 1 || st.Recv.CipherLength != 1 {
			t.Errorf("junk not counted as malformed: %+v", st)
		}
		msgs := rec.Messages()
		if len(msgs) != 3 {
			t.Fatalf("published %d messages", len(msgs))
		}
		for i, m := range msgs {
			if m.Sender != "127.0.0.1" || m.Sequence != uint32(i) || !m.HasPose || m.Pose.X != float64(i) {
				t.Errorf("message %d: %+v", i, m)
			}
		}
	}
	goleak.VerifyNone(t, before)
}

// TestMulticastNetns runs two components, each with its own multicast socket, in two
// network namespaces joined by a veth pair: they exchange world info on the Fawkes group
// over real UDP multicast and publish what they hear, per sender.
func TestMulticastNetns(t *testing.T) {
	netnstest.Require(t)
	before := goleak.IgnoreCurrent()
	nsA, nsB := netnstest.New(t, "nwa"), netnstest.New(t, "nwb")
	netnstest.Veth(t, nsA, "va", "10.94.0.1/24", nsB, "vb", "10.94.0.2/24")
	nsA.WaitOperUp(t, "va")
	nsB.WaitOperUp(t, "vb")

	clk := clock.NewManual(t0)
	type robot struct {
		c    *Component
		rec  *bus.Recorder[dmsgs.WorldInfo]
		stop func() error
	}
	run := func(ns *netnstest.NS, ifName string, player int) robot {
		cfg := testConfig()
		cfg.Interface, cfg.PlayerNumber = ifName, player
		rec := &bus.Recorder[dmsgs.WorldInfo]{}
		game := GameFunc(func() (Game, bool) { return testGame, true })
		c, err := New(cfg, Deps{Clock: clk, Publisher: rec, Game: game})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		wait := ns.Go(func() error { return c.Run(ctx) }) // the socket opens inside ns
		stop := func() error { cancel(); return wait() }
		t.Cleanup(func() { _ = stop() })
		up, upCancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer upCancel()
		if err := c.WaitUp(up); err != nil {
			t.Fatalf("%s: %v (status %+v)", ifName, err, c.Status().SocketStatus)
		}
		<-c.ready
		return robot{c, rec, stop}
	}
	a, b := run(nsA, "va", 1), run(nsB, "vb", 2)
	a.c.SetVision(testVision())

	// One cycle: both send (game state and penalty; A also its pose, ball, opponents).
	clk.Advance(DefaultInterval)
	waitFor(t, "both to hear each other", func() bool { return a.rec.Len() == 1 && b.rec.Len() == 1 })
	fromA, _ := b.rec.Last()
	fromB, _ := a.rec.Last()
	if fromA.Sender != "10.94.0.1" || !fromA.HasPose || math.Abs(fromA.Pose.X-1) > 1e-6 ||
		!fromA.RelativeBall.Valid || len(fromA.Opponents) != 2 || !fromA.HasGameState ||
		len(fromA.Penalties) != 1 || fromA.Penalties[0].Player != 1 {
		t.Errorf("B heard from A: %+v", fromA)
	}
	if fromB.Sender != "10.94.0.2" || fromB.HasPose || !fromB.HasGameState || len(fromB.Penalties) != 1 ||
		fromB.Penalties[0].Player != 2 || fromB.Penalties[0].SecondsRemaining != 20 {
		t.Errorf("A heard from B: %+v", fromB)
	}

	// Two more cycles; loopback is off, so nobody hears itself.
	for i := uint64(2); i <= 3; i++ {
		clk.Advance(DefaultInterval)
		waitFor(t, "another exchange", func() bool { return a.rec.Len() == int(i) && b.rec.Len() == int(i) })
	}
	// A fence: a fourth cycle. A datagram is counted as sent once the write returned and
	// as published once Publish returned, both possibly after the peer's recorder has it:
	// wait for the counters. Anything the first three cycles sent or published more would
	// have come before the fourth cycle's, and the clock stands still after it.
	clk.Advance(DefaultInterval)
	waitFor(t, "the fourth exchange", func() bool { return a.rec.Len() >= 4 && b.rec.Len() >= 4 })
	for _, r := range []robot{a, b} {
		waitFor(t, "the counters", func() bool {
			st := r.c.Status()
			return st.Send.Sent >= 4 && st.Published >= 4
		})
	}
	for name, r := range map[string]robot{"A": a, "B": b} {
		st := r.c.Status()
		if msgs := r.rec.Messages(); len(msgs) != 4 || msgs[3].Sequence != 3 {
			t.Errorf("%s: published %d messages, want 4, the fourth cycle's (sequence 3) last: %+v", name, len(msgs), msgs)
		}
		if r.rec.Len() != 4 || st.Send.Sent != 4 || st.Published != 4 || st.Received != 4 ||
			len(st.Senders) != 1 || st.Senders[0].Datagrams != 4 || st.Senders[0].LastSeq != 3 ||
			st.SocketStatus.State != transport.StateUp || st.Interface.Name != map[string]string{"A": "va", "B": "vb"}[name] {
			t.Errorf("%s: published %d, status %+v", name, r.rec.Len(), st)
		}
	}
	if err := a.stop(); err != nil {
		t.Errorf("A: %v", err)
	}
	if err := b.stop(); err != nil {
		t.Errorf("B: %v", err)
	}
	goleak.VerifyNone(t, before)
	if st := a.c.Status().SocketStatus; st.State != transport.StateStopped {
		t.Errorf("A's socket after Run: %+v", st)
	}
}
