package transport

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"slices"
	"strings"
)

// Errors of interface selection. Resolve wraps them with a message that names the
// interfaces it saw, so the log line alone tells an operator what to configure.
var (
	// ErrSelector reports an interface parameter that cannot be parsed.
	ErrSelector = errors.New("transport: bad interface selector")
	// ErrNoInterface reports that no interface matches the selector.
	ErrNoInterface = errors.New("transport: no matching interface")
	// ErrAmbiguous reports that "auto" or a CIDR matches more than one interface.
	ErrAmbiguous = errors.New("transport: ambiguous interface")
	// ErrInterfaceDown reports that the selected interface exists but is not up.
	ErrInterfaceDown = errors.New("transport: interface is down")
	// ErrNoAddress reports that the selected interface has no (matching) IPv4 address.
	ErrNoAddress = errors.New("transport: interface has no IPv4 address")
)

// Interface is one network interface as the selector sees it.
type Interface struct {
	Name  string
	Index int
	Flags net.Flags
	MTU   int
	// Addrs holds the interface's addresses with their prefix lengths, in kernel order.
	Addrs []netip.Prefix
}

// Choice is a resolved interface: the one a worker binds its socket to.
// The zero Choice means "any interface" (no device binding, no broadcast address).
type Choice struct {
	// Name and Index identify the interface; Name is "" for any interface.
	Name  string
	Index int
	Flags net.Flags
	MTU   int
	// Addr is the interface's IPv4 address in use, with its prefix length.
	Addr netip.Prefix
	// Broadcast is the directed broadcast address of Addr's subnet; it is invalid when
	// the interface cannot broadcast (point-to-point links, /31 and /32 addresses).
	Broadcast netip.Addr
}

// IsAny reports whether c stands for all interfaces rather than one.
func (c Choice) IsAny() bool { return c.Name == "" }

// String describes the choice for logs, e.g. "wlan0 (index 3, 10.0.1.5/24, broadcast
// 10.0.1.255)".
func (c Choice) String() string {
	if c.IsAny() {
		return "any interface"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s (index %d, %v", c.Name, c.Index, c.Addr)
	if c.Broadcast.IsValid() {
		fmt.Fprintf(&b, ", broadcast %v", c.Broadcast)
	}
	b.WriteByte(')')
	return b.String()
}

// LogValue is the choice in log lines: "any" for any interface, else String.
func (c Choice) LogValue() slog.Value {
	if c.IsAny() {
		return slog.StringValue("any")
	}
	return slog.StringValue(c.String())
}

// iface returns the *net.Interface that x/net/ipv4 wants, or nil for any interface.
func (c Choice) iface() *net.Interface {
	if c.IsAny() {
		return nil
	}
	return &net.Interface{Index: c.Index, Name: c.Name, MTU: c.MTU, Flags: c.Flags}
}

type selectorKind uint8

const (
	selAuto selectorKind = iota
	selAny
	selName
	selPrefix
)

// Selector chooses the interface a worker uses. Parse one with [ParseSelector]; the zero
// Selector is "auto".
type Selector struct {
	kind   selectorKind
	name   string
	prefix netip.Prefix
}

// maxIfaceName is IFNAMSIZ-1: Linux interface names have at most 15 bytes.
const maxIfaceName = 15

// ParseSelector parses an interface parameter:
//
//	"auto" or ""        the single usable interface (see [Selector.ResolveFrom])
//	"any"               every interface: no device binding and no broadcast address
//	"10.0.1.0/24"       the interface owning an IPv4 address inside this CIDR
//	"10.0.1.5"          the interface owning exactly this IPv4 address
//	"wlan0"             the interface with this name
func ParseSelector(spec string) (Selector, error) {
	spec = strings.TrimSpace(spec)
	switch spec {
	case "", "auto":
		return Selector{kind: selAuto}, nil
	case "any":
		return Selector{kind: selAny}, nil
	}
	if strings.Contains(spec, "/") {
		p, err := netip.ParsePrefix(spec)
		if err != nil {
			return Selector{}, fmt.Errorf("%w %q: %w", ErrSelector, spec, err)
		}
		if !p.Addr().Is4() {
			return Selector{}, fmt.Errorf("%w %q: only IPv4 prefixes are supported", ErrSelector, spec)
		}
		return Selector{kind: selPrefix, prefix: p.Masked()}, nil
	}
	if a, err := netip.ParseAddr(spec); err == nil {
		if !a.Is4() {
			return Selector{}, fmt.Errorf("%w %q: only IPv4 addresses are supported", ErrSelector, spec)
		}
		return Selector{kind: selPrefix, prefix: netip.PrefixFrom(a, 32)}, nil
	}
	if len(spec) > maxIfaceName || strings.ContainsAny(spec, " \t:") {
		return Selector{}, fmt.Errorf("%w %q: not auto, any, a CIDR, an IPv4 address or an interface name", ErrSelector, spec)
	}
	return Selector{kind: selName, name: spec}, nil
}

// String returns the selector in the syntax ParseSelector accepts.
func (s Selector) String() string {
	switch s.kind {
	case selAny:
		return "any"
	case selName:
		return s.name
	case selPrefix:
		if s.prefix.Bits() == 32 {
			return s.prefix.Addr().String()
		}
		return s.prefix.String()
	}
	return "auto"
}

// Resolve applies the selector to the system's current interfaces.
func (s Selector) Resolve() (Choice, error) {
	if s.kind == selAny {
		return Choice{}, nil
	}
	ifs, err := Interfaces()
	if err != nil {
		return Choice{}, err
	}
	return s.ResolveFrom(ifs)
}

// ResolveFrom applies the selector to a list of interfaces. Rules:
//
//   - A name must exist, be up and have an IPv4 address; the first one is used.
//   - A CIDR or address must match an IPv4 address of exactly one up interface.
//   - "auto" takes the single interface that is up, running, broadcast-capable, not
//     loopback, not the host side of a container or VM network (see [hostOnlyPrefixes])
//     and has an IPv4 address with a broadcast address. With none or several it fails
//     and lists what it saw, so the operator can name the interface instead.
func (s Selector) ResolveFrom(ifs []Interface) (Choice, error) {
	switch s.kind {
	case selAny:
		return Choice{}, nil
	case selName:
		return s.resolveName(ifs)
	case selPrefix:
		return s.resolvePrefix(ifs)
	}
	return resolveAuto(ifs)
}

func (s Selector) resolveName(ifs []Interface) (Choice, error) {
	i := slices.IndexFunc(ifs, func(ifi Interface) bool { return ifi.Name == s.name })
	if i < 0 {
		return Choice{}, fmt.Errorf("%w: %q not found (have %s)", ErrNoInterface, s.name, listNames(ifs))
	}
	ifi := ifs[i]
	if ifi.Flags&net.FlagUp == 0 {
		return Choice{}, fmt.Errorf("%w: %s", ErrInterfaceDown, ifi.Name)
	}
	if c, ok := firstIPv4(ifi); ok {
		return c, nil
	}
	return Choice{}, fmt.Errorf("%w: %s", ErrNoAddress, ifi.Name)
}

func (s Selector) resolvePrefix(ifs []Interface) (Choice, error) {
	var found []Choice
	var down []string
	for _, ifi := range ifs {
		for _, p := range ifi.Addrs {
			if !p.Addr().Is4() || !s.prefix.Contains(p.Addr()) {
				continue
			}
			if ifi.Flags&net.FlagUp == 0 {
				down = append(down, ifi.Name)
			} else {
				found = append(found, choose(ifi, p))
			}
			break
		}
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) > 1:
		return Choice{}, fmt.Errorf("%w: %d interfaces have an address in %v: %s; name one of them", ErrAmbiguous, len(found), s, listChoices(found))
	case len(down) > 0:
		return Choice{}, fmt.Errorf("%w: %s (has an address in %v)", ErrInterfaceDown, strings.Join(down, ", "), s)
	}
	return Choice{}, fmt.Errorf("%w: no interface has an IPv4 address in %v (have %s)", ErrNoInterface, s, listAddrs(ifs))
}

// hostOnlyPrefixes are the name prefixes of the interfaces that container engines and
// hypervisors create on a host for their private networks, which "auto" skips: a laptop
// or team computer running Docker, Podman or a VM has them next to its one real
// interface, and broadcasts sent there never reach the robots. They are bridges
// (Docker's docker0 and br-<network id>, Podman's podman<n> (netavark) and cni-podman<n>
// (CNI), cni0, libvirt's virbr<n>, LXC's lxcbr0, LXD's lxdbr0, Incus's incusbr0) and the
// host-only adapters of VirtualBox (vboxnet<n>) and VMware (vmnet<n>). Only the names
// these tools choose themselves are listed: a bridge a team makes to join a robot's
// interfaces (br0) stays a candidate. veth links are not skipped: inside a network
// namespace or container a veth is often the only way out (see
// [ContainerNetworkWarning]), and on the host side a bridge's veth ports have no address.
var hostOnlyPrefixes = []string{"docker", "br-", "podman", "cni", "virbr", "lxcbr", "lxdbr", "incusbr", "vboxnet", "vmnet"}

func resolveAuto(ifs []Interface) (Choice, error) {
	var found []Choice
	var seen []string
	for _, ifi := range ifs {
		c, why := autoCandidate(ifi)
		if why != "" {
			seen = append(seen, ifi.Name+" ("+why+")")
			continue
		}
		found = append(found, c)
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return Choice{}, fmt.Errorf("%w: auto found no up, running, broadcast-capable, non-loopback IPv4 interface (seen: %s); set the interface to a name or CIDR",
			ErrNoInterface, orNone(strings.Join(seen, ", ")))
	}
	return Choice{}, fmt.Errorf("%w: auto found %d usable interfaces: %s; set the interface to one name or CIDR", ErrAmbiguous, len(found), listChoices(found))
}

// autoCandidate returns the choice for ifi, or why "auto" rejects it.
func autoCandidate(ifi Interface) (Choice, string) {
	switch {
	case ifi.Flags&net.FlagLoopback != 0:
		return Choice{}, "loopback"
	case ifi.Flags&net.FlagUp == 0:
		return Choice{}, "down"
	case ifi.Flags&net.FlagRunning == 0:
		return Choice{}, "no carrier"
	case ifi.Flags&net.FlagBroadcast == 0:
		return Choice{}, "no broadcast"
	}
	for _, p := range hostOnlyPrefixes {
		if strings.HasPrefix(ifi.Name, p) {
			return Choice{}, "container or VM network"
		}
	}
	for _, p := range ifi.Addrs {
		if p.Addr().Is4() {
			if c := choose(ifi, p); c.Broadcast.IsValid() {
				return c, ""
			}
		}
	}
	return Choice{}, "no IPv4 broadcast address"
}

// firstIPv4 returns the Choice for the first IPv4 address of ifi, if it has one.
func firstIPv4(ifi Interface) (Choice, bool) {
	for _, p := range ifi.Addrs {
		if p.Addr().Is4() {
			return choose(ifi, p), true
		}
	}
	return Choice{}, false
}

// choose builds the Choice for address p of interface ifi.
func choose(ifi Interface, p netip.Prefix) Choice {
	c := Choice{Name: ifi.Name, Index: ifi.Index, Flags: ifi.Flags, MTU: ifi.MTU, Addr: p}
	if ifi.Flags&(net.FlagBroadcast|net.FlagLoopback) != 0 {
		c.Broadcast = DirectedBroadcast(p)
	}
	return c
}

// DirectedBroadcast returns the all-ones host address of p's subnet, or the invalid
// Addr when the subnet has no broadcast address (/31, /32) or p is not IPv4.
func DirectedBroadcast(p netip.Prefix) netip.Addr {
	if !p.Addr().Is4() || p.Bits() < 0 || p.Bits() > 30 {
		return netip.Addr{}
	}
	a := p.Addr().As4()
	host := ^uint32(0) >> p.Bits()
	v := uint32(a[0])<<24 | uint32(a[1])<<16 | uint32(a[2])<<8 | uint32(a[3])
	v |= host
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)})
}

// Interfaces lists the system's interfaces with their addresses.
func Interfaces() ([]Interface, error) {
	nifs, err := net.Interfaces()
	if err != nil {
		return nil, fmt.Errorf("transport: list interfaces: %w", err)
	}
	out := make([]Interface, 0, len(nifs))
	for _, n := range nifs {
		ifi, err := fromNet(n)
		if err != nil {
			return nil, err
		}
		out = append(out, ifi)
	}
	return out, nil
}

// interfaceByName returns one interface with its addresses.
func interfaceByName(name string) (Interface, error) {
	n, err := net.InterfaceByName(name)
	if err != nil {
		return Interface{}, fmt.Errorf("%w: %q: %w", ErrNoInterface, name, err)
	}
	return fromNet(*n)
}

func fromNet(n net.Interface) (Interface, error) {
	ifi := Interface{Name: n.Name, Index: n.Index, Flags: n.Flags, MTU: n.MTU}
	addrs, err := n.Addrs()
	if err != nil {
		return Interface{}, fmt.Errorf("transport: addresses of %s: %w", n.Name, err)
	}
	for _, a := range addrs {
		ipn, ok := a.(*net.IPNet)
		if !ok {
			continue
		}
		ip, ok := netip.AddrFromSlice(ipn.IP)
		if !ok {
			continue
		}
		ones, _ := ipn.Mask.Size()
		ifi.Addrs = append(ifi.Addrs, netip.PrefixFrom(ip.Unmap(), ones))
	}
	return ifi, nil
}

// check verifies that the interface a socket was opened on still exists with the same
// index, is up and still holds the address in use.
func (c Choice) check() error {
	if c.IsAny() {
		return nil
	}
	ifi, err := interfaceByName(c.Name)
	if err != nil {
		return err
	}
	switch {
	case ifi.Index != c.Index:
		return fmt.Errorf("%w: %s was re-created (index %d, was %d)", ErrNoInterface, c.Name, ifi.Index, c.Index)
	case ifi.Flags&net.FlagUp == 0:
		return fmt.Errorf("%w: %s", ErrInterfaceDown, c.Name)
	case !slices.Contains(ifi.Addrs, c.Addr):
		return fmt.Errorf("%w: %s no longer has %v", ErrNoAddress, c.Name, c.Addr)
	}
	return nil
}

func listNames(ifs []Interface) string {
	names := make([]string, len(ifs))
	for i, ifi := range ifs {
		names[i] = ifi.Name
	}
	return orNone(strings.Join(names, ", "))
}

func listAddrs(ifs []Interface) string {
	var parts []string
	for _, ifi := range ifs {
		var as []string
		for _, p := range ifi.Addrs {
			if p.Addr().Is4() {
				as = append(as, p.String())
			}
		}
		if len(as) == 0 {
			as = []string{"no IPv4"}
		}
		parts = append(parts, ifi.Name+" "+strings.Join(as, " "))
	}
	return orNone(strings.Join(parts, ", "))
}

func listChoices(cs []Choice) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.Name + " " + c.Addr.String()
	}
	return strings.Join(parts, ", ")
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
