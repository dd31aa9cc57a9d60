// Package idletick gives the node's components a ticker they stop while its ticks
// would do nothing (nobody subscribed to what they publish, no GameController to answer)
// and start again when they would, so that an idle robot's process is not woken for
// them: on a small computer every wake-up costs more than the work of a tick.
//
// # Invariants
//
//   - A running Ticker made by New is a clock.Ticker of the component's clock (one by
//     NewEarly a one-shot timer of it, below): on the wall clock its ticks fall on the
//     whole multiples of the period since the Unix epoch, so a Ticker started again
//     ticks on the same instants as one that never stopped.
//
//   - A stopped Ticker holds no clock ticker (on the wall clock: no timerfd, no
//     goroutine) and its channel is nil, which a select never receives from.
//
//   - Missed counts the grid instants a stopped Ticker did not tick: those after the
//     instant it was stopped at, up to and including now. A component that counts its
//     ticks adds them, so its counters are those of a ticker that never stopped. On
//     simulation time, whose tickers tick a period after they are made (New), the count
//     is the same within one per stop.
//
//   - A Ticker made by NewEarly ticks once per grid instant as well, on a one-shot
//     timer of the clock; an event (Early) may take a tick up to half a period before
//     its instant, or, while events come, up to half a period after it, and then the
//     timer does not fire for it. Ticks are never closer than half a period.
//
// A Ticker is owned by one goroutine (the component's Run); Missed is a function of
// times only and may be called anywhere.
package idletick
