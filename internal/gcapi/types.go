package gcapi

// PacketSize is the length of the packets gc_read writes (RoboCupGameControlData v20).
const PacketSize = 158

// Side is a team in the schedule's order (the API's Side).
type Side int

// Sides.
const (
	Home Side = 0
	Away Side = 1
)

// SideMapping says which goal the home team defends (the API's SideMapping).
type SideMapping int

// Side mappings.
const (
	HomeDefendsLeftGoal  SideMapping = 0
	HomeDefendsRightGoal SideMapping = 1
)

// Color is a jersey colour (the API's Color; the same values as the packet's TEAM_*).
type Color int

// Team is one team's parameters (the API's TeamParams).
type Team struct {
	Number           uint8
	FieldPlayerColor Color
	GoalkeeperColor  Color
}

// SetPlay is the API's SetPlay.
type SetPlay int

// Set plays.
const (
	NoSetPlay        SetPlay = 0
	KickOff          SetPlay = 1
	DirectFreeKick   SetPlay = 2
	IndirectFreeKick SetPlay = 3
	PenaltyKick      SetPlay = 4
	ThrowIn          SetPlay = 5
	GoalKick         SetPlay = 6
	CornerKick       SetPlay = 7
)

// PenaltyCall is the API's PenaltyCall (only the calls tests use are named).
type PenaltyCall int

// Penalty calls.
const (
	CallMotionInSet PenaltyCall = 1
	CallPushing     PenaltyCall = 9
)

// sourceUser is ActionSource::user.
const sourceUser = 2

type actionKind uint8

const (
	kindNullary actionKind = iota
	kindStartSetPlay
	kindGoal
	kindTeamMessage
	kindShootout
	kindPenalize
	kindStopPlay
)

// Action is one of the GameController's actions, built by the functions below.
type Action struct {
	kind    actionKind
	name    string // gc_action_* of a nullary action
	side    Side
	hasSide bool
	arg     int
	player  uint8
	flag    bool
}

// String names the action for test messages.
func (a Action) String() string {
	switch a.kind {
	case kindStartSetPlay:
		return "start_set_play"
	case kindGoal:
		return "goal"
	case kindTeamMessage:
		return "team_message"
	case kindShootout:
		return "start_penalty_shootout"
	case kindPenalize:
		return "penalize"
	case kindStopPlay:
		return "stop_play"
	}
	return a.name[len("gc_action_"):]
}

func nullary(name string) Action { return Action{kind: kindNullary, name: "gc_action_" + name} }

// The actions without arguments.
var (
	WaitForSetPlay     = nullary("wait_for_set_play")
	FreeSetPlay        = nullary("free_set_play")
	FinishSetPlay      = nullary("finish_set_play")
	FinishHalf         = nullary("finish_half")
	SwitchHalf         = nullary("switch_half")
	StartExtraTime     = nullary("start_extra_time")
	AddAdditionalTime  = nullary("add_additional_time")
	GlobalGameStuck    = nullary("global_game_stuck")
	WaitForPenaltyShot = nullary("wait_for_penalty_shot")
	FreePenaltyShot    = nullary("free_penalty_shot")
)

// StartSetPlay starts a set play; side nil means no team.
func StartSetPlay(side *Side, sp SetPlay) Action {
	a := Action{kind: kindStartSetPlay, arg: int(sp)}
	if side != nil {
		a.side, a.hasSide = *side, true
	}
	return a
}

// Goal scores for side.
func Goal(side Side) Action { return Action{kind: kindGoal, side: side} }

// TeamMessage is a team message of side heard by the GameController; illegal marks a
// malformed one.
func TeamMessage(side Side, illegal bool) Action {
	return Action{kind: kindTeamMessage, side: side, flag: illegal}
}

// StartPenaltyShootout starts the shoot-out with the given sides.
func StartPenaltyShootout(sides SideMapping) Action {
	return Action{kind: kindShootout, arg: int(sides)}
}

// Penalize penalises a player of side.
func Penalize(side Side, player uint8, call PenaltyCall) Action {
	return Action{kind: kindPenalize, side: side, player: player, arg: int(call)}
}

// StopPlay stops play, or resumes it.
func StopPlay(resume bool) Action { return Action{kind: kindStopPlay, flag: resume} }
