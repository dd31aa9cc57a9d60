// Package worldinfo encodes and decodes the Fawkes world info protocol: the UDP multicast
// datagrams in which Fawkes-based soccer robots share their pose, velocity, ball and
// opponent observations, the game state and penalties (Fawkes' WorldInfoTransceiver,
// protocol version 2, default group 224.16.0.1 port 2806).
//
// The package knows bytes only: no sockets, no clock. Package
// github.com/robocup-dnetwork/dnetwork/transport/worldinfo builds the transceiver on it.
//
// # Datagram
//
// A datagram is one plaintext of at most [MTU] (1400) bytes, encrypted as a whole (see
// below). The plaintext is an 8-byte header followed by records:
//
//	[Header 8 B][record header 4 B][body][record header 4 B][body] ...
//
// Header (multi-byte fields big-endian, "network byte order"):
//
//	off size field     value
//	0   2    magic     0xBEEF (bytes BE EF)
//	2   1    version   2
//	3   1    reserved  not initialised by Fawkes senders: any value is accepted
//	4   4    seq       per-sender counter, starts at 0, +1 per datagram
//
// Record header (big-endian): type uint16, size uint16 (body length, without the 4 header
// bytes).
//
// # Record bodies
//
// Record bodies are copied from the sender's memory in host byte order. Every robot Fawkes
// ran on, and every platform this package targets, is little-endian, so bodies are encoded
// and decoded LITTLE-ENDIAN (float32 IEEE 754, uint32) while the headers stay big-endian.
// A big-endian Fawkes peer would not interoperate with anyone, including this package.
// Bit-fields follow the GCC x86 layout: the first declared field occupies the least
// significant bits of a little-endian uint32 word.
//
//	type name                  body  layout (offset: field)
//	1    pose                  48    0 x, 4 y, 8 theta, 12 covariance[9]
//	2    velocity              48    0 vel_x, 4 vel_y, 8 vel_theta, 12 covariance[9]
//	3    relative ball         52    0 ball word, 4 bearing, 8 dist, 12 slope, 16 covariance[9]
//	4    relative ball velo    48    0 vel_x, 4 vel_y, 8 vel_z, 12 covariance[9]
//	5    opponent pose         28    0 uid u32, 4 dist, 8 bearing, 12 covariance[4]
//	6    opponent disappeared  4     0 uid u32
//	7    fat world info        480   0 fat flags word, 4 pose(48), 52 velocity(48),
//	                                 100 relative ball(52), 152 rel. ball velo(48),
//	                                 200 opponents[10] (10 x 28)
//	8    game state            4     one bit-field word
//	9    penalty               4     one bit-field word
//	10   global ball           52    0 ball word, 4 x, 8 y, 12 z, 16 covariance[9]
//	11   global ball velo      48    0 vel_x, 4 vel_y, 8 vel_z, 12 covariance[9]
//
// Covariances are row-major 3x3 (9 floats) or 2x2 (4 floats) matrices. Units are metres,
// m/s and radians; the field frame has its origin at the centre, X towards the opponent
// goal, Y to the right, Z down. Bearings are 0 straight ahead, positive to the right.
//
// Bit-field words (bit 0 = least significant):
//
//	ball word   history bits 0-23 (signed), visible bit 24 (set = visible, Fawkes -1),
//	            reserved 25-31
//	fat flags   valid_pose 0, valid_velo 1, valid_relball_pos 2, valid_relball_velo 3,
//	            num_opponents 4-11, reserved 12-31
//	game state  game_state 0-3, state_team 4-5, score_cyan 6-13, score_magenta 14-21,
//	            our_team 22-23, our_goal_color 24, half 25, reserved 26-31
//	penalty     player 0-3, penalty 4-9, reserved 10-15, seconds_remaining 16-31
//
// Reserved bits are kept by the decoder so that every valid record re-encodes to the same
// bytes.
//
// # Relative ball sent as type 10
//
// Fawkes senders since 2009 label the relative ball record with type 10 (global ball)
// instead of 3. The two bodies have the same size (52 bytes), so a single record cannot be
// told apart: a type-10 record decodes as [GlobalBall], exactly as a Fawkes receiver
// does (its x, y, z then hold bearing, dist and slope). One case can be told apart: a
// Fawkes sender always appends the relative ball before the global ball, so a datagram
// with two adjacent type-10 records carries the relative ball first. [Type10RelBall] finds that
// case; receivers may deliver the first record as a relative ball. Encoders write type 3
// for a [RelBall] unless told otherwise ([Builder.AddAs]).
//
// # Encryption
//
// Every datagram is encrypted on its own with AES-128 in ECB mode with PKCS#7 padding
// (OpenSSL's EVP_aes_128_ecb with default padding): the ciphertext is
// 16*(floor(len(plain)/16)+1) bytes, at most 1408 for a 1400-byte plaintext. The key is
// the first 16 bytes of the key string followed by a NUL byte and zero padding; for key
// strings of 15 or more characters this is exactly what Fawkes passes to OpenSSL (the
// default key "AllemaniACsX0rz" has 15 characters, its 16th key byte is the NUL). Fawkes
// reads undefined memory for shorter keys; this package pads them with zeros. Fawkes' IV
// has no effect in ECB mode and is not used. ECB is obfuscation, not security: it keeps
// other teams' tools from reading the packets by accident and nothing more.
package worldinfo
