package replay

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/robocup-dnetwork/dnetwork/transport"
	"github.com/robocup-dnetwork/dnetwork/transport/capture"
)

// ErrMapping reports a port mapping that does not parse.
var ErrMapping = errors.New("replay: bad mapping")

// Config configures a replay.
type Config struct {
	// To maps a recorded destination port to the address it is sent to now.
	To map[uint16]netip.AddrPort
	// Speed divides the recorded gaps: 1 is the recorded pace, 2 twice as fast, 0 as fast
	// as possible.
	Speed float64
	// Dir, if not 0, replays only datagrams the recording host received (or sent).
	Dir transport.Direction
	// Interface is the sending socket's interface (see transport.ParseSelector); empty
	// means "any".
	Interface string
	// Logger receives the socket's state changes; nil means slog.Default().
	Logger *slog.Logger
}

// Stats counts what a replay did.
type Stats struct {
	Sent       int // datagrams sent
	Unmapped   int // skipped: destination port not in To
	OtherDir   int // skipped: not of the direction asked for
	SendErrors int // sends that failed
}

// ParseMapping reads "PORT=ADDR:PORT" (e.g. "3838=127.0.0.1:3838") into m.
func ParseMapping(s string, m map[uint16]netip.AddrPort) error {
	from, to, ok := strings.Cut(s, "=")
	if !ok {
		return fmt.Errorf("%w: %q is not PORT=ADDRESS:PORT", ErrMapping, s)
	}
	p, err := strconv.ParseUint(from, 10, 16)
	if err != nil || p == 0 {
		return fmt.Errorf("%w: %q: bad port %q", ErrMapping, s, from)
	}
	a, err := netip.ParseAddrPort(to)
	if err != nil || a.Port() == 0 || !a.Addr().Is4() {
		return fmt.Errorf("%w: %q: %q is not an IPv4 address:port", ErrMapping, s, to)
	}
	m[uint16(p)] = a
	return nil
}

// Play sends pkts as cfg says and returns when all are sent or ctx is done (then with
// ctx's error).
func Play(ctx context.Context, pkts []capture.Packet, cfg Config) (Stats, error) {
	var st Stats
	if cfg.Speed < 0 {
		return st, fmt.Errorf("replay: negative speed %v", cfg.Speed)
	}
	if len(cfg.To) == 0 {
		return st, fmt.Errorf("%w: no destination ports mapped", ErrMapping)
	}
	iface := cfg.Interface
	if iface == "" {
		iface = "any"
	}
	w, err := transport.New(transport.Config{Name: "replay", Interface: iface, Logger: cfg.Logger})
	if err != nil {
		return st, err
	}
	wctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- w.Run(wctx) }()
	defer func() {
		stop()
		<-done
	}()
	if err := w.WaitUp(ctx); err != nil {
		return st, err
	}

	var t0 time.Time
	start := time.Now()
	timer := time.NewTimer(0)
	defer timer.Stop()
	<-timer.C
	for i, p := range pkts {
		if cfg.Dir != 0 && p.Dir != cfg.Dir {
			st.OtherDir++
			continue
		}
		to, ok := cfg.To[p.Dst.Port()]
		if !ok {
			st.Unmapped++
			continue
		}
		if t0.IsZero() {
			t0 = p.Time
		}
		if cfg.Speed > 0 {
			due := start.Add(time.Duration(float64(p.Time.Sub(t0)) / cfg.Speed))
			if wait := time.Until(due); wait > 0 {
				timer.Reset(wait)
				select {
				case <-ctx.Done():
					return st, ctx.Err()
				case <-timer.C:
				}
			}
		}
		if ctx.Err() != nil {
			return st, ctx.Err()
		}
		if err := w.SendTo(p.Payload, to); err != nil {
			st.SendErrors++
			if st.SendErrors == 1 && cfg.Logger != nil {
				cfg.Logger.Warn("replay: send failed", "frame", p.Frame, "index", i, "to", to, "err", err)
			}
			continue
		}
		st.Sent++
	}
	return st, nil
}
