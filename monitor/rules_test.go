package monitor

import (
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
)

// TestTwoTeamsOnTheField: the GameController names teams 17 (dnet) and 5 (the HL
// standard protobuf); both show with their formats, rates and budget use against the
// GameController's counting, and the traffic on ports the rules do not allow (team 17 on
// team 5's port, a team port of a team that is not playing, a port no team owns) is
// flagged per source host. A new game starts the budget comparison again.
func TestTwoTeamsOnTheField(t *testing.T) {
	m, clk := newTest(t, Config{})
	g := game{state: gcproto.StatePlaying, firstHalf: true, teams: [2]uint8{17, 5}, budgets: [2]uint16{12000, 12000}}
	m.Observe(gcPort, dg(g.packet(t), gcSrc, t0))

	src17 := netip.MustParseAddrPort("10.0.17.11:40001")
	src5 := netip.MustParseAddrPort("10.0.5.12:40002")
	stranger := netip.MustParseAddrPort("10.0.9.30:40003")
	dnet := mate{team: 17, player: 1, role: teaminfo.RoleStriker}.dnet(t, nil)
	for range 3 {
		if !m.Observe(TeamPort(17), dg(dnet, src17, clk.Now())) {
			t.Fatal("dnet message not accepted")
		}
	}
	pb := robocupAs(t, "bitbots", 5)
	for range 2 {
		if !m.Observe(TeamPort(5), dg(pb, src5, clk.Now())) {
			t.Fatal("HL standard message not accepted")
		}
	}
	// The GameController counted 2 of team 17's messages and 3 of team 5's.
	g.budgets = [2]uint16{11998, 11997}
	m.Observe(gcPort, dg(g.packet(t), gcSrc, clk.Now()))

	// Off the rules: team 17 on team 5's port, a dnet robot on the port of team 9 (not
	// playing), a zju robot on a port no team owns.
	m.Observe(TeamPort(5), dg(dnet, src17, clk.Now()))
	m.Observe(TeamPort(9), dg(mate{team: 9, player: 2}.dnet(t, nil), stranger, clk.Now()))
	shared := Port{Kind: KindTeam, Port: ZJUPort}
	m.Observe(shared, dg(mate{team: 9, player: 3}.zju(), stranger, clk.Now()))
	m.Observe(shared, dg([]byte("garbage"), stranger, clk.Now()))
	clk.Advance(time.Second)

	s := m.State()
	if len(s.Teams) < 2 || s.Teams[0].Team != 17 || s.Teams[1].Team != 5 {
		t.Fatalf("teams = %+v, want 17 and 5 first", s.Teams)
	}
	t17, t5 := s.Teams[0], s.Teams[1]
	if !slices.Equal(t17.Formats, []string{"dnet"}) || !slices.Equal(t5.Formats, []string{"robocup"}) {
		t.Errorf("formats: team 17 %v, team 5 %v", t17.Formats, t5.Formats)
	}
	if t17.Counted != 3 || t17.GCUsed == nil || *t17.GCUsed != 2 || *t17.BudgetDiff != 1 || *t17.BudgetRemaining != 11998 {
		t.Errorf("team 17 budget: %+v", t17)
	}
	// Team 5's port carried 3 messages, one of them team 17's: the GameController
	// counts what arrives on the port, so does the monitor.
	if t5.Counted != 3 || t5.GCUsed == nil || *t5.GCUsed != 3 || *t5.BudgetDiff != 0 || t5.Rate <= 0 {
		t.Errorf("team 5 budget: %+v", t5)
	}
	if t9 := findTeam(s, 9); t9 == nil || t9.Attacks != "" || t5.Attacks != "left" || t17.Attacks != "right" {
		t.Errorf("team 9 (not playing) = %+v; attacks: team 17 %q, team 5 %q", t9, t17.Attacks, t5.Attacks)
	}
	if r := findRobot(s, 5, 4); r == nil || r.Format != "robocup" {
		t.Errorf("team 5's robot = %+v", r)
	}

	type flag struct {
		host   string
		port   uint16
		team   uint8
		reason string
	}
	want := []flag{
		{"10.0.17.11", TeamPort(5).Port, 17, "team 17 sends on the port of team 5"},
		{"10.0.9.30", TeamPort(9).Port, 9, "port of team 9, which is not playing"},
		{"10.0.9.30", ZJUPort, 0, "no team's port"},
	}
	if len(s.PortFlags) != len(want) {
		t.Fatalf("port flags = %+v, want %d", s.PortFlags, len(want))
	}
	for i, w := range want {
		f := s.PortFlags[i]
		if f.Host != w.host || f.Port != w.port || f.Team != w.team || !strings.Contains(f.Reason, w.reason) {
			t.Errorf("flag %d = %+v, want %+v", i, f, w)
		}
	}
	if f := s.PortFlags[2]; f.Packets != 2 || f.PortName != "team port 57335" {
		t.Errorf("zju port flag = %+v, want both packets", f)
	}

	// A new game (other teams): the comparison starts again.
	g.teams = [2]uint8{17, 3}
	m.Observe(gcPort, dg(g.packet(t), gcSrc, clk.Now()))
	if tv := findTeam(m.State(), 17); tv == nil || tv.Counted != 0 || *tv.GCUsed != 0 || *tv.BudgetDiff != 0 {
		t.Errorf("team 17 after a new game = %+v", tv)
	}
	// Without a budget in the control packet there is nothing to compare with.
	g.layout = gcproto.LayoutHL688
	m.Observe(gcPort, dg(g.packet(t), gcSrc, clk.Now()))
	if tv := findTeam(m.State(), 17); tv == nil || tv.GCUsed != nil || tv.BudgetDiff != nil {
		t.Errorf("team 17 without budget = %+v", tv)
	}
}
