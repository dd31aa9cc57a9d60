// Package teaminfo encodes and decodes the fixed-size packets teammates broadcast to
// each other, in two formats, and converts both to one model, [State].
//
// # Format zju
//
// ZJUDancer and HighTorque robots send the in-memory image of the generated C++ struct
// dmsgs::TeamInfo (HighTorque revision): [ZJUSize] = 296 bytes, little-endian, natural
// alignment, no header, no checksum. Receivers accept a datagram of exactly that size.
// [ZJUPacket] mirrors it field by field:
//
//	off size field                 type        notes
//	  0    8 txp_timestamp         u32 sec, u32 nsec  sender clock
//	  8    8 recv_timestamp        u32 sec, u32 nsec  receiver-local, senders leave 0
//	 16    1 player_number         u8
//	 17    1 team_number           u8
//	 18    1 test                  u8          never assigned
//	 19    1 incapacitated         bool
//	 20    1 role                  u8          Role
//	 21    1 attack_right          bool
//	 22    2 padding
//	 24   24 dest                  3×f64       cm, cm, deg
//	 48   24 final_dest            3×f64       cm, cm, deg
//	 72   24 attack_target         3×f64       cm
//	 96    4 time_since_last_kick  f32         s
//	100    1 state                 u8          PlayState
//	101    1 priority              bool
//	102    1 kicker_id             u8
//	103    6 mates_online          6×bool
//	109    1 see_ball              bool
//	110    1 see_circle            bool
//	111    1 see_goal              bool
//	112   24 robot_pos             3×f64       cm, cm, deg
//	136   24 ball_field            3×f64       cm, relative to the robot
//	160   24 ball_global           3×f64       cm
//	184   24 circle_field          3×f64       cm
//	208   24 circle_global         3×f64       cm
//	232   24 goal_field            3×f64       cm
//	256   24 goal_global           3×f64       cm
//	280    4 ball_quality          f32
//	284    4 field_quality         f32
//	288    4 field_consistency     f32
//	292    1 gc_connected          bool
//	293    1 gc_state              u8
//	294    1 gc_state2             u8          GameController secondary state
//	295    1 padding
//
// Padding is written as zero and ignored on read. Floats are data: NaN and infinities
// pass through unchanged, bit for bit. Bool bytes must be 0 or 1: a C++ bool holds
// nothing else, so any other value means the datagram is not a TeamInfo of this
// revision; such packets fail with [ErrBool]. role and state must be a [Role] and a
// [PlayState] the enums define, else decoding and encoding fail with [ErrRange]. The
// format has no checksum: a corrupted float passes unnoticed (use dnet for that).
//
// # Format dnet
//
// dnet is dnetwork's own format: versioned, fixed-size, little-endian, small enough for
// the SPL cap of 128 bytes with a tag. Version 2 ([DNetVersion], written) is
// [DNetSize] = 109 bytes, followed by the authentication tag ([DNetTaggedSize] = 125) or
// by a checksum ([DNetCheckedSize] = 113); version 1 ([DNetVersion1], still read) is the
// same without the echo: [DNetSizeV1] = 102 bytes, 118 with the tag, 106 with the
// checksum.
//
//	off size field               unit / code                       range
//	  0    3 magic               "DNt" = 44 4e 74
//	  3    1 version             2 (1: the packet ends after voronoi)
//	  4    1 header flags        bit 0: tag present; bit 1: checksum present
//	                             (not both); bits 2-7 zero
//	  5    1 team_number
//	  6    1 player_number
//	  7    1 role                Role
//	  8    4 seq                 u32, per sender, see SeqNewer       wraps
//	 12    6 stamp               u48 ms of the sender clock          0 .. MaxStampMs
//	 18    2 status              bits 0-9 Flags, 10-12 voronoi count (0..6), 13-15 zero
//	 20    1 mates_online        bit i = mate i online; bits 6-7 zero
//	 21    1 state               PlayState
//	 22    1 kicker_id
//	 23    1 gc                  bits 0-3 gc_state, 4-7 game_phase   0..15 each
//	 24    1 gc2                 bits 0-3 gc_state2, 4-7 set_play    0..15 each
//	 25    6 robot_pos           i16 x, y mm; i16 theta centi-rad    ±32.767 m, ±327.67 rad
//	 31    6 dest                as robot_pos
//	 37    6 final_dest          as robot_pos
//	 43    4 attack_target       i16 x, y mm                         ±32.767 m
//	 47    4 ball_field          i16 x, y mm, relative to the robot
//	 51    4 ball_global         i16 x, y mm
//	 55    4 team_ball_global    i16 x, y mm
//	 59    4 circle_field        i16 x, y mm
//	 63    4 circle_global       i16 x, y mm
//	 67    4 goal_field          i16 x, y mm
//	 71    4 goal_global         i16 x, y mm
//	 75    2 time_since_last_kick u16 cs                             0 .. 655.34 s
//	 77    2 time_to_reach_ball  u16 cs                              0 .. 655.34 s
//	 79    2 ball_age            u16 cs                              0 .. 655.34 s
//	 81    1 ball_quality        u8, fraction × 254                  0 .. 1
//	 82    1 field_quality       u8, fraction × 254                  0 .. 1
//	 83    1 field_consistency   u8, fraction × 254                  0 .. 1
//	 84   18 voronoi             6 × (x, y) 12-bit cm, 3 bytes each  ±20.47 m
//	102    1 echo_player         player whose packet is answered; 0: none   (version 2)
//	103    4 echo_stamp          u32: low 32 bits of that packet's stamp, ms (version 2)
//	107    2 echo_hold           u16 ms: our stamp - when we received it      (version 2)
//	109   16 tag                 only when header bit 0 is set (version 1: at 102)
//	109    4 checksum            only when header bit 1 is set: CRC-32C (Castagnoli)
//	                             of bytes 0..108, u32 (version 1: at 102, of 0..101)
//
// The echo lets a teammate measure its clock against ours, as NTP does: it sent a
// packet stamped T1 (its clock), we received it at T2 and sent this one at T3 = stamp
// (our clock), it receives this one at T4 (its clock). echo_stamp gives T1, stamp minus
// echo_hold gives T2; T2 and T3 are truncated to whole milliseconds before the
// subtraction, so the hold is exact in milliseconds. With echo_player 0, echo_stamp and
// echo_hold must be zero. A sender that held a packet longer than 65.535 s sends no echo
// of it. Package clock/offset turns echoes into offset estimates with an error bound.
//
// Status flags (bit: name): 0 incapacitated, 1 fallen, 2 penalised, 3 attack_right,
// 4 priority, 5 see_ball, 6 see_circle, 7 see_goal, 8 gc_connected, 9 gc_stopped.
// A voronoi point packs x and y as 12-bit two's complement: byte 0 = x bits 0-7,
// byte 1 = x bits 8-11 | y bits 0-3 << 4, byte 2 = y bits 4-11. All six slots are on
// the wire; senders write unused slots as zero.
//
// Quantisation (constants [MMPerM], [CradPerRad], ..., tolerances [TolPosition], ...). Every quantity has an "unknown" code,
// which is what NaN encodes to and decodes from: -32768 for i16, -2048 for 12-bit values,
// 0xffff for durations, 255 for qualities. Other values saturate at the range ends
// (±Inf included); negative durations become 0 and qualities are clamped to [0, 1]. Inside
// the range |x - decode(encode(x))| <= 0.5 mm for positions, 0.005 rad for angles,
// 0.005 s for durations, 1/508 for qualities and 5 mm for voronoi points; stamps are
// truncated to whole milliseconds. Angles are not normalised. Z of points is not carried.
// GameController values above 15 and other unrepresentable codes make encoding fail with
// [ErrRange]; reserved bits that are set make decoding fail with [ErrReserved].
//
// Decoding is strict: magic ([ErrMagic]), version ([ErrVersion]), reserved header bits,
// then the exact length for the version and the flags ([ErrLength]), the tag or the
// checksum ([ErrChecksum]), and values the format does not define: a [Role] above
// [RoleOther] or a [PlayState] above [PlayAssisting] ([ErrRange]; the encoder refuses
// them too). Versions other
// than 1 and 2 are rejected; a later version gets its own size and its own conversion
// to [State]. [DNetPacket.Version] holds the version decoded and chooses the version
// encoded (0: [DNetVersion]); a version 1 packet cannot carry an echo ([ErrRange]).
//
// # Checksum
//
// An unsigned packet ends with CRC-32C of every byte before it, so a packet corrupted on
// the way (a UDP checksum is only 16 bits, and a Wi-Fi driver or relay may recompute it)
// is rejected: CRC-32C detects every error of up to 5 bits in a packet this size, and
// other errors with probability 1 - 2^-32. The header's length check catches a flipped
// flag. It is no protection against a forger, who recomputes it: only a key is.
// Packets of nodes before the checksum (no tag, no checksum) decode with
// [DNetPacket.Unchecked] set, for tools; receivers without a key drop them.
//
// # Authentication
//
// A team may share a secret ([NewKey]). A signed packet sets header bit 0 and appends
// HMAC-SHA-256(key, every byte before the tag: 0..108, version 1: 0..101) truncated to
// 16 bytes. [DNetPacket.Decode] with
// a key checks the tag in constant time before it parses any field and fails with
// [ErrAuth] on a mismatch or when the packet carries no tag. Without a key a tagged
// packet decodes with [AuthUnverified] (corruption of it goes unnoticed: its receivers
// are meant to have the key). The tag covers team and player numbers, sequence
// number, stamp and echo, so a [ReplayFilter] fed only verified packets also stops replays
// (within the limits its documentation states).
//
// # Model
//
// [State] uses SI units: metres, radians, seconds; qualities are fractions. It converts
// from and to both formats, so a node can receive either and send either. zju carries no
// sequence number, fallen, penalised, gc_stopped, team ball, time to reach the ball, ball
// age, game phase, set play, voronoi points or clock echo (durations come out as NaN, the
// rest as zero); dnet carries no recv_timestamp, test byte or z of points, and dnet
// version 1 no clock echo. Converting zju to the model and back is exact up to float64
// rounding of the unit factors (cm/m, deg/rad).
//
// [ZJUWire] and [DNetWire] describe both formats from the codecs' own offsets, for
// cmd/dissectorgen, which writes the Wireshark dissector.
package teaminfo
