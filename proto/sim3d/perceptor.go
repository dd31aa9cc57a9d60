package sim3d

import (
	"errors"
	"fmt"
	"math"
	"strconv"
)

// MaxDirection bounds a hear direction in degrees. The server computes it with atan2, so
// it lies in [-180, 180]; the small margin absorbs float rounding.
const MaxDirection = 180.001

// Perceptor errors.
var (
	// ErrHear reports a hear expression with the wrong shape or values.
	ErrHear = errors.New("sim3d: bad hear perceptor")
	// ErrNoHear reports a message that holds no hear (or say) expression where one was needed.
	ErrNoHear = errors.New("sim3d: no hear perceptor")
	// ErrGameState reports a GS or time expression with the wrong shape or values.
	ErrGameState = errors.New("sim3d: bad game state perceptor")
)

// Hear is one heard say message.
//
//	(hear <team> <time> self <message>)         labelled, own message
//	(hear <team> <time> <direction> <message>)  labelled, someone else's
//	(hear <time> self|<direction> <message>)    server with LabelMessages off
type Hear struct {
	// Team is the speaker's team name; empty when the server does not label messages.
	Team string
	// Time is the game time in seconds.
	Time float64
	// Self marks the agent's own message; Direction is then 0.
	Self bool
	// Direction is the bearing of the speaker in degrees, atan2 of the speaker's position
	// relative to the listener in the listener team's field frame (not head-relative).
	Direction float64
	// Message is the said text.
	Message string
}

// ParseHear parses a single hear expression such as "(hear TeamA 12.30 self helloworld)".
// It builds a small Tree per call; a receive loop keeps one Tree and uses Hear.Decode or
// Percept.Decode instead.
func ParseHear(src []byte) (Hear, error) {
	var t Tree
	t.MaxNodes = 16 // a hear holds 6 nodes
	t.MaxDepth = 2
	if err := t.Parse(src); err != nil {
		return Hear{}, fmt.Errorf("%w: %w", ErrHear, err)
	}
	root := t.Root()
	if root.Len() != 1 || !root.First().HeadIs("hear") {
		return Hear{}, fmt.Errorf("%w: want one (hear ...) expression, got %s", ErrHear, describe(root.First()))
	}
	var h Hear
	return h, h.Decode(root.First())
}

// validLabel checks a hear's team label: one atom, so non-empty and without white space
// or parentheses. Unlike the names an agent sends, any other byte is allowed: the server
// labels hears with the team name as the speaker's team chose it.
func validLabel(s string) error {
	if s == "" {
		return fmt.Errorf("%w: empty team name", ErrAtom)
	}
	for i := 0; i < len(s); i++ {
		if isDelim(s[i]) {
			return fmt.Errorf("%w: team name byte %d is %s", ErrAtom, i, byteName(s[i]))
		}
	}
	return nil
}

// Decode fills h from a hear node. Every field is overwritten.
func (h *Hear) Decode(n Node) error {
	*h = Hear{}
	if !n.HeadIs("hear") {
		return fmt.Errorf("%w: %s is not a hear expression", ErrHear, describe(n))
	}
	a := n.First().Next()
	var team Node
	switch n.Len() {
	case 5:
		if !a.IsAtom() {
			return fmt.Errorf("%w: team %s is not an atom", ErrHear, describe(a))
		}
		// The label is whatever the speaker's team named itself in init, which the
		// server takes without checking its bytes (a UTF-8 name arrives as is): any
		// atom is accepted, so that another team's name never costs a percept.
		team, a = a, a.Next()
	case 4:
	default:
		return fmt.Errorf("%w: %d fields in %s, want 3 (unlabelled) or 4 (labelled)", ErrHear, n.Len()-1, describe(n))
	}
	tm, err := a.Float()
	if err != nil {
		return fmt.Errorf("%w: time: %w", ErrHear, err)
	}
	if tm < 0 {
		return fmt.Errorf("%w: negative time %v", ErrHear, tm)
	}
	a = a.Next()
	var self bool
	var dir float64
	if s := a.Atom(); s != nil && string(s) == "self" {
		self = true
	} else {
		if dir, err = a.Float(); err != nil {
			return fmt.Errorf("%w: direction: %w", ErrHear, err)
		}
		if math.Abs(dir) > MaxDirection {
			return fmt.Errorf("%w: direction %v outside ±180 degrees", ErrHear, dir)
		}
	}
	a = a.Next()
	if !a.IsAtom() {
		return fmt.Errorf("%w: message %s is not an atom", ErrHear, describe(a))
	}
	if err := validAtom("message", string(a.Atom())); err != nil {
		return fmt.Errorf("%w: %w", ErrHear, err)
	}
	h.Time, h.Self, h.Direction, h.Message = tm, self, dir, string(a.Atom())
	if team.Valid() {
		h.Team = string(team.Atom())
	}
	return nil
}

// AppendText writes h as the server does; a non-empty Team gives the labelled form.
// Numbers are written in their shortest form that reads back to the same value.
func (h Hear) AppendText(b []byte) ([]byte, error) {
	if h.Team != "" {
		if err := validLabel(h.Team); err != nil {
			return b, err
		}
	}
	if err := validAtom("message", h.Message); err != nil {
		return b, err
	}
	if err := finite("hear", h.Time, h.Direction); err != nil {
		return b, err
	}
	if h.Time < 0 || math.Abs(h.Direction) > MaxDirection || (h.Self && h.Direction != 0) {
		return b, fmt.Errorf("%w: hear time %v, self %v, direction %v", ErrRange, h.Time, h.Self, h.Direction)
	}
	b = append(b, "(hear "...)
	if h.Team != "" {
		b = append(b, h.Team...)
		b = append(b, ' ')
	}
	b = strconv.AppendFloat(b, h.Time, 'f', -1, 64)
	if h.Self {
		b = append(b, " self "...)
	} else {
		b = append(b, ' ')
		b = strconv.AppendFloat(b, h.Direction, 'f', -1, 64)
		b = append(b, ' ')
	}
	b = append(b, h.Message...)
	return append(b, ')'), nil
}

// GameState is the game state perceptor:
//
//	(GS (unum 1) (team left) (sl 0) (sr 0) (t 0.00) (pm BeforeKickOff))
//
// unum and team come only with the first percept after init; sl and sr only from servers
// that report the score. Unknown members are ignored.
type GameState struct {
	Time       float64 // play time in seconds
	PlayMode   string
	Unum       int    // 0 when absent
	Side       string // "left", "right" or empty when absent
	ScoreLeft  int
	ScoreRight int
	HasScore   bool
}

// Decode fills g from a GS node. Every field is overwritten.
func (g *GameState) Decode(n Node) error {
	*g = GameState{}
	if !n.HeadIs("GS") {
		return fmt.Errorf("%w: %s is not a GS expression", ErrGameState, describe(n))
	}
	var haveTime, haveMode, haveL, haveR bool
	for m := n.First().Next(); m.Valid(); m = m.Next() {
		if !m.IsList() || m.Head() == nil {
			return fmt.Errorf("%w: member %s", ErrGameState, describe(m))
		}
		v := m.First().Next()
		var err error
		switch string(m.Head()) {
		case "t":
			g.Time, err = v.Float()
			haveTime = true
		case "pm":
			if a := v.Atom(); a != nil {
				g.PlayMode, haveMode = string(a), true
			} else {
				err = fmt.Errorf("%w: play mode %s", ErrSyntax, describe(v))
			}
		case "unum":
			g.Unum, err = v.Int()
		case "team":
			switch a := v.Atom(); string(a) {
			case "left":
				g.Side = "left"
			case "right":
				g.Side = "right"
			default:
				err = fmt.Errorf("%w: team side %s", ErrSyntax, describe(v))
			}
		case "sl":
			g.ScoreLeft, err = v.Int()
			haveL = true
		case "sr":
			g.ScoreRight, err = v.Int()
			haveR = true
		}
		if err != nil {
			*g = GameState{}
			return fmt.Errorf("%w: %s: %w", ErrGameState, m.Head(), err)
		}
	}
	if !haveTime || !haveMode {
		*g = GameState{}
		return fmt.Errorf("%w: %s lacks (t ...) or (pm ...)", ErrGameState, describe(n))
	}
	g.HasScore = haveL && haveR
	return nil
}

// Percept holds the parts of one server message the network hub uses: the server time,
// the game state and every hear perceptor. Other perceptors stay available through the
// Tree.
type Percept struct {
	Now     float64 // (time (now <t>)), server time in seconds
	HasNow  bool
	Game    GameState
	HasGame bool
	Hears   []Hear
	// BadHears counts the hear perceptors that did not decode and were skipped; HearErr
	// is the error of the last of them (nil when none). Such a hear costs only itself:
	// the rest of the percept is still decoded.
	BadHears int
	HearErr  error
}

// Decode fills p from a parsed server message, reusing p.Hears. A bad time or game state
// fails the message; a bad hear is skipped and counted in BadHears.
func (p *Percept) Decode(t *Tree) error {
	hears := p.Hears[:0]
	*p = Percept{}
	for n := t.Root().First(); n.Valid(); n = n.Next() {
		switch {
		case n.HeadIs("time"):
			now := n.Find("now")
			if n.Len() != 2 || now.Len() != 2 {
				return fmt.Errorf("%w: %s", ErrGameState, describe(n))
			}
			v, err := now.First().Next().Float()
			if err != nil {
				return fmt.Errorf("%w: time: %w", ErrGameState, err)
			}
			p.Now, p.HasNow = v, true
		case n.HeadIs("GS"):
			if err := p.Game.Decode(n); err != nil {
				return err
			}
			p.HasGame = true
		case n.HeadIs("hear"):
			// What another agent says reaches every listener: a hear that does not
			// decode (an opponent that said "" is heard without a message) is skipped
			// and counted, so that it does not cost the time, the game state and the
			// teammates' hears of the percept.
			hears = append(hears, Hear{})
			if err := hears[len(hears)-1].Decode(n); err != nil {
				hears = hears[:len(hears)-1]
				p.BadHears++
				p.HearErr = err
			}
		}
	}
	p.Hears = hears
	return nil
}
