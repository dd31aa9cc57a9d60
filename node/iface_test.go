package node

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/internal/netnstest"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// TestCheckInterfaces: "auto" on a machine with only loopback, or with two usable
// interfaces up, is an ErrInterface naming what it saw; one usable interface, or a
// named one, is fine. The machines are network namespaces.
func TestCheckInterfaces(t *testing.T) {
	loOnly := netnstest.New(t, "lo")
	two := netnstest.New(t, "two")
	one := netnstest.New(t, "one")
	peers := netnstest.New(t, "peers")
	netnstest.Veth(t, two, "eth0", "10.93.1.1/24", peers, "p1", "10.93.1.2/24")
	netnstest.Veth(t, two, "wlan0", "10.93.2.1/24", peers, "p2", "10.93.2.2/24")
	netnstest.Veth(t, one, "eth0", "10.93.3.1/24", peers, "p3", "10.93.3.2/24")

	check := func(ns *netnstest.NS, mod func(*Config)) error {
		cfg := DefaultConfig()
		cfg.RobotID, cfg.TeamNumber = 1, 17
		if mod != nil {
			mod(&cfg)
		}
		var got error
		if err := ns.Do(func() error { got = cfg.CheckInterfaces(); return nil }); err != nil {
			t.Fatal(err)
		}
		return got
	}
	for _, tc := range []struct {
		name string
		ns   *netnstest.NS
		mod  func(*Config)
		want []string // in the error; none: no error
	}{
		{"only loopback", loOnly, nil, []string{"interface: ", "seen: lo (loopback)", "interface: lo keeps the node on this machine (team_sim.launch.py runs a team on one)"}},
		{"Ethernet and Wi-Fi", two, nil, []string{"interface: ", "auto found 2 usable interfaces: eth0 10.93.1.1/24, wlan0 10.93.2.1/24"}},
		{"world info follows", two, func(c *Config) { c.Interface, c.WorldInfo.Enabled, c.WorldInfo.Interface = "eth0", true, "auto" },
			[]string{"worldinfo.interface: ", "wlan0 10.93.2.1/24"}},
		{"one interface", one, nil, nil},
		{"named", two, func(c *Config) { c.Interface = "wlan0" }, nil},
		{"loopback named", loOnly, func(c *Config) { c.Interface = "lo" }, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := check(tc.ns, tc.mod)
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("error %v", err)
				}
				return
			}
			if !errors.Is(err, ErrInterface) {
				t.Fatalf("error %v, want ErrInterface", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// TestInterfaceError: the node's status is an error while a socket is down because its
// interface parameter chooses none or several interfaces, not for other reasons.
func TestInterfaceError(t *testing.T) {
	up := transport.Status{State: transport.StateUp}
	linkDown := transport.Status{State: transport.StateDown, Err: fmt.Errorf("%w: eth0", transport.ErrInterfaceDown)}
	none := transport.Status{State: transport.StateDown, Err: fmt.Errorf("%w: auto found none", transport.ErrNoInterface)}
	several := transport.Status{State: transport.StateDown, Err: fmt.Errorf("%w: auto found 2", transport.ErrAmbiguous)}
	for _, tc := range []struct {
		sts  []transport.Status
		want error
	}{
		{[]transport.Status{up, up}, nil},
		{[]transport.Status{up, linkDown}, nil},
		{[]transport.Status{up, none}, none.Err},
		{[]transport.Status{several, none}, several.Err},
	} {
		if got := interfaceError(tc.sts); got != tc.want {
			t.Errorf("%v: got %v, want %v", tc.sts, got, tc.want)
		}
	}
}
