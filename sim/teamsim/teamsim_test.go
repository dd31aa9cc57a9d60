package teamsim

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
	"golang.org/x/sync/errgroup"

	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/monitor"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/team"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/ros/dds"
	"github.com/robocup-dnetwork/dnetwork/sim/gcsim"
	"github.com/robocup-dnetwork/dnetwork/sim/world"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

func TestConfigValidate(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*Config)
		want   string
	}{
		{"no layout", func(c *Config) { c.Layout = gcproto.LayoutInvalid }, "no GameController layout"},
		{"no robots", func(c *Config) { c.Robots = 0 }, "robots 0 outside 1..20 (hsl20)"},
		{"more robots than the layout has players", func(c *Config) { c.Layout, c.Robots = gcproto.LayoutSPL14, 8 }, "robots 8 outside 1..7 (spl14)"},
		{"same teams", func(c *Config) { c.Opponent = c.Team }, "teams 17 and 17"},
		{"team 255", func(c *Config) { c.Team = 255 }, "teams 255 and 5"},
		{"speed", func(c *Config) { c.Speed = 0 }, "speed 0 outside"},
		{"domain", func(c *Config) { c.Domain = 233 }, "domain id out of range"},
		{"distro", func(c *Config) { c.Distro = "foxy" }, "foxy"},
		{"tick", func(c *Config) { c.Tick = time.Millisecond }, "tick 1ms outside 10ms..1s"},
		{"format", func(c *Config) { c.Format = 9 }, "team packet format"},
		{"world", func(c *Config) { c.World.WalkSpeed = 0 }, "world: bad config: speeds"},
		{"script for another game", func(c *Config) {
			c.Script = gcsim.Script{Steps: []gcsim.Step{{Do: gcsim.Stop{}}}}
			c.Layout = gcproto.LayoutSPL18
		}, "stop"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := DefaultConfig()
			tc.change(&c)
			err := c.Validate()
			if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want ErrConfig with %q", err, tc.want)
			}
			if _, err := New(c); !errors.Is(err, ErrConfig) {
				t.Errorf("New: got %v, want ErrConfig", err)
			}
		})
	}
	c := DefaultConfig()
	c.Layout, c.Robots = gcproto.LayoutSPL18, 7
	if err := c.Validate(); err != nil {
		t.Errorf("7 robots in SPL v18: %v", err)
	}
}

func TestScript(t *testing.T) {
	for _, tc := range []struct {
		layout gcproto.Layout
		robots int
		player int
	}{
		{gcproto.LayoutHSL20, 5, 3},
		{gcproto.LayoutSPL17, 2, 2},
		{gcproto.LayoutHL688, 1, 1},
	} {
		sc := Script(tc.layout, 0, tc.robots)
		var penalties []gcsim.Penalise
		for _, st := range sc.Steps {
			if p, ok := st.Do.(gcsim.Penalise); ok {
				penalties = append(penalties, p)
			}
		}
		if len(penalties) != 1 || penalties[0].Team != gcsim.SideA || penalties[0].Player != tc.player {
			t.Errorf("%s, %d robots: penalties %+v, want our player %d", tc.layout, tc.robots, penalties, tc.player)
		}
		setup := gcsim.Setup{Layout: tc.layout, Teams: [2]uint8{17, 5}}
		if err := sc.Check(setup); err != nil {
			t.Errorf("%s: %v", tc.layout, err)
		}
		def := gcsim.DefaultScript(tc.layout, 0)
		if len(sc.Steps) != len(def.Steps) || sc.Half != def.Half {
			t.Errorf("%s: %d steps, half %v; the built-in game has %d, %v", tc.layout, len(sc.Steps), sc.Half, len(def.Steps), def.Half)
		}
	}
}

func TestLeagueAndField(t *testing.T) {
	for _, tc := range []struct {
		layout gcproto.Layout
		want   team.League
		goal   float64
	}{
		{gcproto.LayoutHSL19, team.LeagueHSL, 2.6},
		{gcproto.LayoutHSL20, team.LeagueHSL, 2.6},
		{gcproto.LayoutSPL15, team.LeagueSPL, 1.5},
		{gcproto.LayoutHL640, team.LeagueHL, 2.6},
	} {
		l := League(tc.layout)
		f := Field(l)
		if l != tc.want || f.GoalWidth != tc.goal || f.Length != 9 || f.Width != 6 {
			t.Errorf("%s: league %v field %+v, want %v with %g m goals", tc.layout, l, f, tc.want, tc.goal)
		}
		c := world.DefaultConfig(5)
		c.Field = f
		if err := c.Validate(); err != nil {
			t.Errorf("%s: the world rejects the field: %v", tc.layout, err)
		}
	}
}

func TestEnv(t *testing.T) {
	env := Env(42, "humble")
	if env("ROS_DOMAIN_ID") != "42" || env("CYCLONEDDS_URI") != CycloneConfig || env("ROS_DISTRO") != "humble" ||
		env("ROS_LOCALHOST_ONLY") != "" || env("HOME") != "" {
		t.Error("environment of the nodes is not the domain, the configuration and the distro alone")
	}
	got, err := dds.ReadEnv(env, "humble")
	if err != nil || got.DomainID != 42 || !strings.Contains(got.Config(), `<NetworkInterface name="lo"/>`) ||
		!strings.Contains(got.Config(), "<MaxAutoParticipantIndex>100</MaxAutoParticipantIndex>") {
		t.Errorf("ReadEnv: %+v, %v", got, err)
	}
}

// TestTee sends datagrams to a socket through the tee: the monitor sees each one
// before the consumer gets it, malformed reports reach the socket's counters, and the
// output closes when the tee stops.
func TestTee(t *testing.T) {
	before := goleak.IgnoreCurrent()
	w, err := transport.New(transport.Config{Name: "return", Interface: "lo", Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return w.Run(gctx) })
	if err := w.WaitUp(gctx); err != nil {
		t.Fatal(err)
	}
	port := monitor.Port{Kind: monitor.KindReturn, Port: w.LocalAddr().Port()}
	seen := make(chan string, 10)
	tee := newTee(w, port, func(p monitor.Port, d transport.Datagram) bool {
		if p != port {
			t.Errorf("observed on %+v, want %+v", p, port)
		}
		seen <- string(d.Payload)
		return true
	})
	g.Go(func() error { return tee.Run(gctx) })

	c, err := net.DialUDP("udp4", nil, net.UDPAddrFromAddrPort(netip.AddrPortFrom(loopback, port.Port)))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, msg := range []string{"one", "two"} {
		if _, err := c.Write([]byte(msg)); err != nil {
			t.Fatal(err)
		}
		select {
		case d := <-tee.Datagrams():
			if string(d.Payload) != msg {
				t.Errorf("consumer got %q, want %q", d.Payload, msg)
			}
			if s := <-seen; s != msg {
				t.Errorf("monitor saw %q, want %q", s, msg)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%q not delivered", msg)
		}
	}
	tee.ReportMalformed()
	if st := w.Stats(); st.Malformed != 1 || st.Received != 2 {
		t.Errorf("socket counters %+v, want 2 received, 1 malformed", st)
	}
	cancel()
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	if _, ok := <-tee.Datagrams(); ok {
		t.Error("output open after the tee stopped")
	}
	goleak.VerifyNone(t, before)
}

func TestStatusLine(t *testing.T) {
	game := gcsim.GameView{
		StateName: "playing", FirstHalf: true, SecsRemaining: 47, SetPlay: gcproto.SetPlayNone, KickingTeam: 17,
		Teams: [2]gcsim.TeamView{{Number: 17, Score: 1, MessageBudget: 11870}, {Number: 5, MessageBudget: 11000}},
	}
	robots := func(mates ...[]int) []RobotStatus {
		var rs []RobotStatus
		for i, m := range mates {
			rs = append(rs, RobotStatus{ID: i + 1, Online: true, Mates: m})
		}
		return rs
	}
	for _, tc := range []struct {
		name string
		st   Status
		want string
	}{
		{"before start", Status{}, "starting..."},
		{"everybody hears everybody", Status{
			Up: true, Elapsed: 12500 * time.Millisecond, Game: game, Online: 3, TeamMessages: 410,
			GC: gcsim.Stats{Packets: 31, Returns: 60}, Robots: robots([]int{2, 3}, []int{1, 3}, []int{1, 2}),
		}, " 12.5s PLAYING 1st 0:47 17 1:0 5 | online 3/3 | mates all 2 | team 410 gc 31 ret 60 | budget 11870"},
		{"set play, stop, penalty, a fall, no budget", func() Status {
			g := game
			g.SetPlay, g.SetPlayName, g.KickingTeam, g.Stopped, g.FirstHalf, g.SecsRemaining = gcproto.SetPlayCornerKick, "corner_kick", 5, true, false, 125
			g.Teams[0].MessageBudget = -1
			g.Teams[0].Players = []gcsim.PlayerView{{Number: 1}, {Number: 2, Penalty: 2, SecsTillUnpenalised: 12}}
			rs := robots([]int{}, []int{1})
			rs[0].Fallen = true
			return Status{Up: true, Elapsed: time.Second, Game: g, Online: 1, Robots: rs}
		}(), "  1.0s PLAYING 2nd 2:05 17 1:0 5 corner_kick 5 STOPPED P2 12s | online 1/2 | mates 0 1 | fallen 1 | team 0 gc 0 ret 0"},
		{"kick-off", func() Status {
			g := game
			g.SecondaryFor, g.SecondaryTime = "kick-off", 8
			return Status{Up: true, Game: g, Robots: robots(nil)}
		}(), "  0.0s PLAYING 1st 0:47 17 1:0 5 kick-off 17 | online 0/1 | mates 0 | team 0 gc 0 ret 0 | budget 11870"},
	} {
		if got := tc.st.Line(); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

func TestRoleName(t *testing.T) {
	for role, want := range map[uint8]string{
		dmsgs.BehaviorInfoRoleStriker: "striker", dmsgs.BehaviorInfoRoleDefender: "defender",
		dmsgs.BehaviorInfoRoleSupporter: "supporter", dmsgs.BehaviorInfoRoleGoalie: "goalie",
		dmsgs.BehaviorInfoRoleOther: "other", 0: "other",
	} {
		if got := RoleName(role); got != want {
			t.Errorf("RoleName(%d) = %q, want %q", role, got, want)
		}
	}
}

// TestRun runs three robots at ten times the speed until each robot's node publishes
// both teammates' TeamInfo, every robot follows the GameController into PLAYING, the
// monitor shows them all online and the robots have played the ball; it then stops
// the simulation and checks that nothing is left running.
func TestRun(t *testing.T) {
	if !dds.Available {
		t.Skip("needs Cyclone DDS (cgo)")
	}
	before := goleak.IgnoreCurrent()
	c := DefaultConfig()
	c.Robots, c.Speed, c.Domain, c.LogOutput = 3, 10, rosdomain.Take(t), &testWriter{t: t}
	c.World.FallRate = 0
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c.Listener = ln
	s, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	if st := s.Status(); st.Up || st.Line() != "starting..." {
		t.Errorf("status before Run: %+v", st)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	up, upCancel := context.WithTimeout(ctx, 30*time.Second)
	defer upCancel()
	if err := s.WaitUp(up); err != nil {
		t.Fatal(err)
	}
	if err := s.Run(ctx); !errors.Is(err, ErrRunTwice) {
		t.Errorf("second Run: %v, want ErrRunTwice", err)
	}

	var st Status
	ok := func() bool {
		st = s.Status()
		if st.Online != 3 || st.Game.State != gcproto.StatePlaying || st.World.Kicks == 0 || st.Inputs == 0 || st.InputErrors != 0 {
			return false
		}
		for _, r := range st.Robots {
			if !r.GCConnected || len(r.Mates) != 2 || r.Play == dmsgs.BehaviorInfoStateInitializing {
				return false
			}
		}
		return true
	}
	deadline := time.Now().Add(30 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("not within 30 s: %s\n%+v", st.Line(), st.Robots)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if n := s.Monitor().Sent(); n != 0 {
		t.Errorf("the monitor sent %d datagrams", n)
	}
	snap := s.Monitor().State()
	if g := snap.GameController.Game; g == nil || g.Teams[0].Team != 17 || g.Teams[1].Team != 5 {
		t.Errorf("monitor's GameController game %+v", g)
	}
	returns := 0
	for _, r := range snap.Robots {
		if r.ReturnMsgs.Count > 0 && r.ReturnVersion == gcproto.ReturnVersion {
			returns++
		}
	}
	if returns != 3 {
		t.Errorf("the monitor saw return packets of %d robots, want 3", returns)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not return within 20 s of the cancellation")
	}
	if err := s.WaitUp(t.Context()); err != nil {
		t.Errorf("WaitUp after the end: %v", err)
	}
	goleak.VerifyNone(t, before)
}

// TestRunCancelledEarly stops a simulation while it starts: Run returns nil, WaitUp
// reports that it never was up, and nothing is left running.
func TestRunCancelledEarly(t *testing.T) {
	before := goleak.IgnoreCurrent()
	c := DefaultConfig()
	c.Robots, c.Domain = 2, rosdomain.Take(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c.Listener = ln
	s, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := s.Run(ctx); err != nil {
		t.Errorf("Run with a cancelled context: %v", err)
	}
	if err := s.WaitUp(t.Context()); err == nil {
		t.Error("WaitUp: nil for a simulation that never was up")
	}
	if _, err := ln.Accept(); err == nil {
		t.Error("the listener is still open")
	}
	goleak.VerifyNone(t, before)
}

// testWriter logs the simulation's log lines in the test's log.
type testWriter struct{ t *testing.T }

func (w *testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
