//go:build cgo

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/ros"
	dm "github.com/robocup-dnetwork/dnetwork/ros/interfaces/diagnostic_msgs"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/geometry_msgs"
)

// fieldRobotEnv carries a fieldRobot, as JSON, to a robot process of TestFieldNetwork.
const fieldRobotEnv = "DNETWORK_FIELD_ROBOT"

// fieldRobot is what a robot process of TestFieldNetwork runs: "dnetwork Args..." with
// its clock Offset off the system time, while an observer in the same process feeds
// the node's inputs and writes what the node publishes to Out, one fieldRecord a line.
type fieldRobot struct {
	ID     int
	Offset time.Duration
	Args   []string
	Out    string
}

// fieldRecord is one message the observer saw, stamped with the system time (Wall,
// Unix nanoseconds: every process of the test shares that clock).
type fieldRecord struct {
	Wall  int64                        `json:"w"`
	Info  *infoRecord                  `json:"info,omitempty"`
	GC    *gcRecord                    `json:"gc,omitempty"`
	Links []linkRecord                 `json:"links,omitempty"`
	Stamp int64                        `json:"stamp,omitempty"` // TeamLinks.stamp, the robot's clock
	Diag  map[string]map[string]string `json:"diag,omitempty"`  // status name -> key -> value; "_level", "_message"
}

// infoRecord is what the checks read of a TeamInfo.
type infoRecord struct {
	Player, Team, Role uint8
	Seq                uint32
	Auth               bool
	PosX               float64
	Known              bool
	Offset, Bound      int64 // ns
	Recv               int64 // receive_time: the robot's clock, ns
	// What the sender's inputs fix (cm, degrees) and the rest of its content, as text,
	// but for whether the sender hears the GameController: that changes in earnest when
	// the GameController falls silent for longer than the node's timeout (gc-sim stalled
	// on a loaded machine).
	PosY, Theta, BallX, BallY float64
	PlayState                 uint8
	SeeBall                   bool
	Rest                      string
	GCConnected               bool
}

// gcRecord is what the checks read of a GCInfo: the values the GameController sent.
type gcRecord struct {
	Connected             bool
	State, Phase, SetPlay uint8
	Our, Enemy            uint8
	FirstHalf, Stopped    bool
	Penalised             bool
	Penalty, Colour       uint8
	Secs, Secondary       uint16
	Budget                int32
}

// linkRecord is a TeamLink with NaN as null.
type linkRecord struct {
	Player                         uint8
	Received, Expected, Lost       uint32
	Loss, Delay, DelayBound        *float64
	Jitter, Age                    *float64
	Duplicates, Reordered          uint32
	TotalDuplicates, TotalReorders uint64
	ClockKnown                     bool
	ClockRejected, ClockJumps      uint64
}

func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// TestFieldRobot is not a test of its own: TestFieldNetwork runs it, one process per
// robot inside the robot's network namespace.
func TestFieldRobot(t *testing.T) {
	spec, ok := os.LookupEnv(fieldRobotEnv)
	if !ok {
		t.Skip("runs only as a robot of TestFieldNetwork")
	}
	var r fieldRobot
	if err := json.Unmarshal([]byte(spec), &r); err != nil {
		t.Fatal(err)
	}
	nodeClockOffset = r.Offset
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	// Every record is written at once, so that the parent can follow the file.
	f, err := os.Create(r.Out)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	closed := false
	write := func(rec fieldRecord) {
		rec.Wall = time.Now().UnixNano()
		b, err := json.Marshal(rec)
		if err != nil {
			t.Error(err)
			return
		}
		mu.Lock()
		if !closed {
			_, err = f.Write(append(b, '\n'))
		}
		mu.Unlock()
		if err != nil {
			t.Error(err)
		}
	}

	nodeDone := make(chan int, 1)
	go func() { nodeDone <- dispatch(ctx, r.Args, os.Stdin, os.Stdout, os.Stderr) }()

	obs, err := ros.NewNode(context.Background(), "observer", "/", ros.NodeOptions{Getenv: os.Getenv, LogOutput: io.Discard, NoParameterServices: true})
	if err != nil {
		t.Fatal(err)
	}
	defer obs.Close()
	prefix := fmt.Sprintf("/dnetwork_%d/", r.ID)
	if _, err := ros.NewSubscription[dmsgs.TeamInfo](obs, prefix+"TeamInfo", ros.QoSDefault, func(m *dmsgs.TeamInfo) {
		write(fieldRecord{Info: &infoRecord{Player: m.PlayerNumber, Team: m.TeamNumber, Role: m.Role, Seq: m.Sequence,
			Auth: m.Authenticated, PosX: m.RobotPos.X, Known: m.ClockOffsetKnown,
			Offset: int64(m.ClockOffset.Sec)*1e9 + int64(m.ClockOffset.Nanosec),
			Bound:  int64(m.ClockOffsetBound.Sec)*1e9 + int64(m.ClockOffsetBound.Nanosec),
			Recv:   int64(m.ReceiveTime.Sec)*1e9 + int64(m.ReceiveTime.Nanosec),
			PosY:   m.RobotPos.Y, Theta: m.RobotPos.Z, BallX: m.BallField.X, BallY: m.BallField.Y,
			PlayState: m.State, SeeBall: m.SeeBall,
			Rest: fmt.Sprint(m.Incapacitated, m.AttackRight, m.Dest, m.FinalDest, m.AttackTarget, m.Priority, m.KickerID,
				m.SeeCircle, m.SeeGoal, m.BallGlobal, m.CircleField, m.CircleGlobal, m.GoalField, m.GoalGlobal,
				m.GCState, m.GCState2, m.Fallen, m.Penalised, m.GCStopped, m.GamePhase, m.SetPlay),
			GCConnected: m.GCConnected}})
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := ros.NewSubscription[dmsgs.GCInfo](obs, prefix+"GCInfo", ros.QoSDefault, func(m *dmsgs.GCInfo) {
		write(fieldRecord{GC: &gcRecord{Connected: m.Connected, State: m.State, Phase: m.GamePhase, SetPlay: m.SetPlay,
			Our: m.OurScore, Enemy: m.EnemyScore, FirstHalf: m.FirstHalf, Stopped: m.Stopped, Penalised: m.Penalised,
			Penalty: m.Penalty, Colour: m.TeamColour, Secs: m.SecsRemaining, Secondary: m.SecondaryTime, Budget: m.MessageBudget}})
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := ros.NewSubscription[dmsgs.TeamLinks](obs, prefix+"TeamLinks", ros.QoSDefault, func(m *dmsgs.TeamLinks) {
		rec := fieldRecord{Stamp: int64(m.Stamp.Sec)*1e9 + int64(m.Stamp.Nanosec)}
		for _, l := range m.Links {
			rec.Links = append(rec.Links, linkRecord{Player: l.PlayerNumber, Received: l.Received, Expected: l.Expected, Lost: l.Lost,
				Loss: finite(float64(l.Loss)), Delay: finite(l.Delay), DelayBound: finite(l.DelayBound), Jitter: finite(l.Jitter), Age: finite(l.Age),
				Duplicates: l.Duplicates, Reordered: l.Reordered, TotalDuplicates: l.TotalDuplicates, TotalReorders: l.TotalReordered,
				ClockKnown: l.ClockOffsetKnown, ClockRejected: l.ClockRejected, ClockJumps: l.ClockJumps})
		}
		write(rec)
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := ros.NewSubscription[dm.DiagnosticArray](obs, "/diagnostics", ros.QoSDefault, func(m *dm.DiagnosticArray) {
		rec := fieldRecord{Diag: map[string]map[string]string{}}
		for _, s := range m.Status {
			kv := map[string]string{"_level": fmt.Sprint(s.Level), "_message": s.Message}
			for _, v := range s.Values {
				kv[v.Key] = v.Value
			}
			rec.Diag[s.Name] = kv
		}
		write(rec)
	}); err != nil {
		t.Fatal(err)
	}

	// The robot's other nodes: stable, handling the ball (the fastest rate row) at a
	// place that tells its packets apart (fieldPose).
	motion, err := ros.NewPublisher[dmsgs.MotionInfo](obs, fmt.Sprintf("/dmotion_%d/MotionInfo", r.ID), ros.QoSDefault)
	if err != nil {
		t.Fatal(err)
	}
	behavior, err := ros.NewPublisher[dmsgs.BehaviorInfo](obs, fmt.Sprintf("/dbehavior_%d/BehaviorInfo", r.ID), ros.QoSDefault)
	if err != nil {
		t.Fatal(err)
	}
	vision, err := ros.NewPublisher[dmsgs.VisionInfo](obs, fmt.Sprintf("/dvision_%d/VisionInfo", r.ID), ros.QoSDefault)
	if err != nil {
		t.Fatal(err)
	}
	m := &dmsgs.MotionInfo{Stable: true}
	b := &dmsgs.BehaviorInfo{CurrentRole: fieldRole(r.ID), TeamPlayState: dmsgs.BehaviorInfoStateBallHandling}
	v := &dmsgs.VisionInfo{SeeBall: true, SeeField: true, LocOK: true,
		RobotPos: fieldPose(r.ID), BallField: fieldBall(r.ID)}
	tk := time.NewTicker(100 * time.Millisecond)
	defer tk.Stop()
	code := -1
loop:
	for {
		select {
		case code = <-nodeDone:
			break loop
		case <-tk.C:
			_ = motion.Publish(m)
			_ = behavior.Publish(b)
			_ = vision.Publish(v)
		}
	}
	mu.Lock()
	closed = true
	err = f.Close()
	mu.Unlock()
	if err != nil {
		t.Fatalf("write %s: %v", r.Out, err)
	}
	if code != 0 {
		t.Fatalf("dnetwork node exited with %d", code)
	}
}

// fieldPose is where robot id stands (cm, cm, degrees): a place that tells its
// packets apart.
func fieldPose(id int) geometry_msgs.Vector3 {
	return geometry_msgs.Vector3{X: 100 * float64(id), Y: -37 * float64(id), Z: 10 * float64(id)}
}

// fieldBall is where robot id sees the ball, relative to itself (cm).
func fieldBall(id int) geometry_msgs.Vector3 { return geometry_msgs.Vector3{X: 30, Y: 5 * float64(id)} }

// fieldRole is the role robot id announces: striker, defender, supporter, goalie.
func fieldRole(id int) uint8 { return uint8((id-1)%4 + 1) }
