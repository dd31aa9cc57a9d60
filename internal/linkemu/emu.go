package linkemu

import (
	"container/heap"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"time"
)

// Impairment is what one direction of a link does to the UDP datagrams it carries.
// The zero value is a perfect link.
type Impairment struct {
	Loss        float64       // probability a frame is lost
	Delay       time.Duration // mean one-way delay
	Jitter      time.Duration // delay spread uniformly over Delay ± Jitter
	Reorder     float64       // probability a frame skips the delay and overtakes
	Duplicate   float64       // probability a second copy follows
	Corrupt     float64       // probability CorruptBits payload bits are flipped
	CorruptBits int           // bits flipped in a corrupted frame; 0 means 1
	BadChecksum bool          // leave a corrupted frame's checksum wrong
	Blackhole   bool          // lose every frame
	// Mangle, when set, corrupts a frame chosen by Corrupt instead of the random bits:
	// it changes the UDP payload in place (a test's forged field) and reports whether
	// it changed anything. It runs with the emulator's lock held.
	Mangle func(payload []byte) bool
}

// Stats count what one direction did with the UDP frames offered to it.
type Stats struct {
	Offered     uint64 // UDP frames from the sending host meant for the receiving one
	Lost        uint64 // lost (Loss or Blackhole)
	NoCarrier   uint64 // dropped because a host's carrier was off (when offered, or the receiver's at release)
	WriteErrors uint64 // the receiving TAP refused the write
	Delivered   uint64 // written to the receiving host, copies included
	Duplicated  uint64 // extra copies made
	Corrupted   uint64 // written with flipped payload bits (copies counted each)
	Reordered   uint64 // written after a frame offered later in this direction
	Other       uint64 // frames other than UDP, passed at once
}

// Fate is what became of one UDP frame offered to a direction.
type Fate uint8

// Fates.
const (
	Delivered Fate = iota
	Lost           // Loss or Blackhole
	NoCarrier      // a host's carrier was off
)

// Delivery is one UDP frame offered to a direction: written to the receiving host
// (Fate Delivered), or not.
type Delivery struct {
	Fate             Fate
	Offered, Written time.Time // when it was read from the sender, written to the receiver (the write's start)
	Port             uint16    // its UDP destination port
	Seq              uint64    // its place among the frames offered to the direction, from 1
	Copy             bool      // the duplicate of an earlier delivery
	Corrupted        bool
	// Drawn is the delay the impairment drew for it; the write comes at least that
	// late, later when the machine is busy.
	Drawn time.Duration
	// Head holds the first bytes of its UDP payload as written (a test reads the
	// sender's stamp there).
	Head [HeadSize]byte
}

// HeadSize is how much of each UDP payload a Delivery keeps.
const HeadSize = 32

// Delay returns how long a delivered frame was held.
func (d Delivery) Delay() time.Duration { return d.Written.Sub(d.Offered) }

// MaxDeliveries bounds the frames an Emulator records, over all directions.
const MaxDeliveries = 500_000

// Host is one TAP device attached to an Emulator.
type Host struct {
	Name    string
	idx     int
	tap     *os.File
	carrier bool // guarded by the Emulator's mu
	out     outQueue
}

type pair struct{ from, to int }

// Emulator switches Ethernet frames between its hosts' TAP devices and impairs them.
type Emulator struct {
	mu         sync.Mutex
	rng        *rand.Rand
	hosts      []*Host
	macs       map[[6]byte]*Host
	imp        map[pair]Impairment
	stats      map[pair]*Stats
	maxSeq     map[pair]uint64 // the highest Seq written per direction
	deliveries map[pair][]Delivery
	recorded   int
	started    bool
	done       chan struct{}
	wg         sync.WaitGroup
}

// New returns an emulator whose random draws come from seed.
func New(seed uint64) *Emulator {
	return &Emulator{
		rng: rand.New(rand.NewPCG(seed, 0x11e40)), macs: map[[6]byte]*Host{}, imp: map[pair]Impairment{},
		stats: map[pair]*Stats{}, maxSeq: map[pair]uint64{}, deliveries: map[pair][]Delivery{},
		done: make(chan struct{}),
	}
}

// Attach adds a host whose TAP device is tap (from OpenTAP); the emulator closes it.
// Hosts are attached before Start.
func (e *Emulator) Attach(name string, tap *os.File) (*Host, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.started {
		return nil, errors.New("linkemu: attach after Start")
	}
	h := &Host{Name: name, idx: len(e.hosts), tap: tap, carrier: true}
	h.out.wake = make(chan struct{}, 1)
	e.hosts = append(e.hosts, h)
	return h, nil
}

// Set sets the impairment of frames from host from to host to; a nil host stands for
// every host.
func (e *Emulator) Set(from, to *Host, imp Impairment) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, f := range e.hosts {
		for _, t := range e.hosts {
			if f != t && (from == nil || from == f) && (to == nil || to == t) {
				e.imp[pair{f.idx, t.idx}] = imp
			}
		}
	}
}

// SetCarrier switches host h's carrier on or off.
func (e *Emulator) SetCarrier(h *Host, on bool) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := setCarrier(h.tap, on); err != nil {
		return err
	}
	h.carrier = on
	return nil
}

// Stats returns the counters of the direction from -> to.
func (e *Emulator) Stats(from, to *Host) Stats {
	e.mu.Lock()
	defer e.mu.Unlock()
	if s := e.stats[pair{from.idx, to.idx}]; s != nil {
		return *s
	}
	return Stats{}
}

// Deliveries returns the UDP frames written in the direction from -> to, in the order
// they were written.
func (e *Emulator) Deliveries(from, to *Host) []Delivery {
	var out []Delivery
	for _, d := range e.Records(from, to) {
		if d.Fate == Delivered {
			out = append(out, d)
		}
	}
	return out
}

// Records returns every UDP frame offered to the direction from -> to with its fate:
// lost ones when they were offered, delivered ones when they were written.
func (e *Emulator) Records(from, to *Host) []Delivery {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]Delivery(nil), e.deliveries[pair{from.idx, to.idx}]...)
}

// Start runs the emulator: a reader and a writer goroutine per host.
func (e *Emulator) Start() {
	e.mu.Lock()
	e.started = true
	hosts := append([]*Host(nil), e.hosts...)
	e.mu.Unlock()
	for _, h := range hosts {
		e.wg.Add(2)
		go e.read(h)
		go e.write(h)
	}
}

// Close stops the emulator and closes the TAP devices (which deletes them).
func (e *Emulator) Close() error {
	e.mu.Lock()
	select {
	case <-e.done:
		e.mu.Unlock()
		return nil
	default:
	}
	close(e.done)
	hosts := e.hosts
	e.mu.Unlock()
	var errs []error
	for _, h := range hosts {
		errs = append(errs, h.tap.Close())
	}
	e.wg.Wait()
	return errors.Join(errs...)
}

// read forwards every frame host h sends.
func (e *Emulator) read(h *Host) {
	defer e.wg.Done()
	buf := make([]byte, 65536)
	for {
		n, err := h.tap.Read(buf)
		if err != nil {
			return // closed
		}
		e.route(h, append([]byte(nil), buf[:n]...), time.Now())
	}
}

// route switches one frame from src, read at at.
func (e *Emulator) route(src *Host, f []byte, at time.Time) {
	if len(f) < ethHeader {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.macs[srcMAC(f)] = src
	mac, group := dstMAC(f)
	if d := e.macs[mac]; !group && d != nil {
		if d != src {
			e.offer(src, d, f, at)
		}
		return
	}
	for _, d := range e.hosts {
		if d != src {
			e.offer(src, d, f, at)
		}
	}
}

// offer applies the direction's impairment to one frame; e.mu is held.
func (e *Emulator) offer(src, dst *Host, f []byte, at time.Time) {
	k := pair{src.idx, dst.idx}
	st := e.stats[k]
	if st == nil {
		st = &Stats{}
		e.stats[k] = st
	}
	u, err := parseUDP(f)
	if err != nil {
		st.Other++
		if dst.carrier {
			dst.out.push(item{release: at, frame: append([]byte(nil), f...), dir: k, offered: at})
		}
		return
	}
	st.Offered++
	seq := st.Offered
	imp := e.imp[k]
	switch {
	case !src.carrier || !dst.carrier:
		st.NoCarrier++
		e.record(k, Delivery{Fate: NoCarrier, Offered: at, Port: u.dstPort, Seq: seq})
		return
	case imp.Blackhole || imp.Loss > 0 && e.rng.Float64() < imp.Loss:
		st.Lost++
		e.record(k, Delivery{Fate: Lost, Offered: at, Port: u.dstPort, Seq: seq})
		return
	}
	copies := 1
	if imp.Duplicate > 0 && e.rng.Float64() < imp.Duplicate {
		copies = 2
		st.Duplicated++
	}
	for c := range copies {
		g := append([]byte(nil), f...)
		corrupted := false
		if imp.Corrupt > 0 && e.rng.Float64() < imp.Corrupt {
			gu, _ := parseUDP(g)
			if imp.Mangle != nil {
				corrupted = gu.mangle(imp.Mangle, imp.BadChecksum)
			} else {
				corrupted = gu.corrupt(e.rng, imp.CorruptBits, imp.BadChecksum)
			}
		}
		delay := imp.Delay
		if imp.Jitter > 0 {
			delay += time.Duration(e.rng.Int64N(int64(2*imp.Jitter)+1)) - imp.Jitter
		}
		if imp.Reorder > 0 && e.rng.Float64() < imp.Reorder {
			delay = 0
		}
		delay = max(delay, 0)
		it := item{release: at.Add(delay), frame: g, dir: k, offered: at, udp: true,
			port: u.dstPort, seq: seq, copy: c == 1, corrupted: corrupted}
		gu, _ := parseUDP(g)
		copy(it.head[:], gu.udp[udpHeader:])
		dst.out.push(it)
	}
}

// write writes the frames queued for host h at their release times.
func (e *Emulator) write(h *Host) {
	defer e.wg.Done()
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		it, wait, ok := h.out.next(time.Now())
		if ok {
			if !e.carrierOn(h, it) {
				continue
			}
			// Stamped before the write: the receiving kernel may deliver the frame, and a
			// process read it, before Write returns.
			at := time.Now()
			_, err := h.tap.Write(it.frame)
			e.written(h, it, err, at)
			continue
		}
		timer.Reset(wait)
		select {
		case <-e.done:
			return
		case <-h.out.wake:
		case <-timer.C:
		}
	}
}

// carrierOn reports whether h's carrier is on now, when the frame it is about to get is
// released. A UDP frame held while the carrier went off is counted NoCarrier: the host
// gets nothing while its carrier is off, whenever the frame was offered.
func (e *Emulator) carrierOn(h *Host, it item) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if h.carrier {
		return true
	}
	if it.udp {
		e.stats[it.dir].NoCarrier++
		e.record(it.dir, Delivery{Fate: NoCarrier, Offered: it.offered, Port: it.port, Seq: it.seq, Copy: it.copy})
	}
	return false
}

// written counts one write.
func (e *Emulator) written(h *Host, it item, err error, now time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !it.udp {
		return
	}
	st := e.stats[it.dir]
	if err != nil {
		st.WriteErrors++
		return
	}
	st.Delivered++
	if it.corrupted {
		st.Corrupted++
	}
	if it.seq < e.maxSeq[it.dir] {
		st.Reordered++
	}
	e.maxSeq[it.dir] = max(e.maxSeq[it.dir], it.seq)
	e.record(it.dir, Delivery{Offered: it.offered, Written: now, Port: it.port, Seq: it.seq, Copy: it.copy,
		Corrupted: it.corrupted, Drawn: it.release.Sub(it.offered), Head: it.head})
}

// record keeps d for the direction k, up to MaxDeliveries in all; e.mu is held.
func (e *Emulator) record(k pair, d Delivery) {
	if e.recorded < MaxDeliveries {
		e.recorded++
		e.deliveries[k] = append(e.deliveries[k], d)
	}
}

// InFlight returns the number of frames held for their release.
func (e *Emulator) InFlight() int {
	e.mu.Lock()
	hosts := e.hosts
	e.mu.Unlock()
	n := 0
	for _, h := range hosts {
		h.out.mu.Lock()
		n += len(h.out.h)
		h.out.mu.Unlock()
	}
	return n
}

// item is one frame waiting for its release.
type item struct {
	release, offered time.Time
	frame            []byte
	dir              pair
	udp              bool
	port             uint16
	seq              uint64
	copy, corrupted  bool
	head             [HeadSize]byte
	order            uint64 // push order, to keep equal releases in order
}

// outQueue is a host's frames by release time.
type outQueue struct {
	mu   sync.Mutex
	h    itemHeap
	n    uint64
	wake chan struct{}
}

func (q *outQueue) push(it item) {
	q.mu.Lock()
	q.n++
	it.order = q.n
	heap.Push(&q.h, it)
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// next pops the first frame due at now, or says how long to wait for it.
func (q *outQueue) next(now time.Time) (item, time.Duration, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.h) == 0 {
		return item{}, time.Hour, false
	}
	if d := q.h[0].release.Sub(now); d > 0 {
		return item{}, d, false
	}
	return heap.Pop(&q.h).(item), 0, true
}

type itemHeap []item

func (h itemHeap) Len() int { return len(h) }
func (h itemHeap) Less(i, j int) bool {
	if !h[i].release.Equal(h[j].release) {
		return h[i].release.Before(h[j].release)
	}
	return h[i].order < h[j].order
}
func (h itemHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *itemHeap) Push(x any)   { *h = append(*h, x.(item)) }
func (h *itemHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}

// String describes an impairment for logs.
func (i Impairment) String() string {
	if i.Blackhole {
		return "blackhole"
	}
	return fmt.Sprintf("loss %.0f%%, delay %v ± %v, reorder %.0f%%, duplicate %.0f%%, corrupt %.1f%%",
		100*i.Loss, i.Delay, i.Jitter, 100*i.Reorder, 100*i.Duplicate, 100*i.Corrupt)
}
