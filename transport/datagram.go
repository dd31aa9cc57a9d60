package transport

import (
	"net/netip"
	"strconv"
	"time"
)

// Cast says how a datagram was addressed on the wire, judged from the destination
// address in its IP header.
type Cast uint8

const (
	// CastUnicast is a datagram sent to one of this host's addresses.
	CastUnicast Cast = iota
	// CastBroadcast is a datagram sent to 255.255.255.255 or to the directed broadcast
	// address of the receiving interface.
	CastBroadcast
	// CastMulticast is a datagram sent to an IPv4 multicast group.
	CastMulticast
)

// String returns "unicast", "broadcast" or "multicast".
func (c Cast) String() string {
	switch c {
	case CastUnicast:
		return "unicast"
	case CastBroadcast:
		return "broadcast"
	case CastMulticast:
		return "multicast"
	}
	return "cast(" + strconv.Itoa(int(c)) + ")"
}

// Datagram is one received UDP datagram as the worker hands it to its consumer.
//
// Datagrams taken from [Worker.Datagrams] own their Payload: it is a private copy the
// consumer may keep (small ones are cut from shared 4 KiB blocks, each with its capacity
// ending at its last byte, so keeping one keeps its block). The Datagram passed to a
// [Filter] aliases the worker's read buffer and is valid only during that call.
type Datagram struct {
	// Payload is the UDP payload.
	Payload []byte
	// Src is the sender's address and port.
	Src netip.AddrPort
	// Dst is the destination address from the IP header (this host's address, the
	// broadcast address or the multicast group) and the local port. Its address is
	// invalid when the kernel did not report it.
	Dst netip.AddrPort
	// Cast classifies Dst.
	Cast Cast
	// Interface is the name of the interface the datagram arrived on ("" if unknown).
	Interface string
	// IfIndex is the index of that interface (0 if unknown).
	IfIndex int
	// Time is when the worker read the datagram from the socket.
	Time time.Time
}

// limitedBroadcast is 255.255.255.255, the broadcast address that is never routed.
var limitedBroadcast = netip.AddrFrom4([4]byte{255, 255, 255, 255})

// classify returns the Cast of a datagram sent to dst and received on an interface
// whose directed broadcast address is bcast (invalid if it has none).
func classify(dst, bcast netip.Addr) Cast {
	switch {
	case dst.IsMulticast():
		return CastMulticast
	case dst == limitedBroadcast, bcast.IsValid() && dst == bcast:
		return CastBroadcast
	}
	return CastUnicast
}
