package worldinfo

import "strconv"

// Team is a team colour of the game state record (worldinfo_gamestate_team_t, 2 bits).
type Team uint8

// Teams.
const (
	TeamNone    Team = 0
	TeamCyan    Team = 1
	TeamMagenta Team = 2
	TeamBoth    Team = 3
)

func (t Team) String() string {
	switch t {
	case TeamNone:
		return "none"
	case TeamCyan:
		return "cyan"
	case TeamMagenta:
		return "magenta"
	case TeamBoth:
		return "both"
	}
	return "team_" + strconv.Itoa(int(t))
}

// GoalColor is the colour of a team's own goal (1 bit).
type GoalColor uint8

// Goal colours.
const (
	GoalBlue   GoalColor = 0
	GoalYellow GoalColor = 1
)

func (g GoalColor) String() string {
	switch g {
	case GoalBlue:
		return "blue"
	case GoalYellow:
		return "yellow"
	}
	return "goal_" + strconv.Itoa(int(g))
}

// Half is the half of the game (1 bit).
type Half uint8

// Halves.
const (
	HalfFirst  Half = 0
	HalfSecond Half = 1
)

func (h Half) String() string {
	switch h {
	case HalfFirst:
		return "first"
	case HalfSecond:
		return "second"
	}
	return "half_" + strconv.Itoa(int(h))
}

// PenaltyCode is a robot penalty (worldinfo_penalty_t, 6 bits).
type PenaltyCode uint8

// Penalty codes.
const (
	PenaltyNone            PenaltyCode = 0
	PenaltyBallHolding     PenaltyCode = 1
	PenaltyGoaliePushing   PenaltyCode = 2
	PenaltyPlayerPushing   PenaltyCode = 3
	PenaltyIllegalDefender PenaltyCode = 4
	PenaltyIllegalDefense  PenaltyCode = 5
	PenaltyObstruction     PenaltyCode = 6
	PenaltyReqForPickup    PenaltyCode = 7
	PenaltyLeaving         PenaltyCode = 8
	PenaltyDamage          PenaltyCode = 9
	PenaltyManual          PenaltyCode = 10
)

var penaltyNames = [...]string{
	PenaltyNone:            "none",
	PenaltyBallHolding:     "ball_holding",
	PenaltyGoaliePushing:   "goalie_pushing",
	PenaltyPlayerPushing:   "player_pushing",
	PenaltyIllegalDefender: "illegal_defender",
	PenaltyIllegalDefense:  "illegal_defense",
	PenaltyObstruction:     "obstruction",
	PenaltyReqForPickup:    "request_for_pickup",
	PenaltyLeaving:         "leaving",
	PenaltyDamage:          "damage",
	PenaltyManual:          "manual",
}

func (p PenaltyCode) String() string {
	if int(p) < len(penaltyNames) {
		return penaltyNames[p]
	}
	return "penalty_" + strconv.Itoa(int(p))
}

// Game state values. The 4-bit game_state field can be chosen freely; Fawkes recommends
// these values for the middle-size (MSL) and standard platform (SPL) leagues.
const (
	MSLFrozen     = 0
	MSLPlay       = 1
	MSLKickOff    = 2
	MSLDropBall   = 3
	MSLPenalty    = 4
	MSLCornerKick = 5
	MSLThrowIn    = 6
	MSLFreeKick   = 7
	MSLGoalKick   = 8
	MSLHalfTime   = 9

	SPLInitial  = 0
	SPLReady    = 1
	SPLSet      = 2
	SPLPlay     = 3
	SPLFinished = 4
)
