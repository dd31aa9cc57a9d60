// Package teamsim runs a simulated team on one host: the engine of "dnetwork sim".
// Every part is the real one, talking over real UDP on 127.0.0.1 and real DDS:
//
//	part                  what it is                           talks
//	robot 1..N            node.Node on its own ROS node         GameController port and team port of
//	                      (dnetwork_<id>)                       its own; team packets by unicast to
//	                                                            every teammate, the monitor and the
//	                                                            GameController; return packets
//	feeder                ROS node dnetwork_sim driven by       publishes /dmotion_<id>/MotionInfo,
//	                      package world                         /dbehavior_<id>/BehaviorInfo,
//	                                                            /dvision_<id>/VisionInfo at 10 Hz;
//	                                                            reads /dnetwork_<id>/GCInfo (the
//	                                                            referee each robot follows) and
//	                                                            /dnetwork_<id>/TeamInfo (teammates)
//	GameController        gcsim.Simulator                       control packets by unicast to every
//	                                                            robot and the monitor; return packets
//	                                                            and team messages (budget) in
//	monitor               monitor.Monitor with a web page       its own GameController and team ports;
//	                                                            return packets through Observe
//
// Loopback has no broadcast and, on most machines, no multicast, so every robot has
// ports of its own (chosen by the kernel) and the team component's peers mode sends
// each packet to the list of the others. A unicast datagram reaches one socket only,
// so the monitor cannot share the robots' or the GameController's ports: it gets a
// copy of every team packet and control packet on ports of its own, and sees the
// return packets as a tee in front of the GameController's return socket.
//
// # DDS
//
// Every ROS node of the simulation is a participant in one domain (Config.Domain)
// with CycloneConfig: the loopback interface, no multicast, and unicast discovery to
// every participant index on 127.0.0.1 up to 100, so that ROS 2 tools on the host can
// join with the same configuration. Cyclone keeps one domain instance per process,
// which the nodes of the simulation share.
//
// # Game
//
// The GameController plays Script (the built-in game of gcsim with the penalty given
// to our player 3) at Config.Speed; the world runs at the same speed. Status reports
// the game, the robots online per the monitor, the teammates each robot's node
// publishes on its TeamInfo topic and the packet counters; Status.Line renders it for
// a terminal.
package teamsim
