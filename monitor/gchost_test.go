package monitor

import (
	"cmp"
	"context"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/netnstest"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// TestGCHostReleasesReturnPort: a control packet from one of this host's addresses makes
// the monitor give up its socket on the return port 3939; from another host it keeps it.
func TestGCHostReleasesReturnPort(t *testing.T) {
	for _, tc := range []struct {
		name    string
		src     netip.AddrPort
		keep    bool
		local   bool
		release bool
	}{
		{"other host", gcSrc, false, false, false},
		{"this host", netip.MustParseAddrPort("10.9.9.1:3838"), false, true, true},
		{"loopback", netip.MustParseAddrPort("127.0.0.1:40000"), false, true, true},
		{"this host, keep", netip.MustParseAddrPort("10.9.9.1:3838"), true, true, false},
		{"this host, record", netip.MustParseAddrPort("10.9.9.1:3838"), false, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var program string
			if strings.HasSuffix(tc.name, "record") {
				program = "record" // dnetwork record: its messages name it, not the monitor
			}
			m, _ := newTest(t, Config{Ports: DefaultPorts(), KeepReturnPort: tc.keep, Program: program})
			m.localAddrs = func() ([]netip.Addr, error) {
				return []netip.Addr{netip.MustParseAddr("10.9.9.1"), netip.MustParseAddr("127.0.0.1")}, nil
			}
			g := game{state: gcproto.StateReady, firstHalf: true, teams: [2]uint8{5, 12}, kicking: 5}
			if !m.Observe(gcPort, dg(g.packet(t), tc.src, t0)) {
				t.Fatal("control packet rejected")
			}
			gv := m.State().GameController
			var released bool
			for _, l := range m.listeners {
				if l.port.Kind == KindReturn {
					released = l.released
				}
			}
			if gv.Local != tc.local || released != tc.release || (gv.Warning != "") != tc.local {
				t.Errorf("local %v released %v warning %q, want local %v released %v", gv.Local, released, gv.Warning, tc.local, tc.release)
			}
			if tc.local && !strings.Contains(gv.Warning, "3939") {
				t.Errorf("warning %q does not name the return port", gv.Warning)
			}
			if want := "dnetwork " + cmp.Or(program, "monitor"); tc.local && (!strings.Contains(gv.Warning, want) ||
				program != "" && strings.Contains(gv.Warning, "monitor")) {
				t.Errorf("warning %q does not name %s alone", gv.Warning, want)
			}
		})
	}
}

// TestGCHostReturnPackets runs a "GameController" socket on the return port 3939, then a
// monitor on the same port, in a private network namespace. Bound last, the monitor gets
// the robots' unicast return packets; once it hears the GameController from this host it
// closes its socket, and the return packets reach the GameController again.
func TestGCHostReturnPackets(t *testing.T) {
	if _, child := netnstest.Child(); !child {
		netnstest.New(t, "gchost").Exec(t, t.Name())
		return
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	gcSock, err := transport.New(transport.Config{Name: "gamecontroller return", Interface: "any",
		Port: gcproto.ReturnPort, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	gcDone := make(chan error, 1)
	go func() { gcDone <- gcSock.Run(ctx) }()
	defer func() { cancel(); <-gcDone }()
	if err := gcSock.WaitUp(ctx); err != nil {
		t.Fatal(err)
	}

	m, _ := newTest(t, Config{Interface: "any", Ports: []Port{{Kind: KindGameController}, {Kind: KindReturn, Port: gcproto.ReturnPort}}})
	runMonitor(t, m)
	gcp := m.Ports()[0].Port
	robot, gc := newSender(t), newSender(t)
	ret := returnV4(t, 5, 2, 1500, 500, 0, nil, false)
	retMsgs := func() uint64 {
		if r := findRobot(m.State(), 5, 2); r != nil {
			return r.ReturnMsgs.Count
		}
		return 0
	}

	// Bound last, the monitor takes the unicast return packets.
	robot.send(gcproto.ReturnPort, ret)
	eventually(t, "the monitor takes the first return packet", func() bool { return retMsgs() == 1 })
	if n := len(gcSock.Datagrams()); n != 0 {
		t.Fatalf("the GameController socket got %d return packets while the monitor held the port", n)
	}

	// The GameController is heard from this host (loopback): the monitor lets go.
	g := game{state: gcproto.StatePlaying, firstHalf: true, teams: [2]uint8{5, 12}, kicking: 5}
	gc.send(gcp, g.packet(t))
	eventually(t, "the monitor closes the return port", func() bool {
		s := m.State()
		for _, p := range s.Ports {
			if p.Kind == "return" {
				return s.GameController.Local && p.State == transport.StateStopped.String()
			}
		}
		return false
	})
	const n = 5
	for range n {
		robot.send(gcproto.ReturnPort, ret)
	}
	got := 0
	timeout := time.After(waitLimit)
	for got < n {
		select {
		case <-gcSock.Datagrams():
			got++
		case <-timeout:
			t.Fatalf("the GameController socket got %d of %d return packets after the monitor let go", got, n)
		}
	}
	if c := retMsgs(); c != 1 {
		t.Errorf("the monitor counted %d return packets, want the 1 from before it let go", c)
	}
	if w := m.State().GameController.Warning; !strings.Contains(w, "closed its return port") {
		t.Errorf("warning %q", w)
	}
}
