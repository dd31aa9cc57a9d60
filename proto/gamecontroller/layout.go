package gamecontroller

import "fmt"

// Packet magics.
const (
	MagicControl = "RGme" // control packets to the robots (GAMECONTROLLER_STRUCT_HEADER)
	MagicMonitor = "RGTD" // the same struct sent to monitor applications
	MagicReturn  = "RGrt" // return (status) packets from the robots
)

// Sizes of every RoboCupGameControlData layout, sizeof(struct RoboCupGameControlData) of
// the respective header (no layout has padding).
const (
	SizeHL640 = 640 // HL v12 with 4-byte RobotInfo (2017-06 … 2021-04-26)
	SizeHL664 = 664 // HL v12 with 5-byte RobotInfo (2021-04-27 … 2021-04-28)
	SizeHL688 = 688 // HL v12 with 6-byte RobotInfo (2021-04-29 on)
	SizeSPL12 = 54  // SPL v12 (2019)
	SizeSPL13 = 54  // SPL v13 (2019-12 … 2021)
	SizeSPL14 = 62  // SPL v14 (2021-11 … 2022)
	SizeSPL15 = 118 // SPL v15 (2023)
	SizeSPL16 = 118 // SPL v16 (2024-03)
	SizeSPL17 = 118 // SPL v17 (2024-05)
	SizeSPL18 = 118 // SPL v18 (2024-06 on)
	SizeHSL19 = 198 // HSL v19 (2026-03)
	SizeHSL20 = 158 // HSL v20 (2026-05 on)

	// MaxSize is the largest control packet; a receive buffer of MaxSize+1 bytes detects
	// oversize datagrams.
	MaxSize = SizeHL688
)

// Sizes of the team and robot blocks inside the control packets.
const (
	TeamSizeHL640  = 308 // 8 + 253-byte coach message … + (1+11) × 4
	TeamSizeHL664  = 320
	TeamSizeHL688  = 332
	TeamSizeSPL12  = 18 // v12 and v13: 6-byte head + 6 × 2
	TeamSizeSPL14  = 22 // 8-byte head + 7 × 2
	TeamSizeSPL15  = 50 // v15 … v18: 10-byte head + 20 × 2
	TeamSizeHSL19  = 90 // 10-byte head + 20 × 4
	TeamSizeHSL20  = 70 // 10-byte head + 20 × 3
	CoachMsgSize   = 253
	RobotSizeHL640 = 4
	RobotSizeHL664 = 5
	RobotSizeHL688 = 6
	RobotSizeSPL   = 2
	RobotSizeHSL19 = 4
	RobotSizeHSL20 = 3
)

// Numbers of players per team (MAX_NUM_PLAYERS) of the layouts.
const (
	MaxPlayersHL    = 11
	MaxPlayersSPL12 = 6 // v12, v13
	MaxPlayersSPL14 = 7
	MaxPlayers      = 20 // v15 … v18 and HSL; also the size of TeamInfo.Players
)

// Byte offsets shared by the layouts.
const (
	offVersion = 4

	// HL v12 (uint16 version).
	hlOffPacketNumber   = 6
	hlOffPlayersPerTeam = 7
	hlOffGameType       = 8
	hlOffState          = 9
	hlOffFirstHalf      = 10
	hlOffKickOffTeam    = 11
	hlOffSecondaryState = 12
	hlOffSecStateInfo   = 13
	hlOffDropInTeam     = 17
	hlOffDropInTime     = 18
	hlOffSecsRemaining  = 20
	hlOffSecondaryTime  = 22
	hlOffTeams          = 24
	hlTeamOffCoachSeq   = 6
	hlTeamOffCoachMsg   = 7
	hlTeamOffCoach      = 260

	// SPL and HSL (uint8 version); HSL uses bytes 7 and 8 differently.
	offPacketNumber   = 5
	offPlayersPerTeam = 6
	offCompPhase      = 7 // SPL competitionPhase, HSL competitionType
	offCompType       = 8 // SPL competitionType, HSL stopped
	offGamePhase      = 9
	offState          = 10
	offSetPlay        = 11
	offFirstHalf      = 12
	offKickingTeam    = 13
	offSecsRemaining  = 14
	offSecondaryTime  = 16
	offTeams          = 18
)

// Family is a GameController lineage; it fixes the header fields.
type Family uint8

// Families.
const (
	FamilyHL  Family = iota + 1 // Humanoid League, uint16 version 12
	FamilySPL                   // Standard Platform League v12 … v18
	FamilyHSL                   // Humanoid Soccer League v19, v20
)

func (f Family) String() string {
	switch f {
	case FamilyHL:
		return "hl"
	case FamilySPL:
		return "spl"
	case FamilyHSL:
		return "hsl"
	}
	return fmt.Sprintf("family(%d)", uint8(f))
}

// Layout is one wire format of RoboCupGameControlData: a (version, size) pair.
type Layout uint8

// Layouts. The zero value is not a layout.
const (
	LayoutInvalid Layout = iota
	LayoutHL640
	LayoutHL664
	LayoutHL688
	LayoutSPL12
	LayoutSPL13
	LayoutSPL14
	LayoutSPL15
	LayoutSPL16
	LayoutSPL17
	LayoutSPL18
	LayoutHSL19
	LayoutHSL20
	numLayouts
)

// teamFormat is the shape of the TeamInfo head.
type teamFormat uint8

const (
	teamHL    teamFormat = iota // number, colour, score, penaltyShot, singleShots, coach…
	teamSPL12                   // number, colour, score, penaltyShot, singleShots
	teamSPL14                   // … + messageBudget
	teamSPL15                   // number, fieldPlayerColour, goalkeeperColour, goalkeeper, score, penaltyShot, singleShots, messageBudget
)

// spec describes one layout.
type spec struct {
	name       string
	family     Family
	version    uint8
	size       int
	team       teamFormat
	teamSize   int
	playersOff int // offset of players[] inside TeamInfo
	robotSize  int
	players    int // MAX_NUM_PLAYERS
	// Offsets of the optional RobotInfo members; -1 when absent.
	warnOff, yellowOff, redOff, goalieOff int

	maxState   State
	setPlays   []wireSetPlay // indexed by the wire value
	penalties  []string      // names indexed by the wire value; "" = undefined
	penaltyStr string        // accepted penalty values for messages
	undefined  [256]uint8    // 1 where penalties[p] == "" (filled by init from penalties)
	// lanes checks four penalties of a word at once (SPL v15 … v18; init).
	lanes penaltyLanes
	// undefinedFrom is n when exactly the penalties n … 255 are undefined, 1 <= n <= 128
	// (HSL v20: 14), else 0 (init). byteCheck uses it.
	undefinedFrom uint8
	// byteK is 0x80-undefinedFrom in every byte, the k of byteCheck (init).
	byteK uint64
	// shape selects a decoder with the offsets of the layout built in (init).
	shape shape
}

// penaltyLanes checks the penalty bytes of four 16-bit lanes of a word at once (penalty
// in the low byte of a lane), for the layouts whose undefined penalties are 16 … 255 and
// one run lo … hi-1 below 16, as SPL v15 (11 … 13) and v16 … v18 (12, 13), whose robots
// are such lanes. The lanes ORed over all words show a code from 16 on in a high
// nibble; the low nibble n of a lane plus 0x80-lo has bit 7 set when n >= lo, plus
// 0x80-hi when n >= hi, so the XOR of the two sums has bit 7 set exactly when
// lo <= n < hi.
type penaltyLanes struct {
	ok     bool   // the layout's undefined penalties have that form
	lo, hi uint64 // 0x80-lo and 0x80-hi in every lane
}

const (
	lane1      = 0x0001_0001_0001_0001 // one in every 16-bit lane
	laneNibble = 0x000f * lane1        // low nibble of a lane's penalty byte
	laneHigh   = 0x00f0 * lane1        // high nibble of a lane's penalty byte
	laneBit7   = 0x0080 * lane1        // bit 7 of a lane's penalty byte
)

// lanesOf returns the penaltyLanes of the undefined table u, not ok when u lacks the form.
func lanesOf(u *[256]uint8) penaltyLanes {
	lo, hi := 16, 16 // the run from the first to the last undefined code below 16
	for p := 15; p >= 0; p-- {
		if u[p] == 1 {
			if lo == 16 {
				hi = p + 1
			}
			lo = p
		}
	}
	for p := range u {
		if (u[p] == 1) != (p >= 16 || (p >= lo && p < hi)) {
			return penaltyLanes{}
		}
	}
	return penaltyLanes{ok: true, lo: uint64(0x80-lo) * lane1, hi: uint64(0x80-hi) * lane1}
}

// undefinedFromOf returns n when exactly the codes n … 255 of the undefined table u are
// undefined and 1 <= n <= 128, else 0.
func undefinedFromOf(u *[256]uint8) uint8 {
	n := 0
	for n < 256 && u[n] == 0 {
		n++
	}
	for p := n; p < 256; p++ {
		if u[p] == 0 {
			return 0
		}
	}
	if n < 1 || n > 128 {
		return 0
	}
	return uint8(n)
}

// setPlaysAsWire reports whether every wire value of w means the SetPlay of that value.
func setPlaysAsWire(w []wireSetPlay) bool {
	for i := range w {
		if w[i].play != SetPlay(i) {
			return false
		}
	}
	return true
}

// shape names a layout whose teams have a decoder of fixed offsets: those of the current
// GameControllers. shapeGeneric reads the offsets of the spec one robot at a time.
type shape uint8

const (
	shapeGeneric shape = iota
	shapeSPL20         // SPL v15 … v18: 10-byte team head, 20 robots of 2 bytes
	shapeHSL20         // HSL v20: 10-byte team head, 20 robots of 3 bytes (cautions)
	shapeHL688         // HL 688 B: coach block, coach and 11 robots of 6 bytes
)

// shapeOf returns the shape of s when s has exactly the offsets its decoder builds in.
func shapeOf(s *spec) shape {
	robot := [4]int{s.warnOff, s.yellowOff, s.redOff, s.goalieOff}
	switch {
	case s.family == FamilySPL && s.size == SizeSPL15 && s.team == teamSPL15 && s.teamSize == TeamSizeSPL15 &&
		s.playersOff == teamHeadSize15 && s.players == MaxPlayers && s.robotSize == RobotSizeSPL && robot == [4]int{-1, -1, -1, -1} &&
		s.lanes.ok:
		return shapeSPL20
	case s.family == FamilyHSL && s.size == SizeHSL20 && s.team == teamSPL15 && s.teamSize == TeamSizeHSL20 &&
		s.playersOff == teamHeadSize15 && s.players == MaxPlayers && s.robotSize == RobotSizeHSL20 && robot == [4]int{-1, 2, -1, -1} &&
		s.undefinedFrom != 0 && setPlaysAsWire(s.setPlays):
		return shapeHSL20
	case s.family == FamilyHL && s.size == SizeHL688 && s.team == teamHL && s.teamSize == TeamSizeHL688 &&
		s.playersOff == hlTeamOffCoach+RobotSizeHL688 && s.players == MaxPlayersHL && s.robotSize == RobotSizeHL688 &&
		robot == [4]int{2, 3, 4, 5}:
		return shapeHL688
	}
	return shapeGeneric
}

func init() {
	for i := range specs {
		s := &specs[i]
		for p := range s.undefined {
			if p >= len(s.penalties) || s.penalties[p] == "" {
				s.undefined[p] = 1
			}
		}
		s.lanes = lanesOf(&s.undefined)
		s.undefinedFrom = undefinedFromOf(&s.undefined)
		s.byteK = uint64(0x80-s.undefinedFrom) * bytes1
		s.shape = shapeOf(s)
	}
}

var specs = [numLayouts]spec{
	LayoutHL640: {name: "hl12-640", family: FamilyHL, version: 12, size: SizeHL640, team: teamHL,
		teamSize: TeamSizeHL640, playersOff: hlTeamOffCoach + RobotSizeHL640, robotSize: RobotSizeHL640, players: MaxPlayersHL,
		warnOff: -1, yellowOff: 2, redOff: 3, goalieOff: -1, maxState: StateFinished,
		setPlays: hlSecondaryStates, penalties: penaltiesHL, penaltyStr: "0..9, 14, 15, 30..35 or 255"},
	LayoutHL664: {name: "hl12-664", family: FamilyHL, version: 12, size: SizeHL664, team: teamHL,
		teamSize: TeamSizeHL664, playersOff: hlTeamOffCoach + RobotSizeHL664, robotSize: RobotSizeHL664, players: MaxPlayersHL,
		warnOff: -1, yellowOff: 2, redOff: 3, goalieOff: 4, maxState: StateFinished,
		setPlays: hlSecondaryStates, penalties: penaltiesHL, penaltyStr: "0..9, 14, 15, 30..35 or 255"},
	LayoutHL688: {name: "hl12-688", family: FamilyHL, version: 12, size: SizeHL688, team: teamHL,
		teamSize: TeamSizeHL688, playersOff: hlTeamOffCoach + RobotSizeHL688, robotSize: RobotSizeHL688, players: MaxPlayersHL,
		warnOff: 2, yellowOff: 3, redOff: 4, goalieOff: 5, maxState: StateFinished,
		setPlays: hlSecondaryStates, penalties: penaltiesHL, penaltyStr: "0..9, 14, 15, 30..35 or 255"},
	LayoutSPL12: {name: "spl12", family: FamilySPL, version: 12, size: SizeSPL12, team: teamSPL12,
		teamSize: TeamSizeSPL12, playersOff: 6, robotSize: RobotSizeSPL, players: MaxPlayersSPL12,
		warnOff: -1, yellowOff: -1, redOff: -1, goalieOff: -1, maxState: StateFinished,
		setPlays: splSetPlays12, penalties: penaltiesSPL12, penaltyStr: "0..10, 14 or 15"},
	LayoutSPL13: {name: "spl13", family: FamilySPL, version: 13, size: SizeSPL13, team: teamSPL12,
		teamSize: TeamSizeSPL12, playersOff: 6, robotSize: RobotSizeSPL, players: MaxPlayersSPL12,
		warnOff: -1, yellowOff: -1, redOff: -1, goalieOff: -1, maxState: StateFinished,
		setPlays: splSetPlays13, penalties: penaltiesSPL13, penaltyStr: "0..9, 14 or 15"},
	LayoutSPL14: {name: "spl14", family: FamilySPL, version: 14, size: SizeSPL14, team: teamSPL14,
		teamSize: TeamSizeSPL14, playersOff: 8, robotSize: RobotSizeSPL, players: MaxPlayersSPL14,
		warnOff: -1, yellowOff: -1, redOff: -1, goalieOff: -1, maxState: StateFinished,
		setPlays: splSetPlays13, penalties: penaltiesSPL13, penaltyStr: "0..9, 14 or 15"},
	LayoutSPL15: {name: "spl15", family: FamilySPL, version: 15, size: SizeSPL15, team: teamSPL15,
		teamSize: TeamSizeSPL15, playersOff: 10, robotSize: RobotSizeSPL, players: MaxPlayers,
		warnOff: -1, yellowOff: -1, redOff: -1, goalieOff: -1, maxState: StateFinished,
		setPlays: splSetPlays13, penalties: penaltiesSPL15, penaltyStr: "0..10, 14 or 15"},
	LayoutSPL16: {name: "spl16", family: FamilySPL, version: 16, size: SizeSPL16, team: teamSPL15,
		teamSize: TeamSizeSPL15, playersOff: 10, robotSize: RobotSizeSPL, players: MaxPlayers,
		warnOff: -1, yellowOff: -1, redOff: -1, goalieOff: -1, maxState: StateFinished,
		setPlays: splSetPlays13, penalties: penaltiesSPL16, penaltyStr: "0..11, 14 or 15"},
	LayoutSPL17: {name: "spl17", family: FamilySPL, version: 17, size: SizeSPL17, team: teamSPL15,
		teamSize: TeamSizeSPL15, playersOff: 10, robotSize: RobotSizeSPL, players: MaxPlayers,
		warnOff: -1, yellowOff: -1, redOff: -1, goalieOff: -1, maxState: StateStandby,
		setPlays: splSetPlays13, penalties: penaltiesSPL16, penaltyStr: "0..11, 14 or 15"},
	LayoutSPL18: {name: "spl18", family: FamilySPL, version: 18, size: SizeSPL18, team: teamSPL15,
		teamSize: TeamSizeSPL15, playersOff: 10, robotSize: RobotSizeSPL, players: MaxPlayers,
		warnOff: -1, yellowOff: -1, redOff: -1, goalieOff: -1, maxState: StateStandby,
		setPlays: splSetPlays13, penalties: penaltiesSPL18, penaltyStr: "0..11, 14 or 15"},
	LayoutHSL19: {name: "hsl19", family: FamilyHSL, version: 19, size: SizeHSL19, team: teamSPL15,
		teamSize: TeamSizeHSL19, playersOff: 10, robotSize: RobotSizeHSL19, players: MaxPlayers,
		warnOff: 2, yellowOff: 3, redOff: -1, goalieOff: -1, maxState: StateFinished,
		setPlays: hslSetPlays, penalties: penaltiesHSL19, penaltyStr: "0..11"},
	LayoutHSL20: {name: "hsl20", family: FamilyHSL, version: 20, size: SizeHSL20, team: teamSPL15,
		teamSize: TeamSizeHSL20, playersOff: 10, robotSize: RobotSizeHSL20, players: MaxPlayers,
		warnOff: -1, yellowOff: 2, redOff: -1, goalieOff: -1, maxState: StateFinished,
		setPlays: hslSetPlays, penalties: penaltiesHSL20, penaltyStr: "0..13"},
}

// Layouts returns every layout, oldest first within each family.
func Layouts() []Layout {
	ls := make([]Layout, 0, numLayouts-1)
	for l := LayoutHL640; l < numLayouts; l++ {
		ls = append(ls, l)
	}
	return ls
}

// Valid reports whether l is one of the layouts.
func (l Layout) Valid() bool { return l > LayoutInvalid && l < numLayouts }

func (l Layout) spec() *spec {
	if !l.Valid() {
		return &specs[LayoutInvalid]
	}
	return &specs[l]
}

// String returns the layout's short name: "hl12-640", "hl12-664", "hl12-688", "spl12" …
// "spl18", "hsl19", "hsl20".
func (l Layout) String() string {
	if !l.Valid() {
		return fmt.Sprintf("layout(%d)", uint8(l))
	}
	return specs[l].name
}

// Family returns the lineage of the layout.
func (l Layout) Family() Family { return l.spec().family }

// Version returns the value of the version field (12 … 20); 0 for an invalid layout.
func (l Layout) Version() int { return int(l.spec().version) }

// Size returns the packet size in bytes; 0 for an invalid layout.
func (l Layout) Size() int { return l.spec().size }

// MaxPlayers returns MAX_NUM_PLAYERS of the layout: the number of RobotInfo entries per
// team, and so the highest valid player number.
func (l Layout) MaxPlayers() int { return l.spec().players }

// HasMessageBudget reports whether TeamInfo carries messageBudget (SPL v14 on, HSL).
func (l Layout) HasMessageBudget() bool {
	t := l.spec().team
	return l.Valid() && (t == teamSPL14 || t == teamSPL15)
}

// HasGoalkeeper reports whether TeamInfo carries goalkeeperColour and goalkeeper
// (SPL v15 on, HSL).
func (l Layout) HasGoalkeeper() bool { return l.Valid() && l.spec().team == teamSPL15 }

// HasCoach reports whether TeamInfo carries the coach sequence, message and RobotInfo (HL).
func (l Layout) HasCoach() bool { return l.Valid() && l.spec().team == teamHL }

// HasWarnings reports whether RobotInfo carries a warning count (HL 688, HSL v19).
func (l Layout) HasWarnings() bool { return l.Valid() && l.spec().warnOff >= 0 }

// HasCards reports whether RobotInfo carries yellow cards (HL) or cautions (HSL).
func (l Layout) HasCards() bool { return l.Valid() && l.spec().yellowOff >= 0 }

// HasRedCards reports whether RobotInfo carries a red card count (HL).
func (l Layout) HasRedCards() bool { return l.Valid() && l.spec().redOff >= 0 }

// HasGoalkeeperFlag reports whether RobotInfo carries the goalkeeper flag (HL 664, 688).
func (l Layout) HasGoalkeeperFlag() bool { return l.Valid() && l.spec().goalieOff >= 0 }

// Identify checks the header and picks the layout of a control packet from its header,
// version and length, without decoding the rest. It accepts "RGme" and "RGTD".
//
// The version byte selects the layout and the length must then match it: HL v12 is a
// uint16 12 (bytes 4..5 = 0c 00) with 640, 664 or 688 bytes; SPL v12/v13 has 54 bytes,
// v14 62, v15 … v18 118 (a 118-byte version 18 packet is SPL v18, never the short-lived
// HSL development v18), HSL v19 198 and v20 158.
func Identify(b []byte) (HeaderKind, Layout, error) {
	kind, l, err := Classify(b)
	if err != nil {
		return kind, LayoutInvalid, identifyDetail(b, err)
	}
	return kind, l, nil
}

// Classify is Identify with a bare sentinel error (ErrLength, ErrHeader or ErrVersion)
// instead of a detailed one: it never allocates, for screening junk on a socket.
func Classify(b []byte) (HeaderKind, Layout, error) {
	if len(b) < offVersion+1 {
		return 0, LayoutInvalid, ErrLength
	}
	var kind HeaderKind
	switch string(b[:4]) {
	case MagicControl:
		kind = HeaderRGme
	case MagicMonitor:
		kind = HeaderRGTD
	default:
		return 0, LayoutInvalid, ErrHeader
	}
	v := b[offVersion]
	n := len(b)
	switch v {
	case 12:
		switch n {
		case SizeSPL12:
			return kind, LayoutSPL12, nil
		case SizeHL640, SizeHL664, SizeHL688:
			if b[offVersion+1] != 0 {
				return kind, LayoutInvalid, ErrVersion
			}
			switch n {
			case SizeHL640:
				return kind, LayoutHL640, nil
			case SizeHL664:
				return kind, LayoutHL664, nil
			}
			return kind, LayoutHL688, nil
		}
		return kind, LayoutInvalid, ErrLength
	case 13, 14, 15, 16, 17, 18, 19, 20:
		l := LayoutSPL13 + Layout(v-13)
		if specs[l].size != n {
			return kind, LayoutInvalid, ErrLength
		}
		return kind, l, nil
	}
	return kind, LayoutInvalid, ErrVersion
}

// headerKind returns the kind of a control packet's header m, not ok for any other.
// The conversion to string in the switch compares the bytes without copying them.
func headerKind(m *[len(MagicControl)]byte) (HeaderKind, bool) {
	switch string(m[:]) {
	case MagicControl:
		return HeaderRGme, true
	case MagicMonitor:
		return HeaderRGTD, true
	}
	return 0, false
}

// identifyDetail explains the sentinel Classify returned for b.
func identifyDetail(b []byte, sentinel error) error {
	n := len(b)
	if n < offVersion+1 {
		return errorf(ErrLength, "%d bytes are too short for a header and version", n)
	}
	if sentinel == ErrHeader {
		return errorf(ErrHeader, "header %q is neither %q nor %q", b[:4], MagicControl, MagicMonitor)
	}
	v := b[offVersion]
	switch {
	case v == 12 && sentinel == ErrVersion:
		return errorf(ErrVersion, "%d-byte packet has uint16 version %d, want HL version 12",
			n, uint16(v)|uint16(b[offVersion+1])<<8)
	case v == 12:
		return errorf(ErrLength, "version 12 needs %d (SPL) or %d, %d or %d (HL) bytes, got %d",
			SizeSPL12, SizeHL640, SizeHL664, SizeHL688, n)
	case v >= 13 && v <= 20:
		return errorf(ErrLength, "version %d needs %d bytes, got %d", v, specs[LayoutSPL13+Layout(v-13)].size, n)
	}
	return errorf(ErrVersion, "unknown version %d (%d bytes)", v, n)
}
