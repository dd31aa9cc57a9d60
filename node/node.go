package node

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/internal/english"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"github.com/robocup-dnetwork/dnetwork/node/diagnostics"
	"github.com/robocup-dnetwork/dnetwork/node/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/node/inputwake"
	"github.com/robocup-dnetwork/dnetwork/node/record"
	"github.com/robocup-dnetwork/dnetwork/node/sim3d"
	"github.com/robocup-dnetwork/dnetwork/node/swarm"
	"github.com/robocup-dnetwork/dnetwork/node/team"
	"github.com/robocup-dnetwork/dnetwork/node/teamlinks"
	"github.com/robocup-dnetwork/dnetwork/node/units"
	"github.com/robocup-dnetwork/dnetwork/node/worldinfo"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/ros"
	"github.com/robocup-dnetwork/dnetwork/ros/cdr"
	dm "github.com/robocup-dnetwork/dnetwork/ros/interfaces/diagnostic_msgs"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/rosgraph_msgs"
	"github.com/robocup-dnetwork/dnetwork/transport"
	"github.com/robocup-dnetwork/dnetwork/transport/udpstat"
)

// TeamMaxDatagram is the largest datagram the team socket takes: the payload of one
// unfragmented Ethernet frame. Every team packet format is far smaller (zju 296 bytes,
// dnet 118); longer datagrams are counted as oversize by the socket.
const TeamMaxDatagram = 1472

// GameControllerMaxDatagram is the largest datagram the GameController socket takes:
// the largest control packet layout (HL v12, 688 bytes). Longer datagrams are counted as
// oversize by the socket.
var GameControllerMaxDatagram = func() int {
	n := 0
	for _, l := range gcproto.Layouts() {
		n = max(n, l.Size())
	}
	return n
}()

// warnEvery is the least time between two warnings of one kind from the node itself.
const warnEvery = 10 * time.Second

// Topic names under the node's prefix /dnetwork_<id>.
const (
	TopicTeamInfo        = "TeamInfo"
	TopicTeamLinks       = "TeamLinks"
	TopicGCInfo          = "GCInfo"
	TopicGameControlData = "GameControlData"
	TopicWorldInfo       = "WorldInfo"
	TopicSwarmSend       = "swarm/send"
	TopicSwarmReceived   = "swarm/received"
	TopicSwarmNeighbors  = "swarm/neighbors"
	TopicSim3dSay        = "sim3d/say"
	TopicSim3dHear       = "sim3d/hear"
	TopicSim3dTime       = "sim3d/time"
	TopicDiagnostics     = "/diagnostics"
	// ServiceGCMessage sends a message in the next HL return packet (dmsgs/GCMessage).
	ServiceGCMessage = "GCMessage"
)

// Input topics: /dmotion_<id>/MotionInfo, /dbehavior_<id>/BehaviorInfo and
// /dvision_<id>/VisionInfo.
func inputTopics(id int) (motion, behavior, vision string) {
	return fmt.Sprintf("/dmotion_%d/MotionInfo", id),
		fmt.Sprintf("/dbehavior_%d/BehaviorInfo", id),
		fmt.Sprintf("/dvision_%d/VisionInfo", id)
}

// Node is a running dnetwork: its sockets, components, topics and diagnostics, built
// by New on a ROS node and run by Run.
type Node struct {
	cfg   Config // resolved
	rn    *ros.Node
	log   *ros.Logger
	clk   clock.Clock
	start time.Time

	gcSock   *transport.Worker
	teamSock *transport.Worker // nil unless the team component is enabled
	wiSock   *transport.Worker // nil unless world info is enabled
	// discSock and disc: format booster's discovery (unicast mode without team.peers).
	discSock *transport.Worker
	disc     *team.Discovery

	gc    *gamecontroller.Component
	team  *team.Component                                   // nil unless enabled
	links *ros.Publisher[dmsgs.TeamLinks, *dmsgs.TeamLinks] // nil unless team is enabled
	wi    *worldinfo.Component
	swarm *swarm.Component
	sim3d *sim3d.Team // nil unless enabled
	diag  *diagnostics.Component
	// udpBase and udpLast are the kernel's UDP counters when the node started and at the
	// last diagnostics report; udpMu guards udpLast (Diagnostics may run beside Run's
	// diagnostics goroutine).
	udpBase, udpLast udpstat.Counters
	udpMu            sync.Mutex
	rec              *record.Recorder // nil unless recording

	in     inputs
	inSubs []subscription // MotionInfo, BehaviorInfo, VisionInfo, then the optional inputs
	// inputSyncs are the deferred input subscriptions (syncInputs), set once they exist.
	inputSyncs atomic.Pointer[[3]interface{ Sync() }]
	running    atomic.Bool
	entities   []interface{ Close() error }
	// diagFailed and linksFailed count the failed publications of /diagnostics and
	// TeamLinks, which publish again at their next period (publishFailed).
	diagFailed, linksFailed atomic.Uint64
}

// subscription is what diagnostics read from a ros.Subscription.
type subscription interface {
	Topic() string
	Received() uint64
	Dropped() uint64
	PublisherCount() (int, error)
}

// inputs counts the messages of the input topics.
type inputs struct {
	motion, behavior, vision input
}

type input struct {
	count atomic.Uint64
	last  atomic.Int64 // clock time of the last message, Unix ns; 0: none
}

func (i *input) note(now time.Time) {
	i.count.Add(1)
	i.last.Store(now.UnixNano())
}

// age returns the time since the last message and whether there was one.
func (i *input) age(now time.Time) (time.Duration, bool) {
	t := i.last.Load()
	if t == 0 {
		return 0, false
	}
	return now.Sub(time.Unix(0, t)), true
}

// Run builds the node on rn with New and runs it until ctx is cancelled.
func Run(ctx context.Context, rn *ros.Node, cfg Config) error {
	n, err := New(rn, cfg)
	if err != nil {
		return err
	}
	return n.Run(ctx)
}

// New validates cfg and builds everything on the ROS node rn: the sockets (opened by
// Run), the components, their publishers and the subscriptions to the robot's other
// nodes. Nothing is sent or received before Run, except that the subscriptions start
// feeding the components their inputs at once.
func New(rn *ros.Node, cfg Config) (n *Node, err error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	r := cfg.Resolve()
	n = &Node{cfg: r, rn: rn, log: rn.Logger(), clk: rn.Clock()}
	n.start = n.clk.Now()
	built := n // a failing return sets n to nil before this runs
	defer func() {
		if err != nil {
			built.closeEntities()
			n = nil
		}
	}()
	sl := SlogLogger(n.log)
	r.Team.Logger = sl
	r.GameController.Logger = sl
	r.WorldInfo.Logger = sl
	r.Swarm.Logger = sl
	r.Sim3D.Logger = sl
	sockLog := sl.With("component", "socket")
	prefix := r.TopicPrefix() + "/"

	if r.Record.Enabled {
		if n.rec, err = record.New(r.Record, n.clk, NodeName(r.RobotID)); err != nil {
			return nil, err
		}
	}

	// Sockets.
	if n.gcSock, err = transport.New(transport.Config{
		Name: "gamecontroller", Interface: r.Interface, Port: r.GameControllerPort,
		MaxDatagram: GameControllerMaxDatagram, ReadBuffer: r.ReceiveBuffer, Logger: sockLog,
		// The component exists before Run starts the worker that calls this.
		Filter: func(d transport.Datagram) bool { return n.gc.Prefilter(d) },
		Tap:    n.tap("gamecontroller", r.GameControllerPort, r.Interface),
	}); err != nil {
		return nil, err
	}
	if r.TeamEnabled {
		if n.teamSock, err = transport.New(transport.Config{
			Name: "team", Interface: r.Interface, Port: r.Team.TeamPort(),
			MaxDatagram: TeamMaxDatagram, ReadBuffer: r.ReceiveBuffer, Logger: sockLog,
			// The component exists before Run starts the worker that calls this.
			Filter: func(d transport.Datagram) bool { return n.team.Prefilter(d) },
			Tap:    n.tap("team", r.Team.TeamPort(), r.Interface),
		}); err != nil {
			return nil, err
		}
	}
	if r.TeamEnabled && boosterDiscovery(&r.Team) {
		if n.discSock, err = newDiscoverySocket(&r, sockLog, n.tap); err != nil {
			return nil, err
		}
	}
	if r.WorldInfo.Enabled {
		tc := r.WorldInfo.TransportConfig(nil)
		tc.Logger = sockLog
		tc.Tap = n.tap("worldinfo", tc.Port, tc.Interface)
		if n.wiSock, err = transport.New(tc); err != nil {
			return nil, err
		}
	}

	// GameController.
	gcInfo, err := publisher[dmsgs.GCInfo](n, prefix+TopicGCInfo, ros.QoSDefault)
	if err != nil {
		return nil, err
	}
	gcData, err := publisher[dmsgs.GameControlData](n, prefix+TopicGameControlData, ros.QoSLatched)
	if err != nil {
		return nil, err
	}
	if n.gc, err = gamecontroller.New(r.GameController, n.gcSock, n.clk, gcInfo, gcData); err != nil {
		return nil, err
	}
	n.gc.SetInputSync(n.syncInputs) // each component's, before anything can call it
	gcMsg, err := ros.NewService(rn, prefix+ServiceGCMessage, ros.QoSServices, n.gcMessage)
	if err != nil {
		return nil, err
	}
	n.entities = append(n.entities, gcMsg)
	game := gameView{gc: n.gc}

	var extra []subscription // optional inputs, for diagnostics

	// Team communication: UDP, the 3D simulator's channel, or both, on one topic.
	var teamInfo *ros.Publisher[dmsgs.TeamInfo, *dmsgs.TeamInfo]
	if r.TeamEnabled || r.Sim3DEnabled {
		if teamInfo, err = publisher[dmsgs.TeamInfo](n, prefix+TopicTeamInfo, ros.QoSDefault); err != nil {
			return nil, err
		}
	}
	if r.TeamEnabled {
		deps := team.Deps{Conn: n.teamSock, Publisher: teamInfo, Clock: n.clk, Game: game}
		if n.discSock != nil {
			if n.disc, err = newDiscovery(&r, n.discSock, n.clk); err != nil {
				return nil, err
			}
			deps.Peers = n.disc
		}
		if n.team, err = team.New(r.Team, deps); err != nil {
			return nil, err
		}
		n.team.SetInputSync(n.syncInputs)
		if n.links, err = publisher[dmsgs.TeamLinks](n, prefix+TopicTeamLinks, ros.QoSDefault); err != nil {
			return nil, err
		}
	}
	if r.Sim3DEnabled {
		say, err := publisher[dmsgs.Sim3dSay](n, prefix+TopicSim3dSay, ros.QoSDefault)
		if err != nil {
			return nil, err
		}
		var sayPub bus.Publisher[dmsgs.Sim3dSay] = say
		if n.rec != nil {
			n.rec.Sim3d()
			sayPub = n.rec.SayPublisher(say)
		}
		if n.sim3d, err = sim3d.New(r.Sim3D, n.clk, sayPub, teamInfo); err != nil {
			return nil, err
		}
		n.sim3d.SetInputSync(n.syncInputs)
		onHear := n.sim3d.HandleHear
		if n.rec != nil {
			onHear = func(m *dmsgs.Sim3dHear) { n.rec.Hear(m); n.sim3d.HandleHear(m) }
		}
		hear, err := ros.NewSubscription(rn, prefix+TopicSim3dHear, ros.QoSDefault, onHear)
		if err != nil {
			return nil, err
		}
		n.entities = append(n.entities, hear)
		extra = append(extra, hear)
		// The server time of every percept, as the agent relays it: the talking slots
		// follow the server's cycles.
		srvTime, err := ros.NewSubscription(rn, prefix+TopicSim3dTime, ros.QoSDefault, func(m *rosgraph_msgs.Clock) {
			n.sim3d.SetServerTime(float64(m.Clock.Sec) + float64(m.Clock.Nanosec)/1e9)
		})
		if err != nil {
			return nil, err
		}
		n.entities = append(n.entities, srvTime)
		extra = append(extra, srvTime)
	}

	// World info.
	wiDeps := worldinfo.Deps{Clock: n.clk, Game: game}
	if r.WorldInfo.Enabled {
		wiDeps.Conn = n.wiSock
		if wiDeps.Publisher, err = publisher[dmsgs.WorldInfo](n, prefix+TopicWorldInfo, ros.QoSDefault); err != nil {
			return nil, err
		}
	}
	if n.wi, err = worldinfo.New(r.WorldInfo, wiDeps); err != nil {
		return nil, err
	}
	n.wi.SetInputSync(n.syncInputs)

	// Swarm.
	if r.Swarm.Enabled {
		r.Swarm.Tap = n.tap("swarm", r.Swarm.UDPPort, r.Swarm.Interface)
		recv, err := publisher[dmsgs.SwarmMessage](n, prefix+TopicSwarmReceived, ros.QoSDefault)
		if err != nil {
			return nil, err
		}
		neigh, err := publisher[dmsgs.Neighbors](n, prefix+TopicSwarmNeighbors, ros.QoSDefault)
		if err != nil {
			return nil, err
		}
		if n.swarm, err = swarm.New(r.Swarm, n.clk, recv, neigh); err != nil {
			return nil, err
		}
		n.swarm.SetInputSync(n.syncInputs)
		send, err := ros.NewSubscription(rn, prefix+TopicSwarmSend, ros.QoSDefault, n.swarmSend)
		if err != nil {
			return nil, err
		}
		n.entities = append(n.entities, send)
		extra = append(extra, send)
	} else if n.swarm, err = swarm.New(r.Swarm, n.clk, nil, nil); err != nil {
		return nil, err
	} else {
		n.swarm.SetInputSync(n.syncInputs)
	}
	// The teammates' positions for swarm.range come from their team packets (swarmrange.go).
	if sr := newSwarmRange(&r.Swarm, n.swarm); sr != nil && n.team != nil {
		n.team.SetMateHook(sr.onMate)
	}

	// Inputs from the robot's other nodes, fanned out to every component that reads them.
	// They are deferred (package inputwake): a sample waits in its reader's ring, unless
	// it may change the team's send rate, until a component about to read the inputs
	// syncs them (SetInputSync), and is then handled with the time it arrived.
	motionTopic, behaviorTopic, visionTopic := inputTopics(r.RobotID)
	qos := r.inputQoS()
	motion, err := ros.NewSubscriptionDeferred(rn, motionTopic, qos, n.onMotion, inputwake.Motion())
	if err != nil {
		return nil, err
	}
	n.entities = append(n.entities, motion)
	behavior, err := ros.NewSubscriptionDeferred(rn, behaviorTopic, qos, n.onBehavior, inputwake.Behavior())
	if err != nil {
		return nil, err
	}
	n.entities = append(n.entities, behavior)
	vision, err := ros.NewSubscriptionDeferred(rn, visionTopic, qos, n.onVision, inputwake.Vision(r.Team.Rate))
	if err != nil {
		return nil, err
	}
	n.entities = append(n.entities, vision)
	n.inSubs = append([]subscription{motion, behavior, vision}, extra...)
	n.inputSyncs.Store(&[3]interface{ Sync() }{motion, behavior, vision})

	// Diagnostics.
	n.udpBase, _ = udpstat.Read() // zero when unreadable: the report says why
	n.udpLast = n.udpBase
	diagPub, err := publisher[dm.DiagnosticArray](n, TopicDiagnostics, ros.QoSDefault)
	if err != nil {
		return nil, err
	}
	if n.diag, err = diagnostics.New(r.Diagnostics, n.clk, diagPub, n.publishFailed(TopicDiagnostics, &n.diagFailed), n.sources()...); err != nil {
		return nil, err
	}
	return n, nil
}

// publishFailed returns what counts a failed publication of the periodic topic in count
// and warns of it (at most every warnEvery). The topic publishes again at its next
// period: /diagnostics or TeamLinks refused once must not stop the node.
func (n *Node) publishFailed(topic string, count *atomic.Uint64) func(error) {
	return func(err error) {
		count.Add(1)
		n.log.WarnEvery("publish "+topic, warnEvery, "publishing %s failed (again at its next period): %v", topic, err)
	}
}

// tap returns the recorder's Tap for a socket, nil when not recording.
func (n *Node) tap(name string, port uint16, iface string) transport.Tap {
	if n.rec == nil {
		return nil
	}
	return n.rec.Socket(name, fmt.Sprintf("udp port %d on %s", port, iface))
}

// publisher creates a publisher on the node's ROS node and remembers it for cleanup.
func publisher[T any, P cdr.PtrMessage[T]](n *Node, topic string, qos ros.QoS) (*ros.Publisher[T, P], error) {
	p, err := ros.NewPublisher[T, P](n.rn, topic, qos)
	if err != nil {
		return nil, err
	}
	n.entities = append(n.entities, p)
	return p, nil
}

func (n *Node) closeEntities() {
	for i := len(n.entities) - 1; i >= 0; i-- {
		_ = n.entities[i].Close()
	}
	n.entities = nil
}

// syncInputs hands the input samples that wait in their rings to the handlers (nothing
// before the input subscriptions exist): call it before reading what they write,
// holding no lock a handler takes.
func (n *Node) syncInputs() {
	if subs := n.inputSyncs.Load(); subs != nil {
		for _, s := range subs {
			s.Sync()
		}
	}
}

// The input handlers below get one message reused for every sample of their topic
// (ros.NewSubscriptionDeferred): they, and every setter they call, copy what they keep
// and keep no pointer into m or its slices. at is when the sample arrived; a handler may
// run on the goroutine of whichever component synced the inputs.
func (n *Node) onMotion(m *dmsgs.MotionInfo, at time.Time) {
	n.in.motion.note(at)
	n.gc.SetMotionAt(m, at)
	if n.team != nil {
		n.team.SetMotionAt(m, at)
	}
	if n.cfg.WorldInfo.Enabled {
		n.wi.SetMotionAt(m, at)
	}
	if n.sim3d != nil {
		n.sim3d.SetMotionAt(m, at)
	}
}

func (n *Node) onBehavior(m *dmsgs.BehaviorInfo, at time.Time) {
	n.in.behavior.note(at)
	if n.team != nil {
		n.team.SetBehaviorAt(m, at)
	}
	if n.cfg.WorldInfo.Enabled {
		n.wi.SetBehaviorAt(m, at)
	}
	if n.sim3d != nil {
		n.sim3d.SetBehaviorAt(m, at)
	}
}

func (n *Node) onVision(m *dmsgs.VisionInfo, at time.Time) {
	n.in.vision.note(at)
	n.gc.SetVisionAt(m, at)
	if n.team != nil {
		n.team.SetVisionAt(m, at)
	}
	if n.cfg.WorldInfo.Enabled {
		n.wi.SetVisionAt(m, at)
	}
	if n.sim3d != nil {
		n.sim3d.SetVisionAt(m, at)
	}
	if n.cfg.Swarm.Enabled && n.cfg.Swarm.Range > 0 && m.LocOK {
		n.swarm.SetPosition(n.cfg.Swarm.Name, swarm.Point{X: units.Metres(m.RobotPos.X), Y: units.Metres(m.RobotPos.Y)})
	}
}

func (n *Node) swarmSend(m *dmsgs.SwarmMessage) {
	if err := n.swarm.Send(m); err != nil {
		n.log.WarnEvery("swarm-send", warnEvery, "swarm: message to %q port %d not sent: %v", m.Dst, m.Port, err)
	}
}

// Run opens the sockets and runs every component under one errgroup until ctx is
// cancelled or one of them fails; then it stops them all and returns the first error
// (nil after a cancellation). The ROS node itself stays open: closing it is the
// caller's. Run may be called once.
func (n *Node) Run(ctx context.Context) error {
	if !n.running.CompareAndSwap(false, true) {
		return errors.New("node: Run called twice")
	}
	// The recorder outlives the sockets, so that what they do while stopping is written.
	recDone := make(chan error, 1)
	recCtx, recStop := context.WithCancel(context.Background())
	if n.rec != nil {
		go func() { recDone <- n.rec.Run(recCtx) }()
	} else {
		recDone <- nil
	}
	defer func() {
		recStop()
		<-recDone
	}()
	g, gctx := errgroup.WithContext(ctx)
	run := func(name string, f func(context.Context) error) {
		g.Go(func() error {
			if err := f(gctx); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			return nil
		})
	}
	for _, w := range n.sockets() {
		run("socket "+w.Name(), w.Run)
	}
	run("gamecontroller", n.gc.Run)
	if n.team != nil {
		run("team", n.team.Run)
		failed := n.publishFailed(n.links.Topic(), &n.linksFailed)
		run("teamlinks", func(ctx context.Context) error { return teamlinks.Run(ctx, n.clk, n.links, n.team.Status, failed) })
	}
	if n.disc != nil {
		run("booster discovery", n.disc.Run)
	}
	run("worldinfo", n.wi.Run)
	run("swarm", n.swarm.Run)
	if n.sim3d != nil {
		run("sim3d", n.sim3d.Run)
	}
	run("diagnostics", n.diag.Run)
	n.log.Infof("%s", n.summary())
	if w := transport.ContainerNetworkWarning(n.cfg.Interface); w != "" {
		n.log.Warnf("%s", w)
	}
	if w := swarmRangeWarning(&n.cfg); w != "" {
		n.log.Warnf("%s", w)
	}
	err := g.Wait()
	if err != nil && ctx.Err() == nil {
		n.log.Errorf("stopped: %v", err)
		return err
	}
	n.log.Infof("stopped")
	return nil
}

// summary is the start-up log line.
func (n *Node) summary() string {
	c := &n.cfg
	s := fmt.Sprintf("robot %d of team %d, league %s, interface %s; GameController on UDP %d",
		c.RobotID, c.TeamNumber, c.League, c.Interface, c.GameControllerPort)
	if c.TeamEnabled {
		s += fmt.Sprintf(", team %s on UDP %d", c.Team.Format, c.Team.TeamPort())
		if len(c.Team.Peers) > 0 {
			s += " to " + english.Count(len(c.Team.Peers), "peer")
		}
		if c.Team.Format == team.FormatBooster {
			s += " (booster " + c.Team.BoosterMode.String()
			if boosterDiscovery(&c.Team) {
				s += fmt.Sprintf(", discovery on UDP %d", discoveryPort(c))
			}
			s += ")"
		}
	}
	if c.WorldInfo.Enabled {
		s += ", world info on " + c.WorldInfo.Group.String()
	}
	if c.Swarm.Enabled {
		s += ", swarm as " + c.Swarm.Name
	}
	if c.Sim3DEnabled {
		s += ", 3D simulator channel"
	}
	if n.rec != nil {
		s += ", recording to " + n.rec.Path()
	}
	return s
}

// sockets lists the node's own sockets (the swarm component opens its own).
func (n *Node) sockets() []*transport.Worker {
	ws := []*transport.Worker{n.gcSock}
	if n.teamSock != nil {
		ws = append(ws, n.teamSock)
	}
	if n.wiSock != nil {
		ws = append(ws, n.wiSock)
	}
	if n.discSock != nil {
		ws = append(ws, n.discSock)
	}
	return ws
}

// Config returns the resolved configuration the node runs with.
func (n *Node) Config() Config { return n.cfg }

// WaitUp blocks until every socket of the node is open (or ctx is done).
func (n *Node) WaitUp(ctx context.Context) error {
	for _, w := range n.sockets() {
		if err := w.WaitUp(ctx); err != nil {
			return fmt.Errorf("socket %s: %w", w.Name(), err)
		}
	}
	if n.cfg.Swarm.Enabled {
		return n.swarm.WaitUp(ctx)
	}
	return nil
}

// GameControllerAddr returns the address of the GameController socket.
func (n *Node) GameControllerAddr() netip.AddrPort { return n.gcSock.LocalAddr() }

// TeamAddr returns the address of the team socket; invalid when the team component is off.
func (n *Node) TeamAddr() netip.AddrPort {
	if n.teamSock == nil {
		return netip.AddrPort{}
	}
	return n.teamSock.LocalAddr()
}

// Diagnostics returns the array the node would publish on /diagnostics now.
func (n *Node) Diagnostics() dm.DiagnosticArray { return n.diag.Collect(n.clk.Now()) }

// Logger returns the node's logger as a *slog.Logger.
func (n *Node) Logger() *slog.Logger { return SlogLogger(n.log) }
