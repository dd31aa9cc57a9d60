package worldinfo

import (
	"errors"
	"math"
	"net/netip"
	"strings"
	"testing"
	"time"

	wi "github.com/robocup-dnetwork/dnetwork/proto/worldinfo"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

func TestDefaultConfig(t *testing.T) {
	c := DefaultConfig()
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if c.Enabled || c.Interval != 500*time.Millisecond || c.Group.String() != "224.16.0.1:2806" ||
		c.Key != "AllemaniACsX0rz" || c.TTL != 1 || c.Loop || c.FatMessage {
		t.Errorf("defaults: %+v", c)
	}
	tc := c.TransportConfig(time.Now)
	if tc.Port != 2806 || len(tc.Groups) != 1 || tc.Groups[0] != c.Group.Addr() ||
		tc.MulticastTTL != 1 || tc.MulticastLoopback || tc.MaxDatagram != wi.RecvBufferSize {
		t.Errorf("transport config: %+v", tc)
	}
	c.TTL, c.Loop = transport.HostOnlyTTL, true
	if err := c.Validate(); err != nil {
		t.Errorf("host-only TTL: %v", err)
	}
	if tc := c.TransportConfig(time.Now); tc.MulticastTTL != transport.HostOnlyTTL || !tc.MulticastLoopback {
		t.Errorf("transport config: %+v", tc)
	}
}

func TestConfigValidate(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*Config)
		want   string
	}{
		{"interval too short", func(c *Config) { c.Interval = time.Millisecond }, "Interval"},
		{"interval too long", func(c *Config) { c.Interval = time.Hour }, "Interval"},
		{"unicast group", func(c *Config) { c.Group = netip.MustParseAddrPort("10.0.0.1:2806") }, "Group"},
		{"no port", func(c *Config) { c.Group = netip.MustParseAddrPort("224.16.0.1:0") }, "Group"},
		{"zero group", func(c *Config) { c.Group = netip.AddrPort{} }, "Group"},
		{"IPv6 group", func(c *Config) { c.Group = netip.MustParseAddrPort("[ff02::1]:2806") }, "Group"},
		{"interface", func(c *Config) { c.Interface = "10.0.0.0/99" }, "Interface"},
		{"key", func(c *Config) { c.Key = "" }, "Key"},
		{"ttl 0", func(c *Config) { c.TTL = 0 }, "TTL"},
		{"ttl 256", func(c *Config) { c.TTL = 256 }, "TTL"},
		{"flush 0", func(c *Config) { c.FlushAfter = 0 }, "FlushAfter"},
		{"senders", func(c *Config) { c.MaxSenders = 0 }, "MaxSenders"},
		{"queue", func(c *Config) { c.QueueLen = -1 }, "QueueLen"},
		{"player", func(c *Config) { c.PlayerNumber = 16 }, "PlayerNumber"},
		{"player negative", func(c *Config) { c.PlayerNumber = -1 }, "PlayerNumber"},
		{"input timeout", func(c *Config) { c.InputTimeout = 0 }, "InputTimeout"},
		{"opponents", func(c *Config) { c.MaxOpponents = MaxOpponentsLimit + 1 }, "MaxOpponents"},
		{"gate", func(c *Config) { c.OpponentGate = 0 }, "OpponentGate"},
		{"gate NaN", func(c *Config) { c.OpponentGate = math.NaN() }, "OpponentGate"},
		{"gate Inf", func(c *Config) { c.OpponentGate = math.Inf(1) }, "OpponentGate"},
	} {
		c := DefaultConfig()
		tc.change(&c)
		err := c.Validate()
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want ErrConfig naming %s", tc.name, err, tc.want)
		}
		if _, nerr := New(c, Deps{}); !errors.Is(nerr, ErrConfig) {
			t.Errorf("%s: New accepted it: %v", tc.name, nerr)
		}
	}
	// Every problem is reported at once.
	c := DefaultConfig()
	c.Interval, c.Key, c.TTL = 0, "", 0
	err := c.Validate()
	for _, s := range []string{"Interval", "Key", "TTL"} {
		if err == nil || !strings.Contains(err.Error(), s) {
			t.Errorf("joined error %v does not name %s", err, s)
		}
	}
	for _, ok := range []func(*Config){
		func(c *Config) { c.MaxOpponents = 0 },
		func(c *Config) { c.FlushAfter = -1 },
		func(c *Config) { c.PlayerNumber = 15 },
		func(c *Config) { c.Interval = MinInterval },
		func(c *Config) { c.Interface = "any" },
	} {
		c := DefaultConfig()
		ok(&c)
		if err := c.Validate(); err != nil {
			t.Errorf("%+v rejected: %v", c, err)
		}
	}
}
