// Package record is the node's recorder: it writes every datagram the node's sockets
// receive and send, and the 3D simulator's say and hear messages, to rotating pcapng
// files (package transport/capture) that Wireshark, tshark and "dnetwork decode" open.
//
// Invariants:
//   - Recording never blocks or slows a socket: a socket's Tap only copies the datagram
//     into the capture writer's bounded queue; what cannot be written is counted by
//     cause and shown on /diagnostics.
//   - Records are stamped with the node's clock (the simulator's /clock under
//     use_sim_time), so a recording lines up with the robot's own logs and bags.
//   - One interface block per socket, named after it (gamecontroller, team, worldinfo,
//     swarm, sim3d); the GameController's return packets and the team monitor copy
//     are recorded on the socket that sends them.
//   - The 3D simulator's say and hear messages are recorded as UDP datagrams between
//     127.0.0.1 and the simulator's agent port 3100 whose payload is the message text:
//     say as sent, hear as received.
//   - Recording is off by default (record.enabled).
package record
