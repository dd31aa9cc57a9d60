package team

import (
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
)

// TestMateHook: the mate hook hears every accepted packet with its source address and
// robot_pos, nothing of a dropped one, and once of the teammate going offline, at the
// tick its TeammateTimeout has passed, whether the component ticks or sleeps until a
// tick is due.
func TestMateHook(t *testing.T) {
	t.Run("ticking", func(t *testing.T) { testMateHook(t, false) })
	t.Run("timed", func(t *testing.T) { testMateHook(t, true) })
}

func testMateHook(t *testing.T, timed bool) {
	cfg := testConfig()
	cfg.Format = FormatZJU // no replay filter: every packet of a teammate is accepted
	var mu sync.Mutex
	var got []MateEvent
	hook := func(c *Component) {
		c.SetMateHook(func(e MateEvent) {
			mu.Lock()
			got = append(got, e)
			mu.Unlock()
		})
	}
	var h *harness
	advance := func(n int) { h.ticks(n) }
	if timed {
		g := &fakeGame{s: NoGame, changed: make(chan struct{}, 1)}
		h = startHarness(t, cfg, harnessStart, hook, g, notifyingGame{g})
		advance = func(n int) { h.advanceTimed(time.Duration(n) * cfg.Tick) }
	} else {
		h = newHarness(t, cfg, harnessStart, hook)
	}
	events := func() []MateEvent {
		mu.Lock()
		defer mu.Unlock()
		return append([]MateEvent(nil), got...)
	}
	p := teaminfo.ZJUPacket{TeamNumber: 17, PlayerNumber: 3, TxpTimestamp: teaminfo.RosTime{Sec: 1700000000},
		RobotPos: teaminfo.Vector3{X: 3000, Y: -400, Z: 90}}
	b, err := p.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	h.deliver(b)
	h.deliver(zjuFrom(t, 18, 4)) // another team's: dropped, not told
	want := MateEvent{Player: 3, Src: netip.MustParseAddr("10.0.0.9")}
	want.RobotPos.X, want.RobotPos.Y, want.RobotPos.Z = 3000, -400, 90
	if e := events(); len(e) != 1 || e[0] != want {
		t.Fatalf("after one accepted packet the hook heard %+v, want [%+v]", e, want)
	}
	timeout := int((cfg.TeammateTimeout + cfg.Tick - 1) / cfg.Tick) // the first tick it is over
	advance(timeout - 1)
	if e := events(); len(e) != 1 {
		t.Fatalf("before the teammate timeout the hook heard %+v", e)
	}
	advance(1)
	offline := MateEvent{Player: 3, Offline: true}
	if e := events(); len(e) != 2 || e[1] != offline {
		t.Fatalf("at the tick the teammate timeout is over the hook heard %+v, want the offline event", e)
	}
	advance(timeout) // gone is gone: told once
	if e := events(); len(e) != 2 {
		t.Fatalf("the hook heard %+v, want the offline event once", e)
	}
	if st := h.c.Status(); len(st.Teammates) != 0 {
		t.Errorf("teammates online after the timeout: %+v", st.Teammates)
	}
	h.checkInvariants()
}
