package teaminfo

import (
	"math"
	"time"
)

// Quantisation of the dnet format. Every quantity has one code that means "unknown" (NaN
// in the model); finite values and infinities outside the range saturate at its ends.
const (
	MMPerM      = 1000 // positions: int16 millimetres
	CradPerRad  = 100  // angles: int16 centi-radians
	CsPerS      = 100  // durations: uint16 centiseconds
	VoronoiCmPM = 100  // voronoi points: 12-bit centimetres
	QualityMax  = 254  // qualities: uint8, 0..1 scaled to 0..254

	// UnknownI16 is the int16 code of an unknown position or angle; the range is
	// ±32767 (±32.767 m, ±327.67 rad).
	UnknownI16 = math.MinInt16
	// UnknownDuration is the uint16 code of an unknown duration; the range is 0..65534
	// (0 .. 655.34 s).
	UnknownDuration = math.MaxUint16
	// UnknownQuality is the uint8 code of an unknown quality.
	UnknownQuality = math.MaxUint8
	// UnknownI12 is the 12-bit code of an unknown voronoi coordinate; the range is
	// ±2047 (±20.47 m).
	UnknownI12 = -2048

	maxI12      = 2047
	maxDuration = UnknownDuration - 1
	// MaxStampMs is the largest stamp a dnet packet may carry: the longest time.Duration
	// in whole milliseconds (about 292 years after the epoch). It fits the 48-bit field.
	MaxStampMs = uint64(math.MaxInt64 / time.Millisecond)
)

// Quantisation tolerances: for any finite x inside the range, |x - decode(encode(x))| is
// at most this (plus float64 rounding, far below it). Tests pin them.
const (
	TolPosition = 0.5 / MMPerM      // m
	TolAngle    = 0.5 / CradPerRad  // rad
	TolDuration = 0.5 / CsPerS      // s
	TolQuality  = 0.5 / QualityMax  // fraction
	TolVoronoi  = 0.5 / VoronoiCmPM // m
	TolStamp    = time.Millisecond  // stamps are truncated to whole ms: 0 <= x - decode(encode(x)) < TolStamp
)

func quantSigned(v, scale float64, limit int) int {
	if math.IsNaN(v) {
		return -limit - 1
	}
	x := math.Round(v * scale)
	switch {
	case x > float64(limit):
		return limit
	case x < -float64(limit):
		return -limit
	}
	return int(x)
}

func dequantSigned(q int, scale float64, limit int) float64 {
	if q == -limit-1 {
		return math.NaN()
	}
	return float64(q) / scale
}

func qI16(v, scale float64) int16 { return int16(quantSigned(v, scale, math.MaxInt16)) }

func dqI16(q int16, scale float64) float64 { return dequantSigned(int(q), scale, math.MaxInt16) }

func qI12(v float64) int16 { return int16(quantSigned(v, VoronoiCmPM, maxI12)) }

func dqI12(q int16) float64 { return dequantSigned(int(q), VoronoiCmPM, maxI12) }

// qDuration quantises seconds: negative values become 0, NaN the unknown code.
func qDuration(s float64) uint16 {
	if math.IsNaN(s) {
		return UnknownDuration
	}
	x := math.Round(s * CsPerS)
	switch {
	case x < 0:
		return 0
	case x > maxDuration:
		return maxDuration
	}
	return uint16(x)
}

func dqDuration(q uint16) float64 {
	if q == UnknownDuration {
		return math.NaN()
	}
	return float64(q) / CsPerS
}

// qQuality quantises a fraction: values are clamped to [0, 1], NaN is the unknown code.
func qQuality(f float64) uint8 {
	if math.IsNaN(f) {
		return UnknownQuality
	}
	return uint8(math.Round(min(max(f, 0), 1) * QualityMax))
}

func dqQuality(q uint8) float64 {
	if q == UnknownQuality {
		return math.NaN()
	}
	return float64(q) / QualityMax
}

// qStamp truncates a stamp to whole milliseconds, clamped to 0 .. MaxStampMs.
func qStamp(d time.Duration) uint64 {
	if d <= 0 {
		return 0
	}
	return uint64(d / time.Millisecond) // <= MaxStampMs by construction
}

func dqStamp(ms uint64) time.Duration { return time.Duration(ms) * time.Millisecond }
