package worldinfo

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/netip"
	"syscall"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/netnstest"
	wi "github.com/robocup-dnetwork/dnetwork/proto/worldinfo"
	"github.com/robocup-dnetwork/dnetwork/transport"
	"go.uber.org/goleak"
	"golang.org/x/sys/unix"
)

var quiet = slog.New(slog.DiscardHandler)

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// startIn runs a transceiver inside ns until the test ends (or the returned stop is
// called) and waits for its socket.
func startIn(t *testing.T, ns *netnstest.NS, cfg Config) (*Transceiver, *recorder, func() error) {
	t.Helper()
	tr, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	must(t, tr.AddHandler(rec))
	ctx, cancel := context.WithCancel(context.Background())
	wait := ns.Go(func() error { return tr.Run(ctx) })
	stop := func() error { cancel(); return wait() }
	t.Cleanup(func() { _ = stop() })
	up, upCancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer upCancel()
	if err := tr.WaitUp(up); err != nil {
		t.Fatalf("%s: %v (status %+v)", cfg.Interface, err, tr.Status())
	}
	return tr, rec, stop
}

// TestMulticastHostOnlyTTL shows that Config.TTL reaches the socket: a transceiver with
// transport.HostOnlyTTL is heard by another transceiver on its own host but not across
// the veth pair, while one with the default TTL is heard on both.
func TestMulticastHostOnlyTTL(t *testing.T) {
	netnstest.Require(t)
	nsA, nsB := netnstest.New(t, "wic"), netnstest.New(t, "wid")
	netnstest.Veth(t, nsA, "vc", "10.94.0.1/24", nsB, "vd", "10.94.0.2/24")
	nsA.WaitOperUp(t, "vc")
	nsB.WaitOperUp(t, "vd")

	hostOnly, _, _ := startIn(t, nsA, Config{Interface: "vc", Loop: true, TTL: transport.HostOnlyTTL, Logger: quiet})
	local, _, _ := startIn(t, nsA, Config{Interface: "vc", Logger: quiet})
	remote, recRemote, _ := startIn(t, nsB, Config{Interface: "vd", Logger: quiet})

	must(t, hostOnly.SetPose(1, 2, 0.5, zero9))
	must(t, hostOnly.Send())
	waitFor(t, "the transceiver on the same host to hear the host-only datagram", func() bool {
		return local.Stats().Recv.Accepted == 1
	})
	// The control: default-TTL datagrams from the same host cross the link, and they
	// leave after the host-only one, so once the remote side has them it would have had
	// the host-only datagram too. Both senders share an address, so local sends two
	// updates: the second is accepted even if the host-only one took sequence number 0.
	for range 2 {
		must(t, local.SetPose(3, 4, 0.5, zero9))
		must(t, local.Send())
	}
	var poses []wi.Pose
	waitFor(t, "the remote transceiver to hear a default-TTL datagram", func() bool {
		for _, e := range recRemote.take() {
			if p, ok := e.msg.(wi.Pose); ok {
				poses = append(poses, p)
			}
		}
		return len(poses) > 0 && poses[len(poses)-1].X == 3 && remote.Stats().Socket.Received >= 2
	})
	for _, p := range poses {
		if p.X != 3 {
			t.Errorf("remote heard the host-only pose %+v", p)
		}
	}
	if st := remote.Stats(); st.Socket.Received != 2 {
		t.Fatalf("remote socket received %d datagrams, want only the 2 default-TTL ones: %+v", st.Socket.Received, st)
	}
}

// TestMulticastExchange runs two transceivers in two network namespaces joined by a veth
// pair and lets them exchange world info over real UDP multicast on the Fawkes group.
// A has multicast loopback on (it hears itself, from its interface address), B has it
// off.
func TestMulticastExchange(t *testing.T) {
	netnstest.Require(t)
	before := goleak.IgnoreCurrent()
	nsA, nsB := netnstest.New(t, "wia"), netnstest.New(t, "wib")
	netnstest.Veth(t, nsA, "va", "10.93.0.1/24", nsB, "vb", "10.93.0.2/24")
	nsA.WaitOperUp(t, "va")
	nsB.WaitOperUp(t, "vb")
	addrA, addrB := netip.MustParseAddr("10.93.0.1"), netip.MustParseAddr("10.93.0.2")

	start := func(ns *netnstest.NS, cfg Config) (*Transceiver, *recorder, func() error) {
		return startIn(t, ns, cfg)
	}
	a, recA, stopA := start(nsA, Config{Interface: "va", Loop: true, FatMessage: true, Logger: quiet})
	b, recB, stopB := start(nsB, Config{Interface: "vb", Logger: quiet})
	if a.Group() != DefaultGroup {
		t.Fatalf("group %v, want %v", a.Group(), DefaultGroup)
	}

	// A sends three updates; B hears all of them, A hears its own (loopback on).
	for i := range 3 {
		must(t, a.SetPose(float32(i), 2, 0.5, zero9))
		must(t, a.AddOpponent(uint32(i), 1, 0, zero4))
		must(t, a.Send())
	}
	// Each update is a slim datagram (pose, opponent) and a fat one (pose, opponent).
	waitFor(t, "B to hear A", func() bool { return b.Stats().Recv.Accepted == 6 })
	waitFor(t, "A to hear itself", func() bool { return a.Stats().Recv.Accepted == 6 })
	evB := recB.take()
	if len(evB) != 12 {
		t.Fatalf("B got %d records, want 12: %+v", len(evB), evB)
	}
	for i, e := range evB {
		if e.from != addrA {
			t.Errorf("B record %d from %v, want %v", i, e.from, addrA)
		}
	}
	if p, ok := evB[8].msg.(wi.Pose); !ok || p.X != 2 {
		t.Errorf("B's fifth record %+v, want the third pose", evB[8])
	}
	if evA := recA.take(); len(evA) != 12 || evA[0].from != addrA {
		t.Errorf("A heard itself %d times (first from %v), want 12 from %v", len(evA), evA, addrA)
	}

	// B answers; loopback is off on B, so only A hears it.
	must(t, b.SetGameState(wi.SPLPlay, wi.TeamCyan))
	must(t, b.AddPenalty(2, wi.PenaltyManual, 30))
	must(t, b.Send())
	waitFor(t, "A to hear B", func() bool { return a.Stats().Recv.Accepted == 7 })
	if got := recA.take(); len(got) != 2 || got[0].kind != "game_state" || got[1].kind != "penalty" ||
		got[0].from != addrB {
		t.Errorf("A got %+v from B (%v)", got, addrB)
	}

	// A datagram from A's address with an old sequence number is dropped as stale by B,
	// junk is dropped as undecodable; both are counted. They also end the check that B
	// did not hear itself: a copy of its own datagram would have reached its socket
	// before them.
	prev := b.Stats()
	if err := nsA.Do(func() error { return sendRaw("va", datagram(t, 0, gsRecord), []byte("junk")) }); err != nil {
		t.Fatal(err)
	}
	// The receiver counts the junk's cause before the socket worker is told it was
	// malformed: wait for both.
	waitFor(t, "B to drop the replay and the junk", func() bool {
		st := b.Stats()
		return st.Recv.Stale == prev.Recv.Stale+1 && st.Recv.CipherLength == prev.Recv.CipherLength+1 &&
			st.Socket.Malformed > prev.Socket.Malformed
	})
	if st := b.Stats(); st.Socket.Malformed != prev.Socket.Malformed+1 || st.Recv.Accepted != prev.Recv.Accepted {
		t.Errorf("B after replay and junk: %+v", st)
	}
	if got := recB.take(); len(got) != 0 || b.Stats().Socket.Received != 6+2 {
		t.Errorf("B heard itself with loopback off: %+v, socket %+v (want A's 6 datagrams, the replay and the junk)", got, b.Stats().Socket)
	}

	sa, sb := a.Stats(), b.Stats()
	for name, st := range map[string]Stats{"A": sa, "B": sb} {
		if st.Recv.Datagrams != st.Recv.Accepted+st.Recv.Dropped() ||
			st.Socket.Received != st.Socket.Delivered+st.Socket.Dropped() {
			t.Errorf("%s: counters do not add up: %+v", name, st)
		}
	}
	if sa.Send.Sent != 6 || sb.Send.Sent != 1 || sa.Send.SendErrors != 0 {
		t.Errorf("send stats A %+v B %+v", sa.Send, sb.Send)
	}

	// Shutdown: Run returns nil, later sends fail.
	if err := stopA(); err != nil {
		t.Errorf("A Run: %v", err)
	}
	if err := stopB(); err != nil {
		t.Errorf("B Run: %v", err)
	}
	goleak.VerifyNone(t, before) // Run left no goroutine behind
	must(t, a.SetPose(1, 1, 1, zero9))
	if err := a.Send(); !errors.Is(err, transport.ErrClosed) {
		t.Errorf("Send after Run returned: %v, want transport.ErrClosed", err)
	}
	if err := a.Run(context.Background()); !errors.Is(err, ErrRunTwice) {
		t.Errorf("second Run: %v", err)
	}
}

// sendRaw multicasts b to the Fawkes group from a plain socket leaving through ifName
// (bound to it with SO_BINDTODEVICE, which qemu-user emulates, unlike IP_MULTICAST_IF).
// Run it inside a namespace.
func sendRaw(ifName string, b ...[]byte) error {
	lc := net.ListenConfig{Control: func(_, _ string, rc syscall.RawConn) error {
		var serr error
		if err := rc.Control(func(fd uintptr) { serr = unix.BindToDevice(int(fd), ifName) }); err != nil {
			return err
		}
		return serr
	}}
	c, err := lc.ListenPacket(context.Background(), "udp4", "0.0.0.0:0")
	if err != nil {
		return err
	}
	defer c.Close()
	for _, d := range b {
		if _, err := c.WriteTo(d, net.UDPAddrFromAddrPort(DefaultGroup)); err != nil {
			return err
		}
	}
	return nil
}
