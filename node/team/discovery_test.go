package team

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"github.com/robocup-dnetwork/dnetwork/proto/booster"
	"github.com/robocup-dnetwork/dnetwork/proto/booster/boostertest"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// TestDiscoveryReceive checks which discovery packets make a robot a destination, and
// for how long.
func TestDiscoveryReceive(t *testing.T) {
	prog := boostertest.Build(t, boostertest.Main)
	d, err := NewDiscovery(DiscoveryConfig{Team: 17, Player: 2, Logger: slog.New(slog.DiscardHandler)}, bus.NewFakeConn(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) netip.AddrPort { return netip.MustParseAddrPort(s) }
	now := harnessStart
	msg, mate := prog.Write(t, 17, 3)
	_, foreign := prog.Write(t, 18, 4)
	_, own := prog.Write(t, 17, 2)
	_, zero := prog.Write(t, 17, 0)
	for _, c := range []struct {
		b    []byte
		from string
		ok   bool
	}{
		{mate, "10.0.0.3:20017", true},
		{msg, "10.0.0.4:30017", false},
		{mate[:15], "10.0.0.5:20017", false},
		{foreign, "10.0.0.6:20018", false},
		{own, "10.0.0.7:20017", false},
		{zero, "10.0.0.8:20017", false},
	} {
		if got := d.Receive(c.b, at(c.from), now); got != c.ok {
			t.Errorf("from %s: remembered %v, want %v", c.from, got, c.ok)
		}
	}
	want := DiscoveryCounters{Received: 6, Accepted: 1, WrongSize: 2, ForeignTeam: 1, Own: 1, Range: 1}
	if got := d.Status(); got != want {
		t.Fatalf("counters\n got %+v\nwant %+v", got, want)
	}
	if got := d.AppendPeers(nil, now.Add(DefaultDiscoveryExpiry)); len(got) != 1 || got[0] != at("10.0.0.3:30017") {
		t.Fatalf("peers %v, want 10.0.0.3:30017", got)
	}
	if got := d.AppendPeers(nil, now.Add(DefaultDiscoveryExpiry+time.Millisecond)); len(got) != 0 {
		t.Fatalf("peers after the expiry %v", got)
	}
}

// TestBoosterLoopbackStandIn runs a component in format booster, unicast mode, with its
// Discovery, on real sockets on 127.0.0.1 beside a stand-in Booster robot that sends what
// the vendor's header compiled with g++ writes, every 100 ms as the vendor's robots do:
// its discovery packet makes the node send to it, its message is published as a
// teammate, and the node's packets decode with the C struct.
func TestBoosterLoopbackStandIn(t *testing.T) {
	prog := boostertest.Build(t, boostertest.Main)
	quiet := slog.New(slog.DiscardHandler)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
	}()
	worker := func() *transport.Worker {
		w, err := transport.New(transport.Config{Name: "booster", Interface: "lo", Logger: quiet})
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() { _ = w.Run(ctx) })
		if err := w.WaitUp(ctx); err != nil {
			t.Fatal(err)
		}
		return w
	}
	teamW, discW := worker(), worker()
	listen := func() *net.UDPConn {
		c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	robotMsg, robotDisc := listen(), listen()
	robotMsgAddr := robotMsg.LocalAddr().(*net.UDPAddr).AddrPort()
	robotDiscAddr := robotDisc.LocalAddr().(*net.UDPAddr).AddrPort()

	disc, err := NewDiscovery(DiscoveryConfig{Team: 17, Player: 2, Peers: []netip.AddrPort{robotDiscAddr},
		PeerPort: robotMsgAddr.Port(), Logger: quiet}, discW, clock.Wall)
	if err != nil {
		t.Fatal(err)
	}
	cfg := boosterConfig(BoosterUnicast)
	cfg.Logger = quiet
	rec := &bus.Recorder[dmsgs.TeamInfo]{}
	comp, err := New(cfg, Deps{Conn: teamW, Publisher: rec, Clock: clock.Wall, Peers: disc,
		Game: GameFunc(func() GameSnapshot {
			return GameSnapshot{Connected: true, State: StatePlaying, FirstHalf: true, SecsRemaining: 600, MessageBudget: 60000}
		})})
	if err != nil {
		t.Fatal(err)
	}
	setBoosterInputs(comp)
	wg.Go(func() { _ = disc.Run(ctx) })
	wg.Go(func() { _ = comp.Run(ctx) })

	// The stand-in robot: player 3 of team 17.
	msg, dpkt := prog.Write(t, 17, 3)
	wg.Go(func() {
		tk := time.NewTicker(100 * time.Millisecond)
		defer tk.Stop()
		for {
			_, _ = robotDisc.WriteToUDPAddrPort(dpkt, discW.LocalAddr())
			_, _ = robotMsg.WriteToUDPAddrPort(msg, teamW.LocalAddr())
			select {
			case <-ctx.Done():
				return
			case <-tk.C:
			}
		}
	})
	read := func(c *net.UDPConn, size int) []byte {
		t.Helper()
		buf := make([]byte, 2048)
		for {
			_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
			n, err := c.Read(buf)
			if err != nil {
				t.Fatalf("stand-in robot heard no %d-byte packet: %v", size, err)
			}
			if n == size {
				return buf[:n]
			}
		}
	}
	got := prog.Read(t, read(robotDisc, booster.DiscoverySize), read(robotMsg, booster.Size))
	// The message's communicationId counts every packet the component built, also those
	// built before the discovery packet made the robot a peer, so it is 1 or more.
	var id int
	if len(got) == 2 {
		_, _ = fmt.Sscanf(got[1], "msg validation=31202 communicationId=%d ", &id)
	}
	if len(got) != 2 || got[0] != "discovery validation=41203 communicationId=0 teamId=17 playerId=2" ||
		id < 1 || !strings.Contains(got[1], " teamId=17 playerId=2 playerRole=2 isAlive=1 ") {
		t.Fatalf("the stand-in robot read %q", got)
	}
	if deadline, _ := ctx.Deadline(); !rec.WaitLen(1, time.Until(deadline)) {
		t.Fatal("the stand-in robot was never published")
	}
	if m, _ := rec.Last(); m.PlayerNumber != 3 || m.TeamNumber != 17 || m.Format != dmsgs.TeamInfoFormatBooster {
		t.Fatalf("published %+v", m)
	}
	if st := disc.Status(); st.Accepted == 0 || st.Sent == 0 {
		t.Fatalf("discovery %+v", st)
	}
}

// TestDiscoveryReportsOnlyMalformed: Run reports to the socket as malformed only the
// datagrams that are no discovery packet or carry an impossible player number, not the
// echo of our own broadcast, another team's robots or a full table (transport.Stats
// Malformed means undecodable).
func TestDiscoveryReportsOnlyMalformed(t *testing.T) {
	conn := bus.NewFakeConn(8)
	clk := clock.NewManual(harnessStart)
	d, err := NewDiscovery(DiscoveryConfig{Team: 17, Player: 2, Logger: slog.New(slog.DiscardHandler)}, conn, clk)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	defer func() {
		cancel()
		<-done
	}()
	from := func(s string) netip.AddrPort { return netip.MustParseAddrPort(s) }
	disc := func(team, player int32) []byte {
		return booster.Discovery{TeamID: team, PlayerID: player}.Append(nil)
	}
	for _, dg := range []transport.Datagram{
		{Payload: disc(17, 2), Src: from("10.0.0.2:20017")},      // our own broadcast, back
		{Payload: disc(18, 4), Src: from("10.0.0.6:20017")},      // another team
		{Payload: disc(17, 0), Src: from("10.0.0.8:20017")},      // no such player: malformed
		{Payload: disc(17, 3)[:15], Src: from("10.0.0.5:20017")}, // cut short: malformed
		{Payload: disc(17, 3), Src: from("10.0.0.3:20017")},      // a teammate, last
	} {
		if !conn.Deliver(dg) {
			t.Fatal("fake socket queue full")
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for d.Status().Accepted == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the teammate's discovery packet was not taken")
		}
		time.Sleep(time.Millisecond)
	}
	if st := conn.Stats(); st.Malformed != 2 || st.Delivered != 3 {
		t.Fatalf("socket counts %d malformed, %d delivered; want 2 (player 0, cut short) and 3", st.Malformed, st.Delivered)
	}
}
