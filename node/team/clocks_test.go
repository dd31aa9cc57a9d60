package team

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/builtin_interfaces"
)

// TestClockOffsets runs three components whose manual clocks are offset on purpose and
// carries their packets between them with known, asymmetric, jittered delays. Every
// TeamInfo a robot publishes about a teammate whose offset is known must contain the
// true offset within its bound, the corrected sender time and the delay must be right
// within the same bound, and the estimates must converge.
func TestClockOffsets(t *testing.T) {
	type robot struct {
		player   uint8
		offset   time.Duration // its clock minus true time
		h        *harness
		nextTick time.Duration // true time of its next tick
		sent     int           // broadcasts already carried
	}
	robots := []*robot{
		{player: 1, offset: 0},
		{player: 2, offset: 2500 * time.Millisecond},
		{player: 3, offset: -41*time.Millisecond - 300*time.Microsecond},
	}
	// delay[i][j] is the smallest delay from robot i to robot j; jitter adds up to 6 ms.
	delay := [3][3]time.Duration{
		{0, 3 * time.Millisecond, 1 * time.Millisecond},
		{700 * time.Microsecond, 0, 2 * time.Millisecond},
		{5 * time.Millisecond, 1500 * time.Microsecond, 0},
	}
	const jitter = 6 * time.Millisecond
	rng := rand.New(rand.NewPCG(15, 4))
	trueStart := time.Unix(1700000000, 0)
	for i, r := range robots {
		cfg := testConfig()
		cfg.Player = r.player
		// Start the robots at different phases of their ticks.
		phase := time.Duration(i) * 7 * time.Millisecond
		r.h = newHarness(t, cfg, trueStart.Add(phase+r.offset), nil)
		r.nextTick = phase + cfg.Tick
		// Ball handling: 15 Hz.
		r.h.c.SetBehavior(&dmsgs.BehaviorInfo{TeamPlayState: dmsgs.BehaviorInfoStateBallHandling})
	}
	tick := robots[0].h.c.cfg.Tick

	type arrival struct {
		at      time.Duration // true time
		to      int
		payload []byte
		sentAt  time.Duration // true send time
	}
	var arrivals []arrival
	const duration = 20 * time.Second
	var checked, known int
	check := func(to int, a arrival) {
		r := robots[to]
		m, ok := r.h.rec.Last()
		if !ok {
			t.Fatal("nothing published")
		}
		from := slices.IndexFunc(robots, func(x *robot) bool { return x.player == m.PlayerNumber })
		checked++
		if !m.ClockOffsetKnown {
			if a.at > 3*time.Second {
				t.Fatalf("robot %d: offset of %d still unknown at %v", r.player, m.PlayerNumber, a.at)
			}
			if m.ClockOffset != (builtinDuration(0, 0)) || m.Delay != (builtinDuration(0, 0)) {
				t.Errorf("unknown offset published with values: %+v %+v", m.ClockOffset, m.Delay)
			}
			return
		}
		known++
		truth := robots[from].offset - r.offset
		off, bound := dur(m.ClockOffset), dur(m.ClockOffsetBound)
		if e := off - truth; e > bound || -e > bound {
			t.Fatalf("robot %d about %d at %v: offset %v, truth %v, error %v > bound %v", r.player, m.PlayerNumber, a.at, off, truth, e, bound)
		}
		// The corrected sender time is the true send time on our clock (the stamp is
		// truncated to whole milliseconds, so it may be up to 1 ms earlier).
		sentOurs := time.Duration(trueStart.UnixNano()) + a.sentAt + r.offset
		if e := stamp(m.SenderTimeLocal) - sentOurs; e > bound || e < -bound-time.Millisecond {
			t.Fatalf("robot %d about %d: sender_time_local off by %v, bound %v", r.player, m.PlayerNumber, e, bound)
		}
		if e := dur(m.Delay) - (a.at - a.sentAt); e > bound+time.Millisecond || e < -bound {
			t.Fatalf("robot %d about %d: delay %v, true %v, bound %v", r.player, m.PlayerNumber, dur(m.Delay), a.at-a.sentAt, bound)
		}
		// Converged: within half the smallest round trip, the millisecond steps and
		// the jitter that rarely comes out at zero.
		if a.at > 10*time.Second {
			limit := (delay[from][to]+delay[to][from])/2 + jitter/2 + 2*time.Millisecond
			if bound > limit {
				t.Fatalf("robot %d about %d at %v: bound %v > %v", r.player, m.PlayerNumber, a.at, bound, limit)
			}
		}
	}
	for {
		// The next event: the earliest tick, or the earliest arrival (a tick first on a tie).
		next := 0
		for i, r := range robots {
			if r.nextTick < robots[next].nextTick {
				next = i
			}
		}
		if len(arrivals) > 0 && arrivals[0].at < robots[next].nextTick {
			a := arrivals[0]
			arrivals = arrivals[1:]
			r := robots[a.to]
			r.h.clk.Set(trueStart.Add(a.at + r.offset))
			before := r.h.rec.Len()
			r.h.deliver(a.payload)
			if r.h.rec.Len() > before { // a teammate's first packet waits for its second
				check(a.to, a)
			}
			continue
		}
		r := robots[next]
		now := r.nextTick
		if now > duration {
			break
		}
		r.h.clk.Set(trueStart.Add(now + r.offset))
		r.h.expect(eventTick)
		r.nextTick += tick
		out := r.h.broadcasts()
		for _, p := range out[r.sent:] {
			for to := range robots {
				if to == next {
					continue
				}
				d := delay[next][to] + time.Duration(rng.Int64N(int64(jitter)))
				arrivals = append(arrivals, arrival{at: now + d, to: to, payload: p, sentAt: now})
			}
		}
		r.sent = len(out)
		slices.SortStableFunc(arrivals, func(a, b arrival) int { return int(a.at - b.at) })
	}
	t.Logf("%d packets checked, %d with a known offset", checked, known)
	if checked < 1000 || known < checked*3/4 {
		t.Fatalf("%d packets checked, %d with a known offset", checked, known)
	}
	// Status agrees and says every teammate's clock is known.
	for _, r := range robots {
		st := r.h.checkInvariants()
		if len(st.Teammates) != 2 {
			t.Fatalf("robot %d: teammates %+v", r.player, st.Teammates)
		}
		for _, m := range st.Teammates {
			from := slices.IndexFunc(robots, func(x *robot) bool { return x.player == m.Player })
			t.Logf("robot %d about %d: offset %v ± %v, delay %v", r.player, m.Player, m.Clock.Offset, m.Clock.Bound, m.Clock.Delay)
			if truth := robots[from].offset - r.offset; !m.Clock.Contains(truth) || m.Clock.Delay <= 0 {
				t.Errorf("robot %d: status of %d: %+v, truth %v", r.player, m.Player, m.Clock, truth)
			}
		}
	}
}

// dur converts a builtin_interfaces/Duration to a time.Duration.
func dur(d builtin_interfaces.Duration) time.Duration {
	return time.Duration(d.Sec)*time.Second + time.Duration(d.Nanosec)
}

// stamp converts a builtin_interfaces/Time to a time since the epoch.
func stamp(t builtin_interfaces.Time) time.Duration {
	return time.Duration(t.Sec)*time.Second + time.Duration(t.Nanosec)
}

// A v1 teammate (no echo) and a zju teammate never become known; a v2 echo of a stamp we
// never sent is ignored.
func TestClockOffsetUnknownWithoutEcho(t *testing.T) {
	h := newHarness(t, testConfig(), harnessStart, nil)
	now := stampAt(harnessStart)
	v1 := teaminfo.DNetPacket{Version: teaminfo.DNetVersion1, Team: 17, Player: 3, Seq: 1, StampMs: uint64(now / time.Millisecond)}
	b, err := v1.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	v1.Seq, v1.StampMs = 0, v1.StampMs-1
	b0, err := v1.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	h.deliver(b0) // held until the next confirms it
	h.deliver(b)
	if m, _ := h.rec.Last(); m.ClockOffsetKnown || m.PlayerNumber != 3 {
		t.Fatalf("version 1 packet: %+v", m)
	}
	// Our first packet goes out, then a forged echo of a stamp we never sent.
	h.ticks(1)
	s := teaminfo.State{Team: 17, Player: 3, Seq: 2, Stamp: now + 50*time.Millisecond,
		Echo: teaminfo.Echo{Player: 2, StampMs: 12345, Hold: time.Millisecond}}
	b, err = teaminfo.AppendDNet(nil, &s, nil)
	if err != nil {
		t.Fatal(err)
	}
	h.deliver(b)
	if m, _ := h.rec.Last(); m.ClockOffsetKnown {
		t.Fatalf("echo of a stamp we never sent made the offset known: %+v", m)
	}
	st := h.checkInvariants()
	if len(st.Teammates) != 1 || st.Teammates[0].Clock.Known || !st.Teammates[0].Clock.HasLower || st.Teammates[0].Clock.HasUpper {
		t.Fatalf("status: %+v", st.Teammates)
	}
}
