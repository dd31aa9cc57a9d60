package worldinfo

import (
	"testing"

	wi "github.com/robocup-dnetwork/dnetwork/proto/worldinfo"
)

// expectedCalls counts the handler calls a plaintext datagram should cause.
func expectedCalls(t *testing.T, plain []byte) int {
	_, r, err := wi.Parse(plain)
	if err != nil {
		t.Fatalf("accepted datagram does not parse: %v", err)
	}
	n := 0
	for rec, ok := r.Next(); ok; rec, ok = r.Next() {
		if rec.Check() != nil {
			continue
		}
		if rec.Type != wi.TypeFat {
			n++
			continue
		}
		var f wi.Fat
		if err := f.UnmarshalBinary(rec.Body); err != nil {
			t.Fatal(err)
		}
		for _, v := range []bool{f.ValidPose, f.ValidVelocity, f.ValidRelBall, f.ValidRelBallVelocity} {
			if v {
				n++
			}
		}
		n += len(f.ValidOpponents())
	}
	return n
}

// FuzzReceive feeds arbitrary datagrams (as given, or encrypted first) to a receiver: it
// must never panic, every datagram must be counted once, an accepted datagram must cause
// exactly the handler calls its records call for, a dropped one none, and the same
// datagram twice is never accepted twice.
func FuzzReceive(f *testing.F) {
	for _, v := range loadVectors(f) {
		f.Add(v.cipher, false)
		f.Add(v.plain, true)
	}
	f.Add([]byte{}, false)
	f.Add(mustHex(f, "beef0200 00000005 0001 002c 00000000 0063 0008 01020304 05060708 0008 0004 93404002 0001 0030 00"), true)
	c := wi.NewCipher(wi.DefaultKey)
	f.Fuzz(func(t *testing.T, b []byte, encrypt bool) {
		if encrypt {
			if len(b) > wi.MTU {
				return
			}
			b = seal(t, b)
		}
		r, err := NewReceiver(Config{Now: newClock().Now, Loop: true})
		if err != nil {
			t.Fatal(err)
		}
		rec := &recorder{}
		if err := r.AddHandler(rec); err != nil {
			t.Fatal(err)
		}
		first := r.Receive(peerA, b)
		calls := len(rec.take())
		second := r.Receive(peerA, b)
		if first == nil && second == nil {
			t.Fatalf("the same datagram was accepted twice")
		}
		if n := len(rec.take()); n != 0 {
			t.Fatalf("a dropped datagram (%v) caused %d handler calls", second, n)
		}
		st := r.Stats()
		if st.Datagrams != 2 || st.Datagrams != st.Accepted+st.Dropped() || st.Other != 0 {
			t.Fatalf("counters: %+v", st)
		}
		want := 0
		if first == nil {
			plain, err := c.Open(nil, b)
			if err != nil {
				t.Fatal(err)
			}
			want = expectedCalls(t, plain)
		}
		if calls != want {
			t.Fatalf("%d handler calls, want %d (first: %v)", calls, want, first)
		}
	})
}
