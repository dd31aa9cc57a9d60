package transport

import (
	"context"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/linkemu"
	"github.com/robocup-dnetwork/dnetwork/internal/netnstest"
	"github.com/robocup-dnetwork/dnetwork/transport/udpstat"
)

// TestNetnsKernelDropCauses: datagrams corrupted on the link (bad UDP checksum) and a
// full receive buffer both end in the kernel's drop count of the socket; the namespace's
// UDP counters tell the two apart exactly.
func TestNetnsKernelDropCauses(t *testing.T) {
	netnstest.Require(t)
	probe, missing, err := listen(t.Context(), 0, sockOpts{})
	if err != nil {
		t.Fatal(err)
	}
	probe.Close()
	skipWithoutDropCount(t, missing)
	a, b := netnstest.New(t, "ka"), netnstest.New(t, "kb")
	emu := linkemu.New(7)
	ha := linkemu.AddHost(t, emu, a, "a", "eth0", "10.95.0.1/24")
	hb := linkemu.AddHost(t, emu, b, "b", "eth0", "10.95.0.2/24")
	emu.Start()
	t.Cleanup(func() { emu.Close() })
	emu.Set(ha, hb, linkemu.Impairment{Corrupt: 0.1, BadChecksum: true})

	read := func() udpstat.Counters {
		t.Helper()
		var c udpstat.Counters
		if err := b.Do(func() (err error) { c, err = udpstat.Read(); return err }); err != nil {
			t.Fatal(err)
		}
		return c
	}
	before := read()
	w := startIn(t, b, Config{Name: "rx", Interface: "eth0", Port: 4700})
	tx := plainSocket(t, a)
	to := netip.MustParseAddrPort("10.95.0.2:4700")
	payload := make([]byte, 200) // longer than 76 bytes: checksummed when read, so per socket
	const sent = 300
	for range sent {
		if _, err := tx.WriteToUDPAddrPort(payload, to); err != nil {
			t.Fatal(err)
		}
		time.Sleep(200 * time.Microsecond)
	}
	// The drop count comes with the next datagram read: a clean one last.
	emu.Set(ha, hb, linkemu.Impairment{})
	deadline := time.Now().Add(waitLimit)
	for w.Stats().Received+w.Stats().KernelDrops < sent+1 {
		if _, err := tx.WriteToUDPAddrPort(payload, to); err != nil {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("socket %+v, emulator %+v", w.Stats(), emu.Stats(ha, hb))
		}
		time.Sleep(20 * time.Millisecond)
	}
	corrupted := emu.Stats(ha, hb).Corrupted
	d := read().Sub(before)
	st := w.Stats()
	if corrupted == 0 || st.KernelDrops != corrupted || d.InCsumErrors != corrupted || d.RcvbufErrors != 0 {
		t.Fatalf("%d corrupted: socket kernel drops %d, namespace %+v", corrupted, st.KernelDrops, d)
	}
	t.Logf("%d corrupted datagrams: socket dropped_kernel %d; namespace checksum errors %d, receive buffer errors %d",
		corrupted, st.KernelDrops, d.InCsumErrors, d.RcvbufErrors)

	// A socket nobody reads, with the smallest buffer: receive buffer errors only.
	var full *net.UDPConn
	if err := b.Do(func() (err error) {
		full, _, err = listen(context.Background(), 4701, sockOpts{readBuffer: 1})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	defer full.Close()
	mid, emuMid := read(), emu.Stats(ha, hb)
	to = netip.MustParseAddrPort("10.95.0.2:4701")
	for range 200 {
		if _, err := tx.WriteToUDPAddrPort(make([]byte, 1000), to); err != nil {
			t.Fatal(err)
		}
	}
	// Until the emulator has read the 200 from a's TAP and written them to b (rather than a
	// fixed sleep, which a loaded machine can outlast), and b's kernel has counted the
	// errors (the datagrams the buffer took are counted only when read).
	deadline = time.Now().Add(waitLimit)
	for {
		e := emu.Stats(ha, hb)
		d = read().Sub(mid)
		if e.Offered-emuMid.Offered >= 200 && emu.InFlight() == 0 && d.RcvbufErrors >= 100 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if d.RcvbufErrors < 100 || d.RcvbufErrors > 200 || d.InCsumErrors != 0 {
		t.Fatalf("overflow: namespace %+v", d)
	}
	t.Logf("overflow: %d of 200 datagrams were receive buffer errors", d.RcvbufErrors)
}
