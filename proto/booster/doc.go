// Package booster encodes and decodes the team packets of the Booster K1/T1 vendor stack
// (BoosterRobotics robocup_demo): the TeamCommunicationMsg teammates exchange and the
// TeamDiscoveryMsg that announces a robot's address. It never touches a socket.
//
// Both are the little-endian memory image of a C++ struct with natural alignment, no
// header and no checksum; the first int is a validation magic. A receiver accepts a
// datagram of exactly the struct's size with the right magic, and the vendor's receivers
// then drop another team's packets and their own. The carried header
// (testdata/fa4f31c/team_communication_msg.h, testdata/aac541d/...) is the definition;
// the tests compile it with gcc and compare its bytes with this package's.
//
// TeamCommunicationMsg, [Size] = 120 bytes (main, fa4f31c) or [Size2026] = 128 bytes
// (2026 GameController branch, aac541d, which adds isInVisualKick):
//
//	main 2026 size field              type  notes
//	   0    0    4 validation         i32   [Magic] 31202
//	   4    4    4 communicationId    i32   per-sender counter
//	   8    8    4 teamId             i32
//	  12   12    4 playerId           i32   1-based
//	  16   16    4 playerRole         i32   1 striker, 2 goal_keeper; main 3 unknown;
//	                                        2026 3 defender, 4 unknown
//	  20   20    1 isAlive            bool  on the field, not penalised
//	  21   21    1 isLead             bool  in ball control
//	   -   22    1 isInVisualKick     bool  2026 only
//	  22   23    1 ballDetected       bool
//	  23   24    1 ballLocationKnown  bool
//	   -   25    7 padding
//	  24   32    8 ballConfidence     f64
//	  32   40    8 ballRange          f64   m
//	  40   48    8 cost               f64
//	  48   56   24 ballPosToField     3×f64 m (Point x, y, z)
//	  72   80   24 robotPoseToField   3×f64 m, m, rad (Pose2D)
//	  96  104    8 kickDir            f64   rad
//	 104  112    8 thetaRb            f64   rad
//	 112  120    4 cmdId              i32
//	 116  124    4 cmd                i32
//
// TeamDiscoveryMsg, [DiscoverySize] = 16 bytes: validation ([DiscoveryMagic] 41203),
// communicationId, teamId, playerId, four i32.
//
// Ports and timing (src/brain/src/brain_communication.cpp): on main every robot
// broadcasts a discovery packet every second to 255.255.255.255 on [PortDiscovery] +
// team, and every 100 ms sends its message by unicast to each robot it has discovered
// (forgotten after 20 s of silence) on [PortUnicast] + team. The 2026 branch drops
// discovery and broadcasts the message on [PortBroadcast] + team at 2 Hz.
//
// Invariants: Decode accepts exactly the sizes and magic above and rejects a bool byte
// other than 0 or 1; whatever it accepts, Append gives back byte for byte except the
// padding, which it writes as zero.
package booster
