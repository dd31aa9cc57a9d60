package warnlimit

import "time"

// Limiter decides, per cause of type K, whether a record may be logged now. The zero
// value with Every set is ready to use; Every <= 0 lets every record through. A Limiter
// is not safe for concurrent use: its owner calls it from one goroutine or under its
// own lock.
type Limiter[K comparable] struct {
	// Every is the least time between two records of the same cause.
	Every time.Duration

	causes map[K]entry
}

type entry struct {
	last       time.Time
	suppressed uint64
}

// Allow reports whether a record of cause k may be logged at now and, when it may, how
// many records of k were held back since the last one that was.
func (l *Limiter[K]) Allow(k K, now time.Time) (ok bool, suppressed uint64) {
	e, seen := l.causes[k]
	if seen && now.Sub(e.last) < l.Every && !now.Before(e.last) {
		e.suppressed++
		l.causes[k] = e
		return false, 0
	}
	if l.causes == nil {
		l.causes = make(map[K]entry)
	}
	l.causes[k] = entry{last: now}
	return true, e.suppressed
}
