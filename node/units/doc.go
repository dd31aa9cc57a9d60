// Package units converts between the units of the robot's ROS messages and SI units.
//
// The robot's messages (msgs/dmsgs: VisionInfo, MotionInfo, TeamInfo, …) follow the
// ZJUDancer convention: positions and distances in centimetres, headings and angles in
// degrees, usually packed into a geometry_msgs/Vector3 as x, y in cm and z the heading
// in degrees. The codecs, the swarm and the simulated world work in metres and radians.
package units
