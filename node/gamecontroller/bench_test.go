package gamecontroller

import (
	"context"
	"io"
	"log/slog"
	"net/netip"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// benchComponent returns a component (not running) whose publishers count.
func benchComponent(b *testing.B, conn bus.Conn) (*Component, *int, *int) {
	b.Helper()
	var infos, datas int
	cfg := testConfig()
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	c, err := New(cfg, conn, clock.NewManual(t0),
		bus.PublisherFunc[dmsgs.GCInfo](func(*dmsgs.GCInfo) error { infos++; return nil }),
		bus.PublisherFunc[dmsgs.GameControlData](func(*dmsgs.GameControlData) error { datas++; return nil }))
	if err != nil {
		b.Fatal(err)
	}
	return c, &infos, &datas
}

// BenchmarkHandleChanged is the path from a datagram to the GameControlData and GCInfo
// publish calls, for packets that change the state every time (READY <-> SET).
func BenchmarkHandleChanged(b *testing.B) {
	for _, l := range []gcproto.Layout{gcproto.LayoutHL688, gcproto.LayoutSPL18, gcproto.LayoutHSL20} {
		b.Run(l.String(), func(b *testing.B) {
			c, infos, datas := benchComponent(b, bus.NewFakeConn(1))
			var ds [2]transport.Datagram
			for i, s := range []gcproto.State{gcproto.StateReady, gcproto.StateSet} {
				p := basePacket(l)
				p.State = s
				ds[i] = transport.Datagram{Payload: encode(b, &p), Src: gcA}
			}
			b.ReportAllocs()
			b.SetBytes(int64(l.Size()))
			for i := 0; b.Loop(); i++ {
				c.handle(ds[i&1])
			}
			if *infos != b.N || *datas != b.N {
				b.Fatalf("%d GCInfo and %d GameControlData for %d packets", *infos, *datas, b.N)
			}
		})
	}
}

// BenchmarkHandleUnchanged is the steady state: packets that differ only in the packet
// number, accepted without a publication.
func BenchmarkHandleUnchanged(b *testing.B) {
	c, infos, datas := benchComponent(b, bus.NewFakeConn(1))
	p := basePacket(gcproto.LayoutHSL20)
	var ds [2]transport.Datagram
	for i := range ds {
		p.PacketNumber = uint8(i)
		ds[i] = transport.Datagram{Payload: encode(b, &p), Src: gcA}
	}
	c.handle(ds[0])
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		c.handle(ds[i&1])
	}
	if *infos != 1 || *datas != 1 {
		b.Fatalf("%d GCInfo and %d GameControlData published", *infos, *datas)
	}
}

// BenchmarkDatagramToPublish measures through the running component: from handing a
// datagram to the socket queue to the GCInfo publish call on the component's goroutine.
func BenchmarkDatagramToPublish(b *testing.B) {
	conn := bus.NewFakeConn(4)
	published := make(chan struct{}, 1)
	cfg := testConfig()
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	c, err := New(cfg, conn, clock.NewManual(t0),
		bus.PublisherFunc[dmsgs.GCInfo](func(*dmsgs.GCInfo) error { published <- struct{}{}; return nil }),
		bus.PublisherFunc[dmsgs.GameControlData](func(*dmsgs.GameControlData) error { return nil }))
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	defer func() { cancel(); <-done }()

	var ds [2]transport.Datagram
	for i, s := range []gcproto.State{gcproto.StateReady, gcproto.StateSet} {
		p := basePacket(gcproto.LayoutHSL20)
		p.State = s
		ds[i] = transport.Datagram{Payload: encode(b, &p), Src: gcA}
	}
	watchdog := time.NewTimer(time.Hour)
	defer watchdog.Stop()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		watchdog.Reset(5 * time.Second)
		conn.Deliver(ds[i&1])
		select {
		case <-published:
		case <-watchdog.C:
			b.Fatal("no publication")
		}
	}
}

// BenchmarkReturnTick is one return packet v4: build, encode and send.
func BenchmarkReturnTick(b *testing.B) {
	conn := &countingConn{FakeConn: bus.NewFakeConn(1)}
	c, _, _ := benchComponent(b, conn)
	p := basePacket(gcproto.LayoutHSL20)
	c.handle(transport.Datagram{Payload: encode(b, &p), Src: gcA})
	c.SetVision(&dmsgs.VisionInfo{SeeBall: true})
	b.ReportAllocs()
	for b.Loop() {
		c.returnTick(c.clk.Now())
	}
	if conn.n != b.N {
		b.Fatalf("%d sends for %d ticks", conn.n, b.N)
	}
}

// countingConn counts sends without keeping them.
type countingConn struct {
	*bus.FakeConn
	n int
}

func (c *countingConn) SendTo([]byte, netip.AddrPort) error { c.n++; return nil }
