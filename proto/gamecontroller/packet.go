package gamecontroller

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
)

// Packet is RoboCupGameControlData of any layout: one version-independent model that
// holds every field of every layout, so that each layout re-encodes byte for byte.
//
// Decoding fills the fields the layout carries and zeroes the rest; encoding writes the
// fields the layout carries and ignores the rest. The comments name the layouts that carry
// a field when not all do.
type Packet struct {
	Header HeaderKind // "RGme" or "RGTD"
	Layout Layout     // wire format; fixes version and size

	PacketNumber   uint8
	PlayersPerTeam uint8

	GameType         uint8 // HL: gameType (round robin 0, playoff 1, drop-in 2; 2025: kid 0, adult 1)
	CompetitionPhase uint8 // SPL: competitionPhase (round robin 0, playoff 1)
	CompetitionType  uint8 // SPL, HSL: competitionType (HSL: small 0, middle 1, large 2)

	State     State
	GamePhase GamePhase // SPL, HSL: gamePhase; HL: from secondaryState 1..3
	SetPlay   SetPlay   // unified; see SetPlay for the mapping
	// SetPlayRaw is the wire byte as decoded: HL secondaryState, SPL/HSL setPlay. Encoding
	// ignores it and derives the byte from SetPlay and (HL) GamePhase.
	SetPlayRaw uint8
	FirstHalf  bool
	Stopped    bool // HSL: play is stopped
	// KickingTeam is HL kickOffTeam or SPL/HSL kickingTeam: a team number, DropBall or
	// DropBallJava (HL), or KickingTeamNone (SPL, HSL). DropBall and KickingTeamNumber
	// interpret it.
	KickingTeam uint8

	// SecsRemaining and SecondaryTime are int16 on the wire in every layout
	// (−32768..32767): the GameControllers let them run negative, e.g. secondaryTime −35
	// when a set play's preparation time has run out 35 s ago (the GameController shows
	// "-00:35"). The HL header declares them uint16, but the HL GameControllers write
	// signed shorts.
	SecsRemaining int32
	SecondaryTime int32

	SecondaryStateInfo [4]uint8 // HL: [0] set play team, [1] sub-mode 0/1/2
	DropInTeam         uint8    // HL
	DropInTime         int16    // HL; −1 (0xFFFF) before the first drop-in

	Teams [2]TeamInfo
}

// TeamInfo is one team of a control packet.
type TeamInfo struct {
	TeamNumber        uint8
	FieldPlayerColour TeamColour // HL, SPL v12..v14: teamColour
	GoalkeeperColour  TeamColour // SPL v15+, HSL
	Goalkeeper        uint8      // SPL v15+, HSL: player number of the goalkeeper
	Score             uint8
	PenaltyShot       uint8
	SingleShots       uint16 // bit i: penalty shot i scored
	MessageBudget     uint16 // SPL v14+, HSL

	CoachSequence uint8               // HL
	CoachMessage  [CoachMsgSize]uint8 // HL
	Coach         RobotInfo           // HL

	// Players holds Layout.MaxPlayers entries; player n is Players[n-1].
	Players [MaxPlayers]RobotInfo
}

// RobotInfo is one player (or the HL coach).
type RobotInfo struct {
	Penalty             Penalty
	SecsTillUnpenalised uint8
	Warnings            uint8 // HL 688: numberOfWarnings; HSL v19: warnings
	YellowCards         uint8 // HL: yellowCardCount; HSL: cautions
	RedCards            uint8 // HL: redCardCount
	Goalkeeper          bool  // HL 664: isGoalie; HL 688: goalKeeper
}

// Player returns player n (1-based) of team t (0 or 1), or nil when either is out of
// range for the layout.
func (p *Packet) Player(t, n int) *RobotInfo {
	if t < 0 || t > 1 || n < 1 || n > p.Layout.MaxPlayers() {
		return nil
	}
	return &p.Teams[t].Players[n-1]
}

// DropBall reports whether the packet announces a dropped ball.
//
// HL: the kicking team is DROPBALL (255) or the Java GameController's 0x80, in any state.
// SPL and HSL: there is no kicking team (KickingTeamNone, 255) while the state is READY or
// SET, as after a global game stuck. In PLAYING, FINISHED and at half time 255 only says
// that no team kicks, which is ordinary play. (The Java SPL GameControllers of v12 … v14
// always name a team.)
func (p *Packet) DropBall() bool {
	if p.Layout.Family() == FamilyHL {
		return p.KickingTeam == DropBall || p.KickingTeam == DropBallJava
	}
	return p.KickingTeam == KickingTeamNone && (p.State == StateReady || p.State == StateSet)
}

// KickingTeamNumber returns the team number of the kicking team, or 0 when no team
// kicks: a dropped ball (HL), or KickingTeamNone (SPL, HSL).
func (p *Packet) KickingTeamNumber() uint8 {
	if p.KickingTeam == KickingTeamNone || (p.Layout.Family() == FamilyHL && p.KickingTeam == DropBallJava) {
		return 0
	}
	return p.KickingTeam
}

// SetPlayTeam returns the team number of the team taking the active set play: HL
// secondaryStateInfo[0], SPL and HSL kickingTeam (0 for KickingTeamNone). It is 0 when no
// set play is active.
func (p *Packet) SetPlayTeam() uint8 {
	switch {
	case p.SetPlay == SetPlayNone:
		return 0
	case p.Layout.Family() == FamilyHL:
		return p.SecondaryStateInfo[0]
	}
	return p.KickingTeamNumber()
}

// MarshalBinary encodes p in its Layout.
func (p *Packet) MarshalBinary() ([]byte, error) {
	return p.AppendBinary(make([]byte, 0, p.Layout.Size()))
}

// AppendBinary appends the encoding of p in its Layout to b. It applies the decoder's
// range checks, and also rejects what the layout cannot express: a set play the layout
// lacks, HL set plays outside the normal game phase, times outside int16. It does not allocate when b has room for Layout.Size more bytes.
func (p *Packet) AppendBinary(b []byte) ([]byte, error) {
	if !p.Layout.Valid() {
		return b, errorf(ErrVersion, "cannot encode %s", p.Layout)
	}
	if p.Header > HeaderRGTD {
		return b, rangeErr("header", float64(p.Header), "HeaderRGme or HeaderRGTD")
	}
	s := &specs[p.Layout]
	if err := p.check(s); err != nil {
		return b, err
	}
	n := len(b)
	b = slices.Grow(b, s.size)[:n+s.size]
	out := b[n:]
	clear(out)
	copy(out, p.Header.Magic())
	out[offVersion] = s.version
	if s.family == FamilyHL {
		p.encodeHL(out, s)
	} else {
		p.encodeSPL(out, s)
	}
	for t := range p.Teams {
		p.Teams[t].encode(out[s.teamOff(t):], s)
	}
	return b, nil
}

// wireSetPlay returns the wire byte for p.SetPlay (and HL p.GamePhase).
func (p *Packet) wireSetPlay(s *spec) (uint8, bool) {
	for i, w := range s.setPlays {
		if w.play == p.SetPlay && (s.family != FamilyHL || w.phase == p.GamePhase) {
			return uint8(i), true
		}
	}
	return 0, false
}

// check applies the range checks of the decoder to p before encoding.
func (p *Packet) check(s *spec) error {
	if p.State > s.maxState {
		return stateErr(p.State, s)
	}
	if p.GamePhase > maxGamePhase {
		return rangeErr("gamePhase", float64(p.GamePhase), fmt.Sprintf("0..%d in %s", maxGamePhase, s.name))
	}
	if _, ok := p.wireSetPlay(s); !ok {
		if s.family == FamilyHL {
			return rangeErr("setPlay", float64(p.SetPlay), fmt.Sprintf(
				"a set play of %s in game phase normal (secondaryState cannot express %s during %s)", s.name, p.SetPlay, p.GamePhase))
		}
		return rangeErr("setPlay", float64(p.SetPlay), fmt.Sprintf("a set play of %s (it has no %s)", s.name, p.SetPlay))
	}
	const lo, hi = math.MinInt16, math.MaxInt16
	if p.SecsRemaining < lo || p.SecsRemaining > hi {
		return rangeErr("secsRemaining", float64(p.SecsRemaining), fmt.Sprintf("%d..%d in %s", lo, hi, s.name))
	}
	if p.SecondaryTime < lo || p.SecondaryTime > hi {
		return rangeErr("secondaryTime", float64(p.SecondaryTime), fmt.Sprintf("%d..%d in %s", lo, hi, s.name))
	}
	for t := range p.Teams {
		tm := &p.Teams[t]
		if s.team == teamHL && !validPenalty(s, tm.Coach.Penalty) {
			return rangeErr(robotField(t, -1, "penalty"), float64(tm.Coach.Penalty), s.penaltyStr+" in "+s.name)
		}
		for i := range s.players {
			if pen := tm.Players[i].Penalty; !validPenalty(s, pen) {
				return rangeErr(robotField(t, i, "penalty"), float64(pen), s.penaltyStr+" in "+s.name)
			}
		}
	}
	return nil
}

func boolByte(v bool) uint8 {
	if v {
		return 1
	}
	return 0
}

func (p *Packet) encodeHL(b []byte, s *spec) {
	raw, _ := p.wireSetPlay(s)
	b[hlOffPacketNumber] = p.PacketNumber
	b[hlOffPlayersPerTeam] = p.PlayersPerTeam
	b[hlOffGameType] = p.GameType
	b[hlOffState] = uint8(p.State)
	b[hlOffFirstHalf] = boolByte(p.FirstHalf)
	b[hlOffKickOffTeam] = p.KickingTeam
	b[hlOffSecondaryState] = raw
	copy(b[hlOffSecStateInfo:], p.SecondaryStateInfo[:])
	b[hlOffDropInTeam] = p.DropInTeam
	binary.LittleEndian.PutUint16(b[hlOffDropInTime:], uint16(p.DropInTime))
	binary.LittleEndian.PutUint16(b[hlOffSecsRemaining:], uint16(int16(p.SecsRemaining)))
	binary.LittleEndian.PutUint16(b[hlOffSecondaryTime:], uint16(int16(p.SecondaryTime)))
}

func (p *Packet) encodeSPL(b []byte, s *spec) {
	raw, _ := p.wireSetPlay(s)
	b[offPacketNumber] = p.PacketNumber
	b[offPlayersPerTeam] = p.PlayersPerTeam
	if s.family == FamilyHSL {
		b[offCompPhase] = p.CompetitionType
		b[offCompType] = boolByte(p.Stopped)
	} else {
		b[offCompPhase] = p.CompetitionPhase
		b[offCompType] = p.CompetitionType
	}
	b[offGamePhase] = uint8(p.GamePhase)
	b[offState] = uint8(p.State)
	b[offSetPlay] = raw
	b[offFirstHalf] = boolByte(p.FirstHalf)
	b[offKickingTeam] = p.KickingTeam
	binary.LittleEndian.PutUint16(b[offSecsRemaining:], uint16(int16(p.SecsRemaining)))
	binary.LittleEndian.PutUint16(b[offSecondaryTime:], uint16(int16(p.SecondaryTime)))
}

func (t *TeamInfo) encode(b []byte, s *spec) {
	b[0] = t.TeamNumber
	b[1] = uint8(t.FieldPlayerColour)
	switch s.team {
	case teamHL, teamSPL12, teamSPL14:
		b[2] = t.Score
		b[3] = t.PenaltyShot
		binary.LittleEndian.PutUint16(b[4:], t.SingleShots)
		switch s.team {
		case teamHL:
			b[hlTeamOffCoachSeq] = t.CoachSequence
			copy(b[hlTeamOffCoachMsg:], t.CoachMessage[:])
			t.Coach.encode(b[hlTeamOffCoach:], s)
		case teamSPL14:
			binary.LittleEndian.PutUint16(b[6:], t.MessageBudget)
		}
	case teamSPL15:
		b[2] = uint8(t.GoalkeeperColour)
		b[3] = t.Goalkeeper
		b[4] = t.Score
		b[5] = t.PenaltyShot
		binary.LittleEndian.PutUint16(b[6:], t.SingleShots)
		binary.LittleEndian.PutUint16(b[8:], t.MessageBudget)
	}
	for i := range s.players {
		t.Players[i].encode(b[s.playersOff+i*s.robotSize:], s)
	}
}

func (r *RobotInfo) encode(b []byte, s *spec) {
	b[0] = uint8(r.Penalty)
	b[1] = r.SecsTillUnpenalised
	if s.warnOff >= 0 {
		b[s.warnOff] = r.Warnings
	}
	if s.yellowOff >= 0 {
		b[s.yellowOff] = r.YellowCards
	}
	if s.redOff >= 0 {
		b[s.redOff] = r.RedCards
	}
	if s.goalieOff >= 0 {
		b[s.goalieOff] = boolByte(r.Goalkeeper)
	}
}
