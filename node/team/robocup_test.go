package team

import (
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"github.com/robocup-dnetwork/dnetwork/node/units"
	"github.com/robocup-dnetwork/dnetwork/proto/robocup"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/geometry_msgs"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// officialFixture reads a message the official definitions wrote
// (proto/robocup/testdata/golden).
func officialFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "proto", "robocup", "testdata", "golden", name+".bin"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func within(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// TestRobocupSend feeds a robocup component the robot's inputs (cm, degrees) and
// decodes what it sends: metres and radians, the kick target in the robot's frame,
// the other robots from the obstacles, penalised from the GameController, and what
// each profile writes into current_pose.team and its extension fields.
func TestRobocupSend(t *testing.T) {
	for _, ext := range []robocup.Extension{robocup.ExtNone, robocup.ExtBitBots, robocup.ExtNUbots} {
		t.Run(ext.String(), func(t *testing.T) {
			cfg := testConfig() // team 17, player 2
			cfg.Format, cfg.RobocupExtension = FormatRobocup, ext
			h := newHarness(t, cfg, harnessStart, nil)
			h.game.set(func(s *GameSnapshot) {
				*s = GameSnapshot{Connected: true, State: StatePlaying, MessageBudget: -1, Colour: dmsgs.GCInfoTeamRed}
			})
			// Two odometry samples 100 ms apart, without moving the clock (a tick between
			// them would send before the other inputs are set).
			h.c.SetMotionAt(&dmsgs.MotionInfo{Stable: true, Odometry: v3(0, 0, 0)}, h.clk.Now().Add(-100*time.Millisecond))
			h.c.SetMotion(&dmsgs.MotionInfo{Stable: true, Odometry: v3(2, 0, 0)}) // 20 cm/s forward
			h.c.SetBehavior(&dmsgs.BehaviorInfo{
				CurrentRole: dmsgs.BehaviorInfoRoleStriker, TeamPlayState: dmsgs.BehaviorInfoStateBallHandling,
				FinalDest: v3(150, -50, 90), AttackTarget: v3(100, 300, 0), TimeToReachBall: 4.5,
			})
			h.c.SetVision(&dmsgs.VisionInfo{
				SeeBall: true, RobotPos: v3(100, 200, 90), BallGlobal: v3(-50, 25, 0), BallVelocity: v3(10, -20, 0),
				ObstaclesGlobal: []geometry_msgs.Vector3{v3(300, -100, 0), v3(-250, 50, 0)},
			})
			h.ticks(1)
			got := h.broadcasts()
			if len(got) != 1 {
				t.Fatalf("%d packets sent, want 1", len(got))
			}
			var p robocup.Packet
			if err := robocup.Decode(got[0], &p); err != nil {
				t.Fatal(err)
			}
			m := p.Msg
			if ts := m.GetTimestamp().AsTime(); ts.Before(harnessStart) || ts.After(h.clk.Now()) {
				t.Errorf("timestamp %v, want the tick's time, in [%v, %v]", ts, harnessStart, h.clk.Now())
			}
			if m.GetState() != robocup.State_UNPENALISED {
				t.Errorf("state %v, want UNPENALISED", m.GetState())
			}
			cp := m.GetCurrentPose()
			pos := cp.GetPosition()
			if cp.GetPlayerId() != 2 || !within(float64(pos.GetX()), 1, 1e-6) || !within(float64(pos.GetY()), 2, 1e-6) ||
				!within(float64(pos.GetZ()), math.Pi/2, 1e-6) {
				t.Errorf("current pose %v, want player 2 at (1 m, 2 m, pi/2)", cp)
			}
			wantTeam := robocup.Team_RED
			if ext != robocup.ExtNone {
				wantTeam = robocup.Team(17)
			}
			if cp.GetTeam() != wantTeam {
				t.Errorf("current_pose.team %d, want %d", cp.GetTeam(), wantTeam)
			}
			if tp := m.GetTargetPose().GetPosition(); !within(float64(tp.GetX()), 1.5, 1e-6) || !within(float64(tp.GetZ()), math.Pi/2, 1e-6) {
				t.Errorf("target pose %v, want (1.5 m, -0.5 m, pi/2)", tp)
			}
			// The attack target is 1 m ahead along +y; the robot faces +y: 1 m forward.
			if k := m.GetKickTarget(); !within(float64(k.GetX()), 1, 1e-6) || !within(float64(k.GetY()), 0, 1e-6) {
				t.Errorf("kick target %v, want (1, 0) in the robot's frame", k)
			}
			if w := m.GetWalkCommand(); !within(float64(w.GetX()), 0.2, 1e-6) || !within(float64(w.GetY()), 0, 1e-6) {
				t.Errorf("walk command %v, want 0.2 m/s forward", w)
			}
			b := m.GetBall()
			if !within(float64(b.GetPosition().GetX()), -0.5, 1e-6) || !within(float64(b.GetVelocity().GetY()), -0.2, 1e-6) || b.GetCovariance() != nil {
				t.Errorf("ball %v, want at (-0.5, 0.25) m, velocity (0.1, -0.2) m/s, no covariance", b)
			}
			if o := m.GetOthers(); len(o) != 2 || !within(float64(o[0].GetPosition().GetX()), 3, 1e-6) || o[1].GetTeam() != robocup.Team_UNKNOWN_TEAM {
				t.Errorf("others %v, want the two obstacles", o)
			}
			switch ext {
			case robocup.ExtNone:
				if p.HasBitBots || p.HasPurposes {
					t.Errorf("extension fields written without a profile")
				}
			case robocup.ExtBitBots:
				x := p.BitBots
				if x.Role != robocup.RoleStriker || x.Action != robocup.ActionGoingToBall || x.TimeToBall != 4.5 || p.HasPurposes {
					t.Errorf("Bit-Bots fields %+v, want striker, going to ball, 4.5 s", x)
				}
			case robocup.ExtNUbots:
				if len(p.Purposes) != 1 || p.Purposes[0] != (robocup.Purpose{PlayerID: 2, Purpose: robocup.PurposeStriker}) || p.HasBitBots {
					t.Errorf("purposes %v, want player 2 striker", p.Purposes)
				}
			}

			h.game.set(func(s *GameSnapshot) { s.Penalised = true })
			// Penalised: silent, as in every format.
			h.ticks(int(cfg.Rate.Longest()/cfg.Tick) + 1)
			if n := len(h.broadcasts()); n != 1 {
				t.Errorf("%d packets sent while penalised, want none more", n-1)
			}
			h.checkInvariants()
		})
	}
}

// TestRobocupReceiveOfficial feeds a robocup component of team 13 the messages the
// official definitions wrote: Bit-Bots' and NUbots' (team number in current_pose.team)
// and the standard's (a colour there), and checks the TeamInfo published.
func TestRobocupReceiveOfficial(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		ext     robocup.Extension
		team    uint8
		check   func(t *testing.T, m dmsgs.TeamInfo)
	}{
		{"bitbots", robocup.ExtBitBots, 13, func(t *testing.T, m dmsgs.TeamInfo) {
			if m.PlayerNumber != 4 || m.Role != dmsgs.TeamInfoRoleStriker || m.State != dmsgs.TeamInfoStateBallHandling {
				t.Errorf("player %d role %d state %d, want 4, striker, ball handling", m.PlayerNumber, m.Role, m.State)
			}
			if !math.IsNaN(float64(m.TimeToReachBall)) {
				t.Errorf("time_to_reach_ball %v, want NaN for 9999", m.TimeToReachBall)
			}
			if !within(m.RobotPos.X, 50, 1e-4) || !within(m.RobotPos.Y, 150, 1e-4) || !within(m.RobotPos.Z, units.Degrees(-0.75), 1e-4) {
				t.Errorf("robot_pos %v, want (50, 150) cm, -0.75 rad in degrees", m.RobotPos)
			}
			if !m.SeeBall || !within(m.BallGlobal.X, 100, 1e-4) || !within(m.BallGlobal.Y, 100, 1e-4) {
				t.Errorf("ball %v (seen %v), want (100, 100) cm", m.BallGlobal, m.SeeBall)
			}
		}},
		{"bitbots_goalie", robocup.ExtNUbots, 13, func(t *testing.T, m dmsgs.TeamInfo) {
			if m.Role != dmsgs.TeamInfoRoleGoalie || m.State != dmsgs.TeamInfoStateInactive || !within(float64(m.TimeToReachBall), 12.5, 1e-6) {
				t.Errorf("role %d state %d time to ball %v, want goalie, inactive, 12.5", m.Role, m.State, m.TimeToReachBall)
			}
		}},
		{"nubots", robocup.ExtBitBots, 18, func(t *testing.T, m dmsgs.TeamInfo) {
			if m.PlayerNumber != 2 || m.Role != dmsgs.TeamInfoRoleStriker || !within(m.RobotPos.Z, units.Degrees(3), 1e-4) {
				t.Errorf("player %d role %d pose %v, want 2, striker (its purpose)", m.PlayerNumber, m.Role, m.RobotPos)
			}
		}},
		{"standard_full", robocup.ExtNone, 13, func(t *testing.T, m dmsgs.TeamInfo) {
			if m.PlayerNumber != 3 || m.Penalised || m.Format != dmsgs.TeamInfoFormatRobocup || m.Sequence != 0 {
				t.Errorf("player %d penalised %v format %d seq %d", m.PlayerNumber, m.Penalised, m.Format, m.Sequence)
			}
			if m.SenderTime != builtinTime(1796600000, 250000000) {
				t.Errorf("sender_time %v", m.SenderTime)
			}
			// kick (0.75, 0.25) m from (1.5, -2.25) m facing 0.5 rad.
			s, c := math.Sincos(0.5)
			wx, wy := 150+100*(c*0.75-s*0.25), -225+100*(s*0.75+c*0.25)
			if !within(m.AttackTarget.X, wx, 1e-3) || !within(m.AttackTarget.Y, wy, 1e-3) {
				t.Errorf("attack_target %v, want (%v, %v)", m.AttackTarget, wx, wy)
			}
			if !within(m.Dest.X, 250, 1e-4) || !within(m.FinalDest.Y, -100, 1e-4) {
				t.Errorf("dest %v final %v, want the target pose", m.Dest, m.FinalDest)
			}
		}},
		{"standard_penalised_red", robocup.ExtNone, 13, func(t *testing.T, m dmsgs.TeamInfo) {
			if !m.Penalised || m.PlayerNumber != 1 {
				t.Errorf("penalised %v player %d, want player 1 penalised", m.Penalised, m.PlayerNumber)
			}
		}},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			cfg := testConfig()
			cfg.Team, cfg.Format, cfg.RobocupExtension = tc.team, FormatRobocup, tc.ext
			cfg.Player = 9
			h := newHarness(t, cfg, harnessStart, nil)
			h.deliver(officialFixture(t, tc.fixture))
			msgs := h.rec.Messages()
			if len(msgs) != 1 {
				t.Fatalf("%d TeamInfo published, want 1 (status %+v)", len(msgs), h.c.Status().Receive)
			}
			tc.check(t, msgs[0])
			h.checkInvariants()
		})
	}
}

// TestRobocupDrops checks the drops of the robocup format by cause: another team's
// number, not a message, a player out of range or missing, our own message, and a
// packet of another format. None is published.
func TestRobocupDrops(t *testing.T) {
	cfg := testConfig() // team 17
	cfg.Format, cfg.RobocupExtension = FormatRobocup, robocup.ExtBitBots
	h := newHarness(t, cfg, harnessStart, nil)
	enc := func(player uint32, team robocup.Team) []byte {
		p := robocup.Packet{Msg: &robocup.Message{
			Timestamp:   timestamppb.New(h.clk.Now()),
			CurrentPose: &robocup.Robot{PlayerId: player, Position: &robocup.Fvec3{}, Team: team},
		}}
		b, err := robocup.Append(nil, &p, robocup.ExtBitBots)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	h.deliver(officialFixture(t, "bitbots"))                    // team 13: foreign
	h.deliver([]byte{0x1a, 0x05, 0x08})                         // truncated: malformed
	h.deliver(enc(300, 17))                                     // player out of range
	h.deliver(enc(0, 17))                                       // player 0: malformed
	h.deliver(dnetFrom(t, 17, 3, 1, stampAt(h.clk.Now()), nil)) // another format
	h.deliver(enc(5, 17))                                       // accepted
	r := h.c.Status().Receive
	if r.ForeignTeam != 1 || r.Malformed != 2 || r.Range != 1 || r.WrongFormat != 1 || r.Accepted != 1 {
		t.Errorf("counters %+v, want 1 foreign, 2 malformed, 1 range, 1 wrong format, 1 accepted", r)
	}
	if msgs := h.rec.Messages(); len(msgs) != 1 || msgs[0].PlayerNumber != 5 || msgs[0].TeamNumber != 17 {
		t.Errorf("published %v, want only player 5 of team 17", msgs)
	}
	h.checkInvariants()
}

// TestRobocupPrefilter checks that the socket's filter drops another format's packet
// and passes the standard message to the full decode.
func TestRobocupPrefilter(t *testing.T) {
	cfg := testConfig()
	cfg.Format = FormatRobocup
	c, err := New(cfg, Deps{Conn: bus.NewFakeConn(1), Publisher: &bus.Recorder[dmsgs.TeamInfo]{}})
	if err != nil {
		t.Fatal(err)
	}
	if c.Prefilter(datagram(dnetFrom(t, 17, 3, 1, 0, nil))) {
		t.Errorf("Prefilter passes a dnet packet to a robocup component")
	}
	if !c.Prefilter(datagram(officialFixture(t, "standard_full"))) {
		t.Errorf("Prefilter drops a standard message")
	}
	if r := c.Status().Receive; r.WrongFormat != 1 || r.Received != 1 {
		t.Errorf("counters %+v, want the dnet packet as wrong format", r)
	}
	// A dnet component counts a robocup message as another format, not as junk.
	cfg.Format = FormatDNet
	d, err := New(cfg, Deps{Conn: bus.NewFakeConn(1), Publisher: &bus.Recorder[dmsgs.TeamInfo]{}})
	if err != nil {
		t.Fatal(err)
	}
	if d.Prefilter(datagram(officialFixture(t, "bitbots"))) || d.Status().Receive.WrongFormat != 1 {
		t.Errorf("a dnet component does not count a robocup message as wrong format: %+v", d.Status().Receive)
	}
}
