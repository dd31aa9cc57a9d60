// Package gamecontroller encodes and decodes the RoboCup GameController wire protocols:
// the control packets the GameController broadcasts to UDP port 3838 ("RGme", and the
// same struct as "RGTD" to monitor applications) and the return packets the robots send
// to port 3939 ("RGrt"). It knows bytes only: no sockets, no clock.
//
// # Control packets
//
// Every layout still in use is decoded into and encoded from one version-independent
// Packet. The layout is recognised from (header, version, length), since the version
// number alone is ambiguous (HL v12 and SPL v12 differ; HL v12 exists in three sizes;
// SPL v15 … v18 share one size). All fields are little-endian.
//
//	Layout    version        size  team  robot  players  notes
//	hl12-640  uint16 12       640   308    4      11     penalty, secs, yellow, red
//	hl12-664  uint16 12       664   320    5      11     … + isGoalie
//	hl12-688  uint16 12       688   332    6      11     penalty, secs, warnings, yellow, red, goalKeeper
//	spl12     uint8 12         54    18    2       6
//	spl13     uint8 13         54    18    2       6     PENALTY_KICK set play
//	spl14     uint8 14         62    22    2       7     + messageBudget
//	spl15-18  uint8 15..18    118    50    2      20     + goalkeeper colour and number; v17/v18 state 5
//	hsl19     uint8 19        198    90    4      20     bytes 7/8 = competitionType/stopped
//	hsl20     uint8 20        158    70    3      20     penalty, secs, cautions
//
// HL v12 header (24 bytes, then two TeamInfo):
//
//	 0 header[4]   4 version u16   6 packetNumber   7 playersPerTeam   8 gameType
//	 9 state      10 firstHalf    11 kickOffTeam   12 secondaryState  13 secondaryStateInfo[4]
//	17 dropInTeam 18 dropInTime i16  20 secsRemaining i16  22 secondaryTime i16
//	TeamInfo: 0 teamNumber 1 teamColour 2 score 3 penaltyShot 4 singleShots u16
//	          6 coachSequence 7 coachMessage[253] 260 coach RobotInfo, then players[11]
//
// SPL / HSL header (18 bytes, then two TeamInfo):
//
//	 0 header[4]   4 version   5 packetNumber   6 playersPerTeam
//	 7 competitionPhase (HSL: competitionType)   8 competitionType (HSL: stopped)
//	 9 gamePhase  10 state    11 setPlay   12 firstHalf   13 kickingTeam
//	14 secsRemaining i16   16 secondaryTime i16
//	TeamInfo v12/v13: 0 teamNumber 1 teamColour 2 score 3 penaltyShot 4 singleShots u16 6 players
//	TeamInfo v14:     … 6 messageBudget u16 8 players
//	TeamInfo v15+:    0 teamNumber 1 fieldPlayerColour 2 goalkeeperColour 3 goalkeeper
//	                  4 score 5 penaltyShot 6 singleShots u16 8 messageBudget u16 10 players
//
// Quirks handled: a dropped ball is kickOffTeam 255 in the HL header but 0x80 from the
// Java HL GameController (both kept as sent; Packet.DropBall accepts both), while in the
// GameController3 family (SPL v15+, HSL) kickingTeam 255 means "no kicking team" and is a
// dropped ball only in READY and SET; a 118-byte version 18 packet is SPL v18 (the
// two-day HSL development v18 cannot be told apart); times are int16 in every layout:
// the HL header declares secsRemaining, secondaryTime and dropInTime uint16, but the HL
// GameControllers write signed shorts (−35 for an overrun set play preparation, −1 for
// dropInTime before the first drop-in), and the SPL v12 header switched to int16 within
// v12.
//
// The decoder range-checks what steers a robot: state, game phase, set play (HL
// secondaryState), every penalty code per version, and the 0/1 flags firstHalf, stopped
// and the HL goalkeeper flag. Informational fields (team numbers, colours, competition
// and game types, counters, times, secondaryStateInfo) pass through unchecked, so a newer
// GameController with a new competition type still works. Packet.UnmarshalBinary lists
// the exact rules. Decoding does not allocate: SPL v15 … v18, HSL v20 and HL 688 B are
// recognised from length, version and header before the walk over every layout and read
// at fixed offsets, the SPL robots several per word, each HSL v20 robot stored as one
// word; the other layouts are read from the offsets of their layout table. The range
// checks of a packet fold into one flag; the field an error names is looked for only
// once that flag is set. SPL v15 … v18 check their penalties four at a time in the
// 16-bit lanes of a word, HSL v20 eight at a time in the bytes of a word; HL 688 B writes
// every field instead of clearing the Packet first.
//
// # Return packets
//
//	v2 (HL, 8 B):      header[4] version=2 team player message (0 MAN_PENALISE,
//	                   1 MAN_UNPENALISE, 2 ALIVE, 3 GOALKEEPER, 4 GAME_INTERRUPTION_READY)
//	v3 (SPL, 8 B):     header[4] version=3 team player message (0 ALIVE)
//	v4 (SPL/HSL, 32 B): header[4] version=4 playerNum teamNum fallen pose[3] f32 ballAge f32 ball[2] f32
//
// ReturnPacket applies the GameControllers' acceptance rules both when decoding and when
// encoding, so every packet it encodes is accepted.
//
// # Monitor channel
//
// A monitor application asks with "RGTr" version 0 (5 bytes, to port 3636) for the
// true-data packets ("RGTD", decoded as control packets) and the status messages the
// GameController forwards to port 3940, each after the robot's 4-byte IPv4 address
// (AppendMonitorRequest, DecodeMonitorRequest, DecodeForward).
//
// # GCInfo
//
// Derive turns a decoded Packet, our team number and our player number into GCInfo, the
// robot-side summary (state, set play flags, penalty, scores …). It is a pure function;
// its documentation lists the rules.
//
// Errors wrap the sentinels ErrLength, ErrHeader, ErrVersion, ErrRange (as *RangeError,
// which names the field) and ErrNotOurTeam.
//
// Layout.Wire and WireReturn describe the layouts (offsets, names of the codes) from the
// decoder's own tables, for cmd/dissectorgen, which writes the Wireshark dissector.
package gamecontroller
