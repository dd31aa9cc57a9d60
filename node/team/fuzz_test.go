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

// FuzzReceive feeds arbitrary datagrams to a zju, a dnet and a signed dnet receiver: none
// may panic, each datagram ends accepted or dropped by exactly one cause, and whatever is
// accepted comes from a teammate of our team with another player number.
func FuzzReceive(f *testing.F) {
	key, _ := teaminfo.NewKey([]byte("team17-shared-secret"))
	f.Add(zjuFrom(f, 17, 3))
	f.Add(zjuFrom(f, 18, 3))
	f.Add(dnetFrom(f, 17, 3, 1, time.Second, nil))
	f.Add(dnetFrom(f, 17, 3, 1, time.Second, key))
	f.Add(dnetFrom(f, 17, 2, 1, time.Second, nil))
	f.Add([]byte("DNt\x01\x00\x11"))
	f.Add([]byte{})

	quiet := slog.New(slog.DiscardHandler)
	var comps []*Component
	var recs []*bus.Recorder[dmsgs.TeamInfo]
	for _, set := range []func(c *Config){
		func(c *Config) { c.Format = FormatZJU },
		func(c *Config) {},
		func(c *Config) { c.AuthKey = []byte("team17-shared-secret") },
	} {
		cfg := DefaultConfig()
		cfg.Team, cfg.Player, cfg.Logger = 17, 2, quiet
		set(&cfg)
		rec := &bus.Recorder[dmsgs.TeamInfo]{}
		c, err := New(cfg, Deps{Conn: bus.NewFakeConn(1), Publisher: rec, Clock: clock.NewManual(harnessStart)})
		if err != nil {
			f.Fatal(err)
		}
		comps, recs = append(comps, c), append(recs, rec)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for i, c := range comps {
			before := c.Status().Receive
			n := recs[i].Len()
			c.receive(datagram(b))
			r := c.Status().Receive
			if r.Received != before.Received+1 || r.Received != r.Accepted+r.Dropped() {
				t.Fatalf("%v: counters %+v after %+v", c.cfg.Format, r, before)
			}
			if r.Accepted > before.Accepted {
				m, _ := recs[i].Last()
				if recs[i].Len() != n+1 || m.TeamNumber != 17 || m.PlayerNumber == 2 || m.PlayerNumber == 0 {
					t.Fatalf("%v: accepted %+v", c.cfg.Format, m)
				}
				if c.key != nil && !m.Authenticated {
					t.Fatal("accepted an unauthenticated packet with a key configured")
				}
			}
			recs[i].Reset()
		}
	})
}
