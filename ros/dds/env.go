package dds

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// MaxDomainID is the largest DDS domain id ROS 2 accepts. Cyclone derives the UDP
// ports from it (7400 + 250·id + …), so larger ids do not fit the port range.
const MaxDomainID = 232

// ValidateDomainID reports a domain id outside 0..MaxDomainID.
func ValidateDomainID(id int) error {
	if id < 0 || id > MaxDomainID {
		return fmt.Errorf("%w: %d not in 0..%d", ErrDomainID, id, MaxDomainID)
	}
	return nil
}

// DiscoveryRange is ROS_AUTOMATIC_DISCOVERY_RANGE (ROS 2 Iron and later).
type DiscoveryRange uint8

// Discovery ranges. RangeUnset leaves discovery to Cyclone's own configuration, which
// is what Humble does unless ROS_LOCALHOST_ONLY=1.
const (
	RangeUnset DiscoveryRange = iota
	RangeSubnet
	RangeLocalhost
	RangeOff
	RangeSystemDefault
)

func (r DiscoveryRange) String() string {
	switch r {
	case RangeUnset:
		return "unset"
	case RangeSubnet:
		return "SUBNET"
	case RangeLocalhost:
		return "LOCALHOST"
	case RangeOff:
		return "OFF"
	case RangeSystemDefault:
		return "SYSTEM_DEFAULT"
	}
	return fmt.Sprintf("DiscoveryRange(%d)", uint8(r))
}

// Discovery is the discovery set-up rmw_cyclonedds derives from the ROS environment.
type Discovery struct {
	// LocalhostOnly is Humble's ROS_LOCALHOST_ONLY=1: the only interface is 127.0.0.1.
	LocalhostOnly bool
	// Range is the Iron/Jazzy automatic discovery range.
	Range DiscoveryRange
	// StaticPeers are ROS_STATIC_PEERS (Iron/Jazzy), used with SUBNET and LOCALHOST.
	StaticPeers []string
}

// Env is what a ROS 2 node on Cyclone reads from its environment.
type Env struct {
	DomainID  uint32    // ROS_DOMAIN_ID, default 0
	Discovery Discovery // ROS_LOCALHOST_ONLY, ROS_AUTOMATIC_DISCOVERY_RANGE, ROS_STATIC_PEERS
	URI       string    // CYCLONEDDS_URI: Cyclone configuration files and/or XML fragments
}

// legacyDistro reports distros whose rmw_cyclonedds knows only ROS_LOCALHOST_ONLY.
func legacyDistro(distro string) bool {
	switch strings.ToLower(distro) {
	case "humble", "galactic", "foxy":
		return true
	}
	return false
}

// ReadEnv reads the ROS environment through getenv (os.Getenv in production) the way
// rmw_cyclonedds of the given ROS distro interprets it:
//
//	ROS_DOMAIN_ID                  0..232, default 0
//	ROS_LOCALHOST_ONLY=1           humble: interface 127.0.0.1 only;
//	                               iron/jazzy: range LOCALHOST unless a range is set
//	ROS_AUTOMATIC_DISCOVERY_RANGE  iron/jazzy: SUBNET (default), LOCALHOST, OFF, SYSTEM_DEFAULT
//	ROS_STATIC_PEERS               iron/jazzy: peer addresses separated by ';'
//	CYCLONEDDS_URI                 appended to the configuration, as Cyclone itself would read it
func ReadEnv(getenv func(string) string, distro string) (Env, error) {
	var env Env
	if s := strings.TrimSpace(getenv("ROS_DOMAIN_ID")); s != "" {
		id, err := strconv.Atoi(s)
		if err != nil {
			return Env{}, fmt.Errorf("%w: ROS_DOMAIN_ID=%q is not a number", ErrEnv, s)
		}
		if err := ValidateDomainID(id); err != nil {
			return Env{}, fmt.Errorf("ROS_DOMAIN_ID: %w", err)
		}
		env.DomainID = uint32(id)
	}
	localhost := false
	switch s := strings.TrimSpace(getenv("ROS_LOCALHOST_ONLY")); s {
	case "", "0":
	case "1":
		localhost = true
	default:
		return Env{}, fmt.Errorf("%w: ROS_LOCALHOST_ONLY=%q (want 0 or 1)", ErrEnv, s)
	}
	if legacyDistro(distro) {
		env.Discovery.LocalhostOnly = localhost
	} else {
		switch s := strings.TrimSpace(getenv("ROS_AUTOMATIC_DISCOVERY_RANGE")); strings.ToUpper(s) {
		case "":
			env.Discovery.Range = RangeSubnet
			if localhost {
				env.Discovery.Range = RangeLocalhost
			}
		case "SUBNET":
			env.Discovery.Range = RangeSubnet
		case "LOCALHOST":
			env.Discovery.Range = RangeLocalhost
		case "OFF":
			env.Discovery.Range = RangeOff
		case "SYSTEM_DEFAULT":
			env.Discovery.Range = RangeSystemDefault
		default:
			return Env{}, fmt.Errorf("%w: ROS_AUTOMATIC_DISCOVERY_RANGE=%q (want SUBNET, LOCALHOST, OFF or SYSTEM_DEFAULT)", ErrEnv, s)
		}
		for _, p := range strings.Split(getenv("ROS_STATIC_PEERS"), ";") {
			if p = strings.TrimSpace(p); p != "" {
				env.Discovery.StaticPeers = append(env.Discovery.StaticPeers, p)
			}
		}
	}
	env.URI = getenv("CYCLONEDDS_URI")
	return env, nil
}

// Config returns the configuration string for dds_create_domain: the discovery
// fragment, if any, then CYCLONEDDS_URI, separated by a comma (Cyclone ignores empty
// fragments). This is the same string rmw_cyclonedds builds, so the node and the ROS
// tools behave alike with the same environment.
func (e Env) Config() string {
	frag := e.Discovery.fragment(os.Getpid())
	if frag == "" {
		return e.URI
	}
	return frag + "," + e.URI
}

func (d Discovery) fragment(pid int) string {
	if d.LocalhostOnly {
		return `<CycloneDDS><Domain><General><Interfaces><NetworkInterface address="127.0.0.1"/></Interfaces></General></Domain></CycloneDDS>`
	}
	var localhostPeer, staticPeers, noMulticast bool
	switch d.Range {
	case RangeSubnet:
		staticPeers = true
	case RangeLocalhost:
		localhostPeer, staticPeers, noMulticast = true, true, true
	case RangeOff:
		noMulticast = true
	default: // unset, system default: leave Cyclone's configuration alone
		return ""
	}
	peers := staticPeers && len(d.StaticPeers) > 0 || localhostPeer
	var b strings.Builder
	b.WriteString("<CycloneDDS><Domain>")
	if noMulticast {
		b.WriteString("<General><AllowMulticast>false</AllowMulticast></General>")
	}
	if noMulticast && !localhostPeer && !staticPeers {
		// OFF: a private tag that no other process shares blocks all discovery.
		fmt.Fprintf(&b, "<Discovery><ParticipantIndex>none</ParticipantIndex><Tag>ros_discovery_off_%d</Tag>", pid)
	} else {
		b.WriteString("<Discovery><ParticipantIndex>auto</ParticipantIndex><MaxAutoParticipantIndex>32</MaxAutoParticipantIndex>")
	}
	if peers {
		b.WriteString("<Peers>")
		if localhostPeer {
			b.WriteString(`<Peer address="localhost"/>`)
		}
		if staticPeers {
			for _, p := range d.StaticPeers {
				b.WriteString(`<Peer address="`)
				b.WriteString(xmlEscape(p))
				b.WriteString(`"/>`)
			}
		}
		b.WriteString("</Peers>")
	}
	b.WriteString("</Discovery></Domain></CycloneDDS>")
	return b.String()
}

func xmlEscape(s string) string {
	var buf bytes.Buffer
	_ = xml.EscapeText(&buf, []byte(s)) // writes to a bytes.Buffer never fail
	return buf.String()
}
