package transport

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/robocup-dnetwork/dnetwork/internal/netnstest"
)

// TestAutoSkipsHostOnlyNetworks checks that "auto" passes over the interfaces container
// engines and hypervisors make on a host, and over nothing else.
func TestAutoSkipsHostOnlyNetworks(t *testing.T) {
	auto, _ := ParseSelector("auto")
	for _, name := range []string{"docker0", "br-3f2a1b4c5d6e", "podman0", "podman3", "cni-podman0", "cni0",
		"virbr0", "lxcbr0", "lxdbr0", "incusbr0", "vboxnet0", "vmnet8"} {
		c, err := auto.ResolveFrom([]Interface{lo, ifc(name, 4, up, "10.88.0.1/16"), wlan0})
		if err != nil || c.Name != "wlan0" {
			t.Errorf("auto with %s and wlan0 = %v, %v; want wlan0", name, c, err)
		}
		_, err = auto.ResolveFrom([]Interface{lo, ifc(name, 4, up, "10.88.0.1/16")})
		if !errors.Is(err, ErrNoInterface) || !strings.Contains(err.Error(), name+" (container or VM network)") {
			t.Errorf("auto with only %s: %v; want ErrNoInterface naming it as a container or VM network", name, err)
		}
	}
	// A bridge a team makes itself, and a veth (a namespace's or container's way out),
	// stay candidates.
	for _, name := range []string{"br0", "veth0", "eth0"} {
		c, err := auto.ResolveFrom([]Interface{lo, ifc(name, 4, up, "10.88.0.5/16")})
		if err != nil || c.Name != name {
			t.Errorf("auto with only %s = %v, %v; want %s", name, c, err, name)
		}
	}
}

// fakeContainer makes the process look as if it ran in a container (or not) for the
// duration of the test.
func fakeContainer(t *testing.T, in bool) {
	t.Helper()
	markers, env := containerMarkers, containerEnv
	t.Cleanup(func() { containerMarkers, containerEnv = markers, env })
	marker := filepath.Join(t.TempDir(), ".containerenv")
	if in {
		if err := os.WriteFile(marker, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	containerMarkers = []string{marker}
	containerEnv = func() string { return "" }
}

func TestContainerWarning(t *testing.T) {
	veth := ifc("eth0", 2, up, "10.88.0.5/16")
	tap := ifc("tap0", 3, up, "10.0.2.100/24")
	phys := ifc("wlan0", 4, up, "10.0.1.5/24")
	out := Link{Kind: "veth", OtherNetns: true, DefaultRoute: true} // a bridge network's eth0
	links := map[int]Link{2: out, 3: {Kind: "tun", DefaultRoute: true}, 5: {Kind: "macvlan", DefaultRoute: true},
		7: {Kind: "veth", OtherNetns: true}, 8: {Kind: "veth", DefaultRoute: true}, 9: {Kind: "tun"}}
	macvlan := ifc("eth1", 5, up, "192.168.1.30/24")
	// veths that are not a container's way out: to another namespace without the default
	// route (a robot's or a test's link), or with both ends in this namespace.
	inner := ifc("veth1", 7, up, "10.90.0.1/24")
	pair := ifc("veth2", 8, up, "10.91.0.1/24")
	tapOff := ifc("tap1", 9, up, "10.0.3.1/24")
	tests := []struct {
		sel  string
		ifs  []Interface
		want []string // substrings; none: no warning
	}{
		{"auto", []Interface{lo, veth}, []string{"eth0 (veth, 10.88.0.5/16)", "--network=host"}},
		{"any", []Interface{lo, veth}, []string{"eth0 (veth, 10.88.0.5/16)"}},
		{"eth0", []Interface{lo, veth}, []string{"eth0 (veth, 10.88.0.5/16)"}},
		{"10.88.0.0/16", []Interface{lo, veth}, []string{"eth0 (veth"}},
		{"auto", []Interface{lo, tap}, []string{"tap0 (tap, 10.0.2.100/24)"}},
		{"auto", []Interface{lo, veth, ifc("eth1", 6, up, "10.89.0.5/16")}, nil},  // eth1: no kind, physical
		{"auto", []Interface{lo, veth, tap}, []string{"eth0 (veth", "tap0 (tap"}}, // ambiguous: both confined
		{"auto", []Interface{lo, phys}, nil},                                      // host networking
		{"auto", []Interface{lo, macvlan}, nil},                                   // macvlan reaches the robot's network
		{"any", []Interface{lo, veth, phys}, nil},                                 // one real interface among them
		{"wlan0", []Interface{lo, veth, phys}, nil},                               // named the real one
		{"wlan9", []Interface{lo, veth}, nil},                                     // its own error says enough
		{"auto", []Interface{lo}, nil},                                            // nothing but loopback
		{"lo", []Interface{lo, veth}, nil},                                        // loopback on purpose
		{"auto", []Interface{lo, ifc("eth0", 2, down, "10.88.0.5/16")}, nil},      // down
		{"auto", []Interface{lo, inner}, nil},                                     // veth to a namespace, no default route
		{"veth1", []Interface{lo, inner, veth}, nil},                              // named
		{"auto", []Interface{lo, pair}, nil},                                      // both ends here
		{"auto", []Interface{lo, tapOff}, nil},                                    // a tap the default route avoids
		{"any", []Interface{lo, veth, inner}, nil},                                // one of them is not the way out
	}
	for _, tt := range tests {
		sel, err := ParseSelector(tt.sel)
		if err != nil {
			t.Fatal(err)
		}
		got := containerWarning(sel, tt.ifs, links)
		if len(tt.want) == 0 {
			if got != "" {
				t.Errorf("%s on %v: warning %q, want none", tt.sel, tt.ifs, got)
			}
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s on %v: warning %q lacks %q", tt.sel, tt.ifs, got, w)
			}
		}
	}
}

func TestInContainer(t *testing.T) {
	fakeContainer(t, false)
	if inContainer() {
		t.Error("inContainer without marker or environment")
	}
	if ContainerNetworkWarning("auto") != "" {
		t.Error("warning outside a container")
	}
	containerEnv = func() string { return "podman" }
	if !inContainer() {
		t.Error("container=podman: not in a container")
	}
	fakeContainer(t, true)
	if !inContainer() {
		t.Error("marker file: not in a container")
	}
}

// rtattr encodes one route attribute, padded.
func rtattr(typ uint16, payload []byte) []byte {
	a := make([]byte, unix.SizeofRtAttr, unix.SizeofRtAttr+len(payload)+3)
	binary.NativeEndian.PutUint16(a[0:2], uint16(unix.SizeofRtAttr+len(payload)))
	binary.NativeEndian.PutUint16(a[2:4], typ)
	a = append(a, payload...)
	for len(a)%unix.RTA_ALIGNTO != 0 {
		a = append(a, 0)
	}
	return a
}

func u32(v uint32) []byte { return binary.NativeEndian.AppendUint32(nil, v) }

// linkMsg builds the payload of an RTM_NEWLINK message with the given index and, when
// kind is not empty, IFLA_LINKINFO { IFLA_INFO_KIND kind } after another attribute.
func linkMsg(index int32, kind string) []byte {
	b := make([]byte, unix.SizeofIfInfomsg)
	binary.NativeEndian.PutUint32(b[4:8], uint32(index))
	b = append(b, rtattr(unix.IFLA_IFNAME, []byte("eth0\x00"))...)
	if kind != "" {
		b = append(b, rtattr(unix.IFLA_LINKINFO|unix.NLA_F_NESTED, rtattr(unix.IFLA_INFO_KIND, []byte(kind+"\x00")))...)
	}
	return b
}

// routeMsg builds the payload of an RTM_NEWROUTE message: family, destination prefix
// length, table (above 255 in RTA_TABLE), type and output interface (0: none).
func routeMsg(family, dstLen uint8, table uint32, typ uint8, oif uint32) []byte {
	b := make([]byte, unix.SizeofRtMsg)
	b[0], b[1], b[7] = family, dstLen, typ
	if table < 256 {
		b[4] = uint8(table)
	} else {
		b[4] = unix.RT_TABLE_COMPAT
		b = append(b, rtattr(unix.RTA_TABLE, u32(table))...)
	}
	b = append(b, rtattr(unix.RTA_GATEWAY, []byte{10, 88, 0, 1})...)
	if oif != 0 {
		b = append(b, rtattr(unix.RTA_OIF, u32(oif))...)
	}
	return b
}

func TestParseDefaultRoute(t *testing.T) {
	for _, tt := range []struct {
		b     []byte
		index int
		ok    bool
	}{
		{routeMsg(unix.AF_INET, 0, unix.RT_TABLE_MAIN, unix.RTN_UNICAST, 4), 4, true},
		{routeMsg(unix.AF_INET, 16, unix.RT_TABLE_MAIN, unix.RTN_UNICAST, 4), 0, false}, // not a default route
		{routeMsg(unix.AF_INET, 0, unix.RT_TABLE_LOCAL, unix.RTN_UNICAST, 4), 0, false}, // another table
		{routeMsg(unix.AF_INET, 0, 1000, unix.RTN_UNICAST, 4), 0, false},                // a table in RTA_TABLE
		{routeMsg(unix.AF_INET, 0, unix.RT_TABLE_MAIN, unix.RTN_UNREACHABLE, 0), 0, false},
		{routeMsg(unix.AF_INET6, 0, unix.RT_TABLE_MAIN, unix.RTN_UNICAST, 4), 0, false},
		{routeMsg(unix.AF_INET, 0, unix.RT_TABLE_MAIN, unix.RTN_UNICAST, 0), 0, false}, // multipath: no RTA_OIF
		{routeMsg(unix.AF_INET, 0, unix.RT_TABLE_MAIN, unix.RTN_UNICAST, 4)[:unix.SizeofRtMsg+10], 0, false},
		{nil, 0, false},
	} {
		index, ok := parseDefaultRoute(tt.b)
		if index != tt.index || ok != tt.ok {
			t.Errorf("parseDefaultRoute(% x) = %d, %v; want %d, %v", tt.b, index, ok, tt.index, tt.ok)
		}
	}
}

func FuzzParseDefaultRoute(f *testing.F) {
	f.Add(routeMsg(unix.AF_INET, 0, unix.RT_TABLE_MAIN, unix.RTN_UNICAST, 4))
	f.Add(routeMsg(unix.AF_INET, 0, 1000, unix.RTN_UNICAST, 4))
	f.Fuzz(func(t *testing.T, b []byte) {
		if index, ok := parseDefaultRoute(b); !ok && index != 0 {
			t.Fatalf("not ok but index %d", index)
		}
	})
}

func TestParseLinkKind(t *testing.T) {
	for _, tt := range []struct {
		b     []byte
		index int
		kind  string
		ok    bool
	}{
		{linkMsg(7, "veth"), 7, "veth", true},
		{linkMsg(3, "bridge"), 3, "bridge", true},
		{linkMsg(2, ""), 2, "", true},
		{linkMsg(9, "veth")[:unix.SizeofIfInfomsg+6], 9, "", true}, // truncated attributes
		{linkMsg(9, "veth")[:10], 0, "", false},
		{nil, 0, "", false},
	} {
		if _, l, _ := parseLink(tt.b); l.OtherNetns {
			t.Errorf("parseLink(% x): peer in another namespace, yet no IFLA_LINK_NETNSID", tt.b)
		}
		index, kind, ok := parseLinkKind(tt.b)
		if index != tt.index || kind != tt.kind || ok != tt.ok {
			t.Errorf("parseLinkKind(% x) = %d, %q, %v; want %d, %q, %v", tt.b, index, kind, ok, tt.index, tt.kind, tt.ok)
		}
	}
}

// TestParseLinkNetns: IFLA_LINK_NETNSID marks a link whose peer is in another namespace.
func TestParseLinkNetns(t *testing.T) {
	b := append(linkMsg(5, "veth"), rtattr(unix.IFLA_LINK_NETNSID, u32(0))...)
	if index, l, ok := parseLink(b); !ok || index != 5 || l != (Link{Kind: "veth", OtherNetns: true}) {
		t.Errorf("parseLink = %d, %+v, %v; want 5, a veth to another namespace", index, l, ok)
	}
}

func FuzzParseLinkKind(f *testing.F) {
	f.Add(linkMsg(7, "veth"))
	f.Add(linkMsg(2, ""))
	f.Add(linkMsg(1, "tun")[:unix.SizeofIfInfomsg+9])
	f.Fuzz(func(t *testing.T, b []byte) {
		index, kind, ok := parseLinkKind(b)
		if !ok && (index != 0 || kind != "") {
			t.Fatalf("not ok but %d, %q", index, kind)
		}
		if len(kind) > len(b) {
			t.Fatalf("kind %q longer than the message", kind)
		}
	})
}

// TestNetnsPodmanNetwork builds Podman's default network in namespaces: a "host" with
// an interface eth0 on the robot's network (a macvlan on a veth to a third namespace,
// as a kernel without the dummy driver allows) and the bridge podman0, whose veth port
// leads to a "container" where the other end is eth0. On the host "auto" takes the
// robot's network, not podman0, and no warning is given even in a container (a macvlan
// is how an engine puts a container on the robot's network); in the container "auto"
// takes the veth, and the warning names it.
func TestNetnsPodmanNetwork(t *testing.T) {
	netnstest.Require(t)
	host, ctr, lan := netnstest.New(t, "host"), netnstest.New(t, "ctr"), netnstest.New(t, "lan")
	host.Macvlan(t, "eth0", "10.77.0.2/24", lan)
	netnstest.Veth(t, host, "veth0", "", ctr, "eth0", "10.88.0.5/16")
	host.Bridge(t, "podman0", "veth0")
	host.IP(t, "addr", "add", "10.88.0.1/16", "dev", "podman0")

	type result struct {
		choice  Choice
		err     error
		kinds   map[int]string
		warning string
	}
	look := func(ns *netnstest.NS) result {
		var r result
		if err := ns.Do(func() error {
			auto, _ := ParseSelector("auto")
			r.choice, r.err = auto.Resolve()
			var err error
			r.kinds, err = LinkKinds()
			r.warning = ContainerNetworkWarning("auto")
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return r
	}

	fakeContainer(t, true)
	h := look(host)
	if h.err != nil || h.choice.Name != "eth0" {
		t.Errorf("auto on the host = %v, %v; want eth0, not podman0", h.choice, h.err)
	}
	kindOf := func(r result, ns *netnstest.NS, name string) string {
		var idx int
		if err := ns.Do(func() error {
			ifi, err := interfaceByName(name)
			idx = ifi.Index
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return r.kinds[idx]
	}
	for name, want := range map[string]string{"eth0": "macvlan", "podman0": "bridge", "veth0": "veth", "lo": ""} {
		if got := kindOf(h, host, name); got != want {
			t.Errorf("host: link kind of %s = %q, want %q", name, got, want)
		}
	}
	if h.warning != "" {
		t.Errorf("host with a real interface: warning %q", h.warning)
	}

	// Without a default route the veth is a link to another namespace like a test's
	// or a robot's: no warning.
	c := look(ctr)
	if c.err != nil || c.choice.Name != "eth0" || c.choice.Addr.String() != "10.88.0.5/16" {
		t.Errorf("auto in the container = %v, %v; want eth0 10.88.0.5/16", c.choice, c.err)
	}
	if got := kindOf(c, ctr, "eth0"); got != "veth" {
		t.Errorf("container: link kind of eth0 = %q, want veth", got)
	}
	if c.warning != "" {
		t.Errorf("a veth without the default route: warning %q", c.warning)
	}
	// The engine's network: the default route goes through the veth to the bridge.
	ctr.IP(t, "route", "add", "default", "via", "10.88.0.1")
	c = look(ctr)
	var links map[int]Link
	var idx int
	if err := ctr.Do(func() error {
		ifi, err := interfaceByName("eth0")
		idx = ifi.Index
		if err == nil {
			links, err = Links()
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if l := links[idx]; l != (Link{Kind: "veth", OtherNetns: true, DefaultRoute: true}) {
		t.Errorf("container: eth0's link %+v, want a veth to another namespace with the default route", l)
	}
	if !strings.Contains(c.warning, "eth0 (veth, 10.88.0.5/16)") || !strings.Contains(c.warning, "--network=host") {
		t.Errorf("container on a bridge network: warning %q, want one naming eth0 and host networking", c.warning)
	}

	fakeContainer(t, false)
	if c := look(ctr); c.warning != "" {
		t.Errorf("the same namespace outside a container: warning %q", c.warning)
	}
}
