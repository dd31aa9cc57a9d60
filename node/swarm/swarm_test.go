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
	"testing/synctest"
	"time"

	"go.uber.org/goleak"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/internal/freeport"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/builtin_interfaces"
	tswarm "github.com/robocup-dnetwork/dnetwork/transport/swarm"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// waitLimit bounds every wait for real sockets.
const waitLimit = 5 * time.Second

var (
	quiet = slog.New(slog.DiscardHandler)
	t0    = time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
)

// robot is one component under test with recorders on its topics.
type robot struct {
	name string
	c    *Component
	got  *bus.Recorder[dmsgs.SwarmMessage]
	nb   *bus.Recorder[dmsgs.Neighbors]
	addr string // its hosts address, 127.0.0.1:port
	// fail makes the received-message publisher fail instead of recording.
	fail atomic.Bool
}

// freePorts returns n distinct UDP ports for the test (package freeport).
func freePorts(t testing.TB, n int) []uint16 {
	t.Helper()
	ports, err := freeport.UDP(n)
	if err != nil {
		t.Fatal(err)
	}
	return ports
}

// startRobots runs one component per name in per-robot-ports mode on loopback, all on
// clk, until the test ends.
func startRobots(t *testing.T, clk clock.Clock, names []string, tweak func(name string, c *Config)) map[string]*robot {
	t.Helper()
	return startRobotsWith(t, clk, names, tweak, nil)
}

// startRobotsWith is startRobots with prepare (may be nil) called on each robot before
// it runs.
func startRobotsWith(t *testing.T, clk clock.Clock, names []string, tweak func(name string, c *Config),
	prepare func(r *robot)) map[string]*robot {
	t.Helper()
	var hosts []string
	addrs := map[string]string{}
	for i, p := range freePorts(t, len(names)) {
		addrs[names[i]] = fmt.Sprintf("127.0.0.1:%d", p)
		hosts = append(hosts, names[i]+"="+addrs[names[i]])
	}
	robots := map[string]*robot{}
	for _, name := range names {
		cfg := DefaultConfig()
		cfg.Enabled, cfg.Name, cfg.Hosts, cfg.Mode, cfg.Logger = true, name, hosts, tswarm.ModePorts, quiet
		if tweak != nil {
			tweak(name, &cfg)
		}
		r := &robot{name: name, got: &bus.Recorder[dmsgs.SwarmMessage]{}, nb: &bus.Recorder[dmsgs.Neighbors]{}, addr: addrs[name]}
		pub := bus.PublisherFunc[dmsgs.SwarmMessage](func(m *dmsgs.SwarmMessage) error {
			if r.fail.Load() {
				return errors.New("writer gone")
			}
			return r.got.Publish(m)
		})
		c, err := New(cfg, clk, pub, r.nb)
		if err != nil {
			t.Fatal(err)
		}
		r.c = c
		if prepare != nil {
			prepare(r)
		}
		run(t, c)
		robots[name] = r
	}
	return robots
}

// run runs c until the test ends and waits until its socket is open.
func run(t *testing.T, c *Component) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- c.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-errc:
			if err != nil {
				t.Errorf("%s: Run = %v", c.cfg.Name, err)
			}
		case <-time.After(waitLimit):
			t.Errorf("%s: Run did not return after cancel", c.cfg.Name)
		}
	})
	wctx, wcancel := context.WithTimeout(context.Background(), waitLimit)
	defer wcancel()
	if err := c.WaitUp(wctx); err != nil {
		t.Fatalf("%s not up: %v", c.cfg.Name, err)
	}
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// heard waits until r's socket has read n datagrams in all and every one of them went
// through the swarm layer and the component (published or counted as dropped).
func (r *robot) heard(t *testing.T, n uint64) {
	t.Helper()
	var s Status
	eventually(t, fmt.Sprintf("%s to read and handle %d datagrams", r.name, n), func() bool {
		s = r.c.Status()
		k, sw, tr := s.Counters, s.Swarm, s.Swarm.Transport
		return tr.Received >= n && tr.Received == tr.Delivered+tr.Dropped() &&
			tr.Delivered == sw.Delivered+sw.UnknownSource+sw.OutOfRange+sw.Unbound &&
			sw.Delivered == k.Published+k.PublishErrors
	})
	if got := s.Swarm.Transport.Received; got != n {
		t.Fatalf("%s read %d datagrams, want %d", r.name, got, n)
	}
}

func (r *robot) send(t *testing.T, dst string, port uint32, data string) {
	t.Helper()
	if err := r.c.Send(&dmsgs.SwarmMessage{Dst: dst, Port: port, Data: []byte(data)}); err != nil {
		t.Fatalf("%s send to %s:%d: %v", r.name, dst, port, err)
	}
}

type rx struct {
	stamp    builtin_interfaces.Time
	src, dst string
	port     uint32
	data     string
}

func (r *robot) received() []rx {
	var out []rx
	for _, m := range r.got.Messages() {
		out = append(out, rx{m.Stamp, m.Src, m.Dst, m.Port, string(m.Data)})
	}
	return out
}

// checkCounts verifies that every send and every datagram is accounted for.
func checkCounts(t *testing.T, r *robot) {
	t.Helper()
	s := r.c.Status()
	k, sw, tr := s.Counters, s.Swarm, s.Swarm.Transport
	for _, c := range []struct {
		what      string
		got, want uint64
	}{
		{"send requests = accepted + rejected + errors", k.SendRequests, k.SendAccepted + k.SendRejected() + k.SendErrors},
		{"accepted = swarm sent + to self", k.SendAccepted, sw.Sent + sw.ToSelf},
		{"swarm send errors = bad destination + send errors", sw.SendErrors, k.BadDestination + k.SendErrors},
		{"received = published + publish errors", k.Received, k.Published + k.PublishErrors},
		{"swarm delivered = received", sw.Delivered, k.Received},
		{"socket received = delivered + dropped", tr.Received, tr.Delivered + tr.Dropped()},
		{"filtered = own echo + not for us", tr.Filtered, sw.OwnEcho + sw.NotForUs},
		{"socket delivered = swarm delivered + dropped", tr.Delivered, sw.Delivered + sw.UnknownSource + sw.OutOfRange + sw.Unbound},
	} {
		if c.got != c.want {
			t.Errorf("%s: %s: %d != %d (%+v)", r.name, c.what, c.got, c.want, s)
		}
	}
}

// TestExchange walks through the osrf/swarm delivery rules (protocols.md §6.5) with three
// robots and a base station on one host, one UDP port each.
func TestExchange(t *testing.T) {
	clk := clock.NewManual(t0)
	rs := startRobots(t, clk, []string{"r1", "r2", "r3", "boo"}, func(name string, c *Config) {
		switch name {
		case "boo":
			c.Ports = []uint16{tswarm.BasePort}
		case "r3":
			c.MulticastPorts = []uint16{5123}
		}
	})
	r1, r2, r3, boo := rs["r1"], rs["r2"], rs["r3"], rs["boo"]

	// Broadcast reaches every robot bound on its own address to the port, never the
	// sender; the base station did not bind 4100.
	r1.send(t, "broadcast", 0, "hello all") // port 0: the default 4100
	// Unicast by name reaches the addressee only.
	r1.send(t, "r2", 4100, "hi r2")
	// Multicast reaches only robots bound to "multicast" on the port.
	r2.send(t, "multicast", 5123, "group")
	// The base station on its port.
	r3.send(t, "boo", tswarm.BasePort, "FOUND 1 2 3 4")
	// To oneself: accepted, never delivered.
	r1.send(t, "r1", 4100, "me")

	r1.heard(t, 1)  // r2's multicast copy (unbound)
	r2.heard(t, 2)  // broadcast, unicast
	r3.heard(t, 2)  // broadcast, multicast
	boo.heard(t, 3) // broadcast (unbound), multicast (unbound), FOUND

	at := builtin_interfaces.NewTime(t0) // the clock stands still
	want := map[string][]rx{
		"r1":  nil,
		"r2":  {{at, "r1", "broadcast", 4100, "hello all"}, {at, "r1", "r2", 4100, "hi r2"}},
		"r3":  {{at, "r1", "broadcast", 4100, "hello all"}, {at, "r2", "multicast", 5123, "group"}},
		"boo": {{at, "r3", "boo", tswarm.BasePort, "FOUND 1 2 3 4"}},
	}
	for name, w := range want {
		if got := rs[name].received(); !slices.Equal(got, w) {
			t.Errorf("%s published %v, want %v", name, got, w)
		}
	}
	if s := boo.c.Status(); s.Swarm.Unbound != 2 || s.Counters.Received != 1 {
		t.Errorf("boo: %d unbound, %d received; want 2, 1", s.Swarm.Unbound, s.Counters.Received)
	}
	if s := r1.c.Status(); s.Swarm.ToSelf != 1 || s.Swarm.Sent != 2 || s.Counters.SendAccepted != 3 {
		t.Errorf("r1: to self %d, sent %d, accepted %d; want 1, 2, 3", s.Swarm.ToSelf, s.Swarm.Sent, s.Counters.SendAccepted)
	}
	if s := r2.c.Status(); !s.LastReceived.Equal(t0) || s.Socket.Local.Port() == 0 || !slices.Equal(s.Neighbors, []string{"r1"}) {
		t.Errorf("r2 status: last received %v, socket %v, neighbours %v", s.LastReceived, s.Socket.Local, s.Neighbors)
	}
	for _, r := range rs {
		checkCounts(t, r)
	}
}

// TestReceiveStamp: a received message is stamped with the receiver's clock time when it
// was handled, whatever the wall clock says.
func TestReceiveStamp(t *testing.T) {
	clk := clock.NewManual(t0)
	rs := startRobots(t, clk, []string{"r1", "r2"}, nil)
	r1, r2 := rs["r1"], rs["r2"]
	r1.send(t, "r2", 4100, "first")
	r2.heard(t, 1)
	clk.Advance(1250 * time.Millisecond)
	r1.send(t, "broadcast", 4100, "second")
	r2.heard(t, 2)
	want := []rx{
		{builtin_interfaces.NewTime(t0), "r1", "r2", 4100, "first"},
		{builtin_interfaces.Time{Sec: int32(t0.Unix()) + 1, Nanosec: 250_000_000}, "r1", "broadcast", 4100, "second"},
	}
	if got := r2.received(); !slices.Equal(got, want) {
		t.Fatalf("r2 published %v, want %v", got, want)
	}
	if s := r2.c.Status(); !s.LastReceived.Equal(t0.Add(1250 * time.Millisecond)) {
		t.Fatalf("r2 last received at %v, want t0+1.25s", s.LastReceived)
	}
	// A clock set back (a restarted simulation) gives age 0, never a negative one.
	clk.Set(t0)
	r2.c.publishNeighbors()
	m, _ := r2.nb.Last()
	if m.Stamp != builtin_interfaces.NewTime(t0) || !slices.Equal(m.Names, []string{"r1"}) ||
		!slices.Equal(m.Ages, []builtin_interfaces.Duration{{}}) {
		t.Fatalf("neighbours after the clock went back %+v, want r1 at age 0, stamped t0", m)
	}
	checkCounts(t, r1)
	checkCounts(t, r2)
}

// TestSendRejected checks every refusal: counted by cause, returned as an error, and
// nothing on the wire.
func TestSendRejected(t *testing.T) {
	clk := clock.NewManual(t0)
	rs := startRobots(t, clk, []string{"r1", "r2"}, nil)
	r1, r2 := rs["r1"], rs["r2"]

	// 1500 bytes is the limit and arrives whole.
	full := bytes.Repeat([]byte{0xa5}, tswarm.MaxPayload)
	// The stamp of a message to send is ignored: the receiver stamps with its clock.
	sent := builtin_interfaces.NewTime(t0.Add(-time.Hour))
	if err := r1.c.Send(&dmsgs.SwarmMessage{Stamp: sent, Src: "r1", Dst: "r2", Port: 4100, Data: full}); err != nil {
		t.Fatalf("1500 bytes: %v", err)
	}
	r2.heard(t, 1)
	if m, ok := r2.got.Last(); !ok || !bytes.Equal(m.Data, full) || m.Stamp != builtin_interfaces.NewTime(t0) {
		t.Fatalf("1500-byte message not published whole at %v: %d bytes, stamp %+v", t0, len(m.Data), m.Stamp)
	}

	for _, tc := range []struct {
		name string
		m    *dmsgs.SwarmMessage
		want error
		text string
	}{
		{"oversize", &dmsgs.SwarmMessage{Dst: "r2", Data: make([]byte, tswarm.MaxPayload+1)}, ErrTooLarge,
			"1501 bytes to r2:4100, limit 1500"},
		{"oversize broadcast", &dmsgs.SwarmMessage{Dst: "broadcast", Data: make([]byte, 4000)}, ErrTooLarge, "4000 bytes"},
		{"port", &dmsgs.SwarmMessage{Dst: "r2", Port: 65536}, ErrPort, "65536"},
		{"source", &dmsgs.SwarmMessage{Src: "r2", Dst: "r2"}, ErrSource, `"r2" (this robot is "r1")`},
		{"unknown name", &dmsgs.SwarmMessage{Dst: "r9"}, ErrUnknownAddress, `"r9"`},
		{"shared IP in ports mode", &dmsgs.SwarmMessage{Dst: "127.0.0.1"}, ErrUnknownAddress, "matches 2 peers"},
		{"empty destination", &dmsgs.SwarmMessage{}, ErrUnknownAddress, `""`},
		{"nil message", nil, ErrUnknownAddress, `""`},
	} {
		err := r1.c.Send(tc.m)
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%s: Send = %v, want %v mentioning %q", tc.name, err, tc.want, tc.text)
		}
	}
	// A marker behind the refusals: when it arrives, nothing else did.
	r1.send(t, "r2", 4100, "marker")
	r2.heard(t, 2)
	if got := r2.received(); len(got) != 2 || got[1].data != "marker" {
		t.Fatalf("r2 published %v", got)
	}
	k := r1.c.Counters()
	if k.SendRequests != 10 || k.SendAccepted != 2 || k.Oversize != 2 || k.BadPort != 1 || k.BadSource != 1 ||
		k.BadDestination != 4 || k.SendErrors != 0 || k.Disabled != 0 {
		t.Errorf("r1 counters %+v", k)
	}
	checkCounts(t, r1)
	checkCounts(t, r2)
}

// tickerClock is a manual clock that tells when a ticker has been made on it. Run opens
// the socket (what WaitUp waits for) and makes its neighbours ticker concurrently, and
// a tick before the ticker exists is not seen by it: a test waits for the tickers before
// it advances the clock.
type tickerClock struct {
	*clock.Manual
	made chan struct{}
}

func newTickerClock(start time.Time) *tickerClock {
	return &tickerClock{Manual: clock.NewManual(start), made: make(chan struct{}, 16)}
}

func (c *tickerClock) NewTicker(d time.Duration) clock.Ticker {
	tk := c.Manual.NewTicker(d)
	c.made <- struct{}{}
	return tk
}

// waitTickers waits until n tickers have been made on c.
func (c *tickerClock) waitTickers(t *testing.T, n int) {
	t.Helper()
	deadline := time.After(waitLimit)
	for i := range n {
		select {
		case <-c.made:
		case <-deadline:
			t.Fatalf("%d of %d tickers made", i, n)
		}
	}
}

// TestNeighborsTopic drives the neighbour table and its topic on a manual clock.
func TestNeighborsTopic(t *testing.T) {
	clk := newTickerClock(t0)
	rs := startRobots(t, clk, []string{"r1", "r2", "r3"}, func(_ string, c *Config) {
		c.NeighborsRate, c.NeighborWindow = 2, 3*time.Second
	})
	clk.waitTickers(t, len(rs))
	r1 := rs["r1"]
	tick := func(n int) dmsgs.Neighbors {
		t.Helper()
		clk.Advance(500 * time.Millisecond)
		if !r1.nb.WaitLen(n, waitLimit) {
			t.Fatalf("neighbours publication %d missing", n)
		}
		m, _ := r1.nb.Last()
		return m
	}
	// stamped checks a publication's stamp: the clock's time when it was made.
	stamped := func(m dmsgs.Neighbors) {
		t.Helper()
		if want := builtin_interfaces.NewTime(clk.Now()); m.Stamp != want {
			t.Fatalf("neighbours stamped %+v, want %+v (t0+%v)", m.Stamp, want, clk.Now().Sub(t0))
		}
	}
	m := tick(1)
	stamped(m)
	if len(m.Names) != 0 || len(m.Addresses) != 0 || len(m.Ages) != 0 {
		t.Fatalf("nobody heard yet, but neighbours %+v", m)
	}

	rs["r3"].send(t, "broadcast", 4100, "x")
	rs["r2"].send(t, "r1", 4100, "y")
	r1.heard(t, 2)
	m = tick(2)
	stamped(m)
	half := builtin_interfaces.Duration{Nanosec: 500_000_000}
	if !slices.Equal(m.Names, []string{"r2", "r3"}) || !slices.Equal(m.Addresses, []string{rs["r2"].addr, rs["r3"].addr}) ||
		!slices.Equal(m.Ages, []builtin_interfaces.Duration{half, half}) {
		t.Fatalf("neighbours %+v, want r2 and r3 at %s, %s, heard 0.5 s ago", m, rs["r2"].addr, rs["r3"].addr)
	}
	// Both were heard at t0+0.5s; r2 again at t0+1.5s. A robot stays a neighbour until
	// 3 s after it was last heard, inclusive.
	tick(3) // t0+1.5s
	rs["r2"].send(t, "broadcast", 4100, "z")
	r1.heard(t, 3)
	last := map[string]time.Time{"r2": t0.Add(1500 * time.Millisecond), "r3": t0.Add(500 * time.Millisecond)}
	for i, want := range [][]string{
		{"r2", "r3"}, // t0+2s
		{"r2", "r3"}, // t0+2.5s
		{"r2", "r3"}, // t0+3s
		{"r2", "r3"}, // t0+3.5s: r3's window ends
		{"r2"},       // t0+4s
		{"r2"},       // t0+4.5s: r2's window ends
		nil,          // t0+5s
	} {
		m := tick(4 + i)
		stamped(m)
		var addrs []string
		var ages []builtin_interfaces.Duration
		for _, name := range want {
			addrs = append(addrs, rs[name].addr)
			ages = append(ages, builtin_interfaces.NewDuration(clk.Now().Sub(last[name])))
		}
		if !slices.Equal(m.Names, want) || !slices.Equal(m.Addresses, addrs) || !slices.Equal(m.Ages, ages) {
			t.Fatalf("publication %d at %v: %+v, want %v at %v, ages %v", 4+i, clk.Now().Sub(t0), m, want, addrs, ages)
		}
	}
	// Without clock ticks nothing is published, whatever wakes the robot: r2 talks to it
	// three times, each handled on the wall clock, then a tick is the fence. Anything
	// published without a tick would have come before the tick's publication.
	n := r1.nb.Len()
	for i := range 3 {
		rs["r2"].send(t, "r1", 4100, "w")
		r1.heard(t, uint64(4+i))
	}
	m = tick(n + 1)
	stamped(m)
	if msgs := r1.nb.Messages(); len(msgs) != n+1 || !slices.Equal(m.Names, []string{"r2"}) {
		t.Fatalf("%d neighbours publications after %d and one more tick, the last %+v (want r2 alone)", len(msgs), n, m)
	}
	// The counter follows the publication.
	eventually(t, "the tick's publication counted", func() bool { return r1.c.Counters().NeighborsPublished >= uint64(n+1) })
	if k := r1.c.Counters(); k.NeighborsPublished != uint64(n+1) || k.NeighborsPublishErrors != 0 {
		t.Fatalf("counters %+v after %d publications", k, n+1)
	}
	for _, r := range rs {
		checkCounts(t, r)
	}
}

// TestRange: a robot beyond the communication range is not heard and no neighbour.
func TestRange(t *testing.T) {
	clk := clock.NewManual(t0)
	rs := startRobots(t, clk, []string{"r1", "r2", "r3"}, func(_ string, c *Config) { c.Range = 50 })
	place := map[string]Point{"r1": {}, "r2": {X: 6, Y: 8}, "r3": {X: 60, Y: 80}}
	for _, r := range rs {
		for name, p := range place {
			r.c.SetPosition(name, p)
		}
	}
	rs["r1"].send(t, "broadcast", 4100, "near")
	rs["r2"].heard(t, 1)
	rs["r3"].heard(t, 1)
	if got := rs["r2"].received(); len(got) != 1 || got[0].data != "near" {
		t.Fatalf("r2 (10 m) published %v", got)
	}
	if s := rs["r3"].c.Status(); s.Swarm.OutOfRange != 1 || s.Counters.Received != 0 || len(s.Neighbors) != 0 {
		t.Fatalf("r3 (100 m): out of range %d, received %d, neighbours %v", s.Swarm.OutOfRange, s.Counters.Received, s.Neighbors)
	}
	// r3 forgets r1's position: the range test passes for an unknown position.
	rs["r3"].c.ForgetPosition("r1")
	rs["r1"].send(t, "r3", 4100, "unknown position")
	rs["r3"].heard(t, 2)
	if s := rs["r3"].c.Status(); s.Counters.Received != 1 || !slices.Equal(s.Neighbors, []string{"r1"}) {
		t.Fatalf("r3 after forgetting r1's position: received %d, neighbours %v", s.Counters.Received, s.Neighbors)
	}
	// r2 moves away from r1: still heard recently, but out of range, so no neighbour.
	rs["r2"].c.SetPosition("r1", Point{Z: 100})
	if s := rs["r2"].c.Status(); len(s.Neighbors) != 0 {
		t.Fatalf("r2 neighbours with r1 100 m away: %v", s.Neighbors)
	}
	for _, r := range rs {
		checkCounts(t, r)
	}
}

func TestDisabled(t *testing.T) {
	c, err := New(DefaultConfig(), nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	// In a synctest bubble: once every goroutine of it is blocked (Wait), Run has not
	// returned; it returns nil when its context ends.
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		errc := make(chan error, 1)
		go func() { errc <- c.Run(ctx) }()
		synctest.Wait()
		select {
		case err := <-errc:
			t.Fatalf("Run of a disabled component returned %v before its context ended", err)
		default:
		}
		cancel()
		if err := <-errc; err != nil {
			t.Fatalf("Run of a disabled component = %v, want nil", err)
		}
	})
	if err := c.Send(&dmsgs.SwarmMessage{Dst: "r2"}); !errors.Is(err, ErrDisabled) {
		t.Fatalf("Send = %v, want ErrDisabled", err)
	}
	if err := c.WaitUp(context.Background()); !errors.Is(err, ErrDisabled) {
		t.Fatalf("WaitUp = %v, want ErrDisabled", err)
	}
	s := c.Status()
	if s.Enabled || s.Counters.SendRequests != 1 || s.Counters.Disabled != 1 || s.Counters.SendRejected() != 1 {
		t.Fatalf("status %+v", s)
	}
}

func TestNewErrors(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Enabled, cfg.Name, cfg.Logger = true, "r1", quiet
	if _, err := New(cfg, clock.NewManual(t0), nil, &bus.Recorder[dmsgs.Neighbors]{}); !errors.Is(err, ErrConfig) {
		t.Errorf("New without a message publisher = %v, want ErrConfig", err)
	}
	cfg.Name = ""
	if _, err := New(cfg, clock.NewManual(t0), &bus.Recorder[dmsgs.SwarmMessage]{}, &bus.Recorder[dmsgs.Neighbors]{}); !errors.Is(err, ErrConfig) {
		t.Errorf("New without a name = %v, want ErrConfig", err)
	}
	cfg.Name, cfg.Interface = "r1", "bad/selector/"
	if _, err := New(cfg, clock.NewManual(t0), &bus.Recorder[dmsgs.SwarmMessage]{}, &bus.Recorder[dmsgs.Neighbors]{}); !errors.Is(err, ErrConfig) {
		t.Errorf("New with a bad interface = %v, want ErrConfig", err)
	}
}

// logCounter counts the component's warnings logged and keeps the last one's
// attributes. The sockets' own ("transport: ...", e.g. the one a worker logs where the
// kernel lacks optional socket options, as under qemu-user) are not the component's.
type logCounter struct {
	mu    sync.Mutex
	n     int
	attrs map[string]string
}

func (l *logCounter) Enabled(context.Context, slog.Level) bool { return true }
func (l *logCounter) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *logCounter) WithGroup(string) slog.Handler            { return l }
func (l *logCounter) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if r.Level >= slog.LevelWarn && !strings.HasPrefix(r.Message, "transport:") {
		l.n++
		l.attrs = map[string]string{}
		r.Attrs(func(a slog.Attr) bool { l.attrs[a.Key] = a.Value.String(); return true })
	}
	return nil
}

func (l *logCounter) get() (int, map[string]string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.n, l.attrs
}

// TestPublishErrors: a failing publisher costs counted drops and one warning per cause
// per WarnInterval of the component's clock.
func TestPublishErrors(t *testing.T) {
	clk := clock.NewManual(t0)
	logs := &logCounter{}
	rs := startRobots(t, clk, []string{"r1", "r2"}, func(_ string, c *Config) { c.Logger = slog.New(logs) })
	r1 := rs["r1"]
	r1.fail.Store(true)
	for i := range 3 {
		rs["r2"].send(t, "r1", 4100, fmt.Sprint(i))
	}
	r1.heard(t, 3)
	eventually(t, "three publish errors", func() bool { return r1.c.Counters().PublishErrors == 3 })
	eventually(t, "a warning", func() bool { n, _ := logs.get(); return n > 0 })
	if n, a := logs.get(); n != 1 || a["cause"] != "publish" || a["src"] != "r2" {
		t.Fatalf("%d warnings (last %v), want one for the first publish error", n, a)
	}
	clk.Advance(10 * time.Second)
	rs["r2"].send(t, "r1", 4100, "again")
	r1.heard(t, 4)
	eventually(t, "four publish errors", func() bool { return r1.c.Counters().PublishErrors == 4 })
	eventually(t, "a second warning", func() bool { n, _ := logs.get(); return n > 1 })
	if n, a := logs.get(); n != 2 || a["suppressed"] != "2" {
		t.Fatalf("%d warnings (last %v), want a second one saying 2 were suppressed", n, a)
	}
	// Send refusals warn under their own causes.
	_ = r1.c.Send(&dmsgs.SwarmMessage{Dst: "r2", Data: make([]byte, 2000)})
	_ = r1.c.Send(&dmsgs.SwarmMessage{Dst: "r2", Data: make([]byte, 2000)})
	_ = r1.c.Send(&dmsgs.SwarmMessage{Dst: "nobody"})
	if n, a := logs.get(); n != 4 || a["cause"] != "bad destination" {
		t.Fatalf("%d warnings (last %v), want one per send cause", n, a)
	}
	checkCounts(t, r1)
}

// TestConcurrentSend sends from several goroutines at once (run with -race).
func TestConcurrentSend(t *testing.T) {
	rs := startRobots(t, clock.Wall, []string{"r1", "r2"}, func(_ string, c *Config) { c.QueueLen = 256 })
	const senders, each = 4, 25
	var wg sync.WaitGroup
	for g := range senders {
		wg.Go(func() {
			for i := range each {
				if err := rs["r1"].c.Send(&dmsgs.SwarmMessage{Dst: "r2", Port: 4100, Data: []byte{byte(g), byte(i)}}); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	r2 := rs["r2"]
	// The component counts a frame as received before it publishes it, and as published
	// after: wait until the last one has gone through the publisher too.
	eventually(t, "r2 to account for every frame", func() bool {
		s := r2.c.Status()
		k, tr := s.Counters, s.Swarm.Transport
		return tr.Received == senders*each && k.Received+tr.QueueFull == senders*each &&
			k.Published+k.PublishErrors == k.Received
	})
	// Loopback does not lose datagrams unless the socket buffer overflows; what reached
	// the component was published, each exactly once.
	seen := map[[2]byte]bool{}
	for _, m := range r2.got.Messages() {
		k := [2]byte{m.Data[0], m.Data[1]}
		if seen[k] {
			t.Fatalf("message %v published twice", k)
		}
		seen[k] = true
	}
	if uint64(len(seen)) != r2.c.Counters().Published {
		t.Fatalf("%d distinct messages, %d published", len(seen), r2.c.Counters().Published)
	}
	checkCounts(t, rs["r1"])
	checkCounts(t, r2)
}

// BenchmarkSend measures one Send: checks, frame, one UDP write on loopback to a socket
// that never reads (the kernel drops what overflows its buffer).
func BenchmarkSend(b *testing.B) {
	sink, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		b.Fatal(err)
	}
	defer sink.Close()
	own := freePorts(b, 1)[0]
	cfg := DefaultConfig()
	cfg.Enabled, cfg.Name, cfg.Mode, cfg.Logger = true, "r1", tswarm.ModePorts, quiet
	cfg.Hosts = []string{fmt.Sprintf("r1=127.0.0.1:%d", own), "r2=" + sink.LocalAddr().String()}
	c, err := New(cfg, clock.Wall, bus.PublisherFunc[dmsgs.SwarmMessage](func(*dmsgs.SwarmMessage) error { return nil }),
		bus.PublisherFunc[dmsgs.Neighbors](func(*dmsgs.Neighbors) error { return nil }))
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- c.Run(ctx) }()
	defer func() { cancel(); <-errc }()
	if err := c.WaitUp(ctx); err != nil {
		b.Fatal(err)
	}
	m := &dmsgs.SwarmMessage{Dst: "r2", Port: 4100, Data: make([]byte, 200)}
	b.SetBytes(int64(len(m.Data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Send(m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReceivePublish measures the component's part of one received frame: from the
// swarm layer's callback to the publisher.
func BenchmarkReceivePublish(b *testing.B) {
	var n int
	cfg := DefaultConfig()
	cfg.Enabled, cfg.Name, cfg.Logger = true, "r1", quiet
	c, err := New(cfg, clock.Wall, bus.PublisherFunc[dmsgs.SwarmMessage](func(m *dmsgs.SwarmMessage) error {
		n += len(m.Data)
		return nil
	}), bus.PublisherFunc[dmsgs.Neighbors](func(*dmsgs.Neighbors) error { return nil }))
	if err != nil {
		b.Fatal(err)
	}
	data := make([]byte, 200)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		c.onFrame("r2", "broadcast", 4100, data)
	}
	if n == 0 || c.Counters().Published == 0 {
		b.Fatal("nothing published")
	}
}

// BenchmarkReceiveEndToEnd measures frames from a plain UDP socket through the socket
// worker, the swarm layer and the component to the publisher, with at most window frames
// in flight.
func BenchmarkReceiveEndToEnd(b *testing.B) {
	src, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		b.Fatal(err)
	}
	defer src.Close()
	own := freePorts(b, 1)[0]
	cfg := DefaultConfig()
	cfg.Enabled, cfg.Name, cfg.Mode, cfg.Logger, cfg.QueueLen = true, "r1", tswarm.ModePorts, quiet, 1024
	cfg.Hosts = []string{fmt.Sprintf("r1=127.0.0.1:%d", own), "r2=" + src.LocalAddr().String()}
	const window = 128
	tokens := make(chan struct{}, window)
	c, err := New(cfg, clock.Wall, bus.PublisherFunc[dmsgs.SwarmMessage](func(*dmsgs.SwarmMessage) error {
		<-tokens
		return nil
	}), bus.PublisherFunc[dmsgs.Neighbors](func(*dmsgs.Neighbors) error { return nil }))
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- c.Run(ctx) }()
	defer func() { cancel(); <-errc }()
	if err := c.WaitUp(ctx); err != nil {
		b.Fatal(err)
	}
	frame, err := (&tswarm.Frame{Kind: tswarm.KindUnicast, Port: 4100, Src: "r2", Dst: "r1", Payload: make([]byte, 200)}).MarshalBinary()
	if err != nil {
		b.Fatal(err)
	}
	dst := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), own)
	stall := time.NewTimer(30 * time.Second)
	defer stall.Stop()
	b.SetBytes(200)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N + window {
		select {
		case tokens <- struct{}{}:
		case <-stall.C:
			b.Fatalf("stalled: %+v", c.Status())
		}
		if _, err := src.WriteToUDPAddrPort(frame, dst); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "frames/s")
}

// TestReceiveAllocs pins the component's receive path at zero allocations per frame.
func TestReceiveAllocs(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Enabled, cfg.Name, cfg.Logger = true, "r1", quiet
	var got dmsgs.SwarmMessage
	c, err := New(cfg, clock.NewManual(t0), bus.PublisherFunc[dmsgs.SwarmMessage](func(m *dmsgs.SwarmMessage) error {
		got = *m
		return nil
	}), &bus.Recorder[dmsgs.Neighbors]{})
	if err != nil {
		t.Fatal(err)
	}
	data := []byte("payload")
	if n := testing.AllocsPerRun(100, func() { c.onFrame("r2", "multicast", 5123, data) }); n != 0 {
		t.Errorf("%v allocations per received frame, want 0", n)
	}
	if got.Src != "r2" || got.Dst != "multicast" || got.Port != 5123 || string(got.Data) != "payload" ||
		got.Stamp != builtin_interfaces.NewTime(t0) {
		t.Errorf("published %+v", got)
	}
}
