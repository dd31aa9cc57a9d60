package worldinfo

import (
	"net/netip"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	wi "github.com/robocup-dnetwork/dnetwork/proto/worldinfo"
	"github.com/robocup-dnetwork/dnetwork/transport"
	wit "github.com/robocup-dnetwork/dnetwork/transport/worldinfo"
)

// FuzzReceive feeds arbitrary datagrams (or encrypted plaintexts) to the receive path: it never panics, every
// datagram ends published or dropped, a published message carries the sequence number a
// full decryption finds, and its lists hold exactly the records of the datagram.
func FuzzReceive(f *testing.F) {
	p, err := wit.NewSender(wit.Config{FatMessage: true})
	if err != nil {
		f.Fatal(err)
	}
	c9, c4 := make([]float32, 9), make([]float32, 4)
	for _, err := range []error{p.SetPose(1, 2, 3, c9), p.SetRelBallPos(1, 0, 0, c9), p.SetGlobalBallPos(1, 1, 0, c9),
		p.AddOpponent(4, 1, 1, c4), p.AddPenalty(1, wi.PenaltyManual, 9), p.SetGameState(2, wi.TeamBoth)} {
		if err != nil {
			f.Fatal(err)
		}
	}
	p.AddDisappearedOpponent(3)
	cipher := wi.NewCipher(wi.DefaultKey)
	if err := p.Send(func(d []byte) error {
		f.Add(append([]byte(nil), d...), false)
		plain, err := cipher.Open(nil, d)
		f.Add(plain, true)
		return err
	}); err != nil {
		f.Fatal(err)
	}
	f.Add([]byte{}, false)
	f.Add([]byte("0123456789abcdef"), false)
	f.Add(make([]byte, 1408), false)
	f.Add([]byte{0xbe, 0xef, 2, 0, 0, 0, 0, 1, 0, 5, 0, 28}, true)

	// With seal set the input is a plaintext, encrypted before it is received, so that
	// the fuzzer reaches the records.
	f.Fuzz(func(t *testing.T, b []byte, seal bool) {
		if seal {
			var err error
			if b, err = cipher.Seal(nil, b); err != nil {
				return // longer than a datagram can be
			}
		}
		var got []dmsgs.WorldInfo
		pub := bus.PublisherFunc[dmsgs.WorldInfo](func(m *dmsgs.WorldInfo) error {
			got = append(got, *m)
			return nil
		})
		cfg := testConfig()
		c, err := New(cfg, Deps{Clock: clock.NewManual(t0), Conn: bus.NewFakeConn(1), Publisher: pub})
		if err != nil {
			t.Fatal(err)
		}
		c.receive(transport.Datagram{Payload: b, Src: netip.AddrPortFrom(peerA, 2806)})
		st := c.Status()
		if st.Received != 1 || st.Received != st.Published+st.PublishErrors+st.Recv.Dropped() {
			t.Fatalf("counters: %+v", st)
		}
		if len(got) == 0 {
			return
		}
		plain, err := cipher.Open(nil, b)
		if err != nil {
			t.Fatalf("published a datagram that does not decrypt: %v", err)
		}
		h, _, err := wi.Parse(plain)
		if err != nil {
			t.Fatalf("published a datagram that does not parse: %v", err)
		}
		m := got[0]
		if m.Sequence != h.Seq || m.Sender != peerA.String() {
			t.Fatalf("sequence %d sender %q, want %d from %v", m.Sequence, m.Sender, h.Seq, peerA)
		}
		lists := uint64(len(m.Opponents) + len(m.DisappearedOpponents) + len(m.Penalties))
		// The sender's count holds every value delivered (a fat record counts once per
		// valid part, possibly zero times), the lists included.
		if lists > st.Senders[0].Records {
			t.Fatalf("%d list entries, %d records (%+v)", lists, st.Recv.Records, st.Senders)
		}
	})
}
