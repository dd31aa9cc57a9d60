package monitor

import (
	"context"
	"fmt"
	"net/netip"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// Monitor listens to the GameController, the return packets and the team ports and keeps
// what it hears for Monitor.State. It sends nothing but, with Config.TrueData, monitor
// requests to the GameControllers it hears. Its methods are safe for concurrent use.
type Monitor struct {
	cfg Config
	clk clock.Clock
	key *teaminfo.Key
	ran atomic.Bool

	mu        sync.Mutex
	listeners []*listener
	spawn     func(*listener) // set while Run runs; nil before and after
	robots    map[robotKey]*robot
	byAddr    map[addrKey]robotKey  // last source address of each robot, per kind
	sources   map[addrKey]*source   // faults from addresses no robot is known at
	flags     map[flagKey]*portFlag // traffic on ports the rules do not allow
	teams     map[uint8]*teamStats
	gc        gcState
	truth     trueState
	dropped   uint64 // packets of robots beyond MaxRobots
	// localAddrs lists this host's addresses (localAddrs; replaced in tests).
	localAddrs func() ([]netip.Addr, error)
}

// listener is one port and the worker that owns its socket.
type listener struct {
	port Port
	w    *transport.Worker
	// stop ends the worker (set while Run runs); released marks a return port given
	// back to a GameController on this host (see gchost.go).
	stop     context.CancelFunc
	released bool
}

type addrKey struct {
	kind Kind
	addr netip.AddrPort
}

// New validates cfg (with defaults applied) and returns a monitor. Nothing is opened
// before Run.
func New(cfg Config) (*Monitor, error) {
	cfg = cfg.withDefaults()
	cfg.Ports = withBoosterPorts(cfg.Ports, cfg.Booster)
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	m := &Monitor{
		cfg:     cfg,
		clk:     cfg.Clock,
		robots:  map[robotKey]*robot{},
		byAddr:  map[addrKey]robotKey{},
		sources: map[addrKey]*source{},
		flags:   map[flagKey]*portFlag{},
		teams:   map[uint8]*teamStats{},

		localAddrs: localAddrs,
	}
	if len(cfg.AuthKey) > 0 {
		m.key, _ = teaminfo.NewKey(cfg.AuthKey) // checked by validate
	}
	for _, p := range cfg.Ports {
		l, err := m.newListener(p)
		if err != nil {
			return nil, err
		}
		m.listeners = append(m.listeners, l)
	}
	m.gc.sources = map[netip.Addr]time.Time{}
	return m, nil
}

func (m *Monitor) newListener(p Port) (*listener, error) {
	tc := transport.Config{
		Name:      p.Name(),
		Interface: m.cfg.Interface,
		Port:      p.Port,
		// Read everything the kernel has: oversize team messages are judged against the
		// league cap here, with their sender, rather than dropped by the worker.
		MaxDatagram: transport.MaxUDPPayload,
		Logger:      m.cfg.Logger,
		Now:         m.clk.Now,
	}
	if p.Kind == KindTeam {
		tc.Groups = m.cfg.Groups
	}
	if m.cfg.Tap != nil {
		tc.Tap = m.cfg.Tap(p)
	}
	w, err := transport.New(tc)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", m.cfg.Program, p.Name(), err)
	}
	return &listener{port: p, w: w}, nil
}

// Run opens every socket and processes datagrams until ctx is done; then it closes the
// sockets and returns nil. Sockets that cannot be opened are retried by their workers
// (see transport.Worker.Run) and show as down in the state.
func (m *Monitor) Run(ctx context.Context) error {
	if m.ran.Swap(true) {
		return ErrRunTwice
	}
	var wg sync.WaitGroup
	start := func(l *listener) {
		lctx, stop := context.WithCancel(ctx)
		l.stop = stop
		if l.released {
			stop()
		}
		wg.Add(2)
		go func() {
			defer wg.Done()
			defer stop()
			_ = l.w.Run(lctx) // returns nil when lctx is done; failures are retried inside
		}()
		go func() {
			defer wg.Done()
			for d := range l.w.Datagrams() {
				if !m.Observe(l.port, d) {
					l.w.ReportMalformed()
				}
			}
		}()
	}
	m.mu.Lock()
	for _, l := range m.listeners {
		start(l)
	}
	m.spawn = start
	m.mu.Unlock()

	t := m.clk.NewTicker(pruneInterval)
	defer t.Stop()
	for done := false; !done; {
		select {
		case <-t.C():
			// The clock's now rather than the tick's time: a manual clock may have moved on
			// while an older tick waited in the channel.
			now := m.clk.Now()
			m.mu.Lock()
			m.prune(now)
			hosts := m.trueRequests(now)
			m.mu.Unlock()
			m.sendTrueRequests(hosts)
		case <-ctx.Done():
			done = true
		}
	}
	m.mu.Lock()
	m.spawn = nil
	m.mu.Unlock()
	wg.Wait()
	return nil
}

// WaitUp blocks until every socket opened so far is open, ctx is done or Run returned.
func (m *Monitor) WaitUp(ctx context.Context) error {
	m.mu.Lock()
	ls := slices.Clone(m.listeners)
	m.mu.Unlock()
	for _, l := range ls {
		if err := l.w.WaitUp(ctx); err != nil {
			return fmt.Errorf("%s: %s: %w", m.cfg.Program, l.port.Name(), err)
		}
	}
	return nil
}

// Ports returns the ports listened on, with the port numbers the sockets were bound to
// (a Port of 0 reads as the kernel's choice once its socket is open).
func (m *Monitor) Ports() []Port {
	m.mu.Lock()
	defer m.mu.Unlock()
	ps := make([]Port, len(m.listeners))
	for i, l := range m.listeners {
		ps[i] = l.port
		ps[i].Port = l.w.LocalAddr().Port()
	}
	return ps
}

// Sent returns the number of datagrams the monitor's sockets sent: 0 unless
// Config.TrueData, which sends the monitor requests. Tests check it.
func (m *Monitor) Sent() uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	var n uint64
	for _, l := range m.listeners {
		n += l.w.Stats().Sent
	}
	return n
}

// follow adds the team port of team t when FollowGC is on, no port is counted for t yet
// and Run is running. m.mu is held.
func (m *Monitor) follow(t uint8) {
	if !m.cfg.FollowGC || t == 0 || m.spawn == nil {
		return
	}
	p := TeamPort(t)
	for _, l := range m.listeners {
		if (l.port.Kind == KindTeam && l.port.Team == t) || l.port.Port == p.Port {
			return
		}
	}
	l, err := m.newListener(p)
	if err != nil {
		m.cfg.Logger.Warn(m.cfg.Program+": cannot follow team", "team", t, "err", err)
		return
	}
	m.listeners = append(m.listeners, l)
	m.cfg.Logger.Info(m.cfg.Program+": following team named by the GameController", "team", t, "port", p.Port)
	m.spawn(l)
	m.followBooster(t)
}
