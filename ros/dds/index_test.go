//go:build cgo

package dds

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// humbleLocalhost is the configuration Humble's rmw_cyclonedds builds for
// ROS_LOCALHOST_ONLY=1: only 127.0.0.1, everything else Cyclone's default
// (MaxAutoParticipantIndex 9 when lo has no multicast).
const humbleLocalhost = `<CycloneDDS><Domain><General><Interfaces><NetworkInterface address="127.0.0.1"/></Interfaces></General></Domain></CycloneDDS>`

// indexPeer creates a participant with NewLoopbackParticipant, prints its index and
// GUID and holds it until stdin closes (in the domain DDS_TEST_DOMAIN names).
func indexPeer() int {
	domain, _ := strconv.Atoi(os.Getenv("DDS_TEST_DOMAIN"))
	domainIndex := uint32(domain)
	p, err := NewLoopbackParticipant(ParticipantOptions{DomainID: domainIndex, Config: humbleLocalhost})
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	defer p.Close()
	fmt.Println("index", boundIndex(domainIndex, os.Getpid()), p.GUID())
	_, _ = io.Copy(io.Discard, os.Stdin)
	return 0
}

// TestLoopbackParticipantIndexes starts more node processes than Humble's default
// participant indexes (0..9) hold, each on NewLoopbackParticipant: all start, each has its
// own index from LoopbackIndexFirst up (beyond Humble's 9), and a participant configured like a Humble ROS
// tool (ROS_LOCALHOST_ONLY, default indexes) still starts afterwards and discovers
// every one of them.
func TestLoopbackParticipantIndexes(t *testing.T) {
	if lo, err := os.ReadFile("/sys/class/net/lo/flags"); err == nil {
		t.Logf("lo flags %s", strings.TrimSpace(string(lo)))
	}
	domainIndex := takeDomain(t)
	const nodes = 12
	seen := map[int]bool{}
	guids := map[string]bool{}
	for range nodes {
		line := startPeer(t, "DDS_TEST_PEER=index", "DDS_TEST_DOMAIN="+strconv.Itoa(int(domainIndex)), "CYCLONEDDS_URI=")
		f := strings.Fields(line)
		if len(f) != 3 || f[0] != "index" {
			t.Fatalf("node process: %q", line)
		}
		idx, _ := strconv.Atoi(f[1])
		if idx < LoopbackIndexFirst || idx > LoopbackIndexLast || seen[idx] {
			t.Fatalf("node process got index %d (taken before: %v)", idx, seen[idx])
		}
		seen[idx] = true
		guids[f[2]] = true
	}
	tool, err := NewParticipant(ParticipantOptions{DomainID: domainIndex, Config: humbleLocalhost})
	if err != nil {
		t.Fatalf("a Humble tool after %d nodes: %v", nodes, err)
	}
	defer tool.Close()
	deadline := time.Now().Add(20 * time.Second)
	for {
		parts, err := tool.DiscoveredParticipants()
		if err != nil {
			t.Fatal(err)
		}
		found := 0
		for _, p := range parts {
			if guids[p.GUID.String()] {
				found++
			}
		}
		if found == nodes {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tool discovered %d of %d nodes in 20 s", found, nodes)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// boundIndex returns the participant index whose unicast discovery port process pid
// has bound in domain (from /proc), or -1.
func boundIndex(domain uint32, pid int) int {
	inodes := map[string]bool{}
	fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	for _, fd := range fds {
		if l, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name())); err == nil && strings.HasPrefix(l, "socket:[") {
			inodes[strings.TrimSuffix(strings.TrimPrefix(l, "socket:["), "]")] = true
		}
	}
	table, _ := os.ReadFile(fmt.Sprintf("/proc/%d/net/udp", pid))
	for _, line := range strings.Split(string(table), "\n")[1:] {
		f := strings.Fields(line)
		if len(f) < 10 || !inodes[f[9]] {
			continue
		}
		_, hexPort, _ := strings.Cut(f[1], ":")
		port, _ := strconv.ParseUint(hexPort, 16, 16)
		off := int(port) - portBase - portDomainGain*int(domain) - portUnicastDisc
		if off >= 0 && off%portPartGain == 0 && off/portPartGain <= LoopbackIndexLast {
			return off / portPartGain
		}
	}
	return -1
}
