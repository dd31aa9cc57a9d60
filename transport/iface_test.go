package transport

import (
	"errors"
	"net"
	"net/netip"
	"strings"
	"testing"
)

func TestParseSelector(t *testing.T) {
	tests := []struct {
		in, want string
		err      bool
	}{
		{"", "auto", false},
		{"auto", "auto", false},
		{" any ", "any", false},
		{"wlan0", "wlan0", false},
		{"enp0s31f6.100", "enp0s31f6.100", false},
		{"10.0.1.0/24", "10.0.1.0/24", false},
		{"10.0.1.7/24", "10.0.1.0/24", false}, // masked
		{"10.0.1.5", "10.0.1.5", false},
		{"fd00::/64", "", true},
		{"fd00::1", "", true},
		{"10.0.1.0/33", "", true},
		{"averyveryverylongname", "", true}, // longer than IFNAMSIZ-1
		{"wlan 0", "", true},
	}
	for _, tt := range tests {
		s, err := ParseSelector(tt.in)
		if tt.err {
			if !errors.Is(err, ErrSelector) {
				t.Errorf("ParseSelector(%q) = %v, %v; want ErrSelector", tt.in, s, err)
			}
			continue
		}
		if err != nil || s.String() != tt.want {
			t.Errorf("ParseSelector(%q) = %q, %v; want %q", tt.in, s, err, tt.want)
		}
	}
}

func TestDirectedBroadcast(t *testing.T) {
	tests := []struct{ in, want string }{
		{"10.0.1.5/24", "10.0.1.255"},
		{"192.168.7.200/16", "192.168.255.255"},
		{"172.16.5.4/12", "172.31.255.255"},
		{"127.0.0.1/8", "127.255.255.255"},
		{"10.1.2.3/30", "10.1.2.3"},
		{"0.0.0.0/0", "255.255.255.255"},
		{"10.1.2.3/31", "invalid IP"},
		{"10.1.2.3/32", "invalid IP"},
		{"fd00::1/64", "invalid IP"},
	}
	for _, tt := range tests {
		if got := DirectedBroadcast(netip.MustParsePrefix(tt.in)).String(); got != tt.want {
			t.Errorf("DirectedBroadcast(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

const (
	up      = net.FlagUp | net.FlagRunning | net.FlagBroadcast | net.FlagMulticast
	loop    = net.FlagUp | net.FlagRunning | net.FlagLoopback
	noCarr  = net.FlagUp | net.FlagBroadcast | net.FlagMulticast
	down    = net.FlagBroadcast | net.FlagMulticast
	p2p     = net.FlagUp | net.FlagRunning | net.FlagPointToPoint
	noBcast = net.FlagUp | net.FlagRunning
)

func ifc(name string, index int, flags net.Flags, addrs ...string) Interface {
	ifi := Interface{Name: name, Index: index, Flags: flags, MTU: 1500}
	for _, a := range addrs {
		ifi.Addrs = append(ifi.Addrs, netip.MustParsePrefix(a))
	}
	return ifi
}

var (
	lo      = ifc("lo", 1, loop, "127.0.0.1/8", "::1/128")
	eth0    = ifc("eth0", 2, up, "fe80::1/64", "192.168.1.20/24")
	wlan0   = ifc("wlan0", 3, up, "10.0.1.5/24")
	docker0 = ifc("docker0", 4, up, "172.17.0.1/16")
	tun0    = ifc("tun0", 5, p2p, "10.8.0.2/32")
	eth1    = ifc("eth1", 6, noCarr, "192.168.2.3/24")
	wlan1   = ifc("wlan1", 7, down, "10.0.2.5/24")
	v6only  = ifc("eth2", 8, up, "fd00::5/64")
	brnone  = ifc("dummy0", 9, noBcast, "10.9.9.9/24")
	wlanDup = ifc("wlan2", 10, up, "10.0.1.6/24")
)

func TestResolveFrom(t *testing.T) {
	tests := []struct {
		sel     string
		ifs     []Interface
		want    string // Choice.String()
		wantErr error
		msg     []string // substrings of the error message
	}{
		{"auto", []Interface{lo, wlan0, docker0, tun0, eth1, wlan1, v6only, brnone}, "wlan0 (index 3, 10.0.1.5/24, broadcast 10.0.1.255)", nil, nil},
		{"auto", []Interface{lo, eth0}, "eth0 (index 2, 192.168.1.20/24, broadcast 192.168.1.255)", nil, nil},
		{"auto", []Interface{lo, eth0, wlan0}, "", ErrAmbiguous, []string{"2 usable", "eth0 192.168.1.20/24", "wlan0 10.0.1.5/24"}},
		{"auto", []Interface{lo, docker0, tun0, eth1, wlan1, v6only, brnone}, "", ErrNoInterface,
			[]string{"lo (loopback)", "docker0 (container or VM network)", "tun0 (no broadcast)", "eth1 (no carrier)", "wlan1 (down)", "eth2 (no IPv4 broadcast address)", "dummy0 (no broadcast)"}},
		{"auto", nil, "", ErrNoInterface, []string{"seen: none"}},
		{"wlan0", []Interface{lo, eth0, wlan0}, "wlan0 (index 3, 10.0.1.5/24, broadcast 10.0.1.255)", nil, nil},
		{"eth0", []Interface{eth0}, "eth0 (index 2, 192.168.1.20/24, broadcast 192.168.1.255)", nil, nil}, // skips the IPv6 address
		{"lo", []Interface{lo}, "lo (index 1, 127.0.0.1/8, broadcast 127.255.255.255)", nil, nil},
		{"tun0", []Interface{tun0}, "tun0 (index 5, 10.8.0.2/32)", nil, nil},
		{"eth1", []Interface{eth1}, "eth1 (index 6, 192.168.2.3/24, broadcast 192.168.2.255)", nil, nil}, // named: no carrier is fine
		{"wlan9", []Interface{lo, wlan0}, "", ErrNoInterface, []string{`"wlan9" not found`, "have lo, wlan0"}},
		{"wlan1", []Interface{wlan1}, "", ErrInterfaceDown, []string{"wlan1"}},
		{"eth2", []Interface{v6only}, "", ErrNoAddress, []string{"eth2"}},
		{"10.0.0.0/8", []Interface{lo, eth0, wlan0}, "wlan0 (index 3, 10.0.1.5/24, broadcast 10.0.1.255)", nil, nil},
		{"10.0.1.6", []Interface{wlan0, wlanDup}, "wlan2 (index 10, 10.0.1.6/24, broadcast 10.0.1.255)", nil, nil},
		{"10.0.1.0/24", []Interface{wlan0, wlanDup}, "", ErrAmbiguous, []string{"2 interfaces", "wlan0 10.0.1.5/24", "wlan2 10.0.1.6/24"}},
		{"10.0.2.0/24", []Interface{wlan0, wlan1}, "", ErrInterfaceDown, []string{"wlan1"}},
		{"172.30.0.0/16", []Interface{lo, eth0}, "", ErrNoInterface, []string{"172.30.0.0/16", "lo 127.0.0.1/8", "eth0 192.168.1.20/24"}},
		{"any", nil, "any interface", nil, nil},
	}
	for _, tt := range tests {
		sel, err := ParseSelector(tt.sel)
		if err != nil {
			t.Fatal(err)
		}
		c, err := sel.ResolveFrom(tt.ifs)
		if tt.wantErr != nil {
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("%s: got %v, %v; want %v", tt.sel, c, err, tt.wantErr)
				continue
			}
			for _, m := range tt.msg {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("%s: error %q does not mention %q", tt.sel, err, m)
				}
			}
			continue
		}
		if err != nil || c.String() != tt.want {
			t.Errorf("%s: got %q, %v; want %q", tt.sel, c, err, tt.want)
		}
	}
}

func TestResolveLoopbackOnHost(t *testing.T) {
	sel, err := ParseSelector("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	c, err := sel.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != netip.MustParsePrefix("127.0.0.1/8") || c.Broadcast != netip.MustParseAddr("127.255.255.255") || c.Index == 0 {
		t.Fatalf("got %v, want the loopback interface with 127.0.0.1/8", c)
	}
	if err := c.check(); err != nil {
		t.Fatalf("check of a present interface: %v", err)
	}
	gone := c
	gone.Name, gone.Index = "nosuch0", 999
	if err := gone.check(); !errors.Is(err, ErrNoInterface) {
		t.Fatalf("check of a missing interface = %v, want ErrNoInterface", err)
	}
	moved := c
	moved.Addr = netip.MustParsePrefix("127.0.0.9/8")
	if err := moved.check(); !errors.Is(err, ErrNoAddress) {
		t.Fatalf("check of a missing address = %v, want ErrNoAddress", err)
	}
}

// TestChoiceLogValue: log lines say "any" for any interface (key=any, not
// key="any interface") and describe a named interface in full.
func TestChoiceLogValue(t *testing.T) {
	if v := (Choice{}).LogValue().String(); v != "any" {
		t.Errorf("any interface logs as %q", v)
	}
	c := Choice{Name: "wlan0", Index: 3, Addr: netip.MustParsePrefix("10.0.1.5/24"), Broadcast: netip.MustParseAddr("10.0.1.255")}
	if v := c.LogValue().String(); v != c.String() || v != "wlan0 (index 3, 10.0.1.5/24, broadcast 10.0.1.255)" {
		t.Errorf("wlan0 logs as %q", v)
	}
}
