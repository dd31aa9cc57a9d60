// Package procs sets how many processors run the Go code of a dnetwork process.
//
// A node's work is a few hundred small events per second: datagrams, DDS samples and
// timers. With more than one processor, Go's scheduler wakes a second thread for many
// of those events only for it to find nothing to do, and on a robot's computer (and
// more so in a virtual machine) each thread wake-up costs more than the event itself.
// One processor runs the same work with a fraction of the wake-ups; Cyclone DDS's own
// threads and system calls are not limited by it. The GOMAXPROCS environment variable,
// when set, always wins.
package procs
