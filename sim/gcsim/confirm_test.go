package gcsim

import (
	"context"
	"fmt"
	"net/netip"
	"runtime"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"github.com/robocup-dnetwork/dnetwork/node/gamecontroller"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// TestGamesNeedNoConfirmation: every packet of the built-in game, in every layout, is
// a change a GameController makes in one step, so the robots' GameController client
// publishes each at once (node/gamecontroller holds only the others for a second
// packet).
func TestGamesNeedNoConfirmation(t *testing.T) {
	for _, l := range []gcproto.Layout{gcproto.LayoutHL688, gcproto.LayoutSPL18, gcproto.LayoutHSL19, gcproto.LayoutHSL20} {
		t.Run(l.String(), func(t *testing.T) {
			half := 20 * time.Second
			cfg := Config{Setup: Setup{Layout: l}, Script: DefaultScript(l, half)}
			simulate(t, cfg, func(t *testing.T, h *harness) {
				h.advance(3*half + 20*time.Second)
				var prev gcproto.Packet
				var prevAt time.Duration
				n := 0
				for i, s := range h.out.all() {
					var p gcproto.Packet
					if err := p.UnmarshalBinary(s.Payload); err != nil {
						t.Fatal(err)
					}
					if i > 0 {
						if why := gamecontroller.Doubt(&prev, &p, s.At-prevAt); why != "" {
							t.Errorf("packet %d at %v (%v → %v, score %d:%d → %d:%d): %s", i, s.At, prev.State, p.State,
								prev.Teams[0].Score, prev.Teams[1].Score, p.Teams[0].Score, p.Teams[1].Score, why)
						}
					}
					prev, prevAt = p, s.At
					n++
				}
				if n < 100 {
					t.Fatalf("only %d packets", n)
				}
				t.Logf("%d packets, ending %v", n, prev.State)
			})
		})
	}
}

// TestFastGamesStayConnected plays the built-in game at speeds above 1 (the game
// clock runs faster than the packets go out at 2 Hz) into the robots' GameController
// client: it learns the pace from the first packets, holds at most two of them and
// never loses the connection. The client runs outside the simulation's bubble (its
// wall-clock grid is process-wide).
func TestFastGamesStayConnected(t *testing.T) {
	for _, speed := range []float64{3, 5, 10} {
		for _, l := range []gcproto.Layout{gcproto.LayoutSPL18, gcproto.LayoutHSL20} {
			t.Run(fmt.Sprintf("%v/x%v", l, speed), func(t *testing.T) {
				half := 60 * time.Second
				cfg := Config{Setup: Setup{Layout: l}, Script: DefaultScript(l, half), Speed: speed}
				var out []sent
				simulate(t, cfg, func(t *testing.T, h *harness) {
					h.advance(time.Duration(float64(3*half+60*time.Second) / speed))
					out = h.out.all()
				})
				clk := clock.NewManual(t0)
				conn := bus.NewFakeConn(64)
				gc := gamecontroller.DefaultConfig()
				gc.Team, gc.Player, gc.Logger = int(teamA), 1, quiet
				c, err := gamecontroller.New(gc, conn, clk, &bus.Recorder[dmsgs.GCInfo]{}, &bus.Recorder[dmsgs.GameControlData]{})
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithCancel(t.Context())
				done := make(chan error, 1)
				go func() { done <- c.Run(ctx) }()
				defer func() {
					cancel()
					if err := <-done; err != nil {
						t.Error(err)
					}
				}()
				src := netip.MustParseAddrPort("10.0.0.1:3838")
				for i, s := range out {
					clk.Set(t0.Add(s.At))
					conn.Deliver(transport.Datagram{Payload: s.Payload, Src: src, Time: clk.Now()})
					for deadline := time.Now().Add(5 * time.Second); c.Status().Counters.Received != uint64(i+1); {
						if time.Now().After(deadline) {
							t.Fatalf("packet %d not handled", i)
						}
						runtime.Gosched()
					}
					if !c.Snapshot().Connected {
						t.Fatalf("packet %d at %v: GameController lost (%+v)", i, s.At, c.Status().Counters.Unconfirmed)
					}
				}
				st := c.Status().Counters
				if st.Unconfirmed.Total() > 2 || st.Accepted+st.Unconfirmed.Total() != st.Received {
					t.Fatalf("%d packets: %d accepted, unconfirmed %v", st.Received, st.Accepted, st.Unconfirmed)
				}
			})
		}
	}
}
