package team

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/internal/kernelq"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/geometry_msgs"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// TestLoopbackTeam runs three robots of one team on 127.0.0.1, each with its own
// transport.Worker on its own port, in the per-robot-port mode (Config.Peers), with
// signed dnet packets and the wall clock, while their inputs change concurrently. Every
// robot must hear both others, publish only their packets, and count every datagram.
func TestLoopbackTeam(t *testing.T) {
	quiet := slog.New(slog.DiscardHandler)
	const robots = 3
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
	}()

	// The sockets outlive the components, so that their counters can be compared.
	wctx, wcancel := context.WithCancel(context.Background())
	var wwg sync.WaitGroup
	defer func() {
		wcancel()
		wwg.Wait()
	}()
	workers := make([]*transport.Worker, robots)
	for i := range workers {
		w, err := transport.New(transport.Config{Name: "team", Interface: "lo", Logger: quiet})
		if err != nil {
			t.Fatal(err)
		}
		workers[i] = w
		wwg.Go(func() {
			if err := w.Run(wctx); err != nil {
				t.Errorf("worker %d: %v", i, err)
			}
		})
		up, upCancel := context.WithTimeout(ctx, 5*time.Second)
		err = w.WaitUp(up)
		upCancel()
		if err != nil {
			t.Fatalf("worker %d not up: %v", i, err)
		}
	}

	comps := make([]*Component, robots)
	recs := make([]*bus.Recorder[dmsgs.TeamInfo], robots)
	for i := range comps {
		cfg := testConfig()
		cfg.Logger = quiet
		cfg.Player = uint8(i + 1)
		cfg.AuthKey = []byte("team17-shared-secret")
		for j, w := range workers {
			if j != i {
				cfg.Peers = append(cfg.Peers, w.LocalAddr())
			}
		}
		recs[i] = &bus.Recorder[dmsgs.TeamInfo]{}
		// A budget large enough that the rate table rules: 59 900 / 1 200 s / 3 robots
		// = 16.6 msg/s per robot, faster than ball handling's 15 Hz.
		c, err := New(cfg, Deps{Conn: workers[i], Publisher: recs[i], Clock: clock.Wall,
			Game: GameFunc(func() GameSnapshot {
				return GameSnapshot{Connected: true, State: StatePlaying, FirstHalf: true, SecsRemaining: 600, MessageBudget: 60000}
			})})
		if err != nil {
			t.Fatal(err)
		}
		comps[i] = c
		wg.Go(func() {
			if err := c.Run(ctx); err != nil {
				t.Errorf("robot %d: %v", i+1, err)
			}
		})
		// Inputs arrive concurrently with the ticks, as ROS callbacks do.
		wg.Go(func() {
			tk := time.NewTicker(10 * time.Millisecond)
			defer tk.Stop()
			for n := 0; ; n++ {
				select {
				case <-ctx.Done():
					return
				case <-tk.C:
				}
				c.SetMotion(&dmsgs.MotionInfo{Stable: n%7 != 0})
				c.SetBehavior(&dmsgs.BehaviorInfo{TeamPlayState: dmsgs.BehaviorInfoStateBallHandling,
					CurrentRole: uint8(i + 1), Voronoi: []geometry_msgs.Vector3{v3(float64(n), 0, 0)}})
				c.SetVision(&dmsgs.VisionInfo{SeeBall: n%2 == 0, RobotPos: v3(float64(100*i), 0, 0)})
			}
		})
	}

	// Ball handling: 15 packets a second each. Wait for 10 from each teammate.
	deadline := time.Now().Add(5 * time.Second)
	for i, rec := range recs {
		for {
			from := map[uint8]int{}
			for _, m := range rec.Messages() {
				from[m.PlayerNumber]++
			}
			done := true
			for p := uint8(1); p <= robots; p++ {
				if p != uint8(i+1) && from[p] < 10 {
					done = false
				}
			}
			if from[uint8(i+1)] != 0 {
				t.Fatalf("robot %d published its own packets", i+1)
			}
			if done {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("robot %d heard %v within 5 s; status %+v", i+1, from, comps[i].Status())
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	for i, c := range comps {
		st := c.Status()
		if len(st.Teammates) != robots-1 {
			t.Errorf("robot %d: teammates %+v", i+1, st.Teammates)
		}
		if st.Budget.Cause != BudgetAllowance || !st.BudgetKnown || st.BudgetLeft >= 60000 {
			t.Errorf("robot %d: budget %d (%s)", i+1, st.BudgetLeft, st.IntervalReason())
		}
	}
	cancel()
	wg.Wait()
	for i, w := range workers {
		tr := w.Stats()
		st := comps[i].Status()
		r := st.Receive
		// Each teammate's first packet waits for its second (the replay filter).
		if r.Received != r.Accepted+r.Dropped() || r.Dropped() != r.Unconfirmed || r.Unconfirmed > robots-1 {
			t.Errorf("robot %d: receive counters %+v", i+1, r)
		}
		if tr.Received < r.Received || tr.Dropped() != 0 || tr.Sent != st.Send.Datagrams {
			t.Errorf("robot %d: socket %+v, component %+v / %+v", i+1, tr, r, st.Send)
		}
		if st.Send.Ticks != st.Send.Decisions() || st.Send.SendErrors != 0 || st.Send.Sent == 0 {
			t.Errorf("robot %d: send counters %+v", i+1, st.Send)
		}
		for _, m := range recs[i].Messages() {
			if !m.Authenticated || m.TeamNumber != 17 || m.Format != dmsgs.TeamInfoFormatDnet {
				t.Fatalf("robot %d published %+v", i+1, m)
			}
		}
	}
}

// TestSocketHandsOver: on a transport.Worker a timed Run takes the team packets on the
// socket's goroutine: while one is handled the socket is not read (nothing is queued),
// the packets that came meanwhile are handled as one burst (one flush of their
// TeamInfo), every one is published and counted, and once Run has returned the
// packets go to the queue again.
func TestSocketHandsOver(t *testing.T) {
	quiet := slog.New(slog.DiscardHandler)
	wctx, wcancel := context.WithCancel(context.Background())
	var wwg sync.WaitGroup
	defer func() {
		wcancel()
		wwg.Wait()
	}()
	w, err := transport.New(transport.Config{Name: "team", Interface: "lo", Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	wwg.Go(func() {
		if err := w.Run(wctx); err != nil {
			t.Errorf("worker: %v", err)
		}
	})
	up, upCancel := context.WithTimeout(wctx, 5*time.Second)
	defer upCancel()
	if err := w.WaitUp(up); err != nil {
		t.Fatal(err)
	}
	// Our own packets go to a socket nobody reads, on loopback.
	sink, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Close()
	mate, err := net.DialUDP("udp4", nil, net.UDPAddrFromAddrPort(w.LocalAddr()))
	if err != nil {
		t.Fatal(err)
	}
	defer mate.Close()

	cfg := testConfig()
	cfg.Peers = []netip.AddrPort{sink.LocalAddr().(*net.UDPAddr).AddrPort()}
	rec := &bus.Recorder[dmsgs.TeamInfo]{}
	c, err := New(cfg, Deps{Conn: w, Publisher: rec, Clock: clock.Wall})
	if err != nil {
		t.Fatal(err)
	}
	var handled atomic.Int32
	ready, entered, release := make(chan struct{}), make(chan struct{}), make(chan struct{})
	c.hook = func(e event) {
		switch {
		case e == eventReady:
			close(ready) // the handler is set
		case e == eventDatagram && handled.Add(1) == 2:
			close(entered)
			<-release
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	defer cancel()

	seq := uint32(0)
	send := func() {
		t.Helper()
		seq++
		if _, err := mate.Write(dnetFrom(t, 17, 3, seq, stampAt(time.Now()), nil)); err != nil {
			t.Fatal(err)
		}
	}
	// The first packet waits for the second (the replay filter); the second holds the
	// socket's goroutine in the hook.
	<-ready
	send()
	send()
	<-entered
	first := w.Stats().Received
	// Loopback queues a datagram on the socket before the send returns: each of the
	// five must then wait in the kernel's receive queue, unread.
	var queued uint64
	for i := range 5 {
		send()
		q, err := kernelq.Queued(w.LocalAddr().Port())
		if err == nil && q <= queued {
			err = fmt.Errorf("%d bytes in the kernel's queue after packet %d, %d before; want more", q, i+1, queued)
		}
		if err != nil {
			close(release) // or the socket's goroutine never returns
			t.Fatalf("while a packet was handled: %v", err)
		}
		queued = q
	}
	if s := w.Stats(); s.Received != first || len(w.Datagrams()) != 0 {
		t.Fatalf("while a packet was handled: socket %+v, %d queued; want %d received, none queued", s, len(w.Datagrams()), first)
	}
	close(release)
	total := int32(first) + 5
	deadline := time.Now().Add(5 * time.Second)
	for handled.Load() < total {
		if time.Now().After(deadline) {
			t.Fatalf("handled %d of %d packets; status %+v", handled.Load(), total, c.Status())
		}
		time.Sleep(5 * time.Millisecond)
	}
	// Published: every packet but the first, in two flushes: the second packet's
	// alone, then the five that waited.
	if rec.Len() != int(total)-1 || rec.Held() != 0 || rec.Flushes() != 2 {
		t.Fatalf("published %d (want %d), held %d, in %d flushes (want 2)", rec.Len(), total-1, rec.Held(), rec.Flushes())
	}
	st, s := c.Status().Receive, w.Stats()
	if st.Received != uint64(total) || st.Accepted != uint64(total)-1 || s.Delivered != uint64(total) || s.Dropped() != 0 || len(w.Datagrams()) != 0 {
		t.Fatalf("component %+v, socket %+v, %d queued", st, s, len(w.Datagrams()))
	}

	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	send()
	select {
	case d := <-w.Datagrams():
		if len(d.Payload) == 0 {
			t.Fatal("empty datagram queued")
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("after Run returned, no packet queued; socket %+v", w.Stats())
	}
	if int32(rec.Len()) != total-1 {
		t.Fatalf("published %d after Run returned, want %d", rec.Len(), total-1)
	}
}
