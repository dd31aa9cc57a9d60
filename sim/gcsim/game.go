package gcsim

import (
	"cmp"
	"fmt"
	"math"
	"time"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
)

// Side names one of the two teams of the simulated game: SideA is the first team of
// Config.Teams, SideB the second. Scripts write them as "A" and "B".
type Side uint8

// Sides.
const (
	SideA Side = 0
	SideB Side = 1
	// NoSide means no team (for Ready: keep the current kicking team).
	NoSide Side = 255
)

// String returns "A", "B" or "none".
func (s Side) String() string {
	switch s {
	case SideA:
		return "A"
	case SideB:
		return "B"
	default:
		return "none"
	}
}

// Other returns the opposing side.
func (s Side) Other() Side {
	if s == SideA {
		return SideB
	}
	return SideA
}

func (s Side) valid() bool { return s == SideA || s == SideB }

// Timing holds the durations of the game, in game time. Zero fields take the
// defaults of DefaultTiming.
type Timing struct {
	// Half is the length of a half: secsRemaining at the start of each half.
	Half time.Duration
	// HalfTimeBreak is counted down in secondaryTime after the first half ends.
	HalfTimeBreak time.Duration
	// Ready is the time robots get in READY before the state turns SET by itself.
	Ready time.Duration
	// KickOff is how long a kick-off lasts in PLAYING; then SPL v18 and HSL send
	// kicking team "none".
	KickOff time.Duration
	// SetPlay is how long a set play lasts unless the script ends it earlier.
	SetPlay time.Duration
	// Penalty is the default time a penalised player waits.
	Penalty time.Duration
	// ExtraHalf is the length of a half of extra time (HSL).
	ExtraHalf time.Duration
}

// DefaultTiming returns the durations of a regular SPL/HSL game (GameController3
// parameters): 10 min halves and break, 45 s ready, 10 s kick-off, 30 s set plays,
// 45 s penalties, 5 min halves of extra time.
func DefaultTiming() Timing {
	return Timing{
		Half:          10 * time.Minute,
		HalfTimeBreak: 10 * time.Minute,
		Ready:         45 * time.Second,
		KickOff:       10 * time.Second,
		SetPlay:       30 * time.Second,
		Penalty:       45 * time.Second,
		ExtraHalf:     5 * time.Minute,
	}
}

func (t Timing) withDefaults() Timing {
	d := DefaultTiming()
	t.Half = cmp.Or(t.Half, d.Half)
	t.HalfTimeBreak = cmp.Or(t.HalfTimeBreak, d.HalfTimeBreak)
	t.Ready = cmp.Or(t.Ready, d.Ready)
	t.KickOff = cmp.Or(t.KickOff, d.KickOff)
	t.SetPlay = cmp.Or(t.SetPlay, d.SetPlay)
	t.Penalty = cmp.Or(t.Penalty, d.Penalty)
	t.ExtraHalf = cmp.Or(t.ExtraHalf, d.ExtraHalf)
	return t
}

// League limits of the team messages a GameController counts.
const (
	BudgetSPL         = 1200  // messagesPerTeam of the SPL
	BudgetHSL         = 12000 // messagesPerTeam of the HSL
	BudgetHSLMinute   = 600   // messagesPerTeamPerAdditionalMinute of the HSL
	BudgetHSLExtra    = 6000  // messagesPerTeamPerExtraTime of the HSL
	MaxTeamMessageSPL = 128   // bytes
	MaxTeamMessageHSL = 512   // bytes
)

// DefaultBudget returns the league's message budget per team and game for a layout, or
// -1 when the layout has no messageBudget field.
func DefaultBudget(l gcproto.Layout) int {
	switch {
	case !l.HasMessageBudget():
		return -1
	case l.Family() == gcproto.FamilyHSL:
		return BudgetHSL
	default:
		return BudgetSPL
	}
}

// maxTeamMessage is the league's size limit of a team message for the layout.
func maxTeamMessage(l gcproto.Layout) int {
	if l.Family() == gcproto.FamilyHSL {
		return MaxTeamMessageHSL
	}
	return MaxTeamMessageSPL
}

// timerUse says what the secondary timer counts.
type timerUse uint8

const (
	timerNone timerUse = iota
	timerReady
	timerKickOff
	timerSetPlay
	timerBreak
)

// String names what the timer counts, "" for nothing.
func (u timerUse) String() string {
	switch u {
	case timerReady:
		return "ready"
	case timerKickOff:
		return "kick-off"
	case timerSetPlay:
		return "set play"
	case timerBreak:
		return "half-time"
	}
	return ""
}

// kickMode says what the kicking team field holds.
type kickMode uint8

const (
	kickTeam kickMode = iota // a team (side)
	kickNone                 // no team: 255 on SPL v18 and HSL, the last team elsewhere
	kickDrop                 // dropped ball: 255
)

type playerState struct {
	penalty gcproto.Penalty
	left    time.Duration // remaining penalty time
	timed   bool          // left counts down
}

type teamState struct {
	score    int
	budget   int // remaining messages; -1 when the layout has none
	messages uint64
	tooLong  uint64 // messages over the size limit
	illegal  bool   // illegal communication: score forced to 0
	players  [gcproto.MaxPlayers]playerState
}

// game is the state of one simulated game in game time. It is not safe for concurrent
// use; the Simulator guards it.
type game struct {
	layout  gcproto.Layout
	teams   [2]uint8
	players int
	timing  Timing
	budget  int // initial budget per team, -1 none

	phase        gcproto.GamePhase // normal, extra time (Overtime) or penalty shoot-out
	state        gcproto.State
	firstHalf    bool
	stopped      bool
	setPlay      gcproto.SetPlay
	kick         kickMode
	kickSide     Side // the team of kickTeam, and the last one for kickNone
	firstKickOff Side // kick-off team of the first half

	secs      time.Duration // primary timer (secsRemaining)
	second    time.Duration // secondary timer (secondaryTime)
	secondFor timerUse

	team [2]teamState

	now time.Duration // game time reached, kept across reset
}

func newGame(l gcproto.Layout, teams [2]uint8, players int, t Timing, budget int) *game {
	g := &game{layout: l, teams: teams, players: players, timing: t, budget: budget}
	g.reset()
	return g
}

// reset starts the game over: INITIAL of the first half, kick-off for A.
func (g *game) reset() {
	*g = game{layout: g.layout, teams: g.teams, players: g.players, timing: g.timing, budget: g.budget, now: g.now}
	g.state = gcproto.StateInitial
	g.firstHalf = true
	g.kick, g.kickSide, g.firstKickOff = kickTeam, SideA, SideA
	g.secs = g.timing.Half
	sub := substitute(g.layout)
	for s := range g.team {
		g.team[s].budget = g.budget
		for n := g.players; n < g.layout.MaxPlayers(); n++ {
			g.team[s].players[n] = playerState{penalty: sub}
		}
	}
}

// substitute returns the layout's PENALTY_SUBSTITUTE code.
func substitute(l gcproto.Layout) gcproto.Penalty {
	p, _ := penaltyByName(l, "substitute")
	return p
}

// penaltyByName finds the code of a penalty name of the layout (gcproto.Layout.PenaltyName).
func penaltyByName(l gcproto.Layout, name string) (gcproto.Penalty, bool) {
	for p := range 256 {
		if n := l.PenaltyName(gcproto.Penalty(p)); n != "" && n == name {
			return gcproto.Penalty(p), true
		}
	}
	return 0, false
}

// defaultPenalty is the penalty a script's "penalise" gives when it names none:
// pushing in the SPL and HSL, physical contact in the HL.
func defaultPenalty(l gcproto.Layout) gcproto.Penalty {
	name := "spl_player_pushing"
	switch l.Family() {
	case gcproto.FamilyHL:
		name = "hl_physical_contact"
	case gcproto.FamilyHSL:
		name = "pushing"
	}
	p, _ := penaltyByName(l, name)
	return p
}

// hasKickNone reports whether the layout can say "no kicking team" (KICKING_TEAM_NONE).
func hasKickNone(l gcproto.Layout) bool {
	return l == gcproto.LayoutSPL18 || l.Family() == gcproto.FamilyHSL
}

// primaryRuns reports whether secsRemaining counts down: in PLAYING, and in READY and
// SET once the half's clock has started, as the GameController's main timer does;
// stopped play halts it only before HSL v20. In the penalty shoot-out it stands still.
func (g *game) primaryRuns() bool {
	if g.stopped && g.stopHaltsClock() {
		return false
	}
	switch {
	case g.phase == gcproto.GamePhasePenaltyShoot:
		return false
	case g.state == gcproto.StatePlaying:
		return true
	case g.state == gcproto.StateReady || g.state == gcproto.StateSet:
		return g.secs != g.halfLength()
	}
	return false
}

// stopHaltsClock reports whether stopped play halts the game clock and the half-time
// break: it does in the HSL v19 GameController; from v20 (GameController 7) only the
// ready, kick-off, set play and penalty times halt.
func (g *game) stopHaltsClock() bool { return g.layout != gcproto.LayoutHSL20 }

// halfLength is the length of a half of the current phase.
func (g *game) halfLength() time.Duration {
	if g.phase == gcproto.GamePhaseOvertime {
		return g.timing.ExtraHalf
	}
	return g.timing.Half
}

// secondRuns reports whether secondaryTime counts down: the ready, kick-off and set play
// times not while play is stopped (the GameController's ReadyOrPlaying and Playing
// timers), the half-time break also then from HSL v20 on.
func (g *game) secondRuns() bool {
	switch g.secondFor {
	case timerNone:
		return false
	case timerBreak:
		return !g.stopped || !g.stopHaltsClock()
	}
	return !g.stopped
}

func (g *game) penaltiesRun() bool {
	return g.state == gcproto.StateReady || g.state == gcproto.StateSet || g.state == gcproto.StatePlaying
}

// advance lets d of game time pass, firing the timers that reach zero in order. emit
// receives a description of every change; g.now is the game time of the change.
func (g *game) advance(d time.Duration, emit func(string)) {
	g.settle(emit)
	for d > 0 {
		step := d
		if g.primaryRuns() {
			step = min(step, g.secs)
		}
		if g.secondRuns() {
			step = min(step, g.second)
		}
		pen := g.penaltiesRun()
		if pen {
			for s := range g.team {
				for n := range g.players {
					if p := &g.team[s].players[n]; p.timed {
						step = min(step, p.left)
					}
				}
			}
		}
		if g.primaryRuns() {
			g.secs -= step
		}
		if g.secondRuns() {
			g.second -= step
		}
		if pen {
			for s := range g.team {
				for n := range g.players {
					if p := &g.team[s].players[n]; p.timed {
						p.left -= step
					}
				}
			}
		}
		d -= step
		g.now += step
		g.settle(emit)
	}
}

// settle fires every timer that stands at zero. Each firing stops its timer, so the
// loop ends.
func (g *game) settle(emit func(string)) {
	for {
		switch {
		case g.primaryRuns() && g.secs <= 0:
			g.secs = 0
			g.finishHalf()
			if g.firstHalf {
				emit("first half over")
			} else {
				emit("game over")
			}
		case g.secondFor != timerNone && g.second <= 0:
			use := g.secondFor
			g.second, g.secondFor = 0, timerNone
			switch use {
			case timerReady:
				if g.state == gcproto.StateReady {
					g.state = gcproto.StateSet
					emit("ready time over")
				}
			case timerKickOff:
				if g.kick == kickTeam && hasKickNone(g.layout) {
					g.kick = kickNone
					emit("kick-off over")
				}
			case timerSetPlay:
				if g.setPlay != gcproto.SetPlayNone {
					g.endSetPlay()
					emit("set play over")
				}
			case timerNone, timerBreak:
			}
		default:
			if !g.penaltiesRun() {
				return
			}
			fired := false
			for s := range g.team {
				for n := range g.players {
					if p := &g.team[s].players[n]; p.timed && p.left <= 0 {
						*p = playerState{}
						emit(fmt.Sprintf("penalty of %s %d over", Side(s), n+1))
						fired = true
					}
				}
			}
			if !fired {
				return
			}
		}
	}
}

func (g *game) finishHalf() {
	g.state = gcproto.StateFinished
	g.setPlay = gcproto.SetPlayNone
	g.kick = kickNone
	g.stopped = false
	g.second, g.secondFor = 0, timerNone
	if g.firstHalf && g.phase == gcproto.GamePhaseNormal {
		g.second, g.secondFor = g.timing.HalfTimeBreak, timerBreak
	}
}

func (g *game) endSetPlay() {
	g.setPlay = gcproto.SetPlayNone
	if g.kick == kickTeam {
		g.kick = kickNone
	}
	if g.secondFor == timerSetPlay {
		g.second, g.secondFor = 0, timerNone
	}
}

func (g *game) toReady() {
	g.state = gcproto.StateReady
	g.setPlay = gcproto.SetPlayNone
	g.stopped = false
	g.second, g.secondFor = g.timing.Ready, timerReady
}

// counted reports whether a team message sent now counts against the budget: in
// READY, SET and PLAYING, never in the penalty shoot-out.
func (g *game) counted() bool {
	return g.phase != gcproto.GamePhasePenaltyShoot &&
		(g.state == gcproto.StateReady || g.state == gcproto.StateSet || g.state == gcproto.StatePlaying)
}

// addBudget adds n messages to the budget of every team whose communication is still
// legal (additional time, extra time), clamped to the field's 65535.
func (g *game) addBudget(n int) {
	for s := range g.team {
		if t := &g.team[s]; t.budget >= 0 && !t.illegal {
			t.budget = min(t.budget+n, math.MaxUint16)
		}
	}
}

// teamMessage counts one team message of side with the given payload size, by
// GameController3's rule. It reports a change description when the team's
// communication turned illegal.
func (g *game) teamMessage(side Side, size int) string {
	t := &g.team[side]
	if t.budget < 0 || !g.counted() {
		return ""
	}
	t.messages++
	long := size > maxTeamMessage(g.layout)
	if long {
		t.tooLong++
	}
	change := ""
	if (long || t.budget == 0) && !t.illegal {
		t.illegal = true
		t.score = 0
		why := "budget spent"
		if long {
			why = fmt.Sprintf("%d-byte message over %d", size, maxTeamMessage(g.layout))
		}
		change = fmt.Sprintf("illegal communication of %s (%s): score 0", side, why)
	}
	if t.budget > 0 {
		t.budget--
	}
	return change
}

// wireOrder returns the sides in the order of the packet's TeamInfo blocks: A first
// in the first half, swapped in the second.
func (g *game) wireOrder() [2]Side {
	if g.firstHalf {
		return [2]Side{SideA, SideB}
	}
	return [2]Side{SideB, SideA}
}

// Colours the simulator gives the two teams.
var (
	fieldColours  = [2]gcproto.TeamColour{gcproto.ColourBlue, gcproto.ColourRed}
	keeperColours = [2]gcproto.TeamColour{gcproto.ColourYellow, gcproto.ColourBlack}
)

// kickingTeam returns the kicking team byte.
func (g *game) kickingTeam() uint8 {
	switch g.kick {
	case kickDrop:
		return gcproto.DropBall
	case kickNone:
		if hasKickNone(g.layout) {
			return gcproto.DropBall // KICKING_TEAM_NONE has the same value
		}
	case kickTeam:
	}
	return g.teams[g.kickSide]
}

// packet fills p with the control packet of the current state.
func (g *game) packet(p *gcproto.Packet, number uint8) {
	*p = gcproto.Packet{
		Header:         gcproto.HeaderRGme,
		Layout:         g.layout,
		PacketNumber:   number,
		PlayersPerTeam: uint8(g.players),
		State:          g.state,
		GamePhase:      g.phase,
		SetPlay:        g.setPlay,
		FirstHalf:      g.firstHalf,
		Stopped:        g.stopped && g.layout.Family() == gcproto.FamilyHSL,
		KickingTeam:    g.kickingTeam(),
		SecsRemaining:  g.wireSecs(g.secs),
		SecondaryTime:  g.wireSecs(g.second),
	}
	if g.layout.Family() == gcproto.FamilyHL {
		p.DropInTime = -1 // no drop-in yet
		if g.setPlay != gcproto.SetPlayNone {
			// Set play team and sub-mode 1: robots may take their set play positions.
			p.SecondaryStateInfo = [4]uint8{g.teams[g.kickSide], 1, 0, 0}
		}
	}
	for i, side := range g.wireOrder() {
		t := &g.team[side]
		ti := &p.Teams[i]
		ti.TeamNumber = g.teams[side]
		ti.FieldPlayerColour = fieldColours[side]
		if g.layout.HasGoalkeeper() {
			ti.GoalkeeperColour = keeperColours[side]
			if g.phase != gcproto.GamePhasePenaltyShoot {
				ti.Goalkeeper = 1
			}
		}
		ti.Score = uint8(min(t.score, math.MaxUint8))
		if t.budget >= 0 {
			ti.MessageBudget = uint16(min(t.budget, math.MaxUint16))
		}
		for n := range g.layout.MaxPlayers() {
			ps := &t.players[n]
			ri := &ti.Players[n]
			ri.Penalty = ps.penalty
			if ps.timed {
				ri.SecsTillUnpenalised = uint8(min(ceilSecs(ps.left), math.MaxUint8))
			}
			ri.Goalkeeper = n == 0 && g.layout.HasGoalkeeperFlag()
		}
	}
}

// wireSecs rounds a timer up to whole seconds and clamps it to int16, the range of the
// times in every layout.
func (g *game) wireSecs(d time.Duration) int32 {
	return int32(min(ceilSecs(d), math.MaxInt16))
}

// dropBall reports whether the packet announces a dropped ball (gcproto.Packet.DropBall).
func (g *game) dropBall() bool {
	return g.kick == kickDrop &&
		(g.layout.Family() == gcproto.FamilyHL || g.state == gcproto.StateReady || g.state == gcproto.StateSet)
}

// ceilSecs returns d in whole seconds, rounded up; 0 for d <= 0.
func ceilSecs(d time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	return int64((d + time.Second - 1) / time.Second)
}
