// Package units converts between the units of the robot's ROS messages and SI units.
//
// The robot's messages (msgs/dmsgs: VisionInfo, MotionInfo, TeamInfo, …) follow the
// ZJUDancer convention: positions and distances in centimetres, headings and angles in
// degrees, usually packed into a geometry_msgs/Vector3 as x, y in cm and z the heading
// in degrees. The codecs, the swarm and the simulated world work in metres and radians.
package units

import "math"

// CmPerMetre is the number of the messages' centimetres in a metre.
const CmPerMetre = 100

// Metres converts a length in centimetres to metres.
func Metres(cm float64) float64 { return cm / CmPerMetre }

// Centimetres converts a length in metres to centimetres.
func Centimetres(m float64) float64 { return m * CmPerMetre }

// Radians converts an angle in degrees to radians.
func Radians(deg float64) float64 { return deg * (math.Pi / 180) }

// Degrees converts an angle in radians to degrees.
func Degrees(rad float64) float64 { return rad * (180 / math.Pi) }
