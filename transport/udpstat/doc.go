// Package udpstat reads the kernel's UDP counters of a network namespace (the "Udp:"
// lines of /proc/net/snmp), which tell why the kernel dropped datagrams before any
// socket could read them:
//
//	RcvbufErrors  a socket's receive buffer was full (raise its receive buffer, or
//	              read faster)
//	InCsumErrors  the UDP checksum was wrong: the datagram was corrupted on the way
//	              (a bad link), never a sender's fault in dnetwork
//	InErrors      every receive error: the two above, plus memory shortage and
//	              datagrams a socket filter refused
//	NoPorts       datagrams to a port nobody listens on (not an error of ours)
//
// A socket's own drop count (SO_RXQ_OVFL, transport.Stats.KernelDrops) covers the first
// two for that socket alone but cannot tell them apart; these counters tell them apart
// for the whole namespace. Datagrams of 76 bytes or less are checksummed before the
// kernel looks for their socket, so their checksum errors reach InCsumErrors but no
// socket's count.
//
// Invariants: Parse accepts exactly the two-line header/value form of the "Udp:" table
// (any order and number of columns, unknown columns ignored) and fails with ErrFormat
// otherwise; Sub never underflows (a counter that went back, as after a namespace was
// re-created, reads 0).
package udpstat
