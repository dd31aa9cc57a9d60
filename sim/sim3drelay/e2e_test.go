//go:build cgo

package sim3drelay_test

import (
	"context"
	"fmt"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/netnstest"
	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node"
	"github.com/robocup-dnetwork/dnetwork/node/nodetest"
	"github.com/robocup-dnetwork/dnetwork/node/sim3d"
	"github.com/robocup-dnetwork/dnetwork/ros"
	"github.com/robocup-dnetwork/dnetwork/ros/dds/ddsconfig"
	dm "github.com/robocup-dnetwork/dnetwork/ros/interfaces/diagnostic_msgs"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/geometry_msgs"
	"github.com/robocup-dnetwork/dnetwork/sim/sim3drelay"
)

// serverScript starts rcssserver3d headless (see ../shared/simspark/README.md).
const serverScript = "/opt/simspark/run-rcssserver3d.sh"

// e2eRobot is one robot of the test: its team, number and where it is beamed.
type e2eRobot struct {
	id         int // node id: /dnetwork_<id>
	team       string
	unum       int
	x, y, rot  float64 // beam, metres and degrees in the team's frame
	teamSize   int
	teamNumber uint8
}

var e2eRobots = []e2eRobot{
	{id: 1, team: "DNA", unum: 1, x: -4, y: 0, rot: 0, teamSize: 3, teamNumber: 17},
	{id: 2, team: "DNA", unum: 2, x: -2.5, y: 3, rot: 45, teamSize: 3, teamNumber: 17},
	{id: 3, team: "DNA", unum: 3, x: -1.5, y: -2.25, rot: -120, teamSize: 3, teamNumber: 17},
	{id: 4, team: "RIV", unum: 4, x: -3, y: 1, rot: 180, teamSize: 4, teamNumber: 5},
}

// e2eServerSeconds is how much server time the robots talk for.
const e2eServerSeconds = 30

// TestE2ERealServer runs three robots of one team and one of another against a real
// rcssserver3d: each robot is a dnetwork node whose team talk goes through a relay agent
// and the server's say/hear channel, turns counted on the server's time. The server runs
// in a network namespace of its own (it binds 0.0.0.0), started by the test and stopped
// by PID with SIGKILL. After 30 s of server time: no percept failed to parse, the other
// team's messages were all dropped, at most 1 % of the teammates' messages were lost,
// and every robot's TeamInfo of each teammate is within 1 cm and 1 degree of where the
// server placed it.
func TestE2ERealServer(t *testing.T) {
	if _, err := os.Stat(serverScript); err != nil {
		t.Skipf("skipped: no rcssserver3d at %s (scripts/setup.sh installs it from ../shared/simspark): %v", serverScript, err)
	}
	if _, child := netnstest.Child(); !child {
		ns := netnstest.New(t, "s3d")
		t.Log(ns.Exec(t, t.Name(), rosdomain.Env(rosdomain.Take(t))))
		return
	}
	runRealServer(t)
}

func runRealServer(t *testing.T) {
	agentPort, monitorPort := freeTCPPort(t), freeTCPPort(t)
	startServer(t, agentPort, monitorPort)

	cfgPath := filepath.Join(t.TempDir(), "cyclonedds.xml")
	if err := os.WriteFile(cfgPath, []byte(ddsconfig.Loopback(20, true)), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"CYCLONEDDS_URI": "file://" + cfgPath, "ROS_DOMAIN_ID": strconv.Itoa(rosdomain.Inherited(t, 1)[0])}
	getenv := func(k string) string { return env[k] }
	logs := &syncbuf.Buffer{}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("logs:\n%s", logs.String())
		}
	})
	newROS := func(name string) *ros.Node {
		rn, err := ros.NewNode(context.Background(), name, "/", ros.NodeOptions{Getenv: getenv, LogOutput: logs, NoParameterServices: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { rn.Close() })
		return rn
	}

	nodes := make([]*node.Node, len(e2eRobots))
	infos := make([]*infoLog, len(e2eRobots))
	tester := newROS("tester")
	for i, r := range e2eRobots {
		nodes[i] = startNode(t, newROS(node.NodeName(r.id)), r)
		infos[i] = &infoLog{last: map[uint8]dmsgs.TeamInfo{}}
		if _, err := ros.NewSubscription(tester, fmt.Sprintf("/dnetwork_%d/TeamInfo", r.id), ros.QoSDefault, infos[i].add); err != nil {
			t.Fatal(err)
		}
		visionInput(t, tester, r)
	}

	// The agents, one at a time: the server loses agents that connect in the same cycle.
	agents := newROS("agents")
	relays := make([]*sim3drelay.Relay, len(e2eRobots))
	logsOf := make([]*talkLog, len(e2eRobots))
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	runErr := make([]error, len(e2eRobots))
	t.Cleanup(func() {
		cancel()
		wg.Wait()
		for i, err := range runErr {
			if err != nil {
				t.Errorf("relay %d: Run: %v", i+1, err)
			}
		}
	})
	for i := range logsOf {
		logsOf[i] = &talkLog{}
	}
	for i, r := range e2eRobots {
		l := logsOf[i]
		rel, err := sim3drelay.Attach(agents, fmt.Sprintf("/dnetwork_%d/", r.id), sim3drelay.Config{
			Server: net.JoinHostPort("127.0.0.1", strconv.Itoa(agentPort)),
			Team:   r.team, Unum: r.unum, BeamX: r.x, BeamY: r.y, BeamRot: r.rot,
			ConnectTimeout: 30 * time.Second, HandshakeTimeout: 20 * time.Second,
			OnSay: l.say, OnHear: l.hear,
		})
		if err != nil {
			t.Fatal(err)
		}
		relays[i] = rel
		wg.Go(func() { runErr[i] = rel.Run(ctx) })
		select {
		case <-rel.Ready():
		case <-time.After(45 * time.Second):
			t.Fatalf("robot %d did not join the game", r.id)
		}
		if st := rel.Status(); st.Unum != r.unum || st.Side != map[string]string{"DNA": "left", "RIV": "right"}[r.team] {
			t.Fatalf("robot %d joined as %+v", r.id, st)
		}
	}

	// Talk for e2eServerSeconds of server time, bounded on the wall clock: a busy
	// machine slows the server to about 20 cycles a second.
	start := relays[0].Status().ServerTime + 1 // the last robot's first turn has passed
	end := start + e2eServerSeconds
	wallStart := time.Now()
	for relays[0].Status().ServerTime < end+0.5 {
		if time.Since(wallStart) > 120*time.Second {
			t.Fatalf("the server reached only %.2f of %.2f s of server time in %v", relays[0].Status().ServerTime, end+0.5, time.Since(wallStart))
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("%.0f s of server time took %v", end+0.5-start, time.Since(wallStart).Round(time.Second))

	for i, rel := range relays {
		st := rel.Status()
		t.Logf("robot %d: %+v", e2eRobots[i].id, st)
		if st.Percepts == 0 || st.ParseErrors != 0 || st.SayRefused != 0 || st.SayQueueFull != 0 || st.HearErrors != 0 || st.TimeErrors != 0 {
			t.Errorf("robot %d relay: %+v", e2eRobots[i].id, st)
		}
	}
	checkPlacement(t, logsOf, start)
	checkLoss(t, logsOf, start, end)
	checkOtherTeam(t, nodes, infos, logsOf)
	checkTeamInfo(t, infos)
}

// checkLoss counts, for every message a teammate said in [start, end] of server time,
// the teammates that heard it: at most 1 % may be missing.
func checkLoss(t *testing.T, logs []*talkLog, start, end float64) {
	t.Helper()
	var expected, lost int
	for i, sp := range e2eRobots {
		said := logs[i].saidBetween(start, end)
		if len(said) < e2eServerSeconds*50/(sim3d.DefaultSlotCycles*sp.teamSize)-2 {
			t.Errorf("robot %d said %d messages in %d s of server time", sp.id, len(said), e2eServerSeconds)
		}
		for j, ls := range e2eRobots {
			if j == i || ls.team != sp.team {
				continue
			}
			heard := logs[j].heardFrom(sp.team)
			miss := 0
			for _, m := range said {
				if !heard[m.msg] {
					miss++
					t.Logf("robot %d did not hear robot %d's message said at server time %.2f", ls.id, sp.id, m.at)
				}
			}
			t.Logf("robot %d → robot %d: %d of %d heard", sp.id, ls.id, len(said)-miss, len(said))
			expected += len(said)
			lost += miss
		}
	}
	if expected == 0 || float64(lost) > 0.01*float64(expected) {
		t.Errorf("%d of %d teammate messages lost (at most 1 %% allowed)", lost, expected)
	}
}

// checkPlacement checks that the server placed the robots where they were beamed: the
// direction a teammate is heard from is the bearing between the two beam positions (in
// the team's frame).
func checkPlacement(t *testing.T, logs []*talkLog, start float64) {
	t.Helper()
	for j, ls := range e2eRobots {
		for _, sp := range e2eRobots {
			if sp.team != ls.team || sp.unum == ls.unum {
				continue
			}
			want := math.Atan2(sp.y-ls.y, sp.x-ls.x) * 180 / math.Pi
			dirs := logs[j].directionsFrom(logs[sp.id-1], start)
			worst := 0.0
			for _, d := range dirs {
				worst = max(worst, math.Abs(math.Remainder(d-want, 360)))
			}
			t.Logf("robot %d hears robot %d from %.2f° (beams: %.2f°), %d messages, up to %.2f° off", ls.id, sp.id, median(dirs), want, len(dirs), worst)
			// The server's agent position is a few centimetres off the beam spot: 2° at
			// these distances still tells a misplaced robot.
			if len(dirs) == 0 || worst > 2 {
				t.Errorf("robot %d heard robot %d up to %.2f° off the bearing of their beam positions", ls.id, sp.id, worst)
			}
		}
	}
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

// checkOtherTeam checks that the teams never took each other's messages: each robot
// heard the other team and dropped every such message.
func checkOtherTeam(t *testing.T, nodes []*node.Node, infos []*infoLog, logs []*talkLog) {
	t.Helper()
	for i, r := range e2eRobots {
		var other string
		for _, o := range e2eRobots {
			if o.team != r.team {
				other = o.team
			}
		}
		// The relay logs a hear before it publishes it, and the node counts the drop
		// when the message reaches it over DDS: wait for the count to catch up.
		heard := len(logs[i].heardFrom(other))
		dropped := -1
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			dropped = diagValue(nodes[i].Diagnostics(), node.NodeName(r.id)+": sim3d", "dropped_other_team")
			if dropped >= heard || time.Now().After(deadline) {
				break
			}
		}
		if heard == 0 || dropped == 0 || dropped < heard {
			t.Errorf("robot %d: heard %d messages of %s, dropped %d as the other team's", r.id, heard, other, dropped)
		}
		for p := range infos[i].players() {
			if !teammate(r, p) {
				t.Errorf("robot %d published a TeamInfo of player %d, not a teammate", r.id, p)
			}
		}
	}
}

func teammate(r e2eRobot, unum uint8) bool {
	for _, o := range e2eRobots {
		if o.team == r.team && o.unum == int(unum) && o.unum != r.unum {
			return true
		}
	}
	return false
}

// checkTeamInfo checks each robot's last TeamInfo of every teammate against the beam
// that placed it, and that its age counts the server's two cycles at least.
func checkTeamInfo(t *testing.T, infos []*infoLog) {
	t.Helper()
	for i, r := range e2eRobots {
		for _, o := range e2eRobots {
			if !teammate(r, uint8(o.unum)) {
				continue
			}
			ti, ok := infos[i].get(uint8(o.unum))
			if !ok {
				t.Errorf("robot %d has no TeamInfo of player %d", r.id, o.unum)
				continue
			}
			dx, dy := ti.RobotPos.X-100*o.x, ti.RobotPos.Y-100*o.y
			dh := math.Abs(math.Remainder(ti.RobotPos.Z-o.rot, 360))
			age := time.Duration(ti.Age.Sec)*time.Second + time.Duration(ti.Age.Nanosec)
			if math.Hypot(dx, dy) > 1 || dh > 1 || age < 40*time.Millisecond || ti.TeamNumber != r.teamNumber {
				t.Errorf("robot %d's TeamInfo of player %d: pos %+v age %v team %d; placed at (%v m, %v m, %v°)",
					r.id, o.unum, ti.RobotPos, age, ti.TeamNumber, o.x, o.y, o.rot)
			}
		}
	}
}

// startNode runs a dnetwork node for r with team talk over the 3D simulator.
func startNode(t *testing.T, rn *ros.Node, r e2eRobot) *node.Node {
	t.Helper()
	c := node.DefaultConfig()
	c.RobotID, c.TeamNumber = r.id, int(r.teamNumber)
	c.Interface = "lo"
	c.TeamEnabled = false
	c.GameControllerPort = freeUDPPort(t)
	c.Diagnostics.Period = 200 * time.Millisecond
	c.Sim3DEnabled = true
	c.Sim3D.Key, c.Sim3D.TeamName, c.Sim3D.TeamSize = r.team, r.team, r.teamSize
	return nodetest.Run(t, rn, c, 10*time.Second)
}

// visionInput publishes robot r's VisionInfo at 20 Hz: it knows where it was beamed.
func visionInput(t *testing.T, rn *ros.Node, r e2eRobot) {
	t.Helper()
	pub, err := ros.NewPublisher[dmsgs.VisionInfo](rn, fmt.Sprintf("/dvision_%d/VisionInfo", r.id), ros.QoSDefault)
	if err != nil {
		t.Fatal(err)
	}
	v := &dmsgs.VisionInfo{SeeField: true, LocOK: true, RobotPos: geometry_msgs.Vector3{X: 100 * r.x, Y: 100 * r.y, Z: r.rot}}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() { cancel(); wg.Wait() })
	wg.Go(func() {
		tk := time.NewTicker(50 * time.Millisecond)
		defer tk.Stop()
		for {
			_ = pub.Publish(v)
			select {
			case <-ctx.Done():
				return
			case <-tk.C:
			}
		}
	})
}

// startServer starts rcssserver3d on the given ports and stops it with SIGKILL at the end.
func startServer(t *testing.T, agentPort, monitorPort int) {
	t.Helper()
	out := &syncbuf.Buffer{}
	cmd := exec.Command(serverScript, "--agent-port", strconv.Itoa(agentPort), "--server-port", strconv.Itoa(monitorPort))
	cmd.Env = append(os.Environ(), "SIMSPARK_HOME="+t.TempDir())
	cmd.Stdout, cmd.Stderr = out, out
	// The server ignores SIGTERM; if the test process dies, the kernel kills it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	t.Cleanup(func() {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("rcssserver3d output:\n%s", out.String())
		}
	})
}

func freeTCPPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func freeUDPPort(t *testing.T) uint16 {
	t.Helper()
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	return uint16(c.LocalAddr().(*net.UDPAddr).Port)
}

// diagValue returns a number of the status named name; -1 if absent.
func diagValue(a dm.DiagnosticArray, name, key string) int {
	for _, s := range a.Status {
		if s.Name != name {
			continue
		}
		for _, kv := range s.Values {
			if kv.Key == key {
				if v, err := strconv.Atoi(kv.Value); err == nil {
					return v
				}
			}
		}
	}
	return -1
}

// talkLog records what one agent said and heard.
type talkLog struct {
	mu    sync.Mutex
	said  []said
	heard []dmsgs.Sim3dHear
}

// directionsFrom returns the directions l heard the messages of sp from, from server
// time start on (before, the last robots may not have been beamed yet).
func (l *talkLog) directionsFrom(sp *talkLog, start float64) []float64 {
	sp.mu.Lock()
	said := map[string]bool{}
	for _, s := range sp.said {
		said[s.msg] = true
	}
	sp.mu.Unlock()
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []float64
	for _, h := range l.heard {
		if !h.Own && said[h.Message] && h.ServerTime >= start {
			out = append(out, float64(h.Direction))
		}
	}
	return out
}

type said struct {
	at  float64
	msg string
}

func (l *talkLog) say(at float64, msg string) {
	l.mu.Lock()
	l.said = append(l.said, said{at, msg})
	l.mu.Unlock()
}

func (l *talkLog) hear(h *dmsgs.Sim3dHear) {
	l.mu.Lock()
	l.heard = append(l.heard, *h)
	l.mu.Unlock()
}

func (l *talkLog) saidBetween(from, to float64) []said {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []said
	for _, s := range l.said {
		if s.at >= from && s.at <= to {
			out = append(out, s)
		}
	}
	return out
}

// heardFrom returns the messages heard from other robots of team.
func (l *talkLog) heardFrom(team string) map[string]bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := map[string]bool{}
	for _, h := range l.heard {
		if !h.Own && h.Team == team {
			out[h.Message] = true
		}
	}
	return out
}

// infoLog keeps the last TeamInfo per player.
type infoLog struct {
	mu   sync.Mutex
	last map[uint8]dmsgs.TeamInfo
}

func (l *infoLog) add(m *dmsgs.TeamInfo) {
	l.mu.Lock()
	l.last[m.PlayerNumber] = *m
	l.mu.Unlock()
}

func (l *infoLog) get(p uint8) (dmsgs.TeamInfo, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	m, ok := l.last[p]
	return m, ok
}

func (l *infoLog) players() map[uint8]bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := map[uint8]bool{}
	for p := range l.last {
		out[p] = true
	}
	return out
}
