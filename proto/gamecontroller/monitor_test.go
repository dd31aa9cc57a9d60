package gamecontroller

import (
	"bytes"
	"errors"
	"net/netip"
	"testing"
)

func TestMonitorRequest(t *testing.T) {
	b := AppendMonitorRequest(nil)
	if want := []byte{'R', 'G', 'T', 'r', 0}; !bytes.Equal(b, want) {
		t.Fatalf("request % x, want % x", b, want)
	}
	if err := DecodeMonitorRequest(b); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		b    []byte
		want error
	}{
		{"short", b[:4], ErrLength},
		{"long", append(bytes.Clone(b), 0), ErrLength},
		{"header", []byte("RGTD\x00"), ErrHeader},
		{"version", []byte("RGTr\x01"), ErrVersion},
	} {
		if err := DecodeMonitorRequest(c.b); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
}

func TestForward(t *testing.T) {
	rp := NewAlive(17, 2)
	msg, err := rp.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	src := netip.MustParseAddr("10.92.0.2")
	b := AppendForward(nil, src, msg)
	if len(b) != ForwardPrefixSize+ReturnSizeV4 || !bytes.Equal(b[:4], []byte{10, 92, 0, 2}) {
		t.Fatalf("forward % x", b)
	}
	got, m, err := DecodeForward(b)
	if err != nil || got != src || !bytes.Equal(m, msg) {
		t.Fatalf("DecodeForward = %v % x %v", got, m, err)
	}
	// The prefix alone: an empty status message, which the GameController forwards too.
	if _, m, err := DecodeForward(b[:4]); err != nil || len(m) != 0 {
		t.Fatalf("prefix only: % x %v", m, err)
	}
	if _, _, err := DecodeForward(b[:3]); !errors.Is(err, ErrLength) {
		t.Fatalf("3 bytes: %v, want ErrLength", err)
	}
}

// FuzzMonitorChannel: the monitor request and forward decoders never panic, fail only
// with a sentinel, and what they accept re-encodes to the same bytes.
func FuzzMonitorChannel(f *testing.F) {
	f.Add(AppendMonitorRequest(nil))
	rp := NewAlive(17, 2)
	msg, _ := rp.MarshalBinary()
	f.Add(AppendForward(nil, netip.MustParseAddr("10.92.0.2"), msg))
	f.Add([]byte{1, 2, 3})
	for _, l := range []string{"hsl19", "hsl20"} { // forwards from the real GameControllers
		f.Add(readHex(f, goldenPath(l+"-real-forward"))[0])
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if err := DecodeMonitorRequest(b); err == nil {
			if !bytes.Equal(AppendMonitorRequest(nil), b) {
				t.Fatalf("accepted % x", b)
			}
		} else if !errors.Is(err, ErrLength) && !errors.Is(err, ErrHeader) && !errors.Is(err, ErrVersion) {
			t.Fatalf("error without a sentinel: %v", err)
		}
		src, m, err := DecodeForward(b)
		if err != nil {
			if !errors.Is(err, ErrLength) || len(b) >= ForwardPrefixSize {
				t.Fatalf("%d bytes: %v", len(b), err)
			}
			return
		}
		if out := AppendForward(nil, src, m); !bytes.Equal(out, b) {
			t.Fatalf("round trip % x, want % x", out, b)
		}
	})
}
