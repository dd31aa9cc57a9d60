// Package directcall calls a C function the way Go's runtime calls C inside a cgo call
// (runtime.asmcgocall: the function runs on the thread's system stack), but without
// the cgo call's passage through the runtime's system-call path around it.
//
// Why: every cgo call enters that path (entersyscall), and after an idle spell (all
// processors idle) its first step wakes the runtime's monitor thread (sysmon) from its
// deep sleep; sysmon then polls every 20 µs while the call lasts and, when the call
// outlasts two of its ticks, takes the processor away and starts another thread to run
// it, while the calling thread, back from C, must find a processor again. For a node
// that writes one DDS sample per event, a few times a second each, that is two or three
// more thread wake-ups per event than the event itself costs (measured in
// node.BenchmarkTeamOfSix: sysmon about 40-50 wake-ups a second, work moving between
// three threads). A direct call costs none of them.
//
// Invariants, which callers must keep:
//
//   - The C function returns promptly: it never blocks on anything, because while it
//     runs the goroutine keeps its processor and no other Go code runs on it, and a
//     stop of the world (for the garbage collector) waits until it returns.
//   - The C function never calls back into Go, directly or through anything it calls.
//   - Go memory it is given is only used during the call (as with cgo) and is kept
//     alive by the caller.
//
// The risk, which is why it is off by default: Call jumps into runtime·asmcgocall, a
// function the Go runtime neither exports nor promises to keep. A Go release that
// renames it or changes its calling convention may break the build or, worse, the
// program silently; and if the C function ever blocks (Cyclone waiting inside a
// write), the goroutine keeps its processor and the next garbage collection's stop of
// the world waits for it: the whole process stalls. Direct calls are therefore made
// only in builds with the tag dnetwork_directcall (go build -tags dnetwork_directcall),
// and only on amd64 with Go releases up to 1.26, whose asmcgocall they were checked
// against; everywhere else Available is false, Call is not to be used, and callers
// make ordinary cgo calls. The race detector models synchronisation through C at cgo
// calls only, so in race builds a caller that hands data to other goroutines through C
// makes an empty cgo call beside each direct call (package dds does).
package directcall
