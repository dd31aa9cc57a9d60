package monitor

import "time"

// window counts events in the last span of time in buckets of rateResolution, so its
// memory is fixed however fast a sender talks. An event at t counts for every now with
// bucket(now) - len(buckets) < bucket(t) <= bucket(now).
type window struct {
	counts []uint32
	ids    []int64 // the bucket number each slot holds
}

func newWindow(span time.Duration) window {
	n := int(span / rateResolution)
	return window{counts: make([]uint32, n), ids: make([]int64, n)}
}

func bucketOf(t time.Time) int64 { return t.UnixNano() / int64(rateResolution) }

// add counts one event at t.
func (w *window) add(t time.Time) {
	id := bucketOf(t)
	i := int(uint64(id) % uint64(len(w.counts)))
	if w.ids[i] != id {
		w.ids[i], w.counts[i] = id, 0
	}
	w.counts[i]++
}

// count returns the events inside the window that ends at now.
func (w *window) count(now time.Time) int {
	hi := bucketOf(now)
	lo := hi - int64(len(w.counts))
	n := 0
	for i, id := range w.ids {
		if id > lo && id <= hi {
			n += int(w.counts[i])
		}
	}
	return n
}

// rate returns the events per second over the window that ends at now: the count
// divided by the whole window, as the TeamCommunicationMonitor reports rates.
func (w *window) rate(now time.Time) float64 {
	return float64(w.count(now)) / (float64(len(w.counts)) * rateResolution.Seconds())
}
