package gcsim

import (
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/node/gamecontroller"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
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
