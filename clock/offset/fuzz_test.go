package offset

import (
	"encoding/binary"
	"testing"
	"time"
)

// FuzzEstimator feeds the Estimator honest samples of a true offset of 0 (lower bounds
// <= 0, upper bounds >= 0, made from the input's delays) with one arbitrary sample among
// them, at times that may go back. Whatever the input: once known the estimate stays
// known, its bound is >= 0 and it contains the truth.
func FuzzEstimator(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18}, uint8(3), int64(1e12), int64(-1e12))
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 255, 255}, uint8(0), int64(5e6), int64(4e6))
	f.Fuzz(func(t *testing.T, data []byte, badAt uint8, badLo, badHi int64) {
		e := Estimator{Config: Config{CandidateTimeout: time.Second}}
		now := epoch
		known := false
		for i := 0; len(data) >= 6; i++ {
			step := time.Duration(binary.LittleEndian.Uint16(data)) * time.Millisecond / 8
			if data[5]&1 != 0 {
				now = now.Add(-step / 16) // our clock goes back a little now and then
			} else {
				now = now.Add(step)
			}
			s := Sample{
				Lower: -time.Duration(data[2]) * 100 * time.Microsecond, HasLower: data[4]&1 != 0,
				Upper: time.Duration(data[3]) * 100 * time.Microsecond, HasUpper: data[4]&2 != 0,
			}
			if i == int(badAt) {
				s = Sample{Lower: time.Duration(badLo), Upper: time.Duration(badHi), HasLower: data[4]&4 != 0, HasUpper: data[4]&8 != 0}
			}
			data = data[6:]
			e.Observe(s, now)
			est := e.Estimate(now)
			if known && !est.Known {
				t.Fatalf("step %d: unknown again: %+v", i, est)
			}
			known = known || est.Known
			if est.Known && (est.Bound < 0 || est.Lower > est.Upper || !est.Contains(0)) {
				t.Fatalf("step %d: %+v does not hold the truth 0", i, est)
			}
			if est.HasLower && est.Lower > 0 || est.HasUpper && est.Upper < 0 {
				t.Fatalf("step %d: a side excludes the truth: %+v", i, est)
			}
		}
	})
}
