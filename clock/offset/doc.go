// Package offset estimates how far another robot's clock is from ours, with an error
// bound, from the stamps its team packets carry.
//
// Let θ be the other clock minus ours. Two kinds of observation bound θ, each on one
// side, as long as no packet arrives before it was sent:
//
//   - A packet stamped S by the other clock and received at R by ours gives θ >= S - R
//     (a lower bound): the packet spent R - (S - θ) >= 0 on its way.
//   - An echo of one of our packets, stamped T1 by our clock, that the other robot
//     received at T2 by its clock gives θ <= T2 - T1 (an upper bound).
//
// One packet that answers ours carries both, and their midpoint is NTP's offset
// (T2 - T1 + T3 - T4) / 2, with half the round trip as its error. The Estimator keeps the
// tightest bound of each side, whichever packet it came from (a minimum-delay filter
// per direction), so the estimate converges to within half the sum of the smallest
// delays seen each way. A bound loosens with its age at the rate Config.Drift, since
// the two clocks may run at slightly different rates, and is forgotten after
// Config.Window. When a new bound contradicts the other side's (the interval would be
// empty), one of the clocks has been set: the other side is forgotten and the jump
// counted.
//
// Invariants: the true offset lies in [Lower, Upper] of every Estimate as long as the
// observations are honest (no negative delay), the clocks drift apart by at most Drift
// and neither clock is set; Bound = (Upper - Lower) / 2 >= 0 whenever Known. A clock
// that is set goes unnoticed until a bound contradicts the other side (for a step
// smaller than the delays, never): until then the estimate describes the clock before. Stamps truncated to whole
// milliseconds keep this as long as the caller rounds each bound outwards (see
// Estimator.Upper).
//
// The Estimator is a plain value: it reads no clock (every method takes our clock's
// time), starts no goroutine and is not safe for concurrent use.
package offset
