package teaminfo

import (
	"math/rand/v2"
	"sort"
	"testing"
	"time"
)

func TestSeqNewer(t *testing.T) {
	for _, tc := range []struct {
		a, b uint32
		want bool
	}{
		{1, 0, true},
		{0, 1, false},
		{5, 5, false},
		{0, 0xffffffff, true}, // wrapped
		{0xffffffff, 0, false},
		{10, 0xfffffff0, true},
		{0x7fffffff, 0, true},  // 2^31-1 ahead
		{0x80000000, 0, false}, // exactly 2^31 apart: neither
		{0, 0x80000000, false},
		{0x80000001, 0, false}, // more than half way round: b is newer
		{0, 0x80000001, true},
	} {
		if got := SeqNewer(tc.a, tc.b); got != tc.want {
			t.Errorf("SeqNewer(%#x, %#x) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestReplayFilter(t *testing.T) {
	type pkt struct {
		team, player uint8
		seq          uint32
		stamp        time.Duration // sender clock, ms
		at           time.Duration // receiver clock since t0
		want         Verdict
	}
	const ms = time.Millisecond
	const s2 = 2 * time.Second
	future := time.Duration(8391858000) // ms: the corrupted stamp the field test saw
	for _, tc := range []struct {
		name string
		cfg  ReplayConfig
		pkts []pkt
	}{
		{"in order", ReplayConfig{}, []pkt{
			{1, 1, 10, 100, 0, VerdictNew},
			{1, 1, 11, 133, 33 * ms, VerdictNewer},
			{1, 1, 15, 266, 166 * ms, VerdictNewer}, // gap (lost packets) is fine
		}},
		{"duplicates", ReplayConfig{}, []pkt{
			{1, 1, 10, 100, 0, VerdictNew},
			{1, 1, 10, 100, 1 * ms, VerdictDuplicate},
			{1, 1, 11, 133, 33 * ms, VerdictNewer},
			{1, 1, 11, 133, 34 * ms, VerdictDuplicate},
			{1, 1, 10, 100, 35 * ms, VerdictDuplicate},
		}},
		{"reordered inside the window, once", ReplayConfig{}, []pkt{
			{1, 1, 100, 1000, 0, VerdictNew},
			{1, 1, 103, 1100, 100 * ms, VerdictNewer},
			{1, 1, 101, 1033, 101 * ms, VerdictLate},
			{1, 1, 102, 1066, 102 * ms, VerdictLate},
			{1, 1, 101, 1033, 103 * ms, VerdictDuplicate},
			{1, 1, 103 - ReplayWindow + 1, 900, 104 * ms, VerdictLate},    // oldest slot of the window
			{1, 1, 103 - ReplayWindow, 899, 105 * ms, VerdictUnconfirmed}, // just outside
		}},
		{"replay of old packets", ReplayConfig{Authenticated: true}, []pkt{
			{1, 1, 1000, 50000, 0, VerdictNew},
			{1, 1, 1001, 50033, 33 * ms, VerdictNewer},
			{1, 1, 500, 30000, 40 * ms, VerdictReplay},
			{1, 1, 1, 10, 41 * ms, VerdictReplay},
			{1, 1, 1002, 50066, 66 * ms, VerdictNewer},
		}},
		{"old packets, unauthenticated", ReplayConfig{}, []pkt{
			{1, 1, 1000, 50000, 0, VerdictNew},
			{1, 1, 1001, 50033, 33 * ms, VerdictNewer},
			{1, 1, 500, 30000, 40 * ms, VerdictUnconfirmed},
			{1, 1, 1, 10, 41 * ms, VerdictUnconfirmed},
			{1, 1, 1002, 50066, 66 * ms, VerdictNewer},
			{1, 1, 2, 43, 67 * ms, VerdictUnconfirmed}, // the candidate went with 1002
		}},
		{"a history resting on a corrupted first packet", ReplayConfig{}, []pkt{
			{1, 1, 10 + 1<<20, future, 0, VerdictNew},
			{1, 1, 10, 1000, 33 * ms, VerdictUnconfirmed},
			{1, 1, 11, 1033, 66 * ms, VerdictRestart},
			{1, 1, 12, 1066, 99 * ms, VerdictNewer},
		}},
		{"plausible jump: lost packets", ReplayConfig{}, []pkt{
			{1, 1, 1, 10, 0, VerdictNew},
			{1, 1, 1 + ReplayWindow, 20, 0, VerdictNewer},                            // the window's worth at once
			{1, 1, 1 + ReplayWindow + 100 + 64, 3020, 3 * time.Second, VerdictNewer}, // 3 s silent: 100/s more
		}},
		{"implausible jump needs a second packet", ReplayConfig{}, []pkt{
			{1, 1, 1, 10, 0, VerdictNew},
			{1, 1, 1 + 200, 20, 10 * ms, VerdictUnconfirmed},
			{1, 1, 1 + 201, 53, 43 * ms, VerdictRestart},
			{1, 1, 1, 10, 44 * ms, VerdictUnconfirmed}, // old, or the history is corrupted
			{1, 1, 201, 20, 45 * ms, VerdictDuplicate}, // the candidate counts as seen
			{1, 1, 200, 19, 46 * ms, VerdictLate},
		}},
		{"a fitting packet between forgets the candidate", ReplayConfig{}, []pkt{
			{1, 1, 1, 10, 0, VerdictNew},
			{1, 1, 1 + 200, 20, 10 * ms, VerdictUnconfirmed},
			{1, 1, 2, 43, 11 * ms, VerdictNewer}, // the genuine stream goes on
			{1, 1, 1 + 201, 53, 43 * ms, VerdictUnconfirmed},
			{1, 1, 1 + 202, 86, 76 * ms, VerdictRestart},
		}},
		{"one packet from the future never blocks the sender", ReplayConfig{}, []pkt{
			{1, 1, 10, 1000, 0, VerdictNew},
			{1, 1, 11, 1033, 33 * ms, VerdictNewer},
			{1, 1, 12, future, 66 * ms, VerdictUnconfirmed},
			{1, 1, 12, 1066, 67 * ms, VerdictNewer},
			{1, 1, 13, 1099, 100 * ms, VerdictNewer},
			{1, 1, 1 << 30, 1100, 101 * ms, VerdictUnconfirmed}, // a number from the future
			{1, 1, 14, 1133, 133 * ms, VerdictNewer},
		}},
		{"one packet from the future, authenticated", ReplayConfig{Authenticated: true}, []pkt{
			{1, 1, 10, 1000, 0, VerdictNew},
			{1, 1, 11, future, 33 * ms, VerdictUnconfirmed},
			{1, 1, 12, 1066, 66 * ms, VerdictNewer},
		}},
		{"a plausible corrupted number costs one genuine packet", ReplayConfig{}, []pkt{
			{1, 1, 10, 1000, 0, VerdictNew},
			{1, 1, 11, 1033, 33 * ms, VerdictNewer},
			{1, 1, 12 + 50, 1066, 66 * ms, VerdictNewer}, // packet 12, its number corrupted
			{1, 1, 13, 1099, 100 * ms, VerdictUnconfirmed},
			{1, 1, 14, 1133, 133 * ms, VerdictRestart},
			{1, 1, 15, 1166, 166 * ms, VerdictNewer},
		}},
		{"a plausible corrupted stamp costs one genuine packet", ReplayConfig{}, []pkt{
			{1, 1, 10, 1000, 0, VerdictNew},
			{1, 1, 11, 1033 + 900, 33 * ms, VerdictNewer},
			{1, 1, 12, 1066, 66 * ms, VerdictUnconfirmed},
			{1, 1, 13, 1099, 100 * ms, VerdictRestart},
		}},
		{"sequence wraps", ReplayConfig{}, []pkt{
			{1, 1, 0xfffffffe, 100, 0, VerdictNew},
			{1, 1, 0xffffffff, 133, 33 * ms, VerdictNewer},
			{1, 1, 0, 166, 66 * ms, VerdictNewer},
			{1, 1, 1, 199, 99 * ms, VerdictNewer},
			{1, 1, 0xffffffff, 133, 100 * ms, VerdictDuplicate},
			{1, 1, 0xfffffffd, 66, 101 * ms, VerdictLate},
		}},
		{"restart detected by stamp", ReplayConfig{}, []pkt{
			{1, 1, 5000, 60000, 0, VerdictNew},
			{1, 1, 5001, 60033, 33 * ms, VerdictNewer},
			{1, 1, 0, 62000, s2, VerdictUnconfirmed}, // counter back, clock on
			{1, 1, 1, 62033, s2 + 33*ms, VerdictRestart},
			{1, 1, 0, 62000, s2 + 34*ms, VerdictDuplicate},
			{1, 1, 5001, 60033, s2 + 40*ms, VerdictUnconfirmed}, // previous life replayed
			{1, 1, 2, 62066, s2 + 66*ms, VerdictNewer},
			{1, 1, 5002, 60066, s2 + 67*ms, VerdictUnconfirmed}, // confirms nothing: the candidate is gone
		}},
		{"restart, authenticated", ReplayConfig{Authenticated: true}, []pkt{
			{1, 1, 5000, 60000, 0, VerdictNew},
			{1, 1, 0, 62000, s2, VerdictUnconfirmed},
			{1, 1, 1, 62033, s2 + 33*ms, VerdictRestart},
			{1, 1, 5001, 60033, s2 + 40*ms, VerdictReplay}, // previous life replayed
			{1, 1, 5002, 60066, s2 + 41*ms, VerdictReplay},
			{1, 1, 2, 62066, s2 + 66*ms, VerdictNewer},
		}},
		{"same millisecond", ReplayConfig{}, []pkt{
			{1, 1, 20, 500, 0, VerdictNew},
			{1, 1, 21, 500, ms, VerdictNewer},
			{1, 1, 23, 500, 2 * ms, VerdictNewer},
			{1, 1, 22, 500, 3 * ms, VerdictLate},
			{1, 1, 22, 500, 4 * ms, VerdictDuplicate},
		}},
		{"clock stepped back while running costs one packet", ReplayConfig{}, []pkt{
			{1, 1, 40, 90000, 0, VerdictNew},
			{1, 1, 41, 10, 33 * ms, VerdictUnconfirmed},
			{1, 1, 42, 43, 66 * ms, VerdictRestart},
			{1, 1, 43, 76, 99 * ms, VerdictNewer},
		}},
		{"clock stepped back, authenticated, heals after silence", ReplayConfig{Authenticated: true}, []pkt{
			{1, 1, 40, 90000, 0, VerdictNew},
			{1, 1, 41, 10, 33 * ms, VerdictReplay},
			{1, 1, 42, 43, 66 * ms, VerdictReplay},
			{1, 1, 200, 5000, 5*time.Second + ms, VerdictNew},
			{1, 1, 201, 5033, 5*time.Second + 34*ms, VerdictNewer},
		}},
		{"restart reusing the newest number", ReplayConfig{}, []pkt{
			{1, 1, 3, 60000, 0, VerdictNew},
			{1, 1, 3, 61000, time.Second, VerdictUnconfirmed},
			{1, 1, 4, 61033, time.Second + 33*ms, VerdictNewer}, // fits the old history
			{1, 1, 3, 61000, time.Second + 34*ms, VerdictDuplicate},
		}},
		{"restart with clock set back", ReplayConfig{}, []pkt{
			{1, 1, 900, 90000, 0, VerdictNew},
			{1, 1, 0, 10, 1 * time.Second, VerdictUnconfirmed},
			{1, 1, 1, 43, 2 * time.Second, VerdictRestart},
			{1, 1, 2, 76, 2*time.Second + 33*ms, VerdictNewer},
		}},
		{"restart with clock set back, authenticated, heals after silence", ReplayConfig{Authenticated: true}, []pkt{
			{1, 1, 900, 90000, 0, VerdictNew},
			{1, 1, 0, 10, 1 * time.Second, VerdictReplay},
			{1, 1, 1, 43, 2 * time.Second, VerdictReplay},
			{1, 1, 2, 76, 5 * time.Second, VerdictReplay}, // exactly the silence: still known
			{1, 1, 3, 109, 5*time.Second + ms, VerdictNew},
			{1, 1, 4, 142, 5*time.Second + 34*ms, VerdictNewer},
		}},
		{"silence forgets", ReplayConfig{}, []pkt{
			{1, 1, 100, 1000, 0, VerdictNew},
			{1, 1, 100, 1000, 6 * time.Second, VerdictNew}, // a replay after silence is let in
			{1, 1, 100, 1000, 6*time.Second + ms, VerdictDuplicate},
		}},
		{"a new sender needs a second packet", ReplayConfig{ConfirmNew: true}, []pkt{
			{1, 1, 10, 100, 0, VerdictUnconfirmed},
			{1, 1, 11, 133, 33 * ms, VerdictNew},
			{1, 1, 10, 100, 34 * ms, VerdictDuplicate},
			{1, 1, 12, 166, 66 * ms, VerdictNewer},
			{1, 17, 12, 166, 67 * ms, VerdictUnconfirmed}, // a corrupted player number: no phantom
			{1, 17, 1 << 20, 199, 100 * ms, VerdictUnconfirmed},
			{1, 1, 13, 199, 100 * ms, VerdictNewer},
			{1, 1, 14, 232, 6 * time.Second, VerdictUnconfirmed}, // after silence, again
			{1, 1, 15, 265, 6*time.Second + 33*ms, VerdictNew},
		}},
		{"senders are separate", ReplayConfig{}, []pkt{
			{1, 1, 7, 100, 0, VerdictNew},
			{1, 2, 7, 100, 0, VerdictNew},
			{2, 1, 7, 100, 0, VerdictNew},
			{1, 1, 7, 100, ms, VerdictDuplicate},
			{2, 1, 8, 133, ms, VerdictNewer},
			{1, 2, 7, 100, ms, VerdictDuplicate},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := NewReplayFilterConfig(tc.cfg)
			t0 := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
			for i, p := range tc.pkts {
				got := f.Check(p.team, p.player, p.seq, p.stamp*time.Millisecond, t0.Add(p.at))
				if got != p.want {
					t.Fatalf("packet %d (team %d player %d seq %d stamp %d ms at %v): %v, want %v",
						i, p.team, p.player, p.seq, p.stamp, p.at, got, p.want)
				}
			}
		})
	}
}

func TestReplayFilterForget(t *testing.T) {
	f := NewReplayFilter(0)
	if c := f.Config(); c.Silence != DefaultSilence || c.MaxRate != DefaultMaxRate || c.StampSlack != DefaultStampSlack {
		t.Fatalf("config %+v, want the defaults", c)
	}
	now := time.Unix(100, 0)
	f.Check(3, 4, 10, time.Second, now)
	f.Check(3, 5, 10, time.Second, now)
	if f.Len() != 2 {
		t.Fatalf("Len %d", f.Len())
	}
	if v := f.Check(3, 4, 10, time.Second, now); v != VerdictDuplicate {
		t.Fatalf("before Forget: %v", v)
	}
	f.Forget(3, 4)
	if f.Len() != 1 {
		t.Fatalf("Len after Forget %d", f.Len())
	}
	if v := f.Check(3, 4, 10, time.Second, now); v != VerdictNew {
		t.Fatalf("after Forget: %v", v)
	}
}

// With a sender that numbers and stamps packets in order, a network that duplicates and
// reorders them (within the window) delivers every packet exactly once.
func TestReplayFilterExactlyOnce(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for round := range 50 {
		f := NewReplayFilter(time.Second)
		start := r.Uint32() // wraps in some rounds
		const n = 300
		type arrival struct {
			key int
			seq uint32
		}
		var arrivals []arrival
		for i := range uint32(n) {
			// Every arrival is delayed by fewer than 20 places; some are duplicated.
			arrivals = append(arrivals, arrival{len(arrivals) + r.IntN(20), start + i})
			for r.IntN(4) == 0 {
				arrivals = append(arrivals, arrival{len(arrivals) + r.IntN(20), start + i})
			}
		}
		sort.SliceStable(arrivals, func(i, j int) bool { return arrivals[i].key < arrivals[j].key })
		accepted := map[uint32]int{}
		now := time.Unix(0, 0)
		for _, a := range arrivals {
			seq := a.seq
			now = now.Add(time.Millisecond)
			stamp := time.Duration(seq-start) * 33 * time.Millisecond
			if f.Check(1, 2, seq, stamp, now).Accepted() {
				accepted[seq]++
			}
		}
		for i := range uint32(n) {
			if c := accepted[start+i]; c != 1 {
				t.Fatalf("round %d (start %#x): seq %d accepted %d times", round, start, start+i, c)
			}
		}
	}
}

// TestEchoOffsetBound: robot A (clock = true time + 250 ms) answers robot B's packet
// stamped 1000 ms (B's clock = true time); it arrived 20 ms later and A answered it 35.4 ms
// after that. The bound holds the true offset and exceeds it by the delay and the
// millisecond lost to truncation.
func TestEchoOffsetBound(t *testing.T) {
	e := Echo{Player: 2, StampMs: 1000, Hold: 35 * time.Millisecond}
	// B sent at true 1000 ms, A received at true 1020 ms = A's 1270 ms, sent at A's 1305.4 ms.
	got := e.OffsetBound(1305400*time.Microsecond, 1000*time.Millisecond)
	if want := 250*time.Millisecond + 20*time.Millisecond + time.Millisecond; got != want {
		t.Fatalf("OffsetBound = %v, want %v", got, want)
	}
}
