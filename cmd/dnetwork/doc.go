// Command dnetwork is a RoboCup robot's network hub: a ROS 2 node that carries team
// communication, GameController traffic and related protocols.
//
// Usage:
//
//	dnetwork <command> [flags] [args]
//
// Commands are listed by "dnetwork help".
package main
