package booster

import (
	"bytes"
	"errors"
	"testing"
)

func FuzzDecode(f *testing.F) {
	for _, file := range []string{"main.hex", "2026.hex"} {
		msg, disc := readGoldenF(f, file)
		f.Add(msg)
		f.Add(disc)
		f.Add(msg[:len(msg)-1])
	}
	f.Add(make([]byte, Size))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Decode(b)
		if err != nil {
			if !errors.Is(err, ErrLength) && !errors.Is(err, ErrMagic) && !errors.Is(err, ErrBool) {
				t.Fatalf("error without sentinel: %v", err)
			}
			if IsMessage(b) && !errors.Is(err, ErrBool) {
				t.Fatalf("IsMessage but %v", err)
			}
		} else {
			if !IsMessage(b) {
				t.Fatal("decoded what IsMessage refuses")
			}
			// Re-encoding gives the input with zeroed padding.
			want := bytes.Clone(b)
			if m.Revision == Revision2026 {
				clear(want[off2026BallLocationKnown+1 : off2026Doubles])
			}
			out, err := m.Append(nil)
			if err != nil || !bytes.Equal(out, want) {
				t.Fatalf("round trip: %v\n got % x\nwant % x", err, out, want)
			}
		}
		d, err := DecodeDiscovery(b)
		if err != nil {
			if !errors.Is(err, ErrLength) && !errors.Is(err, ErrMagic) {
				t.Fatalf("discovery error without sentinel: %v", err)
			}
			return
		}
		if out := d.Append(nil); !bytes.Equal(out, b) {
			t.Fatalf("discovery round trip % x, want % x", out, b)
		}
	})
}
