package sim3d

import (
	"errors"
	"log/slog"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	sim3dproto "github.com/robocup-dnetwork/dnetwork/proto/sim3d"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/builtin_interfaces"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

// angleDiff returns the absolute difference of two headings in degrees, 0..180.
func angleDiff(a, b float64) float64 {
	d := math.Mod(math.Abs(a-b), 360)
	return min(d, 360-d)
}

func TestHearTeammatePublished(t *testing.T) {
	r := newRig(t, nil, func(c *Config) { c.TeamNumber, c.TeamName = 7, "TeamX" })
	r.clk.Set(time.Unix(1000, 500_000_000))
	for _, tc := range []struct {
		name  string
		state sim3dproto.TeamState
		check func(t *testing.T, ti *dmsgs.TeamInfo)
	}{
		{"ball in sight", sim3dproto.TeamState{Player: 3, Seq: 42, Role: dmsgs.TeamInfoRoleStriker,
			State: dmsgs.TeamInfoStateBallHandling, Fallen: true, X: 1.23, Y: -4.56, Heading: 90.7,
			BallKnown: true, BallX: 2.5, BallY: -1.25},
			func(t *testing.T, ti *dmsgs.TeamInfo) {
				if !ti.SeeBall || !near(ti.BallGlobal.X, 250) || !near(ti.BallGlobal.Y, -125) || ti.BallAge != 0 {
					t.Errorf("ball: see %v at %+v age %v, want seen at (250, -125) age 0", ti.SeeBall, ti.BallGlobal, ti.BallAge)
				}
			}},
		{"ball seen 1.2 s ago", sim3dproto.TeamState{Player: 4, Seq: 1, Role: dmsgs.TeamInfoRoleGoalie,
			State: dmsgs.TeamInfoStatePlaying, X: -14.5, Y: 9.99, Heading: -179.9,
			BallKnown: true, BallX: -3, BallY: 0.07, BallAge: 1200 * time.Millisecond},
			func(t *testing.T, ti *dmsgs.TeamInfo) {
				if ti.SeeBall || !near(ti.BallGlobal.X, -300) || !near(ti.BallGlobal.Y, 7) || !near(float64(ti.BallAge), 1.2) {
					t.Errorf("ball: see %v at %+v age %v, want not seen at (-300, 7) age 1.2", ti.SeeBall, ti.BallGlobal, ti.BallAge)
				}
			}},
		{"ball unknown", sim3dproto.TeamState{Player: 11, Seq: 255, Role: 7, State: 7, X: 0, Y: 0, Heading: 180},
			func(t *testing.T, ti *dmsgs.TeamInfo) {
				if ti.SeeBall || ti.BallGlobal.X != 0 || ti.BallGlobal.Y != 0 || !math.IsNaN(float64(ti.BallAge)) {
					t.Errorf("ball: see %v at %+v age %v, want unknown: zero, age NaN", ti.SeeBall, ti.BallGlobal, ti.BallAge)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := r.infos.Len()
			msg := encode(t, "TeamX", tc.state)
			r.team.HandleHear(&dmsgs.Sim3dHear{GameTime: 12.3, Team: "TeamX", Direction: 45, Message: msg})
			if r.infos.Len() != n+1 {
				t.Fatalf("published %d TeamInfo, want 1", r.infos.Len()-n)
			}
			ti, _ := r.infos.Last()
			s := tc.state
			if ti.PlayerNumber != s.Player || ti.TeamNumber != 7 || ti.Sequence != uint32(s.Seq) ||
				ti.Format != dmsgs.TeamInfoFormatDnet || ti.Authenticated ||
				ti.Role != s.Role || ti.State != s.State || ti.Fallen != s.Fallen || ti.Incapacitated != s.Fallen {
				t.Errorf("header fields of %+v", ti)
			}
			if !near(ti.RobotPos.X, s.X*100) || !near(ti.RobotPos.Y, s.Y*100) ||
				angleDiff(ti.RobotPos.Z, s.Heading) > sim3dproto.HeadingStep/2+1e-9 || ti.RobotPos.Z <= -180 || ti.RobotPos.Z > 180 {
				t.Errorf("robot_pos %+v, want (%v, %v, %v)", ti.RobotPos, s.X*100, s.Y*100, s.Heading)
			}
			if ti.ReceiveTime != (builtin_interfaces.Time{Sec: 1000, Nanosec: 500_000_000}) ||
				ti.SenderTime != (builtin_interfaces.Time{Sec: 1000, Nanosec: 460_000_000}) ||
				ti.Age != (builtin_interfaces.Duration{Nanosec: 40_000_000}) {
				t.Errorf("times: sender %+v receive %+v age %+v", ti.SenderTime, ti.ReceiveTime, ti.Age)
			}
			if !math.IsNaN(float64(ti.TimeToReachBall)) || !math.IsNaN(float64(ti.TimeSinceLastKick)) {
				t.Errorf("fields not carried: time to reach ball %v, since last kick %v, want NaN",
					ti.TimeToReachBall, ti.TimeSinceLastKick)
			}
			if ti.Dest != (dmsgs.TeamInfo{}).Dest || ti.GCConnected || ti.Priority || len(ti.VoronoiList) != 0 {
				t.Errorf("fields not carried are not zero: %+v", ti)
			}
			tc.check(t, &ti)
		})
	}
	st := r.team.Status()
	if st.Heard != 3 || st.Accepted != 3 || st.LastGameTime != 12.3 {
		t.Errorf("status %+v", st)
	}
	if m := st.Mates[2]; m.Heard != 1 || m.Seq != 42 || !m.LastHeard.Equal(r.clk.Now()) {
		t.Errorf("mate 3: %+v", m)
	}
	checkInvariants(t, st)
}

func TestHearUnlabelledAccepted(t *testing.T) {
	r := newRig(t, nil, func(c *Config) { c.TeamName = "TeamX" })
	// LabelMessages off: the server sends no team name, the key alone decides.
	r.team.HandleHear(&dmsgs.Sim3dHear{GameTime: 1, Direction: -179.99,
		Message: encode(t, "TeamX", sim3dproto.TeamState{Player: 2, Seq: 1})})
	r.team.HandleHear(&dmsgs.Sim3dHear{GameTime: 1, Direction: -179.99,
		Message: encode(t, "TeamY", sim3dproto.TeamState{Player: 2, Seq: 1})})
	st := r.team.Status()
	if st.Accepted != 1 || st.Dropped.Foreign != 1 || r.infos.Len() != 1 {
		t.Errorf("status %+v", st)
	}
}

func TestHearDrops(t *testing.T) {
	r := newRig(t, nil, func(c *Config) { c.TeamName = "TeamX" })
	mate := encode(t, "TeamX", sim3dproto.TeamState{Player: 2, Seq: 9})
	valid20 := []byte(mate)
	valid20[0] = 'A'        // format 0
	changed := []byte(mate) // last character, within the alphabet: only the checksum differs
	changed[19] = map[bool]byte{true: 'B', false: 'A'}[changed[19] == 'A']
	for _, tc := range []struct {
		name string
		hear *dmsgs.Sim3dHear
		want func(HearDrops) uint64
	}{
		{"own message", &dmsgs.Sim3dHear{Team: "TeamX", Own: true,
			Message: encode(t, "TeamX", sim3dproto.TeamState{Player: 1, Seq: 1})}, func(d HearDrops) uint64 { return d.Self }},
		{"own flag wins over a teammate's text", &dmsgs.Sim3dHear{Team: "TeamX", Own: true, Message: mate},
			func(d HearDrops) uint64 { return d.Self }},
		{"labelled with the other team", &dmsgs.Sim3dHear{Team: "TeamY", Message: mate},
			func(d HearDrops) uint64 { return d.OtherTeam }},
		{"other key", &dmsgs.Sim3dHear{Team: "TeamX",
			Message: encode(t, "TeamY", sim3dproto.TeamState{Player: 2, Seq: 9})}, func(d HearDrops) uint64 { return d.Foreign }},
		{"one character changed", &dmsgs.Sim3dHear{Team: "TeamX", Message: string(changed)},
			func(d HearDrops) uint64 { return d.Foreign }},
		{"empty", &dmsgs.Sim3dHear{Team: "TeamX"}, func(d HearDrops) uint64 { return d.Malformed }},
		{"short", &dmsgs.Sim3dHear{Team: "TeamX", Message: "helloworld"}, func(d HearDrops) uint64 { return d.Malformed }},
		{"UT Austin Villa message", &dmsgs.Sim3dHear{Team: "TeamX", Message: "e4GtG4EAPS6ia"},
			func(d HearDrops) uint64 { return d.Malformed }},
		{"FC Portugal message", &dmsgs.Sim3dHear{Team: "TeamX", Message: "q,d&GSGs5z>y>j{KM}rb"},
			func(d HearDrops) uint64 { return d.Malformed }},
		{"format 0", &dmsgs.Sim3dHear{Team: "TeamX", Message: string(valid20)}, func(d HearDrops) uint64 { return d.Malformed }},
		{"long", &dmsgs.Sim3dHear{Team: "TeamX", Message: mate + "A"}, func(d HearDrops) uint64 { return d.Malformed }},
		{"binary", &dmsgs.Sim3dHear{Team: "TeamX", Message: strings.Repeat("\x00\xff", 10)},
			func(d HearDrops) uint64 { return d.Malformed }},
		{"nil", nil, func(d HearDrops) uint64 { return d.Malformed }},
		{"our own number", &dmsgs.Sim3dHear{Team: "TeamX",
			Message: encode(t, "TeamX", sim3dproto.TeamState{Player: 1, Seq: 3})}, func(d HearDrops) uint64 { return d.OwnNumber }},
		{"teammate", &dmsgs.Sim3dHear{Team: "TeamX", Message: mate}, func(HearDrops) uint64 { return 0 }},
		{"teammate again", &dmsgs.Sim3dHear{Team: "TeamX", Message: mate}, func(d HearDrops) uint64 { return d.Duplicate }},
	} {
		before := r.team.Status()
		published := r.infos.Len()
		r.team.HandleHear(tc.hear)
		after := r.team.Status()
		if after.Heard != before.Heard+1 {
			t.Errorf("%s: heard %d → %d", tc.name, before.Heard, after.Heard)
		}
		if tc.name == "teammate" {
			if after.Accepted != before.Accepted+1 || r.infos.Len() != published+1 {
				t.Errorf("%s: not published", tc.name)
			}
			continue
		}
		if got := tc.want(after.Dropped) - tc.want(before.Dropped); got != 1 ||
			after.Dropped.Total() != before.Dropped.Total()+1 {
			t.Errorf("%s: dropped %+v → %+v, want one more of its cause", tc.name, before.Dropped, after.Dropped)
		}
		if r.infos.Len() != published {
			t.Errorf("%s: published a TeamInfo", tc.name)
		}
	}
	// The duplicate is no longer one after a round (22 cycles at 20 ms).
	r.clk.Advance(440 * time.Millisecond)
	r.team.HandleHear(&dmsgs.Sim3dHear{Team: "TeamX", Message: mate})
	st := r.team.Status()
	if st.Accepted != 2 || st.Mates[1].Heard != 2 || st.Mates[1].Lost != 255 {
		t.Errorf("after a round: %+v", st)
	}
	if r.logs.count(slog.LevelWarn, "a teammate says it has our uniform number; check the robots' player numbers") != 1 ||
		r.logs.count(slog.LevelDebug, "heard a message that is not a team message") != 1 {
		t.Errorf("logs: want one warning for the own number and one debug record for malformed messages")
	}
	checkInvariants(t, st)
}

func TestHearPublishErrorAndLostCount(t *testing.T) {
	fail := errors.New("writer gone")
	failing := false
	infos := &bus.Recorder[dmsgs.TeamInfo]{}
	pub := bus.PublisherFunc[dmsgs.TeamInfo](func(m *dmsgs.TeamInfo) error {
		if failing {
			return fail
		}
		return infos.Publish(m)
	})
	logs := &logRecorder{}
	c := DefaultConfig()
	c.Player, c.Key, c.Logger = 1, "TeamX", slog.New(logs)
	clk := clock.NewManual(start)
	team, err := New(c, clk, &bus.Recorder[dmsgs.Sim3dSay]{}, pub)
	if err != nil {
		t.Fatal(err)
	}
	for _, seq := range []uint8{254, 255, 0, 3, 4} {
		failing = seq == 0
		team.HandleHear(&dmsgs.Sim3dHear{Message: encode(t, "TeamX", sim3dproto.TeamState{Player: 5, Seq: seq})})
		clk.Advance(time.Second)
	}
	st := team.Status()
	if st.Accepted != 4 || st.Dropped.Publish != 1 || infos.Len() != 4 {
		t.Errorf("status %+v, published %d", st, infos.Len())
	}
	if m := st.Mates[4]; m.Heard != 5 || m.Lost != 2 || m.Seq != 4 {
		t.Errorf("mate 5: %+v, want heard 5, lost 2 (seq 1 and 2), seq 4", m)
	}
	if logs.count(slog.LevelWarn, "cannot publish TeamInfo") != 1 {
		t.Error("want one publish warning")
	}
	checkInvariants(t, st)
}

// TestWarningsRateLimited floods own-number messages: one warning per 10 s of the clock.
func TestWarningsRateLimited(t *testing.T) {
	r := newRig(t, nil, nil)
	own := encode(t, "TeamX", sim3dproto.TeamState{Player: 1})
	const msg = "a teammate says it has our uniform number; check the robots' player numbers"
	for i := range 1000 { // 25 s at one message per 25 ms
		r.team.HandleHear(&dmsgs.Sim3dHear{Message: own})
		if i%2 == 1 {
			r.clk.Advance(50 * time.Millisecond)
		}
	}
	if n := r.logs.count(slog.LevelWarn, msg); n != 3 {
		t.Errorf("%d warnings in 25 s, want 3", n)
	}
	if st := r.team.Status(); st.Dropped.OwnNumber != 1000 {
		t.Errorf("own number drops %d, want 1000", st.Dropped.OwnNumber)
	}
}

func FuzzHandleHear(f *testing.F) {
	codec := sim3dproto.NewTeamCodec("TeamX")
	good, _ := codec.Append(nil, &sim3dproto.TeamState{Player: 3, Seq: 1, X: 1, BallKnown: true})
	f.Add("TeamX", false, string(good))
	f.Add("", false, string(good))
	f.Add("TeamX", true, string(good))
	f.Add("TeamY", false, "e4GtG4EAPS6ia")
	f.Add("", false, "q,d&GSGs5z>y>j{KM}rb")
	f.Add("TeamX", false, "AAAAAAAAAAAAAAAAAAAA")
	f.Fuzz(func(t *testing.T, team string, own bool, msg string) {
		c := DefaultConfig()
		c.Player, c.Key, c.TeamName = 1, "TeamX", "TeamX"
		c.Logger = slog.New(&logRecorder{})
		infos := &bus.Recorder[dmsgs.TeamInfo]{}
		tm, err := New(c, clock.NewManual(start), &bus.Recorder[dmsgs.Sim3dSay]{}, infos)
		if err != nil {
			t.Fatal(err)
		}
		tm.HandleHear(&dmsgs.Sim3dHear{Team: team, Own: own, Message: msg})
		st := tm.Status()
		checkInvariants(t, st)
		if st.Heard != 1 || uint64(infos.Len()) != st.Accepted {
			t.Fatalf("heard %d, accepted %d, published %d", st.Heard, st.Accepted, infos.Len())
		}
		if st.Accepted == 1 {
			// Whatever is accepted re-encodes to the message heard.
			ti, _ := infos.Last()
			var s sim3dproto.TeamState
			if err := codec.Decode([]byte(msg), &s); err != nil || uint32(s.Seq) != ti.Sequence || s.Player != ti.PlayerNumber {
				t.Fatalf("accepted %q: decode %v, TeamInfo %+v", msg, err, ti)
			}
			if out, err := codec.Append(nil, &s); err != nil || string(out) != msg {
				t.Fatalf("accepted %q re-encodes to %q (%v)", msg, out, err)
			}
		}
	})
}

// TestHearAgeFromServerTime checks TeamInfo's age against the server time the agent
// hands with the hear perceptor: a say decided in the sender's slot cycle s is heard in
// cycle s+2, or s+3 when its agent relayed it a cycle late.
func TestHearAgeFromServerTime(t *testing.T) {
	r := newRig(t, nil, func(c *Config) { c.Player, c.TeamSize, c.SlotCycles = 1, 3, 3 })
	// Player 2 of 3 with three-cycle slots speaks in cycles 3, 12, 21, ... (mod 9 = 3).
	for i, tc := range []struct {
		serverTime float64
		want       time.Duration
	}{
		{0.28, 40 * time.Millisecond}, // cycle 14: said in 12
		{0.30, 60 * time.Millisecond}, // cycle 15: said in 12, relayed a cycle late
		{0.46, 40 * time.Millisecond}, // cycle 23: said in 21
		{0, 40 * time.Millisecond},    // no server time: the minimum delay
		{0.48, 60 * time.Millisecond}, // cycle 24: said in 21
		{0.50, 80 * time.Millisecond}, // cycle 25: said in 21 at the latest
	} {
		msg := encode(t, "TeamX", sim3dproto.TeamState{Player: 2, Seq: uint8(i + 1)})
		r.team.HandleHear(&dmsgs.Sim3dHear{ServerTime: tc.serverTime, Team: "TeamX", Message: msg})
		ti, ok := r.infos.Last()
		if !ok || r.infos.Len() != i+1 {
			t.Fatalf("server time %v: %d TeamInfo published", tc.serverTime, r.infos.Len())
		}
		want := tc.want
		age := time.Duration(ti.Age.Sec)*time.Second + time.Duration(ti.Age.Nanosec)
		if age != want {
			t.Errorf("server time %v: age %v, want %v", tc.serverTime, age, want)
		}
		sender := time.Unix(int64(ti.SenderTime.Sec), int64(ti.SenderTime.Nanosec))
		if got := r.clk.Now().Sub(sender); got != want {
			t.Errorf("server time %v: sender time %v before receipt, want %v", tc.serverTime, got, want)
		}
	}
}

// TestHearLearnsTeamName: without Config.TeamName, two teams with the default (empty,
// equal) key accept each other's messages unless the label tells them apart. The server
// labels the robot's own echo with its team name, so the Team learns the name from it
// and drops messages labelled with another team from then on.
func TestHearLearnsTeamName(t *testing.T) {
	r := newRig(t, nil, nil) // TeamName empty
	mate := encode(t, "TeamX", sim3dproto.TeamState{Player: 2, Seq: 1})
	r.team.HandleHear(&dmsgs.Sim3dHear{Team: "DNA", Own: true,
		Message: encode(t, "TeamX", sim3dproto.TeamState{Player: 1, Seq: 1})})
	r.team.HandleHear(&dmsgs.Sim3dHear{Team: "RIV", Message: mate})
	r.team.HandleHear(&dmsgs.Sim3dHear{Team: "DNA", Message: mate})
	st := r.team.Status()
	if st.Dropped.OtherTeam != 1 || st.Accepted != 1 || r.infos.Len() != 1 {
		t.Errorf("after our own echo labelled DNA, RIV's message: dropped %+v, accepted %d, want it dropped as OtherTeam and DNA's accepted",
			st.Dropped, st.Accepted)
	}
	checkInvariants(t, st)
}
