package booster

import (
	"encoding/binary"
	"math"
	"testing"
)

// wireValues reads the fields of fs from b as their Kind says, by name (point and pose
// components as name.x, ...).
func wireValues(t *testing.T, fs []WireField, b []byte) map[string]float64 {
	t.Helper()
	le := binary.LittleEndian
	f64 := func(off int) float64 { return math.Float64frombits(le.Uint64(b[off:])) }
	v := map[string]float64{}
	for _, f := range fs {
		switch f.Kind {
		case "i32":
			v[f.Name] = float64(int32(le.Uint32(b[f.Off:])))
		case "bool":
			v[f.Name] = float64(b[f.Off])
		case "f64":
			v[f.Name] = f64(f.Off)
		case "point", "pose":
			third := ".z"
			if f.Kind == "pose" {
				third = ".theta"
			}
			for i, c := range []string{".x", ".y", third} {
				v[f.Name+c] = f64(f.Off + 8*i)
			}
		case "padding":
		default:
			t.Fatalf("%s: kind %q", f.Name, f.Kind)
		}
	}
	return v
}

// TestWire: the descriptions tile each packet without gap or overlap, and reading the
// encoder's bytes by them gives back every field of the message.
func TestWire(t *testing.T) {
	for _, r := range []Revision{RevisionMain, Revision2026} {
		fs := Wire(r)
		next := 0
		for _, f := range fs {
			if f.Off != next || f.Size < 1 {
				t.Errorf("%s: %s at %d+%d, want offset %d", r, f.Name, f.Off, f.Size, next)
			}
			next = f.Off + f.Size
		}
		if next != r.Size() {
			t.Errorf("%s: fields end at %d, the packet has %d bytes", r, next, r.Size())
		}
		m := Message{Revision: r, CommunicationID: 4711, TeamID: 12, PlayerID: 3, PlayerRole: RoleGoalKeeper,
			IsAlive: true, IsLead: false, IsInVisualKick: true, BallDetected: false, BallLocationKnown: true,
			BallConfidence: 0.5, BallRange: 1.5, Cost: 2.5, BallPos: Point{3, 4, 5}, RobotPose: Pose{6, 7, 0.75},
			KickDir: -1, ThetaRb: -2, CmdID: 42, Cmd: -7}
		b, err := m.Append(nil)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]float64{"validation": Magic, "communication_id": 4711, "team_number": 12, "player_number": 3,
			"role": RoleGoalKeeper, "is_alive": 1, "is_lead": 0, "ball_detected": 0, "ball_location_known": 1,
			"ball_confidence": 0.5, "ball_range": 1.5, "cost": 2.5, "ball_global.x": 3, "ball_global.y": 4,
			"ball_global.z": 5, "robot_pos.x": 6, "robot_pos.y": 7, "robot_pos.theta": 0.75, "kick_dir": -1,
			"theta_rb": -2, "cmd_id": 42, "cmd": -7}
		if r == Revision2026 {
			want["is_in_visual_kick"] = 1
		}
		got := wireValues(t, fs, b)
		for k, w := range want {
			if g, ok := got[k]; !ok || g != w {
				t.Errorf("%s: %s reads %v, want %v", r, k, g, w)
			}
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d values read, want %d: %v", r, len(got), len(want), got)
		}
	}
	if Wire(0) != nil {
		t.Error("Wire of an unknown revision")
	}

	d := Discovery{CommunicationID: 815, TeamID: 12, PlayerID: 3}
	got := wireValues(t, DiscoveryWire(), d.Append(nil))
	want := map[string]float64{"validation": DiscoveryMagic, "communication_id": 815, "team_number": 12, "player_number": 3}
	if len(got) != len(want) {
		t.Errorf("discovery: %v, want %v", got, want)
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("discovery: %s reads %v, want %v", k, got[k], w)
		}
	}
	if n := RoleNames(RevisionMain); len(n) != 4 || n[RoleStriker] != "striker" || n[RoleUnknownMain] != "unknown" || n[0] != "" {
		t.Errorf("main roles %q", n)
	}
	if n := RoleNames(Revision2026); len(n) != 5 || n[RoleDefender2026] != "defender" || n[RoleUnknown2026] != "unknown" {
		t.Errorf("2026 roles %q", n)
	}
}
