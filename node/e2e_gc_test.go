//go:build cgo

package node_test

import (
	"errors"
	"net"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node"
	"github.com/robocup-dnetwork/dnetwork/node/gamecontroller"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	dm "github.com/robocup-dnetwork/dnetwork/ros/interfaces/diagnostic_msgs"
)

// gcScenario is one scripted GameController packet and what the robot must make of it.
type gcScenario struct {
	layout    gcproto.Layout
	state     gcproto.State
	setPlay   gcproto.SetPlay
	ourKick   bool // the set play is ours
	penalised bool // our player (2) is penalised
}

// gcScenarios covers every layout, every game state, a set play of each side and a
// penalty, one packet each.
func gcScenarios() []gcScenario {
	states := []gcproto.State{gcproto.StateInitial, gcproto.StateReady, gcproto.StateSet,
		gcproto.StatePlaying, gcproto.StateFinished}
	var out []gcScenario
	for i, l := range gcproto.Layouts() {
		sc := gcScenario{layout: l, state: states[i%len(states)], penalised: i%3 == 1}
		if sc.state == gcproto.StatePlaying || i%4 == 0 {
			sc.state = gcproto.StatePlaying
			sc.setPlay, sc.ourKick = gcproto.SetPlayCornerKick, i%2 == 0
		}
		out = append(out, sc)
	}
	return out
}

func (sc gcScenario) packet(number uint8) gcproto.Packet {
	p := gamePacket(sc.layout, sc.state)
	p.PacketNumber = number
	if sc.setPlay != gcproto.SetPlayNone {
		p.SetPlay = sc.setPlay
		p.KickingTeam = otherTeam
		if sc.ourKick {
			p.KickingTeam = testTeam
		}
		if sc.layout.Family() == gcproto.FamilyHL {
			p.SecondaryStateInfo[0] = p.KickingTeam
		}
	}
	if sc.penalised {
		p.Teams[0].Players[1].Penalty = firstPenalty(sc.layout)
		p.Teams[0].Players[1].SecsTillUnpenalised = 25
	}
	return p
}

// TestE2EGameController plays a scripted GameController against one robot: a packet of
// every layout (HL v12 in three sizes, SPL v12..v18, HSL v19 and v20), covering every
// game state, set plays of both sides and a penalty. For each one the GCInfo on DDS
// must match the codec's derivation, and a return packet of the layout's version must
// arrive on the GameController's socket. Then the GameController goes silent (GCInfo
// connected false, no more return packets), comes back (connected again), and a second
// GameController shows up in /diagnostics.
func TestE2EGameController(t *testing.T) {
	getenv := testEnv(t, rosdomain.Take(t))
	gc, cfg := gcRobotConfig(t)
	// This GameController sends its next packet only after the return packet of the
	// last. A packet may take the return tick due (idletick.NewEarly), and the next
	// tick then waits up to one and a half periods (750 ms at 2 Hz) for another packet:
	// the timeout is longer than that.
	cfg.GameController.Timeout = time.Second
	startNode(t, getenv, cfg)

	tester := rosNode(t, getenv, "tester", &syncbuf.Buffer{})
	infos := collect[dmsgs.GCInfo](t, tester, "/dnetwork_2/GCInfo")
	data := collect[dmsgs.GameControlData](t, tester, "/dnetwork_2/GameControlData")
	diags := collect[dm.DiagnosticArray](t, tester, "/diagnostics")
	waitMatched(t, "GCInfo", infos.sub.PublisherCount)
	waitMatched(t, "GameControlData", data.sub.PublisherCount)
	robotInputs(t, tester, 2)

	before := infos.wait(t, 0, 5*time.Second, "GCInfo before any packet", func(*dmsgs.GCInfo) bool { return true })
	if before.Connected || before.GCVersion != "" || before.MessageBudget != -1 {
		t.Errorf("GCInfo before the first packet: %+v", before)
	}

	var lastSent time.Time
	for i, sc := range gcScenarios() {
		p := sc.packet(uint8(i + 1))
		b, err := p.MarshalBinary()
		if err != nil {
			t.Fatalf("%s: %v", sc.layout, err)
		}
		want, err := gcproto.Derive(&p, testTeam, 2)
		if err != nil {
			t.Fatalf("%s: %v", sc.layout, err)
		}
		name := gamecontroller.LayoutName(sc.layout)
		mark, dmark := infos.mark(), data.mark()
		drainReturns(t, gc)
		sendTo(t, gc, b, cfg.GameControllerPort)
		lastSent = time.Now()

		g := infos.wait(t, mark, 3*time.Second, name+" GCInfo", func(m *dmsgs.GCInfo) bool { return m.GCVersion == name })
		if !g.Connected || g.State != uint8(sc.state) || g.SetPlay != uint8(want.SetPlay) ||
			g.SecondaryState != want.SecondaryState || g.Penalised != sc.penalised ||
			g.Penalty != uint8(want.Penalty) || g.SecsTillUnpenalised != want.SecsTillUnpenalised ||
			g.OurCornerKick != (sc.setPlay == gcproto.SetPlayCornerKick && sc.ourKick) ||
			g.EnemyCornerKick != (sc.setPlay == gcproto.SetPlayCornerKick && !sc.ourKick) ||
			g.Kickoff != want.Kickoff || g.OurScore != 2 || g.EnemyScore != 1 ||
			g.TeamColour != dmsgs.GCInfoTeamRed || g.MessageBudget != int32(want.MessageBudget) ||
			g.SecsRemaining != 300 || !g.FirstHalf {
			t.Errorf("%s %+v: GCInfo %+v\nwant derived %+v", name, sc, g, want)
		}
		d := data.wait(t, dmark, 3*time.Second, name+" GameControlData", func(m *dmsgs.GameControlData) bool { return m.Layout == name })
		if d.PacketNumber != uint8(i+1) || d.State != uint8(sc.state) || d.Teams[0].TeamNumber != testTeam ||
			d.Magic != "RGme" || int(d.Version) != sc.layout.Version() {
			t.Errorf("%s: GameControlData %+v", name, d)
		}

		r := readReturn(t, gc, 3*time.Second)
		if r.Version != gamecontroller.ReturnVersionFor(sc.layout) || r.Team != testTeam || r.Player != 2 {
			t.Errorf("%s: return packet %+v, want version %d", name, r, gamecontroller.ReturnVersionFor(sc.layout))
		}
		if r.Version == gcproto.ReturnVersion && !near(float64(r.Pose[0]), 2000) {
			t.Errorf("%s: return packet pose %v, want x 2000 mm", name, r.Pose)
		}
	}

	// Silence: the connection times out, and no return packet goes to a GameController
	// that is gone.
	mark := infos.mark()
	infos.wait(t, mark, 3*time.Second, "GameController lost", func(m *dmsgs.GCInfo) bool { return !m.Connected })
	if d := time.Since(lastSent); d < cfg.GameController.Timeout || d > cfg.GameController.Timeout+time.Second {
		t.Errorf("connection lost %v after the last packet, timeout is %v", d, cfg.GameController.Timeout)
	}
	drainReturns(t, gc)
	if err := gc.SetReadDeadline(time.Now().Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	if n, _, err := gc.ReadFromUDPAddrPort(buf); err == nil {
		t.Errorf("return packet % x while disconnected", buf[:n])
	}

	// The GameController returns.
	p := gamePacket(gcproto.LayoutHSL20, gcproto.StateReady)
	b, _ := p.MarshalBinary()
	mark = infos.mark()
	sendTo(t, gc, b, cfg.GameControllerPort)
	infos.wait(t, mark, 2*time.Second, "GameController back", func(m *dmsgs.GCInfo) bool {
		return m.Connected && m.State == dmsgs.GCInfoStateReady
	})
	if r := readReturn(t, gc, 3*time.Second); r.Version != gcproto.ReturnVersion {
		t.Errorf("return packet after the GameController came back: %+v", r)
	}

	// A second GameController on another loopback address.
	other := udpSocket(t, "127.0.0.2:0")
	dmark := diags.mark()
	for range 3 {
		sendTo(t, gc, b, cfg.GameControllerPort)
		sendTo(t, other, b, cfg.GameControllerPort)
		time.Sleep(50 * time.Millisecond)
	}
	a := diags.wait(t, dmark, 3*time.Second, "more than one GameController in /diagnostics", func(a *dm.DiagnosticArray) bool {
		return diagHas(a, "dnetwork_2: gamecontroller", map[string]string{"more_than_one": "true"})
	})
	st, _ := diagStatus(a, "dnetwork_2: gamecontroller")
	if st.Level != dm.DiagnosticStatusWarn {
		t.Errorf("two GameControllers: level %d %q", st.Level, st.Message)
	}
	if v, _ := diagValue(a, "dnetwork_2: gamecontroller", "dropped_other_game_controller"); v == "0" {
		t.Errorf("the second GameController's packets were not counted")
	}
}

// gcRobotConfig returns a GameController socket on loopback and the configuration of
// robot 2 (no team communication) that listens to it on a free port, answers it twice
// a second, and the return packets go to the socket.
func gcRobotConfig(t testing.TB) (*net.UDPConn, node.Config) {
	t.Helper()
	gc := udpSocket(t, "127.0.0.1:0")
	cfg := baseConfig(2)
	cfg.TeamEnabled = false
	cfg.GameControllerPort = freePorts(t, 1)[0]
	cfg.GameController.ReturnPort = localPort(gc)
	cfg.GameController.ReturnRate = 2
	return gc, cfg
}

// drainReturns discards the return packets already queued on the GameController socket.
func drainReturns(t testing.TB, c *net.UDPConn) {
	t.Helper()
	buf := make([]byte, 64)
	for {
		if err := c.SetReadDeadline(time.Now().Add(time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		if _, _, err := c.ReadFromUDPAddrPort(buf); err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				return
			}
			t.Fatal(err)
		}
	}
}

// readReturn reads and decodes the next return packet.
func readReturn(t testing.TB, c *net.UDPConn, timeout time.Duration) gcproto.ReturnPacket {
	t.Helper()
	if err := c.SetReadDeadline(time.Now().Add(timeout)); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 1500)
	n, _, err := c.ReadFromUDPAddrPort(buf)
	if err != nil {
		t.Fatalf("no return packet: %v", err)
	}
	var r gcproto.ReturnPacket
	if err := gcproto.DecodeReturn(buf[:n], &r); err != nil {
		t.Fatalf("return packet % x: %v", buf[:n], err)
	}
	return r
}
