//go:build cgo

package node_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/ipv4"

	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
	"github.com/robocup-dnetwork/dnetwork/ros"
	dm "github.com/robocup-dnetwork/dnetwork/ros/interfaces/diagnostic_msgs"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/geometry_msgs"
)

// BenchmarkTeamOfSix measures one node in a team of six at full rate, in a process of
// its own: five teammates send signed dnet packets at 15 Hz each (the ball-handling
// rate), the GameController sends PLAYING at 2 Hz with a budget that allows more than
// 15 Hz per robot, the robot's other nodes publish MotionInfo, BehaviorInfo (ball
// handling) and VisionInfo at 30 Hz each, and a subscriber reads TeamInfo and GCInfo.
// The node sends to its five teammates at 15 Hz. Each iteration is one second of this;
// the metrics are the node process's CPU time, thread wake-ups and Go allocations per
// second of play.
//
// Where the C floor can be built (BenchmarkTeamOfSixCFloor: gcc and Cyclone's headers),
// the node's seconds are measured in rounds (DNETWORK_CFLOOR_ROUND seconds each, 2 by
// default) alternating with rounds of the C floor under the same traffic, each in a
// fresh process, so that both see the same spells of a busy machine. x-cfloor is the
// median over the rounds of the node's CPU time over the floor's in the round after it,
// x-cfloor-wakes the same for wake-ups; cfloor-cpu-ms/s and cfloor-wakes/s are the
// floor's own. Every round is written to stderr, and with DNETWORK_BENCH_THREADS=1 the CPU time
// and wake-ups of every thread of both processes. DNETWORK_BENCH_NODE_BIN runs the node
// from another test binary (of another commit, say) in the same harness.
func BenchmarkTeamOfSix(b *testing.B) {
	h := newSixHarness(b, false)
	nodeCmd := func() *exec.Cmd { return nodeChildCmd(b, h.getenv, h.cfg) }
	floorCmd, why := cfloorCmd(b, h)
	if floorCmd == nil {
		b.Logf("no x-cfloor: %s", why)
		h.measure(h.up(nodeCmd()), nil)
		return
	}
	h.alternate(nodeCmd, floorCmd)
}

// BenchmarkJunkFlood is BenchmarkTeamOfSix while one loopback sender offers random
// datagrams of 16..600 bytes to the team and GameController ports, alternately, at
// 150,000/s (DNETWORK_FLOOD_RATE sets another rate; at most 2,000,000 in all). Extra metrics: junk/s offered, valid-lost (teammate
// packets sent during the measurement minus TeamInfo published; a few in flight at
// either end may count), gc-disconnected (GCInfo samples saying not connected) and the
// node's CPU time per datagram it received (cpu-µs/datagram). The kernel's drops of
// each socket show in /diagnostics (dropped_kernel).
func BenchmarkJunkFlood(b *testing.B) {
	h := newSixHarness(b, true)
	h.measure(h.up(nodeChildCmd(b, h.getenv, h.cfg)), nil)
}

// benchTeamOfSix runs the six-robot benchmark on a node process whose environment gets
// env too (benchChildFloor).
func benchTeamOfSix(b *testing.B, env ...string) {
	h := newSixHarness(b, false)
	h.measure(h.up(nodeChildCmd(b, h.getenv, h.cfg, env...)), nil)
}

// sixHarness is the world of the six-robot benchmarks around the process measured:
// the robot's other nodes, the behaviour node, five teammates and the GameController.
// Processes come and go (up, down); the traffic runs from the first one's start until
// the benchmark ends.
type sixHarness struct {
	b         *testing.B
	getenv    func(string) string
	cfg       node.Config
	junk      bool
	tester    *ros.Node
	mateSocks []*net.UDPConn
	outputs   []func() (int, error) // the process's writers the harness reads (TeamInfo, GCInfo)
	waits     []func() (int, error) // those and others the harness waits for (/diagnostics)
	inputs    []func() (int, error) // the harness's input writers: the process's readers matched

	ctx     context.Context
	wg      *sync.WaitGroup
	running bool

	teamInfos, gcInfos, gcDisconnected atomic.Uint64
	heard, mateSent, junkSent          atomic.Uint64
	sockMu                             sync.Mutex
	sockCounters                       map[string]uint64
}

func newSixHarness(b *testing.B, junk bool) *sixHarness {
	h := &sixHarness{b: b, getenv: testEnv(b, rosdomain.Take(b)), junk: junk, sockCounters: map[string]uint64{}}
	const mates = 5
	ports := freePorts(b, 2)
	h.mateSocks = make([]*net.UDPConn, mates)
	cfg := baseConfig(1)
	cfg.Team.Port, cfg.GameControllerPort = ports[0], ports[1]
	cfg.Team.AuthKey = []byte("bench-team-secret")
	cfg.GameController.PublishRate = 2
	cfg.Diagnostics.Period = time.Second
	for i := range h.mateSocks {
		h.mateSocks[i] = udpSocket(b, "127.0.0.1:0")
		cfg.Team.Peers = append(cfg.Team.Peers, netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), localPort(h.mateSocks[i])))
	}
	h.cfg = cfg

	// The robot's other nodes, and the behaviour node reading TeamInfo and GCInfo.
	h.tester = rosNode(b, h.getenv, "tester", &syncbuf.Buffer{})
	ti, err := ros.NewSubscription(h.tester, "/dnetwork_1/TeamInfo", ros.QoSDefault, func(*dmsgs.TeamInfo) { h.teamInfos.Add(1) })
	if err != nil {
		b.Fatal(err)
	}
	gi, err := ros.NewSubscription(h.tester, "/dnetwork_1/GCInfo", ros.QoSDefault, func(m *dmsgs.GCInfo) {
		h.gcInfos.Add(1)
		if !m.Connected {
			h.gcDisconnected.Add(1)
		}
	})
	if err != nil {
		b.Fatal(err)
	}
	h.outputs = []func() (int, error){ti.PublisherCount, gi.PublisherCount}
	h.waits = append(h.waits, h.outputs...)
	// The node's socket counters, from its /diagnostics (kernel drops, queue full).
	if junk {
		di, err := ros.NewSubscription(h.tester, "/diagnostics", ros.QoSDefault, func(a *dm.DiagnosticArray) {
			h.sockMu.Lock()
			defer h.sockMu.Unlock()
			for _, st := range a.Status {
				if !strings.Contains(st.Name, node.DiagSocketPrefix) {
					continue
				}
				for _, kv := range st.Values {
					if kv.Key == "dropped_kernel" || kv.Key == "dropped_queue_full" {
						v, _ := strconv.ParseUint(kv.Value, 10, 64)
						h.sockCounters[st.Name+" "+kv.Key] = v
					}
				}
			}
		})
		if err != nil {
			b.Fatal(err)
		}
		h.waits = append(h.waits, di.PublisherCount)
	}
	ctx, cancel := context.WithCancel(context.Background())
	h.ctx, h.wg = ctx, &sync.WaitGroup{}
	b.Cleanup(func() {
		cancel()
		for _, s := range h.mateSocks {
			s.Close()
		}
		h.wg.Wait()
	})
	return h
}

// up starts the process of cmd, waits until the harness and it have found each other
// and the traffic has run for 1.5 s with it (teammates online, budget known, rates
// settled), and returns it.
func (h *sixHarness) up(cmd *exec.Cmd) *benchChild {
	c := launchChild(h.b, cmd)
	for _, w := range h.waits {
		waitMatched(h.b, "process's endpoints", w)
	}
	if !h.running {
		h.running = true
		h.startTraffic()
	}
	for _, w := range h.inputs {
		waitMatched(h.b, "inputs", w)
	}
	time.Sleep(1500 * time.Millisecond)
	return c
}

// down stops the process and waits until the harness has seen it go.
func (h *sixHarness) down(c *benchChild) {
	c.stop()
	deadline := time.Now().Add(10 * time.Second)
	for _, w := range slices.Concat(h.outputs, h.inputs) {
		for {
			if n, err := w(); err == nil && n == 0 {
				break
			}
			if time.Now().After(deadline) {
				h.b.Fatal("the harness still matches the stopped process after 10 s")
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// startTraffic starts the robot's inputs, the teammates and the GameController.
func (h *sixHarness) startTraffic() {
	b, cfg, ctx, wg := h.b, h.cfg, h.ctx, h.wg
	h.inputs = fullRateInputs(ctx, b, wg, h.tester, 1)
	for _, s := range h.mateSocks {
		wg.Go(func() {
			buf := make([]byte, 1500)
			for {
				if _, _, err := s.ReadFromUDPAddrPort(buf); err != nil {
					return
				}
				h.heard.Add(1)
			}
		})
	}
	key, err := teaminfo.NewKey(cfg.Team.AuthKey)
	if err != nil {
		b.Fatal(err)
	}
	teamDst := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), cfg.Team.Port)
	for i, s := range h.mateSocks {
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
					h.mateSent.Add(1)
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
	gcDst := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), cfg.GameControllerPort)
	wg.Go(func() {
		tk := time.NewTicker(500 * time.Millisecond)
		defer tk.Stop()
		for {
			// Errors are expected while no process has the port.
			_, _ = gcSock.WriteToUDPAddrPort(gcBytes, gcDst)
			select {
			case <-ctx.Done():
				return
			case <-tk.C:
			}
		}
	})
}

func (h *sixHarness) sockTotal(key string) uint64 {
	h.sockMu.Lock()
	defer h.sockMu.Unlock()
	var n uint64
	for k, v := range h.sockCounters {
		if strings.HasSuffix(k, " "+key) {
			n += v
		}
	}
	return n
}

// window is what one measured stretch of a process saw.
type window struct {
	start, end                   childStats
	teamInfos, gcInfos, heard    uint64
	mateSent, gcDisconnected     uint64
	junkSent, kernelDrops, qFull uint64
}

func (w window) secs() float64      { return w.end.at.Sub(w.start.at).Seconds() }
func (w window) cpuMs() float64     { return float64(w.end.cpu-w.start.cpu) / 1e6 / w.secs() }
func (w window) wakesPerS() float64 { return float64(w.end.wakes-w.start.wakes) / w.secs() }

// play measures c for secs seconds, with the junk flood when the harness has one; the
// benchmark's timer runs meanwhile when timed.
func (h *sixHarness) play(c *benchChild, secs int, timed bool) window {
	var w window
	w.start = c.stats(true)
	ti0, gi0, h0, ms0, gd0 := h.teamInfos.Load(), h.gcInfos.Load(), h.heard.Load(), h.mateSent.Load(), h.gcDisconnected.Load()
	var kd0, qf0 uint64
	if h.junk {
		// The flood runs for this window: stopped before its socket closes.
		ctx, cancel := context.WithCancel(h.ctx)
		var flood sync.WaitGroup
		defer func() { cancel(); flood.Wait() }()
		junkSock := udpSocket(h.b, "127.0.0.1:0")
		teamDst := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), h.cfg.Team.Port)
		gcDst := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), h.cfg.GameControllerPort)
		flood.Go(func() { floodJunk(ctx, h.b, junkSock, floodRate(h.b), &h.junkSent, teamDst, gcDst) })
		kd0, qf0 = h.sockTotal("dropped_kernel"), h.sockTotal("dropped_queue_full")
	}
	j0 := h.junkSent.Load()
	if timed {
		h.b.StartTimer()
	}
	time.Sleep(time.Duration(secs) * time.Second)
	h.b.StopTimer()
	w.end = c.stats(false)
	w.teamInfos, w.gcInfos, w.heard = h.teamInfos.Load()-ti0, h.gcInfos.Load()-gi0, h.heard.Load()-h0
	w.mateSent, w.gcDisconnected = h.mateSent.Load()-ms0, h.gcDisconnected.Load()-gd0
	w.junkSent = h.junkSent.Load() - j0
	if h.junk {
		w.kernelDrops, w.qFull = h.sockTotal("dropped_kernel")-kd0, h.sockTotal("dropped_queue_full")-qf0
	}
	return w
}

// measure plays b.N seconds of c, reports them and, when threads is not nil, adds the
// window's threads to it.
func (h *sixHarness) measure(c *benchChild, threads *threadUse) {
	h.b.ResetTimer()
	h.b.StopTimer()
	w := h.play(c, h.b.N, true)
	if threads != nil {
		threads.add(w.start, w.end)
	}
	h.report([]window{w})
}

// report reports the figures of the process's windows, added up.
func (h *sixHarness) report(ws []window) {
	const mates = 5
	var sum window
	var secs float64
	var cpu time.Duration
	var mallocs, bytes, gcs, wakes, cgoCalls uint64
	for _, w := range ws {
		cgoCalls += w.end.cgoCalls - w.start.cgoCalls
		secs += w.secs()
		cpu += w.end.cpu - w.start.cpu
		mallocs += w.end.mallocs - w.start.mallocs
		bytes += w.end.bytes - w.start.bytes
		gcs += w.end.gcCount - w.start.gcCount
		wakes += w.end.wakes - w.start.wakes
		sum.teamInfos += w.teamInfos
		sum.gcInfos += w.gcInfos
		sum.heard += w.heard
		sum.mateSent += w.mateSent
		sum.gcDisconnected += w.gcDisconnected
		sum.junkSent += w.junkSent
		sum.kernelDrops += w.kernelDrops
		sum.qFull += w.qFull
	}
	b := h.b
	b.ReportMetric(float64(cpu)/1e6/secs, "cpu-ms/s")
	b.ReportMetric(float64(mallocs)/secs, "allocs/s")
	b.ReportMetric(float64(wakes)/secs, "wakes/s")
	b.ReportMetric(float64(bytes)/1024/secs, "KiB/s")
	if cgoCalls > 0 {
		b.ReportMetric(float64(cgoCalls)/secs, "cgo-calls/s")
	}
	b.ReportMetric(float64(gcs)/secs, "gc/s")
	b.ReportMetric(float64(sum.teamInfos)/secs, "TeamInfo/s")
	b.ReportMetric(float64(sum.gcInfos)/secs, "GCInfo/s")
	b.ReportMetric(float64(sum.heard)/mates/secs, "sent-per-mate/s")
	if h.junk {
		b.ReportMetric(float64(sum.junkSent)/secs, "junk/s")
		b.ReportMetric(float64(int64(sum.mateSent)-int64(sum.teamInfos)), "valid-lost")
		b.ReportMetric(float64(sum.gcDisconnected), "gc-disconnected")
		b.ReportMetric(float64(cpu)/1e3/float64(max(sum.junkSent+sum.mateSent, 1)), "cpu-µs/datagram")
		// Diagnostics come once a second: these cover about the measured seconds.
		b.ReportMetric(float64(sum.kernelDrops), "kernel-drops")
		b.ReportMetric(float64(sum.qFull), "queue-full")
	}
}

// alternate measures the node (nodeCmd) for b.N seconds in rounds, each followed by a
// round of the C floor (floorCmd) of the same length, and reports the node's figures
// and both ratios (see BenchmarkTeamOfSix).
func (h *sixHarness) alternate(nodeCmd, floorCmd func() *exec.Cmd) {
	b := h.b
	round := 2
	if v := os.Getenv("DNETWORK_CFLOOR_ROUND"); v != "" {
		var err error
		if round, err = strconv.Atoi(v); err != nil || round <= 0 {
			b.Fatalf("DNETWORK_CFLOOR_ROUND=%q: want a positive number of seconds", v)
		}
	}
	nodeThreads := &threadUse{goName: goThreadName(nodeCmd().Path)}
	floorThreads := &threadUse{}
	var nodeWs []window
	var xCPU, xWakes, floorCPU, floorWakes []float64
	b.ResetTimer()
	b.StopTimer()
	for left := b.N; left > 0; left -= round {
		secs := min(round, left)
		c := h.up(nodeCmd())
		nw := h.play(c, secs, true)
		h.down(c)
		f := h.up(floorCmd())
		// The floor's seconds are not the benchmark's: its timer runs for the node's only.
		fw := h.play(f, secs, false)
		h.down(f)
		nodeWs = append(nodeWs, nw)
		nodeThreads.add(nw.start, nw.end)
		floorThreads.add(fw.start, fw.end)
		xCPU = append(xCPU, nw.cpuMs()/fw.cpuMs())
		xWakes = append(xWakes, nw.wakesPerS()/fw.wakesPerS())
		floorCPU, floorWakes = append(floorCPU, fw.cpuMs()), append(floorWakes, fw.wakesPerS())
		fmt.Fprintf(os.Stderr, "%s: round %d: node %.2f ms/s %.1f wakes/s, C floor %.2f ms/s %.1f wakes/s: x-cfloor %.2f, wakes %.2f\n",
			b.Name(), len(xCPU), nw.cpuMs(), nw.wakesPerS(), fw.cpuMs(), fw.wakesPerS(), xCPU[len(xCPU)-1], xWakes[len(xWakes)-1])
	}
	h.report(nodeWs)
	b.ReportMetric(median(xCPU), "x-cfloor")
	b.ReportMetric(median(xWakes), "x-cfloor-wakes")
	b.ReportMetric(median(floorCPU), "cfloor-cpu-ms/s")
	b.ReportMetric(median(floorWakes), "cfloor-wakes/s")
	b.Logf("%d rounds of %d s: x-cfloor median %.2f (%.2f-%.2f), x-cfloor-wakes median %.2f (%.2f-%.2f)",
		len(xCPU), round, median(xCPU), slices.Min(xCPU), slices.Max(xCPU), median(xWakes), slices.Min(xWakes), slices.Max(xWakes))
	if os.Getenv("DNETWORK_BENCH_THREADS") == "1" {
		nodeThreads.log(b, "node")
		floorThreads.log(b, "C floor")
	}
}

func median(v []float64) float64 {
	s := slices.Sorted(slices.Values(v))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// goThreadName is the name Linux gives the threads of a process started from the
// executable path (comm: the file's name, at most 15 bytes).
func goThreadName(path string) string {
	name := path
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	if len(name) > 15 {
		name = name[:15]
	}
	return name
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

// fullRateInputs publishes MotionInfo, BehaviorInfo (ball handling) and VisionInfo (the
// ball 30 cm ahead, five obstacles, ten lines and ten field features) at 30 Hz until
// ctx is done, once each has a subscription, and returns their subscription counts.
func fullRateInputs(ctx context.Context, b testing.TB, wg *sync.WaitGroup, rn *ros.Node, id int) []func() (int, error) {
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
	counts := []func() (int, error){motion.SubscriptionCount, behavior.SubscriptionCount, vision.SubscriptionCount}
	for _, c := range counts {
		waitMatched(b, "inputs", c)
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
	return counts
}
