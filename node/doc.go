// Package node is the dnetwork ROS 2 node: it puts the components of the node/...
// packages on real sockets and real topics and runs them together.
//
//	dnetwork node --ros-args --params-file params/robot1.yaml
//
// Load reads the command line's parameter files and -p rules, chooses the node's
// name (dnetwork_<robot_id>) and declares every parameter with its type, range and
// description (Declare; "dnetwork node --list-params" prints the table). New builds the
// node on a ros.Node and Run runs it until its context is cancelled.
//
// # Sockets
//
// Every socket is a transport.Worker on the interface of the interface parameter:
//
//	socket          port                                   used by
//	gamecontroller  gamecontroller.port (3838)             GameController client; return packets leave from it
//	team            team.port, 0: 10000 + team_number      team component (when team.enabled)
//	worldinfo       worldinfo.port (2806), group joined    world info component (when worldinfo.enabled)
//	swarm           swarm.udp_port or the hosts' ports     swarm component, which opens it (when swarm.enabled)
//
// # Topics
//
// The node's own topics live under /dnetwork_<id>; the robot's other nodes publish
// under /dmotion_<id>, /dbehavior_<id> and /dvision_<id>. All names can be remapped
// with -r.
//
//	topic                          type                           direction  QoS
//	/dnetwork_<id>/TeamInfo        dmsgs/TeamInfo                 out        reliable, keep last 10
//	/dnetwork_<id>/GCInfo          dmsgs/GCInfo                   out        reliable, keep last 10
//	/dnetwork_<id>/GameControlData dmsgs/GameControlData          out        reliable, transient local, keep last 1
//	/dnetwork_<id>/WorldInfo       dmsgs/WorldInfo                out        reliable, keep last 10
//	/dnetwork_<id>/swarm/received  dmsgs/SwarmMessage             out        reliable, keep last 10
//	/dnetwork_<id>/swarm/neighbors dmsgs/Neighbors                out        reliable, keep last 10
//	/dnetwork_<id>/swarm/send      dmsgs/SwarmMessage             in         reliable, keep last 10
//	/dnetwork_<id>/sim3d/say       dmsgs/Sim3dSay                 out        reliable, keep last 10
//	/dnetwork_<id>/sim3d/hear      dmsgs/Sim3dHear                in         reliable, keep last 10
//	/dnetwork_<id>/sim3d/time      rosgraph_msgs/Clock            in         reliable, keep last 10
//	/dmotion_<id>/MotionInfo       dmsgs/MotionInfo               in         best effort, keep last 10
//	/dbehavior_<id>/BehaviorInfo   dmsgs/BehaviorInfo             in         best effort, keep last 10
//	/dvision_<id>/VisionInfo       dmsgs/VisionInfo               in         best effort, keep last 10
//	/diagnostics                   diagnostic_msgs/DiagnosticArray out       reliable, keep last 10
//
// Outputs use the default profile of rclcpp (reliable, volatile, keep last 10), which
// every subscriber matches; GameControlData, published only when the packet changes,
// is transient local so that a node started later gets the current packet at once.
// The three inputs are state that is republished many times a second, where only
// the latest sample matters; a best-effort subscription matches publishers of either
// reliability (a reliable one would not hear a vision node that publishes with the
// sensor-data profile). inputs.reliable subscribes them reliably instead. The swarm
// and sim3d inputs are messages that must not be lost and are subscribed reliably.
// TeamInfo carries the UDP team component's teammates and, with sim3d.enabled, the
// 3D simulator channel's.
//
// # Services
//
//	service                        type                           QoS
//	/dnetwork_<id>/GCMessage       dmsgs/GCMessage                services (reliable, keep last 10)
//
// GCMessage puts a message ("manually penalise me", "manually unpenalise me",
// goalkeeper, ready after a game interruption) into the next return packet to the
// GameController, once. It answers accepted false with the reason when no
// GameController is connected or when the return packets it takes carry no messages
// (only HL return packets v2 do); see gamecontroller.Component.SubmitMessage.
//
// Every MotionInfo goes to the GameController (fallen in return packets v4), team,
// world info and sim3d components; every BehaviorInfo to team, world info and sim3d;
// every VisionInfo to the GameController (pose and ball in return packets), team,
// world info, sim3d and, with a swarm range, the swarm component (own position).
// With a swarm range in network mode, each accepted teammate packet gives the swarm
// component the position of the robots swarm.hosts lists at its source IP, until the
// teammate goes offline (the team component's mate hook; swarmrange.go).
// The GameController component's state reaches the team component (budget, penalty,
// game state in the packets) and the world info component (game state record)
// through TeamGame and WorldInfoGame, read at every tick.
//
// # Diagnostics
//
// /diagnostics carries one diagnostic_msgs/DiagnosticStatus per part, named
// "dnetwork_<id>: <part>", every diagnostics.period (rqt_robot_monitor reads
// /diagnostics_agg: run diagnostic_aggregator or remap /diagnostics_agg:=/diagnostics):
//
//	node            identity, interface, inputs received and their age (warning when one
//	                is missing or older than InputStale), matched publishers
//	gamecontroller  connected, version, the GameController followed, more than one
//	                GameController (warning), game state, budget, return packets, drops
//	team            teammates online, budget left, send interval and why, decisions,
//	                every receive drop by cause (foreign team, auth, duplicate, replay, ...)
//	worldinfo       senders, cycles, drops (when enabled)
//	swarm           neighbours, send and receive counters (when enabled)
//	sim3d           slots, heard and dropped messages (when enabled)
//	record          the recording's file, records written and dropped by cause (when
//	                record.enabled; see package node/record)
//	socket <name>   chosen interface, state, every transport counter (see transport.Stats)
//
// # Threads
//
// A node process runs its Go code on one processor (internal/procs), so one thread at a
// time does all the node's Go work: the socket workers, the components, the clock's
// timers and the DDS readers' goroutines, each woken by Go's netpoller (epoll) for its
// socket, timerfd or eventfd, and handing work to the next goroutine through channels
// without waking another thread. The team component, the busiest, is owned by the team
// socket's goroutine: it takes each read's packets there (transport.Handler), and its
// timer's firing, a poke or a GameController change wakes that goroutine (the socket's
// read deadline moves to now). A burst of teammate packets, a tick or a change wakes
// one thread. A DDS write of a change (GCInfo after a GameController change) is a cgo
// call by the goroutine that publishes; the TeamInfo messages of a burst and the
// periodic messages (GCInfo's tick, diagnostics, team links: bus.PublishQueued) are
// held writes that go through the dds package's send queue, whose C thread makes them
// when the flush wakes it, so they make no cgo call and the runtime's monitor thread
// (sysmon, asleep while the node idles; a cgo call wakes it) sleeps on. A periodic
// message's flush wakes nobody: it rides the next flush of anything else (the next
// burst's) or, with nothing else, comes out a fifth of its period later (a timerfd of
// the queue's). Builds with the tag dnetwork_directcall (opt-in: it jumps into an
// unexported function of the runtime, package ros/dds/internal/directcall) make the
// small writes direct calls into Cyclone instead. Cyclone DDS runs its own threads: the
// receive thread (recvUC) takes every sample of the robot's inputs into its reader's
// ring in a C listener and signals the reader's goroutine only when the sample may
// change the team packet's rate (the inputs are deferred: read when needed); tev sends
// heartbeats and acknowledgements; dq.builtins handles discovery. In the six-robot
// benchmark that is one Go thread woken about 35 times a second (bursts of teammate
// packets, the team's send timer, the GameController's packets), the send queue's
// thread about 16 times, Cyclone's receive thread about 36 and tev 12; see
// docs/performance-c-floor.md for the figures beside a C program doing the same
// traffic.
//
// # Logging and shutdown
//
// The components log through a *slog.Logger that writes to the ROS logger (SlogLogger):
// stderr in rcutils' format and /rosout, as child loggers dnetwork_<id>.<component>.
// The components rate-limit their per-packet warnings; the node's own repeated
// warnings use Logger.WarnEvery. Run runs every socket and component under one
// errgroup: cancelling its context (SIGINT or SIGTERM in cmd/dnetwork) stops them all,
// and the first error of any of them stops the rest and is returned.
package node
