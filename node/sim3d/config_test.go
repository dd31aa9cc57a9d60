package sim3d

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestDefaultConfig(t *testing.T) {
	c := DefaultConfig()
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "player 0") {
		t.Fatalf("default config without a player: got %v, want a player error", err)
	}
	c.Player = 11
	if err := c.Validate(); err != nil {
		t.Fatalf("default config with player 11: %v", err)
	}
	if c.TeamSize != 11 || c.Cycle != 20*time.Millisecond || c.ServerTimeTimeout != time.Second ||
		c.BallForget != 12700*time.Millisecond {
		t.Errorf("defaults %+v", c)
	}
}

func TestConfigValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		mod  func(*Config)
		want []string
	}{
		{"player above team size", func(c *Config) { c.TeamSize, c.Player = 3, 4 }, []string{"player 4, want 1..3"}},
		{"team size 0", func(c *Config) { c.TeamSize = 0 }, []string{"team size 0, want 1..11"}},
		{"team size 12", func(c *Config) { c.TeamSize = 12 }, []string{"team size 12, want 1..11"}},
		{"zero cycle", func(c *Config) { c.Cycle = 0 }, []string{"cycle 0s"}},
		{"negative timeout", func(c *Config) { c.ServerTimeTimeout = -time.Second }, []string{"server time timeout -1s"}},
		{"zero ball forget", func(c *Config) { c.BallForget = 0 }, []string{"ball forget 0s"}},
		{"all at once", func(c *Config) { c.Player, c.Cycle, c.BallForget = 0, 0, 0 },
			[]string{"player 0", "cycle 0s", "ball forget 0s"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := DefaultConfig()
			c.Player = 1
			tc.mod(&c)
			err := c.Validate()
			if !errors.Is(err, ErrConfig) {
				t.Fatalf("got %v, want ErrConfig", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			if got := strings.Count(err.Error(), "sim3d: invalid config"); got != len(tc.want) {
				t.Errorf("error %q reports %d problems, want %d", err, got, len(tc.want))
			}
		})
	}
}

func TestNewRejectsNil(t *testing.T) {
	c := DefaultConfig()
	c.Player = 1
	if _, err := New(c, nil, nil, nil); !errors.Is(err, ErrConfig) {
		t.Fatalf("New with nil clock: got %v, want ErrConfig", err)
	}
	c.Player = 0
	if _, err := New(c, nil, nil, nil); !errors.Is(err, ErrConfig) {
		t.Fatalf("New with a bad config: got %v, want ErrConfig", err)
	}
}
