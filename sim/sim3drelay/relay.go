package sim3drelay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	sim3dproto "github.com/robocup-dnetwork/dnetwork/proto/sim3d"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/builtin_interfaces"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/rosgraph_msgs"
)

// Errors.
var (
	// ErrConfig reports an invalid Config.
	ErrConfig = errors.New("sim3drelay: invalid config")
	// ErrHandshake reports a server that did not answer a handshake step in time.
	ErrHandshake = errors.New("sim3drelay: handshake failed")
)

// Defaults.
const (
	DefaultServer           = "127.0.0.1:3100"
	DefaultScene            = "rsg/agent/nao/nao_hetero.rsg"
	DefaultConnectTimeout   = 10 * time.Second
	DefaultHandshakeTimeout = 10 * time.Second

	writeTimeout = 2 * time.Second
	sayQueue     = 8
	warnEvery    = 10 * time.Second
)

// Config configures one agent.
type Config struct {
	// Server is the agent port's host:port (default 127.0.0.1:3100).
	Server string
	// Scene is the robot model (default rsg/agent/nao/nao_hetero.rsg) and RobotType its
	// heterogeneous type (0: the standard Nao), sent as (scene <path> <type>).
	Scene     string
	RobotType int
	// Team is the team name sent with init. Required.
	Team string
	// Unum is the uniform number, 1..11; 0 lets the server choose.
	Unum int
	// BeamX, BeamY (metres) and BeamRot (degrees) place the robot before kick-off, in
	// its team's frame (own goal at -x).
	BeamX, BeamY, BeamRot float64
	// ConnectTimeout bounds the dialling, retried while the server starts (default 10 s).
	ConnectTimeout time.Duration
	// HandshakeTimeout bounds each wait for the server's answer (default 10 s).
	HandshakeTimeout time.Duration
	// OnSay, if set, is called with the server time of the latest percept and the
	// message right after each say is written. It runs on Run's goroutine and must not
	// block.
	OnSay func(serverTime float64, msg string)
	// OnHear, if set, is called with every hear perceptor before it is published. It
	// runs on the reading goroutine and must not block.
	OnHear func(*dmsgs.Sim3dHear)
	// Logger receives connection events and rate-limited warnings; nil: slog.Default().
	Logger *slog.Logger
}

// Deps are where the relay publishes what it hears; both are required.
type Deps struct {
	Hear bus.Publisher[dmsgs.Sim3dHear]
	Time bus.Publisher[rosgraph_msgs.Clock]
}

// Status is a snapshot of the relay's counters.
type Status struct {
	// Unum is the uniform number the server confirmed; 0 before.
	Unum int
	// Side is "left" or "right" once the server told it.
	Side string
	// ServerTime is the latest percept's server time in seconds.
	ServerTime float64
	// Percepts counts server messages read; ParseErrors those that did not parse.
	Percepts    uint64
	ParseErrors uint64
	// Hears counts hear perceptors published; HearErrors those whose publication failed;
	// BadHears those that did not decode and were skipped (the rest of their percept
	// was relayed).
	Hears      uint64
	HearErrors uint64
	BadHears   uint64
	// Times counts server times published; TimeErrors those whose publication failed.
	Times      uint64
	TimeErrors uint64
	// Said counts says written to the server; SayRefused those refused as unsafe;
	// SayQueueFull those dropped because the writer was behind; SayEarly those dropped
	// because the robot had not joined the game yet; SayStopped those dropped because
	// Run had ended (or ended before writing them, or failed to write them).
	Said         uint64
	SayRefused   uint64
	SayQueueFull uint64
	SayEarly     uint64
	SayStopped   uint64
}

// Relay is one agent. Create it with New, start Run, wait for Ready, and hand it the
// node's says with Say.
type Relay struct {
	cfg  Config
	deps Deps
	log  *slog.Logger
	says chan string

	ready  chan struct{}
	joined atomic.Bool // set when ready is closed

	mu      sync.Mutex
	st      Status
	warned  map[string]time.Time
	stopped bool // Run has ended: Say counts what it gets as SayStopped
}

// New checks cfg and returns a relay.
func New(cfg Config, deps Deps) (*Relay, error) {
	if cfg.Server == "" {
		cfg.Server = DefaultServer
	}
	if cfg.Scene == "" {
		cfg.Scene = DefaultScene
	}
	if cfg.ConnectTimeout <= 0 {
		cfg.ConnectTimeout = DefaultConnectTimeout
	}
	if cfg.HandshakeTimeout <= 0 {
		cfg.HandshakeTimeout = DefaultHandshakeTimeout
	}
	if deps.Hear == nil || deps.Time == nil {
		return nil, fmt.Errorf("%w: nil publisher", ErrConfig)
	}
	// Build the handshake once, so that a bad name or number fails here.
	if _, err := sim3dproto.AppendCommands(nil, cfg.scene(), cfg.init(), cfg.beam()); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	return &Relay{
		cfg: cfg, deps: deps,
		log:    log.With("component", "sim3d-relay", "team", cfg.Team, "unum", cfg.Unum),
		says:   make(chan string, sayQueue),
		ready:  make(chan struct{}),
		warned: map[string]time.Time{},
	}, nil
}

func (c *Config) scene() sim3dproto.Scene {
	return sim3dproto.Scene{Path: c.Scene, RobotType: c.RobotType, HasRobotType: true}
}
func (c *Config) init() sim3dproto.Init { return sim3dproto.Init{Unum: c.Unum, TeamName: c.Team} }
func (c *Config) beam() sim3dproto.Beam {
	return sim3dproto.Beam{X: c.BeamX, Y: c.BeamY, Rot: c.BeamRot}
}

// Ready is closed once the robot is in the game and beamed.
func (r *Relay) Ready() <-chan struct{} { return r.ready }

// Status returns a snapshot of the counters.
func (r *Relay) Status() Status {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.st
}

// Say queues a message for the server. It never blocks: a message that comes before the
// robot is in the game, is not safe to say, finds the queue full or comes after Run has
// ended is counted and dropped.
func (r *Relay) Say(m *dmsgs.Sim3dSay) {
	if !r.joined.Load() {
		r.count(func(s *Status) { s.SayEarly++ })
		return
	}
	if err := sim3dproto.ValidateSaySafe(m.Message); err != nil {
		r.count(func(s *Status) { s.SayRefused++ })
		r.warn("say refused", "refusing a say the server would mangle", "err", err)
		return
	}
	r.mu.Lock()
	if r.stopped {
		r.st.SayStopped++
		r.mu.Unlock()
		return
	}
	select {
	case r.says <- m.Message: // under mu: a say queued as Run ends is counted by stop
		r.mu.Unlock()
		return
	default:
		r.st.SayQueueFull++
	}
	r.mu.Unlock()
	r.warn("say queue", "say queue full, message dropped")
}

// stop makes Say count what it gets as SayStopped, and counts the says still queued so.
func (r *Relay) stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopped = true
	for {
		select {
		case <-r.says:
			r.st.SayStopped++
		default:
			return
		}
	}
}

// Run connects, joins the game and relays until ctx is done or the connection fails.
func (r *Relay) Run(ctx context.Context) error {
	defer r.stop()
	conn, err := r.dial(ctx)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	percepts := make(chan percept, 4)
	readErr := make(chan error, 1)
	go func() { readErr <- r.read(ctx, conn, percepts) }()
	defer func() {
		cancel()
		conn.Close() // unblocks the reader
		<-readErr
	}()

	var buf, frame []byte
	send := func(cmds ...sim3dproto.Command) error {
		var err error
		if buf, err = sim3dproto.AppendCommands(buf[:0], cmds...); err != nil {
			return err
		}
		if frame, err = sim3dproto.AppendFrame(frame[:0], buf); err != nil {
			return err
		}
		_ = conn.SetWriteDeadline(time.Now().Add(writeTimeout))
		_, err = conn.Write(frame)
		return err
	}
	say := func(msg string) error {
		if err := send(sim3dproto.Say{Message: msg}); err != nil {
			r.count(func(s *Status) { s.SayStopped++ }) // Run ends with this error
			return fmt.Errorf("sim3drelay: say: %w", err)
		}
		var now float64
		r.count(func(s *Status) { s.Said++; now = s.ServerTime })
		if r.cfg.OnSay != nil {
			r.cfg.OnSay(now, msg)
		}
		return nil
	}

	// The handshake: scene, then init after the first percept, then beam once the game
	// state names our number. Every percept is answered with (syn), which a server in
	// sync mode waits for before it simulates the next cycle.
	const (
		stateScene = iota
		stateInit
		stateRelay
	)
	if err := send(r.cfg.scene()); err != nil {
		return fmt.Errorf("sim3drelay: scene: %w", err)
	}
	state := stateScene
	timeout := time.NewTimer(r.cfg.HandshakeTimeout)
	defer timeout.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case err := <-readErr:
			readErr <- err
			return r.quiet(ctx, fmt.Errorf("sim3drelay: server connection: %w", err))
		case <-timeout.C:
			if state != stateRelay {
				what := map[int]string{stateScene: "first percept after scene", stateInit: "game state with our number after init"}[state]
				return fmt.Errorf("%w: no %s within %v", ErrHandshake, what, r.cfg.HandshakeTimeout)
			}
		case p := <-percepts:
			var err error
			switch {
			case state == stateScene:
				err = send(r.cfg.init(), sim3dproto.Syn{})
				state = stateInit
				timeout.Reset(r.cfg.HandshakeTimeout)
			case state == stateInit && p.unum != 0:
				err = send(r.cfg.beam(), sim3dproto.Syn{})
				state = stateRelay
				timeout.Stop()
				st := r.Status()
				r.log.Info("joined", "side", st.Side, "server_time", st.ServerTime)
				r.joined.Store(true)
				close(r.ready)
			default:
				err = send(sim3dproto.Syn{})
			}
			if err != nil {
				return r.quiet(ctx, fmt.Errorf("sim3drelay: answering a percept: %w", err))
			}
		case msg := <-r.says:
			if err := say(msg); err != nil {
				return r.quiet(ctx, err)
			}
		}
	}
}

// percept is what the reader tells Run about one server message.
type percept struct {
	unum int // the game state's uniform number; 0 when absent
}

// quiet turns an error caused by the end of ctx into nil.
func (r *Relay) quiet(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// dial connects to the server, retrying while it is not listening yet.
func (r *Relay) dial(ctx context.Context) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, r.cfg.ConnectTimeout)
	defer cancel()
	var d net.Dialer
	for {
		conn, err := d.DialContext(ctx, "tcp", r.cfg.Server)
		if err == nil {
			return conn, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("sim3drelay: connect to %s: %w", r.cfg.Server, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// read owns the reading side of the connection: it parses every percept, publishes its
// hears and server time and tells Run, which answers it. It returns when the connection
// fails or closes.
func (r *Relay) read(ctx context.Context, conn io.Reader, out chan<- percept) error {
	fr := sim3dproto.NewFrameReader(conn, 0)
	var (
		tree sim3dproto.Tree
		p    sim3dproto.Percept
	)
	for {
		payload, err := fr.Next()
		if err != nil {
			return err
		}
		var ev percept
		err = tree.Parse(payload)
		if err == nil {
			err = p.Decode(&tree)
		}
		if err != nil {
			r.count(func(s *Status) { s.Percepts++; s.ParseErrors++ })
			r.warn("parse", "skipping a server message that does not parse", "err", err)
		} else {
			if p.HasGame {
				ev.unum = p.Game.Unum
			}
			var joined bool
			r.count(func(s *Status) {
				s.Percepts++
				s.BadHears += uint64(p.BadHears)
				if p.HasNow {
					s.ServerTime = p.Now
				}
				if ev.unum != 0 {
					s.Unum, s.Side = p.Game.Unum, p.Game.Side
				}
				joined = s.Unum != 0
			})
			if p.HearErr != nil {
				r.warn("bad hear", "skipping a hear perceptor that does not decode", "err", p.HearErr)
			}
			// Before the server confirmed our number the robot is not in a team: its
			// own messages would come back as someone else's.
			if joined {
				r.publish(&p)
			}
		}
		select {
		case out <- ev:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// publish hands the node the percept's server time first, so that it decides its turn
// without waiting for the rest, then its hears.
func (r *Relay) publish(p *sim3dproto.Percept) {
	if p.HasNow && p.Now >= 0 && p.Now <= math.MaxInt32 {
		sec, frac := math.Modf(p.Now)
		ns := min(uint32(math.Round(frac*1e9)), 999_999_999)
		err := r.deps.Time.Publish(&rosgraph_msgs.Clock{Clock: builtin_interfaces.Time{Sec: int32(sec), Nanosec: ns}})
		r.published(err, "the server time", &r.st.Times, &r.st.TimeErrors)
	}
	for i := range p.Hears {
		h := &p.Hears[i]
		m := dmsgs.Sim3dHear{GameTime: h.Time, Team: h.Team, Own: h.Self,
			Direction: float32(h.Direction), Message: h.Message}
		if p.HasNow {
			m.ServerTime = p.Now
		}
		if r.cfg.OnHear != nil {
			r.cfg.OnHear(&m)
		}
		r.published(r.deps.Hear.Publish(&m), "a hear", &r.st.Hears, &r.st.HearErrors)
	}
}

// published counts one publication of what in ok or, with a warning, in failed (fields
// of r.st).
func (r *Relay) published(err error, what string, ok, failed *uint64) {
	r.mu.Lock()
	if err != nil {
		*failed++
	} else {
		*ok++
	}
	r.mu.Unlock()
	if err != nil {
		r.warn("publish "+what, "cannot publish "+what, "err", err)
	}
}

func (r *Relay) count(f func(*Status)) {
	r.mu.Lock()
	f(&r.st)
	r.mu.Unlock()
}

// warn logs at most one record per cause per warnEvery.
func (r *Relay) warn(cause, msg string, args ...any) {
	now := time.Now()
	r.mu.Lock()
	last, seen := r.warned[cause]
	ok := !seen || now.Sub(last) >= warnEvery
	if ok {
		r.warned[cause] = now
	}
	r.mu.Unlock()
	if ok {
		r.log.Warn(msg, args...)
	}
}
