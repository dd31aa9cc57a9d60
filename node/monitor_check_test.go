package node

import (
	"net"
	"net/netip"
	"strings"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/transport"
)

// TestMonitorCounted: the monitor copy may go to no broadcast address of this
// machine's interfaces (a point-to-point link has none) and to no team port; a
// unicast address on another port is accepted, and so is no monitor.
func TestMonitorCounted(t *testing.T) {
	ifs := []transport.Interface{
		{Name: "lo", Flags: net.FlagUp | net.FlagLoopback, Addrs: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/8")}},
		{Name: "wlan0", Flags: net.FlagUp | net.FlagBroadcast, Addrs: []netip.Prefix{
			netip.MustParsePrefix("fe80::1/64"), netip.MustParsePrefix("10.0.1.5/24")}},
		{Name: "tun0", Flags: net.FlagUp | net.FlagPointToPoint, Addrs: []netip.Prefix{netip.MustParsePrefix("10.8.0.1/24")}},
	}
	for _, c := range []struct {
		monitor, iface string
		want           string // "" for no error
	}{
		{"", "", ""},
		{"10.0.1.9:5000", "", ""},
		{"10.8.0.255:5000", "", ""}, // tun0 cannot broadcast
		{"10.0.1.255:5000", "", "10.0.1.255 is the broadcast address of wlan0 (10.0.1.5/24)"},
		{"127.255.255.255:5000", "", "127.255.255.255 is the broadcast address of lo (127.0.0.1/8)"},
		{"255.255.255.255:5000", "", "255.255.255.255 is the broadcast address"},
		{"[::ffff:255.255.255.255]:5000", "", "255.255.255.255 is the broadcast address"},
		{"10.0.2.255:5000", "10.0.2.0/23", ""},
		{"10.0.3.255:5000", "10.0.2.0/23", "10.0.3.255 is the broadcast address of interface 10.0.2.0/23"},
		{"10.0.1.9:10017", "", "port 10017 is a team port of team 17"},
		{"10.0.1.9:10018", "", ""},
	} {
		cfg := DefaultConfig()
		cfg.RobotID, cfg.TeamNumber, cfg.Interface = 2, 17, c.iface
		if c.monitor != "" {
			cfg.Team.Monitor = netip.MustParseAddrPort(c.monitor)
		}
		err := cfg.Resolve().monitorCounted(ifs)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s on %q: %v", c.monitor, c.iface, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s on %q: %v, want %q", c.monitor, c.iface, err, c.want)
		}
	}
}

// TestMonitorCountedOnHost: Declare checks the monitor against this machine's
// interfaces and names the parameter.
func TestMonitorCountedOnHost(t *testing.T) {
	orig := hostInterfaces
	t.Cleanup(func() { hostInterfaces = orig })
	hostInterfaces = func() ([]transport.Interface, error) {
		return []transport.Interface{{Name: "wlan0", Flags: net.FlagUp | net.FlagBroadcast,
			Addrs: []netip.Prefix{netip.MustParsePrefix("10.0.1.5/24")}}}, nil
	}
	_, err := load(t, "-p", "robot_id:=2", "-p", "team_number:=7", "-p", "team.monitor_address:=10.0.1.255:5000")
	if err == nil || !strings.Contains(err.Error(), "parameter 'team.monitor_address'") ||
		!strings.Contains(err.Error(), "broadcast address of wlan0") {
		t.Fatalf("monitor at wlan0's broadcast address: %v", err)
	}
	if _, err := load(t, "-p", "robot_id:=2", "-p", "team_number:=7", "-p", "team.monitor_address:=10.0.1.9:5000"); err != nil {
		t.Fatalf("monitor by unicast: %v", err)
	}
}
