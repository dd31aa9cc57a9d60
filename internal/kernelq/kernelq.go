package kernelq

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Queued returns the bytes waiting in the receive queue of the UDP socket bound to
// port (the rx_queue column of /proc/thread-self/net/udp).
func Queued(port uint16) (uint64, error) {
	const path = "/proc/thread-self/net/udp"
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	local := fmt.Sprintf(":%04X", port)
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 5 || !strings.HasSuffix(f[1], local) {
			continue
		}
		_, rx, _ := strings.Cut(f[4], ":")
		n, err := strconv.ParseUint(rx, 16, 64)
		if err != nil {
			return 0, fmt.Errorf("%s: %q: %v", path, line, err)
		}
		return n, nil
	}
	return 0, fmt.Errorf("no UDP socket on port %d in %s", port, path)
}
