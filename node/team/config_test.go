package team

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
	"time"
)

func TestValidate(t *testing.T) {
	if err := testConfig().Validate(); err != nil {
		t.Fatalf("test config: %v", err)
	}
	cases := []struct {
		name   string
		change func(c *Config)
		want   string // in the error
	}{
		{"defaults need numbers", func(c *Config) { *c = DefaultConfig() }, "team number must be 1..255"},
		{"player 0", func(c *Config) { c.Player = 0 }, "player number"},
		{"zju in the spl", func(c *Config) { c.Format, c.League = FormatZJU, LeagueSPL },
			"format zju packets are 296 bytes, above the spl league's cap of 128 bytes"},
		{"zju with a key", func(c *Config) { c.Format, c.AuthKey = FormatZJU, []byte("secret") }, "cannot carry an authentication tag"},
		{"unknown format", func(c *Config) { c.Format = 7 }, "unknown packet format"},
		{"unknown league", func(c *Config) { c.League = 9 }, "unknown league"},
		{"zero tick", func(c *Config) { c.Tick = 0 }, "tick"},
		{"zero interval", func(c *Config) { c.Rate.BallNear = 0 }, "BallNear must be positive"},
		{"negative alone", func(c *Config) { c.Rate.Alone = -time.Second }, "Alone"},
		{"distances", func(c *Config) { c.Rate.NearDistance = 5 }, "NearDistance <= MidDistance"},
		{"reserve", func(c *Config) { c.Reserve = -2 }, "reserve"},
		{"timeout too short", func(c *Config) { c.TeammateTimeout = time.Second }, "longer than the longest send interval 1s"},
		{"timeout below alone", func(c *Config) { c.Rate.Alone = 4 * time.Second }, "longest send interval 4s"},
		{"peer without port", func(c *Config) { c.Peers = []netip.AddrPort{netip.MustParseAddrPort("127.0.0.1:0")} }, "peer 0"},
		{"ipv6 monitor", func(c *Config) { c.Monitor = netip.MustParseAddrPort("[::1]:9") }, "monitor"},
		{"monitor interval", func(c *Config) {
			c.Monitor, c.MonitorInterval = netip.MustParseAddrPort("10.0.0.1:9"), 0
		}, "monitor interval"},
		{"negative max age", func(c *Config) { c.MaxAge = -1 }, "max age"},
	}
	for _, tc := range cases {
		c := testConfig()
		tc.change(&c)
		err := c.Validate()
		if err == nil || !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an ErrConfig containing %q", tc.name, err, tc.want)
		}
		if _, nerr := New(c, Deps{}); nerr == nil {
			t.Errorf("%s: New accepted the config", tc.name)
		}
	}
	// All problems are reported at once.
	c := DefaultConfig()
	c.Format, c.League, c.Tick = FormatZJU, LeagueSPL, 0
	if n := strings.Count(c.Validate().Error(), "\n") + 1; n != 4 {
		t.Errorf("%d problems reported, want 4: %v", n, c.Validate())
	}
	// What is allowed: zju in the HSL and HL, dnet signed in the SPL (118 <= 128).
	for _, ok := range []func(c *Config){
		func(c *Config) { c.Format = FormatZJU },
		func(c *Config) { c.Format, c.League = FormatZJU, LeagueHL },
		func(c *Config) { c.League, c.AuthKey = LeagueSPL, []byte("team17-shared-secret") },
	} {
		c := testConfig()
		ok(&c)
		if err := c.Validate(); err != nil {
			t.Errorf("%v %v: %v", c.Format, c.League, err)
		}
	}
}

func TestTeamPortAndReserve(t *testing.T) {
	c := testConfig()
	if c.TeamPort() != 10017 {
		t.Errorf("port %d, want 10000 + 17", c.TeamPort())
	}
	c.Port = 57335
	if c.TeamPort() != 57335 {
		t.Errorf("port %d", c.TeamPort())
	}
	for _, tc := range []struct {
		l       League
		reserve int
		want    int
	}{{LeagueHSL, -1, 100}, {LeagueSPL, -1, 30}, {LeagueHL, -1, 0}, {LeagueSPL, 7, 7}} {
		c.League, c.Reserve = tc.l, tc.reserve
		if got := c.reserve(); got != tc.want {
			t.Errorf("%v reserve %d: %d, want %d", tc.l, tc.reserve, got, tc.want)
		}
	}
}

func TestParseFormat(t *testing.T) {
	for _, s := range []string{"zju", "dnet"} {
		f, err := ParseFormat(s)
		if err != nil || f.String() != s {
			t.Errorf("%s: %v %v", s, f, err)
		}
	}
	if _, err := ParseFormat("json"); err == nil {
		t.Error("json accepted")
	}
	if FormatZJU.PacketSize(false) != 296 || FormatDNet.PacketSize(false) != 113 || FormatDNet.PacketSize(true) != 125 {
		t.Error("packet sizes")
	}
}

func TestSnapshotOf(t *testing.T) {
	g := dmsgsGCInfo()
	want := GameSnapshot{Connected: true, State: StateSet, GamePhase: PhaseOvertime, SetPlay: 4, SecondaryState: 9,
		Penalised: true, Stopped: true, FirstHalf: true, SecsRemaining: 321, MessageBudget: -1}
	if got := SnapshotOf(&g); got != want {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

// TestMonitorText: the start-up log says monitor=off without a monitor address, not
// the zero address's "invalid AddrPort".
func TestMonitorText(t *testing.T) {
	if got := monitorText(netip.AddrPort{}); got != "off" {
		t.Errorf("no monitor: %q", got)
	}
	if got := monitorText(netip.MustParseAddrPort("10.0.0.9:9000")); got != "10.0.0.9:9000" {
		t.Errorf("monitor: %q", got)
	}
}
