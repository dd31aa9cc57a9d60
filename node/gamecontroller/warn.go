package gamecontroller

import "time"

// kind is a cause of drops and warnings; warnings are rate-limited per kind.
type kind uint8

const (
	// Drop causes, one per field of Counters.
	causeFiltered kind = iota
	causeHeader
	causeLength
	causeVersion
	causeRange
	causeMonitor
	causeNotOurTeam
	causePlayer
	causeOtherGC
	// Warnings only.
	warnReturn
	warnPublish
	warnRequest
	numKinds
)

// limiter lets through at most one warning per kind per interval and counts the ones it
// held back, so the next warning can say how many there were. It is used by the Run
// goroutine only.
type limiter struct {
	every      time.Duration
	last       [numKinds]time.Time
	used       [numKinds]bool
	suppressed [numKinds]uint64
}

// allow reports whether a warning of kind k may be logged now, and how many were held
// back since the last one that was.
func (l *limiter) allow(k kind, now time.Time) (ok bool, suppressed uint64) {
	if l.used[k] && now.Sub(l.last[k]) < l.every && !now.Before(l.last[k]) {
		l.suppressed[k]++
		return false, 0
	}
	suppressed = l.suppressed[k]
	l.used[k], l.last[k], l.suppressed[k] = true, now, 0
	return true, suppressed
}
