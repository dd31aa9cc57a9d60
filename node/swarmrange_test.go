package node

import (
	"context"
	"fmt"
	"log/slog"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/internal/freeport"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"github.com/robocup-dnetwork/dnetwork/node/swarm"
	"github.com/robocup-dnetwork/dnetwork/node/team"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
	"github.com/robocup-dnetwork/dnetwork/transport"
	tswarm "github.com/robocup-dnetwork/dnetwork/transport/swarm"
)

// fieldSwarm is the swarm configuration of robot r1 on the field: one robot per host,
// robots r2 and r2b (two swarm names) on 10.0.0.2, r3 on 10.0.0.3, a 50 m range.
func fieldSwarm() swarm.Config {
	c := swarm.DefaultConfig()
	c.Enabled, c.Name, c.Range, c.Mode = true, "r1", 50, tswarm.ModeNetwork
	c.Hosts = []string{"r1=10.0.0.1", "r2=10.0.0.2", "r2b=10.0.0.2:4101", "r3=10.0.0.3"}
	return c
}

// fakePositions records the positions a swarmRange feeds.
type fakePositions map[string]swarm.Point

func (f fakePositions) SetPosition(name string, p swarm.Point) { f[name] = p }
func (f fakePositions) ForgetPosition(name string)             { delete(f, name) }

// TestSwarmRangeFeed: an accepted packet places every swarm name of its source IP (cm
// to metres), never this robot's own; a teammate that goes offline or moves to another
// IP leaves no position behind; a teammate outside swarm.hosts places nobody.
func TestSwarmRangeFeed(t *testing.T) {
	cfg := fieldSwarm()
	pos := fakePositions{}
	sr := newSwarmRange(&cfg, pos)
	if sr == nil {
		t.Fatal("no feed for ModeNetwork with a range and hosts")
	}
	heard := func(player uint8, ip string, xcm, ycm float64) {
		e := team.MateEvent{Player: player, Src: netip.MustParseAddr(ip)}
		e.RobotPos.X, e.RobotPos.Y = xcm, ycm
		sr.onMate(e)
	}
	check := func(what string, want fakePositions) {
		t.Helper()
		if len(pos) != len(want) {
			t.Fatalf("%s: positions %v, want %v", what, pos, want)
		}
		for name, p := range want {
			if pos[name] != p {
				t.Fatalf("%s: positions %v, want %v", what, pos, want)
			}
		}
	}
	heard(2, "10.0.0.2", 300, -450)
	check("player 2 from 10.0.0.2", fakePositions{"r2": {X: 3, Y: -4.5}, "r2b": {X: 3, Y: -4.5}})
	heard(3, "10.0.0.3", 100, 0)
	heard(4, "10.0.0.9", 100, 0)  // not in swarm.hosts
	heard(1, "10.0.0.1", 5000, 0) // our own IP (a conflicting player): never our own position
	check("players 3, 4 and 1 too", fakePositions{"r2": {X: 3, Y: -4.5}, "r2b": {X: 3, Y: -4.5}, "r3": {X: 1}})
	sr.onMate(team.MateEvent{Player: 2, Offline: true})
	check("player 2 offline", fakePositions{"r3": {X: 1}})
	heard(3, "10.0.0.2", 200, 0) // player 3 now sends from r2's host
	check("player 3 moved to 10.0.0.2", fakePositions{"r2": {X: 2}, "r2b": {X: 2}})
	heard(5, "10.0.0.2", 400, 0) // a second player on that host (a misconfiguration)
	sr.onMate(team.MateEvent{Player: 3, Offline: true})
	check("player 3 offline, player 5 on the same host", fakePositions{"r2": {X: 4}, "r2b": {X: 4}})
	sr.onMate(team.MateEvent{Player: 4, Offline: true})
	sr.onMate(team.MateEvent{Player: 5, Offline: true})
	check("all offline", fakePositions{})

	if allocs := testing.AllocsPerRun(100, func() { heard(3, "10.0.0.3", 100, 0) }); allocs != 0 {
		t.Errorf("a packet's position costs %v allocations, want 0", allocs)
	}

	for _, c := range []func(*swarm.Config){
		func(c *swarm.Config) { c.Enabled = false },
		func(c *swarm.Config) { c.Range = 0 },
		func(c *swarm.Config) { c.Mode = tswarm.ModePorts },
		func(c *swarm.Config) { c.Mode = tswarm.ModeHostMulticast },
		func(c *swarm.Config) { c.Hosts = nil },
	} {
		cfg := fieldSwarm()
		c(&cfg)
		if newSwarmRange(&cfg, pos) != nil {
			t.Errorf("a feed for %+v", cfg)
		}
	}
}

// TestSwarmRangeWarning: a range the node cannot apply is said at start, once, with
// the reason; a range it applies, or none, is not.
func TestSwarmRangeWarning(t *testing.T) {
	for _, tc := range []struct {
		name string
		mod  func(c *Config)
		want string // "" none
	}{
		{"network mode with team and hosts", func(*Config) {}, ""},
		{"no range", func(c *Config) { c.Swarm.Range = 0 }, ""},
		{"swarm off", func(c *Config) { c.Swarm.Enabled = false }, ""},
		{"ports mode", func(c *Config) { c.Swarm.Mode = tswarm.ModePorts }, "mode ports"},
		{"host-multicast mode", func(c *Config) { c.Swarm.Mode = tswarm.ModeHostMulticast }, "mode host-multicast"},
		{"team off", func(c *Config) { c.TeamEnabled = false }, "team communication is off"},
		{"no hosts", func(c *Config) { c.Swarm.Hosts = nil }, "swarm.hosts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Config{TeamEnabled: true, Swarm: fieldSwarm()}
			tc.mod(&c)
			got := swarmRangeWarning(&c)
			switch {
			case tc.want == "" && got != "":
				t.Errorf("warning %q, want none", got)
			case tc.want != "" && (!strings.Contains(got, tc.want) || !strings.Contains(got, "in range")):
				t.Errorf("warning %q, want one naming %q", got, tc.want)
			}
		})
	}
}

// TestSwarmRangeFromTeamPackets runs the chain of a robot on the field: a team
// component that accepts teammate packets from a fake socket feeds, through the mate
// hook and swarmRange (r1's field configuration: r2 on 10.0.0.2), the range of a real
// swarm component r1 that hears a real r2. The two swarm components run in per-robot
// ports mode on loopback, since a test has one host; the range check is the same.
// r2 100 m away: its frames are dropped as out of range and it is no neighbour; 10 m
// away: delivered; 100 m away again and then offline: its position is forgotten and
// its frames are delivered again.
func TestSwarmRangeFromTeamPackets(t *testing.T) {
	clk := clock.NewManual(time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC))
	quiet := slog.New(slog.DiscardHandler)
	ports, err := freeport.UDP(2)
	if err != nil {
		t.Fatal(err)
	}
	hosts := []string{fmt.Sprintf("r1=127.0.0.1:%d", ports[0]), fmt.Sprintf("r2=127.0.0.1:%d", ports[1])}
	robots := map[string]*swarm.Component{}
	for _, name := range []string{"r1", "r2"} {
		c := swarm.DefaultConfig()
		c.Enabled, c.Name, c.Hosts, c.Mode, c.Range, c.Logger = true, name, hosts, tswarm.ModePorts, 50, quiet
		sw, err := swarm.New(c, clk, &bus.Recorder[dmsgs.SwarmMessage]{}, &bus.Recorder[dmsgs.Neighbors]{})
		if err != nil {
			t.Fatal(err)
		}
		runUntilCleanup(t, name, sw.Run)
		wctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err = sw.WaitUp(wctx)
		cancel()
		if err != nil {
			t.Fatalf("%s not up: %v", name, err)
		}
		robots[name] = sw
	}
	r1, r2 := robots["r1"], robots["r2"]
	r1.SetPosition("r1", swarm.Point{}) // our own, as VisionInfo gives it

	tc := team.DefaultConfig()
	tc.Team, tc.Player, tc.Format, tc.GCWait, tc.Logger = 17, 1, team.FormatZJU, 0, quiet
	conn := bus.NewFakeConn(16)
	tm, err := team.New(tc, team.Deps{Conn: conn, Publisher: &bus.Recorder[dmsgs.TeamInfo]{}, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	field := fieldSwarm()
	sr := newSwarmRange(&field, r1)
	told := make(chan team.MateEvent, 4)
	tm.SetMateHook(func(e team.MateEvent) { sr.onMate(e); told <- e })
	runUntilCleanup(t, "team", tm.Run)

	// teammate delivers a packet of player 2 from r2's host at x cm and waits until
	// the hook has fed it.
	teammate := func(xcm float64) {
		t.Helper()
		p := teaminfo.ZJUPacket{TeamNumber: 17, PlayerNumber: 2, TxpTimestamp: teaminfo.RosTime{Sec: 1700000000},
			RobotPos: teaminfo.Vector3{X: xcm}}
		b, err := p.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		conn.Deliver(transport.Datagram{Payload: b, Src: netip.MustParseAddrPort("10.0.0.2:10017"), Time: clk.Now()})
		if e := waitTold(t, told); e.Offline || e.Player != 2 {
			t.Fatalf("hook told %+v, want player 2's packet", e)
		}
	}
	// frame has r2 broadcast one frame and waits until r1 has handled it.
	frames := uint64(0)
	frame := func() swarm.Status {
		t.Helper()
		if err := r2.Send(&dmsgs.SwarmMessage{Dst: "broadcast", Port: 4100, Data: []byte("hello")}); err != nil {
			t.Fatal(err)
		}
		frames++
		deadline := time.Now().Add(5 * time.Second)
		for {
			s := r1.Status()
			if s.Swarm.Delivered+s.Swarm.OutOfRange == frames {
				return s
			}
			if time.Now().After(deadline) {
				t.Fatalf("r1 did not handle frame %d: %+v", frames, s.Swarm)
			}
			time.Sleep(2 * time.Millisecond)
		}
	}

	teammate(10000) // 100 m
	if s := frame(); s.Swarm.OutOfRange != 1 || s.Counters.Received != 0 || len(s.Neighbors) != 0 {
		t.Fatalf("r2 100 m away: out of range %d, received %d, neighbours %v", s.Swarm.OutOfRange, s.Counters.Received, s.Neighbors)
	}
	teammate(1000) // 10 m
	if s := frame(); s.Swarm.OutOfRange != 1 || s.Counters.Received != 1 || !slices.Equal(s.Neighbors, []string{"r2"}) {
		t.Fatalf("r2 10 m away: out of range %d, received %d, neighbours %v", s.Swarm.OutOfRange, s.Counters.Received, s.Neighbors)
	}
	teammate(10000)
	if s := frame(); s.Swarm.OutOfRange != 2 || len(s.Neighbors) != 0 {
		t.Fatalf("r2 100 m away again: out of range %d, neighbours %v", s.Swarm.OutOfRange, s.Neighbors)
	}
	clk.Advance(tc.TeammateTimeout + tc.Tick) // the team component wakes for the timeout
	if e := waitTold(t, told); !e.Offline || e.Player != 2 {
		t.Fatalf("hook told %+v, want player 2 offline", e)
	}
	if s := frame(); s.Swarm.OutOfRange != 2 || s.Counters.Received != 2 || !slices.Equal(s.Neighbors, []string{"r2"}) {
		t.Fatalf("r2 offline: out of range %d, received %d, neighbours %v", s.Swarm.OutOfRange, s.Counters.Received, s.Neighbors)
	}
}

// waitTold returns the next event the mate hook was told.
func waitTold(t *testing.T, told <-chan team.MateEvent) team.MateEvent {
	t.Helper()
	select {
	case e := <-told:
		return e
	case <-time.After(5 * time.Second):
		t.Fatal("the mate hook was told nothing")
		return team.MateEvent{}
	}
}

// runUntilCleanup runs f until the test ends and checks that it returns nil then.
func runUntilCleanup(t *testing.T, name string, f func(context.Context) error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- f(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-errc:
			if err != nil {
				t.Errorf("%s: Run = %v", name, err)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("%s: Run did not return after cancel", name)
		}
	})
}
