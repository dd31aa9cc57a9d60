package swarm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/robocup-dnetwork/dnetwork/internal/freeport"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const waitLimit = 5 * time.Second

var quiet = slog.New(slog.DiscardHandler)

type msg struct {
	src, dst string
	port     uint16
	data     string
}

func (m msg) String() string { return fmt.Sprintf("%s->%s:%d %q", m.src, m.dst, m.port, m.data) }

// inbox collects what callbacks receive.
type inbox chan msg

func (b inbox) cb(src, dst string, port uint16, data []byte) { b <- msg{src, dst, port, string(data)} }

func newInbox() inbox { return make(inbox, 256) }

func (b inbox) expect(t *testing.T, who string, want msg) {
	t.Helper()
	select {
	case got := <-b:
		if got != want {
			t.Fatalf("%s got %v, want %v", who, got, want)
		}
	case <-time.After(waitLimit):
		t.Fatalf("%s got nothing, want %v", who, want)
	}
}

func (b inbox) empty(t *testing.T, who string) {
	t.Helper()
	select {
	case got := <-b:
		t.Fatalf("%s got unexpected %v", who, got)
	default:
	}
}

// startNode runs n (through spawn, e.g. inside a namespace, when not nil) until the
// test ends and waits until its socket is up.
func startNode(t *testing.T, cfg Config, spawn func(func() error) func() error) *Node {
	t.Helper()
	if cfg.Logger == nil {
		cfg.Logger = quiet
	}
	n, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if spawn == nil {
		spawn = func(f func() error) func() error {
			errc := make(chan error, 1)
			go func() { errc <- f() }()
			return func() error { return <-errc }
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	wait := spawn(func() error { return n.Run(ctx) })
	t.Cleanup(func() {
		cancel()
		if err := wait(); err != nil {
			t.Errorf("%s: Run = %v", n.Host(), err)
		}
	})
	wctx, wcancel := context.WithTimeout(context.Background(), waitLimit)
	defer wcancel()
	if err := n.Transport().WaitUp(wctx); err != nil {
		t.Fatalf("%s not up: %v (%+v)", n.Host(), err, n.Transport().Status())
	}
	return n
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// checkInvariants verifies that every datagram a node read is accounted for.
func checkInvariants(t *testing.T, n *Node) {
	t.Helper()
	if s, ok := settled(n); !ok {
		t.Fatalf("%s: counters do not add up: %+v", n.Host(), s)
	}
}

// settled waits until every frame the socket counted has been handled by the node (the
// socket counts a frame when it reads it, the node once it has dealt with it) and
// reports whether the counters then add up.
func settled(n *Node) (Stats, bool) {
	add := func(s Stats) bool {
		tr := s.Transport
		return tr.Received == tr.Delivered+tr.Dropped() &&
			tr.Filtered == s.OwnEcho+s.NotForUs &&
			tr.Delivered == s.Delivered+s.UnknownSource+s.OutOfRange+s.Unbound
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		s := n.Stats()
		if add(s) || time.Now().After(deadline) {
			return s, add(s)
		}
		time.Sleep(time.Millisecond)
	}
}

// freePorts returns n distinct UDP ports for the test (package freeport).
func freePorts(t *testing.T, n int) []uint16 {
	t.Helper()
	ports, err := freeport.UDP(n)
	if err != nil {
		t.Fatal(err)
	}
	return ports
}

// portsSwarm starts one node per name in ModePorts on loopback.
func portsSwarm(t *testing.T, names []string, tweak func(*Config)) (map[string]*Node, map[string]netip.AddrPort) {
	t.Helper()
	peers := map[string]netip.AddrPort{}
	for i, p := range freePorts(t, len(names)) {
		peers[names[i]] = netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), p)
	}
	nodes := map[string]*Node{}
	for _, name := range names {
		cfg := Config{Name: name, Peers: peers, Mode: ModePorts}
		if tweak != nil {
			tweak(&cfg)
		}
		nodes[name] = startNode(t, cfg, nil)
	}
	return nodes, peers
}

// TestPortsMode walks through the osrf/swarm semantics (protocols.md §6.5) with three
// robots and a base station on one host, one port each.
func TestPortsMode(t *testing.T) {
	nodes, _ := portsSwarm(t, []string{"r1", "r2", "r3", BaseStation}, nil)
	r1, r2, r3, boo := nodes["r1"], nodes["r2"], nodes["r3"], nodes[BaseStation]
	in := map[string]inbox{"r1": newInbox(), "r2": newInbox(), "r3": newInbox(), BaseStation: newInbox()}
	for name, n := range nodes {
		port := uint16(DefaultPort)
		if name == BaseStation {
			port = BasePort
		}
		if err := n.Bind(n.Host(), port, in[name].cb); err != nil {
			t.Fatal(err)
		}
	}

	// Bind rules.
	if err := r1.Bind("10.0.0.9", DefaultPort, in["r1"].cb); !errors.Is(err, ErrBindAddress) {
		t.Fatalf("bind of a foreign address = %v, want ErrBindAddress", err)
	}
	if err := r1.Bind("r1", DefaultPort, in["r1"].cb); !errors.Is(err, ErrAlreadyBound) {
		t.Fatalf("second bind = %v, want ErrAlreadyBound", err)
	}

	// Broadcast: every robot bound on its own address, never the sender.
	if err := r1.SendTo([]byte("hello all"), Broadcast, DefaultPort); err != nil {
		t.Fatal(err)
	}
	in["r2"].expect(t, "r2", msg{"r1", Broadcast, DefaultPort, "hello all"})
	in["r3"].expect(t, "r3", msg{"r1", Broadcast, DefaultPort, "hello all"})
	eventually(t, "the base station to count the frame for its unbound port 4100", func() bool { return boo.Stats().Unbound == 1 })

	// Unicast: only the addressee.
	if err := r1.SendTo([]byte("hi r2"), "r2", DefaultPort); err != nil {
		t.Fatal(err)
	}
	in["r2"].expect(t, "r2", msg{"r1", "r2", DefaultPort, "hi r2"})

	// The payload limit: 1500 is fine, 1501 an error and nothing is sent.
	if err := r1.SendTo(bytes.Repeat([]byte("x"), MaxPayload), "r2", DefaultPort); err != nil {
		t.Fatalf("1500-byte send: %v", err)
	}
	in["r2"].expect(t, "r2", msg{"r1", "r2", DefaultPort, strings.Repeat("x", MaxPayload)})
	if err := r1.SendTo(make([]byte, MaxPayload+1), "r2", DefaultPort); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("1501-byte send = %v, want ErrTooLarge", err)
	}

	// Self and unknown destinations.
	if err := r1.SendTo([]byte("me"), "r1", DefaultPort); err != nil {
		t.Fatalf("send to self = %v, want nil (never delivered)", err)
	}
	if err := r1.SendTo([]byte("?"), "nobody", DefaultPort); !errors.Is(err, ErrUnknownAddress) {
		t.Fatalf("send to an unknown name = %v, want ErrUnknownAddress", err)
	}
	if err := r1.SendTo([]byte("?"), "127.0.0.1", DefaultPort); !errors.Is(err, ErrUnknownAddress) {
		t.Fatalf("send to a shared IP in ports mode = %v, want ErrUnknownAddress", err)
	}

	// Multicast reaches only robots bound to "multicast" on the port.
	if err := r3.Bind(Multicast, DefaultPort, in["r3"].cb); err != nil {
		t.Fatal(err)
	}
	if err := r2.Bind(Multicast, 5123, in["r2"].cb); err != nil {
		t.Fatal(err)
	}
	if err := r1.SendTo([]byte("group"), Multicast, DefaultPort); err != nil {
		t.Fatal(err)
	}
	in["r3"].expect(t, "r3", msg{"r1", Multicast, DefaultPort, "group"})
	// A multicast binding does not receive broadcasts on its port.
	if err := r1.SendTo([]byte("b5123"), Broadcast, 5123); err != nil {
		t.Fatal(err)
	}

	// The base station.
	if err := r2.SendTo([]byte("FOUND 1 2 3 4"), BaseStation, BasePort); err != nil {
		t.Fatal(err)
	}
	in[BaseStation].expect(t, "boo", msg{"r2", BaseStation, BasePort, "FOUND 1 2 3 4"})

	// r2 saw: broadcast 4100, unicast, 1500 bytes (delivered); multicast 4100 and
	// broadcast 5123 (unbound).
	// Received is counted when the socket reads a frame, Delivered and Unbound only once
	// the node has handled it: wait for both.
	eventually(t, "r2 to account for 5 frames", func() bool { return r2.Stats().Transport.Received == 5 })
	if s, _ := settled(r2); s.Delivered != 3 || s.Unbound != 2 {
		t.Fatalf("r2 stats %+v; want 3 delivered, 2 unbound", s)
	}
	for name, b := range in {
		b.empty(t, name)
	}
	if s := r1.Stats(); s.ToSelf != 1 || s.SendErrors != 3 || s.Sent != 5 || s.Transport.Received != 0 {
		t.Fatalf("r1 stats %+v; want 1 to self, 3 send errors, 5 sent, nothing received", s)
	}
	if got := r2.Neighbors(); !slices.Equal(got, []string{"r1"}) {
		t.Fatalf("r2 neighbours %v, want [r1]", got)
	}
	if got := boo.Neighbors(); !slices.Equal(got, []string{"r1", "r2"}) {
		t.Fatalf("boo neighbours %v, want [r1 r2]", got)
	}
	if got := r1.Neighbors(); len(got) != 0 {
		t.Fatalf("r1 heard nobody, but has neighbours %v", got)
	}
	for _, n := range nodes {
		checkInvariants(t, n)
	}
}

func TestNeighborsWindowAndRange(t *testing.T) {
	var clock atomic.Int64
	now := func() time.Time { return time.Unix(1000, clock.Load()) }
	var mu sync.Mutex
	pos := map[string]Point{"r1": {0, 0, 0}, "r2": {6, 8, 0}, "r3": {60, 80, 0}}
	position := func(name string) (Point, bool) {
		mu.Lock()
		defer mu.Unlock()
		p, ok := pos[name]
		return p, ok
	}
	nodes, _ := portsSwarm(t, []string{"r1", "r2", "r3"}, func(c *Config) {
		c.Now, c.Range, c.Position, c.NeighborWindow = now, 50, position, 2*time.Second
	})
	in := map[string]inbox{"r2": newInbox(), "r3": newInbox()}
	for name, b := range in {
		if err := nodes[name].Bind(name, DefaultPort, b.cb); err != nil {
			t.Fatal(err)
		}
	}
	if err := nodes["r1"].SendTo([]byte("1"), Broadcast, DefaultPort); err != nil {
		t.Fatal(err)
	}
	in["r2"].expect(t, "r2", msg{"r1", Broadcast, DefaultPort, "1"}) // 10 m away
	eventually(t, "r3 (100 m away) to drop the frame", func() bool { return nodes["r3"].Stats().OutOfRange == 1 })
	if got := nodes["r2"].Neighbors(); !slices.Equal(got, []string{"r1"}) {
		t.Fatalf("r2 neighbours %v, want [r1]", got)
	}
	if got := nodes["r3"].Neighbors(); len(got) != 0 {
		t.Fatalf("r3 neighbours %v, want none", got)
	}

	// r1 drives away from r2: still heard, but out of range, so no neighbour.
	mu.Lock()
	pos["r1"] = Point{0, 0, 100}
	mu.Unlock()
	if got := nodes["r2"].Neighbors(); len(got) != 0 {
		t.Fatalf("r2 neighbours with r1 out of range %v, want none", got)
	}
	mu.Lock()
	pos["r1"] = Point{33, 44, 0} // now 45 m from r2 and from r3
	mu.Unlock()
	if err := nodes["r1"].SendTo([]byte("2"), Broadcast, DefaultPort); err != nil {
		t.Fatal(err)
	}
	in["r3"].expect(t, "r3", msg{"r1", Broadcast, DefaultPort, "2"})
	in["r2"].expect(t, "r2", msg{"r1", Broadcast, DefaultPort, "2"})

	// The window: 2 s after the last frame r1 is still a neighbour, a moment later not.
	clock.Add(int64(2 * time.Second))
	if got := nodes["r2"].Neighbors(); !slices.Equal(got, []string{"r1"}) {
		t.Fatalf("r2 neighbours at the window's end %v, want [r1]", got)
	}
	clock.Add(1)
	if got := nodes["r2"].Neighbors(); len(got) != 0 {
		t.Fatalf("r2 neighbours after the window %v, want none", got)
	}
	for _, n := range nodes {
		checkInvariants(t, n)
	}
}

// TestNeighborsHeard: each neighbour comes with the node-clock time of its latest frame.
func TestNeighborsHeard(t *testing.T) {
	var clock atomic.Int64
	now := func() time.Time { return time.Unix(1000, clock.Load()) }
	nodes, _ := portsSwarm(t, []string{"r1", "r2", "r3"}, func(c *Config) {
		c.Now, c.NeighborWindow = now, 2*time.Second
	})
	in := newInbox()
	if err := nodes["r2"].Bind("r2", DefaultPort, in.cb); err != nil {
		t.Fatal(err)
	}
	send := func(from, data string) {
		t.Helper()
		if err := nodes[from].SendTo([]byte(data), "r2", DefaultPort); err != nil {
			t.Fatal(err)
		}
		in.expect(t, "r2", msg{from, "r2", DefaultPort, data})
	}
	if got := nodes["r2"].NeighborsHeard(); len(got) != 0 {
		t.Fatalf("r2 heard %v before any frame", got)
	}
	send("r3", "a") // at 1000 s
	clock.Add(int64(700 * time.Millisecond))
	send("r1", "b") // at 1000.7 s
	clock.Add(int64(time.Second))
	send("r3", "c") // at 1001.7 s
	want := []Neighbor{{"r1", time.Unix(1000, int64(700*time.Millisecond))}, {"r3", time.Unix(1001, int64(700*time.Millisecond))}}
	if got := nodes["r2"].NeighborsHeard(); !slices.Equal(got, want) {
		t.Fatalf("r2 heard %v, want %v", got, want)
	}
	// r1's window ends at 1002.7 s; r3 stays until 1003.7 s.
	clock.Add(int64(time.Second) + 1)
	want = want[1:]
	if got := nodes["r2"].NeighborsHeard(); !slices.Equal(got, want) {
		t.Fatalf("r2 heard %v after r1's window, want %v", got, want)
	}
	if got := nodes["r2"].Neighbors(); !slices.Equal(got, []string{"r3"}) {
		t.Fatalf("r2 neighbours %v, want [r3]", got)
	}
	for _, n := range nodes {
		checkInvariants(t, n)
	}
}

// TestNeighborsAfterClockWentBack: the node's clock goes back (a restarted simulation
// under use_sim_time). A robot last heard at a time that now lies ahead was heard before
// the jump and is no neighbour, not one until the clock catches up with it; its next
// frame makes it one again.
func TestNeighborsAfterClockWentBack(t *testing.T) {
	var clock atomic.Int64
	now := func() time.Time { return time.Unix(1000, clock.Load()) }
	nodes, _ := portsSwarm(t, []string{"r1", "r2"}, func(c *Config) {
		c.Now, c.NeighborWindow = now, 2*time.Second
	})
	in := newInbox()
	if err := nodes["r2"].Bind("r2", DefaultPort, in.cb); err != nil {
		t.Fatal(err)
	}
	send := func(data string) {
		t.Helper()
		if err := nodes["r1"].SendTo([]byte(data), "r2", DefaultPort); err != nil {
			t.Fatal(err)
		}
		in.expect(t, "r2", msg{"r1", "r2", DefaultPort, data})
	}
	send("a")
	clock.Add(-int64(10 * time.Minute))
	if got := nodes["r2"].Neighbors(); len(got) != 0 {
		t.Errorf("r2 neighbours after the clock went back 10 min: %v, want none", got)
	}
	send("b")
	if got := nodes["r2"].Neighbors(); !slices.Equal(got, []string{"r1"}) {
		t.Errorf("r2 neighbours after r1's next frame: %v, want [r1]", got)
	}
}

// TestFiltering feeds a node hand-made frames from a plain socket.
func TestFiltering(t *testing.T) {
	nodes, peers := portsSwarm(t, []string{"r1", "r2"}, nil)
	r2 := nodes["r2"]
	got := newInbox()
	if err := r2.Bind("r2", DefaultPort, got.cb); err != nil {
		t.Fatal(err)
	}
	raw, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	send := func(b []byte) {
		t.Helper()
		if _, err := raw.WriteToUDPAddrPort(b, peers["r2"]); err != nil {
			t.Fatal(err)
		}
	}
	frame := func(f Frame) []byte {
		t.Helper()
		b, err := f.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	send(frame(Frame{Kind: KindBroadcast, Port: DefaultPort, Src: "intruder", Payload: []byte("x")})) // unknown source
	send([]byte("hello"))                                                                             // malformed
	send(frame(Frame{Kind: KindBroadcast, Port: DefaultPort, Src: "r2", Payload: []byte("x")}))       // own echo
	send(frame(Frame{Kind: KindUnicast, Port: DefaultPort, Src: "r1", Dst: "r1", Payload: []byte("x")}))
	send(make([]byte, MaxFrameSize+1)) // oversize
	send(frame(Frame{Kind: KindUnicast, Port: DefaultPort, Src: "r1", Dst: "r2", Payload: []byte("ok")}))
	got.expect(t, "r2", msg{"r1", "r2", DefaultPort, "ok"})
	eventually(t, "6 datagrams", func() bool { return r2.Stats().Transport.Received == 6 })
	s, _ := settled(r2)
	if s.UnknownSource != 1 || s.Transport.Malformed != 1 || s.OwnEcho != 1 || s.NotForUs != 1 ||
		s.Transport.Oversize != 1 || s.Delivered != 1 {
		t.Fatalf("stats %+v; want one of each drop and one delivery", s)
	}
	checkInvariants(t, r2)
}

func TestNewValidates(t *testing.T) {
	lo := netip.MustParseAddrPort("127.0.0.1:4101")
	tests := []struct {
		name string
		cfg  Config
		want []string
	}{
		{"no name", Config{}, []string{"name"}},
		{"reserved name", Config{Name: Broadcast}, []string{"reserved"}},
		{"bad peer", Config{Name: "r1", Peers: map[string]netip.AddrPort{"r 2": lo}}, []string{"peer"}},
		{"ports without own port", Config{Name: "r1", Mode: ModePorts, Peers: map[string]netip.AddrPort{"r2": lo}}, []string{"needs this robot (r1)"}},
		{"range without positions", Config{Name: "r1", Range: 10}, []string{"Position"}},
		{"unicast group", Config{Name: "r1", Group: netip.MustParseAddr("10.0.0.1")}, []string{"not an IPv4 multicast"}},
		{"mode", Config{Name: "r1", Mode: 9}, []string{"unknown mode"}},
	}
	for _, tt := range tests {
		_, err := New(tt.cfg)
		if !errors.Is(err, ErrConfig) {
			t.Errorf("%s: New = %v, want ErrConfig", tt.name, err)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not mention %q", tt.name, err, w)
			}
		}
	}
}

// BenchmarkUnicast measures frames per second from one node to another through the
// whole stack (frame, socket, worker, filter, dispatch, callback) on loopback, with at
// most window frames in flight.
func BenchmarkUnicast(b *testing.B) {
	peers := map[string]netip.AddrPort{}
	for _, name := range []string{"r1", "r2"} {
		c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			b.Fatal(err)
		}
		peers[name] = c.LocalAddr().(*net.UDPAddr).AddrPort()
		c.Close()
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	nodes := map[string]*Node{}
	for name := range peers {
		n, err := New(Config{Name: name, Peers: peers, Mode: ModePorts, QueueLen: 1024, Logger: quiet})
		if err != nil {
			b.Fatal(err)
		}
		nodes[name] = n
		wg.Go(func() { _ = n.Run(ctx) })
		if err := n.Transport().WaitUp(ctx); err != nil {
			b.Fatal(err)
		}
	}
	const window = 128
	tokens := make(chan struct{}, window)
	stop := make(chan struct{})
	if err := nodes["r2"].Bind("r2", DefaultPort, func(_, _ string, _ uint16, _ []byte) { <-tokens }); err != nil {
		b.Fatal(err)
	}
	watchdog := time.AfterFunc(30*time.Second, func() { close(stop) })
	defer watchdog.Stop()
	payload := make([]byte, 200)
	b.SetBytes(int64(len(payload)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N + window {
		select {
		case tokens <- struct{}{}:
		case <-stop:
			b.Fatalf("stalled: %+v", nodes["r2"].Stats())
		}
		if err := nodes["r1"].SendTo(payload, "r2", DefaultPort); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "frames/s")
}
