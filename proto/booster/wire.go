package booster

// WireField is one field of a Booster packet, for tools that describe the format outside
// Go (cmd/dissectorgen writes the Wireshark dissector from it). Name is the key
// "dnetwork decode" prints, Member the struct member of team_communication_msg.h; Kind
// says how the Size bytes at Off read:
//
//	i32      little-endian int32
//	bool     a byte 0 or 1 (anything else is rejected, [ErrBool])
//	f64      little-endian IEEE double
//	point    3×f64 x, y, z
//	pose     3×f64 x, y, theta (theta in rad)
//	padding  alignment bytes, ignored
//
// Unit is the unit of a number (of x and y for point and pose), "" for none.
type WireField struct {
	Name   string
	Member string
	Off    int
	Kind   string
	Size   int
	Unit   string
	Enum   string // "role": the values name RoleNames of the revision
	Magic  int32  // validation: the value a receiver accepts
}

// DiscoveryRevision is the version "dnetwork decode" prints for a TeamDiscoveryMsg, whose
// layout is the same in both revisions.
const DiscoveryRevision = "1"

// RoleNames returns the names of the roles of revision r, indexed by the wire value (""
// for a value the revision does not define).
func RoleNames(r Revision) []string {
	last := int32(RoleUnknownMain)
	if r == Revision2026 {
		last = RoleUnknown2026
	}
	n := make([]string, last+1)
	for v := int32(RoleStriker); v <= last; v++ {
		n[v] = RoleName(r, v)
	}
	return n
}

// Wire returns the fields of the TeamCommunicationMsg of revision r in wire order,
// padding included; nil for an unknown revision.
func Wire(r Revision) []WireField {
	l, ok := layoutOf(r)
	if !ok {
		return nil
	}
	i32 := func(name, member string, off int) WireField {
		return WireField{Name: name, Member: member, Off: off, Kind: "i32", Size: 4}
	}
	b := func(name, member string, off int) WireField {
		return WireField{Name: name, Member: member, Off: off, Kind: "bool", Size: 1}
	}
	f64 := func(name, member string, rel int, unit string) WireField {
		return WireField{Name: name, Member: member, Off: l.doubles + rel, Kind: "f64", Size: 8, Unit: unit}
	}
	fs := []WireField{
		{Name: "validation", Member: "validation", Off: offValidation, Kind: "i32", Size: 4, Magic: Magic},
		i32("communication_id", "communicationId", offCommunicationID),
		i32("team_number", "teamId", offTeamID),
		i32("player_number", "playerId", offPlayerID),
		{Name: "role", Member: "playerRole", Off: offPlayerRole, Kind: "i32", Size: 4, Enum: "role"},
		b("is_alive", "isAlive", offIsAlive),
		b("is_lead", "isLead", offIsLead),
	}
	if l.visualKick >= 0 {
		fs = append(fs, b("is_in_visual_kick", "isInVisualKick", l.visualKick))
	}
	fs = append(fs, b("ball_detected", "ballDetected", l.ballDetected),
		b("ball_location_known", "ballLocationKnown", l.ballKnown))
	if pad := l.doubles - (l.ballKnown + 1); pad > 0 {
		fs = append(fs, WireField{Name: "padding", Off: l.ballKnown + 1, Kind: "padding", Size: pad})
	}
	return append(fs,
		f64("ball_confidence", "ballConfidence", relBallConfidence, ""),
		f64("ball_range", "ballRange", relBallRange, "m"),
		f64("cost", "cost", relCost, ""),
		WireField{Name: "ball_global", Member: "ballPosToField", Off: l.doubles + relBallPos, Kind: "point", Size: 24, Unit: "m"},
		WireField{Name: "robot_pos", Member: "robotPoseToField", Off: l.doubles + relRobotPose, Kind: "pose", Size: 24, Unit: "m"},
		f64("kick_dir", "kickDir", relKickDir, "rad"),
		f64("theta_rb", "thetaRb", relThetaRb, "rad"),
		i32("cmd_id", "cmdId", l.doubles+relCmdID),
		i32("cmd", "cmd", l.doubles+relCmd),
	)
}

// DiscoveryWire returns the fields of the TeamDiscoveryMsg in wire order.
func DiscoveryWire() []WireField {
	return []WireField{
		{Name: "validation", Member: "validation", Off: offDiscValidation, Kind: "i32", Size: 4, Magic: DiscoveryMagic},
		{Name: "communication_id", Member: "communicationId", Off: offDiscCommunicationID, Kind: "i32", Size: 4},
		{Name: "team_number", Member: "teamId", Off: offDiscTeamID, Kind: "i32", Size: 4},
		{Name: "player_number", Member: "playerId", Off: offDiscPlayerID, Kind: "i32", Size: 4},
	}
}
