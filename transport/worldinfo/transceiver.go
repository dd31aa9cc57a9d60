package worldinfo

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"sync/atomic"

	wi "github.com/robocup-dnetwork/dnetwork/proto/worldinfo"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// Transceiver sends and receives world info datagrams on a UDP multicast group, like
// Fawkes' WorldInfoTransceiver: the [Sender] setters and [Receiver] handler registration
// are promoted from the embedded halves, [Transceiver.Send] multicasts, and
// [Transceiver.Run] owns the socket (a transport.Worker bound to the group's port,
// joined to the group, with multicast loopback as Config.Loop says).
type Transceiver struct {
	*Sender
	*Receiver

	group   netip.AddrPort
	worker  *transport.Worker
	started atomic.Bool
}

// ErrRunTwice reports a second call of Run.
var ErrRunTwice = errors.New("worldinfo: Run called twice")

// New validates cfg and returns a transceiver; nothing is opened before Run.
func New(cfg Config) (*Transceiver, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	s, err := NewSender(cfg)
	if err != nil {
		return nil, err
	}
	r, err := NewReceiver(cfg)
	if err != nil {
		return nil, err
	}
	w, err := transport.New(transport.Config{
		Name:              "worldinfo",
		Interface:         cfg.Interface,
		Port:              cfg.Group.Port(),
		Groups:            []netip.Addr{cfg.Group.Addr()},
		MulticastLoopback: cfg.Loop,
		MulticastTTL:      cfg.TTL,
		MaxDatagram:       wi.RecvBufferSize,
		Logger:            cfg.Logger,
		Now:               cfg.Now,
	})
	if err != nil {
		return nil, fmt.Errorf("worldinfo: %w", err)
	}
	return &Transceiver{Sender: s, Receiver: r, group: cfg.Group, worker: w}, nil
}

// Send multicasts everything set since the last Send (see [Sender.Send]). It fails with
// transport.ErrDown while the socket is not open.
func (t *Transceiver) Send() error {
	return t.Sender.Send(func(b []byte) error { return t.worker.SendTo(b, t.group) })
}

// Run opens the socket and receives until ctx is done, then closes the socket and returns
// nil. The socket is opened on the calling goroutine (so a caller may pin it to an OS
// thread, e.g. inside a network namespace); received datagrams are processed on a second
// goroutine that Run waits for. Datagrams that cannot be decrypted or decoded are reported
// to the worker as malformed; all drops are counted in [Transceiver.Stats].
func (t *Transceiver) Run(ctx context.Context) error {
	if !t.started.CompareAndSwap(false, true) {
		return ErrRunTwice
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for d := range t.worker.Datagrams() {
			if err := t.Receive(d.Src.Addr(), d.Payload); err != nil && undecodable(err) {
				t.worker.ReportMalformed()
			}
		}
	}()
	err := t.worker.Run(ctx)
	<-done
	return err
}

func undecodable(err error) bool {
	return !errors.Is(err, ErrLoopback) && !errors.Is(err, ErrStale) && !errors.Is(err, ErrTooManySenders)
}

// WaitUp blocks until the socket is open, ctx is done or Run has returned.
func (t *Transceiver) WaitUp(ctx context.Context) error { return t.worker.WaitUp(ctx) }

// Group returns the multicast group and port.
func (t *Transceiver) Group() netip.AddrPort { return t.group }

// Stats holds a transceiver's counters.
type Stats struct {
	Send   SendStats
	Recv   RecvStats
	Socket transport.Stats
}

// Stats returns a snapshot of all counters.
func (t *Transceiver) Stats() Stats {
	return Stats{Send: t.Sender.Stats(), Recv: t.Receiver.Stats(), Socket: t.worker.Stats()}
}

// Status returns the socket's state, interface and error.
func (t *Transceiver) Status() transport.Status { return t.worker.Status() }
