package transport

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"
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

// noteMissing logs, in one warning once per worker, the optional socket options its
// sockets lack (listen) and what the worker does without them; nothing when none is
// missing.
func (w *Worker) noteMissing(m missingOpts) {
	if w.warnedMissing || m.allGroups == nil && m.dropCount == nil {
		return
	}
	w.warnedMissing = true
	var errs, effects []string
	if m.allGroups != nil {
		errs = append(errs, m.allGroups.Error())
		effects = append(effects, "the worker drops other sockets' multicast groups itself")
	}
	if m.dropCount != nil {
		errs = append(errs, m.dropCount.Error())
		effects = append(effects, "KernelDrops stays 0")
	}
	w.log.Warn("transport: the kernel lacks optional socket options: "+strings.Join(effects, "; "),
		"err", strings.Join(errs, "; "))
}
