package teamsim

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/internal/freeport"
	"github.com/robocup-dnetwork/dnetwork/monitor"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node"
	"github.com/robocup-dnetwork/dnetwork/ros"
	"github.com/robocup-dnetwork/dnetwork/ros/rosargs"
	"github.com/robocup-dnetwork/dnetwork/sim/gcsim"
	"github.com/robocup-dnetwork/dnetwork/sim/world"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// UpTimeout bounds the wait for the sockets of the simulation to open.
const UpTimeout = 10 * time.Second

// FeederName is the name of the ROS node that publishes the robots' inputs.
const FeederName = "dnetwork_sim"

// loopback is the address of every socket of the simulation.
var loopback = netip.MustParseAddr("127.0.0.1")

// Input topics of robot id, as its motion, behaviour and vision nodes publish them.
func inputTopics(id int) (motion, behavior, vision string) {
	return fmt.Sprintf("/dmotion_%d/MotionInfo", id),
		fmt.Sprintf("/dbehavior_%d/BehaviorInfo", id),
		fmt.Sprintf("/dvision_%d/VisionInfo", id)
}

// TopicOf returns the full name of topic (node.TopicTeamInfo, node.TopicGCInfo, ...)
// of robot id's dnetwork node, e.g. /dnetwork_3/TeamInfo.
func TopicOf(id int, topic string) string { return "/" + node.NodeName(id) + "/" + topic }

// Sim runs a simulated team: N dnetwork nodes, the synthetic robots feeding them, a
// GameController and a monitor. Create it with New and run it with Run; Status,
// WaitUp and Monitor may be called from any goroutine.
type Sim struct {
	cfg     *setup
	mon     *monitor.Monitor
	running atomic.Bool
	up      chan struct{} // closed when everything runs
	done    chan struct{} // closed when Run returns
	began   time.Time     // set before up is closed

	// Set before up is closed, read-only afterwards.
	gc       *gcsim.Simulator
	gcPort   uint16 // the monitor's GameController port
	teamPort uint16 // the monitor's team port
	robots   []robotPorts

	inputs     atomic.Uint64 // messages published to the robots
	publishErr atomic.Uint64

	mu    sync.Mutex
	w     *world.World
	refs  []world.Referee // latest of each robot's node; index id-1
	heard []robotHeard    // index id-1
}

// robotPorts are the sockets of one robot.
type robotPorts struct {
	gc, team uint16
}

// robotHeard is what the feeder heard from one robot's node.
type robotHeard struct {
	gcInfos     uint64
	gcConnected bool
	teamInfos   uint64
	mates       [node.MaxRobotID + 1]time.Time // last TeamInfo from each player
}

// New checks cfg and returns a simulation; nothing runs before Run. Errors wrap
// ErrConfig.
func New(cfg Config) (*Sim, error) {
	s, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	w, err := world.New(s.World)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	mc := monitor.DefaultConfig()
	mc.Interface = "lo"
	mc.Ports = []monitor.Port{{Kind: monitor.KindGameController}, {Kind: monitor.KindTeam, Team: s.Team}}
	mc.FollowGC = false
	mc.League, mc.Field, mc.AuthKey = s.league, monitor.LeagueField(s.league), s.AuthKey
	mc.Logger = s.logger
	mon, err := monitor.New(mc)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return &Sim{
		cfg: s, mon: mon, w: w,
		up: make(chan struct{}), done: make(chan struct{}),
		refs: make([]world.Referee, s.Robots), heard: make([]robotHeard, s.Robots),
	}, nil
}

// Monitor returns the embedded monitor, which sees every control, return and team
// packet of the simulation.
func (s *Sim) Monitor() *monitor.Monitor { return s.mon }

// Env returns the environment of the simulation's ROS nodes (see Env).
func (s *Sim) Env() func(string) string { return Env(s.cfg.Domain, s.cfg.Distro) }

// WaitUp blocks until every part of the simulation runs (or ran: it returns nil after
// a Run that was up has returned), and returns an error if Run returned before it was
// up or ctx ended.
func (s *Sim) WaitUp(ctx context.Context) error {
	select {
	case <-s.up:
		return nil
	case <-s.done:
		select {
		case <-s.up: // it was up and has stopped since
			return nil
		default:
			return errors.New("teamsim: stopped before it was up")
		}
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Run starts the GameController's sockets, the monitor, the robots' nodes and the
// feeder, then plays the game until ctx is done; it stops everything and returns nil
// (also when ctx ends during the start), or the first error that stopped the
// simulation.
func (s *Sim) Run(ctx context.Context) error {
	if !s.running.CompareAndSwap(false, true) {
		return ErrRunTwice
	}
	defer close(s.done)
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	g, gctx := errgroup.WithContext(ctx)
	var nodes []*ros.Node // closed once every goroutine has stopped
	err := s.start(gctx, g, &nodes)
	if err != nil {
		cancel()
		if s.cfg.Listener != nil {
			_ = s.cfg.Listener.Close() // not served
		}
	}
	werr := g.Wait()
	for i := len(nodes) - 1; i >= 0; i-- {
		_ = nodes[i].Close()
	}
	if err != nil && parent.Err() != nil {
		return nil // stopped while starting
	}
	if err != nil {
		return err
	}
	return werr
}

// start opens and starts everything in g.
func (s *Sim) start(ctx context.Context, g *errgroup.Group, nodes *[]*ros.Node) error {
	c := s.cfg
	// The GameController's sockets: control packets out, return packets and team
	// messages (for the budget) in.
	ctl, err := s.socket("gc-sim control", 1)
	if err != nil {
		return err
	}
	ret, err := s.socket("gc-sim return", 0)
	if err != nil {
		return err
	}
	teamMsgs, err := s.socket("gc-sim team", 0)
	if err != nil {
		return err
	}
	for _, w := range []*transport.Worker{ctl, ret, teamMsgs} {
		g.Go(func() error { return w.Run(ctx) })
	}
	g.Go(func() error { return s.mon.Run(ctx) })
	if err := waitUp(ctx, "GameController sockets", ctl.WaitUp, ret.WaitUp, teamMsgs.WaitUp, s.mon.WaitUp); err != nil {
		return err
	}
	for _, p := range s.mon.Ports() {
		switch p.Kind {
		case monitor.KindGameController:
			s.gcPort = p.Port
		case monitor.KindTeam:
			s.teamPort = p.Port
		}
	}

	// The robots' ports: a GameController port and a team port each.
	ports, err := freeport.UDP(2 * c.Robots)
	if err != nil {
		return fmt.Errorf("teamsim: choosing ports: %w", err)
	}
	s.robots = make([]robotPorts, c.Robots)
	for i := range s.robots {
		s.robots[i] = robotPorts{gc: ports[2*i], team: ports[2*i+1]}
	}

	// ROS: the feeder first, so that the robots find their inputs' publishers at once.
	args, _, err := rosargs.Parse([]string{rosargs.FlagROSArgs, "--log-level", c.LogLevel.String()})
	if err != nil {
		return fmt.Errorf("teamsim: log level: %w", err)
	}
	opts := ros.NodeOptions{Args: args, Getenv: s.Env(), LogOutput: c.LogOutput, NoParameterServices: true}
	rosCtx := context.WithoutCancel(ctx) // nodes are closed by Run after everything stopped
	feeder, err := ros.NewNode(rosCtx, FeederName, "/", opts)
	if err != nil {
		return fmt.Errorf("teamsim: feeder node: %w", err)
	}
	*nodes = append(*nodes, feeder)
	pubs, err := s.feed(feeder)
	if err != nil {
		return err
	}

	var robots []*node.Node
	for i := range c.Robots {
		id := i + 1
		rn, err := ros.NewNode(rosCtx, node.NodeName(id), "/", opts)
		if err != nil {
			return fmt.Errorf("teamsim: robot %d: %w", id, err)
		}
		*nodes = append(*nodes, rn)
		n, err := node.New(rn, s.nodeConfig(id, ret.LocalAddr().Port(), teamMsgs.LocalAddr().Port()))
		if err != nil {
			return fmt.Errorf("teamsim: robot %d: %w", id, err)
		}
		robots = append(robots, n)
		g.Go(func() error {
			if err := n.Run(ctx); err != nil {
				return fmt.Errorf("teamsim: robot %d: %w", id, err)
			}
			return nil
		})
	}
	var ups []func(context.Context) error
	for _, n := range robots {
		ups = append(ups, n.WaitUp)
	}
	if err := waitUp(ctx, "robots' sockets", ups...); err != nil {
		return err
	}

	// The GameController: control packets to every robot and to the monitor; the
	// monitor sees the return packets on their way in.
	dest := gcsim.Destination{Kind: gcsim.DestUnicast}
	for _, r := range s.robots {
		dest.Addrs = append(dest.Addrs, netip.AddrPortFrom(loopback, r.gc))
	}
	dest.Addrs = append(dest.Addrs, netip.AddrPortFrom(loopback, s.gcPort))
	returns := newTee(ret, monitor.Port{Kind: monitor.KindReturn, Port: ret.LocalAddr().Port()}, s.mon.Observe)
	gcCfg := gcsim.Config{
		Setup: c.gc, Script: c.script, Speed: c.Speed, Loop: c.Loop,
		Control: ctl, Dest: dest, Return: returns, TeamConns: [2]gcsim.Receiver{teamMsgs},
		OnChange: c.OnChange, Logger: c.logger,
	}
	if s.gc, err = gcsim.New(gcCfg); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	g.Go(func() error { return returns.Run(ctx) })
	if c.Listener != nil {
		g.Go(func() error { return monitor.Serve(ctx, c.Listener, s.mon.Handler()) })
	}
	s.began = time.Now()
	g.Go(func() error { return s.gc.Run(ctx) })
	g.Go(func() error { return s.play(ctx, pubs) })
	close(s.up)
	return nil
}

// socket returns a worker on the loopback interface (port 0: the kernel's choice).
func (s *Sim) socket(name string, queue int) (*transport.Worker, error) {
	w, err := transport.New(transport.Config{Name: name, Interface: "lo", QueueLen: queue, Logger: s.cfg.logger})
	if err != nil {
		return nil, fmt.Errorf("teamsim: %s socket: %w", name, err)
	}
	return w, nil
}

// waitUp waits for every function, at most UpTimeout.
func waitUp(ctx context.Context, what string, fs ...func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, UpTimeout)
	defer cancel()
	for _, f := range fs {
		if err := f(ctx); err != nil {
			return fmt.Errorf("teamsim: %s not open within %v: %w", what, UpTimeout, err)
		}
	}
	return nil
}

// nodeConfig is the configuration of robot id: loopback, its own GameController and
// team ports, team packets by unicast to every teammate, the monitor and the
// GameController (which counts them against the budget).
func (s *Sim) nodeConfig(id int, returnPort, gcTeamPort uint16) node.Config {
	c := s.cfg
	cfg := node.DefaultConfig()
	cfg.RobotID, cfg.TeamNumber = id, int(c.Team)
	cfg.League, cfg.Interface = c.league, "lo"
	cfg.GameControllerPort = s.robots[id-1].gc
	cfg.GameController.ReturnPort = returnPort
	cfg.Team.Port = s.robots[id-1].team
	cfg.Team.Format, cfg.Team.AuthKey = c.Format, c.AuthKey
	for j, r := range s.robots {
		if j != id-1 {
			cfg.Team.Peers = append(cfg.Team.Peers, netip.AddrPortFrom(loopback, r.team))
		}
	}
	cfg.Team.Peers = append(cfg.Team.Peers, netip.AddrPortFrom(loopback, s.teamPort), netip.AddrPortFrom(loopback, gcTeamPort))
	return cfg
}

// publishers are the feeder's publishers of one robot's inputs.
type publishers struct {
	motion   *ros.Publisher[dmsgs.MotionInfo, *dmsgs.MotionInfo]
	behavior *ros.Publisher[dmsgs.BehaviorInfo, *dmsgs.BehaviorInfo]
	vision   *ros.Publisher[dmsgs.VisionInfo, *dmsgs.VisionInfo]
}

// feed creates the feeder's publishers of every robot's inputs and its subscriptions
// to every robot's GCInfo (the referee the robot follows) and TeamInfo (the
// teammates it hears). The entities close with the node.
func (s *Sim) feed(rn *ros.Node) ([]publishers, error) {
	pubs := make([]publishers, s.cfg.Robots)
	for i := range pubs {
		id := i + 1
		mt, bt, vt := inputTopics(id)
		var err error
		p := &pubs[i]
		if p.motion, err = ros.NewPublisher[dmsgs.MotionInfo](rn, mt, ros.QoSDefault); err != nil {
			return nil, err
		}
		if p.behavior, err = ros.NewPublisher[dmsgs.BehaviorInfo](rn, bt, ros.QoSDefault); err != nil {
			return nil, err
		}
		if p.vision, err = ros.NewPublisher[dmsgs.VisionInfo](rn, vt, ros.QoSDefault); err != nil {
			return nil, err
		}
		if _, err = ros.NewSubscription(rn, TopicOf(id, node.TopicGCInfo), ros.QoSDefault, func(m *dmsgs.GCInfo) {
			r := world.RefereeOf(m, s.cfg.Team)
			s.mu.Lock()
			s.refs[i] = r
			s.heard[i].gcInfos++
			s.heard[i].gcConnected = m.Connected
			s.mu.Unlock()
		}); err != nil {
			return nil, err
		}
		if _, err = ros.NewSubscription(rn, TopicOf(id, node.TopicTeamInfo), ros.QoSDefault, func(m *dmsgs.TeamInfo) {
			now := time.Now()
			s.mu.Lock()
			h := &s.heard[i]
			h.teamInfos++
			if p := int(m.PlayerNumber); p > 0 && p < len(h.mates) {
				h.mates[p] = now
			}
			s.mu.Unlock()
		}); err != nil {
			return nil, err
		}
	}
	return pubs, nil
}

// play steps the world every tick and publishes every robot's inputs.
func (s *Sim) play(ctx context.Context, pubs []publishers) error {
	c := s.cfg
	n := c.Robots
	motion := make([]dmsgs.MotionInfo, n)
	behavior := make([]dmsgs.BehaviorInfo, n)
	vision := make([]dmsgs.VisionInfo, n)
	dt := time.Duration(float64(c.Tick) * c.Speed)
	tk := clock.Wall.NewTicker(c.Tick)
	defer tk.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case now := <-tk.C():
			s.mu.Lock()
			for i, r := range s.refs {
				s.w.SetReferee(i+1, r)
			}
			s.w.Step(dt)
			for i := range n {
				s.w.Inputs(i+1, now, &motion[i], &behavior[i], &vision[i])
			}
			s.mu.Unlock()
			for i, p := range pubs {
				s.publish(p.motion.Publish(&motion[i]), p.behavior.Publish(&behavior[i]), p.vision.Publish(&vision[i]))
			}
		}
	}
}

func (s *Sim) publish(errs ...error) {
	for _, err := range errs {
		if err != nil {
			s.publishErr.Add(1)
		} else {
			s.inputs.Add(1)
		}
	}
}
