package worldinfo

import (
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"time"

	wi "github.com/robocup-dnetwork/dnetwork/proto/worldinfo"
)

// Defaults.
const (
	// DefaultFlushAfter is how long a sender may stay silent before its sequence number is
	// forgotten (the value Fawkes recommends; its world model plugin uses 5 s).
	DefaultFlushAfter = 10 * time.Second
	// DefaultMaxSenders bounds the sequence table. Datagrams from further senders are
	// dropped (counted as TooManySenders) until silent senders are flushed.
	DefaultMaxSenders = 256
)

// DefaultGroup is Fawkes' default multicast group and port, 224.16.0.1:2806.
var DefaultGroup = netip.AddrPortFrom(netip.MustParseAddr(wi.DefaultGroup), wi.DefaultPort)

// Config configures a [Transceiver], [Sender] or [Receiver]. The zero value is Fawkes'
// deployment default, except that loopback is off as in Fawkes' transceiver constructor.
type Config struct {
	// Group is the multicast group and UDP port; zero means [DefaultGroup].
	Group netip.AddrPort
	// Interface selects the network interface (see transport.ParseSelector); "" is "auto".
	Interface string
	// Key is the encryption key string; "" means wi.DefaultKey ("AllemaniACsX0rz").
	Key string
	// IV is accepted for symmetry with Fawkes' configuration and ignored: the ECB cipher
	// has no IV.
	IV string
	// Loop turns multicast loopback on: this host's other sockets, this transceiver
	// included, receive what it sends. When off, datagrams from 127.0.0.1 are dropped as
	// well (Fawkes' set_loop).
	Loop bool
	// TTL is the multicast TTL of sent datagrams, as transport.Config.MulticastTTL: 0 means
	// transport.DefaultMulticastTTL, transport.HostOnlyTTL keeps them on this host.
	TTL int
	// FatMessage sends the legacy fat record in a second datagram after every update.
	FatMessage bool
	// RelBallAsType10 sends the relative ball with record type 10 (global ball) as every
	// Fawkes sender since 2009 does. Off, it is sent as type 3, which Fawkes receivers
	// deliver correctly as a relative ball; turn it on only for receivers that expect
	// the bug.
	RelBallAsType10 bool
	// Type10AsGlobal delivers every type-10 record as a global ball, exactly as Fawkes
	// receivers do. Off (the default), a datagram with two adjacent type-10 records is
	// recognised as a Fawkes sender's relative ball followed by its global ball, and the
	// first is delivered as a relative ball.
	Type10AsGlobal bool
	// FlushAfter forgets the sequence number of a sender silent for longer than this, so
	// that a restarted sender (counting from 0 again) is heard again. 0 means
	// [DefaultFlushAfter]; negative never forgets.
	FlushAfter time.Duration
	// MaxSenders bounds the sequence table; 0 means [DefaultMaxSenders].
	MaxSenders int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Logger receives the transport's state changes; nil means slog.Default().
	Logger *slog.Logger
}

// ErrConfig reports an invalid Config.
var ErrConfig = errors.New("worldinfo: bad config")

func (c Config) withDefaults() (Config, error) {
	if !c.Group.IsValid() {
		c.Group = DefaultGroup
	}
	if a := c.Group.Addr(); !a.Is4() || !a.IsMulticast() || c.Group.Port() == 0 {
		return c, fmt.Errorf("%w: group %v is not an IPv4 multicast address and port", ErrConfig, c.Group)
	}
	if c.Key == "" {
		c.Key = wi.DefaultKey
	}
	if c.FlushAfter == 0 {
		c.FlushAfter = DefaultFlushAfter
	}
	if c.MaxSenders == 0 {
		c.MaxSenders = DefaultMaxSenders
	}
	if c.MaxSenders < 0 {
		return c, fmt.Errorf("%w: MaxSenders %d is negative", ErrConfig, c.MaxSenders)
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c, nil
}
