package linkemu

import (
	"encoding/binary"
	"math"
	"net"
	"net/netip"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/netnstest"
	"github.com/robocup-dnetwork/dnetwork/transport/udpstat"
)

// lab is three hosts on one emulated segment: a 10.94.0.1, b .2, c .3.
type lab struct {
	e    *Emulator
	ns   [3]*netnstest.NS
	h    [3]*Host
	addr [3]netip.Addr
	// sent counts the UDP frames send made for each direction (sender, receiver): the
	// emulator offers them once it has read them from the sender's TAP.
	sent [3][3]uint64
}

func newLab(t *testing.T) *lab {
	t.Helper()
	netnstest.Require(t)
	l := &lab{e: New(42)}
	for i, n := range []string{"a", "b", "c"} {
		l.ns[i] = netnstest.New(t, "e"+n)
		l.addr[i] = netip.AddrFrom4([4]byte{10, 94, 0, byte(i + 1)})
		l.h[i] = AddHost(t, l.e, l.ns[i], n, "eth0", l.addr[i].String()+"/24")
	}
	l.e.Start()
	t.Cleanup(func() { l.e.Close() })
	return l
}

// listen opens a UDP socket on port inside host i.
func (l *lab) listen(t *testing.T, i int, port int) *net.UDPConn {
	t.Helper()
	var c *net.UDPConn
	if err := l.ns[i].Do(func() (err error) {
		c, err = net.ListenUDP("udp4", &net.UDPAddr{Port: port})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// arrival is one datagram a receiver read: the sender's number and send time, and
// whether the payload was intact.
type arrival struct {
	n      uint32
	sent   time.Time
	at     time.Time
	intact bool
}

// receive reads datagrams of the numbered format until the socket closes.
func receive(c *net.UDPConn, out *[]arrival, mu *sync.Mutex) {
	buf := make([]byte, 2048)
	for {
		n, err := c.Read(buf)
		if err != nil {
			return
		}
		at := time.Now()
		if n != 200 {
			continue
		}
		a := arrival{n: binary.BigEndian.Uint32(buf), sent: time.Unix(0, int64(binary.BigEndian.Uint64(buf[4:]))), at: at, intact: true}
		for _, b := range buf[12:n] {
			if b != 0x5a {
				a.intact = false
			}
		}
		mu.Lock()
		*out = append(*out, a)
		mu.Unlock()
	}
}

// send sends count numbered datagrams of 200 bytes from host i to dst, one every
// period.
func (l *lab) send(t *testing.T, i int, dst netip.AddrPort, count int, period time.Duration) {
	t.Helper()
	c := l.listen(t, i, 0)
	if err := setBroadcast(c); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 200)
	for j := 12; j < len(b); j++ {
		b[j] = 0x5a
	}
	tk := time.NewTicker(period)
	defer tk.Stop()
	for k := range count {
		binary.BigEndian.PutUint32(b, uint32(k))
		binary.BigEndian.PutUint64(b[4:], uint64(time.Now().UnixNano()))
		if _, err := c.WriteToUDPAddrPort(b, dst); err != nil {
			t.Fatal(err)
		}
		<-tk.C
	}
	for j := range l.h {
		if j != i && (dst.Addr() == l.addr[j] || dst.Addr() == bcastAddr) {
			l.sent[i][j] += uint64(count)
		}
	}
}

// bcastAddr is the lab's broadcast address.
var bcastAddr = netip.MustParseAddr("10.94.0.255")

func setBroadcast(c *net.UDPConn) error {
	rc, err := c.SyscallConn()
	if err != nil {
		return err
	}
	return rc.Control(func(fd uintptr) { _ = setsockoptBroadcast(int(fd)) })
}

// receiver is a socket of host host whose datagrams a goroutine (receive) collects:
// got returns how many it has so far, base is the host's UDP counters before anything
// was sent to it.
type receiver struct {
	host int
	got  func() int
	base udpstat.Counters
}

// collected returns a function that reads len(*got) under mu.
func collected(got *[]arrival, mu *sync.Mutex) func() int {
	return func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(*got)
	}
}

// udp reads host i's UDP counters.
func (l *lab) udp(t *testing.T, i int) udpstat.Counters {
	t.Helper()
	var c udpstat.Counters
	if err := l.ns[i].Do(func() (err error) { c, err = udpstat.Read(); return err }); err != nil {
		t.Fatal(err)
	}
	return c
}

// settle waits until the emulator has offered every frame send made (it reads them
// from the sender's TAP some time after the send: InFlight counts only the frames it
// holds), nothing is held, the kernel of each receiver's host has
// accounted for every frame the emulator wrote to it (a datagram read from a socket,
// or one counted as an error, for no port or as an unwanted broadcast), and each
// receiver has collected every datagram read from its socket.
func (l *lab) settle(t *testing.T, rs ...receiver) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for i := range l.h {
		for j := range l.h {
			for i != j && l.e.Stats(l.h[i], l.h[j]).Offered < l.sent[i][j] {
				if time.Now().After(deadline) {
					t.Fatalf("%d of %d frames from host %d to %d offered", l.e.Stats(l.h[i], l.h[j]).Offered, l.sent[i][j], i, j)
				}
				time.Sleep(10 * time.Millisecond)
			}
		}
	}
	for l.e.InFlight() > 0 {
		if time.Now().After(deadline) {
			t.Fatal("frames still in flight")
		}
		time.Sleep(10 * time.Millisecond)
	}
	deadline = time.Now().Add(5 * time.Second)
	for _, r := range rs {
		var written uint64
		for j := range l.h {
			if j != r.host {
				written += l.e.Stats(l.h[j], l.h[r.host]).Delivered
			}
		}
		for {
			d := l.udp(t, r.host).Sub(r.base)
			got := uint64(r.got())
			if d.InDatagrams+d.InErrors+d.NoPorts+d.IgnoredMulti >= written && got >= d.InDatagrams {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("host %d: %d frames written to it, its kernel counts %+v, %d collected", r.host, written, d, got)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

func checkBalance(t *testing.T, what string, s Stats) {
	t.Helper()
	if s.Offered+s.Duplicated != s.Lost+s.NoCarrier+s.WriteErrors+s.Delivered {
		t.Errorf("%s: accounting does not balance: %+v", what, s)
	}
}

// TestImpairments: what arrives at the receiver is what the emulator says it delivered,
// and the loss, delay, jitter, duplicates and corruption it applied are the ones asked
// for, within the spread of 1500 draws.
func TestImpairments(t *testing.T) {
	l := newLab(t)
	imp := Impairment{Loss: 0.2, Delay: 20 * time.Millisecond, Jitter: 10 * time.Millisecond, Duplicate: 0.05, Corrupt: 0.05, CorruptBits: 3}
	l.e.Set(l.h[0], l.h[1], imp)
	rx := l.listen(t, 1, 5000)
	var got []arrival
	var mu sync.Mutex
	go receive(rx, &got, &mu)
	r := receiver{host: 1, got: collected(&got, &mu), base: l.udp(t, 1)}
	const count = 1500
	l.send(t, 0, netip.AddrPortFrom(l.addr[1], 5000), count, 2*time.Millisecond)
	l.settle(t, r)
	rx.Close()

	s := l.e.Stats(l.h[0], l.h[1])
	checkBalance(t, "a->b", s)
	mu.Lock()
	defer mu.Unlock()
	corrupted, intact := 0, 0
	var sum time.Duration
	for _, a := range got {
		if !a.intact {
			corrupted++ // its send time may be corrupted too
			continue
		}
		intact++
		sum += a.at.Sub(a.sent)
	}
	if s.Offered != count || uint64(len(got)) != s.Delivered || uint64(corrupted) > s.Corrupted {
		t.Fatalf("%d sent, %d arrived (%d corrupted); emulator %+v", count, len(got), corrupted, s)
	}
	loss := float64(s.Lost) / float64(s.Offered)
	if math.Abs(loss-0.2) > 0.04 || s.Duplicated < 30 || s.Duplicated > 120 || s.Corrupted < 30 || s.Corrupted > 120 {
		t.Fatalf("draws off: loss %.3f, %+v", loss, s)
	}
	// Delays: what the emulator drew, and that no frame left before it; the receiver's
	// clock (one machine) agrees with the emulator's records.
	dl := l.e.Deliveries(l.h[0], l.h[1])
	var drawnSum, heldSum, diffSum time.Duration
	var late []time.Duration
	for i, d := range dl {
		if d.Drawn < imp.Delay-imp.Jitter || d.Drawn > imp.Delay+imp.Jitter || d.Delay() < d.Drawn {
			t.Fatalf("delivery %d: drawn %v, held %v", i, d.Drawn, d.Delay())
		}
		drawnSum += d.Drawn
		heldSum += d.Delay()
		late = append(late, d.Delay()-d.Drawn)
		if i > 0 {
			diffSum += (d.Delay() - dl[i-1].Delay()).Abs()
		}
	}
	drawn, held := drawnSum/time.Duration(len(dl)), heldSum/time.Duration(len(dl))
	mean := sum / time.Duration(intact)
	if (drawn-imp.Delay).Abs() > 1500*time.Microsecond || (mean-held).Abs() > 2*time.Millisecond {
		t.Fatalf("mean delay drawn %v, held %v, at the receiver %v", drawn, held, mean)
	}
	lost := 0
	for _, r := range l.e.Records(l.h[0], l.h[1]) {
		if r.Fate == Lost {
			lost++
		}
	}
	if uint64(lost) != s.Lost {
		t.Fatalf("%d lost frames recorded, %d counted", lost, s.Lost)
	}
	slices.Sort(late)
	if med := late[len(late)/2]; med > 5*time.Millisecond {
		t.Fatalf("frames leave a median %v after their release", med)
	}
	if s.Reordered == 0 {
		t.Error("a 10 ms jitter on 2 ms spacing reordered nothing")
	}
	t.Logf("%d offered: %d lost (%.1f %%), %d duplicated, %d corrupted, %d reordered; delay drawn %v, held %v (late by %v median, %v at most), at the receiver %v; jitter %v (2j/3 = %v)",
		s.Offered, s.Lost, 100*loss, s.Duplicated, s.Corrupted, s.Reordered, drawn, held, late[len(late)/2], late[len(late)-1], mean,
		diffSum/time.Duration(len(dl)-1), 2*imp.Jitter/3)
}

// TestBadChecksum: corrupted datagrams whose checksum is left wrong never reach the
// socket; the receiving namespace counts each as a checksum error, and the socket's
// kernel drop count covers them.
func TestBadChecksum(t *testing.T) {
	l := newLab(t)
	l.e.Set(l.h[0], l.h[1], Impairment{Corrupt: 0.1, BadChecksum: true})
	var before udpstat.Counters
	if err := l.ns[1].Do(func() (err error) { before, err = udpstat.Read(); return err }); err != nil {
		t.Fatal(err)
	}
	rx := l.listen(t, 1, 5001)
	var got []arrival
	var mu sync.Mutex
	go receive(rx, &got, &mu)
	l.send(t, 0, netip.AddrPortFrom(l.addr[1], 5001), 500, time.Millisecond)
	l.settle(t, receiver{host: 1, got: collected(&got, &mu), base: before})
	var after udpstat.Counters
	if err := l.ns[1].Do(func() (err error) { after, err = udpstat.Read(); return err }); err != nil {
		t.Fatal(err)
	}
	rx.Close()
	s := l.e.Stats(l.h[0], l.h[1])
	d := after.Sub(before)
	mu.Lock()
	n := len(got)
	mu.Unlock()
	if s.Corrupted == 0 || d.InCsumErrors != s.Corrupted || d.RcvbufErrors != 0 || uint64(n) != s.Delivered-s.Corrupted {
		t.Fatalf("emulator %+v; namespace %+v; %d arrived", s, d, n)
	}
	for _, a := range got {
		if !a.intact {
			t.Fatal("a corrupted datagram with a bad checksum arrived")
		}
	}
	t.Logf("%d corrupted with a bad checksum: %d checksum errors in the namespace, %d arrived", s.Corrupted, d.InCsumErrors, n)
}

// TestBroadcastCarrierBlackhole: every receiver of a broadcast draws its own loss; a
// blackhole loses everything; a host without carrier gets nothing and sends nothing.
func TestBroadcastCarrierBlackhole(t *testing.T) {
	l := newLab(t)
	l.e.Set(l.h[0], l.h[1], Impairment{Loss: 0.5})
	l.e.Set(l.h[0], l.h[2], Impairment{Blackhole: true})
	rb, rc := l.listen(t, 1, 5002), l.listen(t, 2, 5002)
	var gb, gc []arrival
	var mu sync.Mutex
	go receive(rb, &gb, &mu)
	go receive(rc, &gc, &mu)
	rs := []receiver{{host: 1, got: collected(&gb, &mu), base: l.udp(t, 1)}, {host: 2, got: collected(&gc, &mu), base: l.udp(t, 2)}}
	bcast := netip.AddrPortFrom(bcastAddr, 5002)
	l.send(t, 0, bcast, 400, time.Millisecond)
	l.settle(t, rs...)
	sb, sc := l.e.Stats(l.h[0], l.h[1]), l.e.Stats(l.h[0], l.h[2])
	mu.Lock()
	nb, nc := len(gb), len(gc)
	mu.Unlock()
	if sb.Offered != 400 || uint64(nb) != sb.Delivered || math.Abs(float64(sb.Lost)/400-0.5) > 0.08 || nc != 0 || sc.Lost != 400 {
		t.Fatalf("broadcast: b %+v (%d arrived), c %+v (%d arrived)", sb, nb, sc, nc)
	}
	checkBalance(t, "a->b", sb)

	// Carrier off at b: b's interface is up but not running, and nothing reaches it.
	l.e.Set(l.h[0], nil, Impairment{})
	if err := l.e.SetCarrier(l.h[1], false); err != nil {
		t.Fatal(err)
	}
	waitRunning(t, l.ns[1], false)
	l.send(t, 0, bcast, 100, time.Millisecond)
	l.settle(t, rs...)
	sb2, sc2 := l.e.Stats(l.h[0], l.h[1]), l.e.Stats(l.h[0], l.h[2])
	if sb2.NoCarrier != 100 || sb2.Delivered != sb.Delivered || sc2.Delivered != 100 {
		t.Fatalf("carrier off: b %+v, c %+v", sb2, sc2)
	}
	if err := l.e.SetCarrier(l.h[1], true); err != nil {
		t.Fatal(err)
	}
	waitRunning(t, l.ns[1], true)
	l.send(t, 0, bcast, 50, time.Millisecond)
	l.settle(t, rs...)
	if s := l.e.Stats(l.h[0], l.h[1]); s.Delivered != sb.Delivered+50 {
		t.Fatalf("carrier back: %+v", s)
	}
	rb.Close()
	rc.Close()
}

// waitRunning waits until eth0 in ns is (or is not) running.
func waitRunning(t *testing.T, ns *netnstest.NS, want bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; {
		var running bool
		if err := ns.Do(func() error {
			ifi, err := net.InterfaceByName("eth0")
			if err != nil {
				return err
			}
			running = ifi.Flags&net.FlagRunning != 0
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if running == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("eth0 running %v, want %v", running, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
