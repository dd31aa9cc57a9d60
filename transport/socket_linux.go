package transport

import (
	"context"
	"encoding/binary"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// sockOpts are the options applied to a socket before bind.
type sockOpts struct {
	device     string // SO_BINDTODEVICE; "" for any interface
	readBuffer int    // SO_RCVBUF(FORCE) in bytes; 0 keeps the system default
	// setInt sets one integer option; nil means unix.SetsockoptInt. Tests set it to play
	// a kernel or an emulator that lacks an option.
	setInt func(fd, level, opt, value int) error
}

// listen opens the worker's UDP socket on 0.0.0.0:port.
//
// Options, all set before bind:
//   - SO_REUSEADDR, so another process (a monitor) can bind the same port;
//     SO_REUSEPORT is deliberately not set (it would load-balance unicast).
//   - SO_BROADCAST, so the socket may send to broadcast addresses.
//   - SO_BINDTODEVICE, so the socket only receives from and only sends through the
//     chosen interface, whatever the routing table says.
//   - IP_PKTINFO, so each datagram reports its destination address and interface.
//   - IP_MULTICAST_ALL off, so the socket receives only the groups it joined itself,
//     not groups other sockets on the same port joined. Where the option is missing
//     (qemu-user, gVisor, WSL 1) the socket opens all the same and listen returns the
//     error in missing.allGroups: the kernel then delivers every group joined on the host, and
//     the worker drops the groups it did not join itself (Worker.otherGroup).
//   - SO_RXQ_OVFL, so each datagram read after the kernel dropped some for this socket
//     (receive buffer full) reports the socket's drop count so far. Where it is missing
//     (qemu-user) the socket opens all the same and KernelDrops stays 0.
func listen(ctx context.Context, port uint16, o sockOpts) (_ *net.UDPConn, missing missingOpts, _ error) {
	lc := net.ListenConfig{Control: func(_, _ string, rc syscall.RawConn) error {
		var serr error
		err := rc.Control(func(fd uintptr) { missing, serr = o.apply(int(fd)) })
		if err != nil {
			return err
		}
		return serr
	}}
	pc, err := lc.ListenPacket(ctx, "udp4", net.JoinHostPort("0.0.0.0", strconv.Itoa(int(port))))
	if err != nil {
		return nil, missingOpts{}, err
	}
	return pc.(*net.UDPConn), missing, nil
}

// missingOpts are the optional options the kernel refused, each with its error; nil
// where the option was set.
type missingOpts struct {
	allGroups error // IP_MULTICAST_ALL stayed on: the worker filters groups (otherGroup)
	dropCount error // no SO_RXQ_OVFL: the kernel's drops for the socket go uncounted
	// mcastIf: no IP_MULTICAST_IF (Worker.open sets it); SO_BINDTODEVICE still sends
	// multicast through the bound interface, which is the same one.
	mcastIf error
}

// apply sets the options on fd and reports the optional ones it could not set; the
// others are required.
func (o sockOpts) apply(fd int) (missing missingOpts, _ error) {
	setInt := o.setInt
	if setInt == nil {
		setInt = unix.SetsockoptInt
	}
	set := func(level, opt, v int, name string) error {
		if err := setInt(fd, level, opt, v); err != nil {
			return fmt.Errorf("setsockopt %s: %w", name, err)
		}
		return nil
	}
	if err := set(unix.SOL_SOCKET, unix.SO_REUSEADDR, 1, "SO_REUSEADDR"); err != nil {
		return missingOpts{}, err
	}
	if err := set(unix.SOL_SOCKET, unix.SO_BROADCAST, 1, "SO_BROADCAST"); err != nil {
		return missingOpts{}, err
	}
	if err := set(unix.IPPROTO_IP, unix.IP_PKTINFO, 1, "IP_PKTINFO"); err != nil {
		return missingOpts{}, err
	}
	missing.allGroups = set(unix.IPPROTO_IP, unix.IP_MULTICAST_ALL, 0, "IP_MULTICAST_ALL")
	missing.dropCount = set(unix.SOL_SOCKET, unix.SO_RXQ_OVFL, 1, "SO_RXQ_OVFL")
	if o.readBuffer > 0 {
		// SO_RCVBUFFORCE lets a privileged process exceed net.core.rmem_max.
		if setInt(fd, unix.SOL_SOCKET, unix.SO_RCVBUFFORCE, o.readBuffer) != nil {
			if err := set(unix.SOL_SOCKET, unix.SO_RCVBUF, o.readBuffer, "SO_RCVBUF"); err != nil {
				return missingOpts{}, err
			}
		}
	}
	if o.device != "" {
		if err := unix.SetsockoptString(fd, unix.SOL_SOCKET, unix.SO_BINDTODEVICE, o.device); err != nil {
			return missingOpts{}, fmt.Errorf("setsockopt SO_BINDTODEVICE %s: %w", o.device, err)
		}
	}
	return missing, nil
}

// oobSize is the control-message buffer for one IP_PKTINFO and one SO_RXQ_OVFL message.
var oobSize = unix.CmsgSpace(unix.SizeofInet4Pktinfo) + unix.CmsgSpace(4)

// control is what the control messages of one received datagram say.
type control struct {
	pktinfo bool // an IP_PKTINFO message was present: ifindex and dst are valid
	ifindex int
	dst     netip.Addr
	// drops is the socket's kernel drop count when the datagram was queued (SO_RXQ_OVFL),
	// valid when hasDrops: the kernel sends it only once it is non-zero, and a cut-short
	// control buffer may lack it, so an absent count never lowers the last one seen.
	drops    uint32
	hasDrops bool
}

// parseControl reads the IP_PKTINFO and SO_RXQ_OVFL messages of one received datagram.
func parseControl(oob []byte) control {
	var c control
	for len(oob) > 0 {
		h, data, rest, err := unix.ParseOneSocketControlMessage(oob)
		if err != nil {
			return c
		}
		oob = rest
		switch {
		case h.Level == unix.IPPROTO_IP && h.Type == unix.IP_PKTINFO && len(data) >= unix.SizeofInet4Pktinfo && !c.pktinfo:
			// struct in_pktinfo { int ipi_ifindex; struct in_addr ipi_spec_dst, ipi_addr; }
			c.ifindex = int(int32(binary.NativeEndian.Uint32(data[0:4])))
			c.dst = netip.AddrFrom4([4]byte(data[8:12]))
			c.pktinfo = true
		case h.Level == unix.SOL_SOCKET && h.Type == unix.SO_RXQ_OVFL && len(data) >= 4:
			c.drops, c.hasDrops = binary.NativeEndian.Uint32(data[0:4]), true
		}
	}
	return c
}

// readBufferSize returns the socket's effective SO_RCVBUF in bytes (the kernel doubles
// the requested size for its bookkeeping and caps requests at net.core.rmem_max unless
// SO_RCVBUFFORCE succeeded).
func readBufferSize(c *net.UDPConn) (int, error) {
	rc, err := c.SyscallConn()
	if err != nil {
		return 0, err
	}
	var n int
	var serr error
	if err := rc.Control(func(fd uintptr) {
		n, serr = unix.GetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_RCVBUF)
	}); err != nil {
		return 0, err
	}
	return n, serr
}

// boundDevice returns the SO_BINDTODEVICE name of a socket, for tests and diagnostics.
func boundDevice(c *net.UDPConn) (string, error) {
	rc, err := c.SyscallConn()
	if err != nil {
		return "", err
	}
	var name string
	var serr error
	if err := rc.Control(func(fd uintptr) {
		name, serr = unix.GetsockoptString(int(fd), unix.SOL_SOCKET, unix.SO_BINDTODEVICE)
	}); err != nil {
		return "", err
	}
	return name, serr
}
