package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
)

// GameController packets for "dnetwork decode".
//
// A control packet ("RGme", or "RGTD" to monitors) prints as one object with "protocol",
// "version", "header", "layout" (hl12-640 … hsl20), "length", then every field of the
// layout's C struct in wire order under its snake_case C name. Enums print as numbers
// plus a "<field>_name" member; flags print as booleans; coach_message prints as hex with
// its trailing zero bytes left off (the field has 253 bytes). "drop_ball" follows the
// kicking team. With --team (and --player) a "gcinfo" member holds the derived robot
// view, or "gcinfo_error" says why there is none (e.g. the packet is not for that team).
//
// A return packet ("RGrt") prints with its version's fields: v2/v3 team, player,
// message (+ message_name); v4 player_num, team_num, fallen, pose, ball_age, ball.

func init() {
	registerDecoder(&packetDecoder{
		proto:   "gamecontroller",
		summary: `GameController control packets ("RGme", "RGTD"; HL v12, SPL v12-v18, HSL v19/v20)`,
		order:   10,
		match: func(b []byte) bool {
			return bytes.HasPrefix(b, []byte(gcproto.MagicControl)) || bytes.HasPrefix(b, []byte(gcproto.MagicMonitor))
		},
		decode: decodeGameController,
	})
	registerDecoder(&packetDecoder{
		proto:   "rgrt",
		summary: `GameController return packets ("RGrt" v2, v3, v4)`,
		order:   10,
		match:   func(b []byte) bool { return bytes.HasPrefix(b, []byte(gcproto.MagicReturn)) },
		decode:  decodeRGrt,
	})
}

// gcObject is a JSON object that keeps its members in the order they were added.
type gcObject []gcMember

type gcMember struct {
	key   string
	value any
}

func (o *gcObject) add(key string, value any) { *o = append(*o, gcMember{key, value}) }

func (o gcObject) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, err := json.Marshal(m.key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(m.value)
		if err != nil {
			return nil, err
		}
		buf.Write(k)
		buf.WriteByte(':')
		buf.Write(v)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

func decodeGameController(b []byte, o *decodeOptions) (any, error) {
	var p gcproto.Packet
	if err := p.UnmarshalBinary(b); err != nil {
		return nil, err
	}
	l := p.Layout
	fam := l.Family()
	rec := gcObject{}
	rec.add("protocol", "gamecontroller")
	rec.add("version", l.Version())
	rec.add("header", p.Header.String())
	rec.add("layout", l.String())
	rec.add("length", len(b))
	rec.add("packet_number", p.PacketNumber)
	rec.add("players_per_team", p.PlayersPerTeam)
	switch fam {
	case gcproto.FamilyHL:
		rec.add("game_type", p.GameType)
		rec.add("state", p.State)
		rec.add("state_name", l.StateName(p.State))
		rec.add("first_half", p.FirstHalf)
		rec.add("kick_off_team", p.KickingTeam)
		rec.add("drop_ball", p.DropBall())
		rec.add("secondary_state", p.SetPlayRaw)
		rec.add("secondary_state_name", l.SetPlayName(p.SetPlayRaw))
		info := p.SecondaryStateInfo
		rec.add("secondary_state_info", [4]int{int(info[0]), int(info[1]), int(info[2]), int(info[3])})
		rec.add("drop_in_team", p.DropInTeam)
		rec.add("drop_in_time", p.DropInTime)
	default:
		if fam == gcproto.FamilyHSL {
			rec.add("competition_type", p.CompetitionType)
			rec.add("stopped", p.Stopped)
		} else {
			rec.add("competition_phase", p.CompetitionPhase)
			rec.add("competition_type", p.CompetitionType)
		}
		rec.add("game_phase", p.GamePhase)
		rec.add("game_phase_name", l.GamePhaseName(p.GamePhase))
		rec.add("state", p.State)
		rec.add("state_name", l.StateName(p.State))
		rec.add("set_play", p.SetPlayRaw)
		rec.add("set_play_name", l.SetPlayName(p.SetPlayRaw))
		rec.add("first_half", p.FirstHalf)
		rec.add("kicking_team", p.KickingTeam)
		rec.add("drop_ball", p.DropBall())
	}
	rec.add("secs_remaining", p.SecsRemaining)
	rec.add("secondary_time", p.SecondaryTime)
	teams := make([]gcObject, len(p.Teams))
	for i := range p.Teams {
		teams[i] = gcTeamObject(&p.Teams[i], l)
	}
	rec.add("teams", teams)
	if o != nil && o.Team != 0 {
		player := o.Player
		if player == 0 {
			player = 1 // team view only; the player's fields are left out below
		}
		info, err := gcproto.Derive(&p, o.Team, player)
		if err != nil {
			rec.add("gcinfo_error", err.Error())
		} else {
			rec.add("gcinfo", gcInfoObject(&info, o.Team, o.Player))
		}
	}
	return rec, nil
}

func gcTeamObject(t *gcproto.TeamInfo, l gcproto.Layout) gcObject {
	o := gcObject{}
	o.add("team_number", t.TeamNumber)
	if l.HasGoalkeeper() {
		o.add("field_player_colour", t.FieldPlayerColour)
		o.add("field_player_colour_name", t.FieldPlayerColour.String())
		o.add("goalkeeper_colour", t.GoalkeeperColour)
		o.add("goalkeeper_colour_name", t.GoalkeeperColour.String())
		o.add("goalkeeper", t.Goalkeeper)
	} else {
		o.add("team_colour", t.FieldPlayerColour)
		o.add("team_colour_name", t.FieldPlayerColour.String())
	}
	o.add("score", t.Score)
	o.add("penalty_shot", t.PenaltyShot)
	o.add("single_shots", t.SingleShots)
	if l.HasMessageBudget() {
		o.add("message_budget", t.MessageBudget)
	}
	if l.HasCoach() {
		o.add("coach_sequence", t.CoachSequence)
		o.add("coach_message", hex.EncodeToString(bytes.TrimRight(t.CoachMessage[:], "\x00")))
		o.add("coach", gcRobotObject(&t.Coach, l))
	}
	players := make([]gcObject, l.MaxPlayers())
	for i := range players {
		players[i] = gcRobotObject(&t.Players[i], l)
	}
	o.add("players", players)
	return o
}

func gcRobotObject(r *gcproto.RobotInfo, l gcproto.Layout) gcObject {
	o := gcObject{}
	o.add("penalty", r.Penalty)
	o.add("penalty_name", l.PenaltyName(r.Penalty))
	o.add("secs_till_unpenalised", r.SecsTillUnpenalised)
	switch l {
	case gcproto.LayoutHL640:
		o.add("yellow_card_count", r.YellowCards)
		o.add("red_card_count", r.RedCards)
	case gcproto.LayoutHL664:
		o.add("yellow_card_count", r.YellowCards)
		o.add("red_card_count", r.RedCards)
		o.add("is_goalie", r.Goalkeeper)
	case gcproto.LayoutHL688:
		o.add("number_of_warnings", r.Warnings)
		o.add("yellow_card_count", r.YellowCards)
		o.add("red_card_count", r.RedCards)
		o.add("goal_keeper", r.Goalkeeper)
	case gcproto.LayoutHSL19:
		o.add("warnings", r.Warnings)
		o.add("cautions", r.YellowCards)
	case gcproto.LayoutHSL20:
		o.add("cautions", r.YellowCards)
	}
	return o
}

// gcInfoRecord is the derived GCInfo view; the player's fields are absent without --player.
type gcInfoRecord struct {
	Team                  int    `json:"team"`
	Player                int    `json:"player,omitempty"`
	GameType              uint8  `json:"game_type"`
	State                 uint8  `json:"state"`
	StateName             string `json:"state_name"`
	GamePhase             uint8  `json:"game_phase"`
	GamePhaseName         string `json:"game_phase_name"`
	SetPlay               uint8  `json:"set_play"`
	SetPlayName           string `json:"set_play_name"`
	SecondaryState        uint8  `json:"secondary_state"`
	SetPlayTeam           uint8  `json:"set_play_team"`
	OurDirectFreeKick     bool   `json:"our_direct_free_kick"`
	OurIndirectFreeKick   bool   `json:"our_indirect_free_kick"`
	OurPenaltyKick        bool   `json:"our_penalty_kick"`
	OurCornerKick         bool   `json:"our_corner_kick"`
	OurGoalKick           bool   `json:"our_goal_kick"`
	OurThrowIn            bool   `json:"our_throw_in"`
	EnemyDirectFreeKick   bool   `json:"enemy_direct_free_kick"`
	EnemyIndirectFreeKick bool   `json:"enemy_indirect_free_kick"`
	EnemyPenaltyKick      bool   `json:"enemy_penalty_kick"`
	EnemyCornerKick       bool   `json:"enemy_corner_kick"`
	EnemyGoalKick         bool   `json:"enemy_goal_kick"`
	EnemyThrowIn          bool   `json:"enemy_throw_in"`
	SetPlayReady          bool   `json:"set_play_ready"`
	SetPlayFreeze         bool   `json:"set_play_freeze"`
	Kickoff               bool   `json:"kickoff"`
	DropBall              bool   `json:"drop_ball"`
	FirstHalf             bool   `json:"first_half"`
	Stopped               bool   `json:"stopped"`
	SecsRemaining         uint16 `json:"secs_remaining"`
	SecondaryTime         uint16 `json:"secondary_time"`
	Penalised             *bool  `json:"penalised,omitempty"`
	Penalty               *uint8 `json:"penalty,omitempty"`
	PenaltyName           string `json:"penalty_name,omitempty"`
	SecsTillUnpenalised   *uint8 `json:"secs_till_unpenalised,omitempty"`
	OurScore              uint8  `json:"our_score"`
	EnemyScore            uint8  `json:"enemy_score"`
	OurColour             uint8  `json:"our_colour"`
	OurColourName         string `json:"our_colour_name"`
	EnemyColour           uint8  `json:"enemy_colour"`
	EnemyColourName       string `json:"enemy_colour_name"`
	MessageBudget         int    `json:"message_budget"`
}

func gcInfoObject(g *gcproto.GCInfo, team, player int) *gcInfoRecord {
	r := &gcInfoRecord{
		Team: team, Player: player, GameType: g.GameType,
		State: uint8(g.State), StateName: g.State.String(),
		GamePhase: uint8(g.GamePhase), GamePhaseName: g.GamePhase.String(),
		SetPlay: uint8(g.SetPlay), SetPlayName: g.SetPlay.String(),
		SecondaryState: g.SecondaryState, SetPlayTeam: g.SetPlayTeam,
		OurDirectFreeKick: g.OurDirectFreeKick, OurIndirectFreeKick: g.OurIndirectFreeKick,
		OurPenaltyKick: g.OurPenaltyKick, OurCornerKick: g.OurCornerKick, OurGoalKick: g.OurGoalKick,
		OurThrowIn: g.OurThrowIn, EnemyDirectFreeKick: g.EnemyDirectFreeKick,
		EnemyIndirectFreeKick: g.EnemyIndirectFreeKick, EnemyPenaltyKick: g.EnemyPenaltyKick,
		EnemyCornerKick: g.EnemyCornerKick, EnemyGoalKick: g.EnemyGoalKick, EnemyThrowIn: g.EnemyThrowIn,
		SetPlayReady: g.SetPlayReady, SetPlayFreeze: g.SetPlayFreeze,
		Kickoff: g.Kickoff, DropBall: g.DropBall, FirstHalf: g.FirstHalf, Stopped: g.Stopped,
		SecsRemaining: g.SecsRemaining, SecondaryTime: g.SecondaryTime,
		OurScore: g.OurScore, EnemyScore: g.EnemyScore,
		OurColour: uint8(g.OurColour), OurColourName: g.OurColour.String(),
		EnemyColour: uint8(g.EnemyColour), EnemyColourName: g.EnemyColour.String(),
		MessageBudget: g.MessageBudget,
	}
	if player != 0 {
		penalised, penalty, secs := g.Penalised, uint8(g.Penalty), g.SecsTillUnpenalised
		r.Penalised, r.Penalty, r.SecsTillUnpenalised = &penalised, &penalty, &secs
		r.PenaltyName = g.Layout.PenaltyName(g.Penalty)
	}
	return r
}

func decodeRGrt(b []byte, _ *decodeOptions) (any, error) {
	var r gcproto.ReturnPacket
	if err := r.UnmarshalBinary(b); err != nil {
		return nil, err
	}
	rec := gcObject{}
	rec.add("protocol", "rgrt")
	rec.add("version", r.Version)
	rec.add("header", gcproto.MagicReturn)
	rec.add("length", len(b))
	if r.Version == gcproto.ReturnVersion {
		rec.add("player_num", r.Player)
		rec.add("team_num", r.Team)
		rec.add("fallen", r.Fallen)
		rec.add("pose", r.Pose[:])
		rec.add("ball_age", r.BallAge)
		rec.add("ball", r.Ball[:])
		return rec, nil
	}
	rec.add("team", r.Team)
	rec.add("player", r.Player)
	rec.add("message", r.Message)
	rec.add("message_name", gcproto.MessageName(r.Version, r.Message))
	return rec, nil
}
