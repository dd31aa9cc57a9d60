package sim3d

// CyclesPerSlot is the length of one talking slot in server cycles. A listener's
// teammate capacity refills by one per cycle and a heard message costs two (§5.3 of the
// protocol notes), so a team that talks more often than once per two cycles loses
// messages.
const CyclesPerSlot = 2

// Slot is the talking schedule of one player: slots of CyclesPerSlot cycles are dealt out
// in turn to uniform numbers 1..TeamSize, and a player speaks in the first cycle of its
// slot,
//
//	cycle mod (2·TeamSize) == 2·(Player-1)
//
// that is, player n talks when (cycle/2) mod TeamSize == n-1 and the cycle is even. Every
// player talks once per round of 2·TeamSize cycles (0.44 s for eleven players at 20 ms),
// the speakers of a team never share a two-cycle window, and no two of its messages
// compete for a listener's capacity.
//
// Speaking in the first cycle of the slot matters: a message said in the second cycle
// would use up the capacity the next player's message needs one cycle later.
type Slot struct {
	Player   int // uniform number, 1..TeamSize
	TeamSize int // players sharing the channel, at least 1
}

// Period returns the length of one round in cycles.
func (s Slot) Period() int64 { return CyclesPerSlot * int64(s.TeamSize) }

// offset returns the cycle within a round in which the player speaks.
func (s Slot) offset() int64 { return CyclesPerSlot * int64(s.Player-1) }

// Due reports whether the player speaks in cycle.
func (s Slot) Due(cycle int64) bool { return floorMod(cycle, s.Period()) == s.offset() }

// Next returns the first cycle after the given one in which the player speaks.
func (s Slot) Next(after int64) int64 {
	p := s.Period()
	return after + 1 + floorMod(s.offset()-(after+1), p)
}

// Between returns how many of the player's cycles lie strictly between from and to; 0
// when to <= from+1.
func (s Slot) Between(from, to int64) uint64 {
	if to <= from+1 {
		return 0
	}
	// Slots in (from, to-1] minus slots in (-inf, from].
	p, off := s.Period(), s.offset()
	return uint64(floorDiv(to-1-off, p) - floorDiv(from-off, p))
}

// floorDiv is a / b rounded towards minus infinity, b > 0.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// floorMod is a mod b in 0..b-1, b > 0.
func floorMod(a, b int64) int64 {
	m := a % b
	if m < 0 {
		m += b
	}
	return m
}
