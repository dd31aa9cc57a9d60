package team

import (
	"bytes"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"github.com/robocup-dnetwork/dnetwork/proto/booster/boostertest"
	"github.com/robocup-dnetwork/dnetwork/proto/robocup"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
)

// FuzzReceive feeds arbitrary datagrams to a zju, a dnet, a signed dnet, two robocup
// (profiles none and bitbots) and a booster receiver: none
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
	// The g++-written Booster goldens (team 12: foreign here) and copies for team 17.
	for _, file := range []string{"main.hex", "2026.hex"} {
		text, err := os.ReadFile(filepath.Join(boostertest.Testdata(), file))
		if err != nil {
			f.Fatal(err)
		}
		for _, b := range boostertest.ParseHex(f, text) {
			f.Add(b)
			if len(b) > 8 {
				mine := bytes.Clone(b)
				mine[8] = 17
				f.Add(mine)
			}
		}
	}
	// Answers to our packet stamped 1 s (each dnet receiver below "sent" it), and a
	// version 1 packet.
	for _, hold := range []time.Duration{0, 5 * time.Millisecond, time.Minute} {
		s := teaminfo.State{Team: 17, Player: 3, Seq: 2, Stamp: 3 * time.Second,
			Echo: teaminfo.Echo{Player: 2, StampMs: 1000, Hold: hold}}
		b, err := teaminfo.AppendDNet(nil, &s, nil)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	v1 := teaminfo.DNetPacket{Version: teaminfo.DNetVersion1, Team: 17, Player: 4, Seq: 1, StampMs: 900}
	if b, err := v1.AppendBinary(nil); err == nil {
		f.Add(b)
	}

	for _, name := range []string{"standard_full", "bitbots", "nubots"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "proto", "robocup", "testdata", "golden", name+".bin"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}

	quiet := slog.New(slog.DiscardHandler)
	var comps []*Component
	var recs []*bus.Recorder[dmsgs.TeamInfo]
	for _, set := range []func(c *Config){
		func(c *Config) { c.Format = FormatZJU },
		func(c *Config) {},
		func(c *Config) { c.AuthKey = []byte("team17-shared-secret") },
		func(c *Config) { c.Format = FormatRobocup },
		func(c *Config) { c.Format, c.RobocupExtension = FormatRobocup, robocup.ExtBitBots },
		func(c *Config) { c.Format, c.BoosterMode = FormatBooster, BoosterBroadcast },
	} {
		cfg := DefaultConfig()
		cfg.Team, cfg.Player, cfg.Logger = 17, 2, quiet
		set(&cfg)
		rec := &bus.Recorder[dmsgs.TeamInfo]{}
		c, err := New(cfg, Deps{Conn: bus.NewFakeConn(1), Publisher: rec, Clock: clock.NewManual(harnessStart)})
		if err != nil {
			f.Fatal(err)
		}
		c.recent[0], c.recentN = time.Second, 1 // as if our packet stamped 1 s had left
		comps, recs = append(comps, c), append(recs, rec)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for i, c := range comps {
			before := c.Status().Receive
			n := recs[i].Len()
			c.receive(datagram(b), c.clk.Now())
			c.flushIfIdle(0) // as Run does once the queue is empty
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
				// A known clock offset has a bound and consistent derived times (unless
				// a value saturated the message's int32 seconds).
				saturated := func(sec int32) bool { return sec == math.MaxInt32 || sec == math.MinInt32 }
				if m.ClockOffsetKnown && !saturated(m.ClockOffset.Sec) && !saturated(m.SenderTime.Sec) &&
					!saturated(m.SenderTimeLocal.Sec) && !saturated(m.Delay.Sec) {
					off, local := dur(m.ClockOffset), stamp(m.SenderTimeLocal)
					if dur(m.ClockOffsetBound) < 0 || local != stamp(m.SenderTime)-off ||
						dur(m.Delay) != stamp(m.ReceiveTime)-local {
						t.Fatalf("clock fields of %+v", m)
					}
				}
			}
			recs[i].Reset()
		}
	})
}
