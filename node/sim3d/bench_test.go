package sim3d

import (
	"log/slog"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	sim3dproto "github.com/robocup-dnetwork/dnetwork/proto/sim3d"
)

func benchTeam(b *testing.B, say bus.Publisher[dmsgs.Sim3dSay], info bus.Publisher[dmsgs.TeamInfo]) *Team {
	b.Helper()
	c := DefaultConfig()
	c.Player, c.TeamSize, c.Key, c.Logger = 1, 1, "TeamX", slog.New(&logRecorder{})
	team, err := New(c, clock.NewManual(start), say, info)
	if err != nil {
		b.Fatal(err)
	}
	team.SetMotion(&dmsgs.MotionInfo{Stable: true})
	team.SetBehavior(&dmsgs.BehaviorInfo{CurrentRole: 1, TeamPlayState: 2})
	team.SetVision(&dmsgs.VisionInfo{RobotPos: vec(-312, 150, 45), SeeBall: true, BallGlobal: vec(420, -180, 0)})
	return team
}

// BenchmarkSay measures one due slot: state, encoding and publication of the say.
func BenchmarkSay(b *testing.B) {
	var last string
	team := benchTeam(b, bus.PublisherFunc[dmsgs.Sim3dSay](func(m *dmsgs.Sim3dSay) error {
		last = m.Message
		return nil
	}), bus.PublisherFunc[dmsgs.TeamInfo](func(*dmsgs.TeamInfo) error { return nil }))
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		team.SetServerTime(float64(2*i) * 0.02) // every slot of a one-player team
	}
	if st := team.Status(); st.Said != uint64(b.N) || len(last) != sim3dproto.TeamMessageLen {
		b.Fatalf("said %d of %d, last %q", st.Said, b.N, last)
	}
}

// BenchmarkHear measures one teammate message: decoding, TeamInfo and publication.
func BenchmarkHear(b *testing.B) {
	var published int
	team := benchTeam(b, bus.PublisherFunc[dmsgs.Sim3dSay](func(*dmsgs.Sim3dSay) error { return nil }),
		bus.PublisherFunc[dmsgs.TeamInfo](func(m *dmsgs.TeamInfo) error {
			published += int(m.PlayerNumber)
			return nil
		}))
	codec := sim3dproto.NewTeamCodec("TeamX")
	var hears [256]dmsgs.Sim3dHear // consecutive sequence numbers: never a duplicate
	for i := range hears {
		m, err := codec.Append(nil, &sim3dproto.TeamState{Player: 2, Seq: uint8(i), X: 1.5, Y: -2,
			Heading: 30, BallKnown: true, BallX: 3, BallY: 1})
		if err != nil {
			b.Fatal(err)
		}
		hears[i] = dmsgs.Sim3dHear{GameTime: 12.3, Team: "TeamX", Direction: 45, Message: string(m)}
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		team.HandleHear(&hears[i%len(hears)])
	}
	if st := team.Status(); st.Accepted != uint64(b.N) || published != 2*b.N {
		b.Fatalf("accepted %d of %d", st.Accepted, b.N)
	}
}
