package transport

import (
	"fmt"
	"net/netip"
	"os"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
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
	if w.warnedMissing || m == (missingOpts{}) {
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
	if m.mcastIf != nil {
		errs = append(errs, "IP_MULTICAST_IF: "+m.mcastIf.Error())
		effects = append(effects, "multicast leaves through the bound interface")
	}
	w.log.Warn("transport: the kernel lacks optional socket options: "+strings.Join(effects, "; "),
		"err", strings.Join(errs, "; "))
}

// membership joins (IP_ADD_MEMBERSHIP) or leaves (IP_DROP_MEMBERSHIP) group g on the
// socket's interface, named by its address (0.0.0.0, the routing table's choice, for
// any interface). This is IPv4's own option with struct ip_mreq, not the protocol-
// independent MCAST_JOIN_GROUP nor struct ip_mreqn with an index: the kernel treats
// them alike, and qemu-user 7.2 emulates only this form for 64-bit guests.
func (s *socket) membership(opt int, g netip.Addr) error {
	rc, err := s.conn.SyscallConn()
	if err != nil {
		return err
	}
	mreq := unix.IPMreq{Multiaddr: g.As4()}
	if !s.choice.IsAny() {
		mreq.Interface = s.choice.Addr.Addr().As4()
	}
	var serr error
	if err := rc.Control(func(fd uintptr) {
		serr = unix.SetsockoptIPMreq(int(fd), unix.IPPROTO_IP, opt, &mreq)
	}); err != nil {
		return err
	}
	if serr != nil {
		return os.NewSyscallError("setsockopt", serr)
	}
	return nil
}
