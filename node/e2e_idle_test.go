//go:build cgo

package node_test

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node"
	dm "github.com/robocup-dnetwork/dnetwork/ros/interfaces/diagnostic_msgs"
)

// timerfds counts the process's timerfds: every wall ticker and timer holds one.
func timerfds(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	n := 0
	for _, e := range ents {
		if l, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name())); err == nil && l == "anon_inode:[timerfd]" {
			n++
		}
	}
	return n
}

// tickers counts the process's running wall tickers by period: the timerfds with an
// interval (a timer's has none).
func tickers(t *testing.T) map[time.Duration]int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	m := map[time.Duration]int{}
	for _, e := range ents {
		if l, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name())); err != nil || l != "anon_inode:[timerfd]" {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc/self/fdinfo", e.Name()))
		if err != nil {
			continue // closed meanwhile
		}
		for _, line := range strings.Split(string(b), "\n") {
			var sec, nsec int64
			if _, err := fmt.Sscanf(line, "it_interval: (%d, %d)", &sec, &nsec); err == nil && sec+nsec != 0 {
				m[time.Duration(sec)*time.Second+time.Duration(nsec)]++
			}
		}
	}
	return m
}

// waitTimerfds waits until the process has one of the counts of timerfds in want, and
// returns it.
func waitTimerfds(t *testing.T, what string, want ...int) int {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		got := timerfds(t)
		if slices.Contains(want, got) {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d timerfds, want %v", what, got, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitTickers waits until the running wall tickers by period are want.
func waitTickers(t *testing.T, what string, want map[time.Duration]int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for got := tickers(t); !maps.Equal(got, want); got = tickers(t) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: running tickers by period %v, want %v", what, got, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// gcinfoPublished reads gcinfo_published from the node's diagnostics.
func gcinfoPublished(t *testing.T, n *node.Node) uint64 {
	t.Helper()
	a := n.Diagnostics()
	for _, st := range a.Status {
		if !strings.HasSuffix(st.Name, node.DiagGameController) {
			continue
		}
		for _, kv := range st.Values {
			if kv.Key == "gcinfo_published" {
				v, err := strconv.ParseUint(kv.Value, 10, 64)
				if err != nil {
					t.Fatal(err)
				}
				return v
			}
		}
	}
	t.Fatal("no gcinfo_published in the diagnostics")
	return 0
}

// TestIdleNodeWakesForSubscriber: a node without a GameController and without
// subscribers stops its GCInfo and diagnostics tickers (their timerfds are closed; an
// idle node runs no ticker at all), starts each again when somebody subscribes (GCInfo
// then arrives at its rate, diagnostics too), stops it again when the subscriber goes,
// and counts GCInfo as published throughout, as a ticker that never stopped would. The
// tickers are read from the timerfds (/proc/self/fd) and their intervals
// (/proc/self/fdinfo): GCInfo's is a one-shot timer (idletick.NewEarly), the
// diagnostics' a ticker.
//
// The counts are the process's, so the test first waits until an earlier test's timers
// are closed (a stopped timer's descriptor closes when its goroutine next runs, which a
// busy machine delays); only the DDS send queue's timer, which lives as long as the
// process, may stay. Every count after that is exact: the node's idle state holds one
// timer (the team's send timer), and the send queue's timer exists from the first
// GCInfo on at the latest.
func TestIdleNodeWakesForSubscriber(t *testing.T) {
	before := waitTimerfds(t, "before the node starts (an earlier test's timers still open?)", 0, 1)
	getenv := testEnv(t, rosdomain.Take(t))
	cfg := baseConfig(4) // GCInfo at 10 Hz, diagnostics at 5 Hz
	start := time.Now()
	n := startNode(t, getenv, cfg)
	tester := rosNode(t, getenv, "tester", &syncbuf.Buffer{})
	// The first GCInfo tick (counted, though nobody listens) comes after every timer of
	// start-up is made and armed: before, a ticker's timerfd may exist without its
	// interval yet.
	for deadline := time.Now().Add(5 * time.Second); gcinfoPublished(t, n) == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no GCInfo tick counted within 5 s")
		}
	}
	waitTickers(t, "the first ticks found nobody", map[time.Duration]int{})
	waitTimerfds(t, "idle (the team's send timer, and the send queue's if it started)", before+1)

	infos := collect[dmsgs.GCInfo](t, tester, "/dnetwork_4/GCInfo")
	waitMatched(t, "GCInfo", infos.sub.PublisherCount)
	mark := infos.mark()
	deadline := time.Now().Add(5 * time.Second)
	for len(infos.since(mark)) < 5 {
		if time.Now().After(deadline) {
			t.Fatalf("%d GCInfo within 5 s after subscribing, want 5", len(infos.since(mark)))
		}
		time.Sleep(10 * time.Millisecond)
	}
	// GCInfo's ticker is a one-shot timer (idletick.NewEarly), armed again at every
	// tick. Its first publication started the DDS send queue unless an earlier test of
	// this process did; from here on the queue's timer is there in any case.
	idle := 2 // the team's send timer and the send queue's
	waitTimerfds(t, "GCInfo subscribed (the team's, GCInfo's and the send queue's)", idle+1)
	if got := tickers(t); len(got) != 0 {
		t.Errorf("running tickers %v with GCInfo subscribed, want none (its ticks come on a timer)", got)
	}
	arrays := collect[dm.DiagnosticArray](t, tester, "/diagnostics")
	waitMatched(t, "diagnostics", arrays.sub.PublisherCount)
	arrays.wait(t, 0, 5*time.Second, "diagnostics after subscribing", func(*dm.DiagnosticArray) bool { return true })
	waitTickers(t, "diagnostics subscribed too", map[time.Duration]int{cfg.Diagnostics.Period: 1})
	waitTimerfds(t, "diagnostics subscribed too", idle+2)

	if err := infos.sub.Close(); err != nil {
		t.Fatal(err)
	}
	if err := arrays.sub.Close(); err != nil {
		t.Fatal(err)
	}
	waitTimerfds(t, "the subscribers went (idle again: the team's timer and the send queue's)", idle)
	// Counted as published at 10 Hz since the node started (within a few ticks of
	// start-up), subscribed or not.
	got := gcinfoPublished(t, n)
	want := time.Since(start).Seconds() * cfg.GameController.PublishRate
	if float64(got) > want+1 || float64(got) < want-15 {
		t.Errorf("gcinfo_published %d after %.1f s at %g Hz", got, time.Since(start).Seconds(), cfg.GameController.PublishRate)
	}
}
