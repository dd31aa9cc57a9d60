package sim3d

// Slot lengths in server cycles. A listener's teammate capacity refills by one per cycle
// and a heard message costs two, so a team that talks more often than once per
// MinSlotCycles cycles loses messages. The default adds two cycles of margin: the say
// crosses ROS twice on its way to the server, so a say reaches the server a cycle or, on
// a busy machine, two after another one, and with two-cycle slots such a late message
// takes the capacity the next speaker's message needs. Against rcssserver3d (three robots
// talking, 30 s of server time, 2 cores), two-cycle slots lost 1.2 % of the teammate
// messages, three-cycle slots 0 to 0.6 % and 2 % under heavy load, four-cycle slots at
// most 0.1 % under the same load.
const (
	MinSlotCycles     = 2
	DefaultSlotCycles = 4
	MaxSlotCycles     = 10
)

// MinHearDelay is the shortest delay, in cycles, between the cycle a say is decided in
// and the cycle it is heard: a say sent in answer to the percept of cycle s is heard in
// cycle s+2.
const MinHearDelay = 2

// Slot is the talking schedule of one player: slots of Cycles cycles are dealt out in
// turn to uniform numbers 1..TeamSize, and a player speaks in the first cycle of its slot,
//
//	cycle mod (Cycles·TeamSize) == Cycles·(Player-1)
//
// Every player talks once per round of Cycles·TeamSize cycles (0.88 s for eleven players
// and four-cycle slots at 20 ms), the speakers of a team never share a window of Cycles
// cycles, and a message that reaches the server up to Cycles-2 cycles later than the one
// before it still does not compete with it for a listener's capacity.
//
// Speaking in the first cycle of the slot matters: a message said later in the slot would
// use up the capacity the next player's message needs.
type Slot struct {
	Player   int // uniform number, 1..TeamSize
	TeamSize int // players sharing the channel, at least 1
	Cycles   int // slot length, MinSlotCycles..MaxSlotCycles; 0 means DefaultSlotCycles
}

func (s Slot) cycles() int64 {
	if s.Cycles == 0 {
		return DefaultSlotCycles
	}
	return int64(s.Cycles)
}

// Period returns the length of one round in cycles.
func (s Slot) Period() int64 { return s.cycles() * int64(s.TeamSize) }

// offset returns the cycle within a round in which the player speaks.
func (s Slot) offset() int64 { return s.cycles() * int64(s.Player-1) }

// Due reports whether the player speaks in cycle.
func (s Slot) Due(cycle int64) bool { return floorMod(cycle, s.Period()) == s.offset() }

// Next returns the first cycle after the given one in which the player speaks.
func (s Slot) Next(after int64) int64 {
	p := s.Period()
	return after + 1 + floorMod(s.offset()-(after+1), p)
}

// Prev returns the last cycle at or before the given one in which the player speaks.
func (s Slot) Prev(at int64) int64 {
	return at - floorMod(at-s.offset(), s.Period())
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
