package transport

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/robocup-dnetwork/dnetwork/internal/qemutest"
)

// TestMain fails the package when any test leaves a goroutine behind.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var quiet = slog.New(slog.DiscardHandler)

const waitLimit = 5 * time.Second

// run starts w.Run on its own goroutine (or through spawn, e.g. inside a namespace) and
// stops it when the test ends, checking that Run returned nil.
func run(t testing.TB, w *Worker, spawn func(func() error) func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	if spawn == nil {
		spawn = func(f func() error) func() error {
			errc := make(chan error, 1)
			go func() { errc <- f() }()
			return func() error { return <-errc }
		}
	}
	wait := spawn(func() error { return w.Run(ctx) })
	t.Cleanup(func() {
		cancel()
		if err := wait(); err != nil {
			t.Errorf("%s: Run returned %v", w.Name(), err)
		}
	})
}

// start creates, runs and waits for a worker on the host.
func start(t testing.TB, cfg Config) *Worker {
	t.Helper()
	w := newWorker(t, cfg)
	run(t, w, nil)
	waitUp(t, w)
	return w
}

func newWorker(t testing.TB, cfg Config) *Worker {
	t.Helper()
	if cfg.Logger == nil {
		cfg.Logger = quiet
	}
	w, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func waitUp(t testing.TB, w *Worker) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := w.WaitUp(ctx); err != nil {
		t.Fatalf("%s not up: %v (status %+v)", w.Name(), err, w.Status())
	}
}

func recv(t testing.TB, w *Worker) Datagram {
	t.Helper()
	select {
	case d := <-w.Datagrams():
		return d
	case <-time.After(waitLimit):
		t.Fatalf("%s: no datagram within %v (stats %+v)", w.Name(), waitLimit, w.Stats())
	}
	return Datagram{}
}

// noRecv checks that w receives nothing for d.
func noRecv(t testing.TB, w *Worker, d time.Duration) {
	t.Helper()
	select {
	case got := <-w.Datagrams():
		t.Fatalf("%s: unexpected datagram %q from %v to %v", w.Name(), got.Payload, got.Src, got.Dst)
	case <-time.After(d):
	}
}

// eventually polls cond until it holds or the wait limit passes.
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func loopbackSender(t testing.TB, ip string) *net.UDPConn {
	t.Helper()
	c, err := net.ListenUDP("udp4", net.UDPAddrFromAddrPort(netip.AddrPortFrom(netip.MustParseAddr(ip), 0)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestUnicastOnLoopback(t *testing.T) {
	rx := start(t, Config{Name: "rx", Interface: "lo"})
	tx := start(t, Config{Name: "tx", Interface: "lo"})

	if got := rx.Interface(); got.Name != "lo" || got.Addr.Addr() != netip.MustParseAddr("127.0.0.1") {
		t.Fatalf("Interface() = %v, want lo with 127.0.0.1", got)
	}
	// qemu-user does not emulate getsockopt SO_BINDTODEVICE (EINVAL); setting it works.
	if dev, err := boundDevice(rx.sock.Load().conn); (err != nil || dev != "lo") && !qemutest.Active() {
		t.Fatalf("socket bound to device %q (%v), want lo", dev, err)
	}
	before := time.Now()
	if err := tx.SendTo([]byte("hello"), rx.LocalAddr()); err != nil {
		t.Fatal(err)
	}
	d := recv(t, rx)
	if string(d.Payload) != "hello" || d.Src != tx.LocalAddr() || d.Dst != rx.LocalAddr() ||
		d.Cast != CastUnicast || d.Interface != "lo" || d.IfIndex != rx.Interface().Index {
		t.Fatalf("got %+v; want \"hello\" from %v to %v, unicast on lo", d, tx.LocalAddr(), rx.LocalAddr())
	}
	if d.Time.Before(before) || d.Time.After(time.Now()) {
		t.Fatalf("receive time %v outside the send window", d.Time)
	}
	// The payload is the consumer's own copy: the next datagram does not overwrite it.
	if err := tx.SendTo([]byte("HELLO"), rx.LocalAddr()); err != nil {
		t.Fatal(err)
	}
	if d2 := recv(t, rx); string(d2.Payload) != "HELLO" || string(d.Payload) != "hello" {
		t.Fatalf("payloads %q, %q; want hello, HELLO", d.Payload, d2.Payload)
	}
	if s := rx.Stats(); s.Received != 2 || s.Delivered != 2 || s.Dropped() != 0 || s.Opens != 1 {
		t.Fatalf("rx stats %+v; want 2 received and delivered, one open", s)
	}
	if s := tx.Stats(); s.Sent != 2 || s.SendErrors != 0 {
		t.Fatalf("tx stats %+v; want 2 sent", s)
	}
}

// TestQueuedPayloadsAreOwnCopies: payloads cut from one block stay the consumer's own:
// a datagram read later never changes one taken earlier, an append to one reaches no
// other, and a payload too large for a block's remainder is copied whole.
func TestQueuedPayloadsAreOwnCopies(t *testing.T) {
	rx := start(t, Config{Name: "rx", Interface: "lo"})
	tx := start(t, Config{Name: "tx", Interface: "lo"})
	sizes := []int{1, 109, 700, 2000, 109, 3000, 5000, 64}
	for range 6 { // more than a block's worth in all
		sizes = append(sizes, sizes[:8]...)
	}
	var got [][]byte
	for i, n := range sizes {
		p := bytes.Repeat([]byte{byte(i)}, n)
		if err := tx.SendTo(p, rx.LocalAddr()); err != nil {
			t.Fatal(err)
		}
		d := recv(t, rx)
		if len(d.Payload) != n || cap(d.Payload) != n {
			t.Fatalf("datagram %d: %d bytes of capacity %d, want %d of %d", i, len(d.Payload), cap(d.Payload), n, n)
		}
		got = append(got, d.Payload)
		if i > 0 {
			_ = append(got[i-1], 0xff) // must not reach datagram i's bytes
		}
	}
	for i, p := range got {
		if !bytes.Equal(p, bytes.Repeat([]byte{byte(i)}, sizes[i])) {
			t.Fatalf("datagram %d changed after later ones were read", i)
		}
	}
}

// TestDeliveredIncludesWhatTheConsumerHolds: a datagram the consumer has taken from the
// queue is already counted as delivered, so a consumer that checks the counters after
// handling a datagram finds Received == Delivered + Dropped() without waiting.
func TestDeliveredIncludesWhatTheConsumerHolds(t *testing.T) {
	rx := start(t, Config{Name: "rx", Interface: "lo"})
	tx := start(t, Config{Name: "tx", Interface: "lo"})
	// The window between the hand-off and the count is a few instructions of the
	// worker's goroutine: many round trips give the consumer many chances to see it.
	const n = 2000
	for i := range uint64(n) {
		if err := tx.SendTo([]byte{byte(i)}, rx.LocalAddr()); err != nil {
			t.Fatal(err)
		}
		if d := recv(t, rx); len(d.Payload) != 1 || d.Payload[0] != byte(i) {
			t.Fatalf("datagram %d: payload %v", i, d.Payload)
		}
		if s := rx.Stats(); s.Delivered != i+1 || s.Received != s.Delivered+s.Dropped() {
			t.Fatalf("after the consumer took datagram %d: stats %+v; want %d delivered, none dropped", i+1, s, i+1)
		}
	}
}

// TestSharedPort shows the SO_REUSEADDR semantics the package documents: two workers
// and a monitor on one port all receive a broadcast, while unicast reaches one socket.
func TestSharedPort(t *testing.T) {
	a := start(t, Config{Name: "a", Interface: "lo"})
	port := a.LocalAddr().Port()
	b := start(t, Config{Name: "b", Interface: "lo", Port: port})
	mon := start(t, Config{Name: "monitor", Interface: "any", Port: port})
	tx := start(t, Config{Name: "tx", Interface: "lo"})

	if err := tx.Broadcast([]byte("to all"), port); err != nil {
		t.Fatal(err)
	}
	for _, w := range []*Worker{a, b, mon} {
		d := recv(t, w)
		if string(d.Payload) != "to all" || d.Cast != CastBroadcast ||
			d.Dst != netip.MustParseAddrPort("127.255.255.255:"+strconv.Itoa(int(port))) || d.Interface != "lo" {
			t.Errorf("%s got %+v; want the broadcast to 127.255.255.255 on lo", w.Name(), d)
		}
	}

	// A second broadcast after the unicasts marks their end: loopback queues each
	// datagram on its sockets before the send returns, and a socket is read in order,
	// so a sharer that has its marker has every unicast it was given.
	const n = 20
	for range n {
		if err := tx.SendTo([]byte("one"), netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), port)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Broadcast([]byte("marker"), port); err != nil {
		t.Fatal(err)
	}
	counts := make([]uint64, 3)
	var receivers int
	for i, w := range []*Worker{a, b, mon} {
		for d := recv(t, w); string(d.Payload) != "marker"; d = recv(t, w) {
			counts[i]++
		}
		if counts[i] != 0 {
			receivers++
		}
	}
	if counts[0]+counts[1]+counts[2] != n || receivers != 1 {
		t.Fatalf("unicast counts per sharer %v; want all %d at exactly one socket", counts, n)
	}
}

// TestCounters drives every receive outcome and checks the invariant
// Received == Delivered + Dropped.
func TestCounters(t *testing.T) {
	const max = 32
	rx := start(t, Config{
		Name: "rx", Interface: "lo", MaxDatagram: max, QueueLen: 4,
		Filter: func(d Datagram) bool { return !bytes.HasPrefix(d.Payload, []byte("x")) },
	})
	tx := loopbackSender(t, "127.0.0.1")
	to := net.UDPAddrFromAddrPort(rx.LocalAddr())
	send := func(p []byte) {
		t.Helper()
		if _, err := tx.WriteToUDP(p, to); err != nil {
			t.Fatal(err)
		}
	}
	send(bytes.Repeat([]byte("o"), max+1)) // oversize by one byte
	send(make([]byte, 1000))               // oversize
	send(make([]byte, MaxUDPPayload))      // the largest datagram there is
	send([]byte("x-filtered"))
	send([]byte("x"))
	send(bytes.Repeat([]byte("v"), max)) // exactly the limit: delivered
	send([]byte("v1"))
	send([]byte{}) // empty datagrams are datagrams too
	send([]byte("v3"))
	send([]byte("full1")) // queue holds 4: these three are dropped
	send([]byte("full2"))
	send([]byte("full3"))
	eventually(t, "12 datagrams received", func() bool { return rx.Stats().Received == 12 })

	want := Stats{Received: 12, Delivered: 4, QueueFull: 3, Oversize: 3, Filtered: 2, Opens: 1}
	if s := rx.Stats(); s != want {
		t.Fatalf("stats %+v\nwant  %+v", s, want)
	}
	var got []string
	for range 4 {
		got = append(got, string(recv(t, rx).Payload))
	}
	if want := []string{strings.Repeat("v", max), "v1", "", "v3"}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("delivered %q, want %q", got, want)
	}
	rx.ReportMalformed() // the consumer could not decode one of them
	s := rx.Stats()
	if s.Delivered != 3 || s.Malformed != 1 || s.Received != s.Delivered+s.Dropped() {
		t.Fatalf("after ReportMalformed: %+v; want 3 delivered, 1 malformed, received = delivered + dropped", s)
	}
}

func TestAllowFrom(t *testing.T) {
	rx := start(t, Config{Name: "rx", Interface: "lo", Filter: AllowFrom(netip.MustParsePrefix("127.0.0.2/32"))})
	to := net.UDPAddrFromAddrPort(rx.LocalAddr())
	if _, err := loopbackSender(t, "127.0.0.1").WriteToUDP([]byte("stranger"), to); err != nil {
		t.Fatal(err)
	}
	if _, err := loopbackSender(t, "127.0.0.2").WriteToUDP([]byte("friend"), to); err != nil {
		t.Fatal(err)
	}
	d := recv(t, rx)
	if string(d.Payload) != "friend" || d.Src.Addr() != netip.MustParseAddr("127.0.0.2") {
		t.Fatalf("got %q from %v, want friend from 127.0.0.2", d.Payload, d.Src)
	}
	eventually(t, "the stranger filtered", func() bool { return rx.Stats().Filtered == 1 })
}

func TestSendErrors(t *testing.T) {
	w := newWorker(t, Config{Name: "tx", Interface: "lo", MaxDatagram: 8})
	dst := netip.MustParseAddrPort("127.0.0.1:9")
	if err := w.SendTo([]byte("x"), dst); !errors.Is(err, ErrDown) {
		t.Fatalf("send before Run = %v, want ErrDown", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- w.Run(ctx) }()
	waitUp(t, w)
	if err := w.Run(ctx); !errors.Is(err, ErrRunTwice) {
		t.Fatalf("second Run = %v, want ErrRunTwice", err)
	}
	if err := w.SendTo([]byte("123456789"), dst); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("9-byte send with limit 8 = %v, want ErrTooLarge", err)
	}
	if err := w.SendTo([]byte("12345678"), dst); err != nil {
		t.Fatalf("8-byte send: %v", err)
	}
	cancel()
	if err := <-errc; err != nil {
		t.Fatalf("Run = %v", err)
	}
	if err := w.SendTo([]byte("x"), dst); !errors.Is(err, ErrClosed) {
		t.Fatalf("send after Run = %v, want ErrClosed", err)
	}
	if err := w.WaitUp(context.Background()); !errors.Is(err, ErrClosed) {
		t.Fatalf("WaitUp after Run = %v, want ErrClosed", err)
	}
	if s := w.Stats(); s.Sent != 1 || s.SendErrors != 3 {
		t.Fatalf("stats %+v; want 1 sent, 3 send errors", s)
	}
	if _, open := <-w.Datagrams(); open {
		t.Fatal("queue still open after Run returned")
	}
	if st := w.Status(); st.State != StateStopped {
		t.Fatalf("state %v after Run, want stopped", st.State)
	}

	anyw := start(t, Config{Name: "any", Interface: "any"})
	if err := anyw.Broadcast([]byte("x"), 9); !errors.Is(err, ErrNoBroadcast) {
		t.Fatalf("broadcast on any interface = %v, want ErrNoBroadcast", err)
	}
	if err := anyw.Join(netip.MustParseAddr("10.0.0.1")); !errors.Is(err, ErrNotMulticast) {
		t.Fatalf("join of a unicast address = %v, want ErrNotMulticast", err)
	}
}

func TestNewValidates(t *testing.T) {
	_, err := New(Config{Name: "bad", MaxDatagram: MaxUDPPayload + 1, QueueLen: -1, Groups: []netip.Addr{netip.MustParseAddr("10.0.0.1")}})
	if !errors.Is(err, ErrConfig) {
		t.Fatalf("New = %v, want ErrConfig", err)
	}
	for _, m := range []string{"MaxDatagram 65508", "QueueLen -1", "10.0.0.1 is not"} {
		if !strings.Contains(err.Error(), m) {
			t.Errorf("error %q does not report %q", err, m)
		}
	}
	if _, err := New(Config{Interface: "10.0.0.0/99"}); !errors.Is(err, ErrSelector) {
		t.Fatalf("New with a bad CIDR = %v, want ErrSelector", err)
	}
}

// TestShutdownReleasesPort checks that cancelling Run really closes the socket: the port
// can then be bound by a socket that does not share.
func TestShutdownReleasesPort(t *testing.T) {
	w := newWorker(t, Config{Name: "w", Interface: "lo"})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- w.Run(ctx) }()
	waitUp(t, w)
	port := w.LocalAddr().Port()
	cancel()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: int(port)})
	if err != nil {
		t.Fatalf("port %d still in use after shutdown: %v", port, err)
	}
	c.Close()
}

func TestStatusCallback(t *testing.T) {
	var states []State
	var reports atomic.Int32
	w := newWorker(t, Config{Name: "w", Interface: "nosuch0", BackoffMin: time.Millisecond, BackoffMax: 8 * time.Millisecond,
		OnStatus: func(s Status) {
			if reports.Add(1) == 1 {
				states = append(states, s.State)
				if !errors.Is(s.Err, ErrNoInterface) || s.RetryIn == 0 {
					t.Errorf("first status %+v; want down with ErrNoInterface and a retry", s)
				}
			}
		}})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- w.Run(ctx) }()
	// Several retries with the same error are reported once. The retry delay doubles from
	// 1 ms to 8 ms, so a status retrying in 8 ms comes from the fourth failure, and the
	// reports of the three before it have returned.
	eventually(t, "the fourth failure", func() bool { return w.Status().RetryIn == 8*time.Millisecond })
	if n := reports.Load(); n != 1 {
		t.Errorf("%d status reports for one unchanged error, want 1", n)
	}
	if err := w.SendTo([]byte("x"), netip.MustParseAddrPort("127.0.0.1:9")); !errors.Is(err, ErrDown) || !errors.Is(err, ErrNoInterface) {
		t.Errorf("send while down = %v, want ErrDown wrapping ErrNoInterface", err)
	}
	cancel()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if len(states) != 1 || states[0] != StateDown || w.Status().State != StateStopped {
		t.Fatalf("states %v then %v; want down, then stopped", states, w.Status().State)
	}
}

// BenchmarkReceive measures datagrams per second through one receive worker on
// loopback: a sender goroutine keeps at most window datagrams in flight, the benchmark
// goroutine consumes the queue.
func BenchmarkReceive(b *testing.B) {
	for _, size := range []int{64, 512} {
		b.Run(strconv.Itoa(size)+"B", func(b *testing.B) {
			const window = 128
			rx := start(b, Config{Name: "rx", Interface: "lo", QueueLen: 1024, ReadBuffer: 4 << 20})
			tx := loopbackSender(b, "127.0.0.1")
			to := rx.LocalAddr()
			payload := make([]byte, size)
			tokens := make(chan struct{}, window)
			stop := make(chan struct{})
			sendErr := make(chan error, 1)
			b.ReportAllocs()
			b.SetBytes(int64(size))
			b.ResetTimer()
			go func() {
				for i := 0; i < b.N; i++ {
					select {
					case tokens <- struct{}{}:
					case <-stop:
						sendErr <- nil
						return
					}
					if _, err := tx.WriteToUDPAddrPort(payload, to); err != nil {
						sendErr <- err
						return
					}
				}
				sendErr <- nil
			}()
			watchdog := time.AfterFunc(30*time.Second, func() { close(stop) })
			for got := 0; got < b.N; got++ {
				select {
				case <-rx.Datagrams():
					<-tokens
				case <-stop:
					b.Fatalf("stalled after %d of %d datagrams: %+v", got, b.N, rx.Stats())
				}
			}
			b.StopTimer()
			watchdog.Stop()
			if err := <-sendErr; err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "datagrams/s")
		})
	}
}

// TestStatsBalanceUnderTraffic: a snapshot taken while the worker handles datagrams still
// has Received == Delivered + Dropped(): it never sees a datagram counted as received
// without its outcome (delivered, queue full, oversize or filtered), so /diagnostics
// balances in every sample, not only when the link is quiet.
func TestStatsBalanceUnderTraffic(t *testing.T) {
	const max, n = 64, 20000
	rx := start(t, Config{
		Name: "rx", Interface: "lo", MaxDatagram: max, QueueLen: 8,
		Filter: func(d Datagram) bool { return d.Payload[0]%3 != 0 },
	})
	tx := loopbackSender(t, "127.0.0.1")
	to := net.UDPAddrFromAddrPort(rx.LocalAddr())

	done := make(chan struct{})
	var consumer, checker sync.WaitGroup
	consumer.Add(1)
	go func() { // the consumer, slow enough that the queue sometimes fills
		defer consumer.Done()
		for {
			select {
			case <-rx.Datagrams():
			case <-done:
				return
			}
		}
	}()
	var snapshots, bad atomic.Uint64
	var first atomic.Pointer[Stats]
	checker.Add(1)
	go func() {
		defer checker.Done()
		for {
			select {
			case <-done:
				return
			default:
			}
			s := rx.Stats()
			snapshots.Add(1)
			if s.Received != s.Delivered+s.Dropped() {
				bad.Add(1)
				first.CompareAndSwap(nil, &s)
			}
		}
	}()
	big := make([]byte, max+1)
	for i := range n {
		p := []byte{byte(i)}
		if i%7 == 0 {
			p = big // oversize
		}
		if _, err := tx.WriteToUDP(p, to); err != nil {
			t.Fatal(err)
		}
	}
	// The last datagrams are in the socket or the worker: wait until the count rests.
	var last uint64
	eventually(t, "the receive count to rest", func() bool {
		time.Sleep(50 * time.Millisecond)
		r := rx.Stats().Received
		rested := r == last && r > 0
		last = r
		return rested
	})
	close(done)
	checker.Wait()
	consumer.Wait()
	s := rx.Stats()
	t.Logf("%d snapshots under traffic; final %+v", snapshots.Load(), s)
	if b := bad.Load(); b != 0 {
		t.Fatalf("%d of %d snapshots under traffic do not balance, the first %+v", b, snapshots.Load(), *first.Load())
	}
	if s.Oversize == 0 || s.Filtered == 0 || s.Delivered == 0 {
		t.Fatalf("final %+v: the traffic did not reach every outcome", s)
	}
}
