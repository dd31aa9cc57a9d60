package main

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/netnstest"
	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/transport"
	"github.com/robocup-dnetwork/dnetwork/transport/capture"
)

const (
	realGCRecRobotNSEnv = "DNETWORK_RECGC_ROBOT_NS"
	realGCRecDirEnv     = "DNETWORK_RECGC_DIR"
)

// realGCRecNet is the subnet of TestDecodeRecordRealGC's two namespaces.
const realGCRecNet = "10.98.0"

// sharedDir returns ../shared/name beside the repository, or beside the main checkout
// of a git worktree.
func sharedDir(name string) string {
	dir, _ := filepath.Abs(filepath.Join("..", "..", "..", "shared", name))
	if _, err := os.Stat(dir); err == nil {
		return dir
	}
	out, err := exec.Command("git", "rev-parse", "--path-format=absolute", "--git-common-dir").Output()
	if err != nil {
		return dir
	}
	return filepath.Join(filepath.Dir(filepath.Dir(strings.TrimSpace(string(out)))), "shared", name)
}

// TestDecodeRecordRealGC: dnetwork record with its defaults on the host of the real v20
// GameController (../shared/gc20-hsl, its own namespace, the child process) while a
// robot in a second namespace sends it return packets. The recording holds the
// recorder's monitor requests and the status messages the GameController forwarded;
// decode prints them as rgtr and fwd records: the robot's address and its return packet
// as decode prints it on its own, none of no known protocol; tshark with the dissector
// shows every field decode prints.
func TestDecodeRecordRealGC(t *testing.T) {
	if _, child := netnstest.Child(); child {
		realGCRecorder(t)
		return
	}
	dir := sharedDir("gc20-hsl")
	bin := filepath.Join(dir, "game_controller_headless")
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("the HSL GameController v20 is not available (%v); it lives in ../shared/gc20-hsl beside the repository", err)
	}
	// A build that runs here says it cannot read a configuration that does not exist.
	probe := exec.Command(bin, filepath.Join(t.TempDir(), "no-config"), t.TempDir(), "lo")
	if out, err := probe.CombinedOutput(); !strings.Contains(string(out), "make_launch_data") {
		t.Skipf("the HSL GameController v20 cannot run here: %v: %s", err, strings.TrimSpace(string(out)))
	}
	netnstest.Require(t)
	gcNS, robotNS := netnstest.New(t, "recgc"), netnstest.New(t, "recrobot")
	netnstest.Veth(t, gcNS, "gc0", "", robotNS, "eth0", "")
	gcNS.IP(t, "addr", "add", realGCRecNet+".1/24", "brd", "+", "dev", "gc0")
	robotNS.IP(t, "addr", "add", realGCRecNet+".2/24", "brd", "+", "dev", "eth0")
	t.Log(gcNS.Exec(t, t.Name(), realGCRecRobotNSEnv+"="+robotNS.Name, realGCRecDirEnv+"="+dir))
}

// realGCRecorder is the child of TestDecodeRecordRealGC, on the GameController's host.
func realGCRecorder(t *testing.T) {
	robotNS := &netnstest.NS{Name: os.Getenv(realGCRecRobotNSEnv)}
	dir := os.Getenv(realGCRecDirEnv)
	if robotNS.Name == "" || dir == "" {
		t.Fatalf("%s and %s must be set", realGCRecRobotNSEnv, realGCRecDirEnv)
	}
	gcAddr, robotAddr := netip.MustParseAddr(realGCRecNet+".1"), netip.MustParseAddr(realGCRecNet+".2")

	// The GameController, stopped by its PID at the end.
	cfgDir := t.TempDir()
	if err := os.CopyFS(cfgDir, os.DirFS(filepath.Join(dir, "config"))); err != nil {
		t.Fatal(err)
	}
	gc := exec.Command(filepath.Join(dir, "game_controller_headless"), cfgDir, t.TempDir(), "gc0", "small_advanced", "no_delay")
	gc.Env = append(os.Environ(), "GC_HOLD_SECS=30")
	gcLog := &syncbuf.Buffer{}
	gc.Stdout, gc.Stderr = gcLog, gcLog
	if err := gc.Start(); err != nil {
		t.Fatal(err)
	}
	gcDone := make(chan error, 1)
	go func() { gcDone <- gc.Wait() }()
	t.Cleanup(func() {
		_ = gc.Process.Kill()
		<-gcDone
		if t.Failed() {
			t.Logf("GameController output:\n%s", gcLog)
		}
	})

	// dnetwork record with its defaults (monitor channel on), on this host.
	path := filepath.Join(t.TempDir(), "game.pcapng")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var stdout, stderr syncbuf.Buffer
	recDone := make(chan int, 1)
	go func() {
		recDone <- dispatch(ctx, []string{"record", "-o", path, "--min-free", "0", "--flush", "100ms"}, strings.NewReader(""), &stdout, &stderr)
	}()

	// The robot: a return packet to the GameController every 200 ms from its namespace.
	robotPkt := gcproto.NewAlive(17, 2)
	robotPkt.Pose = [3]float32{1500, -500, 0.25}
	pkt, err := robotPkt.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	rctx, stopRobot := context.WithCancel(t.Context())
	waitRobot := robotNS.Go(func() error {
		c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: robotAddr.AsSlice()})
		if err != nil {
			return err
		}
		defer c.Close()
		tk := time.NewTicker(200 * time.Millisecond)
		defer tk.Stop()
		for {
			if _, err := c.WriteToUDPAddrPort(pkt, netip.AddrPortFrom(gcAddr, gcproto.ReturnPort)); err != nil {
				return err
			}
			select {
			case <-rctx.Done():
				return nil
			case <-tk.C:
			}
		}
	})

	// Until the file holds three forwards of the robot's packets (the GameController is
	// heard every 500 ms; the recorder asks it then).
	deadline := time.Now().Add(20 * time.Second)
	for n := 0; n < 3; {
		if time.Now().After(deadline) {
			t.Fatalf("%d forwards recorded within 20 s: %s %s", n, stdout.String(), stderr.String())
		}
		time.Sleep(200 * time.Millisecond)
		pk, _ := capture.ReadFile(path)
		n = 0
		for _, p := range pk {
			if p.Dir == transport.Received && p.Dst.Port() == gcproto.StatusForwardPort {
				n++
			}
		}
	}
	stopRobot()
	if err := waitRobot(); err != nil {
		t.Errorf("robot: %v", err)
	}
	cancel()
	if code := <-recDone; code != 0 {
		t.Fatalf("record exit %d: %s", code, stderr.String())
	}

	code, recs, errs := runDecodeCmd(t, "", path)
	if code != 0 || !strings.Contains(errs, " 0 of no known protocol") {
		t.Errorf("decode exit %d: %s", code, errs)
	}
	want := rgrtRecord(t, pkt)
	kinds := map[string]int{}
	for _, r := range recs {
		proto, _ := r["protocol"].(string)
		kinds[proto]++
		switch proto {
		case "rgtr":
			expectFields(t, r, map[string]any{"direction": "sent", "dst": netip.AddrPortFrom(gcAddr, gcproto.MonitorRequestPort).String(), "version": 0})
		case "fwd":
			expectFields(t, r, map[string]any{"direction": "received", "host": robotAddr.String(), "rgrt": want})
			if dst, _ := r["dst"].(string); !strings.HasSuffix(dst, fmt.Sprintf(":%d", gcproto.StatusForwardPort)) {
				t.Errorf("forward to %v", r["dst"])
			}
		}
	}
	if kinds["rgtr"] == 0 || kinds["fwd"] < 3 || kinds["gamecontroller"] == 0 {
		t.Errorf("decoded %v, want monitor requests, forwards and control packets", kinds)
	}
	t.Logf("decoded %v", kinds)

	// The Wireshark dissector reads the recording as decode does.
	tshark, err := exec.LookPath("tshark")
	if err != nil {
		t.Log("tshark is not installed: the dissector is not compared")
		return
	}
	frames := runTshark(t, tshark, path)
	total := 0
	for _, r := range recs {
		i := int(r["frame"].(float64))
		if i < 1 || i > len(frames) {
			t.Fatalf("frame %d of %d", i, len(frames))
		}
		total += compareFrame(t, fmt.Sprintf("frame %d (%s)", i, r["protocol"]), r, frames[i-1])
	}
	t.Logf("%d values compared with the dissector", total)
}
