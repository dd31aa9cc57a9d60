// Package swarm is dnetwork's swarm messaging component: it gives the robot's other ROS
// nodes the virtual sockets of osrf/swarm (see package transport/swarm for the frame
// format and the mapping to UDP) as two topics and a neighbour list.
//
// The component is off by default (Config.Enabled); a disabled component opens nothing,
// its Run only waits for its context and Send fails with ErrDisabled.
//
// # Sending
//
// Send takes a dmsgs.SwarmMessage, as received from the send topic, from any goroutine:
//
//	field  meaning
//	src    empty or this robot's name (Config.Name); anything else is refused (ErrSource)
//	dst    a robot name from Config.Hosts, an IPv4 address, "broadcast" or "multicast"
//	port   the virtual port, 1..65535; 0 means 4100 (the ROS default of the field)
//	data   the payload, at most 1500 bytes; a longer one is refused (ErrTooLarge), never
//	       truncated
//
// As in osrf/swarm, unicast reaches the robot bound to (its address, port), broadcast
// every robot bound to its own address on the port, multicast every robot bound to
// "multicast" on the port, and a robot never receives its own messages: a send to this
// robot's own name is accepted and counted (Status.Swarm.ToSelf) but delivered nowhere.
// Every call ends in exactly one of Counters' send causes:
//
//	SendRequests == SendAccepted + Disabled + Oversize + BadPort + BadSource + BadDestination + SendErrors
//	SendAccepted == Swarm.Sent + Swarm.ToSelf
//
// # Receiving
//
// The component binds this robot's address on every port of Config.Ports (which also
// receives broadcasts to those ports) and "multicast" on every port of
// Config.MulticastPorts. Each frame delivered there is published as a dmsgs.SwarmMessage:
// src is the sender's name, dst this robot's address (or the alias the sender used),
// "broadcast" or "multicast", port the virtual port, data the payload and stamp the
// component's clock time when the frame was handled (the stamp of a message to send is
// ignored); the time of the last one is also in Status.LastReceived.
// Frames the swarm layer drops (own echoes, unicast for other robots, unknown senders,
// senders beyond Config.Range, unbound ports, malformed frames) are counted in
// Status.Swarm; every frame delivered to the component is published or counted:
//
//	Swarm.Delivered == Received == Published + PublishErrors
//
// # Neighbours
//
// Every 1/Config.NeighborsRate seconds of the component's clock (1 Hz by default) the
// robots heard within Config.NeighborWindow (and within Config.Range of this robot, when
// a range is set) are published as dmsgs.Neighbors, sorted by name, with the address
// each is reached at: its Config.Hosts entry ("10.0.1.2", or "127.0.0.1:4101" with a
// port), the name itself for an unlisted IPv4 sender, or "" for an unlisted name. The
// message's stamp is the clock time of the publication and ages[i] how long before it
// names[i] was last heard (0 if the clock went back since; a robot heard more than
// NeighborWindow ahead of the clock is no neighbour). The neighbour table runs on
// the component's clock, so it follows simulation time.
//
// # Communication range
//
// With Config.Range > 0 (metres), positions fed through SetPosition decide who is in
// reach: frames from robots farther away are dropped (Swarm.OutOfRange) and such robots
// are no neighbours. A robot whose position, or this robot's own, is unknown is in range.
// The node feeds this robot's position from VisionInfo and, in ModeNetwork only, the
// teammates' from their team packets (by source IP through Hosts, forgotten when the
// teammate goes offline); several robots on one host cannot be told apart by IP, so in
// the other modes the node warns at start that the range has no effect.
// Invariant: a function set with SetInputSync (before Run) is called before every range
// check reads this robot's own position, never with a lock of the component's held, so
// it may hand a held-back VisionInfo over through SetPosition.
//
// # Modes
//
// Config.Mode picks the mapping to UDP (see transport/swarm): ModeNetwork for one robot
// per host on a real network (Hosts as "name=ip"), ModePorts for several robots on one
// host with a UDP port each (every Hosts entry, this robot's included, as
// "name=127.0.0.1:port"), ModeHostMulticast for several robots on one host sharing
// Config.UDPPort through a host-only multicast group.
package swarm
