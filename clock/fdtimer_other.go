//go:build !linux

package clock

import (
	"errors"
	"time"
)

var errNoTimerfd = errors.New("clock: no timerfd on this system")

// newFDTicker and newFDTimer fail outside Linux: the wall clock uses Go's timers.
func newFDTicker(time.Duration) (Ticker, error)     { return nil, errNoTimerfd }
func newFDTimer() (Timer, error)                    { return nil, errNoTimerfd }
func newFDTimerFunc(func(time.Time)) (Timer, error) { return nil, errNoTimerfd }

// GridTime returns t in Unix nanoseconds on the wall tickers' grid. Outside Linux the
// wall tickers run on Go's timers, placed by the system time when each is made: this
// is t's Unix time.
func GridTime(t time.Time) int64 { return t.UnixNano() }
