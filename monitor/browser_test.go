package monitor

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
)

// chromium finds Debian's chromium, or skips the test.
func chromium(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"/usr/bin/chromium", "chromium", "chromium-browser"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	t.Skip("chromium is not installed (Debian: apt-get install chromium); the web page is not tested in a browser")
	return ""
}

// runChromium loads url in headless Chromium with extra flags and returns its stdout.
func runChromium(t *testing.T, bin, url string, extra ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
		"--user-data-dir=" + t.TempDir(), "--window-size=1280,800", "--virtual-time-budget=3000"}
	args = append(append(args, extra...), url)
	cmd := exec.CommandContext(ctx, bin, args...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", extra, err, stderr.String())
	}
	t.Logf("chromium %v took %v", extra, time.Since(start).Round(time.Millisecond))
	return stdout.String()
}

var (
	robotTag = regexp.MustCompile(`<g class="robot[^"]*"[^>]*>`)
	ballTag  = regexp.MustCompile(`<circle class="ball[^"]*"[^>]*>`)
	dataAttr = regexp.MustCompile(`data-([a-z]+)="([^"]*)"`)
)

// drawn maps "team/player" to the data attributes of the robots (or balls) in a DOM dump.
func drawn(dom string, tag *regexp.Regexp) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, el := range tag.FindAllString(dom, -1) {
		attrs := map[string]string{}
		for _, m := range dataAttr.FindAllStringSubmatch(el, -1) {
			attrs[m[1]] = m[2]
		}
		out[attrs["team"]+"/"+attrs["player"]] = attrs
	}
	return out
}

// fakeRobot is one robot the browser test moves.
type fakeRobot struct {
	team, player uint8
	x, y, theta  float64
	role         teaminfo.Role
	ball         *[2]float64
	fallen       bool
	once         bool  // sends in the first round only, so it is offline in the second
	answers      uint8 // the teammate whose packet each of its packets answers (clock echo)
}

// TestBrowser serves the page for a monitor fed by real UDP, loads it in headless
// Chromium twice while the robots move, checks that every robot is drawn where it is and
// the true data's state beside the robots' one, and writes a screenshot to build/monitor.png.
func TestBrowser(t *testing.T) {
	bin := chromium(t)
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	cfg := Config{Interface: "any", Ports: []Port{{Kind: KindGameController}, {Kind: KindReturn},
		{Kind: KindTeam, Team: 5}, {Kind: KindTeam, Team: 12}}}
	m, clk := newTest(t, cfg)
	runMonitor(t, m)
	ps := m.Ports()
	ports := map[uint8]uint16{5: ps[2].Port, 12: ps[3].Port}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, ln, m.Handler()) }()
	t.Cleanup(func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	url := "http://" + ln.Addr().String() + "/"

	g := game{state: gcproto.StatePlaying, setPlay: gcproto.SetPlayCornerKick, firstHalf: true, kicking: 12,
		secs: 372, secondary: -35, teams: [2]uint8{5, 12}, scores: [2]uint8{2, 1}, budgets: [2]uint16{11210, 11480}, penalised: [2]uint8{0, 4}}
	robots := []*fakeRobot{
		{team: 5, player: 1, x: -4.2, y: 0.1, role: teaminfo.RoleGoalie, answers: 2},
		{team: 5, player: 2, x: -2.5, y: 1.4, theta: 0.3, role: teaminfo.RoleDefender, ball: &[2]float64{2.6, -0.9}, answers: 1},
		{team: 5, player: 3, x: 0.4, y: -0.8, theta: 0.2, role: teaminfo.RoleStriker, ball: &[2]float64{0.55, 0.1}},
		{team: 5, player: 4, x: -0.8, y: 2.1, theta: -0.6, role: teaminfo.RoleSupporter, ball: &[2]float64{1.5, -1.7}},
		{team: 5, player: 5, x: -1.9, y: -2.2, theta: 1.2, role: teaminfo.RoleDefender, fallen: true},
		{team: 12, player: 1, x: -4.3, y: -0.2, role: teaminfo.RoleGoalie, ball: &[2]float64{3.2, 0.4}},
		{team: 12, player: 2, x: -1.2, y: 0.5, theta: -0.2, role: teaminfo.RoleStriker, ball: &[2]float64{0.4, -0.2}},
		{team: 12, player: 3, x: -2.6, y: -1.6, theta: 0.4, role: teaminfo.RoleSupporter},
		{team: 12, player: 4, x: 1.5, y: 2.8, theta: 2.5, role: teaminfo.RoleDefender},
		{team: 12, player: 5, x: 3.2, y: -2.6, theta: 2.9, role: teaminfo.RoleOther, once: true},
	}
	senders := make([]*udpSender, len(robots))
	for i := range senders {
		senders[i] = newSender(t)
	}
	gc := newSender(t)

	// send puts one round of packets on the wire at the monitor clock's now: the control
	// packet, every robot's team message (and every second one's return packet).
	// The true data (as to a monitor that asked for it) says the game is already in SET.
	truth := g
	truth.state = gcproto.StateSet
	send := func(round int) {
		gc.send(ps[0].Port, g.packet(t))
		gc.send(ps[0].Port, trueGame(t, truth))
		for i, r := range robots {
			if r.once && round > 0 {
				continue
			}
			st := mate{team: r.team, player: r.player, x: r.x, y: r.y, theta: r.theta, role: r.role,
				play: teaminfo.PlayPlaying, ball: r.ball, fallen: r.fallen, answers: r.answers}
			senders[i].send(ports[r.team], st.dnet(t, nil))
			if i%2 == 0 {
				var ball *[2]float32
				if r.ball != nil {
					ball = &[2]float32{float32(r.ball[0] * 1000), float32(r.ball[1] * 1000)}
				}
				senders[i].send(ps[1].Port, returnV4(t, r.team, r.player, float32(r.x*1000), float32(r.y*1000), float32(r.theta), ball, r.fallen))
			}
		}
		if round == 0 {
			senders[3].send(ports[5], []byte("not a team message")) // one malformed packet
		}
	}
	// settle waits until the monitor holds every robot at its current place.
	settle := func() {
		eventually(t, "the robots at the monitor", func() bool {
			s := m.State()
			for _, r := range robots {
				v := findRobot(s, r.team, r.player)
				if v == nil || v.Pose == nil || !near(v.Pose.X, r.x) || !near(v.Pose.Y, r.y) {
					return false
				}
			}
			return true
		})
	}
	check := func(dom string, round int) map[string]map[string]string {
		t.Helper()
		got := drawn(dom, robotTag)
		if len(got) != len(robots) {
			t.Fatalf("%d robots drawn, want %d:\n%.2000s", len(got), len(robots), dom)
		}
		for _, r := range robots {
			key := strconv.Itoa(int(r.team)) + "/" + strconv.Itoa(int(r.player))
			a := got[key]
			x, errx := strconv.ParseFloat(a["x"], 64)
			y, erry := strconv.ParseFloat(a["y"], 64)
			online := strconv.FormatBool(!r.once || round == 0)
			if a == nil || errors.Join(errx, erry) != nil || !near(x, r.x) || !near(y, r.y) || a["online"] != online ||
				a["role"] != r.role.String() {
				t.Errorf("robot %s drawn as %v, want at (%g, %g), online %s, %s", key, a, r.x, r.y, online, r.role)
			}
		}
		balls := drawn(dom, ballTag)
		want := 0
		for _, r := range robots {
			if r.ball != nil {
				want++
			}
		}
		if len(balls) != want {
			t.Errorf("%d balls drawn, want %d", len(balls), want)
		}
		clock := fmt.Sprintf(">%02d:%02d<", g.secs/60, g.secs%60)
		for _, want := range []string{">PLAYING<", clock, ">2 : 1<", "Team 12", "corner kick", "kick: team 12", "secondary -00:35",
			"true: SET corner kick (robots see PLAYING)", "true data "} {
			if !strings.Contains(dom, want) {
				t.Errorf("page does not show %q", want)
			}
		}
		return got
	}

	send(0)
	settle()
	clk.Advance(2 * time.Second)
	first := check(runChromium(t, bin, url, "--dump-dom"), 0)

	// The robots move; the page must follow. The one that falls silent goes offline.
	clk.Advance(4 * time.Second)
	for _, r := range robots {
		if r.once {
			continue
		}
		r.x = math.Max(-4.4, math.Min(4.4, r.x+0.6))
		r.y = r.y * 0.8
		r.theta += 0.4
	}
	g.secs = 365
	// Twice: a clock bound stands on the second tightest observation of each side.
	send(1)
	send(1)
	settle()
	clk.Advance(time.Second)
	dom := runChromium(t, bin, url, "--dump-dom")
	second := check(dom, 1)
	// Robots 5/1 and 5/2 answered each other's packets, all stamped 1 s on their clocks
	// and answered at once: robot 2's clock is robot 1's within a millisecond, loosened by
	// the drift allowance (100 ppm) over the second since.
	if !strings.Contains(dom, ">+0.0±1.1<") || !strings.Contains(dom, "clock minus robot 1's: 0 ms ± 1.1 ms") {
		t.Errorf("page does not show robot 5/2's clock against robot 5/1")
	}
	// Every robot numbers its messages 0 here: nothing lost, the copies are duplicates,
	// and one message gives no jitter.
	if !strings.Contains(dom, ">Link<") || !strings.Contains(dom, ">0% · –<") || !strings.Contains(dom, "0 of 1 team messages lost") {
		t.Errorf("page does not show the robots' links")
	}
	for key, a := range first {
		if key != "12/5" && a["x"] == second[key]["x"] && a["y"] == second[key]["y"] {
			t.Errorf("robot %s did not move on the page: %v then %v", key, a, second[key])
		}
	}

	screenshot(t, bin, url, "monitor.png")
}

// screenshot writes a screenshot of the page at url to build/name.
func screenshot(t *testing.T, bin, url, name string) {
	t.Helper()
	out, err := filepath.Abs(filepath.Join("..", "build", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	runChromium(t, bin, url, "--screenshot="+out, "--hide-scrollbars")
	if fi, err := os.Stat(out); err != nil || fi.Size() < 10_000 {
		t.Fatalf("screenshot %s: %v (size %d)", out, err, sizeOf(fi))
	}
	t.Logf("screenshot written to %s", out)
}

func sizeOf(fi os.FileInfo) int64 {
	if fi == nil {
		return 0
	}
	return fi.Size()
}
