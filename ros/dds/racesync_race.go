//go:build cgo && race

package dds

// #include "rawcdr.h"
import "C"

// raceEnabled reports a race build.
const raceEnabled = true

// raceSync tells the race detector what the ring's release/acquire pair already
// guarantees: everything a goroutine did before its cgo call that led to a sample (a
// write, say) happens before the handler that receives the sample. The detector models
// synchronisation through C only at cgo calls, so race builds make an empty one after
// loading the ring's head; other builds make none.
func raceSync() { C.rawcdr_sync() }
