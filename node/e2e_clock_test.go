//go:build cgo

package node_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/ros"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/builtin_interfaces"
)

// netnsClockOffset is how far robot id's clock is from the system time in the netns
// test: robots boot at different times and rarely run NTP on the field.
func netnsClockOffset(id int) time.Duration {
	switch id {
	case 2:
		return 3250 * time.Millisecond
	case 3:
		return -time.Hour - 17300*time.Microsecond
	}
	return 0
}

// withClockOffset runs a node's clock off the system time by d.
func withClockOffset(d time.Duration) func(*ros.NodeOptions) {
	return func(o *ros.NodeOptions) { o.ClockOffset = d }
}

// clockSettled is the bound a teammate's clock estimate must reach on a veth segment
// within the test: the smallest delays there are well below a millisecond, the
// stamps' millisecond steps add one, and a loaded test machine adds the rest.
const clockSettled = 20 * time.Millisecond

// checkClockOffsets checks robot id's TeamInfo about every teammate: once the clock
// offset is known it contains the true offset (netnsClockOffset) within its bound in
// every message, sender_time_local and delay agree with it, and the bound settles.
func checkClockOffsets(t *testing.T, infos *collector[dmsgs.TeamInfo], id, robots int, within time.Duration) {
	t.Helper()
	for mate := 1; mate <= robots; mate++ {
		if mate == id {
			continue
		}
		truth := netnsClockOffset(mate) - netnsClockOffset(id)
		infos.wait(t, 0, within, fmt.Sprintf("settled clock offset of robot %d", mate), func(m *dmsgs.TeamInfo) bool {
			return int(m.PlayerNumber) == mate && m.ClockOffsetKnown && durationOf(m.ClockOffsetBound) <= clockSettled
		})
		n := 0
		var last *dmsgs.TeamInfo
		for _, m := range infos.since(0) {
			if int(m.PlayerNumber) != mate || !m.ClockOffsetKnown {
				continue
			}
			n, last = n+1, m
			off, bound := durationOf(m.ClockOffset), durationOf(m.ClockOffsetBound)
			if e := off - truth; e > bound || -e > bound {
				t.Errorf("robot %d about %d: offset %v, truth %v: error %v > bound %v", id, mate, off, truth, e, bound)
			}
			local := timeOf(m.SenderTime) - off
			if d := timeOf(m.SenderTimeLocal) - local; d != 0 {
				t.Errorf("robot %d about %d: sender_time_local %v, sender_time - offset %v", id, mate, timeOf(m.SenderTimeLocal), local)
			}
			if d := durationOf(m.Delay); d != timeOf(m.ReceiveTime)-local || d < -bound {
				t.Errorf("robot %d about %d: delay %v, bound %v", id, mate, d, bound)
			}
		}
		t.Logf("robot %d about %d: %d messages with a known offset; offset %v ± %v (truth %v), delay %v", id, mate, n,
			durationOf(last.ClockOffset), durationOf(last.ClockOffsetBound), truth, durationOf(last.Delay))
	}
}

func durationOf(d builtin_interfaces.Duration) time.Duration {
	return time.Duration(d.Sec)*time.Second + time.Duration(d.Nanosec)
}

func timeOf(t builtin_interfaces.Time) time.Duration {
	return time.Duration(t.Sec)*time.Second + time.Duration(t.Nanosec)
}
