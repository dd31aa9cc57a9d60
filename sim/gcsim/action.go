package gcsim

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
)

var (
	// ErrAction reports an action the game's layout or setup cannot express: an unknown
	// set play or penalty, a player number out of range, stop/resume outside HSL.
	ErrAction = errors.New("gcsim: invalid action")
	// ErrState reports an action the current game state does not allow, e.g. a goal
	// outside PLAYING. A script step that fails this way is skipped and reported.
	ErrState = errors.New("gcsim: action not allowed now")
)

// Setup describes the game a script or action is written for.
type Setup struct {
	// Layout is the control packet layout; the zero value means gcproto.LayoutHSL20.
	Layout gcproto.Layout
	// Teams are the team numbers of side A and side B (1..254, distinct).
	Teams [2]uint8
	// Players is the number of players per team (playersPerTeam), 1..Layout.MaxPlayers;
	// 0 means 5, or the layout's maximum when that is smaller.
	Players int
}

func (s Setup) withDefaults() Setup {
	if s.Layout == gcproto.LayoutInvalid {
		s.Layout = gcproto.LayoutHSL20
	}
	if s.Players == 0 {
		s.Players = min(5, s.Layout.MaxPlayers())
	}
	return s
}

// Validate reports what is wrong with the setup (after defaults); the error wraps
// ErrConfig.
func (s Setup) Validate() error {
	if errs := s.problems(); len(errs) > 0 {
		return fmt.Errorf("%w: %w", ErrConfig, errors.Join(errs...))
	}
	return nil
}

func (s Setup) problems() []error {
	s = s.withDefaults()
	var errs []error
	if !s.Layout.Valid() {
		errs = append(errs, fmt.Errorf("unknown layout %d", s.Layout))
	}
	for i, t := range s.Teams {
		if t == 0 || t == gcproto.DropBall {
			errs = append(errs, fmt.Errorf("team %s: number %d outside 1..254", Side(i), t))
		}
	}
	if s.Teams[0] == s.Teams[1] && s.Teams[0] != 0 {
		errs = append(errs, fmt.Errorf("both teams have number %d", s.Teams[0]))
	}
	if s.Layout.Valid() && (s.Players < 1 || s.Players > s.Layout.MaxPlayers()) {
		errs = append(errs, fmt.Errorf("%d players outside 1..%d of %s", s.Players, s.Layout.MaxPlayers(), s.Layout))
	}
	return errs
}

// Action is one thing a referee does: a state change, a set play, a penalty, a goal.
// Scripts are lists of timed actions; Simulator.Apply applies one at once. String
// returns the action in script syntax.
type Action interface {
	fmt.Stringer
	// check reports whether the action can be expressed in the setup's layout.
	check(s Setup) error
	// apply changes the game; it reports whether anything changed, or an ErrState error.
	apply(g *game) (bool, error)
}

func stateErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrState}, args...)...)
}

func actionErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrAction}, args...)...)
}

func checkSide(s Side) error {
	if !s.valid() {
		return actionErr("team %d is neither A nor B", s)
	}
	return nil
}

func checkPlayer(s Setup, n int) error {
	if n < 1 || n > s.Players {
		return actionErr("player %d outside 1..%d", n, s.Players)
	}
	return nil
}

// StateChange moves the game to a state: INITIAL, STANDBY (SPL v17/v18 only), READY,
// SET, PLAYING or FINISHED. PLAYING after READY or SET starts the kick-off (or the
// active set play) timer; FINISHED ends the half.
type StateChange struct{ To gcproto.State }

func (a StateChange) String() string {
	switch a.To {
	case gcproto.StateInitial:
		return "initial"
	case gcproto.StateReady:
		return "ready"
	case gcproto.StateSet:
		return "set"
	case gcproto.StatePlaying:
		return "playing"
	case gcproto.StateFinished:
		return "finish"
	case gcproto.StateStandby:
		return "standby"
	}
	return fmt.Sprintf("state %d", a.To)
}

func (a StateChange) check(s Setup) error {
	if s.Layout.StateName(a.To) == "" {
		return actionErr("%s has no state %d", s.Layout, a.To)
	}
	return nil
}

func (a StateChange) apply(g *game) (bool, error) {
	if g.state == a.To {
		return false, nil
	}
	prev := g.state
	switch a.To {
	case gcproto.StateReady:
		g.toReady()
		return true, nil
	case gcproto.StateFinished:
		g.finishHalf()
		return true, nil
	case gcproto.StatePlaying:
		g.state = gcproto.StatePlaying
		g.second, g.secondFor = 0, timerNone
		switch {
		case g.setPlay != gcproto.SetPlayNone:
			g.second, g.secondFor = g.timing.SetPlay, timerSetPlay
		case g.kick == kickTeam && prev != gcproto.StateFinished:
			g.second, g.secondFor = g.timing.KickOff, timerKickOff
		}
		return true, nil
	case gcproto.StateInitial, gcproto.StateSet, gcproto.StateStandby:
	}
	g.state = a.To
	g.second, g.secondFor = 0, timerNone
	if a.To != gcproto.StateSet {
		g.setPlay = gcproto.SetPlayNone
		g.stopped = false
	}
	return true, nil
}

// Ready moves the game to READY and, unless KickOff is NoSide, gives the kick-off to
// KickOff. The first Ready of the first half fixes which team kicks off the second
// half (the other one).
type Ready struct{ KickOff Side }

func (a Ready) String() string {
	if a.KickOff.valid() {
		return "ready " + a.KickOff.String()
	}
	return "ready"
}

func (a Ready) check(Setup) error {
	if a.KickOff != NoSide {
		return checkSide(a.KickOff)
	}
	return nil
}

func (a Ready) apply(g *game) (bool, error) {
	sameKick := a.KickOff == NoSide || g.kick == kickTeam && g.kickSide == a.KickOff
	if g.state == gcproto.StateReady && sameKick {
		return false, nil
	}
	if a.KickOff.valid() {
		g.kick, g.kickSide = kickTeam, a.KickOff
		if g.firstHalf && g.state == gcproto.StateInitial {
			g.firstKickOff = a.KickOff
		}
	}
	g.toReady()
	return true, nil
}

// StartSetPlay starts a set play for Team while PLAYING; it lasts Timing.SetPlay unless
// EndSetPlay comes first.
type StartSetPlay struct {
	SetPlay gcproto.SetPlay
	Team    Side
}

func (a StartSetPlay) String() string { return "setplay " + a.SetPlay.String() + " " + a.Team.String() }

func (a StartSetPlay) check(s Setup) error {
	if a.SetPlay == gcproto.SetPlayNone {
		return actionErr("set play none (use \"setplay end\")")
	}
	if !supportsSetPlay(s.Layout, a.SetPlay) {
		return actionErr("%s has no set play %s", s.Layout, a.SetPlay)
	}
	return checkSide(a.Team)
}

func (a StartSetPlay) apply(g *game) (bool, error) {
	if g.state != gcproto.StatePlaying {
		return false, stateErr("set play needs PLAYING, state is %s", g.state)
	}
	if g.setPlay == a.SetPlay && g.kick == kickTeam && g.kickSide == a.Team {
		return false, nil
	}
	g.setPlay = a.SetPlay
	g.kick, g.kickSide = kickTeam, a.Team
	g.second, g.secondFor = g.timing.SetPlay, timerSetPlay
	return true, nil
}

// EndSetPlay ends the active set play (the ball is in play).
type EndSetPlay struct{}

func (EndSetPlay) String() string    { return "setplay end" }
func (EndSetPlay) check(Setup) error { return nil }
func (EndSetPlay) apply(g *game) (bool, error) {
	if g.setPlay == gcproto.SetPlayNone {
		return false, nil
	}
	g.endSetPlay()
	return true, nil
}

// Penalise penalises player Player (1-based) of Team with Penalty (0: pushing in SPL
// and HSL, physical contact in HL) for Duration (0: Timing.Penalty) of game time.
type Penalise struct {
	Team     Side
	Player   int
	Penalty  gcproto.Penalty
	Duration time.Duration
}

func (a Penalise) String() string {
	s := fmt.Sprintf("penalise %s %d", a.Team, a.Player)
	if a.Penalty != gcproto.PenaltyNone {
		s += " " + strconv.Itoa(int(a.Penalty))
	}
	if a.Duration != 0 {
		s += " " + a.Duration.String()
	}
	return s
}

func (a Penalise) check(s Setup) error {
	if err := checkSide(a.Team); err != nil {
		return err
	}
	if err := checkPlayer(s, a.Player); err != nil {
		return err
	}
	if a.Penalty != gcproto.PenaltyNone && !s.Layout.ValidPenalty(a.Penalty) {
		return actionErr("%s has no penalty %d", s.Layout, a.Penalty)
	}
	if a.Duration < 0 || a.Duration > math.MaxUint8*time.Second {
		return actionErr("penalty time %v outside 0..255s", a.Duration)
	}
	return nil
}

func (a Penalise) apply(g *game) (bool, error) {
	p := playerState{penalty: a.Penalty, left: a.Duration, timed: true}
	if p.penalty == gcproto.PenaltyNone {
		p.penalty = defaultPenalty(g.layout)
	}
	if p.left == 0 {
		p.left = g.timing.Penalty
	}
	g.team[a.Team].players[a.Player-1] = p
	return true, nil
}

// Unpenalise lifts the penalty of player Player of Team.
type Unpenalise struct {
	Team   Side
	Player int
}

func (a Unpenalise) String() string { return fmt.Sprintf("unpenalise %s %d", a.Team, a.Player) }

func (a Unpenalise) check(s Setup) error {
	if err := checkSide(a.Team); err != nil {
		return err
	}
	return checkPlayer(s, a.Player)
}

func (a Unpenalise) apply(g *game) (bool, error) {
	p := &g.team[a.Team].players[a.Player-1]
	if p.penalty == gcproto.PenaltyNone {
		return false, nil
	}
	*p = playerState{}
	return true, nil
}

// Goal scores for Team while PLAYING: the score rises (unless the team's communication
// is illegal), the game goes to READY and the other team gets the kick-off.
type Goal struct{ Team Side }

func (a Goal) String() string    { return "goal " + a.Team.String() }
func (a Goal) check(Setup) error { return checkSide(a.Team) }
func (a Goal) apply(g *game) (bool, error) {
	if g.state != gcproto.StatePlaying {
		return false, stateErr("goal needs PLAYING, state is %s", g.state)
	}
	if !g.team[a.Team].illegal {
		g.team[a.Team].score++
	}
	g.kick, g.kickSide = kickTeam, a.Team.Other()
	g.toReady()
	return true, nil
}

// SecondHalf starts the second half (of the game or of extra time): INITIAL, firstHalf
// false, a fresh clock, penalties lifted, teams swapped on the wire and the kick-off for
// the team that did not kick off the first half. The half-time break keeps counting in
// secondaryTime, as the GameController's does.
type SecondHalf struct{}

func (SecondHalf) String() string    { return "second-half" }
func (SecondHalf) check(Setup) error { return nil }
func (SecondHalf) apply(g *game) (bool, error) {
	if !g.firstHalf || g.phase == gcproto.GamePhasePenaltyShoot {
		return false, stateErr("the second half has already started")
	}
	g.firstHalf = false
	g.state = gcproto.StateInitial
	g.secs = g.halfLength()
	if g.secondFor != timerBreak {
		g.second, g.secondFor = 0, timerNone
	}
	g.setPlay = gcproto.SetPlayNone
	g.stopped = false
	g.kick, g.kickSide = kickTeam, g.firstKickOff.Other()
	for s := range g.team {
		for n := range g.players {
			if g.team[s].players[n].timed {
				g.team[s].players[n] = playerState{}
			}
		}
	}
	return true, nil
}

// Stop stops play (HSL "stopped"): the clock halts and robots must freeze.
type Stop struct{}

func (Stop) String() string      { return "stop" }
func (Stop) check(s Setup) error { return checkHSL(s, "stop") }
func (Stop) apply(g *game) (bool, error) {
	if g.stopped {
		return false, nil
	}
	g.stopped = true
	return true, nil
}

// Resume resumes stopped play (HSL).
type Resume struct{}

func (Resume) String() string      { return "resume" }
func (Resume) check(s Setup) error { return checkHSL(s, "resume") }
func (Resume) apply(g *game) (bool, error) {
	if !g.stopped {
		return false, nil
	}
	g.stopped = false
	return true, nil
}

func checkHSL(s Setup, what string) error {
	if s.Layout.Family() != gcproto.FamilyHSL {
		return actionErr("%s needs an HSL layout, not %s", what, s.Layout)
	}
	return nil
}

// DropBall ends any set play and sets the kicking team to the dropped-ball marker (255).
// In SPL and HSL layouts it is the referee's "global game stuck": 255 means no kicking
// team there and is a dropped ball only in READY and SET, so a game in PLAYING goes back
// to READY, as the GameController3 family does.
type DropBall struct{}

func (DropBall) String() string    { return "dropball" }
func (DropBall) check(Setup) error { return nil }
func (DropBall) apply(g *game) (bool, error) {
	toReady := g.layout.Family() != gcproto.FamilyHL && g.state == gcproto.StatePlaying
	if g.kick == kickDrop && !toReady {
		return false, nil
	}
	if g.setPlay != gcproto.SetPlayNone {
		g.endSetPlay()
	}
	g.kick = kickDrop
	if toReady {
		g.toReady()
	}
	return true, nil
}

// Budget sets the remaining message budget of Team (layouts with messageBudget).
type Budget struct {
	Team Side
	N    int
}

func (a Budget) String() string { return fmt.Sprintf("budget %s %d", a.Team, a.N) }

func (a Budget) check(s Setup) error {
	if !s.Layout.HasMessageBudget() {
		return actionErr("%s has no message budget", s.Layout)
	}
	if a.N < 0 || a.N > math.MaxUint16 {
		return actionErr("budget %d outside 0..65535", a.N)
	}
	return checkSide(a.Team)
}

func (a Budget) apply(g *game) (bool, error) {
	if g.team[a.Team].budget == a.N {
		return false, nil
	}
	g.team[a.Team].budget = a.N
	return true, nil
}

// supportsSetPlay reports whether the layout can encode set play sp.
func supportsSetPlay(l gcproto.Layout, sp gcproto.SetPlay) bool {
	_, ok := setPlayRaw(l, sp)
	return ok
}

// setPlayRaw returns the wire byte of sp in layout l, found by encoding and decoding a
// packet with it, and whether the layout has sp.
func setPlayRaw(l gcproto.Layout, sp gcproto.SetPlay) (uint8, bool) {
	p := gcproto.Packet{Layout: l, State: gcproto.StatePlaying, SetPlay: sp, PlayersPerTeam: 1}
	b, err := p.MarshalBinary()
	if err != nil {
		return 0, false
	}
	var q gcproto.Packet
	if q.UnmarshalBinary(b) != nil || q.SetPlay != sp {
		return 0, false
	}
	return q.SetPlayRaw, true
}
