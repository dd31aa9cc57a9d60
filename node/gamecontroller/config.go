package gamecontroller

import (
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"time"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
)

// Ports of the GameController protocol.
const (
	// ControlPort is where GameControllers broadcast their control packets; the socket
	// handed to New is bound to it.
	ControlPort = gcproto.ControlPort
	// DefaultReturnPort is where GameControllers listen for return packets.
	DefaultReturnPort = gcproto.ReturnPort
)

// Limits of the return packet rate, in Hz. The GameControllers expect a status packet
// about once a second; much slower marks the robot as lost, much faster wastes air time.
const (
	MinReturnRate = 0.5
	MaxReturnRate = 2.0
)

// Config configures a Component. Start from DefaultConfig, set Team and Player, and
// change what differs; Validate reports every problem at once.
type Config struct {
	// Team is our team number (1..254; 255 marks a dropped ball in the packets).
	Team int
	// Player is our player number, 1..gcproto.MaxReturnPlayer (20). A layout with fewer
	// players (HL 11, SPL v12/v13 6, SPL v14 7) drops its packets as PlayerOutOfRange.
	Player int

	// Timeout is how long after the last accepted packet the GameController counts as
	// connected. Default 3 s.
	Timeout time.Duration
	// PublishRate is the rate of GCInfo publications, in Hz. Default 2.
	PublishRate float64
	// PublishOnChange also publishes GCInfo at once when a packet changes anything but
	// the clocks, or the connection comes back. Default true.
	PublishOnChange bool

	// ReturnRate is the rate of return packets, in Hz, MinReturnRate..MaxReturnRate.
	// Default 1.
	ReturnRate float64
	// ReturnPort is the GameController's port for return packets. Default 3939.
	ReturnPort uint16
	// ReturnVersion forces the return packet version (2, 3 or 4); 0, the default, picks
	// it from the layout of the GameController's packets (see the package comment).
	ReturnVersion uint8

	// AllowFrom, if not empty, lists the source addresses GameController packets are
	// accepted from; others are counted as Filtered. Empty accepts every source.
	AllowFrom []netip.Prefix
	// MultiWindow is how recently two addresses must both have sent valid packets for
	// our team to count as more than one GameController. Default 5 s.
	MultiWindow time.Duration
	// WarnInterval is the least time between two warnings of the same cause. Default 10 s.
	WarnInterval time.Duration

	// Logger receives warnings and connection changes; nil means slog.Default().
	Logger *slog.Logger
}

// DefaultConfig returns the defaults; Team and Player are left 0 and must be set.
func DefaultConfig() Config {
	return Config{
		Timeout:         3 * time.Second,
		PublishRate:     2,
		PublishOnChange: true,
		ReturnRate:      1,
		ReturnPort:      DefaultReturnPort,
		MultiWindow:     5 * time.Second,
		WarnInterval:    10 * time.Second,
	}
}

// ErrConfig is wrapped by every error Validate returns.
var ErrConfig = errors.New("gamecontroller: bad config")

// Validate checks every field and reports all problems, each wrapping ErrConfig.
// A return rate outside MinReturnRate..MaxReturnRate is an error rather than silently
// clamped: the parameter file should say what the robot does.
func (c Config) Validate() error {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: "+format, append([]any{ErrConfig}, args...)...))
	}
	if c.Team < 1 || c.Team > 254 {
		bad("team number %d is outside 1..254", c.Team)
	}
	if c.Player < 1 || c.Player > gcproto.MaxReturnPlayer {
		bad("player number %d is outside 1..%d", c.Player, gcproto.MaxReturnPlayer)
	}
	if c.Timeout <= 0 {
		bad("timeout %v must be positive", c.Timeout)
	}
	if !(c.PublishRate > 0) || c.PublishRate > 1000 {
		bad("publish rate %v Hz is outside (0, 1000]", c.PublishRate)
	}
	if !(c.ReturnRate >= MinReturnRate && c.ReturnRate <= MaxReturnRate) {
		bad("return rate %v Hz is outside %v..%v Hz (GameControllers expect about 1 Hz)",
			c.ReturnRate, MinReturnRate, MaxReturnRate)
	}
	if c.ReturnPort == 0 {
		bad("return port is 0")
	}
	switch c.ReturnVersion {
	case 0, gcproto.ReturnVersionHL, gcproto.ReturnVersionSPL3, gcproto.ReturnVersion:
	default:
		bad("return version %d is not 0 (by layout), 2, 3 or 4", c.ReturnVersion)
	}
	for i, p := range c.AllowFrom {
		if !p.IsValid() {
			bad("allow-list entry %d is not a valid prefix", i)
		}
	}
	if c.MultiWindow <= 0 {
		bad("multiple-GameController window %v must be positive", c.MultiWindow)
	}
	if c.WarnInterval < 0 {
		bad("warning interval %v is negative", c.WarnInterval)
	}
	return errors.Join(errs...)
}

func ratePeriod(hz float64) time.Duration {
	return time.Duration(float64(time.Second) / hz)
}
