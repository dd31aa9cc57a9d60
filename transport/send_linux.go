package transport

import (
	"net/netip"
	"os"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Raw sends. A send on the node's sockets never blocks: the sockets are nonblocking and
// sendto(2) gets MSG_DONTWAIT. It is therefore made as a raw system call, which does not
// tell Go's scheduler it is entering the kernel: the scheduler neither hands the
// goroutine's processor to another thread nor wakes its monitor thread for it, and a
// send costs one system call instead of several thread wake-ups on an idle node. When
// the send buffer is full (EAGAIN), RawConn.Write waits in the netpoller for room, as
// the net package's own writes do. The same holds for batched reads (batch.recv).

// sender is the state of raw sends on one socket. Its mutex serialises senders, so the
// destination and bytes it holds stay put during one system call, and sendFn is made
// once so a send allocates nothing.
type sender struct {
	mu     sync.Mutex
	rc     syscall.RawConn
	sa     unix.RawSockaddrInet4
	b      []byte
	err    error
	sendFn func(fd uintptr) bool // s.send

	// sendToEach's: a header and an address per destination, one iovec for all.
	hs         []mmsghdr
	sas        []unix.RawSockaddrInet4
	iov        unix.Iovec
	from, sent int
	sendEachFn func(fd uintptr) bool // s.sendEach
}

func newSender(rc syscall.RawConn) *sender {
	s := &sender{rc: rc, sa: unix.RawSockaddrInet4{Family: unix.AF_INET}}
	s.sendFn = s.send
	s.sendEachFn = s.sendEach
	return s
}

// sendTo sends b to the IPv4 address dst.
func (s *sender) sendTo(b []byte, dst netip.AddrPort) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	setInet4(&s.sa, dst)
	s.b = b
	err := s.rc.Write(s.sendFn)
	s.b = nil
	if err != nil {
		return err
	}
	return s.err
}

// send is the body of one RawConn.Write: sendto without blocking, false to wait until
// the socket is writable.
func (s *sender) send(fd uintptr) bool {
	var base unsafe.Pointer
	if len(s.b) > 0 {
		base = unsafe.Pointer(&s.b[0])
	}
	for {
		_, _, e := unix.RawSyscall6(unix.SYS_SENDTO, fd, uintptr(base), uintptr(len(s.b)),
			unix.MSG_DONTWAIT, uintptr(unsafe.Pointer(&s.sa)), unix.SizeofSockaddrInet4)
		switch e {
		case 0:
			s.err = nil
			return true
		case unix.EINTR:
			continue
		case unix.EAGAIN:
			return false
		}
		s.err = os.NewSyscallError("sendto", e)
		return true
	}
}

// setInet4 puts the IPv4 address and port of dst into sa (the port in network order).
func setInet4(sa *unix.RawSockaddrInet4, dst netip.AddrPort) {
	sa.Addr = dst.Addr().As4()
	p := (*[2]byte)(unsafe.Pointer(&sa.Port))
	p[0], p[1] = byte(dst.Port()>>8), byte(dst.Port())
}

// sendToEach sends b to each IPv4 destination of dsts with sendmmsg(2), in as few calls
// as the kernel allows, and sets errs[i] to the error of dsts[i] (nil: sent). The
// kernel stops a batch at the first message that fails after others were sent and
// reports the sent ones alone; the next call starts with the failed one, which then
// reports its own error, and goes on after it. len(errs) >= len(dsts).
func (s *sender) sendToEach(b []byte, dsts []netip.AddrPort, errs []error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cap(s.hs) < len(dsts) {
		s.hs = make([]mmsghdr, len(dsts))
		s.sas = make([]unix.RawSockaddrInet4, len(dsts))
	}
	s.hs, s.sas = s.hs[:len(dsts)], s.sas[:len(dsts)]
	s.iov = unix.Iovec{}
	if len(b) > 0 {
		s.iov.Base = &b[0]
	}
	s.iov.SetLen(len(b))
	for i, dst := range dsts {
		sa := &s.sas[i]
		*sa = unix.RawSockaddrInet4{Family: unix.AF_INET}
		setInet4(sa, dst)
		s.hs[i] = mmsghdr{hdr: unix.Msghdr{Name: (*byte)(unsafe.Pointer(sa)), Namelen: unix.SizeofSockaddrInet4, Iov: &s.iov, Iovlen: 1}}
	}
	for i := 0; i < len(dsts); {
		s.from = i
		if err := s.rc.Write(s.sendEachFn); err != nil {
			for ; i < len(dsts); i++ {
				errs[i] = err
			}
			break
		}
		for range s.sent {
			errs[i] = nil
			i++
		}
		if s.err != nil {
			errs[i] = s.err
			i++
		}
	}
	s.iov = unix.Iovec{}
	clear(s.hs) // no pointer into b or the addresses outlives the call
}

// sendEach is the body of one RawConn.Write of sendToEach: sendmmsg from s.from without
// blocking, false to wait until the socket is writable (nothing was sent). It sets
// s.sent, and s.err when the first message failed.
func (s *sender) sendEach(fd uintptr) bool {
	for {
		n, _, e := unix.RawSyscall6(unix.SYS_SENDMMSG, fd, uintptr(unsafe.Pointer(&s.hs[s.from])), uintptr(len(s.hs)-s.from),
			unix.MSG_DONTWAIT, 0, 0)
		switch e {
		case 0:
			s.sent, s.err = int(n), nil
			return true
		case unix.EINTR:
			continue
		case unix.EAGAIN:
			return false
		}
		s.sent, s.err = 0, os.NewSyscallError("sendmmsg", e)
		return true
	}
}
