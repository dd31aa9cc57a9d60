package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/sim/gcsim"
)

// gcSimFreePort returns a UDP port on 127.0.0.1 that was free a moment ago.
func gcSimFreePort(t *testing.T) int {
	t.Helper()
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	port := c.LocalAddr().(*net.UDPAddr).Port
	c.Close()
	return port
}

type gcSimResult struct {
	code           int
	stdout, stderr string
}

// runGCSimCmd runs "dnetwork gc-sim args..." through dispatch.
func runGCSimCmd(t *testing.T, stdin string, args ...string) gcSimResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	var out, errb syncbuf.Buffer
	code := dispatch(ctx, append([]string{"gc-sim"}, args...), strings.NewReader(stdin), &out, &errb)
	return gcSimResult{code, out.String(), errb.String()}
}

// TestGCSimEndToEnd runs the command on loopback ports with a fake robot that answers
// every control packet with a return packet.
func TestGCSimEndToEnd(t *testing.T) {
	robot, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer robot.Close()
	robotAddr := robot.LocalAddr().(*net.UDPAddr).AddrPort()
	retPort := gcSimFreePort(t)
	retAddr := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), uint16(retPort))

	// The robot reads until the command stops sending (bounded by its deadline).
	var (
		mu      sync.Mutex
		packets []gcproto.Packet
		wg      sync.WaitGroup
	)
	wg.Go(func() {
		buf := make([]byte, gcproto.MaxSize+1)
		r := gcproto.NewAlive(17, 3)
		r.Pose = [3]float32{1200, -300, 0.5}
		alive, _ := r.MarshalBinary()
		_ = robot.SetReadDeadline(time.Now().Add(8 * time.Second))
		for {
			n, err := robot.Read(buf)
			if err != nil {
				return
			}
			var p gcproto.Packet
			if err := p.UnmarshalBinary(buf[:n]); err != nil {
				t.Errorf("control packet does not decode: %v", err)
				continue
			}
			mu.Lock()
			packets = append(packets, p)
			mu.Unlock()
			_, _ = robot.WriteToUDPAddrPort(alive, retAddr)
			if len(packets) == 1 {
				_, _ = robot.WriteToUDPAddrPort([]byte("RGrt"), retAddr) // malformed
			}
		}
	})

	res := runGCSimCmd(t, "", "--layout", "spl18", "--teams", "17,5", "--dest", robotAddr.String(),
		"--return-port", strconv.Itoa(retPort), "--speed", "60", "--half", "20s", "--duration", "2500ms", "--table", "500ms")
	_ = robot.SetReadDeadline(time.Now())
	wg.Wait()
	if res.code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	for _, want := range []string{
		"gc-sim: spl18, team 17 (A) and 5 (B), 5 players; control packets to " + robotAddr.String(),
		"INITIAL  1st half  17 0:0 5  00:20  kick-off 17  | start",
		"| ready A", "| set", "| playing", "| setplay corner_kick B", "| penalise B 2",
		"READY    1st half  17 1:0 5", "| goal A", "| first half over", "| second-half",
		"2nd half", "| setplay goal_kick A", "| game over",
		"robots at ", "1 good, 0 bad, 0 offline",
		"gc-sim: final state: FINISHED 2nd half  17 1:0 5  00:00",
		"(1 malformed, 0 from other teams); 1 robot heard",
	} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, res.stdout)
		}
	}
	if !regexp.MustCompile(`(?m)^\s+17\s+3\s+good\s+\d+\.\ds\s+\d+\s+v4\s+127\.0\.0\.1:\d+\s+pose 1200,-300,0\.50 ball never seen$`).MatchString(res.stdout) {
		t.Errorf("no table row for robot 17/3:\n%s", res.stdout)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(packets) < 4 {
		t.Fatalf("robot got %d packets", len(packets))
	}
	seen := map[gcproto.State]bool{}
	for i, p := range packets {
		seen[p.State] = true
		if p.Layout != gcproto.LayoutSPL18 || p.PacketNumber != uint8(i) {
			t.Errorf("packet %d: %v number %d", i, p.Layout, p.PacketNumber)
		}
	}
	if !seen[gcproto.StateInitial] || !seen[gcproto.StatePlaying] || !seen[gcproto.StateFinished] {
		t.Errorf("robot saw states %v, want INITIAL, PLAYING and FINISHED among them", seen)
	}
}

// TestGCSimKeys drives the game from stdin and quits with q.
func TestGCSimKeys(t *testing.T) {
	dst := gcSimFreePort(t)
	start := time.Now()
	res := runGCSimCmd(t, "r\ns\np\ng\nbogus\npenalise B 4 sent_off 10s\nq\n",
		"--script", "none", "--keys", "--dest", "127.0.0.1:"+strconv.Itoa(dst), "--return-port", "0",
		"--duration", "15s", "--table", "0")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("q did not quit: ran %v", d)
	}
	for _, want := range []string{"| ready (by hand)", "| set (by hand)", "| playing (by hand)",
		"READY    1st half  17 1:0 5", "| goal A (by hand)", "B4 sent_off 10 s  | penalise B 4 12 10s (by hand)"} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, res.stdout)
		}
	}
	if !strings.Contains(res.stderr, `"bogus": gcsim: invalid action: unknown action "bogus"`) {
		t.Errorf("stderr lacks the bad action:\n%s", res.stderr)
	}
}

func TestGCSimScriptFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "game.txt")
	if err := os.WriteFile(good, []byte("half 3m\n0 ready 5\n+2 set # kick-off for 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := runGCSimCmd(t, "", "--script", good, "--print-script", "--teams", "17,5")
	if res.code != 0 || res.stdout != "half 3m0s\n0s ready B\n2s set\n" {
		t.Errorf("print-script: exit %d, %q (stderr %q)", res.code, res.stdout, res.stderr)
	}
	res = runGCSimCmd(t, "", "--script", good, "--print-script", "--teams", "17,5", "--half", "90s")
	if res.code != 0 || !strings.HasPrefix(res.stdout, "half 1m30s\n") {
		t.Errorf("--half does not override the script: %q", res.stdout)
	}

	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("0 ready A\n1 stop\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res = runGCSimCmd(t, "", "--script", bad, "--layout", "spl18")
	if res.code != 2 || !strings.Contains(res.stderr, "line 2") || !strings.Contains(res.stderr, "stop needs an HSL layout") {
		t.Errorf("bad script: exit %d, stderr %q", res.code, res.stderr)
	}

	// The built-in script of every layout prints in a form that parses back.
	for _, l := range gcproto.Layouts() {
		res := runGCSimCmd(t, "", "--print-script", "--layout", l.String(), "--half", "2m")
		if res.code != 0 {
			t.Fatalf("%s: exit %d %s", l, res.code, res.stderr)
		}
		sc, err := gcsim.ParseScript(strings.NewReader(res.stdout), gcsim.Setup{Layout: l, Teams: [2]uint8{1, 2}})
		if err != nil || sc.Half != 2*time.Minute || len(sc.Steps) < 16 {
			t.Errorf("%s: printed script: %v, half %v, %d steps", l, err, sc.Half, len(sc.Steps))
		}
	}
}

func TestGCSimFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--layout", "spl99"}, `unknown layout "spl99"`},
		{[]string{"--teams", "17"}, "want two team numbers"},
		{[]string{"--teams", "17,255"}, "want two team numbers"},
		{[]string{"--teams", "3,3"}, "different numbers"},
		{[]string{"--players", "8", "--layout", "spl14"}, "8 players outside 1..7"},
		{[]string{"--dest", "224.0.0.1"}, "not a unicast address"},
		{[]string{"--dest", "127.0.0.1", "--port", "0"}, "ports must be"},
		{[]string{"--speed", "0"}, "--speed 0 outside"},
		{[]string{"--duration", "-1s"}, "must not be negative"},
		{[]string{"--script", "/nonexistent/script"}, "no such file"},
		{[]string{"extra"}, "unexpected arguments"},
		{[]string{"--nope"}, "flag provided but not defined"},
	} {
		res := runGCSimCmd(t, "", tc.args...)
		if res.code != 2 || !strings.Contains(res.stderr, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, res.code, res.stderr, tc.msg)
		}
	}
	res := runGCSimCmd(t, "", "-h")
	if res.code != 0 || !strings.Contains(res.stderr, "Script format") || !strings.Contains(res.stderr, "Keys:") {
		t.Errorf("-h: exit %d, %q", res.code, res.stderr)
	}
}

// TestGCSimStopsBeforeUp returns cleanly when the context ends at once.
func TestGCSimStopsBeforeUp(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	var out, errb syncbuf.Buffer
	code := dispatch(ctx, []string{"gc-sim", "--dest", "127.0.0.1:" + strconv.Itoa(gcSimFreePort(t)), "--return-port", "0"},
		strings.NewReader(""), &out, &errb)
	if code != 0 {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}

// TestGCSimSocketsDoNotOpen reports an interface that does not exist.
func TestGCSimSocketsDoNotOpen(t *testing.T) {
	old := gcSimUpTimeout
	gcSimUpTimeout = 300 * time.Millisecond
	defer func() { gcSimUpTimeout = old }()
	res := runGCSimCmd(t, "", "--dest", "broadcast:nosuch0", "--return-port", "0", "--duration", "5s")
	if res.code != 1 || !strings.Contains(res.stderr, `sockets did not open within 300ms: control socket: transport: no matching interface: "nosuch0" not found`) {
		t.Errorf("exit %d, stderr %q", res.code, res.stderr)
	}
}

func TestWriteRobotTable(t *testing.T) {
	var b bytes.Buffer
	writeRobotTable(&b, nil, gcsim.Stats{Returns: 3, Malformed: 3}, 2*time.Second)
	if got := b.String(); got != "robots at 2.0s: none heard (return packets 3, malformed 3)\n" {
		t.Errorf("empty table %q", got)
	}
	b.Reset()
	robots := []gcsim.RobotView{
		{Team: 17, Player: 1, InGame: true, Status: gcsim.Good, Age: 300 * time.Millisecond, Packets: 12, Version: 4,
			Addr: netip.MustParseAddrPort("10.0.0.5:40000"), Pose: [3]float32{100, 200, 0.5}, BallAge: 1, Ball: [2]float32{300, -40}, Fallen: true},
		{Team: 5, Player: 2, InGame: true, Status: gcsim.Bad, Age: 3 * time.Second, Packets: 4, Version: 2,
			Addr: netip.MustParseAddrPort("10.0.0.6:40000"), MessageName: "alive", AddrChanges: 2},
		{Team: 99, Player: 20, Status: gcsim.Offline, Age: 10 * time.Second, Packets: 1, Version: 3,
			Addr: netip.MustParseAddrPort("10.0.0.7:40000"), MessageName: "alive"},
	}
	writeRobotTable(&b, robots, gcsim.Stats{Returns: 17}, 12*time.Second)
	want := `robots at 12.0s: 1 good, 1 bad, 1 offline (return packets 17, malformed 0)
  TEAM  PLAYER  STATUS   AGE    PACKETS  VER  FROM            DETAIL
  17    1       good     0.3s   12       v4   10.0.0.5:40000  pose 100,200,0.50 ball 300,-40 (1.0s) FALLEN
  5     2       bad      3.0s   4        v2   10.0.0.6:40000  alive (address changed 2 times)
  99?   20      offline  10.0s  1        v3   10.0.0.7:40000  alive
`
	if got := b.String(); got != want {
		t.Errorf("table\n%s\nwant\n%s", got, want)
	}
}

// TestGCSimDefaultTeams: without --teams the simulated game is played by the team of
// every shipped parameter file, so that robots started with them take part.
func TestGCSimDefaultTeams(t *testing.T) {
	o, code := parseGCSimFlags(nil, io.Discard)
	if o == nil {
		t.Fatalf("gc-sim without flags: exit %d", code)
	}
	files, err := filepath.Glob("../../params/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	teamLine := regexp.MustCompile(`(?m)^\s+team_number:\s*(\d+)`)
	checked := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range teamLine.FindAllStringSubmatch(string(b), -1) {
			checked++
			if m[1] != strconv.Itoa(int(o.setup.Teams[0])) {
				t.Errorf("%s: team_number %s, but gc-sim's default teams are %v", f, m[1], o.setup.Teams)
			}
		}
	}
	if checked < 6 {
		t.Errorf("found team_number in %d parameter files, want the five robots' and the simulated robot's", checked)
	}
	if o.setup.Teams[1] == 0 || o.setup.Teams[1] == o.setup.Teams[0] {
		t.Errorf("default teams %v: no opponent", o.setup.Teams)
	}
}
