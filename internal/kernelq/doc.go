// Package kernelq reads how many bytes wait in the kernel's receive queue of a UDP
// socket, for tests that show a socket is not being read (a queue that grows with
// each datagram sent) without sleeping. It reads the calling thread's network
// namespace, since another test's thread may have entered its own.
package kernelq
