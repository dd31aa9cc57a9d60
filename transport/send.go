package transport

import (
	"fmt"
	"net/netip"
	"time"
)

// The worker's send path. Every send method may be called from any goroutine: it takes
// the open socket as it is (ErrDown while there is none), sends to IPv4 destinations
// with raw system calls (send_linux.go), and counts and taps each datagram (account).

// SendTo sends b to dst: a unicast address, a broadcast address or a multicast group
// (which leaves through the worker's interface with the configured TTL and loopback).
func (w *Worker) SendTo(b []byte, dst netip.AddrPort) error {
	s, err := w.sendable(b)
	if err != nil {
		return err
	}
	return w.write(s, b, netip.AddrPortFrom(dst.Addr().Unmap(), dst.Port()))
}

// Broadcast sends b to the directed broadcast address of the worker's interface. The
// socket is bound to that interface, so the datagram leaves through it alone.
func (w *Worker) Broadcast(b []byte, port uint16) error {
	s, err := w.sendable(b)
	if err != nil {
		return err
	}
	if !s.choice.Broadcast.IsValid() {
		w.c.sendErrors.Add(1)
		return fmt.Errorf("%w: %s on %v", ErrNoBroadcast, w.cfg.Name, s.choice)
	}
	return w.write(s, b, netip.AddrPortFrom(s.choice.Broadcast, port))
}

// sendable returns the open socket if b may be sent now, counting a send error if not.
func (w *Worker) sendable(b []byte) (*socket, error) {
	if len(b) > w.max {
		w.c.sendErrors.Add(1)
		return nil, fmt.Errorf("%w: %s: %d bytes, limit %d", ErrTooLarge, w.cfg.Name, len(b), w.max)
	}
	s := w.sock.Load()
	if s != nil {
		return s, nil
	}
	w.c.sendErrors.Add(1)
	select {
	case <-w.done:
		return nil, fmt.Errorf("%w: %s", ErrClosed, w.cfg.Name)
	default:
	}
	if err := w.Status().Err; err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrDown, w.cfg.Name, err)
	}
	return nil, fmt.Errorf("%w: %s", ErrDown, w.cfg.Name)
}

func (w *Worker) write(s *socket, b []byte, dst netip.AddrPort) error {
	var err error
	if dst.Addr().Is4() {
		err = s.out.sendTo(b, dst)
	} else {
		_, err = s.conn.WriteToUDPAddrPort(b, dst)
	}
	return w.account(s, b, dst, err)
}

// tapSent passes a sent datagram to the Tap.
func (w *Worker) tapSent(s *socket, b []byte, dst netip.AddrPort) {
	src := netip.IPv4Unspecified()
	if !s.choice.IsAny() {
		src = s.choice.Addr.Addr()
	}
	now := time.Now()
	if w.cfg.Now != nil {
		now = w.cfg.Now()
	}
	w.cfg.Tap(Sent, Datagram{Payload: b, Src: netip.AddrPortFrom(src, s.port), Dst: dst, Interface: s.choice.Name, IfIndex: s.choice.Index, Time: now})
}

// maxEach is how many destinations SendToEach reports on without allocating.
const maxEach = 16

// SendToEach sends b to every destination in dsts, as SendTo to each in turn would:
// every datagram is counted, tapped and may fail alone. When every destination is IPv4,
// the datagrams leave in one sendmmsg(2) (more only after a failure), not one system
// call each. It returns how many were sent and the error of the last that was not (nil
// when all were).
func (w *Worker) SendToEach(b []byte, dsts []netip.AddrPort) (int, error) {
	if len(dsts) == 0 {
		return 0, nil
	}
	s, err := w.sendable(b)
	if err != nil {
		w.c.sendErrors.Add(uint64(len(dsts) - 1)) // sendable counted one
		return 0, err
	}
	sent := 0
	var last error
	v4 := true
	for _, d := range dsts {
		v4 = v4 && d.Addr().Unmap().Is4()
	}
	if !v4 {
		for _, d := range dsts {
			if err := w.write(s, b, netip.AddrPortFrom(d.Addr().Unmap(), d.Port())); err != nil {
				last = err
			} else {
				sent++
			}
		}
		return sent, last
	}
	var small [maxEach]error
	errs := small[:]
	if len(dsts) > maxEach {
		errs = make([]error, len(dsts))
	}
	s.out.sendToEach(b, dsts, errs)
	for i, d := range dsts {
		if err := w.account(s, b, netip.AddrPortFrom(d.Addr().Unmap(), d.Port()), errs[i]); err != nil {
			last = err
		} else {
			sent++
		}
	}
	return sent, last
}

// account counts the send of b to dst, which failed with err or went (nil): an error,
// or a datagram sent (and one sent without carrier) and tapped. It returns err wrapped
// with the worker and the destination.
func (w *Worker) account(s *socket, b []byte, dst netip.AddrPort, err error) error {
	if err != nil {
		w.c.sendErrors.Add(1)
		return fmt.Errorf("transport: %s: send to %v: %w", w.cfg.Name, dst, err)
	}
	w.c.sent.Add(1)
	if w.noCarrier.Load() {
		w.c.sentNoCarrier.Add(1)
	}
	if w.cfg.Tap != nil {
		w.tapSent(s, b, dst)
	}
	return nil
}
