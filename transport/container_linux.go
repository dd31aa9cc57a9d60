package transport

import (
	"encoding/binary"
	"fmt"
	"net"
	"os"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// A node in a container on a bridge network (Docker's and Podman's default) sees one
// interface, eth0, with an address of the engine's private subnet. "auto" takes it: it
// is up, running and broadcast-capable. Yet team packets and the GameController's are
// broadcasts on the robot's network, and broadcasts do not cross the engine's bridge
// and NAT: the node hears nobody and nobody hears it, and all it can say is that no
// GameController is heard. ContainerNetworkWarning lets the node say why at start-up.
//
// The kernel knows what each interface is (IFLA_INFO_KIND of the link): eth0 of a bridge
// network is one end of a veth pair, and the rootless engines' user-mode networks
// (slirp4netns, pasta) give a tap device (kind "tun"). A physical NIC has no kind; a
// dummy, vlan, macvlan or ipvlan link has its own, and macvlan/ipvlan (the engines'
// way to put a container on the robot's network) do carry broadcasts.
//
// A veth alone says little: robots and test namespaces join namespaces with veth pairs
// on purpose. A container's link is the way out of its namespace: a veth whose peer is
// in another network namespace (the link has IFLA_LINK_NETNSID), or a tap, that the
// IPv4 default route goes through (the engine's gateway). Only such links warn.

// containerMarkers are files the container engines create in every container: Docker's
// /.dockerenv and Podman's /run/.containerenv. Tests replace them.
var containerMarkers = []string{"/.dockerenv", "/run/.containerenv"}

// containerEnv is the environment variable Podman, systemd-nspawn and LXC set in a
// container ("podman", "systemd-nspawn", "lxc"); tests replace the lookup.
var containerEnv = func() string { return os.Getenv("container") }

// inContainer reports whether the process runs in a container.
func inContainer() bool {
	if containerEnv() != "" {
		return true
	}
	for _, f := range containerMarkers {
		if _, err := os.Stat(f); err == nil {
			return true
		}
	}
	return false
}

// Link is what the kernel says of one interface's link.
type Link struct {
	// Kind is IFLA_INFO_KIND: "veth", "bridge", "tun", "macvlan", ...; "" for a
	// physical device.
	Kind string
	// OtherNetns says that the link's peer (a veth's other end) is in another network
	// namespace.
	OtherNetns bool
	// DefaultRoute says that an IPv4 default route of the main table goes out through
	// the interface.
	DefaultRoute bool
}

// containerLink reports whether l is a container engine's private network: a veth to
// another namespace, or a tap, with the default route through it.
func containerLink(l Link) bool {
	switch l.Kind {
	case "veth":
		return l.OtherNetns && l.DefaultRoute
	case "tun":
		return l.DefaultRoute
	}
	return false
}

// ContainerNetworkWarning returns a warning when the process runs in a container and
// every interface the selector can use is a container link (containerLink), the
// private network of the container engine, which broadcasts do not cross unless the
// host bridges it to the robot's network; "" otherwise (not in a container, host
// networking, macvlan, a veth that is not the way out, or the interfaces cannot be
// read).
func ContainerNetworkWarning(spec string) string {
	if !inContainer() {
		return ""
	}
	sel, err := ParseSelector(spec)
	if err != nil {
		return ""
	}
	ifs, err := Interfaces()
	if err != nil {
		return ""
	}
	links, err := Links()
	if err != nil {
		return ""
	}
	return containerWarning(sel, ifs, links)
}

// containerWarning is ContainerNetworkWarning on a given list of interfaces and their
// links (by index).
func containerWarning(sel Selector, ifs []Interface, links map[int]Link) string {
	var usable []Choice
	if sel.kind == selAny {
		usable = upIPv4(ifs)
	} else if c, err := sel.ResolveFrom(ifs); err == nil {
		usable = []Choice{c}
	} else if sel.kind == selAuto {
		// No single choice: "auto" fails with its own error; say also why all of
		// them may be useless.
		usable = upIPv4(ifs)
	}
	if len(usable) == 0 {
		return ""
	}
	var names []string
	for _, c := range usable {
		l := links[c.Index]
		if !containerLink(l) {
			return ""
		}
		kind := l.Kind
		if kind == "tun" {
			kind = "tap"
		}
		names = append(names, fmt.Sprintf("%s (%s, %v)", c.Name, kind, c.Addr))
	}
	return fmt.Sprintf("running in a container whose only network is %s: a container engine's private network "+
		"(a bridge network's veth, or a user-mode network's tap), which team and GameController broadcasts do not "+
		"cross unless the host bridges it to the robot's network; no teammate and no GameController will be heard. "+
		"Start the container with host networking (docker run --network=host, podman run --network=host)",
		strings.Join(names, ", "))
}

// upIPv4 returns the first IPv4 address of every up, non-loopback interface.
func upIPv4(ifs []Interface) []Choice {
	var out []Choice
	for _, ifi := range ifs {
		if ifi.Flags&net.FlagUp == 0 || ifi.Flags&net.FlagLoopback != 0 {
			continue
		}
		if c, ok := firstIPv4(ifi); ok {
			out = append(out, c)
		}
	}
	return out
}

// LinkKinds returns the kernel's link kind of every interface of the calling thread's
// network namespace, by interface index: "veth", "bridge", "tun", "dummy", "vlan", ...;
// a physical device has none and is absent from the map.
func LinkKinds() (map[int]string, error) {
	links, err := Links()
	if err != nil {
		return nil, err
	}
	kinds := make(map[int]string)
	for index, l := range links {
		if l.Kind != "" {
			kinds[index] = l.Kind
		}
	}
	return kinds, nil
}

// Links returns the link of every interface of the calling thread's network namespace,
// by interface index, read over netlink: its kind, whether its peer is in another
// namespace and whether the IPv4 default route goes through it.
func Links() (map[int]Link, error) {
	msgs, err := netlinkDump(unix.RTM_GETLINK, unix.AF_UNSPEC)
	if err != nil {
		return nil, fmt.Errorf("transport: list links: %w", err)
	}
	links := make(map[int]Link)
	for _, m := range msgs {
		if m.Header.Type != unix.RTM_NEWLINK {
			continue
		}
		if index, l, ok := parseLink(m.Data); ok {
			links[index] = l
		}
	}
	msgs, err = netlinkDump(unix.RTM_GETROUTE, unix.AF_INET)
	if err != nil {
		return nil, fmt.Errorf("transport: list routes: %w", err)
	}
	for _, m := range msgs {
		if m.Header.Type != unix.RTM_NEWROUTE {
			continue
		}
		if index, ok := parseDefaultRoute(m.Data); ok {
			l := links[index]
			l.DefaultRoute = true
			links[index] = l
		}
	}
	return links, nil
}

// netlinkDump returns the messages of a netlink dump request of type typ.
func netlinkDump(typ, family int) ([]syscall.NetlinkMessage, error) {
	rib, err := syscall.NetlinkRIB(typ, family)
	if err != nil {
		return nil, os.NewSyscallError("netlinkrib", err)
	}
	return syscall.ParseNetlinkMessage(rib)
}

// parseLinkKind reads the interface index and IFLA_INFO_KIND from the payload of an
// RTM_NEWLINK message; see parseLink.
func parseLinkKind(b []byte) (index int, kind string, ok bool) {
	index, l, ok := parseLink(b)
	return index, l.Kind, ok
}

// parseLink reads the interface index, IFLA_INFO_KIND and the presence of
// IFLA_LINK_NETNSID from the payload of an RTM_NEWLINK message (struct ifinfomsg, then
// attributes); ok is false when the payload is too short for the header. A message
// without IFLA_LINKINFO gives kind "".
func parseLink(b []byte) (index int, l Link, ok bool) {
	if len(b) < unix.SizeofIfInfomsg {
		return 0, Link{}, false
	}
	index = int(int32(binary.NativeEndian.Uint32(b[4:8])))
	attrs := b[unix.SizeofIfInfomsg:]
	if info, found := rtAttr(attrs, unix.IFLA_LINKINFO); found {
		if k, found := rtAttr(info, unix.IFLA_INFO_KIND); found {
			l.Kind = strings.TrimRight(string(k), "\x00")
		}
	}
	_, l.OtherNetns = rtAttr(attrs, unix.IFLA_LINK_NETNSID)
	return index, l, true
}

// parseDefaultRoute reads the payload of an RTM_NEWROUTE message (struct rtmsg, then
// attributes) and returns the output interface (RTA_OIF) when it is an IPv4 unicast
// default route of the main table; ok is false otherwise or when it is malformed.
func parseDefaultRoute(b []byte) (index int, ok bool) {
	if len(b) < unix.SizeofRtMsg {
		return 0, false
	}
	family, dstLen, table, typ := b[0], b[1], uint32(b[4]), b[7]
	attrs := b[unix.SizeofRtMsg:]
	if t, found := rtAttr(attrs, unix.RTA_TABLE); found && len(t) >= 4 {
		table = binary.NativeEndian.Uint32(t)
	}
	if family != unix.AF_INET || dstLen != 0 || table != unix.RT_TABLE_MAIN || typ != unix.RTN_UNICAST {
		return 0, false
	}
	oif, found := rtAttr(attrs, unix.RTA_OIF)
	if !found || len(oif) < 4 {
		return 0, false
	}
	return int(int32(binary.NativeEndian.Uint32(oif))), true
}

// rtAttr returns the payload of the first route attribute of type typ in b, a sequence
// of struct rtattr {len, type uint16} each padded to 4 bytes. A malformed length ends
// the search.
func rtAttr(b []byte, typ uint16) ([]byte, bool) {
	for len(b) >= unix.SizeofRtAttr {
		l := int(binary.NativeEndian.Uint16(b[0:2]))
		t := binary.NativeEndian.Uint16(b[2:4]) &^ unix.NLA_F_NESTED
		if l < unix.SizeofRtAttr || l > len(b) {
			return nil, false
		}
		if t == typ {
			return b[unix.SizeofRtAttr:l], true
		}
		next := (l + unix.RTA_ALIGNTO - 1) &^ (unix.RTA_ALIGNTO - 1)
		if next >= len(b) {
			break
		}
		b = b[next:]
	}
	return nil, false
}
