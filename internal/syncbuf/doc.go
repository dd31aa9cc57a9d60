// Package syncbuf gives tests a bytes.Buffer that several goroutines may write while the
// test reads it: logs of nodes and commands, output of processes.
//
// Invariant: every Write and String holds the buffer's lock, so a String never sees
// half of a Write.
package syncbuf
