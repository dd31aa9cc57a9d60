package clock

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestWallIsTimerfd checks that the wall clock's tickers and timers are timerfds on
// Linux, so that the other wall tests exercise them.
func TestWallIsTimerfd(t *testing.T) {
	tk := Wall.NewTicker(time.Second)
	defer tk.Stop()
	if _, ok := tk.(*fdTimer); !ok {
		t.Fatalf("wall ticker is a %T, want a timerfd", tk)
	}
	tm := Wall.(TimerClock).NewTimer()
	defer tm.Stop()
	if _, ok := tm.(*fdTimer); !ok {
		t.Fatalf("wall timer is a %T, want a timerfd", tm)
	}
}

// TestGridMono checks that a ticker's first expiry is the next grid instant of its
// period, within one period, and that tickers of 20, 40 and 1000 ms expire at the same
// nanoseconds where their grids meet, which is what lets one wake-up serve them all.
func TestGridMono(t *testing.T) {
	e := epoch()
	for range 100 {
		before := e.mono + int64(time.Since(e.ref))
		g20, g40, g1000 := gridMono(20*time.Millisecond), gridMono(40*time.Millisecond), gridMono(time.Second)
		after := e.mono + int64(time.Since(e.ref)) // a stall of the test cannot fail it
		for _, g := range []struct {
			at int64
			d  time.Duration
		}{{g20, 20 * time.Millisecond}, {g40, 40 * time.Millisecond}, {g1000, time.Second}} {
			if g.at <= before || g.at > after+int64(g.d) {
				t.Fatalf("period %v: first expiry %d ns after the call, want within (0, %v]", g.d, g.at-before, g.d)
			}
			if wall := e.ref.UnixNano() + g.at - e.mono; wall%int64(g.d) != 0 {
				t.Fatalf("period %v: expiry %d ns off the grid", g.d, wall%int64(g.d))
			}
		}
		if (g40-g20)%int64(20*time.Millisecond) != 0 || (g1000-g20)%int64(20*time.Millisecond) != 0 {
			t.Fatalf("grids of 20, 40 and 1000 ms do not meet: %d %d %d", g20, g40, g1000)
		}
	}
}

// TestFDTimerStopReleases checks that Stop closes the descriptor and ends the
// goroutine of every timer and ticker.
func TestFDTimerStopReleases(t *testing.T) {
	fds := func() int { return fdCount(t) }
	fd0, g0 := fds(), runtime.NumGoroutine()
	var all []interface{ Stop() }
	for range 50 {
		all = append(all, Wall.NewTicker(time.Millisecond), Wall.(TimerClock).NewTimer())
	}
	if got := fds(); got != fd0+100 {
		t.Fatalf("%d descriptors after making 100 timers, want %d", got, fd0+100)
	}
	for _, s := range all {
		s.Stop()
		s.Stop() // twice is a no-op
	}
	if got := fds(); got != fd0 {
		t.Fatalf("%d descriptors after Stop, want %d", got, fd0)
	}
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > g0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines after Stop, want %d", runtime.NumGoroutine(), g0)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestFDTimerUnpollable checks that a descriptor the netpoller refuses (here a
// directory, which epoll refuses as it would a timerfd with no watch left) makes no
// timer, so that the wall clock falls back to Go's timers rather than keep a timer
// that never delivers, and that the descriptor is closed.
func TestFDTimerUnpollable(t *testing.T) {
	n0 := fdCount(t)
	fd, err := unix.Open(t.TempDir(), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	tm, err := fdTimerOn(fd)
	if err == nil {
		tm.Stop()
		t.Fatal("a timer on a descriptor the netpoller refuses")
	}
	if n := fdCount(t); n != n0 {
		t.Fatalf("%d descriptors after the failure, want %d", n, n0)
	}
}

// fdCount counts the process's descriptors. The runtime's netpoller opens two of its
// own (its epoll and wake-up descriptors, kept for the process's life) at its first
// use, which may be a timer the calling test makes: a timer made and stopped first has
// them open before the count, so that a test run alone (-run) counts as in the suite.
func fdCount(t *testing.T) int {
	t.Helper()
	Wall.NewTicker(time.Hour).Stop()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}

// TestFDTimerResetRace re-arms a timer while its earlier arming is expiring, many
// times: after Reset returns, a firing of the earlier arming must never arrive.
func TestFDTimerResetRace(t *testing.T) {
	tm := Wall.(TimerClock).NewTimer()
	defer tm.Stop()
	for i := range 2000 {
		tm.Reset(time.Now()) // expires at once, delivered by the timer's goroutine
		if i%2 == 0 {
			runtime.Gosched() // sometimes let the goroutine read and deliver it
		}
		at := time.Now().Add(time.Hour)
		tm.Reset(at)
		if _, ok := fired(tm); ok {
			t.Fatalf("round %d: a firing of the earlier arming arrived after Reset", i)
		}
		if i == 1999 { // no expiry of an earlier arming left to come either
			fdArmedFor(t, tm, at)
		}
	}
}

// TestFDTickerDropsAndStops checks that a ticker keeps one tick for a slow receiver
// and never delivers after Stop, even when stopped between two expiries 1 ms apart.
func TestFDTickerDropsAndStops(t *testing.T) {
	tk := Wall.NewTicker(time.Millisecond)
	time.Sleep(30 * time.Millisecond) // about 30 expiries, none received
	n := 0
	for {
		if _, ok := recv(t, tk); !ok {
			break
		}
		n++
	}
	if n != 1 {
		t.Fatalf("%d ticks waiting for a slow receiver, want 1", n)
	}
	for range 200 {
		tk := Wall.NewTicker(time.Millisecond)
		<-tk.C()
		tk.Stop()
		if _, ok := recv(t, tk); ok {
			t.Fatal("tick after Stop")
		}
	}
	tk.Stop()
	fdStopped(t, tk)
	if _, ok := recv(t, tk); ok {
		t.Fatal("tick after Stop")
	}
}

// BenchmarkWallTicker receives b.N ticks of a 10 ms wall ticker, made the way Wall
// makes them (a timerfd) and on Go's timers, and reports what a tick costs the whole
// process: its threads' voluntary context switches (wake-ups) and CPU time, per tick.
// Nothing else in the process has work, as in an idle node between two ticks, and Go
// runs on one processor, as the node does.
func BenchmarkWallTicker(b *testing.B) {
	for _, impl := range wallImpls {
		b.Run(impl.name, func(b *testing.B) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1)) // after the benchmark's own setting
			tk := impl.ticker(10 * time.Millisecond)
			defer tk.Stop()
			<-tk.C()
			var r0, r1 syscall.Rusage
			_ = syscall.Getrusage(syscall.RUSAGE_SELF, &r0)
			b.ResetTimer()
			for range b.N {
				<-tk.C()
			}
			b.StopTimer()
			_ = syscall.Getrusage(syscall.RUSAGE_SELF, &r1)
			cpu := time.Duration(r1.Utime.Nano() + r1.Stime.Nano() - r0.Utime.Nano() - r0.Stime.Nano())
			b.ReportMetric(float64(r1.Nvcsw-r0.Nvcsw)/float64(b.N), "wakes/tick")
			b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/tick")
		})
	}
}

// TestFDTimerResetSameInstant checks that re-arming for the instant the timer is armed
// for already leaves the timerfd alone and still delivers exactly once, at or after
// that instant; that a Reset after the delivery was taken arms again (an instant
// already past fires at once); and that one while a delivery waits on the channel
// replaces it, as any Reset does.
func TestFDTimerResetSameInstant(t *testing.T) {
	tm, err := newFDTimer()
	if err != nil {
		t.Fatal(err)
	}
	defer tm.Stop()
	ft := tm.(*fdTimer)
	arms := func() uint64 {
		ft.mu.Lock()
		defer ft.mu.Unlock()
		return ft.arms
	}
	at := time.Now().Add(50 * time.Millisecond)
	for range 100 {
		tm.Reset(at)
	}
	if n := arms(); n != 1 {
		t.Errorf("100 Resets to one instant armed the timerfd %d times, want 1", n)
	}
	select {
	case got := <-tm.C():
		if got.Before(at) {
			t.Errorf("delivered at %v, %v before the instant armed", got, at.Sub(got))
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no delivery within 5 s")
	}
	fdIdle(t, tm) // delivered and disarmed: nothing more to come
	if got, ok := fired(tm); ok {
		t.Fatalf("a second delivery (%v) for one arming", got)
	}

	// Taken: the same (past) instant arms again and fires at once.
	tm.Reset(at)
	if n := arms(); n != 2 {
		t.Errorf("Reset after the delivery was taken: %d armings, want 2", n)
	}
	select {
	case <-tm.C():
	case <-time.After(5 * time.Second):
		t.Fatal("Reset to a past instant after a delivery: nothing delivered")
	}

	// Not taken: the waiting delivery is drained and a new one comes.
	tm.Reset(at)
	deadline := time.Now().Add(5 * time.Second)
	for len(tm.C()) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no delivery to leave waiting")
		}
		time.Sleep(time.Millisecond)
	}
	tm.Reset(at)
	if n := arms(); n != 4 {
		t.Errorf("Reset while a delivery waits: %d armings, want 4", n)
	}
	select {
	case <-tm.C():
	case <-time.After(5 * time.Second):
		t.Fatal("Reset while a delivery waited: nothing delivered")
	}
}

// TestWallTimerFunc checks the timer that calls a function: it calls it once per
// arming, at or after the instant armed for, not after Stop; a Reset to a later instant
// before the first comes moves the call there.
func TestWallTimerFunc(t *testing.T) {
	calls := make(chan time.Time, 10)
	tm := NewWallTimerFunc(func(now time.Time) { calls <- now })
	if _, ok := tm.(*fdTimer); !ok {
		t.Fatalf("NewWallTimerFunc on Linux gave %T, want a timerfd", tm)
	}
	at := time.Now().Add(30 * time.Millisecond)
	tm.Reset(at)
	got := <-calls
	if got.Before(at) {
		t.Errorf("called at %v, armed for %v", got, at)
	}
	at = time.Now().Add(200 * time.Millisecond)
	tm.Reset(time.Now().Add(20 * time.Millisecond))
	tm.Reset(at)
	got = <-calls
	if got.Before(at) {
		t.Errorf("after a Reset to a later instant: called at %v, armed for %v", got, at)
	}
	tm.Reset(time.Now().Add(50 * time.Millisecond))
	tm.Stop()
	fdStopped(t, tm) // fn is called on the goroutine, which has ended
	select {
	case c := <-calls:
		t.Errorf("called at %v after Stop", c)
	default:
	}
}

// TestGridTimePlacesTicks checks that GridTime puts every tick of a wall ticker just
// after its own multiple of the period, one multiple per tick (what idletick's count of
// missed ticks relies on), and a time without a monotonic reading at its Unix time.
func TestGridTimePlacesTicks(t *testing.T) {
	const d = 20 * time.Millisecond
	tk := Wall.NewTicker(d)
	defer tk.Stop()
	// A tick carries the time its goroutine delivered it (time.Now), which on a loaded
	// machine may come well after the expiry, and a tick not taken yet is dropped: the
	// check is on the prompt ticks (within d/2 of a grid instant), of which an expiry
	// off the grid by d/2 or more has none, and which take one grid instant each,
	// later ones later. Up to 100 ticks (2 s) for 5 of them.
	last, prompt := int64(-1), 0
	for i := 0; prompt < 5; i++ {
		if i == 100 {
			t.Fatalf("%d of %d ticks placed within %v after their grid instant, want 5", prompt, i, d/2)
		}
		tick := <-tk.C()
		g := GridTime(tick)
		k, late := g/int64(d), time.Duration(g%int64(d))
		if late > d/2 {
			continue
		}
		if last >= 0 && k <= last {
			t.Fatalf("tick on grid instant %d after %d, want a later one", k, last)
		}
		last = k
		prompt++
	}
	now := time.Now().Round(0) // no monotonic reading
	if got := GridTime(now); got != now.UnixNano() {
		t.Fatalf("GridTime of a wall-only time %d, want its Unix time %d", got, now.UnixNano())
	}
}

// fdStopped checks that the goroutine of x, a stopped timerfd, ends (within 10 s): from
// then on nothing sends on its channel.
func fdStopped(t *testing.T, x any) {
	t.Helper()
	ft := asFD(t, x)
	ended := make(chan struct{})
	go func() {
		ft.running.Wait()
		close(ended)
	}()
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the timerfd's goroutine still runs 10 s after Stop")
	}
}

// fdIdle checks that the timerfd of tm will expire no more: disarmed, with no expiry
// left unread, so that its goroutine, parked in the netpoller, has nothing to deliver.
func fdIdle(t *testing.T, tm Timer) {
	t.Helper()
	if ticks, next := timerfdState(t, asFD(t, tm)); ticks != 0 || next != 0 {
		t.Fatalf("timerfd with %d expiries unread, next in %v; want none, disarmed", ticks, next)
	}
}

// fdArmedFor checks that the timerfd of tm has no expiry left unread and expires next
// at at, not before (the kernel's remaining time, read first, is at least what is left
// to at when read after it).
func fdArmedFor(t *testing.T, tm Timer, at time.Time) {
	t.Helper()
	ticks, next := timerfdState(t, asFD(t, tm))
	if left := time.Until(at); ticks != 0 || next < left {
		t.Fatalf("timerfd with %d expiries unread, next in %v; want none, next in at least %v", ticks, next, left)
	}
}

func asFD(t *testing.T, x any) *fdTimer {
	t.Helper()
	ft, ok := x.(*fdTimer)
	if !ok {
		t.Fatalf("%T is not a timerfd", x)
	}
	return ft
}

// timerfdState reads ft's timerfd in /proc/self/fdinfo: the expiries not yet read
// (ticks) and the time to the next expiry (it_value; 0 when disarmed).
func timerfdState(t *testing.T, ft *fdTimer) (ticks uint64, next time.Duration) {
	t.Helper()
	var info []byte
	var err error
	if cerr := ft.rc.Control(func(fd uintptr) { info, err = os.ReadFile(fmt.Sprintf("/proc/self/fdinfo/%d", fd)) }); cerr != nil {
		t.Fatal(cerr)
	}
	if err != nil {
		t.Fatal(err)
	}
	var sec, nsec int64
	found := 0
	for l := range strings.Lines(string(info)) {
		if v, ok := strings.CutPrefix(l, "ticks:"); ok {
			if ticks, err = strconv.ParseUint(strings.TrimSpace(v), 10, 64); err != nil {
				t.Fatal(err)
			}
			found++
		}
		if v, ok := strings.CutPrefix(l, "it_value:"); ok {
			if _, err := fmt.Sscanf(strings.TrimSpace(v), "(%d, %d)", &sec, &nsec); err != nil {
				t.Fatalf("it_value %q: %v", v, err)
			}
			found++
		}
	}
	if found != 2 {
		t.Fatalf("no ticks and it_value in %s", info)
	}
	return ticks, time.Duration(sec)*time.Second + time.Duration(nsec)
}
