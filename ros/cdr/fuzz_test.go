package cdr

import (
	"bytes"
	"reflect"
	"testing"
)

// point and sample mirror what cmd/msggen generates for
//
//	Point.msg:  float64 x, float64 y, int16 tag
//	Sample.msg: bool ok, Point p, string<=8 name, Point[<=3] path, uint32[2] ids,
//	            byte[] data, string[] words, int64 stamp, bool[3] flags
type point struct {
	X, Y float64
	Tag  int16
}

func (p *point) marshal(e *Encoder) { e.Float64(p.X); e.Float64(p.Y); e.Int16(p.Tag) }

func (p *point) unmarshal(d *Decoder) error {
	p.X, p.Y, p.Tag = d.Float64(), d.Float64(), d.Int16()
	return d.Err()
}

type sample struct {
	OK    bool
	P     point
	Name  string
	Path  []point
	IDs   [2]uint32
	Data  []byte
	Words []string
	Stamp int64
	Flags [3]bool
}

func (*sample) TypeName() string    { return "test/msg/Sample" }
func (*sample) DDSTypeName() string { return "test::msg::dds_::Sample_" }
func (*sample) TypeHash() string    { return "RIHS01_" + string(bytes.Repeat([]byte("0"), 64)) }

func (m *sample) MarshalCDR(e *Encoder) {
	e.Bool(m.OK)
	m.P.marshal(e)
	e.BoundedString(m.Name, 8)
	e.BoundedSequenceLength(len(m.Path), 3)
	for i := range m.Path {
		m.Path[i].marshal(e)
	}
	for i := range m.IDs {
		e.Uint32(m.IDs[i])
	}
	e.SequenceLength(len(m.Data))
	e.Octets(m.Data)
	e.SequenceLength(len(m.Words))
	for i := range m.Words {
		e.String(m.Words[i])
	}
	e.Int64(m.Stamp)
	for i := range m.Flags {
		e.Bool(m.Flags[i])
	}
}

func (m *sample) UnmarshalCDR(d *Decoder) error {
	m.OK = d.Bool()
	if err := m.P.unmarshal(d); err != nil {
		return err
	}
	m.Name = d.BoundedString(8)
	m.Path = Resize(m.Path, d.BoundedSequenceLength(3, 18))
	for i := range m.Path {
		if err := m.Path[i].unmarshal(d); err != nil {
			return err
		}
	}
	for i := range m.IDs {
		m.IDs[i] = d.Uint32()
	}
	m.Data = Resize(m.Data, d.SequenceLength(1))
	d.Octets(m.Data)
	m.Words = Resize(m.Words, d.SequenceLength(4))
	for i := range m.Words {
		m.Words[i] = d.ReadString()
	}
	m.Stamp = d.Int64()
	for i := range m.Flags {
		m.Flags[i] = d.Bool()
	}
	return d.Err()
}

var _ Message = (*sample)(nil)

func testSample() *sample {
	return &sample{
		OK: true, P: point{1.5, -2, 7}, Name: "robot1",
		Path: []point{{0, 0, 1}, {3, 4, -1}}, IDs: [2]uint32{10, 20},
		Data: []byte{1, 2, 3}, Words: []string{"striker", ""}, Stamp: -5,
		Flags: [3]bool{true, false, true},
	}
}

func TestSampleRoundTrip(t *testing.T) {
	m := testSample()
	b := Marshal(m)
	var got sample
	if err := Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&got, m) {
		t.Fatalf("got %+v, want %+v", got, *m)
	}
	// Decoding into a used value overwrites everything and reuses capacity.
	reused := sample{Path: make([]point, 3), Words: []string{"a", "b", "c"}, Data: make([]byte, 10)}
	if err := Unmarshal(b, &reused); err != nil || !reflect.DeepEqual(&reused, m) {
		t.Fatalf("reused: %+v (%v)", reused, err)
	}
	// The same value in CDR_BE decodes identically.
	if err := Unmarshal(toBigEndian(m), &got); err != nil || !reflect.DeepEqual(&got, m) {
		t.Fatalf("big-endian: %+v (%v)", got, err)
	}
}

// toBigEndian writes m in CDR_BE with a hand-rolled writer, to test the decoder's
// byte-order handling independently of the encoder.
func toBigEndian(m *sample) []byte {
	b := []byte{0, 0, 0, 0}
	al := func(n int) {
		for (len(b)-4)%n != 0 {
			b = append(b, 0)
		}
	}
	u := func(n int, v uint64) {
		al(n)
		for i := n - 1; i >= 0; i-- {
			b = append(b, byte(v>>(8*i)))
		}
	}
	str := func(s string) { u(4, uint64(len(s)+1)); b = append(append(b, s...), 0) }
	bo := func(v bool) {
		if v {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	pt := func(p point) {
		u(8, uint64(floatBits(p.X)))
		u(8, uint64(floatBits(p.Y)))
		u(2, uint64(uint16(p.Tag)))
	}
	bo(m.OK)
	pt(m.P)
	str(m.Name)
	u(4, uint64(len(m.Path)))
	for _, p := range m.Path {
		pt(p)
	}
	u(4, uint64(m.IDs[0]))
	u(4, uint64(m.IDs[1]))
	u(4, uint64(len(m.Data)))
	b = append(b, m.Data...)
	u(4, uint64(len(m.Words)))
	for _, w := range m.Words {
		str(w)
	}
	u(8, uint64(m.Stamp))
	for _, f := range m.Flags {
		bo(f)
	}
	return b
}

func floatBits(f float64) uint64 {
	e := NewEncoder(nil)
	e.Float64(f)
	d, _ := NewDecoder(e.Bytes())
	return d.Uint64()
}

// FuzzUnmarshal: decoding never panics; whatever decodes re-encodes to a sample that
// decodes to the same value and encodes to the same bytes again. (Values are compared
// through their encoding, so that NaNs compare by their bits.)
func FuzzUnmarshal(f *testing.F) {
	f.Add(Marshal(testSample()))
	f.Add(Marshal(&sample{}))
	f.Add(toBigEndian(testSample()))
	f.Add([]byte{0, 1, 0, 0, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff})
	f.Add([]byte{0, 7, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		var m sample
		if err := Unmarshal(b, &m); err != nil {
			return
		}
		out, err := Append(nil, &m)
		if err != nil {
			t.Fatalf("re-encoding a decoded value: %v", err)
		}
		var m2 sample
		if err := Unmarshal(out, &m2); err != nil {
			t.Fatalf("decoding the re-encoding: %v\n% x", err, out)
		}
		if again := Marshal(&m2); !bytes.Equal(again, out) {
			t.Fatalf("round trip changed the value:\n%+v\n%+v", m, m2)
		}
	})
}

// FuzzDecoder drives the Decoder's methods in an order chosen by the fuzzer over
// arbitrary bytes: no call may panic, and after the first error every read returns
// a zero value.
func FuzzDecoder(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, Marshal(testSample()))
	f.Add([]byte{10, 10, 11}, []byte{0, 0, 0, 0, 0, 0, 0, 2, 'a', 0, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, ops, b []byte) {
		d, err := NewDecoder(b)
		if err != nil {
			return
		}
		for _, op := range ops {
			failed := d.Err() != nil
			var zero bool
			switch op % 15 {
			case 0:
				zero = !d.Bool()
			case 1:
				zero = d.Int8() == 0
			case 2:
				zero = d.Uint8() == 0
			case 3:
				zero = d.Int16() == 0
			case 4:
				zero = d.Uint16() == 0
			case 5:
				zero = d.Int32() == 0
			case 6:
				zero = d.Uint32() == 0
			case 7:
				zero = d.Int64() == 0
			case 8:
				zero = d.Uint64() == 0
			case 9:
				zero = d.Float64() == 0
			case 10:
				zero = d.ReadString() == ""
			case 11:
				zero = d.SequenceLength(int(op>>4)) == 0
			case 12:
				zero = d.BoundedSequenceLength(int(op>>4), 1) == 0
			case 13:
				zero = d.BoundedString(int(op>>4)) == ""
			case 14:
				p := make([]byte, op>>4)
				d.Octets(p)
				zero = bytes.Count(p, []byte{0}) == len(p)
			}
			if failed && !zero {
				t.Fatalf("op %d returned a value after error %v", op%15, d.Err())
			}
			if d.Remaining() < 0 || d.Offset() > len(b) {
				t.Fatalf("position out of range: offset %d, remaining %d", d.Offset(), d.Remaining())
			}
		}
	})
}
