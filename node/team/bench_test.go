package team

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"log/slog"
	"net/netip"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/geometry_msgs"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// nopConn is a socket that sends nothing and counts nothing: the benchmarks measure the
// component alone.
type nopConn struct{}

func (nopConn) Datagrams() <-chan transport.Datagram                 { return nil }
func (nopConn) SendTo([]byte, netip.AddrPort) error                  { return nil }
func (nopConn) Broadcast([]byte, uint16) error                       { return nil }
func (nopConn) SendToEach(_ []byte, d []netip.AddrPort) (int, error) { return len(d), nil }
func (nopConn) ReportMalformed()                                     {}
func (nopConn) Stats() transport.Stats                               { return transport.Stats{} }
func (nopConn) Interface() transport.Choice                          { return transport.Choice{} }
func nopPublish(*dmsgs.TeamInfo) error                               { return nil }

var _ bus.Conn = nopConn{}

type benchFormat struct {
	name   string
	format Format
	key    []byte
}

var benchFormats = []benchFormat{
	{"dnet", FormatDNet, nil},
	{"dnet-signed", FormatDNet, []byte("team17-shared-secret")},
	{"zju", FormatZJU, nil},
}

func benchComponent(b *testing.B, f benchFormat, player uint8, clk clock.Clock) *Component {
	b.Helper()
	cfg := testConfig()
	cfg.Player = player
	cfg.Format, cfg.AuthKey = f.format, f.key
	cfg.Logger = slog.New(slog.DiscardHandler)
	c, err := New(cfg, Deps{Conn: nopConn{}, Publisher: bus.PublisherFunc[dmsgs.TeamInfo](nopPublish), Clock: clk,
		Game: GameFunc(func() GameSnapshot {
			return GameSnapshot{Connected: true, State: StatePlaying, FirstHalf: true, SecsRemaining: 600, MessageBudget: -1}
		})})
	if err != nil {
		b.Fatal(err)
	}
	// A robot handling the ball: every input field set, six voronoi points.
	c.SetMotion(&dmsgs.MotionInfo{Stable: true})
	vor := make([]geometry_msgs.Vector3, 8)
	for i := range vor {
		vor[i] = v3(float64(10*i), float64(-20*i), 0)
	}
	c.SetBehavior(&dmsgs.BehaviorInfo{CurrentRole: 1, TeamPlayState: dmsgs.BehaviorInfoStateBallHandling,
		Dest: v3(100, 50, 90), FinalDest: v3(200, 0, 0), AttackTarget: v3(450, 0, 0), TimeSinceLastKick: 2,
		TimeToReachBall: 1.5, BallGlobal: v3(-150, 150, 0), Voronoi: vor})
	c.SetVision(&dmsgs.VisionInfo{SeeBall: true, RobotPos: v3(-200, 100, 45), BallField: v3(60, 80, 0),
		BallGlobal: v3(-150, 150, 0), BallQuality: 0.75, FieldQuality: 0.5, FieldConsistency: 0.9})
	return c
}

// BenchmarkTick measures one tick that builds and sends our packet.
func BenchmarkTick(b *testing.B) {
	for _, f := range benchFormats {
		b.Run(f.name, func(b *testing.B) {
			clk := clock.NewManual(harnessStart)
			c := benchComponent(b, f, 2, clk)
			now := harnessStart
			step := 2 * c.cfg.Tick // ball handling: a packet every second tick
			b.ReportAllocs()
			for b.Loop() {
				now = now.Add(step)
				c.tick(now)
			}
			if st := c.Status(); st.Send.Sent != st.Send.Ticks {
				b.Fatalf("not every tick sent: %+v", st.Send)
			}
		})
	}
}

// teammatePackets returns one packet per sequence number of a teammate.
func teammatePacket(b *testing.B, f benchFormat, player uint8) []byte {
	b.Helper()
	s := teaminfo.State{Team: 17, Player: player, Role: teaminfo.RoleSupporter, SeeBall: true,
		RobotPos: teaminfo.Pose{X: 1, Y: 2, Theta: 0.5}, BallField: teaminfo.Point{X: 0.6, Y: 0.8},
		TimeSinceLastKick: 3, TimeToReachBall: 2, BallAge: 0.1, BallQuality: 0.8, VoronoiLen: 6}
	for i := range s.Voronoi {
		s.Voronoi[i] = teaminfo.Point{X: float64(i), Y: -float64(i)}
	}
	if f.format == FormatZJU {
		b, _ := teaminfo.AppendZJU(nil, &s)
		return b
	}
	var k *teaminfo.Key
	if f.key != nil {
		k, _ = teaminfo.NewKey(f.key)
	}
	out, err := teaminfo.AppendDNet(nil, &s, k)
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// restamp sets a dnet packet's sequence number and stamp in place and re-signs it: what
// the teammate would have sent next.
func restamp(p []byte, seq uint32, stamp time.Duration, key []byte) {
	binary.LittleEndian.PutUint32(p[8:], seq)
	ms := uint64(stamp / time.Millisecond)
	for i := range 6 {
		p[12+i] = byte(ms >> (8 * i))
	}
	if len(p) == teaminfo.DNetTaggedSize {
		mac := hmac.New(sha256.New, key)
		mac.Write(p[:teaminfo.DNetSize])
		copy(p[teaminfo.DNetSize:], mac.Sum(nil))
	}
}

// BenchmarkReceive measures one received teammate packet, from the datagram to the
// published message (the teammate's re-stamping is outside the timer for signed packets).
func BenchmarkReceive(b *testing.B) {
	for _, f := range benchFormats {
		b.Run(f.name, func(b *testing.B) {
			clk := clock.NewManual(harnessStart)
			c := benchComponent(b, f, 2, clk)
			pkt := teammatePacket(b, f, 3)
			d := datagram(pkt)
			seq := uint32(0)
			b.ReportAllocs()
			for b.Loop() {
				if f.format == FormatDNet {
					seq++
					if f.key != nil {
						b.StopTimer()
					}
					restamp(pkt, seq, stampAt(harnessStart)+time.Duration(seq)*time.Millisecond, f.key)
					if f.key != nil {
						b.StartTimer()
					}
				}
				c.receive(d, c.clk.Now())
			}
			// A sender's first packet waits for its second (ConfirmNew): it counts as
			// unconfirmed, every other one is accepted.
			if r := c.Status().Receive; r.Accepted+r.Unconfirmed != r.Received || r.Unconfirmed > 1 {
				b.Fatalf("not every packet accepted: %+v", r)
			}
		})
	}
}

// BenchmarkTeamOfSix measures one robot of a six-robot team at full rate for one
// simulated second per op: 30 ticks sending our packet at 15 Hz (ball handling, no budget
// bound) and 75 packets heard from five teammates at 15 Hz each. The teammates' packets
// are prepared outside the timer. cpu-% is the share of one core the robot's team
// component needs.
func BenchmarkTeamOfSix(b *testing.B) {
	for _, f := range benchFormats[:2] {
		b.Run(f.name, func(b *testing.B) {
			clk := clock.NewManual(harnessStart)
			c := benchComponent(b, f, 1, clk)
			const mates = 5
			const ticks = 30
			var pkts [mates][]byte
			var ds [ticks][]transport.Datagram
			for m := range mates {
				pkts[m] = teammatePacket(b, f, uint8(m+2))
			}
			// Teammate m sends on every second tick, half of them on odd ticks: 75 a second.
			var buf [ticks * mates][]byte
			seq := uint32(0)
			now := harnessStart
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				seq++
				n := 0
				for k := range ticks {
					ds[k] = ds[k][:0]
					for m := range mates {
						if (k+m)%2 != 0 {
							continue
						}
						if buf[n] == nil {
							buf[n] = make([]byte, len(pkts[m]))
						}
						copy(buf[n], pkts[m])
						at := now.Add(time.Duration(k) * c.cfg.Tick)
						restamp(buf[n], seq*ticks+uint32(k), stampAt(at), f.key)
						ds[k] = append(ds[k], datagram(buf[n]))
						n++
					}
				}
				b.StartTimer()
				for k := range ticks {
					now = now.Add(c.cfg.Tick)
					clk.Set(now)
					c.tick(now)
					for _, d := range ds[k] {
						c.receive(d, c.clk.Now())
					}
				}
			}
			st := c.Status()
			sec := float64(st.Send.Ticks) / ticks
			if r := st.Receive; r.Accepted != r.Received || float64(r.Received) != 75*sec {
				b.Fatalf("receive counters %+v after %v s", r, sec)
			}
			if float64(st.Send.Sent) != 15*sec || len(st.Teammates) != mates {
				b.Fatalf("sent %d in %v s, teammates %v", st.Send.Sent, sec, st.Teammates)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e9*100, "cpu-%")
		})
	}
}
