// Package world simulates one team of robots and a ball on a field, to give dnetwork
// nodes the inputs that the robots' motion, behaviour and vision nodes would publish:
// dmsgs MotionInfo, BehaviorInfo and VisionInfo. It is the robot side of "dnetwork
// sim"; it knows no sockets and no ROS, only messages, and is driven by Step with any
// time step, so tests run it on their own time.
//
// # Frame and units
//
// Internally metres and radians in our team's frame: origin at the centre mark, +x
// towards the goal we attack, +y to the left. The messages use the ZJUDancer units of
// the dmsgs types: centimetres, and the heading in degrees in the z of a pose.
//
// # The referee
//
// Each robot follows what its own dnetwork node says (SetReferee with the Referee of
// its GCInfo); the last one given also sets the game the ball follows:
//
//	state                    robots                                   ball
//	no GameController,       stand where they are (INITIALIZING)      -
//	INITIAL, STANDBY
//	READY                    walk to the kick-off positions (PLACING) on the centre mark
//	SET, FINISHED, stopped   stand (INACTIVE)                         on the centre mark in SET
//	PLAYING                  play their roles                         rolls; placed when a set play
//	                                                                  starts (corner, goal kick,
//	                                                                  throw-in, penalty kick)
//	penalised                taken to our touchline, stand (INACTIVE) -
//
// During the other team's kick-off or set play our robots stay KeepDistance from the
// ball and do not kick.
//
// # Roles
//
//	role       who                                target in PLAYING
//	goalie     player 1 (of two or more)          on the goal line, following the ball;
//	                                              clears a slow ball in the penalty area
//	striker    the quickest field player to the   behind the ball towards the other goal;
//	           ball (1 s hysteresis)              BALL_HANDLING within HandleDistance, kicks
//	                                              within KickReach when facing the goal
//	supporter  highest number of the rest         1.3 m behind and beside the ball
//	defender   the others                         40 % of the way from our goal to the ball,
//	                                              spread 1.2 m apart, in our half
//
// A field player that has not seen the ball for SearchAfter is SEARCHING; the
// supporter is ASSISTING; the ball handler BALL_HANDLING. Robots walk at WalkSpeed,
// facing the way they walk while far and turning to their target heading near it.
//
// # Events
//
// A walking robot falls now and then (Config.FallRate): for FallMin..FallMax it lies
// still with MotionInfo.stable false, sees nothing and loses its localisation. The
// other team is not simulated as robots: with Config.OpponentRate it kicks a free
// ball in its half back towards our goal. A ball over a touchline is put on the line;
// over a goal line, on the edge of that goal area, and at the other team's end it
// takes a goal kick about GoalKickDelay later while our robots keep their distance.
// A robot sees the ball within Config.ViewDistance unless it is down.
package world
