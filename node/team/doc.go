// Package team is dnetwork's team-communication component: it tells the teammates what
// this robot is doing, at a rate that follows the game and stays within the team's
// message budget, and publishes what the teammates tell it.
//
// The rules it is built from are plain values with table tests: RateConfig and
// Scheduler (the dynamic send rate), BudgetPolicy and BudgetTracker (the budget governor,
// under the league profile of package league). Component puts them on a clock and a
// socket.
//
// # Inputs and outputs
//
//	SetMotion(MotionInfo)     stable -> incapacitated (true until the first one), fallen
//	SetBehavior(BehaviorInfo) role, team-play state, targets, time to reach the ball,
//	                          team ball, voronoi (first 6 points)
//	SetVision(VisionInfo)     see_*, robot and landmark positions, qualities; the ball
//	                          age is the time since a VisionInfo last saw the ball
//	GameView.Snapshot()       GameController state, penalty, budget (GameSnapshot)
//	Deps.Conn                 the team socket (transport.Worker in the node)
//	Deps.Publisher            one dmsgs/TeamInfo per accepted teammate packet
//	Status()                  counters, teammates, budget, interval, for diagnostics
//	SetMateHook(f)            f hears each accepted packet's player, source IP and
//	                          robot_pos, and each such teammate going offline
//
// Each setter has an At form (SetMotionAt, SetBehaviorAt, SetVisionAt) for a message
// handed over after it arrived: its arrival time stands wherever the plain setter reads
// the clock (the input's time, the time the ball was last seen). Invariant: a function
// set with SetInputSync (before Run) is called before every read of the inputs (the
// send rule of each tick and plan, Status) and never with the component's lock held,
// so it may hand held-back messages over through the setters; the state's owner (see
// Where the work runs) and Status's callers may call it at the same time.
//
// # Sending
//
// The component ticks every Config.Tick (30 Hz) of its clock (the ROS clock, so sim
// time when use_sim_time is set): the k-th tick is k ticks after Run started. With a
// clock that makes timers (clock.TimerClock) and a GameView that notifies its changes
// (GameNotifier, as the node's does), it does not wake on every tick: it plans the
// decision of the coming ticks and arms a timer for the first tick on which something
// is due (our packet, the monitor copy, a teammate's timeout), and plans again when an
// input changes the rate row, the GameController's view changes or a teammate packet is
// accepted. The ticks in between are counted when it next wakes (Status adds those
// elapsed since), so the counters read as if it had woken on every tick. Each tick
// ends in exactly one Decision, checked in this order:
//
//	silent-start      Run started less than GCWait ago and no GameController
//	                  packet has come yet: the state and budget are unknown
//	silent-penalised  the GameController penalises us
//	silent-stopped    play is stopped and SilentWhenStopped is set (off by default)
//	silent-budget     only the reserve is left (in uncounted states too, but the
//	                  penalty shoot-out), or the state does not count and
//	                  SilentUncounted is set
//	not-due           the interval has not passed: the rate row rounded to the
//	                  nearest whole tick, or the budget allowance's interval rounded
//	                  up, whichever is longer (Scheduler.Interval): the rate never
//	                  exceeds the allowance
//	encode-error      a value the format cannot carry
//	too-large         above the league's size cap (128 bytes SPL, 512 HSL/HL)
//	send-error        every send failed
//	sent
//
// The rate row comes from our team-play state, whether vision sees the ball and how far
// it is (RateConfig); with no teammate online, Rate.Alone is a floor. The budget is the
// GameController's figure, taken as truth at every GameController packet (in a Run that
// ticks, with no notifications: whenever it changes), minus every packet we send and every teammate
// packet we accept in a state that counts (League.Counted) since then;
// the allowance spreads what is left above the reserve over the rest of the game and
// the robots online (ourselves plus teammates). Without a budget figure only the rate
// row applies.
//
// Packets go to the directed broadcast address of the socket's interface on the team
// port, 10000 + team number unless Config.Port says otherwise (ZJUDancer robots used
// 57335 for every team). Every Config.MonitorInterval (1 s) a copy goes by unicast to
// Config.Monitor when it is set, whatever the game state, and is not counted.
//
// Format booster (booster.go) is the Booster vendor stack's TeamCommunicationMsg
// (package proto/booster), metres and radians on the wire: in BoosterUnicast mode the
// 120-byte main revision, sent by unicast on 30000 + team to each robot a Discovery
// found (none: the tick is a send-error, counted in NoPeers); in BoosterBroadcast mode
// the 128-byte 2026 revision, broadcast on the team port. Either revision is accepted.
// It has no time: its stamp is its receive time and our own packets are told by their
// communication id. Format zju is the 296-byte ZJUDancer memory image: the robot's values (cm, degrees)
// go on the wire unchanged. It exceeds the SPL cap, so Validate rejects zju with league
// spl. Format dnet (version 2: 113 bytes with its checksum, 125 signed) carries a sequence number per
// packet, the ball age, fallen, penalised, voronoi points and a clock echo; with Config.AuthKey every packet is
// signed with HMAC-SHA-256 (teaminfo.Key). Sequence numbers start at 1 when the
// component starts; receivers tell a restart from a replay by the stamp, which is our
// clock's time. Format robocup is the HL standard protobuf (package proto/robocup, in
// metres and radians, with the extension fields of Config.RobocupExtension; robocup.go
// maps the inputs onto it); like zju it has no sequence number (no replay filter, no
// loss figure) and no room for a tag. Its wrong-format, foreign-team (current_pose.team
// read as a team number), malformed and range drops are decided by decoding it.
//
// Where the work runs. Invariant: one goroutine owns the component's state (all but
// the inputs and Status's copy) and does all its sending, receiving and publishing; the
// state changes hands only as Run starts and ends. A ticking Run, and a timed Run on a
// plain Conn, own it on Run's goroutine. A timed Run on a Conn that can hand its
// datagrams over (bus.HandlerConn, as the node's transport.Worker) gives it to the
// socket's goroutine: its handler takes each read's datagrams at once, and everything
// else wakes the socket (the worker's Wake moves its read deadline to now): the clock's
// timer at the next planned tick (a timerfd on the wall and ROS clocks, the /clock
// subscription under simulation time), an input that changes the rate row (a poke)
// and a GameController change (GameFuncNotifier: the node's view; a plain
// GameNotifier goes through Run's goroutine). Each wake-up finds what is due by the
// clock, so a late or early one (a firing that raced with a re-arming) does no harm. Run's goroutine
// clears the handler before it flushes and returns (SetHandler waits for a call in
// progress), and takes over if the socket's worker stops while ctx lives.
//
// Locks: mu guards the inputs (written by the setters) and the part of the state Status
// reads (shared, the prefilter); it is held briefly and never while calling out
// (publish, send, inputSync, GameView; the setters' poke takes no lock). Lock order:
// the socket worker's handler lock (transport), then mu.
//
// # Receiving
//
// Every datagram from the socket is counted in ReceiveCounters.Received and ends as
// accepted (published) or in one drop cause, checked in this order:
//
//	wrong-size     not a packet of the configured format by size or magic
//	wrong-format   a packet of the other format, or another dnet version: only the
//	               configured format is accepted, so a misconfigured teammate shows here
//	foreign-team   another team number (read before the packet is decoded)
//	auth           with a key: no tag, or a wrong one
//	malformed      decodes badly (zju and booster bool bytes, dnet reserved bits,
//	               player 0)
//	checksum       dnet: the checksum does not match (corrupted on the way)
//	range          a value the format does not define (a role or play state out of
//	               its enum: corrupted, or a teammate of a newer revision; a booster
//	               player number outside 1..255)
//	unchecked      dnet without a key: neither checksum nor tag (a node from before
//	               the checksum), as a corrupted packet could be
//	own            our own packet coming back (broadcast or multicast loopback)
//	conflict       our player number on a packet we did not send
//	stale          sender time further than MaxAge from our clock (off by default)
//	duplicate      dnet: a sequence number already accepted (teaminfo.ReplayFilter)
//	replay         dnet, with a key: older than the window, or from before a restart
//	unconfirmed    dnet: held by the replay filter until the sender's next packet
//	               confirms it: every sender's first packet (so a corrupted player
//	               number invents no teammate), and a packet whose number or stamp
//	               moves further than the sender can have moved (a corrupted or
//	               forged packet, a restart, a clock set; without a key also an old
//	               packet)
//	late           dnet: reordered, older than the sender's last published packet:
//	               not published, so TeamInfo never goes back to an older state; its
//	               clock sample, link figures and budget count as an accepted one's
//
// Undecodable datagrams (wrong-size, wrong-format, malformed, checksum, range,
// unchecked, auth) are also reported to the socket with ReportMalformed. In the node the team socket's worker calls Prefilter
// before its queue: the drops that need only the size and first bytes (wrong-size,
// wrong-format by magic, foreign-team) are counted there, the same way, and the socket
// counts them as filtered instead, so a flood of junk never fills the queue. Accepted
// packets are published one message each, in the order received; with a publisher that
// can hold messages (bus.HeldPublisher: ros.Publisher) those of packets queued together
// are held and flushed once the queue is empty, or every 16 while it never empties, so
// a burst of teammate packets reaches a subscriber in one datagram and nothing is held
// while the component waits. They are published as dmsgs/TeamInfo in
// the ZJUDancer units (cm, z of a pose = heading in degrees) with sender_time,
// receive_time (our clock), age, sequence, format and authenticated; dnet values the
// sender did not know stay NaN, and zju packets, which carry no time_to_reach_ball and
// ball_age, publish 0 there. A teammate is online for Config.TeammateTimeout (3 s) after
// its last accepted packet; the online teammates (and we ourselves, as ZJUDancer robots
// do) fill mates_online of our packet, count for the budget and the Alone rule, and are
// listed by Status. dnet version 1 packets are accepted too (they carry no echo).
//
// # Teammates' clocks
//
// Every dnet packet we send to the team answers one teammate's latest packet (its
// echo: the teammate's player number, its stamp, how long we held it); teammates whose
// latest packet is unanswered take turns, the one answered longest ago first. Every
// accepted packet bounds its sender's clock offset from below (stamp minus our receive
// time), every echo of one of our recent packets bounds it from above (package
// clock/offset: a bound is the second tightest of its side, ages by 100 ppm and never
// expires, and a sample that contradicts the estimate is rejected and counted until
// three such packets agree, which means a clock was set). Once both bounds exist,
// TeamInfo carries clock_offset_known, clock_offset, clock_offset_bound,
// sender_time_local (sender_time on our clock) and delay (the packet's one-way delay),
// and Status lists the estimate per teammate.
//
// Without a key the filters above stop what one corrupted or forged packet can do to
// the sender's history and clock: the replay filter and the clock estimate (package
// clock/offset) each need two packets in a row, or three, before they move. What such a
// packet carries is published all the same, since nothing tells a corrupted position
// from a true one; only the key's tag does (and then every such packet is an auth drop).
//
// # Link quality
//
// Every packet of a teammate that passes the checks (accepted, late or duplicate) feeds
// its link figures (package proto/linkq, over Config.LinkWindow, 10 s): loss from the
// gaps in its sequence numbers, the mean one-way delay (its receive time minus its stamp
// on our clock, known once its clock offset is, within the offset's bound plus a
// millisecond), jitter, duplicates, reordered packets and the age of its last packet.
// Status.Links lists every teammate heard within LinksFor (a minute); the node publishes
// them as dmsgs/TeamLinks and in /diagnostics. Each clock estimate also counts the samples
// it rejected and the jumps it made (a clock set).
//
// # Several robots on one host
//
// Loopback has no broadcast. Set Config.Peers to send every packet by unicast instead:
//
//   - per-robot ports: each robot's socket is bound to its own port on "lo" (or "any"),
//     and Peers lists the teammates' 127.0.0.1:port;
//   - host-only multicast: every robot's socket binds the same port with SO_REUSEADDR,
//     joins one group (e.g. 239.0.0.1) on an interface with the MULTICAST flag with
//     MulticastTTL transport.HostOnlyTTL and MulticastLoopback, and Peers is that group;
//     every robot then hears its own packets too, which are dropped as own.
//
// A packet counts once against the budget however many peers it goes to.
package team
