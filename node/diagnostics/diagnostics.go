package diagnostics

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/internal/english"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"github.com/robocup-dnetwork/dnetwork/node/internal/idletick"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/builtin_interfaces"
	dm "github.com/robocup-dnetwork/dnetwork/ros/interfaces/diagnostic_msgs"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// Levels of a status.
const (
	OK    = dm.DiagnosticStatusOK
	Warn  = dm.DiagnosticStatusWarn
	Error = dm.DiagnosticStatusError
	Stale = dm.DiagnosticStatusStale
)

// Source reports the status of one component at now.
type Source func(now time.Time) []dm.DiagnosticStatus

// Config configures the component.
type Config struct {
	// Period between two published arrays; default 1 s.
	Period time.Duration
	// Prefix starts every status name, e.g. "dnetwork_3"; statuses are named
	// "<prefix>: <component>".
	Prefix string
	// HardwareID is copied into every status, e.g. the robot's name.
	HardwareID string
}

// DefaultConfig returns a 1 s period.
func DefaultConfig() Config { return Config{Period: time.Second, Prefix: "dnetwork"} }

// Validate checks the configuration.
func (c Config) Validate() error {
	if c.Period <= 0 {
		return errors.New("diagnostics: period must be positive")
	}
	return nil
}

// Component publishes the array.
type Component struct {
	cfg     Config
	clk     clock.Clock
	pub     bus.Publisher[dm.DiagnosticArray]
	failed  func(error)
	sources []Source
}

// New returns a component publishing on pub; failed (nil: none) is called with every
// publication that fails, after which the next period publishes again.
func New(cfg Config, clk clock.Clock, pub bus.Publisher[dm.DiagnosticArray], failed func(error), sources ...Source) (*Component, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Component{cfg: cfg, clk: clk, pub: pub, failed: failed, sources: sources}, nil
}

// Collect builds one array from all sources.
func (c *Component) Collect(now time.Time) dm.DiagnosticArray {
	var a dm.DiagnosticArray
	a.Header.Stamp = builtin_interfaces.NewTime(now)
	for _, src := range c.sources {
		for _, s := range src(now) {
			if c.cfg.Prefix != "" {
				s.Name = c.cfg.Prefix + ": " + s.Name
			}
			if s.HardwareID == "" {
				s.HardwareID = c.cfg.HardwareID
			}
			a.Status = append(a.Status, s)
		}
	}
	return a
}

// Run publishes an array every period until ctx is done, and returns nil then. A failed
// publish goes to New's failed; the next period publishes again. While the publisher
// says nobody subscribes
// (bus.Listened), the array is neither collected nor published: collecting asks every
// component for its status, and nobody would see it. If the publisher signals changes
// of its audience, the ticker also stops until the next change that brings a
// subscriber; it then ticks on the same grid again.
func (c *Component) Run(ctx context.Context) error {
	idletick.Publish(ctx, c.clk, c.cfg.Period, c.pub, func(now time.Time) *dm.DiagnosticArray {
		a := c.Collect(now)
		return &a
	}, c.failed)
	return nil
}

// Status builds one DiagnosticStatus.
type Status struct{ s dm.DiagnosticStatus }

// statusValues is the room NewStatus makes for values: the largest statuses have
// up to about forty-five (team: thirty-five and two per teammate), so one allocation
// holds them.
const statusValues = 48

// NewStatus starts a status with level OK and the given name.
func NewStatus(name string) *Status {
	return &Status{s: dm.DiagnosticStatus{Name: name, Level: OK, Values: make([]dm.KeyValue, 0, statusValues)}}
}

// Level sets the level and message if level is at least the current one, so the
// worst condition wins.
func (b *Status) Level(level byte, msg string) *Status {
	if level > b.s.Level || b.s.Message == "" {
		b.s.Level, b.s.Message = level, msg
	}
	return b
}

// Add appends a key/value pair; the value is formatted for people.
func (b *Status) Add(key string, value any) *Status {
	var v string
	switch x := value.(type) {
	case string:
		v = x
	case bool:
		v = strconv.FormatBool(x)
	case float64:
		v = strconv.FormatFloat(x, 'f', 3, 64)
	case float32:
		v = strconv.FormatFloat(float64(x), 'f', 3, 32)
	case int:
		v = strconv.Itoa(x)
	case int64:
		v = strconv.FormatInt(x, 10)
	case uint64:
		v = strconv.FormatUint(x, 10)
	case uint32:
		v = strconv.FormatUint(uint64(x), 10)
	case uint16:
		v = strconv.FormatUint(uint64(x), 10)
	case uint8:
		v = strconv.FormatUint(uint64(x), 10)
	case int32:
		v = strconv.FormatInt(int64(x), 10)
	case time.Duration:
		v = x.Round(time.Millisecond).String()
	case fmt.Stringer:
		v = x.String()
	default:
		v = fmt.Sprint(x)
	}
	b.s.Values = append(b.s.Values, dm.KeyValue{Key: key, Value: v})
	return b
}

// Done returns the status.
func (b *Status) Done() dm.DiagnosticStatus { return b.s }

// Socket returns the status of one UDP socket: its interface and every counter. A
// socket that is down is an error; drops other than filtered ones, and the kernel's drops
// (dropped_kernel: a full receive buffer or bad checksums, every cause together), are a
// warning once they exceed a tenth of what was received.
func Socket(name string, st transport.Stats, ch transport.Choice, up bool, lastErr error) dm.DiagnosticStatus {
	b := NewStatus(name).Level(OK, "up")
	if !up {
		msg := "socket down"
		if lastErr != nil {
			msg += ": " + lastErr.Error()
		}
		b.Level(Error, msg)
	}
	bad := st.QueueFull + st.Oversize + st.Malformed
	if st.Received > 0 && bad*10 > st.Received {
		b.Level(Warn, fmt.Sprintf("%d of %d datagrams dropped", bad, st.Received))
	}
	if st.KernelDrops > 0 && st.KernelDrops*10 > st.Received+st.KernelDrops {
		b.Level(Warn, english.Count(st.KernelDrops, "datagram")+" dropped by the kernel (a full receive buffer or bad checksums: see kernel udp)")
	}
	if st.SendErrors > 0 && st.SendErrors*10 > st.Sent+st.SendErrors {
		b.Level(Warn, english.Count(st.SendErrors, "send")+" failed")
	}
	iface := ch.String()
	if ch.IsAny() {
		iface = "any"
	}
	return b.Add("interface", iface).
		Add("received", st.Received).Add("delivered", st.Delivered).
		Add("dropped_queue_full", st.QueueFull).Add("dropped_oversize", st.Oversize).
		Add("dropped_filtered", st.Filtered).Add("dropped_malformed", st.Malformed).
		Add("sent", st.Sent).Add("send_errors", st.SendErrors).Add("opens", st.Opens).
		Add("dropped_kernel", st.KernelDrops).Add("dropped_other_groups", st.OtherGroups).
		Done()
}
