package ros

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/robocup-dnetwork/dnetwork/ros/cdr"
	"github.com/robocup-dnetwork/dnetwork/ros/dds"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/rmw_dds_common"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/rmw_dds_common_humble"
)

// BuildDistro is the ROS_DISTRO of the ROS 2 installation the binary was built
// against, recorded by the colcon build (package/CMakeLists.txt links it in with
// -ldflags "-X ...ros.BuildDistro=<distro>"); empty for a plain go build.
var BuildDistro string

// DetectWindow bounds how long a node whose environment has no ROS_DISTRO listens to
// ros_discovery_info for the GID layout of the other participants of its domain.
const DetectWindow = 1500 * time.Millisecond

// DistroChoice is the distro a node follows and why.
type DistroChoice struct {
	Distro Distro
	// Reason says where the choice came from, for the log.
	Reason string
}

// String gives the log line's text, e.g. `humble conventions (24-byte GIDs): ROS_DISTRO=humble`.
func (c DistroChoice) String() string {
	return fmt.Sprintf("%s conventions (%d-byte GIDs in %s): %s", c.Distro.Name, c.Distro.GIDSize, DiscoveryTopic, c.Reason)
}

// distroSource is what chooseDistro may consult besides ROS_DISTRO.
type distroSource struct {
	build     string                      // BuildDistro
	installed func() []string             // ROS 2 installations on this machine (/opt/ros/*)
	detect    func() (gidSize int, n int) // GID size the domain uses and how many participants showed it; 0 if none
	// localhostOnly: ROS_LOCALHOST_ONLY=1 without ROS_AUTOMATIC_DISCOVERY_RANGE, the
	// environment of a Humble setup (Jazzy's replaces it with the range).
	localhostOnly bool
}

// localhostOnlyHint reports a Humble-style environment: ROS_LOCALHOST_ONLY=1 and no
// ROS_AUTOMATIC_DISCOVERY_RANGE.
func localhostOnlyHint(getenv func(string) string) bool {
	return strings.TrimSpace(getenv("ROS_LOCALHOST_ONLY")) == "1" && strings.TrimSpace(getenv("ROS_AUTOMATIC_DISCOVERY_RANGE")) == ""
}

// candidateDistro is the distro a node starts with before it has looked at its
// domain: ROS_DISTRO, else the one recorded at build time, else the only ROS 2
// installed, else humble in a Humble-style environment (ROS_LOCALHOST_ONLY=1 without
// a discovery range), else DefaultDistro. Only its discovery settings are used before
// chooseDistro decides.
func candidateDistro(env string, src distroSource) (Distro, string, error) {
	if env != "" {
		d, err := ParseDistro(env)
		return d, "ROS_DISTRO=" + d.Name, err
	}
	if src.build != "" {
		d, err := ParseDistro(src.build)
		return d, "ROS_DISTRO unset; built against " + d.Name + " (recorded by the colcon build)", err
	}
	if src.installed != nil {
		if names := src.installed(); len(names) == 1 {
			if d, err := ParseDistro(names[0]); err == nil {
				return d, "ROS_DISTRO unset; the only ROS 2 installed is /opt/ros/" + names[0], nil
			}
		}
	}
	if src.localhostOnly {
		d, err := ParseDistro("humble")
		return d, "ROS_DISTRO unset; ROS_LOCALHOST_ONLY=1 without ROS_AUTOMATIC_DISCOVERY_RANGE is Humble's setting", err
	}
	d, err := ParseDistro(DefaultDistro)
	return d, "ROS_DISTRO unset, no distro recorded at build time; default " + DefaultDistro, err
}

// chooseDistro decides the conventions of a node. ROS_DISTRO, when set, is taken as it
// is (a real ROS process of that distro uses the same). Without it the node listens to
// its domain: the participants already there decide the GID layout, because a node of
// the other layout would break the graph of every ROS tool on the domain; with nobody
// to listen to, the candidate (build-time distro, the only installed distro, default)
// stands.
func chooseDistro(env string, src distroSource) (DistroChoice, error) {
	d, reason, err := candidateDistro(env, src)
	if err != nil || env != "" || src.detect == nil {
		return DistroChoice{d, reason}, err
	}
	size, seen := src.detect()
	switch {
	case seen == 0:
		return DistroChoice{d, reason + "; no other ROS participant heard within " + DetectWindow.String()}, nil
	case size == d.GIDSize:
		return DistroChoice{d, fmt.Sprintf("%s; the %d participant(s) heard on %s agree", reason, seen, DiscoveryTopic)}, nil
	}
	other := "humble"
	if size == 16 {
		other = DefaultDistro
	}
	od, _ := ParseDistro(other)
	return DistroChoice{od, fmt.Sprintf("ROS_DISTRO unset; the %d participant(s) heard on %s use %d-byte GIDs (candidate was %s: %s)",
		seen, DiscoveryTopic, size, d.Name, reason)}, nil
}

// installedDistros lists the ROS 2 installations under /opt/ros (directories holding
// setup.bash).
func installedDistros() []string {
	dirs, _ := filepath.Glob("/opt/ros/*/setup.bash")
	var names []string
	for _, f := range dirs {
		names = append(names, filepath.Base(filepath.Dir(f)))
	}
	return names
}

// GIDSizeOf returns the GID size of a ros_discovery_info sample (encapsulation header
// included): 24 (Humble) or 16 (Iron and later), or 0 when the sample decodes in
// neither layout or in both. A layout counts only if it consumes the whole sample
// (up to 3 bytes of zero padding) and, for Humble, the GIDs' last 8 bytes are zero as
// rmw_cyclonedds and rmw_fastrtps write them.
func GIDSizeOf(sample []byte) int {
	humble, jazzy := fitsHumble(sample), fitsJazzy(sample)
	switch {
	case humble && !jazzy:
		return 24
	case jazzy && !humble:
		return 16
	}
	return 0
}

func fitsJazzy(b []byte) bool {
	var d cdr.Decoder
	if d.Reset(b) != nil {
		return false
	}
	var m rmw_dds_common.ParticipantEntitiesInfo
	return m.UnmarshalCDR(&d) == nil && onlyPadding(b, d.Remaining())
}

func fitsHumble(b []byte) bool {
	var d cdr.Decoder
	if d.Reset(b) != nil {
		return false
	}
	var m rmw_dds_common_humble.ParticipantEntitiesInfo
	if m.UnmarshalCDR(&d) != nil || !onlyPadding(b, d.Remaining()) {
		return false
	}
	gids := []rmw_dds_common_humble.Gid{m.GID}
	for _, n := range m.NodeEntitiesInfoSeq {
		gids = append(gids, n.ReaderGIDSeq...)
		gids = append(gids, n.WriterGIDSeq...)
	}
	for _, g := range gids {
		for _, x := range g.Data[16:] {
			if x != 0 {
				return false
			}
		}
	}
	return true
}

// onlyPadding reports whether the last rest bytes of b are at most 3 zero bytes.
func onlyPadding(b []byte, rest int) bool {
	if rest < 0 || rest > 3 {
		return false
	}
	for _, x := range b[len(b)-rest:] {
		if x != 0 {
			return false
		}
	}
	return true
}

// detectGIDSize listens on ros_discovery_info of p's domain for up to window and
// returns the GID size the other participants use and how many showed it. It returns
// as soon as one participant has been heard and nothing more arrives for a short
// while; a domain whose participants disagree yields the majority.
func detectGIDSize(ctx context.Context, p *dds.Participant, window time.Duration) (int, int) {
	var mu sync.Mutex
	votes := map[int]map[dds.InstanceHandle]bool{}
	heard := make(chan struct{}, 1)
	var info cdr.Message = &rmw_dds_common.ParticipantEntitiesInfo{}
	r, err := p.NewReader(DiscoveryTopic, info.DDSTypeName(), qosDiscoveryReader, func(s dds.Sample) {
		size := GIDSizeOf(s.Data)
		if size == 0 {
			return
		}
		mu.Lock()
		if votes[size] == nil {
			votes[size] = map[dds.InstanceHandle]bool{}
		}
		votes[size][s.Publication] = true
		mu.Unlock()
		select {
		case heard <- struct{}{}:
		default:
		}
	})
	if err != nil {
		return 0, 0
	}
	defer r.Close()
	deadline := time.NewTimer(window)
	defer deadline.Stop()
	var quiet <-chan time.Time // after the last sample, a short wait for more
wait:
	for {
		select {
		case <-ctx.Done():
			return 0, 0
		case <-deadline.C:
			break wait
		case <-heard:
			quiet = time.After(200 * time.Millisecond)
		case <-quiet:
			break wait
		}
	}
	mu.Lock()
	defer mu.Unlock()
	best, n := 0, 0
	for size, who := range votes {
		if len(who) > n {
			best, n = size, len(who)
		}
	}
	return best, n
}
