// Package sim3d speaks the RoboCup 3D simulation server's (rcssserver3d / SimSpark) agent
// protocol as far as the network hub needs it: the framing of the agent connection, the
// effector commands an agent sends, the perceptors that carry time, game state and heard
// messages, and a team codec that packs one player's state into a single say message.
//
// The package knows bytes only: no sockets, no clock.
//
// # Agent connection
//
// Every message in either direction is one frame: a 4-byte big-endian payload length
// followed by the payload, an S-expression text. AppendFrame writes a frame; SplitFrame
// cuts frames off a buffer and FrameReader reads them from a stream, both with a payload
// limit.
//
// # Effectors (agent → server)
//
//	(scene rsg/agent/nao/nao_hetero.rsg 0)   build the body (robot type optional)
//	(init (unum 1)(teamname FHO))            join a team; unum 0 = next free number
//	(beam -6 0 0)                            x, y in metres, rotation in degrees
//	(he1 -2.5)                               hinge joint rate
//	(lae1_2 -2.3 1.2)                        universal joint rates
//	(say helloworld)                         broadcast to players within 50 m
//	(syn)                                    end of actions in sync mode
//
// Joint rates are angular speeds in rad/s (1 rad/s turns a joint 1.146 degrees in a
// 20 ms cycle). The server clamps them at MaxJointRate = π·351.77/180 ≈ 6.1396 rad/s, the
// Nao's fastest motor, and the builders clamp to the same bound. Numbers are written as
// the shortest decimal that reads back to the same float32, the server's precision.
//
// What the server does with a say message:
//
//   - more than 20 bytes, or any byte >= 0x80: dropped whole;
//   - a space, tab or 0x7F: the message is cut at that byte;
//   - '(' or ')': the expression breaks; unbalanced parentheses freeze the server;
//   - a lone double quote, a trailing backslash or a leading ';': the whole server
//     freezes (every agent stalls, no recovery);
//   - quote pairs, apostrophes and \": arrive changed ("it's" is heard as "it", a\"b as
//     a"b).
//
// ValidateSay accepts 1 to 20 bytes of 0x21..0x7E without parentheses (92 symbols), the
// messages the server neither drops nor cuts; ParseCommand uses it to read any agent's
// traffic. ValidateSaySafe also refuses the double quote, apostrophe and backslash and a
// leading ';', and the Say builder uses it: every message it writes is heard exactly as
// written, and no message it writes can stall the server.
//
// # Perceptors (server → agent)
//
// Tree parses a server message into a flat, reusable index of atoms and lists without
// copying it; nesting depth and node count are bounded and no input makes it panic.
// Percept picks out the parts used here:
//
//	(time (now 93.60))                              server time, seconds
//	(GS (unum 1) (team left) (t 0.00) (pm BeforeKickOff))
//	(hear TeamA 12.30 self helloworld)              own message (always heard)
//	(hear TeamA 0.8 -179.99 Test_1)                 a message from direction -179.99°
//	(hear 0.4 self Test_2)                          server with LabelMessages off
//
// The hear time is the game time; the direction is the bearing of the speaker in the
// listener team's field frame, in degrees. A say sent in answer to the percept of cycle s
// is heard in cycle s+2 by players within 50 m. A player hears at most one teammate and
// one opponent message every two cycles (40 ms), plus its own. Perceptors this package
// does not know (GYR, ACC, HJ, FRP, See, the fork's (ti ...) inside GS, ...) are skipped.
// So is, counted in Percept.BadHears, a hear that does not decode: what other agents say
// reaches every listener (an opponent that says "" is heard as (hear B 0.000 -1.523 ),
// without a message), and it must not cost the rest of the percept. The team label is
// taken as the server writes it, any bytes: the server does not check team names.
//
// # Team message
//
// TeamCodec packs a TeamState into exactly 20 characters of a 64-symbol alphabet, the
// base64url set A-Z a-z 0-9 - _, which avoids every character with special handling
// (space, parentheses, quotes, backslash, ';', and '#'). The capacity is
// 20 × log2(64) = 120 bits, used as follows (bit 0 is the most significant bit of the
// first character; each character carries six bits):
//
//	bits     width  field     encoding
//	0-3      4      format    1
//	4-7      4      player    uniform number 1..11
//	8-15     8      seq       sender's counter, wraps
//	16-18    3      role      0..7
//	19-21    3      state     team-play state 0..7
//	22       1      fallen    1 = fallen
//	23-34    12     x         round(x/0.01 m) + 2048, saturated to 0..4095
//	35-46    12     y         same
//	47-55    9      heading   round(heading/(360/512)°) mod 512
//	56-67    12     ball x    as x; 0 when the ball is unknown
//	68-79    12     ball y    as y; 0 when the ball is unknown
//	80-87    8      ball age  round(age/50 ms) saturated to 254; 255 = ball unknown
//	88-119   32     check     CRC-32C of the key followed by the 11 bytes of bits 0-87
//
// Tolerances: positions are exact to ±0.5 cm over [-20.48, 20.47] m, which covers the
// 30 × 20 m field with its surroundings, and saturate at the nearer bound outside it;
// the heading is exact to ±0.352° and decodes into (-180, 180]; the ball age is exact to
// ±25 ms up to 12.7 s and reads 12.7 s for anything older. Discrete fields out of range
// and non-finite numbers are encoding errors, never silently changed.
//
// Decoding checks the length (20), the alphabet, the format, the checksum and the field
// ranges (player 1..11, no ball position with an unknown ball). A message of another team
// passes all of them with a probability below 2^-32. The checksum is seeded with a key
// (NewTeamCodec), so two teams using this codec with different keys reject each other's
// messages; the key is not a secret and gives no authentication. Every accepted message
// re-encodes to the same 20 characters.
//
// The largest safe alphabet, 0x21..0x7E without parentheses, quotes, backslash and ';',
// has 88 symbols: 20 × log2(88) ≈ 129.2 bits. The nine extra bits are not needed for the
// fields above and would cost multi-word base conversion instead of six bits per
// character.
package sim3d
