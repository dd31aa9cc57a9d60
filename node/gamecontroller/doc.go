// Package gamecontroller is dnetwork's GameController client: the component that listens
// for the referee's control packets on UDP 3838, tells the robot what the game state means
// for it, and answers with status (return) packets on 3939.
//
// # Receive path
//
// Every datagram taken from the socket's queue ends in exactly one counter of Counters:
//
//	cause                meaning                                                 malformed
//	Filtered             source outside Config.AllowFrom                         no
//	Header               not "RGme"/"RGTD"                                       yes
//	Length               length does not match the header's version              yes
//	Version              unknown version                                         yes
//	Range                a field outside its version's range                     yes
//	Monitor              "RGTD": the copy meant for monitor programs             no
//	NotOurTeam           neither team of the packet is Config.Team               no
//	PlayerOutOfRange     Config.Player beyond the layout's players (7 in SPL13)  no
//	OtherGameController  valid for our team, from a GameController not followed  no
//	Unconfirmed[cause]   from the GameController followed, held (below)          no
//	Accepted             valid for our team, from the GameController followed    -
//
// ("malformed": the datagram is also reported to the socket with ReportMalformed), so
// Counters.Received == Counters.Accepted + Counters.Dropped(). In the node the socket's
// worker calls Prefilter before its queue: Filtered, Header, Length, Version and Monitor
// drops are counted there, the same way (the socket counts them as filtered instead of
// malformed or delivered), so a flood of junk never fills the queue. Every layout of the
// codec is accepted (HL v12 in three sizes, SPL v12 … v18, HSL v19/v20). Warnings about
// dropped packets are rate-limited to one per cause per Config.WarnInterval; the
// not-our-team warning names the team numbers seen since the previous one.
//
// # Changes no GameController makes in one packet
//
// Control packets carry no checksum of their own: one corrupted on the way with a valid
// UDP checksum decodes. A packet whose change from the last accepted one no
// GameController makes in one step (confirm.go: a score moving by more than one, a
// state transition the rules do not allow, a set play or penalty without its timer,
// teams or colours changing during play or alone between halves, a score moving alone,
// a clock rising in play or falling further than it ticks while the GameController sends
// the packets between the two (their packet numbers count them; a clock that a second
// packet confirms to count faster, gc-sim at a speed above 1, sets that
// GameController's pace), a budget growing) is held and counted in
// Counters.Unconfirmed by cause; it is never published itself. The next packet is
// accepted when it follows the held one (which it confirms: a GameController repeats
// its packet) or the last accepted one (the held one was corrupted). Ordinary changes
// (state changes, set plays, penalties with their timer), the first packet of a
// GameController and a packet of another layout (a different GameController program:
// corruption cannot change the layout) are accepted at once; the built-in games of
// gc-sim (above speed 1: but the one or two packets that show the pace), the captures
// of real GameControllers and a game on the GameController's own logic hold nothing but
// an untimed penalty.
//
// # Which GameController is followed
//
// The component locks onto the first GameController that sends a valid packet for our
// team and keeps following it as long as it stays connected (a packet within
// Config.Timeout). Valid packets for our team from any other address meanwhile are
// counted as OtherGameController and otherwise ignored; only when the followed
// GameController has been silent for Timeout does the next valid packet, from whichever
// address, take over. Following the first rather than the most recent keeps the robot's
// view consistent when a second GameController (a test instance on a laptop, the next
// field's GameController with a team number clash) broadcasts a different game: a robot
// that switched with every packet would flip between two games. Whenever valid packets
// for our team came from more than one address within Config.MultiWindow, Status
// reports MultipleGameControllers and a rate-limited warning names the addresses.
// Config.AllowFrom (or transport.AllowFrom on the socket) resolves the conflict.
//
// # Published topics
//
// GCInfo (dmsgs.GCInfo) is published at Config.PublishRate on the component's clock,
// also before the first packet and while disconnected: connected is true while the last
// accepted packet is younger than Config.Timeout; when it is older, the last derived
// state is kept and published with connected false (as the ZJUDancer client did). When
// the clock goes back (a simulation reset) the last packet counts as received at the new
// time: connected stays true for Timeout of the new time, as if it had just come.
// With Config.PublishOnChange it is also published at once when a packet changes
// anything but the clocks (secs_remaining, secondary_time, secs_till_unpenalised), and
// when the connection comes back, so a robot sees PLAYING without waiting for the next
// periodic tick. Before the first packet gc_version is empty and message_budget is -1.
// While no GameController is connected and nobody subscribes to GCInfo (a publisher
// that can signal its audience, as ros.Publisher does), the ticker stops and the
// return packet's ticker too: they start again when a packet is accepted or somebody
// subscribes, and gcinfo_published counts the ticks missed meanwhile as publications
// for nobody (idle.go). Both tickers tick once per instant of their grid, but an
// accepted packet within half a period of the next instant takes that tick at once
// (idletick.NewEarly), so that with a GameController sending at 2 Hz the periodic
// GCInfo and the return packet go out on its packets' wake-ups and no timer wakes the
// robot for them; the GCInfo of a tick then waits up to a fifth of a period to leave
// with the next write of the process (bus.PublishQueued). While packets come, a tick's
// timer waits up to half a period past its instant for one, and the tick then acts as
// of its instant (a GameController connected then is answered).
//
// GameControlData (dmsgs.GameControlData), the whole version-independent packet, is
// published when an accepted packet differs from the previous one in anything but the
// packet number, when the GameController followed changes, and on the first packet
// after the connection was lost. Its stamp is the component clock's time at receipt.
//
// # Return packets
//
// While connected, a return packet goes by unicast to the followed GameController's
// address at Config.ReturnPort (3939) every 1/Config.ReturnRate (1 Hz by default,
// 0.5 … 2 Hz allowed), on a ticker of its own: the rate does not depend on how often the
// GameController sends (HSL sends bursts at 5 Hz); a packet only moves a return by up
// to half a period (see above). Nothing is sent while disconnected
// (the ZJUDancer client sent even then, to a GameController that may be gone). The
// packet goes out through the component's own socket (source port 3838).
//
// The version follows the layout of the last accepted packet (Config.ReturnVersion
// overrides it):
//
//	layout               return  contents
//	HL v12 (all sizes)   v2      team, player, message (ALIVE, or a RequestMessage)
//	SPL v12, v13         v3      team, player, ALIVE (the 2019-2021 SPL GameControllers)
//	SPL v14 … v18, HSL   v4      player, team, fallen, pose, ball age, ball
//
// SPL v14 takes v4: its GameController moved to return v4 in January 2022, before any
// competition used v14. The v4 fields come from the latest MotionInfo and VisionInfo
// handed to SetMotion and SetVision: fallen = !stable (0 until the first MotionInfo,
// never the invalid 255); pose = robot_pos with x, y from cm to mm and the heading from
// degrees to radians (field frame: origin at the centre, +x towards the opponent goal);
// ball = ball_field (robot-relative) from cm to mm, taken from the last VisionInfo that
// saw the ball; ball age = seconds since that VisionInfo on the component's clock, -1 if
// the ball was never seen. Non-finite inputs are sent as 0, so every packet passes the
// GameController's checks.
//
// # Concurrency
//
// Run owns the receive loop and the tickers. SetMotion, SetVision, RequestMessage,
// Snapshot and Status may be called from any goroutine; the state they share sits behind
// one mutex that is never held while publishing or sending. SetMotionAt and SetVisionAt
// take a message handed over after it arrived, with its arrival time (the ball's time
// when it sees the ball). Invariant: a function set with SetInputSync (before Run) is
// called on Run's goroutine before every return packet is built from the inputs, and
// never with the mutex held, so it may hand held-back messages over through the setters.
package gamecontroller
