package gamecontroller

import (
	"time"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
)

// doubt is why a control packet waits for the next one to confirm it: a change from the
// last accepted packet that no GameController makes in one packet. GameController
// packets carry no checksum of their own, so a datagram corrupted on the way with a
// valid UDP checksum decodes; these are the changes such a corruption makes and a
// GameController does not.
type doubt uint8

const (
	doubtNone    doubt = iota
	doubtScore         // a score moves by more than +1 (a goal) or -1 (its undo)
	doubtState         // a state transition the rules do not make in one step, alone
	doubtPhase         // the game phase changes during play without a state change
	doubtSetPlay       // a set play starts without its timer, or turns into another
	doubtGame          // teams, colours, game type or half change during play
	doubtPenalty       // a penalty without its timer, or one penalty turned into another
	doubtClock         // a clock jumps without an event, or runs faster than time
	doubtBudget        // a message budget grows, or shrinks faster than robots send
	numDoubts
)

var doubtNames = [numDoubts]string{"none", "score", "state", "phase", "set_play", "game", "penalty", "clock", "budget"}

func (d doubt) String() string { return doubtNames[d] }

// Unconfirmed counts control packets held for confirmation, by cause (doubt); each is a
// drop of Counters: it is never published itself, and the next packet is accepted only
// when it is a plausible successor of the held one or of the last accepted one.
type Unconfirmed [numDoubts]uint64

// Each calls f with every cause's name ("score", "state", "phase", "set_play", "game",
// "penalty", "clock", "budget") and count, in that order.
func (u Unconfirmed) Each(f func(cause string, n uint64)) {
	for d := doubtScore; d < numDoubts; d++ {
		f(d.String(), u[d])
	}
}

// Total returns the number of held packets.
func (u Unconfirmed) Total() uint64 {
	var n uint64
	for _, v := range u {
		n += v
	}
	return n
}

// Slack of the clock checks: packets are stamped on arrival, the GameController's clock
// ticks in whole seconds, and budgets fall with every team message it counts.
const (
	clockSlackSecs  = 2
	budgetSlack     = 100 // messages
	budgetPerSecond = 100 // messages a second a team can send (far above any budget rate)
	// A GameController sends a packet every sendInterval at most (2 Hz; HSL sends
	// faster while play stops), each numbered one more than the one before, and its
	// timer fires up to sendJitter late.
	sendInterval = 500 * time.Millisecond
	sendJitter   = 250 * time.Millisecond
)

// tickSecs returns by how many seconds a running clock of the GameController can count
// down from prev to next, elapsed later at our end: as far as its own clock ticks while
// it sends the packets between them, which the packet numbers count (once between two
// packets half a second apart, twice across a lost packet), or pace seconds a packet
// when its clock has been seen to run faster than it sends (confirmLocked: gc-sim at a
// speed above 1 sends at 2 Hz of our time). That holds whether or not our clock runs as
// the GameController's (simulation time slower or faster than its wall clock). Only a
// packet number that did not move (a GameController that does not count) leaves the
// bound by our time, elapsed plus clockSlackSecs. A corruption of a clock by two
// seconds or more (more than pace) is then held; by one second, which a
// GameController's clock ticks between any two packets, it cannot be told from a tick.
func tickSecs(prev, next *gcproto.Packet, elapsed time.Duration, pace int32) int32 {
	if n := next.PacketNumber - prev.PacketNumber; n != 0 {
		sent := time.Duration(n)*sendInterval + sendJitter
		return max(int32((sent+time.Second-1)/time.Second), int32(n)*pace)
	}
	return int32(elapsed/time.Second) + clockSlackSecs
}

// clockRose reports whether a clock of next is above prev's.
func clockRose(prev, next *gcproto.Packet) bool {
	return next.SecsRemaining > prev.SecsRemaining || next.SecondaryTime > prev.SecondaryTime
}

// clockPace returns the seconds a packet that the clocks counted down from prev to next
// (no event between them: implausible found only doubtClock), with a second of slack
// for the whole seconds they show; 0 when the packet number did not move.
func clockPace(prev, next *gcproto.Packet) int32 {
	n := int32(next.PacketNumber - prev.PacketNumber)
	if n == 0 {
		return 0
	}
	down := max(prev.SecsRemaining-next.SecsRemaining, prev.SecondaryTime-next.SecondaryTime, 0)
	return (down+n-1)/n + 1
}

// ordinaryStep is the state transitions a GameController makes in one packet without
// anything else to show for it (forward play; undo and the rarer steps need a second
// packet or a matching event, see stateDoubt).
var ordinaryStep = map[[2]gcproto.State]bool{
	{gcproto.StateInitial, gcproto.StateReady}:    true,
	{gcproto.StateInitial, gcproto.StateStandby}:  true,
	{gcproto.StateInitial, gcproto.StateSet}:      true, // penalty shoot-out
	{gcproto.StateStandby, gcproto.StateReady}:    true,
	{gcproto.StateReady, gcproto.StateSet}:        true,
	{gcproto.StateSet, gcproto.StatePlaying}:      true,
	{gcproto.StatePlaying, gcproto.StateFinished}: true,
	{gcproto.StateFinished, gcproto.StateInitial}: true, // the next half
	{gcproto.StateFinished, gcproto.StateStandby}: true,
	{gcproto.StateFinished, gcproto.StateReady}:   true,
	{gcproto.StateFinished, gcproto.StateSet}:     true, // the next penalty shot
}

// Doubt returns why a GameController would not send next elapsed after prev in one
// step ("score", "state", ...: the causes of Unconfirmed), or "" when it would: a
// packet with a doubt waits for the next packet to confirm it.
func Doubt(prev, next *gcproto.Packet, elapsed time.Duration) string {
	if d := implausible(prev, next, elapsed); d != doubtNone {
		return d.String()
	}
	return ""
}

// implausible returns why next is not a change a GameController makes in one packet
// after prev, elapsed later; doubtNone when it is. It is a pure function of its
// arguments, and conservative: what real GameControllers send in ordinary play passes.
func implausible(prev, next *gcproto.Packet, elapsed time.Duration) doubt {
	return implausibleAt(prev, next, elapsed, 0)
}

// implausibleAt is implausible for a GameController whose clocks count pace seconds a
// packet (tickSecs); 0: as fast as it sends.
func implausibleAt(prev, next *gcproto.Packet, elapsed time.Duration, pace int32) doubt {
	if next.Layout != prev.Layout {
		// Another GameController program: corruption does not change a layout (its
		// version byte and its size must both match).
		return doubtNone
	}
	if d := scoreDoubt(prev, next); d != doubtNone {
		return d
	}
	if d := stateDoubt(prev, next, elapsed); d != doubtNone {
		return d
	}
	setup := setupState(prev.State) || setupState(next.State)
	if next.GamePhase != prev.GamePhase && next.State == prev.State && next.State == gcproto.StatePlaying &&
		!prev.Stopped && !next.Stopped {
		return doubtPhase
	}
	// Teams, colours and halves change between games and halves, with the state
	// (FINISHED to INITIAL) or while it stands in INITIAL or FINISHED (the operator sets
	// the next game up): there too a change alone waits one packet, as nothing tells it
	// from a flipped bit and nothing is played meanwhile.
	if (!setup || next.State == prev.State) && (next.FirstHalf != prev.FirstHalf || next.GameType != prev.GameType ||
		next.CompetitionType != prev.CompetitionType || next.CompetitionPhase != prev.CompetitionPhase ||
		next.PlayersPerTeam != prev.PlayersPerTeam || teamsChanged(prev, next)) {
		return doubtGame
	}
	if !kickingTeamValid(next) && next.KickingTeam != prev.KickingTeam {
		return doubtGame
	}
	event := next.State != prev.State || next.GamePhase != prev.GamePhase || next.SetPlay != prev.SetPlay ||
		next.FirstHalf != prev.FirstHalf || next.KickingTeam != prev.KickingTeam || next.Stopped != prev.Stopped ||
		next.Teams[0].Score != prev.Teams[0].Score || next.Teams[1].Score != prev.Teams[1].Score
	if d := setPlayDoubt(prev, next, elapsed); d != doubtNone {
		return d
	}
	ticks, up := tickSecs(prev, next, elapsed, pace), int32(0)
	if setup {
		up = 1 // the break's timer, restarted by the operator (gc-sim)
	}
	if !event && (!counts(prev.SecsRemaining, next.SecsRemaining, ticks, up) || !counts(prev.SecondaryTime, next.SecondaryTime, ticks, up)) {
		return doubtClock
	}
	// Between halves and games (a state change into or out of INITIAL or FINISHED) a
	// GameController sets every robot's penalty anew: the penalty shoot-out, say,
	// substitutes all but its shooters and keepers.
	if !setup || next.State == prev.State {
		if d := penaltyDoubt(prev, next, ticks); d != doubtNone {
			return d
		}
	}
	secs := int32(elapsed/time.Second) + clockSlackSecs
	for t := range next.Teams {
		if !next.Layout.HasMessageBudget() || setup {
			break
		}
		d := int(next.Teams[t].MessageBudget) - int(prev.Teams[t].MessageBudget)
		if d > 0 || -d > budgetSlack+budgetPerSecond*int(secs) {
			return doubtBudget
		}
	}
	return doubtNone
}

// scoreDoubt: a score moves by one at most, and not alone: a GameController changes
// the state with a goal (to READY for the kick-off, or ends a penalty shot) and with
// its undo, or at least the set play or the kicking team. A score that moves alone is
// a flipped bit as far as anyone can tell; it waits one packet (a real one shows half a
// second late; no robot acts on a score).
func scoreDoubt(prev, next *gcproto.Packet) doubt {
	moved := false
	for t := range next.Teams {
		d := int(next.Teams[t].Score) - int(prev.Teams[t].Score)
		if d > 1 || d < -1 {
			return doubtScore
		}
		moved = moved || d != 0
	}
	if moved && next.State == prev.State && next.SetPlay == prev.SetPlay && next.KickingTeam == prev.KickingTeam &&
		next.GamePhase == prev.GamePhase {
		return doubtScore
	}
	return doubtNone
}

// stateDoubt: the steps of ordinaryStep pass; any other step passes with something a
// GameController changes with it: a goal, a new kicking team (a global game stuck, a
// dropped ball), a new phase or set play, or a timer that starts (the READY timer, the
// half-time break, the half's clock reset: HSL's GameController makes PLAYING to READY,
// PLAYING to INITIAL and READY to FINISHED so). A step with none of these, an undo
// included, waits for the next packet.
func stateDoubt(prev, next *gcproto.Packet, elapsed time.Duration) doubt {
	from, to := prev.State, next.State
	if from == to || ordinaryStep[[2]gcproto.State{from, to}] {
		return doubtNone
	}
	secs := int32(elapsed/time.Second) + clockSlackSecs
	goal := next.Teams[0].Score == prev.Teams[0].Score+1 || next.Teams[1].Score == prev.Teams[1].Score+1
	timer := !counts(prev.SecondaryTime, next.SecondaryTime, secs, 1) || !counts(prev.SecsRemaining, next.SecsRemaining, secs, 1)
	if goal || timer || next.KickingTeam != prev.KickingTeam || next.GamePhase != prev.GamePhase || next.SetPlay != prev.SetPlay {
		return doubtNone
	}
	return doubtState
}

// setPlayDoubt: a set play ends at any time; it starts with its preparation timer (the
// secondary time jumps) or with a change of the state, kicking team or stopped flag,
// for a team of the game; one set play turns into another only with its timer started
// anew (HSL's GameController, a set play called while one runs).
func setPlayDoubt(prev, next *gcproto.Packet, elapsed time.Duration) doubt {
	if next.SetPlay == prev.SetPlay || next.SetPlay == gcproto.SetPlayNone {
		return doubtNone
	}
	if prev.SetPlay != gcproto.SetPlayNone {
		if next.SecondaryTime > prev.SecondaryTime+1 {
			return doubtNone
		}
		return doubtSetPlay
	}
	team := next.SetPlayTeam()
	if team != next.Teams[0].TeamNumber && team != next.Teams[1].TeamNumber {
		return doubtSetPlay
	}
	secs := int32(elapsed/time.Second) + clockSlackSecs
	timer := !counts(prev.SecondaryTime, next.SecondaryTime, secs, 1)
	if timer || next.State != prev.State || next.KickingTeam != prev.KickingTeam || next.Stopped != prev.Stopped {
		return doubtNone
	}
	return doubtSetPlay
}

// penaltyDoubt: a penalty ends at any time; it starts with its timer; one penalty does
// not turn into another; a timer does not grow by itself nor run faster than time;
// cards and warnings come one at a time.
func penaltyDoubt(prev, next *gcproto.Packet, secs int32) doubt {
	n := next.Layout.MaxPlayers()
	for t := range next.Teams {
		for i := range n {
			a, b := &prev.Teams[t].Players[i], &next.Teams[t].Players[i]
			switch {
			case a.Penalty == b.Penalty:
				d := int32(b.SecsTillUnpenalised) - int32(a.SecsTillUnpenalised)
				if b.Penalty != gcproto.PenaltyNone && (d > 0 || -d > secs) {
					return doubtPenalty
				}
			case b.Penalty == gcproto.PenaltyNone:
			case a.Penalty != gcproto.PenaltyNone:
				return doubtPenalty
			case b.SecsTillUnpenalised == 0:
				// An untimed penalty waits one packet: nothing tells it from a corrupted
				// byte (HSL's GameController sends pushing so).
				return doubtPenalty
			}
			if b.YellowCards > a.YellowCards+1 || b.RedCards > a.RedCards+1 || b.Warnings > a.Warnings+1 {
				return doubtPenalty
			}
		}
	}
	return doubtNone
}

// counts reports whether a clock went from a to b as a GameController's clock does
// between two packets without an event: it stands or counts down by secs at most; up
// seconds up at most (none in play: a clock that rises there is a flipped bit; 1 where
// a tick's rounding is allowed). Not counting so, a timer was started or set.
func counts(a, b, secs, up int32) bool {
	d := b - a
	return d <= up && -d <= secs
}

func teamsChanged(prev, next *gcproto.Packet) bool {
	for t := range next.Teams {
		a, b := &prev.Teams[t], &next.Teams[t]
		if a.TeamNumber != b.TeamNumber || a.FieldPlayerColour != b.FieldPlayerColour || a.GoalkeeperColour != b.GoalkeeperColour {
			return true
		}
	}
	return false
}

// kickingTeamValid reports whether the kicking team is a team of the game or a code
// for none or a dropped ball.
func kickingTeamValid(p *gcproto.Packet) bool {
	k := p.KickingTeam
	return k == p.Teams[0].TeamNumber || k == p.Teams[1].TeamNumber || k == gcproto.KickingTeamNone ||
		(p.Layout.Family() == gcproto.FamilyHL && k == gcproto.DropBallJava)
}

// confirm decides whether p, from the GameController followed and received at now, is
// accepted: when it is a plausible successor of the last accepted packet, or of the
// packet held (which it then confirms). Otherwise p is held in place of the one held
// before, and confirm returns its doubt. Called on Run's goroutine with c.mu held.
func (c *Component) confirmLocked(p *gcproto.Packet, now time.Time) doubt {
	d := implausibleAt(&c.s.last, p, now.Sub(c.s.lastValid), c.pace)
	if d == doubtNone {
		c.held = false
		return doubtNone
	}
	if c.held {
		elapsed := now.Sub(c.heldAt)
		pace := c.pace
		if c.heldWhy == doubtClock && !clockRose(&c.heldPkt, p) {
			// The held packet's clocks counted faster than it was sent, without an event,
			// and the next packet's count on from them (a corrupted clock would come back
			// up): if that packet confirms the held one at the held one's pace, this
			// GameController's clocks run that fast (gc-sim at a speed above 1).
			pace = max(pace, clockPace(&c.s.last, &c.heldPkt))
		}
		if implausibleAt(&c.heldPkt, p, elapsed, pace) == doubtNone {
			c.held, c.pace = false, pace
			c.prevBudgets = budgetsOf(&c.heldPkt) // the packet before p
			return doubtNone
		}
	}
	c.held, c.heldPkt, c.heldAt, c.heldWhy = true, *p, now, d
	return d
}

// budgets is what steadyBudgets keeps of a packet.
type budgets struct {
	layout gcproto.Layout
	state  gcproto.State
	team   [2]uint8
	budget [2]uint16
}

func budgetsOf(p *gcproto.Packet) budgets {
	return budgets{p.Layout, p.State, [2]uint8{p.Teams[0].TeamNumber, p.Teams[1].TeamNumber},
		[2]uint16{p.Teams[0].MessageBudget, p.Teams[1].MessageBudget}}
}

// steadyBudgets raises each team's message budget in the accepted packet p, and our
// team's in info (derived from p), to the one in the packet before it (the last
// accepted, or the held one p confirmed) when that was larger and both are in play
// (not INITIAL or FINISHED, where a GameController sets budgets anew); follows tells
// whether p follows that packet from the same GameController. Budgets only fall in
// play, so the published budget is the larger of two packets' in a row: one packet
// late, and never one that a corrupted datagram lowered within implausible's slack (a
// flipped bit 8 is 256 messages).
func (c *Component) steadyBudgets(p *gcproto.Packet, info *gcproto.GCInfo, follows bool) {
	prev := c.prevBudgets
	c.prevBudgets = budgetsOf(p)
	if !follows || !p.Layout.HasMessageBudget() || p.Layout != prev.layout || setupState(prev.state) || setupState(p.State) {
		return
	}
	for t := range p.Teams {
		tm := &p.Teams[t]
		for i, n := range prev.team {
			if n == tm.TeamNumber && prev.budget[i] > tm.MessageBudget {
				tm.MessageBudget = prev.budget[i]
				if int(n) == c.cfg.Team {
					info.MessageBudget = int(tm.MessageBudget) // as gcproto.Derive sets it
				}
			}
		}
	}
}

// setupState reports whether s is a state between games or halves, where budgets,
// teams and halves change.
func setupState(s gcproto.State) bool {
	return s == gcproto.StateInitial || s == gcproto.StateFinished
}
