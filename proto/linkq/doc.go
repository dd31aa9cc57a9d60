// Package linkq measures the quality of one robot's link as a receiver sees it, from the
// packets that arrive: how many are lost (gaps in the sequence numbers), how long they
// take one way and how much that varies (jitter), how many come twice or out of order,
// and how old the last one is. A team reads it at the field to see which robot's Wi-Fi
// is bad.
//
// A [Tracker] is fed every packet of one sender that passed the receiver's checks, with
// its sequence number (when the format has one), its transit (our receive time minus
// the sender's stamp: the one-way delay plus the clock offset, which the tracker never
// needs to know) and our receive time. [Tracker.Quality] summarises the packets of the
// last Window (10 s by default) at a time of our clock:
//
//	Received     distinct sequence numbers in the window (packets without one count each)
//	Expected     numbers the window spans: newest - oldest + 1
//	Lost, Loss   Expected - Received, and that as a fraction of Expected (NaN: no numbers)
//	Duplicates   numbers that came again while still in the window
//	Reordered    packets older than a packet that came before them
//	Delay        mean one-way delay: mean transit plus the sender's clock offset, when
//	             the caller knows the offset (Known); its error is the offset's bound
//	             plus up to 1 ms of stamp truncation (stamps are whole milliseconds,
//	             truncated, so Delay reads up to 1 ms high)
//	Jitter       mean |difference of the transits of consecutive packets| in arrival
//	             order: RFC 3550's interarrival jitter without its smoothing; for delays
//	             spread uniformly over ±j it is 2j/3. The offset cancels.
//	Age          since the last packet (of any kind, duplicates included)
//	Rate         packets a second in the window
//
// A restart of the sender's numbering (the caller says so, or a number more than
// MaxJump away from the newest) starts the window afresh. Loss counts numbers the sender
// used and the receiver never saw; a sender that skips numbers (none in dnetwork: a
// number is used by each packet to the team) would read as loss.
//
// Invariants: Received <= Expected, 0 <= Loss <= 1, Lost = Expected - Received; the
// figures describe only packets that arrived within Window before the time asked for;
// memory is bounded by MaxEntries packets per tracker. A Tracker is a plain value, reads
// no clock and is not safe for concurrent use.
package linkq
