package transport

import (
	"encoding/binary"
	"net/netip"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Batched reads: one recvmmsg(2) takes every datagram already queued on the socket, up
// to the batch's size, each with its own source address, control messages (IP_PKTINFO,
// SO_RXQ_OVFL) and flags. The batch's memory is allocated once per worker, and the
// source addresses are decoded without allocating.

// batchBytes bounds the receive buffers of one batch; a batch holds at most maxBatch
// datagrams.
const (
	batchBytes = 256 << 10
	maxBatch   = 32
)

// mmsghdr is struct mmsghdr of recvmmsg(2).
type mmsghdr struct {
	hdr unix.Msghdr
	n   uint32
}

// batch is the state of batched reads on one worker.
type batch struct {
	hs    []mmsghdr
	iovs  []unix.Iovec
	bufs  [][]byte
	oobs  [][]byte
	names []unix.RawSockaddrInet6 // room for either family

	recvFn func(fd uintptr) bool // b.recv
	err    error                 // the error that ended the last read
	used   int                   // messages the kernel filled since the last reset
	// deliver handles the first n messages of a read and reports whether the read
	// should end (so the caller can do something else) instead of waiting for more.
	deliver func(n int) (leave bool)
}

// newBatch returns a batch whose buffers hold max+1 bytes (one spare byte reveals an
// oversize datagram).
func newBatch(max int) *batch {
	n := min(maxBatch, 1+batchBytes/(max+1))
	b := &batch{
		hs:    make([]mmsghdr, n),
		iovs:  make([]unix.Iovec, n),
		bufs:  make([][]byte, n),
		oobs:  make([][]byte, n),
		names: make([]unix.RawSockaddrInet6, n),
	}
	for i := range n {
		b.bufs[i] = make([]byte, max+1)
		b.oobs[i] = make([]byte, oobSize)
		b.iovs[i].Base = &b.bufs[i][0]
		b.iovs[i].SetLen(len(b.bufs[i]))
		h := &b.hs[i].hdr
		h.Iov = &b.iovs[i]
		h.SetIovlen(1)
		h.Name = (*byte)(unsafe.Pointer(&b.names[i]))
		h.Control = &b.oobs[i][0]
		b.reset(i)
	}
	b.recvFn = b.recv
	return b
}

// reset restores the name and control lengths and the flags of message i.
func (b *batch) reset(i int) {
	h := &b.hs[i]
	h.hdr.Namelen = uint32(unsafe.Sizeof(b.names[i]))
	h.hdr.SetControllen(len(b.oobs[i]))
	h.hdr.Flags = 0
	h.n = 0
}

// read reads datagrams and hands each read's to deliver until deliver asks to leave
// (nil), a read fails (its error), or the wait fails: the read deadline passed or the
// socket closed.
//
// It stays in one RawConn.Read call, waiting in the netpoller whenever a read took
// fewer datagrams than the batch holds, since the socket was empty then. Leaving the
// call after each read, as a read loop would, makes every next call start with a
// read that finds nothing (EAGAIN): Read forgets, on entry, a readiness the netpoller
// reported meanwhile, so it must look for itself before waiting. Inside one call no
// report is forgotten: the netpoller watches the socket edge-triggered, the kernel
// reports it for every datagram that arrives after a read, and one reported while a
// batch is delivered ends the next wait at once. A robot that receives one datagram
// at a time thus makes one system call per datagram, not two.
func (b *batch) read(rc syscall.RawConn) error {
	b.err = nil
	if err := rc.Read(b.recvFn); err != nil {
		return err
	}
	return b.err
}

// recv is the body of read's RawConn.Read: recvmmsg without blocking, deliver, and
// false to wait until the socket is readable again. It is kept as a func value
// (recvFn) so that reads allocate nothing.
func (b *batch) recv(fd uintptr) bool {
	for {
		// The kernel rewrote the lengths and flags of the messages it filled last time.
		for i := range b.used {
			b.reset(i)
		}
		b.used = 0
		// A raw system call, as for sends (send_linux.go): MSG_DONTWAIT never blocks.
		r, _, e := unix.RawSyscall6(unix.SYS_RECVMMSG, fd, uintptr(unsafe.Pointer(&b.hs[0])), uintptr(len(b.hs)),
			unix.MSG_DONTWAIT, 0, 0)
		switch e {
		case 0:
			n := int(r)
			b.used = n
			if b.deliver(n) {
				return true
			}
			if n < len(b.hs) {
				return false // the socket was empty: wait for the next datagram
			}
			continue // a full batch: more may be queued
		case unix.EINTR:
			continue
		case unix.EAGAIN:
			return false
		}
		b.err = e
		return true
	}
}

// message returns datagram i of the last read: its bytes (the whole buffer; the
// datagram is the first n), length, control messages, flags and source.
func (b *batch) message(i int) (buf []byte, n int, oob []byte, flags int, src netip.AddrPort) {
	h := &b.hs[i]
	return b.bufs[i], int(h.n), b.oobs[i][:h.hdr.Controllen], int(h.hdr.Flags), b.source(i)
}

// source decodes the source address of datagram i.
func (b *batch) source(i int) netip.AddrPort {
	sa := &b.names[i]
	switch sa.Family {
	case unix.AF_INET:
		sa4 := (*unix.RawSockaddrInet4)(unsafe.Pointer(sa))
		port := (*[2]byte)(unsafe.Pointer(&sa4.Port))
		return netip.AddrPortFrom(netip.AddrFrom4(sa4.Addr), binary.BigEndian.Uint16(port[:]))
	case unix.AF_INET6:
		port := (*[2]byte)(unsafe.Pointer(&sa.Port))
		return netip.AddrPortFrom(netip.AddrFrom16(sa.Addr), binary.BigEndian.Uint16(port[:]))
	}
	return netip.AddrPort{}
}
