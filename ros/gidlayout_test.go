//go:build cgo

package ros

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/ros/cdr"
	"github.com/robocup-dnetwork/dnetwork/ros/dds"
)

func TestGIDSizeOf(t *testing.T) {
	humble, _ := ParseDistro("humble")
	jazzy, _ := ParseDistro("jazzy")
	guid := dds.GUID{1, 16, 0xab, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 0, 1, 0xc1}
	nodeSets := map[string][]NodeEntities{
		"no nodes":  nil,
		"one node":  {{Namespace: "/", Name: "dnetwork_3", Readers: []dds.GUID{guid}, Writers: []dds.GUID{guid, guid}}},
		"two nodes": {{Namespace: "/robot1", Name: "a"}, {Namespace: "/", Name: "bb", Writers: []dds.GUID{guid}}},
	}
	for name, nodes := range nodeSets {
		for _, d := range []Distro{humble, jazzy} {
			b, err := cdr.Append(nil, d.discoveryMessage(guid, nodes))
			if err != nil {
				t.Fatal(err)
			}
			if got := GIDSizeOf(b); got != d.GIDSize {
				t.Errorf("%s, %s layout (%d bytes): GIDSizeOf = %d, want %d", name, d.Name, len(b), got, d.GIDSize)
			}
			// Cyclone may hand samples over with up to 3 bytes of padding.
			if got := GIDSizeOf(append(bytes.Clone(b), 0, 0, 0)); got != d.GIDSize {
				t.Errorf("%s, %s layout padded: GIDSizeOf = %d", name, d.Name, got)
			}
			if got := GIDSizeOf(b[:len(b)-1]); got != 0 {
				t.Errorf("%s, %s layout cut short: GIDSizeOf = %d, want 0", name, d.Name, got)
			}
		}
	}
	if got := GIDSizeOf([]byte{0, 1, 0, 0}); got != 0 {
		t.Errorf("empty body: %d", got)
	}
}

func TestChooseDistro(t *testing.T) {
	none := func() (int, int) { return 0, 0 }
	humbleDomain := func() (int, int) { return 24, 2 }
	jazzyDomain := func() (int, int) { return 16, 1 }
	cases := []struct {
		env    string
		src    distroSource
		want   string
		reason string
	}{
		{"humble", distroSource{build: "jazzy", detect: jazzyDomain}, "humble", "ROS_DISTRO=humble"},
		{"", distroSource{build: "humble", detect: none}, "humble", "recorded by the colcon build"},
		{"", distroSource{build: "humble", detect: jazzyDomain}, "jazzy", "use 16-byte GIDs"},
		{"", distroSource{build: "jazzy", detect: humbleDomain}, "humble", "use 24-byte GIDs"},
		{"", distroSource{build: "jazzy", detect: jazzyDomain}, "jazzy", "agree"},
		{"", distroSource{installed: func() []string { return []string{"humble"} }, detect: none}, "humble", "only ROS 2 installed"},
		{"", distroSource{installed: func() []string { return []string{"humble", "jazzy"} }, detect: none}, DefaultDistro, "default"},
		{"", distroSource{}, DefaultDistro, "default"},
		{"", distroSource{localhostOnly: true, detect: none}, "humble", "ROS_LOCALHOST_ONLY=1"},
		{"", distroSource{localhostOnly: true, detect: jazzyDomain}, "jazzy", "use 16-byte GIDs"},
		{"", distroSource{build: "jazzy", localhostOnly: true, detect: none}, "jazzy", "recorded by the colcon build"},
	}
	for _, c := range cases {
		got, err := chooseDistro(c.env, c.src)
		if err != nil {
			t.Errorf("%q %+v: %v", c.env, c.src.build, err)
			continue
		}
		if got.Distro.Name != c.want || !strings.Contains(got.Reason, c.reason) {
			t.Errorf("ROS_DISTRO=%q build %q: %s; want %s because of %q", c.env, c.src.build, got, c.want, c.reason)
		}
	}
	if _, err := chooseDistro("", distroSource{build: "foxy"}); err == nil {
		t.Error("a binary built for foxy accepted")
	}
}

// TestDistroDetectedFromDomain starts a Humble node and then a node without
// ROS_DISTRO: the second one hears the first on ros_discovery_info and takes its GID
// layout, and says so in its log.
func TestDistroDetectedFromDomain(t *testing.T) {
	env := testEnv(t, rosdomain.Take(t), "humble")
	first := newTestNode(t, env, "first", "/")
	if first.Distro().GIDSize != 24 {
		t.Fatalf("first node: %+v", first.Distro())
	}
	// SYSTEM_DEFAULT: the same Cyclone configuration for the Jazzy candidate as for
	// the Humble node, which this process's shared domain requires.
	unset := func(k string) string {
		switch k {
		case "ROS_DISTRO":
			return ""
		case "ROS_AUTOMATIC_DISCOVERY_RANGE":
			return "SYSTEM_DEFAULT"
		}
		return env(k)
	}
	var mu sync.Mutex
	var logs bytes.Buffer
	n, err := NewNode(context.Background(), "second", "/", NodeOptions{Getenv: unset, LogOutput: lockedWriter{&mu, &logs}})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	if n.Distro().Name != "humble" || n.Distro().GIDSize != 24 {
		t.Errorf("second node follows %+v, want humble", n.Distro())
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(logs.String(), "use 24-byte GIDs") {
		t.Errorf("log does not say why: %q", logs.String())
	}
}

// FuzzGIDSizeOf feeds arbitrary ros_discovery_info samples to GIDSizeOf: it never
// panics, answers 0, 16 or 24, and a layout it names decodes the sample.
func FuzzGIDSizeOf(f *testing.F) {
	guid := dds.GUID{1, 16, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 0, 1, 0xc1}
	for _, name := range []string{"humble", "jazzy"} {
		d, _ := ParseDistro(name)
		for _, nodes := range [][]NodeEntities{nil, {{Namespace: "/", Name: "n", Readers: []dds.GUID{guid}, Writers: []dds.GUID{guid}}}} {
			b, err := cdr.Append(nil, d.discoveryMessage(guid, nodes))
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		size := GIDSizeOf(b)
		switch size {
		case 0:
			return
		case 16, 24:
		default:
			t.Fatalf("GIDSizeOf = %d", size)
		}
		d := Distro{GIDSize: size}
		if _, err := d.decodeDiscovery(b); err != nil {
			t.Fatalf("GIDSizeOf says %d, but that layout does not decode: %v", size, err)
		}
	})
}
