package fastddspeer

import "testing"

func TestCanonical(t *testing.T) {
	type vec struct{ X, Y float64 }
	type msg struct {
		B       bool
		U8      uint8
		I16     int16
		F32     float32
		S       string
		Empty   string
		Arr     [2]bool
		Seq     []vec
		Nested  vec
		private int
	}
	m := &msg{B: true, U8: 200, I16: -3, F32: 1.5, S: "HSL", Arr: [2]bool{false, true}, Seq: []vec{{1, 2}}, Nested: vec{X: -2}, private: 9}
	want := " 1 200 -3 3fc00000 48534c - 0 1 1 3ff0000000000000 4000000000000000 c000000000000000 0000000000000000"
	if got := Canonical(m); got != want {
		t.Errorf("Canonical = %q, want %q", got, want)
	}
	if got := Canonical(msg{}); got != " 0 0 0 00000000 - - 0 0 0 0000000000000000 0000000000000000" {
		t.Errorf("Canonical of the zero message = %q", got)
	}
}
