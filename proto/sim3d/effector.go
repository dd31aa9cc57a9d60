package sim3d

import (
	"errors"
	"fmt"
	"math"
	"strconv"
)

// Say effector limits (rcssserver3d soccer rules).
const (
	// SayMaxLen is the longest message the server broadcasts (SayMsgSize); a longer one is
	// dropped, not truncated.
	SayMaxLen = 20
	// SayMinByte and SayMaxByte bound the allowed bytes; '(' and ')' are excluded as well.
	SayMinByte = 0x21
	SayMaxByte = 0x7E
)

// Joint speed limits.
const (
	// SimStep is the simulation cycle in seconds (50 Hz).
	SimStep = 0.02
	// NaoMaxJointSpeed is the fastest Nao motor in degrees per second; every hinge and
	// universal joint of the simulated Nao is limited to it.
	NaoMaxJointSpeed = 351.77
	// MaxJointRate is the joint effector limit in the effector's unit, rad/s: the server
	// hands the value to the physics engine as a motor velocity and clamps it to
	// π·351.77/180 ≈ 6.1396 rad/s (7.035 degrees per 20 ms cycle). Builders clamp rates to
	// ±MaxJointRate, so what is written is what the server applies.
	MaxJointRate = math.Pi * NaoMaxJointSpeed / 180
	// MaxUnum is the highest uniform number a team can hold (11 players); 0 asks the server
	// to assign the next free number.
	MaxUnum = 11
)

// Effector errors.
var (
	// ErrSayEmpty reports an empty say message.
	ErrSayEmpty = errors.New("sim3d: empty say message")
	// ErrSayTooLong reports a say message longer than SayMaxLen.
	ErrSayTooLong = errors.New("sim3d: say message too long")
	// ErrSayChar reports a byte the server does not allow in a say message.
	ErrSayChar = errors.New("sim3d: illegal byte in say message")
	// ErrSayUnsafe reports a byte the server's say parser mishandles: a lone double quote
	// (0x22), a trailing backslash (0x5C) or a leading ';' stalls the whole server (every
	// agent, with no recovery), and apostrophes, quote pairs and \" arrive changed.
	ErrSayUnsafe = errors.New("sim3d: unsafe byte in say message")
	// ErrAtom reports a name (joint, team, scene path) that is not a plain atom.
	ErrAtom = errors.New("sim3d: bad name")
	// ErrRange reports a value outside the protocol's range.
	ErrRange = errors.New("sim3d: value out of range")
	// ErrUnknownCommand reports an expression that is not an effector command.
	ErrUnknownCommand = errors.New("sim3d: unknown command")
)

// ValidateSay checks msg against the bytes the server forwards unchanged: 1 to SayMaxLen
// bytes, each in 0x21..0x7E and neither '(' nor ')'. The server drops a longer message or
// one with a byte >= 0x80 whole and cuts one at a space, tab or 0x7F; parentheses break
// the expression. The error names the first offending byte. Messages to send must also
// pass ValidateSaySafe.
func ValidateSay(msg string) error {
	if len(msg) == 0 {
		return ErrSayEmpty
	}
	for i := 0; i < len(msg); i++ {
		if c := msg[i]; !sayByte(c) {
			return fmt.Errorf("%w: byte %d is %s; allowed are 0x21-0x7E except ( and )", ErrSayChar, i, byteName(c))
		}
	}
	if len(msg) > SayMaxLen {
		return fmt.Errorf("%w: %d bytes, at most %d", ErrSayTooLong, len(msg), SayMaxLen)
	}
	return nil
}

// ValidateSaySafe applies ValidateSay and also rejects the bytes the server's parser
// mishandles: the double quote, apostrophe and backslash anywhere, and ';' at the start.
// A lone double quote, a trailing backslash or a leading ';' freezes the whole server;
// quote pairs, apostrophes and \" arrive changed ("it's" is heard as "it"). Every message
// that passes is heard exactly as said.
func ValidateSaySafe(msg string) error {
	if err := ValidateSay(msg); err != nil {
		return err
	}
	for i := 0; i < len(msg); i++ {
		switch c := msg[i]; {
		case c == '"' || c == '\'' || c == '\\':
			return fmt.Errorf("%w: byte %d is %s", ErrSayUnsafe, i, byteName(c))
		case c == ';' && i == 0:
			return fmt.Errorf("%w: message starts with ';'", ErrSayUnsafe)
		}
	}
	return nil
}

func sayByte(c byte) bool { return c >= SayMinByte && c <= SayMaxByte && c != '(' && c != ')' }

func byteName(c byte) string {
	switch {
	case c == ' ':
		return "0x20 (space)"
	case c > ' ' && c < 0x7F:
		return fmt.Sprintf("0x%02X (%c)", c, c)
	default:
		return fmt.Sprintf("0x%02X", c)
	}
}

// validAtom checks a name that is written as one atom: non-empty, bytes 0x21..0x7E
// without parentheses.
func validAtom(what, s string) error {
	if s == "" {
		return fmt.Errorf("%w: empty %s", ErrAtom, what)
	}
	for i := 0; i < len(s); i++ {
		if !sayByte(s[i]) {
			return fmt.Errorf("%w: %s byte %d is %s", ErrAtom, what, i, byteName(s[i]))
		}
	}
	return nil
}

// Command is one effector command an agent sends, written as an S-expression.
type Command interface {
	// AppendText appends the command's S-expression to b.
	AppendText(b []byte) ([]byte, error)
}

var (
	_ Command = Scene{}
	_ Command = Init{}
	_ Command = Beam{}
	_ Command = HingeJoint{}
	_ Command = UniversalJoint{}
	_ Command = Say{}
	_ Command = Syn{}
)

// Scene asks the server to build the agent's body: (scene <path>) or, for heterogeneous
// robots, (scene <path> <type>).
type Scene struct {
	Path         string // e.g. rsg/agent/nao/nao_hetero.rsg
	RobotType    int    // written only when HasRobotType
	HasRobotType bool
}

// AppendText implements Command.
func (s Scene) AppendText(b []byte) ([]byte, error) {
	if err := validAtom("scene path", s.Path); err != nil {
		return b, err
	}
	if s.HasRobotType && s.RobotType < 0 {
		return b, fmt.Errorf("%w: robot type %d", ErrRange, s.RobotType)
	}
	b = append(b, "(scene "...)
	b = append(b, s.Path...)
	if s.HasRobotType {
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(s.RobotType), 10)
	}
	return append(b, ')'), nil
}

// Init registers the agent with a team: (init (unum <n>)(teamname <name>)). Unum 0 lets
// the server pick the next free number.
type Init struct {
	Unum     int
	TeamName string
}

// AppendText implements Command.
func (c Init) AppendText(b []byte) ([]byte, error) {
	if c.Unum < 0 || c.Unum > MaxUnum {
		return b, fmt.Errorf("%w: uniform number %d, want 0..%d", ErrRange, c.Unum, MaxUnum)
	}
	if err := validAtom("team name", c.TeamName); err != nil {
		return b, err
	}
	b = append(b, "(init (unum "...)
	b = strconv.AppendInt(b, int64(c.Unum), 10)
	b = append(b, ")(teamname "...)
	b = append(b, c.TeamName...)
	return append(b, "))"...), nil
}

// Beam places the agent before kick-off: (beam <x> <y> <rot>), metres and degrees in the
// team's own field frame.
type Beam struct {
	X, Y float64 // metres
	Rot  float64 // degrees, 0 = +x, 90 = +y
}

// AppendText implements Command.
func (c Beam) AppendText(b []byte) ([]byte, error) {
	if err := finite("beam", c.X, c.Y, c.Rot); err != nil {
		return b, err
	}
	b = append(b, "(beam "...)
	b = appendFloat(b, c.X)
	b = append(b, ' ')
	b = appendFloat(b, c.Y)
	b = append(b, ' ')
	b = appendFloat(b, c.Rot)
	return append(b, ')'), nil
}

// HingeJoint drives a one-axis joint: (<name> <rate>). Rate is an angular speed in rad/s
// (1 rad/s turns the joint 1.146 degrees per 20 ms cycle); AppendText clamps it to
// ±MaxJointRate, the server's own limit.
type HingeJoint struct {
	Name string  // effector name, e.g. he1, lle3
	Rate float64 // rad/s
}

// AppendText implements Command.
func (c HingeJoint) AppendText(b []byte) ([]byte, error) {
	if err := validAtom("joint name", c.Name); err != nil {
		return b, err
	}
	if err := checkJointName(c.Name); err != nil {
		return b, err
	}
	if err := finite("joint rate", c.Rate); err != nil {
		return b, err
	}
	b = append(b, '(')
	b = append(b, c.Name...)
	b = append(b, ' ')
	b = appendFloat(b, ClampRate(c.Rate))
	return append(b, ')'), nil
}

// UniversalJoint drives a two-axis joint: (<name> <rate1> <rate2>), each in rad/s and
// clamped to ±MaxJointRate.
type UniversalJoint struct {
	Name         string
	Rate1, Rate2 float64 // rad/s
}

// AppendText implements Command.
func (c UniversalJoint) AppendText(b []byte) ([]byte, error) {
	if err := validAtom("joint name", c.Name); err != nil {
		return b, err
	}
	if err := checkJointName(c.Name); err != nil {
		return b, err
	}
	if err := finite("joint rate", c.Rate1, c.Rate2); err != nil {
		return b, err
	}
	b = append(b, '(')
	b = append(b, c.Name...)
	b = append(b, ' ')
	b = appendFloat(b, ClampRate(c.Rate1))
	b = append(b, ' ')
	b = appendFloat(b, ClampRate(c.Rate2))
	return append(b, ')'), nil
}

// Say broadcasts a message to the players nearby: (say <message>). The message must pass
// ValidateSaySafe: the builder refuses, with an ErrSayChar or ErrSayUnsafe error naming
// the byte, every message the server would drop, cut, change or choke on, so what is said
// is heard exactly as written.
type Say struct {
	Message string
}

// AppendText implements Command.
func (c Say) AppendText(b []byte) ([]byte, error) {
	if err := ValidateSaySafe(c.Message); err != nil {
		return b, err
	}
	b = append(b, "(say "...)
	b = append(b, c.Message...)
	return append(b, ')'), nil
}

// Syn ends the agent's actions for a cycle when the server runs in sync mode: (syn).
type Syn struct{}

// AppendText implements Command.
func (Syn) AppendText(b []byte) ([]byte, error) { return append(b, "(syn)"...), nil }

// ClampRate limits a joint rate to ±MaxJointRate rad/s.
func ClampRate(r float64) float64 { return max(-MaxJointRate, min(MaxJointRate, r)) }

// reserved are the command heads that are not joint effectors.
func checkJointName(name string) error {
	switch name {
	case "scene", "init", "beam", "say", "syn":
		return fmt.Errorf("%w: joint name %q is a command name", ErrAtom, name)
	}
	return nil
}

func finite(what string, vs ...float64) error {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: %s value %v is not finite", ErrRange, what, v)
		}
	}
	return nil
}

// appendFloat writes the shortest decimal that reads back as the same float32: the
// server parses effector values as float.
func appendFloat(b []byte, v float64) []byte {
	return strconv.AppendFloat(b, v, 'f', -1, 32)
}

// AppendCommands appends several commands to b, as an agent sends them in one frame. On
// error b is returned as it was.
func AppendCommands(b []byte, cmds ...Command) ([]byte, error) {
	n := len(b)
	for i, c := range cmds {
		var err error
		if b, err = c.AppendText(b); err != nil {
			return b[:n], fmt.Errorf("command %d: %w", i, err)
		}
	}
	return b, nil
}

// ParseCommands parses one agent frame, a sequence of effector commands, and calls fn for
// each command in order. It stops at the first error.
func ParseCommands(t *Tree, src []byte, fn func(Command) error) error {
	if err := t.Parse(src); err != nil {
		return err
	}
	for n := t.Root().First(); n.Valid(); n = n.Next() {
		c, err := ParseCommand(n)
		if err != nil {
			return err
		}
		if err := fn(c); err != nil {
			return err
		}
	}
	return nil
}

// ParseCommand turns one expression into the command it is. Values are read with the
// server's float precision and are not clamped; a joint command is any other name with
// one (hinge) or two (universal) numbers.
func ParseCommand(n Node) (Command, error) {
	if !n.IsList() {
		return nil, fmt.Errorf("%w: %s is not a command list", ErrSyntax, describe(n))
	}
	head := n.Head()
	if head == nil {
		return nil, fmt.Errorf("%w: %s has no name", ErrSyntax, describe(n))
	}
	args := n.First().Next()
	switch string(head) {
	case "scene":
		return parseScene(n, args)
	case "init":
		return parseInit(n, args)
	case "beam":
		if n.Len() != 4 {
			return nil, fmt.Errorf("%w: beam needs x, y and rot: %s", ErrSyntax, describe(n))
		}
		var v [3]float64
		for i, a := 0, args; i < 3; i, a = i+1, a.Next() {
			var err error
			if v[i], err = a.float(32); err != nil {
				return nil, fmt.Errorf("beam: %w", err)
			}
		}
		return Beam{X: v[0], Y: v[1], Rot: v[2]}, nil
	case "say":
		if n.Len() != 2 || !args.IsAtom() {
			return nil, fmt.Errorf("%w: say needs one message atom: %s", ErrSyntax, describe(n))
		}
		msg := string(args.Atom())
		if err := ValidateSay(msg); err != nil {
			return nil, err
		}
		return Say{Message: msg}, nil
	case "syn":
		if n.Len() != 1 {
			return nil, fmt.Errorf("%w: syn takes no arguments: %s", ErrSyntax, describe(n))
		}
		return Syn{}, nil
	}
	if err := validAtom("joint name", string(head)); err != nil {
		return nil, err
	}
	switch n.Len() {
	case 2:
		r, err := args.float(32)
		if err != nil {
			return nil, fmt.Errorf("joint %s: %w", head, err)
		}
		return HingeJoint{Name: string(head), Rate: r}, nil
	case 3:
		r1, err := args.float(32)
		if err != nil {
			return nil, fmt.Errorf("joint %s: %w", head, err)
		}
		r2, err := args.Next().float(32)
		if err != nil {
			return nil, fmt.Errorf("joint %s: %w", head, err)
		}
		return UniversalJoint{Name: string(head), Rate1: r1, Rate2: r2}, nil
	}
	return nil, fmt.Errorf("%w: %s", ErrUnknownCommand, describe(n))
}

func parseScene(n, args Node) (Command, error) {
	if n.Len() < 2 || n.Len() > 3 || !args.IsAtom() {
		return nil, fmt.Errorf("%w: scene needs a path and an optional robot type: %s", ErrSyntax, describe(n))
	}
	s := Scene{Path: string(args.Atom())}
	if err := validAtom("scene path", s.Path); err != nil {
		return nil, err
	}
	if n.Len() == 3 {
		t, err := args.Next().Int()
		if err != nil {
			return nil, fmt.Errorf("scene: robot type: %w", err)
		}
		if t < 0 {
			return nil, fmt.Errorf("%w: robot type %d", ErrRange, t)
		}
		s.RobotType, s.HasRobotType = t, true
	}
	return s, nil
}

func parseInit(n, args Node) (Command, error) {
	var c Init
	var haveUnum, haveTeam bool
	for a := args; a.Valid(); a = a.Next() {
		if !a.IsList() || a.Len() != 2 || !a.First().Next().IsAtom() {
			return nil, fmt.Errorf("%w: init takes (unum n) and (teamname name), got %s", ErrSyntax, describe(a))
		}
		v := a.First().Next()
		switch {
		case a.HeadIs("unum") && !haveUnum:
			u, err := v.Int()
			if err != nil {
				return nil, fmt.Errorf("init: unum: %w", err)
			}
			if u < 0 || u > MaxUnum {
				return nil, fmt.Errorf("%w: uniform number %d, want 0..%d", ErrRange, u, MaxUnum)
			}
			c.Unum, haveUnum = u, true
		case a.HeadIs("teamname") && !haveTeam:
			c.TeamName, haveTeam = string(v.Atom()), true
			if err := validAtom("team name", c.TeamName); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("%w: init: unexpected or repeated %s", ErrSyntax, describe(a))
		}
	}
	if !haveTeam {
		return nil, fmt.Errorf("%w: init without teamname: %s", ErrSyntax, describe(n))
	}
	return c, nil
}
