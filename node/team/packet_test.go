package team

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/units"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/geometry_msgs"
)

// readHex reads a hex vector of the teaminfo codec: '#' starts a comment, white space
// is ignored.
func readHex(t *testing.T, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "proto", "teaminfo", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	for line := range strings.Lines(string(raw)) {
		line, _, _ = strings.Cut(line, "#")
		sb.WriteString(strings.Join(strings.Fields(line), ""))
	}
	b, err := hex.DecodeString(sb.String())
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return b
}

func v3(x, y, z float64) geometry_msgs.Vector3 { return geometry_msgs.Vector3{X: x, Y: y, Z: z} }

// diffBytes names the offsets at which got and want differ.
func diffBytes(got, want []byte) string {
	if len(got) != len(want) {
		return fmt.Sprintf("length %d, want %d", len(got), len(want))
	}
	var sb strings.Builder
	for i := range got {
		if got[i] != want[i] {
			fmt.Fprintf(&sb, " [%d]=%02x want %02x", i, got[i], want[i])
		}
	}
	return sb.String()
}

// TestBuildZJUVector feeds the inputs of TV-TEAM-296 (protocols.md §6.3) to a zju
// component, whose first packet must be that vector byte for byte.
func TestBuildZJUVector(t *testing.T) {
	want := readHex(t, "tv-team-296.hex")
	if sum := sha256.Sum256(want); hex.EncodeToString(sum[:]) != "6a85ff7defeab5d8800e9c11364419166086cb7f61bb4bcf646f3987bc0fb941" {
		t.Fatalf("TV-TEAM-296 vector has SHA-256 %x", sum)
	}
	cfg := testConfig() // team 17, player 2
	cfg.Format = FormatZJU
	txp := time.Unix(1700000000, 500000000)
	h := newHarness(t, cfg, txp.Add(-cfg.Tick), nil)

	h.game.set(func(s *GameSnapshot) { *s = GameSnapshot{Connected: true, State: StatePlaying, MessageBudget: -1} })
	h.c.SetMotion(&dmsgs.MotionInfo{Stable: true})
	h.c.SetBehavior(&dmsgs.BehaviorInfo{
		CurrentRole: dmsgs.BehaviorInfoRoleStriker, Dest: v3(100, 50, 90), TimeSinceLastKick: 2.5,
		TeamPlayState: dmsgs.BehaviorInfoStateBallHandling, TeamPlayPriority: true, KickerID: 2,
		// Behaviour's own mates_online is not used: the component knows who is online.
		MatesOnline: [6]bool{false, false, true, false, true, true},
	})
	h.c.SetVision(&dmsgs.VisionInfo{SeeBall: true, RobotPos: v3(-200, 100, 45), BallField: v3(60, 80, 0),
		BallGlobal: v3(-150, 150, 0), BallQuality: 0.75})
	// Players 1 and 4 are online; with ourselves (2) that is mates_online {1,1,0,1,0,0}.
	h.deliver(zjuFrom(t, 17, 1))
	h.deliver(zjuFrom(t, 17, 4))
	h.ticks(1)

	got := h.broadcasts()
	if len(got) != 1 {
		t.Fatalf("%d packets sent, want 1", len(got))
	}
	if !bytes.Equal(got[0], want) {
		t.Fatalf("zju packet differs from TV-TEAM-296:%s", diffBytes(got[0], want))
	}
	if s := h.conn.Sent()[0]; s.Port != 10017 {
		t.Errorf("sent to port %d, want 10000 + team 17", s.Port)
	}
	h.checkInvariants()
}

// TestBuildDNetVector feeds a component the values of the dnet golden packet
// (proto/teaminfo/testdata/dnet-v2.txt), in the robot's units, and expects that packet
// byte for byte with its checksum (dnet-v2-checked.hex); with a key, the signed golden
// packet.
func TestBuildDNetVector(t *testing.T) {
	for _, signed := range []bool{false, true} {
		t.Run(fmt.Sprintf("signed=%v", signed), func(t *testing.T) {
			want := readHex(t, "dnet-v2-checked.hex")
			cfg := testConfig()
			cfg.Player = 3
			if signed {
				want = readHex(t, "dnet-v2-tagged.hex")
				cfg.AuthKey = []byte("team17-shared-secret") // the key of the tagged vector
			}
			tick := time.UnixMilli(1700000000123)
			start := tick.Add(-4 * cfg.Tick)
			h := newHarness(t, cfg, start, func(c *Component) { c.seq = 0x01020304 - 1 })

			h.game.set(func(s *GameSnapshot) {
				*s = GameSnapshot{Connected: true, State: StatePlaying, GamePhase: PhasePenaltyShoot,
					SetPlay: 2, MessageBudget: -1}
			})
			h.c.SetMotion(&dmsgs.MotionInfo{Stable: true})
			nan32 := float32(math.NaN())
			h.c.SetBehavior(&dmsgs.BehaviorInfo{
				CurrentRole:   dmsgs.BehaviorInfoRoleDefender,
				Dest:          v3(10, -20, units.Degrees(-3.14)),
				FinalDest:     v3(math.NaN(), 3276.7, 0),
				AttackTarget:  v3(450, 0, 0),
				AttackRight:   true,
				TeamPlayState: dmsgs.BehaviorInfoStateBallHandling, TeamPlayPriority: true, KickerID: 3,
				TimeSinceLastKick: 2.5, TimeToReachBall: nan32,
				BallGlobal: v3(-149, 151, 0),
				Voronoi:    []geometry_msgs.Vector3{v3(100, 200, 0), v3(-100, -50, 0), v3(2047, -2047, 0)},
			})
			// The ball was seen 120 ms before the tick: ball_age 0.12 s.
			h.clk.Set(tick.Add(-120 * time.Millisecond))
			h.c.SetVision(&dmsgs.VisionInfo{
				SeeBall: true, SeeGoal: true,
				RobotPos: v3(-123.4, 250, units.Degrees(1.57)), BallField: v3(60, 80, 0), BallGlobal: v3(-150, 150, 0),
				GoalField: v3(320, -70, 0), GoalGlobal: v3(450, -75, 0),
				BallQuality: 0.5, FieldQuality: 1, FieldConsistency: nan32,
			})
			// mates 0, 2, 3: players 1 and 4 online, and ourselves (3). Both are heard 120 ms
			// before the tick; the packet answers player 1 (the lower number of a tie).
			key := h.c.key // nil unless signed: teammates must sign too
			h.introduce(17, 1, 1, stampAt(start), key)
			h.deliver(dnetFrom(t, 17, 1, 1, stampAt(start), key))
			h.introduce(17, 4, 1, stampAt(start), key)
			h.deliver(dnetFrom(t, 17, 4, 1, stampAt(start), key))
			h.clk.Set(tick) // the first tick
			h.expect(eventTick)

			got := h.broadcasts()
			if len(got) != 1 {
				t.Fatalf("%d packets sent, want 1", len(got))
			}
			if !bytes.Equal(got[0], want) {
				t.Fatalf("dnet packet differs from the golden packet:%s", diffBytes(got[0], want))
			}
			h.checkInvariants()
		})
	}
}

// TestVoronoiTruncated checks that only the first six voronoi points are sent.
func TestVoronoiTruncated(t *testing.T) {
	h := newHarness(t, testConfig(), harnessStart, nil)
	var pts []geometry_msgs.Vector3
	for i := range 9 {
		pts = append(pts, v3(float64(10*i), float64(-10*i), 0))
	}
	h.c.SetBehavior(&dmsgs.BehaviorInfo{Voronoi: pts})
	pts[0] = v3(999, 999, 0) // the component keeps its own copy
	h.ticks(1)
	var p teaminfo.DNetPacket
	if err := p.UnmarshalBinary(h.broadcasts()[0]); err != nil {
		t.Fatal(err)
	}
	if p.VoronoiLen != 6 {
		t.Fatalf("voronoi length %d, want 6", p.VoronoiLen)
	}
	for i := range 6 {
		if want := (teaminfo.QPoint{X: int16(10 * i), Y: int16(-10 * i)}); p.Voronoi[i] != want {
			t.Errorf("voronoi[%d] = %v, want %v", i, p.Voronoi[i], want)
		}
	}
}

// TestIncapacitatedAndBallAge follows the MotionInfo and VisionInfo rules over time.
func TestIncapacitatedAndBallAge(t *testing.T) {
	h := newHarness(t, testConfig(), harnessStart, nil)
	last := func() teaminfo.State {
		t.Helper()
		b := h.broadcasts()
		var s teaminfo.State
		if _, err := teaminfo.DecodeDNet(b[len(b)-1], &s, nil); err != nil {
			t.Fatal(err)
		}
		return s
	}
	h.ticks(1) // blind: next send after 30 ticks
	s := last()
	if !s.Incapacitated || s.Fallen || !math.IsNaN(s.BallAge) {
		t.Fatalf("before any input: incapacitated %v fallen %v ball age %v, want true false NaN",
			s.Incapacitated, s.Fallen, s.BallAge)
	}
	h.c.SetMotion(&dmsgs.MotionInfo{Stable: false})
	seen := h.clk.Now()
	h.c.SetVision(&dmsgs.VisionInfo{SeeBall: true, BallField: v3(1000, 0, 0)}) // far: 12 ticks
	h.ticks(30)
	s = last()
	if !s.Incapacitated || !s.Fallen {
		t.Fatalf("unstable: incapacitated %v fallen %v, want true true", s.Incapacitated, s.Fallen)
	}
	if want := (s.Stamp - stampAt(seen)).Seconds(); want <= 0 || math.Abs(s.BallAge-want) > teaminfo.TolDuration {
		t.Fatalf("ball age %v, want %v (time since the VisionInfo that saw it)", s.BallAge, want)
	}
	h.c.SetMotion(&dmsgs.MotionInfo{Stable: true})
	h.c.SetVision(&dmsgs.VisionInfo{SeeBall: false}) // does not refresh the ball age
	h.ticks(30)
	s = last()
	if s.Incapacitated || s.Fallen {
		t.Fatalf("stable: incapacitated %v fallen %v", s.Incapacitated, s.Fallen)
	}
	if want := (s.Stamp - stampAt(seen)).Seconds(); want < 1 || math.Abs(s.BallAge-want) > teaminfo.TolDuration {
		t.Fatalf("ball age %v, want %v", s.BallAge, want)
	}
}
