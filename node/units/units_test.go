package units

import (
	"math"
	"testing"
)

func TestConversions(t *testing.T) {
	for _, tc := range []struct {
		name      string
		got, want float64
	}{
		{"Metres(250)", Metres(250), 2.5},
		{"Metres(-30)", Metres(-30), -0.3},
		{"Centimetres(2.5)", Centimetres(2.5), 250},
		{"Centimetres(-0.3)", Centimetres(-0.3), -30},
		{"Radians(180)", Radians(180), math.Pi},
		{"Radians(-90)", Radians(-90), -math.Pi / 2},
		{"Degrees(pi)", Degrees(math.Pi), 180},
		{"Degrees(-pi/2)", Degrees(-math.Pi / 2), -90},
	} {
		if math.Abs(tc.got-tc.want) > 1e-12 {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	for _, v := range []float64{0, 1, -1, 0.1, 123.456, -359.9, 1e6} {
		if got := Centimetres(Metres(v)); math.Abs(got-v) > 1e-9*math.Max(1, math.Abs(v)) {
			t.Errorf("Centimetres(Metres(%v)) = %v", v, got)
		}
		if got := Degrees(Radians(v)); math.Abs(got-v) > 1e-9*math.Max(1, math.Abs(v)) {
			t.Errorf("Degrees(Radians(%v)) = %v", v, got)
		}
	}
	if !math.IsNaN(Metres(math.NaN())) || !math.IsInf(Radians(math.Inf(1)), 1) {
		t.Error("NaN and infinities must pass through unchanged")
	}
}
