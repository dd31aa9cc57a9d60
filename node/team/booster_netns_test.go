package team

import (
	"context"
	"log/slog"
	"net"
	"net/netip"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/internal/netnstest"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"github.com/robocup-dnetwork/dnetwork/proto/booster"
	"github.com/robocup-dnetwork/dnetwork/proto/booster/boostertest"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// TestBoosterNetns puts a component in format booster in one network namespace and a
// stand-in Booster robot in another, on one Ethernet segment, as on a field: in unicast
// mode the robots find each other by their discovery broadcasts on 20000 + team and then
// send by unicast on 30000 + team; in broadcast mode both broadcast on 10000 + team. The
// stand-in sends what the vendor's header compiled with g++ writes and reads the node's
// packets through the C struct; the node publishes the stand-in as a teammate.
func TestBoosterNetns(t *testing.T) {
	netnstest.Require(t)
	for _, c := range []struct {
		mode BoosterMode
		rev  string
		size int
	}{{BoosterUnicast, boostertest.Main, booster.Size}, {BoosterBroadcast, boostertest.Y26, booster.Size2026}} {
		t.Run(c.mode.String(), func(t *testing.T) { testBoosterNetns(t, c.mode, c.rev, c.size) })
	}
}

func testBoosterNetns(t *testing.T, mode BoosterMode, rev string, size int) {
	prog := boostertest.Build(t, rev)
	// The vendor's packets are made before any goroutine of the test runs: under qemu-user a
	// fork while other threads work can hang the child before it reaches exec.
	msg, dpkt := prog.Write(t, 17, 3)
	quiet := slog.New(slog.DiscardHandler)
	a, b := netnstest.New(t, "bn"), netnstest.New(t, "bs")
	netnstest.Veth(t, a, "va", "10.90.7.1/24", b, "vb", "10.90.7.2/24")
	a.WaitOperUp(t, "va")
	b.WaitOperUp(t, "vb")
	bcast := netip.MustParseAddr("10.90.7.255")
	nodeAddr := netip.MustParseAddr("10.90.7.1")

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	var wg sync.WaitGroup
	var waits []func() error
	defer func() {
		cancel()
		for _, w := range waits {
			_ = w()
		}
		wg.Wait()
	}()

	// The node's sockets, made and run inside namespace a.
	cfg := boosterConfig(mode)
	cfg.Logger = quiet
	worker := func(port uint16) *transport.Worker {
		var w *transport.Worker
		if err := a.Do(func() (err error) {
			w, err = transport.New(transport.Config{Name: "booster", Interface: "va", Port: port, Logger: quiet})
			return err
		}); err != nil {
			t.Fatal(err)
		}
		waits = append(waits, a.Go(func() error { return w.Run(ctx) }))
		if err := w.WaitUp(ctx); err != nil {
			t.Fatal(err)
		}
		return w
	}
	teamW := worker(cfg.TeamPort())
	deps := Deps{Conn: teamW, Clock: clock.Wall, Game: GameFunc(func() GameSnapshot {
		return GameSnapshot{Connected: true, State: StatePlaying, FirstHalf: true, SecsRemaining: 600, MessageBudget: 60000}
	})}
	rec := &bus.Recorder[dmsgs.TeamInfo]{}
	deps.Publisher = rec
	var disc *Discovery
	if mode == BoosterUnicast {
		var err error
		if disc, err = NewDiscovery(DiscoveryConfig{Team: 17, Player: 2, Logger: quiet},
			worker(uint16(booster.PortDiscovery+17)), clock.Wall); err != nil {
			t.Fatal(err)
		}
		deps.Peers = disc
		wg.Go(func() { _ = disc.Run(ctx) })
	}
	comp, err := New(cfg, deps)
	if err != nil {
		t.Fatal(err)
	}
	setBoosterInputs(comp)
	wg.Go(func() { _ = comp.Run(ctx) })

	// The stand-in robot's sockets, inside namespace b: a listener per port it uses and
	// a sender that may broadcast, as the vendor's robots have.
	listen := func(port uint16) *net.UDPConn {
		var c *net.UDPConn
		if err := b.Do(func() (err error) {
			c, err = net.ListenUDP("udp4", &net.UDPAddr{Port: int(port)})
			return err
		}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	sender := listen(0)
	rc, err := sender.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	_ = rc.Control(func(fd uintptr) { _ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_BROADCAST, 1) })

	var sends []func()
	to := func(addr netip.Addr, port int, p []byte) func() {
		return func() { _, _ = sender.WriteToUDPAddrPort(p, netip.AddrPortFrom(addr, uint16(port))) }
	}
	var heard *net.UDPConn
	if mode == BoosterUnicast {
		discL := listen(uint16(booster.PortDiscovery + 17))
		heard = listen(uint16(booster.PortUnicast + 17))
		// The node's discovery broadcast reaches the robot.
		got := prog.Read(t, readFrom(t, discL, booster.DiscoverySize, prog, "playerId=2"))
		if !strings.HasPrefix(got[0], "discovery validation=41203 ") || !strings.Contains(got[0], " teamId=17 playerId=2") {
			t.Fatalf("the robot read the discovery %q", got)
		}
		sends = append(sends, to(bcast, booster.PortDiscovery+17, dpkt), to(nodeAddr, booster.PortUnicast+17, msg))
	} else {
		heard = listen(uint16(booster.PortBroadcast + 17))
		sends = append(sends, to(bcast, booster.PortBroadcast+17, msg))
	}
	stop := make(chan struct{})
	wg.Go(func() {
		tk := time.NewTicker(100 * time.Millisecond)
		defer tk.Stop()
		for {
			for _, s := range sends {
				s()
			}
			select {
			case <-stop:
				return
			case <-tk.C:
			}
		}
	})
	defer close(stop)

	got := prog.Read(t, readFrom(t, heard, size, prog, "playerId=2"))
	if !strings.HasPrefix(got[0], "msg validation=31202 ") || !strings.Contains(got[0], " teamId=17 playerId=2 playerRole=2 isAlive=1") {
		t.Fatalf("the robot read %q", got)
	}
	if deadline, _ := ctx.Deadline(); !rec.WaitLen(1, time.Until(deadline)) {
		t.Fatal("the stand-in robot was never published")
	}
	if m, _ := rec.Last(); m.PlayerNumber != 3 || m.TeamNumber != 17 || m.Format != dmsgs.TeamInfoFormatBooster {
		t.Fatalf("published %+v", m)
	}
}

// readFrom returns the first datagram of size bytes on c whose fields, as the C struct
// reads them, contain want (the stand-in also hears its own broadcasts).
func readFrom(t *testing.T, c *net.UDPConn, size int, prog boostertest.Program, want string) []byte {
	t.Helper()
	buf := make([]byte, 2048)
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		n, err := c.Read(buf)
		if err != nil {
			t.Fatalf("the robot heard no %d-byte packet with %s: %v", size, want, err)
		}
		if n == size && strings.Contains(prog.Read(t, buf[:n])[0], want) {
			return append([]byte(nil), buf[:n]...)
		}
	}
}
