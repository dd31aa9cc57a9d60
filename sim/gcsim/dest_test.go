package gcsim

import (
	"errors"
	"net/netip"
	"reflect"
	"strings"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/clock"
)

func aps(s ...string) []netip.AddrPort {
	out := make([]netip.AddrPort, len(s))
	for i, a := range s {
		out[i] = netip.MustParseAddrPort(a)
	}
	return out
}

func TestParseDestination(t *testing.T) {
	for _, tc := range []struct {
		spec string
		want Destination
		str  string
	}{
		{"broadcast", Destination{Kind: DestBroadcast, Port: 3838}, "broadcast port 3838"},
		{"broadcast:eth0", Destination{Kind: DestBroadcast, Interface: "eth0", Port: 3838}, "broadcast:eth0 port 3838"},
		{"broadcast:10.0.0.0/8", Destination{Kind: DestBroadcast, Interface: "10.0.0.0/8", Port: 3838}, "broadcast:10.0.0.0/8 port 3838"},
		{"multicast:239.1.2.3", Destination{Kind: DestMulticast, Addrs: aps("239.1.2.3:3838")}, "multicast:239.1.2.3:3838"},
		{"multicast:239.1.2.3:4000@veth0", Destination{Kind: DestMulticast, Interface: "veth0", Addrs: aps("239.1.2.3:4000")}, "multicast:239.1.2.3:4000@veth0"},
		{"127.0.0.1", Destination{Kind: DestUnicast, Addrs: aps("127.0.0.1:3838")}, "127.0.0.1:3838"},
		{"127.0.0.1:4000, 10.0.0.7", Destination{Kind: DestUnicast, Addrs: aps("127.0.0.1:4000", "10.0.0.7:3838")}, "127.0.0.1:4000,10.0.0.7:3838"},
		{"127.0.0.1:3838-3840", Destination{Kind: DestUnicast, Addrs: aps("127.0.0.1:3838", "127.0.0.1:3839", "127.0.0.1:3840")}, "127.0.0.1:3838,127.0.0.1:3839,127.0.0.1:3840"},
	} {
		got, err := ParseDestination(tc.spec, 3838)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %+v, %v; want %+v", tc.spec, got, err, tc.want)
			continue
		}
		if s := got.String(); s != tc.str {
			t.Errorf("%q: String %q, want %q", tc.spec, s, tc.str)
		}
		if err := got.Validate(); err != nil {
			t.Errorf("%q: Validate: %v", tc.spec, err)
		}
	}
}

func TestParseDestinationErrors(t *testing.T) {
	for _, tc := range []struct{ spec, msg string }{
		{"", "want ADDR or ADDR:PORT"},
		{"localhost", "want ADDR or ADDR:PORT"},
		{"::1", "not IPv4"},
		{"[::1]:3838", "not an IPv4 address"},
		{"127.0.0.1:0", "not an IPv4 address with a port"},
		{"224.0.0.1", "not a unicast address"},
		{"0.0.0.0", "not a unicast address"},
		{"multicast:10.0.0.1", "not a multicast group"},
		{"multicast:", "want ADDR"},
		{"127.0.0.1:3840-3838", "bad port range"},
		{"127.0.0.1:3838-x", "bad port range"},
		{"127.0.0.1:1000-1100", "more than 64 addresses"},
		{"broadcast:10.0.0.0/99", "broadcast:10.0.0.0/99"},
	} {
		_, err := ParseDestination(tc.spec, 3838)
		if !errors.Is(err, ErrDest) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%q: %v, want ErrDest containing %q", tc.spec, err, tc.msg)
		}
	}
	if _, err := ParseDestination("127.0.0.1", 0); !errors.Is(err, ErrDest) {
		t.Errorf("port 0: %v, want ErrDest", err)
	}
	for _, d := range []Destination{{}, {Kind: DestBroadcast}, {Kind: DestUnicast}, {Kind: DestMulticast, Addrs: aps("10.0.0.1:1")}} {
		if err := d.Validate(); !errors.Is(err, ErrDest) {
			t.Errorf("Validate(%+v) = %v, want ErrDest", d, err)
		}
	}
}

func TestDestinationSend(t *testing.T) {
	f := &fakeSender{clk: clock.NewManual(t0)}
	d, _ := ParseDestination("127.0.0.1:5000-5002", 3838)
	if n, err := d.send(f, []byte("x")); n != 0 || err != nil {
		t.Fatalf("send: %d, %v", n, err)
	}
	b, _ := ParseDestination("broadcast:eth0", 3900)
	if n, err := b.send(f, []byte("y")); n != 0 || err != nil {
		t.Fatalf("broadcast: %d, %v", n, err)
	}
	got := f.all()
	if len(got) != 4 || got[0].Dst.Port() != 5000 || got[2].Dst.Port() != 5002 || !got[3].Bcast || got[3].Port != 3900 {
		t.Errorf("sent %+v", got)
	}
	f.err = errors.New("down")
	if n, err := d.send(f, []byte("x")); n != 3 || err == nil {
		t.Errorf("failing send: %d, %v; want 3 failures", n, err)
	}
}
