package worldinfo

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Body sizes.
const (
	PoseSize           = 48  // x, y, theta, covariance[9]
	VelocitySize       = 48  // three velocities, covariance[9]
	BallSize           = 52  // ball word, three coordinates, covariance[9]
	OpponentSize       = 28  // uid, dist, bearing, covariance[4]
	OpponentDisappSize = 4   // uid
	WordSize           = 4   // game state and penalty: one bit-field word
	FatSize            = 480 // flags, pose, velocity, relative ball, ball velocity, 10 opponents
)

// Offsets inside the fat record body.
const (
	fatOffPose       = 4
	fatOffVelocity   = fatOffPose + PoseSize           // 52
	fatOffRelBall    = fatOffVelocity + VelocitySize   // 100
	fatOffRelBallVel = fatOffRelBall + BallSize        // 152
	fatOffOpponents  = fatOffRelBallVel + VelocitySize // 200
)

// Bit-field limits.
const (
	// HistoryMin and HistoryMax bound the 24-bit signed visibility history of a ball.
	HistoryMin = -(1 << 23)
	HistoryMax = 1<<23 - 1
	// MaxGameState is the largest game state (4 bits).
	MaxGameState = 15
	// MaxPenaltyPlayer is the largest player number of a penalty (4 bits).
	MaxPenaltyPlayer = 15
	// MaxPenaltyCode is the largest penalty code (6 bits).
	MaxPenaltyCode = 63
)

// Cov3 is a row-major 3x3 covariance matrix.
type Cov3 [Cov3Len]float32

// Cov2 is a row-major 2x2 covariance matrix.
type Cov2 [Cov2Len]float32

// Message is implemented by the pointer types of the eleven record bodies.
// UnmarshalBinary requires exactly the body size of the type.
type Message interface {
	RecordType() RecordType
	AppendBinary(b []byte) ([]byte, error)
	MarshalBinary() ([]byte, error)
	UnmarshalBinary(b []byte) error
}

var (
	_ Message = (*Pose)(nil)
	_ Message = (*Velocity)(nil)
	_ Message = (*RelBall)(nil)
	_ Message = (*RelBallVelocity)(nil)
	_ Message = (*Opponent)(nil)
	_ Message = (*OpponentDisappeared)(nil)
	_ Message = (*Fat)(nil)
	_ Message = (*GameState)(nil)
	_ Message = (*Penalty)(nil)
	_ Message = (*GlobalBall)(nil)
	_ Message = (*GlobalBallVelocity)(nil)
)

// NewMessage returns a new zero message of type t, or nil for an unknown type.
func NewMessage(t RecordType) Message {
	switch t {
	case TypePose:
		return new(Pose)
	case TypeVelocity:
		return new(Velocity)
	case TypeRelBall:
		return new(RelBall)
	case TypeRelBallVelocity:
		return new(RelBallVelocity)
	case TypeOpponent:
		return new(Opponent)
	case TypeOpponentDisapp:
		return new(OpponentDisappeared)
	case TypeFat:
		return new(Fat)
	case TypeGameState:
		return new(GameState)
	case TypePenalty:
		return new(Penalty)
	case TypeGlobalBall:
		return new(GlobalBall)
	case TypeGlobalBallVelocity:
		return new(GlobalBallVelocity)
	}
	return nil
}

func checkBody(t RecordType, b []byte) error {
	if want := bodySizes[t]; len(b) != want {
		return fmt.Errorf("%w: %s body needs %d bytes, got %d", ErrSize, t, want, len(b))
	}
	return nil
}

func appendF32(b []byte, f float32) []byte {
	return binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
}

func getF32(b []byte) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b)) }

func appendCov3(b []byte, c *Cov3) []byte {
	for _, f := range c {
		b = appendF32(b, f)
	}
	return b
}

func getCov3(b []byte) (c Cov3) {
	_ = b[4*Cov3Len-1]
	for i := range c {
		c[i] = getF32(b[4*i:])
	}
	return c
}

func appendCov2(b []byte, c *Cov2) []byte {
	for _, f := range c {
		b = appendF32(b, f)
	}
	return b
}

func getCov2(b []byte) (c Cov2) {
	_ = b[4*Cov2Len-1]
	for i := range c {
		c[i] = getF32(b[4*i:])
	}
	return c
}

// vec3 is the shared layout of pose, velocity and ball velocity bodies: three floats and a
// 3x3 covariance (48 bytes).
func appendVec3(b []byte, x, y, z float32, c *Cov3) []byte {
	b = appendF32(b, x)
	b = appendF32(b, y)
	b = appendF32(b, z)
	return appendCov3(b, c)
}

func getVec3(b []byte) (x, y, z float32, c Cov3) {
	_ = b[VelocitySize-1]
	return getF32(b), getF32(b[4:]), getF32(b[8:]), getCov3(b[12:])
}

// Pose is a robot's global pose (type 1).
type Pose struct {
	X, Y, Theta float32
	Covariance  Cov3
}

// RecordType returns [TypePose].
func (*Pose) RecordType() RecordType { return TypePose }

// AppendBinary appends the 48-byte body.
func (p *Pose) AppendBinary(b []byte) ([]byte, error) {
	return appendVec3(b, p.X, p.Y, p.Theta, &p.Covariance), nil
}

// MarshalBinary returns the 48-byte body.
func (p *Pose) MarshalBinary() ([]byte, error) { return p.AppendBinary(make([]byte, 0, PoseSize)) }

// UnmarshalBinary decodes a 48-byte body.
func (p *Pose) UnmarshalBinary(b []byte) error {
	if err := checkBody(TypePose, b); err != nil {
		return err
	}
	p.X, p.Y, p.Theta, p.Covariance = getVec3(b)
	return nil
}

// Velocity is a robot's velocity (type 2).
type Velocity struct {
	VelX, VelY, VelTheta float32
	Covariance           Cov3
}

// RecordType returns [TypeVelocity].
func (*Velocity) RecordType() RecordType { return TypeVelocity }

// AppendBinary appends the 48-byte body.
func (v *Velocity) AppendBinary(b []byte) ([]byte, error) {
	return appendVec3(b, v.VelX, v.VelY, v.VelTheta, &v.Covariance), nil
}

// MarshalBinary returns the 48-byte body.
func (v *Velocity) MarshalBinary() ([]byte, error) {
	return v.AppendBinary(make([]byte, 0, VelocitySize))
}

// UnmarshalBinary decodes a 48-byte body.
func (v *Velocity) UnmarshalBinary(b []byte) error {
	if err := checkBody(TypeVelocity, b); err != nil {
		return err
	}
	v.VelX, v.VelY, v.VelTheta, v.Covariance = getVec3(b)
	return nil
}

// RelBallVelocity is the ball velocity relative to the robot (type 4).
type RelBallVelocity struct {
	VelX, VelY, VelZ float32
	Covariance       Cov3
}

// RecordType returns [TypeRelBallVelocity].
func (*RelBallVelocity) RecordType() RecordType { return TypeRelBallVelocity }

// AppendBinary appends the 48-byte body.
func (v *RelBallVelocity) AppendBinary(b []byte) ([]byte, error) {
	return appendVec3(b, v.VelX, v.VelY, v.VelZ, &v.Covariance), nil
}

// MarshalBinary returns the 48-byte body.
func (v *RelBallVelocity) MarshalBinary() ([]byte, error) {
	return v.AppendBinary(make([]byte, 0, VelocitySize))
}

// UnmarshalBinary decodes a 48-byte body.
func (v *RelBallVelocity) UnmarshalBinary(b []byte) error {
	if err := checkBody(TypeRelBallVelocity, b); err != nil {
		return err
	}
	v.VelX, v.VelY, v.VelZ, v.Covariance = getVec3(b)
	return nil
}

// GlobalBallVelocity is the ball velocity in the field frame (type 11).
type GlobalBallVelocity struct {
	VelX, VelY, VelZ float32
	Covariance       Cov3
}

// RecordType returns [TypeGlobalBallVelocity].
func (*GlobalBallVelocity) RecordType() RecordType { return TypeGlobalBallVelocity }

// AppendBinary appends the 48-byte body.
func (v *GlobalBallVelocity) AppendBinary(b []byte) ([]byte, error) {
	return appendVec3(b, v.VelX, v.VelY, v.VelZ, &v.Covariance), nil
}

// MarshalBinary returns the 48-byte body.
func (v *GlobalBallVelocity) MarshalBinary() ([]byte, error) {
	return v.AppendBinary(make([]byte, 0, VelocitySize))
}

// UnmarshalBinary decodes a 48-byte body.
func (v *GlobalBallVelocity) UnmarshalBinary(b []byte) error {
	if err := checkBody(TypeGlobalBallVelocity, b); err != nil {
		return err
	}
	v.VelX, v.VelY, v.VelZ, v.Covariance = getVec3(b)
	return nil
}

// Ball word bits.
const (
	ballHistoryMask  = 1<<24 - 1
	ballVisibleBit   = 24
	ballReservedBit  = 25
	ballReservedMax  = 1<<7 - 1
	ballHistorySign  = 1 << 23
	ballHistoryRange = 1 << 24
)

// ballWord packs the first word of the ball bodies.
func ballWord(visible bool, history int32, reserved uint8) (uint32, error) {
	if err := checkRange("ball visibility history", int64(history), HistoryMin, HistoryMax); err != nil {
		return 0, err
	}
	if err := checkRange("ball reserved bits", int64(reserved), 0, ballReservedMax); err != nil {
		return 0, err
	}
	w := uint32(history)&ballHistoryMask | uint32(reserved)<<ballReservedBit
	if visible {
		w |= 1 << ballVisibleBit
	}
	return w, nil
}

func splitBallWord(w uint32) (visible bool, history int32, reserved uint8) {
	h := int32(w & ballHistoryMask)
	if h&ballHistorySign != 0 {
		h -= ballHistoryRange
	}
	return w>>ballVisibleBit&1 == 1, h, uint8(w >> ballReservedBit)
}

// RelBall is the ball position relative to the robot (type 3), in polar coordinates.
type RelBall struct {
	// Visible reports whether the ball is seen now; if not, the position is the last known.
	Visible bool
	// History counts observations in a row: positive = seen, negative = not seen
	// (-3 after three frames without the ball), 0 = vision just started. 24 bits signed.
	History int32
	// Reserved holds the 7 unused bits of the ball word (uninitialised in Fawkes senders).
	Reserved uint8
	// Bearing is the azimuth from the robot's forward direction, Dist the ground distance,
	// Slope the declination from the robot's centre.
	Bearing, Dist, Slope float32
	Covariance           Cov3
}

// RecordType returns [TypeRelBall].
func (*RelBall) RecordType() RecordType { return TypeRelBall }

// AppendBinary appends the 52-byte body; it fails if History or Reserved do not fit.
func (r *RelBall) AppendBinary(b []byte) ([]byte, error) {
	w, err := ballWord(r.Visible, r.History, r.Reserved)
	if err != nil {
		return b, err
	}
	b = binary.LittleEndian.AppendUint32(b, w)
	return appendVec3(b, r.Bearing, r.Dist, r.Slope, &r.Covariance), nil
}

// MarshalBinary returns the 52-byte body.
func (r *RelBall) MarshalBinary() ([]byte, error) { return r.AppendBinary(make([]byte, 0, BallSize)) }

// UnmarshalBinary decodes a 52-byte body.
func (r *RelBall) UnmarshalBinary(b []byte) error {
	if err := checkBody(TypeRelBall, b); err != nil {
		return err
	}
	r.Visible, r.History, r.Reserved = splitBallWord(binary.LittleEndian.Uint32(b))
	r.Bearing, r.Dist, r.Slope, r.Covariance = getVec3(b[4:])
	return nil
}

// GlobalBall is the ball position in the field frame (type 10). Fawkes senders also use
// type 10 for the relative ball; see the package documentation.
type GlobalBall struct {
	Visible    bool  // as in [RelBall]
	History    int32 // as in [RelBall]
	Reserved   uint8 // as in [RelBall]
	X, Y, Z    float32
	Covariance Cov3
}

// RecordType returns [TypeGlobalBall].
func (*GlobalBall) RecordType() RecordType { return TypeGlobalBall }

// AppendBinary appends the 52-byte body; it fails if History or Reserved do not fit.
func (g *GlobalBall) AppendBinary(b []byte) ([]byte, error) {
	w, err := ballWord(g.Visible, g.History, g.Reserved)
	if err != nil {
		return b, err
	}
	b = binary.LittleEndian.AppendUint32(b, w)
	return appendVec3(b, g.X, g.Y, g.Z, &g.Covariance), nil
}

// MarshalBinary returns the 52-byte body.
func (g *GlobalBall) MarshalBinary() ([]byte, error) {
	return g.AppendBinary(make([]byte, 0, BallSize))
}

// UnmarshalBinary decodes a 52-byte body.
func (g *GlobalBall) UnmarshalBinary(b []byte) error {
	if err := checkBody(TypeGlobalBall, b); err != nil {
		return err
	}
	g.Visible, g.History, g.Reserved = splitBallWord(binary.LittleEndian.Uint32(b))
	g.X, g.Y, g.Z, g.Covariance = getVec3(b[4:])
	return nil
}

// RelBall reinterprets a global ball record that a Fawkes sender wrote for the relative
// ball (type 10 carrying the relative layout): X, Y, Z are bearing, dist and slope.
func (g *GlobalBall) RelBall() RelBall {
	return RelBall{Visible: g.Visible, History: g.History, Reserved: g.Reserved,
		Bearing: g.X, Dist: g.Y, Slope: g.Z, Covariance: g.Covariance}
}

// Opponent is an observed opponent (type 5) in polar coordinates relative to the robot.
// UID names the same physical opponent across datagrams until it is announced as
// disappeared.
type Opponent struct {
	UID           uint32
	Dist, Bearing float32
	Covariance    Cov2
}

// RecordType returns [TypeOpponent].
func (*Opponent) RecordType() RecordType { return TypeOpponent }

// AppendBinary appends the 28-byte body.
func (o *Opponent) AppendBinary(b []byte) ([]byte, error) {
	b = binary.LittleEndian.AppendUint32(b, o.UID)
	b = appendF32(b, o.Dist)
	b = appendF32(b, o.Bearing)
	return appendCov2(b, &o.Covariance), nil
}

// MarshalBinary returns the 28-byte body.
func (o *Opponent) MarshalBinary() ([]byte, error) {
	return o.AppendBinary(make([]byte, 0, OpponentSize))
}

// UnmarshalBinary decodes a 28-byte body.
func (o *Opponent) UnmarshalBinary(b []byte) error {
	if err := checkBody(TypeOpponent, b); err != nil {
		return err
	}
	*o = Opponent{UID: binary.LittleEndian.Uint32(b), Dist: getF32(b[4:]), Bearing: getF32(b[8:]),
		Covariance: getCov2(b[12:])}
	return nil
}

// OpponentDisappeared announces that the opponent UID is gone (type 6).
type OpponentDisappeared struct {
	UID uint32
}

// RecordType returns [TypeOpponentDisapp].
func (*OpponentDisappeared) RecordType() RecordType { return TypeOpponentDisapp }

// AppendBinary appends the 4-byte body.
func (o *OpponentDisappeared) AppendBinary(b []byte) ([]byte, error) {
	return binary.LittleEndian.AppendUint32(b, o.UID), nil
}

// MarshalBinary returns the 4-byte body.
func (o *OpponentDisappeared) MarshalBinary() ([]byte, error) {
	return o.AppendBinary(make([]byte, 0, OpponentDisappSize))
}

// UnmarshalBinary decodes a 4-byte body.
func (o *OpponentDisappeared) UnmarshalBinary(b []byte) error {
	if err := checkBody(TypeOpponentDisapp, b); err != nil {
		return err
	}
	o.UID = binary.LittleEndian.Uint32(b)
	return nil
}

// Game state word bits.
const (
	gsStateBit        = 0
	gsStateTeamBit    = 4
	gsScoreCyanBit    = 6
	gsScoreMagentaBit = 14
	gsOurTeamBit      = 22
	gsGoalColorBit    = 24
	gsHalfBit         = 25
	gsReservedBit     = 26
)

// GameState is the referee state as a robot knows it (type 8).
type GameState struct {
	State        uint8 // 4 bits; MSL* or SPL* constants
	StateTeam    Team  // team the state refers to (kick-off team etc.)
	ScoreCyan    uint8
	ScoreMagenta uint8
	OurTeam      Team
	OurGoalColor GoalColor
	Half         Half
	Reserved     uint8 // 6 unused bits
}

// RecordType returns [TypeGameState].
func (*GameState) RecordType() RecordType { return TypeGameState }

// Word packs the game state into its bit-field word; it fails if a field does not fit.
func (g *GameState) Word() (uint32, error) {
	switch {
	case g.State > MaxGameState:
		return 0, &RangeError{Field: "game state", Value: int64(g.State), Max: MaxGameState}
	case g.StateTeam > TeamBoth:
		return 0, &RangeError{Field: "state team", Value: int64(g.StateTeam), Max: 3}
	case g.OurTeam > TeamBoth:
		return 0, &RangeError{Field: "our team", Value: int64(g.OurTeam), Max: 3}
	case g.OurGoalColor > GoalYellow:
		return 0, &RangeError{Field: "goal color", Value: int64(g.OurGoalColor), Max: 1}
	case g.Half > HalfSecond:
		return 0, &RangeError{Field: "half", Value: int64(g.Half), Max: 1}
	case g.Reserved > 63:
		return 0, &RangeError{Field: "game state reserved bits", Value: int64(g.Reserved), Max: 63}
	}
	return uint32(g.State)<<gsStateBit | uint32(g.StateTeam)<<gsStateTeamBit |
		uint32(g.ScoreCyan)<<gsScoreCyanBit | uint32(g.ScoreMagenta)<<gsScoreMagentaBit |
		uint32(g.OurTeam)<<gsOurTeamBit | uint32(g.OurGoalColor)<<gsGoalColorBit |
		uint32(g.Half)<<gsHalfBit | uint32(g.Reserved)<<gsReservedBit, nil
}

// SetWord unpacks a game state word.
func (g *GameState) SetWord(w uint32) {
	*g = GameState{
		State:        uint8(w >> gsStateBit & 0xf),
		StateTeam:    Team(w >> gsStateTeamBit & 3),
		ScoreCyan:    uint8(w >> gsScoreCyanBit),
		ScoreMagenta: uint8(w >> gsScoreMagentaBit),
		OurTeam:      Team(w >> gsOurTeamBit & 3),
		OurGoalColor: GoalColor(w >> gsGoalColorBit & 1),
		Half:         Half(w >> gsHalfBit & 1),
		Reserved:     uint8(w >> gsReservedBit),
	}
}

// AppendBinary appends the 4-byte body.
func (g *GameState) AppendBinary(b []byte) ([]byte, error) {
	w, err := g.Word()
	if err != nil {
		return b, err
	}
	return binary.LittleEndian.AppendUint32(b, w), nil
}

// MarshalBinary returns the 4-byte body.
func (g *GameState) MarshalBinary() ([]byte, error) {
	return g.AppendBinary(make([]byte, 0, WordSize))
}

// UnmarshalBinary decodes a 4-byte body.
func (g *GameState) UnmarshalBinary(b []byte) error {
	if err := checkBody(TypeGameState, b); err != nil {
		return err
	}
	g.SetWord(binary.LittleEndian.Uint32(b))
	return nil
}

// Penalty word bits.
const (
	penPlayerBit   = 0
	penCodeBit     = 4
	penReservedBit = 10
	penSecondsBit  = 16
)

// Penalty reports a robot's penalty (type 9).
type Penalty struct {
	Player           uint8 // 4 bits
	Code             PenaltyCode
	Reserved         uint8 // 6 unused bits
	SecondsRemaining uint16
}

// RecordType returns [TypePenalty].
func (*Penalty) RecordType() RecordType { return TypePenalty }

// Word packs the penalty into its bit-field word; it fails if a field does not fit.
func (p *Penalty) Word() (uint32, error) {
	switch {
	case p.Player > MaxPenaltyPlayer:
		return 0, &RangeError{Field: "penalty player", Value: int64(p.Player), Max: MaxPenaltyPlayer}
	case p.Code > MaxPenaltyCode:
		return 0, &RangeError{Field: "penalty code", Value: int64(p.Code), Max: MaxPenaltyCode}
	case p.Reserved > 63:
		return 0, &RangeError{Field: "penalty reserved bits", Value: int64(p.Reserved), Max: 63}
	}
	return uint32(p.Player)<<penPlayerBit | uint32(p.Code)<<penCodeBit |
		uint32(p.Reserved)<<penReservedBit | uint32(p.SecondsRemaining)<<penSecondsBit, nil
}

// SetWord unpacks a penalty word.
func (p *Penalty) SetWord(w uint32) {
	*p = Penalty{
		Player:           uint8(w >> penPlayerBit & 0xf),
		Code:             PenaltyCode(w >> penCodeBit & 0x3f),
		Reserved:         uint8(w >> penReservedBit & 0x3f),
		SecondsRemaining: uint16(w >> penSecondsBit),
	}
}

// AppendBinary appends the 4-byte body.
func (p *Penalty) AppendBinary(b []byte) ([]byte, error) {
	w, err := p.Word()
	if err != nil {
		return b, err
	}
	return binary.LittleEndian.AppendUint32(b, w), nil
}

// MarshalBinary returns the 4-byte body.
func (p *Penalty) MarshalBinary() ([]byte, error) { return p.AppendBinary(make([]byte, 0, WordSize)) }

// UnmarshalBinary decodes a 4-byte body.
func (p *Penalty) UnmarshalBinary(b []byte) error {
	if err := checkBody(TypePenalty, b); err != nil {
		return err
	}
	p.SetWord(binary.LittleEndian.Uint32(b))
	return nil
}

// Fat flags word bits.
const (
	fatValidPoseBit       = 0
	fatValidVelocityBit   = 1
	fatValidRelBallBit    = 2
	fatValidRelBallVelBit = 3
	fatNumOpponentsBit    = 4
	fatReservedBit        = 12
	fatReservedMax        = 1<<20 - 1
)

// Fat is the legacy all-in-one record (type 7), sent by Fawkes in a datagram of its own
// when the fat message is enabled. Parts whose Valid flag is false are zero.
type Fat struct {
	ValidPose, ValidVelocity, ValidRelBall, ValidRelBallVelocity bool
	// NumOpponents is the number of valid entries in Opponents. The 8-bit field can
	// exceed FatOpponents; Fawkes receivers then ignore all opponents.
	NumOpponents uint8
	Reserved     uint32 // 20 unused bits
	Pose         Pose
	Velocity     Velocity
	RelBall      RelBall
	RelBallVel   RelBallVelocity
	Opponents    [FatOpponents]Opponent
}

// RecordType returns [TypeFat].
func (*Fat) RecordType() RecordType { return TypeFat }

// ValidOpponents returns the valid opponent entries, or nil if NumOpponents exceeds
// [FatOpponents] (Fawkes ignores the opponents of such a record).
func (f *Fat) ValidOpponents() []Opponent {
	if f.NumOpponents > FatOpponents {
		return nil
	}
	return f.Opponents[:f.NumOpponents]
}

// AppendBinary appends the 480-byte body.
func (f *Fat) AppendBinary(b []byte) ([]byte, error) {
	if f.Reserved > fatReservedMax {
		return b, &RangeError{Field: "fat reserved bits", Value: int64(f.Reserved), Max: fatReservedMax}
	}
	w := uint32(f.NumOpponents)<<fatNumOpponentsBit | f.Reserved<<fatReservedBit
	for bit, v := range [...]bool{fatValidPoseBit: f.ValidPose, fatValidVelocityBit: f.ValidVelocity,
		fatValidRelBallBit: f.ValidRelBall, fatValidRelBallVelBit: f.ValidRelBallVelocity} {
		if v {
			w |= 1 << bit
		}
	}
	start := len(b)
	b = binary.LittleEndian.AppendUint32(b, w)
	b, _ = f.Pose.AppendBinary(b)
	b, _ = f.Velocity.AppendBinary(b)
	b, err := f.RelBall.AppendBinary(b)
	if err != nil {
		return b[:start], fmt.Errorf("fat record: %w", err)
	}
	b, _ = f.RelBallVel.AppendBinary(b)
	for i := range f.Opponents {
		b, _ = f.Opponents[i].AppendBinary(b)
	}
	return b, nil
}

// MarshalBinary returns the 480-byte body.
func (f *Fat) MarshalBinary() ([]byte, error) { return f.AppendBinary(make([]byte, 0, FatSize)) }

// UnmarshalBinary decodes a 480-byte body.
func (f *Fat) UnmarshalBinary(b []byte) error {
	if err := checkBody(TypeFat, b); err != nil {
		return err
	}
	w := binary.LittleEndian.Uint32(b)
	f.ValidPose = w>>fatValidPoseBit&1 == 1
	f.ValidVelocity = w>>fatValidVelocityBit&1 == 1
	f.ValidRelBall = w>>fatValidRelBallBit&1 == 1
	f.ValidRelBallVelocity = w>>fatValidRelBallVelBit&1 == 1
	f.NumOpponents = uint8(w >> fatNumOpponentsBit)
	f.Reserved = w >> fatReservedBit
	// The sub-slices have exactly the sizes the part decoders need.
	_ = f.Pose.UnmarshalBinary(b[fatOffPose:fatOffVelocity])
	_ = f.Velocity.UnmarshalBinary(b[fatOffVelocity:fatOffRelBall])
	_ = f.RelBall.UnmarshalBinary(b[fatOffRelBall:fatOffRelBallVel])
	_ = f.RelBallVel.UnmarshalBinary(b[fatOffRelBallVel:fatOffOpponents])
	for i := range f.Opponents {
		off := fatOffOpponents + i*OpponentSize
		_ = f.Opponents[i].UnmarshalBinary(b[off : off+OpponentSize])
	}
	return nil
}
