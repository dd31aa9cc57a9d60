//go:build cgo

package node_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/netnstest"
	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node"
)

// The real HSL GameController (GameController3 family, protocol v19), built headless
// with a scripted game: ../shared/gc3-hsl beside the repository (see its README).
const (
	hslGCDir    = "gc3-hsl"
	hslGCBin    = "game_controller_headless"
	hslGCNSEnv  = "DNETWORK_HSLGC_NS"  // the GameController's namespace (child process)
	hslGCBinEnv = "DNETWORK_HSLGC_BIN" // the GameController's directory (child process)
)

// TestE2EHSLGameController plays the real HSL GameController against one robot (team
// 17, player 2): the GameController and the robot are two network namespaces joined by
// a veth pair. The robot's GCInfo follows every state the GameController prints
// (state, set play and side, kick-off, stopped, penalty, score, and a dropped ball only
// in READY/SET after a global game stuck, never for "no kicking team" in ordinary play),
// and the GameController rates the robot good from its return packets while it runs and
// offline after it stopped.
func TestE2EHSLGameController(t *testing.T) {
	if _, child := netnstest.Child(); child {
		hslGCRobot(t)
		return
	}
	dir := sharedDir(hslGCDir)
	if _, err := os.Stat(filepath.Join(dir, hslGCBin)); err != nil {
		t.Skipf("the HSL GameController is not available (%v); it lives in ../shared/%s beside the repository", err, hslGCDir)
	}
	netnstest.Require(t)
	gcNS, robotNS := netnstest.New(t, "hslgc"), netnstest.New(t, "hslrobot")
	netnstest.Veth(t, gcNS, "gc0", "", robotNS, "eth0", "")
	// With a broadcast address, as on a real network: the GameController sends to it.
	gcNS.IP(t, "addr", "add", "10.92.0.1/24", "brd", "+", "dev", "gc0")
	robotNS.IP(t, "addr", "add", "10.92.0.2/24", "brd", "+", "dev", "eth0")
	out := robotNS.Exec(t, t.Name(), hslGCNSEnv+"="+gcNS.Name, hslGCBinEnv+"="+dir)
	t.Logf("robot process:\n%s", out)
}

// sharedDir returns ../shared/name beside the repository (the parent of this package's
// directory); in a git worktree, beside the main checkout when not beside the worktree.
func sharedDir(name string) string {
	dir, _ := filepath.Abs(filepath.Join("..", "..", "shared", name))
	if _, err := os.Stat(dir); err == nil {
		return dir
	}
	out, err := exec.Command("git", "rev-parse", "--path-format=absolute", "--git-common-dir").Output()
	if err != nil {
		return dir
	}
	main := filepath.Dir(strings.TrimSpace(string(out))) // the main checkout holds .git
	return filepath.Join(filepath.Dir(main), "shared", name)
}

// gcState is one STATE line of the GameController.
type gcState struct {
	line    string
	state   string // Initial, Ready, Set, Playing, Finished
	setPlay string // NoSetPlay, KickOff, DirectFreeKick, ...
	kicking string // Some(Home), Some(Away), None
	stopped bool
	score   [2]uint8 // home 17, away 5
	pen2    string   // penalty of home player 2, "" for none
	at      time.Duration
}

var (
	reState  = regexp.MustCompile(`\bstate=(\w+) setPlay=(\w+) kicking=(\S+) stopped=(\w+) .*score\(home17,away5\)=\((\d+),(\d+)\)`)
	rePen2   = regexp.MustCompile(`pen\[Home#2\]=(\w+)`)
	reOnline = regexp.MustCompile(`\b17/2=(\w+)`)
)

// hslGC is one run of the GameController process.
type hslGC struct {
	cmd    *exec.Cmd
	states chan gcState
	online chan string // ratings of robot 17/2, in order
	done   chan error
	start  time.Time
	log    *syncbuf.Buffer
}

// startHSLGC starts the GameController with a script in the namespace ns, on a copy of its
// configuration (the GameController may write there; the shared copy is read-only).
func startHSLGC(t *testing.T, dir, ns, script string, hold int) *hslGC {
	t.Helper()
	cfg := t.TempDir()
	if err := os.CopyFS(cfg, os.DirFS(filepath.Join(dir, "config"))); err != nil {
		t.Fatal(err)
	}
	g := &hslGC{states: make(chan gcState, 64), online: make(chan string, 64), done: make(chan error, 1), log: &syncbuf.Buffer{}}
	g.cmd = exec.Command("ip", "netns", "exec", ns, filepath.Join(dir, hslGCBin), cfg, t.TempDir(), "gc0", "small_advanced", "no_delay")
	g.cmd.Env = append(os.Environ(), "GC_SCRIPT="+script, "GC_HOLD_SECS="+strconv.Itoa(hold))
	g.cmd.Stderr = g.log
	stdout, err := g.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := g.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	g.start = time.Now()
	t.Cleanup(func() {
		// Bounded: the script ends by itself; a GameController still running is stopped
		// by its PID.
		select {
		case <-g.done:
		case <-time.After(time.Until(g.start.Add(90 * time.Second))):
			_ = g.cmd.Process.Kill()
			<-g.done
			t.Errorf("the GameController (pid %d) did not end by itself", g.cmd.Process.Pid)
		}
		if t.Failed() {
			t.Logf("GameController output:\n%s", g.log)
		}
	})
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(g.log, line)
			if strings.Contains(line, "ONLINE") {
				// A robot missing from the list is offline.
				r := "offline"
				if m := reOnline.FindStringSubmatch(line); m != nil {
					r = m[1]
				}
				g.online <- r
			}
			m := reState.FindStringSubmatch(line)
			if m == nil || !strings.Contains(line, "STATE") {
				continue
			}
			s := gcState{line: line, state: m[1], setPlay: m[2], kicking: m[3], stopped: m[4] == "true", at: time.Since(g.start)}
			h, _ := strconv.Atoi(m[5])
			a, _ := strconv.Atoi(m[6])
			s.score = [2]uint8{uint8(h), uint8(a)}
			if p := rePen2.FindStringSubmatch(line); p != nil && p[1] != "Substitute" {
				s.pen2 = p[1]
			}
			g.states <- s
		}
		close(g.states)
		g.done <- g.cmd.Wait()
	}()
	return g
}

// want reports whether a GCInfo of team 17 (home), player 2 agrees with the state.
func (s gcState) want(m *dmsgs.GCInfo) error {
	states := map[string]uint8{"Initial": dmsgs.GCInfoStateInitial, "Ready": dmsgs.GCInfoStateReady,
		"Set": dmsgs.GCInfoStateSet, "Playing": dmsgs.GCInfoStatePlaying, "Finished": dmsgs.GCInfoStateFinished}
	st, ok := states[s.state]
	if !ok {
		return fmt.Errorf("unknown state %q", s.state)
	}
	dropBall := s.kicking == "None" && (s.state == "Ready" || s.state == "Set")
	var problems []string
	check := func(what string, got, want any) {
		if got != want {
			problems = append(problems, fmt.Sprintf("%s %v, want %v", what, got, want))
		}
	}
	check("connected", m.Connected, true)
	check("state", m.State, st)
	check("kickoff", m.Kickoff, s.kicking == "Some(Home)")
	check("drop_ball", m.DropBall, dropBall)
	check("stopped", m.Stopped, s.stopped)
	check("penalised", m.Penalised, s.pen2 != "")
	check("our_score", m.OurScore, s.score[0])
	check("enemy_score", m.EnemyScore, s.score[1])
	switch s.setPlay {
	case "NoSetPlay", "KickOff":
		check("set_play", m.SetPlay, dmsgs.GCInfoSetPlayNone)
	case "DirectFreeKick":
		check("set_play", m.SetPlay, dmsgs.GCInfoSetPlayDirectFreeKick)
		check("our_direct_free_kick", m.OurDirectFreeKick, s.kicking == "Some(Home)")
		check("enemy_direct_free_kick", m.EnemyDirectFreeKick, s.kicking == "Some(Away)")
	default:
		return fmt.Errorf("set play %q is not in the scripts", s.setPlay)
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	return nil
}

// follow checks that the robot's GCInfo follows every STATE line of g until it prints
// one with state until; it returns that one.
func follow(t *testing.T, g *hslGC, infos *collector[dmsgs.GCInfo], until string) gcState {
	t.Helper()
	mark := infos.mark()
	for {
		var s gcState
		select {
		case st, ok := <-g.states:
			if !ok {
				t.Fatalf("the GameController ended before state %s", until)
			}
			s = st
		case <-time.After(30 * time.Second):
			t.Fatalf("no STATE line for 30 s, waiting for %s", until)
		}
		var lastErr error
		infos.wait(t, mark, 4*time.Second, fmt.Sprintf("GCInfo for the GameController's %s %s kicking %s at %.1f s (%v)",
			s.state, s.setPlay, s.kicking, s.at.Seconds(), &lastErr), func(m *dmsgs.GCInfo) bool {
			lastErr = s.want(m)
			return lastErr == nil
		})
		t.Logf("%5.1f s  %-8s %-14s kicking %-10s stopped %-5v pen %-8s score %v: GCInfo agrees",
			s.at.Seconds(), s.state, s.setPlay, s.kicking, s.stopped, s.pen2, s.score)
		mark = infos.mark()
		if s.state == until {
			return s
		}
	}
}

// rating waits for the GameController to rate robot 17/2 as want.
func rating(t *testing.T, g *hslGC, want string, timeout time.Duration) {
	t.Helper()
	deadline := time.After(timeout)
	last := "none"
	for {
		select {
		case r := <-g.online:
			if last = r; r == want {
				t.Logf("%5.1f s  the GameController rates 17/2 %s", time.Since(g.start).Seconds(), r)
				return
			}
		case <-deadline:
			t.Fatalf("the GameController did not rate 17/2 %s within %v (last rating %s)", want, timeout, last)
		}
	}
}

// hslGCRobot is the robot process of TestE2EHSLGameController, inside the robot's
// namespace: it runs the node, then two scripted games of the GameController in the
// other namespace.
func hslGCRobot(t *testing.T) {
	ns, dir := os.Getenv(hslGCNSEnv), os.Getenv(hslGCBinEnv)
	if ns == "" || dir == "" {
		t.Fatalf("%s and %s must be set", hslGCNSEnv, hslGCBinEnv)
	}
	getenv := testEnv(t, domainHSLGC)
	cfg := baseConfig(2)
	cfg.Interface = "eth0"
	cfg.TeamEnabled = false
	logs := &syncbuf.Buffer{}
	rn := rosNode(t, getenv, node.NodeName(cfg.RobotID), logs)
	n, err := node.New(rn, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- n.Run(ctx) }()
	stopped := false
	stopNode := func() {
		if stopped {
			return
		}
		stopped = true
		stop()
		select {
		case err := <-ran:
			if err != nil {
				t.Errorf("node: Run: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("node: Run did not return after cancel")
		}
	}
	t.Cleanup(func() {
		stopNode()
		if t.Failed() {
			t.Logf("node log:\n%s", logs)
		}
	})
	up, upCancel := context.WithTimeout(ctx, 5*time.Second)
	defer upCancel()
	if err := n.WaitUp(up); err != nil {
		t.Fatal(err)
	}
	tester := rosNode(t, getenv, "tester", &syncbuf.Buffer{})
	infos := collect[dmsgs.GCInfo](t, tester, "/dnetwork_2/GCInfo")
	waitMatched(t, "GCInfo", infos.sub.PublisherCount)

	// Open play: no kicking team after the kick-off is ordinary play; the global game
	// stuck is a dropped ball in READY and SET.
	t.Run("openplay", func(t *testing.T) {
		g := startHSLGC(t, dir, ns, "openplay", 1)
		follow(t, g, infos, "Initial")
		for range 2 { // READY and SET of the kick-off, then of the dropped ball
			follow(t, g, infos, "Set")
		}
		follow(t, g, infos, "Playing")
	})

	// The default game: the robot is rated good while it runs and offline once stopped.
	t.Run("default", func(t *testing.T) {
		g := startHSLGC(t, dir, ns, "default", 15)
		follow(t, g, infos, "Playing")
		rating(t, g, "good", 10*time.Second)
		follow(t, g, infos, "Finished")
		stopNode()
		rating(t, g, "offline", 14*time.Second)
	})
}
