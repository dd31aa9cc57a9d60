// Package bus holds the small interfaces through which dnetwork's components reach the
// outside world - UDP sockets and ROS topics - and in-memory fakes of both for tests.
//
// A component gets a Conn (in production a *transport.Worker) for each socket it uses,
// a Publisher for each topic it publishes, and a clock.Clock; it never touches
// sockets or DDS itself. Tests hand it a FakeConn, a Recorder and a clock.Manual and
// drive it deterministically.
package bus
