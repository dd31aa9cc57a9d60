package worldinfo

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"go.uber.org/goleak"
)

// TestDisabled runs a disabled component in a synctest bubble: Run blocks until its
// context ends (synctest.Wait: every goroutine of the bubble is blocked, Run has not
// returned) and then returns nil.
func TestDisabled(t *testing.T) {
	before := goleak.IgnoreCurrent()
	synctest.Test(t, func(t *testing.T) {
		c, err := New(DefaultConfig(), Deps{}) // no clock, socket or publisher needed
		if err != nil {
			t.Fatal(err)
		}
		// Setters are harmless while disabled.
		c.SetVision(testVision())
		c.SetMotion(&dmsgs.MotionInfo{})
		c.SetBehavior(&dmsgs.BehaviorInfo{})
		if err := c.WaitUp(context.Background()); err != nil {
			t.Errorf("WaitUp: %v", err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- c.Run(ctx) }()
		synctest.Wait()
		select {
		case err := <-done:
			t.Fatalf("disabled Run returned before cancel: %v", err)
		default:
		}
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
		if st := c.Status(); st.Enabled || st.Cycles != 0 || st.Group != DefaultConfig().Group {
			t.Errorf("status %+v", st)
		}
	})
	goleak.VerifyNone(t, before)
}

func TestNewNeedsPublisher(t *testing.T) {
	cfg := testConfig()
	if _, err := New(cfg, Deps{}); !errors.Is(err, ErrDeps) {
		t.Errorf("New without a publisher: %v", err)
	}
}

func TestRunTwiceAndShutdown(t *testing.T) {
	before := goleak.IgnoreCurrent()
	h := start(t, testConfig())
	if err := h.c.Run(context.Background()); !errors.Is(err, ErrRunTwice) {
		t.Errorf("second Run: %v", err)
	}
	h.c.SetVision(testVision())
	h.tick()
	if err := h.stop(); err != nil {
		t.Errorf("Run: %v", err)
	}
	goleak.VerifyNone(t, before) // Run left no goroutine behind
	// Setters and Status still work after Run returned.
	h.c.SetVision(testVision())
	if st := h.c.Status(); st.Cycles != 1 || st.Send.Sent != 1 {
		t.Errorf("status %+v", st)
	}
}

func TestSettersConcurrent(t *testing.T) {
	// Setters, Status and the loop run at once; -race checks the locking.
	h := start(t, testConfig())
	h.game.set(testGame, true)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		v, m := testVision(), &dmsgs.MotionInfo{}
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			v.SeeBall = i%3 != 0
			m.Odometry.X = float64(i)
			h.c.SetVision(v)
			h.c.SetMotion(m)
			h.c.SetBehavior(&dmsgs.BehaviorInfo{AttackRight: i%2 == 0})
			_ = h.c.Status()
		}
	}()
	for range 20 {
		h.tick()
	}
	close(stop)
	<-done
	if st := h.c.Status(); st.Send.Sent != 20 || st.SetErrors != 0 {
		t.Errorf("status %+v", st)
	}
}

func TestWallClockRuns(t *testing.T) {
	// The default clock is the wall clock: with a 20 ms interval a few datagrams leave
	// within a second.
	cfg := testConfig()
	cfg.Interval = MinInterval
	conn := bus.NewFakeConn(1)
	game := GameFunc(func() (Game, bool) { return testGame, true })
	c, err := New(cfg, Deps{Conn: conn, Publisher: &bus.Recorder[dmsgs.WorldInfo]{}, Game: game})
	if err != nil {
		t.Fatal(err)
	}
	if c.clk != clock.Wall {
		t.Fatal("nil clock is not the wall clock")
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	waitFor(t, "wall-clock cycles", func() bool { return c.Status().Send.Sent >= 3 })
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
