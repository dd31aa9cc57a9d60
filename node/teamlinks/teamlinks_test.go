package teamlinks

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock/offset"
	"github.com/robocup-dnetwork/dnetwork/node/team"
	"github.com/robocup-dnetwork/dnetwork/proto/linkq"
)

func TestMessage(t *testing.T) {
	now := time.Unix(1_700_000_000, 500)
	good := team.MateLink{Player: 1, Quality: linkq.Quality{
		Window: 10 * time.Second, Received: 290, Expected: 300, Lost: 10, Loss: 10.0 / 300,
		Duplicates: 1, Reordered: 2, TotalDuplicates: 5, TotalReordered: 7,
		DelayKnown: true, Delay: 21 * time.Millisecond, DelayBound: 2 * time.Millisecond,
		JitterKnown: true, Jitter: 6 * time.Millisecond, Age: 30 * time.Millisecond, HasPacket: true, Rate: 29,
	}, Clock: team.MateClock{Estimate: offset.Estimate{Known: true, Offset: 3250 * time.Millisecond, Bound: time.Millisecond, Rejected: 3, Jumps: 1}}}
	zju := team.MateLink{Player: 4, Quality: linkq.Quality{Window: 10 * time.Second, Received: 5, Loss: math.NaN(), HasPacket: true, Age: 4 * time.Second}}
	lossy := team.MateLink{Player: 5, Quality: linkq.Quality{Window: 10 * time.Second, Received: 60, Expected: 100, Lost: 40, Loss: 0.4, HasPacket: true}}
	m := Message(team.Status{Player: 2, Time: now, LinkWindow: 10 * time.Second, Links: []team.MateLink{good, zju, lossy}})
	if m.PlayerNumber != 2 || m.Window != 10 || len(m.Links) != 3 || m.Stamp.Sec != 1_700_000_000 || m.Stamp.Nanosec != 500 {
		t.Fatalf("%+v", m)
	}
	g := m.Links[0]
	if g.PlayerNumber != 1 || g.Received != 290 || g.Expected != 300 || g.Lost != 10 || math.Abs(float64(g.Loss)-1.0/30) > 1e-6 ||
		g.Delay != 0.021 || g.DelayBound != 0.002 || g.Jitter != 0.006 || g.Age != 0.03 || g.Rate != 29 ||
		g.Duplicates != 1 || g.Reordered != 2 || g.TotalDuplicates != 5 || g.TotalReordered != 7 ||
		!g.ClockOffsetKnown || g.ClockOffset.Sec != 3 || g.ClockOffset.Nanosec != 250e6 || g.ClockRejected != 3 || g.ClockJumps != 1 {
		t.Fatalf("good link %+v", g)
	}
	z := m.Links[1]
	if !math.IsNaN(float64(z.Loss)) || !math.IsNaN(z.Delay) || !math.IsNaN(z.DelayBound) || !math.IsNaN(z.Jitter) || z.ClockOffsetKnown || z.Age != 4 {
		t.Fatalf("zju link %+v", z)
	}
	if s := Text(good); s != "loss 3.3 % (10 of 300), delay 21.0 ms ± 2.0 ms, jitter 6.0 ms, 1 duplicates, 2 reordered, last 0.03 s ago, clock: 3 samples rejected, 1 jumps" {
		t.Errorf("text %q", s)
	}
	if s := Text(zju); !strings.HasPrefix(s, "5 packets, loss unknown, delay unknown") {
		t.Errorf("text %q", s)
	}
	w := Warnings([]team.MateLink{good, zju, lossy})
	if len(w) != 2 || w[0] != "robot 4: silent for 4 s" || w[1] != "robot 5: 40 % lost" {
		t.Errorf("warnings %q", w)
	}
}
