package linkq

import (
	"math"
	"time"
)

// Defaults.
const (
	// DefaultWindow is how far back Quality looks.
	DefaultWindow = 10 * time.Second
	// MaxEntries bounds the packets a tracker remembers (30 a second for 10 s, with room
	// for duplicates).
	MaxEntries = 512
	// MaxJump is how far a sequence number may be from the newest before the numbering
	// counts as restarted. It is as far back as the duplicate check remembers, so
	// every packet of the current numbering is told apart from a duplicate.
	MaxJump = seenBits - 1
)

// kind of a remembered packet.
type kind uint8

const (
	kindNew kind = iota
	kindLate
	kindDup
)

type entry struct {
	at      time.Time
	transit time.Duration
	seq     uint32
	kind    kind
	hasSeq  bool
}

// Tracker measures one sender's link. The zero value is ready with DefaultWindow.
type Tracker struct {
	// Window is how far back Quality looks; 0: DefaultWindow.
	Window time.Duration

	ring   []entry // oldest first from head
	head   int
	top    uint32 // newest sequence number
	hasTop bool
	bits   bitmap    // which numbers up to top arrived
	last   time.Time // the last packet, of any kind

	dups, late uint64 // totals
}

// Quality is a tracker's summary at one time.
type Quality struct {
	Window time.Duration
	// Received counts distinct packets in the window, Expected the sequence numbers it
	// spans (0 when the packets carry none), Lost the difference.
	Received, Expected, Lost int
	// Loss is Lost / Expected, NaN when unknown.
	Loss float64
	// Duplicates and Reordered count the window's packets that came again or late.
	Duplicates, Reordered int
	// TotalDuplicates and TotalReordered count them since the tracker started.
	TotalDuplicates, TotalReordered uint64
	// DelayKnown says whether Delay holds: the caller gave the sender's clock offset.
	DelayKnown bool
	// Delay is the mean one-way delay in the window, DelayBound its largest error.
	Delay, DelayBound time.Duration
	// JitterKnown says whether Jitter holds (two packets or more in the window).
	JitterKnown bool
	Jitter      time.Duration
	// Age is the time since the last packet (HasPacket says there was one).
	Age       time.Duration
	HasPacket bool
	// Rate is packets a second over the window's packets (0 with fewer than two).
	Rate float64
}

func (t *Tracker) window() time.Duration {
	if t.Window <= 0 {
		return DefaultWindow
	}
	return t.Window
}

// Observe records one packet received at our time at with the given transit (our
// receive time minus its stamp). hasSeq says whether it carries a sequence number seq;
// restart says the caller knows the sender's numbering started afresh at it.
func (t *Tracker) Observe(seq uint32, hasSeq, restart bool, transit time.Duration, at time.Time) {
	t.last = at
	e := entry{at: at, transit: transit, seq: seq, hasSeq: hasSeq}
	if hasSeq {
		d := int64(int32(seq - t.top))
		if restart || !t.hasTop || d > MaxJump || d < -MaxJump {
			t.ring, t.head = t.ring[:0], 0
			t.top, t.hasTop, t.bits = seq, true, bitmap{}
		}
		switch back := t.top - seq; {
		case int32(back) >= 0 && t.bits.get(back):
			e.kind = kindDup
			t.dups++
		case int32(back) > 0:
			e.kind = kindLate
			t.late++
			t.bits.set(back)
		default:
			t.bits.shift(seq - t.top)
			t.bits.set(0)
			t.top = seq
		}
	}
	t.push(e)
}

// seenBits is how many numbers below the newest the duplicate check remembers (17 s
// at dnetwork's fastest 30 packets a second).
const seenBits = 512

// bitmap marks which of the seenBits numbers up to the newest arrived: bit i is top-i.
type bitmap [seenBits / 64]uint64

func (b *bitmap) get(i uint32) bool { return i < seenBits && b[i/64]&(1<<(i%64)) != 0 }

func (b *bitmap) set(i uint32) {
	if i < seenBits {
		b[i/64] |= 1 << (i % 64)
	}
}

// shift moves every mark d numbers further from the newest.
func (b *bitmap) shift(d uint32) {
	if d >= seenBits {
		*b = bitmap{}
		return
	}
	words, bits := int(d/64), d%64
	for i := len(b) - 1; i >= 0; i-- {
		var v uint64
		if j := i - words; j >= 0 {
			v = b[j] << bits
			if bits > 0 && j > 0 {
				v |= b[j-1] >> (64 - bits)
			}
		}
		b[i] = v
	}
}

// push appends e, dropping the oldest entry when full.
func (t *Tracker) push(e entry) {
	if len(t.ring) < MaxEntries {
		// Entries are appended in order; head stays 0 until the ring is full.
		t.ring = append(t.ring, e)
		return
	}
	t.ring[t.head] = e
	t.head = (t.head + 1) % len(t.ring)
}

// Quality summarises the packets received within the window before now. offset is the
// sender's clock minus ours with its error bound when known, for the delay.
func (t *Tracker) Quality(now time.Time, offset, bound time.Duration, known bool) Quality {
	w := t.window()
	q := Quality{Window: w, Loss: math.NaN(), TotalDuplicates: t.dups, TotalReordered: t.late}
	if !t.last.IsZero() {
		q.Age, q.HasPacket = max(now.Sub(t.last), 0), true
	}
	from := now.Add(-w)
	n := len(t.ring)
	var (
		sum, absDiff   time.Duration
		count, pairs   int
		prev           time.Duration
		first, lastAt  time.Time
		newest, oldest int64 = math.MaxInt64, -1
		numbered       int
		hasSeqs        bool
	)
	for i := range n {
		e := &t.ring[(t.head+i)%n]
		if !e.at.After(from) || e.at.After(now) {
			continue
		}
		switch e.kind {
		case kindDup:
			q.Duplicates++
			continue
		case kindLate:
			q.Reordered++
		}
		if count > 0 {
			d := e.transit - prev
			if d < 0 {
				d = -d
			}
			absDiff += d
			pairs++
		} else {
			first = e.at
		}
		prev, lastAt = e.transit, e.at
		sum += e.transit
		count++
		if e.hasSeq {
			hasSeqs = true
			numbered++
			back := int64(t.top - e.seq) // 0 .. MaxJump: within the current numbering
			newest, oldest = min(newest, back), max(oldest, back)
		}
	}
	q.Received = count
	if hasSeqs {
		q.Expected = int(oldest-newest) + 1
		q.Received = numbered
		q.Lost = max(q.Expected-q.Received, 0)
		q.Loss = float64(q.Lost) / float64(q.Expected)
	}
	if count > 0 && known {
		q.DelayKnown = true
		q.Delay = sum/time.Duration(count) + offset
		q.DelayBound = bound + time.Millisecond
	}
	if pairs > 0 {
		q.JitterKnown, q.Jitter = true, absDiff/time.Duration(pairs)
	}
	if count > 1 {
		if span := lastAt.Sub(first); span > 0 {
			q.Rate = float64(count-1) / span.Seconds()
		}
	}
	return q
}
