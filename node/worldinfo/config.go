package worldinfo

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/netip"
	"time"

	wi "github.com/robocup-dnetwork/dnetwork/proto/worldinfo"
	"github.com/robocup-dnetwork/dnetwork/transport"
	wit "github.com/robocup-dnetwork/dnetwork/transport/worldinfo"
)

// Defaults and limits of the configuration.
const (
	DefaultInterval     = 500 * time.Millisecond // 2 Hz
	DefaultInputTimeout = time.Second
	DefaultMaxOpponents = 10
	DefaultOpponentGate = 0.5 // metres

	// MinInterval and MaxInterval bound the send interval (50 Hz .. one per minute).
	MinInterval = 20 * time.Millisecond
	MaxInterval = time.Minute
	// MaxOpponentsLimit is the most opponents a datagram can carry next to every other
	// record and as many disappeared announcements: 1400 bytes hold 29 of each pair.
	MaxOpponentsLimit = 25
	// MaxPlayerNumber is the largest player number of a penalty record (4 bits).
	MaxPlayerNumber = 15
)

// ErrConfig reports an invalid Config.
var ErrConfig = errors.New("worldinfo: bad config")

// Config configures the component. Build it from DefaultConfig; the zero value is not
// valid.
type Config struct {
	// Enabled turns the component on. Off (the default), New opens nothing and Run only
	// waits for its context.
	Enabled bool
	// Interval is the send period on the node's clock (default 500 ms, 2 Hz).
	Interval time.Duration

	// Group is the multicast group and UDP port (default 224.16.0.1:2806).
	Group netip.AddrPort
	// Interface selects the network interface (transport.ParseSelector; default "auto").
	Interface string
	// Key is the encryption key string (default "AllemaniACsX0rz"). Fawkes peers only
	// agree on keys of at least 15 characters.
	Key string
	// TTL is the multicast TTL: 1..255, or transport.HostOnlyTTL to keep datagrams on
	// this host (default 1).
	TTL int
	// Loop turns multicast loopback on: this host, this robot included, hears what it
	// sends. Off (the default), datagrams from 127.0.0.1 are dropped too, as in Fawkes.
	Loop bool
	// FatMessage sends the legacy fat record in a second datagram every cycle.
	FatMessage bool
	// RelBallAsType10 sends the relative ball as record type 10, as Fawkes senders do;
	// see transport/worldinfo.Config.
	RelBallAsType10 bool
	// Type10AsGlobal delivers every received type-10 record as a global ball, as Fawkes
	// receivers do; see transport/worldinfo.Config.
	Type10AsGlobal bool
	// FlushAfter forgets a sender silent for longer than this (default 10 s; negative
	// never forgets).
	FlushAfter time.Duration
	// MaxSenders bounds the senders tracked at once (default 256).
	MaxSenders int
	// QueueLen is the socket's hand-off queue length (0: the transport's default).
	QueueLen int

	// PlayerNumber is this robot's number in penalty records (1..15); 0 (the default)
	// sends no penalty record.
	PlayerNumber int
	// InputTimeout is how long a MotionInfo or VisionInfo stays usable (default 1 s).
	InputTimeout time.Duration
	// PoseWithoutLoc sends the pose, the global ball and the velocity even while
	// VisionInfo.loc_ok is false. Off by default: a lost robot does not mislead others.
	PoseWithoutLoc bool
	// IgnoreAttackSide sends field positions as they are, whatever
	// BehaviorInfo.attack_right says (see the package documentation).
	IgnoreAttackSide bool
	// ROSFrameOnWire sends y and angles in the ROS convention (y left, counter-clockwise)
	// instead of Fawkes' (y right, clockwise), for peers that expect it.
	ROSFrameOnWire bool
	// MaxOpponents is the most opponents sent per datagram, the nearest first (default
	// 10, at most MaxOpponentsLimit; 0 sends none).
	MaxOpponents int
	// OpponentGate is the largest distance in metres an obstacle may move between two
	// cycles and keep its uid (default 0.5).
	OpponentGate float64

	// Logger receives warnings (rate-limited) and the socket's state changes; nil means
	// slog.Default().
	Logger *slog.Logger
}

// DefaultConfig returns the defaults: disabled, 2 Hz, Fawkes' group, port and key, TTL 1,
// loopback off.
func DefaultConfig() Config {
	return Config{
		Interval:     DefaultInterval,
		Group:        wit.DefaultGroup,
		Interface:    "auto",
		Key:          wi.DefaultKey,
		TTL:          transport.DefaultMulticastTTL,
		FlushAfter:   wit.DefaultFlushAfter,
		MaxSenders:   wit.DefaultMaxSenders,
		InputTimeout: DefaultInputTimeout,
		MaxOpponents: DefaultMaxOpponents,
		OpponentGate: DefaultOpponentGate,
	}
}

// Validate reports every invalid field, wrapped in ErrConfig.
func (c Config) Validate() error {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: %s", ErrConfig, fmt.Sprintf(format, args...)))
	}
	if c.Interval < MinInterval || c.Interval > MaxInterval {
		bad("Interval %v outside %v..%v", c.Interval, MinInterval, MaxInterval)
	}
	if a := c.Group.Addr(); !c.Group.IsValid() || !a.Is4() || !a.IsMulticast() || c.Group.Port() == 0 {
		bad("Group %v is not an IPv4 multicast address with a port", c.Group)
	}
	if _, err := transport.ParseSelector(c.Interface); err != nil {
		bad("Interface: %v", err)
	}
	if c.Key == "" {
		bad("Key is empty")
	}
	if c.TTL != transport.HostOnlyTTL && (c.TTL < 1 || c.TTL > 255) {
		bad("TTL %d outside 1..255 (or %d for host-only)", c.TTL, transport.HostOnlyTTL)
	}
	if c.FlushAfter == 0 {
		bad("FlushAfter is 0 (negative never forgets)")
	}
	if c.MaxSenders < 1 {
		bad("MaxSenders %d is below 1", c.MaxSenders)
	}
	if c.QueueLen < 0 {
		bad("QueueLen %d is negative", c.QueueLen)
	}
	if c.PlayerNumber < 0 || c.PlayerNumber > MaxPlayerNumber {
		bad("PlayerNumber %d outside 0..%d", c.PlayerNumber, MaxPlayerNumber)
	}
	if c.InputTimeout <= 0 {
		bad("InputTimeout %v is not positive", c.InputTimeout)
	}
	if c.MaxOpponents < 0 || c.MaxOpponents > MaxOpponentsLimit {
		bad("MaxOpponents %d outside 0..%d", c.MaxOpponents, MaxOpponentsLimit)
	}
	if !(c.OpponentGate > 0) || math.IsInf(c.OpponentGate, 0) {
		bad("OpponentGate %v is not a positive distance", c.OpponentGate)
	}
	return errors.Join(errs...)
}

// transceiverConfig is the configuration of the Sender and Receiver halves.
func (c Config) transceiverConfig(now func() time.Time) wit.Config {
	return wit.Config{
		Group:           c.Group,
		Interface:       c.Interface,
		Key:             c.Key,
		Loop:            c.Loop,
		FatMessage:      c.FatMessage,
		RelBallAsType10: c.RelBallAsType10,
		Type10AsGlobal:  c.Type10AsGlobal,
		FlushAfter:      c.FlushAfter,
		MaxSenders:      c.MaxSenders,
		Now:             now,
		Logger:          c.Logger,
	}
}

// TransportConfig returns the configuration of the multicast socket the component opens
// when it is not given a connection: bound to the group's port on Interface, joined to
// the group, with the configured TTL and loopback.
func (c Config) TransportConfig(now func() time.Time) transport.Config {
	return transport.Config{
		Name:              "worldinfo",
		Interface:         c.Interface,
		Port:              c.Group.Port(),
		Groups:            []netip.Addr{c.Group.Addr()},
		MulticastTTL:      c.TTL,
		MulticastLoopback: c.Loop,
		MaxDatagram:       wi.RecvBufferSize,
		QueueLen:          c.QueueLen,
		Logger:            c.Logger,
		Now:               now,
	}
}
