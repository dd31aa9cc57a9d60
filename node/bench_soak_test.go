//go:build cgo

package node_test

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// soakGrowth is how far above its first-minute value a figure may end: 5 %.
const soakGrowth = 1.05

// BenchmarkTeamOfSixSoak runs the traffic of BenchmarkTeamOfSix against one node process
// for DNETWORK_SOAK (a duration, 20m by default, at least 2m) and checks that nothing
// leaks: the process's resident memory (VmRSS), open file descriptors and goroutines at
// the end may be at most 5 % above their values after the first minute. It samples them
// once a minute, with the Go heap in use, the CPU time and the TeamInfo rate of the
// minute, writes each sample to stderr as it comes and the table to the log, and reports
// the first-minute and end values and their ratios (x-rss, x-fds, x-goroutines) besides
// BenchmarkTeamOfSix's figures over the whole soak.
//
// The resident memory checked is what the process keeps: at each sample the child
// collects its garbage and returns the free pages (benchChildFreeOS) before it is read.
// Otherwise the garbage of the minutes before the node's first collection counts: at
// about 4 KiB/s of allocations the node did not collect once in 20 minutes, and the raw
// VmRSS grew with its heap by 6.9 % (rss-raw-KiB, x-rss-raw: logged, not checked). Its length is DNETWORK_SOAK, not b.N
// (one run). It runs only when -test.bench names it: `make bench` (-bench .) leaves it out.
func BenchmarkTeamOfSixSoak(b *testing.B) {
	if f := flag.Lookup("test.bench"); f == nil || !strings.Contains(f.Value.String(), "Soak") {
		b.Skip("a soak of minutes: runs only when -test.bench names it (BenchmarkTeamOfSixSoak)")
	}
	soak := 20 * time.Minute
	if v := os.Getenv("DNETWORK_SOAK"); v != "" {
		var err error
		if soak, err = time.ParseDuration(v); err != nil || soak < 2*time.Minute {
			b.Fatalf("DNETWORK_SOAK=%q: want a duration of at least 2m", v)
		}
	}
	const every = time.Minute
	h := newSixHarness(b, false)
	c := h.up(nodeChildCmd(b, h.getenv, h.cfg, benchChildFreeOS+"=1"))
	pid := c.cmd.Process.Pid

	b.ResetTimer()
	start := c.stats(true)
	ti0, gi0, h0 := h.teamInfos.Load(), h.gcInfos.Load(), h.heard.Load()
	samples := []soakSample{takeSoakSample(b, pid, vmRSS(b, pid), start, start, start, 0)}
	fmt.Fprintf(os.Stderr, "%s: %s\n%s: %s\n", b.Name(), soakHeader, b.Name(), samples[0])
	prev, prevTI := start, ti0
	for at := every; at < soak+every; at += every {
		at = min(at, soak)
		time.Sleep(time.Until(start.at.Add(at)))
		raw := vmRSS(b, pid)
		st := c.stats(false)
		s := takeSoakSample(b, pid, raw, start, prev, st, h.teamInfos.Load()-prevTI)
		prev, prevTI = st, h.teamInfos.Load()
		samples = append(samples, s)
		fmt.Fprintf(os.Stderr, "%s: %s\n", b.Name(), s)
	}
	b.StopTimer()
	h.report([]window{{start: start, end: prev,
		teamInfos: h.teamInfos.Load() - ti0, gcInfos: h.gcInfos.Load() - gi0, heard: h.heard.Load() - h0}})

	var sb strings.Builder
	for _, s := range samples {
		fmt.Fprintf(&sb, "\n%s", s)
	}
	b.Logf("%s, pid %d, every %s:\n%s%s", soak, pid, every, soakHeader, sb.String())
	first, end := samples[1], samples[len(samples)-1]
	b.ReportMetric(float64(end.rawKiB)/float64(first.rawKiB), "x-rss-raw")
	for _, f := range []struct {
		name        string
		first, end  uint64
		unit, ratio string
	}{
		{"resident memory", first.rssKiB, end.rssKiB, "rss-KiB", "x-rss"},
		{"open file descriptors", first.fds, end.fds, "fds", "x-fds"},
		{"goroutines", first.goroutines, end.goroutines, "goroutines", "x-goroutines"},
	} {
		x := float64(f.end) / float64(max(f.first, 1))
		b.ReportMetric(float64(f.first), "first-"+f.unit)
		b.ReportMetric(float64(f.end), "end-"+f.unit)
		b.ReportMetric(x, f.ratio)
		if x > soakGrowth {
			b.Errorf("%s grew %.1f %% from the first minute to the end (%s): %d → %d",
				f.name, (x-1)*100, soak, f.first, f.end)
		}
	}
}

// soakSample is what BenchmarkTeamOfSixSoak takes of the node's process once a minute.
type soakSample struct {
	elapsed                 time.Duration // since the soak's start
	rawKiB                  uint64        // VmRSS before the child collected its garbage
	rssKiB, fds, goroutines uint64        // after
	heapKiB                 uint64        // the Go heap in use, after
	cpuMs, teamInfos        float64       // per second since the last sample
}

const soakHeader = "   time  rss-raw-KiB  rss-KiB  fds  goroutines  heap-KiB  cpu-ms/s  TeamInfo/s"

func (s soakSample) String() string {
	return fmt.Sprintf("%7s  %11d  %7d  %3d  %10d  %8d  %8.2f  %10.1f",
		s.elapsed.Round(time.Second), s.rawKiB, s.rssKiB, s.fds, s.goroutines, s.heapKiB, s.cpuMs, s.teamInfos)
}

// takeSoakSample reads process pid's resident memory and open file descriptors from
// /proc, to go with st, its stats line, and raw, its resident memory before the line;
// start is the soak's first stats line, prev the one before st and teamInfos the
// TeamInfo messages the harness read since.
func takeSoakSample(b *testing.B, pid int, raw uint64, start, prev, st childStats, teamInfos uint64) soakSample {
	s := soakSample{rawKiB: raw, rssKiB: vmRSS(b, pid), goroutines: st.goroutines, heapKiB: st.heapInuse / 1024}
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		b.Fatal(err)
	}
	s.fds = uint64(len(fds))
	if secs := st.at.Sub(prev.at).Seconds(); secs > 0 {
		s.cpuMs = float64(st.cpu-prev.cpu) / 1e6 / secs
		s.teamInfos = float64(teamInfos) / secs
	}
	s.elapsed = st.at.Sub(start.at)
	return s
}

// vmRSS is process pid's resident memory in KiB (VmRSS).
func vmRSS(b *testing.B, pid int) uint64 {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for l := range strings.Lines(string(status)) {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kib, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				b.Fatalf("VmRSS of %d: %q: %v", pid, v, err)
			}
			return kib
		}
	}
	b.Fatalf("/proc/%d/status: no VmRSS", pid)
	return 0
}
