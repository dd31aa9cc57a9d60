package ddstest

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/ros/dds/ddsconfig"
)

// Config is a Cyclone DDS configuration for loopback-only discovery (up to 60
// processes), with Cyclone's warnings on stderr.
var Config = ddsconfig.Loopback(60, true)

// Setup writes Config to a file in t.TempDir, points CYCLONEDDS_URI at it and clears
// the ROS variables that would change discovery, for the rest of the test. It returns
// the file's path. Tests that call it cannot run in parallel (they change the
// environment); give each test its own domain id (internal/rosdomain), because
// Cyclone reads the configuration only when a process first creates a domain.
func Setup(t testing.TB) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cyclonedds.xml")
	if err := os.WriteFile(path, []byte(Config), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CYCLONEDDS_URI", "file://"+path)
	for _, k := range []string{"ROS_LOCALHOST_ONLY", "ROS_AUTOMATIC_DISCOVERY_RANGE", "ROS_STATIC_PEERS", "ROS_DOMAIN_ID"} {
		t.Setenv(k, "")
	}
	return path
}

// WaitFor polls cond every 10 ms until it returns nil or timeout passes, then fails
// the test with cond's last error.
func WaitFor(t testing.TB, timeout time.Duration, what string, cond func() error) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		err := cond()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v: %v", what, timeout, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
