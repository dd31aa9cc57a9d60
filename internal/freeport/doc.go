// Package freeport hands out UDP ports to programs that must name a port before its
// socket opens: the tests that start nodes, and the simulated team of `dnetwork sim`.
//
// Invariants: a port handed out lies above the kernel's ephemeral range, so no socket
// bound to port 0 (a DDS participant's, another test's) takes it in the meantime; ports
// are handed out in turn from one counter shared through a locked file by every process
// of the machine, so two processes get the same port only after the range has wrapped;
// and each port was free for UDP on every address when it was handed out.
package freeport
