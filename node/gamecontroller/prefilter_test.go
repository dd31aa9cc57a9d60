package gamecontroller

import (
	"net/netip"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// TestPrefilterCountsAsRun sends the same datagrams to two components: one gets every
// datagram through Run, the other only those its Prefilter passes. The counters must
// agree after every datagram, and Prefilter must pass exactly the datagrams that need a
// decode.
func TestPrefilterCountsAsRun(t *testing.T) {
	allow := func(c *Config) { c.AllowFrom = []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")} }
	all, screened := newHarness(t, allow), newHarness(t, allow)
	p := basePacket(gcproto.LayoutHSL20)
	good := encode(t, &p)
	monitor := append([]byte(gcproto.MagicMonitor), good[4:]...)
	badVersion := append([]byte(nil), good...)
	badVersion[4] = 99
	badState := append([]byte(nil), good...)
	badState[10] = 200 // state
	outside := netip.MustParseAddrPort("192.168.1.1:3939")
	steps := []struct {
		name string
		src  netip.AddrPort
		b    []byte
		pass bool
	}{
		{"junk", gcA, []byte("hello, world"), false},
		{"empty", gcA, nil, false},
		{"wrong length", gcA, good[:100], false},
		{"wrong version", gcA, badVersion, false},
		{"monitor copy", gcA, monitor, false},
		{"outside the allow-list", outside, good, false},
		{"state out of range", gcA, badState, true},
		{"valid", gcA, good, true},
	}
	for _, s := range steps {
		all.deliver(s.src, s.b)
		pass := screened.c.Prefilter(transport.Datagram{Payload: s.b, Src: s.src})
		if pass != s.pass {
			t.Errorf("%s: Prefilter passed %v, want %v", s.name, pass, s.pass)
		}
		if pass {
			screened.deliver(s.src, s.b)
		}
		if a, b := all.c.Status().Counters, screened.c.Status().Counters; a != b {
			t.Fatalf("%s: counters through Run %+v, with Prefilter %+v", s.name, a, b)
		}
	}
	if st := screened.c.Status(); st.Counters.Received != uint64(len(steps)) || st.Counters.Accepted != 1 || !st.Connected {
		t.Fatalf("status %+v", st)
	}
	if a, b := len(all.logs.lines("undecodable")), len(screened.logs.lines("undecodable")); a != b || a == 0 {
		t.Errorf("undecodable warnings: %d through Run, %d with Prefilter", a, b)
	}
}

// BenchmarkPrefilter measures the screening of one junk datagram on the socket worker
// (counted, warning rate-limited): it must not allocate.
func BenchmarkPrefilter(b *testing.B) {
	c, err := New(testConfig(), bus.NewFakeConn(1), clock.NewManual(t0), &bus.Recorder[dmsgs.GCInfo]{}, &bus.Recorder[dmsgs.GameControlData]{})
	if err != nil {
		b.Fatal(err)
	}
	d := transport.Datagram{Payload: make([]byte, 300), Src: gcA}
	b.ReportAllocs()
	for b.Loop() {
		if c.Prefilter(d) {
			b.Fatal("junk passed")
		}
	}
}
