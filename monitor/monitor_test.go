package monitor

import (
	"encoding/json"
	"errors"
	"math"
	"net/netip"
	"reflect"
	"strings"
	"testing"
	"time"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/proto/league"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

func near(a, b float64) bool { return math.Abs(a-b) < 2e-3 }

func TestWindow(t *testing.T) {
	w := newWindow(10 * time.Second)
	for i := range 20 { // 20 events over 2 s
		w.add(t0.Add(time.Duration(i) * 100 * time.Millisecond))
	}
	for _, c := range []struct {
		at   time.Duration
		want int
	}{
		{0, 1},
		{1950 * time.Millisecond, 20},
		{9950 * time.Millisecond, 20},
		{10 * time.Second, 19},                      // the bucket of the first event left the window
		{11950 * time.Millisecond, 0},               // all gone
		{-time.Second, 0},                           // events in the future do not count
		{100*time.Second + 500*time.Millisecond, 0}, // a wrapped ring holds stale buckets only
	} {
		if got := w.count(t0.Add(c.at)); got != c.want {
			t.Errorf("count at %v = %d, want %d", c.at, got, c.want)
		}
	}
	if got := w.rate(t0.Add(2 * time.Second)); got != 2 {
		t.Errorf("rate = %v, want 2 (20 events / 10 s)", got)
	}
	// A slot reused after the ring wrapped starts from zero.
	w.add(t0.Add(10 * time.Second))
	if got := w.count(t0.Add(10 * time.Second)); got != 20 {
		t.Errorf("count after reuse = %d, want 20 (19 old + 1 new)", got)
	}
}

func TestTeamMessages(t *testing.T) {
	m, clk := newTest(t, Config{})
	striker := mate{team: 5, player: 3, x: 1, y: -0.5, theta: math.Pi / 2, role: teaminfo.RoleStriker,
		play: teaminfo.PlayBallHandling, ball: &[2]float64{1, 0}, fallen: true}
	goalie := mate{team: 5, player: 1, x: -4, y: 0, role: teaminfo.RoleGoalie, play: teaminfo.PlayPlaying}
	goalieSrc := netip.MustParseAddrPort("10.0.5.10:40001")
	for i := range 10 {
		at := t0.Add(time.Duration(i) * 200 * time.Millisecond)
		if !m.Observe(team5, dg(striker.dnet(t, nil), robotSrc, at)) {
			t.Fatal("dnet packet not accepted")
		}
		if !m.Observe(team5, dg(goalie.zju(), goalieSrc, at)) {
			t.Fatal("zju packet not accepted")
		}
	}
	clk.Set(t0.Add(2 * time.Second))
	s := m.State()
	if len(s.Robots) != 2 || s.Robots[0].Player != 1 || s.Robots[1].Player != 3 {
		t.Fatalf("robots = %+v, want players 1 and 3 in order", s.Robots)
	}
	r := findRobot(s, 5, 3)
	if !r.Online || r.Role != "striker" || r.PlayState != "ball_handling" || !r.Fallen || r.Format != "dnet" || r.Auth != "none" {
		t.Errorf("striker = %+v", r)
	}
	if r.Pose == nil || !near(r.Pose.X, 1) || !near(r.Pose.Y, -0.5) || !near(r.Pose.Theta, math.Pi/2) || r.PoseSource != "team" {
		t.Errorf("striker pose = %+v from %q", r.Pose, r.PoseSource)
	}
	// Ball 1 m ahead of a robot at (1, -0.5) facing +y is at (1, 0.5).
	if r.Ball == nil || !near(r.Ball.X, 1) || !near(r.Ball.Y, 0.5) || !near(r.Ball.RelX, 1) || r.Ball.AgeS == nil {
		t.Errorf("striker ball = %+v", r.Ball)
	}
	if r.TeamMsgs.Count != 10 || r.TeamMsgs.Rate != 1 || r.TeamMsgs.Source != robotSrc.String() {
		t.Errorf("striker team messages = %+v, want 10 at 1/s from %v", r.TeamMsgs, robotSrc)
	}
	if r.TeamMsgs.AgeS == nil || !near(*r.TeamMsgs.AgeS, 0.2) || !near(r.AgeS, 0.2) {
		t.Errorf("striker age = %v / %v, want 0.2 s", r.TeamMsgs.AgeS, r.AgeS)
	}
	g := findRobot(s, 5, 1)
	if g.Format != "zju" || g.Role != "goalie" || g.Ball != nil || g.Fallen || g.Pose == nil || !near(g.Pose.X, -4) {
		t.Errorf("goalie = %+v", g)
	}
	tv := findTeam(s, 5)
	if tv == nil || tv.Messages != 20 || tv.Rate != 2 || tv.Robots != 2 || tv.RobotsOnline != 2 || tv.Counted != 0 {
		t.Errorf("team = %+v, want 20 messages, 2/s, 2 robots online, none counted (no GameController)", tv)
	}
	// HSL cap is 512 bytes: zju (296) is legal.
	if tv.Illegal != 0 || tv.Malformed != 0 {
		t.Errorf("team faults = %d malformed, %d illegal, want none", tv.Malformed, tv.Illegal)
	}

	// Offline after 5 s of silence, not before; removed after 60 s.
	clk.Set(t0.Add(1800*time.Millisecond + 5*time.Second))
	if r := findRobot(m.State(), 5, 3); !r.Online {
		t.Error("offline after exactly 5 s, want online up to 5 s")
	}
	clk.Set(t0.Add(1800*time.Millisecond + 5*time.Second + time.Millisecond))
	s = m.State()
	if r := findRobot(s, 5, 3); r == nil || r.Online || r.TeamMsgs.Rate != 1 {
		t.Errorf("after 5 s of silence: %+v, want offline with its rate still in the window", r)
	}
	if tv := findTeam(s, 5); tv.RobotsOnline != 0 {
		t.Errorf("robots online = %d, want 0", tv.RobotsOnline)
	}
	clk.Set(t0.Add(1800*time.Millisecond + 60*time.Second + time.Millisecond))
	if s := m.State(); len(s.Robots) != 0 {
		t.Errorf("after 60 s: %d robots, want them removed", len(s.Robots))
	}
}

func TestFaults(t *testing.T) {
	key, _ := teaminfo.NewKey([]byte("0123456789abcdef"))
	m, clk := newTest(t, Config{League: league.SPL, AuthKey: []byte("0123456789abcdef")})
	ok := mate{team: 5, player: 2, x: 1}
	if !m.Observe(team5, dg(ok.dnet(t, key), robotSrc, t0)) {
		t.Fatal("signed packet rejected")
	}
	// From the robot's address: counted for the robot.
	bad := ok.dnet(t, key)
	bad[len(bad)-1] ^= 1 // break the tag
	short := ok.dnet(t, nil)[:50]
	badBool := ok.zju()
	badBool[19] = 7 // incapacitated bool byte
	for _, b := range [][]byte{bad, short, badBool, ok.dnet(t, nil) /* no tag */, {1, 2, 3}} {
		if m.Observe(team5, dg(b, robotSrc, t0)) {
			t.Errorf("% x… accepted, want a fault", b[:min(len(b), 8)])
		}
	}
	// Decodes but illegal: a zju packet (296 bytes) over the SPL cap, sent on team 5's port
	// as team 6 from a second address.
	other := mate{team: 6, player: 4}
	src6 := netip.MustParseAddrPort("10.0.6.14:5000")
	if !m.Observe(team5, dg(other.zju(), src6, t0)) {
		t.Error("oversize zju packet rejected, want it shown and counted as illegal")
	}
	// Unknown address: counted for the source. Player 0 is undecodable.
	stranger := netip.MustParseAddrPort("10.9.9.9:777")
	zero := mate{team: 5, player: 0}
	m.Observe(team5, dg(zero.dnet(t, key), stranger, t0))
	m.Observe(team5, dg(make([]byte, 600), stranger, t0))
	// A forged tag claiming to be player 2 from elsewhere counts for player 2.
	m.Observe(team5, dg(bad, netip.MustParseAddrPort("10.9.9.8:1"), t0))

	clk.Set(t0.Add(time.Second))
	s := m.State()
	r := findRobot(s, 5, 2)
	want := Faults{WrongSize: 2, Undecodable: 1, Auth: 3}
	if r == nil || r.Faults != want || r.Malformed != 6 || r.Illegal != 0 || r.TeamMsgs.Count != 1 || r.Auth != "verified" {
		t.Fatalf("robot 5/2 = %+v, want faults %+v and one verified message", r, want)
	}
	if r.LastError == "" {
		t.Error("robot 5/2 has no last error")
	}
	r6 := findRobot(s, 6, 4)
	if r6 == nil || r6.Faults != (Faults{Oversize: 1, WrongPort: 1}) || r6.Illegal != 2 || r6.Format != "zju" {
		t.Errorf("robot 6/4 = %+v, want oversize and wrong port", r6)
	}
	if !strings.Contains(r6.LastError, "team 6 message on the port of team 5") {
		t.Errorf("robot 6/4 last error %q", r6.LastError)
	}
	if len(s.Sources) != 1 || s.Sources[0].Source != stranger.String() || s.Sources[0].Packets != 2 ||
		s.Sources[0].Faults != (Faults{WrongSize: 1, Undecodable: 1}) || s.Sources[0].Port != team5.Port {
		t.Errorf("sources = %+v, want %v with 1 wrong size and 1 undecodable", s.Sources, stranger)
	}
	// Every datagram on team 5's port counts for team 5, as the GameController counts them.
	if tv := findTeam(s, 5); tv.Messages != 10 || tv.Malformed != 6 || tv.Illegal != 0 {
		t.Errorf("team 5 = %+v, want 10 messages, 6 malformed", tv)
	}
	if tv := findTeam(s, 6); tv == nil || tv.Messages != 0 || tv.Illegal != 2 {
		t.Errorf("team 6 = %+v, want no messages of its own and 2 illegal", tv)
	}
	if s.SizeCap != 128 || s.League != "spl" || s.Field.GoalWidth != 1.5 {
		t.Errorf("league = %s cap %d field %+v", s.League, s.SizeCap, s.Field)
	}
}

func TestSharedPort(t *testing.T) {
	m, clk := newTest(t, Config{})
	shared := Port{Kind: KindTeam, Port: ZJUPort}
	m.Observe(shared, dg(mate{team: 7, player: 1}.zju(), robotSrc, t0))
	m.Observe(shared, dg(mate{team: 8, player: 1}.zju(), gcSrc, t0))
	m.Observe(shared, dg([]byte("junk"), gcSrc, t0))
	clk.Set(t0.Add(time.Second))
	s := m.State()
	for _, n := range []uint8{7, 8} {
		if tv := findTeam(s, n); tv == nil || tv.Messages != 1 || tv.Robots != 1 {
			t.Errorf("team %d = %+v, want one message of one robot", n, tv)
		}
	}
	if r := findRobot(s, 8, 1); r.Faults.WrongSize != 1 || r.Faults.WrongPort != 0 {
		t.Errorf("robot 8/1 faults = %+v, want the junk from its address and no wrong port", r.Faults)
	}
}

func TestGameController(t *testing.T) {
	m, clk := newTest(t, Config{League: league.SPL})
	g := game{layout: gcproto.LayoutSPL18, state: gcproto.StateInitial, firstHalf: true, secs: 600,
		teams: [2]uint8{5, 12}, budgets: [2]uint16{1200, 1200}}
	if !m.Observe(gcPort, dg(g.packet(t), gcSrc, t0)) {
		t.Fatal("control packet rejected")
	}
	striker := mate{team: 5, player: 3}
	m.Observe(team5, dg(striker.dnet(t, nil), robotSrc, t0)) // INITIAL: free
	g.state, g.kicking, g.secs, g.scores = gcproto.StatePlaying, 12, 432, [2]uint8{2, 1}
	g.setPlay, g.penalised, g.penalty = gcproto.SetPlayCornerKick, [2]uint8{3, 0}, 2 // SPL pushing
	g.budgets = [2]uint16{1100, 1190}
	m.Observe(gcPort, dg(g.packet(t), gcSrc, t0.Add(100*time.Millisecond)))
	for range 3 { // PLAYING: counted
		m.Observe(team5, dg(striker.dnet(t, nil), robotSrc, t0.Add(200*time.Millisecond)))
	}
	m.Observe(gcPort, dg([]byte("RGme\x12short"), gcSrc, t0.Add(200*time.Millisecond)))

	clk.Set(t0.Add(time.Second))
	s := m.State()
	gc := s.GameController
	if !gc.Online || gc.Packets != 2 || gc.Source != gcSrc.String() || gc.Multiple || gc.Faults.WrongSize != 1 || gc.LastError == "" {
		t.Errorf("gamecontroller = %+v", gc)
	}
	gm := gc.Game
	if gm == nil || gm.State != "playing" || gm.SetPlay != "corner_kick" || gm.SecsRemaining != 432 || !gm.FirstHalf ||
		gm.KickingTeam != 12 || gm.Layout != "spl18" || gm.Version != 18 || !gm.BudgetCounted {
		t.Fatalf("game = %+v", gm)
	}
	if a := gm.Teams[0]; a.Team != 5 || a.Score != 2 || a.Colour != "blue" || a.MessageBudget == nil || *a.MessageBudget != 1100 ||
		len(a.Players) != 5 || a.Players[2].Penalty != "spl_player_pushing" {
		t.Errorf("game team 5 = %+v", a)
	}
	if s.Teams[0].Team != 5 || s.Teams[0].Attacks != "right" || s.Teams[1].Team != 12 || s.Teams[1].Attacks != "left" {
		t.Errorf("team order = %+v, want 5 (right) then 12 (left)", s.Teams)
	}
	tv := s.Teams[0]
	if tv.Messages != 4 || tv.Counted != 3 || tv.BudgetRemaining == nil || *tv.BudgetRemaining != 1100 || *tv.Score != 2 || tv.Colour != "blue" {
		t.Errorf("team 5 = %+v, want 4 messages, 3 counted, 1100 left", tv)
	}
	r := findRobot(s, 5, 3)
	if r.Counted != 3 || !r.Penalised || r.Penalty != "spl_player_pushing" || r.SecsTillUnpenalised != 25 {
		t.Errorf("robot 5/3 = %+v, want 3 counted and the pushing penalty", r)
	}

	// A second GameController on the network is flagged while both are heard.
	other := netip.MustParseAddrPort("10.0.0.3:3838")
	m.Observe(gcPort, dg(g.packet(t), other, t0.Add(time.Second)))
	if gc := m.State().GameController; !gc.Multiple || len(gc.Sources) != 2 {
		t.Errorf("two GameControllers: %+v", gc)
	}
	clk.Set(t0.Add(7 * time.Second))
	if gc := m.State().GameController; gc.Online || gc.Multiple || len(gc.Sources) != 0 || gc.AgeS == nil || *gc.AgeS != 6 {
		t.Errorf("after 6 s: %+v, want offline", gc)
	}

	// Budget exhausted: counted messages are over budget.
	g.budgets = [2]uint16{0, 1190}
	m.Observe(gcPort, dg(g.packet(t), gcSrc, t0.Add(7*time.Second)))
	m.Observe(team5, dg(striker.dnet(t, nil), robotSrc, t0.Add(7*time.Second)))
	if tv := findTeam(m.State(), 5); tv.OverBudget != 1 || tv.Illegal != 1 || tv.Counted != 4 {
		t.Errorf("over budget: %+v", tv)
	}
	// A new game (INITIAL of the first half again) resets the budget counters.
	g.state, g.budgets = gcproto.StateInitial, [2]uint16{1200, 1200}
	m.Observe(gcPort, dg(g.packet(t), gcSrc, t0.Add(8*time.Second)))
	s = m.State()
	if tv := findTeam(s, 5); tv.Counted != 0 || tv.OverBudget != 0 || tv.Messages != 5 || s.GameController.Games != 1 {
		t.Errorf("after a new game: %+v (games %d), want counters reset, messages kept", tv, s.GameController.Games)
	}
	if r := findRobot(s, 5, 3); r.Counted != 0 {
		t.Errorf("robot counted %d after a new game", r.Counted)
	}
}

// TestHLSetPlay: in HL the set play's team is secondaryStateInfo[0] while kickOffTeam
// keeps the kick-off team, and the times are signed (an overrun set play preparation is
// -35 s, not 65501).
func TestHLSetPlay(t *testing.T) {
	m, _ := newTest(t, Config{League: league.HL})
	g := game{layout: gcproto.LayoutHL688, state: gcproto.StatePlaying, firstHalf: true, secs: 300,
		secondary: -35, setPlay: gcproto.SetPlayCornerKick, kicking: 17, setPlayTeam: 12, teams: [2]uint8{12, 17}}
	if !m.Observe(gcPort, dg(g.packet(t), gcSrc, t0)) {
		t.Fatal("control packet rejected")
	}
	gm := m.State().GameController.Game
	if gm == nil || gm.SetPlay != "corner_kick" || gm.SetPlayTeam != 12 || gm.KickingTeam != 17 || gm.KickingNumber != 17 ||
		gm.SecondaryTime != -35 || gm.DropBall {
		t.Fatalf("game = %+v, want corner kick for 12, kick-off team 17, secondary time -35", gm)
	}

	// HSL: kicking team 255 in PLAYING is no kicking team, not a dropped ball; in SET it is one.
	g = game{state: gcproto.StatePlaying, firstHalf: true, kicking: gcproto.KickingTeamNone, teams: [2]uint8{5, 12}}
	m.Observe(gcPort, dg(g.packet(t), gcSrc, t0))
	if gm := m.State().GameController.Game; gm.DropBall || gm.KickingNumber != 0 || gm.SetPlayTeam != 0 {
		t.Errorf("HSL PLAYING without kicking team: %+v, want no drop ball, no kicking team", gm)
	}
	g.state = gcproto.StateSet
	m.Observe(gcPort, dg(g.packet(t), gcSrc, t0))
	if gm := m.State().GameController.Game; !gm.DropBall {
		t.Errorf("HSL SET without kicking team: %+v, want a dropped ball", gm)
	}
}

func TestNewGame(t *testing.T) {
	base := gcproto.Packet{State: gcproto.StatePlaying, FirstHalf: true}
	base.Teams[0].TeamNumber, base.Teams[1].TeamNumber = 5, 12
	for _, c := range []struct {
		name   string
		change func(p *gcproto.Packet)
		want   bool
	}{
		{"same", func(p *gcproto.Packet) {}, false},
		{"sides swapped", func(p *gcproto.Packet) { p.Teams[0], p.Teams[1] = p.Teams[1], p.Teams[0] }, false},
		{"other team", func(p *gcproto.Packet) { p.Teams[1].TeamNumber = 13 }, true},
		{"second half initial", func(p *gcproto.Packet) { p.State, p.FirstHalf = gcproto.StateInitial, false }, false},
		{"first half initial", func(p *gcproto.Packet) { p.State = gcproto.StateInitial }, true},
	} {
		q := base
		c.change(&q)
		if got := newGame(&base, &q); got != c.want {
			t.Errorf("%s: newGame = %v, want %v", c.name, got, c.want)
		}
	}
	// Staying in INITIAL is not a new game every packet.
	p := base
	p.State = gcproto.StateInitial
	if newGame(&p, &p) {
		t.Error("INITIAL after INITIAL counted as a new game")
	}
}

func TestReturnPackets(t *testing.T) {
	m, clk := newTest(t, Config{})
	src := netip.MustParseAddrPort("10.0.5.12:3838")
	for i := range 4 {
		b := returnV4(t, 5, 4, 2000, -1000, math.Pi, &[2]float32{500, 0}, true)
		m.Observe(retPort, dg(b, src, t0.Add(time.Duration(i)*500*time.Millisecond)))
	}
	v2 := gcproto.ReturnPacket{Version: gcproto.ReturnVersionHL, Team: 5, Player: 6, Message: gcproto.MsgAlive}
	b2, err := v2.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	m.Observe(retPort, dg(b2, robotSrc, t0))
	nan := returnV4(t, 5, 4, 0, 0, 0, nil, false)
	copy(nan[12:16], []byte{0, 0, 0xc0, 0x7f}) // pose x = NaN
	if m.Observe(retPort, dg(nan, src, t0)) {
		t.Error("NaN pose accepted")
	}
	clk.Set(t0.Add(2 * time.Second))
	s := m.State()
	r := findRobot(s, 5, 4)
	if r == nil || r.ReturnMsgs.Count != 4 || r.ReturnMsgs.Rate != 0.4 || r.ReturnVersion != 4 || !r.Fallen || r.Role != "" {
		t.Fatalf("robot 5/4 = %+v", r)
	}
	if r.Pose == nil || !near(r.Pose.X, 2) || !near(r.Pose.Y, -1) || r.PoseSource != "return" {
		t.Errorf("pose = %+v from %s", r.Pose, r.PoseSource)
	}
	// Ball 0.5 m ahead of a robot at (2, -1) facing -x is at (1.5, -1).
	if r.Ball == nil || !near(r.Ball.X, 1.5) || !near(r.Ball.Y, -1) || r.Ball.AgeS == nil || *r.Ball.AgeS != 0.5 || r.Ball.Source != "return" {
		t.Errorf("ball = %+v", r.Ball)
	}
	if r.Faults.Undecodable != 1 {
		t.Errorf("faults = %+v, want the NaN packet as undecodable", r.Faults)
	}
	if r6 := findRobot(s, 5, 6); r6 == nil || r6.Pose != nil || r6.ReturnVersion != 2 || r6.ReturnMsgs.Count != 1 {
		t.Errorf("HL robot = %+v, want alive without pose", r6)
	}
}

func TestMaxRobots(t *testing.T) {
	m, clk := newTest(t, Config{MaxRobots: 3, MaxSources: 2})
	for p := uint8(1); p <= 10; p++ {
		m.Observe(team5, dg(mate{team: 5, player: p}.dnet(t, nil), robotSrc, t0))
	}
	for i := range 5 {
		src := netip.AddrPortFrom(netip.MustParseAddr("10.1.1.1"), uint16(i+1))
		m.Observe(team5, dg([]byte{1}, src, t0.Add(time.Duration(i)*time.Millisecond)))
	}
	clk.Set(t0.Add(time.Second))
	s := m.State()
	if len(s.Robots) != 3 || s.DroppedRobots != 7 {
		t.Errorf("%d robots, %d dropped; want 3 and 7", len(s.Robots), s.DroppedRobots)
	}
	if len(s.Sources) != 2 || s.Sources[0].Source != "10.1.1.1:4" || s.Sources[1].Source != "10.1.1.1:5" {
		t.Errorf("sources = %+v, want the newest two", s.Sources)
	}
}

func TestConfig(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"nothing to listen to", Config{Ports: []Port{}}, "no ports"},
		{"duplicate port", Config{Ports: []Port{TeamPort(5), {Kind: KindReturn, Port: 10005}}}, "port 10005 listed twice"},
		{"team twice", Config{Ports: []Port{TeamPort(5), {Kind: KindTeam, Port: 2000, Team: 5}}}, "team 5 has two ports"},
		{"team on gc port", Config{Ports: []Port{{Kind: KindGameController, Port: 1, Team: 3}}}, "only team ports"},
		{"bad kind", Config{Ports: []Port{{Port: 4}}}, "unknown kind"},
		{"bad group", Config{FollowGC: true, Groups: []netip.Addr{netip.MustParseAddr("10.0.0.1")}}, "not an IPv4 multicast"},
		{"remove before offline", Config{FollowGC: true, OfflineAfter: time.Minute, RemoveAfter: time.Second}, "shorter than OfflineAfter"},
		{"league", Config{FollowGC: true, League: league.League(9)}, "unknown league"},
	} {
		_, err := New(c.cfg)
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want ErrConfig mentioning %q", c.name, err, c.want)
		}
	}
	if _, err := New(Config{Ports: DefaultPorts(), Interface: "10.0.0.0/99"}); !errors.Is(err, transport.ErrSelector) {
		t.Errorf("bad interface: err = %v, want transport.ErrSelector", err)
	}
	m, err := New(Config{Ports: DefaultPorts(5, 12)})
	if err != nil {
		t.Fatal(err)
	}
	ps := m.Ports()
	if len(ps) != 4 || ps[2] != TeamPort(5) || ps[3].Port != 10012 || ps[0].Port != 3838 || ps[1].Port != 3939 {
		t.Errorf("ports = %+v", ps)
	}
	if ps[2].Name() != "team 5" || (Port{Kind: KindTeam, Port: ZJUPort}).Name() != "team port 57335" {
		t.Errorf("names %q", ps[2].Name())
	}
}

func TestToGlobal(t *testing.T) {
	for _, c := range []struct {
		pose   teaminfo.Pose
		rx, ry float64
		x, y   float64
	}{
		{teaminfo.Pose{}, 1, 2, 1, 2},
		{teaminfo.Pose{X: 1, Y: 1, Theta: math.Pi / 2}, 1, 0, 1, 2},
		{teaminfo.Pose{X: -2, Y: 0, Theta: math.Pi}, 1, 1, -3, -1},
		{teaminfo.Pose{X: 0, Y: 0, Theta: -math.Pi / 2}, 0, 1, 1, 0},
	} {
		x, y := toGlobal(c.pose, c.rx, c.ry)
		if !near(x, c.x) || !near(y, c.y) {
			t.Errorf("toGlobal(%+v, %g, %g) = %g, %g; want %g, %g", c.pose, c.rx, c.ry, x, y, c.x, c.y)
		}
	}
}

// TestLinkView: a robot's link to the monitor, from its team messages: 3 of 10 numbers
// missing, one duplicate, one out of order; jitter from the transit times. A zju robot
// has no loss figure.
func TestLinkView(t *testing.T) {
	m, clk := newTest(t, Config{})
	stamp := t0.Add(3250 * time.Millisecond) // the robot's clock runs 3.25 s ahead
	for i, seq := range []uint32{1, 2, 4, 3, 3, 6, 9, 10} {
		s := mate{team: 5, player: 2}.state()
		s.Seq, s.Stamp = seq, time.Duration(stamp.UnixNano())+time.Duration(seq)*100*time.Millisecond
		b, err := teaminfo.AppendDNet(nil, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		// Transit alternates 5 and 7 ms; the duplicate (the fifth) does not count, so the
		// differences are 2, 2, 2, 0, 2, 2 ms: jitter 1.7 ms.
		at := t0.Add(time.Duration(seq)*100*time.Millisecond + time.Duration(5+2*(i%2))*time.Millisecond)
		m.Observe(team5, dg(b, robotSrc, at))
	}
	m.Observe(team5, dg(mate{team: 5, player: 3}.zju(), robotSrc, t0.Add(time.Second)))
	clk.Set(t0.Add(1100 * time.Millisecond))
	s := m.State()
	l := findRobot(s, 5, 2).Link
	if l == nil || l.Loss == nil || *l.Loss != 0.3 || l.Expected != 10 || l.Received != 7 || l.Duplicates != 1 || l.Reordered != 1 ||
		l.JitterMs == nil || *l.JitterMs != 1.7 {
		t.Fatalf("link %+v", l)
	}
	if z := findRobot(s, 5, 3).Link; z == nil || z.Loss != nil || z.Received != 1 || z.JitterMs != nil {
		t.Fatalf("zju link %+v", z)
	}
}

// TestLinkViewRestart: a robot whose node restarts numbers its packets from 1 again,
// with later stamps. Its new packets start a fresh window, as the robots' own link
// figures do: they are neither out of order nor lost.
func TestLinkViewRestart(t *testing.T) {
	m, clk := newTest(t, Config{})
	at := t0
	send := func(seq uint32) {
		at = at.Add(100 * time.Millisecond)
		s := mate{team: 5, player: 2}.state()
		s.Seq, s.Stamp = seq, time.Duration(at.UnixNano())-5*time.Millisecond
		b, err := teaminfo.AppendDNet(nil, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		m.Observe(team5, dg(b, robotSrc, at))
	}
	for seq := uint32(1); seq <= 40; seq++ { // 4 s up, then the node restarts
		send(seq)
	}
	for seq := uint32(1); seq <= 20; seq++ {
		send(seq)
	}
	clk.Set(at)
	l := findRobot(m.State(), 5, 2).Link
	if l == nil || l.Reordered != 0 || l.Duplicates != 0 || l.Loss == nil || *l.Loss != 0 || l.Received != 20 || l.Expected != 20 {
		t.Fatalf("link after a restart %+v; want the 20 packets since the restart, none reordered or lost", l)
	}
}

// TestAddFaultsEveryCause: addFaults sums every cause of Faults, so no kind of fault is
// lost when a packet's faults are added to a robot's, a source's or the GameController's.
func TestAddFaultsEveryCause(t *testing.T) {
	var one Faults
	v := reflect.ValueOf(&one).Elem()
	for i := range v.NumField() {
		v.Field(i).SetUint(1)
	}
	var sum Faults
	addFaults(&sum, one)
	addFaults(&sum, one)
	s := reflect.ValueOf(sum)
	for i := range s.NumField() {
		if got := s.Field(i).Uint(); got != 2 {
			t.Errorf("%s: %d after adding 1 twice", s.Type().Field(i).Name, got)
		}
	}
	if sum.Malformed()+sum.Illegal() != 2*uint64(v.NumField()) {
		t.Errorf("malformed %d + illegal %d do not cover the %d causes twice", sum.Malformed(), sum.Illegal(), v.NumField())
	}
}

// TestStateHugeCoordinates: a team message whose pose or ball holds a finite number too
// large to show (a corrupted zju or Booster double) leaves the robot without a pose or
// ball; the state still encodes as JSON, so the page keeps working.
func TestStateHugeCoordinates(t *testing.T) {
	m, clk := newTest(t, Config{})
	m.Observe(team5, dg(mate{team: 5, player: 2, x: 1e306, ball: &[2]float64{1, 0}}.zju(), robotSrc, t0))
	src2 := netip.MustParseAddrPort("10.0.5.12:40001")
	m.Observe(team5, dg(mate{team: 5, player: 3, x: 1, ball: &[2]float64{1e306, 0}}.zju(), src2, t0))
	clk.Set(t0.Add(time.Second))
	s := m.State()
	if _, err := json.Marshal(s); err != nil {
		t.Fatalf("state does not encode: %v", err)
	}
	if r := findRobot(s, 5, 2); r == nil || r.Pose != nil || r.Ball != nil {
		t.Errorf("robot 5/2 with x = 1e306 m: %+v; want it without pose and ball", r)
	}
	if r := findRobot(s, 5, 3); r == nil || r.Pose == nil || r.Ball != nil {
		t.Errorf("robot 5/3 with the ball 1e306 m away: %+v; want its pose, no ball", r)
	}
}

// TestNewGameNotTimeoutOrExtraTime: the GameControllers of SPL and HSL send a timeout as
// INITIAL with game phase TIMEOUT, and start extra time with INITIAL and firstHalf set
// (the first extra half); neither starts a new game, so the budget counters of the game
// are kept.
func TestNewGameNotTimeoutOrExtraTime(t *testing.T) {
	m, _ := newTest(t, Config{})
	striker := mate{team: 5, player: 3, role: teaminfo.RoleStriker}
	g := game{state: gcproto.StatePlaying, firstHalf: true, teams: [2]uint8{5, 12}, budgets: [2]uint16{12000, 12000}}
	at := t0
	step := func(g game) {
		at = at.Add(500 * time.Millisecond)
		m.Observe(gcPort, dg(g.packet(t), gcSrc, at))
		m.Observe(team5, dg(striker.dnet(t, nil), robotSrc, at))
	}
	step(g) // counted: PLAYING
	timeout := g
	timeout.state, timeout.phase = gcproto.StateInitial, gcproto.GamePhaseTimeout
	step(timeout) // not counted
	g.state = gcproto.StateReady
	step(g) // counted
	g.state, g.firstHalf = gcproto.StateFinished, false
	step(g) // not counted: the end of the second half
	extra := g
	extra.state, extra.phase, extra.firstHalf = gcproto.StateInitial, gcproto.GamePhaseOvertime, true
	step(extra) // not counted
	s := m.State()
	if tv := findTeam(s, 5); tv.Counted != 2 || tv.Messages != 5 || s.GameController.Games != 0 {
		t.Errorf("after a timeout and the start of extra time: team 5 %+v, games %d; want 2 counted in one game", tv, s.GameController.Games)
	}
	if r := findRobot(s, 5, 3); r == nil || r.Counted != 2 {
		t.Errorf("robot 5/3 %+v, want 2 counted", r)
	}
}
