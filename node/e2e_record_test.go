//go:build cgo

package node_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	"github.com/robocup-dnetwork/dnetwork/monitor"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/transport"
	"github.com/robocup-dnetwork/dnetwork/transport/capture"
	"github.com/robocup-dnetwork/dnetwork/transport/replay"
)

// checkRecording checks robot 1's recording of TestE2ENetns: every socket's traffic in
// both directions, readable by tshark and dnetwork decode, and replayed to a fresh node
// on loopback, the GCInfo sequence robot 1 published.
func checkRecording(t *testing.T, dir string) {
	files, _ := filepath.Glob(filepath.Join(dir, "dnetwork_1_*.pcapng"))
	if len(files) != 1 {
		t.Fatalf("recordings of robot 1: %v", files)
	}
	file := files[0]
	pkts, err := capture.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	type key struct {
		iface string
		dir   transport.Direction
	}
	count := map[key]int{}
	for _, p := range pkts {
		count[key{p.Interface, p.Dir}]++
	}
	for _, iface := range []string{"gamecontroller", "team", "worldinfo", "swarm"} {
		for _, d := range []transport.Direction{transport.Received, transport.Sent} {
			if count[key{iface, d}] == 0 {
				t.Errorf("no %s datagrams %s in the recording (%v)", iface, d, count)
			}
		}
	}
	gcAddr, bcast := netip.MustParseAddr("10.91.0.254"), netip.MustParseAddrPort("10.91.0.255:3838")
	var fromGC, returns, fromMate int
	for _, p := range pkts {
		switch {
		case p.Interface == "gamecontroller" && p.Dir == transport.Received && p.Src.Addr() == gcAddr && p.Dst == bcast:
			fromGC++
		case p.Interface == "gamecontroller" && p.Dir == transport.Sent && p.Dst == netip.AddrPortFrom(gcAddr, 3939) &&
			p.Src == netip.MustParseAddrPort("10.91.0.1:3838"):
			returns++
		case p.Interface == "team" && p.Dir == transport.Received && p.Src.Addr() == netip.MustParseAddr("10.91.0.2"):
			fromMate++
		}
	}
	t.Logf("recording %s: %d datagrams, by socket and direction %v", filepath.Base(file), len(pkts), count)
	if fromGC == 0 || returns == 0 || fromMate == 0 {
		t.Errorf("control packets %d, return packets %d, robot 2's team packets %d; want all", fromGC, returns, fromMate)
	}

	// tshark reads every frame, with its interface.
	if _, err := exec.LookPath("tshark"); err != nil {
		t.Log("tshark not installed: Wireshark check skipped")
	} else {
		out, err := exec.Command("tshark", "-r", file, "-T", "fields", "-e", "frame.interface_name", "-e", "udp.dstport").Output()
		if err != nil {
			t.Errorf("tshark -r %s: %v", file, err)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if len(lines) != len(pkts) || !slices.Contains(lines, "gamecontroller\t3838") || !slices.Contains(lines, "gamecontroller\t3939") {
			t.Errorf("tshark printed %d frames (want %d), first %q", len(lines), len(pkts), lines[:min(3, len(lines))])
		}
	}

	// dnetwork decode recognises every protocol of the node.
	if _, err := exec.LookPath("go"); err != nil {
		t.Log("no go tool to build dnetwork: decode check skipped")
	} else {
		bin := filepath.Join(t.TempDir(), "dnetwork")
		if out, err := exec.Command("go", "build", "-o", bin, "../cmd/dnetwork").CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
		var stdout, stderr bytes.Buffer
		cmd := exec.Command(bin, "decode", "--auth-key", "netns-team-secret", file)
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Errorf("dnetwork decode: %v\n%s", err, stderr.String())
		}
		protocols := map[string]int{}
		sc := bufio.NewScanner(&stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var rec struct {
				Protocol, Error, Src, Dst, Direction string
				Time                                 string `json:"capture_time"`
			}
			if err := json.Unmarshal(sc.Bytes(), &rec); err != nil || rec.Error != "" || rec.Src == "" || rec.Time == "" || rec.Direction == "" {
				t.Errorf("decode line %s (%v)", sc.Bytes(), err)
				break
			}
			protocols[rec.Protocol]++
		}
		for _, p := range []string{"gamecontroller", "rgrt", "worldinfo", "swarm"} {
			if protocols[p] == 0 {
				t.Errorf("decode printed no %s packet: %v\n%s", p, protocols, stderr.String())
			}
		}
		t.Logf("dnetwork decode: %v", protocols)
		if len(protocols) < 5 {
			t.Errorf("decode recognised %v, want the team packets too", protocols)
		}
	}

	// The monitor's replay shows the game at the recording's end: all three robots of
	// the team online and the GameController's packet.
	mcfg := monitor.DefaultConfig()
	mcfg.AuthKey = []byte("netns-team-secret")
	pl, err := monitor.NewPlayer(mcfg, pkts)
	if err != nil {
		t.Fatal(err)
	}
	if err := pl.Seek(time.Hour); err != nil {
		t.Fatal(err)
	}
	s := pl.State()
	online := 0
	for _, r := range s.Robots {
		if r.Team == testTeam && r.Online && r.Auth == "verified" {
			online++
		}
	}
	if online != netnsRobots || s.GameController.Game == nil || s.Replay.Played != s.Replay.Packets {
		t.Errorf("monitor replay at the end: %d robots online (want %d), %+v, game %+v", online, netnsRobots, s.Robots, s.GameController.Game)
	}

	// The GameController's packets, replayed to a fresh node, give the same GCInfo steps.
	want, err := os.ReadFile(filepath.Join(dir, "gcinfo_1.txt"))
	if err != nil {
		t.Fatal(err)
	}
	wantSeq := strings.Split(string(want), "\n")
	states := map[string]bool{}
	for _, step := range wantSeq {
		if f := strings.Fields(step); len(f) > 1 {
			states[f[1]] = true
		}
	}
	if len(wantSeq) < 4 || len(states) < 3 {
		t.Fatalf("robot 1 published only %d GCInfo steps in %d states: %q", len(wantSeq), len(states), wantSeq)
	}
	getenv := testEnv(t, rosdomain.Take(t))
	cfg := baseConfig(1)
	cfg.TeamEnabled = false
	ports := freePorts(t, 2)
	cfg.GameControllerPort, cfg.GameController.ReturnPort = ports[0], ports[1]
	startNode(t, getenv, cfg)
	tester := rosNode(t, getenv, "tester", &syncbuf.Buffer{})
	infos := collect[dmsgs.GCInfo](t, tester, "/dnetwork_1/GCInfo")
	waitMatched(t, "GCInfo", infos.sub.PublisherCount)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	st, err := replay.Play(ctx, pkts, replay.Config{
		To:    map[uint16]netip.AddrPort{3838: netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), ports[0])},
		Speed: 4, Dir: transport.Received, Interface: "lo", Logger: slog.New(slog.DiscardHandler),
	})
	if err != nil || st.Sent != fromGC || st.SendErrors != 0 {
		t.Fatalf("replay: %+v, %v; want %d sent", st, err, fromGC)
	}
	// Robot 1's subscriber started after its node and stopped before it, so its steps
	// are a run of the fresh node's: the fresh node's subscriber saw every step.
	deadline := time.Now().Add(10 * time.Second)
	for {
		var got []string
		for _, m := range infos.since(0) {
			got = appendGCStep(got, m)
		}
		if containsRun(got, wantSeq) {
			t.Logf("replay %+v: robot 1's %d GCInfo steps are a run of the fresh node's %d", st, len(wantSeq), len(got))
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("replayed GCInfo steps\n%s\ndo not contain robot 1's\n%s", strings.Join(got, "\n"), want)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// containsRun reports whether run occurs in seq as consecutive elements.
func containsRun(seq, run []string) bool {
	for i := 0; i+len(run) <= len(seq); i++ {
		if slices.Equal(seq[i:i+len(run)], run) {
			return true
		}
	}
	return false
}
