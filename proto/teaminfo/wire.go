package teaminfo

// WireField is one field of the zju or dnet format, for tools that describe the formats
// outside Go (cmd/dissectorgen writes the Wireshark dissector from it). Name is the key
// "dnetwork decode" prints; Kind says how the bytes at Off read:
//
//	u8, u16, u32, f32  plain little-endian numbers; bool: a byte 0 or 1
//	rostime            u32 seconds, u32 nanoseconds (zju)
//	vec3               3×f64 x, y, z (zju)
//	bools              Count bytes 0 or 1 (zju mates_online)
//	stamp              u48 milliseconds, printed as seconds and nanoseconds (dnet)
//	status             u16: Bits name bits 0…, then a 3-bit voronoi count (dnet)
//	mask               u8: bit i is element i of a Count-element bool array (dnet)
//	nibble             u8: Shift 0 the low, 4 the high 4 bits (dnet)
//	pose, point        3 or 2 int16 divided by Scale (pose: θ by AngleScale); Unknown is NaN
//	duration, quality  u16 or u8 divided by Scale; Unknown is NaN
//	voronoi            Count 3-byte pairs of 12-bit ints divided by Scale; Unknown is NaN
type WireField struct {
	Name       string
	Off        int
	Kind       string
	Size       int      // bytes
	Count      int      // bools, mask, voronoi
	Shift      int      // nibble
	Scale      float64  // pose, point, duration, quality, voronoi
	AngleScale float64  // pose
	Unknown    int      // the code of an unknown value
	Bits       []string // status
	Enum       string   // "role" or "play_state": the values name RoleNames or PlayStateNames
}

// RoleNames returns the names of the roles, indexed by the wire value.
func RoleNames() []string {
	var n []string
	for r := RoleNone; r <= RoleOther; r++ {
		n = append(n, r.String())
	}
	return n
}

// PlayStateNames returns the names of the play states, indexed by the wire value.
func PlayStateNames() []string {
	var n []string
	for s := PlayInactive; s <= PlayAssisting; s++ {
		n = append(n, s.String())
	}
	return n
}

// ZJUWire returns the fields of the zju format in wire order (padding left out).
func ZJUWire() []WireField {
	u8 := func(name string, off int) WireField { return WireField{Name: name, Off: off, Kind: "u8", Size: 1} }
	b := func(name string, off int) WireField { return WireField{Name: name, Off: off, Kind: "bool", Size: 1} }
	v := func(name string, off int) WireField {
		return WireField{Name: name, Off: off, Kind: "vec3", Size: vector3Size}
	}
	f := func(name string, off int) WireField { return WireField{Name: name, Off: off, Kind: "f32", Size: 4} }
	return []WireField{
		{Name: "txp_timestamp", Off: zjuOffTxpTimestamp, Kind: "rostime", Size: 8},
		{Name: "recv_timestamp", Off: zjuOffRecvTimestamp, Kind: "rostime", Size: 8},
		u8("player_number", zjuOffPlayerNumber), u8("team_number", zjuOffTeamNumber), u8("test", zjuOffTest),
		b("incapacitated", zjuOffIncapacitated),
		{Name: "role", Off: zjuOffRole, Kind: "u8", Size: 1, Enum: "role"},
		b("attack_right", zjuOffAttackRight),
		v("dest", zjuOffDest), v("final_dest", zjuOffFinalDest), v("attack_target", zjuOffAttackTarget),
		f("time_since_last_kick", zjuOffTimeSinceKick),
		{Name: "state", Off: zjuOffState, Kind: "u8", Size: 1, Enum: "play_state"},
		b("priority", zjuOffPriority), u8("kicker_id", zjuOffKickerID),
		{Name: "mates_online", Off: zjuOffMatesOnline, Kind: "bools", Size: MaxMates, Count: MaxMates},
		b("see_ball", zjuOffSeeBall), b("see_circle", zjuOffSeeCircle), b("see_goal", zjuOffSeeGoal),
		v("robot_pos", zjuOffRobotPos), v("ball_field", zjuOffBallField), v("ball_global", zjuOffBallGlobal),
		v("circle_field", zjuOffCircleField), v("circle_global", zjuOffCircleGlobal),
		v("goal_field", zjuOffGoalField), v("goal_global", zjuOffGoalGlobal),
		f("ball_quality", zjuOffBallQuality), f("field_quality", zjuOffFieldQuality),
		f("field_consistency", zjuOffFieldConsistency),
		b("gc_connected", zjuOffGCConnected), u8("gc_state", zjuOffGCState), u8("gc_state2", zjuOffGCState2),
	}
}

// DNetWire returns the fields of the dnet body in wire order, from the version on; the
// echo fields (from dnOffEchoPlayer) are version 2 only. The body is followed by the tag
// (header flag bit 0) or the CRC-32C (bit 1) over the body.
func DNetWire() []WireField {
	u8 := func(name string, off int) WireField { return WireField{Name: name, Off: off, Kind: "u8", Size: 1} }
	pose := func(name string, off int) WireField {
		return WireField{Name: name, Off: off, Kind: "pose", Size: dnPoseSize, Scale: MMPerM, AngleScale: CradPerRad, Unknown: UnknownI16}
	}
	point := func(name string, off int) WireField {
		return WireField{Name: name, Off: off, Kind: "point", Size: dnPointSize, Scale: MMPerM, Unknown: UnknownI16}
	}
	dur := func(name string, off int) WireField {
		return WireField{Name: name, Off: off, Kind: "duration", Size: 2, Scale: CsPerS, Unknown: UnknownDuration}
	}
	qual := func(name string, off int) WireField {
		return WireField{Name: name, Off: off, Kind: "quality", Size: 1, Scale: QualityMax, Unknown: UnknownQuality}
	}
	return []WireField{
		u8("version", dnOffVersion),
		{Name: "header_flags", Off: dnOffHeaderFlags, Kind: "u8", Size: 1},
		u8("team_number", dnOffTeam), u8("player_number", dnOffPlayer),
		{Name: "role", Off: dnOffRole, Kind: "u8", Size: 1, Enum: "role"},
		{Name: "seq", Off: dnOffSeq, Kind: "u32", Size: 4},
		{Name: "txp_timestamp", Off: dnOffStamp, Kind: "stamp", Size: 6},
		{Name: "status", Off: dnOffStatus, Kind: "status", Size: 2, Bits: []string{"incapacitated", "fallen",
			"penalised", "attack_right", "priority", "see_ball", "see_circle", "see_goal", "gc_connected", "gc_stopped"}},
		{Name: "mates_online", Off: dnOffMates, Kind: "mask", Size: 1, Count: MaxMates},
		{Name: "state", Off: dnOffPlayState, Kind: "u8", Size: 1, Enum: "play_state"},
		u8("kicker_id", dnOffKickerID),
		{Name: "gc_state", Off: dnOffGCState, Kind: "nibble", Size: 1},
		{Name: "game_phase", Off: dnOffGCState, Kind: "nibble", Size: 1, Shift: 4},
		{Name: "gc_state2", Off: dnOffGCSecondary, Kind: "nibble", Size: 1},
		{Name: "set_play", Off: dnOffGCSecondary, Kind: "nibble", Size: 1, Shift: 4},
		pose("robot_pos", dnOffRobotPos), pose("dest", dnOffDest), pose("final_dest", dnOffFinalDest),
		point("attack_target", dnOffAttackTarget), point("ball_field", dnOffBallField),
		point("ball_global", dnOffBallGlobal), point("team_ball_global", dnOffTeamBall),
		point("circle_field", dnOffCircleField), point("circle_global", dnOffCircleGlobal),
		point("goal_field", dnOffGoalField), point("goal_global", dnOffGoalGlobal),
		dur("time_since_last_kick", dnOffSinceKick), dur("time_to_reach_ball", dnOffToReachBall),
		dur("ball_age", dnOffBallAge),
		qual("ball_quality", dnOffBallQuality), qual("field_quality", dnOffFieldQuality),
		qual("field_consistency", dnOffFieldConsist),
		{Name: "voronoi", Off: dnOffVoronoi, Kind: "voronoi", Size: MaxVoronoi * dnVoronoiSize, Count: MaxVoronoi,
			Scale: VoronoiCmPM, Unknown: UnknownI12},
		u8("echo.player", dnOffEchoPlayer),
		{Name: "echo.stamp_ms", Off: dnOffEchoStamp, Kind: "u32", Size: 4},
		{Name: "echo.hold", Off: dnOffEchoHold, Kind: "duration", Size: 2, Scale: 1000, Unknown: -1},
	}
}

// The dnet header as DNetWire's readers need it: the header size and the bits of the
// header flags byte.
const (
	DNetHeaderSize    = dnHeaderSize
	DNetFlagTagged    = hdrTagged
	DNetFlagChecked   = hdrChecked
	DNetFlagsReserved = hdrReserved
)
