package main

import "github.com/robocup-dnetwork/dnetwork/proto/booster"

func init() {
	registerDecoder(&packetDecoder{
		proto:   "booster",
		summary: "Booster robocup_demo TeamCommunicationMsg (magic 31202, 120 or 128 bytes)",
		order:   20, // magic and size
		match:   booster.IsMessage,
		decode:  decodeBooster,
	})
	registerDecoder(&packetDecoder{
		proto:   "booster-discovery",
		summary: "Booster robocup_demo TeamDiscoveryMsg (magic 41203, 16 bytes)",
		order:   20,
		match:   booster.IsDiscovery,
		decode:  decodeBoosterDiscovery,
	})
}

// boosterRecord is a Booster TeamCommunicationMsg as printed: every field in wire order,
// values as on the wire (m, rad); version is the revision, "main" or "2026".
type boosterRecord struct {
	Protocol          string       `json:"protocol"`
	Version           string       `json:"version"`
	Units             jsonUnits    `json:"units"`
	CommunicationID   int32        `json:"communication_id"`
	TeamNumber        int32        `json:"team_number"`
	PlayerNumber      int32        `json:"player_number"`
	Role              int32        `json:"role"`
	RoleName          string       `json:"role_name"`
	IsAlive           bool         `json:"is_alive"`
	IsLead            bool         `json:"is_lead"`
	IsInVisualKick    *bool        `json:"is_in_visual_kick,omitempty"` // 2026 only
	BallDetected      bool         `json:"ball_detected"`
	BallLocationKnown bool         `json:"ball_location_known"`
	BallConfidence    jsonFloat    `json:"ball_confidence"`
	BallRange         jsonFloat    `json:"ball_range"`
	Cost              jsonFloat    `json:"cost"`
	BallGlobal        jsonVector3f `json:"ball_global"`
	RobotPos          jsonPose     `json:"robot_pos"`
	KickDir           jsonFloat    `json:"kick_dir"`
	ThetaRb           jsonFloat    `json:"theta_rb"`
	CmdID             int32        `json:"cmd_id"`
	Cmd               int32        `json:"cmd"`
}

// jsonVector3f is a Booster Point.
type jsonVector3f struct {
	X jsonFloat `json:"x"`
	Y jsonFloat `json:"y"`
	Z jsonFloat `json:"z"`
}

func decodeBooster(b []byte, _ *decodeOptions) (any, error) {
	m, err := booster.Decode(b)
	if err != nil {
		return nil, err
	}
	r := &boosterRecord{
		Protocol:          "booster",
		Version:           m.Revision.String(),
		Units:             jsonUnits{Length: "m", Angle: "rad", Time: "s"},
		CommunicationID:   m.CommunicationID,
		TeamNumber:        m.TeamID,
		PlayerNumber:      m.PlayerID,
		Role:              m.PlayerRole,
		RoleName:          booster.RoleName(m.Revision, m.PlayerRole),
		IsAlive:           m.IsAlive,
		IsLead:            m.IsLead,
		BallDetected:      m.BallDetected,
		BallLocationKnown: m.BallLocationKnown,
		BallConfidence:    jsonFloat(m.BallConfidence),
		BallRange:         jsonFloat(m.BallRange),
		Cost:              jsonFloat(m.Cost),
		BallGlobal:        jsonVector3f{jsonFloat(m.BallPos.X), jsonFloat(m.BallPos.Y), jsonFloat(m.BallPos.Z)},
		RobotPos:          jsonPose{jsonFloat(m.RobotPose.X), jsonFloat(m.RobotPose.Y), jsonFloat(m.RobotPose.Theta)},
		KickDir:           jsonFloat(m.KickDir),
		ThetaRb:           jsonFloat(m.ThetaRb),
		CmdID:             m.CmdID,
		Cmd:               m.Cmd,
	}
	if m.Revision == booster.Revision2026 {
		v := m.IsInVisualKick
		r.IsInVisualKick = &v
	}
	return r, nil
}

// boosterDiscoveryRecord is a Booster TeamDiscoveryMsg as printed.
type boosterDiscoveryRecord struct {
	Protocol        string `json:"protocol"`
	Version         string `json:"version"`
	CommunicationID int32  `json:"communication_id"`
	TeamNumber      int32  `json:"team_number"`
	PlayerNumber    int32  `json:"player_number"`
}

func decodeBoosterDiscovery(b []byte, _ *decodeOptions) (any, error) {
	d, err := booster.DecodeDiscovery(b)
	if err != nil {
		return nil, err
	}
	return &boosterDiscoveryRecord{
		Protocol: "booster-discovery", Version: booster.DiscoveryRevision,
		CommunicationID: d.CommunicationID, TeamNumber: d.TeamID, PlayerNumber: d.PlayerID,
	}, nil
}
