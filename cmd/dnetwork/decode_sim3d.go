package main

import (
	"fmt"

	sim3dproto "github.com/robocup-dnetwork/dnetwork/proto/sim3d"
)

func init() {
	registerDecoder(&packetDecoder{
		proto:   "sim3d",
		summary: "RoboCup 3D simulation server messages (time, GS, hear), agent commands and say strings, one per line (--auth-key keys the team codec)",
		order:   90,
		text:    true,
		decode:  decodeSim3D,
	})
}

// sim3dRecord is the JSON form of one input line.
type sim3dRecord struct {
	Protocol string `json:"protocol"`
	Version  int    `json:"version"`
	// Input is "hear" (one hear perceptor), "perceptor" (a server message), "say" (a bare
	// say string or one say command) or "commands" (an agent message with say commands).
	Input    string         `json:"input"`
	Now      *float64       `json:"now,omitempty"`
	Game     *sim3dGame     `json:"game,omitempty"`
	Messages []sim3dMessage `json:"messages"`
	// Skipped names the perceptors of a server message that are not decoded (GYR, HJ,
	// See, ...), in order.
	Skipped []string `json:"skipped,omitempty"`
}

type sim3dGame struct {
	Time       float64 `json:"time"`
	PlayMode   string  `json:"play_mode"`
	Unum       int     `json:"unum,omitempty"`
	Side       string  `json:"side,omitempty"`
	ScoreLeft  *int    `json:"score_left,omitempty"`
	ScoreRight *int    `json:"score_right,omitempty"`
}

// sim3dMessage is one heard or said message and, when it is a team message of ours, its
// decoded state.
type sim3dMessage struct {
	Kind       string      `json:"kind"` // "hear" or "say"
	Team       string      `json:"team,omitempty"`
	Time       *float64    `json:"time,omitempty"`
	Self       *bool       `json:"self,omitempty"`
	Direction  *float64    `json:"direction,omitempty"`
	Message    string      `json:"message"`
	State      *sim3dState `json:"state,omitempty"`
	StateError string      `json:"state_error,omitempty"`
}

type sim3dState struct {
	Player  uint8      `json:"player"`
	Seq     uint8      `json:"seq"`
	Role    uint8      `json:"role"`
	State   uint8      `json:"state"`
	Fallen  bool       `json:"fallen"`
	X       float64    `json:"x"`
	Y       float64    `json:"y"`
	Heading float64    `json:"heading"`
	Ball    *sim3dBall `json:"ball"` // null when the player has no ball estimate
}

type sim3dBall struct {
	X   float64 `json:"x"`
	Y   float64 `json:"y"`
	Age float64 `json:"age"` // seconds
}

func decodeSim3D(b []byte, o *decodeOptions) (any, error) {
	codec := sim3dproto.NewTeamCodec(o.AuthKey)
	rec := sim3dRecord{Protocol: "sim3d", Version: 1}
	if len(b) == 0 || b[0] != '(' {
		msg := string(b)
		if err := sim3dproto.ValidateSay(msg); err != nil {
			return nil, err
		}
		rec.Input = "say"
		rec.Messages = []sim3dMessage{sim3dSay(msg, codec)}
		return rec, nil
	}
	var t sim3dproto.Tree
	if err := t.Parse(b); err != nil {
		return nil, err
	}
	root := t.Root()
	if sim3dCommands(root) {
		rec.Input = "commands"
		if root.Len() == 1 && root.First().HeadIs("say") {
			rec.Input = "say"
		}
		rec.Messages = []sim3dMessage{}
		err := sim3dproto.ParseCommands(&t, b, func(c sim3dproto.Command) error {
			if s, ok := c.(sim3dproto.Say); ok {
				rec.Messages = append(rec.Messages, sim3dSay(s.Message, codec))
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		return rec, nil
	}
	// A server message: every perceptor known here is decoded, the rest are named.
	var p sim3dproto.Percept
	if err := p.Decode(&t); err != nil {
		return nil, err
	}
	if p.HearErr != nil { // decode shows what is wrong; a receiver skips only that hear
		return nil, p.HearErr
	}
	rec.Input = "perceptor"
	if root.Len() == 1 && root.First().HeadIs("hear") {
		rec.Input = "hear"
	}
	if p.HasNow {
		rec.Now = &p.Now
	}
	if p.HasGame {
		g := p.Game
		rec.Game = &sim3dGame{Time: g.Time, PlayMode: g.PlayMode, Unum: g.Unum, Side: g.Side}
		if g.HasScore {
			rec.Game.ScoreLeft, rec.Game.ScoreRight = &g.ScoreLeft, &g.ScoreRight
		}
	}
	rec.Messages = []sim3dMessage{}
	for _, h := range p.Hears {
		m := sim3dMessageFor(h.Message, codec)
		m.Kind, m.Team, m.Time, m.Self = "hear", h.Team, &h.Time, &h.Self
		if !h.Self {
			m.Direction = &h.Direction
		}
		rec.Messages = append(rec.Messages, m)
	}
	for n := root.First(); n.Valid(); n = n.Next() {
		switch h := n.Head(); {
		case h == nil:
			return nil, fmt.Errorf("%w: a server message holds perceptor lists, got %s", sim3dproto.ErrSyntax, n.Text())
		case n.HeadIs("time") || n.HeadIs("GS") || n.HeadIs("hear"):
		default:
			rec.Skipped = append(rec.Skipped, string(h))
		}
	}
	return rec, nil
}

// sim3dCommands reports whether a parsed line is an agent message: its first expression
// is an effector command other than a joint (scene, init, beam, say, syn) or it holds a
// say. Everything else is read as a server message.
func sim3dCommands(root sim3dproto.Node) bool {
	first := root.First()
	for _, c := range []string{"scene", "init", "beam", "say", "syn"} {
		if first.HeadIs(c) {
			return true
		}
	}
	return root.Find("say").Valid()
}

func sim3dSay(msg string, codec sim3dproto.TeamCodec) sim3dMessage {
	m := sim3dMessageFor(msg, codec)
	m.Kind = "say"
	return m
}

// sim3dMessageFor decodes msg with the team codec.
func sim3dMessageFor(msg string, codec sim3dproto.TeamCodec) sim3dMessage {
	m := sim3dMessage{Message: msg}
	var s sim3dproto.TeamState
	if err := codec.Decode([]byte(msg), &s); err != nil {
		m.StateError = err.Error()
		return m
	}
	m.State = &sim3dState{
		Player: s.Player, Seq: s.Seq, Role: s.Role, State: s.State, Fallen: s.Fallen,
		X: s.X, Y: s.Y, Heading: s.Heading,
	}
	if s.BallKnown {
		m.State.Ball = &sim3dBall{X: s.BallX, Y: s.BallY, Age: s.BallAge.Seconds()}
	}
	return m
}
