package worldinfo

import (
	"net/netip"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	wi "github.com/robocup-dnetwork/dnetwork/proto/worldinfo"
	"github.com/robocup-dnetwork/dnetwork/transport"
	wit "github.com/robocup-dnetwork/dnetwork/transport/worldinfo"
)

// discardConn is a Conn that counts what is sent and receives nothing.
type discardConn struct {
	bus.FakeConn
	n, bytes int
}

func (d *discardConn) SendTo(b []byte, _ netip.AddrPort) error { d.n++; d.bytes += len(b); return nil }

func benchComponent(b *testing.B, clk *clock.Manual, conn bus.Conn, pub bus.Publisher[dmsgs.WorldInfo]) *Component {
	cfg := testConfig()
	cfg.PlayerNumber = 3
	c, err := New(cfg, Deps{Clock: clk, Conn: conn, Publisher: pub,
		Game: GameFunc(func() (Game, bool) { return testGame, true })})
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkSendCycle is one send cycle with every input fresh: the setters, the
// conversion, the opponent tracker and building and encrypting the datagram (pose,
// velocity, both balls, game state, penalty, two opponents).
func BenchmarkSendCycle(b *testing.B) {
	clk := clock.NewManual(t0)
	conn := &discardConn{}
	c := benchComponent(b, clk, conn, &bus.Recorder[dmsgs.WorldInfo]{})
	v, m := testVision(), &dmsgs.MotionInfo{}
	b.ReportAllocs()
	for b.Loop() {
		clk.Advance(DefaultInterval)
		m.Odometry.X += 20
		v.ObstaclesField[0].X += 5
		c.SetVision(v)
		c.SetMotion(m)
		c.cycle(clk.Now())
	}
	if conn.n != b.N {
		b.Fatalf("%d datagrams in %d cycles", conn.n, b.N)
	}
	b.SetBytes(int64(conn.bytes / conn.n))
	if st := c.Status(); st.SetErrors != 0 || st.Send.SendErrors != 0 {
		b.Fatalf("status %+v", st)
	}
}

// BenchmarkReceivePublish is one received datagram turned into a published WorldInfo:
// decryption, Fawkes' checks, the records, the sequence number and the sender table.
// The datagram is the full update of the research vectors (pose, velocity, relative
// ball, game state, one penalty, three opponents; 288 bytes).
func BenchmarkReceivePublish(b *testing.B) {
	const ring = 1024
	p, err := wit.NewSender(wit.Config{})
	if err != nil {
		b.Fatal(err)
	}
	dgs := make([][]byte, 0, ring)
	for range ring {
		for _, err := range []error{
			p.SetPose(1, 2, 0.5, zero9), p.SetVelocity(0.5, -0.5, 1, zero9),
			p.SetRelBallPos(2, 0.5, -0.25, zero9), p.SetGameState(3, wi.TeamCyan),
			p.AddPenalty(3, wi.PenaltyReqForPickup, 30),
			p.AddOpponent(1, 1, 0, zero4), p.AddOpponent(2, 2, 0.5, zero4), p.AddOpponent(3, 3, -0.5, zero4),
		} {
			if err != nil {
				b.Fatal(err)
			}
		}
		if err := p.Send(func(d []byte) error { dgs = append(dgs, append([]byte(nil), d...)); return nil }); err != nil {
			b.Fatal(err)
		}
	}
	clk := clock.NewManual(t0)
	published, opponents := 0, 0
	pub := bus.PublisherFunc[dmsgs.WorldInfo](func(m *dmsgs.WorldInfo) error {
		published++
		opponents += len(m.Opponents)
		return nil
	})
	c := benchComponent(b, clk, &discardConn{}, pub)
	src := netip.AddrPortFrom(peerA, wi.DefaultPort)
	b.ReportAllocs()
	b.SetBytes(int64(len(dgs[0])))
	i := 0
	for b.Loop() {
		if i == ring { // let the sender be forgotten so its sequence can start again
			i = 0
			clk.Advance(wit.DefaultFlushAfter + time.Second)
		}
		c.receive(transport.Datagram{Payload: dgs[i], Src: src, Time: clk.Now()})
		i++
	}
	if published != b.N || opponents != 3*b.N {
		b.Fatalf("published %d (%d opponents) of %d", published, opponents, b.N)
	}
}
