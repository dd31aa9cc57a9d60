// Package nodetest runs dnetwork nodes inside tests of this and other packages.
//
// Invariant: a node started by Run stops when its test ends, and the test fails if the
// node's Run returns an error or does not return within StopWithin of being cancelled.
package nodetest
