package team

import (
	"math"
	"testing"
	"time"
)

func TestIntervalTable(t *testing.T) {
	c := DefaultRateConfig()
	cases := []struct {
		name string
		in   RateInput
		want time.Duration
	}{
		{"ball handling wins", RateInput{BallHandling: true, SeeBall: false}, 67 * time.Millisecond},
		{"dist exactly 1 m is not near", RateInput{SeeBall: true, BallDistance: 1.0}, 200 * time.Millisecond},
		{"2.999 m", RateInput{SeeBall: true, BallDistance: 2.999}, 200 * time.Millisecond},
		{"3 m is far", RateInput{SeeBall: true, BallDistance: 3.0}, 400 * time.Millisecond},
		{"0.59 m", RateInput{SeeBall: true, BallDistance: 0.59}, 100 * time.Millisecond},
		{"NaN distance is far", RateInput{SeeBall: true, BallDistance: math.NaN()}, 400 * time.Millisecond},
		{"blind", RateInput{SeeBall: false, BallDistance: 0.1}, time.Second},
		{"blind and alone without Alone configured", RateInput{}, time.Second},
	}
	for _, tc := range cases {
		if got := c.Interval(tc.in); got != tc.want {
			t.Errorf("%s: got %v want %v", tc.name, got, tc.want)
		}
	}
	c.Alone = 1500 * time.Millisecond
	if got := c.Interval(RateInput{}); got != c.Alone {
		t.Errorf("alone: got %v", got)
	}
	if got := c.Interval(RateInput{MatesOnline: 2}); got != time.Second {
		t.Errorf("not alone: got %v", got)
	}
	// Alone is a floor over every row (fork B: 1.5 s when nobody is online).
	if iv, tier := c.Choose(RateInput{BallHandling: true}); iv != c.Alone || tier != TierAlone {
		t.Errorf("alone while ball handling: %v %v", iv, tier)
	}
	// An Alone interval shorter than the row's does not speed the robot up.
	c.Alone = 300 * time.Millisecond
	if iv, tier := c.Choose(RateInput{}); iv != time.Second || tier != TierBlind {
		t.Errorf("short alone: %v %v", iv, tier)
	}
}

func TestChooseTiers(t *testing.T) {
	c := DefaultRateConfig()
	for _, tc := range []struct {
		in   RateInput
		tier Tier
		name string
	}{
		{RateInput{BallHandling: true}, TierBallHandling, "ball handling"},
		{RateInput{SeeBall: true, BallDistance: 0.5}, TierBallNear, "ball near"},
		{RateInput{SeeBall: true, BallDistance: 2}, TierBallMid, "ball mid"},
		{RateInput{SeeBall: true, BallDistance: 5}, TierBallFar, "ball far"},
		{RateInput{}, TierBlind, "blind"},
	} {
		iv, tier := c.Choose(tc.in)
		if tier != tc.tier || tier.String() != tc.name || iv != c.Interval(tc.in) {
			t.Errorf("%+v: %v %q", tc.in, iv, tier)
		}
	}
	if TierAlone.String() != "alone" || Tier(99).String() != "tier(99)" {
		t.Error("tier names")
	}
	if got := c.Longest(); got != time.Second {
		t.Errorf("longest %v", got)
	}
	if err := c.Validate(); err != nil {
		t.Errorf("defaults: %v", err)
	}
}

// TestSchedulerQuantisation drives the scheduler with a 30 Hz tick and checks on which
// ticks it sends, for each interval of the default table.
func TestSchedulerQuantisation(t *testing.T) {
	tick := time.Second / 30
	cases := []struct {
		interval  time.Duration
		wantTicks int // ticks between sends
	}{
		{67 * time.Millisecond, 2},
		{100 * time.Millisecond, 3},
		{200 * time.Millisecond, 6},
		{400 * time.Millisecond, 12},
		{time.Second, 30},
		{time.Millisecond, 1}, // never faster than the tick
	}
	start := time.Unix(1700000000, 0)
	for _, tc := range cases {
		s := Scheduler{Tick: tick}
		var sends []int
		for i := 0; i <= 90; i++ {
			// A little jitter on every tick must not change the outcome.
			jitter := time.Duration((i%3)-1) * time.Millisecond
			now := start.Add(time.Duration(i)*tick + jitter)
			if s.Due(now, tc.interval) {
				s.Sent(now)
				sends = append(sends, i)
			}
		}
		for k := 1; k < len(sends); k++ {
			if d := sends[k] - sends[k-1]; d != tc.wantTicks {
				t.Fatalf("interval %v: sends at ticks %v, want every %d ticks", tc.interval, sends, tc.wantTicks)
			}
		}
		if len(sends) < 2 {
			t.Fatalf("interval %v: only %d sends", tc.interval, len(sends))
		}
	}
}

// TestBudgetCeiling: the rate in force never exceeds the budget's allowance; the
// figures the field test saw (8.78 and 12.60 msg/s allowed, 9.98 and 15 sent when the
// interval was rounded to the nearest tick).
func TestBudgetCeiling(t *testing.T) {
	tick := time.Second / 30
	s := Scheduler{Tick: tick}
	for _, tc := range []struct {
		allowed float64 // msg/s
		rate    time.Duration
		want    int // ticks
	}{
		{8.78, 67 * time.Millisecond, 4},
		{12.60, 67 * time.Millisecond, 3},
		{15, 67 * time.Millisecond, 2},
		{30, 67 * time.Millisecond, 2}, // the rate row is the longer
		{1, 100 * time.Millisecond, 30},
		{0.487, 67 * time.Millisecond, 62},
		{100, time.Millisecond, 1},
	} {
		min := time.Duration(float64(time.Second) / tc.allowed)
		iv := s.Interval(tc.rate, min)
		if iv != time.Duration(tc.want)*tick {
			t.Errorf("%.2f msg/s allowed, rate row %v: %v, want %d ticks", tc.allowed, tc.rate, iv, tc.want)
		}
		// Sends on the tick grid, with the jitter of a loaded machine: the rate over 60 s
		// stays within the allowance.
		var sc Scheduler
		sc.Tick = tick
		start := time.Unix(1700000000, 0)
		sends := 0
		for i := 0; i < 60*30; i++ {
			now := start.Add(time.Duration(i)*tick + time.Duration((i*7)%5)*time.Millisecond)
			if sc.Due(now, iv) {
				sc.Sent(now)
				sends++
			}
		}
		if rate := float64(sends-1) / 60; rate > tc.allowed {
			t.Errorf("%.2f msg/s allowed: %.2f sent", tc.allowed, rate)
		}
	}
	if s.Interval(67*time.Millisecond, 0) != 2*tick || s.Ceil(0) != tick || (&Scheduler{}).Ceil(time.Second) != time.Second {
		t.Error("without a budget bound")
	}
}

func TestSchedulerReset(t *testing.T) {
	s := Scheduler{Tick: 10 * time.Millisecond}
	now := time.Unix(0, 0)
	if !s.Due(now, time.Second) {
		t.Fatal("first packet must be due")
	}
	s.Sent(now)
	if s.Due(now.Add(500*time.Millisecond), time.Second) {
		t.Fatal("due too early")
	}
	s.Reset()
	if !s.Due(now.Add(500*time.Millisecond), time.Second) {
		t.Fatal("due after reset")
	}
}
