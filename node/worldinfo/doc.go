// Package worldinfo is the node's Fawkes world info component: at a fixed rate it tells
// the multicast group what this robot believes (its pose and velocity, the ball, the
// opponents it sees, the game state and its penalty), and it publishes what every other
// world info sender reports, one dmsgs/WorldInfo message per received datagram.
//
// The byte format is package proto/worldinfo; the sending and receiving rules (record
// order, encryption, sequence numbers, Fawkes' drop rules) are the Sender and Receiver
// of package transport/worldinfo. This package adds the robot: it turns the dmsgs
// inputs into records and the records into ROS messages, on the node's clock. The
// component is off by default (Config.Enabled): world info is for mixed teams with
// Fawkes-based robots, labs and simulation.
//
// # Sending
//
// Every Config.Interval (500 ms, 2 Hz) of the clock the component builds one datagram
// (two with Config.FatMessage) from the latest inputs and multicasts it to Config.Group
// (224.16.0.1:2806 by default). Inputs older than Config.InputTimeout (1 s) are not sent:
// a robot whose vision node stopped does not keep claiming a pose. Nor are inputs that
// arrived more than InputTimeout after now, when the clock went back (a restarted
// simulation). An input's age counts
// from its arrival: the setters' At forms (SetMotionAt, SetBehaviorAt, SetVisionAt) take
// that time for a message handed over later. Invariant: a function set with
// SetInputSync (before Run) is called at every send cycle before the inputs are read,
// and never with a lock of the component's held, so it may hand held-back messages over
// through the setters.
//
//	record           source                              sent when
//	pose             VisionInfo.robot_pos (cm, cm, deg)   vision fresh and loc_ok
//	velocity         MotionInfo.odometry, two cycles      pose sent, motion fresh, 2 samples
//	relative ball    VisionInfo.ball_field (cm)           vision fresh, ball ever seen
//	global ball      VisionInfo.ball_global (cm)          as pose, ball ever seen
//	game state       GameSource                           a GameController is heard
//	penalty          GameSource, Config.PlayerNumber      as game state, PlayerNumber > 0
//	opponent         VisionInfo.obstacles_field (cm)      vision fresh and see_obstacle
//	opp. disappeared the opponent tracker                 a tracked opponent is gone
//
// Units become metres, radians, m/s and rad/s. Covariances are sent as zeros: the dmsgs
// inputs carry no uncertainty. The relative ball's slope is 0 (the robot's camera height
// is not known here).
//
// Frames. The robot's nodes use the ROS convention: x forward (towards the opponent goal
// in the field frame), y to the left, angles counter-clockwise. Fawkes' frame has y to
// the right and angles (bearings, headings) clockwise, so y and every angle change sign on
// the way out unless Config.ROSFrameOnWire is set. The ZJUDancer field frame is fixed to
// the field, and BehaviorInfo.attack_right says whether our team attacks towards +x;
// Fawkes' field frame always has x towards the opponent goal, so while attack_right is
// false field positions, headings and velocities are turned by 180 degrees (unless
// Config.IgnoreAttackSide is set). Until a BehaviorInfo arrives the team is assumed to
// attack towards +x.
//
// Ball. The visibility history counts VisionInfo frames: +n after n frames in a row with
// see_ball, -n after n frames without, 0 before the first frame. While the ball is not
// seen, both ball records carry the last position seen, with visible false, as Fawkes
// specifies.
//
// Velocity. MotionInfo.odometry is the accumulated odometry (x, y in cm, heading in
// degrees, in the odometry frame). The velocity sent is the odometry displacement since
// the sample used in the previous cycle divided by the time between the two samples
// (MotionInfo.timestamp, or the time the sample arrived when the stamp is zero), turned
// into the robot frame at the mean odometry heading and then into the field frame with
// the pose's heading: an average over one send interval, free of the motion node's
// jitter. A window longer than two intervals plus InputTimeout, or a jump faster than
// 5 m/s or 4*pi rad/s (an odometry reset), restarts the average and sends nothing.
//
// Opponents. VisionInfo.obstacles_field lists obstacles without identities, but Fawkes
// requires a uid that names the same opponent across datagrams and is never reused once
// announced as disappeared. A small tracker matches each cycle's obstacles to the
// previous cycle's by nearest neighbour within Config.OpponentGate (0.5 m), in the field
// frame when the pose is known and in the robot frame otherwise; unmatched obstacles get
// new uids and unmatched tracks are announced as disappeared. At most
// Config.MaxOpponents (10) obstacles, the nearest, are sent. All tracks disappear when
// vision goes stale.
//
// Game state. GameSource is the GameController's view (the GameController component
// implements it, or GameFromGCInfo adapts a dmsgs.GCInfo):
//
//	Fawkes field     from
//	game_state       GC state: INITIAL 0, READY 1, SET 2, PLAYING 3, FINISHED 4 (Fawkes'
//	                 SPL values); STANDBY is sent as INITIAL
//	our_team         cyan if our GC team colour number is not above the opponent's
//	                 (blue 0 against red 1: cyan), else magenta
//	state_team       the kicking team: ours if Kickoff, both for a drop ball, else theirs
//	score_cyan/...   our and their score, by colour
//	our_goal_color   blue for cyan, yellow for magenta (a label: goals are white today)
//	half             first unless FirstHalf is false
//	penalty          Config.PlayerNumber, PENALTY_MANUAL while penalised (the league's
//	                 penalty codes do not map onto Fawkes' 2008 list), else PENALTY_NONE,
//	                 with the seconds till unpenalised
//
// # Receiving
//
// Every datagram from the socket goes through the Receiver (Fawkes' drop rules, counted
// by cause). An accepted datagram becomes exactly one dmsgs.WorldInfo: the sender's
// address, its sequence number (read from the datagram's first cipher block, which ECB
// decrypts on its own), the receive time on the node's clock, and every record of the
// datagram (singletons with has_*/valid set, opponents, disappeared opponents and
// penalties as lists; a fat record fills pose, velocity, relative ball, its velocity and
// opponents).
// Values are published as they are on the wire: Fawkes' frame, metres and radians.
// Undecodable datagrams are reported to the socket as malformed. Every datagram ends in
// exactly one of published, publish failed, or a receiver drop:
//
//	Status.Received == Status.Published + Status.PublishErrors + Status.Recv.Dropped()
//
// Per sender the component counts datagrams, records and drops and remembers the last
// sequence number; a sender silent for longer than Config.FlushAfter is forgotten, as the
// Receiver forgets its sequence number. After the clock went back (a simulation reset)
// a sender's silence counts from the reset, not from its last datagram.
//
// Several robots on one host cannot share world info through host-only multicast: they
// all send from the same address, and Fawkes tracks sequence numbers per address. Use
// network namespaces, or one robot per host.
package worldinfo
