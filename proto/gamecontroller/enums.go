package gamecontroller

import "fmt"

// HeaderKind tells control packets to robots from the copies sent to monitors.
type HeaderKind uint8

// Header kinds.
const (
	HeaderRGme HeaderKind = iota // "RGme": to the robots
	HeaderRGTD                   // "RGTD": the same struct sent to monitor applications
)

// Magic returns the four header bytes of the kind.
func (k HeaderKind) Magic() string {
	if k == HeaderRGTD {
		return MagicMonitor
	}
	return MagicControl
}

func (k HeaderKind) String() string {
	switch k {
	case HeaderRGme:
		return MagicControl
	case HeaderRGTD:
		return MagicMonitor
	}
	return fmt.Sprintf("header(%d)", uint8(k))
}

// State is the game state (STATE_*); the values are the wire values of every layout.
type State uint8

// Game states.
const (
	StateInitial  State = 0
	StateReady    State = 1
	StateSet      State = 2
	StatePlaying  State = 3
	StateFinished State = 4
	// StateStandby is STATE_STANDBY of SPL v18 and STATE_SETUP of SPL v17 (same value,
	// renamed); no other layout has it.
	StateStandby State = 5
)

var stateNames = [...]string{"initial", "ready", "set", "playing", "finished", "standby"}

func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("state(%d)", uint8(s))
}

// GamePhase is the phase of the game. SPL and HSL send it as gamePhase (same values);
// HL v12 encodes it in secondaryState (STATE2_PENALTYSHOOT, _OVERTIME, _TIMEOUT).
type GamePhase uint8

// Game phases.
const (
	GamePhaseNormal       GamePhase = 0
	GamePhasePenaltyShoot GamePhase = 1 // HSL: penalty shoot-out
	GamePhaseOvertime     GamePhase = 2 // HSL: extra time
	GamePhaseTimeout      GamePhase = 3
	maxGamePhase                    = GamePhaseTimeout
)

var gamePhaseNames = [...]string{"normal", "penalty_shoot", "overtime", "timeout"}

func (g GamePhase) String() string {
	if int(g) < len(gamePhaseNames) {
		return gamePhaseNames[g]
	}
	return fmt.Sprintf("game_phase(%d)", uint8(g))
}

// SetPlay is the active set play, unified over the families. The values are HSL's wire
// values; the other layouts map as follows.
//
//	unified            HL secondaryState       SPL v12 setPlay    SPL v13+ setPlay   HSL setPlay
//	None               0 NORMAL (1..3 phases)  0 NONE             0 NONE             0 NONE
//	DirectFreeKick     4 DIRECT_FREEKICK       -                  -                  1 DIRECT_FREE_KICK
//	IndirectFreeKick   5 INDIRECT_FREEKICK     -                  -                  2 INDIRECT_FREE_KICK
//	PenaltyKick        6 PENALTYKICK           -                  5 PENALTY_KICK     3 PENALTY_KICK
//	ThrowIn            9 THROW_IN              4 KICK_IN          4 KICK_IN          4 THROW_IN
//	GoalKick           8 GOAL_KICK             1 GOAL_FREE_KICK   1 GOAL_KICK        5 GOAL_KICK
//	CornerKick         7 CORNER_KICK           3 CORNER_KICK      3 CORNER_KICK      6 CORNER_KICK
//	PushingFreeKick    -                       2 PUSHING_FREE_KICK 2 PUSHING_FREE_KICK -
type SetPlay uint8

// Set plays.
const (
	SetPlayNone             SetPlay = 0
	SetPlayDirectFreeKick   SetPlay = 1
	SetPlayIndirectFreeKick SetPlay = 2
	SetPlayPenaltyKick      SetPlay = 3
	SetPlayThrowIn          SetPlay = 4 // SPL: kick-in
	SetPlayGoalKick         SetPlay = 5 // SPL v12: goal free kick
	SetPlayCornerKick       SetPlay = 6
	SetPlayPushingFreeKick  SetPlay = 7 // SPL only
)

var setPlayNames = [...]string{"none", "direct_free_kick", "indirect_free_kick", "penalty_kick",
	"throw_in", "goal_kick", "corner_kick", "pushing_free_kick"}

func (s SetPlay) String() string {
	if int(s) < len(setPlayNames) {
		return setPlayNames[s]
	}
	return fmt.Sprintf("set_play(%d)", uint8(s))
}

// wireSetPlay is what one wire value of setPlay (SPL, HSL) or secondaryState (HL) means.
type wireSetPlay struct {
	phase GamePhase // HL only: the game phase the value encodes
	play  SetPlay
	name  string // the C constant without its prefix, lower case
}

var hlSecondaryStates = []wireSetPlay{
	{GamePhaseNormal, SetPlayNone, "normal"},
	{GamePhasePenaltyShoot, SetPlayNone, "penaltyshoot"},
	{GamePhaseOvertime, SetPlayNone, "overtime"},
	{GamePhaseTimeout, SetPlayNone, "timeout"},
	{GamePhaseNormal, SetPlayDirectFreeKick, "direct_freekick"},
	{GamePhaseNormal, SetPlayIndirectFreeKick, "indirect_freekick"},
	{GamePhaseNormal, SetPlayPenaltyKick, "penaltykick"},
	{GamePhaseNormal, SetPlayCornerKick, "corner_kick"},
	{GamePhaseNormal, SetPlayGoalKick, "goal_kick"},
	{GamePhaseNormal, SetPlayThrowIn, "throw_in"},
}

var splSetPlays12 = []wireSetPlay{
	{play: SetPlayNone, name: "none"},
	{play: SetPlayGoalKick, name: "goal_free_kick"},
	{play: SetPlayPushingFreeKick, name: "pushing_free_kick"},
	{play: SetPlayCornerKick, name: "corner_kick"},
	{play: SetPlayThrowIn, name: "kick_in"},
}

var splSetPlays13 = []wireSetPlay{
	{play: SetPlayNone, name: "none"},
	{play: SetPlayGoalKick, name: "goal_kick"},
	{play: SetPlayPushingFreeKick, name: "pushing_free_kick"},
	{play: SetPlayCornerKick, name: "corner_kick"},
	{play: SetPlayThrowIn, name: "kick_in"},
	{play: SetPlayPenaltyKick, name: "penalty_kick"},
}

var hslSetPlays = []wireSetPlay{
	{play: SetPlayNone, name: "none"},
	{play: SetPlayDirectFreeKick, name: "direct_free_kick"},
	{play: SetPlayIndirectFreeKick, name: "indirect_free_kick"},
	{play: SetPlayPenaltyKick, name: "penalty_kick"},
	{play: SetPlayThrowIn, name: "throw_in"},
	{play: SetPlayGoalKick, name: "goal_kick"},
	{play: SetPlayCornerKick, name: "corner_kick"},
}

// TeamColour is a team's jersey colour (TEAM_*). HL v12 calls 0 and 1 cyan and magenta.
// Colours are passed through unchecked.
type TeamColour uint8

// Team colours.
const (
	ColourBlue   TeamColour = 0 // HL: cyan
	ColourRed    TeamColour = 1 // HL: magenta
	ColourYellow TeamColour = 2
	ColourBlack  TeamColour = 3
	ColourWhite  TeamColour = 4
	ColourGreen  TeamColour = 5
	ColourOrange TeamColour = 6
	ColourPurple TeamColour = 7
	ColourBrown  TeamColour = 8
	ColourGray   TeamColour = 9
)

var colourNames = [...]string{"blue", "red", "yellow", "black", "white", "green", "orange", "purple", "brown", "gray"}

func (c TeamColour) String() string {
	if int(c) < len(colourNames) {
		return colourNames[c]
	}
	return fmt.Sprintf("colour(%d)", uint8(c))
}

// Special kicking team values.
const (
	// DropBall is DROPBALL, the HL header's kickOffTeam for a dropped ball.
	DropBall = 255
	// DropBallJava is what the Java HL GameController writes for a dropped ball (byte −128).
	DropBallJava = 0x80
	// KickingTeamNone is KICKING_TEAM_NONE of the GameController3 family (SPL v15+, HSL):
	// no team kicks. It is sent in ordinary play after a kick-off or set play ended, in
	// FINISHED and at half time, and in READY/SET after a global game stuck, the one case
	// that is a dropped ball. It has the value of DropBall.
	KickingTeamNone = 255
)

// Penalty is a penalty code (PENALTY_*). The codes differ between versions; use
// Layout.PenaltyName for the name. PenaltyNone means "not penalised" in every layout.
type Penalty uint8

// PenaltyNone is PENALTY_NONE.
const PenaltyNone Penalty = 0

var penaltiesHL = func() []string {
	p := make([]string, 256)
	copy(p, []string{"none", "spl_illegal_ball_contact", "spl_player_pushing", "spl_illegal_motion_in_set",
		"spl_inactive_player", "spl_illegal_defender", "spl_leaving_the_field", "spl_kick_off_goal",
		"spl_request_for_pickup", "spl_coach_motion"})
	p[14], p[15] = "substitute", "manual"
	copy(p[30:], []string{"hl_ball_manipulation", "hl_physical_contact", "hl_illegal_attack",
		"hl_illegal_defense", "hl_pickup_or_incapable", "hl_service"})
	p[255] = "unknown"
	return p
}()

var penaltiesSPL12 = []string{"none", "spl_illegal_ball_contact", "spl_player_pushing",
	"spl_illegal_motion_in_set", "spl_inactive_player", "spl_illegal_defender", "spl_leaving_the_field",
	"spl_kick_off_goal", "spl_request_for_pickup", "spl_local_game_stuck", "spl_illegal_positioning",
	14: "substitute", 15: "manual"}

var penaltiesSPL13 = []string{"none", "spl_illegal_ball_contact", "spl_player_pushing",
	"spl_illegal_motion_in_set", "spl_inactive_player", "spl_illegal_position", "spl_leaving_the_field",
	"spl_request_for_pickup", "spl_local_game_stuck", "spl_illegal_position_in_set",
	14: "substitute", 15: "manual"}

var penaltiesSPL15 = []string{"none", "spl_illegal_ball_contact", "spl_player_pushing",
	"spl_illegal_motion_in_set", "spl_inactive_player", "spl_illegal_position", "spl_leaving_the_field",
	"spl_request_for_pickup", "spl_local_game_stuck", "spl_illegal_position_in_set", "spl_player_stance",
	14: "substitute", 15: "manual"}

var penaltiesSPL16 = []string{"none", "spl_illegal_ball_contact", "spl_player_pushing",
	"spl_illegal_motion_in_set", "spl_inactive_player", "spl_illegal_position", "spl_leaving_the_field",
	"spl_request_for_pickup", "spl_local_game_stuck", "spl_illegal_position_in_set", "spl_player_stance",
	"spl_illegal_motion_in_initial", 14: "substitute", 15: "manual"}

var penaltiesSPL18 = []string{"none", "spl_illegal_ball_contact", "spl_player_pushing",
	"spl_illegal_motion_in_set", "spl_inactive_player", "spl_illegal_position", "spl_leaving_the_field",
	"spl_request_for_pickup", "spl_local_game_stuck", "spl_illegal_position_in_set", "spl_player_stance",
	"spl_illegal_motion_in_standby", 14: "substitute", 15: "manual"}

var penaltiesHSL19 = []string{"none", "illegal_positioning", "motion_in_set", "local_game_stuck",
	"incapable_robot", "pick_up", "ball_holding", "leaving_the_field", "playing_with_arms_hands",
	"pushing", "sent_off", "substitute"}

var penaltiesHSL20 = []string{"none", "illegal_positioning", "motion_in_set", "motion_in_stop",
	"local_game_stuck", "incapable_robot", "pick_up", "ball_holding", "leaving_the_field",
	"playing_with_arms_hands", "pushing", "cautioned", "sent_off", "substitute"}

// ValidPenalty reports whether the layout defines penalty code p.
func (l Layout) ValidPenalty(p Penalty) bool {
	t := l.spec().penalties
	return int(p) < len(t) && t[p] != ""
}

// PenaltyName returns the name of penalty code p in the layout, the C constant without
// "PENALTY_" in lower case ("none", "spl_player_pushing", "pick_up", …), or "" when the
// layout does not define p.
func (l Layout) PenaltyName(p Penalty) string {
	t := l.spec().penalties
	if int(p) < len(t) {
		return t[p]
	}
	return ""
}

// StateName returns the C name of state s in the layout ("setup" for 5 in SPL v17,
// "standby" in SPL v18), or "" when the layout does not define s.
func (l Layout) StateName(s State) string {
	if !l.Valid() || s > l.spec().maxState {
		return ""
	}
	if l == LayoutSPL17 && s == StateStandby {
		return "setup"
	}
	return s.String()
}

// GamePhaseName returns the C name of game phase g in the layout (HSL: "penalty_shoot_out",
// "extra_time"), or "" when g is undefined.
func (l Layout) GamePhaseName(g GamePhase) string {
	if !l.Valid() || g > maxGamePhase {
		return ""
	}
	if l.Family() == FamilyHSL {
		return [...]string{"normal", "penalty_shoot_out", "extra_time", "timeout"}[g]
	}
	return g.String()
}

// SetPlayName returns the C name of wire value raw of setPlay (SPL, HSL) or
// secondaryState (HL) in the layout ("pushing_free_kick", "direct_freekick", …), or ""
// when the layout does not define raw.
func (l Layout) SetPlayName(raw uint8) string {
	t := l.spec().setPlays
	if int(raw) < len(t) {
		return t[raw].name
	}
	return ""
}

// ReturnMessage is the message byte of the 8-byte return packets (v2, v3).
type ReturnMessage uint8

// Return packet messages. v2 (HL) defines 0 … 4; v3 (old SPL) defines only ALIVE = 0.
const (
	MsgManPenalise           ReturnMessage = 0 // v2
	MsgManUnpenalise         ReturnMessage = 1 // v2
	MsgAlive                 ReturnMessage = 2 // v2
	MsgGoalkeeper            ReturnMessage = 3 // v2, 2021 on
	MsgGameInterruptionReady ReturnMessage = 4 // v2, 2024 on
	MsgAliveV3               ReturnMessage = 0 // v3
)

// MessageName returns the name of message m in return packet version v, or "".
func MessageName(version uint8, m ReturnMessage) string {
	switch {
	case version == ReturnVersionHL && int(m) < len(msgNamesV2):
		return msgNamesV2[m]
	case version == ReturnVersionSPL3 && m == MsgAliveV3:
		return "alive"
	}
	return ""
}

var msgNamesV2 = [...]string{"man_penalise", "man_unpenalise", "alive", "goalkeeper", "game_interruption_ready"}

// FormatSecs formats a time of the packet (secsRemaining, secondaryTime) as the
// GameControllers show it: minutes and seconds with two digits each and a minus sign when
// negative, e.g. "10:00", "00:35" and "-00:35".
func FormatSecs(secs int32) string {
	sign, s := "", int64(secs)
	if s < 0 {
		sign, s = "-", -s
	}
	return fmt.Sprintf("%s%02d:%02d", sign, s/60, s%60)
}
