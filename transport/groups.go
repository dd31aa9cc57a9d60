package transport

import (
	"fmt"
	"net/netip"
	"slices"
)

// Multicast groups: a worker keeps its groups joined across reopens.

// Join adds group to the worker's multicast groups and joins it on the open socket.
// The worker rejoins its groups whenever it reopens the socket.
func (w *Worker) Join(group netip.Addr) error {
	group = group.Unmap()
	if !group.Is4() || !group.IsMulticast() {
		return fmt.Errorf("%w: %v", ErrNotMulticast, group)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if slices.Contains(w.groups, group) {
		return nil
	}
	if s := w.sock.Load(); s != nil {
		if err := s.join(group); err != nil {
			return err
		}
	}
	w.groups = append(w.groups, group)
	return nil
}

// Leave removes group from the worker's multicast groups and leaves it on the open
// socket.
func (w *Worker) Leave(group netip.Addr) error {
	group = group.Unmap()
	w.mu.Lock()
	defer w.mu.Unlock()
	i := slices.Index(w.groups, group)
	if i < 0 {
		return nil
	}
	w.groups = slices.Delete(w.groups, i, i+1)
	if s := w.sock.Load(); s != nil {
		return s.leave(group)
	}
	return nil
}

// Groups returns the multicast groups the worker keeps joined.
func (w *Worker) Groups() []netip.Addr {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.groups)
}

// otherGroup reports whether dst is a multicast group the worker has not joined. A
// socket whose IP_MULTICAST_ALL could not be turned off gets every group that any
// socket on the host joined on the interface and bound the same port; the worker drops
// the others' groups itself, as the kernel would have (sockets, doc.go).
func (w *Worker) otherGroup(dst netip.Addr) bool {
	if !dst.IsMulticast() {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return !slices.Contains(w.groups, dst)
}

// noteAllGroups logs, once per worker, that its sockets cannot turn IP_MULTICAST_ALL
// off (err, from listen) and that it filters the groups itself; nil says nothing.
func (w *Worker) noteAllGroups(err error) {
	if err == nil || w.warnedAllGroups {
		return
	}
	w.warnedAllGroups = true
	w.log.Warn("transport: the kernel cannot limit the socket to its own multicast groups; the worker drops the others itself",
		"err", err)
}
