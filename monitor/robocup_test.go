package monitor

import (
	"net/netip"
	"os"
	"path/filepath"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/proto/robocup"
)

// robocupFixture reads a message the official definitions wrote
// (proto/robocup/testdata/golden).
func robocupFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "proto", "robocup", "testdata", "golden", name+".bin"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// robocupAs returns the Bit-Bots fixture name with current_pose.team set to team, as a
// Bit-Bots robot of that team writes it.
func robocupAs(t *testing.T, name string, team uint8) []byte {
	t.Helper()
	var p robocup.Packet
	if err := robocup.Decode(robocupFixture(t, name), &p); err != nil {
		t.Fatal(err)
	}
	p.Msg.CurrentPose.Team = robocup.Team(team)
	b, err := robocup.Append(nil, &p, robocup.ExtBitBots)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestTeamMessagesRobocup: HL standard messages (Bit-Bots' on team 13's port, NUbots'
// on a port several teams share) show as robots of format robocup, with the team their
// current_pose.team names on the shared port; a broken one is a fault.
func TestTeamMessagesRobocup(t *testing.T) {
	m, _ := newTest(t, Config{})
	if !m.Observe(TeamPort(13), dg(robocupFixture(t, "bitbots"), robotSrc, t0)) {
		t.Fatal("Bit-Bots message not accepted")
	}
	shared := Port{Kind: KindTeam, Port: 10099}
	if !m.Observe(shared, dg(robocupFixture(t, "nubots"), netip.MustParseAddrPort("10.0.18.12:40001"), t0)) {
		t.Fatal("NUbots message not accepted")
	}
	s := m.State()
	r := findRobot(s, 13, 4)
	if r == nil || r.Format != "robocup" || r.Role != "striker" || r.PlayState != "ball_handling" || r.Pose == nil ||
		!near(r.Pose.X, 0.5) || !near(r.Pose.Y, 1.5) || !near(r.Pose.Theta, -0.75) || r.Ball == nil || !near(r.Ball.X, 1) {
		t.Errorf("Bit-Bots robot = %+v", r)
	}
	if n := findRobot(s, 18, 2); n == nil || n.Format != "robocup" || n.Role != "striker" || !near(n.Pose.Theta, 3) {
		t.Errorf("NUbots robot = %+v", n)
	}
	broken := robocupFixture(t, "standard_full")
	if m.Observe(TeamPort(13), dg(broken[:len(broken)-3], robotSrc, t0)) {
		t.Error("truncated message accepted")
	}
	if tv := findTeam(m.State(), 13); tv == nil || tv.Malformed != 1 {
		t.Errorf("team 13 = %+v, want one malformed message", tv)
	}
	// On team 5's port, a message whose current_pose.team names team 13 is team 13's,
	// on the wrong port; a colour there (the standard's reading) leaves it team 5's.
	m.Observe(team5, dg(robocupFixture(t, "bitbots_goalie"), robotSrc, t0))
	m.Observe(team5, dg(robocupFixture(t, "standard_penalised_red"), robotSrc, t0))
	s = m.State()
	if r := findRobot(s, 13, 1); r == nil || r.Faults.WrongPort != 1 {
		t.Errorf("team 13's goalie on team 5's port = %+v", r)
	}
	if r := findRobot(s, 5, 1); r == nil || r.Format != "robocup" || r.Faults.WrongPort != 0 {
		t.Errorf("team 5's robot in the standard's reading = %+v", r)
	}
}
