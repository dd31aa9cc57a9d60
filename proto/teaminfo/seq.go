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

// Defaults of [ReplayConfig].
const (
	// DefaultSilence is the silence after which a [ReplayFilter] forgets a sender. It is
	// the sequence-number flush time of Fawkes worldinfo.
	DefaultSilence = 5 * time.Second
	// DefaultMaxRate is how many sequence numbers a second a sender may use up: dnetwork
	// sends at most one packet per 33 ms tick.
	DefaultMaxRate = 100
	// DefaultStampSlack is how far a packet's stamp may run ahead of the time the
	// receiver saw pass since the sender's last accepted packet: the largest change of
	// the network's delay from one packet to the next.
	DefaultStampSlack = time.Second
)

// ReplayConfig tunes a [ReplayFilter]; the zero value means the defaults and no
// authentication.
type ReplayConfig struct {
	// Silence is how long a sender without an accepted packet is remembered; 0:
	// DefaultSilence.
	Silence time.Duration
	// MaxRate bounds how fast a sender's sequence number may advance, per second of the
	// receiver's clock, beyond ReplayWindow; 0: DefaultMaxRate.
	MaxRate float64
	// StampSlack bounds how far a stamp may advance beyond the receiver's elapsed time;
	// 0: DefaultStampSlack.
	StampSlack time.Duration
	// Authenticated says that every packet checked was verified with the team's key:
	// a newer sequence number with an earlier stamp is then a replay (a recording from
	// before the sender restarted), never a candidate.
	Authenticated bool
	// ConfirmNew makes the first packet of a sender (or the first after its silence) a
	// candidate too, so that a corrupted team or player number cannot invent a
	// teammate. Without a key this is what stops a phantom robot.
	ConfirmNew bool
}

func (c ReplayConfig) withDefaults() ReplayConfig {
	if c.Silence <= 0 {
		c.Silence = DefaultSilence
	}
	if !(c.MaxRate > 0) {
		c.MaxRate = DefaultMaxRate
	}
	if c.StampSlack <= 0 {
		c.StampSlack = DefaultStampSlack
	}
	return c
}

// Verdict is a [ReplayFilter]'s decision on one packet.
type Verdict uint8

// Verdicts. The first four accept the packet, the others drop it.
const (
	// VerdictNew: nothing recent is known about the sender (first packet, or silence for
	// longer than the filter's silence): accepted, history starts here.
	VerdictNew Verdict = iota
	// VerdictNewer: the sequence number is newer than any seen, by a plausible step:
	// accepted.
	VerdictNewer
	// VerdictLate: older than the newest but inside the window and not seen before (the
	// network reordered it): accepted once.
	VerdictLate
	// VerdictRestart: the packet confirmed a candidate: the sender restarted its counter,
	// its clock was set, or its number or stamp jumped further than plausible, and two
	// packets in a row agree on it: accepted, history starts here.
	VerdictRestart
	// VerdictDuplicate: this sequence number was already accepted: dropped.
	VerdictDuplicate
	// VerdictReplay (authenticated only): older than the window, or a newer number with
	// an earlier stamp: dropped as a replay or a very late packet.
	VerdictReplay
	// VerdictUnconfirmed: the packet would move the sender's history further than
	// plausible (a restart, a jump, a stamp from the future or the past, or with
	// ReplayConfig.ConfirmNew a new sender): dropped and kept as the candidate that the
	// sender's next packet may confirm.
	VerdictUnconfirmed
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
	case VerdictUnconfirmed:
		return "unconfirmed"
	}
	return "verdict(" + strconv.Itoa(int(v)) + ")"
}

// ReplayFilter drops duplicate and replayed dnet packets per sender (team, player), and
// will not let one packet move a sender's history. It keeps the newest accepted sequence
// number, a bitmap of the ReplayWindow numbers below it, the stamp of the newest packet,
// when the sender was last accepted, and one candidate: the last packet that did not fit.
//
// A packet (seq, stamp) arriving at now is plausible after the newest (top, topStamp),
// accepted at the receiver's time last, when seq is at most MaxRate × (now - last) +
// ReplayWindow ahead of top and stamp at most (now - last) + StampSlack ahead of
// topStamp. Rules, in order:
//  1. Sender unknown, or nothing accepted from it for longer than the silence:
//     VerdictNew (with ConfirmNew: a candidate, rule 6).
//  2. seq newer (SeqNewer) and stamp not earlier than topStamp, plausibly: VerdictNewer.
//  3. seq not newer and stamp not later than topStamp: inside the window VerdictLate if
//     not yet seen, else VerdictDuplicate; below it, authenticated, VerdictReplay.
//  4. Authenticated, seq newer and stamp earlier: VerdictReplay (a packet from before a
//     restart, replayed).
//  5. Otherwise the packet does not fit the history: a restart (seq not newer, stamp
//     later), a clock set back (newer, earlier), an implausible jump, or (without
//     authentication) an old packet, which may also mean that the history rests on a
//     corrupted packet.
//  6. A packet that does not fit confirms the candidate when it is plausible after it
//     (the same test, from the candidate's seq, stamp and arrival): VerdictRestart, and
//     history starts at it. Otherwise it becomes the candidate: VerdictUnconfirmed. A
//     packet accepted by rule 2 forgets the candidate, so only two packets in a row
//     that do not fit (late ones and duplicates aside) move the history.
//
// So one corrupted or forged packet, whatever its number and stamp, never blocks the
// sender's genuine packets: at worst the first genuine packet after it is dropped as
// unconfirmed when the corrupted one was plausible and accepted. A sender that restarts
// or whose clock is set loses one packet. Without authentication the filter only
// removes network duplicates and single corrupted packets: anyone can forge a stream of
// plausible packets. Rule 1 also means recorded packets can be replayed into a sender's
// slot after it has been silent that long; checking stamps against the receiver's
// synchronised clock is the component's job.
//
// Authenticated, the filter stops replays: a packet older than the window, or from
// before a restart, is dropped, and a sender whose clock goes back (a restarted
// simulation, a stepped clock) is dropped until it has been silent, from the filter's
// point of view, for the silence time; its own drops do not refresh it, so this heals by
// itself.
//
// A ReplayFilter is not safe for concurrent use; the team component owns it. The zero
// value is not usable; call [NewReplayFilter] or [NewReplayFilterConfig].
type ReplayFilter struct {
	cfg     ReplayConfig
	senders map[uint16]replayState
}

type replayState struct {
	top          uint32        // newest accepted sequence number
	seen         uint64        // bit i: top-i was accepted (bit 0 is top)
	topStamp     time.Duration // stamp of the packet that set top
	lastAccepted time.Time     // receiver clock
	known        bool          // top, seen, topStamp and lastAccepted hold

	cand   bool // a packet that did not fit is held:
	cSeq   uint32
	cStamp time.Duration
	cAt    time.Time
}

// NewReplayFilter returns a filter with the default config that forgets a sender after
// silence without an accepted packet; silence <= 0 means DefaultSilence.
func NewReplayFilter(silence time.Duration) *ReplayFilter {
	return NewReplayFilterConfig(ReplayConfig{Silence: silence})
}

// NewReplayFilterConfig returns a filter with the given config.
func NewReplayFilterConfig(c ReplayConfig) *ReplayFilter {
	return &ReplayFilter{cfg: c.withDefaults(), senders: make(map[uint16]replayState)}
}

// Config returns the filter's config with the defaults filled in.
func (f *ReplayFilter) Config() ReplayConfig { return f.cfg }

// Check decides on the packet (seq, stamp) of sender (team, player) arriving at the
// receiver's time now, and records it when accepted (and as the candidate when
// unconfirmed).
func (f *ReplayFilter) Check(team, player uint8, seq uint32, stamp time.Duration, now time.Time) Verdict {
	id := uint16(team)<<8 | uint16(player)
	st := f.senders[id]
	v := f.check(&st, seq, stamp, now)
	if v.Accepted() {
		st.lastAccepted = now
	}
	if v.Accepted() || v == VerdictUnconfirmed {
		f.senders[id] = st
	}
	return v
}

// plausible reports whether (seq, stamp) at now may follow (prev, prevStamp) received
// at then: ahead by no more than the sender can have moved.
func (f *ReplayFilter) plausible(seq, prev uint32, stamp, prevStamp time.Duration, now, then time.Time) bool {
	el := max(now.Sub(then), 0)
	ahead := seq - prev
	return float64(ahead) <= f.cfg.MaxRate*el.Seconds()+ReplayWindow && stamp-prevStamp <= el+f.cfg.StampSlack
}

func (f *ReplayFilter) check(st *replayState, seq uint32, stamp time.Duration, now time.Time) Verdict {
	if !st.known || now.Sub(st.lastAccepted) > f.cfg.Silence {
		st.known = false
		if !f.cfg.ConfirmNew {
			*st = replayState{top: seq, seen: 1, topStamp: stamp, known: true}
			return VerdictNew
		}
		if f.confirms(st, seq, stamp, now) {
			*st = replayState{top: seq, seen: st.candSeen(seq), topStamp: stamp, known: true}
			return VerdictNew
		}
		return f.hold(st, seq, stamp, now)
	}
	newer := SeqNewer(seq, st.top)
	switch {
	case newer && stamp >= st.topStamp:
		if f.plausible(seq, st.top, stamp, st.topStamp, now, st.lastAccepted) {
			if d := seq - st.top; d < ReplayWindow {
				st.seen = st.seen<<d | 1
			} else {
				st.seen = 1
			}
			st.top, st.topStamp = seq, stamp
			st.cand = false // the history moved on: the candidate was a stray
			return VerdictNewer
		}
	case !newer && stamp <= st.topStamp:
		back := st.top - seq // 0 .. 2^31 because seq is not newer
		if back < ReplayWindow {
			if st.seen&(1<<back) != 0 {
				return VerdictDuplicate
			}
			st.seen |= 1 << back
			return VerdictLate
		}
		if f.cfg.Authenticated {
			return VerdictReplay
		}
		// Unauthenticated, the history itself may rest on a corrupted packet: an old
		// packet is a candidate, which only its genuine successor confirms.
	case newer && f.cfg.Authenticated:
		return VerdictReplay // newer number, earlier stamp: from before a restart
	}
	if f.confirms(st, seq, stamp, now) {
		*st = replayState{top: seq, seen: st.candSeen(seq) | st.carried(seq), topStamp: stamp, known: true}
		return VerdictRestart
	}
	return f.hold(st, seq, stamp, now)
}

// carried returns the window bitmap of st's history seen from a new top seq, so that a
// history that restarts near its old numbers (after a corrupted number) still knows
// which of them were accepted; 0 when the two windows do not overlap.
func (st *replayState) carried(seq uint32) uint64 {
	if d := seq - st.top; SeqNewer(seq, st.top) {
		if d < ReplayWindow {
			return st.seen << d
		}
		return 0
	}
	if b := st.top - seq; b < ReplayWindow {
		return st.seen >> b
	}
	return 0
}

// confirms reports whether (seq, stamp) is a plausible successor of st's candidate.
func (f *ReplayFilter) confirms(st *replayState, seq uint32, stamp time.Duration, now time.Time) bool {
	return st.cand && now.Sub(st.cAt) <= f.cfg.Silence && SeqNewer(seq, st.cSeq) && stamp >= st.cStamp &&
		f.plausible(seq, st.cSeq, stamp, st.cStamp, now, st.cAt)
}

// candSeen returns the window bitmap of a history starting at seq after the candidate:
// the candidate's number counts as seen, so that a copy of it is a duplicate.
func (st *replayState) candSeen(seq uint32) uint64 {
	if d := seq - st.cSeq; d < ReplayWindow {
		return 1 | 1<<d
	}
	return 1
}

// hold makes (seq, stamp) the candidate.
func (f *ReplayFilter) hold(st *replayState, seq uint32, stamp time.Duration, now time.Time) Verdict {
	st.cand, st.cSeq, st.cStamp, st.cAt = true, seq, stamp, now
	return VerdictUnconfirmed
}

// Forget drops what the filter knows about a sender, e.g. when it is penalised and
// replaced.
func (f *ReplayFilter) Forget(team, player uint8) {
	delete(f.senders, uint16(team)<<8|uint16(player))
}

// Len returns the number of senders the filter remembers (at most 65536).
func (f *ReplayFilter) Len() int { return len(f.senders) }
