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
// tightest few observations of each side, whichever packet they came from (a
// minimum-delay filter per direction), and stands on the second tightest of each side,
// so that no single packet decides a bound. An observation beyond the other side's bound
// is forgotten: it came from a dishonest packet, and a lone survivor then stands for its
// side. The estimate converges to within half the sum of the second smallest delays seen
// each way.
//
// # Age
//
// Observations never expire. Each one loosens with its age at the rate Config.Drift
// (100 ppm by default: 6 ms a minute), the drift allowance: two quartz clocks run apart
// by at most that much. So once both sides are bounded the estimate stays known, and its
// bound only widens while no tighter packet comes.
//
// # Rejection and clock steps
//
// A sample that contradicts the estimate (a lower bound above its upper bound, or an
// upper bound below its lower bound), or itself (its own lower bound above its upper
// one), is not used: it is rejected and counted (Estimate.Rejected). A corrupted stamp, one packet's worth of anything, therefore never
// moves the estimate. A clock that is set (a robot's clock stepped by NTP or by hand) makes
// every later packet contradict the estimate on one side: the rejected samples gather in
// a candidate estimate, which every agreeing packet also feeds and any contradicting
// packet refutes. When Config.Confirm (3) packets that contradicted the estimate agree with
// the candidate, and the candidate bounds both sides, it replaces the estimate
// (Estimate.Jumps). A candidate that waits longer than Config.CandidateTimeout (10 s)
// for its next confirming packet is forgotten.
//
// Invariants:
//
//   - The true offset lies in [Lower, Upper] of every Estimate as long as every packet
//     but at most one is honest (no negative delay), the clocks drift apart by at most
//     Drift and neither clock is set. An honest sample never contradicts such an estimate,
//     so it is never rejected.
//   - One packet cannot change Lower or Upper beyond the bounds the honest packets give:
//     a bound is the second tightest observation of its side (or the one left after a
//     dishonest one was forgotten), a contradicting sample is rejected, and a candidate
//     needs Confirm >= 2 packets.
//   - Bound = (Upper - Lower) / 2 >= 0 whenever Known; once Known, Known stays true.
//   - A clock that is set is noticed once a packet's bound contradicts the estimate (for a
//     step smaller than the delays, never: the estimate then still holds within its
//     bound plus the step), and the estimate describes the new offset once Confirm
//     packets showed it; until then it describes the clock before.
//
// Stamps truncated to whole milliseconds keep this as long as the caller rounds each
// bound outwards (see Estimator.Upper).
//
// The Estimator is a plain value: it reads no clock (every method takes our clock's
// time), starts no goroutine and is not safe for concurrent use.
package offset
