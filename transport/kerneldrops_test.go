package transport

import (
	"context"
	"encoding/binary"
	"errors"
	"net"
	"net/netip"
	"os"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TestKernelDropsReported fills a socket opened as the worker opens it, with the
// smallest receive buffer, without reading, then reads: the datagram read carries the
// kernel's drop count (SO_RXQ_OVFL), which must cover what did not fit.
func TestKernelDropsReported(t *testing.T) {
	conn, missing, err := listen(context.Background(), 0, sockOpts{readBuffer: 1}) // the kernel rounds up to its minimum
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	skipWithoutDropCount(t, missing)
	size, err := readBufferSize(conn)
	if err != nil || size <= 0 {
		t.Fatalf("read buffer size %d, %v", size, err)
	}
	port := conn.LocalAddr().(*net.UDPAddr).AddrPort().Port()
	tx, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Close()
	const sent = 200
	payload := make([]byte, 1000)
	dst := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), port)
	for range sent {
		if _, err := tx.WriteToUDPAddrPort(payload, dst); err != nil {
			t.Fatal(err)
		}
	}
	// Read what the buffer held, then send one more datagram: it is queued with the
	// socket's drop count so far, which is everything that did not fit.
	buf, oob := make([]byte, 2048), make([]byte, oobSize)
	read := func() control {
		t.Helper()
		n, oobn, _, _, err := conn.ReadMsgUDPAddrPort(buf, oob)
		if err != nil {
			t.Fatal(err)
		}
		if n != len(payload) {
			t.Fatalf("read %d bytes", n)
		}
		return parseControl(oob[:oobn])
	}
	queued := 0
	for {
		if err := conn.SetReadDeadline(time.Now().Add(200 * time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		n, _, _, _, err := conn.ReadMsgUDPAddrPort(buf, oob)
		if err != nil {
			if !errors.Is(err, os.ErrDeadlineExceeded) {
				t.Fatal(err)
			}
			break
		}
		if n != len(payload) {
			t.Fatalf("read %d bytes", n)
		}
		queued++
	}
	if err := conn.SetReadDeadline(time.Now().Add(waitLimit)); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.WriteToUDPAddrPort(payload, dst); err != nil {
		t.Fatal(err)
	}
	c := read()
	if !c.pktinfo {
		t.Fatal("no IP_PKTINFO next to SO_RXQ_OVFL")
	}
	if queued == sent || int(c.drops) != sent-queued {
		t.Fatalf("buffer %d bytes: read %d of %d, the kernel reports %d dropped", size, queued, sent, c.drops)
	}
	t.Logf("buffer %d bytes: %d read, %d dropped by the kernel", size, queued, c.drops)
}

func TestParseControlWithoutDrops(t *testing.T) {
	if c := parseControl(nil); c.pktinfo || c.drops != 0 {
		t.Fatalf("empty control messages parsed as %+v", c)
	}
}

// TestKernelDropsNeverGoBack: a datagram whose control messages lack the drop count
// (the kernel's first datagrams, or a cut-short control buffer) leaves the count where
// it was instead of wrapping it around 2^32.
func TestKernelDropsNeverGoBack(t *testing.T) {
	w, err := New(Config{Name: "t", Interface: "lo", MaxDatagram: 64})
	if err != nil {
		t.Fatal(err)
	}
	ovfl := func(n uint32) []byte {
		b := make([]byte, unix.CmsgSpace(4))
		h := (*unix.Cmsghdr)(unsafe.Pointer(&b[0]))
		h.Level, h.Type = unix.SOL_SOCKET, unix.SO_RXQ_OVFL
		h.SetLen(unix.CmsgLen(4))
		binary.NativeEndian.PutUint32(b[unix.CmsgLen(0):], n)
		return b
	}
	s := &socket{}
	src := netip.MustParseAddrPort("127.0.0.1:1")
	for _, c := range []struct {
		oob  []byte
		want uint64
	}{{nil, 0}, {ovfl(5), 5}, {nil, 5}, {ovfl(7), 7}, {nil, 7}} {
		w.handle(s, []byte("x"), 1, c.oob, 0, src, time.Now())
		if got := w.Stats().KernelDrops; got != c.want {
			t.Fatalf("kernel drops %d, want %d", got, c.want)
		}
	}
}

// skipWithoutDropCount skips a test of the kernel's drop count where the kernel cannot
// report it (qemu-user lacks SO_RXQ_OVFL).
func skipWithoutDropCount(t *testing.T, m missingOpts) {
	t.Helper()
	if m.dropCount != nil {
		t.Skipf("no kernel drop count to test: %v (qemu-user does not emulate SO_RXQ_OVFL)", m.dropCount)
	}
}
