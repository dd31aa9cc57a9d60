package robocup

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"google.golang.org/protobuf/types/known/timestamppb"
)

// fxRobot, fxBall and fxCase are the values of one message in the form of
// testdata/cases.json, which testdata/fixtures.py writes and reads.
type fxRobot struct {
	PlayerID   uint32      `json:"player_id,omitempty"`
	Position   []float32   `json:"position"`
	Covariance [][]float32 `json:"covariance,omitempty"`
	Team       int32       `json:"team,omitempty"`
}

type fxBall struct {
	Position   []float32   `json:"position"`
	Velocity   []float32   `json:"velocity,omitempty"`
	Covariance [][]float32 `json:"covariance,omitempty"`
}

type fxBitBots struct {
	MaxWalkingSpeed      float32   `json:"max_walking_speed,omitempty"`
	TimeToBall           float32   `json:"time_to_ball,omitempty"`
	Role                 uint32    `json:"role,omitempty"`
	Action               uint32    `json:"action,omitempty"`
	OffensiveSide        uint32    `json:"offensive_side,omitempty"`
	OtherRobotConfidence []float32 `json:"other_robot_confidence,omitempty"`
}

type fxCase struct {
	Profile   string      `json:"profile"`
	Timestamp []int64     `json:"timestamp,omitempty"`
	State     int32       `json:"state"`
	Current   fxRobot     `json:"current"`
	Walk      []float32   `json:"walk,omitempty"`
	Target    *fxRobot    `json:"target,omitempty"`
	Kick      []float32   `json:"kick,omitempty"`
	Ball      *fxBall     `json:"ball,omitempty"`
	Others    []fxRobot   `json:"others,omitempty"`
	BitBots   *fxBitBots  `json:"bitbots,omitempty"`
	Purposes  [][2]uint32 `json:"purposes,omitempty"`
}

func loadCases(t *testing.T) map[string]json.RawMessage {
	t.Helper()
	b, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases map[string]json.RawMessage
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

// canon returns v as generic JSON values, so that two forms compare with DeepEqual.
func canon(t *testing.T, v any) any {
	t.Helper()
	b, ok := v.(json.RawMessage)
	if !ok {
		var err error
		if b, err = json.Marshal(v); err != nil {
			t.Fatal(err)
		}
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func vec3(v *Fvec3) []float32 { return []float32{v.GetX(), v.GetY(), v.GetZ()} }

func mat3(m *Fmat3) [][]float32 {
	if m == nil {
		return nil
	}
	return [][]float32{vec3(m.GetX()), vec3(m.GetY()), vec3(m.GetZ())}
}

func robotCase(r *Robot) fxRobot {
	return fxRobot{PlayerID: r.GetPlayerId(), Position: vec3(r.GetPosition()), Covariance: mat3(r.GetCovariance()), Team: int32(r.GetTeam())}
}

// caseOf returns the values of p as fixtures.py's read does for profile.
func caseOf(p *Packet, profile string) fxCase {
	m := p.Msg
	c := fxCase{Profile: profile, State: int32(m.GetState()), Current: robotCase(m.GetCurrentPose())}
	if ts := m.GetTimestamp(); ts != nil {
		c.Timestamp = []int64{ts.GetSeconds(), int64(ts.GetNanos())}
	}
	if w := m.GetWalkCommand(); w != nil {
		c.Walk = vec3(w)
	}
	if tp := m.GetTargetPose(); tp != nil {
		r := robotCase(tp)
		c.Target = &r
	}
	if k := m.GetKickTarget(); k != nil {
		c.Kick = []float32{k.GetX(), k.GetY()}
	}
	if b := m.GetBall(); b != nil {
		c.Ball = &fxBall{Position: vec3(b.GetPosition()), Covariance: mat3(b.GetCovariance())}
		if b.GetVelocity() != nil {
			c.Ball.Velocity = vec3(b.GetVelocity())
		}
	}
	for _, o := range m.GetOthers() {
		c.Others = append(c.Others, robotCase(o))
	}
	switch profile {
	case "bitbots":
		x := p.BitBots
		c.BitBots = &fxBitBots{x.MaxWalkingSpeed, x.TimeToBall, x.Role, x.Action, x.OffensiveSide, x.OtherRobotConfidence}
	case "nubots":
		for _, pu := range p.Purposes {
			c.Purposes = append(c.Purposes, [2]uint32{pu.PlayerID, pu.Purpose})
		}
	}
	return c
}

func vecOf(v []float32) *Fvec3 {
	if v == nil {
		return nil
	}
	return &Fvec3{X: v[0], Y: v[1], Z: v[2]}
}

func matOf(m [][]float32) *Fmat3 {
	if m == nil {
		return nil
	}
	return &Fmat3{X: vecOf(m[0]), Y: vecOf(m[1]), Z: vecOf(m[2])}
}

func robotOf(r fxRobot) *Robot {
	return &Robot{PlayerId: r.PlayerID, Position: vecOf(r.Position), Covariance: matOf(r.Covariance), Team: Team(r.Team)}
}

// packetOf builds the packet of case c.
func packetOf(c fxCase) *Packet {
	m := &Message{State: State(c.State), CurrentPose: robotOf(c.Current), WalkCommand: vecOf(c.Walk)}
	if c.Timestamp != nil {
		m.Timestamp = &timestamppb.Timestamp{Seconds: c.Timestamp[0], Nanos: int32(c.Timestamp[1])}
	}
	if c.Target != nil {
		m.TargetPose = robotOf(*c.Target)
	}
	if c.Kick != nil {
		m.KickTarget = &Fvec2{X: c.Kick[0], Y: c.Kick[1]}
	}
	if b := c.Ball; b != nil {
		m.Ball = &Ball{Position: vecOf(b.Position), Velocity: vecOf(b.Velocity), Covariance: matOf(b.Covariance)}
	}
	for _, o := range c.Others {
		m.Others = append(m.Others, robotOf(o))
	}
	p := &Packet{Msg: m}
	if x := c.BitBots; x != nil {
		p.BitBots = BitBots{x.MaxWalkingSpeed, x.TimeToBall, x.Role, x.Action, x.OffensiveSide, x.OtherRobotConfidence}
	}
	for _, pu := range c.Purposes {
		p.Purposes = append(p.Purposes, Purpose{PlayerID: pu[0], Purpose: pu[1]})
	}
	return p
}

func sortedNames(cases map[string]json.RawMessage) []string {
	var names []string
	for n := range cases {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// TestDecodeOfficialFixtures decodes every message the official definitions wrote
// (testdata/golden, by fixtures.py) and compares it with the case's values.
func TestDecodeOfficialFixtures(t *testing.T) {
	cases := loadCases(t)
	for _, name := range sortedNames(cases) {
		t.Run(name, func(t *testing.T) {
			var want fxCase
			if err := json.Unmarshal(cases[name], &want); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(filepath.Join("testdata/golden", name+".bin"))
			if err != nil {
				t.Fatal(err)
			}
			if !Looks(b) {
				t.Errorf("Looks = false for an official message")
			}
			var p Packet
			if err := Decode(b, &p); err != nil {
				t.Fatal(err)
			}
			if got, w := canon(t, caseOf(&p, want.Profile)), canon(t, cases[name]); !reflect.DeepEqual(got, w) {
				t.Errorf("decoded\n%v\nwant\n%v", got, w)
			}
			if want.Profile != "nubots" && p.HasPurposes {
				t.Errorf("HasPurposes set for a %s message", want.Profile)
			}
			if want.Profile != "bitbots" && p.HasBitBots {
				t.Errorf("HasBitBots set for a %s message", want.Profile)
			}
			// Extensions stay in the unknown fields, and Append without a profile drops
			// them while keeping the standard fields.
			if want.Profile != "none" && len(p.Msg.ProtoReflect().GetUnknown()) == 0 {
				t.Errorf("extension fields not kept as unknown fields")
			}
		})
	}
}

// TestTeamQuirk checks both readings of current_pose.team: a colour in the standard's
// messages, the team number in Bit-Bots' and NUbots'.
func TestTeamQuirk(t *testing.T) {
	for _, tc := range []struct {
		name   string
		number uint32
		colour Team
	}{
		{"standard_full", 1, Team_BLUE},
		{"standard_penalised_red", 2, Team_RED},
		{"standard_minimal", 0, Team_UNKNOWN_TEAM},
		{"bitbots", 13, Team_UNKNOWN_TEAM},
		{"nubots", 18, Team_UNKNOWN_TEAM},
	} {
		b, err := os.ReadFile(filepath.Join("testdata/golden", tc.name+".bin"))
		if err != nil {
			t.Fatal(err)
		}
		var p Packet
		if err := Decode(b, &p); err != nil {
			t.Fatal(err)
		}
		if p.TeamNumber() != tc.number || p.Colour() != tc.colour {
			t.Errorf("%s: TeamNumber, Colour = %d, %v, want %d, %v", tc.name, p.TeamNumber(), p.Colour(), tc.number, tc.colour)
		}
	}
	if got := TeamField(ExtNone, 13, Team_RED); got != Team_RED {
		t.Errorf("TeamField(none) = %v, want the colour", got)
	}
	for _, ext := range []Extension{ExtBitBots, ExtNUbots} {
		if got := TeamField(ext, 13, Team_RED); got != 13 {
			t.Errorf("TeamField(%v) = %v, want the team number 13", ext, got)
		}
	}
}

// python returns the Python interpreter that has python3-protobuf, and skips the test
// when it or protoc is missing.
func python(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("protoc"); err != nil {
		t.Skip("protoc not installed (scripts/setup.sh --test installs protobuf-compiler)")
	}
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		if exec.Command(py, "-c", "import google.protobuf").Run() == nil {
			return py
		}
	}
	t.Skip("no python3 with google.protobuf (scripts/setup.sh --test installs python3-protobuf)")
	return ""
}

// TestOfficialFixturesRegenerate runs fixtures.py and checks that it writes exactly
// the checked-in golden messages.
func TestOfficialFixturesRegenerate(t *testing.T) {
	py := python(t)
	dir := t.TempDir()
	if out, err := exec.Command(py, "testdata/fixtures.py", "write", dir).CombinedOutput(); err != nil {
		t.Fatalf("fixtures.py write: %v\n%s", err, out)
	}
	for _, name := range sortedNames(loadCases(t)) {
		got, err := os.ReadFile(filepath.Join(dir, name+".bin"))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("testdata/golden", name+".bin"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: fixtures.py writes % x, golden is % x", name, got, want)
		}
	}
}

// TestEncodeReadByOfficial encodes every case with Append and has the official
// definitions (fixtures.py read) parse it: the values must be the case's.
func TestEncodeReadByOfficial(t *testing.T) {
	py := python(t)
	cases := loadCases(t)
	for _, name := range sortedNames(cases) {
		t.Run(name, func(t *testing.T) {
			var c fxCase
			if err := json.Unmarshal(cases[name], &c); err != nil {
				t.Fatal(err)
			}
			ext, err := ParseExtension(c.Profile)
			if err != nil {
				t.Fatal(err)
			}
			b, err := Append(nil, packetOf(c), ext)
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(py, "testdata/fixtures.py", "read", c.Profile)
			cmd.Stdin = bytes.NewReader(b)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("fixtures.py read: %v", err)
			}
			if got, w := canon(t, json.RawMessage(out)), canon(t, cases[name]); !reflect.DeepEqual(got, w) {
				t.Errorf("official parse of our message\n%v\nwant\n%v", got, w)
			}
		})
	}
}
