// Package swarm gives robots the virtual sockets of osrf/swarm's RobotPlugin on top of
// a real UDP transport worker: [Node.Host], [Node.Bind], [Node.SendTo] and
// [Node.Neighbors] ([Node.NeighborsHeard] adds when each was last heard).
//
// # Semantics (as in osrf/swarm)
//
//   - Addresses are robot names, mapped to IPs by Config.Peers, or IPv4 literals.
//     "broadcast" and "multicast" are destinations, "boo" ([BaseStation]) is the
//     conventional base station, which binds [BasePort] 4200. The default virtual
//     port is [DefaultPort] 4100.
//   - Bind(address, port, cb) accepts only Host() or "multicast". Binding Host() also
//     receives broadcasts on that port. Each endpoint can be bound once.
//   - SendTo(data, dst, port) refuses payloads over [MaxPayload] (1500) bytes with
//     [ErrTooLarge]; nothing is truncated.
//   - Unicast reaches the robot bound to (its address, port); broadcast reaches every
//     robot bound to its own address on the port; multicast reaches every robot bound
//     to "multicast" on the port. A robot never receives its own frames.
//   - Neighbors() lists the robots heard within Config.NeighborWindow (3 s by default)
//     and, when Config.Range is set, within that many metres by Config.Position.
//     Frames from robots out of range are dropped, like the comms model of osrf/swarm
//     where every recipient must be a neighbour of the sender.
//
// Callbacks run one at a time on the node's dispatch goroutine and own their data.
// A slow callback fills the transport queue, whose overflow is counted, not blocking.
//
// # Wire format
//
// All virtual ports share one real UDP port ([DefaultUDPPort] 4100); each datagram is a
// [Frame] whose small header names the sender and the virtual destination, so that a
// receiver can tell unicast for it, for another robot, broadcast and multicast apart
// even when several robots share one address:
//
//	"SWRM" | version 1 | kind | port (2, big-endian) | len(src) | len(dst) | src | dst | payload
//
// # Mapping to UDP ([Mode])
//
//	                 unicast               broadcast              multicast
//	ModeNetwork      peer IP:UDPPort       interface broadcast    Group:UDPPort
//	ModePorts        peer 127.0.0.1:port   a copy to every peer   a copy to every peer
//	ModeHostMulticast Group:UDPPort, TTL 0, loopback on, for every kind
//
// ModeNetwork is for one robot per host; the socket is bound to the chosen interface
// (see package transport), so broadcasts leave through it alone. ModePorts and
// ModeHostMulticast run several robots on one host: with per-robot ports nothing is
// shared; with host-only multicast all robots share UDPPort and Group on an interface
// with the MULTICAST flag (for "lo": ip link set lo multicast on), every robot hears
// every frame, and the header decides who keeps it.
//
// # Counters
//
// [Node.Stats] adds swarm-level counts to the transport's: frames heard back from
// ourselves (OwnEcho) and unicast frames for other robots (NotForUs) are rejected by
// the transport filter before they are copied; frames from unknown robots, out of
// range or for unbound ports are counted after decoding; frames that do not decode are
// reported to the transport as malformed.
package swarm
