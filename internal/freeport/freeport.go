package freeport

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// ErrNoPorts is returned when no free port is left in the range.
var ErrNoPorts = errors.New("freeport: no free UDP port")

// minRange is the fewest ports above the ephemeral range worth handing out; on a
// machine with less room the kernel's own choice is used instead (port 0).
const minRange = 512

// counterFile is the file in dir that holds the next port's index for every process
// of the machine's user; its name ends in the user's id (counterPath), so that a second
// user is not refused the first one's file in the shared temp directory.
const counterFile = "dnetwork-freeport"

// counterPath is the path of this user's counter file.
func counterPath() string {
	return filepath.Join(dir, counterFile+"-"+strconv.Itoa(os.Getuid()))
}

// dir is where counterFile is (tests of this package use their own).
var dir = os.TempDir()

// UDP returns n distinct ports that were free for UDP on every address a moment ago,
// taken in turn above the kernel's ephemeral range.
func UDP(n int) ([]uint16, error) {
	first, last := portRange()
	if last-first+1 < minRange {
		return kernelPorts(n)
	}
	f, err := os.OpenFile(counterPath(), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("freeport: %w", err)
	}
	defer f.Close() // and unlocks
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return nil, fmt.Errorf("freeport: lock %s: %w", f.Name(), err)
	}
	buf := make([]byte, 32)
	k, _ := f.ReadAt(buf, 0)
	next, _ := strconv.Atoi(strings.TrimSpace(string(buf[:k])))
	size := last - first + 1
	ports := make([]uint16, 0, n)
	for tries := 0; len(ports) < n; tries++ {
		if tries == size {
			return nil, fmt.Errorf("%w in %d..%d", ErrNoPorts, first, last)
		}
		p := uint16(first + (next%size+size)%size)
		next++
		if free(p) {
			ports = append(ports, p)
		}
	}
	if err := f.Truncate(0); err != nil {
		return nil, fmt.Errorf("freeport: %w", err)
	}
	if _, err := f.WriteAt([]byte(strconv.Itoa(next%size)+"\n"), 0); err != nil {
		return nil, fmt.Errorf("freeport: %w", err)
	}
	return ports, nil
}

// portRange returns the ports above the kernel's ephemeral range (Linux's default,
// 32768..60999, where the file cannot be read).
func portRange() (first, last int) {
	hi := 60999
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			if v, err := strconv.Atoi(f[1]); err == nil {
				hi = v
			}
		}
	}
	return hi + 1, 65535
}

// free reports whether UDP port p can be bound on every address now.
func free(p uint16) bool {
	c, err := net.ListenUDP("udp4", &net.UDPAddr{Port: int(p)})
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// kernelPorts returns n ports the kernel chose (bound to port 0 together, then closed).
func kernelPorts(n int) ([]uint16, error) {
	var conns []*net.UDPConn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	ports := make([]uint16, 0, n)
	for range n {
		c, err := net.ListenUDP("udp4", &net.UDPAddr{})
		if err != nil {
			return nil, fmt.Errorf("freeport: %w", err)
		}
		conns = append(conns, c)
		ports = append(ports, uint16(c.LocalAddr().(*net.UDPAddr).Port))
	}
	return ports, nil
}
