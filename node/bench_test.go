//go:build cgo

package node_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/netip"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"slices"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/internal/procs"
	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/ros"
	dm "github.com/robocup-dnetwork/dnetwork/ros/interfaces/diagnostic_msgs"
)

// BenchmarkGCInfoLatency measures the time from a GameController datagram leaving the
// GameController's socket (on loopback: arriving at the node's socket a few
// microseconds later) to the GCInfo sample it causes arriving at a DDS subscriber in
// the same process. Every datagram changes the game state, one ordinary step of a game
// (initial, ready, set, playing, finished, initial, ...: steps the GameController
// component accepts without waiting for a confirming packet), so the component
// publishes at once (publish_on_change); the periodic publication is slowed to 0.1 Hz
// to stay out of the way. ns/op is the mean; p50 and p99 are reported too.
func BenchmarkGCInfoLatency(b *testing.B) {
	getenv := testEnv(b, rosdomain.Take(b))
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
	states := []gcproto.State{gcproto.StateInitial, gcproto.StateReady, gcproto.StateSet, gcproto.StatePlaying, gcproto.StateFinished}
	packets := make([][]byte, len(states))
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
	// Warm up: connect, then one game's changes.
	for i := range states {
		timeout.Reset(5 * time.Second)
		if _, err := gc.WriteToUDPAddrPort(packets[i], dst); err != nil {
			b.Fatal(err)
		}
		wait(states[i])
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		k := i % len(states)
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

// benchChildFreeOS set to 1 makes the child collect its garbage and return the free
// memory to the system (debug.FreeOSMemory) at every SIGUSR1 before it reads its memory
// statistics, so that its resident memory is what it keeps (BenchmarkTeamOfSixSoak).
const benchChildFreeOS = "DNETWORK_BENCH_CHILD_FREE_OS_MEMORY"

// TestBenchNodeChild is not a test of its own: started by BenchmarkTeamOfSix in a child
// process, it runs one node until SIGTERM and answers every SIGUSR1 (a measurement's
// end) and SIGUSR2 (its start) with a line
// "stats <cpu ns> <mallocs> <alloc bytes> <gc cycles> <voluntary context switches>
// <goroutines> <heap bytes in use> <cgo calls>" on stdout, so the benchmark can measure the node's
// process alone (its DDS threads included).
//
// The allocation counters come from runtime.ReadMemStats, which stops the world and
// flushes every processor's allocation cache: on this VM a few milliseconds, cold,
// that are the benchmark's, not the node's. So the CPU time is read after them at a
// start and before them at an end, and no measured window contains one.
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
	freeOS := os.Getenv(benchChildFreeOS) == "1"
	usr := make(chan os.Signal, 1)
	signal.Notify(usr, syscall.SIGUSR1, syscall.SIGUSR2)
	go func() {
		for sig := range usr {
			var ru syscall.Rusage
			var ms runtime.MemStats
			if sig == syscall.SIGUSR2 { // a start: the memory statistics before the CPU time
				runtime.ReadMemStats(&ms)
				_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
			} else {
				_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
				if freeOS { // its CPU time is the next window's
					debug.FreeOSMemory()
				}
				runtime.ReadMemStats(&ms)
			}
			cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
			fmt.Printf("stats %d %d %d %d %d %d %d %d\n", cpu, ms.Mallocs, ms.TotalAlloc, ms.NumGC, ru.Nvcsw,
				runtime.NumGoroutine(), ms.HeapInuse, runtime.NumCgoCall())
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
			playSeconds(b, stats, stats(true))
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
	_, secs := playSeconds(b, stats, stats(true))
	if watched {
		b.ReportMetric(float64(gcInfos.Load()-g0)/secs, "GCInfo/s")
		b.ReportMetric(float64(arrays.Load()-a0)/secs, "diagnostics/s")
	}
}
