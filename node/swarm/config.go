package swarm

import (
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/robocup-dnetwork/dnetwork/transport"
	tswarm "github.com/robocup-dnetwork/dnetwork/transport/swarm"
)

// Config configures a Component. Start from DefaultConfig, set Enabled, Name and Hosts,
// and change what differs; Validate reports every problem at once.
type Config struct {
	// Enabled turns the component on. Default false: the swarm model is for labs and
	// simulation, not for matches.
	Enabled bool
	// Name is this robot's swarm address: a name from Hosts or an IPv4 literal, 1..63
	// bytes of [A-Za-z0-9._-]. Required when enabled.
	Name string
	// Hosts maps robot names to addresses, one "name=ip" or "name=ip:port" string each
	// (the form of a string-array parameter). In ModeNetwork a missing port means
	// UDPPort; in ModePorts every entry, this robot's included, needs its own port. When
	// Hosts is not empty, frames from robots not in it are dropped. Default empty.
	Hosts []string
	// Mode maps virtual destinations to UDP; see ParseMode for the parameter's names.
	// Default tswarm.ModeNetwork.
	Mode tswarm.Mode
	// Interface selects the network interface (see package transport); "" means "auto" in
	// ModeNetwork and "lo" in the one-host modes. Default "".
	Interface string
	// UDPPort is the real UDP port shared by every virtual port in ModeNetwork and
	// ModeHostMulticast. Default 4100.
	UDPPort uint16
	// Group is the multicast group of "multicast" and of ModeHostMulticast; the zero
	// Addr means tswarm.DefaultGroup (239.255.41.0). Default zero.
	Group netip.Addr

	// Ports are the virtual ports bound on this robot's own address (unicast and
	// broadcast). Default [4100].
	Ports []uint16
	// MulticastPorts are the virtual ports bound on "multicast". Default none.
	MulticastPorts []uint16

	// NeighborWindow is how long a robot stays a neighbour after it was last heard.
	// Default 3 s.
	NeighborWindow time.Duration
	// NeighborsRate is the rate of Neighbors publications, in Hz. Default 1.
	NeighborsRate float64
	// Range, when positive, is the communication range in metres (see SetPosition).
	// Default 0: no range.
	Range float64

	// QueueLen is the receive queue length of the socket; 0 means the transport default.
	QueueLen int
	// WarnInterval is the least time between two warnings of the same cause. Default 10 s.
	WarnInterval time.Duration
	// Logger receives warnings; nil means slog.Default().
	Logger *slog.Logger
	// Tap, if set, sees every frame the socket sends and receives (a recorder).
	Tap transport.Tap `json:"-"`
}

// DefaultConfig returns the defaults: disabled, ModeNetwork on UDP 4100, port 4100 bound,
// neighbours within 3 s published at 1 Hz, no range.
func DefaultConfig() Config {
	return Config{
		UDPPort:        tswarm.DefaultUDPPort,
		Ports:          []uint16{tswarm.DefaultPort},
		NeighborWindow: tswarm.DefaultNeighborWindow,
		NeighborsRate:  1,
		WarnInterval:   10 * time.Second,
	}
}

// ErrConfig is wrapped by every error Validate and ParseHosts return.
var ErrConfig = errors.New("swarm: bad config")

// Validate checks every field of an enabled configuration and reports all problems, each
// wrapping ErrConfig. A disabled configuration is always valid: it is never used.
func (c Config) Validate() error {
	if !c.Enabled {
		return nil
	}
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: "+format, append([]any{ErrConfig}, args...)...))
	}
	if err := tswarm.CheckName(c.Name); err != nil {
		bad("name: %v", err)
	}
	hosts, err := ParseHosts(c.Hosts)
	if err != nil {
		errs = append(errs, err)
	}
	switch c.Mode {
	case tswarm.ModeNetwork, tswarm.ModeHostMulticast:
		if c.UDPPort == 0 {
			bad("UDP port is 0")
		}
	case tswarm.ModePorts:
		if own, ok := hosts[c.Name]; c.Name != "" && (!ok || own.Port() == 0) {
			bad("mode %v needs this robot (%s) in hosts with a port, as \"%s=127.0.0.1:PORT\"", c.Mode, c.Name, c.Name)
		}
		for _, name := range slices.Sorted(maps.Keys(hosts)) {
			if hosts[name].Port() == 0 {
				bad("mode %v: host %s has no port", c.Mode, name)
			}
		}
	default:
		bad("unknown mode %d", uint8(c.Mode))
	}
	if c.Group.IsValid() && (!c.Group.Is4() || !c.Group.IsMulticast()) {
		bad("group %v is not an IPv4 multicast address", c.Group)
	}
	if len(c.Ports) == 0 && len(c.MulticastPorts) == 0 {
		bad("no ports to bind: set ports or multicast ports")
	}
	checkPorts := func(what string, ports []uint16) {
		seen := map[uint16]bool{}
		for _, p := range ports {
			switch {
			case p == 0:
				bad("%s: port 0", what)
			case seen[p]:
				bad("%s: port %d listed twice", what, p)
			}
			seen[p] = true
		}
	}
	checkPorts("ports", c.Ports)
	checkPorts("multicast ports", c.MulticastPorts)
	if c.NeighborWindow <= 0 {
		bad("neighbour window %v must be positive", c.NeighborWindow)
	}
	if !(c.NeighborsRate > 0) || c.NeighborsRate > 1000 {
		bad("neighbours rate %v Hz is outside (0, 1000]", c.NeighborsRate)
	}
	if c.Range < 0 || math.IsNaN(c.Range) || math.IsInf(c.Range, 0) {
		bad("range %v m is not a finite non-negative number", c.Range)
	}
	if c.QueueLen < 0 {
		bad("queue length %d is negative", c.QueueLen)
	}
	if c.WarnInterval < 0 {
		bad("warning interval %v is negative", c.WarnInterval)
	}
	return errors.Join(errs...)
}

// ParseHosts parses "name=ip" and "name=ip:port" strings into a map. It reports every bad
// entry at once, each wrapping ErrConfig: a missing "=", a name that cannot be a swarm
// address, an address that is not IPv4, port 0, and a name listed twice.
func ParseHosts(entries []string) (map[string]netip.AddrPort, error) {
	out := make(map[string]netip.AddrPort, len(entries))
	var errs []error
	for i, e := range entries {
		bad := func(format string, args ...any) {
			errs = append(errs, fmt.Errorf("%w: hosts[%d] %q: "+format, append([]any{ErrConfig, i, e}, args...)...))
		}
		name, addr, ok := strings.Cut(e, "=")
		name, addr = strings.TrimSpace(name), strings.TrimSpace(addr)
		if !ok {
			bad(`want "name=ip" or "name=ip:port"`)
			continue
		}
		if err := tswarm.CheckName(name); err != nil {
			bad("%v", err)
			continue
		}
		var ap netip.AddrPort
		if a, err := netip.ParseAddr(addr); err == nil {
			ap = netip.AddrPortFrom(a, 0)
		} else if ap, err = netip.ParseAddrPort(addr); err != nil {
			bad("address %q is neither ip nor ip:port", addr)
			continue
		} else if ap.Port() == 0 {
			bad("port 0")
			continue
		}
		if !ap.Addr().Unmap().Is4() {
			bad("address %v is not IPv4", ap.Addr())
			continue
		}
		ap = netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())
		if _, dup := out[name]; dup {
			bad("%s listed twice", name)
			continue
		}
		out[name] = ap
	}
	return out, errors.Join(errs...)
}

// ParseMode parses a mode parameter: "network", "ports" or "host-multicast" (the names
// tswarm.Mode.String returns).
func ParseMode(s string) (tswarm.Mode, error) {
	for _, m := range []tswarm.Mode{tswarm.ModeNetwork, tswarm.ModePorts, tswarm.ModeHostMulticast} {
		if s == m.String() {
			return m, nil
		}
	}
	return 0, fmt.Errorf("%w: mode %q is not network, ports or host-multicast", ErrConfig, s)
}

// hostAddress returns the string a Neighbors message gives for an address: the IP alone
// when the entry has no port, else ip:port.
func hostAddress(a netip.AddrPort) string {
	if a.Port() == 0 {
		return a.Addr().String()
	}
	return a.String()
}
