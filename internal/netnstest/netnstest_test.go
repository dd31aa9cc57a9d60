package netnstest

import (
	"net"
	"slices"
	"testing"
	"time"
)

func interfaceNames(t *testing.T) []string {
	t.Helper()
	ifs, err := net.Interfaces()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, ifi := range ifs {
		names = append(names, ifi.Name)
	}
	return names
}

func TestDoRunsInsideNamespace(t *testing.T) {
	a, b := New(t, "do-a"), New(t, "do-b")
	Veth(t, a, "va", "10.93.0.1/24", b, "vb", "10.93.0.2/24")

	if names := interfaceNames(t); slices.Contains(names, "va") || slices.Contains(names, "vb") {
		t.Fatalf("host sees the test interfaces: %v", names)
	}
	// A socket bound inside a is still in a after Do returns: it reaches b over the veth.
	var conn *net.UDPConn
	err := a.Do(func() error {
		if names := interfaceNames(t); !slices.Contains(names, "va") || slices.Contains(names, "vb") {
			t.Errorf("namespace a has interfaces %v, want va and not vb", names)
		}
		var err error
		conn, err = net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(10, 93, 0, 1)})
		return err
	})
	if err != nil {
		t.Fatalf("bind inside a: %v", err)
	}
	defer conn.Close()
	if _, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(10, 93, 0, 1)}); err == nil {
		t.Fatal("bind to the namespace's address succeeded on the host")
	}

	var rx *net.UDPConn
	if err := b.Do(func() error {
		var err error
		rx, err = net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(10, 93, 0, 2), Port: 4999})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	defer rx.Close()
	if _, err := conn.WriteToUDP([]byte("hello"), &net.UDPAddr{IP: net.IPv4(10, 93, 0, 2), Port: 4999}); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	if err := rx.SetReadDeadline(deadline()); err != nil {
		t.Fatal(err)
	}
	n, src, err := rx.ReadFromUDP(buf)
	if err != nil || string(buf[:n]) != "hello" || !src.IP.Equal(net.IPv4(10, 93, 0, 1)) {
		t.Fatalf("got %q from %v (err %v), want \"hello\" from 10.93.0.1", buf[:n], src, err)
	}
}

func TestExecRunsChildInsideNamespace(t *testing.T) {
	if ns, ok := Child(); ok {
		// Child: the whole process is inside the namespace.
		if _, err := net.InterfaceByName("vchild"); err != nil {
			t.Fatalf("child in %s does not see vchild: %v", ns, err)
		}
		return
	}
	a, b := New(t, "exec-a"), New(t, "exec-b")
	Veth(t, a, "vchild", "", b, "vpeer", "")
	out := a.Exec(t, t.Name())
	t.Logf("child output:\n%s", out)
}

func deadline() time.Time { return time.Now().Add(5 * time.Second) }
