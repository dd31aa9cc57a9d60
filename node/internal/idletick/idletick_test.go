package idletick

import (
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
)

func TestMissed(t *testing.T) {
	ms := func(n int64) time.Time { return time.Unix(0, n*int64(time.Millisecond)) }
	for _, tc := range []struct {
		since, now time.Time
		d          time.Duration
		want       uint64
	}{
		{ms(500), ms(500), 500 * time.Millisecond, 0},
		{ms(500), ms(999), 500 * time.Millisecond, 0},
		{ms(500), ms(1000), 500 * time.Millisecond, 1},
		{ms(510), ms(5500), 500 * time.Millisecond, 10},  // stopped just after a tick
		{ms(500), ms(400), 500 * time.Millisecond, 0},    // the clock went back
		{ms(-1200), ms(-100), 500 * time.Millisecond, 2}, // -1000, -500 (before 1970)
		{ms(-100), ms(100), 500 * time.Millisecond, 1},   // 0
		{ms(0), ms(3000), time.Second, 3},
		{ms(0), ms(3000), 0, 0},
	} {
		if got := Missed(tc.since, tc.now, tc.d); got != tc.want {
			t.Errorf("Missed(%v, %v, %v) = %d, want %d", tc.since.UnixMilli(), tc.now.UnixMilli(), tc.d, got, tc.want)
		}
	}
}

// TestIdleWake: a stopped Ticker has no clock ticker and a nil channel; Wake makes a
// new one and reports the ticks missed; Idle and Wake of a Ticker already so do nothing.
func TestIdleWake(t *testing.T) {
	t0 := time.Unix(1000, 0)
	clk := clock.NewManual(t0)
	tk := New(clk, time.Second)
	defer tk.Stop()
	if !tk.Running() || clk.Tickers() != 1 {
		t.Fatalf("new: running %v, %d clock tickers", tk.Running(), clk.Tickers())
	}
	clk.Advance(time.Second)
	now := <-tk.C()
	if got := tk.Idle(now); !got.Equal(now) {
		t.Errorf("Idle returned %v, want %v", got, now)
	}
	if tk.Running() || tk.C() != nil || clk.Tickers() != 0 {
		t.Fatalf("idle: running %v, channel %v, %d clock tickers", tk.Running(), tk.C(), clk.Tickers())
	}
	clk.Advance(2 * time.Second)
	if got := tk.Idle(clk.Now()); !got.Equal(now) {
		t.Errorf("second Idle returned %v, want the first stop's %v", got, now)
	}
	clk.Advance(1500 * time.Millisecond)
	if n := tk.Wake(clk.Now()); n != 3 {
		t.Errorf("Wake after 3.5 s missed %d ticks, want 3", n)
	}
	if n := tk.Wake(clk.Now()); n != 0 || clk.Tickers() != 1 {
		t.Errorf("second Wake: %d missed, %d clock tickers; want 0, 1", n, clk.Tickers())
	}
	clk.Advance(time.Second)
	select {
	case <-tk.C():
	default:
		t.Error("no tick a period after Wake")
	}
	tk.Stop()
	if clk.Tickers() != 0 {
		t.Error("a clock ticker left after Stop")
	}
}
