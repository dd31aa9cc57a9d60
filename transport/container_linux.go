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

// confinedKinds are the link kinds of a container's private network: the veth of a
// bridge network, the tap ("tun") of a user-mode network.
var confinedKinds = map[string]bool{"veth": true, "tun": true}

// ContainerNetworkWarning returns a warning when the process runs in a container and
// every interface the selector can use is a veth or tap link, the private network of
// the container engine, which broadcasts do not cross unless the host bridges it to
// the robot's network; "" otherwise (not in a container, host networking, macvlan,
// or the interfaces cannot be read).
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
	kinds, err := LinkKinds()
	if err != nil {
		return ""
	}
	return containerWarning(sel, ifs, kinds)
}

// containerWarning is ContainerNetworkWarning on a given list of interfaces and their
// link kinds (by index).
func containerWarning(sel Selector, ifs []Interface, kinds map[int]string) string {
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
		kind := kinds[c.Index]
		if !confinedKinds[kind] {
			return ""
		}
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
	rib, err := syscall.NetlinkRIB(unix.RTM_GETLINK, unix.AF_UNSPEC)
	if err != nil {
		return nil, fmt.Errorf("transport: list links: %w", os.NewSyscallError("netlinkrib", err))
	}
	msgs, err := syscall.ParseNetlinkMessage(rib)
	if err != nil {
		return nil, fmt.Errorf("transport: list links: %w", err)
	}
	kinds := make(map[int]string)
	for _, m := range msgs {
		if m.Header.Type != unix.RTM_NEWLINK {
			continue
		}
		index, kind, ok := parseLinkKind(m.Data)
		if ok && kind != "" {
			kinds[index] = kind
		}
	}
	return kinds, nil
}

// parseLinkKind reads the interface index and IFLA_INFO_KIND from the payload of an
// RTM_NEWLINK message (struct ifinfomsg, then attributes); ok is false when the payload
// is too short for the header. A message without IFLA_LINKINFO gives kind "".
func parseLinkKind(b []byte) (index int, kind string, ok bool) {
	if len(b) < unix.SizeofIfInfomsg {
		return 0, "", false
	}
	index = int(int32(binary.NativeEndian.Uint32(b[4:8])))
	if info, found := rtAttr(b[unix.SizeofIfInfomsg:], unix.IFLA_LINKINFO); found {
		if k, found := rtAttr(info, unix.IFLA_INFO_KIND); found {
			kind = strings.TrimRight(string(k), "\x00")
		}
	}
	return index, kind, true
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
