//go:build cgo

package node_test

import (
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/ros"
	"github.com/robocup-dnetwork/dnetwork/ros/cdr"
)

// BenchmarkTeamOfSixCFloor is BenchmarkTeamOfSix with a C program in the node's place
// (testdata/cfloor/team.c, built with gcc -O2 when the benchmark starts, on the
// Cyclone DDS that package dds is built against and its raw-CDR sertype): the same
// harness and traffic, handled by nothing but the I/O, written the way C makes it
// cheapest here. Cyclone's data-available listener takes the input samples on
// Cyclone's receive thread; one epoll thread reads the team and GameController
// sockets (one TeamInfo or GCInfo written per datagram) and sends to the five
// teammates at 15 Hz from a timerfd. BenchmarkTeamOfSix measures itself against this
// floor (x-cfloor). Skips without gcc or Cyclone's headers.
func BenchmarkTeamOfSixCFloor(b *testing.B) {
	h := newSixHarness(b, false)
	cmd, why := cfloorCmd(b, h)
	if cmd == nil {
		b.Skip(why)
	}
	threads := &threadUse{}
	h.measure(h.up(cmd()), threads)
	if os.Getenv("DNETWORK_BENCH_THREADS") == "1" {
		threads.log(b, "C floor")
	}
}

// cfloorCmd builds the C floor and returns a function making the command that runs it
// in h's world, or nil and why it cannot be built here.
func cfloorCmd(b *testing.B, h *sixHarness) (func() *exec.Cmd, string) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		return nil, "gcc not found: no C floor to compare with"
	}
	// Cyclone's flags as package dds gets them: pkg-config, or CGO_CFLAGS/CGO_LDFLAGS
	// (build tag dds_nopkgconfig).
	var flags []string
	if out, err := exec.Command("pkg-config", "--cflags", "--libs", "CycloneDDS").Output(); err == nil {
		flags = strings.Fields(string(out))
	} else {
		flags = append(strings.Fields(os.Getenv("CGO_CFLAGS")), strings.Fields(os.Getenv("CGO_LDFLAGS"))...)
		flags = append(flags, "-lddsc")
	}
	dds := filepath.Join("..", "ros", "dds")
	bin := filepath.Join(b.TempDir(), "team")
	args := append([]string{"-O2", "-o", bin, "-I", dds, filepath.Join("testdata", "cfloor", "team.c"), filepath.Join(dds, "rawcdr.c"), filepath.Join(dds, "wake.c")}, flags...)
	if out, err := exec.Command(gcc, append(args, "-lpthread", "-lm")...).CombinedOutput(); err != nil {
		if strings.Contains(string(out), "dds/dds.h") {
			return nil, "Cyclone DDS headers not found (pkg-config CycloneDDS, CGO_CFLAGS): no C floor to compare with"
		}
		b.Fatalf("building the C floor: %v\n%s", err, out)
	}

	cfg := h.cfg
	peers := make([]string, len(cfg.Team.Peers))
	for i, p := range cfg.Team.Peers {
		peers[i] = strconv.Itoa(int(p.Port()))
	}
	topic := func(name string, id int) string { return ros.TopicDDSName(fmt.Sprintf(name, id)) }
	args = []string{h.getenv("ROS_DOMAIN_ID"), strconv.Itoa(int(cfg.Team.Port)), strconv.Itoa(int(cfg.GameControllerPort)),
		strings.Join(peers, ","),
		topic("/dnetwork_%d/TeamInfo", cfg.RobotID), (&dmsgs.TeamInfo{}).DDSTypeName(), sampleHex(&dmsgs.TeamInfo{}),
		topic("/dnetwork_%d/GCInfo", cfg.RobotID), (&dmsgs.GCInfo{}).DDSTypeName(), sampleHex(&dmsgs.GCInfo{}),
		topic("/dmotion_%d/MotionInfo", cfg.RobotID), (&dmsgs.MotionInfo{}).DDSTypeName(),
		topic("/dbehavior_%d/BehaviorInfo", cfg.RobotID), (&dmsgs.BehaviorInfo{}).DDSTypeName(),
		topic("/dvision_%d/VisionInfo", cfg.RobotID), (&dmsgs.VisionInfo{}).DDSTypeName(),
	}
	return func() *exec.Cmd {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "CYCLONEDDS_URI="+h.getenv("CYCLONEDDS_URI"))
		return cmd
	}, ""
}

// sampleHex is m serialised as a sample (encapsulation header and CDR), in hex.
func sampleHex(m interface{ MarshalCDR(*cdr.Encoder) }) string {
	var e cdr.Encoder
	e.Reset(nil)
	m.MarshalCDR(&e)
	return hex.EncodeToString(e.Finish())
}
