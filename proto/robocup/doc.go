// Package robocup encodes and decodes the Humanoid League's standard team message, the
// protobuf robocup.humanoid.Message of robocup.proto (RoboCup-Humanoid-TC/RobocupProtocol,
// carried here with its licence; robocup.pb.go is generated from it by gen.sh).
//
// The message is in metres, radians and seconds. It has no sequence number, no
// checksum and no room for an authentication tag. Fields 1–100 are the standard's;
// teams extend it above 100 and the extensions collide: [ExtBitBots] puts a float at
// field 101 (wire type 5) and 104–108, [ExtNUbots] a message at 101 (wire type 2).
// [Decode] reads both, tells field 101 apart by its wire type, and keeps every field it
// does not know in the message's unknown fields. [Append] writes the extension fields of
// one profile after the standard fields.
//
// current_pose.team is declared as a colour (BLUE, RED), but Bit-Bots and NUbots robots
// write their team number there. [Packet.TeamNumber] and [Packet.Colour] give both
// readings; a sender writes what its profile writes ([Team]).
//
// Invariants: Decode never panics and fails only with an error wrapping [ErrMalformed]
// (not a protobuf message, or an extension field of the wrong wire type); Append of a
// Packet that Decode returned gives a message that decodes to the same values. The
// package touches no socket.
package robocup
