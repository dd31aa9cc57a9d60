package gcsim

import (
	"context"
	"fmt"
	"log/slog"

	"golang.org/x/sync/errgroup"

	"github.com/robocup-dnetwork/dnetwork/transport"
)

// UDPConfig describes the sockets of a simulated GameController.
type UDPConfig struct {
	// Dest is where control packets go; it picks the control socket's interface.
	Dest Destination
	// ReturnPort is the port return packets arrive on (ReturnPort, 3939, in a game;
	// 0 lets the kernel choose, see UDP.Return.LocalAddr).
	ReturnPort uint16
	// ReturnInterface selects the interface of the return socket; "" means any.
	ReturnInterface string
	// TeamPorts opens sockets on 10000+team for both teams, to count team messages.
	// They share the ports with robots on the same host: broadcast and multicast team
	// messages reach both, but unicast ones only reach one of the sockets, so leave it
	// off when robots on this host exchange unicast team messages.
	TeamPorts bool
	Teams     [2]uint8
	// MulticastTTL is the TTL of multicast control packets, as transport.Config's.
	MulticastTTL int
	// Logger receives the workers' state changes; nil means slog.Default().
	Logger *slog.Logger
}

// UDP holds the transport workers of a simulated GameController.
type UDP struct {
	Control *transport.Worker
	Return  *transport.Worker
	// Team holds the team message sockets of side A and B; nil without TeamPorts.
	Team [2]*transport.Worker
}

// NewUDP creates the workers; nothing is opened before Run.
func NewUDP(c UDPConfig) (*UDP, error) {
	if err := c.Dest.Validate(); err != nil {
		return nil, err
	}
	ctl := transport.Config{Name: "gc-sim control", Interface: "any", MulticastTTL: c.MulticastTTL, Logger: c.Logger}
	switch c.Dest.Kind {
	case DestBroadcast:
		ctl.Interface = c.Dest.Interface
	case DestMulticast:
		ctl.Interface = c.Dest.Interface
		ctl.MulticastLoopback = true // robots on this host hear the group too
	case DestUnicast:
	}
	if ctl.Interface == "" {
		ctl.Interface = "auto"
	}
	ctl.QueueLen = 1 // nothing is expected on the control socket
	var u UDP
	var err error
	if u.Control, err = transport.New(ctl); err != nil {
		return nil, fmt.Errorf("gcsim: control socket: %w", err)
	}
	ri := c.ReturnInterface
	if ri == "" {
		ri = "any"
	}
	if u.Return, err = transport.New(transport.Config{Name: "gc-sim return", Interface: ri, Port: c.ReturnPort, Logger: c.Logger}); err != nil {
		return nil, fmt.Errorf("gcsim: return socket: %w", err)
	}
	if c.TeamPorts {
		for i, t := range c.Teams {
			if t == 0 {
				return nil, fmt.Errorf("%w: team ports need both team numbers", ErrConfig)
			}
			w, err := transport.New(transport.Config{Name: fmt.Sprintf("gc-sim team %d", t), Interface: "any",
				Port: TeamPortBase + uint16(t), Logger: c.Logger})
			if err != nil {
				return nil, fmt.Errorf("gcsim: team %d socket: %w", t, err)
			}
			u.Team[i] = w
		}
	}
	return &u, nil
}

func (u *UDP) workers() []*transport.Worker {
	ws := []*transport.Worker{u.Control, u.Return}
	for _, w := range u.Team {
		if w != nil {
			ws = append(ws, w)
		}
	}
	return ws
}

// Run runs every worker until ctx is done.
func (u *UDP) Run(ctx context.Context) error {
	g, ctx := errgroup.WithContext(ctx)
	for _, w := range u.workers() {
		g.Go(func() error { return w.Run(ctx) })
	}
	return g.Wait()
}

// WaitUp waits until every socket is open.
func (u *UDP) WaitUp(ctx context.Context) error {
	for _, w := range u.workers() {
		if err := w.WaitUp(ctx); err != nil {
			return fmt.Errorf("gcsim: %s: %w", w.Name(), err)
		}
	}
	return nil
}

// Attach sets cfg's Control, Return and TeamConns to the workers.
func (u *UDP) Attach(cfg *Config) {
	cfg.Control = u.Control
	cfg.Return = u.Return
	for i, w := range u.Team {
		if w != nil {
			cfg.TeamConns[i] = w
		}
	}
}
