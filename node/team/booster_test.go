package team

import (
	"bytes"
	"fmt"
	"math"
	"net/netip"
	"strings"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"github.com/robocup-dnetwork/dnetwork/proto/booster"
	"github.com/robocup-dnetwork/dnetwork/proto/booster/boostertest"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/geometry_msgs"
)

func boosterConfig(mode BoosterMode) Config {
	cfg := testConfig()
	cfg.Format, cfg.BoosterMode = FormatBooster, mode
	return cfg
}

// TestBoosterReceiveGcc feeds a component in format booster the packets the vendor's
// header, compiled with g++, writes: teammates of either revision are published in the
// TeamInfo units; bad ones are dropped by cause and never published.
func TestBoosterReceiveGcc(t *testing.T) {
	main, y26 := boostertest.Build(t, boostertest.Main), boostertest.Build(t, boostertest.Y26)
	h := newHarness(t, boosterConfig(BoosterBroadcast), harnessStart, nil)

	mate, disc := main.Write(t, 17, 3)
	h.deliver(mate)
	mate26, _ := y26.Write(t, 17, 4)
	h.deliver(mate26)
	if h.rec.Len() != 2 {
		t.Fatalf("published %d, want 2", h.rec.Len())
	}
	for i, m := range h.rec.Messages() {
		want := uint8(3 + i)
		if m.PlayerNumber != want || m.TeamNumber != 17 || m.Format != dmsgs.TeamInfoFormatBooster || m.Sequence != 0 {
			t.Errorf("message %d: player %d team %d format %d seq %d", i, m.PlayerNumber, m.TeamNumber, m.Format, m.Sequence)
		}
		// gen.cpp: pose (-2.25 m, 1 m, 0.5 rad), ball (1.5 m, -0.75 m), striker, alive.
		near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
		if !near(m.RobotPos.X, -225) || !near(m.RobotPos.Y, 100) || !near(m.RobotPos.Z, 0.5*180/math.Pi) {
			t.Errorf("message %d: robot_pos %+v", i, m.RobotPos)
		}
		if !near(m.BallGlobal.X, 150) || !near(m.BallGlobal.Y, -75) || !m.SeeBall {
			t.Errorf("message %d: ball_global %+v see %v", i, m.BallGlobal, m.SeeBall)
		}
		// The ball relative to the robot: the field offset (3.75, -1.75) m turned by -0.5 rad.
		s, c := math.Sincos(0.5)
		if !near(m.BallField.X, 100*(c*3.75-s*1.75)) || !near(m.BallField.Y, 100*(-s*3.75-c*1.75)) {
			t.Errorf("message %d: ball_field %+v", i, m.BallField)
		}
		if m.Role != dmsgs.TeamInfoRoleStriker || m.Penalised || m.BallQuality != 0.875 {
			t.Errorf("message %d: role %d penalised %v ball quality %v", i, m.Role, m.Penalised, m.BallQuality)
		}
		if !math.IsNaN(float64(m.TimeToReachBall)) || !math.IsNaN(m.Dest.X) {
			t.Errorf("message %d: unknown values not NaN: %v %v", i, m.TimeToReachBall, m.Dest)
		}
	}

	// Bad input: every one dropped by its cause.
	foreign, _ := main.Write(t, 18, 3)
	conflict, _ := main.Write(t, 17, 2) // our number, not our packet
	zero, _ := main.Write(t, 17, 0)
	big, _ := y26.Write(t, 17, 256)
	negative, _ := main.Write(t, 17, -1)
	badMagic := bytes.Clone(mate)
	badMagic[0] ^= 1
	badBool := bytes.Clone(mate)
	badBool[20] = 7 // isAlive
	for _, b := range [][]byte{mate[:booster.Size-1], append(bytes.Clone(mate), 0), badMagic, disc,
		dnetFrom(t, 17, 3, 1, 1, nil), zjuFrom(t, 17, 3), foreign, conflict, zero, big, negative, badBool} {
		h.deliver(b)
	}
	st := h.checkInvariants()
	r := st.Receive
	want := ReceiveCounters{Received: 14, Accepted: 2, WrongSize: 4, WrongFormat: 2, ForeignTeam: 1,
		Conflict: 1, Range: 3, Malformed: 1}
	if r != want {
		t.Fatalf("counters\n got %+v\nwant %+v", r, want)
	}
	if h.rec.Len() != 2 {
		t.Fatalf("published %d after bad input, want 2", h.rec.Len())
	}
}

// setBoosterInputs gives the component a pose, a ball and a target (cm, degrees).
func setBoosterInputs(c *Component) {
	c.SetMotion(&dmsgs.MotionInfo{Stable: true})
	c.SetBehavior(&dmsgs.BehaviorInfo{CurrentRole: dmsgs.BehaviorInfoRoleGoalie,
		TeamPlayState: dmsgs.BehaviorInfoStateBallHandling, AttackTarget: geometry_msgs.Vector3{X: 450}, TimeToReachBall: 2.5})
	c.SetVision(&dmsgs.VisionInfo{SeeBall: true, BallQuality: 0.5,
		RobotPos:   geometry_msgs.Vector3{X: -100, Y: 50, Z: 90},
		BallGlobal: geometry_msgs.Vector3{X: 200, Y: -100},
		BallField:  geometry_msgs.Vector3{X: 300, Y: 400}})
}

// TestBoosterSendReadByC has the component send in each mode and the vendor's struct,
// compiled with g++, read the packet: every field lands where the vendor's robots read it.
func TestBoosterSendReadByC(t *testing.T) {
	for _, c := range []struct {
		mode BoosterMode
		rev  string
		size int
		vk   string
		role int
	}{
		{BoosterBroadcast, boostertest.Y26, booster.Size2026, "0", booster.RoleGoalKeeper},
		{BoosterUnicast, boostertest.Main, booster.Size, "-1", booster.RoleGoalKeeper},
	} {
		t.Run(c.mode.String(), func(t *testing.T) {
			prog := boostertest.Build(t, c.rev)
			cfg := boosterConfig(c.mode)
			if c.mode == BoosterUnicast {
				cfg.Peers = []netip.AddrPort{netip.MustParseAddrPort("10.0.0.9:30017")}
			}
			h := newHarness(t, cfg, harnessStart, setBoosterInputs)
			var pkt []byte
			for i := 0; i < 100 && pkt == nil; i++ {
				h.ticks(1)
				if s := h.conn.Sent(); len(s) > 0 {
					pkt = s[0].Payload
					if (c.mode == BoosterBroadcast) != s[0].Broadcast {
						t.Fatalf("broadcast %v in mode %v", s[0].Broadcast, c.mode)
					}
				}
			}
			if len(pkt) != c.size {
				t.Fatalf("sent %d bytes, want %d", len(pkt), c.size)
			}
			g := func(v float64) string { return fmt.Sprintf("%.17g", v) }
			want := fmt.Sprintf("msg validation=31202 communicationId=1 teamId=17 playerId=2 playerRole=%d "+
				"isAlive=1 isLead=1 isInVisualKick=%s ballDetected=1 ballLocationKnown=1 "+
				"ballConfidence=0.5 ballRange=5 cost=2.5 ball=2,-1,0 pose=-1,0.5,%s kickDir=%s thetaRb=%s cmdId=0 cmd=0",
				c.role, c.vk, g(90*math.Pi/180), g(math.Atan2(1, 2.5)), g(math.Atan2(-1.5, 3)))
			if got := prog.Read(t, pkt); len(got) != 1 || got[0] != want {
				t.Fatalf("C read\n got %q\nwant %q", got, want)
			}
			// Our own packet coming back is ours, not a teammate's.
			h.deliver(pkt)
			if r := h.checkInvariants().Receive; r.Own != 1 || r.Accepted != 0 {
				t.Fatalf("own packet: %+v", r)
			}
		})
	}
}

// TestBoosterUnicastNeedsPeers: unicast mode has no destination without a discovery.
func TestBoosterUnicastNeedsPeers(t *testing.T) {
	_, err := New(boosterConfig(BoosterUnicast), Deps{Conn: bus.NewFakeConn(1), Publisher: &bus.Recorder[dmsgs.TeamInfo]{}})
	if err == nil || !strings.Contains(err.Error(), "needs Peers") {
		t.Fatalf("New: %v", err)
	}
	cfg := boosterConfig(BoosterUnicast)
	if got := cfg.TeamPort(); got != 30017 {
		t.Fatalf("unicast team port %d, want 30017", got)
	}
	cfg.BoosterMode = BoosterBroadcast
	if got := cfg.TeamPort(); got != 10017 {
		t.Fatalf("broadcast team port %d, want 10017", got)
	}
	cfg.BoosterMode = 7
	if err := cfg.Validate(); err == nil {
		t.Fatal("mode 7 validated")
	}
	cfg = boosterConfig(BoosterBroadcast)
	cfg.AuthKey = []byte("team17-shared-secret")
	if err := cfg.Validate(); err == nil {
		t.Fatal("booster with a key validated")
	}
	for _, s := range []string{"unicast", "broadcast"} {
		if m, err := ParseBoosterMode(s); err != nil || m.String() != s {
			t.Errorf("ParseBoosterMode(%q) = %v, %v", s, m, err)
		}
	}
	if f, err := ParseFormat("booster"); err != nil || f != FormatBooster || f.String() != "booster" {
		t.Errorf("ParseFormat(booster) = %v, %v", f, err)
	}
}
