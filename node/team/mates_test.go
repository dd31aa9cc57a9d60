package team

import (
	"log/slog"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
)

// TestMatesBeforeTheClock checks the list of players heard on a clock that has no time
// yet (simulation time before the first /clock: every packet is heard at the zero
// time): 300 packets of one teammate list it once, and a teammate heard only at the
// zero time is not counted online (as before the list: a zero heard time is never
// online).
func TestMatesBeforeTheClock(t *testing.T) {
	cfg := testConfig()
	cfg.Player, cfg.Format = 2, FormatZJU
	cfg.Logger = slog.New(slog.DiscardHandler)
	clk := clock.NewManual(time.Time{})
	c, err := New(cfg, Deps{Conn: nopConn{}, Publisher: bus.PublisherFunc[dmsgs.TeamInfo](nopPublish), Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	s := teaminfo.State{Team: 17, Player: 3, Role: teaminfo.RoleSupporter}
	b, err := teaminfo.AppendZJU(nil, &s)
	if err != nil {
		t.Fatal(err)
	}
	d := datagram(b)
	for range 300 {
		c.receive(d, c.clk.Now())
	}
	if st := c.Status().Receive; st.Accepted == 0 {
		t.Fatalf("no packet accepted: %+v", st)
	}
	if c.st.nMates != 1 || c.st.mates[0] != 3 {
		t.Fatalf("players listed: %v, want [3]", c.st.mates[:c.st.nMates])
	}
	snap := NoGame
	if r := c.read(time.Time{}, &snap, c.budget); r.online != 0 || r.on[3] {
		t.Errorf("a teammate heard only at the zero time counts as online (%d online)", r.online)
	}
	clk.Set(harnessStart)
	c.receive(d, c.clk.Now())
	if r := c.read(harnessStart, &snap, c.budget); r.online != 1 || !r.on[3] {
		t.Errorf("after a packet at %v: %d online, player 3 %v; want 1, true", harnessStart, r.online, r.on[3])
	}
}
