package gcsim

import (
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// Default ports of the GameController protocol.
const (
	ControlPort = gcproto.ControlPort // control packets to the robots
	ReturnPort  = gcproto.ReturnPort  // return packets from the robots
	// TeamPortBase plus the team number is a team's message port.
	TeamPortBase = gcproto.TeamPortBase
)

// MaxUnicast is the largest number of unicast destinations.
const MaxUnicast = 64

// ErrDest reports a destination that does not parse or is incomplete.
var ErrDest = errors.New("gcsim: bad destination")

// DestKind says how control packets are addressed.
type DestKind uint8

// Destination kinds.
const (
	// DestBroadcast sends to the directed broadcast address of an interface.
	DestBroadcast DestKind = iota + 1
	// DestUnicast sends a copy to every address of a list.
	DestUnicast
	// DestMulticast sends to a multicast group.
	DestMulticast
)

// String returns "broadcast", "unicast" or "multicast".
func (k DestKind) String() string {
	switch k {
	case DestBroadcast:
		return "broadcast"
	case DestUnicast:
		return "unicast"
	case DestMulticast:
		return "multicast"
	}
	return "DestKind(" + strconv.Itoa(int(k)) + ")"
}

// Destination is where control packets go.
type Destination struct {
	Kind DestKind
	// Interface selects the interface for broadcast and multicast, in the syntax of
	// transport.ParseSelector ("" means auto).
	Interface string
	// Port is the destination port of broadcasts.
	Port uint16
	// Addrs are the unicast destinations, or the multicast group and port.
	Addrs []netip.AddrPort
}

// ParseDestination parses a destination, using port where the spec names none:
//
//	broadcast[:IFACE]                  directed broadcast of IFACE (name, CIDR, address,
//	                                   auto) to port
//	multicast:GROUP[:PORT][@IFACE]     an IPv4 multicast group, sent out of IFACE
//	ADDR[:PORT[-LAST]][,...]           IPv4 unicast addresses; PORT-LAST is a range,
//	                                   e.g. 127.0.0.1:3838-3842 for five robots on one host
func ParseDestination(spec string, port uint16) (Destination, error) {
	bad := func(format string, args ...any) (Destination, error) {
		return Destination{}, fmt.Errorf("%w: %q: %s", ErrDest, spec, fmt.Sprintf(format, args...))
	}
	if port == 0 {
		return bad("port 0")
	}
	switch kind, rest, _ := strings.Cut(spec, ":"); kind {
	case "broadcast":
		if rest != "" {
			if _, err := transport.ParseSelector(rest); err != nil {
				return bad("%v", err)
			}
		}
		return Destination{Kind: DestBroadcast, Interface: rest, Port: port}, nil
	case "multicast":
		group, iface, _ := strings.Cut(rest, "@")
		ap, err := parseAddrPort(group, port)
		if err != nil {
			return bad("%v", err)
		}
		if !ap.Addr().IsMulticast() {
			return bad("%v is not a multicast group", ap.Addr())
		}
		if iface != "" {
			if _, err := transport.ParseSelector(iface); err != nil {
				return bad("%v", err)
			}
		}
		return Destination{Kind: DestMulticast, Interface: iface, Addrs: []netip.AddrPort{ap}}, nil
	}
	d := Destination{Kind: DestUnicast}
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		host, last := item, ""
		if i := strings.LastIndexByte(item, '-'); i > 0 && strings.Contains(item[:i], ":") {
			host, last = item[:i], item[i+1:]
		}
		ap, err := parseAddrPort(host, port)
		if err != nil {
			return bad("%v", err)
		}
		if a := ap.Addr(); a.IsMulticast() || a.IsUnspecified() {
			return bad("%v is not a unicast address (use multicast:GROUP or broadcast:IFACE)", a)
		}
		end := ap.Port()
		if last != "" {
			n, err := strconv.ParseUint(last, 10, 16)
			if err != nil || n < uint64(ap.Port()) || n == 0 {
				return bad("bad port range %s-%s", strconv.Itoa(int(ap.Port())), last)
			}
			end = uint16(n)
		}
		for p := int(ap.Port()); p <= int(end); p++ {
			if len(d.Addrs) == MaxUnicast {
				return bad("more than %d addresses", MaxUnicast)
			}
			d.Addrs = append(d.Addrs, netip.AddrPortFrom(ap.Addr(), uint16(p)))
		}
	}
	return d, nil
}

// parseAddrPort parses "ADDR" or "ADDR:PORT" (IPv4).
func parseAddrPort(s string, port uint16) (netip.AddrPort, error) {
	if a, err := netip.ParseAddr(s); err == nil {
		if !a.Is4() {
			return netip.AddrPort{}, fmt.Errorf("%v is not IPv4", a)
		}
		return netip.AddrPortFrom(a, port), nil
	}
	ap, err := netip.ParseAddrPort(s)
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("want ADDR or ADDR:PORT, got %q", s)
	}
	if !ap.Addr().Is4() || ap.Port() == 0 {
		return netip.AddrPort{}, fmt.Errorf("%v is not an IPv4 address with a port", ap)
	}
	return ap, nil
}

// Validate reports an incomplete destination.
func (d Destination) Validate() error {
	switch d.Kind {
	case DestBroadcast:
		if d.Port == 0 {
			return fmt.Errorf("%w: broadcast without a port", ErrDest)
		}
	case DestUnicast:
		if len(d.Addrs) == 0 {
			return fmt.Errorf("%w: no unicast addresses", ErrDest)
		}
	case DestMulticast:
		if len(d.Addrs) != 1 || !d.Addrs[0].Addr().IsMulticast() {
			return fmt.Errorf("%w: multicast needs exactly one group", ErrDest)
		}
	default:
		return fmt.Errorf("%w: no destination", ErrDest)
	}
	return nil
}

// String describes the destination in the syntax ParseDestination reads (unicast
// addresses listed one by one).
func (d Destination) String() string {
	switch d.Kind {
	case DestBroadcast:
		s := "broadcast"
		if d.Interface != "" {
			s += ":" + d.Interface
		}
		return s + " port " + strconv.Itoa(int(d.Port))
	case DestMulticast:
		s := "multicast:"
		if len(d.Addrs) > 0 {
			s += d.Addrs[0].String()
		}
		if d.Interface != "" {
			s += "@" + d.Interface
		}
		return s
	case DestUnicast:
		parts := make([]string, len(d.Addrs))
		for i, a := range d.Addrs {
			parts[i] = a.String()
		}
		return strings.Join(parts, ",")
	}
	return "none"
}

// send sends b to every address of d and returns the number of failed datagrams and
// their errors.
func (d Destination) send(c Sender, b []byte) (int, error) {
	if d.Kind == DestBroadcast {
		if err := c.Broadcast(b, d.Port); err != nil {
			return 1, err
		}
		return 0, nil
	}
	failed := 0
	var errs []error
	for _, a := range d.Addrs {
		if err := c.SendTo(b, a); err != nil {
			failed++
			errs = append(errs, err)
		}
	}
	return failed, errors.Join(errs...)
}
