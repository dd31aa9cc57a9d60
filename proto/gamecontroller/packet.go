package gamecontroller

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strconv"
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

// Decode decodes b into p; see UnmarshalBinary.
func Decode(b []byte, p *Packet) error { return p.UnmarshalBinary(b) }

// UnmarshalBinary decodes a control packet of any layout. The layout is recognised from
// header, version and length (see Identify); then the range-checked fields are checked:
//
//   - state: 0..4, plus 5 in SPL v17/v18;
//   - gamePhase (SPL, HSL): 0..3;
//   - setPlay / secondaryState: the values the layout defines (HL 0..9, SPL v12 0..4,
//     SPL v13+ 0..5, HSL 0..6);
//   - every penalty (HL also the coach's): the codes the layout defines;
//   - firstHalf, HSL stopped and the HL goalkeeper flag: 0 or 1.
//
// All other fields (team numbers, colours, competition phase/type, game type, times,
// counters, kicking team, secondaryStateInfo) are passed through unchecked.
// Decoding into a reused Packet does not allocate. On error p is zeroed.
func (p *Packet) UnmarshalBinary(b []byte) error {
	kind, l, err := Identify(b)
	if err != nil {
		*p = Packet{}
		return err
	}
	*p = Packet{} // cleared in place; a literal with fields would be built, then copied
	p.Header, p.Layout = kind, l
	s := &specs[l]
	if s.family == FamilyHL {
		err = p.decodeHL(b, s)
	} else {
		err = p.decodeSPL(b, s)
	}
	if err == nil {
		for t := range p.Teams {
			if err = p.Teams[t].decode(b[s.teamOff(t):], s, t); err != nil {
				break
			}
		}
	}
	if err != nil {
		*p = Packet{}
	}
	return err
}

func (s *spec) teamOff(t int) int {
	if s.family == FamilyHL {
		return hlOffTeams + t*s.teamSize
	}
	return offTeams + t*s.teamSize
}

func (p *Packet) decodeHL(b []byte, s *spec) error {
	p.PacketNumber = b[hlOffPacketNumber]
	p.PlayersPerTeam = b[hlOffPlayersPerTeam]
	p.GameType = b[hlOffGameType]
	p.State = State(b[hlOffState])
	p.KickingTeam = b[hlOffKickOffTeam]
	p.SetPlayRaw = b[hlOffSecondaryState]
	copy(p.SecondaryStateInfo[:], b[hlOffSecStateInfo:])
	p.DropInTeam = b[hlOffDropInTeam]
	p.DropInTime = int16(binary.LittleEndian.Uint16(b[hlOffDropInTime:]))
	p.SecsRemaining = int32(int16(binary.LittleEndian.Uint16(b[hlOffSecsRemaining:])))
	p.SecondaryTime = int32(int16(binary.LittleEndian.Uint16(b[hlOffSecondaryTime:])))
	if p.State > s.maxState {
		return stateErr(p.State, s)
	}
	var err error
	if p.FirstHalf, err = boolFlag(b[hlOffFirstHalf], "firstHalf", s); err != nil {
		return err
	}
	if int(p.SetPlayRaw) >= len(s.setPlays) {
		return rangeErr("secondaryState", float64(p.SetPlayRaw), fmt.Sprintf("0..%d in %s", len(s.setPlays)-1, s.name))
	}
	w := s.setPlays[p.SetPlayRaw]
	p.GamePhase, p.SetPlay = w.phase, w.play
	return nil
}

func (p *Packet) decodeSPL(b []byte, s *spec) error {
	p.PacketNumber = b[offPacketNumber]
	p.PlayersPerTeam = b[offPlayersPerTeam]
	var err error
	if s.family == FamilyHSL {
		p.CompetitionType = b[offCompPhase]
		if p.Stopped, err = boolFlag(b[offCompType], "stopped", s); err != nil {
			return err
		}
	} else {
		p.CompetitionPhase = b[offCompPhase]
		p.CompetitionType = b[offCompType]
	}
	p.GamePhase = GamePhase(b[offGamePhase])
	p.State = State(b[offState])
	p.SetPlayRaw = b[offSetPlay]
	p.KickingTeam = b[offKickingTeam]
	p.SecsRemaining = int32(int16(binary.LittleEndian.Uint16(b[offSecsRemaining:])))
	p.SecondaryTime = int32(int16(binary.LittleEndian.Uint16(b[offSecondaryTime:])))
	if p.GamePhase > maxGamePhase {
		return rangeErr("gamePhase", float64(p.GamePhase), fmt.Sprintf("0..%d in %s", maxGamePhase, s.name))
	}
	if p.State > s.maxState {
		return stateErr(p.State, s)
	}
	if int(p.SetPlayRaw) >= len(s.setPlays) {
		return rangeErr("setPlay", float64(p.SetPlayRaw), fmt.Sprintf("0..%d in %s", len(s.setPlays)-1, s.name))
	}
	p.SetPlay = s.setPlays[p.SetPlayRaw].play
	p.FirstHalf, err = boolFlag(b[offFirstHalf], "firstHalf", s)
	return err
}

func (t *TeamInfo) decode(b []byte, s *spec, ti int) error {
	t.TeamNumber = b[0]
	t.FieldPlayerColour = TeamColour(b[1])
	switch s.team {
	case teamHL, teamSPL12, teamSPL14:
		t.Score = b[2]
		t.PenaltyShot = b[3]
		t.SingleShots = binary.LittleEndian.Uint16(b[4:])
		switch s.team {
		case teamHL:
			t.CoachSequence = b[hlTeamOffCoachSeq]
			copy(t.CoachMessage[:], b[hlTeamOffCoachMsg:])
			if err := t.Coach.decode(b[hlTeamOffCoach:], s, ti, -1); err != nil {
				return err
			}
		case teamSPL14:
			t.MessageBudget = binary.LittleEndian.Uint16(b[6:])
		}
	case teamSPL15:
		t.GoalkeeperColour = TeamColour(b[2])
		t.Goalkeeper = b[3]
		t.Score = b[4]
		t.PenaltyShot = b[5]
		t.SingleShots = binary.LittleEndian.Uint16(b[6:])
		t.MessageBudget = binary.LittleEndian.Uint16(b[8:])
	}
	if t.decodePlayers(b[s.playersOff:s.playersOff+s.players*s.robotSize], s) {
		return nil
	}
	// Some value is out of range: find the first one, in wire order, for the error.
	for i := range s.players {
		if err := t.Players[i].decode(b[s.playersOff+i*s.robotSize:], s, ti, i); err != nil {
			return err
		}
	}
	return nil
}

// decodePlayers reads the players from b (exactly s.players robots) and reports whether
// every penalty and goalkeeper flag is in range. It is the hot loop of the decoder: one
// pass, range checks folded into one flag instead of a branch per robot.
func (t *TeamInfo) decodePlayers(b []byte, s *spec) bool {
	undefined := &s.undefined
	var bad uint8
	if s.robotSize == RobotSizeSPL {
		players := t.Players[:len(b)/RobotSizeSPL]
		for i := range players {
			rb := b[2*i : 2*i+2 : 2*i+2]
			pen := rb[0]
			players[i].Penalty, players[i].SecsTillUnpenalised = Penalty(pen), rb[1]
			bad |= undefined[pen]
		}
		return bad == 0
	}
	switch s.robotFormat {
	case robotHSL20: // penalty, secsTillUnpenalised, cautions
		players := t.Players[:len(b)/RobotSizeHSL20]
		for i := range players {
			rb := b[3*i : 3*i+3 : 3*i+3]
			pen := rb[0]
			players[i].Penalty, players[i].SecsTillUnpenalised, players[i].YellowCards = Penalty(pen), rb[1], rb[2]
			bad |= undefined[pen]
		}
		return bad == 0
	case robotHL688: // penalty, secsTillUnpenalised, warnings, yellow, red, goalKeeper
		players := t.Players[:len(b)/RobotSizeHL688]
		for i := range players {
			rb := b[6*i : 6*i+6 : 6*i+6]
			r := &players[i]
			pen := rb[0]
			r.Penalty, r.SecsTillUnpenalised = Penalty(pen), rb[1]
			r.Warnings, r.YellowCards, r.RedCards, r.Goalkeeper = rb[2], rb[3], rb[4], rb[5] == 1
			bad |= undefined[pen] | rb[5]>>1
		}
		return bad == 0
	}
	size := s.robotSize
	warn, yellow, red, goalie := s.warnOff, s.yellowOff, s.redOff, s.goalieOff
	players := t.Players[:len(b)/size]
	for i := range players {
		rb := b[i*size : i*size+size : i*size+size]
		r := &players[i]
		pen := rb[0]
		r.Penalty, r.SecsTillUnpenalised = Penalty(pen), rb[1]
		bad |= undefined[pen]
		if warn >= 0 {
			r.Warnings = rb[warn]
		}
		if yellow >= 0 {
			r.YellowCards = rb[yellow]
		}
		if red >= 0 {
			r.RedCards = rb[red]
		}
		if goalie >= 0 {
			g := rb[goalie]
			r.Goalkeeper = g == 1
			bad |= g >> 1 // 0 or 1 only, as bool bytes
		}
	}
	return bad == 0
}

// decode reads one RobotInfo; i is the player index, -1 for the HL coach.
func (r *RobotInfo) decode(b []byte, s *spec, ti, i int) error {
	r.Penalty = Penalty(b[0])
	r.SecsTillUnpenalised = b[1]
	if s.warnOff >= 0 {
		r.Warnings = b[s.warnOff]
	}
	if s.yellowOff >= 0 {
		r.YellowCards = b[s.yellowOff]
	}
	if s.redOff >= 0 {
		r.RedCards = b[s.redOff]
	}
	if !validPenalty(s, r.Penalty) {
		return rangeErr(robotField(ti, i, "penalty"), float64(r.Penalty), s.penaltyStr+" in "+s.name)
	}
	if s.goalieOff >= 0 {
		switch b[s.goalieOff] {
		case 0:
		case 1:
			r.Goalkeeper = true
		default:
			name := "goalKeeper"
			if s.robotSize == RobotSizeHL664 {
				name = "isGoalie"
			}
			return rangeErr(robotField(ti, i, name), float64(b[s.goalieOff]), "0 or 1 in "+s.name)
		}
	}
	return nil
}

// validPenalty reports whether the layout defines p, from a byte table rather than the
// name table: it runs for every robot of every packet.
func validPenalty(s *spec, p Penalty) bool { return s.undefined[p] == 0 }

func robotField(ti, i int, name string) string {
	if i < 0 {
		return "teams[" + strconv.Itoa(ti) + "].coach." + name
	}
	return "teams[" + strconv.Itoa(ti) + "].players[" + strconv.Itoa(i) + "]." + name
}

func boolFlag(v uint8, field string, s *spec) (bool, error) {
	switch v {
	case 0:
		return false, nil
	case 1:
		return true, nil
	}
	return false, rangeErr(field, float64(v), "0 or 1 in "+s.name)
}

func stateErr(st State, s *spec) error {
	return rangeErr("state", float64(st), fmt.Sprintf("0..%d in %s", s.maxState, s.name))
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
