// Package rosdomain hands out ROS domain ids to tests, so that the test processes of
// one user running at once on a machine (the packages of one `go test`, two
// checkouts, two engineers) never share a DDS domain and never hear each other.
//
// Invariants: an id is held by an exclusive flock on its own file in the user's
// directory under the temp directory (named with the user's id), from Take until the
// test's cleanup or until the holding process ends, when the kernel drops the lock;
// no two holders, in one process or in two, hold one id at once; ids are handed out
// in turn, so a released id comes back only after the others; 0 is never handed out
// (a ROS system on the machine uses it by default); and every DDS port of an id
// (7400 + 250·id + 0..249, Cyclone's and Fast DDS's default mapping) lies below the
// kernel's ephemeral range, so it meets neither kernel-chosen ports nor freeport's.
// Only a test takes ids: the processes it starts get them through their environment
// (ROS_DOMAIN_ID, or Env and Inherited for the test binary run again as a child).
package rosdomain
