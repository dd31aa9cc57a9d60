//go:build cgo

package node_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node"
	dm "github.com/robocup-dnetwork/dnetwork/ros/interfaces/diagnostic_msgs"
)

const domainIdle = 65

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
// subscribers stops its GCInfo and diagnostics tickers (their timerfds are closed),
// starts each again when somebody subscribes (GCInfo then arrives at its rate,
// diagnostics too), stops it again when the subscriber goes, and counts GCInfo as
// published throughout, as a ticker that never stopped would.
func TestIdleNodeWakesForSubscriber(t *testing.T) {
	getenv := testEnv(t, domainIdle)
	cfg := baseConfig(4) // GCInfo at 10 Hz, diagnostics at 5 Hz
	start := time.Now()
	n := startNode(t, getenv, cfg)
	tester := rosNode(t, getenv, "tester", &syncbuf.Buffer{})
	time.Sleep(time.Second) // the first ticks found nobody
	idle := timerfds(t)

	infos := collect[dmsgs.GCInfo](t, tester, "/dnetwork_4/GCInfo")
	waitMatched(t, "GCInfo", infos.sub.PublisherCount)
	mark := infos.mark()
	time.Sleep(time.Second)
	if got := len(infos.since(mark)); got < 5 || got > 12 {
		t.Errorf("%d GCInfo in the second after subscribing, want about 10", got)
	}
	if got := timerfds(t); got != idle+1 {
		t.Errorf("%d timerfds with GCInfo subscribed, %d idle: want one more", got, idle)
	}
	arrays := collect[dm.DiagnosticArray](t, tester, "/diagnostics")
	waitMatched(t, "diagnostics", arrays.sub.PublisherCount)
	arrays.wait(t, 0, 5*time.Second, "diagnostics after subscribing", func(*dm.DiagnosticArray) bool { return true })

	if err := infos.sub.Close(); err != nil {
		t.Fatal(err)
	}
	if err := arrays.sub.Close(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for timerfds(t) != idle {
		if time.Now().After(deadline) {
			t.Fatalf("%d timerfds 5 s after the subscribers went, %d when idle before", timerfds(t), idle)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// Counted as published at 10 Hz since the node started (within a few ticks of
	// start-up), subscribed or not.
	got := gcinfoPublished(t, n)
	want := time.Since(start).Seconds() * cfg.GameController.PublishRate
	if float64(got) > want+1 || float64(got) < want-15 {
		t.Errorf("gcinfo_published %d after %.1f s at %g Hz", got, time.Since(start).Seconds(), cfg.GameController.PublishRate)
	}
}
