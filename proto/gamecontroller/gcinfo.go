package gamecontroller

import "fmt"

// MaxPublishedSecs is the largest time GCInfo reports; larger or negative times become 0.
const MaxPublishedSecs = 9999

// GCInfo is the robot's view of a control packet: the fields of the GCInfo ROS message
// (except connected, which depends on time) for one team and player.
type GCInfo struct {
	Layout   Layout
	GameType uint8 // HL gameType; SPL and HSL competitionType

	State     State
	GamePhase GamePhase
	SetPlay   SetPlay
	// SecondaryState is the HL STATE2_* code of GamePhase and SetPlay (0 normal,
	// 1 penalty shoot, 2 overtime, 3 timeout, 4 direct … 9 throw-in), also for SPL and
	// HSL packets. A set play outside the normal phase reports the set play.
	SecondaryState uint8

	// SetPlayTeam is the team that takes the set play (Packet.SetPlayTeam); 0 when no set
	// play is active.
	SetPlayTeam uint8

	OurDirectFreeKick     bool
	OurIndirectFreeKick   bool
	OurPenaltyKick        bool
	OurCornerKick         bool
	OurGoalKick           bool
	OurThrowIn            bool
	EnemyDirectFreeKick   bool
	EnemyIndirectFreeKick bool
	EnemyPenaltyKick      bool
	EnemyCornerKick       bool
	EnemyGoalKick         bool
	EnemyThrowIn          bool

	// SetPlayReady (published as state2Ready): robots may move to their set play positions.
	SetPlayReady bool
	// SetPlayFreeze (published as state2Freeze): robots must stand still for the set play.
	SetPlayFreeze bool

	Kickoff   bool // kicking team is ours
	DropBall  bool // Packet.DropBall: a dropped ball
	FirstHalf bool
	Stopped   bool // HSL stopped; false in other layouts

	SecsRemaining uint16 // 0..MaxPublishedSecs
	SecondaryTime uint16 // 0..MaxPublishedSecs

	Penalised           bool
	Penalty             Penalty // our player's penalty code (Layout.PenaltyName names it)
	SecsTillUnpenalised uint8

	OurScore    uint8
	EnemyScore  uint8
	OurColour   TeamColour // field player colour
	EnemyColour TeamColour
	// MessageBudget is our team's remaining team message budget, −1 when the layout has
	// none (HL, SPL v12/v13).
	MessageBudget int
}

// Derive computes the GCInfo of player (1-based) of team from a decoded control packet.
// It is a pure function of its arguments.
//
// Rules:
//
//   - Our team is the TeamInfo whose teamNumber equals team (teams[0] first); if neither
//     is, the error wraps ErrNotOurTeam. Teams are never swapped by colour.
//   - player must be 1..Layout.MaxPlayers, else the error is a *RangeError (ErrRange).
//   - Set play flags: for the active set play X, OurX is true when the set play team is
//     ours, EnemyX otherwise (also when the set play team is neither team). The set play
//     team is secondaryStateInfo[0] in HL and kickingTeam in SPL and HSL. SPL kick-in
//     counts as throw-in and SPL pushing free kick as direct free kick (pushing is a
//     direct free kick foul).
//   - SetPlayReady/SetPlayFreeze are false unless a set play is active. HL: the sub-mode
//     secondaryStateInfo[1] gives ready for 1 and freeze for 0 or 2. SPL and HSL: freeze
//     while the state is SET or play is stopped (HSL), ready while PLAYING and not stopped.
//     (A ZJU client set freeze whenever secondaryState was non-zero and the sub-mode 0, so
//     also during penalty shoot-out, overtime and timeout; that is not repeated here.)
//   - Kickoff: kickingTeam (HL kickOffTeam) equals team. DropBall: Packet.DropBall (HL:
//     kickOffTeam 255 or 0x80; SPL and HSL: no kicking team in READY or SET, while no
//     kicking team in PLAYING is ordinary play).
//   - SecsRemaining and SecondaryTime: values outside 0..MaxPublishedSecs become 0, as
//     the ZJU client does (so negative times, e.g. an overrun set play preparation, read
//     0; Packet and GameControlData carry them signed).
//   - Penalised: our player's penalty is not PENALTY_NONE (substitutes count as
//     penalised).
func Derive(p *Packet, team, player int) (GCInfo, error) {
	if !p.Layout.Valid() {
		return GCInfo{}, errorf(ErrVersion, "cannot derive GCInfo from %s", p.Layout)
	}
	our := -1
	for t := range p.Teams {
		if int(p.Teams[t].TeamNumber) == team {
			our = t
			break
		}
	}
	if our < 0 {
		return GCInfo{}, &detailError{kind: ErrNotOurTeam, msg: fmt.Sprintf(
			"packet names teams %d and %d, not our team %d", p.Teams[0].TeamNumber, p.Teams[1].TeamNumber, team)}
	}
	if maxp := p.Layout.MaxPlayers(); player < 1 || player > maxp {
		return GCInfo{}, rangeErr("player", float64(player), fmt.Sprintf("1..%d in %s", maxp, p.Layout))
	}
	us, them := &p.Teams[our], &p.Teams[1-our]
	me := &us.Players[player-1]

	g := GCInfo{
		Layout:              p.Layout,
		State:               p.State,
		GamePhase:           p.GamePhase,
		SetPlay:             p.SetPlay,
		SecondaryState:      secondaryState(p.GamePhase, p.SetPlay),
		Kickoff:             int(p.KickingTeam) == team,
		DropBall:            p.DropBall(),
		FirstHalf:           p.FirstHalf,
		Stopped:             p.Stopped,
		SecsRemaining:       publishedSecs(p.SecsRemaining),
		SecondaryTime:       publishedSecs(p.SecondaryTime),
		Penalty:             me.Penalty,
		Penalised:           me.Penalty != PenaltyNone,
		SecsTillUnpenalised: me.SecsTillUnpenalised,
		OurScore:            us.Score,
		EnemyScore:          them.Score,
		OurColour:           us.FieldPlayerColour,
		EnemyColour:         them.FieldPlayerColour,
		MessageBudget:       -1,
	}
	if p.Layout.HasMessageBudget() {
		g.MessageBudget = int(us.MessageBudget)
	}
	hl := p.Layout.Family() == FamilyHL
	if hl {
		g.GameType = p.GameType
	} else {
		g.GameType = p.CompetitionType
	}
	if p.SetPlay == SetPlayNone {
		return g, nil
	}
	g.SetPlayTeam = p.SetPlayTeam()
	if hl {
		switch p.SecondaryStateInfo[1] {
		case 1:
			g.SetPlayReady = true
		case 0, 2:
			g.SetPlayFreeze = true
		}
	} else {
		g.SetPlayFreeze = p.State == StateSet || p.Stopped
		g.SetPlayReady = p.State == StatePlaying && !p.Stopped
	}
	ours := int(g.SetPlayTeam) == team
	var flagOur, flagEnemy *bool
	switch p.SetPlay {
	case SetPlayDirectFreeKick, SetPlayPushingFreeKick:
		flagOur, flagEnemy = &g.OurDirectFreeKick, &g.EnemyDirectFreeKick
	case SetPlayIndirectFreeKick:
		flagOur, flagEnemy = &g.OurIndirectFreeKick, &g.EnemyIndirectFreeKick
	case SetPlayPenaltyKick:
		flagOur, flagEnemy = &g.OurPenaltyKick, &g.EnemyPenaltyKick
	case SetPlayCornerKick:
		flagOur, flagEnemy = &g.OurCornerKick, &g.EnemyCornerKick
	case SetPlayGoalKick:
		flagOur, flagEnemy = &g.OurGoalKick, &g.EnemyGoalKick
	case SetPlayThrowIn:
		flagOur, flagEnemy = &g.OurThrowIn, &g.EnemyThrowIn
	default:
		return g, nil
	}
	if ours {
		*flagOur = true
	} else {
		*flagEnemy = true
	}
	return g, nil
}

// HL STATE2_* codes.
const (
	state2Normal       = 0
	state2PenaltyShoot = 1
	state2Overtime     = 2
	state2Timeout      = 3
	state2Direct       = 4
	state2Indirect     = 5
	state2PenaltyKick  = 6
	state2Corner       = 7
	state2Goal         = 8
	state2ThrowIn      = 9
)

func secondaryState(g GamePhase, s SetPlay) uint8 {
	switch s {
	case SetPlayDirectFreeKick, SetPlayPushingFreeKick:
		return state2Direct
	case SetPlayIndirectFreeKick:
		return state2Indirect
	case SetPlayPenaltyKick:
		return state2PenaltyKick
	case SetPlayCornerKick:
		return state2Corner
	case SetPlayGoalKick:
		return state2Goal
	case SetPlayThrowIn:
		return state2ThrowIn
	}
	switch g {
	case GamePhasePenaltyShoot:
		return state2PenaltyShoot
	case GamePhaseOvertime:
		return state2Overtime
	case GamePhaseTimeout:
		return state2Timeout
	}
	return state2Normal
}

func publishedSecs(v int32) uint16 {
	if v < 0 || v > MaxPublishedSecs {
		return 0
	}
	return uint16(v)
}
