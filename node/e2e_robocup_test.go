//go:build cgo

package node_test

import (
	"fmt"
	"math"
	"net/netip"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/team"
	"github.com/robocup-dnetwork/dnetwork/proto/robocup"
)

// TestE2ERobocup runs two robots of one team on loopback that speak the HL standard
// protobuf (team.format robocup), once with each extension profile, and reads
// /dnetwork_<id>/TeamInfo: each robot must publish its teammate's messages with the
// pose and ball its inputs gave (centimetres and degrees, through metres and radians on
// the wire), and the role where the profile carries it.
func TestE2ERobocup(t *testing.T) {
	for _, ext := range []robocup.Extension{robocup.ExtNone, robocup.ExtBitBots, robocup.ExtNUbots} {
		t.Run(ext.String(), func(t *testing.T) {
			getenv := testEnv(t, rosdomain.Take(t))
			const robots = 2
			ports := freePorts(t, 2*robots)
			teamPorts, gcPorts := ports[:robots], ports[robots:]
			for i := range robots {
				cfg := baseConfig(i + 1)
				cfg.Team.Format, cfg.Team.RobocupExtension = team.FormatRobocup, ext
				cfg.Team.Port = teamPorts[i]
				cfg.Team.Peers = []netip.AddrPort{netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), teamPorts[1-i])}
				cfg.GameControllerPort = gcPorts[i]
				startNode(t, getenv, cfg)
			}
			tester := rosNode(t, getenv, "tester", &syncbuf.Buffer{})
			infos := make([]*collector[dmsgs.TeamInfo], robots)
			for i := range robots {
				infos[i] = collect[dmsgs.TeamInfo](t, tester, fmt.Sprintf("/dnetwork_%d/TeamInfo", i+1))
			}
			for i := range robots {
				waitMatched(t, "TeamInfo", infos[i].sub.PublisherCount)
				robotInputs(t, tester, i+1)
			}
			for i := range robots {
				mate := 2 - i
				m := infos[i].wait(t, 0, 10*time.Second, fmt.Sprintf("robot %d hears robot %d", i+1, mate), func(m *dmsgs.TeamInfo) bool {
					return int(m.PlayerNumber) == mate && m.SeeBall && near(m.RobotPos.X, 100*float64(mate))
				})
				// robotInputs: robot id at (100 id, -50 id) cm facing 10 id degrees, the ball
				// 50 cm ahead of it, role id (striker, defender).
				if m.TeamNumber != testTeam || m.Format != dmsgs.TeamInfoFormatRobocup || m.Authenticated || m.Sequence != 0 ||
					!near(m.RobotPos.Y, -50*float64(mate)) || !near(m.RobotPos.Z, 10*float64(mate)) ||
					!near(m.BallGlobal.X, 100*float64(mate)+50) || !near(m.BallField.X, 50*cosDeg(10*float64(mate))) {
					t.Errorf("robot %d heard robot %d as %+v", i+1, mate, m)
				}
				wantRole := uint8(0) // the standard message has no role
				switch ext {
				case robocup.ExtBitBots:
					wantRole = uint8(mate)
				case robocup.ExtNUbots: // a purpose: striker or defender
					wantRole = uint8(mate)
				}
				if m.Role != wantRole {
					t.Errorf("robot %d heard robot %d with role %d, want %d", i+1, mate, m.Role, wantRole)
				}
			}
		})
	}
}

func cosDeg(d float64) float64 { return math.Cos(d * math.Pi / 180) }
