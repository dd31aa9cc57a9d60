package monitor

import (
	"maps"
	"math"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/proto/booster/boostertest"
)

// TestBoosterRobots feeds the monitor the packets the Booster vendor header, built with
// g++, writes: a robot broadcasting the 2026 message on its team port is a robot of its
// team with its pose and ball, counted on the team port; one sending the main
// revision's unicast message or discovery broadcast on the Booster ports is shown too,
// flagged for using a port the rules do not allow, and not counted on the team port.
func TestBoosterRobots(t *testing.T) {
	main, y26 := boostertest.Build(t, boostertest.Main), boostertest.Build(t, boostertest.Y26)
	m, clk := newTest(t, Config{Ports: []Port{TeamPort(5)}, Booster: true})
	if got := len(m.Ports()); got != 3 {
		t.Fatalf("ports %v, want the team port and two Booster ports", m.Ports())
	}
	ps := BoosterPorts(5)
	if ps[0].Port != 20005 || ps[1].Port != 30005 || ps[0].Name() != "booster 5 port 20005" {
		t.Fatalf("booster ports %+v", ps)
	}
	bcast, _ := y26.Write(t, 5, 3)
	uni, _ := main.Write(t, 5, 4)
	_, disc := main.Write(t, 5, 6)
	srcA := netip.MustParseAddrPort("10.0.5.13:41000")
	srcB := netip.MustParseAddrPort("10.0.5.14:41000")
	srcC := netip.MustParseAddrPort("10.0.5.16:41000")
	for i := range 5 {
		at := t0.Add(time.Duration(i) * 100 * time.Millisecond)
		if !m.Observe(team5, dg(bcast, srcA, at)) || !m.Observe(ps[1], dg(uni, srcB, at)) || !m.Observe(ps[0], dg(disc, srcC, at)) {
			t.Fatal("booster packet not accepted")
		}
	}
	bad := append([]byte(nil), uni...)
	bad[0] = 0
	if m.Observe(ps[1], dg(bad, srcB, t0)) {
		t.Fatal("wrong magic accepted")
	}
	clk.Set(t0.Add(time.Second))
	s := m.State()
	r := findRobot(s, 5, 3)
	if r == nil || r.Format != "booster" || r.Pose == nil || r.Ball == nil {
		t.Fatalf("robot 5/3: %+v", r)
	}
	if math.Abs(r.Pose.X+2.25) > 1e-9 || math.Abs(r.Pose.Y-1) > 1e-9 || math.Abs(r.Ball.X-1.5) > 1e-3 || math.Abs(r.Ball.Y+0.75) > 1e-3 {
		t.Errorf("robot 5/3 pose %+v ball %+v", r.Pose, r.Ball)
	}
	if r.Illegal != 0 || r.TeamMsgs.Count != 5 {
		t.Errorf("robot 5/3: illegal %d, team messages %+v", r.Illegal, r.TeamMsgs)
	}
	u := findRobot(s, 5, 4)
	if u == nil || u.Format != "booster" || u.Pose == nil || u.Faults.OffPort != 5 || u.Malformed != 1 {
		t.Fatalf("robot 5/4: %+v", u)
	}
	d := findRobot(s, 5, 6)
	if d == nil || d.Format != "booster" || d.Faults.OffPort != 5 {
		t.Fatalf("robot 5/6: %+v", d)
	}
	if tv := findTeam(s, 5); tv == nil || tv.Messages != 5 {
		t.Fatalf("team 5 counted %+v, want the 5 messages of its team port", tv)
	}
	// The unicast and the discovery hosts are listed as off the rules; the team port's
	// broadcasts are not. The unicast host's last datagram was the malformed one, so its
	// team is unknown.
	flagged := map[string]uint16{}
	for _, f := range s.PortFlags {
		if (f.Host == "10.0.5.16") != (f.Team == 5) || !strings.Contains(f.Reason, "Booster") {
			t.Errorf("flag %+v", f)
		}
		flagged[f.Host] = f.Port
	}
	if want := map[string]uint16{"10.0.5.14": 30005, "10.0.5.16": 20005}; !maps.Equal(flagged, want) {
		t.Errorf("port flags by host %v, want %v", flagged, want)
	}
}

// TestBoosterReplayPorts: a recording's datagrams to the Booster ports replay on them.
func TestBoosterReplayPorts(t *testing.T) {
	for _, c := range []struct {
		port uint16
		ok   bool
		team uint8
	}{{20005, true, 5}, {30017, true, 17}, {30000, false, 0}, {20255, false, 0}, {10005, false, 0}} {
		if got := isBoosterPort(c.port); got != c.ok {
			t.Errorf("isBoosterPort(%d) = %v", c.port, got)
			continue
		}
		if c.ok {
			if p := boosterPort(c.port); p.Kind != KindBooster || p.Team != c.team || p.Port != c.port {
				t.Errorf("boosterPort(%d) = %+v", c.port, p)
			}
		}
	}
}
