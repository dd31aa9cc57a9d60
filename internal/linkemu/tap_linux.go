package linkemu

import (
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// OpenTAP creates the TAP device name in the calling thread's network namespace and
// returns its file (nonblocking, so reads wait in the netpoller and Close ends them).
// The device goes away when the file is closed.
func OpenTAP(name string) (*os.File, error) {
	fd, err := unix.Open("/dev/net/tun", unix.O_RDWR|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("linkemu: open /dev/net/tun: %w", err)
	}
	ifr, err := unix.NewIfreq(name)
	if err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("linkemu: %w", err)
	}
	ifr.SetUint16(unix.IFF_TAP | unix.IFF_NO_PI)
	if err := unix.IoctlIfreq(fd, unix.TUNSETIFF, ifr); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("linkemu: TUNSETIFF %s: %w", name, err)
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("linkemu: %w", err)
	}
	return os.NewFile(uintptr(fd), "tap-"+name), nil
}

// setCarrier switches the TAP device's carrier on or off.
func setCarrier(f *os.File, on bool) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	v := int32(0)
	if on {
		v = 1
	}
	var ioErr error
	if err := rc.Control(func(fd uintptr) {
		_, _, e := unix.Syscall(unix.SYS_IOCTL, fd, unix.TUNSETCARRIER, uintptr(unsafe.Pointer(&v)))
		if e != 0 {
			ioErr = e
		}
	}); err != nil {
		return err
	}
	if ioErr != nil {
		return fmt.Errorf("linkemu: TUNSETCARRIER: %w", ioErr)
	}
	return nil
}
