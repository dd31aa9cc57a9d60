package ros

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
)

// Clock is the time source dnetwork's components take (package clock); a node's
// ROSClock is one.
type Clock = clock.Clock

// Ticker delivers ticks of a Clock.
type Ticker = clock.Ticker

// ROSClock is a node's clock (RCL_ROS_TIME): the system time, or, while simulation
// time is active (parameter use_sim_time), the latest time received on /clock.
// Tickers follow switches between the two.
type ROSClock struct {
	sim    clock.Manual
	useSim atomic.Bool
	offset time.Duration // added to the system time (NodeOptions.ClockOffset)
}

// Now returns the simulation time if it is active, else the system time. Before the
// first /clock message, simulation time is the zero time.
func (c *ROSClock) Now() time.Time {
	if c.useSim.Load() {
		return c.sim.Now()
	}
	return time.Now().Add(c.offset)
}

// SimActive reports whether the clock follows /clock.
func (c *ROSClock) SimActive() bool { return c.useSim.Load() }

// setSim switches simulation time on or off.
func (c *ROSClock) setSim(on bool) { c.useSim.Store(on) }

// setSimTime records a time received on /clock.
func (c *ROSClock) setSimTime(t time.Time) { c.sim.Set(t) }

// NewTicker returns a ticker on the ROS time: every d of system time while
// simulation time is off, every d of /clock time while it is on.
func (c *ROSClock) NewTicker(d time.Duration) Ticker {
	t := &rosTicker{
		c:    make(chan time.Time, 1),
		wall: time.NewTicker(d),
		sim:  c.sim.NewTicker(d),
		stop: make(chan struct{}),
		done: make(chan struct{}),
	}
	go t.run(&c.useSim, c.offset)
	return t
}

type rosTicker struct {
	c        chan time.Time
	wall     *time.Ticker
	sim      Ticker
	stop     chan struct{}
	done     chan struct{}
	stopOnce sync.Once
}

func (t *rosTicker) run(useSim *atomic.Bool, offset time.Duration) {
	defer close(t.done)
	for {
		var now time.Time
		select {
		case now = <-t.wall.C:
			if useSim.Load() {
				continue
			}
			now = now.Add(offset)
		case now = <-t.sim.C():
			if !useSim.Load() {
				continue
			}
		case <-t.stop:
			return
		}
		select {
		case t.c <- now:
		default:
		}
	}
}

func (t *rosTicker) C() <-chan time.Time { return t.c }

func (t *rosTicker) Stop() {
	t.stopOnce.Do(func() {
		t.wall.Stop()
		t.sim.Stop()
		close(t.stop)
		<-t.done
	})
}

var _ Clock = (*ROSClock)(nil)
