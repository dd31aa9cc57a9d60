package dds

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// Participant indexes of nodes on the loopback interface without multicast. Cyclone
// gives a participant without multicast discovery a participant index, i.e. a pair of
// unicast ports, and looks for peers only at the ports of indexes
// 0..MaxAutoParticipantIndex; Humble's rmw_cyclonedds keeps Cyclone's default of 9,
// so the eleventh participant on a host fails to start. Nodes take the lowest free
// index from LoopbackIndexFirst up to LoopbackIndexLast, which leaves 0..2 to the ROS
// tools (the ros2 CLI and its daemon, launch, rqt) however many nodes run. Nodes at
// 3..9 are found by the tools at once; a tool finds a node beyond 9 when the node
// announces itself to every index, every loopbackSPDPInterval.
const (
	LoopbackIndexFirst = 3
	LoopbackIndexLast  = 59
)

// loopbackSPDPInterval is how often a loopback node announces itself to every index.
const loopbackSPDPInterval = "2s"

// Cyclone's default port mapping (Discovery/Ports): base, domain gain, participant
// gain and the offset of the unicast discovery port (the unicast data port is +1).
const (
	portBase        = 7400
	portDomainGain  = 250
	portPartGain    = 2
	portUnicastDisc = 10
)

// loopbackFragment gives a participant an automatic index up to LoopbackIndexLast and
// unicast discovery of every index up to it on 127.0.0.1.
var loopbackFragment = `<CycloneDDS><Domain><Discovery><ParticipantIndex>auto</ParticipantIndex><MaxAutoParticipantIndex>` +
	strconv.Itoa(LoopbackIndexLast) + `</MaxAutoParticipantIndex><Peers><Peer address="127.0.0.1"/></Peers><SPDPInterval>` + loopbackSPDPInterval +
	`</SPDPInterval></Discovery></Domain></CycloneDDS>`

// NewLoopbackParticipant creates a participant like NewParticipant, for a node on the
// loopback interface: loopbackFragment followed by opts.Config, with the unicast ports
// of indexes 0..LoopbackIndexFirst-1 held by this process while Cyclone picks its
// index, so the node takes the lowest free index from LoopbackIndexFirst up. A port
// someone else holds is left alone (it is taken anyway); dnetwork processes of one
// domain on the host take turns through a lock file in the temporary directory. If the process already has
// the domain, the participant joins it as NewParticipant does.
func NewLoopbackParticipant(opts ParticipantOptions) (*Participant, error) {
	if cfg, ok := processDomainConfig(opts.DomainID); ok {
		opts.Config = cfg
		return NewParticipant(opts)
	}
	if err := ValidateDomainID(int(opts.DomainID)); err != nil {
		return nil, err
	}
	// First, so that a CYCLONEDDS_URI in opts.Config still overrides it.
	opts.Config = loopbackFragment + "," + opts.Config
	// Nodes started at once (a launch file) take turns: otherwise one node's
	// Cyclone could pick an index another node holds for the tools just as that one
	// lets go of it.
	if lock, err := os.OpenFile(filepath.Join(os.TempDir(), fmt.Sprintf("dnetwork-dds-index-%d.lock", opts.DomainID)), os.O_CREATE|os.O_RDWR, 0o666); err == nil {
		defer lock.Close()
		if syscall.Flock(int(lock.Fd()), syscall.LOCK_EX) == nil {
			defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
		}
	}
	var held []net.PacketConn
	for idx := range LoopbackIndexFirst {
		held = append(held, holdPorts(opts.DomainID, idx)...)
	}
	p, err := NewParticipant(opts)
	for _, c := range held {
		c.Close()
	}
	return p, err
}

// holdPorts binds those of the unicast discovery and data ports of index idx in
// domain that are free.
func holdPorts(domain uint32, idx int) []net.PacketConn {
	disc := portBase + portDomainGain*int(domain) + portUnicastDisc + portPartGain*idx
	var held []net.PacketConn
	for _, port := range []int{disc, disc + 1} {
		if c, err := net.ListenPacket("udp4", ":"+strconv.Itoa(port)); err == nil {
			held = append(held, c)
		}
	}
	return held
}
