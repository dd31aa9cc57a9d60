package gcsim

import (
	"encoding/json"
	"math"
	"net/netip"
	"testing"
	"time"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
)

func TestStatusOf(t *testing.T) {
	for _, tc := range []struct {
		age  time.Duration
		want ConnStatus
	}{
		{0, Good},
		{time.Second, Good},
		{2 * time.Second, Good},
		{2*time.Second + 1, Bad},
		{4 * time.Second, Bad},
		{4*time.Second + 1, Offline},
		{time.Hour, Offline},
	} {
		if got := StatusOf(tc.age); got != tc.want {
			t.Errorf("StatusOf(%v) = %v, want %v", tc.age, got, tc.want)
		}
	}
}

func mustReturn(t *testing.T, r gcproto.ReturnPacket) []byte {
	t.Helper()
	b, err := r.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRobotStatusTransitions(t *testing.T) {
	simulate(t, Config{}, func(t *testing.T, h *harness) {
		if got := h.sim.Robots(); len(got) != 0 {
			t.Fatalf("robots before any packet: %v", got)
		}
		r := gcproto.NewAlive(teamA, 3)
		r.Fallen = true
		r.Pose = [3]float32{1000, -500, 1.5}
		r.BallAge = 0.5
		r.Ball = [2]float32{300, 40}
		h.deliver(h.ret, mustReturn(t, r), robotSrc)

		check := func(after time.Duration, want ConnStatus, packets uint64) {
			t.Helper()
			rs := h.sim.Robots()
			if len(rs) != 1 {
				t.Fatalf("%d robots, want 1", len(rs))
			}
			v := rs[0]
			if v.Status != want || v.StatusStr != want.String() || v.Age != after || v.Packets != packets {
				t.Errorf("after %v: status %v (%q) age %v packets %d, want %v %v %d", after, v.Status, v.StatusStr, v.Age, v.Packets, want, after, packets)
			}
		}
		check(0, Good, 1)
		h.advance(2 * time.Second)
		check(2*time.Second, Good, 1)
		h.advance(Tick)
		check(2*time.Second+Tick, Bad, 1)
		h.advance(4*time.Second - 2*time.Second - Tick)
		check(4*time.Second, Bad, 1)
		h.advance(Tick)
		check(4*time.Second+Tick, Offline, 1)
		h.deliver(h.ret, mustReturn(t, r), robotSrc)
		check(0, Good, 2)

		v := h.sim.Robots()[0]
		if v.Team != teamA || v.Player != 3 || !v.InGame || v.Version != 4 || !v.Fallen || v.Pose != r.Pose ||
			v.BallAge != 0.5 || v.Ball != r.Ball || v.Addr != robotSrc || v.AddrChanges != 0 || v.MessageName != "" {
			t.Errorf("view %+v does not match the packet %+v from %v", v, r, robotSrc)
		}
		if !v.LastHeard.Equal(h.clk.Now()) {
			t.Errorf("LastHeard %v, want %v", v.LastHeard, h.clk.Now())
		}
	})
}

func TestRobotsVersions(t *testing.T) {
	simulate(t, Config{}, func(t *testing.T, h *harness) {
		other := netip.MustParseAddrPort("127.0.0.2:40001")
		h.deliver(h.ret, mustReturn(t, gcproto.ReturnPacket{Version: gcproto.ReturnVersionHL, Team: teamB, Player: 1, Message: gcproto.MsgGoalkeeper}), robotSrc)
		h.deliver(h.ret, mustReturn(t, gcproto.ReturnPacket{Version: gcproto.ReturnVersionSPL3, Team: teamA, Player: 2, Message: gcproto.MsgAliveV3}), robotSrc)
		h.deliver(h.ret, mustReturn(t, gcproto.NewAlive(99, 20)), robotSrc)
		// Two robots claim A 2: the address changes are counted.
		h.deliver(h.ret, mustReturn(t, gcproto.NewAlive(teamA, 2)), other)
		h.deliver(h.ret, mustReturn(t, gcproto.NewAlive(teamA, 2)), robotSrc)

		rs := h.sim.Robots()
		if len(rs) != 3 {
			t.Fatalf("robots %+v, want 3", rs)
		}
		want := []struct {
			team, player, version uint8
			msg                   string
			inGame                bool
			packets, changes      uint64
		}{
			{teamB, 1, 2, "goalkeeper", true, 1, 0},
			{teamA, 2, 4, "", true, 3, 2},
			{99, 20, 4, "", false, 1, 0},
		}
		for i, w := range want {
			v := rs[i]
			if v.Team != w.team || v.Player != w.player || v.Version != w.version || v.MessageName != w.msg ||
				v.InGame != w.inGame || v.Packets != w.packets || v.AddrChanges != w.changes {
				t.Errorf("robot %d: %+v, want %+v", i, v, w)
			}
		}
		if st := h.sim.Stats(); st.Returns != 5 || st.Malformed != 0 || st.Foreign != 1 {
			t.Errorf("stats %+v, want 5 returns, 1 foreign", st)
		}
		b, err := json.Marshal(rs[0])
		if err != nil {
			t.Fatal(err)
		}
		var back map[string]any
		if err := json.Unmarshal(b, &back); err != nil || back["status"] != "good" || back["messageName"] != "goalkeeper" {
			t.Errorf("JSON %s (err %v) lacks status and message name", b, err)
		}
	})
}

func TestMalformedReturns(t *testing.T) {
	simulate(t, Config{}, func(t *testing.T, h *harness) {
		good := mustReturn(t, gcproto.NewAlive(teamA, 1))
		mutate := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
		junk := [][]byte{
			{},
			[]byte("RGrt"),
			good[:31],
			append(append([]byte(nil), good...), 0),
			mutate(func(b []byte) []byte { b[0] = 'X'; return b }),
			mutate(func(b []byte) []byte { copy(b, "RGme"); return b }),
			mutate(func(b []byte) []byte { b[4] = 9; return b }),
			mutate(func(b []byte) []byte { b[5] = 0; return b }),  // player 0
			mutate(func(b []byte) []byte { b[5] = 21; return b }), // player 21
			mutate(func(b []byte) []byte { b[7] = 2; return b }),  // fallen 2
			mutate(func(b []byte) []byte {
				nan := math.Float32bits(float32(math.NaN()))
				b[8], b[9], b[10], b[11] = byte(nan), byte(nan>>8), byte(nan>>16), byte(nan>>24)
				return b
			}),
		}
		for _, j := range junk {
			h.deliver(h.ret, j, robotSrc)
		}
		h.deliver(h.ret, good, robotSrc)
		st := h.sim.Stats()
		want := Stats{Returns: 12, Malformed: 11, MalformedLength: 4, MalformedHeader: 2, MalformedVersion: 1, MalformedRange: 4}
		if st.Returns != want.Returns || st.Malformed != want.Malformed || st.MalformedLength != want.MalformedLength ||
			st.MalformedHeader != want.MalformedHeader || st.MalformedVersion != want.MalformedVersion || st.MalformedRange != want.MalformedRange {
			t.Errorf("stats %+v\nwant %+v", st, want)
		}
		if got := h.ret.Stats().Malformed; got != 11 {
			t.Errorf("socket Malformed = %d, want 11 (ReportMalformed per rejected packet)", got)
		}
		if rs := h.sim.Robots(); len(rs) != 1 || rs[0].Packets != 1 {
			t.Errorf("robots %+v, want only the valid packet", rs)
		}
	})
}
