package gamecontroller

import (
	"encoding/binary"
	"fmt"
	"strconv"
)

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
//
// The decoder reads every field once at a fixed offset and folds all range checks into
// one flag; only when the flag is set does rangeError walk the packet again, in wire
// order, to name the first field out of range.
func (p *Packet) UnmarshalBinary(b []byte) error {
	// The layouts of the current GameControllers are recognised from length, version
	// and header alone (the checks Classify makes for them) and decoded without
	// Classify's walk over every layout, a sizable share of their decode time.
	switch len(b) {
	case SizeSPL15:
		if v := b[offVersion]; v >= specs[LayoutSPL15].version && v <= specs[LayoutSPL18].version {
			l := LayoutSPL15 + Layout(v-specs[LayoutSPL15].version)
			if kind, ok := headerKind((*[len(MagicControl)]byte)(b)); ok && specs[l].shape == shapeSPL20 {
				return p.decodeSPL20((*[SizeSPL15]byte)(b), kind, l)
			}
		}
	case SizeHSL20:
		if b[offVersion] == specs[LayoutHSL20].version {
			if kind, ok := headerKind((*[len(MagicControl)]byte)(b)); ok && specs[LayoutHSL20].shape == shapeHSL20 {
				return p.decodeHSL20((*[SizeHSL20]byte)(b), kind)
			}
		}
	case SizeHL688:
		if binary.LittleEndian.Uint16(b[offVersion:]) == uint16(specs[LayoutHL688].version) {
			if kind, ok := headerKind((*[len(MagicControl)]byte)(b)); ok && specs[LayoutHL688].shape == shapeHL688 {
				return p.decodeHL688((*[SizeHL688]byte)(b), kind)
			}
		}
	}
	kind, l, err := Classify(b)
	if err != nil {
		*p = Packet{}
		return identifyDetail(b, err)
	}
	// Every other layout, and one whose shape is not that of its decoder above.
	s := &specs[l]
	*p = Packet{}
	p.Header, p.Layout = kind, l
	var bad uint8
	if s.family == FamilyHL {
		bad = p.decodeHL((*[hlOffTeams]byte)(b), s)
	} else {
		bad = p.decodeSPL((*[offTeams]byte)(b), s)
	}
	for t := range p.Teams {
		bad |= p.Teams[t].decode(b[s.teamOff(t):][:s.teamSize], s)
	}
	return p.rangeChecked(bad, s, b)
}

// rangeChecked returns nil when the decoders' flag bad is zero, else zeroes p and
// returns the error rangeError finds in b.
func (p *Packet) rangeChecked(bad uint8, s *spec, b []byte) error {
	if bad != 0 {
		*p = Packet{}
		return s.rangeError(b)
	}
	return nil
}

// decodeSPL20 decodes an SPL v15 … v18 packet of layout l with header kind.
func (p *Packet) decodeSPL20(b *[SizeSPL15]byte, kind HeaderKind, l Layout) error {
	s := &specs[l]
	*p = Packet{} // cleared in place; a literal with fields would be built, then copied
	p.Header, p.Layout = kind, l
	return p.rangeChecked(p.decodeSPL((*[offTeams]byte)(b[:]), s)|p.decodeTeamsSPL20(b, s), s, b[:])
}

// decodeHSL20 decodes an HSL v20 packet with header kind.
func (p *Packet) decodeHSL20(b *[SizeHSL20]byte, kind HeaderKind) error {
	s := &specs[LayoutHSL20]
	*p = Packet{} // the decoders below write what HSL v20 carries
	k := s.byteK
	bad := p.decodeHeadHSL20((*[offTeams]byte)(b[:]), s, kind, LayoutHSL20) |
		failed((decodeTeamHSL20(&p.Teams[0], (*[TeamSizeHSL20]byte)(b[offTeams:]), k)|
			decodeTeamHSL20(&p.Teams[1], (*[TeamSizeHSL20]byte)(b[offTeams+TeamSizeHSL20:]), k))&bytesBit7 != 0)
	return p.rangeChecked(bad, s, b[:])
}

// decodeHL688 decodes an HL 688 B packet with header kind.
func (p *Packet) decodeHL688(b *[SizeHL688]byte, kind HeaderKind) error {
	s := &specs[LayoutHL688]
	p.zeroAbsentHL688() // the decoder writes every other field
	p.Header, p.Layout = kind, LayoutHL688
	return p.rangeChecked(p.decodeHL((*[hlOffTeams]byte)(b[:]), s)|p.decodeTeamsHL688(b, s), s, b[:])
}

func (s *spec) teamOff(t int) int {
	if s.family == FamilyHL {
		return hlOffTeams + t*s.teamSize
	}
	return offTeams + t*s.teamSize
}

// failed is 1 when the range check c fails, for or-ing into a decoder's bad flag.
func failed(c bool) uint8 {
	if c {
		return 1
	}
	return 0
}

// decodeHL reads the HL header and returns nonzero when a checked field is out of range.
// The checked bytes are kept in locals: a check that read them back from p would wait
// for the store.
func (p *Packet) decodeHL(b *[hlOffTeams]byte, s *spec) uint8 {
	state, firstHalf, raw := b[hlOffState], b[hlOffFirstHalf], b[hlOffSecondaryState]
	p.PacketNumber = b[hlOffPacketNumber]
	p.PlayersPerTeam = b[hlOffPlayersPerTeam]
	p.GameType = b[hlOffGameType]
	p.State = State(state)
	p.FirstHalf = firstHalf == 1
	p.KickingTeam = b[hlOffKickOffTeam]
	p.SetPlayRaw = raw
	p.SecondaryStateInfo = [4]uint8(b[hlOffSecStateInfo:])
	p.DropInTeam = b[hlOffDropInTeam]
	p.DropInTime = int16(binary.LittleEndian.Uint16(b[hlOffDropInTime:]))
	p.SecsRemaining = int32(int16(binary.LittleEndian.Uint16(b[hlOffSecsRemaining:])))
	p.SecondaryTime = int32(int16(binary.LittleEndian.Uint16(b[hlOffSecondaryTime:])))
	if int(raw) < len(s.setPlays) {
		w := &s.setPlays[raw]
		p.GamePhase, p.SetPlay = w.phase, w.play
	}
	return failed(State(state) > s.maxState) | firstHalf>>1 | failed(int(raw) >= len(s.setPlays))
}

// decodeSPL reads the SPL or HSL header and returns nonzero when a checked field is out
// of range. The checked bytes are kept in locals, as in decodeHL.
func (p *Packet) decodeSPL(b *[offTeams]byte, s *spec) uint8 {
	// packetNumber, playersPerTeam, competitionPhase/Type, gamePhase, state, setPlay and
	// firstHalf from one word; fields adjacent in Packet are stored as pairs.
	h := binary.LittleEndian.Uint64(b[offPacketNumber:])
	phase, state, raw, firstHalf := uint8(h>>32), uint8(h>>40), uint8(h>>48), uint8(h>>56)
	p.PacketNumber, p.PlayersPerTeam = uint8(h), uint8(h>>8)
	var bad uint8
	if s.family == FamilyHSL {
		stopped := uint8(h >> 24)
		p.CompetitionType = uint8(h >> 16)
		p.Stopped = stopped == 1
		bad = stopped >> 1
	} else {
		p.CompetitionPhase, p.CompetitionType = uint8(h>>16), uint8(h>>24)
	}
	p.State, p.GamePhase = State(state), GamePhase(phase)
	p.SetPlayRaw = raw
	p.FirstHalf = firstHalf == 1
	p.KickingTeam = b[offKickingTeam]
	p.SecsRemaining = int32(int16(binary.LittleEndian.Uint16(b[offSecsRemaining:])))
	p.SecondaryTime = int32(int16(binary.LittleEndian.Uint16(b[offSecondaryTime:])))
	if int(raw) < len(s.setPlays) {
		p.SetPlay = s.setPlays[raw].play
	}
	return bad | firstHalf>>1 | failed(GamePhase(phase) > maxGamePhase) | failed(State(state) > s.maxState) |
		failed(int(raw) >= len(s.setPlays))
}

// decodeHeadHSL20 reads the HSL header, as decodeSPL does, with kind and l. The
// Packet's first eight fields, Header … State, take their bytes from one word, so they
// are stored as one.
func (p *Packet) decodeHeadHSL20(b *[offTeams]byte, s *spec, kind HeaderKind, l Layout) uint8 {
	h := binary.LittleEndian.Uint64(b[offPacketNumber:])
	stopped, phase, state, raw, firstHalf := uint8(h>>24), uint8(h>>32), uint8(h>>40), uint8(h>>48), uint8(h>>56)
	// Header, Layout, PacketNumber, PlayersPerTeam, GameType 0, CompetitionPhase 0,
	// CompetitionType, State.
	w := uint64(kind) | uint64(l)<<8 | (h&0xffff)<<16 | (h&0xff_0000)<<32 | (h&0xff00_0000_0000)<<16
	p.Header, p.Layout, p.PacketNumber, p.PlayersPerTeam = HeaderKind(w), Layout(w>>8), uint8(w>>16), uint8(w>>24)
	p.GameType, p.CompetitionPhase, p.CompetitionType, p.State = uint8(w>>32), uint8(w>>40), uint8(w>>48), State(w>>56)
	// GamePhase, SetPlay, SetPlayRaw: the HSL set plays are their wire values (shapeOf).
	p.GamePhase, p.SetPlay, p.SetPlayRaw = GamePhase(phase), SetPlay(raw), raw
	p.FirstHalf = firstHalf == 1
	p.Stopped = stopped == 1
	p.KickingTeam = b[offKickingTeam]
	p.SecsRemaining = int32(int16(binary.LittleEndian.Uint16(b[offSecsRemaining:])))
	p.SecondaryTime = int32(int16(binary.LittleEndian.Uint16(b[offSecondaryTime:])))
	return stopped>>1 | firstHalf>>1 | failed(GamePhase(phase) > maxGamePhase) | failed(State(state) > s.maxState) |
		failed(int(raw) >= len(s.setPlays))
}

// Team heads: the TeamInfo fields before the coach (HL) or players[] (SPL, HSL).
const (
	teamHeadSize12 = 6  // HL, SPL v12, v13: number, colour, score, penaltyShot, singleShots
	teamHeadSize14 = 8  // SPL v14: … + messageBudget
	teamHeadSize15 = 10 // SPL v15 on, HSL: number, colours, goalkeeper, score, penaltyShot, singleShots, messageBudget
)

func (t *TeamInfo) decodeHead12(h *[teamHeadSize12]byte) {
	t.TeamNumber = h[0]
	t.FieldPlayerColour = TeamColour(h[1])
	t.Score = h[2]
	t.PenaltyShot = h[3]
	t.SingleShots = binary.LittleEndian.Uint16(h[4:])
}

// decodeHead15 reads the head of SPL v15 on and HSL. TeamInfo declares these fields in
// wire order, so the first eight bytes are stored as one word.
func (t *TeamInfo) decodeHead15(h *[teamHeadSize15]byte) {
	w := binary.LittleEndian.Uint64(h[:8])
	t.TeamNumber, t.FieldPlayerColour, t.GoalkeeperColour = uint8(w), TeamColour(w>>8), TeamColour(w>>16)
	t.Goalkeeper, t.Score, t.PenaltyShot = uint8(w>>24), uint8(w>>32), uint8(w>>40)
	t.SingleShots = uint16(w >> 48)
	t.MessageBudget = binary.LittleEndian.Uint16(h[8:])
}

// decodeCoachHL reads the HL coach block: sequence, message and RobotInfo (b starts at
// the coach sequence; the RobotInfo is decoded by the caller).
func (t *TeamInfo) decodeCoachHL(b *[hlTeamOffCoach - hlTeamOffCoachSeq]byte) {
	t.CoachSequence = b[0]
	t.CoachMessage = [CoachMsgSize]uint8(b[1:])
}

// decode reads one TeamInfo of any layout (b is exactly the team's block) from the
// offsets of s and returns nonzero when a penalty or goalkeeper flag is out of range.
func (t *TeamInfo) decode(b []byte, s *spec) uint8 {
	var bad uint8
	switch s.team {
	case teamHL:
		t.decodeHead12((*[teamHeadSize12]byte)(b))
		t.decodeCoachHL((*[hlTeamOffCoach - hlTeamOffCoachSeq]byte)(b[hlTeamOffCoachSeq:]))
		var coach [1]RobotInfo
		bad = decodeRobots(coach[:], b[hlTeamOffCoach:], s)
		t.Coach = coach[0]
	case teamSPL12:
		t.decodeHead12((*[teamHeadSize12]byte)(b))
	case teamSPL14:
		t.decodeHead12((*[teamHeadSize12]byte)(b))
		t.MessageBudget = binary.LittleEndian.Uint16(b[teamHeadSize12:teamHeadSize14])
	case teamSPL15:
		t.decodeHead15((*[teamHeadSize15]byte)(b))
	}
	if s.robotSize == RobotSizeSPL && s.players >= 4 {
		return bad | decodeSPLRobots(t.Players[:s.players], b[s.playersOff:], &s.undefined)
	}
	return bad | decodeRobots(t.Players[:s.players], b[s.playersOff:], s)
}

// decodeRobots reads len(dst) robots of any layout from b, one at a time from the offsets
// of s, and returns nonzero when a penalty or goalkeeper flag is out of range.
func decodeRobots(dst []RobotInfo, b []byte, s *spec) uint8 {
	size, warn, yellow, red, goalie := s.robotSize, s.warnOff, s.yellowOff, s.redOff, s.goalieOff
	undefined := &s.undefined
	var bad uint8
	for i := range dst {
		rb := b[i*size : i*size+size : i*size+size]
		r := &dst[i]
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
	return bad
}

// The layouts of the current GameControllers (SPL v15 … v18, HSL v20, HL 688 B) have
// team decoders of their own below, chosen by spec.shape: fixed offsets into arrays of
// the exact size, so no bound is checked per field, and several robots per round.

// decodeTeamsSPL20 reads both teams of SPL v15 … v18 (b is the packet) and returns
// nonzero when a penalty is undefined, checked four at a time (see penaltyLanes). Each
// robot's two bytes are copied as one 16-bit load and store, cheaper than shifting them
// out of a word; the five words of a team's robots are written out rather than looped
// over, which saves the loop's address arithmetic, and each is used before the next is
// loaded, which keeps the registers free.
func (p *Packet) decodeTeamsSPL20(b *[SizeSPL15]byte, s *spec) uint8 {
	lo, hi := s.lanes.lo, s.lanes.hi
	var or, in, w uint64
	for t := range p.Teams {
		tb := (*[TeamSizeSPL15]byte)(b[offTeams+t*TeamSizeSPL15:])
		tm := &p.Teams[t]
		tm.decodeHead15((*[teamHeadSize15]byte)(tb[:]))
		r := (*[MaxPlayers * RobotSizeSPL]byte)(tb[teamHeadSize15:])
		copySPL4((*[4]RobotInfo)(tm.Players[0:]), (*[8]byte)(r[0:]))
		w = binary.LittleEndian.Uint64(r[0:])
		or, in = or|w, in|inRun(w, lo, hi)
		copySPL4((*[4]RobotInfo)(tm.Players[4:]), (*[8]byte)(r[8:]))
		w = binary.LittleEndian.Uint64(r[8:])
		or, in = or|w, in|inRun(w, lo, hi)
		copySPL4((*[4]RobotInfo)(tm.Players[8:]), (*[8]byte)(r[16:]))
		w = binary.LittleEndian.Uint64(r[16:])
		or, in = or|w, in|inRun(w, lo, hi)
		copySPL4((*[4]RobotInfo)(tm.Players[12:]), (*[8]byte)(r[24:]))
		w = binary.LittleEndian.Uint64(r[24:])
		or, in = or|w, in|inRun(w, lo, hi)
		copySPL4((*[4]RobotInfo)(tm.Players[16:]), (*[8]byte)(r[32:]))
		w = binary.LittleEndian.Uint64(r[32:])
		or, in = or|w, in|inRun(w, lo, hi)
	}
	return failed(or&laneHigh != 0 || in&laneBit7 != 0)
}

// inRun returns w's lanes with bit 7 set where the penalty's low nibble is in the run of
// undefined codes (lo and hi as in penaltyLanes).
func inRun(w, lo, hi uint64) uint64 {
	n := w & laneNibble
	return (n + lo) ^ (n + hi)
}

// copySPL4 copies penalty and secsTillUnpenalised of four SPL robots.
func copySPL4(p *[4]RobotInfo, g *[4 * RobotSizeSPL]byte) {
	p[0].Penalty, p[0].SecsTillUnpenalised = Penalty(g[0]), g[1]
	p[1].Penalty, p[1].SecsTillUnpenalised = Penalty(g[2]), g[3]
	p[2].Penalty, p[2].SecsTillUnpenalised = Penalty(g[4]), g[5]
	p[3].Penalty, p[3].SecsTillUnpenalised = Penalty(g[6]), g[7]
}

// decodeSPLRobots reads the SPL robots of a team with 4 or more (SPL v12 … v14 have 6 or
// 7), four from each 8-byte word, and returns nonzero when a penalty is undefined. When
// the number is not a multiple of four, the last word overlaps the one before and
// rewrites the same values.
func decodeSPLRobots(dst []RobotInfo, b []byte, undefined *[256]uint8) uint8 {
	n := len(dst)
	b = b[:n*RobotSizeSPL]
	var bad uint8
	for i := 0; i < n; i += 4 {
		i = min(i, n-4)
		w := binary.LittleEndian.Uint64(b[i*RobotSizeSPL : i*RobotSizeSPL+8])
		putSPL4((*[4]RobotInfo)(dst[i:i+4]), w)
		bad |= checkSPL4(w, undefined)
	}
	return bad
}

// putSPL4 stores four SPL robots (penalty, secsTillUnpenalised) from one word.
func putSPL4(r *[4]RobotInfo, w uint64) {
	r[0].Penalty, r[0].SecsTillUnpenalised = Penalty(w), uint8(w>>8)
	r[1].Penalty, r[1].SecsTillUnpenalised = Penalty(w>>16), uint8(w>>24)
	r[2].Penalty, r[2].SecsTillUnpenalised = Penalty(w>>32), uint8(w>>40)
	r[3].Penalty, r[3].SecsTillUnpenalised = Penalty(w>>48), uint8(w>>56)
}

// checkSPL4 returns nonzero when a penalty of the four SPL robots in w is undefined.
func checkSPL4(w uint64, undefined *[256]uint8) uint8 {
	return undefined[uint8(w)] | undefined[uint8(w>>16)] | undefined[uint8(w>>32)] | undefined[uint8(w>>48)]
}

// decodeTeamHSL20 reads one HSL v20 team (tb is its block) and returns byteCheck of its
// penalties (k as in byteCheck). The robots are written out rather than looped over, as
// in decodeTeamsSPL20, one 32-bit store each (putHSL20). The penalties, 3 bytes apart,
// lie in different bytes of three consecutive words, so hslPenalties8 gathers eight of
// them into one word for one byteCheck. A function per team rather than a loop over
// both: the offsets into p are constants.
func decodeTeamHSL20(tm *TeamInfo, tb *[TeamSizeHSL20]byte, k uint64) uint64 {
	tm.decodeHead15((*[teamHeadSize15]byte)(tb[:]))
	r := (*[MaxPlayers * RobotSizeHSL20]byte)(tb[teamHeadSize15:])
	tm.Players[0].putHSL20(binary.LittleEndian.Uint16(r[0:]), r[2])
	tm.Players[1].putHSL20(binary.LittleEndian.Uint16(r[3:]), r[5])
	tm.Players[2].putHSL20(binary.LittleEndian.Uint16(r[6:]), r[8])
	tm.Players[3].putHSL20(binary.LittleEndian.Uint16(r[9:]), r[11])
	tm.Players[4].putHSL20(binary.LittleEndian.Uint16(r[12:]), r[14])
	tm.Players[5].putHSL20(binary.LittleEndian.Uint16(r[15:]), r[17])
	tm.Players[6].putHSL20(binary.LittleEndian.Uint16(r[18:]), r[20])
	tm.Players[7].putHSL20(binary.LittleEndian.Uint16(r[21:]), r[23])
	tm.Players[8].putHSL20(binary.LittleEndian.Uint16(r[24:]), r[26])
	tm.Players[9].putHSL20(binary.LittleEndian.Uint16(r[27:]), r[29])
	tm.Players[10].putHSL20(binary.LittleEndian.Uint16(r[30:]), r[32])
	tm.Players[11].putHSL20(binary.LittleEndian.Uint16(r[33:]), r[35])
	tm.Players[12].putHSL20(binary.LittleEndian.Uint16(r[36:]), r[38])
	tm.Players[13].putHSL20(binary.LittleEndian.Uint16(r[39:]), r[41])
	tm.Players[14].putHSL20(binary.LittleEndian.Uint16(r[42:]), r[44])
	tm.Players[15].putHSL20(binary.LittleEndian.Uint16(r[45:]), r[47])
	tm.Players[16].putHSL20(binary.LittleEndian.Uint16(r[48:]), r[50])
	tm.Players[17].putHSL20(binary.LittleEndian.Uint16(r[51:]), r[53])
	tm.Players[18].putHSL20(binary.LittleEndian.Uint16(r[54:]), r[56])
	tm.Players[19].putHSL20(binary.LittleEndian.Uint16(r[57:]), r[59])
	return byteCheck(hslPenalties8((*[24]byte)(r[0:])), k) | byteCheck(hslPenalties8((*[24]byte)(r[24:])), k) |
		byteCheck(hslPenalties4((*[12]byte)(r[48:])), k)
}

// putHSL20 stores an HSL v20 robot into a zeroed RobotInfo: ps holds penalty and
// secsTillUnpenalised in wire order. Penalty, SecsTillUnpenalised, Warnings and
// YellowCards are adjacent in RobotInfo, so they are built as one word, with the
// warnings HSL v20 lacks zero, and stored as one: fewer stores than one per field, and
// fewer instructions than taking the robot out of a word of the packet. The caller loads
// cautions, so that load rather than a no-op marks the inlined call.
func (r *RobotInfo) putHSL20(ps uint16, cautions uint8) {
	w := uint32(ps) | uint32(cautions)<<24
	r.Penalty, r.SecsTillUnpenalised, r.Warnings, r.YellowCards = Penalty(w), uint8(w>>8), uint8(w>>16), uint8(w>>24)
}

const (
	bytes1    = 0x0101_0101_0101_0101 // one in every byte
	bytesBit7 = 0x80 * bytes1         // bit 7 of every byte
)

// byteCheck returns w with bit 7 set in some byte when a byte of w, a penalty, is
// undefined: from n on (spec.undefinedFrom), with k = 0x80-n in every byte (spec.byteK).
// A code from 128 on has bit 7 set itself; below 128, code+0x80-n has it exactly when
// the code is n or more. A carry out of a byte happens only for an undefined code, so it
// can only add to a flag that is already set.
func byteCheck(w, k uint64) uint64 { return (w + k) | w }

// hslPenalties8 returns the penalties of eight HSL v20 robots g, one per byte: robot i's
// penalty is byte 3i, and the penalties in the words at 0, 8 and 16 lie in bytes 0, 3, 6;
// 1, 4, 7 and 2, 5 of their word.
func hslPenalties8(g *[8 * RobotSizeHSL20]byte) uint64 {
	return binary.LittleEndian.Uint64(g[0:])&0x00ff_0000_ff00_00ff |
		binary.LittleEndian.Uint64(g[8:])&0xff00_00ff_0000_ff00 |
		binary.LittleEndian.Uint64(g[16:])&0x0000_ff00_00ff_0000
}

// hslPenalties4 returns the penalties of four HSL v20 robots g in bytes 0, 3, 6 and 5 of
// a word: bytes 0, 3, 6 of g's first word and byte 5 of its last.
func hslPenalties4(g *[4 * RobotSizeHSL20]byte) uint64 {
	return binary.LittleEndian.Uint64(g[0:])&0x00ff_0000_ff00_00ff |
		binary.LittleEndian.Uint64(g[4:])&0x0000_ff00_0000_0000
}

// zeroAbsentHL688 zeroes the fields HL 688 B does not carry; decodeHL (when it returns
// zero) and decodeTeamsHL688 write all the others, so the Packet is not cleared first:
// that would write the two coach messages twice.
func (p *Packet) zeroAbsentHL688() {
	p.CompetitionPhase = 0
	p.CompetitionType = 0
	p.Stopped = false
	for t := range p.Teams {
		tm := &p.Teams[t]
		tm.MessageBudget = 0
		*(*[MaxPlayers - MaxPlayersHL]RobotInfo)(tm.Players[MaxPlayersHL:]) = [MaxPlayers - MaxPlayersHL]RobotInfo{}
	}
}

// decodeTeamsHL688 reads both teams of HL v12 688 B (b is the packet): every field of
// TeamInfo but messageBudget and players 12 … 20 (see zeroAbsentHL688). The coach and
// the 11 players are written out, as the SPL robots are, rather than looped over.
func (p *Packet) decodeTeamsHL688(b *[SizeHL688]byte, s *spec) uint8 {
	var bad uint8
	for t := range p.Teams {
		tb := (*[TeamSizeHL688]byte)(b[hlOffTeams+t*TeamSizeHL688:])
		tm := &p.Teams[t]
		tm.decodeHeadHL688((*[teamHeadSize12]byte)(tb[:]))
		tm.decodeCoachHL((*[hlTeamOffCoach - hlTeamOffCoachSeq]byte)(tb[hlTeamOffCoachSeq:]))
		robots := (*[(1 + MaxPlayersHL) * RobotSizeHL688]byte)(tb[hlTeamOffCoach:])
		u := &s.undefined
		bad |= tm.Coach.decodeHL688((*[RobotSizeHL688]byte)(robots[:]), u) |
			tm.Players[0].decodeHL688((*[RobotSizeHL688]byte)(robots[6:]), u) |
			tm.Players[1].decodeHL688((*[RobotSizeHL688]byte)(robots[12:]), u) |
			tm.Players[2].decodeHL688((*[RobotSizeHL688]byte)(robots[18:]), u) |
			tm.Players[3].decodeHL688((*[RobotSizeHL688]byte)(robots[24:]), u) |
			tm.Players[4].decodeHL688((*[RobotSizeHL688]byte)(robots[30:]), u) |
			tm.Players[5].decodeHL688((*[RobotSizeHL688]byte)(robots[36:]), u) |
			tm.Players[6].decodeHL688((*[RobotSizeHL688]byte)(robots[42:]), u) |
			tm.Players[7].decodeHL688((*[RobotSizeHL688]byte)(robots[48:]), u) |
			tm.Players[8].decodeHL688((*[RobotSizeHL688]byte)(robots[54:]), u) |
			tm.Players[9].decodeHL688((*[RobotSizeHL688]byte)(robots[60:]), u) |
			tm.Players[10].decodeHL688((*[RobotSizeHL688]byte)(robots[66:]), u)
	}
	return bad
}

// decodeHeadHL688 reads the HL team head (decodeHead12) and zeroes the goalkeeper colour
// and number HL lacks, all eight bytes stored as one word.
func (t *TeamInfo) decodeHeadHL688(h *[teamHeadSize12]byte) {
	w := uint64(h[0]) | uint64(h[1])<<8 | uint64(binary.LittleEndian.Uint32(h[2:]))<<32
	t.TeamNumber, t.FieldPlayerColour, t.GoalkeeperColour = uint8(w), TeamColour(w>>8), TeamColour(w>>16)
	t.Goalkeeper, t.Score, t.PenaltyShot = uint8(w>>24), uint8(w>>32), uint8(w>>40)
	t.SingleShots = uint16(w >> 48)
}

// decodeHL688 reads one 6-byte HL RobotInfo (penalty, secsTillUnpenalised,
// numberOfWarnings, yellowCardCount, redCardCount, goalKeeper) and returns nonzero when
// the penalty is undefined or the goalkeeper flag is neither 0 nor 1.
func (r *RobotInfo) decodeHL688(b *[RobotSizeHL688]byte, undefined *[256]uint8) uint8 {
	w := binary.LittleEndian.Uint32(b[:])
	r.Penalty, r.SecsTillUnpenalised, r.Warnings, r.YellowCards = Penalty(w), uint8(w>>8), uint8(w>>16), uint8(w>>24)
	r.RedCards, r.Goalkeeper = b[4], b[5] == 1
	return undefined[uint8(w)] | b[5]>>1
}

// rangeError returns the error for the first field of b, in wire order, that is out of
// range. UnmarshalBinary calls it only after its flag said that there is one; that the
// two agree on every field is what TestDecodeMatchesReference checks.
func (s *spec) rangeError(b []byte) error {
	if s.family == FamilyHL {
		if st := State(b[hlOffState]); st > s.maxState {
			return stateErr(st, s)
		}
		if v := b[hlOffFirstHalf]; v > 1 {
			return boolErr("firstHalf", v, s)
		}
		if v := b[hlOffSecondaryState]; int(v) >= len(s.setPlays) {
			return rangeErr("secondaryState", float64(v), fmt.Sprintf("0..%d in %s", len(s.setPlays)-1, s.name))
		}
	} else {
		if v := b[offCompType]; s.family == FamilyHSL && v > 1 {
			return boolErr("stopped", v, s)
		}
		if v := GamePhase(b[offGamePhase]); v > maxGamePhase {
			return rangeErr("gamePhase", float64(v), fmt.Sprintf("0..%d in %s", maxGamePhase, s.name))
		}
		if st := State(b[offState]); st > s.maxState {
			return stateErr(st, s)
		}
		if v := b[offSetPlay]; int(v) >= len(s.setPlays) {
			return rangeErr("setPlay", float64(v), fmt.Sprintf("0..%d in %s", len(s.setPlays)-1, s.name))
		}
		if v := b[offFirstHalf]; v > 1 {
			return boolErr("firstHalf", v, s)
		}
	}
	for t := range 2 {
		tb := b[s.teamOff(t):]
		if s.team == teamHL {
			if err := s.robotError(tb[hlTeamOffCoach:], t, -1); err != nil {
				return err
			}
		}
		for i := range s.players {
			if err := s.robotError(tb[s.playersOff+i*s.robotSize:], t, i); err != nil {
				return err
			}
		}
	}
	return nil
}

// robotError checks one RobotInfo; i is the player index, -1 for the HL coach.
func (s *spec) robotError(b []byte, ti, i int) error {
	if !validPenalty(s, Penalty(b[0])) {
		return rangeErr(robotField(ti, i, "penalty"), float64(b[0]), s.penaltyStr+" in "+s.name)
	}
	if s.goalieOff >= 0 && b[s.goalieOff] > 1 {
		name := "goalKeeper"
		if s.robotSize == RobotSizeHL664 {
			name = "isGoalie"
		}
		return rangeErr(robotField(ti, i, name), float64(b[s.goalieOff]), "0 or 1 in "+s.name)
	}
	return nil
}

// validPenalty reports whether the layout defines p, from a byte table rather than the
// name table.
func validPenalty(s *spec, p Penalty) bool { return s.undefined[p] == 0 }

func robotField(ti, i int, name string) string {
	if i < 0 {
		return "teams[" + strconv.Itoa(ti) + "].coach." + name
	}
	return "teams[" + strconv.Itoa(ti) + "].players[" + strconv.Itoa(i) + "]." + name
}

func boolErr(field string, v uint8, s *spec) error {
	return rangeErr(field, float64(v), "0 or 1 in "+s.name)
}

func stateErr(st State, s *spec) error {
	return rangeErr("state", float64(st), fmt.Sprintf("0..%d in %s", s.maxState, s.name))
}
