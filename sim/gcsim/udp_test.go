package gcsim

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/robocup-dnetwork/dnetwork/internal/netnstest"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// robotConn is a plain UDP socket standing in for a robot on 127.0.0.1.
func robotConn(t *testing.T) *net.UDPConn {
	t.Helper()
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func addrOf(c *net.UDPConn) netip.AddrPort { return c.LocalAddr().(*net.UDPAddr).AddrPort() }

// readControl reads control packets from c until one satisfies ok or the deadline
// passes; it answers every packet with ret (if set) to the packet's source at port.
func readControl(t *testing.T, c *net.UDPConn, deadline time.Time, ok func(*gcproto.Packet) bool, answer func(src netip.AddrPort)) (n int, last gcproto.Packet) {
	t.Helper()
	buf := make([]byte, gcproto.MaxSize+1)
	if err := c.SetReadDeadline(deadline); err != nil {
		t.Fatal(err)
	}
	for {
		m, src, err := c.ReadFromUDPAddrPort(buf)
		if err != nil {
			t.Fatalf("after %d packets (last %v): %v", n, last.State, err)
		}
		if err := last.UnmarshalBinary(buf[:m]); err != nil {
			t.Fatalf("control packet does not decode: %v", err)
		}
		n++
		if answer != nil {
			answer(src)
		}
		if ok(&last) {
			return n, last
		}
	}
}

// TestLoopback runs the simulator on real UDP sockets on 127.0.0.1: two robots get
// the packets by unicast, one answers with return packets, junk is counted.
func TestLoopback(t *testing.T) {
	r1, r2 := robotConn(t), robotConn(t)
	dest := Destination{Kind: DestUnicast, Addrs: []netip.AddrPort{addrOf(r1), addrOf(r2)}}
	u, err := NewUDP(UDPConfig{Dest: dest, ReturnInterface: "127.0.0.1", Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error { return u.Run(ctx) })
	if err := u.WaitUp(ctx); err != nil {
		t.Fatal(err)
	}
	retAddr := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), u.Return.LocalAddr().Port())

	s := Setup{Layout: gcproto.LayoutHSL20, Teams: [2]uint8{teamA, teamB}}
	cfg := Config{Setup: s, Script: script(t, s, "0 ready A\n1 set\n2 playing"), Speed: 4, Dest: dest, Logger: quiet}
	u.Attach(&cfg)
	sim, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	g.Go(func() error { return sim.Run(ctx) })

	alive, err := ptr(gcproto.NewAlive(teamA, 2)).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	answer := func(netip.AddrPort) {
		if _, err := r1.WriteToUDPAddrPort(alive, retAddr); err != nil {
			t.Error(err)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	n, p := readControl(t, r1, deadline, func(p *gcproto.Packet) bool { return p.State == gcproto.StatePlaying }, answer)
	if p.Layout != gcproto.LayoutHSL20 || p.KickingTeam != teamA || n < 3 {
		t.Errorf("robot 1: %d packets, last %v kicking %d", n, p.Layout, p.KickingTeam)
	}
	if n2, _ := readControl(t, r2, deadline, func(p *gcproto.Packet) bool { return p.State == gcproto.StatePlaying }, nil); n2 < 3 {
		t.Errorf("robot 2 got %d packets", n2)
	}
	if _, err := r2.WriteToUDPAddrPort([]byte("RGrt\x04junk"), retAddr); err != nil {
		t.Fatal(err)
	}

	// The return packets arrive asynchronously; wait for them (bounded). The simulator
	// counts the junk before it tells the socket: wait for both counts.
	for time.Now().Before(deadline) {
		if st := sim.Stats(); st.Malformed == 1 && st.Returns >= uint64(n) && u.Return.Stats().Malformed == 1 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	rs := sim.Robots()
	if len(rs) != 1 || rs[0].Team != teamA || rs[0].Player != 2 || rs[0].Status != Good || rs[0].Addr != addrOf(r1) || rs[0].Packets < uint64(n) {
		t.Errorf("robots %+v, want A 2 good from %v with >= %d packets", rs, addrOf(r1), n)
	}
	if st := sim.Stats(); st.Malformed != 1 || st.MalformedLength != 1 {
		t.Errorf("stats %+v, want one malformed (length)", st)
	}
	if st := u.Return.Stats(); st.Malformed != 1 {
		t.Errorf("return socket stats %+v, want Malformed 1", st)
	}
	cancel()
	if err := g.Wait(); err != nil && !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
}

// TestNamespaces sends control packets by broadcast and by multicast between two
// network namespaces joined by a veth pair, and gets a return packet back.
func TestNamespaces(t *testing.T) {
	netnstest.Require(t)
	const group = "239.77.0.1"
	for _, tc := range []struct {
		name, dest string
		groups     []netip.Addr
	}{
		{"broadcast", "broadcast:va", nil},
		{"multicast", "multicast:" + group + "@va", []netip.Addr{netip.MustParseAddr(group)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gcHost, robot := netnstest.New(t, "g"), netnstest.New(t, "r")
			netnstest.Veth(t, gcHost, "va", "10.93.0.1/24", robot, "vb", "10.93.0.2/24")
			dest, err := ParseDestination(tc.dest, ControlPort)
			if err != nil {
				t.Fatal(err)
			}
			u, err := NewUDP(UDPConfig{Dest: dest, ReturnPort: ReturnPort, Logger: quiet})
			if err != nil {
				t.Fatal(err)
			}
			rw, err := transport.New(transport.Config{Name: "robot", Interface: "vb", Port: ControlPort, Groups: tc.groups, Logger: quiet})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			waits := []func() error{
				gcHost.Go(func() error { return u.Control.Run(ctx) }),
				gcHost.Go(func() error { return u.Return.Run(ctx) }),
				robot.Go(func() error { return rw.Run(ctx) }),
			}
			if err := u.WaitUp(ctx); err != nil {
				t.Fatal(err)
			}
			if err := rw.WaitUp(ctx); err != nil {
				t.Fatal(err)
			}
			cfg := Config{Setup: Setup{Layout: gcproto.LayoutSPL18, Teams: [2]uint8{teamA, teamB}}, Dest: dest, Logger: quiet}
			u.Attach(&cfg)
			sim, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			simDone := make(chan error, 1)
			go func() { simDone <- sim.Run(ctx) }()

			var d transport.Datagram
			select {
			case d = <-rw.Datagrams():
			case <-ctx.Done():
				t.Fatal("no control packet reached the robot")
			}
			var p gcproto.Packet
			if err := p.UnmarshalBinary(d.Payload); err != nil || p.Layout != gcproto.LayoutSPL18 {
				t.Fatalf("control packet %v, %v", p.Layout, err)
			}
			wantCast := transport.CastBroadcast
			if tc.name == "multicast" {
				wantCast = transport.CastMulticast
			}
			if d.Cast != wantCast || d.Src.Addr() != netip.MustParseAddr("10.93.0.1") {
				t.Errorf("packet came as %v from %v, want %v from 10.93.0.1", d.Cast, d.Src, wantCast)
			}
			alive, _ := ptr(gcproto.NewAlive(teamB, 4)).MarshalBinary()
			if err := rw.SendTo(alive, netip.AddrPortFrom(d.Src.Addr(), ReturnPort)); err != nil {
				t.Fatal(err)
			}
			for ctx.Err() == nil && len(sim.Robots()) == 0 {
				time.Sleep(10 * time.Millisecond)
			}
			if rs := sim.Robots(); len(rs) != 1 || rs[0].Team != teamB || rs[0].Player != 4 || rs[0].Addr.Addr() != netip.MustParseAddr("10.93.0.2") {
				t.Errorf("robots %+v, want B 4 from 10.93.0.2", rs)
			}
			cancel()
			if err := <-simDone; err != nil {
				t.Error(err)
			}
			for _, w := range waits {
				if err := w(); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

func TestNewUDP(t *testing.T) {
	u, err := NewUDP(UDPConfig{Dest: dstOne, ReturnPort: ReturnPort, TeamPorts: true, Teams: [2]uint8{teamA, teamB}, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range u.Team {
		if want := TeamPortBase + uint16([]uint8{teamA, teamB}[i]); w == nil || w.LocalAddr().Port() != want {
			t.Errorf("team socket %d: %v, want port %d", i, w, want)
		}
	}
	if p := u.Return.LocalAddr().Port(); p != ReturnPort {
		t.Errorf("return port %d", p)
	}
	var cfg Config
	u.Attach(&cfg)
	if cfg.Control != u.Control || cfg.Return != u.Return || cfg.TeamConns[0] != u.Team[0] || cfg.TeamConns[1] != u.Team[1] {
		t.Error("Attach did not set the sockets")
	}
	if _, err := NewUDP(UDPConfig{Dest: dstOne, TeamPorts: true, Teams: [2]uint8{teamA, 0}}); !errors.Is(err, ErrConfig) {
		t.Errorf("team ports without team numbers: %v, want ErrConfig", err)
	}
	if _, err := NewUDP(UDPConfig{}); !errors.Is(err, ErrDest) {
		t.Errorf("no destination: %v, want ErrDest", err)
	}
}
