//go:build cgo

package node_test

import (
	"net/netip"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
	dm "github.com/robocup-dnetwork/dnetwork/ros/interfaces/diagnostic_msgs"
)

// TestE2ETeamDrops sends one robot a scripted series of team packets over UDP: a valid
// signed packet of teammate 4, the same packet again (duplicate), an old one (replay),
// two of another team, an unsigned one and a datagram that is no team packet at all.
// Exactly one TeamInfo must be published before a later valid packet's, and /diagnostics must count every drop by
// cause, for the component and for the socket.
func TestE2ETeamDrops(t *testing.T) {
	getenv := testEnv(t, rosdomain.Take(t))
	secret := []byte("e2e-drops-secret")
	cfg := baseConfig(1)
	ports := freePorts(t, 3)
	cfg.Team.Port, cfg.GameControllerPort = ports[0], ports[1]
	// Unicast to a port nobody listens on, so that the robot does not hear its own
	// broadcasts on lo.
	cfg.Team.Peers = []netip.AddrPort{netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), ports[2])}
	cfg.Team.AuthKey = secret
	startNode(t, getenv, cfg)

	tester := rosNode(t, getenv, "tester", &syncbuf.Buffer{})
	infos := collect[dmsgs.TeamInfo](t, tester, "/dnetwork_1/TeamInfo")
	diags := collect[dm.DiagnosticArray](t, tester, "/diagnostics")
	waitMatched(t, "TeamInfo", infos.sub.PublisherCount)
	waitMatched(t, "diagnostics", diags.sub.PublisherCount)

	key, err := teaminfo.NewKey(secret)
	if err != nil {
		t.Fatal(err)
	}
	stamp := time.Duration(time.Now().UnixMilli()) * time.Millisecond
	packet := func(team uint8, seq uint32, stamp time.Duration, k *teaminfo.Key) []byte {
		s := teaminfo.State{Team: team, Player: 4, Seq: seq, Stamp: stamp, SeeBall: true,
			RobotPos: teaminfo.Pose{X: 1.5, Y: -0.5}}
		b, err := teaminfo.AppendDNet(nil, &s, k)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	valid := packet(testTeam, 100, stamp, key)
	mate := udpSocket(t, "127.0.0.1:0")
	for _, b := range [][]byte{
		packet(testTeam, 99, stamp-time.Millisecond, key), // a new sender's first: unconfirmed
		valid,
		valid, // duplicate
		packet(testTeam, 20, stamp-time.Second, key), // 80 numbers below: replay
		packet(testTeam+1, 101, stamp, key),          // foreign team
		packet(testTeam+1, 102, stamp, nil),          // foreign team, unsigned
		packet(testTeam, 103, stamp, nil),            // unsigned: auth
		[]byte("not a team packet"),                  // wrong size
	} {
		sendTo(t, mate, b, cfg.Team.Port)
	}

	m := infos.wait(t, 0, 5*time.Second, "teammate 4's packet", func(m *dmsgs.TeamInfo) bool { return m.PlayerNumber == 4 })
	if m.Sequence != 100 || !m.Authenticated || !near(m.RobotPos.X, 150) || !near(m.RobotPos.Y, -50) {
		t.Errorf("TeamInfo %+v", m)
	}
	want := map[string]string{
		"received": "8", "accepted": "1", "dropped_unconfirmed": "1", "dropped_duplicate": "1", "dropped_replay": "1",
		"dropped_foreign_team": "2", "dropped_auth": "1", "dropped_wrong_size": "1",
		"teammates": "4",
	}
	// The socket's worker screens the wrong-size and foreign packets out before its queue
	// (the component's Prefilter, which counts them for the component too); the unsigned
	// one is decoded and reported malformed.
	sock := map[string]string{"received": "8", "delivered": "4", "dropped_filtered": "3", "dropped_malformed": "1"}
	a := diags.wait(t, 0, 5*time.Second, "drops in /diagnostics", func(a *dm.DiagnosticArray) bool {
		return diagHas(a, "dnetwork_1: team", want) && diagHas(a, "dnetwork_1: "+node.DiagSocketPrefix+"team", sock)
	})
	if st, _ := diagStatus(a, "dnetwork_1: node"); st.Level != dm.DiagnosticStatusWarn {
		t.Errorf("node status without inputs: level %d %q, want a warning", st.Level, st.Message)
	}
	// A fence: a later packet of teammate 4, sent once the node has taken all eight from
	// its socket. The node publishes in the order it handles packets, on one writer, so
	// anything the eight made it publish comes before the fence's TeamInfo.
	sendTo(t, mate, packet(testTeam, 104, stamp+time.Millisecond, key), cfg.Team.Port)
	infos.wait(t, 0, 5*time.Second, "the fence packet", func(m *dmsgs.TeamInfo) bool { return m.PlayerNumber == 4 && m.Sequence == 104 })
	var seqs []uint32
	for _, m := range infos.since(0) {
		seqs = append(seqs, m.Sequence)
	}
	if len(seqs) != 2 || seqs[0] != 100 || seqs[1] != 104 {
		t.Errorf("TeamInfo sequence numbers %v, want [100] before the fence 104", seqs)
	}
}
