package transport

import (
	"log/slog"
	"net/netip"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
)

// withoutMulticastAll makes w's sockets fail setsockopt IP_MULTICAST_ALL as qemu-user,
// gVisor and WSL 1 do; every other option is set for real.
func withoutMulticastAll(w *Worker) { without(w, unix.IP_MULTICAST_ALL) }

// without makes w's sockets fail setsockopt of the options opts (IPPROTO_IP or
// SOL_SOCKET ones, told apart by their numbers here) with ENOPROTOOPT.
func without(w *Worker, opts ...int) {
	w.setInt = func(fd, level, opt, value int) error {
		for _, o := range opts {
			if opt == o && (level == unix.IPPROTO_IP) == (o == unix.IP_MULTICAST_ALL || o == unix.IP_PKTINFO) {
				return unix.ENOPROTOOPT
			}
		}
		return unix.SetsockoptInt(fd, level, opt, value)
	}
}

// TestMissingMulticastAllOpens checks that a socket without IP_MULTICAST_ALL opens, with
// one warning however often it opens, while a required option that fails still keeps
// the worker down.
func TestMissingMulticastAllOpens(t *testing.T) {
	var log syncbuf.Buffer
	w := newWorker(t, Config{Name: "nomcall", Interface: "lo", Logger: slog.New(slog.NewTextHandler(&log, nil))})
	withoutMulticastAll(w)
	run(t, w, nil)
	waitUp(t, w)
	if err := w.SendTo([]byte("x"), w.LocalAddr()); err != nil {
		t.Fatal(err)
	}
	if d := recv(t, w); string(d.Payload) != "x" {
		t.Fatalf("got %q, want x", d.Payload)
	}
	if n := strings.Count(log.String(), "level=WARN"); n != 1 || !strings.Contains(log.String(), "IP_MULTICAST_ALL") {
		t.Fatalf("want one warning naming IP_MULTICAST_ALL, got %d in:\n%s", n, log.String())
	}

	// Opening again, as a recovery does, does not warn again; two options missing make
	// one warning too.
	var log2 syncbuf.Buffer
	w2 := newWorker(t, Config{Name: "reopen", Interface: "lo", Logger: slog.New(slog.NewTextHandler(&log2, nil))})
	without(w2, unix.IP_MULTICAST_ALL, unix.SO_RXQ_OVFL)
	for range 3 {
		s, err := w2.open(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if !s.allGroups {
			t.Fatal("socket not marked as getting every group")
		}
		w2.detach(s)
	}
	if n := strings.Count(log2.String(), "level=WARN"); n != 1 || !strings.Contains(log2.String(), "SO_RXQ_OVFL") || !strings.Contains(log2.String(), "IP_MULTICAST_ALL") {
		t.Fatalf("three opens without two options: %d warnings, want 1 naming both:\n%s", n, log2.String())
	}

	// IP_PKTINFO is required: without it the worker stays down and says why.
	bad := newWorker(t, Config{Name: "nopktinfo", Interface: "lo"})
	without(bad, unix.IP_PKTINFO)
	if _, err := bad.open(t.Context()); err == nil || !strings.Contains(err.Error(), "IP_PKTINFO") {
		t.Fatalf("open without IP_PKTINFO = %v, want its error", err)
	}
}

// TestNetnsMissingMulticastAll shares one port between workers that joined different
// groups, as robots of two teams on one simulation host do. The kernel gives a socket
// without IP_MULTICAST_ALL off every group joined on the interface; the worker must
// deliver only its own groups and count the others.
func TestNetnsMissingMulticastAll(t *testing.T) {
	h := threeHosts(t)
	const port = 4310
	g1, g2 := netip.MustParseAddr("239.77.1.1"), netip.MustParseAddr("239.77.1.2")
	degraded := func(name string, groups ...netip.Addr) *Worker {
		w := newWorker(t, Config{Name: name, Interface: "a1", Port: port, Groups: groups})
		withoutMulticastAll(w)
		run(t, w, h.a.Go)
		waitUp(t, w)
		return w
	}
	team1 := degraded("team1", g1)
	team2 := degraded("team2", g2)
	none := degraded("none")
	// Each datagram reaches team1, team2 and none through the kernel; the worker whose
	// group it is delivers it, the two others count it.
	tx := startIn(t, h.a, Config{Name: "tx", Interface: "a1", MulticastLoopback: true})

	others := map[*Worker]uint64{} // the other groups' datagrams each worker should have counted
	for _, c := range []struct {
		group    netip.Addr
		to       *Worker
		dropping []*Worker
	}{
		{g2, team2, []*Worker{team1, none}},
		{g1, team1, []*Worker{team2, none}},
	} {
		payload := "to " + c.group.String()
		if err := tx.SendTo([]byte(payload), netip.AddrPortFrom(c.group, port)); err != nil {
			t.Fatal(err)
		}
		if d := recv(t, c.to); string(d.Payload) != payload || d.Dst.Addr() != c.group || d.Cast != CastMulticast {
			t.Fatalf("%s got %+v, want %q to %v", c.to.Name(), d, payload, c.group)
		}
		for _, w := range c.dropping {
			others[w]++
			eventually(t, w.Name()+" counting another's group", func() bool { return w.Stats().OtherGroups == others[w] })
			noRecv(t, w, 0) // counted as another's group, so never queued
		}
	}

	// Joining at run time lets the group through the worker's own filter too.
	if err := none.Join(g1); err != nil {
		t.Fatal(err)
	}
	if err := tx.SendTo([]byte("joined"), netip.AddrPortFrom(g1, port)); err != nil {
		t.Fatal(err)
	}
	if d := recv(t, none); string(d.Payload) != "joined" {
		t.Fatalf("none after Join got %q, want joined", d.Payload)
	}
	if d := recv(t, team1); string(d.Payload) != "joined" { // its group too
		t.Fatalf("team1 got %q, want joined", d.Payload)
	}
	eventually(t, "team2 counting the third", func() bool { return team2.Stats().OtherGroups == 2 })
	// Another's group is not received: Received == Delivered + Dropped() holds without it.
	for w, want := range map[*Worker]Stats{
		team1: {Received: 2, Delivered: 2, OtherGroups: 1},
		team2: {Received: 1, Delivered: 1, OtherGroups: 2},
		none:  {Received: 1, Delivered: 1, OtherGroups: 2},
	} {
		st := w.Stats()
		if st.Received != want.Received || st.Delivered != want.Delivered || st.OtherGroups != want.OtherGroups {
			t.Errorf("%s: %+v, want %+v", w.Name(), st, want)
		}
	}
}
