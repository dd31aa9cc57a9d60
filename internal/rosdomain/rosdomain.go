package rosdomain

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// ErrNoDomain is returned when every id in the range is held.
var ErrNoDomain = errors.New("rosdomain: no free ROS domain")

// DDS's default port mapping (the RTPS specification's, used by Cyclone DDS and Fast
// DDS): domain d's ports are portBase + domainGain·d + 0..domainGain-1.
const (
	portBase   = 7400
	domainGain = 250
)

// maxID is the largest ROS domain id (ROS_DOMAIN_ID 0..232).
const maxID = 232

// lockDir is the directory in dir that holds one lock file per id and the counter of
// the next id for every process of the machine's user; its name ends in the user's
// id (lockPath), so that a second user is not refused the first one's directory.
const lockDir = "dnetwork-rosdomain"

// counterFile is the file in the lock directory that holds the next id's index.
const counterFile = "next"

// dir is where lockDir is, and span the ids handed out (tests of this package use
// their own).
var (
	dir  = os.TempDir()
	span = func() (first, last int) { return idRange(ephemeralFirst()) }
)

// lockPath is the path of this user's lock directory.
func lockPath() string {
	return filepath.Join(dir, lockDir+"-"+strconv.Itoa(os.Getuid()))
}

// Take returns a ROS domain id that no other holder on the machine (a test of this
// process or of another process of the user) holds, held until t and its subtests end.
// A test and the nodes it starts share the id through ROS_DOMAIN_ID; a child process
// must read it from there, never take one of its own. Take fails t when no id is free.
func Take(t testing.TB) int {
	t.Helper()
	first, last := span()
	id, f, err := take(lockPath(), first, last)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() }) // and unlocks
	return id
}

// EnvVar is the environment variable through which a test hands the ids it took to
// the test binary it runs again as a child (netnstest's Exec): the child reads them
// with Inherited and takes none of its own.
const EnvVar = "DNETWORK_TEST_ROS_DOMAINS"

// Env returns the environment entry that hands ids to a child (EnvVar=id,id...).
func Env(ids ...int) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.Itoa(id)
	}
	return EnvVar + "=" + strings.Join(s, ",")
}

// Inherited returns the n ids that the parent test handed to this process with Env;
// it fails t when the environment holds fewer.
func Inherited(t testing.TB, n int) []int {
	t.Helper()
	var ids []int
	for f := range strings.SplitSeq(os.Getenv(EnvVar), ",") {
		if id, err := strconv.Atoi(f); err == nil {
			ids = append(ids, id)
		}
	}
	if len(ids) < n {
		t.Fatalf("rosdomain: %s=%q holds %d ROS domain ids, want %d from the parent test (rosdomain.Env)",
			EnvVar, os.Getenv(EnvVar), len(ids), n)
	}
	return ids[:n]
}

// take locks the file of the next free id in first..last in path, starting after the
// id handed out last, and returns the id and its locked file.
func take(path string, first, last int) (int, *os.File, error) {
	if last < first {
		return 0, nil, fmt.Errorf("%w: none whose DDS ports (%d + %d·id) lie below the ephemeral range",
			ErrNoDomain, portBase, domainGain)
	}
	if err := os.MkdirAll(path, 0o700); err != nil {
		return 0, nil, fmt.Errorf("rosdomain: %w", err)
	}
	c, err := os.OpenFile(filepath.Join(path, counterFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return 0, nil, fmt.Errorf("rosdomain: %w", err)
	}
	defer c.Close() // and unlocks
	if err := syscall.Flock(int(c.Fd()), syscall.LOCK_EX); err != nil {
		return 0, nil, fmt.Errorf("rosdomain: lock %s: %w", c.Name(), err)
	}
	buf := make([]byte, 32)
	k, _ := c.ReadAt(buf, 0)
	next, _ := strconv.Atoi(strings.TrimSpace(string(buf[:k])))
	size := last - first + 1
	for i := range size {
		index := ((next+i)%size + size) % size
		id := first + index
		f, err := os.OpenFile(filepath.Join(path, strconv.Itoa(id)), os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return 0, nil, fmt.Errorf("rosdomain: %w", err)
		}
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			continue
		}
		if err != nil {
			f.Close()
			return 0, nil, fmt.Errorf("rosdomain: lock %s: %w", f.Name(), err)
		}
		// The counter only spreads the ids out; the lock alone makes one id one holder's.
		if err := c.Truncate(0); err == nil {
			c.WriteAt([]byte(strconv.Itoa((index+1)%size)+"\n"), 0)
		}
		return id, f, nil
	}
	return 0, nil, fmt.Errorf("%w: all %d ids %d..%d are held by running tests (lock files in %s)",
		ErrNoDomain, size, first, last, path)
}

// idRange returns the ids from 1 whose DDS ports all lie below port ephemeral, the
// first port of the kernel's ephemeral range (last < first when there is none).
func idRange(ephemeral int) (first, last int) {
	last = (ephemeral - portBase - domainGain) / domainGain
	if ephemeral < portBase+domainGain {
		last = 0
	}
	return 1, min(last, maxID)
}

// ephemeralFirst returns the first port of the kernel's ephemeral range (Linux's
// default, 32768, where the file cannot be read).
func ephemeralFirst() int {
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			if v, err := strconv.Atoi(f[0]); err == nil {
				return v
			}
		}
	}
	return 32768
}
