package sim3d

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestAppendFrameGolden(t *testing.T) {
	got, err := AppendFrame([]byte("prefix"), []byte("(syn)"))
	if err != nil {
		t.Fatal(err)
	}
	want := []byte("prefix\x00\x00\x00\x05(syn)")
	if !bytes.Equal(got, want) {
		t.Errorf("got % x\nwant % x", got, want)
	}
	got, _ = AppendFrame(nil, nil)
	if !bytes.Equal(got, []byte{0, 0, 0, 0}) {
		t.Errorf("empty frame: % x", got)
	}
	long := bytes.Repeat([]byte{'x'}, 0x01020304)
	got, _ = AppendFrame(nil, long)
	if !bytes.Equal(got[:4], []byte{0x01, 0x02, 0x03, 0x04}) || len(got) != 4+len(long) {
		t.Errorf("long frame header % x, length %d", got[:4], len(got))
	}
}

func TestSplitFrame(t *testing.T) {
	stream := []byte("\x00\x00\x00\x05(syn)\x00\x00\x00\x00\x00\x00\x00\x09(say abc)\x00\x00")
	var got []string
	rest := stream
	for {
		p, r, err := SplitFrame(rest, 16)
		if errors.Is(err, ErrIncomplete) {
			if !bytes.Equal(r, rest) || p != nil {
				t.Fatalf("incomplete: rest %q payload %q", r, p)
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(p))
		rest = r
	}
	if strings.Join(got, "|") != "(syn)||(say abc)" || string(rest) != "\x00\x00" {
		t.Errorf("frames %q rest %q", got, rest)
	}

	tests := []struct {
		in   string
		max  int
		want error
		msg  string
	}{
		{"", 0, ErrIncomplete, "0 of 4 header bytes"},
		{"\x00\x00\x00", 0, ErrIncomplete, "3 of 4 header bytes"},
		{"\x00\x00\x00\x03ab", 0, ErrIncomplete, "2 of 3 payload bytes"},
		{"\x00\x00\x00\x11", 16, ErrFrameTooLarge, "length prefix 17 exceeds the limit 16"},
		{"\xff\xff\xff\xff", 0, ErrFrameTooLarge, "length prefix 4294967295 exceeds the limit 65536"},
	}
	for _, tt := range tests {
		_, rest, err := SplitFrame([]byte(tt.in), tt.max)
		if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("SplitFrame(%q) = %v, want %v with %q", tt.in, err, tt.want, tt.msg)
		}
		if string(rest) != tt.in {
			t.Errorf("SplitFrame(%q) consumed input on error", tt.in)
		}
	}
	// The payload's capacity ends with the frame.
	p, _, _ := SplitFrame([]byte("\x00\x00\x00\x01ab"), 0)
	if cap(p) != 1 {
		t.Errorf("payload cap %d, want 1", cap(p))
	}
}

func TestFrameReader(t *testing.T) {
	var stream []byte
	msgs := []string{"(scene rsg/agent/nao/nao.rsg)", "", "(init (unum 1)(teamname A))", strings.Repeat("y", 300)}
	for _, m := range msgs {
		stream, _ = AppendFrame(stream, []byte(m))
	}
	// One byte at a time and with a reader that reports EOF together with data.
	for name, r := range map[string]io.Reader{
		"onebyte": iotest.OneByteReader(bytes.NewReader(stream)),
		"dataeof": iotest.DataErrReader(bytes.NewReader(stream)),
	} {
		fr := NewFrameReader(r, 0)
		for i, m := range msgs {
			p, err := fr.Next()
			if err != nil || string(p) != m {
				t.Fatalf("%s: frame %d = %q, %v; want %q", name, i, p, err, m)
			}
		}
		if _, err := fr.Next(); err != io.EOF {
			t.Fatalf("%s: at end: %v, want io.EOF", name, err)
		}
		if _, err := fr.Next(); err != io.EOF {
			t.Fatalf("%s: EOF is not sticky: %v", name, err)
		}
	}

	tests := []struct {
		name string
		in   string
		max  int
		want []error
		msg  string
	}{
		{"short header", "\x00\x00", 0, []error{ErrTruncated, io.ErrUnexpectedEOF}, "2 of 4 header bytes"},
		{"short payload", "\x00\x00\x00\x05(sy", 0, []error{ErrTruncated, io.ErrUnexpectedEOF}, "3 of 5 payload bytes"},
		{"header only", "\x00\x00\x00\x05", 0, []error{ErrTruncated}, "0 of 5 payload bytes"},
		{"too large", "\x00\x00\x01\x00" + strings.Repeat("z", 256), 255, []error{ErrFrameTooLarge}, "length prefix 256 exceeds the limit 255"},
	}
	for _, tt := range tests {
		fr := NewFrameReader(strings.NewReader(tt.in), tt.max)
		_, err := fr.Next()
		for _, w := range tt.want {
			if !errors.Is(err, w) {
				t.Errorf("%s: %v is not %v", tt.name, err, w)
			}
		}
		if err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.msg)
		}
		if _, err2 := fr.Next(); err2 != err {
			t.Errorf("%s: error not sticky: %v then %v", tt.name, err, err2)
		}
	}

	boom := errors.New("link down")
	fr := NewFrameReader(iotest.ErrReader(boom), 0)
	if _, err := fr.Next(); !errors.Is(err, boom) {
		t.Errorf("reader error: %v", err)
	}
	fr = NewFrameReader(io.MultiReader(strings.NewReader("\x00\x00\x00\x04ab"), iotest.ErrReader(boom)), 0)
	if _, err := fr.Next(); !errors.Is(err, boom) || errors.Is(err, ErrTruncated) {
		t.Errorf("payload read error: %v", err)
	}
}

func TestFrameReaderReusesBuffer(t *testing.T) {
	var stream []byte
	for range 200 {
		stream, _ = AppendFrame(stream, []byte("(he1 1.5)(he2 -0.25)(syn)"))
	}
	r := bytes.NewReader(stream)
	fr := NewFrameReader(r, 0)
	if _, err := fr.Next(); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := fr.Next(); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Next allocates %v times per frame, want 0", allocs)
	}
}

func FuzzSplitFrame(f *testing.F) {
	f.Add([]byte("\x00\x00\x00\x05(syn)\x00\x00\x00\x00"), 16)
	f.Add([]byte("\x00\x00\x00\x05(sy"), 0)
	f.Add([]byte("\xff\xff\xff\xff"), 100)
	f.Add([]byte(""), -1)
	f.Fuzz(func(t *testing.T, b []byte, maxPayload int) {
		limit := maxPayload
		if limit <= 0 {
			limit = DefaultMaxFrame
		}
		// Splitting the buffer and reading it as a stream agree frame by frame.
		fr := NewFrameReader(bytes.NewReader(b), maxPayload)
		var rebuilt []byte
		rest := b
		for {
			p, r, err := SplitFrame(rest, maxPayload)
			q, rerr := fr.Next()
			if err != nil {
				switch {
				case errors.Is(err, ErrIncomplete):
					if len(rest) == 0 && rerr != io.EOF || len(rest) > 0 && !errors.Is(rerr, ErrTruncated) {
						t.Fatalf("split incomplete, reader %v", rerr)
					}
				case errors.Is(err, ErrFrameTooLarge):
					if !errors.Is(rerr, ErrFrameTooLarge) {
						t.Fatalf("split too large, reader %v", rerr)
					}
				default:
					t.Fatalf("unexpected split error %v", err)
				}
				break
			}
			if rerr != nil || !bytes.Equal(p, q) || len(p) > limit {
				t.Fatalf("split %q, reader %q %v", p, q, rerr)
			}
			if rebuilt, err = AppendFrame(rebuilt, p); err != nil {
				t.Fatal(err)
			}
			rest = r
		}
		// Re-framing the payloads gives back the consumed bytes.
		if !bytes.Equal(rebuilt, b[:len(b)-len(rest)]) {
			t.Fatalf("re-framed % x, consumed % x", rebuilt, b[:len(b)-len(rest)])
		}
	})
}

func BenchmarkSplitFrame(b *testing.B) {
	var stream []byte
	for range 16 {
		stream, _ = AppendFrame(stream, []byte("(time (now 412.36))(GS (t 187.42) (pm PlayOn))(hear TeamB 187.4 self abc)"))
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(stream)))
	for b.Loop() {
		rest := stream
		for len(rest) > 0 {
			var err error
			if _, rest, err = SplitFrame(rest, 0); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkAppendFrame(b *testing.B) {
	payload := []byte("(he1 1.5)(he2 -0.25)(say Ed-3kQ_9)(syn)")
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if buf, err = AppendFrame(buf[:0], payload); err != nil {
			b.Fatal(err)
		}
	}
}
