package transport

// arenaSize is the size of the blocks the queued payloads are copied into.
const arenaSize = 4096

// copyPayload returns a copy of b for the queue, cut from the current block (a new one
// when it has no room left): one allocation for many small datagrams. A copy's capacity
// ends with it, so an append to it cannot reach the next one; a consumer that keeps one
// keeps its block alive (at most arenaSize bytes, or the payload's own size when larger).
// Run's goroutine only.
func (w *Worker) copyPayload(b []byte) []byte {
	n := len(b)
	if n > cap(w.arena)-len(w.arena) {
		if n > arenaSize/4 {
			return append(make([]byte, 0, n), b...)
		}
		w.arena = make([]byte, 0, arenaSize)
	}
	i := len(w.arena)
	w.arena = append(w.arena, b...)
	return w.arena[i : i+n : i+n]
}
