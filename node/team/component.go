package team

import (
	"context"
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
	"github.com/robocup-dnetwork/dnetwork/proto/booster"
	"github.com/robocup-dnetwork/dnetwork/proto/linkq"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/geometry_msgs"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// Deps are the component's connections to the outside world.
type Deps struct {
	// Conn is the team socket (bound to the team port): received packets come from it,
	// ours leave through it. Required.
	Conn bus.Conn
	// Publisher publishes one dmsgs.TeamInfo per accepted packet
	// (/dnetwork_<id>/TeamInfo). Required. Publish is called on the component's goroutine;
	// the message struct is reused after it returns (its slices are not), so a publisher
	// that keeps it must copy it (bus.Recorder does). A bus.HeldPublisher (ros.Publisher)
	// gets the messages of packets queued together held and flushed once, when the
	// queue is empty (or every 16 under a flood): they travel in one datagram.
	Publisher bus.Publisher[dmsgs.TeamInfo]
	// Clock drives the tick and stamps packets; nil means clock.Wall. In the node it is
	// the ROS clock (sim time when use_sim_time is set).
	Clock clock.Clock
	// Game is the GameController view; nil means NoGame (no budget, INITIAL).
	Game GameView
	// Peers gives the destinations of format booster in unicast mode (the node's
	// Discovery); required there unless Config.Peers is set.
	Peers PeerSource
}

// ErrRunTwice reports a second call of Run.
var ErrRunTwice = errors.New("team: Run called twice")

// Component is the team-communication component: it sends our TeamInfo packet at the
// dynamic rate within the budget and publishes the packets of our teammates. Create it
// with New, feed it with SetMotion, SetBehavior and SetVision, and run it with Run.
type Component struct {
	cfg     Config
	conn    bus.Conn
	pub     bus.Publisher[dmsgs.TeamInfo]
	held    bus.HeldPublisher[dmsgs.TeamInfo] // pub, if it can hold; nil otherwise
	nHeld   int                               // messages held since the last flush (Run's)
	clk     clock.Clock
	game    GameView
	log     *slog.Logger
	key     *teaminfo.Key
	port    uint16
	sizeCap int
	policy  BudgetPolicy
	running atomic.Bool

	// mu guards in and st: inputs arrive from ROS callbacks, Status is read by the
	// diagnostics; everything else below belongs to the goroutine that owns the state
	// (doc.go: Where the work runs).
	mu sync.Mutex
	in inputs
	st shared

	sched    Scheduler
	monSched Scheduler
	budget   BudgetTracker
	gcBudget int          // the GameController's last budget figure; -1 none
	snap     GameSnapshot // taken at the last tick
	replay   *teaminfo.ReplayFilter
	seq      uint32
	online   [256]bool         // teammates online at the last tick, for change logs
	recent   [32]time.Duration // stamps of our latest packets (own echoes, clock echoes)
	recentN  int
	warn     warnlimit.Limiter[cause]
	clocks   clocks
	pre      prefilter     // Prefilter's state, guarded by mu
	poke     chan struct{} // an input changed the rate row (timed Run, Run's goroutine)
	// A timed Run: tm is Run's timer while Run's goroutine owns the state (nil
	// otherwise), armedAt the instant of the next planned tick, and rp the pending plan.
	tm      clock.Timer
	armedAt time.Time
	rp      replanState
	dg      <-chan transport.Datagram // the socket's queue
	// While the socket's goroutine owns the state (runOnSocket): hc is the socket,
	// onSocket says so to the setters, which set poked and wake it; gameChanges is set
	// on a GameController change; wakeTm, armed for wakeAt, wakes the socket; seen is
	// the clock's time at the last wake-up.
	hc          bus.HandlerConn
	onSocket    atomic.Bool
	poked       atomic.Bool
	gameChanges atomic.Bool
	wakeTm      clock.Timer
	wakeAt      time.Time
	seen        time.Time
	// gameChanged: the GameController's view changed since the last tick; planSnap is
	// the view of the last plan (timed Run).
	gameChanged bool
	planSnap    GameSnapshot
	// The hold after start (Config.GCWait): team packets wait until holdUntil unless
	// the GameController is heard first; holdOver once either has happened (or the
	// wait is off).
	holdUntil time.Time
	holdOver  bool

	buf   []byte
	tx    teaminfo.State
	zju   teaminfo.ZJUPacket
	dnet  teaminfo.DNetPacket
	rx    teaminfo.State
	rzju  teaminfo.ZJUPacket
	rdnet teaminfo.DNetPacket
	rc    rcState
	msg   dmsgs.TeamInfo

	// Format booster (booster.go): our message and its communication id, the last
	// received one, the discovered teammates and the buffer of their addresses.
	bst     booster.Message
	bstID   int32
	rbst    booster.Message
	peers   PeerSource
	peerBuf []netip.AddrPort

	// inputSync, if set, hands over held-back inputs through the setters (SetInputSync).
	inputSync bus.InputSync
	// mateHook, if set, is told of accepted packets and teammates gone offline
	// (SetMateHook); told marks the teammates it was told of and not yet of their
	// going offline.
	mateHook func(MateEvent)
	told     [256]bool

	// hook, if set (tests), is called once the ticker runs and after every tick,
	// datagram and plan, on the goroutine that owns the state (Run's or the socket's).
	hook func(event)
}

// inputs are the latest values of the robot's other nodes, copied out of the messages.
type inputs struct {
	motionAt, behaviorAt, visionAt time.Time // zero: none yet
	stable                         bool

	role, playState, kickerID uint8
	attackRight, priority     bool
	dest, finalDest, target   geometry_msgs.Vector3
	sinceKick, toBall         float32
	teamBall                  geometry_msgs.Vector3
	voronoi                   [teaminfo.MaxVoronoi]geometry_msgs.Vector3
	voronoiLen                int

	seeBall, seeCircle, seeGoal bool
	robotPos                    geometry_msgs.Vector3
	ballField, ballGlobal       geometry_msgs.Vector3
	circleField, circleGlobal   geometry_msgs.Vector3
	goalField, goalGlobal       geometry_msgs.Vector3
	ballQ, fieldQ, fieldC       float32
	ballSeenAt                  time.Time // zero: never seen

	// For the robocup format: the ball's velocity (cm/s), the first maxOthers obstacles
	// (field frame, cm), and the last two odometry samples of MotionInfo (cm, degrees).
	ballVel          geometry_msgs.Vector3
	obstacles        [maxOthers]geometry_msgs.Vector3
	nObstacles       int
	odo, odoPrev     geometry_msgs.Vector3
	odoAt, odoPrevAt time.Time
}

// shared is the part of the state Status reports.
type shared struct {
	send  SendCounters
	recv  ReceiveCounters
	heard [256]time.Time // last accepted packet per player number
	// mates lists the player numbers of heard (those ever heard), in the order first
	// heard: the loops of every plan and tick visit these, not all 256 (written on
	// Run's goroutine, under mu).
	mates    [256]uint8
	nMates   int
	listed   [256]bool           // in mates
	clock    [256]clockSnap      // clock estimator per player number, as of its last packet
	links    [256]*linkq.Tracker // link quality per player number, from its first packet
	budget   int
	known    bool
	interval time.Duration
	tier     Tier
	verdict  Verdict
	decision Decision
	lastSend time.Time
	lastTick time.Time

	// The tick grid of a timed Run (schedule.go): tick k is at origin + k*Tick; done
	// ticks are counted, the timer is armed for tick wakeK, and the ticks before it
	// decide planned.
	timed   bool
	origin  time.Time
	done    int64
	wakeK   int64
	planned Decision
}

// New validates cfg and returns a component; nothing runs before Run.
func New(cfg Config, deps Deps) (*Component, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if deps.Conn == nil || deps.Publisher == nil {
		return nil, fmt.Errorf("%w: Conn and Publisher are required", ErrConfig)
	}
	if cfg.Format == FormatBooster && cfg.BoosterMode == BoosterUnicast && len(cfg.Peers) == 0 && deps.Peers == nil {
		return nil, fmt.Errorf("%w: format booster in unicast mode needs Peers (a Discovery) or Config.Peers", ErrConfig)
	}
	c := &Component{
		cfg:      cfg,
		conn:     deps.Conn,
		pub:      deps.Publisher,
		peers:    deps.Peers,
		clk:      deps.Clock,
		game:     deps.Game,
		log:      cfg.Logger,
		port:     cfg.TeamPort(),
		sizeCap:  cfg.League.SizeCap(),
		policy:   BudgetPolicy{League: cfg.League, Reserve: cfg.reserve(), SilentUncounted: cfg.SilentUncounted},
		gcBudget: -1,
		snap:     NoGame,
		sched:    Scheduler{Tick: cfg.Tick},
		monSched: Scheduler{Tick: cfg.Tick},
		warn:     warnlimit.Limiter[cause]{Every: warnEvery},
		pre:      prefilter{warn: warnlimit.Limiter[cause]{Every: warnEvery}},
		buf:      make([]byte, 0, max(teaminfo.ZJUSize, teaminfo.DNetTaggedSize)),
		poke:     make(chan struct{}, 1),
	}
	c.held, _ = deps.Publisher.(bus.HeldPublisher[dmsgs.TeamInfo])
	c.cfg.Peers = append([]netip.AddrPort(nil), cfg.Peers...)
	if c.clk == nil {
		c.clk = clock.Wall
	}
	if c.game == nil {
		c.game = noGame{}
	}
	if c.log == nil {
		c.log = slog.Default()
	}
	c.log = c.log.With("component", "team")
	if len(cfg.AuthKey) > 0 {
		k, err := teaminfo.NewKey(cfg.AuthKey)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrConfig, err)
		}
		c.key = k
	}
	// Every sender's first packet waits for its second, so that a corrupted player number
	// cannot invent a teammate and a lone packet from the future cannot become a
	// sender's history; with a key every packet checked is verified.
	c.replay = teaminfo.NewReplayFilterConfig(teaminfo.ReplayConfig{
		Silence: cfg.ReplaySilence, Authenticated: c.key != nil, ConfirmNew: true,
	})
	return c, nil
}

// Run ticks and receives until ctx is cancelled, then returns nil. It must be called once.
// All sending, receiving and publishing happens on one goroutine: the calling one, or,
// in a timed Run with a Conn that can hand its datagrams over (bus.HandlerConn), the
// team socket's. With a clock that makes timers and a GameView that notifies its
// changes (GameNotifier) or none, it wakes only when something is due (schedule.go);
// otherwise on every tick.
func (c *Component) Run(ctx context.Context) error {
	if !c.running.CompareAndSwap(false, true) {
		return ErrRunTwice
	}
	if tc, ok := c.clk.(clock.TimerClock); ok {
		switch g := c.game.(type) {
		case noGame:
			return c.runTimed(ctx, tc, nil)
		case GameNotifier:
			return c.runTimed(ctx, tc, g.Changed())
		}
	}
	c.startHold(c.clk.Now())
	tk := c.clk.NewTicker(c.cfg.Tick)
	defer tk.Stop()
	dg := c.conn.Datagrams()
	c.logRunning()
	if c.hook != nil {
		c.hook(eventReady)
	}
	for {
		select {
		case <-ctx.Done():
			c.flush()
			return nil
		case now := <-tk.C():
			c.tick(now)
			if c.hook != nil {
				c.hook(eventTick)
			}
		case d, ok := <-dg:
			if !ok {
				if ctx.Err() != nil {
					// A normal stop: the socket's worker ends with ctx, and this select
					// may see its closed queue before ctx.Done.
					c.flush()
					return nil
				}
				// The socket's worker stopped on its own; keep ticking so the send
				// counters show the failures until ctx ends.
				dg = nil
				c.log.Warn("team socket closed")
				continue
			}
			c.receive(d, c.clk.Now())
			c.flushIfIdle(len(dg))
			if c.hook != nil {
				c.hook(eventDatagram)
			}
		}
	}
}

// logRunning logs the component's configuration as Run starts. The interface is not
// in it: the socket may not be up yet (its own "socket up" line names the interface).
func (c *Component) logRunning() {
	c.log.Info("team communication running", "team", c.cfg.Team, "player", c.cfg.Player,
		"format", c.cfg.Format, "league", c.cfg.League, "port", c.port, "peers", len(c.cfg.Peers), "gc_wait", c.cfg.GCWait,
		"monitor", monitorText(c.cfg.Monitor), "authenticated", c.key != nil)
}

// monitorText is the monitor copy's destination for the log, or "off".
func monitorText(a netip.AddrPort) string {
	if !a.IsValid() {
		return "off"
	}
	return a.String()
}

// noGame is the GameView without a GameController: NoGame, never changing.
type noGame struct{}

func (noGame) Snapshot() GameSnapshot { return NoGame }

// SetMotion records the latest MotionInfo: stable (incapacitated and fallen are its
// negation; incapacitated is true until the first MotionInfo). Safe for concurrent use.
func (c *Component) SetMotion(m *dmsgs.MotionInfo) {
	if m == nil {
		return
	}
	c.SetMotionAt(m, c.clk.Now())
}

// SetMotionAt is SetMotion for a MotionInfo that arrived at at (the clock's time then).
// Safe for concurrent use.
func (c *Component) SetMotionAt(m *dmsgs.MotionInfo, at time.Time) {
	if m == nil {
		return
	}
	c.mu.Lock()
	c.in.motionAt, c.in.stable = at, m.Stable
	c.in.odoPrev, c.in.odoPrevAt = c.in.odo, c.in.odoAt
	c.in.odo, c.in.odoAt = m.Odometry, at
	c.mu.Unlock()
}

// SetBehavior records the latest BehaviorInfo: role, team-play state and targets; the
// first teaminfo.MaxVoronoi voronoi points are kept. Safe for concurrent use.
func (c *Component) SetBehavior(m *dmsgs.BehaviorInfo) {
	if m == nil {
		return
	}
	c.SetBehaviorAt(m, c.clk.Now())
}

// SetBehaviorAt is SetBehavior for a BehaviorInfo that arrived at at (the clock's time
// then). Safe for concurrent use.
func (c *Component) SetBehaviorAt(m *dmsgs.BehaviorInfo, at time.Time) {
	if m == nil {
		return
	}
	c.mu.Lock()
	in := &c.in
	was := c.rateKey(in)
	in.behaviorAt = at
	in.role, in.playState, in.kickerID = m.CurrentRole, m.TeamPlayState, m.KickerID
	in.attackRight, in.priority = m.AttackRight, m.TeamPlayPriority
	in.dest, in.finalDest, in.target = m.Dest, m.FinalDest, m.AttackTarget
	in.sinceKick, in.toBall, in.teamBall = m.TimeSinceLastKick, m.TimeToReachBall, m.BallGlobal
	in.voronoiLen = copy(in.voronoi[:], m.Voronoi)
	c.pokeIfRate(was, in)
	c.mu.Unlock()
}

// SetVision records the latest VisionInfo: what vision sees and where; the time of the
// last VisionInfo that saw the ball gives the ball age. Safe for concurrent use.
func (c *Component) SetVision(m *dmsgs.VisionInfo) {
	if m == nil {
		return
	}
	c.SetVisionAt(m, c.clk.Now())
}

// SetVisionAt is SetVision for a VisionInfo that arrived at at (the clock's time then):
// at is its time and, when it sees the ball, the time the ball was last seen. Safe for
// concurrent use.
func (c *Component) SetVisionAt(m *dmsgs.VisionInfo, at time.Time) {
	if m == nil {
		return
	}
	c.mu.Lock()
	in := &c.in
	was := c.rateKey(in)
	in.visionAt = at
	in.seeBall, in.seeCircle, in.seeGoal = m.SeeBall, m.SeeCircle, m.SeeGoal
	in.robotPos, in.ballField, in.ballGlobal = m.RobotPos, m.BallField, m.BallGlobal
	in.circleField, in.circleGlobal = m.CircleField, m.CircleGlobal
	in.goalField, in.goalGlobal = m.GoalField, m.GoalGlobal
	in.ballQ, in.fieldQ, in.fieldC = m.BallQuality, m.FieldQuality, m.FieldConsistency
	in.ballVel = m.BallVelocity
	in.nObstacles = copy(in.obstacles[:], m.ObstaclesGlobal)
	if m.SeeBall {
		in.ballSeenAt = at
	}
	c.pokeIfRate(was, in)
	c.mu.Unlock()
}

// SetInputSync sets f, which the component calls before it reads what the input setters
// wrote (the send rule's reading of a tick, Status; a plan reads only the rate key, which
// a held-back input never changes, and does not call it), so that inputs held back
// elsewhere can be handed over first through the setters. f is called without any lock
// of the component's held, possibly from Run's goroutine and Status's callers at once;
// nil means none. Call it before Run: it is not safe concurrently with Run.
func (c *Component) SetInputSync(f func()) { c.inputSync = f }

// Config returns the configuration the component runs with.
func (c *Component) Config() Config { return c.cfg }

// event is what the test hook reports.
type event uint8

const (
	eventReady event = iota
	eventTick
	eventDatagram
	// eventPlan: a timed Run re-planned after an input or GameController change.
	eventPlan
)

// warnEvery is the least time between two warnings of the same cause.
const warnEvery = 10 * time.Second

// warnAllowed reports whether a warning of cause k may be logged at now: at most one per
// cause every warnEvery of clock time.
func (c *Component) warnAllowed(k cause, now time.Time) bool {
	ok, _ := c.warn.Allow(k, now)
	return ok
}
