package ros

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/robocup-dnetwork/dnetwork/ros/cdr"
	"github.com/robocup-dnetwork/dnetwork/ros/dds"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/rcl_interfaces"
	"github.com/robocup-dnetwork/dnetwork/ros/params"
	"github.com/robocup-dnetwork/dnetwork/ros/rosargs"
)

// ErrClosed reports use of a closed node or of an entity of a closed node.
var ErrClosed = errors.New("ros: node closed")

// NodeOptions configure NewNode. The zero value gives a node like an rclcpp node
// without arguments: /rosout, /parameter_events, the parameter services and
// use_sim_time, configured from the process environment.
type NodeOptions struct {
	// Args are the parsed --ros-args: node name and namespace remaps, topic and
	// service remaps, parameter overrides, log levels, enclave, rosout switch.
	Args *rosargs.Args
	// Params is the parameter store the node serves. nil: a new store with the
	// overrides that Args' --params-file and -p arguments give this node.
	Params *params.Store
	// Getenv reads the environment (ROS_DOMAIN_ID, ROS_DISTRO, ROS_LOCALHOST_ONLY,
	// ROS_AUTOMATIC_DISCOVERY_RANGE, ROS_STATIC_PEERS, CYCLONEDDS_URI); nil: os.Getenv.
	Getenv func(string) string
	// LogOutput receives the console log lines; nil: os.Stderr.
	LogOutput io.Writer
	// NoParameterServices leaves out the six parameter services.
	NoParameterServices bool
	// ClockOffset is added to the system time the node's clock reads (not to simulation
	// time): a robot whose clock is off, for tests of what its teammates make of it.
	ClockOffset time.Duration
}

// Node is a ROS 2 node on its own DDS participant: it appears in `ros2 node list`
// under its namespace, and its publishers, subscriptions and services are listed by
// `ros2 node info`. Its methods are safe for concurrent use.
type Node struct {
	name, namespace, fqn string
	args                 *rosargs.Args
	distro               Distro
	env                  dds.Env
	participant          *dds.Participant
	discovery            *dds.Writer
	log                  *Logger
	clock                *ROSClock
	params               *params.Store

	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}

	graphMu sync.Mutex // orders ros_discovery_info samples; guards encBuf

	mu       sync.Mutex
	closed   bool
	readers  []dds.GUID // of the node's readers, in creation order
	writers  []dds.GUID
	entities map[closer]struct{}
	nextCSID uint32
	encBuf   []byte
	paramPub *Publisher[rcl_interfaces.ParameterEvent, *rcl_interfaces.ParameterEvent]

	removeParamListener func()
	simMu               sync.Mutex // guards clockSub
	clockSub            *Subscription[rosgraphClock, *rosgraphClock]

	peers peerIssues // peers.go

	closeOnce sync.Once
	closeErr  error
}

// closer is an entity the node closes when it shuts down.
type closer interface {
	// shutdown releases the entity without touching the node's graph bookkeeping.
	shutdown()
}

// NewNode creates a node named name in namespace ("" or "/" is the root namespace;
// a relative namespace is made absolute), after applying the __node and __ns remaps
// of opts.Args. The node shuts down when ctx is cancelled or Close is called.
func NewNode(ctx context.Context, name, namespace string, opts NodeOptions) (*Node, error) {
	args := opts.Args
	if args == nil {
		args = &rosargs.Args{}
	}
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	name = args.NodeName(name)
	if err := rosargs.ValidateNodeName(name); err != nil {
		return nil, fmt.Errorf("ros: node name: %w", err)
	}
	if !strings.HasPrefix(namespace, "/") {
		namespace = "/" + namespace
	}
	namespace = args.Namespace(name, namespace)
	if len(namespace) > 1 {
		namespace = strings.TrimRight(namespace, "/")
	}
	if err := rosargs.ValidateNamespace(namespace); err != nil {
		return nil, fmt.Errorf("ros: node namespace: %w", err)
	}
	rosDistro := strings.TrimSpace(getenv("ROS_DISTRO"))
	src := distroSource{build: BuildDistro, installed: installedDistros, localhostOnly: localhostOnlyHint(getenv)}
	distro, _, err := candidateDistro(rosDistro, src)
	if err != nil {
		return nil, err
	}
	env, err := dds.ReadEnv(getenv, distro.Name)
	if err != nil {
		return nil, fmt.Errorf("ros: %w", err)
	}
	fqn := rosargs.FullyQualifiedName(namespace, name)
	store := opts.Params
	if store == nil {
		overrides, err := params.LoadArgs(args)
		if err != nil {
			return nil, fmt.Errorf("ros: node %s: %w", fqn, err)
		}
		if store, err = params.NewStore(overrides.ForNode(fqn)); err != nil {
			return nil, fmt.Errorf("ros: node %s: %w", fqn, err)
		}
	}
	out := opts.LogOutput
	if out == nil {
		out = os.Stderr
	}
	if args.DisableStdoutLogs {
		out = nil
	}
	n := &Node{
		name:      name,
		namespace: namespace,
		fqn:       fqn,
		params:    store,
		args:      args,
		distro:    distro,
		env:       env,
		clock:     &ROSClock{offset: opts.ClockOffset},
		done:      make(chan struct{}),
		entities:  map[closer]struct{}{},
	}
	loggerName := rosargs.LoggerName(namespace, name)
	level := args.LevelFor(loggerName)
	if level == rosargs.LogUnset {
		level = LevelInfo
	}
	n.log = newLogger(loggerName, level, out, n.clock, args.LoggerLevels)
	n.ctx, n.cancel = context.WithCancel(ctx)

	if n.participant, err = newParticipant(env, args.Enclave); err != nil {
		n.cancel()
		return nil, fmt.Errorf("ros: node %s: %w", n.fqn, err)
	}
	src.detect = func() (int, int) { return detectGIDSize(n.ctx, n.participant, DetectWindow) }
	choice, err := chooseDistro(rosDistro, src)
	if err != nil {
		n.participant.Close()
		n.cancel()
		return nil, err
	}
	if choice.Distro.Name != distro.Name {
		// The distro the domain uses may read the environment differently (Humble's
		// ROS_LOCALHOST_ONLY): join the domain as a node of that distro would.
		if chosen, err := dds.ReadEnv(getenv, choice.Distro.Name); err == nil && chosen.Config() != env.Config() {
			n.participant.Close()
			n.env = chosen
			if n.participant, err = newParticipant(chosen, args.Enclave); err != nil {
				n.cancel()
				return nil, fmt.Errorf("ros: node %s: %w", n.fqn, err)
			}
		}
	}
	n.distro = choice.Distro
	n.params.SetRelease(n.distro.Params)
	n.log.Infof("%s", choice)
	if err := n.start(opts); err != nil {
		n.Close()
		return nil, fmt.Errorf("ros: node %s: %w", n.fqn, err)
	}
	go func() {
		select {
		case <-n.ctx.Done():
			n.Close()
		case <-n.done:
		}
	}()
	return n, nil
}

// newParticipant creates the node's participant for env.
func newParticipant(env dds.Env, enclave string) (*dds.Participant, error) {
	opts := dds.ParticipantOptions{
		DomainID: env.DomainID,
		Config:   env.Config(),
		UserData: enclaveUserData(enclave),
	}
	if env.Discovery.LocalhostOnly {
		// Humble's ROS_LOCALHOST_ONLY: without multicast on lo every process needs
		// a participant index, and Humble's tools only use 0..9; keep 0..2 for them.
		return dds.NewLoopbackParticipant(opts)
	}
	return dds.NewParticipant(opts)
}

// start creates the node's standard entities.
func (n *Node) start(opts NodeOptions) error {
	var info cdr.Message = n.distro.discoveryMessage(dds.GUID{}, nil)
	var err error
	q := qosDiscoveryWriter
	q.UserData = endpointUserData("", info.TypeHash(), n.distro.TypeHash)
	if n.discovery, err = n.participant.NewWriter(DiscoveryTopic, info.DDSTypeName(), q); err != nil {
		return err
	}
	if err := n.watchOfferedQoS(); err != nil {
		return err
	}
	if err := n.publishGraph(); err != nil {
		return err
	}
	if !n.args.DisableRosoutLogs {
		rosout, err := NewPublisher[rcl_interfaces.Log](n, "/rosout", QoSRosout)
		if err != nil {
			return err
		}
		n.log.setRosout(func(m *rcl_interfaces.Log) { _ = rosout.Publish(m) })
	}
	if n.paramPub, err = NewPublisher[rcl_interfaces.ParameterEvent](n, "/parameter_events", QoSParameterEvents); err != nil {
		return err
	}
	if err := n.startParameters(!opts.NoParameterServices); err != nil {
		return err
	}
	return nil
}

// Name returns the node's name (after remapping).
func (n *Node) Name() string { return n.name }

// Namespace returns the node's namespace, "/" for the root namespace.
func (n *Node) Namespace() string { return n.namespace }

// FullyQualifiedName returns "/<namespace>/<name>", e.g. "/robot1/dnetwork".
func (n *Node) FullyQualifiedName() string { return n.fqn }

// Logger returns the node's logger ("robot1.dnetwork"), which also publishes on /rosout.
func (n *Node) Logger() *Logger { return n.log }

// Clock returns the node's ROS clock: system time, or /clock while use_sim_time is true.
func (n *Node) Clock() *ROSClock { return n.clock }

// Params returns the node's parameter store; declare the node's parameters on it.
func (n *Node) Params() *params.Store { return n.params }

// Distro returns the ROS release conventions the node follows (ROS_DISTRO).
func (n *Node) Distro() Distro { return n.distro }

// DomainID returns the node's DDS domain (ROS_DOMAIN_ID).
func (n *Node) DomainID() uint32 { return n.env.DomainID }

// Participant returns the node's DDS participant, for inspection.
func (n *Node) Participant() *dds.Participant { return n.participant }

// Context returns a context that is cancelled when the node shuts down.
func (n *Node) Context() context.Context { return n.ctx }

// Done is closed when the node has shut down.
func (n *Node) Done() <-chan struct{} { return n.done }

// ResolveTopic returns the fully qualified name of a topic for this node: relative
// and ~ names expanded, remap rules applied, the result validated.
func (n *Node) ResolveTopic(name string) (string, error) {
	return n.args.ResolveTopic(name, n.name, n.namespace)
}

// ResolveService is ResolveTopic for service names.
func (n *Node) ResolveService(name string) (string, error) {
	return n.args.ResolveService(name, n.name, n.namespace)
}

// Close shuts the node down: it stops all subscriptions and services (waiting for
// running callbacks), announces that the node is gone and deletes the participant.
// It must not be called from one of the node's own callbacks; cancel the node's
// context there instead. Closing twice is a no-op.
func (n *Node) Close() error {
	n.closeOnce.Do(func() {
		n.mu.Lock()
		n.closed = true
		entities := make([]closer, 0, len(n.entities))
		for e := range n.entities {
			entities = append(entities, e)
		}
		n.entities = nil
		n.mu.Unlock()
		n.cancel()
		if n.removeParamListener != nil {
			n.removeParamListener()
		}
		for _, e := range entities {
			e.shutdown()
		}
		n.log.setRosout(nil)
		if n.discovery != nil {
			// As rmw does when a node is destroyed: the participant has no nodes left.
			n.graphMu.Lock()
			n.mu.Lock()
			n.readers, n.writers = nil, nil
			n.mu.Unlock()
			if err := n.writeGraphLocked(nil); err != nil {
				n.closeErr = err
			}
			n.graphMu.Unlock()
		}
		if err := n.participant.Close(); err != nil && n.closeErr == nil {
			n.closeErr = err
		}
		close(n.done)
	})
	return n.closeErr
}

// closedErr marks err, from making a DDS entity, with ErrClosed when the node's
// participant was closed (dds.ErrClosed), so that callers see the node's sentinel.
func closedErr(err error) error {
	if errors.Is(err, dds.ErrClosed) && !errors.Is(err, ErrClosed) {
		return fmt.Errorf("%w: %w", ErrClosed, err)
	}
	return err
}

// register adds an entity's readers and writers to the node and republishes the graph.
// An entity the graph cannot announce is removed again and shut down, as rmw does not
// make an endpoint whose graph update fails: its constructor returns the error and no
// handle, so nothing else would ever close it.
func (n *Node) register(e closer, readers, writers []dds.GUID) error {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		e.shutdown()
		return ErrClosed
	}
	n.entities[e] = struct{}{}
	n.readers = append(n.readers, readers...)
	n.writers = append(n.writers, writers...)
	n.mu.Unlock()
	if err := n.publishGraph(); err != nil {
		if n.unregister(e, readers, writers) { // false: the node's shutdown has it
			e.shutdown()
		}
		return fmt.Errorf("announcing it on %s: %w", DiscoveryTopic, err)
	}
	return nil
}

// unregister removes an entity and republishes the graph; it reports whether the
// entity was registered (false once the node has shut down).
func (n *Node) unregister(e closer, readers, writers []dds.GUID) bool {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return false
	}
	if _, ok := n.entities[e]; !ok {
		n.mu.Unlock()
		return false
	}
	delete(n.entities, e)
	n.readers = slices.DeleteFunc(n.readers, func(g dds.GUID) bool { return slices.Contains(readers, g) })
	n.writers = slices.DeleteFunc(n.writers, func(g dds.GUID) bool { return slices.Contains(writers, g) })
	n.mu.Unlock()
	if err := n.publishGraph(); err != nil {
		n.log.Warnf("updating %s: %v", DiscoveryTopic, err)
	}
	return true
}

// publishGraph publishes the node with its current readers and writers. graphMu
// is held from the snapshot to the write, so a newer snapshot never overtakes an
// older one.
func (n *Node) publishGraph() error {
	n.graphMu.Lock()
	defer n.graphMu.Unlock()
	n.mu.Lock()
	entry := NodeEntities{
		Namespace: n.namespace,
		Name:      n.name,
		Readers:   slices.Clone(n.readers),
		Writers:   slices.Clone(n.writers),
	}
	n.mu.Unlock()
	return n.writeGraphLocked([]NodeEntities{entry})
}

// writeGraphLocked writes one ros_discovery_info sample; graphMu is held.
func (n *Node) writeGraphLocked(nodes []NodeEntities) error {
	m := n.distro.discoveryMessage(n.participant.GUID(), nodes)
	b, err := cdr.Append(n.encBuf[:0], m)
	if err != nil {
		return fmt.Errorf("encoding %s: %w", DiscoveryTopic, err)
	}
	n.encBuf = b
	return n.discovery.Write(b)
}

// newCSID returns a new service/client id ("serviceid=<id>;").
func (n *Node) newCSID() string {
	n.mu.Lock()
	n.nextCSID++
	id := n.nextCSID
	n.mu.Unlock()
	return endpointID(n.participant.GUID(), id)
}

// typeHashUserData returns an endpoint's USER_DATA for a type with hash.
func (n *Node) typeHashUserData(extra, hash string) []byte {
	return endpointUserData(extra, hash, n.distro.TypeHash)
}
