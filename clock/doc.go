// Package clock gives dnetwork's components their time: the system clock (Wall), or a
// manual clock driven by simulation time (/clock) or by a test (Manual). Components
// take a Clock (or a TimerClock) instead of calling time.Now, time.NewTicker or
// time.NewTimer.
//
// # Invariants
//
//   - A Ticker drops ticks for a slow receiver (one tick waits at most) and never
//     delivers after Stop returns.
//   - A Timer delivers once per arming, with the clock's time, at or after the time it
//     was armed for; after Reset returns only the new arming delivers; after Stop
//     returns nothing is delivered.
//   - Wall tickers tick on the whole multiples of their period since the Unix epoch, so
//     tickers whose periods divide each other tick at the same instants and the
//     node's periodic work (GCInfo, return packets, diagnostics) shares its wake-ups.
//
// # Wall timers on timerfd (Linux)
//
// On Linux every wall Ticker and Timer is a timerfd on CLOCK_MONOTONIC, waited for by a
// goroutine of its own in Go's netpoller and read with raw system calls. Go's own
// timers cost a robot more wake-ups than the ticks themselves: the scheduler sleeps in
// epoll_wait with a timeout in whole milliseconds, rounded down, so most timers wake
// the process once a fraction of a millisecond early and again when due, and the
// runtime's monitor thread, asleep while the process is idle, wakes for every timer
// too. With timerfds and no Go timer armed the process sleeps in epoll_wait without a
// timeout and the kernel wakes one thread once, at the instant, for every timer due
// then (an idle node: 3 wake-ups per second instead of 17). A ticker's expiries are
// computed from one reading of the system time per process, so tickers of
// commensurable periods expire at exactly the same nanosecond.
//
// Each wall Ticker or Timer holds a descriptor and a goroutine until Stop, so every
// one must be stopped. Where a timerfd cannot be made (another system, no
// descriptor left, or one the netpoller refuses) the wall clock falls back to Go's
// timers (GoWall), with the same ticks and the same guarantees at the cost of more
// wake-ups. Tests run GoWall in a testing/synctest bubble, on fake time; a timerfd's
// tests read its state (/proc/self/fdinfo, its goroutine's end) instead of sleeping.
package clock
