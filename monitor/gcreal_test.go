package monitor

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/netnstest"
	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// The real HSL GameControllers, headless (../shared/gc3-hsl v19, ../shared/gc20-hsl v20
// beside the repository; see their READMEs).
var realGCs = []struct{ name, dir string }{{"v19", "gc3-hsl"}, {"v20", "gc20-hsl"}}

const (
	realGCRobotNSEnv = "DNETWORK_REALGC_ROBOT_NS"
	realGCDirEnv     = "DNETWORK_REALGC_DIR"
	realGCNetEnv     = "DNETWORK_REALGC_NET"
)

// TestMonitorChannelRealGC runs a monitor with the monitor channel on the host of a real
// GameController (its own namespace, the child process), while a robot in a second
// namespace sends return packets by unicast to the GameController. The GameController
// answers the monitor's requests with true data (PLAYING while it still tells the robots
// SET, during the delay after the kick-off) and forwards the robot's return packets, which
// the monitor shows from the robot's address; the GameController keeps rating the robot
// good, since the monitor opens no return port; the captured packets decode as the
// GameController's own. When this host then sends a status message of its own, the
// GameController stops answering and the monitor says so.
func TestMonitorChannelRealGC(t *testing.T) {
	for i, b := range realGCs {
		t.Run(b.name, func(t *testing.T) {
			if _, child := netnstest.Child(); child {
				realGCMonitor(t)
				return
			}
			dir := sharedGCDir(b.dir)
			if _, err := os.Stat(filepath.Join(dir, "game_controller_headless")); err != nil {
				t.Skipf("the HSL GameController %s is not available (%v); it lives in ../shared/%s beside the repository", b.name, err, b.dir)
			}
			// A build that runs here says it cannot read a configuration that does not exist.
			probe := exec.Command(filepath.Join(dir, "game_controller_headless"), filepath.Join(t.TempDir(), "no-config"), t.TempDir(), "lo")
			if out, err := probe.CombinedOutput(); !strings.Contains(string(out), "make_launch_data") {
				t.Skipf("the HSL GameController %s cannot run here: %v: %s", b.name, err, bytes.TrimSpace(out))
			}
			netnstest.Require(t)
			t.Parallel()
			gcNS, robotNS := netnstest.New(t, "tdgc"+b.name), netnstest.New(t, "tdrobot"+b.name)
			netnstest.Veth(t, gcNS, "gc0", "", robotNS, "eth0", "")
			subnet := fmt.Sprintf("10.%d.0", 96+i)
			gcNS.IP(t, "addr", "add", subnet+".1/24", "brd", "+", "dev", "gc0")
			robotNS.IP(t, "addr", "add", subnet+".2/24", "brd", "+", "dev", "eth0")
			t.Log(gcNS.Exec(t, t.Name(), realGCRobotNSEnv+"="+robotNS.Name, realGCDirEnv+"="+dir, realGCNetEnv+"="+subnet))
		})
	}
}

// sharedGCDir returns ../shared/name beside the repository, or beside the main checkout
// of a git worktree.
func sharedGCDir(name string) string {
	dir, _ := filepath.Abs(filepath.Join("..", "..", "shared", name))
	if _, err := os.Stat(dir); err == nil {
		return dir
	}
	out, err := exec.Command("git", "rev-parse", "--path-format=absolute", "--git-common-dir").Output()
	if err != nil {
		return dir
	}
	return filepath.Join(filepath.Dir(filepath.Dir(strings.TrimSpace(string(out)))), "shared", name)
}

// capturedDatagrams keeps the first datagrams a monitor socket heard, for decoding.
type capturedDatagrams struct {
	mu  sync.Mutex
	got map[Kind][]transport.Datagram
}

func (c *capturedDatagrams) tap(p Port) transport.Tap {
	return func(dir transport.Direction, d transport.Datagram) {
		if dir != transport.Received {
			return
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		if len(c.got[p.Kind]) < 200 {
			c.got[p.Kind] = append(c.got[p.Kind], transport.Datagram{Payload: bytes.Clone(d.Payload), Src: d.Src})
		}
	}
}

func (c *capturedDatagrams) of(k Kind) []transport.Datagram {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]transport.Datagram(nil), c.got[k]...)
}

var reOnline172 = regexp.MustCompile(`\b17/2=(\w+)`)

// realGCMonitor is the child of TestMonitorChannelRealGC, on the GameController's host.
func realGCMonitor(t *testing.T) {
	robotNS := &netnstest.NS{Name: os.Getenv(realGCRobotNSEnv)}
	dir, subnet := os.Getenv(realGCDirEnv), os.Getenv(realGCNetEnv)
	if robotNS.Name == "" || dir == "" || subnet == "" {
		t.Fatalf("%s, %s and %s must be set", realGCRobotNSEnv, realGCDirEnv, realGCNetEnv)
	}
	gcAddr, robotAddr := netip.MustParseAddr(subnet+".1"), netip.MustParseAddr(subnet+".2")

	// The GameController, with the delay after the kick-off (robots see SET for 10 s of
	// PLAYING); stopped by its PID at the end.
	cfgDir := t.TempDir()
	if err := os.CopyFS(cfgDir, os.DirFS(filepath.Join(dir, "config"))); err != nil {
		t.Fatal(err)
	}
	gc := exec.Command(filepath.Join(dir, "game_controller_headless"), cfgDir, t.TempDir(), "gc0", "small_advanced")
	gc.Env = append(os.Environ(), "GC_HOLD_SECS=30")
	gcLog := &syncbuf.Buffer{}
	gc.Stderr = gcLog
	stdout, err := gc.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := gc.Start(); err != nil {
		t.Fatal(err)
	}
	online := make(chan string, 64)
	gcDone := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			fmt.Fprintln(gcLog, sc.Text())
			if strings.Contains(sc.Text(), "ONLINE") {
				r := "offline"
				if m := reOnline172.FindStringSubmatch(sc.Text()); m != nil {
					r = m[1]
				}
				select {
				case online <- r:
				default:
				}
			}
		}
		gcDone <- gc.Wait()
	}()
	t.Cleanup(func() {
		_ = gc.Process.Kill()
		<-gcDone
		if t.Failed() {
			t.Logf("GameController output:\n%s", gcLog)
		}
	})

	// The monitor on the GameController's host: its control port, the forward port, the
	// monitor channel; no return port.
	capt := &capturedDatagrams{got: map[Kind][]transport.Datagram{}}
	m, err := New(Config{Interface: "any", TrueData: true, Logger: quiet, Tap: capt.tap,
		Ports: []Port{{Kind: KindGameController, Port: GameControllerPort}, {Kind: KindForward, Port: ForwardPort}}})
	if err != nil {
		t.Fatal(err)
	}
	runMonitor(t, m)

	// The robot: a return packet to the GameController every 500 ms from its namespace.
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	robotPkt := returnV4(t, 17, 2, 1500, -500, 0.25, &[2]float32{300, 100}, false)
	waitRobot := robotNS.Go(func() error {
		c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: robotAddr.AsSlice()})
		if err != nil {
			return err
		}
		defer c.Close()
		tk := time.NewTicker(500 * time.Millisecond)
		defer tk.Stop()
		for {
			if _, err := c.WriteToUDPAddrPort(robotPkt, netip.AddrPortFrom(gcAddr, gcproto.ReturnPort)); err != nil {
				return err
			}
			select {
			case <-ctx.Done():
				return nil
			case <-tk.C:
			}
		}
	})
	defer func() {
		cancel()
		if err := waitRobot(); err != nil {
			t.Errorf("robot: %v", err)
		}
	}()

	poll := func(what string, limit time.Duration, cond func(Snapshot) bool) Snapshot {
		t.Helper()
		deadline := time.Now().Add(limit)
		for {
			s := m.State()
			if cond(s) {
				return s
			}
			if time.Now().After(deadline) {
				td := s.GameController.TrueData
				t.Fatalf("%s: not within %v (gamecontroller packets %d, true data %+v)", what, limit, s.GameController.Packets, td)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}

	// Control packets first (broadcast, looped back to this host), then the answer.
	poll("the GameController's control packets", 10*time.Second, func(s Snapshot) bool { return s.GameController.Game != nil })
	// Both builds answer (v19 too: its runtime has the same monitor handling).
	s := poll("true data", 8*time.Second, func(s Snapshot) bool { return s.GameController.TrueData.Packets > 0 })
	t.Logf("true data from %s after %d request(s)", s.GameController.TrueData.Source, s.GameController.TrueData.Requests)

	// Forwarded return packets, from the robot's address; the GameController still gets
	// them itself and rates the robot good.
	s = poll("forwarded return packets of 17/2", 10*time.Second, func(s Snapshot) bool {
		r := findRobot(s, 17, 2)
		return r != nil && r.ReturnMsgs.Count >= 3
	})
	r := findRobot(s, 17, 2)
	if r.ReturnMsgs.Source != robotAddr.String()+":0" || r.Pose == nil || r.Pose.X != 1.5 || r.Pose.Y != -0.5 {
		t.Errorf("robot 17/2 %+v: want return packets from %s with its pose", r, robotAddr)
	}
	ratedGood := time.After(10 * time.Second)
	for good := false; !good; {
		select {
		case rating := <-online:
			good = rating == "good"
		case <-ratedGood:
			t.Fatal("the GameController did not rate 17/2 good while the monitor ran on its host")
		}
	}
	for _, p := range s.Ports {
		if p.Kind == KindReturn.String() {
			t.Errorf("the monitor holds a return port: %+v", p)
		}
	}

	// The state hidden from the robots: PLAYING in the true data while the robots see SET.
	poll("true data PLAYING while the robots see SET", 20*time.Second, func(s Snapshot) bool {
		g, td := s.GameController.Game, s.GameController.TrueData.Game
		return g != nil && td != nil && td.State == "playing" && g.State == "set"
	})
	t.Log("true data says PLAYING while the robots are told SET")

	// The captured datagrams decode as the GameController sent them.
	checkCaptured(t, capt, gcAddr, robotAddr, robotPkt)

	// This host sends a status message: it is a player now, and the GameController stops
	// answering its requests.
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: gcAddr.AsSlice()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.WriteToUDPAddrPort(returnV4(t, 17, 3, 0, 0, 0, nil, false), netip.AddrPortFrom(gcAddr, gcproto.ReturnPort)); err != nil {
		t.Fatal(err)
	}
	s = poll("the refusal detected", trueSilence+trueRefusedAfter+4*time.Second, func(s Snapshot) bool { return s.GameController.TrueData.Refused })
	if w := s.GameController.TrueData.Warning; !strings.Contains(w, gcAddr.String()) || !strings.Contains(w, "status messages") {
		t.Errorf("warning %q", w)
	}
	t.Logf("after a status message from this host: %s", s.GameController.TrueData.Warning)

	if dir := os.Getenv(realGCGoldenEnv); dir != "" {
		// A control packet with the pushing penalty of 17/2, the last true-data packet and a
		// forward, as proto/gamecontroller's golden packets of the real GameController.
		poll("17/2 penalised in the control packets", 10*time.Second, func(s Snapshot) bool {
			g := s.GameController.Game
			return g != nil && g.Teams[0].Players[1].Penalty == "pushing"
		})
		writeGoldens(t, dir, capt)
	}
}

// realGCGoldenEnv names a directory where TestMonitorChannelRealGC writes what it
// captured from the real GameControllers, for proto/gamecontroller/testdata:
//
//	DNETWORK_REALGC_GOLDEN=$PWD/proto/gamecontroller/testdata go test ./monitor -run TestMonitorChannelRealGC
const realGCGoldenEnv = "DNETWORK_REALGC_GOLDEN"

func writeGoldens(t *testing.T, dir string, capt *capturedDatagrams) {
	t.Helper()
	last := func(k Kind, magic string) []byte {
		ds := capt.of(k)
		for i := len(ds) - 1; i >= 0; i-- {
			if magic == "" || strings.HasPrefix(string(ds[i].Payload), magic) {
				return ds[i].Payload
			}
		}
		t.Fatalf("no %s %q datagram captured", k, magic)
		return nil
	}
	var p gcproto.Packet
	rgme := last(KindGameController, gcproto.MagicControl)
	if err := gcproto.Decode(rgme, &p); err != nil {
		t.Fatal(err)
	}
	name := p.Layout.String()
	for _, f := range []struct {
		file, what string
		b          []byte
	}{
		{name + "-real-rgme.hex", "RGme, 17/2 penalised (pushing)", rgme},
		{name + "-real-rgtd.hex", "RGTD, true data", last(KindGameController, gcproto.MagicMonitor)},
		{name + "-real-forward.hex", "a status message forwarded to port 3940, sent by 10.x.0.2 (17/2)", last(KindForward, "")},
	} {
		text := fmt.Sprintf("# %s: %s, %d bytes, captured from the real headless HSL GameController by TestMonitorChannelRealGC (monitor/gcreal_test.go)\n%x\n",
			name, f.what, len(f.b), f.b)
		if err := os.WriteFile(filepath.Join(dir, f.file), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// checkCaptured decodes what the monitor's sockets captured from the real GameController:
// control and true-data packets of one layout that re-encode byte for byte, and forwarded status messages that are the
// robot's packets byte for byte after its address.
func checkCaptured(t *testing.T, capt *capturedDatagrams, gcAddr, robotAddr netip.Addr, robotPkt []byte) {
	t.Helper()
	var kinds [2]int
	var layout gcproto.Layout
	for _, d := range capt.of(KindGameController) {
		var p gcproto.Packet
		if err := gcproto.Decode(d.Payload, &p); err != nil {
			t.Errorf("a control packet from %v does not decode: %v\n% x", d.Src, err, d.Payload)
			continue
		}
		if d.Src.Addr() != gcAddr || (layout != 0 && p.Layout != layout) {
			t.Errorf("packet %s %s from %v, want %s from %s", p.Header.Magic(), p.Layout, d.Src, layout, gcAddr)
		}
		if out, err := p.MarshalBinary(); err != nil || !bytes.Equal(out, d.Payload) {
			t.Errorf("%s packet re-encodes as % x (%v), the GameController sent % x", p.Header.Magic(), out, err, d.Payload)
		}
		layout = p.Layout
		kinds[p.Header-gcproto.HeaderRGme]++
	}
	if kinds[0] == 0 || kinds[1] == 0 {
		t.Errorf("captured %d RGme and %d RGTD packets, want both", kinds[0], kinds[1])
	}
	fwd := capt.of(KindForward)
	for _, d := range fwd {
		src, msg, err := gcproto.DecodeForward(d.Payload)
		if err != nil || src != robotAddr || !bytes.Equal(msg, robotPkt) || d.Src.Addr() != gcAddr {
			t.Errorf("forward from %v: %v, % x, %v; want the robot's packet from %v", d.Src, src, msg, err, robotAddr)
		}
	}
	if len(fwd) == 0 {
		t.Error("no forwarded status messages captured")
	}
	t.Logf("captured %d RGme and %d RGTD packets (%s, %d bytes) and %d forwarded status messages (%d bytes)",
		kinds[0], kinds[1], layout, layout.Size(), len(fwd), gcproto.ForwardPrefixSize+len(robotPkt))
}
