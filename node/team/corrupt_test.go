package team

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
)

// reseal recomputes the checksum of an unsigned dnet packet after f changed it: a
// corruption the checksum cannot see (or a forgery).
func reseal(b []byte, f func(b []byte)) []byte {
	b = bytes.Clone(b)
	f(b)
	n := len(b) - teaminfo.CRCSize
	binary.LittleEndian.PutUint32(b[n:], crc32.Checksum(b[:n], crc32.MakeTable(crc32.Castagnoli)))
	return b
}

// TestReceiveCorrupted: without a key, a corrupted dnet packet, one with a role or play
// state the format does not define, and one without checksum (a node before it) are
// each dropped by their cause and never published; the confirmed sender's next good
// packet is.
func TestReceiveCorrupted(t *testing.T) {
	h := newHarness(t, testConfig(), harnessStart, nil)
	now := stampAt(harnessStart)
	h.introduce(17, 3, 10, now, nil)
	h.deliver(dnetFrom(t, 17, 3, 10, now+time.Millisecond, nil))
	good := dnetFrom(t, 17, 3, 11, now+2*time.Millisecond, nil)
	flipped := bytes.Clone(good)
	flipped[26] ^= 0x40 // robot x
	legacy := func() []byte {
		var p teaminfo.DNetPacket
		if _, err := p.Decode(good, nil); err != nil {
			t.Fatal(err)
		}
		p.Unchecked = true
		b, err := p.AppendBinary(nil)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}()
	published := len(h.rec.Messages())
	for _, s := range []struct {
		name    string
		payload []byte
		field   func(r ReceiveCounters) uint64
	}{
		{"payload bit flipped", flipped, func(r ReceiveCounters) uint64 { return r.Checksum }},
		{"checksum changed", append(bytes.Clone(good[:len(good)-1]), good[len(good)-1]+1), func(r ReceiveCounters) uint64 { return r.Checksum }},
		{"role 68", reseal(good, func(b []byte) { b[7] = 68 }), func(r ReceiveCounters) uint64 { return r.Range }},
		{"play state 200", reseal(good, func(b []byte) { b[21] = 200 }), func(r ReceiveCounters) uint64 { return r.Range }},
		{"no checksum", legacy, func(r ReceiveCounters) uint64 { return r.Unchecked }},
	} {
		before := s.field(h.c.Status().Receive)
		h.deliver(s.payload)
		if got := s.field(h.c.Status().Receive); got != before+1 {
			t.Errorf("%s: counter went from %d to %d, want +1 (%+v)", s.name, before, got, h.c.Status().Receive)
		}
	}
	if n := len(h.rec.Messages()); n != published {
		t.Fatalf("%d messages published from the bad packets", n-published)
	}
	h.deliver(good)
	if n := len(h.rec.Messages()); n != published+1 {
		t.Fatalf("the good packet after them: %d published, want 1", n-published)
	}
	h.checkInvariants()
}

// TestReceiveRangeZJU: a zju packet with role 68 is dropped as range, not published.
func TestReceiveRangeZJU(t *testing.T) {
	cfg := testConfig()
	cfg.Format = FormatZJU
	h := newHarness(t, cfg, harnessStart, nil)
	bad := zjuFrom(t, 17, 3)
	bad[20] = 68 // role
	h.deliver(bad)
	st := h.checkInvariants()
	if st.Receive.Range != 1 || len(h.rec.Messages()) != 0 {
		t.Fatalf("role 68: %+v, %d published", st.Receive, len(h.rec.Messages()))
	}
	h.deliver(zjuFrom(t, 17, 3))
	if len(h.rec.Messages()) != 1 {
		t.Fatal("the good packet after it was not published")
	}
}
