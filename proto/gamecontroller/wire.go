package gamecontroller

// WireField is one fixed-offset field of a wire format, for tools that describe the
// format outside Go (cmd/dissectorgen writes the Wireshark dissector from it).
type WireField struct {
	Name string // the snake_case C name, as "dnetwork decode" prints it
	Off  int    // byte offset in the enclosing block
	Kind string // "u8", "u16", "i16", "f32", "bool" (a byte 0 or 1) or "bytes"
	Size int    // bytes
}

// WireLayout describes where the fields of one layout lie and what its codes mean: the
// offsets and names the decoder uses, exported for the dissector generator.
type WireLayout struct {
	Name    string // Layout.String
	Family  Family
	Version int
	Size    int
	Header  []WireField // the fields before the teams, in wire order
	// Teams: two blocks of TeamSize bytes from TeamsOff.
	TeamsOff, TeamSize int
	Team               []WireField // the team head (HL: and coach sequence, message)
	CoachOff           int         // offset of the coach's RobotInfo in the team, -1 when absent
	PlayersOff         int         // offset of players[] in the team
	Players            int         // MAX_NUM_PLAYERS
	RobotSize          int
	Robot              []WireField // RobotInfo
	// Names of the codes, indexed by the wire value; "" where the layout defines none.
	States, GamePhases, SetPlays, Penalties []string
}

// Wire returns the description of layout l; the zero WireLayout for an invalid one.
func (l Layout) Wire() WireLayout {
	if !l.Valid() {
		return WireLayout{}
	}
	s := l.spec()
	w := WireLayout{Name: s.name, Family: s.family, Version: int(s.version), Size: s.size,
		TeamsOff: s.teamOff(0), TeamSize: s.teamSize, CoachOff: -1, PlayersOff: s.playersOff,
		Players: s.players, RobotSize: s.robotSize}
	u8 := func(name string, off int) WireField { return WireField{name, off, "u8", 1} }
	u16 := func(name string, off int) WireField { return WireField{name, off, "u16", 2} }
	i16 := func(name string, off int) WireField { return WireField{name, off, "i16", 2} }
	flag := func(name string, off int) WireField { return WireField{name, off, "bool", 1} }
	if s.family == FamilyHL {
		w.Header = []WireField{u16("version", offVersion), u8("packet_number", hlOffPacketNumber),
			u8("players_per_team", hlOffPlayersPerTeam), u8("game_type", hlOffGameType),
			u8("state", hlOffState), flag("first_half", hlOffFirstHalf), u8("kick_off_team", hlOffKickOffTeam),
			u8("secondary_state", hlOffSecondaryState),
			{"secondary_state_info", hlOffSecStateInfo, "bytes", hlOffDropInTeam - hlOffSecStateInfo},
			u8("drop_in_team", hlOffDropInTeam), i16("drop_in_time", hlOffDropInTime),
			i16("secs_remaining", hlOffSecsRemaining), i16("secondary_time", hlOffSecondaryTime)}
	} else {
		w.Header = []WireField{u8("version", offVersion), u8("packet_number", offPacketNumber),
			u8("players_per_team", offPlayersPerTeam)}
		if s.family == FamilyHSL {
			w.Header = append(w.Header, u8("competition_type", offCompPhase), flag("stopped", offCompType))
		} else {
			w.Header = append(w.Header, u8("competition_phase", offCompPhase), u8("competition_type", offCompType))
		}
		w.Header = append(w.Header, u8("game_phase", offGamePhase), u8("state", offState),
			u8("set_play", offSetPlay), flag("first_half", offFirstHalf), u8("kicking_team", offKickingTeam),
			i16("secs_remaining", offSecsRemaining), i16("secondary_time", offSecondaryTime))
	}
	switch s.team {
	case teamSPL15:
		w.Team = []WireField{u8("team_number", 0), u8("field_player_colour", 1), u8("goalkeeper_colour", 2),
			u8("goalkeeper", 3), u8("score", 4), u8("penalty_shot", 5), u16("single_shots", 6),
			u16("message_budget", 8)}
	default:
		w.Team = []WireField{u8("team_number", 0), u8("team_colour", 1), u8("score", 2),
			u8("penalty_shot", 3), u16("single_shots", 4)}
		switch s.team {
		case teamSPL14:
			w.Team = append(w.Team, u16("message_budget", teamHeadSize12))
		case teamHL:
			w.Team = append(w.Team, u8("coach_sequence", hlTeamOffCoachSeq),
				WireField{"coach_message", hlTeamOffCoachMsg, "bytes", CoachMsgSize})
			w.CoachOff = hlTeamOffCoach
		}
	}
	w.Robot = []WireField{u8("penalty", 0), u8("secs_till_unpenalised", 1)}
	// The C names of the optional members differ between the layouts.
	warn, yellow, red, goalie := "number_of_warnings", "yellow_card_count", "red_card_count", "goal_keeper"
	switch {
	case s.family == FamilyHSL:
		warn, yellow = "warnings", "cautions"
	case l == LayoutHL664:
		goalie = "is_goalie"
	}
	for _, f := range []struct {
		name string
		off  int
		flag bool
	}{{warn, s.warnOff, false}, {yellow, s.yellowOff, false}, {red, s.redOff, false}, {goalie, s.goalieOff, true}} {
		switch {
		case f.off < 0:
		case f.flag:
			w.Robot = append(w.Robot, flag(f.name, f.off))
		default:
			w.Robot = append(w.Robot, u8(f.name, f.off))
		}
	}
	for st := State(0); st <= s.maxState; st++ {
		w.States = append(w.States, l.StateName(st))
	}
	for g := GamePhase(0); g <= maxGamePhase; g++ {
		w.GamePhases = append(w.GamePhases, l.GamePhaseName(g))
	}
	for _, sp := range s.setPlays {
		w.SetPlays = append(w.SetPlays, sp.name)
	}
	w.Penalties = s.penalties
	for len(w.Penalties) > 0 && w.Penalties[len(w.Penalties)-1] == "" {
		w.Penalties = w.Penalties[:len(w.Penalties)-1]
	}
	return w
}

// ReturnMessageNames returns the names of the message codes of return packet version v
// (2 or 3), indexed by the code; nil for another version.
func ReturnMessageNames(v uint8) []string {
	var names []string
	for m := 0; m < 256; m++ {
		n := MessageName(v, ReturnMessage(m))
		if n == "" {
			break
		}
		names = append(names, n)
	}
	return names
}

// WireReturn describes the fields of return packet version v (2, 3 or 4) after the header
// and version; nil for another version.
func WireReturn(v uint8) []WireField {
	u8 := func(name string, off int) WireField { return WireField{name, off, "u8", 1} }
	f32 := func(name string, off int) WireField { return WireField{name, off, "f32", 4} }
	switch v {
	case ReturnVersionHL, ReturnVersionSPL3:
		return []WireField{u8("team", retOffTeamV2), u8("player", retOffPlayerV2), u8("message", retOffMessageV2)}
	case ReturnVersion:
		return []WireField{u8("player_num", retOffPlayerV4), u8("team_num", retOffTeamV4),
			{"fallen", retOffFallen, "bool", 1},
			f32("pose", retOffPose), f32("pose", retOffPose+4), f32("pose", retOffPose+8),
			f32("ball_age", retOffBallAge), f32("ball", retOffBall), f32("ball", retOffBall+4)}
	}
	return nil
}
