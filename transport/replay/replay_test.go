package replay

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/netip"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/robocup-dnetwork/dnetwork/transport"
	"github.com/robocup-dnetwork/dnetwork/transport/capture"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestParseMapping(t *testing.T) {
	m := map[uint16]netip.AddrPort{}
	if err := ParseMapping("3838=127.0.0.1:4000", m); err != nil || m[3838] != netip.MustParseAddrPort("127.0.0.1:4000") {
		t.Fatalf("%v %v", err, m)
	}
	for _, bad := range []string{"3838", "0=127.0.0.1:1", "x=127.0.0.1:1", "3838=127.0.0.1", "3838=[::1]:5", "3838=127.0.0.1:0"} {
		if err := ParseMapping(bad, m); !errors.Is(err, ErrMapping) {
			t.Errorf("%q: %v, want ErrMapping", bad, err)
		}
	}
}

// TestPlay: mapped datagrams arrive at their new address in order and no sooner than
// the recorded gaps divided by the speed allow; others are counted, not sent.
func TestPlay(t *testing.T) {
	rx, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer rx.Close()
	to := rx.LocalAddr().(*net.UDPAddr).AddrPort()
	t0 := time.Unix(1000, 0)
	gc := netip.MustParseAddrPort("10.0.0.2:40000")
	pkt := func(ms int, dstPort uint16, dir transport.Direction, payload string) capture.Packet {
		return capture.Packet{Time: t0.Add(time.Duration(ms) * time.Millisecond), Src: gc,
			Dst: netip.AddrPortFrom(netip.MustParseAddr("10.0.0.255"), dstPort), Dir: dir, Payload: []byte(payload)}
	}
	pkts := []capture.Packet{
		pkt(0, 3838, transport.Received, "one"),
		pkt(100, 3939, transport.Received, "team"), // port not mapped
		pkt(200, 3838, transport.Sent, "sent"),     // other direction
		pkt(400, 3838, transport.Received, "two"),
		pkt(800, 3838, transport.Received, "three"),
	}
	start := time.Now()
	st, err := Play(context.Background(), pkts, Config{
		To: map[uint16]netip.AddrPort{3838: to}, Speed: 2, Dir: transport.Received,
		Interface: "lo", Logger: slog.New(slog.DiscardHandler),
	})
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if st != (Stats{Sent: 3, Unmapped: 1, OtherDir: 1}) {
		t.Fatalf("stats %+v", st)
	}
	if took < 400*time.Millisecond {
		t.Fatalf("800 ms of recording replayed at speed 2 in %v", took)
	}
	buf := make([]byte, 100)
	_ = rx.SetReadDeadline(time.Now().Add(5 * time.Second))
	for _, want := range []string{"one", "two", "three"} {
		n, err := rx.Read(buf)
		if err != nil || string(buf[:n]) != want {
			t.Fatalf("got %q, %v; want %q", buf[:n], err, want)
		}
	}
}

// TestPlayStops: a cancelled context ends a slow replay at once.
func TestPlayStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	pkts := []capture.Packet{
		{Time: time.Unix(0, 0), Dst: netip.MustParseAddrPort("10.0.0.1:3838"), Payload: []byte("a")},
		{Time: time.Unix(3600, 0), Dst: netip.MustParseAddrPort("10.0.0.1:3838"), Payload: []byte("b")},
	}
	time.AfterFunc(100*time.Millisecond, cancel)
	st, err := Play(ctx, pkts, Config{To: map[uint16]netip.AddrPort{3838: netip.MustParseAddrPort("127.0.0.1:9")}, Speed: 1,
		Interface: "lo", Logger: slog.New(slog.DiscardHandler)})
	if !errors.Is(err, context.Canceled) || st.Sent != 1 {
		t.Fatalf("%+v %v, want one sent, then cancelled", st, err)
	}
}
