package idletick

import (
	"context"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
)

// Publish publishes what collect returns once every period of clk on pub until ctx is
// done. While pub says nobody subscribes (bus.Listened), collect is not called and
// nothing is published; if pub signals changes of its audience (bus.AudienceChanges),
// the ticker also stops until a change brings a subscriber, and then ticks on the same
// grid again. Messages go out through bus.PublishQueued (periodic: no cgo call on this
// goroutine), each waiting up to a fifth of period for the next flush of anything
// else. A failed publish is handed to failed (if not nil; only while ctx is live) and
// the next tick publishes again: a periodic topic whose write fails once (DDS refused
// it) does not end the component's Run, which would stop the node.
func Publish[T any](ctx context.Context, clk clock.Clock, period time.Duration, pub bus.Publisher[T], collect func(now time.Time) *T, failed func(error)) {
	tk := New(clk, period)
	defer tk.Stop()
	audience := bus.AudienceChanges(pub)
	for {
		select {
		case <-ctx.Done():
			return
		case <-audience:
			if bus.Listened(pub) {
				tk.Wake(clk.Now())
			}
		case now := <-tk.C():
			if !bus.Listened(pub) {
				if audience != nil {
					tk.Idle(now)
				}
				continue
			}
			if err := bus.PublishQueued(pub, collect(now), period/5); err != nil && ctx.Err() == nil && failed != nil {
				failed(err)
			}
		}
	}
}
