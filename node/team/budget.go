package team

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/robocup-dnetwork/dnetwork/proto/league"
)

// League is the league profile (package league): size cap, budget rules, default
// reserve. The names below keep the component's configuration readable.
type League = league.League

// The leagues.
const (
	LeagueHSL = league.HSL
	LeagueSPL = league.SPL
	LeagueHL  = league.HL
)

// Game states as the GameController numbers them (all versions agree on 0-4; SPL v18
// adds STANDBY 5).
const (
	StateInitial  uint8 = 0
	StateReady    uint8 = 1
	StateSet      uint8 = 2
	StatePlaying  uint8 = 3
	StateFinished uint8 = 4
	StateStandby  uint8 = 5
)

// Game phases (GAME_PHASE_*); the HL secondary states map onto the same numbers.
const (
	PhaseNormal       uint8 = 0
	PhasePenaltyShoot uint8 = 1
	PhaseOvertime     uint8 = 2
	PhaseTimeout      uint8 = 3
)

// ExtraHalfDuration is the length of one half of extra time (the HSL GameController's
// extraHalfDuration, 300 s): in the first one the budget must last the second one too.
const ExtraHalfDuration = 5 * time.Minute

// BudgetPolicy spreads the team's message budget over the rest of the game.
//
// The remaining budget minus Reserve is divided by the remaining game time and by the
// number of robots sharing it; the result is the fastest rate this robot may send at. A
// robot whose team has used up everything but the reserve goes silent, as does a
// penalised robot, and one whose team has fewer messages left than robots (a reserve
// smaller than the team). With no budget known (no GameController, or a version without
// budgets) only the rate rule applies.
type BudgetPolicy struct {
	League League
	// Reserve is the number of messages kept back and never spent by the allowance.
	Reserve int
	// SilentUncounted makes the robot silent in states whose messages do not count
	// (INITIAL, FINISHED, ...). By default it keeps talking there, at no cost, while the
	// team's budget is above the reserve.
	SilentUncounted bool
}

// BudgetInput is the situation the policy looks at.
type BudgetInput struct {
	Known     bool  // a budget figure is available
	Remaining int   // messages the team has left, our estimate
	State     uint8 // game state
	Phase     uint8 // game phase
	FirstHalf bool
	// SecsRemaining is the time left in the current half, in seconds.
	SecsRemaining int
	// Robots is the number of robots sharing the budget (ourselves plus teammates
	// online); values below 1 count as 1.
	Robots    int
	Penalised bool
}

// BudgetCause says which rule of the policy decided.
type BudgetCause uint8

// Causes of a [Verdict].
const (
	// BudgetUnknown: the state counts but no budget figure is known; no bound.
	BudgetUnknown BudgetCause = iota
	// BudgetUncounted: messages in this state do not count; no bound.
	BudgetUncounted
	// BudgetUncountedSilent: messages in this state do not count, and the policy is
	// configured to stay silent there.
	BudgetUncountedSilent
	// BudgetPenalised: the robot is penalised; silent.
	BudgetPenalised
	// BudgetReserve: the team has only the reserve left, or nothing (exhausted);
	// silent until the GameController's figure grows, and in states that do not count
	// too (a counted one may already have begun), the penalty shoot-out excepted.
	BudgetReserve
	// BudgetAllowance: the allowance bounds the send interval.
	BudgetAllowance
)

func (c BudgetCause) String() string {
	switch c {
	case BudgetUnknown:
		return "no budget known"
	case BudgetUncounted:
		return "state does not count"
	case BudgetUncountedSilent:
		return "state does not count, silent by configuration"
	case BudgetPenalised:
		return "penalised"
	case BudgetReserve:
		return "budget at reserve"
	case BudgetAllowance:
		return "allowance"
	}
	return "cause(" + strconv.Itoa(int(c)) + ")"
}

// Verdict is the policy's answer. It is a plain value (no allocation per decision);
// Reason formats it for diagnostics.
type Verdict struct {
	Silent      bool          // send nothing now
	MinInterval time.Duration // the budget's lower bound on the send interval (0 = none)
	Cause       BudgetCause   // which rule decided
	Remaining   int           // the budget figure the decision used (BudgetReserve, BudgetAllowance)
	Reserve     int           // the policy's reserve
	PerRobot    float64       // allowance in messages per second per robot (BudgetAllowance)
}

// Reason describes the verdict for diagnostics, e.g.
// "allowance 1.98 msg/s per robot (12000 left, reserve 100)".
func (v Verdict) Reason() string {
	switch v.Cause {
	case BudgetReserve:
		if v.Remaining == 0 {
			return fmt.Sprintf("budget exhausted (0 left, reserve %d): a counted message now would be illegal communication", v.Reserve)
		}
		return fmt.Sprintf("budget at reserve (%d left, reserve %d)", v.Remaining, v.Reserve)
	case BudgetAllowance:
		return fmt.Sprintf("allowance %.2f msg/s per robot (%d left, reserve %d)", v.PerRobot, v.Remaining, v.Reserve)
	}
	return v.Cause.String()
}

// Decide applies the policy.
func (p BudgetPolicy) Decide(in BudgetInput) Verdict {
	if in.Penalised {
		return Verdict{Silent: true, Cause: BudgetPenalised}
	}
	atReserve := in.Known && p.atReserve(in)
	if !p.League.Counted(in.State, in.Phase) {
		if p.SilentUncounted {
			return Verdict{Silent: true, Cause: BudgetUncountedSilent}
		}
		// The GameController may have moved on to a counted state (INITIAL to READY or
		// STANDBY, the end of a timeout) a packet before we hear it, and counts what we
		// send meanwhile; no counted state follows the penalty shoot-out.
		if atReserve && in.Phase != PhasePenaltyShoot && p.League.Counted(StateReady, PhaseNormal) {
			return Verdict{Silent: true, Cause: BudgetReserve, Remaining: in.Remaining, Reserve: p.Reserve}
		}
		return Verdict{Cause: BudgetUncounted}
	}
	if !in.Known {
		return Verdict{Cause: BudgetUnknown}
	}
	if atReserve {
		return Verdict{Silent: true, Cause: BudgetReserve, Remaining: in.Remaining, Reserve: p.Reserve}
	}
	robots := max(in.Robots, 1)
	usable := in.Remaining - p.Reserve
	left := float64(in.SecsRemaining)
	if in.FirstHalf {
		switch in.Phase {
		case PhaseNormal:
			left += p.League.HalfDuration().Seconds()
		case PhaseOvertime: // the first half of extra time: the second one follows
			left += ExtraHalfDuration.Seconds()
		}
	}
	left = math.Max(left, 1)
	perRobot := float64(usable) / left / float64(robots) // messages per second
	iv := time.Duration(float64(time.Second) / perRobot)
	return Verdict{MinInterval: iv, Cause: BudgetAllowance, Remaining: in.Remaining, Reserve: p.Reserve, PerRobot: perRobot}
}

// atReserve reports whether the team's budget is down to what the policy keeps back: the
// reserve, or one message per teammate (every robot decides on the same figure before it
// hears the others' messages, so the last robots-1 messages are the teammates').
func (p BudgetPolicy) atReserve(in BudgetInput) bool {
	return in.Remaining <= p.Reserve || in.Remaining <= max(in.Robots, 1)-1
}

// BudgetTracker estimates the team's remaining budget between GameController packets:
// the GameController's figure is taken as truth whenever a packet brings it, and every
// team message heard or sent in a counted state is subtracted until the next one. The
// GameController counts only the datagrams it receives on the team port, so the robot's
// count may run ahead of it (messages it never sees: unicast, another network, lost on
// the air); a figure the GameController keeps sending therefore wins over the count too.
// Without packets told apart (Packet), only a changed figure can be taken.
//
// A figure is one packet late: the GameController component publishes the larger of two
// packets' budgets in a row (gamecontroller steadyBudgets), so a new figure that is not
// larger is the budget when the packet before arrived. The messages counted since then
// are subtracted from it. With a feeder that is not late this keeps back one packet
// interval's messages more than needed; it never adds up over packets.
type BudgetTracker struct {
	known     bool
	packet    bool // a GameController packet arrived: the next figure is fresh
	remaining int
	figure    int // the last GameController figure
	spent     int // messages counted since it
}

// FromGameController sets the estimate from the figure of a fresh GameController packet.
func (b *BudgetTracker) FromGameController(remaining int) {
	if b.known && remaining <= b.figure {
		b.remaining = max(remaining-b.spent, 0)
	} else {
		b.remaining = remaining
	}
	b.known, b.packet, b.figure, b.spent = true, false, remaining, 0
}

// Packet notes that a GameController packet arrived: the figure read next is that
// packet's, to be taken even when it equals the last one (applyBudget).
func (b *BudgetTracker) Packet() { b.packet = true }

// Forget drops the estimate (GameController lost).
func (b *BudgetTracker) Forget() { *b = BudgetTracker{} }

// Spend subtracts n messages from the estimate.
func (b *BudgetTracker) Spend(n int) {
	if b.known {
		b.remaining = max(b.remaining-n, 0)
		b.spent += n
	}
}

// Remaining returns the estimate and whether one is known.
func (b *BudgetTracker) Remaining() (int, bool) { return b.remaining, b.known }
