package worldinfo

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"github.com/robocup-dnetwork/dnetwork/node/internal/warnlimit"
	wi "github.com/robocup-dnetwork/dnetwork/proto/worldinfo"
	"github.com/robocup-dnetwork/dnetwork/transport"
	wit "github.com/robocup-dnetwork/dnetwork/transport/worldinfo"
)

// ErrRunTwice reports a second call of Run.
var ErrRunTwice = errors.New("worldinfo: Run called twice")

// ErrDeps reports missing dependencies.
var ErrDeps = errors.New("worldinfo: missing dependency")

// warnEvery is the least time between two warnings of the same cause.
const warnEvery = 10 * time.Second

// Deps are the component's connections to the rest of the node.
type Deps struct {
	// Clock is the node's clock (the ROS clock); nil means clock.Wall.
	Clock clock.Clock
	// Conn is the world info socket. nil (production): the component opens its own
	// multicast socket from Config.TransportConfig and runs it inside Run.
	Conn bus.Conn
	// Publisher receives one WorldInfo per accepted datagram; required when enabled.
	// The message passed to Publish is reused after Publish returns, but its slices are
	// fresh for every message, so a publisher may keep a shallow copy.
	Publisher bus.Publisher[dmsgs.WorldInfo]
	// Game is the GameController's view; nil sends no game state and no penalty.
	Game GameSource
}

// Component sends this robot's world info and publishes everyone else's. Create it with
// New; feed it with SetMotion, SetBehavior and SetVision from any goroutine; Run it.
type Component struct {
	cfg    Config
	clk    clock.Clock
	log    *slog.Logger
	conn   bus.Conn
	worker *transport.Worker // owned socket; nil when Deps.Conn was given
	pub    bus.Publisher[dmsgs.WorldInfo]
	game   GameSource
	tx     *wit.Sender
	rx     *wit.Receiver
	hdr    cipher.Block // decrypts a datagram's first block for its sequence number
	write  func([]byte) error

	in        inputs
	inputSync bus.InputSync // hands held-back inputs over through the setters (SetInputSync)

	// Owned by the goroutine running the loop.
	col     collector
	msg     dmsgs.WorldInfo
	blk     [aes.BlockSize]byte
	snap    snapshot
	trk     tracker
	odoBase odoSample
	obs     []point
	near    []obstacle
	warned  warnlimit.Limiter[string]

	started atomic.Bool
	ready   chan struct{} // closed once the loop runs (its ticker exists)

	cycles, emptyCycles, invalidInputs, setErrors atomic.Uint64
	received, published, publishErrors            atomic.Uint64

	smu         sync.Mutex // guards the sender table
	senders     map[netip.Addr]*senderEntry
	sendersSeen uint64
	forgotten   uint64
}

type senderEntry struct {
	name string // the address as text, for the messages
	SenderStatus
}

// New returns a component for cfg. A disabled component opens nothing and needs no
// dependencies.
func New(cfg Config, deps Deps) (*Component, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	c := &Component{
		cfg:     cfg,
		clk:     deps.Clock,
		log:     cfg.Logger,
		conn:    deps.Conn,
		pub:     deps.Publisher,
		game:    deps.Game,
		ready:   make(chan struct{}),
		senders: map[netip.Addr]*senderEntry{},
		warned:  warnlimit.Limiter[string]{Every: warnEvery},
	}
	if c.clk == nil {
		c.clk = clock.Wall
	}
	if c.log == nil {
		c.log = slog.Default()
	}
	if !cfg.Enabled {
		return c, nil
	}
	if c.pub == nil {
		return nil, fmt.Errorf("%w: a WorldInfo publisher", ErrDeps)
	}
	tc := cfg.transceiverConfig(c.clk.Now)
	var err error
	if c.tx, err = wit.NewSender(tc); err != nil {
		return nil, err
	}
	if c.rx, err = wit.NewReceiver(tc); err != nil {
		return nil, err
	}
	if err := c.rx.AddHandler(&c.col); err != nil {
		return nil, err
	}
	key := wi.DeriveKey(cfg.Key)
	if c.hdr, err = aes.NewCipher(key[:]); err != nil {
		return nil, err
	}
	if c.conn == nil {
		if c.worker, err = transport.New(cfg.TransportConfig(c.clk.Now)); err != nil {
			return nil, fmt.Errorf("worldinfo: %w", err)
		}
		c.conn = c.worker
	}
	c.write = func(b []byte) error { return c.conn.SendTo(b, c.cfg.Group) }
	return c, nil
}

// Run sends and receives until ctx is done and returns nil then. A disabled component
// just waits. When the component opened its own socket, the socket is opened on the
// calling goroutine (so a caller may pin it to an OS thread, e.g. inside a network
// namespace) and the component's loop runs on a second goroutine that Run waits for.
func (c *Component) Run(ctx context.Context) error {
	if !c.started.CompareAndSwap(false, true) {
		return ErrRunTwice
	}
	if !c.cfg.Enabled {
		close(c.ready)
		<-ctx.Done()
		return nil
	}
	if c.worker == nil {
		c.loop(ctx)
		return nil
	}
	lctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.loop(lctx)
	}()
	err := c.worker.Run(ctx)
	cancel()
	<-done
	return err
}

// WaitUp blocks until the component's own socket is open, ctx is done or Run has
// returned. With a socket from Deps.Conn, or disabled, it returns at once.
func (c *Component) WaitUp(ctx context.Context) error {
	if c.worker == nil {
		return nil
	}
	return c.worker.WaitUp(ctx)
}

func (c *Component) loop(ctx context.Context) {
	tk := c.clk.NewTicker(c.cfg.Interval)
	defer tk.Stop()
	close(c.ready)
	dgs := c.conn.Datagrams()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tk.C():
			c.cycle(now)
		case d, ok := <-dgs:
			if !ok {
				dgs = nil // the socket stopped; keep the cycle until ctx is done
				continue
			}
			c.receive(d)
		}
	}
}

// allow reports whether a message of cause may be logged now: at most one per cause
// every warnEvery of the node's clock (a clock that went back allows it).
func (c *Component) allow(cause string) bool {
	ok, _ := c.warned.Allow(cause, c.clk.Now())
	return ok
}

// warn logs a warning, rate-limited per cause.
func (c *Component) warn(cause string, msg string, args ...any) {
	if c.allow(cause) {
		c.log.Warn(msg, args...)
	}
}

// SetMotion stores the latest MotionInfo; its odometry gives the velocity. Safe for
// concurrent use; nil is ignored.
func (c *Component) SetMotion(m *dmsgs.MotionInfo) {
	if m == nil {
		return
	}
	c.SetMotionAt(m, c.clk.Now())
}

// SetMotionAt is SetMotion for a MotionInfo that arrived at at (the clock's time then),
// which dates it for freshness and, when it carries no timestamp, its odometry. Safe for
// concurrent use; nil is ignored.
func (c *Component) SetMotionAt(m *dmsgs.MotionInfo, at time.Time) {
	if m == nil {
		return
	}
	s := odoSample{valid: true, t: at, x: m.Odometry.X, y: m.Odometry.Y, th: m.Odometry.Z}
	if st := m.Timestamp; st.Sec != 0 || st.Nanosec != 0 {
		s.stamped, s.t = true, st.Time()
	}
	c.in.mu.Lock()
	c.in.motion, c.in.motionAt = s, at
	c.in.mu.Unlock()
}

// SetBehavior stores the latest BehaviorInfo; its attack_right decides the field frame.
// Safe for concurrent use; nil is ignored.
func (c *Component) SetBehavior(b *dmsgs.BehaviorInfo) {
	c.SetBehaviorAt(b, time.Time{})
}

// SetBehaviorAt is SetBehavior for a BehaviorInfo handed over after it arrived; the field
// frame does not date it, so at is not used. Safe for concurrent use; nil is ignored.
func (c *Component) SetBehaviorAt(b *dmsgs.BehaviorInfo, at time.Time) {
	if b == nil {
		return
	}
	c.in.mu.Lock()
	c.in.attackLeft = !b.AttackRight
	c.in.mu.Unlock()
}

// SetVision stores the latest VisionInfo (pose, ball, obstacles) and counts the ball
// visibility history. Safe for concurrent use; nil is ignored.
func (c *Component) SetVision(v *dmsgs.VisionInfo) {
	if v == nil {
		return
	}
	c.SetVisionAt(v, c.clk.Now())
}

// SetVisionAt is SetVision for a VisionInfo that arrived at at (the clock's time then),
// which dates it for freshness. Safe for concurrent use; nil is ignored.
func (c *Component) SetVisionAt(v *dmsgs.VisionInfo, at time.Time) {
	if v == nil {
		return
	}
	in := &c.in
	in.mu.Lock()
	defer in.mu.Unlock()
	s := &in.vision
	s.valid, s.at = true, at
	s.robot = [3]float64{v.RobotPos.X, v.RobotPos.Y, v.RobotPos.Z}
	s.locOK, s.seeBall, s.seeObstacle = v.LocOK, v.SeeBall, v.SeeObstacle
	switch {
	case v.SeeBall && s.history > 0:
		s.history = min(s.history+1, wit.HistoryMax)
	case v.SeeBall:
		s.history = 1
	case s.history < 0:
		s.history = max(s.history-1, wit.HistoryMin)
	default:
		s.history = -1
	}
	if v.SeeBall {
		s.ballSeen = true
		s.ballField = point{v.BallField.X, v.BallField.Y}
		s.ballGlobal = point{v.BallGlobal.X, v.BallGlobal.Y}
	}
	s.obstacles = s.obstacles[:0]
	for _, o := range v.ObstaclesField {
		s.obstacles = append(s.obstacles, point{o.X, o.Y})
	}
}

// SetInputSync sets f, which the component calls at every send cycle before it reads what
// the setters wrote, so that inputs held back elsewhere can be handed over first through
// the setters. f is called on the loop's goroutine without any lock of the component's
// held; nil means none. Call it before Run: it is not safe concurrently with Run.
func (c *Component) SetInputSync(f func()) { c.inputSync = f }

// inputs are the latest ROS inputs, written by the setters.
type inputs struct {
	mu         sync.Mutex
	vision     visionState
	motion     odoSample
	motionAt   time.Time // arrival time of motion, for freshness
	attackLeft bool
}

// visionState is what the component keeps of the VisionInfo stream (centimetres and
// degrees, the robot's conventions).
type visionState struct {
	valid       bool
	at          time.Time // arrival time
	robot       [3]float64
	locOK       bool
	seeBall     bool
	ballSeen    bool  // the ball was seen at least once
	ballField   point // last seen, cm
	ballGlobal  point // last seen, cm
	history     int
	seeObstacle bool
	obstacles   []point // cm, robot frame
}

// snapshot is a copy of the inputs taken at the start of a cycle.
type snapshot struct {
	vision     visionState
	motion     odoSample
	motionAt   time.Time
	attackLeft bool
}

func (in *inputs) copyTo(s *snapshot) {
	in.mu.Lock()
	defer in.mu.Unlock()
	obs := append(s.vision.obstacles[:0], in.vision.obstacles...)
	s.vision = in.vision
	s.vision.obstacles = obs
	s.motion, s.motionAt, s.attackLeft = in.motion, in.motionAt, in.attackLeft
}

// SenderStatus describes one world info sender heard within FlushAfter.
type SenderStatus struct {
	Addr      netip.Addr
	Datagrams uint64 // accepted and handed to the publisher
	Records   uint64 // records in those datagrams; a fat record counts once per valid part
	Dropped   uint64 // datagrams from this address the receiver dropped
	LastSeq   uint32
	FirstSeen time.Time
	LastSeen  time.Time
}

// Status is a snapshot of the component's counters, for diagnostics.
type Status struct {
	Enabled   bool
	Group     netip.AddrPort
	Interface transport.Choice
	// SocketStatus is the socket's state when the component opened it itself (zero
	// otherwise).
	SocketStatus transport.Status

	// Send side.
	Cycles        uint64 // send cycles run
	EmptyCycles   uint64 // cycles with nothing to send (no fresh input, no GameController)
	InvalidInputs uint64 // input values left out because they were NaN or infinite
	SetErrors     uint64 // values the sender rejected (none expected)
	Send          wit.SendStats

	// Receive side: Received == Published + PublishErrors + Recv.Dropped() whenever no
	// datagram is being processed.
	Received      uint64 // datagrams taken from the socket
	Published     uint64
	PublishErrors uint64
	Recv          wit.RecvStats // drops by cause, records
	Socket        transport.Stats

	// Senders heard within FlushAfter, by address; SendersSeen counts every sender ever
	// heard and SendersForgotten those dropped from the table after FlushAfter.
	Senders          []SenderStatus
	SendersSeen      uint64
	SendersForgotten uint64
}

// Status returns a snapshot of the counters. Safe for concurrent use.
func (c *Component) Status() Status {
	st := Status{Enabled: c.cfg.Enabled, Group: c.cfg.Group}
	if !c.cfg.Enabled {
		return st
	}
	st.Interface = c.conn.Interface()
	if c.worker != nil {
		st.SocketStatus = c.worker.Status()
	}
	st.Cycles, st.EmptyCycles = c.cycles.Load(), c.emptyCycles.Load()
	st.InvalidInputs, st.SetErrors = c.invalidInputs.Load(), c.setErrors.Load()
	st.Send = c.tx.Stats()
	st.Received, st.Published, st.PublishErrors = c.received.Load(), c.published.Load(), c.publishErrors.Load()
	st.Recv = c.rx.Stats()
	st.Socket = c.conn.Stats()
	c.smu.Lock()
	st.Senders = make([]SenderStatus, 0, len(c.senders))
	for _, e := range c.senders {
		st.Senders = append(st.Senders, e.SenderStatus)
	}
	st.SendersSeen, st.SendersForgotten = c.sendersSeen, c.forgotten
	c.smu.Unlock()
	sortSenders(st.Senders)
	return st
}
