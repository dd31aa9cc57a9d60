//go:build linux

package clock

import (
	"os"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// fdTimer is a wall Ticker or Timer on a timerfd (CLOCK_MONOTONIC, nonblocking) that a
// goroutine of its own waits for in Go's netpoller and reads with a raw read(2); each
// expiry delivers time.Now() on c (capacity 1; a tick for a slow receiver is dropped).
// See doc.go for why this beats Go's timers on a robot.
//
// Reading the expiry count and delivering happen under mu, and Reset re-arms (which
// clears a count not yet read) and drains c under mu, so after Reset returns only the
// new arming delivers; Stop sets stopped under mu, so nothing is delivered after it
// returns. Stop closes the descriptor without holding mu: closing waits for the
// goroutine to leave its wait, and the goroutine takes mu to read.
type fdTimer struct {
	file   *os.File
	rc     syscall.RawConn
	fd     uintptr // valid until Stop
	c      chan time.Time
	expire func(fd uintptr) bool // t.read, made once so a wait allocates nothing
	// fn, if set (NewWallTimerFunc), takes each expiry instead of c: called on the
	// timer's goroutine, without mu held.
	fn func(now time.Time)

	mu      sync.Mutex
	stopped bool
	count   [8]byte // the expiry count read(2) returns
	// armed is the instant a one-shot timer is armed for and has not yet delivered
	// (zero: none), so that a Reset to the same instant can leave the kernel alone.
	armed time.Time
	arms  uint64 // Resets that armed the timerfd (for tests)

	// running counts the goroutine (for tests: Wait returns once it has ended, after
	// which nothing sends on c any more).
	running sync.WaitGroup
}

func newFD() (*fdTimer, error) {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return nil, os.NewSyscallError("timerfd_create", err)
	}
	return fdTimerOn(fd)
}

// fdTimerOn makes the timer on the nonblocking descriptor fd, which it owns from then
// on (closed if it fails). os.NewFile registers fd with the netpoller, but leaves it
// unregistered without an error where epoll refuses it (no watch or memory left); a
// wait on it then fails at once and the timer would never deliver. A read deadline
// can only be set on a registered descriptor, so setting none tells the two apart,
// and the wall clock falls back to Go's timers.
func fdTimerOn(fd int) (*fdTimer, error) {
	f := os.NewFile(uintptr(fd), "timerfd")
	if err := f.SetReadDeadline(time.Time{}); err != nil {
		_ = f.Close()
		return nil, err
	}
	rc, err := f.SyscallConn()
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	t := &fdTimer{file: f, rc: rc, fd: uintptr(fd), c: make(chan time.Time, 1)}
	t.expire = t.read
	t.running.Go(t.run)
	return t, nil
}

// newFDTicker returns a ticker whose first expiry is the next grid instant of d
// (gridMono) and which then expires every d: the kernel keeps the phase.
func newFDTicker(d time.Duration) (Ticker, error) {
	t, err := newFD()
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	t.settime(unix.TFD_TIMER_ABSTIME, int64(d), gridMono(d))
	t.mu.Unlock()
	return t, nil
}

// newFDTimer returns a disarmed one-shot timer.
func newFDTimer() (Timer, error) { return newFD() }

// run waits for expiries until Stop closes the descriptor (the wait then fails) or a
// read fails otherwise.
func (t *fdTimer) run() { _ = t.rc.Read(t.expire) }

// read is the netpoller callback, called when the descriptor may be readable: it reads
// the expiry count and delivers a tick, then returns false to wait for the next; true
// only when the read failed for another reason than no expiry (EAGAIN).
//
// The goroutine thus never leaves the one RawConn.Read call it makes. Leaving it after
// each tick, as a read loop would, makes the next call start with a read that finds
// nothing: Read forgets, on entry, a readiness the netpoller reported meanwhile, so
// it must look for itself before waiting. Inside one call no report is forgotten: the
// netpoller watches the descriptor edge-triggered, the kernel reports every expiry
// after the read, and one reported while the tick is delivered ends the next wait at
// once. A tick therefore costs one read(2), not two.
func (t *fdTimer) read(fd uintptr) bool {
	t.mu.Lock()
	for {
		_, _, e := unix.RawSyscall(unix.SYS_READ, fd, uintptr(unsafe.Pointer(&t.count[0])), uintptr(len(t.count)))
		switch e {
		case unix.EINTR:
			continue
		case unix.EAGAIN:
			t.mu.Unlock()
			return false
		case 0:
			t.armed = time.Time{}
			fn := t.fn
			if t.stopped {
				fn = nil
			} else if fn == nil {
				select {
				case t.c <- time.Now():
				default: // the receiver has not taken the last tick: drop this one
				}
			}
			t.mu.Unlock()
			if fn != nil {
				fn(time.Now())
			}
			return false
		}
		// A timerfd's read of 8 bytes fails otherwise only when closed; were it ever
		// to fail for another reason, end the goroutine rather than spin.
		t.mu.Unlock()
		return true
	}
}

// newFDTimerFunc returns a disarmed one-shot timer that calls fn at each expiry.
func newFDTimerFunc(fn func(now time.Time)) (Timer, error) {
	t, err := newFD()
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	t.fn = fn
	t.mu.Unlock()
	return t, nil
}

// settime arms the timerfd: the first expiry value ns from now (flags 0) or at the
// CLOCK_MONOTONIC instant value (TFD_TIMER_ABSTIME), then every interval ns (0: once).
// value 0 disarms. A raw system call: it cannot block, and it then costs no hand-off
// of the processor and no wake-up of the runtime's monitor thread. The caller holds
// mu and the timer is not stopped, so the descriptor is open; with values in range
// the call cannot fail.
func (t *fdTimer) settime(flags int, interval, value int64) {
	spec := unix.ItimerSpec{Interval: unix.NsecToTimespec(interval), Value: unix.NsecToTimespec(value)}
	_, _, _ = unix.RawSyscall6(unix.SYS_TIMERFD_SETTIME, t.fd, uintptr(flags), uintptr(unsafe.Pointer(&spec)), 0, 0, 0)
}

func (t *fdTimer) C() <-chan time.Time { return t.c }

// Reset arms the one-shot timer for at; a time already reached fires at once. A
// Reset to the instant the timer is armed for already, with nothing delivered since
// (nothing waiting on c, no expiry read), changes nothing and makes no system call:
// re-arming would give the same single delivery at or after at. Components that
// re-plan after every event (the team component after each teammate packet) mostly
// re-arm for the same instant.
func (t *fdTimer) Reset(at time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped {
		return
	}
	if !t.armed.IsZero() && at.Equal(t.armed) && len(t.c) == 0 {
		return
	}
	d := time.Until(at)
	if d <= 0 {
		d = 1 // 0 would disarm
	}
	t.settime(0, 0, int64(d))
	t.armed = at
	t.arms++
	t.drain()
}

func (t *fdTimer) drain() { drain(t.c) }

// Stop turns the timer off for good and releases its descriptor and goroutine.
// Stopping twice is a no-op.
func (t *fdTimer) Stop() {
	t.mu.Lock()
	if t.stopped {
		t.mu.Unlock()
		return
	}
	t.stopped = true
	t.drain()
	t.mu.Unlock()
	_ = t.file.Close() // ends the goroutine's wait
}

// monoEpoch relates the process's wall grid to CLOCK_MONOTONIC: the system time ref and
// the monotonic clock read right after it. Every ticker maps grid instants through
// this one pair, so tickers whose periods divide each other compute the very same
// expiry instants and the kernel wakes the process once for all of them. The
// monotonic reading is taken after ref, so expiries err late by the gap between the
// two readings (well under a microsecond), never early.
type monoEpoch struct {
	ref  time.Time
	mono int64
}

var epoch = sync.OnceValue(func() monoEpoch {
	ref := time.Now()
	var ts unix.Timespec
	_ = unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts) // cannot fail for this clock
	return monoEpoch{ref: ref, mono: ts.Nano()}
})

// gridMono returns the CLOCK_MONOTONIC instant of the next whole multiple of d since
// the Unix epoch, on the system time as read when the process made its first wall
// ticker (a later step of the system time does not move the grid).
func gridMono(d time.Duration) int64 {
	e := epoch()
	since := time.Since(e.ref) // Go's monotonic clock, which is CLOCK_MONOTONIC
	return e.mono + int64(since+untilGrid(e.ref.Add(since), d))
}

// GridTime returns t in Unix nanoseconds on the wall tickers' grid: the system time
// read once per process (when its first wall ticker was made), followed by the
// monotonic clock since, as the tickers' expiries are (gridMono). A ticker's tick at
// the k-th multiple of d since the Unix epoch therefore has a GridTime at or just
// after k*d, also after the system time was stepped or slewed (a robot's NTP). A time
// without a monotonic reading (simulation time, a time decoded from a message) is
// placed by its Unix time.
func GridTime(t time.Time) int64 {
	e := epoch()
	return e.ref.UnixNano() + int64(t.Sub(e.ref))
}
