// Package sim3drelay is a minimal RoboCup 3D simulation agent that connects a robot's
// dnetwork node to rcssserver3d: it owns the robot's agent connection and relays the
// team channel between the server and the node's topics.
//
//	server ──(time (now t))──────────▶ Relay ──Time──▶ /dnetwork_<id>/sim3d/time (rosgraph_msgs/Clock)
//	server ──(hear …)────────────────▶ Relay ──Hear──▶ /dnetwork_<id>/sim3d/hear (dmsgs/Sim3dHear)
//	/dnetwork_<id>/sim3d/say ──Say──▶ Relay ──(say …)──▶ server
//
// It does not walk, kick or look: it builds the body, joins the team, beams the robot to
// its place and stands. It is the agent of "dnetwork sim3d-relay" and of the end-to-end
// test against a real server; a team's own agent does the same relaying next to its
// motion and vision.
//
// # Connection
//
// Run dials Config.Server (retrying until Config.ConnectTimeout), sends (scene <path>
// <type>), answers the first percept with (init (unum n)(teamname T)), waits for the game
// state that confirms the uniform number, beams the robot with (beam x y rot) and closes
// Ready. Every percept is answered with (syn), which the server, in sync mode, waits for
// from every agent before it simulates the next cycle. The server loses agents that
// connect in the same cycle, so agents of one server are started one at a time, each
// after the previous one is Ready. A handshake step that gets no answer within
// Config.HandshakeTimeout is an error.
//
// # Relaying
//
// Every percept is parsed with proto/sim3d. Once the robot is in the game, its server
// time is published on Time, so the node counts its talking slots in the server's cycles,
// then its hear perceptors as Sim3dHear with that server time (server_time); before, the robot is in no team and its own messages would come back
// as someone else's. A percept that does not parse is counted (ParseErrors), skipped and
// still answered; a hear perceptor that does not decode is counted (BadHears) and
// skipped, and the rest of its percept is relayed. Say queues a message for the server; the goroutine that owns the
// connection writes it at once in its own frame, so the server takes it in the cycle
// after the one the node decided it in, or one later when ROS or the machine is slow.
// Messages the server would mangle or choke on (proto/sim3d.ValidateSaySafe) are refused
// and counted, and so are says that come before the robot joined.
//
// # Invariants
//
// One goroutine reads the connection and only reads; Run's goroutine does every write.
// Every percept is counted once: Percepts = decoded + ParseErrors. Every say handed to
// Say is counted once, when written or dropped: Said + SayRefused + SayQueueFull +
// SayEarly + SayStopped (says that Run's end leaves unwritten, or that come after it).
package sim3drelay
