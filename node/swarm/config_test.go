package swarm

import (
	"errors"
	"maps"
	"net/netip"
	"strings"
	"testing"
	"time"

	tswarm "github.com/robocup-dnetwork/dnetwork/transport/swarm"
)

func TestDefaultConfig(t *testing.T) {
	c := DefaultConfig()
	if c.Enabled {
		t.Fatal("swarm is enabled by default")
	}
	if err := c.Validate(); err != nil {
		t.Fatalf("disabled default: %v", err)
	}
	if c.UDPPort != 4100 || len(c.Ports) != 1 || c.Ports[0] != 4100 || c.NeighborWindow != 3*time.Second ||
		c.NeighborsRate != 1 || c.Range != 0 || c.Mode != tswarm.ModeNetwork || c.WarnInterval != 10*time.Second {
		t.Fatalf("defaults %+v", c)
	}
	c.Enabled, c.Name = true, "r1"
	if err := c.Validate(); err != nil {
		t.Fatalf("enabled default with a name: %v", err)
	}
}

func TestValidate(t *testing.T) {
	on := func(f func(*Config)) Config {
		c := DefaultConfig()
		c.Enabled, c.Name = true, "r1"
		f(&c)
		return c
	}
	tests := []struct {
		name string
		cfg  Config
		want []string
	}{
		{"no name", on(func(c *Config) { c.Name = "" }), []string{"name"}},
		{"reserved name", on(func(c *Config) { c.Name = "broadcast" }), []string{"reserved"}},
		{"bad host", on(func(c *Config) { c.Hosts = []string{"r2"} }), []string{`hosts[0] "r2"`}},
		{"ports mode without own port", on(func(c *Config) {
			c.Mode, c.Hosts = tswarm.ModePorts, []string{"r1=127.0.0.1", "r2=127.0.0.1:4102"}
		}), []string{"needs this robot (r1) in hosts with a port", "host r1 has no port"}},
		{"ports mode, own name missing", on(func(c *Config) {
			c.Mode, c.Hosts = tswarm.ModePorts, []string{"r2=127.0.0.1:4102"}
		}), []string{"needs this robot (r1)"}},
		{"mode", on(func(c *Config) { c.Mode = 7 }), []string{"unknown mode 7"}},
		{"udp port", on(func(c *Config) { c.UDPPort = 0 }), []string{"UDP port is 0"}},
		{"group", on(func(c *Config) { c.Group = netip.MustParseAddr("10.0.0.1") }), []string{"not an IPv4 multicast"}},
		{"no ports", on(func(c *Config) { c.Ports = nil }), []string{"no ports to bind"}},
		{"port 0 and duplicate", on(func(c *Config) { c.Ports = []uint16{0, 4100, 4100} }), []string{"ports: port 0", "port 4100 listed twice"}},
		{"multicast duplicate", on(func(c *Config) { c.MulticastPorts = []uint16{5, 5} }), []string{"multicast ports: port 5 listed twice"}},
		{"window", on(func(c *Config) { c.NeighborWindow = 0 }), []string{"neighbour window"}},
		{"rate", on(func(c *Config) { c.NeighborsRate = 0 }), []string{"neighbours rate 0 Hz"}},
		{"range", on(func(c *Config) { c.Range = -1 }), []string{"range -1"}},
		{"queue", on(func(c *Config) { c.QueueLen = -1 }), []string{"queue length -1"}},
		{"warn", on(func(c *Config) { c.WarnInterval = -time.Second }), []string{"warning interval"}},
		{"everything at once", on(func(c *Config) { c.Name, c.NeighborsRate, c.Range = "", -1, -2 }),
			[]string{"name", "neighbours rate", "range -2"}},
	}
	for _, tt := range tests {
		err := tt.cfg.Validate()
		if !errors.Is(err, ErrConfig) {
			t.Errorf("%s: Validate = %v, want ErrConfig", tt.name, err)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not mention %q", tt.name, err, w)
			}
		}
	}
	// A disabled config is not checked, whatever it holds.
	bad := tests[len(tests)-1].cfg
	bad.Enabled = false
	if err := bad.Validate(); err != nil {
		t.Errorf("disabled config: %v", err)
	}
}

func TestParseHosts(t *testing.T) {
	got, err := ParseHosts([]string{"r1=10.0.1.1", " r2 = 127.0.0.1:4102 ", "boo=::ffff:10.0.1.9"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]netip.AddrPort{
		"r1":  netip.MustParseAddrPort("10.0.1.1:0"),
		"r2":  netip.MustParseAddrPort("127.0.0.1:4102"),
		"boo": netip.MustParseAddrPort("10.0.1.9:0"),
	}
	if !maps.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if hostAddress(got["r1"]) != "10.0.1.1" || hostAddress(got["r2"]) != "127.0.0.1:4102" {
		t.Fatalf("addresses %q %q", hostAddress(got["r1"]), hostAddress(got["r2"]))
	}

	bad := []string{"r1", "r 2=10.0.0.2", "broadcast=10.0.0.3", "r4=::1", "r5=10.0.0.5:0", "r6=host.lan",
		"r7=10.0.0.7", "r7=10.0.0.8", "r8=[::1]:4100"}
	_, err = ParseHosts(bad)
	if !errors.Is(err, ErrConfig) {
		t.Fatalf("ParseHosts = %v, want ErrConfig", err)
	}
	for _, w := range []string{`hosts[0] "r1": want "name=ip"`, `hosts[1]`, `hosts[2] "broadcast=10.0.0.3"`,
		`hosts[3] "r4=::1": address ::1 is not IPv4`, `hosts[4] "r5=10.0.0.5:0": port 0`,
		`hosts[5] "r6=host.lan": address "host.lan" is neither`, `hosts[7] "r7=10.0.0.8": r7 listed twice`,
		`hosts[8] "r8=[::1]:4100": address ::1 is not IPv4`} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not mention %q", err, w)
		}
	}
	if strings.Contains(err.Error(), "hosts[6]") {
		t.Errorf("the first r7 entry is fine, but reported: %v", err)
	}
}

func TestParseMode(t *testing.T) {
	for _, m := range []tswarm.Mode{tswarm.ModeNetwork, tswarm.ModePorts, tswarm.ModeHostMulticast} {
		got, err := ParseMode(m.String())
		if err != nil || got != m {
			t.Errorf("ParseMode(%q) = %v, %v", m.String(), got, err)
		}
	}
	if _, err := ParseMode("Ports"); !errors.Is(err, ErrConfig) {
		t.Errorf("ParseMode(Ports) = %v, want ErrConfig", err)
	}
}
