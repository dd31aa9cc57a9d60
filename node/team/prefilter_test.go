package team

import (
	"net/netip"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// TestPrefilterCountsAsRun sends the same datagrams to two components of each format:
// one gets every datagram through Run, the other only those its Prefilter passes. The
// receive counters must agree after every datagram, and Prefilter must pass exactly the
// datagrams the header checks cannot reject.
func TestPrefilterCountsAsRun(t *testing.T) {
	for _, format := range []Format{FormatDNet, FormatZJU} {
		t.Run(format.String(), func(t *testing.T) {
			cfg := testConfig()
			cfg.Format = format
			all := newHarness(t, cfg, harnessStart, nil)
			screened := newHarness(t, cfg, harnessStart, nil)
			now := stampAt(all.clk.Now())
			v2 := dnetFrom(t, 17, 3, 1, now, nil)
			v2[3] = 2
			steps := []struct {
				name    string
				payload []byte
				pass    bool // for this format
			}{
				{"junk", []byte("hello"), false},
				{"empty", nil, false},
				{"truncated dnet", dnetFrom(t, 17, 3, 1, now, nil)[:60], format == FormatDNet}, // the decoder finds the length
				{"dnet version 2", v2, format == FormatDNet},
				{"dnet, player 0", dnetFrom(t, 17, 0, 1, now, nil), format == FormatDNet},
				{"dnet, foreign team", dnetFrom(t, 18, 3, 2, now, nil), false},
				{"dnet", dnetFrom(t, 17, 3, 3, now, nil), format == FormatDNet},
				{"zju, foreign team", zjuFrom(t, 18, 3), false},
				{"zju", zjuFrom(t, 17, 3), format == FormatZJU},
			}
			for _, s := range steps {
				d := transport.Datagram{Payload: s.payload, Src: netip.MustParseAddrPort("10.0.0.9:10017")}
				all.deliver(s.payload)
				pass := screened.c.Prefilter(d)
				if pass != s.pass {
					t.Errorf("%s: Prefilter passed %v, want %v", s.name, pass, s.pass)
				}
				if pass {
					screened.deliver(s.payload)
				}
				if a, b := all.c.Status().Receive, screened.c.Status().Receive; a != b {
					t.Fatalf("%s: counters through Run %+v, with Prefilter %+v", s.name, a, b)
				}
			}
			// The socket saw only what Prefilter passed; the component counts everything.
			if r := screened.c.Status().Receive; r.Received != uint64(len(steps)) {
				t.Fatalf("received %d of %d", r.Received, len(steps))
			}
		})
	}
}

// BenchmarkPrefilter measures the screening of one junk datagram on the socket worker
// (counted, warning rate-limited): it must not allocate.
func BenchmarkPrefilter(b *testing.B) {
	c, err := New(testConfig(), Deps{Conn: bus.NewFakeConn(1), Publisher: &bus.Recorder[dmsgs.TeamInfo]{}})
	if err != nil {
		b.Fatal(err)
	}
	d := transport.Datagram{Payload: make([]byte, 300), Src: netip.MustParseAddrPort("10.0.0.9:10017")}
	b.ReportAllocs()
	for b.Loop() {
		if c.Prefilter(d) {
			b.Fatal("junk passed")
		}
	}
}
