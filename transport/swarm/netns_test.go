package swarm

import (
	"fmt"
	"net/netip"
	"slices"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/internal/netnstest"
)

// TestNetnsNetworkMode runs three robots on three "hosts" joined by a bridge, one robot
// per host as on a field:
//
//	r1 10.95.0.1 ─┐
//	r2 10.95.0.2 ─┼─ br0 (hub)
//	r3 10.95.0.3 ─┘
func TestNetnsNetworkMode(t *testing.T) {
	hub := netnstest.New(t, "hub")
	names := []string{"r1", "r2", "r3"}
	peers := map[string]netip.AddrPort{}
	var hubPorts []string
	nss := map[string]*netnstest.NS{}
	for i, name := range names {
		nss[name] = netnstest.New(t, name)
		ip := fmt.Sprintf("10.95.0.%d", i+1)
		netnstest.Veth(t, hub, "h"+name, "", nss[name], "eth0", ip+"/24")
		hubPorts = append(hubPorts, "h"+name)
		peers[name] = netip.AddrPortFrom(netip.MustParseAddr(ip), 0)
	}
	hub.Bridge(t, "br0", hubPorts...)

	nodes := map[string]*Node{}
	in := map[string]inbox{}
	for _, name := range names {
		nodes[name] = startNode(t, Config{Name: name, Peers: peers}, nss[name].Go) // Interface "auto"
		in[name] = newInbox()
		if err := nodes[name].Bind(name, DefaultPort, in[name].cb); err != nil {
			t.Fatal(err)
		}
		if got := nodes[name].Transport().Interface(); got.Name != "eth0" || got.Addr.Addr() != peers[name].Addr() {
			t.Fatalf("%s chose %v, want eth0 with %v", name, got, peers[name].Addr())
		}
	}
	if err := nodes["r3"].Bind(Multicast, DefaultPort, in["r3"].cb); err != nil {
		t.Fatal(err)
	}
	r1 := nodes["r1"]

	if err := r1.SendTo([]byte("all"), Broadcast, DefaultPort); err != nil {
		t.Fatal(err)
	}
	in["r2"].expect(t, "r2", msg{"r1", Broadcast, DefaultPort, "all"})
	in["r3"].expect(t, "r3", msg{"r1", Broadcast, DefaultPort, "all"})
	// The broadcast also loops back to r1's own socket, where the filter drops it.
	eventually(t, "r1 to drop its own broadcast", func() bool { return r1.Stats().OwnEcho == 1 })

	if err := r1.SendTo([]byte("to r2"), "r2", DefaultPort); err != nil {
		t.Fatal(err)
	}
	in["r2"].expect(t, "r2", msg{"r1", "r2", DefaultPort, "to r2"})
	if err := r1.SendTo([]byte("by ip"), "10.95.0.3", DefaultPort); err != nil {
		t.Fatal(err)
	}
	in["r3"].expect(t, "r3", msg{"r1", "10.95.0.3", DefaultPort, "by ip"})
	if err := r1.SendTo([]byte("group"), Multicast, DefaultPort); err != nil {
		t.Fatal(err)
	}
	in["r3"].expect(t, "r3", msg{"r1", Multicast, DefaultPort, "group"})
	eventually(t, "r2 to count the multicast it has no binding for", func() bool { return nodes["r2"].Stats().Unbound == 1 })

	if err := nodes["r2"].SendTo([]byte("back"), "r1", DefaultPort); err != nil {
		t.Fatal(err)
	}
	in["r1"].expect(t, "r1", msg{"r2", "r1", DefaultPort, "back"})
	if got := nodes["r3"].Neighbors(); !slices.Equal(got, []string{"r1"}) {
		t.Fatalf("r3 neighbours %v, want [r1]", got)
	}
	if got := r1.Neighbors(); !slices.Equal(got, []string{"r2"}) {
		t.Fatalf("r1 neighbours %v, want [r2]", got)
	}
	// Broadcasts from r1, then from r2, mark the end: each socket is read in order, so
	// a robot that has them has everything that was sent to it before.
	for _, from := range []string{"r1", "r2"} {
		if err := nodes[from].SendTo([]byte("end"), Broadcast, DefaultPort); err != nil {
			t.Fatal(err)
		}
		for _, to := range names {
			if to != from {
				in[to].expect(t, to, msg{from, Broadcast, DefaultPort, "end"})
			}
		}
	}
	for name, b := range in {
		b.empty(t, name)
	}
	for _, n := range nodes {
		checkInvariants(t, n)
	}
}

// TestNetnsHostMulticast runs three robots in one namespace sharing one port and one
// group on lo, with TTL 0: the simulation set-up without per-robot ports.
func TestNetnsHostMulticast(t *testing.T) {
	ns := netnstest.New(t, "sim")
	peers := map[string]netip.AddrPort{}
	names := []string{"r1", "r2", "r3"}
	for _, name := range names {
		peers[name] = netip.MustParseAddrPort("127.0.0.1:0")
	}
	nodes := map[string]*Node{}
	in := map[string]inbox{}
	for _, name := range names {
		nodes[name] = startNode(t, Config{Name: name, Peers: peers, Mode: ModeHostMulticast, Interface: "lo"}, ns.Go)
		in[name] = newInbox()
		if err := nodes[name].Bind(name, DefaultPort, in[name].cb); err != nil {
			t.Fatal(err)
		}
	}
	if err := nodes["r3"].Bind(Multicast, DefaultPort, in["r3"].cb); err != nil {
		t.Fatal(err)
	}
	r1 := nodes["r1"]

	if err := r1.SendTo([]byte("all"), Broadcast, DefaultPort); err != nil {
		t.Fatal(err)
	}
	in["r2"].expect(t, "r2", msg{"r1", Broadcast, DefaultPort, "all"})
	in["r3"].expect(t, "r3", msg{"r1", Broadcast, DefaultPort, "all"})
	if err := r1.SendTo([]byte("to r2"), "r2", DefaultPort); err != nil {
		t.Fatal(err)
	}
	in["r2"].expect(t, "r2", msg{"r1", "r2", DefaultPort, "to r2"})
	if err := r1.SendTo([]byte("group"), Multicast, DefaultPort); err != nil {
		t.Fatal(err)
	}
	in["r3"].expect(t, "r3", msg{"r1", Multicast, DefaultPort, "group"})

	// Everyone hears every frame; the header decides.
	eventually(t, "every robot to see all three frames", func() bool {
		for _, n := range nodes {
			if n.Stats().Transport.Received != 3 {
				return false
			}
		}
		return true
	})
	if s, _ := settled(r1); s.OwnEcho != 3 || s.Delivered != 0 {
		t.Fatalf("r1 stats %+v; want its 3 frames dropped as own echo", s)
	}
	if s, _ := settled(nodes["r3"]); s.NotForUs != 1 || s.Delivered != 2 {
		t.Fatalf("r3 stats %+v; want the unicast to r2 filtered, 2 delivered", s)
	}
	if s, _ := settled(nodes["r2"]); s.Unbound != 1 || s.Delivered != 2 {
		t.Fatalf("r2 stats %+v; want the multicast unbound, 2 delivered", s)
	}
	for name, b := range in {
		b.empty(t, name)
	}
	for _, n := range nodes {
		checkInvariants(t, n)
	}
}
