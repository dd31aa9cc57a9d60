package teaminfo

import (
	"strconv"
	"time"
)

// SeqNewer reports whether sequence number a is newer than b with wrap-around (serial
// number arithmetic, RFC 1982): a is newer when it is ahead of b by 1 .. 2^31-1. When the
// two are exactly 2^31 apart neither is newer. At 30 packets a second a uint32 sequence
// wraps after about 4.5 years, so wrap-around matters only for senders that start at a
// random number.
func SeqNewer(a, b uint32) bool {
	return int32(a-b) > 0
}

// ReplayWindow is how many sequence numbers below the newest a [ReplayFilter] remembers:
// a late packet inside the window is accepted once, older ones are dropped.
const ReplayWindow = 64

// DefaultSilence is the silence after which a [ReplayFilter] forgets a sender. It is the
// sequence-number flush time of Fawkes worldinfo.
const DefaultSilence = 5 * time.Second

// Verdict is a [ReplayFilter]'s decision on one packet.
type Verdict uint8

// Verdicts. The first four accept the packet, the others drop it.
const (
	// VerdictNew: nothing recent is known about the sender (first packet, or silence for
	// longer than the filter's silence): accepted, history starts here.
	VerdictNew Verdict = iota
	// VerdictNewer: the sequence number is newer than any seen: accepted.
	VerdictNewer
	// VerdictLate: older than the newest but inside the window and not seen before (the
	// network reordered it): accepted once.
	VerdictLate
	// VerdictRestart: the sequence number is not newer but the stamp is later than any
	// seen, so the sender restarted its counter: accepted, history starts here.
	VerdictRestart
	// VerdictDuplicate: this sequence number was already accepted: dropped.
	VerdictDuplicate
	// VerdictReplay: older than the window, or a newer number with an earlier stamp:
	// dropped as a replay or a very late packet.
	VerdictReplay
)

// Accepted reports whether v lets the packet through.
func (v Verdict) Accepted() bool { return v <= VerdictRestart }

func (v Verdict) String() string {
	switch v {
	case VerdictNew:
		return "new"
	case VerdictNewer:
		return "newer"
	case VerdictLate:
		return "late"
	case VerdictRestart:
		return "restart"
	case VerdictDuplicate:
		return "duplicate"
	case VerdictReplay:
		return "replay"
	}
	return "verdict(" + strconv.Itoa(int(v)) + ")"
}

// ReplayFilter drops duplicate and replayed dnet packets per sender (team, player). It
// keeps the newest accepted sequence number, a bitmap of the ReplayWindow numbers below
// it, the stamp of the newest packet and when the sender was last accepted.
//
// Rules, in order, for a packet (seq, stamp) arriving at now:
//  1. Sender unknown, or nothing accepted from it for longer than the silence: VerdictNew.
//  2. stamp not earlier than the newest packet's and seq newer (SeqNewer): VerdictNewer.
//  3. stamp later than the newest packet's but seq not newer: the sender restarted its
//     counter while its clock went on: VerdictRestart.
//  4. seq not newer and inside the window: VerdictLate if not yet seen, else
//     VerdictDuplicate.
//  5. Otherwise VerdictReplay: seq below the window, or seq newer with an earlier stamp
//     (a packet from before a restart, replayed).
//
// Limits: a sender whose clock goes back (a restarted simulation, a stepped clock) is
// dropped until it has been silent, from the filter's point of view, for the silence
// time; its own drops do not refresh it, so this heals by itself. Rule 1 also means
// recorded packets can be replayed into a sender's slot after it has been silent that
// long; checking stamps against the receiver's synchronised clock is the component's job.
// Without authentication the filter only removes network duplicates: anyone can forge a
// newer sequence number and stamp.
//
// A ReplayFilter is not safe for concurrent use; the team component owns it. The zero
// value is not usable; call [NewReplayFilter].
type ReplayFilter struct {
	silence time.Duration
	senders map[uint16]replayState
}

type replayState struct {
	top          uint32        // newest accepted sequence number
	seen         uint64        // bit i: top-i was accepted (bit 0 is top)
	topStamp     time.Duration // stamp of the packet that set top
	lastAccepted time.Time     // receiver clock
}

// NewReplayFilter returns a filter that forgets a sender after silence without an
// accepted packet; silence <= 0 means DefaultSilence.
func NewReplayFilter(silence time.Duration) *ReplayFilter {
	if silence <= 0 {
		silence = DefaultSilence
	}
	return &ReplayFilter{silence: silence, senders: make(map[uint16]replayState)}
}

// Check decides on the packet (seq, stamp) of sender (team, player) arriving at the
// receiver's time now, and records it when accepted.
func (f *ReplayFilter) Check(team, player uint8, seq uint32, stamp time.Duration, now time.Time) Verdict {
	id := uint16(team)<<8 | uint16(player)
	st, known := f.senders[id]
	v := st.check(known && now.Sub(st.lastAccepted) <= f.silence, seq, stamp)
	if v.Accepted() {
		st.lastAccepted = now
		f.senders[id] = st
	}
	return v
}

func (st *replayState) check(recent bool, seq uint32, stamp time.Duration) Verdict {
	if !recent {
		*st = replayState{top: seq, seen: 1, topStamp: stamp}
		return VerdictNew
	}
	newer := SeqNewer(seq, st.top)
	if stamp >= st.topStamp {
		if newer {
			if d := seq - st.top; d < ReplayWindow {
				st.seen = st.seen<<d | 1
			} else {
				st.seen = 1
			}
			st.top, st.topStamp = seq, stamp
			return VerdictNewer
		}
		if stamp > st.topStamp {
			*st = replayState{top: seq, seen: 1, topStamp: stamp}
			return VerdictRestart
		}
	}
	if newer {
		return VerdictReplay // newer number, earlier stamp: from before a restart
	}
	back := st.top - seq // 0 .. 2^31 because seq is not newer
	if back >= ReplayWindow {
		return VerdictReplay
	}
	if st.seen&(1<<back) != 0 {
		return VerdictDuplicate
	}
	st.seen |= 1 << back
	return VerdictLate
}

// Forget drops what the filter knows about a sender, e.g. when it is penalised and
// replaced.
func (f *ReplayFilter) Forget(team, player uint8) {
	delete(f.senders, uint16(team)<<8|uint16(player))
}

// Len returns the number of senders the filter remembers (at most 65536).
func (f *ReplayFilter) Len() int { return len(f.senders) }
