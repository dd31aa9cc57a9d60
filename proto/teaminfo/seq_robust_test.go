package teaminfo

import (
	"math/rand/v2"
	"sort"
	"testing"
	"time"
)

// arrival is one datagram of a simulated sender as the receiver gets it.
type arrival struct {
	at      time.Duration // receiver clock
	seq     uint32
	stamp   time.Duration
	genuine bool
}

// genuineStream simulates n packets of a sender at period, starting at seq start with
// its clock at base, over a network with a fixed delay plus up to jitter (jitter larger
// than the period reorders), losing one in lossEvery (0: none) and duplicating one in
// dupEvery (0: none).
func genuineStream(r *rand.Rand, n int, start uint32, base, period, jitter time.Duration, lossEvery, dupEvery int) []arrival {
	var out []arrival
	for i := range n {
		if lossEvery > 0 && r.IntN(lossEvery) == 0 {
			continue
		}
		sent := time.Duration(i) * period
		a := arrival{seq: start + uint32(i), stamp: (base + sent).Truncate(time.Millisecond), genuine: true}
		copies := 1
		if dupEvery > 0 && r.IntN(dupEvery) == 0 {
			copies = 2
		}
		for range copies {
			a.at = sent + 5*time.Millisecond
			if jitter > 0 {
				a.at += time.Duration(r.Int64N(int64(jitter)))
			}
			out = append(out, a)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].at < out[j].at })
	return out
}

// playOneBad feeds the stream with one bad packet (seq, stamp) inserted before arrival
// k, and returns how many distinct genuine numbers arrived, how many of them were never
// accepted, and the most times one was accepted.
func playOneBad(f *ReplayFilter, stream []arrival, k int, bad arrival) (arrived, lost, most int) {
	t0 := time.Unix(1_700_000_000, 0)
	if k > len(stream) {
		k = len(stream)
	}
	bad.at = 0
	if k > 0 {
		bad.at = stream[k-1].at
	}
	all := append(append(append([]arrival{}, stream[:k]...), bad), stream[k:]...)
	accepted := map[uint32]int{}
	seen := map[uint32]bool{}
	for _, a := range all {
		v := f.Check(3, 2, a.seq, a.stamp, t0.Add(a.at))
		if !a.genuine {
			if v.Accepted() {
				// A corrupted copy took its number's slot: the genuine packet it
				// corrupted is not counted as lost.
				accepted[a.seq]++
			}
			continue
		}
		seen[a.seq] = true
		if v.Accepted() {
			accepted[a.seq]++
		}
	}
	for s := range seen {
		if accepted[s] == 0 {
			lost++
		}
		if s != bad.seq {
			most = max(most, accepted[s])
		}
	}
	return len(seen), lost, most
}

// badPacket returns a corrupted copy of genuine packet g, or a forged one.
func badPacket(r *rand.Rand, g arrival) arrival {
	b := arrival{seq: g.seq, stamp: g.stamp}
	switch r.IntN(6) {
	case 0:
		b.stamp += time.Duration(8391858000) * time.Millisecond
	case 1:
		b.seq ^= 1 << r.IntN(32)
	case 2:
		b.stamp ^= time.Duration(1) << r.IntN(48) * time.Millisecond
	case 3:
		b.seq, b.stamp = r.Uint32(), time.Duration(r.Int64N(1<<48))*time.Millisecond
	case 4:
		b.seq += uint32(r.IntN(ReplayWindow))
	case 5:
		b.stamp -= time.Duration(r.IntN(5000)) * time.Millisecond
	}
	return b
}

// One corrupted or forged packet anywhere in a genuine stream costs at most one genuine
// packet besides the one it replaced when the network keeps the order, and at most three when it reorders (the
// reordered ones around the drop); none is ever accepted twice. With authentication
// (a future stamp is all a key holder's bad clock can send) nothing is lost beyond one.
func TestReplayFilterOneBadPacket(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	worst := map[bool]int{}
	for round := range 3000 {
		reorder := round%2 == 1
		jitter := time.Duration(0)
		if reorder {
			jitter = 80 * time.Millisecond
		}
		stream := genuineStream(r, 120, r.Uint32(), time.Duration(r.Int64N(1<<40))*time.Millisecond, 33*time.Millisecond, jitter, 10, 20)
		k := r.IntN(len(stream) + 1)
		g := stream[min(k, len(stream)-1)]
		bad := badPacket(r, g)
		cfg := ReplayConfig{ConfirmNew: round%3 == 0}
		_, lost, most := playOneBad(NewReplayFilterConfig(cfg), stream, k, bad)
		if cfg.ConfirmNew {
			lost-- // the sender's first packet waits for its confirmation
		}
		limit := 1
		if reorder {
			limit = 3
		}
		if lost > limit || most > 1 {
			t.Fatalf("round %d (reorder %v, bad %+v before arrival %d): %d genuine packets lost, one accepted %d times", round, reorder, bad, k, lost, most)
		}
		worst[reorder] = max(worst[reorder], lost)
	}
	t.Logf("most genuine packets lost to one bad packet: %d in order, %d reordered", worst[false], worst[true])
}

// FuzzReplayFilter inserts one arbitrary packet into a genuine stream: the sender's
// genuine packets are each accepted at most once and at most one (in order) is lost,
// besides the first when new senders are confirmed. Authenticated, the arbitrary packet
// stands for a teammate whose clock or counter was wrong for one packet; new senders
// must then be confirmed, or a lone first packet from the future would be the history.
func FuzzReplayFilter(f *testing.F) {
	f.Add(uint64(1), uint32(0), uint32(12), int64(8391858000), uint8(10), false, false)
	f.Add(uint64(1), uint32(0), uint32(12), int64(8391858055), uint8(0), true, true)
	f.Add(uint64(2), uint32(0xfffffff0), uint32(0x3ffffff0), int64(-1), uint8(0), false, true)
	f.Fuzz(func(t *testing.T, seed uint64, start, badSeq uint32, badStampMs int64, at uint8, auth, confirmNew bool) {
		r := rand.New(rand.NewPCG(seed, 1))
		stream := genuineStream(r, 60, start, time.Hour, 33*time.Millisecond, 0, 0, 0)
		bad := arrival{seq: badSeq, stamp: time.Duration(badStampMs) * time.Millisecond}
		confirmNew = confirmNew || auth
		arrived, lost, most := playOneBad(NewReplayFilterConfig(ReplayConfig{Authenticated: auth, ConfirmNew: confirmNew}), stream, int(at), bad)
		limit := 1
		if confirmNew {
			limit = 2
		}
		if most > 1 || lost > limit || arrived != len(stream) {
			t.Fatalf("bad packet %+v before %d: %d of %d genuine packets lost, one accepted %d times", bad, at, lost, arrived, most)
		}
	})
}
