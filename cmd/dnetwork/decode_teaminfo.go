package main

import (
	"time"

	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
)

func init() {
	registerDecoder(&packetDecoder{
		proto:   "teaminfo-dnet",
		summary: `dnetwork TeamInfo ("DNt" magic; checksum checked; --auth-key checks the tag)`,
		order:   10,
		match:   teaminfo.IsDNet,
		decode:  decodeTeaminfoDNet,
	})
	registerDecoder(&packetDecoder{
		proto:   "teaminfo-zju",
		summary: "ZJUDancer/HighTorque TeamInfo raw struct (any 296-byte packet)",
		order:   50, // recognised by size alone: after every protocol with a magic
		match:   func(b []byte) bool { return len(b) == teaminfo.ZJUSize },
		decode:  decodeTeaminfoZJU,
	})
}

// jsonTime is a stamp as sec/nsec; dnet stamps can exceed a uint32 of seconds.
type jsonTime struct {
	Sec  int64  `json:"sec"`
	Nsec uint32 `json:"nsec"`
}

type jsonUnits struct {
	Length string `json:"length"`
	Angle  string `json:"angle"`
	Time   string `json:"time"`
}

type jsonVector3 struct {
	X jsonFloat `json:"x"`
	Y jsonFloat `json:"y"`
	Z jsonFloat `json:"z"`
}

func vec3(v teaminfo.Vector3) jsonVector3 {
	return jsonVector3{jsonFloat(v.X), jsonFloat(v.Y), jsonFloat(v.Z)}
}

type jsonPose struct {
	X     jsonFloat `json:"x"`
	Y     jsonFloat `json:"y"`
	Theta jsonFloat `json:"theta"`
}

func pose(p teaminfo.Pose) jsonPose {
	return jsonPose{jsonFloat(p.X), jsonFloat(p.Y), jsonFloat(p.Theta)}
}

type jsonPoint struct {
	X jsonFloat `json:"x"`
	Y jsonFloat `json:"y"`
}

func point(p teaminfo.Point) jsonPoint { return jsonPoint{jsonFloat(p.X), jsonFloat(p.Y)} }

// zjuRecord is a zju packet as printed: every field of the struct in wire order, values
// as on the wire (cm, degrees).
type zjuRecord struct {
	Protocol          string           `json:"protocol"`
	Version           string           `json:"version"`
	Units             jsonUnits        `json:"units"`
	TxpTimestamp      teaminfo.RosTime `json:"txp_timestamp"`
	RecvTimestamp     teaminfo.RosTime `json:"recv_timestamp"`
	PlayerNumber      uint8            `json:"player_number"`
	TeamNumber        uint8            `json:"team_number"`
	Test              uint8            `json:"test"`
	Incapacitated     bool             `json:"incapacitated"`
	Role              uint8            `json:"role"`
	RoleName          string           `json:"role_name"`
	AttackRight       bool             `json:"attack_right"`
	Dest              jsonVector3      `json:"dest"`
	FinalDest         jsonVector3      `json:"final_dest"`
	AttackTarget      jsonVector3      `json:"attack_target"`
	TimeSinceLastKick jsonFloat32      `json:"time_since_last_kick"`
	State             uint8            `json:"state"`
	StateName         string           `json:"state_name"`
	Priority          bool             `json:"priority"`
	KickerID          uint8            `json:"kicker_id"`
	MatesOnline       [6]bool          `json:"mates_online"`
	SeeBall           bool             `json:"see_ball"`
	SeeCircle         bool             `json:"see_circle"`
	SeeGoal           bool             `json:"see_goal"`
	RobotPos          jsonVector3      `json:"robot_pos"`
	BallField         jsonVector3      `json:"ball_field"`
	BallGlobal        jsonVector3      `json:"ball_global"`
	CircleField       jsonVector3      `json:"circle_field"`
	CircleGlobal      jsonVector3      `json:"circle_global"`
	GoalField         jsonVector3      `json:"goal_field"`
	GoalGlobal        jsonVector3      `json:"goal_global"`
	BallQuality       jsonFloat32      `json:"ball_quality"`
	FieldQuality      jsonFloat32      `json:"field_quality"`
	FieldConsistency  jsonFloat32      `json:"field_consistency"`
	GCConnected       bool             `json:"gc_connected"`
	GCState           uint8            `json:"gc_state"`
	GCState2          uint8            `json:"gc_state2"`
}

func decodeTeaminfoZJU(b []byte, _ *decodeOptions) (any, error) {
	var p teaminfo.ZJUPacket
	if err := p.UnmarshalBinary(b); err != nil {
		return nil, err
	}
	return &zjuRecord{
		Protocol:          "teaminfo-zju",
		Version:           teaminfo.ZJURevision,
		Units:             jsonUnits{Length: "cm", Angle: "deg", Time: "s"},
		TxpTimestamp:      p.TxpTimestamp,
		RecvTimestamp:     p.RecvTimestamp,
		PlayerNumber:      p.PlayerNumber,
		TeamNumber:        p.TeamNumber,
		Test:              p.Test,
		Incapacitated:     p.Incapacitated,
		Role:              p.Role,
		RoleName:          teaminfo.Role(p.Role).String(),
		AttackRight:       p.AttackRight,
		Dest:              vec3(p.Dest),
		FinalDest:         vec3(p.FinalDest),
		AttackTarget:      vec3(p.AttackTarget),
		TimeSinceLastKick: jsonFloat32(p.TimeSinceLastKick),
		State:             p.State,
		StateName:         teaminfo.PlayState(p.State).String(),
		Priority:          p.Priority,
		KickerID:          p.KickerID,
		MatesOnline:       p.MatesOnline,
		SeeBall:           p.SeeBall,
		SeeCircle:         p.SeeCircle,
		SeeGoal:           p.SeeGoal,
		RobotPos:          vec3(p.RobotPos),
		BallField:         vec3(p.BallField),
		BallGlobal:        vec3(p.BallGlobal),
		CircleField:       vec3(p.CircleField),
		CircleGlobal:      vec3(p.CircleGlobal),
		GoalField:         vec3(p.GoalField),
		GoalGlobal:        vec3(p.GoalGlobal),
		BallQuality:       jsonFloat32(p.BallQuality),
		FieldQuality:      jsonFloat32(p.FieldQuality),
		FieldConsistency:  jsonFloat32(p.FieldConsistency),
		GCConnected:       p.GCConnected,
		GCState:           p.GCState,
		GCState2:          p.GCState2,
	}, nil
}

// dnetRecord is a dnet packet as printed: the decoded model in SI units, with the same
// keys as the zju record where the meaning is the same.
type dnetRecord struct {
	Protocol      string    `json:"protocol"`
	Version       int       `json:"version"`
	Units         jsonUnits `json:"units"`
	Tagged        bool      `json:"tagged"`
	Authenticated bool      `json:"authenticated"`
	// Checked: the packet carries a CRC-32C that matches (a wrong one is an error).
	Checked           bool        `json:"checked"`
	TeamNumber        uint8       `json:"team_number"`
	PlayerNumber      uint8       `json:"player_number"`
	Seq               uint32      `json:"seq"`
	TxpTimestamp      jsonTime    `json:"txp_timestamp"`
	Incapacitated     bool        `json:"incapacitated"`
	Fallen            bool        `json:"fallen"`
	Penalised         bool        `json:"penalised"`
	AttackRight       bool        `json:"attack_right"`
	Priority          bool        `json:"priority"`
	SeeBall           bool        `json:"see_ball"`
	SeeCircle         bool        `json:"see_circle"`
	SeeGoal           bool        `json:"see_goal"`
	GCConnected       bool        `json:"gc_connected"`
	GCStopped         bool        `json:"gc_stopped"`
	Role              uint8       `json:"role"`
	RoleName          string      `json:"role_name"`
	State             uint8       `json:"state"`
	StateName         string      `json:"state_name"`
	KickerID          uint8       `json:"kicker_id"`
	MatesOnline       [6]bool     `json:"mates_online"`
	RobotPos          jsonPose    `json:"robot_pos"`
	Dest              jsonPose    `json:"dest"`
	FinalDest         jsonPose    `json:"final_dest"`
	AttackTarget      jsonPoint   `json:"attack_target"`
	BallField         jsonPoint   `json:"ball_field"`
	BallGlobal        jsonPoint   `json:"ball_global"`
	TeamBallGlobal    jsonPoint   `json:"team_ball_global"`
	CircleField       jsonPoint   `json:"circle_field"`
	CircleGlobal      jsonPoint   `json:"circle_global"`
	GoalField         jsonPoint   `json:"goal_field"`
	GoalGlobal        jsonPoint   `json:"goal_global"`
	TimeSinceLastKick jsonFloat   `json:"time_since_last_kick"`
	TimeToReachBall   jsonFloat   `json:"time_to_reach_ball"`
	BallAge           jsonFloat   `json:"ball_age"`
	BallQuality       jsonFloat   `json:"ball_quality"`
	FieldQuality      jsonFloat   `json:"field_quality"`
	FieldConsistency  jsonFloat   `json:"field_consistency"`
	GCState           uint8       `json:"gc_state"`
	GCState2          uint8       `json:"gc_state2"`
	GamePhase         uint8       `json:"game_phase"`
	SetPlay           uint8       `json:"set_play"`
	Voronoi           []jsonPoint `json:"voronoi"`
	// Echo is the teammate packet this one answers (version 2); null: none.
	Echo *jsonEcho `json:"echo"`
}

// jsonEcho is a dnet clock echo: the answered teammate, the low 32 bits of its packet's
// stamp in ms, and the sender's hold time in seconds.
type jsonEcho struct {
	Player  uint8     `json:"player"`
	StampMs uint32    `json:"stamp_ms"`
	Hold    jsonFloat `json:"hold"`
}

func decodeTeaminfoDNet(b []byte, o *decodeOptions) (any, error) {
	var key *teaminfo.Key
	if o != nil && o.AuthKey != "" {
		var err error
		if key, err = teaminfo.NewKey([]byte(o.AuthKey)); err != nil {
			return nil, err
		}
	}
	var p teaminfo.DNetPacket
	auth, err := p.Decode(b, key)
	if err != nil {
		return nil, err
	}
	var s teaminfo.State
	p.ToState(&s)
	r := &dnetRecord{
		Protocol:          "teaminfo-dnet",
		Version:           int(p.Version),
		Units:             jsonUnits{Length: "m", Angle: "rad", Time: "s"},
		Tagged:            p.Tagged,
		Authenticated:     auth == teaminfo.AuthVerified,
		Checked:           !p.Tagged && !p.Unchecked,
		TeamNumber:        s.Team,
		PlayerNumber:      s.Player,
		Seq:               s.Seq,
		TxpTimestamp:      jsonTime{Sec: int64(s.Stamp / time.Second), Nsec: uint32(s.Stamp % time.Second)},
		Incapacitated:     s.Incapacitated,
		Fallen:            s.Fallen,
		Penalised:         s.Penalised,
		AttackRight:       s.AttackRight,
		Priority:          s.Priority,
		SeeBall:           s.SeeBall,
		SeeCircle:         s.SeeCircle,
		SeeGoal:           s.SeeGoal,
		GCConnected:       s.GCConnected,
		GCStopped:         s.GCStopped,
		Role:              uint8(s.Role),
		RoleName:          s.Role.String(),
		State:             uint8(s.PlayState),
		StateName:         s.PlayState.String(),
		KickerID:          s.KickerID,
		MatesOnline:       s.MatesOnline,
		RobotPos:          pose(s.RobotPos),
		Dest:              pose(s.Dest),
		FinalDest:         pose(s.FinalDest),
		AttackTarget:      point(s.AttackTarget),
		BallField:         point(s.BallField),
		BallGlobal:        point(s.BallGlobal),
		TeamBallGlobal:    point(s.TeamBallGlobal),
		CircleField:       point(s.CircleField),
		CircleGlobal:      point(s.CircleGlobal),
		GoalField:         point(s.GoalField),
		GoalGlobal:        point(s.GoalGlobal),
		TimeSinceLastKick: jsonFloat(s.TimeSinceLastKick),
		TimeToReachBall:   jsonFloat(s.TimeToReachBall),
		BallAge:           jsonFloat(s.BallAge),
		BallQuality:       jsonFloat(s.BallQuality),
		FieldQuality:      jsonFloat(s.FieldQuality),
		FieldConsistency:  jsonFloat(s.FieldConsistency),
		GCState:           s.GCState,
		GCState2:          s.GCSecondaryState,
		GamePhase:         s.GamePhase,
		SetPlay:           s.SetPlay,
		Voronoi:           make([]jsonPoint, 0, teaminfo.MaxVoronoi),
	}
	for _, v := range s.VoronoiPoints() {
		r.Voronoi = append(r.Voronoi, point(v))
	}
	if e := s.Echo; e.Player != 0 {
		r.Echo = &jsonEcho{Player: e.Player, StampMs: e.StampMs, Hold: jsonFloat(e.Hold.Seconds())}
	}
	return r, nil
}
