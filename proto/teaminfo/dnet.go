package teaminfo

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"strconv"
	"time"
)

// dnet format constants. See the package documentation for the layout.
const (
	// DNetMagic starts every dnet packet: "DNt" (0x44 0x4e 0x74), for "dnetwork team".
	DNetMagic = "DNt"
	// DNetVersion is the format version this package writes: version 2, which adds the
	// clock echo to version 1. Both versions are read.
	DNetVersion = 2
	// DNetVersion1 is the first version: no clock echo. It is still read, and written
	// for a packet whose Version is 1.
	DNetVersion1 = 1
	// DNetSize is the size of a version 2 packet without authentication tag.
	DNetSize = DNetSizeV1 + dnEchoSize
	// TagSize is the size of the authentication tag: HMAC-SHA-256 truncated to 16 bytes.
	TagSize = 16
	// DNetTaggedSize is the size of a version 2 packet with authentication tag.
	DNetTaggedSize = DNetSize + TagSize
	// DNetSizeV1 is the size of a version 1 packet without authentication tag.
	DNetSizeV1 = 102
	// DNetTaggedSizeV1 is the size of a version 1 packet with authentication tag.
	DNetTaggedSizeV1 = DNetSizeV1 + TagSize
	// CRCSize is the size of the checksum an unsigned packet ends with: CRC-32C
	// (Castagnoli) of every byte before it, little-endian.
	CRCSize = 4
	// DNetCheckedSize is the size of a version 2 packet with checksum, as this package
	// writes an unsigned packet.
	DNetCheckedSize = DNetSize + CRCSize
	// DNetCheckedSizeV1 is the size of a version 1 packet with checksum.
	DNetCheckedSizeV1 = DNetSizeV1 + CRCSize
	// MaxEchoHoldMs is the longest hold time the echo field carries, in milliseconds.
	MaxEchoHoldMs = 0xffff
)

// castagnoli is the CRC-32C table of the dnet checksum.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Byte offsets of the dnet fields (version 2 is version 1 followed by the echo).
const (
	dnOffMagic        = 0
	dnOffVersion      = 3
	dnOffHeaderFlags  = 4
	dnOffTeam         = 5
	dnOffPlayer       = 6
	dnOffRole         = 7
	dnOffSeq          = 8
	dnOffStamp        = 12 // uint48
	dnOffStatus       = 18
	dnOffMates        = 20
	dnOffPlayState    = 21
	dnOffKickerID     = 22
	dnOffGCState      = 23 // low nibble gc_state, high nibble game_phase
	dnOffGCSecondary  = 24 // low nibble secondary state, high nibble set_play
	dnOffRobotPos     = 25
	dnOffDest         = 31
	dnOffFinalDest    = 37
	dnOffAttackTarget = 43
	dnOffBallField    = 47
	dnOffBallGlobal   = 51
	dnOffTeamBall     = 55
	dnOffCircleField  = 59
	dnOffCircleGlobal = 63
	dnOffGoalField    = 67
	dnOffGoalGlobal   = 71
	dnOffSinceKick    = 75
	dnOffToReachBall  = 77
	dnOffBallAge      = 79
	dnOffBallQuality  = 81
	dnOffFieldQuality = 82
	dnOffFieldConsist = 83
	dnOffVoronoi      = 84       // MaxVoronoi × 3 bytes
	dnOffEchoPlayer   = 102      // version 2 only
	dnOffEchoStamp    = 103      // u32: low 32 bits of the echoed stamp, ms
	dnOffEchoHold     = 107      // u16 ms
	dnOffTag          = DNetSize // version 2; version 1: DNetSizeV1

	dnHeaderSize  = 5 // magic, version, header flags: enough to know the packet's size
	dnPoseSize    = 6
	dnPointSize   = 4
	dnVoronoiSize = 3
	dnEchoSize    = 7 // echo player, stamp, hold

	hdrTagged   = 0x01 // header flags: authentication tag present
	hdrChecked  = 0x02 // header flags: CRC-32C present (never with the tag)
	hdrReserved = 0xfc

	statusFlagMask     = 0x03ff
	statusVoronoiShift = 10
	statusVoronoiMask  = 0x7 << statusVoronoiShift
	statusReserved     = 0xe000

	matesMask     = 1<<MaxMates - 1
	nibbleMax     = 0x0f
	voronoiMask12 = 0x0fff
)

// Flags are the status bits of a dnet packet (bits 0-9 of the status word).
type Flags uint16

// Status bits.
const (
	FlagIncapacitated Flags = 1 << iota
	FlagFallen
	FlagPenalised
	FlagAttackRight
	FlagPriority
	FlagSeeBall
	FlagSeeCircle
	FlagSeeGoal
	FlagGCConnected
	FlagGCStopped
)

// QPose is a quantised pose: millimetres and centi-radians.
type QPose struct {
	X, Y, Theta int16
}

// QPoint is a quantised point: millimetres (voronoi points: 12-bit centimetres).
type QPoint struct {
	X, Y int16
}

// DNetPacket mirrors a dnet packet of version 1 or 2: every field holds its wire code.
// Convert with [DNetPacket.FromState] and [DNetPacket.ToState]; the codes are described
// in the package documentation.
type DNetPacket struct {
	// Version is the format version: Decode sets 1 or 2; encoding writes DNetVersion
	// when it is 0. A version 1 packet carries no echo.
	Version   uint8
	Team      uint8
	Player    uint8
	Role      uint8
	Seq       uint32
	StampMs   uint64 // 0 .. MaxStampMs
	Flags     Flags
	Mates     uint8 // bit i: mates_online[i]
	PlayState uint8
	KickerID  uint8

	// 4-bit GameController values.
	GCState          uint8
	GamePhase        uint8
	GCSecondaryState uint8
	SetPlay          uint8

	RobotPos, Dest, FinalDest QPose

	AttackTarget, BallField, BallGlobal, TeamBallGlobal QPoint
	CircleField, CircleGlobal, GoalField, GoalGlobal    QPoint

	TimeSinceLastKick, TimeToReachBall, BallAge uint16 // centiseconds
	BallQuality, FieldQuality, FieldConsistency uint8  // 0..254
	VoronoiLen                                  uint8
	Voronoi                                     [MaxVoronoi]QPoint // 12-bit cm; all slots are carried

	// The clock echo (version 2): the player number of the teammate whose packet this
	// one answers (0: none), the low 32 bits of that packet's stamp, and how long the
	// sender held it: this packet's stamp minus the sender's receive time of it, both
	// truncated to whole milliseconds. With EchoPlayer 0 the other two are zero.
	EchoPlayer  uint8
	EchoStampMs uint32
	EchoHoldMs  uint16

	// Tagged says the packet carries Tag. AppendBinary writes Tag as held (relaying a
	// packet); AppendSigned computes a fresh one.
	Tagged bool
	Tag    [TagSize]byte
	// Unchecked says an untagged packet carries no checksum, as nodes before the
	// checksum wrote it: Decode sets it for such a packet, and AppendBinary then writes
	// none. Packets are written with a checksum or a tag otherwise.
	Unchecked bool
}

// Auth says how a decoded dnet packet was authenticated.
type Auth uint8

// Authentication outcomes of a successful decode.
const (
	// AuthNone: the packet carries no tag (and no key was required).
	AuthNone Auth = iota
	// AuthUnverified: the packet carries a tag but no key was given to check it.
	AuthUnverified
	// AuthVerified: the tag matches the key.
	AuthVerified
)

func (a Auth) String() string {
	switch a {
	case AuthNone:
		return "none"
	case AuthUnverified:
		return "unverified"
	case AuthVerified:
		return "verified"
	}
	return "auth(" + strconv.Itoa(int(a)) + ")"
}

// IsDNet reports whether b starts with the dnet magic (any version).
func IsDNet(b []byte) bool {
	return len(b) >= len(DNetMagic) && string(b[:len(DNetMagic)]) == DNetMagic
}

// DNetPacketSize returns the size of a packet of the current version (DNetVersion) as
// this package writes it: with the tag when signed, else with the checksum.
func DNetPacketSize(signed bool) int {
	if !signed {
		return DNetCheckedSize
	}
	n, _ := DNetVersionSize(DNetVersion, true)
	return n
}

// DNetVersionSize returns the size of a packet of version v with or without tag (and
// without checksum), and false for a version this package does not know.
func DNetVersionSize(v uint8, tagged bool) (int, bool) {
	var n int
	switch v {
	case DNetVersion1:
		n = DNetSizeV1
	case DNetVersion:
		n = DNetSize
	default:
		return 0, false
	}
	if tagged {
		n += TagSize
	}
	return n, true
}

// version returns the version p encodes to (DNetVersion when p.Version is 0).
func (p *DNetPacket) version() uint8 {
	if p.Version == 0 {
		return DNetVersion
	}
	return p.Version
}

// MarshalBinary returns the packet as AppendBinary writes it.
func (p *DNetPacket) MarshalBinary() ([]byte, error) {
	return p.AppendBinary(make([]byte, 0, DNetTaggedSize))
}

// AppendBinary appends the packet to b: the version's size (DNetSize for version 2,
// DNetSizeV1 for version 1), plus Tag when p.Tagged, else the checksum unless
// p.Unchecked. It fails with ErrVersion for a version it does not write, and with
// ErrRange or ErrReserved when a field holds a code the format cannot carry; b is then
// returned unchanged.
func (p *DNetPacket) AppendBinary(b []byte) ([]byte, error) {
	hf := uint8(0)
	switch {
	case p.Tagged:
		hf = hdrTagged
	case !p.Unchecked:
		hf = hdrChecked
	}
	n := len(b)
	b, err := p.appendBody(b, hf)
	if err != nil {
		return b, err
	}
	switch hf {
	case hdrTagged:
		b = append(b, p.Tag[:]...)
	case hdrChecked:
		b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b[n:], castagnoli))
	}
	return b, nil
}

// AppendSigned appends the packet to b with a tag computed with k (p.Tagged and p.Tag are
// ignored).
func (p *DNetPacket) AppendSigned(b []byte, k *Key) ([]byte, error) {
	if k == nil {
		return b, fmt.Errorf("%w: AppendSigned needs a key", ErrKey)
	}
	n := len(b)
	b, err := p.appendBody(b, hdrTagged)
	if err != nil {
		return b, err
	}
	var tag [TagSize]byte
	k.sum(&tag, b[n:])
	return append(b, tag[:]...), nil
}

func (p *DNetPacket) check() error {
	v := p.version()
	hasEcho := p.EchoPlayer != 0 || p.EchoStampMs != 0 || p.EchoHoldMs != 0
	switch {
	case v != DNetVersion && v != DNetVersion1:
		return fmt.Errorf("%w: dnet version %d, this node writes %d and %d", ErrVersion, v, DNetVersion1, DNetVersion)
	case v == DNetVersion1 && hasEcho:
		return fmt.Errorf("%w: dnet version 1 carries no echo (player %d)", ErrRange, p.EchoPlayer)
	case p.EchoPlayer == 0 && hasEcho:
		return fmt.Errorf("%w: dnet echo without player has stamp %d, hold %d", ErrReserved, p.EchoStampMs, p.EchoHoldMs)
	case p.StampMs > MaxStampMs:
		return fmt.Errorf("%w: dnet stamp %d ms > %d", ErrRange, p.StampMs, MaxStampMs)
	case p.Flags&^statusFlagMask != 0:
		return fmt.Errorf("%w: dnet flags %#04x has bits above bit 9", ErrReserved, uint16(p.Flags))
	case p.Mates&^matesMask != 0:
		return fmt.Errorf("%w: dnet mates mask %#02x has bits above bit %d", ErrReserved, p.Mates, MaxMates-1)
	case p.GCState > nibbleMax:
		return fmt.Errorf("%w: dnet gc_state %d does not fit 4 bits", ErrRange, p.GCState)
	case p.GamePhase > nibbleMax:
		return fmt.Errorf("%w: dnet game_phase %d does not fit 4 bits", ErrRange, p.GamePhase)
	case p.GCSecondaryState > nibbleMax:
		return fmt.Errorf("%w: dnet gc_secondary_state %d does not fit 4 bits", ErrRange, p.GCSecondaryState)
	case p.SetPlay > nibbleMax:
		return fmt.Errorf("%w: dnet set_play %d does not fit 4 bits", ErrRange, p.SetPlay)
	case p.VoronoiLen > MaxVoronoi:
		return fmt.Errorf("%w: dnet voronoi length %d > %d", ErrRange, p.VoronoiLen, MaxVoronoi)
	case !Role(p.Role).Valid():
		return fmt.Errorf("%w: dnet role %d > %d", ErrRange, p.Role, RoleOther)
	case !PlayState(p.PlayState).Valid():
		return fmt.Errorf("%w: dnet play state %d > %d", ErrRange, p.PlayState, PlayAssisting)
	}
	for i, v := range p.Voronoi {
		if v.X < UnknownI12 || v.X > maxI12 || v.Y < UnknownI12 || v.Y > maxI12 {
			return fmt.Errorf("%w: dnet voronoi[%d] (%d, %d) does not fit 12 bits", ErrRange, i, v.X, v.Y)
		}
	}
	return nil
}

func (p *DNetPacket) appendBody(b []byte, hf uint8) ([]byte, error) {
	if err := p.check(); err != nil {
		return b, err
	}
	v := p.version()
	size, _ := DNetVersionSize(v, false)
	n := len(b)
	b = append(b, make([]byte, size)...) // zeroed; allocates only when b lacks room
	w := b[n : n+size]
	le := binary.LittleEndian
	copy(w[dnOffMagic:], DNetMagic)
	w[dnOffVersion] = v
	w[dnOffHeaderFlags] = hf
	w[dnOffTeam] = p.Team
	w[dnOffPlayer] = p.Player
	w[dnOffRole] = p.Role
	le.PutUint32(w[dnOffSeq:], p.Seq)
	putUint48(w[dnOffStamp:], p.StampMs)
	le.PutUint16(w[dnOffStatus:], uint16(p.Flags)|uint16(p.VoronoiLen)<<statusVoronoiShift)
	w[dnOffMates] = p.Mates
	w[dnOffPlayState] = p.PlayState
	w[dnOffKickerID] = p.KickerID
	w[dnOffGCState] = p.GCState | p.GamePhase<<4
	w[dnOffGCSecondary] = p.GCSecondaryState | p.SetPlay<<4
	putQPose(w[dnOffRobotPos:], p.RobotPos)
	putQPose(w[dnOffDest:], p.Dest)
	putQPose(w[dnOffFinalDest:], p.FinalDest)
	putQPoint(w[dnOffAttackTarget:], p.AttackTarget)
	putQPoint(w[dnOffBallField:], p.BallField)
	putQPoint(w[dnOffBallGlobal:], p.BallGlobal)
	putQPoint(w[dnOffTeamBall:], p.TeamBallGlobal)
	putQPoint(w[dnOffCircleField:], p.CircleField)
	putQPoint(w[dnOffCircleGlobal:], p.CircleGlobal)
	putQPoint(w[dnOffGoalField:], p.GoalField)
	putQPoint(w[dnOffGoalGlobal:], p.GoalGlobal)
	le.PutUint16(w[dnOffSinceKick:], p.TimeSinceLastKick)
	le.PutUint16(w[dnOffToReachBall:], p.TimeToReachBall)
	le.PutUint16(w[dnOffBallAge:], p.BallAge)
	w[dnOffBallQuality] = p.BallQuality
	w[dnOffFieldQuality] = p.FieldQuality
	w[dnOffFieldConsist] = p.FieldConsistency
	for i, q := range p.Voronoi {
		putVoronoi(w[dnOffVoronoi+i*dnVoronoiSize:], q)
	}
	if v == DNetVersion {
		w[dnOffEchoPlayer] = p.EchoPlayer
		le.PutUint32(w[dnOffEchoStamp:], p.EchoStampMs)
		le.PutUint16(w[dnOffEchoHold:], p.EchoHoldMs)
	}
	return b, nil
}

// UnmarshalBinary decodes a dnet packet without checking its tag; see [DNetPacket.Decode].
func (p *DNetPacket) UnmarshalBinary(b []byte) error {
	_, err := p.Decode(b, nil)
	return err
}

// Decode decodes a dnet packet into p, overwriting every field; on error p is unchanged.
//
// The cheap checks come first: magic, version (1 or 2), reserved header bits (the tag
// and checksum flags together are reserved too), and a length that matches the version
// and the flags. Then, when k is not nil, the packet must carry a tag that matches k
// (compared in constant time), else ErrAuth. With k nil a tag is kept but not checked,
// and the result is AuthUnverified. A checksum is checked with or without k
// (ErrChecksum); a packet with neither decodes with Unchecked set. Only then are the
// fields parsed; a reserved status or mates bit is rejected (ErrReserved), and so is
// a value the format cannot carry: a voronoi length above MaxVoronoi, a role or
// play state the format does not define (ErrRange).
func (p *DNetPacket) Decode(b []byte, k *Key) (Auth, error) {
	if len(b) < len(DNetMagic)+1 {
		return 0, fmt.Errorf("%w: dnet packet of %d bytes is shorter than its header", ErrLength, len(b))
	}
	if string(b[dnOffMagic:dnOffMagic+len(DNetMagic)]) != DNetMagic {
		return 0, fmt.Errorf("%w: % x, want % x", ErrMagic, b[:len(DNetMagic)], DNetMagic)
	}
	version := b[dnOffVersion]
	if _, ok := DNetVersionSize(version, false); !ok {
		return 0, fmt.Errorf("%w: dnet version %d, this node speaks %d and %d", ErrVersion, version, DNetVersion1, DNetVersion)
	}
	if len(b) < dnHeaderSize {
		return 0, fmt.Errorf("%w: dnet packet of %d bytes is shorter than its header", ErrLength, len(b))
	}
	hf := b[dnOffHeaderFlags]
	if hf&hdrReserved != 0 || hf == hdrTagged|hdrChecked {
		return 0, fmt.Errorf("%w: dnet header flags %#02x", ErrReserved, hf)
	}
	tagged, checked := hf&hdrTagged != 0, hf&hdrChecked != 0
	body, _ := DNetVersionSize(version, false)
	want, _ := DNetVersionSize(version, tagged)
	switch {
	case checked && len(b) != body+CRCSize:
		return 0, fmt.Errorf("%w: dnet version %d with checksum needs %d bytes, got %d", ErrLength, version, body+CRCSize, len(b))
	case checked:
	case len(b) != want && tagged:
		return 0, fmt.Errorf("%w: dnet version %d with tag needs %d bytes, got %d", ErrLength, version, want, len(b))
	case len(b) != want:
		return 0, fmt.Errorf("%w: dnet version %d without tag needs %d bytes, got %d", ErrLength, version, want, len(b))
	}
	auth := AuthNone
	if tagged {
		auth = AuthUnverified
	}
	if k != nil {
		if !tagged {
			return 0, fmt.Errorf("%w: dnet packet has no tag but a key is required", ErrAuth)
		}
		if !k.verify(b[:body], b[body:body+TagSize]) {
			return 0, fmt.Errorf("%w: dnet tag does not match the key", ErrAuth)
		}
		auth = AuthVerified
	}
	if checked {
		if got, sum := binary.LittleEndian.Uint32(b[body:]), crc32.Checksum(b[:body], castagnoli); got != sum {
			return 0, fmt.Errorf("%w: dnet checksum %#08x, the bytes give %#08x", ErrChecksum, got, sum)
		}
	}

	le := binary.LittleEndian
	status := le.Uint16(b[dnOffStatus:])
	if status&statusReserved != 0 {
		return 0, fmt.Errorf("%w: dnet status word %#04x has bits 13-15 set", ErrReserved, status)
	}
	nv := uint8((status & statusVoronoiMask) >> statusVoronoiShift)
	if nv > MaxVoronoi {
		return 0, fmt.Errorf("%w: dnet voronoi length %d > %d", ErrRange, nv, MaxVoronoi)
	}
	stamp := uint48(b[dnOffStamp:])
	if stamp > MaxStampMs {
		return 0, fmt.Errorf("%w: dnet stamp %d ms > %d", ErrRange, stamp, MaxStampMs)
	}
	mates := b[dnOffMates]
	if mates&^matesMask != 0 {
		return 0, fmt.Errorf("%w: dnet mates mask %#02x has bits above bit %d", ErrReserved, mates, MaxMates-1)
	}
	if r := Role(b[dnOffRole]); !r.Valid() {
		return 0, fmt.Errorf("%w: dnet role %d > %d", ErrRange, r, RoleOther)
	}
	if ps := PlayState(b[dnOffPlayState]); !ps.Valid() {
		return 0, fmt.Errorf("%w: dnet play state %d > %d", ErrRange, ps, PlayAssisting)
	}
	var (
		echoPlayer uint8
		echoStamp  uint32
		echoHold   uint16
	)
	if version == DNetVersion {
		echoPlayer, echoStamp, echoHold = b[dnOffEchoPlayer], le.Uint32(b[dnOffEchoStamp:]), le.Uint16(b[dnOffEchoHold:])
		if echoPlayer == 0 && (echoStamp != 0 || echoHold != 0) {
			return 0, fmt.Errorf("%w: dnet echo without player has stamp %d, hold %d", ErrReserved, echoStamp, echoHold)
		}
	}
	q := DNetPacket{
		Version:           version,
		Team:              b[dnOffTeam],
		Player:            b[dnOffPlayer],
		Role:              b[dnOffRole],
		Seq:               le.Uint32(b[dnOffSeq:]),
		StampMs:           stamp,
		Flags:             Flags(status & statusFlagMask),
		Mates:             mates,
		PlayState:         b[dnOffPlayState],
		KickerID:          b[dnOffKickerID],
		GCState:           b[dnOffGCState] & nibbleMax,
		GamePhase:         b[dnOffGCState] >> 4,
		GCSecondaryState:  b[dnOffGCSecondary] & nibbleMax,
		SetPlay:           b[dnOffGCSecondary] >> 4,
		RobotPos:          getQPose(b[dnOffRobotPos:]),
		Dest:              getQPose(b[dnOffDest:]),
		FinalDest:         getQPose(b[dnOffFinalDest:]),
		AttackTarget:      getQPoint(b[dnOffAttackTarget:]),
		BallField:         getQPoint(b[dnOffBallField:]),
		BallGlobal:        getQPoint(b[dnOffBallGlobal:]),
		TeamBallGlobal:    getQPoint(b[dnOffTeamBall:]),
		CircleField:       getQPoint(b[dnOffCircleField:]),
		CircleGlobal:      getQPoint(b[dnOffCircleGlobal:]),
		GoalField:         getQPoint(b[dnOffGoalField:]),
		GoalGlobal:        getQPoint(b[dnOffGoalGlobal:]),
		TimeSinceLastKick: le.Uint16(b[dnOffSinceKick:]),
		TimeToReachBall:   le.Uint16(b[dnOffToReachBall:]),
		BallAge:           le.Uint16(b[dnOffBallAge:]),
		BallQuality:       b[dnOffBallQuality],
		FieldQuality:      b[dnOffFieldQuality],
		FieldConsistency:  b[dnOffFieldConsist],
		VoronoiLen:        nv,
		EchoPlayer:        echoPlayer,
		EchoStampMs:       echoStamp,
		EchoHoldMs:        echoHold,
		Tagged:            tagged,
		Unchecked:         !tagged && !checked,
	}
	for i := range q.Voronoi {
		q.Voronoi[i] = getVoronoi(b[dnOffVoronoi+i*dnVoronoiSize:])
	}
	if tagged {
		copy(q.Tag[:], b[body:])
	}
	*p = q
	return auth, nil
}

// FromState sets p from the model, quantising every quantity (see the package
// documentation for units, ranges and unknown codes). The stamp is truncated to whole
// milliseconds, VoronoiLen clamped to 0..MaxVoronoi, unused voronoi slots are zero, Z of
// points is dropped, and the tag is cleared. The version is DNetVersion. The echo is
// carried when s.Echo.Player is not 0 and its hold is 0 .. MaxEchoHoldMs whole
// milliseconds (a hold the field cannot carry drops the echo: a shortened hold would
// misstate the receive time). GameController values above 15 are kept and make
// AppendBinary fail with ErrRange.
func (p *DNetPacket) FromState(s *State) {
	var f Flags
	set := func(bit Flags, on bool) {
		if on {
			f |= bit
		}
	}
	set(FlagIncapacitated, s.Incapacitated)
	set(FlagFallen, s.Fallen)
	set(FlagPenalised, s.Penalised)
	set(FlagAttackRight, s.AttackRight)
	set(FlagPriority, s.Priority)
	set(FlagSeeBall, s.SeeBall)
	set(FlagSeeCircle, s.SeeCircle)
	set(FlagSeeGoal, s.SeeGoal)
	set(FlagGCConnected, s.GCConnected)
	set(FlagGCStopped, s.GCStopped)
	var mates uint8
	for i, on := range s.MatesOnline {
		if on {
			mates |= 1 << i
		}
	}
	*p = DNetPacket{
		Team:              s.Team,
		Player:            s.Player,
		Role:              uint8(s.Role),
		Seq:               s.Seq,
		StampMs:           qStamp(s.Stamp),
		Flags:             f,
		Mates:             mates,
		PlayState:         uint8(s.PlayState),
		KickerID:          s.KickerID,
		GCState:           s.GCState,
		GamePhase:         s.GamePhase,
		GCSecondaryState:  s.GCSecondaryState,
		SetPlay:           s.SetPlay,
		RobotPos:          qPose(s.RobotPos),
		Dest:              qPose(s.Dest),
		FinalDest:         qPose(s.FinalDest),
		AttackTarget:      qPoint(s.AttackTarget),
		BallField:         qPoint(s.BallField),
		BallGlobal:        qPoint(s.BallGlobal),
		TeamBallGlobal:    qPoint(s.TeamBallGlobal),
		CircleField:       qPoint(s.CircleField),
		CircleGlobal:      qPoint(s.CircleGlobal),
		GoalField:         qPoint(s.GoalField),
		GoalGlobal:        qPoint(s.GoalGlobal),
		TimeSinceLastKick: qDuration(s.TimeSinceLastKick),
		TimeToReachBall:   qDuration(s.TimeToReachBall),
		BallAge:           qDuration(s.BallAge),
		BallQuality:       qQuality(s.BallQuality),
		FieldQuality:      qQuality(s.FieldQuality),
		FieldConsistency:  qQuality(s.FieldConsistency),
	}
	pts := s.VoronoiPoints()
	p.VoronoiLen = uint8(len(pts))
	for i, v := range pts {
		p.Voronoi[i] = QPoint{X: qI12(v.X), Y: qI12(v.Y)}
	}
	if e := s.Echo; e.Player != 0 && e.Hold >= 0 && e.Hold <= MaxEchoHoldMs*time.Millisecond {
		p.EchoPlayer, p.EchoStampMs, p.EchoHoldMs = e.Player, e.StampMs, uint16(e.Hold/time.Millisecond)
	}
}

// ToState converts p to the model, overwriting every field of s. Unknown codes become
// NaN; only the first VoronoiLen voronoi slots are used (the rest of s.Voronoi is zero).
// A version 1 packet has no echo (s.Echo is zero).
func (p *DNetPacket) ToState(s *State) {
	*s = State{
		Team:              p.Team,
		Player:            p.Player,
		Seq:               p.Seq,
		Stamp:             dqStamp(p.StampMs),
		Incapacitated:     p.Flags&FlagIncapacitated != 0,
		Fallen:            p.Flags&FlagFallen != 0,
		Penalised:         p.Flags&FlagPenalised != 0,
		AttackRight:       p.Flags&FlagAttackRight != 0,
		Priority:          p.Flags&FlagPriority != 0,
		SeeBall:           p.Flags&FlagSeeBall != 0,
		SeeCircle:         p.Flags&FlagSeeCircle != 0,
		SeeGoal:           p.Flags&FlagSeeGoal != 0,
		GCConnected:       p.Flags&FlagGCConnected != 0,
		GCStopped:         p.Flags&FlagGCStopped != 0,
		Role:              Role(p.Role),
		PlayState:         PlayState(p.PlayState),
		KickerID:          p.KickerID,
		RobotPos:          dqPose(p.RobotPos),
		Dest:              dqPose(p.Dest),
		FinalDest:         dqPose(p.FinalDest),
		AttackTarget:      dqPoint(p.AttackTarget),
		BallField:         dqPoint(p.BallField),
		BallGlobal:        dqPoint(p.BallGlobal),
		TeamBallGlobal:    dqPoint(p.TeamBallGlobal),
		CircleField:       dqPoint(p.CircleField),
		CircleGlobal:      dqPoint(p.CircleGlobal),
		GoalField:         dqPoint(p.GoalField),
		GoalGlobal:        dqPoint(p.GoalGlobal),
		TimeSinceLastKick: dqDuration(p.TimeSinceLastKick),
		TimeToReachBall:   dqDuration(p.TimeToReachBall),
		BallAge:           dqDuration(p.BallAge),
		BallQuality:       dqQuality(p.BallQuality),
		FieldQuality:      dqQuality(p.FieldQuality),
		FieldConsistency:  dqQuality(p.FieldConsistency),
		GCState:           p.GCState,
		GCSecondaryState:  p.GCSecondaryState,
		GamePhase:         p.GamePhase,
		SetPlay:           p.SetPlay,
	}
	if p.EchoPlayer != 0 {
		s.Echo = Echo{Player: p.EchoPlayer, StampMs: p.EchoStampMs, Hold: time.Duration(p.EchoHoldMs) * time.Millisecond}
	}
	for i := range s.MatesOnline {
		s.MatesOnline[i] = p.Mates&(1<<i) != 0
	}
	n := min(int(p.VoronoiLen), MaxVoronoi)
	s.VoronoiLen = n
	for i, v := range p.Voronoi[:n] {
		s.Voronoi[i] = Point{X: dqI12(v.X), Y: dqI12(v.Y)}
	}
}

// DecodeDNet decodes a dnet packet straight into the model; k as in [DNetPacket.Decode].
func DecodeDNet(b []byte, s *State, k *Key) (Auth, error) {
	var p DNetPacket
	auth, err := p.Decode(b, k)
	if err != nil {
		return auth, err
	}
	p.ToState(s)
	return auth, nil
}

// AppendDNet appends the dnet packet for s to b, signed with k when k is not nil.
func AppendDNet(b []byte, s *State, k *Key) ([]byte, error) {
	var p DNetPacket
	p.FromState(s)
	if k != nil {
		return p.AppendSigned(b, k)
	}
	return p.AppendBinary(b)
}

func qPose(p Pose) QPose {
	return QPose{X: qI16(p.X, MMPerM), Y: qI16(p.Y, MMPerM), Theta: qI16(p.Theta, CradPerRad)}
}

func dqPose(q QPose) Pose {
	return Pose{X: dqI16(q.X, MMPerM), Y: dqI16(q.Y, MMPerM), Theta: dqI16(q.Theta, CradPerRad)}
}

func qPoint(p Point) QPoint { return QPoint{X: qI16(p.X, MMPerM), Y: qI16(p.Y, MMPerM)} }

func dqPoint(q QPoint) Point { return Point{X: dqI16(q.X, MMPerM), Y: dqI16(q.Y, MMPerM)} }

func putQPose(b []byte, q QPose) {
	_ = b[dnPoseSize-1]
	binary.LittleEndian.PutUint16(b[0:], uint16(q.X))
	binary.LittleEndian.PutUint16(b[2:], uint16(q.Y))
	binary.LittleEndian.PutUint16(b[4:], uint16(q.Theta))
}

func getQPose(b []byte) QPose {
	_ = b[dnPoseSize-1]
	return QPose{
		X:     int16(binary.LittleEndian.Uint16(b[0:])),
		Y:     int16(binary.LittleEndian.Uint16(b[2:])),
		Theta: int16(binary.LittleEndian.Uint16(b[4:])),
	}
}

func putQPoint(b []byte, q QPoint) {
	_ = b[dnPointSize-1]
	binary.LittleEndian.PutUint16(b[0:], uint16(q.X))
	binary.LittleEndian.PutUint16(b[2:], uint16(q.Y))
}

func getQPoint(b []byte) QPoint {
	_ = b[dnPointSize-1]
	return QPoint{X: int16(binary.LittleEndian.Uint16(b[0:])), Y: int16(binary.LittleEndian.Uint16(b[2:]))}
}

// putVoronoi packs two 12-bit two's-complement values little-endian into 3 bytes:
// x bits 0-7, x bits 8-11 | y bits 0-3 << 4, y bits 4-11.
func putVoronoi(b []byte, q QPoint) {
	_ = b[dnVoronoiSize-1]
	x, y := uint16(q.X)&voronoiMask12, uint16(q.Y)&voronoiMask12
	b[0] = byte(x)
	b[1] = byte(x>>8) | byte(y<<4)
	b[2] = byte(y >> 4)
}

func getVoronoi(b []byte) QPoint {
	_ = b[dnVoronoiSize-1]
	x := uint16(b[0]) | uint16(b[1]&0x0f)<<8
	y := uint16(b[1]>>4) | uint16(b[2])<<4
	return QPoint{X: signExtend12(x), Y: signExtend12(y)}
}

func signExtend12(v uint16) int16 { return int16(v<<4) >> 4 }

func putUint48(b []byte, v uint64) {
	_ = b[5]
	binary.LittleEndian.PutUint32(b[0:], uint32(v))
	binary.LittleEndian.PutUint16(b[4:], uint16(v>>32))
}

func uint48(b []byte) uint64 {
	_ = b[5]
	return uint64(binary.LittleEndian.Uint32(b[0:])) | uint64(binary.LittleEndian.Uint16(b[4:]))<<32
}
