package monitor

import (
	"encoding/json"
	"math"
	"net/netip"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
)

// Two robots of team 5 answer each other's packets; robot 3's clock is 2.5 s ahead of
// robot 1's (the monitor's own clock is unrelated). The monitor, hearing both, shows
// robot 3's clock against robot 1's within the bound it states.
func TestClockOffsetsPairwise(t *testing.T) {
	m, clk := newTest(t, Config{})
	const truth = 2500 * time.Millisecond
	base := 1_700_000_000 * time.Second // robot 1's clock at true time 0
	src1 := netip.MustParseAddrPort("10.0.5.10:40001")
	src3 := netip.MustParseAddrPort("10.0.5.12:40001")
	const d13, d31 = 2 * time.Millisecond, 700 * time.Microsecond // robot-to-robot delays
	var last1, last3 time.Duration                                // latest stamps heard (sender clocks)
	var recv1, recv3 time.Duration                                // when each heard the other (own clock)
	send := func(player uint8, at time.Duration, echo teaminfo.Echo) {
		s := mate{team: 5, player: player}.state()
		s.Seq = uint32(at / time.Millisecond)
		s.Stamp = base + at
		if player == 3 {
			s.Stamp += truth
		}
		s.Echo = echo
		b, err := teaminfo.AppendDNet(nil, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		src := src1
		if player == 3 {
			src = src3
		}
		clk.Set(t0.Add(at + time.Millisecond)) // the monitor hears it 1 ms later
		if !m.Observe(team5, dg(b, src, clk.Now())) {
			t.Fatalf("packet of robot %d at %v rejected", player, at)
		}
		stamp := s.Stamp.Truncate(time.Millisecond)
		if player == 1 {
			last1, recv3 = stamp, base+truth+at+d13
		} else {
			last3, recv1 = stamp, base+at+d31
		}
	}
	echoOf := func(stamp, recv, now time.Duration, player uint8) teaminfo.Echo {
		if stamp == 0 {
			return teaminfo.Echo{}
		}
		return teaminfo.Echo{Player: player, StampMs: uint32(stamp / time.Millisecond),
			Hold: now.Truncate(time.Millisecond) - recv.Truncate(time.Millisecond)}
	}
	for i := range 20 {
		at := time.Duration(i) * 100 * time.Millisecond
		send(1, at, echoOf(last3, recv1, base+at, 3))
		at += 37 * time.Millisecond
		send(3, at, echoOf(last1, recv3, base+truth+at, 1))
	}
	s := m.State()
	r1, r3 := findRobot(s, 5, 1), findRobot(s, 5, 3)
	if r1 == nil || r3 == nil {
		t.Fatalf("robots %+v", s.Robots)
	}
	if r1.Clock != nil {
		t.Errorf("the reference robot has a clock view: %+v", r1.Clock)
	}
	if r3.Echo == nil || r3.Echo.Player != 1 || r3.Echo.HoldMs != 35 { // heard 2 ms after robot 1 sent, answered 37 ms after
		t.Errorf("echo of robot 3: %+v", r3.Echo)
	}
	c := r3.Clock
	if c == nil || c.Ref != 1 {
		t.Fatalf("clock of robot 3: %+v", c)
	}
	if e := math.Abs(c.OffsetMs - truth.Seconds()*1000); e > c.BoundMs || c.BoundMs > 3 {
		t.Errorf("robot 3 vs robot 1: %.1f ± %.1f ms, truth %v", c.OffsetMs, c.BoundMs, truth)
	}
	t.Logf("robot 3 vs robot 1: %+.1f ± %.1f ms", c.OffsetMs, c.BoundMs)
}

func TestUnwrapMs(t *testing.T) {
	for _, tc := range []struct {
		latest time.Duration
		back   time.Duration
	}{{1700000000123 * time.Millisecond, 0}, {1700000000123 * time.Millisecond, 5 * time.Second},
		{(1<<32 + 10) * time.Millisecond, 20 * time.Millisecond}, {5 * time.Millisecond, 0}} {
		want := tc.latest - tc.back
		if got := unwrapMs(tc.latest, uint32(want/time.Millisecond)); got != want {
			t.Errorf("unwrapMs(%v, low of %v) = %v", tc.latest, want, got)
		}
	}
}

// FuzzEchoes feeds any datagram to a monitor that knows robots 5/1 and 5/3, each having
// answered the other: no panic, and a clock view, when shown, has a non-negative bound.
func FuzzEchoes(f *testing.F) {
	answer := func(player, answers uint8, stampMs uint32, hold time.Duration) []byte {
		s := mate{team: 5, player: player}.state()
		s.Echo = teaminfo.Echo{Player: answers, StampMs: stampMs, Hold: hold}
		b, err := teaminfo.AppendDNet(nil, s, nil)
		if err != nil {
			f.Fatal(err)
		}
		return b
	}
	f.Add(answer(3, 1, 1000, 0))
	f.Add(answer(1, 3, 1000, time.Minute))
	f.Add(answer(3, 1, 0xffffffff, 2*time.Millisecond))
	f.Add(answer(2, 2, 1000, 0))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, clk := newTest(t, Config{})
		m.Observe(team5, dg(answer(1, 3, 1000, 0), robotSrc, t0))
		m.Observe(team5, dg(answer(3, 1, 1000, 0), robotSrc, t0))
		m.Observe(team5, dg(answer(1, 3, 1000, 0), robotSrc, t0))
		clk.Advance(time.Second)
		m.Observe(team5, dg(b, robotSrc, clk.Now()))
		s := m.State()
		for _, r := range s.Robots {
			if r.Clock != nil && (r.Clock.BoundMs < 0 || r.Clock.Ref >= r.Player) {
				t.Fatalf("clock view of %d/%d: %+v", r.Team, r.Player, r.Clock)
			}
		}
		if _, err := json.Marshal(s); err != nil {
			t.Fatalf("state does not encode: %v", err)
		}
	})
}
