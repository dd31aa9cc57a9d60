package gcsim

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
)

// ErrScript reports a script that does not parse; the message names the line.
var ErrScript = errors.New("gcsim: bad script")

// Step is one timed action of a script.
type Step struct {
	// At is the game time of the step, from the start of the game.
	At time.Duration
	// Do is the action.
	Do Action
	// Line is the script line the step came from (0 for built scripts).
	Line int
}

// Script is a list of steps in time order, plus the durations it was written for.
type Script struct {
	// Half is the length of a half; 0 leaves Config.Timing.Half.
	Half time.Duration
	// Break is the half-time break shown in secondaryTime; 0 leaves
	// Config.Timing.HalfTimeBreak.
	Break time.Duration
	// Steps are sorted by At.
	Steps []Step
}

// Check reports the first step that the setup cannot express, and steps out of order.
func (sc Script) Check(s Setup) error {
	s = s.withDefaults()
	var prev time.Duration
	for i, st := range sc.Steps {
		if st.Do == nil {
			return fmt.Errorf("%w: step %d has no action", ErrScript, i+1)
		}
		if st.At < prev {
			return fmt.Errorf("%w: step %d (%s) at %v is before the previous one at %v", ErrScript, i+1, st.Do, st.At, prev)
		}
		prev = st.At
		if err := st.Do.check(s); err != nil {
			return fmt.Errorf("step %d (%s): %w", i+1, st.Do, err)
		}
	}
	if sc.Half < 0 || sc.Break < 0 {
		return fmt.Errorf("%w: negative half or break", ErrScript)
	}
	return nil
}

// Format writes the script in the text format ParseScript reads, with absolute times
// and sides written as A and B.
func (sc Script) Format(w io.Writer) error {
	bw := bufio.NewWriter(w)
	if sc.Half != 0 {
		fmt.Fprintf(bw, "half %v\n", sc.Half)
	}
	if sc.Break != 0 {
		fmt.Fprintf(bw, "break %v\n", sc.Break)
	}
	for _, st := range sc.Steps {
		fmt.Fprintf(bw, "%v %s\n", st.At, st.Do)
	}
	return bw.Flush()
}

// ScriptHelp describes the script format and the action syntax, for command help.
const ScriptHelp = `Script format: one step per line, "TIME ACTION", # starts a comment.
  TIME is game time from the start: 90, 1.5, 1m30s (absolute) or +5s (after the
  previous step). Steps must not go back in time.
  Directives: "half DURATION" (length of a half), "break DURATION" (half-time break).
Actions (TEAM is A, B or a team number; names ignore case, - and _ are the same):
  initial | standby | set | playing | finish
  ready [TEAM]                     READY; TEAM gets the kick-off
  setplay KIND TEAM                set play in PLAYING, KIND e.g. corner_kick, goal_kick,
                                   throw_in (SPL kick_in), direct_free_kick, penalty_kick
  setplay end                      end the set play
  penalise TEAM PLAYER [PENALTY] [DURATION]
                                   PENALTY is the layout's name (pushing,
                                   spl_player_pushing, hl_physical_contact) or code;
                                   DURATION has a unit (30s)
  unpenalise TEAM PLAYER
  goal TEAM                        score, READY, kick-off for the other team
  second-half                      INITIAL of the second half
  stop | resume                    HSL: play stopped / resumed
  dropball                         kicking team 255
  budget TEAM N                    set the remaining message budget
  additional-time                  HSL: one more minute, +600 messages per legal team
  extra-time                       HSL: extra time after a drawn second half,
                                   +6000 messages per legal team
  shootout                         HSL: penalty shoot-out (messages never count)
Timers also act: READY turns SET after the ready time, set plays and kick-offs end,
penalties run out, the half ends when the clock reaches 0.`

// KeysHelp lists the one-letter shortcuts ParseAction accepts.
const KeysHelp = `Keys: i initial, r ready, s set, p playing, f finish, h second half,
  g/G goal A/B, c/C corner kick A/B, k/K goal kick A/B, e end set play,
  x/X stop/resume (HSL), d drop ball, 1-9 penalise player of A, shift (!@#$%^&*() keys)
  penalise player of B; or any script action, e.g. "penalise B 3 30s".`

// ParseScript reads a script in the text format described by ScriptHelp and checks
// every step against the setup.
func ParseScript(r io.Reader, s Setup) (Script, error) {
	s = s.withDefaults()
	var sc Script
	var prev time.Duration
	sn := bufio.NewScanner(r)
	line := 0
	for sn.Scan() {
		line++
		text, _, _ := strings.Cut(sn.Text(), "#")
		f := strings.Fields(text)
		if len(f) == 0 {
			continue
		}
		bad := func(err error) error {
			return fmt.Errorf("%w: line %d: %q: %w", ErrScript, line, strings.TrimSpace(text), err)
		}
		switch norm(f[0]) {
		case "half", "break":
			if len(f) != 2 {
				return Script{}, bad(fmt.Errorf("%s wants one duration", f[0]))
			}
			d, err := parseTime(f[1])
			if err != nil || d <= 0 {
				return Script{}, bad(fmt.Errorf("%s wants a positive duration", f[0]))
			}
			if norm(f[0]) == "half" {
				sc.Half = d
			} else {
				sc.Break = d
			}
			continue
		}
		if len(f) < 2 {
			return Script{}, bad(errors.New("want TIME ACTION"))
		}
		at, err := parseTime(strings.TrimPrefix(f[0], "+"))
		if err != nil {
			return Script{}, bad(err)
		}
		if strings.HasPrefix(f[0], "+") {
			at += prev
		}
		if at < prev {
			return Script{}, bad(fmt.Errorf("time %v is before the previous step at %v", at, prev))
		}
		a, err := parseAction(f[1:], s)
		if err != nil {
			return Script{}, bad(err)
		}
		prev = at
		sc.Steps = append(sc.Steps, Step{At: at, Do: a, Line: line})
	}
	if err := sn.Err(); err != nil {
		return Script{}, fmt.Errorf("%w: line %d: %w", ErrScript, line+1, err)
	}
	return sc, nil
}

// parseTime parses a script time: a Go duration ("1m30s") or seconds ("12.5").
func parseTime(s string) (time.Duration, error) {
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		if v < 0 || v > 1e6 || v != v {
			return 0, fmt.Errorf("time %q outside 0..1e6 s", s)
		}
		return time.Duration(v * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("bad time %q (want 12, 12.5, 1m30s or +5s)", s)
	}
	return d, nil
}

// norm lower-cases a name and writes - as _.
func norm(s string) string { return strings.ReplaceAll(strings.ToLower(s), "-", "_") }

// keys maps the one-letter shortcuts to actions.
var keys = map[string]Action{
	"i": StateChange{To: gcproto.StateInitial},
	"r": Ready{KickOff: NoSide},
	"s": StateChange{To: gcproto.StateSet},
	"p": StateChange{To: gcproto.StatePlaying},
	"f": StateChange{To: gcproto.StateFinished},
	"h": SecondHalf{},
	"g": Goal{Team: SideA},
	"G": Goal{Team: SideB},
	"c": StartSetPlay{SetPlay: gcproto.SetPlayCornerKick, Team: SideA},
	"C": StartSetPlay{SetPlay: gcproto.SetPlayCornerKick, Team: SideB},
	"k": StartSetPlay{SetPlay: gcproto.SetPlayGoalKick, Team: SideA},
	"K": StartSetPlay{SetPlay: gcproto.SetPlayGoalKick, Team: SideB},
	"e": EndSetPlay{},
	"x": Stop{},
	"X": Resume{},
	"d": DropBall{},
}

// shiftDigits are the shifted digit keys of a US keyboard, 1..9 and 0 (10).
const shiftDigits = "!@#$%^&*()"

// ParseAction parses one action in script syntax (see ScriptHelp) or a one-letter
// shortcut (see KeysHelp) and checks it against the setup.
func ParseAction(text string, s Setup) (Action, error) {
	s = s.withDefaults()
	t := strings.TrimSpace(text)
	if len(t) != 1 { // a lone '#' is the key that penalises player 3 of B, not a comment
		text, _, _ = strings.Cut(text, "#")
		t = strings.TrimSpace(text)
	}
	if a, ok := keys[t]; ok {
		return a, a.check(s)
	}
	if len(t) == 1 {
		if n := strings.IndexByte("1234567890", t[0]); n >= 0 {
			a := Penalise{Team: SideA, Player: n + 1}
			return a, a.check(s)
		}
		if n := strings.IndexByte(shiftDigits, t[0]); n >= 0 {
			a := Penalise{Team: SideB, Player: n + 1}
			return a, a.check(s)
		}
	}
	f := strings.Fields(t)
	if len(f) == 0 {
		return nil, actionErr("empty action")
	}
	return parseAction(f, s)
}

func parseAction(f []string, s Setup) (Action, error) {
	want := func(n int, usage string) error {
		if len(f) != n {
			return actionErr("want %q", usage)
		}
		return nil
	}
	var a Action
	var err error
	switch verb := norm(f[0]); verb {
	case "initial", "standby", "set", "playing", "finish", "finished":
		if err = want(1, verb); err == nil {
			a = StateChange{To: map[string]gcproto.State{"initial": gcproto.StateInitial, "standby": gcproto.StateStandby,
				"set": gcproto.StateSet, "playing": gcproto.StatePlaying, "finish": gcproto.StateFinished,
				"finished": gcproto.StateFinished}[verb]}
		}
	case "ready":
		r := Ready{KickOff: NoSide}
		switch len(f) {
		case 1:
		case 2:
			r.KickOff, err = parseSide(f[1], s)
		default:
			err = actionErr("want \"ready [TEAM]\"")
		}
		a = r
	case "setplay", "set_play":
		switch {
		case len(f) == 2 && (norm(f[1]) == "end" || norm(f[1]) == "none"):
			a = EndSetPlay{}
		case len(f) == 3:
			sp := StartSetPlay{}
			if sp.SetPlay, err = parseSetPlay(f[1], s.Layout); err == nil {
				sp.Team, err = parseSide(f[2], s)
			}
			a = sp
		default:
			err = actionErr("want \"setplay KIND TEAM\" or \"setplay end\"")
		}
	case "penalise", "penalize":
		if len(f) < 3 || len(f) > 5 {
			err = actionErr("want \"penalise TEAM PLAYER [PENALTY] [DURATION]\"")
			break
		}
		p := Penalise{}
		if p.Team, err = parseSide(f[1], s); err != nil {
			break
		}
		if p.Player, err = parsePlayer(f[2]); err != nil {
			break
		}
		for _, tok := range f[3:] {
			if d, derr := time.ParseDuration(tok); derr == nil {
				p.Duration = d
			} else if p.Penalty, err = parsePenalty(tok, s.Layout); err != nil {
				break
			}
		}
		a = p
	case "unpenalise", "unpenalize":
		if err = want(3, "unpenalise TEAM PLAYER"); err != nil {
			break
		}
		u := Unpenalise{}
		if u.Team, err = parseSide(f[1], s); err == nil {
			u.Player, err = parsePlayer(f[2])
		}
		a = u
	case "goal":
		if err = want(2, "goal TEAM"); err == nil {
			var side Side
			side, err = parseSide(f[1], s)
			a = Goal{Team: side}
		}
	case "second_half", "secondhalf":
		if err = want(1, "second-half"); err == nil {
			a = SecondHalf{}
		}
	case "additional_time", "extra_time", "shootout", "penalty_shootout":
		if err = want(1, verb); err == nil {
			a = map[string]Action{"additional_time": AdditionalTime{}, "extra_time": ExtraTime{},
				"shootout": Shootout{}, "penalty_shootout": Shootout{}}[verb]
		}
	case "stop", "resume", "dropball", "drop_ball":
		if err = want(1, verb); err == nil {
			a = map[string]Action{"stop": Stop{}, "resume": Resume{}, "dropball": DropBall{}, "drop_ball": DropBall{}}[verb]
		}
	case "budget":
		if err = want(3, "budget TEAM N"); err != nil {
			break
		}
		b := Budget{}
		if b.Team, err = parseSide(f[1], s); err == nil {
			b.N, err = strconv.Atoi(f[2])
			if err != nil {
				err = actionErr("budget %q is not a number", f[2])
			}
		}
		a = b
	default:
		return nil, actionErr("unknown action %q", f[0])
	}
	if err != nil {
		return nil, err
	}
	if err := a.check(s); err != nil {
		return nil, err
	}
	return a, nil
}

func parseSide(tok string, s Setup) (Side, error) {
	switch strings.ToUpper(tok) {
	case "A":
		return SideA, nil
	case "B":
		return SideB, nil
	}
	n, err := strconv.Atoi(tok)
	if err == nil {
		for i, t := range s.Teams {
			if n == int(t) {
				return Side(i), nil
			}
		}
	}
	return NoSide, actionErr("team %q is not A, B, %d or %d", tok, s.Teams[0], s.Teams[1])
}

func parsePlayer(tok string) (int, error) {
	n, err := strconv.Atoi(tok)
	if err != nil {
		return 0, actionErr("player %q is not a number", tok)
	}
	return n, nil
}

func parsePenalty(tok string, l gcproto.Layout) (gcproto.Penalty, error) {
	if n, err := strconv.Atoi(tok); err == nil {
		if n < 1 || n > 255 || !l.ValidPenalty(gcproto.Penalty(n)) {
			return 0, actionErr("%s has no penalty %d", l, n)
		}
		return gcproto.Penalty(n), nil
	}
	name := norm(tok)
	if p, ok := penaltyByName(l, name); ok && p != gcproto.PenaltyNone {
		return p, nil
	}
	var names []string
	for p := 1; p < 256; p++ {
		if n := l.PenaltyName(gcproto.Penalty(p)); n != "" {
			names = append(names, n)
		}
	}
	return 0, actionErr("%s has no penalty %q (one of %s)", l, tok, strings.Join(names, ", "))
}

// parseSetPlay accepts the unified set play names (gcproto.SetPlay.String) and the layout's
// own names (gcproto.Layout.SetPlayName), e.g. SPL "kick_in" for throw_in.
func parseSetPlay(tok string, l gcproto.Layout) (gcproto.SetPlay, error) {
	name := norm(tok)
	var known []string
	for sp := gcproto.SetPlayDirectFreeKick; sp <= gcproto.SetPlayPushingFreeKick; sp++ {
		raw, ok := setPlayRaw(l, sp)
		if !ok {
			continue
		}
		alias := l.SetPlayName(raw)
		if name == sp.String() || name == alias {
			return sp, nil
		}
		known = append(known, sp.String())
	}
	return gcproto.SetPlayNone, actionErr("%s has no set play %q (one of %s)", l, tok, strings.Join(known, ", "))
}

// DefaultHalf is the half length of the built-in script.
const DefaultHalf = time.Minute

// DefaultScript returns the built-in short game for a layout, with halves of the given
// length (0 means DefaultHalf): INITIAL, READY, SET and PLAYING with a kick-off for A,
// a corner kick for B, a penalty for B's player 2 (with play stopped and resumed in
// HSL), a goal for A and the kick-off for B, the half running out, half time, and a
// second half with the kick-off for B and a goal kick for A. Playing time in each half
// adds up to exactly one half, so the halves end by the clock. With 1 min halves it
// lasts 155 s of game time, 157 s in HSL (use Config.Speed to shorten it). At speeds
// above about 3, SET (3 s) may fall between two 2 Hz packets of non-HSL layouts.
func DefaultScript(l gcproto.Layout, half time.Duration) Script {
	if half <= 0 {
		half = DefaultHalf
	}
	hsl := l.Family() == gcproto.FamilyHSL
	sc := Script{Half: half, Break: 5 * time.Second}
	at := time.Duration(0)
	add := func(after time.Duration, a Action) {
		at += after
		sc.Steps = append(sc.Steps, Step{At: at, Do: a})
	}
	frac := func(f float64) time.Duration { return time.Duration(f * float64(half)) }
	sec := time.Second
	penalty := Penalise{Team: SideB, Player: 2, Duration: min(max(sec, frac(1.0/3)), 255*sec).Round(sec)}

	// First half: 0.6 half of play, the goal, then 0.4 half of play.
	add(0, StateChange{To: gcproto.StateInitial})
	add(3*sec, Ready{KickOff: SideA})
	add(5*sec, StateChange{To: gcproto.StateSet})
	add(3*sec, StateChange{To: gcproto.StatePlaying})
	add(frac(0.25), StartSetPlay{SetPlay: gcproto.SetPlayCornerKick, Team: SideB})
	add(frac(0.1), EndSetPlay{})
	if hsl {
		// The clock halts while play is stopped, so the goal comes 2 s later.
		add(frac(0.1), Stop{})
		add(0, penalty)
		add(2*sec, Resume{})
	} else {
		add(frac(0.1), penalty)
	}
	add(frac(0.15), Goal{Team: SideA})
	add(5*sec, StateChange{To: gcproto.StateSet})
	add(3*sec, StateChange{To: gcproto.StatePlaying})
	// The half ends by the clock after frac(0.4); the break is 5 s.
	at += frac(0.4)

	// Second half.
	add(sc.Break, SecondHalf{})
	add(3*sec, Ready{KickOff: NoSide})
	add(5*sec, StateChange{To: gcproto.StateSet})
	add(3*sec, StateChange{To: gcproto.StatePlaying})
	add(frac(0.3), StartSetPlay{SetPlay: gcproto.SetPlayGoalKick, Team: SideA})
	add(frac(0.1), EndSetPlay{})
	// The game ends by the clock after another frac(0.6).
	return sc
}
