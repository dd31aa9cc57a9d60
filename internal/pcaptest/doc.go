// Package pcaptest reads the UDP datagrams of packet captures (pcap files) for tests, so
// captures of real GameControllers and robots can serve as regression tests. It reads
// files only: no sockets, no live capture.
//
// Invariants: every datagram returned was a complete UDP/IPv4 datagram in an Ethernet
// frame of the file; its payload is a copy (it does not alias the reader's buffer); times
// are relative to the first packet of the file, in file order.
package pcaptest
