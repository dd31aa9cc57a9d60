package sim3d

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"sync"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"github.com/robocup-dnetwork/dnetwork/node/internal/warnlimit"
	"github.com/robocup-dnetwork/dnetwork/node/units"
	sim3dproto "github.com/robocup-dnetwork/dnetwork/proto/sim3d"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/builtin_interfaces"
)

// TeamInfoFormat is the format of every TeamInfo a Team publishes. dmsgs/TeamInfo names
// only FORMAT_ZJU and FORMAT_DNET; the say message fills the fields the .msg marks as
// "dnet format only" (sequence, fallen, ball_age), so receivers read it as dnet.
const TeamInfoFormat = dmsgs.TeamInfoFormatDnet

// warnEvery is the shortest interval between two log records of the same cause.
const warnEvery = 10 * time.Second

// maxServerTime bounds the server times SetServerTime accepts, in seconds (about 317
// years; far beyond any simulation, well inside int64 cycles).
const maxServerTime = 1e10

// TimeSource names the time base the slot rule counts cycles on.
type TimeSource uint8

// Time bases.
const (
	// SourceClock counts cycles of the component's clock since the Unix epoch: the ROS
	// clock, which follows the simulator's /clock under use_sim_time.
	SourceClock TimeSource = iota
	// SourceServer counts cycles of the server time last passed to SetServerTime (the
	// agent's time perceptor), while it is fresh.
	SourceServer
)

func (s TimeSource) String() string {
	switch s {
	case SourceClock:
		return "clock"
	case SourceServer:
		return "server"
	}
	return fmt.Sprintf("TimeSource(%d)", uint8(s))
}

// HearDrops counts heard messages that were not published, by cause.
type HearDrops struct {
	// Self: the robot's own message, echoed by the server.
	Self uint64
	// OtherTeam: labelled with a team other than ours (Status.Team).
	OtherTeam uint64
	// Foreign: a well-formed team message whose checksum does not match our key
	// (another team using this codec, or a damaged message).
	Foreign uint64
	// Malformed: not a team message of this codec (length, alphabet, format or a field
	// out of range), including other teams' encodings.
	Malformed uint64
	// OwnNumber: a teammate's message that carries our own uniform number (two robots
	// configured with the same number).
	OwnNumber uint64
	// Duplicate: the same player and sequence number again within one round.
	Duplicate uint64
	// Publish: decoded, but publishing the TeamInfo failed.
	Publish uint64
}

// Total returns the sum of all causes.
func (d HearDrops) Total() uint64 {
	return d.Self + d.OtherTeam + d.Foreign + d.Malformed + d.OwnNumber + d.Duplicate + d.Publish
}

// Mate is what was heard from one teammate.
type Mate struct {
	// Heard counts the teammate's messages decoded (duplicates excluded).
	Heard uint64
	// Lost estimates the teammate's messages that did not arrive, from gaps in the
	// 8-bit sequence number (a restarted sender adds a bogus gap once).
	Lost uint64
	// Seq is the sequence number of the last message.
	Seq uint8
	// LastHeard is the clock time of the last message; zero if none.
	LastHeard time.Time
}

// Status is a snapshot of a Team's counters for diagnostics. Every snapshot satisfies
// Evaluations = Said + NotDue + EncodeErrors + SayPublishErrors and Heard = Accepted +
// Dropped.Total(): an evaluation or a hear message is counted once its outcome is known.
type Status struct {
	// Running is true while Run is running.
	Running  bool
	Player   int
	TeamSize int
	// Team is the team name hears are checked against: Config.TeamName, or, when that
	// is empty, the label of the robot's own latest echo; empty before either.
	Team string

	// Source is the time base of the last evaluation, LastCycle its cycle.
	Source    TimeSource
	LastCycle int64
	// HasSaid reports whether a message was said since the last resync; LastSaidCycle
	// is its cycle and Seq its sequence number.
	HasSaid       bool
	LastSaidCycle int64
	Seq           uint8

	// Evaluations counts ticks and server times looked at, once each is done.
	Evaluations uint64
	// Said counts Sim3dSay messages published.
	Said uint64
	// NotDue counts evaluations outside the player's slot, or in a cycle already said.
	NotDue uint64
	// EncodeErrors counts slots skipped because the robot's state could not be encoded
	// (a role or state above 7, a non-finite position).
	EncodeErrors uint64
	// SayPublishErrors counts messages whose publication failed.
	SayPublishErrors uint64
	// SlotsMissed counts own slots that passed between two evaluations.
	SlotsMissed uint64
	// Resyncs counts changes of the time base and times that went backwards.
	Resyncs uint64
	// BadServerTimes counts SetServerTime values that were not finite, negative or too
	// large; they are ignored.
	BadServerTimes uint64

	// Heard counts hear messages handled; Accepted those published as TeamInfo.
	Heard    uint64
	Accepted uint64
	Dropped  HearDrops
	// LastGameTime is the game time of the last hear message.
	LastGameTime float64
	// Mates holds what was heard per teammate, indexed by uniform number - 1.
	Mates [sim3dproto.MaxUnum]Mate
}

// inputs is the robot state the say message is made from.
type inputs struct {
	haveMotion bool
	stable     bool

	role, state uint8

	x, y, heading float64 // metres, degrees

	seeBall      bool      // the latest VisionInfo sees the ball
	ballSeen     bool      // a VisionInfo has seen it
	ballX, ballY float64   // metres, field frame
	ballAt       time.Time // clock time of the last VisionInfo that saw it
}

// Team carries the team's information over the 3D simulator's say/hear channel. It says
// the robot's state as a Sim3dSay in its slot (see Slot) and turns the teammates'
// messages, passed to HandleHear, into TeamInfo messages. All methods are safe for
// concurrent use.
type Team struct {
	cfg   Config
	clk   clock.Clock
	codec sim3dproto.TeamCodec
	slot  Slot
	say   bus.Publisher[dmsgs.Sim3dSay]
	info  bus.Publisher[dmsgs.TeamInfo]
	log   *slog.Logger
	round time.Duration // one slot round on the clock
	// inputSync, if set, hands over held-back inputs through the setters (SetInputSync).
	inputSync bus.InputSync

	mu sync.Mutex // guards the fields below
	in inputs
	// Server time of the last SetServerTime, as a cycle, and when it arrived.
	srvCycle int64
	srvAt    time.Time
	srvValid bool
	// The last evaluation.
	lastCycle int64
	lastSrc   TimeSource
	lastValid bool
	st        Status
	warned    warnlimit.Limiter[string]
}

// New returns a Team that publishes its messages on say and the teammates' on info.
func New(cfg Config, clk clock.Clock, say bus.Publisher[dmsgs.Sim3dSay], info bus.Publisher[dmsgs.TeamInfo]) (*Team, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if clk == nil || say == nil || info == nil {
		return nil, fmt.Errorf("%w: nil clock or publisher", ErrConfig)
	}
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	t := &Team{
		cfg:    cfg,
		clk:    clk,
		codec:  sim3dproto.NewTeamCodec(cfg.Key),
		slot:   Slot{Player: cfg.Player, TeamSize: cfg.TeamSize, Cycles: cfg.SlotCycles},
		say:    say,
		info:   info,
		log:    log.With("component", "sim3d", "player", cfg.Player),
		warned: warnlimit.Limiter[string]{Every: warnEvery},
	}
	t.round = time.Duration(t.slot.Period()) * cfg.Cycle
	t.st.Player, t.st.TeamSize, t.st.Team = cfg.Player, cfg.TeamSize, cfg.TeamName
	return t, nil
}

// Run evaluates the slot rule once per cycle of the clock until ctx is done.
func (t *Team) Run(ctx context.Context) error {
	tk := t.clk.NewTicker(t.cfg.Cycle)
	defer tk.Stop()
	t.setRunning(true)
	defer t.setRunning(false)
	for {
		select {
		case <-ctx.Done():
			return nil
		case now := <-tk.C():
			t.evaluate(now)
		}
	}
}

func (t *Team) setRunning(r bool) {
	t.mu.Lock()
	t.st.Running = r
	t.mu.Unlock()
}

// SetMotion takes the robot's MotionInfo: a robot that is not stable is sent as fallen.
func (t *Team) SetMotion(m *dmsgs.MotionInfo) {
	t.SetMotionAt(m, time.Time{})
}

// SetMotionAt is SetMotion for a MotionInfo handed over after it arrived; the say
// message does not date it, so at is not used.
func (t *Team) SetMotionAt(m *dmsgs.MotionInfo, at time.Time) {
	if m == nil {
		return
	}
	t.mu.Lock()
	t.in.haveMotion, t.in.stable = true, m.Stable
	t.mu.Unlock()
}

// SetBehavior takes the robot's BehaviorInfo: role and team-play state.
func (t *Team) SetBehavior(b *dmsgs.BehaviorInfo) {
	t.SetBehaviorAt(b, time.Time{})
}

// SetBehaviorAt is SetBehavior for a BehaviorInfo handed over after it arrived; the say
// message does not date it, so at is not used.
func (t *Team) SetBehaviorAt(b *dmsgs.BehaviorInfo, at time.Time) {
	if b == nil {
		return
	}
	t.mu.Lock()
	t.in.role, t.in.state = b.CurrentRole, b.TeamPlayState
	t.mu.Unlock()
}

// SetVision takes the robot's VisionInfo: its pose (robot_pos, cm and degrees) and, when
// it sees the ball, the ball (ball_global, cm).
func (t *Team) SetVision(v *dmsgs.VisionInfo) {
	if v == nil {
		return
	}
	t.SetVisionAt(v, t.clk.Now())
}

// SetVisionAt is SetVision for a VisionInfo that arrived at at (the clock's time then),
// from which the ball's age counts when it sees the ball.
func (t *Team) SetVisionAt(v *dmsgs.VisionInfo, at time.Time) {
	if v == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	in := &t.in
	in.x, in.y, in.heading = units.Metres(v.RobotPos.X), units.Metres(v.RobotPos.Y), v.RobotPos.Z
	in.seeBall = v.SeeBall
	if v.SeeBall {
		in.ballSeen = true
		in.ballX, in.ballY = units.Metres(v.BallGlobal.X), units.Metres(v.BallGlobal.Y)
		in.ballAt = at
	}
}

// SetInputSync sets f, which the Team calls at every evaluation of the slot rule (on
// Run's goroutine and in SetServerTime) before it reads what the setters wrote, so that
// inputs held back elsewhere can be handed over first through the setters. f is called
// without the Team's lock held; nil means none. Call it before Run and before the first
// SetServerTime: it is not safe concurrently with them.
func (t *Team) SetInputSync(f func()) { t.inputSync = f }

// SetServerTime takes the server time in seconds from the agent's time perceptor,
// (time (now 93.60)), as the agent relays it on sim3d/time for every percept, and
// evaluates the slot rule for its cycle at once, so that a message due in this cycle is
// published before the agent sends its actions.
func (t *Team) SetServerTime(seconds float64) {
	now := t.clk.Now()
	cycles := seconds / t.cfg.Cycle.Seconds()
	if math.IsNaN(seconds) || seconds < 0 || seconds > maxServerTime || cycles > math.MaxInt64/2 {
		t.mu.Lock()
		t.st.BadServerTimes++
		t.warnLocked(now, "server time", "ignoring a bad server time", "seconds", seconds)
		t.mu.Unlock()
		return
	}
	t.mu.Lock()
	t.srvCycle, t.srvAt, t.srvValid = int64(math.Round(cycles)), now, true
	t.mu.Unlock()
	t.evaluate(now)
}

// Status returns a snapshot of the counters.
func (t *Team) Status() Status {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.st
}

// evaluate says the robot's state if its slot is due at now. The held-back inputs are
// handed over first, here: decide reads them (stateLocked) with the lock held.
func (t *Team) evaluate(now time.Time) {
	t.inputSync.Sync()
	msg, ok := t.decide(now)
	if !ok {
		return
	}
	err := t.say.Publish(&msg)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.st.Evaluations++
	if err != nil {
		t.st.SayPublishErrors++
		t.warnLocked(now, "say publish", "cannot publish the say message", "err", err)
		return
	}
	t.st.Said++
}

// cycleLocked returns the current cycle and its time base.
func (t *Team) cycleLocked(now time.Time) (int64, TimeSource) {
	if t.srvValid {
		if d := now.Sub(t.srvAt); d <= t.cfg.ServerTimeTimeout && d >= -t.cfg.ServerTimeTimeout {
			return t.srvCycle, SourceServer
		}
	}
	return floorDiv(int64(now.Sub(unixEpoch)), int64(t.cfg.Cycle)), SourceClock
}

var unixEpoch = time.Unix(0, 0)

// decide applies the slot rule at now. When a message is due it reserves the cycle and
// the sequence number and returns the message; evaluate counts the evaluation once the
// message is published, so that Status never shows one half done.
func (t *Team) decide(now time.Time) (dmsgs.Sim3dSay, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	st := &t.st
	c, src := t.cycleLocked(now)
	if t.lastValid && (src != t.lastSrc || c < t.lastCycle) {
		// A new time base, or a restarted simulation: cycles before are not comparable.
		st.Resyncs++
		st.HasSaid = false
		t.lastValid = false
	}
	if t.lastValid {
		if n := t.slot.Between(t.lastCycle, c); n > 0 {
			st.SlotsMissed += n
			t.warnLocked(now, "slot missed", "own talking slot passed between two evaluations",
				"missed", n, "from_cycle", t.lastCycle, "to_cycle", c)
		}
	}
	t.lastCycle, t.lastSrc, t.lastValid = c, src, true
	st.Source, st.LastCycle = src, c
	if !t.slot.Due(c) || st.HasSaid && st.LastSaidCycle == c {
		st.Evaluations++
		st.NotDue++
		return dmsgs.Sim3dSay{}, false
	}
	s := t.stateLocked(now)
	s.Seq = st.Seq + 1
	var buf [sim3dproto.TeamMessageLen]byte
	out, err := t.codec.Append(buf[:0], &s)
	if err != nil {
		st.Evaluations++
		st.EncodeErrors++
		t.warnLocked(now, "encode", "cannot encode the robot's state, slot skipped", "err", err)
		return dmsgs.Sim3dSay{}, false
	}
	st.Seq = s.Seq
	st.HasSaid, st.LastSaidCycle = true, c
	return dmsgs.Sim3dSay{Message: string(out)}, true
}

// stateLocked builds the team state from the inputs (Seq left zero).
func (t *Team) stateLocked(now time.Time) sim3dproto.TeamState {
	in := &t.in
	s := sim3dproto.TeamState{
		Player:  uint8(t.cfg.Player),
		Role:    in.role,
		State:   in.state,
		Fallen:  in.haveMotion && !in.stable,
		X:       in.x,
		Y:       in.y,
		Heading: in.heading,
	}
	if in.ballSeen {
		var age time.Duration
		if !in.seeBall {
			// A clock that went back past the sighting (a restarted simulation) leaves
			// the age unknown; less than a cycle back is taken as the same instant.
			if age = now.Sub(in.ballAt); age < -t.cfg.Cycle {
				return s
			}
			age = max(age, 0)
		}
		if age <= t.cfg.BallForget {
			s.BallKnown, s.BallX, s.BallY, s.BallAge = true, in.ballX, in.ballY, age
		}
	}
	return s
}

type dropCause uint8

const (
	accepted dropCause = iota
	dropSelf
	dropOtherTeam
	dropForeign
	dropMalformed
	dropOwnNumber
	dropDuplicate
	dropPublish
)

// HandleHear takes one heard message (the agent's hear perceptor) and publishes it as a
// TeamInfo if it is a teammate's message made with our key. Everything else is counted
// by cause.
func (t *Team) HandleHear(h *dmsgs.Sim3dHear) {
	now := t.clk.Now()
	var (
		s     sim3dproto.TeamState
		cause = accepted
		err   error
	)
	switch {
	case h == nil:
		cause, err = dropMalformed, errors.New("sim3d: nil hear message")
	case h.Own:
		cause = dropSelf
		t.learnTeam(h.Team)
	case h.Team != "" && t.otherTeam(h.Team):
		cause = dropOtherTeam
	default:
		if err = t.codec.Decode([]byte(h.Message), &s); err != nil {
			cause = dropMalformed
			if errors.Is(err, sim3dproto.ErrTeamChecksum) {
				cause = dropForeign
			}
		} else if int(s.Player) == t.cfg.Player {
			cause = dropOwnNumber
		}
	}
	if cause == accepted && t.duplicate(&s, now) {
		cause = dropDuplicate
	}
	if cause == accepted {
		var ti dmsgs.TeamInfo
		t.fillTeamInfo(&ti, &s, now, t.hearAge(&s, h.ServerTime))
		if err = t.info.Publish(&ti); err != nil {
			cause = dropPublish
		}
	}

	t.mu.Lock()
	defer t.mu.Unlock()
	st := &t.st
	st.Heard++
	if h != nil {
		st.LastGameTime = h.GameTime
	}
	if cause == accepted || cause == dropPublish {
		t.mateLocked(&s, now)
	}
	switch cause {
	case accepted:
		st.Accepted++
	case dropSelf:
		st.Dropped.Self++
	case dropOtherTeam:
		st.Dropped.OtherTeam++
	case dropForeign:
		st.Dropped.Foreign++
		t.debugLocked(now, "foreign", "heard a team message made with another key", "err", err)
	case dropMalformed:
		st.Dropped.Malformed++
		t.debugLocked(now, "malformed", "heard a message that is not a team message", "err", err)
	case dropOwnNumber:
		st.Dropped.OwnNumber++
		t.warnLocked(now, "own number", "a teammate says it has our uniform number; check the robots' player numbers")
	case dropDuplicate:
		st.Dropped.Duplicate++
		t.warnLocked(now, "duplicate", "heard a teammate's message twice", "player", s.Player, "seq", s.Seq)
	case dropPublish:
		st.Dropped.Publish++
		t.warnLocked(now, "team publish", "cannot publish TeamInfo", "err", err)
	}
}

// learnTeam takes our team name from the label of the robot's own echo, when
// Config.TeamName is not set: the server labels it with the name the agent joined with.
func (t *Team) learnTeam(label string) {
	if t.cfg.TeamName != "" || label == "" {
		return
	}
	t.mu.Lock()
	t.st.Team = label
	t.mu.Unlock()
}

// otherTeam reports whether a hear labelled label comes from another team than ours
// (Config.TeamName, else the name learnt from our own echo; none known: not other).
func (t *Team) otherTeam(label string) bool {
	t.mu.Lock()
	ours := t.st.Team
	t.mu.Unlock()
	return ours != "" && label != ours
}

// duplicate reports whether s repeats the last message of its sender within one round
// (a player speaks once per round, each time with the next sequence number).
func (t *Team) duplicate(s *sim3dproto.TeamState, now time.Time) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	m := &t.st.Mates[s.Player-1]
	if m.Heard == 0 || m.Seq != s.Seq {
		return false
	}
	d := now.Sub(m.LastHeard)
	return d >= 0 && d < t.round
}

// mateLocked records a decoded teammate message.
func (t *Team) mateLocked(s *sim3dproto.TeamState, now time.Time) {
	m := &t.st.Mates[s.Player-1]
	if m.Heard > 0 {
		m.Lost += uint64(s.Seq - m.Seq - 1)
	}
	m.Heard++
	m.Seq, m.LastHeard = s.Seq, now
}

// hearAge returns how long before the hear perceptor's server time the sender decided
// its message: the sender speaks in the first cycle of its slot, and a say decided in
// cycle s is heard in cycle s+MinHearDelay at the earliest (later when its agent relayed
// it late), so it was decided in the sender's last slot cycle at or before
// hear-MinHearDelay. Without a server time (0, an agent that does not send it) or for a
// sender outside the team size, it is the minimum, MinHearDelay cycles. The time the
// heard message took from the agent to this node is not included.
func (t *Team) hearAge(s *sim3dproto.TeamState, serverTime float64) time.Duration {
	cyc := t.cfg.Cycle.Seconds()
	minAge := MinHearDelay * t.cfg.Cycle
	if !(serverTime > 0) || serverTime > maxServerTime || int(s.Player) > t.cfg.TeamSize {
		return minAge
	}
	heard := int64(math.Round(serverTime / cyc))
	sender := Slot{Player: int(s.Player), TeamSize: t.cfg.TeamSize, Cycles: t.cfg.SlotCycles}
	said := sender.Prev(heard - MinHearDelay)
	return time.Duration(heard-said) * t.cfg.Cycle
}

// fillTeamInfo maps a decoded message onto TeamInfo in its units (cm, degrees, s); age is
// how long ago the sender decided it.
func (t *Team) fillTeamInfo(ti *dmsgs.TeamInfo, s *sim3dproto.TeamState, now time.Time, age time.Duration) {
	*ti = dmsgs.TeamInfo{
		SenderTime:        timeMsg(now.Add(-age)),
		ReceiveTime:       timeMsg(now),
		Age:               durationMsg(age),
		Sequence:          uint32(s.Seq),
		Format:            TeamInfoFormat,
		PlayerNumber:      s.Player,
		TeamNumber:        t.cfg.TeamNumber,
		Incapacitated:     s.Fallen,
		Fallen:            s.Fallen,
		Role:              s.Role,
		State:             s.State,
		TimeSinceLastKick: float32(math.NaN()),
		TimeToReachBall:   float32(math.NaN()),
		BallAge:           float32(math.NaN()),
	}
	ti.RobotPos.X, ti.RobotPos.Y, ti.RobotPos.Z = units.Centimetres(s.X), units.Centimetres(s.Y), s.Heading
	if s.BallKnown {
		ti.SeeBall = s.BallAge < sim3dproto.BallAgeStep/2
		ti.BallGlobal.X, ti.BallGlobal.Y = units.Centimetres(s.BallX), units.Centimetres(s.BallY)
		ti.BallAge = float32(s.BallAge.Seconds())
	}
}

func (t *Team) warnLocked(now time.Time, cause, msg string, args ...any) {
	t.logLocked(slog.LevelWarn, now, cause, msg, args...)
}

func (t *Team) debugLocked(now time.Time, cause, msg string, args ...any) {
	t.logLocked(slog.LevelDebug, now, cause, msg, args...)
}

// logLocked logs at most one record per cause per warnEvery of the clock.
func (t *Team) logLocked(level slog.Level, now time.Time, cause, msg string, args ...any) {
	if ok, _ := t.warned.Allow(cause, now); !ok {
		return
	}
	t.log.Log(context.Background(), level, msg, args...)
}

// timeMsg converts a clock time to builtin_interfaces/Time, clamped to its range.
func timeMsg(t time.Time) builtin_interfaces.Time {
	switch sec := t.Unix(); {
	case sec < 0:
		return builtin_interfaces.Time{}
	case sec > math.MaxInt32:
		return builtin_interfaces.Time{Sec: math.MaxInt32, Nanosec: 999_999_999}
	default:
		return builtin_interfaces.Time{Sec: int32(sec), Nanosec: uint32(t.Nanosecond())}
	}
}

// durationMsg converts a non-negative duration below 68 years to
// builtin_interfaces/Duration.
func durationMsg(d time.Duration) builtin_interfaces.Duration {
	return builtin_interfaces.Duration{Sec: int32(d / time.Second), Nanosec: uint32(d % time.Second)}
}
