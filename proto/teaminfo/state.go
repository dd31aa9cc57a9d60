package teaminfo

import (
	"math"
	"strconv"
	"time"
)

// Role is the behaviour role a robot announces (BehaviorInfo.current_role).
type Role uint8

// Roles as dmsgs/BehaviorInfo defines them. 0 means none was set yet.
const (
	RoleNone      Role = 0
	RoleStriker   Role = 1
	RoleDefender  Role = 2
	RoleSupporter Role = 3
	RoleGoalie    Role = 4
	RoleOther     Role = 5
)

// Valid reports whether r is a role the formats define (RoleNone .. RoleOther).
func (r Role) Valid() bool { return r <= RoleOther }

func (r Role) String() string {
	switch r {
	case RoleNone:
		return "none"
	case RoleStriker:
		return "striker"
	case RoleDefender:
		return "defender"
	case RoleSupporter:
		return "supporter"
	case RoleGoalie:
		return "goalie"
	case RoleOther:
		return "other"
	}
	return "role(" + strconv.Itoa(int(r)) + ")"
}

// PlayState is the team-play state (BehaviorInfo.team_play_state, TeamInfo.state).
type PlayState uint8

// Team-play states as dmsgs/TeamInfo defines them.
const (
	PlayInactive     PlayState = 0
	PlayPlaying      PlayState = 1
	PlayBallHandling PlayState = 2
	PlayPlacing      PlayState = 3
	PlaySearching    PlayState = 4
	PlayInitializing PlayState = 5
	PlayAssisting    PlayState = 6
)

// Valid reports whether s is a play state the formats define (PlayInactive ..
// PlayAssisting).
func (s PlayState) Valid() bool { return s <= PlayAssisting }

func (s PlayState) String() string {
	switch s {
	case PlayInactive:
		return "inactive"
	case PlayPlaying:
		return "playing"
	case PlayBallHandling:
		return "ball_handling"
	case PlayPlacing:
		return "placing"
	case PlaySearching:
		return "searching"
	case PlayInitializing:
		return "initializing"
	case PlayAssisting:
		return "assisting"
	}
	return "play_state(" + strconv.Itoa(int(s)) + ")"
}

// MaxVoronoi is the most voronoi points a packet carries (MAX_VORONOI_SIZE).
const MaxVoronoi = 6

// Pose is a position on the field with a heading: metres and radians.
type Pose struct {
	X, Y, Theta float64
}

// Point is a position: metres. Z is only carried by the zju format.
type Point struct {
	X, Y, Z float64
}

// State is what a teammate announces, independent of the wire format, in SI units:
// metres, radians and seconds; qualities are fractions in [0, 1]. Both formats convert to
// and from it ([ZJUPacket.ToState], [ZJUPacket.FromState], [DNetPacket.ToState],
// [DNetPacket.FromState]); each format carries a subset, see the package documentation.
//
// NaN means "unknown" for every float field. Durations a format does not carry come out
// as NaN; other fields a format does not carry come out as their zero value.
type State struct {
	Team   uint8
	Player uint8
	// Seq is the sender's packet sequence number (dnet only; 0 from zju).
	Seq uint32
	// Stamp is the sender's clock when it sent the packet, as time since that clock's
	// epoch (the Unix epoch for wall-clock ROS time, the simulation start under sim time).
	Stamp time.Duration
	// Test is the spare byte of the zju format, passed through (zju only).
	Test uint8

	Incapacitated bool // not stable (MotionInfo.stable == false)
	Fallen        bool // dnet only
	Penalised     bool // dnet only
	AttackRight   bool
	Priority      bool // team-play priority
	SeeBall       bool
	SeeCircle     bool
	SeeGoal       bool
	GCConnected   bool
	GCStopped     bool // dnet only

	Role        Role
	PlayState   PlayState
	KickerID    uint8
	MatesOnline [MaxMates]bool

	RobotPos  Pose
	Dest      Pose
	FinalDest Pose

	AttackTarget   Point
	BallField      Point // relative to the robot
	BallGlobal     Point
	TeamBallGlobal Point // dnet only
	CircleField    Point
	CircleGlobal   Point
	GoalField      Point
	GoalGlobal     Point

	TimeSinceLastKick float64 // s
	TimeToReachBall   float64 // s; dnet only
	BallAge           float64 // s since the ball was last seen; dnet only

	BallQuality      float64
	FieldQuality     float64
	FieldConsistency float64

	GCState          uint8 // GameController state
	GCSecondaryState uint8 // GameController secondary state (zju gc_state2)
	GamePhase        uint8 // dnet only
	SetPlay          uint8 // dnet only

	Voronoi    [MaxVoronoi]Point // dnet only; the first VoronoiLen entries are valid
	VoronoiLen int

	// Echo answers one teammate's packet, so that it can tell its clock from ours (dnet
	// version 2 only; zero when the packet answers none).
	Echo Echo
}

// Echo is a teammate packet that a packet answers: from it and the answering packet's
// stamp, the teammate learns when its packet arrived in the sender's clock (see package
// clock/offset).
type Echo struct {
	// Player is the player number of the teammate whose packet is answered; 0: none.
	Player uint8
	// StampMs is the low 32 bits of that packet's stamp, in whole milliseconds.
	StampMs uint32
	// Hold is the answering packet's stamp minus the time the sender received the
	// answered packet, both truncated to whole milliseconds first (so a whole number of
	// milliseconds, 0 .. MaxEchoHoldMs).
	Hold time.Duration
}

// OffsetBound returns how far at most the answering robot's clock is ahead of the
// answered robot's: stamp is the answering packet's stamp (its sender's clock) and
// answered the full stamp of the packet e answers (the answered robot's clock). The
// answered packet was sent at answered, received (after it) at stamp - Hold in the
// answering robot's clock, with up to a millisecond lost to truncation.
func (e Echo) OffsetBound(stamp, answered time.Duration) time.Duration {
	return stamp.Truncate(time.Millisecond) - e.Hold + time.Millisecond - answered
}

// VoronoiPoints returns the valid voronoi points (VoronoiLen clamped to 0..MaxVoronoi).
func (s *State) VoronoiPoints() []Point {
	return s.Voronoi[:min(max(s.VoronoiLen, 0), MaxVoronoi)]
}

// Unit factors between the zju units (cm, degrees) and the model's (m, radians).
const (
	cmPerM    = 100
	degPerRad = 180 / math.Pi
)

// ToState converts p to the model, overwriting every field of s: cm become metres and the
// heading in z of robot_pos, dest and final_dest (degrees) becomes Pose.Theta in radians.
// recv_timestamp has no counterpart in the model (receivers set their own). Fields zju does
// not carry are zero, except TimeToReachBall and BallAge, which are NaN (unknown).
func (p *ZJUPacket) ToState(s *State) {
	*s = State{
		Team:              p.TeamNumber,
		Player:            p.PlayerNumber,
		Stamp:             time.Duration(p.TxpTimestamp.Sec)*time.Second + time.Duration(p.TxpTimestamp.Nsec),
		Test:              p.Test,
		Incapacitated:     p.Incapacitated,
		AttackRight:       p.AttackRight,
		Priority:          p.Priority,
		SeeBall:           p.SeeBall,
		SeeCircle:         p.SeeCircle,
		SeeGoal:           p.SeeGoal,
		GCConnected:       p.GCConnected,
		Role:              Role(p.Role),
		PlayState:         PlayState(p.State),
		KickerID:          p.KickerID,
		MatesOnline:       p.MatesOnline,
		RobotPos:          zjuPose(p.RobotPos),
		Dest:              zjuPose(p.Dest),
		FinalDest:         zjuPose(p.FinalDest),
		AttackTarget:      zjuPoint(p.AttackTarget),
		BallField:         zjuPoint(p.BallField),
		BallGlobal:        zjuPoint(p.BallGlobal),
		CircleField:       zjuPoint(p.CircleField),
		CircleGlobal:      zjuPoint(p.CircleGlobal),
		GoalField:         zjuPoint(p.GoalField),
		GoalGlobal:        zjuPoint(p.GoalGlobal),
		TimeSinceLastKick: float64(p.TimeSinceLastKick),
		TimeToReachBall:   math.NaN(),
		BallAge:           math.NaN(),
		BallQuality:       float64(p.BallQuality),
		FieldQuality:      float64(p.FieldQuality),
		FieldConsistency:  float64(p.FieldConsistency),
		GCState:           p.GCState,
		GCSecondaryState:  p.GCState2,
	}
}

// FromState sets p from the model, overwriting every field. Metres become cm and radians
// degrees; the stamp is clamped to what a ROS 1 time holds (0 .. 2^32-1 s); recv_timestamp
// is zero, as a ZJUDancer sender leaves it. Model fields zju lacks are dropped.
func (p *ZJUPacket) FromState(s *State) {
	*p = ZJUPacket{
		TxpTimestamp:      rosTime(s.Stamp),
		PlayerNumber:      s.Player,
		TeamNumber:        s.Team,
		Test:              s.Test,
		Incapacitated:     s.Incapacitated,
		Role:              uint8(s.Role),
		AttackRight:       s.AttackRight,
		Dest:              poseZJU(s.Dest),
		FinalDest:         poseZJU(s.FinalDest),
		AttackTarget:      pointZJU(s.AttackTarget),
		TimeSinceLastKick: float32(s.TimeSinceLastKick),
		State:             uint8(s.PlayState),
		Priority:          s.Priority,
		KickerID:          s.KickerID,
		MatesOnline:       s.MatesOnline,
		SeeBall:           s.SeeBall,
		SeeCircle:         s.SeeCircle,
		SeeGoal:           s.SeeGoal,
		RobotPos:          poseZJU(s.RobotPos),
		BallField:         pointZJU(s.BallField),
		BallGlobal:        pointZJU(s.BallGlobal),
		CircleField:       pointZJU(s.CircleField),
		CircleGlobal:      pointZJU(s.CircleGlobal),
		GoalField:         pointZJU(s.GoalField),
		GoalGlobal:        pointZJU(s.GoalGlobal),
		BallQuality:       float32(s.BallQuality),
		FieldQuality:      float32(s.FieldQuality),
		FieldConsistency:  float32(s.FieldConsistency),
		GCConnected:       s.GCConnected,
		GCState:           s.GCState,
		GCState2:          s.GCSecondaryState,
	}
}

// DecodeZJU decodes a zju packet straight into the model.
func DecodeZJU(b []byte, s *State) error {
	var p ZJUPacket
	if err := p.UnmarshalBinary(b); err != nil {
		return err
	}
	p.ToState(s)
	return nil
}

// AppendZJU appends the zju packet for s to b; it fails as [ZJUPacket.AppendBinary].
func AppendZJU(b []byte, s *State) ([]byte, error) {
	var p ZJUPacket
	p.FromState(s)
	return p.AppendBinary(b)
}

func zjuPose(v Vector3) Pose {
	return Pose{X: v.X / cmPerM, Y: v.Y / cmPerM, Theta: v.Z / degPerRad}
}

func zjuPoint(v Vector3) Point {
	return Point{X: v.X / cmPerM, Y: v.Y / cmPerM, Z: v.Z / cmPerM}
}

func poseZJU(p Pose) Vector3 {
	return Vector3{X: p.X * cmPerM, Y: p.Y * cmPerM, Z: p.Theta * degPerRad}
}

func pointZJU(p Point) Vector3 {
	return Vector3{X: p.X * cmPerM, Y: p.Y * cmPerM, Z: p.Z * cmPerM}
}

func rosTime(d time.Duration) RosTime {
	if d <= 0 {
		return RosTime{}
	}
	sec := d / time.Second
	if sec > math.MaxUint32 {
		return RosTime{Sec: math.MaxUint32, Nsec: uint32(time.Second - 1)}
	}
	return RosTime{Sec: uint32(sec), Nsec: uint32(d % time.Second)}
}
