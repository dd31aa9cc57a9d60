//go:build cgo

package node_test

import (
	"bufio"
	"bytes"
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
	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node"
)

// The real HSL GameControllers, built headless with a scripted game: ../shared/gc3-hsl
// (protocol v19) and ../shared/gc20-hsl (GameController 7, protocol v20) beside the
// repository (see their READMEs).
const (
	hslGCBin     = "game_controller_headless"
	hslGCNSEnv   = "DNETWORK_HSLGC_NS"    // the GameController's namespace (child process)
	hslGCBinEnv  = "DNETWORK_HSLGC_BIN"   // the GameController's directory (child process)
	hslGCVerEnv  = "DNETWORK_HSLGC_BUILD" // the build's name (child process)
	hslBudget    = 12000                  // messagesPerTeam of both builds' small_advanced
	hslMinCounts = 3                      // team messages the GameController must count at least
)

// hslBuild is one GameController build and what its packets carry.
type hslBuild struct {
	name    string // subtest
	dir     string // under ../shared
	version uint8
	layout  string // GCInfo.gc_version and GameControlData.layout
	// penalties are its penalty names (the GameController's Debug names) in wire order.
	penalties []string
}

var hslBuilds = []hslBuild{
	{name: "v19", dir: "gc3-hsl", version: 19, layout: "HSL19", penalties: []string{"NoPenalty", "IllegalPositioning",
		"MotionInSet", "LocalGameStuck", "IncapableRobot", "PickedUp", "BallHolding", "LeavingTheField",
		"PlayingWithArmsHands", "Pushing", "SentOff", "Substitute"}},
	{name: "v20", dir: "gc20-hsl", version: 20, layout: "HSL20", penalties: []string{"NoPenalty", "IllegalPositioning",
		"MotionInSet", "MotionInStop", "LocalGameStuck", "IncapableRobot", "PickedUp", "BallHolding", "LeavingTheField",
		"PlayingWithArmsHands", "Pushing", "Cautioned", "SentOff", "Substitute"}},
}

func hslBuildNamed(name string) (hslBuild, bool) {
	for _, b := range hslBuilds {
		if b.name == name {
			return b, true
		}
	}
	return hslBuild{}, false
}

// TestE2EHSLGameController plays each real HSL GameController build (a subtest each, in
// parallel) against one robot (team 17, player 2): the GameController and the robot are
// two network namespaces joined by a veth pair. The robot's GCInfo and GameControlData
// follow every state the GameController prints (state, set play and side, kick-off,
// stopped, every player's penalty, score, budget, and a dropped ball only in READY/SET
// after a global game stuck, never for "no kicking team" in ordinary play); the team
// messages the robot broadcasts are counted in the budget of the GameController's
// packets; and the GameController rates the robot good from its return packets while it
// runs and offline after it stopped.
func TestE2EHSLGameController(t *testing.T) {
	for i, b := range hslBuilds {
		t.Run(b.name, func(t *testing.T) {
			if _, child := netnstest.Child(); child {
				hslGCRobot(t)
				return
			}
			dir := sharedDir(b.dir)
			if _, err := os.Stat(filepath.Join(dir, hslGCBin)); err != nil {
				t.Skipf("the HSL GameController %s is not available (%v); it lives in ../shared/%s beside the repository", b.name, err, b.dir)
			}
			if err := probeHSLGC(t, filepath.Join(dir, hslGCBin)); err != nil {
				t.Skipf("the HSL GameController %s cannot run here: %v", b.name, err)
			}
			netnstest.Require(t)
			t.Parallel() // each build in its own namespaces; a game takes about 30 s
			gcNS, robotNS := netnstest.New(t, "hslgc"+b.name), netnstest.New(t, "hslrobot"+b.name)
			netnstest.Veth(t, gcNS, "gc0", "", robotNS, "eth0", "")
			// With a broadcast address, as on a real network: the GameController sends to it.
			gcNS.IP(t, "addr", "add", fmt.Sprintf("10.%d.0.1/24", 92+i), "brd", "+", "dev", "gc0")
			robotNS.IP(t, "addr", "add", fmt.Sprintf("10.%d.0.2/24", 92+i), "brd", "+", "dev", "eth0")
			out := robotNS.Exec(t, t.Name(), hslGCNSEnv+"="+gcNS.Name, hslGCBinEnv+"="+dir, hslGCVerEnv+"="+b.name,
				rosdomain.Env(rosdomain.Take(t)))
			t.Logf("robot process:\n%s", out)
		})
	}
}

// probeHSLGC starts the GameController binary with a configuration directory that does not
// exist: a build that runs here says it cannot read its configuration; one that cannot (a
// missing library, another architecture) fails before.
func probeHSLGC(t *testing.T, bin string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	dir := t.TempDir()
	out, err := exec.CommandContext(ctx, bin, filepath.Join(dir, "no-config"), dir, "lo").CombinedOutput()
	if strings.Contains(string(out), "make_launch_data") {
		return nil
	}
	return fmt.Errorf("%v: %s", err, bytes.TrimSpace(out))
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

// gcState is one STATE line of the GameController (lines that differ only in the
// message budget are one state: the budget falls with every counted team message).
type gcState struct {
	line     string
	phase    string // FirstHalf, SecondHalf, ...
	state    string // Initial, Ready, Set, Playing, Finished
	setPlay  string // NoSetPlay, KickOff, DirectFreeKick, ...
	kicking  string // Some(Home), Some(Away), None
	stopped  bool
	homeLeft bool     // sides=HomeDefendsLeftGoal: team 17 is the packet's first team
	score    [2]uint8 // home 17, away 5
	budget   [2]int   // home 17, away 5, as printed first for this state
	pens     map[string]string
	pen2     string // penalty of home player 2, "" for none
	at       time.Duration
}

var (
	reState = regexp.MustCompile(`\bphase=(\w+) state=(\w+) setPlay=(\w+) kicking=(\S+) stopped=(\w+) sides=(\w+) score\(home17,away5\)=\((\d+),(\d+)\) msgBudget=\((\d+),(\d+)\)`)
	rePen   = regexp.MustCompile(`pen\[(Home|Away)#(\d+)\]=(\w+)`)
	// What a STATE line prints that the robot cannot follow from one packet to the
	// next: the budgets (they fall with every team message) and the actions legal now.
	reNotFollowed = regexp.MustCompile(`msgBudget=\(\d+,\d+\)|\s*legal=\[[^\]]*\]`)
	reOnline      = regexp.MustCompile(`\b17/2=(\w+)`)
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
	g := &hslGC{states: make(chan gcState, 256), online: make(chan string, 64), done: make(chan error, 1), log: &syncbuf.Buffer{}}
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
		lastKey := ""
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
			_, body, ok := strings.Cut(line, " STATE ")
			m := reState.FindStringSubmatch(body)
			if !ok || m == nil {
				continue
			}
			if key := reNotFollowed.ReplaceAllString(body, ""); key != lastKey {
				lastKey = key
				g.states <- parseState(line, m, time.Since(g.start))
			}
		}
		close(g.states)
		g.done <- g.cmd.Wait()
	}()
	return g
}

func parseState(line string, m []string, at time.Duration) gcState {
	s := gcState{line: line, phase: m[1], state: m[2], setPlay: m[3], kicking: m[4], stopped: m[5] == "true",
		homeLeft: m[6] == "HomeDefendsLeftGoal", at: at, pens: map[string]string{}}
	n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
	s.score = [2]uint8{uint8(n(7)), uint8(n(8))}
	s.budget = [2]int{n(9), n(10)}
	for _, p := range rePen.FindAllStringSubmatch(line, -1) {
		s.pens[p[1]+"#"+p[2]] = p[3]
	}
	if p := s.pens["Home#2"]; p != "Substitute" {
		s.pen2 = p
	}
	return s
}

// hslColours are the field player and goalkeeper colours of team 17 (home: the first of
// its colours in the builds' teams.yaml) and team 5 (set by the driver: red, white), which
// the STATE lines do not print.
var hslColours = [2][2]uint8{{dmsgs.GCInfoTeamBlue, dmsgs.GCInfoTeamBlue}, {dmsgs.GCInfoTeamRed, dmsgs.GCInfoTeamWhite}}

var gcStates = map[string]uint8{"Initial": dmsgs.GCInfoStateInitial, "Ready": dmsgs.GCInfoStateReady,
	"Set": dmsgs.GCInfoStateSet, "Playing": dmsgs.GCInfoStatePlaying, "Finished": dmsgs.GCInfoStateFinished}

// counting reports whether team messages count against the budget in the state (then the
// budget moves between STATE lines).
func (s gcState) counting() bool {
	return s.state == "Ready" || s.state == "Set" || s.state == "Playing"
}

// problems collects the fields that disagree with a STATE line.
type problems []string

func (p *problems) check(what string, got, want any) {
	if got != want {
		*p = append(*p, fmt.Sprintf("%s %v, want %v", what, got, want))
	}
}

func (p problems) err() error {
	if len(p) > 0 {
		return fmt.Errorf("%s", strings.Join(p, "; "))
	}
	return nil
}

// budgetOK checks a team's message budget in a packet against the state: exact where
// nothing is counted (and always for team 5, which sends nothing), at most the printed
// one while team 17's messages are counted.
func (s gcState) budgetOK(p *problems, what string, side int, got int) {
	if side == 0 && s.counting() {
		if got > s.budget[0] || got < 0 {
			*p = append(*p, fmt.Sprintf("%s %d, want at most %d", what, got, s.budget[0]))
		}
		return
	}
	p.check(what, got, s.budget[side])
}

// penaltyCode returns the wire code of the penalty the GameController names in build b.
func (b hslBuild) penaltyCode(name string) (uint8, error) {
	if name == "" {
		return 0, nil
	}
	for i, n := range b.penalties {
		if n == name {
			return uint8(i), nil
		}
	}
	return 0, fmt.Errorf("penalty %q is not one of %s's", name, b.name)
}

// want reports whether a GCInfo of team 17 (home), player 2 agrees with the state.
func (s gcState) want(b hslBuild, m *dmsgs.GCInfo) error {
	st, ok := gcStates[s.state]
	if !ok {
		return fmt.Errorf("unknown state %q", s.state)
	}
	pen, err := b.penaltyCode(s.pen2)
	if err != nil {
		return err
	}
	dropBall := s.kicking == "None" && (s.state == "Ready" || s.state == "Set")
	var p problems
	p.check("connected", m.Connected, true)
	p.check("gc_version", m.GCVersion, b.layout)
	p.check("state", m.State, st)
	p.check("game_phase", m.GamePhase, uint8(dmsgs.GCInfoGamePhaseNormal))
	p.check("first_half", m.FirstHalf, s.phase == "FirstHalf")
	p.check("kickoff", m.Kickoff, s.kicking == "Some(Home)")
	p.check("drop_ball", m.DropBall, dropBall)
	p.check("stopped", m.Stopped, s.stopped)
	p.check("penalised", m.Penalised, s.pen2 != "")
	p.check("penalty", m.Penalty, pen)
	p.check("our_score", m.OurScore, s.score[0])
	p.check("enemy_score", m.EnemyScore, s.score[1])
	p.check("team_colour", m.TeamColour, hslColours[0][0])
	p.check("enemy_colour", m.EnemyColour, hslColours[1][0])
	s.budgetOK(&p, "message_budget", 0, int(m.MessageBudget))
	switch s.setPlay {
	case "NoSetPlay", "KickOff":
		p.check("set_play", m.SetPlay, dmsgs.GCInfoSetPlayNone)
	case "DirectFreeKick":
		p.check("set_play", m.SetPlay, dmsgs.GCInfoSetPlayDirectFreeKick)
		p.check("our_direct_free_kick", m.OurDirectFreeKick, s.kicking == "Some(Home)")
		p.check("enemy_direct_free_kick", m.EnemyDirectFreeKick, s.kicking == "Some(Away)")
		p.check("set_play_team", m.SetPlayTeam, map[string]uint8{"Some(Home)": testTeam, "Some(Away)": otherTeam}[s.kicking])
	default:
		return fmt.Errorf("set play %q is not in the scripts", s.setPlay)
	}
	return p.err()
}

// wantData reports whether a GameControlData agrees with the state: header, version and
// layout of the build, every team's number, score and budget, every player's penalty.
func (s gcState) wantData(b hslBuild, d *dmsgs.GameControlData) error {
	var p problems
	p.check("magic", d.Magic, "RGme")
	p.check("version", d.Version, b.version)
	p.check("layout", d.Layout, b.layout)
	p.check("players_per_team", d.PlayersPerTeam, uint8(7))
	p.check("state", d.State, gcStates[s.state])
	p.check("game_phase", d.GamePhase, uint8(dmsgs.GCInfoGamePhaseNormal))
	p.check("first_half", d.FirstHalf, s.phase == "FirstHalf")
	p.check("stopped", d.Stopped, s.stopped)
	setPlay := map[string]uint8{"NoSetPlay": dmsgs.GCInfoSetPlayNone, "KickOff": dmsgs.GCInfoSetPlayNone,
		"DirectFreeKick": dmsgs.GCInfoSetPlayDirectFreeKick}
	p.check("set_play", d.SetPlay, setPlay[s.setPlay])
	kicking := map[string]uint8{"Some(Home)": testTeam, "Some(Away)": otherTeam, "None": 255}
	p.check("kicking_team", d.KickingTeam, kicking[s.kicking])
	order := [2]int{0, 1} // packet team i is side order[i] (0 home 17, 1 away 5)
	if !s.homeLeft {
		order = [2]int{1, 0}
	}
	for i, side := range order {
		tm := &d.Teams[i]
		name := [2]string{"Home", "Away"}[side]
		p.check(fmt.Sprintf("teams[%d].team_number", i), tm.TeamNumber, [2]uint8{testTeam, otherTeam}[side])
		p.check(fmt.Sprintf("teams[%d].score", i), tm.Score, s.score[side])
		p.check(fmt.Sprintf("teams[%d].field_player_colour", i), tm.FieldPlayerColour, hslColours[side][0])
		p.check(fmt.Sprintf("teams[%d].goalkeeper_colour", i), tm.GoalkeeperColour, hslColours[side][1])
		p.check(fmt.Sprintf("teams[%d].goalkeeper", i), tm.Goalkeeper, uint8(1))
		s.budgetOK(&p, fmt.Sprintf("teams[%d].message_budget", i), side, int(tm.MessageBudget))
		if len(tm.Players) != 20 {
			p.check(fmt.Sprintf("teams[%d] players", i), len(tm.Players), 20)
			continue
		}
		for n := 1; n <= 20; n++ {
			want, err := b.penaltyCode(s.pens[fmt.Sprintf("%s#%d", name, n)])
			if err != nil {
				return err
			}
			p.check(fmt.Sprintf("teams[%d].players[%d].penalty", i, n-1), tm.Players[n-1].Penalty, want)
		}
	}
	return p.err()
}

// follow checks that the robot's GCInfo and GameControlData follow every STATE line of g
// until it prints one with state until; it returns that one.
func follow(t *testing.T, b hslBuild, g *hslGC, infos *collector[dmsgs.GCInfo], data *collector[dmsgs.GameControlData], until string) gcState {
	t.Helper()
	mark, dmark := infos.mark(), data.mark()
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
		what := fmt.Sprintf("the GameController's %s %s kicking %s at %.1f s", s.state, s.setPlay, s.kicking, s.at.Seconds())
		var lastErr error
		infos.wait(t, mark, 4*time.Second, fmt.Sprintf("GCInfo for %s (%v)", what, &lastErr), func(m *dmsgs.GCInfo) bool {
			lastErr = s.want(b, m)
			return lastErr == nil
		})
		data.wait(t, dmark, 4*time.Second, fmt.Sprintf("GameControlData for %s (%v)", what, &lastErr), func(d *dmsgs.GameControlData) bool {
			lastErr = s.wantData(b, d)
			return lastErr == nil
		})
		t.Logf("%5.1f s  %-8s %-14s kicking %-10s stopped %-5v pen %-8s score %v budget %v: GCInfo and GameControlData agree",
			s.at.Seconds(), s.state, s.setPlay, s.kicking, s.stopped, s.pen2, s.score, s.budget)
		mark, dmark = infos.mark(), data.mark()
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
// namespace: it runs the node, which also broadcasts team messages, then two scripted
// games of the GameController in the other namespace.
func hslGCRobot(t *testing.T) {
	ns, dir := os.Getenv(hslGCNSEnv), os.Getenv(hslGCBinEnv)
	b, ok := hslBuildNamed(os.Getenv(hslGCVerEnv))
	if ns == "" || dir == "" || !ok {
		t.Fatalf("%s, %s and %s must be set", hslGCNSEnv, hslGCBinEnv, hslGCVerEnv)
	}
	getenv := testEnv(t, rosdomain.Inherited(t, 1)[0])
	cfg := baseConfig(2)
	cfg.Interface = "eth0"
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
	data := collect[dmsgs.GameControlData](t, tester, "/dnetwork_2/GameControlData")
	waitMatched(t, "GCInfo", infos.sub.PublisherCount)
	waitMatched(t, "GameControlData", data.sub.PublisherCount)
	robotInputs(t, tester, 2) // the node's team messages, which the GameController counts

	// Open play: no kicking team after the kick-off is ordinary play; the global game
	// stuck is a dropped ball in READY and SET.
	t.Run("openplay", func(t *testing.T) {
		g := startHSLGC(t, dir, ns, "openplay", 1)
		follow(t, b, g, infos, data, "Initial")
		for range 2 { // READY and SET of the kick-off, then of the dropped ball
			follow(t, b, g, infos, data, "Set")
		}
		follow(t, b, g, infos, data, "Playing")
	})

	// The default game: the robot is rated good while it runs and offline once stopped;
	// its team messages in READY, SET and PLAYING were counted in the budget that the
	// GameController's packets carry at half time.
	t.Run("default", func(t *testing.T) {
		g := startHSLGC(t, dir, ns, "default", 15)
		follow(t, b, g, infos, data, "Playing")
		rating(t, g, "good", 10*time.Second)
		end := follow(t, b, g, infos, data, "Finished")
		if used := hslBudget - end.budget[0]; used < hslMinCounts {
			t.Errorf("the GameController counted %d team messages of team 17 (budget %d at half time), want at least %d",
				used, end.budget[0], hslMinCounts)
		} else {
			t.Logf("the GameController counted %d team messages of team 17; its packets carry the budget %d", used, end.budget[0])
		}
		stopNode()
		rating(t, g, "offline", 14*time.Second)
	})
}
