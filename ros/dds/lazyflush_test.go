//go:build cgo

package dds

import (
	"errors"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/ros/internal/ddstest"
)

// quietQueue waits until the send queue's thread sleeps with nothing pending and
// returns the queue's state then.
func quietQueue(t *testing.T, q *sendQueue) sendQueueState {
	t.Helper()
	var st sendQueueState
	ddstest.WaitFor(t, 10*time.Second, "the send queue's thread asleep, its ring empty", func() error {
		if st = q.state(); !st.sleeping || st.pending {
			return errors.New("busy")
		}
		return nil
	})
	return st
}

// quietDisarmed is quietQueue that also fails unless the queue is disarmed (disarmed):
// the state a test of lazy flushes starts from.
func quietDisarmed(t *testing.T) (*sendQueue, sendQueueState) {
	t.Helper()
	q := theSendQueue()
	st := quietQueue(t, q)
	disarmed(t, st, "before")
	return q, st
}

// disarmed fails unless the queue has no lazy deadline and its timerfd is disarmed.
func disarmed(t *testing.T, st sendQueueState, when string) {
	t.Helper()
	if st.lazyDeadline != 0 || st.timerLeft != 0 {
		t.Fatalf("%s: lazy deadline %d, timer expires in %v, want none and disarmed", when, st.lazyDeadline, st.timerLeft)
	}
}

// lazyHeld writes s held on w and flushes it within d, and returns the queue's state
// right after.
func lazyHeld(t *testing.T, q *sendQueue, w *Writer, s []byte, d time.Duration) sendQueueState {
	t.Helper()
	if err := w.WriteHeld(s); err != nil {
		t.Fatal(err)
	}
	w.FlushWithin(d)
	return q.state()
}

// TestFlushWithinRidesNextFlush: a lazy flush wakes nobody (the thread still sleeps,
// the record waits, no wake-up is counted), and another writer's Flush carries it: a
// reader of the same process has the sample long before its deadline (an hour), and
// the pass that took it disarmed the timer.
func TestFlushWithinRidesNextFlush(t *testing.T) {
	p, a, ca := queueSetup(t, "rt/lazy_ride")
	b, err := p.NewWriter("rt/lazy_ride_b", testType, QoS{Depth: 4})
	if err != nil {
		t.Fatal(err)
	}
	cb := newCollector()
	if _, err := p.NewReader("rt/lazy_ride_b", testType, QoS{History: KeepAll}, cb.handle); err != nil {
		t.Fatal(err)
	}
	waitMatched(t, b, 1)
	q, before := quietDisarmed(t)
	sa := sample("periodic")
	st := lazyHeld(t, q, a, sa, time.Hour)
	if !st.sleeping || !st.pending || st.wakesEvent != before.wakesEvent || st.wakesTimer != before.wakesTimer {
		t.Fatalf("after FlushWithin: sleeping %v, pending %v, %d eventfd and %d timer wake-ups (were %d, %d): want the thread left asleep",
			st.sleeping, st.pending, st.wakesEvent, st.wakesTimer, before.wakesEvent, before.wakesTimer)
	}
	if st.timerLeft <= 59*time.Minute || st.timerLeft > time.Hour {
		t.Fatalf("after FlushWithin(1h) the timer expires in %v", st.timerLeft)
	}
	sb := sample("burst")
	if err := b.WriteHeld(sb); err != nil {
		t.Fatal(err)
	}
	b.Flush()
	checkSamples(t, ca, [][]byte{sa})
	checkSamples(t, cb, [][]byte{sb})
	after := quietQueue(t, q)
	disarmed(t, after, "after the pass that took the lazy flush")
	if after.wakesEvent != before.wakesEvent+1 || after.wakesTimer != before.wakesTimer {
		t.Fatalf("%d eventfd and %d timer wake-ups, want 1 (the Flush) and 0", after.wakesEvent-before.wakesEvent, after.wakesTimer-before.wakesTimer)
	}
}

// TestFlushWithinDeadline: a lazy flush with nothing else to ride comes out when its
// timer expires, a timer wake-up of the queue's thread.
func TestFlushWithinDeadline(t *testing.T) {
	_, w, c := queueSetup(t, "rt/lazy_deadline")
	q, before := quietDisarmed(t)
	s := sample("alone")
	lazyHeld(t, q, w, s, 20*time.Millisecond)
	checkSamples(t, c, [][]byte{s})
	after := quietQueue(t, q)
	disarmed(t, after, "after the timer's pass")
	if after.wakesTimer == before.wakesTimer || after.wakesEvent != before.wakesEvent {
		t.Fatalf("%d timer and %d eventfd wake-ups, want the timer's", after.wakesTimer-before.wakesTimer, after.wakesEvent-before.wakesEvent)
	}
}

// TestFlushWithinRearms: a shorter deadline after a longer one re-arms the timer
// earlier, a longer one leaves it; a Flush then carries all three lazy flushes and the
// timer is disarmed without having expired.
func TestFlushWithinRearms(t *testing.T) {
	_, w, c := queueSetup(t, "rt/lazy_rearm")
	q, before := quietDisarmed(t)
	sent := [][]byte{sample("first"), sample("second"), sample("third")}
	steps := []struct {
		within   time.Duration
		min, max time.Duration // the timer's time left after the step
	}{
		{time.Hour, 59 * time.Minute, time.Hour},
		{30 * time.Minute, 29 * time.Minute, 30 * time.Minute},
		{2 * time.Hour, 29 * time.Minute, 30 * time.Minute},
	}
	for i, step := range steps {
		st := lazyHeld(t, q, w, sent[i], step.within)
		if st.timerLeft <= step.min || st.timerLeft > step.max || !st.pending {
			t.Fatalf("FlushWithin(%v) after %d: timer expires in %v (pending %v), want (%v, %v]",
				step.within, i, st.timerLeft, st.pending, step.min, step.max)
		}
	}
	w.Flush()
	checkSamples(t, c, sent)
	after := quietQueue(t, q)
	disarmed(t, after, "after the Flush's pass")
	if after.wakesTimer != before.wakesTimer {
		t.Fatalf("%d timer wake-ups, want none", after.wakesTimer-before.wakesTimer)
	}
}
