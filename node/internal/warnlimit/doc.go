// Package warnlimit rate-limits log records by cause for the node's components: at most
// one record per cause per interval of the component's clock, so a flood of bad packets
// logs one line per cause per interval rather than one per packet. The limiter counts
// the records it held back, so the next record that gets through can say how many there
// were.
//
// A clock that went back (a simulation restarted, /clock jumped) lets the next record
// through and starts the interval again.
package warnlimit
