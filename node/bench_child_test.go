//go:build cgo

package node_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/node"
)

// childStats is one "stats" line of a benchmark's child process, with its threads as
// /proc shows them right after the line.
type childStats struct {
	at                      time.Time
	cpu                     time.Duration
	mallocs, bytes, gcCount uint64
	wakes                   uint64 // voluntary context switches of all its threads
	goroutines, heapInuse   uint64 // 0 from a child that does not tell (the C floor)
	cgoCalls                uint64 // runtime.NumCgoCall; 0 from a child that does not tell
	threads                 map[int]threadStat
}

// threadStat is one thread of a child process.
type threadStat struct {
	name  string        // comm
	run   time.Duration // time on a CPU (schedstat)
	wakes uint64        // voluntary context switches
}

// benchChild is a process a benchmark measures: a node (TestBenchNodeChild), one of its
// floors, or the C floor (testdata/cfloor). It prints "ready" once it runs and a
// "stats" line for every SIGUSR1 or SIGUSR2 (see TestBenchNodeChild); SIGTERM ends it.
type benchChild struct {
	b     *testing.B
	cmd   *exec.Cmd
	lines chan string
	done  bool
}

// launchChild starts cmd and waits for its "ready" line.
func launchChild(b *testing.B, cmd *exec.Cmd) *benchChild {
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	c := &benchChild{b: b, cmd: cmd, lines: make(chan string, 16)}
	b.Cleanup(c.stop)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	c.next("ready")
	return c
}

func (c *benchChild) next(prefix string) string {
	for {
		select {
		case l, ok := <-c.lines:
			if !ok {
				c.b.Fatalf("%s: process ended", filepath.Base(c.cmd.Path))
			}
			if strings.HasPrefix(l, prefix) {
				return l
			}
		case <-time.After(10 * time.Second):
			c.b.Fatalf("%s: no %q line", filepath.Base(c.cmd.Path), prefix)
		}
	}
}

// stats asks the process for its counters at the start (begin) or the end of a
// measured window: SIGUSR2 or SIGUSR1, so that a Go child keeps its own bookkeeping
// out of the window (TestBenchNodeChild).
func (c *benchChild) stats(begin bool) childStats {
	sig := syscall.SIGUSR1
	if begin {
		sig = syscall.SIGUSR2
	}
	if err := c.cmd.Process.Signal(sig); err != nil {
		c.b.Fatal(err)
	}
	f := strings.Fields(c.next("stats "))
	if len(f) < 6 {
		c.b.Fatalf("%s: stats line %q: want at least 5 numbers", filepath.Base(c.cmd.Path), strings.Join(f, " "))
	}
	// Five numbers from every child; goroutines, heap and cgo calls from a node of this commit.
	var v [8]uint64
	for i := range min(len(v), len(f)-1) {
		var err error
		if v[i], err = strconv.ParseUint(f[i+1], 10, 64); err != nil {
			c.b.Fatal(err)
		}
	}
	return childStats{at: time.Now(), cpu: time.Duration(v[0]), mallocs: v[1], bytes: v[2], gcCount: v[3], wakes: v[4],
		goroutines: v[5], heapInuse: v[6], cgoCalls: v[7], threads: readThreads(c.cmd.Process.Pid)}
}

// stop ends the process (SIGTERM) and waits for it.
func (c *benchChild) stop() {
	if c.done {
		return
	}
	c.done = true
	_ = c.cmd.Process.Signal(syscall.SIGTERM)
	_ = c.cmd.Wait()
}

// nodeChildCmd is the command of a node process with cfg (TestBenchNodeChild); env is
// added to its environment (benchChildFloor). The process is this test binary, or the
// one DNETWORK_BENCH_NODE_BIN names (a node test binary of another commit, to compare
// two builds in the same harness).
func nodeChildCmd(b *testing.B, getenv func(string) string, cfg node.Config, env ...string) *exec.Cmd {
	text, err := json.Marshal(cfg)
	if err != nil {
		b.Fatal(err)
	}
	bin := os.Args[0]
	if v := os.Getenv("DNETWORK_BENCH_NODE_BIN"); v != "" {
		bin = v
	}
	cmd := exec.Command(bin, "-test.run=^TestBenchNodeChild$")
	cmd.Env = append(os.Environ(), benchChildEnv+"="+string(text),
		"CYCLONEDDS_URI="+getenv("CYCLONEDDS_URI"), "ROS_DOMAIN_ID="+getenv("ROS_DOMAIN_ID"),
		"ROS_LOCALHOST_ONLY=", "ROS_AUTOMATIC_DISCOVERY_RANGE=", "ROS_STATIC_PEERS=")
	cmd.Env = append(cmd.Env, env...)
	return cmd
}

// startBenchChild starts a node process with cfg (see TestBenchNodeChild), stops it
// when the benchmark ends and returns a function reading its counters.
func startBenchChild(b *testing.B, getenv func(string) string, cfg node.Config, env ...string) func(begin bool) childStats {
	return launchChild(b, nodeChildCmd(b, getenv, cfg, env...)).stats
}

// readThreads returns the threads of process pid: CPU time from schedstat, voluntary
// context switches from status. A thread that ends meanwhile is left out.
func readThreads(pid int) map[int]threadStat {
	dir := fmt.Sprintf("/proc/%d/task", pid)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	m := make(map[int]threadStat, len(ents))
	for _, e := range ents {
		tid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		p := filepath.Join(dir, e.Name())
		comm, err1 := os.ReadFile(filepath.Join(p, "comm"))
		sched, err2 := os.ReadFile(filepath.Join(p, "schedstat"))
		status, err3 := os.ReadFile(filepath.Join(p, "status"))
		if err1 != nil || err2 != nil || err3 != nil {
			continue
		}
		var st threadStat
		st.name = strings.TrimSpace(string(comm))
		if f := strings.Fields(string(sched)); len(f) > 0 {
			ns, _ := strconv.ParseInt(f[0], 10, 64)
			st.run = time.Duration(ns)
		}
		for l := range strings.Lines(string(status)) {
			if v, ok := strings.CutPrefix(l, "voluntary_ctxt_switches:"); ok {
				st.wakes, _ = strconv.ParseUint(strings.TrimSpace(v), 10, 64)
			}
		}
		m[tid] = st
	}
	return m
}

// threadUse adds up the per-thread CPU time and wake-ups of a child's measured windows
// by role: a thread's name and its rank among the threads of that name, by thread id
// (the order they were created in). Go names every thread of its process after the
// executable: the first is the main thread and the second the runtime's monitor thread
// (sysmon, started before anything else), the rest run goroutines and cgo calls.
type threadUse struct {
	goName string // comm of a Go process's threads; "" for the C floor
	secs   float64
	roles  map[string]*[2]float64 // CPU seconds, wake-ups
	order  []string
}

func (u *threadUse) add(start, end childStats) {
	if u.roles == nil {
		u.roles = map[string]*[2]float64{}
	}
	u.secs += end.at.Sub(start.at).Seconds()
	tids := make([]int, 0, len(end.threads))
	for tid := range end.threads {
		tids = append(tids, tid)
	}
	slices.Sort(tids)
	rank := map[string]int{}
	for _, tid := range tids {
		e := end.threads[tid]
		s := start.threads[tid] // zero for a thread that started within the window
		role := u.role(e.name, rank[e.name])
		rank[e.name]++
		r := u.roles[role]
		if r == nil {
			r = new([2]float64)
			u.roles[role] = r
			u.order = append(u.order, role)
		}
		r[0] += (e.run - s.run).Seconds()
		r[1] += float64(e.wakes - s.wakes)
	}
}

func (u *threadUse) role(name string, rank int) string {
	if name != u.goName {
		return fmt.Sprintf("%s#%d", name, rank)
	}
	switch rank {
	case 0:
		return "go:main"
	case 1:
		return "go:sysmon"
	}
	return fmt.Sprintf("go:M%d", rank)
}

// log writes one line per role to stderr (a benchmark's log keeps only its first
// lines): ms CPU and wake-ups per second of the windows.
func (u *threadUse) log(b *testing.B, what string) {
	if u.secs == 0 {
		return
	}
	var sb strings.Builder
	var cpu, wakes float64
	for _, role := range u.order {
		r := u.roles[role]
		cpu, wakes = cpu+r[0], wakes+r[1]
		fmt.Fprintf(&sb, "\n  %-14s %7.2f ms/s %7.1f wakes/s", role, r[0]*1e3/u.secs, r[1]/u.secs)
	}
	fmt.Fprintf(os.Stderr, "%s: %s: threads over %.0f s (schedstat, voluntary switches): %.2f ms/s, %.1f wakes/s in all%s\n",
		b.Name(), what, u.secs, cpu*1e3/u.secs, wakes/u.secs, sb.String())
}

// playSeconds lets the node run one second per iteration from start, reports its CPU
// time (cpu-ms/s), allocations (allocs/s) and thread wake-ups (wakes/s: voluntary
// context switches of all its threads) per second and returns the end counters
// and the seconds measured.
func playSeconds(b *testing.B, stats func(begin bool) childStats, start childStats) (childStats, float64) {
	b.ResetTimer()
	for range b.N {
		time.Sleep(time.Second)
	}
	b.StopTimer()
	end := stats(false)
	secs := end.at.Sub(start.at).Seconds()
	b.ReportMetric(float64(end.cpu-start.cpu)/1e6/secs, "cpu-ms/s")
	b.ReportMetric(float64(end.mallocs-start.mallocs)/secs, "allocs/s")
	b.ReportMetric(float64(end.wakes-start.wakes)/secs, "wakes/s")
	if end.cgoCalls > 0 {
		b.ReportMetric(float64(end.cgoCalls-start.cgoCalls)/secs, "cgo-calls/s")
	}
	return end, secs
}
