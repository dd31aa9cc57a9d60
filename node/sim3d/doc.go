// Package sim3d is the node's team transport for the RoboCup 3D simulation league. There
// robots cannot use UDP for team talk: the agent process sends (say <message>) to the
// server (rcssserver3d) and receives (hear ...) perceptors. A Team carries the same
// team information over that channel:
//
//	MotionInfo, BehaviorInfo, VisionInfo ──Set*──▶ Team ──▶ Sim3dSay  ──▶ agent ──(say …)──▶ server
//	agent's (time (now t)) on sim3d/time ─SetServerTime─▶ Team
//	agent's (hear …) as Sim3dHear ──HandleHear──▶  Team ──▶ TeamInfo ──▶ behaviour
//
// The agent sends the latest Sim3dSay once, with its next action message; dnetwork never
// talks to the server itself.
//
// # Saying
//
// The robot's state is packed by proto/sim3d's TeamCodec into 20 characters (player,
// sequence number, role, team-play state, fallen, position and heading, ball position
// and age; the key from Config.Key). The inputs are:
//
//	TeamState   from
//	player      Config.Player
//	seq         +1 for every message said (wraps at 256)
//	role        BehaviorInfo.current_role
//	state       BehaviorInfo.team_play_state
//	fallen      the last MotionInfo is not stable (false before the first one)
//	x, y, head  VisionInfo.robot_pos (cm → m, degrees); 0 before the first VisionInfo
//	ball        VisionInfo.ball_global of the last VisionInfo with see_ball; its age is 0
//	            while the latest VisionInfo sees it, else the time since that one
//	            arrived; unknown before, after Config.BallForget, and when the
//	            clock went back past that time (a restarted simulation)
//
// Values the codec cannot carry exactly (a role or state above 7, a non-finite
// position) are not altered: the slot is skipped and counted as an encode error.
//
// SetMotionAt, SetBehaviorAt and SetVisionAt take a message handed over after it arrived,
// with its arrival time (from which the ball's age counts). Invariant: a function set
// with SetInputSync (before Run) is called at every evaluation of the slot rule, on
// Run's goroutine or in SetServerTime, before the inputs are read and never with the
// Team's lock held, so it may hand held-back messages over through the setters.
//
// # Slots
//
// The server delivers to each listener at most one teammate message per two cycles: a
// listener's capacity starts at 2, a heard message costs 2 and every cycle adds 1, and a
// message that finds less than 2 is lost (the first one processed in a cycle wins). A
// say sent in answer to the percept of cycle s is heard in cycle s+2. Teammates therefore
// take turns (see Slot): slots of k = Config.SlotCycles cycles are dealt out in turn, and
// player n talks in the first cycle of its slot,
//
//	cycle mod (k·TeamSize) == k·(n-1)
//
// which for k = 2 is UT Austin Villa's rule (cycles mod 22 == 2·(u-1)). The default k = 4
// adds two cycles of margin: the say crosses ROS to the agent and reaches the server one
// cycle after the turn, or two or three when the machine is busy. With k = 2 a say one
// cycle later than the one before it takes the capacity the next speaker's message needs;
// with k a say up to k-2 cycles later is still heard (see Slot for measurements). Every
// player talks once per round of k·TeamSize cycles.
//
// Cycles are counted on one of two time bases:
//
//   - server time, passed to SetServerTime by the agent's relay on sim3d/time for every
//     percept, (time (now t)): cycle = round(t / Cycle). SetServerTime evaluates the rule
//     at once, so a message due in a cycle is published as soon as the cycle's percept
//     has arrived. The server time stays the base while it is younger than
//     Config.ServerTimeTimeout on the clock; it is never extrapolated, so no message is
//     said early. This is the base to use: every agent sees the same server time.
//   - the clock otherwise: cycle = floor(clock time since the Unix epoch / Cycle). Under
//     use_sim_time the ROS clock follows the simulator's /clock; on wall time the robots'
//     clocks must agree to a few milliseconds (NTP), and turns drift against the server's
//     cycles, which run slower than real time on a busy machine.
//
// The hear perceptor's time is the game time, which stands still outside play (before
// kick-off, after a goal), so it is not used as a time base.
//
// Run evaluates the rule on a ticker once per Config.Cycle. Evaluations are counted as
// said or not due; own slots that pass between two evaluations (late ticks) are counted as
// missed; a change of time base or a time that goes backwards (a restarted simulation)
// is a resync.
//
// # Hearing
//
// HandleHear takes each heard message. It is dropped, and counted by cause, when it is
// our own (the server echoes every message to its speaker), labelled with another team
// than Config.TeamName (when that is empty: than the label of our own latest echo, so
// that two teams with the same key still tell each other apart), made with another key (checksum mismatch: Foreign), not a team
// message of this codec at all (Malformed: length, alphabet, format, field ranges), from
// a teammate claiming our own number, or a repeat of the sender's last message within a
// round. Every other message is published as a dmsgs/TeamInfo:
//
//	TeamInfo field         value
//	sender_time            receive_time - age
//	receive_time           the clock when HandleHear was called
//	age                    server cycles from the sender's turn to the hear: the hear's
//	                       server_time gives its cycle h, the sender's last turn at or
//	                       before h-2 the cycle s it decided in; age = (h-s)·Cycle, two
//	                       cycles or more for a say relayed late. Without server_time
//	                       (0), two cycles. The agent-to-node delay is not included.
//	sequence               the 8-bit sequence number (wraps at 256)
//	format                 FORMAT_DNET (TeamInfoFormat): .msg has no sim3d value, and
//	                       the dnet-only fields sequence, fallen and ball_age are filled
//	player_number          player
//	team_number            Config.TeamNumber
//	incapacitated, fallen  fallen
//	role, state            role, state
//	robot_pos              x, y in cm; z = heading in degrees, (-180, 180]
//	see_ball               ball known with age 0 (the sender sees it now)
//	ball_global            ball x, y in cm; zero when unknown
//	ball_age               seconds; NaN when unknown
//	time_since_last_kick,
//	time_to_reach_ball     NaN (not carried)
//	everything else        zero
//
// Positions are exact to ±0.5 cm, headings to ±0.352°, ball ages to ±25 ms up to 12.7 s
// (the codec's tolerances). Status counts everything: Evaluations = Said + NotDue +
// EncodeErrors + SayPublishErrors and Heard = Accepted + Dropped.Total(), plus per-mate
// counts and sequence gaps.
package sim3d
