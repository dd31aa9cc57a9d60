package worldinfo

import (
	"errors"
	"fmt"
	"net/netip"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	wi "github.com/robocup-dnetwork/dnetwork/proto/worldinfo"
)

// Errors for datagrams the receiver drops besides the codec's (wi.ErrCipherLength,
// wi.ErrPadding, wi.ErrShort, wi.ErrMagic, wi.ErrVersion, wi.ErrTooLong).
var (
	// ErrLoopback: a datagram from 127.0.0.1 while loopback is off.
	ErrLoopback = errors.New("worldinfo: datagram from 127.0.0.1 with loopback off")
	// ErrOversize: a datagram longer than wi.RecvBufferSize (1416) bytes.
	ErrOversize = errors.New("worldinfo: datagram longer than 1416 bytes")
	// ErrStale: a sequence number not newer than the last one from the same sender
	// (Fawkes: "already received (loop) or replay").
	ErrStale = errors.New("worldinfo: stale sequence number")
	// ErrTooManySenders: the sequence table is full.
	ErrTooManySenders = errors.New("worldinfo: too many senders")
	// ErrHandler: a handler that cannot be registered.
	ErrHandler = errors.New("worldinfo: bad handler")
)

var localhost = netip.AddrFrom4([4]byte{127, 0, 0, 1})

// sweepEvery is how often Receive sweeps the sequence table for silent senders.
const sweepEvery = time.Second

type senderState struct {
	seq  uint32
	last time.Time
}

// Receiver applies Fawkes' receive rules to datagrams and dispatches their records to the
// registered handlers (the receive half of Fawkes' WorldInfoTransceiver). It owns no
// socket: feed it with [Receiver.Receive]. It is safe for concurrent use; datagrams are
// processed one at a time.
//
// Per datagram, in order (each drop counted by cause in [RecvStats]):
//
//  1. loopback off and the source is 127.0.0.1: dropped (ErrLoopback)
//  2. longer than 1416 bytes: dropped (ErrOversize)
//  3. decryption fails: length not a positive multiple of 16 (wi.ErrCipherLength) or bad
//     padding (wi.ErrPadding, usually a wrong key): dropped
//  4. plaintext longer than 1400 or shorter than 8 bytes, magic not 0xBEEF, version not
//     2: dropped
//  5. sequence number not greater than the last accepted one from the same source
//     address: dropped (ErrStale). A sender silent for longer than FlushAfter, or
//     last heard at a time the clock has gone back past, is forgotten first, so a
//     restarted sender is heard again.
//  6. records, in order: an unknown type or a body size that does not match the type
//     skips that record only; a record longer than the rest of the datagram, or fewer
//     than 4 bytes left for a record header, ends the datagram (the records before it
//     were delivered).
type Receiver struct {
	cipher         *wi.Cipher
	loop           bool
	type10AsGlobal bool
	flushAfter     time.Duration
	maxSenders     int
	now            func() time.Time

	hmu      sync.Mutex                // serialises handler list updates
	handlers atomic.Pointer[[]Handler] // copy on write, read without locking

	mu        sync.Mutex // guards the fields below
	senders   map[netip.Addr]senderState
	lastSweep time.Time
	plain     []byte

	st recvCounters
}

// NewReceiver returns a receiver for cfg (Key, Loop, Type10AsGlobal, FlushAfter,
// MaxSenders and Now are used).
func NewReceiver(cfg Config) (*Receiver, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	r := &Receiver{
		cipher:         wi.NewCipher(cfg.Key),
		loop:           cfg.Loop,
		type10AsGlobal: cfg.Type10AsGlobal,
		flushAfter:     cfg.FlushAfter,
		maxSenders:     cfg.MaxSenders,
		now:            cfg.Now,
		senders:        map[netip.Addr]senderState{},
		plain:          make([]byte, 0, wi.RecvBufferSize),
	}
	r.handlers.Store(&[]Handler{})
	return r, nil
}

// AddHandler registers h; registering the same handler again has no effect. h must be of
// a comparable type, such as a pointer.
func (r *Receiver) AddHandler(h Handler) error {
	if h == nil || !reflect.TypeOf(h).Comparable() {
		return fmt.Errorf("%w: %T is not comparable; register a pointer", ErrHandler, h)
	}
	r.hmu.Lock()
	defer r.hmu.Unlock()
	old := *r.handlers.Load()
	if slices.Contains(old, h) {
		return nil
	}
	hs := append(slices.Clip(old), h)
	r.handlers.Store(&hs)
	return nil
}

// RemoveHandler unregisters h; removing a handler that is not registered is harmless.
// A datagram being dispatched may still reach h.
func (r *Receiver) RemoveHandler(h Handler) {
	if h == nil || !reflect.TypeOf(h).Comparable() {
		return
	}
	r.hmu.Lock()
	defer r.hmu.Unlock()
	old := *r.handlers.Load()
	i := slices.Index(old, h)
	if i < 0 {
		return
	}
	hs := slices.Delete(slices.Clone(old), i, i+1)
	r.handlers.Store(&hs)
}

// FlushSequenceNumbers forgets the sequence numbers of senders silent for longer than age
// and returns how many were forgotten. Receive does this by itself with FlushAfter.
func (r *Receiver) FlushSequenceNumbers(age time.Duration) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.flushLocked(r.now(), age)
}

// flushLocked forgets the senders silent for longer than age at now (silentFor).
func (r *Receiver) flushLocked(now time.Time, age time.Duration) int {
	n := 0
	for a, s := range r.senders {
		if silentFor(now, s.last, age) {
			delete(r.senders, a)
			n++
		}
	}
	r.st.flushed.Add(uint64(n))
	return n
}

// silentFor reports whether a sender last heard at last counts as silent for longer than
// age at now. A last datagram after now means the clock went back (a restarted
// simulation, a stepped clock): the silence cannot be measured, and the sender counts as
// silent, so that a sender that restarted meanwhile is heard.
func silentFor(now, last time.Time, age time.Duration) bool {
	d := now.Sub(last)
	return d > age || d < 0
}

// Senders returns the number of senders whose sequence numbers are tracked.
func (r *Receiver) Senders() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.senders)
}

// Receive processes one datagram from src. It returns nil if the datagram was accepted
// (some of its records may still have been skipped, see [RecvStats]) and otherwise the
// reason it was dropped.
func (r *Receiver) Receive(src netip.Addr, datagram []byte) error {
	r.st.datagrams.Add(1)
	err := r.receive(src.Unmap(), datagram)
	if err != nil {
		r.st.count(err)
	} else {
		r.st.accepted.Add(1)
	}
	return err
}

func (r *Receiver) receive(src netip.Addr, datagram []byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.loop && src == localhost {
		return ErrLoopback
	}
	if len(datagram) > wi.RecvBufferSize {
		return fmt.Errorf("%w: %d bytes", ErrOversize, len(datagram))
	}
	plain, err := r.cipher.Open(r.plain[:0], datagram)
	if err != nil {
		return err
	}
	h, rd, err := wi.Parse(plain)
	if err != nil {
		return err
	}
	now := r.now()
	if r.flushAfter >= 0 && (now.Sub(r.lastSweep) >= min(sweepEvery, r.flushAfter) || now.Before(r.lastSweep)) {
		r.flushLocked(now, r.flushAfter)
		r.lastSweep = now
	}
	s, known := r.senders[src]
	if known && r.flushAfter >= 0 && silentFor(now, s.last, r.flushAfter) {
		delete(r.senders, src)
		r.st.flushed.Add(1)
		known = false
	}
	switch {
	case known && h.Seq <= s.seq:
		return fmt.Errorf("%w: %d from %v, last was %d", ErrStale, h.Seq, src, s.seq)
	case !known && len(r.senders) >= r.maxSenders:
		return fmt.Errorf("%w: %v would be number %d", ErrTooManySenders, src, r.maxSenders+1)
	}
	r.senders[src] = senderState{seq: h.Seq, last: now}
	r.dispatch(src, plain, &rd)
	return nil
}

// dispatch walks the records and calls the handlers.
func (r *Receiver) dispatch(from netip.Addr, plain []byte, rd *wi.Reader) {
	hs := *r.handlers.Load()
	relOff := -1
	if !r.type10AsGlobal {
		if off, ok := wi.Type10RelBall(plain); ok {
			relOff = off
			r.st.type10Pairs.Add(1)
		}
	}
	for rec, ok := rd.Next(); ok; rec, ok = rd.Next() {
		size, known := wi.BodySize(rec.Type)
		switch {
		case !known:
			r.st.unknownType.Add(1)
			continue
		case len(rec.Body) != size:
			r.st.sizeMismatch.Add(1)
			continue
		}
		r.st.records.Add(1)
		// Sizes were checked, so the decoders below cannot fail.
		switch rec.Type {
		case wi.TypePose:
			var m wi.Pose
			_ = m.UnmarshalBinary(rec.Body)
			for _, h := range hs {
				h.Pose(from, m)
			}
		case wi.TypeVelocity:
			var m wi.Velocity
			_ = m.UnmarshalBinary(rec.Body)
			for _, h := range hs {
				h.Velocity(from, m)
			}
		case wi.TypeRelBall:
			var m wi.RelBall
			_ = m.UnmarshalBinary(rec.Body)
			for _, h := range hs {
				h.RelBall(from, m)
			}
		case wi.TypeGlobalBall:
			var m wi.GlobalBall
			_ = m.UnmarshalBinary(rec.Body)
			if rec.Offset == relOff {
				rel := m.RelBall()
				for _, h := range hs {
					h.RelBall(from, rel)
				}
				break
			}
			for _, h := range hs {
				h.GlobalBall(from, m)
			}
		case wi.TypeRelBallVelocity:
			var m wi.RelBallVelocity
			_ = m.UnmarshalBinary(rec.Body)
			for _, h := range hs {
				h.RelBallVelocity(from, m)
			}
		case wi.TypeGlobalBallVelocity:
			var m wi.GlobalBallVelocity
			_ = m.UnmarshalBinary(rec.Body)
			for _, h := range hs {
				h.GlobalBallVelocity(from, m)
			}
		case wi.TypeOpponent:
			var m wi.Opponent
			_ = m.UnmarshalBinary(rec.Body)
			for _, h := range hs {
				h.Opponent(from, m)
			}
		case wi.TypeOpponentDisapp:
			var m wi.OpponentDisappeared
			_ = m.UnmarshalBinary(rec.Body)
			for _, h := range hs {
				h.OpponentDisappeared(from, m.UID)
			}
		case wi.TypeGameState:
			var m wi.GameState
			_ = m.UnmarshalBinary(rec.Body)
			for _, h := range hs {
				h.GameState(from, m)
			}
		case wi.TypePenalty:
			var m wi.Penalty
			_ = m.UnmarshalBinary(rec.Body)
			for _, h := range hs {
				h.Penalty(from, m)
			}
		case wi.TypeFat:
			r.dispatchFat(from, rec.Body, hs)
		}
	}
	if rd.Err() != nil {
		r.st.truncated.Add(1)
	}
}

// dispatchFat delivers the valid parts of a fat record, as Fawkes does: opponents are
// ignored altogether when the record claims more than ten.
func (r *Receiver) dispatchFat(from netip.Addr, body []byte, hs []Handler) {
	var f wi.Fat
	_ = f.UnmarshalBinary(body)
	opps := f.ValidOpponents()
	if f.NumOpponents > wi.FatOpponents {
		r.st.fatOpponents.Add(1)
	}
	for _, h := range hs {
		if f.ValidPose {
			h.Pose(from, f.Pose)
		}
		if f.ValidVelocity {
			h.Velocity(from, f.Velocity)
		}
		if f.ValidRelBall {
			h.RelBall(from, f.RelBall)
		}
		if f.ValidRelBallVelocity {
			h.RelBallVelocity(from, f.RelBallVel)
		}
		for _, o := range opps {
			h.Opponent(from, o)
		}
	}
}

// RecvStats counts what the receiver did with datagrams and records. Every datagram
// passed to Receive is counted in Datagrams and then in exactly one of Accepted or a drop
// counter, so Datagrams == Accepted + Dropped() whenever no Receive is in progress.
type RecvStats struct {
	Datagrams uint64 // passed to Receive
	Accepted  uint64 // passed all datagram checks; records dispatched

	// Datagram drops by cause.
	Loopback       uint64 // from 127.0.0.1 with loopback off
	Oversize       uint64 // longer than 1416 bytes
	CipherLength   uint64 // ciphertext length not a positive multiple of 16
	Padding        uint64 // bad padding after decryption (wrong key, junk)
	TooLong        uint64 // plaintext longer than 1400 bytes
	Short          uint64 // plaintext shorter than the 8-byte header
	Magic          uint64 // first two bytes not 0xBEEF
	Version        uint64 // version not 2
	Stale          uint64 // sequence number not newer than the sender's last
	TooManySenders uint64 // sequence table full
	Other          uint64 // any other error (none expected)

	// Records of accepted datagrams.
	Records      uint64 // delivered to the handlers
	UnknownType  uint64 // skipped: unknown record type
	SizeMismatch uint64 // skipped: body size does not match the type
	Truncated    uint64 // datagrams whose last record was cut short (rest ignored)
	FatOpponents uint64 // fat records claiming more than 10 opponents (opponents ignored)
	Type10Pairs  uint64 // type-10 pairs whose first record was delivered as relative ball

	// Flushed counts senders forgotten after FlushAfter of silence.
	Flushed uint64
}

// Dropped returns the number of datagrams dropped, all causes together.
func (s RecvStats) Dropped() uint64 {
	return s.Loopback + s.Oversize + s.CipherLength + s.Padding + s.TooLong + s.Short +
		s.Magic + s.Version + s.Stale + s.TooManySenders + s.Other
}

type recvCounters struct {
	datagrams, accepted                                 atomic.Uint64
	loopback, oversize, cipherLength, padding, tooLong  atomic.Uint64
	short, magic, version, stale, tooManySenders, other atomic.Uint64
	records, unknownType, sizeMismatch, truncated       atomic.Uint64
	fatOpponents, type10Pairs, flushed                  atomic.Uint64
}

func (c *recvCounters) count(err error) {
	for _, k := range [...]struct {
		err error
		n   *atomic.Uint64
	}{
		{ErrLoopback, &c.loopback}, {ErrOversize, &c.oversize},
		{wi.ErrCipherLength, &c.cipherLength}, {wi.ErrPadding, &c.padding},
		{wi.ErrTooLong, &c.tooLong}, {wi.ErrShort, &c.short}, {wi.ErrMagic, &c.magic},
		{wi.ErrVersion, &c.version}, {ErrStale, &c.stale},
		{ErrTooManySenders, &c.tooManySenders},
	} {
		if errors.Is(err, k.err) {
			k.n.Add(1)
			return
		}
	}
	c.other.Add(1)
}

// Stats returns a snapshot of the receiver's counters.
func (r *Receiver) Stats() RecvStats {
	c := &r.st
	return RecvStats{
		Datagrams: c.datagrams.Load(), Accepted: c.accepted.Load(),
		Loopback: c.loopback.Load(), Oversize: c.oversize.Load(),
		CipherLength: c.cipherLength.Load(), Padding: c.padding.Load(),
		TooLong: c.tooLong.Load(), Short: c.short.Load(), Magic: c.magic.Load(),
		Version: c.version.Load(), Stale: c.stale.Load(),
		TooManySenders: c.tooManySenders.Load(), Other: c.other.Load(),
		Records: c.records.Load(), UnknownType: c.unknownType.Load(),
		SizeMismatch: c.sizeMismatch.Load(), Truncated: c.truncated.Load(),
		FatOpponents: c.fatOpponents.Load(), Type10Pairs: c.type10Pairs.Load(),
		Flushed: c.flushed.Load(),
	}
}
