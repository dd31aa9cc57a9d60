// Package replay sends the datagrams of a recording again, at the recorded pace or
// faster, to the addresses a port map gives, so that a recorded game can drive nodes
// or a monitor on loopback or inside a network namespace.
//
// Invariants:
//   - Only datagrams whose recorded destination port is in the map are sent; the
//     others are counted as unmapped, never sent anywhere else.
//   - Datagram i leaves at start + (t_i - t_0) / Speed, t being the capture times, so
//     gaps and bursts keep their shape; a datagram recorded before its predecessor is
//     sent at once. Speed 0 sends as fast as the socket takes them.
//   - One transport.Worker owns the sending socket; every send failure is counted.
package replay
