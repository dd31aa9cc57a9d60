package teamsim

import (
	"context"

	"github.com/robocup-dnetwork/dnetwork/monitor"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// tee hands the datagrams of a socket on to the GameController simulator and shows
// each one to the monitor first. Return packets are unicast to the GameController's
// port, which the monitor cannot share without taking them away (see package
// monitor), so the monitor sees them here.
type tee struct {
	src     *transport.Worker
	port    monitor.Port
	observe func(monitor.Port, transport.Datagram) bool
	out     chan transport.Datagram
}

var _ interface {
	Datagrams() <-chan transport.Datagram
	ReportMalformed()
} = (*tee)(nil)

func newTee(src *transport.Worker, p monitor.Port, observe func(monitor.Port, transport.Datagram) bool) *tee {
	return &tee{src: src, port: p, observe: observe, out: make(chan transport.Datagram)}
}

// Datagrams returns the datagrams after the monitor has seen them; it is closed when
// Run returns.
func (t *tee) Datagrams() <-chan transport.Datagram { return t.out }

// ReportMalformed passes the consumer's verdict on to the socket's counters.
func (t *tee) ReportMalformed() { t.src.ReportMalformed() }

// Run forwards until ctx is done or the socket's queue is closed. A slow consumer
// holds datagrams back in the socket's bounded queue, where overflows are counted.
func (t *tee) Run(ctx context.Context) error {
	defer close(t.out)
	in := t.src.Datagrams()
	for {
		select {
		case <-ctx.Done():
			return nil
		case d, ok := <-in:
			if !ok {
				return nil
			}
			t.observe(t.port, d)
			select {
			case t.out <- d:
			case <-ctx.Done():
				return nil
			}
		}
	}
}
