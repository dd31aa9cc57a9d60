package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	"github.com/robocup-dnetwork/dnetwork/monitor"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node"
	"github.com/robocup-dnetwork/dnetwork/ros"
	"github.com/robocup-dnetwork/dnetwork/ros/dds"
	"github.com/robocup-dnetwork/dnetwork/sim/teamsim"
)

// simCheck collects what TestSimCommand has seen so far.
type simCheck struct {
	states      []string // game states in the order seen, without repeats
	playingSecs []int32  // secs_remaining while playing
	allOnline   bool     // all robots online at once, with poses and roles
	roles       map[string]bool
}

// missing says which checks have not passed yet; "" when all have.
func (c *simCheck) missing(heard [][]bool) string {
	var m []string
	if !c.allOnline {
		m = append(m, "not all robots online at once")
	}
	if !containsInOrder(c.states, "initial", "playing") {
		m = append(m, fmt.Sprintf("states %v do not go from initial to playing", c.states))
	}
	if n := len(c.playingSecs); n < 2 || c.playingSecs[n-1] >= c.playingSecs[0] {
		m = append(m, fmt.Sprintf("secs_remaining in playing %v does not decrease", c.playingSecs))
	}
	for _, r := range []string{"goalie", "striker", "defender", "supporter"} {
		if !c.roles[r] {
			m = append(m, "no "+r)
		}
	}
	for i, hs := range heard {
		for j, ok := range hs {
			if i != j && !ok {
				m = append(m, fmt.Sprintf("robot %d has not published robot %d's TeamInfo", i+1, j+1))
			}
		}
	}
	return strings.Join(m, "; ")
}

func containsInOrder(list []string, a, b string) bool {
	seenA := false
	for _, s := range list {
		if s == a {
			seenA = true
		}
		if s == b && seenA {
			return true
		}
	}
	return false
}

// TestSimCommand runs "dnetwork sim" with five robots at four times the speed and
// checks, through GET /api/state of its web page and through a DDS subscription of
// its own, that all robots are online, the GameController's game goes from INITIAL to
// PLAYING with the clock running, and every robot's node publishes the TeamInfo of
// every teammate. It stops the command as soon as everything is seen, and checks that
// it exits 0 and leaves no goroutine behind.
func TestSimCommand(t *testing.T) {
	domainSim := rosdomain.Take(t)
	if !dds.Available {
		t.Skip("needs Cyclone DDS (cgo)")
	}
	before := goleak.IgnoreCurrent()
	const robots = 5
	var stdout, stderr syncbuf.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	code := make(chan int, 1)
	go func() {
		code <- runSim(ctx, []string{"--robots", fmt.Sprint(robots), "--speed", "4", "--http", "127.0.0.1:0",
			"--domain", fmt.Sprint(domainSim), "--progress", "500ms", "--duration", "90s", "--loop=false"}, nil, &stdout, &stderr)
	}()
	fail := func(format string, a ...any) {
		t.Helper()
		cancel()
		select {
		case <-code:
		case <-time.After(20 * time.Second):
		}
		t.Fatalf(format+"\nstdout:\n%s\nstderr:\n%s", append(a, stdout.String(), stderr.String())...)
	}

	// The web page's address, from the start-up lines.
	addrRE := regexp.MustCompile(`web page http://([0-9.:]+)/`)
	var base string
	for deadline := time.Now().Add(40 * time.Second); base == ""; time.Sleep(50 * time.Millisecond) {
		if m := addrRE.FindStringSubmatch(stdout.String()); m != nil {
			base = "http://" + m[1]
		} else if time.Now().After(deadline) {
			fail("no web page address within 40 s")
		}
	}

	// A ROS node of the test's own hears every robot's TeamInfo topic.
	rn, err := ros.NewNode(context.Background(), "sim_test", "/", ros.NodeOptions{
		Getenv: teamsim.Env(domainSim, os.Getenv("ROS_DISTRO")), LogOutput: io.Discard, NoParameterServices: true,
	})
	if err != nil {
		fail("test node: %v", err)
	}
	defer rn.Close()
	var mu sync.Mutex
	heard := make([][]bool, robots)
	for i := range heard {
		heard[i] = make([]bool, robots)
		if _, err := ros.NewSubscription(rn, teamsim.TopicOf(i+1, node.TopicTeamInfo), ros.QoSDefault, func(m *dmsgs.TeamInfo) {
			mu.Lock()
			defer mu.Unlock()
			if p := int(m.PlayerNumber); p >= 1 && p <= robots && m.TeamNumber == 17 {
				heard[i][p-1] = true
			}
		}); err != nil {
			fail("subscription: %v", err)
		}
	}

	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	check := simCheck{roles: map[string]bool{}}
	var last string
	deadline := time.Now().Add(30 * time.Second)
	for {
		st, err := getState(client, base)
		if err != nil {
			// One slow answer (a loaded machine stalls the whole simulation for
			// seconds) is not a failure; no answer until the deadline is.
			if time.Now().After(deadline) {
				fail("GET /api/state: %v", err)
			}
			time.Sleep(250 * time.Millisecond)
			continue
		}
		if g := st.GameController.Game; g != nil {
			if n := len(check.states); n == 0 || check.states[n-1] != g.State {
				check.states = append(check.states, g.State)
			}
			if g.State == "playing" && !g.Stopped {
				check.playingSecs = append(check.playingSecs, g.SecsRemaining)
			}
		}
		online := 0
		for _, r := range st.Robots {
			if r.Team == 17 && r.Online && r.Pose != nil && r.Role != "" {
				online++
				check.roles[r.Role] = true
			}
		}
		check.allOnline = check.allOnline || online == robots
		mu.Lock()
		last = check.missing(heard)
		mu.Unlock()
		if last == "" {
			break
		}
		if time.Now().After(deadline) {
			fail("not within 30 s: %s", last)
		}
		time.Sleep(250 * time.Millisecond)
	}

	cancel()
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("exit status %d, want 0\nstderr:\n%s", c, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("dnetwork sim did not stop within 20 s of the cancellation")
	}
	out := stdout.String()
	for _, want := range []string{
		"dnetwork sim: 5 robots of team 17 against team 5, GameController hsl20",
		"| start", "| ready A", "| playing", // game changes
		"online 5/5", "mates all 4", // progress lines
		"dnetwork sim: stopped after",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\r") {
		t.Error("progress lines rewritten in place on a pipe")
	}
	if s := stderr.String(); strings.Contains(s, "ERROR") {
		t.Errorf("errors logged:\n%s", s)
	}
	if t.Failed() {
		t.Logf("stdout:\n%s\nstderr:\n%s", out, stderr.String())
	}
	_ = rn.Close()
	client.CloseIdleConnections()
	goleak.VerifyNone(t, before)
}

func getState(c *http.Client, base string) (*monitor.Snapshot, error) {
	resp, err := c.Get(base + "/api/state")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %s", resp.Status)
	}
	var st monitor.Snapshot
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		return nil, err
	}
	return &st, nil
}

func TestSimFlagErrors(t *testing.T) {
	script := filepath.Join(t.TempDir(), "bad.script")
	if err := os.WriteFile(script, []byte("0 initial\n5 fly away\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--layout", "hsl99"}, `unknown layout "hsl99"`},
		{[]string{"--teams", "17,17"}, "different numbers"},
		{[]string{"--robots", "0"}, "robots 0 outside 1..20 (hsl20)"},
		{[]string{"--robots", "7", "--layout", "spl12"}, "robots 7 outside 1..6 (spl12)"},
		{[]string{"--domain", "300"}, "--domain: dds: domain id out of range"},
		{[]string{"--format", "json"}, "--format"},
		{[]string{"--log-level", "loud"}, "--log-level"},
		{[]string{"--speed", "0"}, "speed 0 outside (0, 1000]"},
		{[]string{"--duration", "-1s"}, "must not be negative"},
		{[]string{"--script", script}, "line 2"},
		{[]string{"--script", filepath.Join(t.TempDir(), "missing")}, "no such file"},
		{[]string{"extra"}, `unexpected arguments ["extra"]`},
	} {
		var stdout, stderr bytes.Buffer
		args := append([]string{"--http", ""}, tc.args...)
		if c := runSim(context.Background(), args, nil, &stdout, &stderr); c != 2 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tc.args, c, stderr.String(), tc.want)
		}
		if stdout.Len() != 0 {
			t.Errorf("%q: stdout %q", tc.args, stdout.String())
		}
	}
	var stdout, stderr bytes.Buffer
	if c := runSim(context.Background(), []string{"-h"}, nil, &stdout, &stderr); c != 0 || !strings.Contains(stderr.String(), "-robots int") {
		t.Errorf("-h: exit %d, help %q", c, stderr.String())
	}
}

// TestSimWebPageBusy checks that a taken --http address is reported before anything
// starts.
func TestSimWebPageBusy(t *testing.T) {
	var first, stderr bytes.Buffer
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if c := runSim(context.Background(), []string{"--http", ln.Addr().String()}, nil, &first, &stderr); c != 1 ||
		!strings.Contains(stderr.String(), "web page") {
		t.Errorf("busy address: exit %d, stderr %q", c, stderr.String())
	}
}

func TestProgress(t *testing.T) {
	var out, log bytes.Buffer
	p := newProgress(&out, &log) // a buffer: plain lines
	p.update("line 1")
	p.event("event")
	fmt.Fprint(p, "log line\n")
	p.finish()
	if got := out.String(); got != "line 1\nevent\n" {
		t.Errorf("plain output %q", got)
	}
	if log.String() != "log line\n" {
		t.Errorf("log %q", log.String())
	}

	out.Reset()
	log.Reset()
	tty := &progress{out: &out, log: &log, tty: true, fd: -1} // width unknown: 80 columns
	tty.update("first")
	tty.update(strings.Repeat("x", 100))
	tty.event("event")
	fmt.Fprint(tty, "log\n")
	tty.finish()
	long := strings.Repeat("x", 79)
	want := "first" + "\r\033[K" + long + "\r\033[K" + "event\n" + long + "\r\033[K" + long + "\n"
	if got := out.String(); got != want {
		t.Errorf("terminal output\n got %q\nwant %q", got, want)
	}
	if log.String() != "log\n" {
		t.Errorf("log %q", log.String())
	}
}

// TestSimDuration: --duration (the demo's DEMO_DURATION) counts from the game's start:
// the summary's elapsed game time is the duration, however long the start-up took.
func TestSimDuration(t *testing.T) {
	if !dds.Available {
		t.Skip("needs Cyclone DDS (cgo)")
	}
	var stdout, stderr syncbuf.Buffer
	const d = 2 * time.Second
	// No web page: the default port (8080) may be taken by a monitor or a demo.
	code := runSim(context.Background(), []string{"--robots", "1", "--domain", fmt.Sprint(rosdomain.Take(t)), "--progress", "1h",
		"--duration", d.String(), "--loop=false", "--http", ""}, nil, &stdout, &stderr)
	m := regexp.MustCompile(`stopped after ([0-9.]+)s`).FindStringSubmatch(stdout.String())
	if code != 0 || m == nil {
		t.Fatalf("exit %d, no summary\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	// The summary has one decimal; the stop comes a moment after the duration.
	if got, _ := strconv.ParseFloat(m[1], 64); got < d.Seconds() || got > d.Seconds()+0.5 {
		t.Errorf("stopped after %ss of game, want %v", m[1], d)
	}
}
