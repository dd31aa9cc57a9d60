package main

import (
	"encoding/json"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/robocup-dnetwork/dnetwork/proto/robocup"
)

func init() {
	registerDecoder(&packetDecoder{
		proto:   "teaminfo-robocup",
		summary: "HL standard team message, robocup.humanoid.Message (protobuf; Bit-Bots and NUbots extensions)",
		order:   80, // no magic: recognised by its protobuf fields, after every other protocol
		match:   robocup.Looks,
		decode:  decodeTeaminfoRobocup,
	})
}

// robocupRecord is a standard message as printed: the standard fields in protobuf's
// JSON mapping (field names of robocup.proto, metres and radians), both readings of
// current_pose.team, and the extension fields found.
type robocupRecord struct {
	Protocol string          `json:"protocol"`
	Version  string          `json:"version"`
	Units    jsonUnits       `json:"units"`
	Message  json.RawMessage `json:"message"`
	// TeamNumber and Colour read current_pose.team as Bit-Bots and NUbots write it (a
	// team number) and as the standard declares it (UNKNOWN_TEAM, BLUE, RED).
	TeamNumber uint32           `json:"team_number"`
	Colour     string           `json:"colour"`
	BitBots    *robocupBitBots  `json:"bitbots,omitempty"`
	Purposes   []robocupPurpose `json:"nubots_purposes,omitempty"`
	// UnknownBytes counts the bytes of fields above the standard's (extensions included).
	UnknownBytes int `json:"unknown_bytes"`
}

type robocupPurpose struct {
	PlayerID uint32 `json:"player_id"`
	Purpose  uint32 `json:"purpose"` // 0 defender, 1 striker
}

type robocupBitBots struct {
	MaxWalkingSpeed      jsonFloat32   `json:"max_walking_speed"`
	TimeToBall           jsonFloat32   `json:"time_to_ball"`
	Role                 uint32        `json:"role"`
	Action               uint32        `json:"action"`
	OffensiveSide        uint32        `json:"offensive_side"`
	OtherRobotConfidence []jsonFloat32 `json:"other_robot_confidence"`
}

func decodeTeaminfoRobocup(b []byte, _ *decodeOptions) (any, error) {
	var p robocup.Packet
	if err := robocup.Decode(b, &p); err != nil {
		return nil, err
	}
	msg, err := protojson.MarshalOptions{UseProtoNames: true, EmitUnpopulated: false}.Marshal(p.Msg)
	if err != nil {
		return nil, err
	}
	r := robocupRecord{
		Protocol:     "teaminfo-robocup",
		Version:      "robocup.humanoid.Message",
		Units:        jsonUnits{Length: "m", Angle: "rad", Time: "s"},
		Message:      msg,
		TeamNumber:   p.TeamNumber(),
		Colour:       p.Colour().String(),
		UnknownBytes: len(p.Msg.ProtoReflect().GetUnknown()),
	}
	if p.HasBitBots {
		x := p.BitBots
		r.BitBots = &robocupBitBots{MaxWalkingSpeed: jsonFloat32(x.MaxWalkingSpeed), TimeToBall: jsonFloat32(x.TimeToBall),
			Role: x.Role, Action: x.Action, OffensiveSide: x.OffensiveSide, OtherRobotConfidence: []jsonFloat32{}}
		for _, f := range x.OtherRobotConfidence {
			r.BitBots.OtherRobotConfidence = append(r.BitBots.OtherRobotConfidence, jsonFloat32(f))
		}
	}
	if p.HasPurposes {
		r.Purposes = []robocupPurpose{}
		for _, pu := range p.Purposes {
			r.Purposes = append(r.Purposes, robocupPurpose{pu.PlayerID, pu.Purpose})
		}
	}
	return r, nil
}
