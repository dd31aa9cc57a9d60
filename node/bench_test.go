//go:build cgo

package node_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/net/ipv4"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/internal/procs"
	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
	"github.com/robocup-dnetwork/dnetwork/ros"
	dm "github.com/robocup-dnetwork/dnetwork/ros/interfaces/diagnostic_msgs"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/geometry_msgs"
)

// BenchmarkGCInfoLatency measures the time from a GameController datagram leaving the
// GameController's socket (on loopback: arriving at the node's socket a few
// microseconds later) to the GCInfo sample it causes arriving at a DDS subscriber in
// the same process. Every datagram changes the game state, so the GameController
// component publishes at once (publish_on_change); the periodic publication is slowed
// to 0.1 Hz to stay out of the way. ns/op is the mean; p50 and p99 are reported too.
func BenchmarkGCInfoLatency(b *testing.B) {
	getenv := testEnv(b, domainBenchGC)
	cfg := baseConfig(2)
	cfg.TeamEnabled = false
	cfg.GameControllerPort = freePorts(b, 1)[0]
	cfg.GameController.PublishRate = 0.1
	cfg.Diagnostics.Period = time.Minute
	startNode(b, getenv, cfg)

	tester := rosNode(b, getenv, "tester", &syncbuf.Buffer{})
	got := make(chan uint8, 16)
	sub, err := ros.NewSubscription(tester, "/dnetwork_2/GCInfo", ros.QoSDefault, func(m *dmsgs.GCInfo) {
		if m.Connected {
			got <- m.State
		}
	})
	if err != nil {
		b.Fatal(err)
	}
	waitMatched(b, "GCInfo", sub.PublisherCount)
	gc := udpSocket(b, "127.0.0.1:0")
	dst := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), cfg.GameControllerPort)
	packets := make([][]byte, 2)
	states := []gcproto.State{gcproto.StateReady, gcproto.StateSet}
	for i, s := range states {
		p := gamePacket(gcproto.LayoutHSL20, s)
		if packets[i], err = p.MarshalBinary(); err != nil {
			b.Fatal(err)
		}
	}
	// One timer for every wait, armed before the clock starts, so the measurement holds
	// no timer of the harness's own.
	timeout := time.NewTimer(time.Hour)
	defer timeout.Stop()
	wait := func(want gcproto.State) {
		for {
			select {
			case s := <-got:
				if s == uint8(want) {
					return
				}
			case <-timeout.C:
				b.Fatalf("no GCInfo in state %v", want)
			}
		}
	}
	// Warm up: connect, then one change.
	for i := range 2 {
		timeout.Reset(5 * time.Second)
		if _, err := gc.WriteToUDPAddrPort(packets[i], dst); err != nil {
			b.Fatal(err)
		}
		wait(states[i])
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		k := i % 2
		timeout.Reset(5 * time.Second)
		t0 := time.Now()
		if _, err := gc.WriteToUDPAddrPort(packets[k], dst); err != nil {
			b.Fatal(err)
		}
		wait(states[k])
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

// benchChildEnv carries the configuration of a node process started by
// BenchmarkTeamOfSix, as JSON.
const benchChildEnv = "DNETWORK_BENCH_CHILD_CONFIG"

// benchChildFloor makes the child process a floor to compare with instead of a node:
// "ros" runs the ROS node alone (participant, parameter services, /rosout), "ticker"
// the same plus a 2 Hz wall ticker that does nothing, "traffic" the I/O of a node in a
// team (floorTraffic).
const benchChildFloor = "DNETWORK_BENCH_CHILD_FLOOR"

// TestBenchNodeChild is not a test of its own: started by BenchmarkTeamOfSix in a child
// process, it runs one node until SIGTERM and answers every SIGUSR1 with a line
// "stats <cpu ns> <mallocs> <alloc bytes> <gc cycles> <voluntary context switches>" on
// stdout, so the benchmark can measure the node's process alone (its DDS threads
// included).
func TestBenchNodeChild(t *testing.T) {
	text, ok := os.LookupEnv(benchChildEnv)
	if !ok {
		t.Skip("runs only as a child process of BenchmarkTeamOfSix")
	}
	var cfg node.Config
	if err := json.Unmarshal([]byte(text), &cfg); err != nil {
		t.Fatal(err)
	}
	procs.Apply(procs.Node) // as dnetwork node does
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	rn, err := ros.NewNode(ctx, node.NodeName(cfg.RobotID), "/", ros.NodeOptions{LogOutput: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	defer rn.Close()
	floor := os.Getenv(benchChildFloor)
	var n *node.Node
	if floor == "" {
		if n, err = node.New(rn, cfg); err != nil {
			t.Fatal(err)
		}
	}
	usr := make(chan os.Signal, 1)
	signal.Notify(usr, syscall.SIGUSR1)
	go func() {
		for range usr {
			var ru syscall.Rusage
			_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
			fmt.Printf("stats %d %d %d %d %d\n", cpu, ms.Mallocs, ms.TotalAlloc, ms.NumGC, ru.Nvcsw)
		}
	}()
	fmt.Println("ready")
	switch floor {
	case "":
		if err := n.Run(ctx); err != nil {
			t.Fatal(err)
		}
	case "traffic":
		floorTraffic(ctx, t, rn, cfg)
	case "ticker":
		tk := clock.Wall.NewTicker(500 * time.Millisecond)
		defer tk.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tk.C():
			}
		}
	default:
		<-ctx.Done()
	}
}

// childStats is one "stats" line of the node process.
type childStats struct {
	at                      time.Time
	cpu                     time.Duration
	mallocs, bytes, gcCount uint64
	wakes                   uint64 // voluntary context switches of all its threads
}

// BenchmarkTeamOfSix measures one node in a team of six at full rate, in a process of
// its own: five teammates send signed dnet packets at 15 Hz each (the ball-handling
// rate), the GameController sends PLAYING at 2 Hz with a budget that allows more than
// 15 Hz per robot, the robot's other nodes publish MotionInfo, BehaviorInfo (ball
// handling) and VisionInfo at 30 Hz each, and a subscriber reads TeamInfo and GCInfo.
// The node sends to its five teammates at 15 Hz. Each iteration is one second of this;
// the metrics are the node process's CPU time and Go allocations per second of play.
func BenchmarkTeamOfSix(b *testing.B) { benchTeamOfSix(b, domainBenchSix, false) }

// BenchmarkJunkFlood is BenchmarkTeamOfSix while one loopback sender offers random
// datagrams of 16..600 bytes to the team and GameController ports, alternately, at
// 150,000/s (DNETWORK_FLOOD_RATE sets another rate; at most 2,000,000 in all). Extra metrics: junk/s offered, valid-lost (teammate
// packets sent during the measurement minus TeamInfo published; a few in flight at
// either end may count), gc-disconnected (GCInfo samples saying not connected) and the
// node's CPU time per datagram it received (cpu-µs/datagram). The kernel's drops of
// each socket show in /diagnostics (dropped_kernel).
func BenchmarkJunkFlood(b *testing.B) {
	const domainBenchFlood = 59
	benchTeamOfSix(b, domainBenchFlood, true)
}

// benchTeamOfSix runs the six-robot benchmark, with junk the flood; env is added to the
// child's environment (benchChildFloor).
func benchTeamOfSix(b *testing.B, domain int, junk bool, env ...string) {
	getenv := testEnv(b, domain)
	const mates = 5
	ports := freePorts(b, 2)
	mateSocks := make([]*net.UDPConn, mates)
	cfg := baseConfig(1)
	cfg.Team.Port, cfg.GameControllerPort = ports[0], ports[1]
	cfg.Team.AuthKey = []byte("bench-team-secret")
	cfg.GameController.PublishRate = 2
	cfg.Diagnostics.Period = time.Second
	for i := range mateSocks {
		mateSocks[i] = udpSocket(b, "127.0.0.1:0")
		cfg.Team.Peers = append(cfg.Team.Peers, netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), localPort(mateSocks[i])))
	}
	stats := startBenchChild(b, getenv, cfg, env...)

	// The robot's other nodes, and the behaviour node reading TeamInfo and GCInfo.
	tester := rosNode(b, getenv, "tester", &syncbuf.Buffer{})
	var teamInfos, gcInfos, gcDisconnected atomic.Uint64
	ti, err := ros.NewSubscription(tester, "/dnetwork_1/TeamInfo", ros.QoSDefault, func(*dmsgs.TeamInfo) { teamInfos.Add(1) })
	if err != nil {
		b.Fatal(err)
	}
	gi, err := ros.NewSubscription(tester, "/dnetwork_1/GCInfo", ros.QoSDefault, func(m *dmsgs.GCInfo) {
		gcInfos.Add(1)
		if !m.Connected {
			gcDisconnected.Add(1)
		}
	})
	if err != nil {
		b.Fatal(err)
	}
	waitMatched(b, "TeamInfo", ti.PublisherCount)
	waitMatched(b, "GCInfo", gi.PublisherCount)
	// The node's socket counters, from its /diagnostics (kernel drops, queue full).
	var sockMu sync.Mutex
	sockCounters := map[string]uint64{}
	if junk {
		di, err := ros.NewSubscription(tester, "/diagnostics", ros.QoSDefault, func(a *dm.DiagnosticArray) {
			sockMu.Lock()
			defer sockMu.Unlock()
			for _, st := range a.Status {
				if !strings.Contains(st.Name, node.DiagSocketPrefix) {
					continue
				}
				for _, kv := range st.Values {
					if kv.Key == "dropped_kernel" || kv.Key == "dropped_queue_full" {
						v, _ := strconv.ParseUint(kv.Value, 10, 64)
						sockCounters[st.Name+" "+kv.Key] = v
					}
				}
			}
		})
		if err != nil {
			b.Fatal(err)
		}
		waitMatched(b, "diagnostics", di.PublisherCount)
	}
	sockTotal := func(key string) uint64 {
		sockMu.Lock()
		defer sockMu.Unlock()
		var n uint64
		for k, v := range sockCounters {
			if strings.HasSuffix(k, " "+key) {
				n += v
			}
		}
		return n
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	fullRateInputs(ctx, b, &wg, tester, 1)

	// The teammates and the GameController.
	var heard, mateSent, junkSent atomic.Uint64
	for _, s := range mateSocks {
		wg.Go(func() {
			buf := make([]byte, 1500)
			for {
				if _, _, err := s.ReadFromUDPAddrPort(buf); err != nil {
					return
				}
				heard.Add(1)
			}
		})
	}
	defer func() {
		for _, s := range mateSocks {
			s.Close()
		}
	}()
	key, err := teaminfo.NewKey(cfg.Team.AuthKey)
	if err != nil {
		b.Fatal(err)
	}
	teamDst := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), cfg.Team.Port)
	for i, s := range mateSocks {
		wg.Go(func() {
			st := teaminfo.State{Team: testTeam, Player: uint8(i + 2), SeeBall: true, PlayState: teaminfo.PlayState(dmsgs.BehaviorInfoStateBallHandling),
				RobotPos: teaminfo.Pose{X: float64(i), Y: 1}, BallField: teaminfo.Point{X: 0.3}, BallGlobal: teaminfo.Point{X: 1, Y: 1},
				TimeSinceLastKick: 3, TimeToReachBall: 1, BallAge: 0.1, BallQuality: 0.9, FieldQuality: 0.8, FieldConsistency: 0.7}
			buf := make([]byte, 0, 256)
			tk := time.NewTicker(67 * time.Millisecond)
			defer tk.Stop()
			for {
				st.Seq++
				st.Stamp = time.Duration(time.Now().UnixMilli()) * time.Millisecond
				buf, _ = teaminfo.AppendDNet(buf[:0], &st, key)
				if _, err := s.WriteToUDPAddrPort(buf, teamDst); err == nil {
					mateSent.Add(1)
				}
				select {
				case <-ctx.Done():
					return
				case <-tk.C:
				}
			}
		})
	}
	gcSock := udpSocket(b, "127.0.0.1:0")
	p := gamePacket(gcproto.LayoutHSL20, gcproto.StatePlaying)
	p.FirstHalf, p.SecsRemaining = false, 600
	p.Teams[0].MessageBudget, p.Teams[1].MessageBudget = 65535, 65535
	gcBytes, err := p.MarshalBinary()
	if err != nil {
		b.Fatal(err)
	}
	wg.Go(func() {
		tk := time.NewTicker(500 * time.Millisecond)
		defer tk.Stop()
		for {
			sendTo(b, gcSock, gcBytes, cfg.GameControllerPort)
			select {
			case <-ctx.Done():
				return
			case <-tk.C:
			}
		}
	})

	time.Sleep(1500 * time.Millisecond) // teammates online, budget known, rates settled
	start, ti0, gi0, h0 := stats(), teamInfos.Load(), gcInfos.Load(), heard.Load()
	ms0, gd0 := mateSent.Load(), gcDisconnected.Load()
	if junk {
		junkSock := udpSocket(b, "127.0.0.1:0")
		wg.Go(func() {
			floodJunk(ctx, b, junkSock, floodRate(b), &junkSent,
				teamDst, netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), cfg.GameControllerPort))
		})
	}
	j0 := junkSent.Load()
	kd0, qf0 := sockTotal("dropped_kernel"), sockTotal("dropped_queue_full")
	end, secs := playSeconds(b, stats, start)
	b.ReportMetric(float64(end.bytes-start.bytes)/1024/secs, "KiB/s")
	b.ReportMetric(float64(end.gcCount-start.gcCount)/secs, "gc/s")
	b.ReportMetric(float64(teamInfos.Load()-ti0)/secs, "TeamInfo/s")
	b.ReportMetric(float64(gcInfos.Load()-gi0)/secs, "GCInfo/s")
	b.ReportMetric(float64(heard.Load()-h0)/mates/secs, "sent-per-mate/s")
	if junk {
		junkN := junkSent.Load() - j0
		valid := mateSent.Load() - ms0
		got := teamInfos.Load() - ti0
		b.ReportMetric(float64(junkN)/secs, "junk/s")
		b.ReportMetric(float64(int64(valid)-int64(got)), "valid-lost")
		b.ReportMetric(float64(gcDisconnected.Load()-gd0), "gc-disconnected")
		b.ReportMetric(float64(end.cpu-start.cpu)/1e3/float64(max(junkN+valid, 1)), "cpu-µs/datagram")
		// Diagnostics come once a second: these cover about the measured seconds.
		b.ReportMetric(float64(sockTotal("dropped_kernel")-kd0), "kernel-drops")
		b.ReportMetric(float64(sockTotal("dropped_queue_full")-qf0), "queue-full")
	}
}

// floodRate is the junk rate BenchmarkJunkFlood offers: DNETWORK_FLOOD_RATE datagrams/s,
// 150,000 by default.
func floodRate(b *testing.B) int {
	v := os.Getenv("DNETWORK_FLOOD_RATE")
	if v == "" {
		return 150_000
	}
	r, err := strconv.Atoi(v)
	if err != nil || r <= 0 {
		b.Fatalf("DNETWORK_FLOOD_RATE=%q: want a positive number of datagrams per second", v)
	}
	return r
}

// floodJunk sends random datagrams of 16..600 bytes to dsts in turn, paced at rate per
// second in batches (sendmmsg), until ctx is done or it has sent 2,000,000. A sender that
// falls behind sends as fast as it can until it has caught up.
func floodJunk(ctx context.Context, b *testing.B, c *net.UDPConn, rate int, sent *atomic.Uint64, dsts ...netip.AddrPort) {
	const (
		maxJunk = 2_000_000
		pool    = 4096 // distinct datagrams, sent in turn
		batch   = 64
	)
	rng := rand.New(rand.NewPCG(1, 2))
	msgs := make([]ipv4.Message, pool)
	for i := range msgs {
		p := make([]byte, 16+rng.IntN(600-16+1))
		for j := range p {
			p[j] = byte(rng.Uint32())
		}
		d := dsts[i%len(dsts)]
		msgs[i] = ipv4.Message{Buffers: [][]byte{p}, Addr: net.UDPAddrFromAddrPort(d)}
	}
	pc := ipv4.NewPacketConn(c)
	start := time.Now()
	total, next := 0, 0
	for total < maxJunk && ctx.Err() == nil {
		due := min(int(float64(rate)*time.Since(start).Seconds()), maxJunk) - total
		if due <= 0 {
			time.Sleep(200 * time.Microsecond)
			continue
		}
		k := min(due, batch, pool-next)
		n, err := pc.WriteBatch(msgs[next:next+k], 0)
		if err != nil {
			if ctx.Err() == nil {
				b.Errorf("junk sender: %v", err)
			}
			return
		}
		total += n
		sent.Add(uint64(n))
		next = (next + n) % pool
	}
}

// startBenchChild starts a node process with cfg (see TestBenchNodeChild), stops it
// when the benchmark ends and returns a function reading its counters.
func startBenchChild(b *testing.B, getenv func(string) string, cfg node.Config, env ...string) func() childStats {
	text, err := json.Marshal(cfg)
	if err != nil {
		b.Fatal(err)
	}

	cmd := exec.Command(os.Args[0], "-test.run=^TestBenchNodeChild$")
	cmd.Env = append(os.Environ(), benchChildEnv+"="+string(text),
		"CYCLONEDDS_URI="+getenv("CYCLONEDDS_URI"), "ROS_DOMAIN_ID="+getenv("ROS_DOMAIN_ID"),
		"ROS_LOCALHOST_ONLY=", "ROS_AUTOMATIC_DISCOVERY_RANGE=", "ROS_STATIC_PEERS=")
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	})
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	next := func(prefix string) string {
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					b.Fatal("node process ended")
				}
				if strings.HasPrefix(l, prefix) {
					return l
				}
			case <-time.After(10 * time.Second):
				b.Fatalf("node process: no %q line", prefix)
			}
		}
	}
	next("ready")
	stats := func() childStats {
		if err := cmd.Process.Signal(syscall.SIGUSR1); err != nil {
			b.Fatal(err)
		}
		f := strings.Fields(next("stats "))
		var v [5]uint64
		for i := range v {
			if v[i], err = strconv.ParseUint(f[i+1], 10, 64); err != nil {
				b.Fatal(err)
			}
		}
		return childStats{at: time.Now(), cpu: time.Duration(v[0]), mallocs: v[1], bytes: v[2], gcCount: v[3], wakes: v[4]}
	}

	return stats
}

// BenchmarkIdleNode measures a node with nothing to do, in a process of its own: team
// communication on (one silent peer to send to, no GameController, no inputs, so it
// sends at the blind rate), GCInfo at its default rate, diagnostics at 1 Hz. Each
// iteration is one second; the metric is the process's CPU time per second. alone: no
// subscriber anywhere, so GCInfo is serialised but not written and no diagnostics are
// collected (nobody could receive them); watched: a subscriber reads GCInfo and
// /diagnostics, as a behaviour node and rqt_robot_monitor would. For comparison, the
// floors: floor-ros is the process with its ROS node and no dnetwork node, floor-2Hz
// the same with a 2 Hz ticker that does nothing (GCInfo's default rate): what merely
// being there and waking costs on this machine.
func BenchmarkIdleNode(b *testing.B) {
	b.Run("alone", func(b *testing.B) { benchIdleNode(b, 53, false) })
	b.Run("watched", func(b *testing.B) { benchIdleNode(b, 62, true) })
	for _, f := range []struct{ name, mode string }{{"floor-ros", "ros"}, {"floor-2Hz", "ticker"}} {
		b.Run(f.name, func(b *testing.B) {
			stats := startBenchChild(b, testEnv(b, 63), baseConfig(1), benchChildFloor+"="+f.mode)
			time.Sleep(1500 * time.Millisecond)
			playSeconds(b, stats, stats())
		})
	}
}

func benchIdleNode(b *testing.B, domain int, watched bool) {
	getenv := testEnv(b, domain)
	cfg := baseConfig(1)
	ports := freePorts(b, 2)
	cfg.Team.Port, cfg.GameControllerPort = ports[0], ports[1]
	mate := udpSocket(b, "127.0.0.1:0") // never read: the node only sends to it
	cfg.Team.Peers = []netip.AddrPort{netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), localPort(mate))}
	cfg.Diagnostics.Period = time.Second
	cfg.GameController.PublishRate = node.DefaultConfig().GameController.PublishRate
	stats := startBenchChild(b, getenv, cfg)
	var gcInfos, arrays atomic.Uint64
	if watched {
		tester := rosNode(b, getenv, "tester", &syncbuf.Buffer{})
		gi, err := ros.NewSubscription(tester, "/dnetwork_1/GCInfo", ros.QoSDefault, func(*dmsgs.GCInfo) { gcInfos.Add(1) })
		if err != nil {
			b.Fatal(err)
		}
		di, err := ros.NewSubscription(tester, "/diagnostics", ros.QoSDefault, func(*dm.DiagnosticArray) { arrays.Add(1) })
		if err != nil {
			b.Fatal(err)
		}
		waitMatched(b, "GCInfo", gi.PublisherCount)
		waitMatched(b, "diagnostics", di.PublisherCount)
	}
	time.Sleep(1500 * time.Millisecond) // discovery and start-up settled
	g0, a0 := gcInfos.Load(), arrays.Load()
	_, secs := playSeconds(b, stats, stats())
	if watched {
		b.ReportMetric(float64(gcInfos.Load()-g0)/secs, "GCInfo/s")
		b.ReportMetric(float64(arrays.Load()-a0)/secs, "diagnostics/s")
	}
}

// playSeconds lets the node run one second per iteration from start, reports its CPU
// time (cpu-ms/s), allocations (allocs/s) and thread wake-ups (wakes/s: voluntary
// context switches of all its threads) per second and returns the end counters
// and the seconds measured.
func playSeconds(b *testing.B, stats func() childStats, start childStats) (childStats, float64) {
	b.ResetTimer()
	for range b.N {
		time.Sleep(time.Second)
	}
	b.StopTimer()
	end := stats()
	secs := end.at.Sub(start.at).Seconds()
	b.ReportMetric(float64(end.cpu-start.cpu)/1e6/secs, "cpu-ms/s")
	b.ReportMetric(float64(end.mallocs-start.mallocs)/secs, "allocs/s")
	b.ReportMetric(float64(end.wakes-start.wakes)/secs, "wakes/s")
	return end, secs
}

// fullRateInputs publishes MotionInfo, BehaviorInfo (ball handling) and VisionInfo (the
// ball 30 cm ahead, five obstacles, ten lines and ten field features) at 30 Hz until
// ctx is done.
func fullRateInputs(ctx context.Context, b testing.TB, wg *sync.WaitGroup, rn *ros.Node, id int) {
	motion, err := ros.NewPublisher[dmsgs.MotionInfo](rn, fmt.Sprintf("/dmotion_%d/MotionInfo", id), ros.QoSDefault)
	if err != nil {
		b.Fatal(err)
	}
	behavior, err := ros.NewPublisher[dmsgs.BehaviorInfo](rn, fmt.Sprintf("/dbehavior_%d/BehaviorInfo", id), ros.QoSDefault)
	if err != nil {
		b.Fatal(err)
	}
	vision, err := ros.NewPublisher[dmsgs.VisionInfo](rn, fmt.Sprintf("/dvision_%d/VisionInfo", id), ros.QoSDefault)
	if err != nil {
		b.Fatal(err)
	}
	for _, p := range []interface{ SubscriptionCount() (int, error) }{motion, behavior, vision} {
		waitMatched(b, "inputs", p.SubscriptionCount)
	}
	m := &dmsgs.MotionInfo{Stable: true, JointFeedback: make([]float64, 20), NeckToFoot: make([]float64, 16)}
	bi := &dmsgs.BehaviorInfo{CurrentRole: dmsgs.BehaviorInfoRoleStriker, TeamPlayState: dmsgs.BehaviorInfoStateBallHandling,
		Voronoi: make([]geometry_msgs.Vector3, 8)}
	v := &dmsgs.VisionInfo{SeeBall: true, SeeField: true, LocOK: true, SeeObstacle: true,
		RobotPos: geometry_msgs.Vector3{X: 100, Y: 50, Z: 30}, BallField: geometry_msgs.Vector3{X: 30},
		ObstaclesField: make([]geometry_msgs.Vector3, 5), ObstaclesGlobal: make([]geometry_msgs.Vector3, 5),
		LinesField: make([]dmsgs.Line, 10), FeaturesField: make([]dmsgs.FieldFeature, 10)}
	wg.Go(func() {
		tk := time.NewTicker(time.Second / 30)
		defer tk.Stop()
		for {
			m.Odometry.X += 0.5
			_ = motion.Publish(m)
			_ = behavior.Publish(bi)
			_ = vision.Publish(v)
			select {
			case <-ctx.Done():
				return
			case <-tk.C:
			}
		}
	})
}
