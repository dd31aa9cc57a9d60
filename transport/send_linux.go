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
}

func newSender(rc syscall.RawConn) *sender {
	s := &sender{rc: rc, sa: unix.RawSockaddrInet4{Family: unix.AF_INET}}
	s.sendFn = s.send
	return s
}

// sendTo sends b to the IPv4 address dst.
func (s *sender) sendTo(b []byte, dst netip.AddrPort) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sa.Addr = dst.Addr().As4()
	port := dst.Port()
	p := (*[2]byte)(unsafe.Pointer(&s.sa.Port))
	p[0], p[1] = byte(port>>8), byte(port)
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
