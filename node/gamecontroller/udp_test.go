package gamecontroller

import (
	"bytes"
	"context"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// TestLoopbackUDP runs the component on a real socket (transport.Worker on lo) with the
// wall clock. A GameController socket on 127.0.0.1 sends HSL v20 packets to the
// component's port and receives the return packets on its own port.
func TestLoopbackUDP(t *testing.T) {
	logs := &syncBuffer{}
	gc, err := net.ListenUDP("udp4", net.UDPAddrFromAddrPort(netip.MustParseAddrPort("127.0.0.1:0")))
	if err != nil {
		t.Fatal(err)
	}
	defer gc.Close()
	gcAddr := gc.LocalAddr().(*net.UDPAddr).AddrPort()

	w, err := transport.New(transport.Config{
		Name:        "gamecontroller",
		Interface:   "lo",
		MaxDatagram: gcproto.MaxSize,
		Filter:      transport.AllowFrom(netip.MustParsePrefix("127.0.0.1/32")),
		Logger:      newTestLogger(logs),
	})
	if err != nil {
		t.Fatal(err)
	}
	cfg := testConfig()
	cfg.ReturnRate = MaxReturnRate
	cfg.ReturnPort = gcAddr.Port()
	cfg.AllowFrom = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	cfg.Logger = newTestLogger(logs)
	info := &bus.Recorder[dmsgs.GCInfo]{}
	data := &bus.Recorder[dmsgs.GameControlData]{}
	c, err := New(cfg, w, clock.Wall, info, data)
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	errs := make(chan error, 2)
	go func() { errs <- w.Run(ctx) }()
	go func() { errs <- c.Run(ctx) }()
	defer func() {
		cancel()
		for range 2 {
			if err := <-errs; err != nil {
				t.Errorf("Run: %v", err)
			}
		}
	}()
	upCtx, upCancel := context.WithTimeout(ctx, 5*time.Second)
	defer upCancel()
	if err := w.WaitUp(upCtx); err != nil {
		t.Fatalf("worker not up: %v", err)
	}
	dst := net.UDPAddrFromAddrPort(netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), w.LocalAddr().Port()))

	// The GameController sends at 10 Hz until the first return packet arrives (at most
	// 5 s); the return ticker runs at 2 Hz.
	p := basePacket(gcproto.LayoutHSL20)
	p.State = gcproto.StateReady
	stop := make(chan struct{})
	sent := make(chan int, 1)
	go func() {
		n := 0
		tk := time.NewTicker(100 * time.Millisecond)
		defer tk.Stop()
		defer func() { sent <- n }()
		for {
			p.PacketNumber++
			b, err := p.MarshalBinary()
			if err != nil {
				return
			}
			if _, err := gc.WriteToUDP(b, dst); err != nil {
				return
			}
			n++
			select {
			case <-stop:
				return
			case <-tk.C:
			}
		}
	}()
	if err := gc.SetReadDeadline(time.Now().Add(5 * time.Second)); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	n, from, err := gc.ReadFromUDPAddrPort(buf)
	close(stop)
	packets := <-sent
	if err != nil {
		t.Fatalf("no return packet: %v (status %+v)", err, c.Status())
	}
	want := returnV4(ourPlayer, ourTeam, 0, [3]float32{}, -1, [2]float32{})
	if !bytes.Equal(buf[:n], want) || from.Port() != w.LocalAddr().Port() {
		t.Errorf("return % x from %v, want % x from port %d", buf[:n], from, want, w.LocalAddr().Port())
	}
	if !info.WaitLen(1, 5*time.Second) {
		t.Fatal("no GCInfo")
	}
	m, _ := info.Last()
	if !m.Connected || m.State != dmsgs.GCInfoStateReady || m.GCVersion != "HSL20" {
		t.Errorf("GCInfo %+v", m)
	}
	if d, ok := data.Last(); !ok || d.Source != gcAddr.String() {
		t.Errorf("GameControlData source %q, want %v", d.Source, gcAddr)
	}

	// Every packet sent is received and counted; the return packet is counted once the
	// send call returned, which may be after the GameController socket read it.
	deadline := time.Now().Add(5 * time.Second)
	for {
		st := c.Status()
		if int(st.Counters.Received) == packets && st.ReturnsSent >= 1 {
			if st.Counters.Accepted != uint64(packets) || st.GameController != gcAddr || !st.Connected ||
				!bytes.Equal(st.LastReturnBytes, want) {
				t.Errorf("status %+v after %d packets", st, packets)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("component received %d of %d packets, sent %d returns (socket %+v)",
				st.Counters.Received, packets, st.ReturnsSent, w.Stats())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if ws := w.Stats(); ws.Received != uint64(packets) || ws.Delivered != uint64(packets) || ws.SendErrors != 0 {
		t.Errorf("socket stats %+v for %d packets", ws, packets)
	}
}
