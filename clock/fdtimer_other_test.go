//go:build !linux

package clock

import (
	"testing"
	"time"
)

// Outside Linux there is no timerfd and inImpl skips the wall clock's real-time runs,
// which are the only callers of these.

func fdStopped(t *testing.T, _ any)                 { t.Fatal("no timerfd on this system") }
func fdIdle(t *testing.T, _ Timer)                  { t.Fatal("no timerfd on this system") }
func fdArmedFor(t *testing.T, _ Timer, _ time.Time) { t.Fatal("no timerfd on this system") }
