package transport

import "net"

// Carrier. A socket stays open while its interface is up and holds its address, but an
// interface can be up without a carrier: no cable, no Wi-Fi association, a veth whose
// peer is down, a TAP device nobody has open. The kernel then takes every send and the
// link drops it, so a send that "succeeded" went nowhere. On every interface event (or
// periodic check) and when the socket opens, the worker reads the interface's
// IFF_RUNNING flag, which Linux sets while the link's operational state (RFC 2863) is
// up, and shows its absence in Status.NoCarrier, one log line per change, and
// Stats.SentNoCarrier.

// carrier reports whether c's interface has carrier (always for any interface).
func (c Choice) carrier() (bool, error) {
	if c.IsAny() {
		return true, nil
	}
	n, err := net.InterfaceByName(c.Name)
	if err != nil {
		return false, err
	}
	return n.Flags&net.FlagRunning != 0, nil
}

// noteCarrier reads the carrier of s's interface and reports a change. The interface
// check reports a missing interface; here an unreadable flag changes nothing.
func (w *Worker) noteCarrier(s *socket) {
	ok, err := s.choice.carrier()
	if err != nil {
		return
	}
	if w.noCarrier.Swap(!ok) == !ok {
		return
	}
	w.setStatus(func(st *Status) {
		if st.State == StateUp {
			st.NoCarrier = !ok
		}
	})
}
