//go:build linux

package gamecontroller

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// floorIterations is how often the C floor decodes each packet.
const floorIterations = 3_000_000

// BenchmarkDecodeFloor compares the decoder with a C floor measured in the same run:
// testdata/cfloor/floor.c, built with gcc -O2 when the benchmark starts, checks length,
// header and version, copies the packet into the packed struct of the GameController's
// C header and applies the same range checks with lookup tables. Both sides are timed
// in CPU time of their own process (robust to a busy machine): go-cpu-ns/op and
// c-cpu-ns/op, and x-floor = go / c. Skips without gcc.
func BenchmarkDecodeFloor(b *testing.B) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		b.Skip("gcc not found: no C floor to compare with")
	}
	bin := filepath.Join(b.TempDir(), "floor")
	if out, err := exec.Command(gcc, "-O2", "-o", bin, filepath.Join("testdata", "cfloor", "floor.c")).CombinedOutput(); err != nil {
		b.Fatalf("building the C floor: %v\n%s", err, out)
	}
	for _, tc := range []struct {
		l    Layout
		name string
	}{{LayoutSPL15, "spl15"}, {LayoutHSL20, "hsl20"}, {LayoutHL688, "hl688"}} {
		var pkt []byte
		for _, g := range goldenLayouts {
			if g.l == tc.l {
				pkt = g.build()
			}
		}
		file := filepath.Join(b.TempDir(), tc.name)
		if err := os.WriteFile(file, pkt, 0o600); err != nil {
			b.Fatal(err)
		}
		out, err := exec.Command(bin, tc.name, file, strconv.Itoa(floorIterations)).Output()
		if err != nil {
			b.Fatalf("C floor %s: %v", tc.name, err)
		}
		cNs, err := strconv.ParseFloat(strings.Fields(string(out))[0], 64)
		if err != nil {
			b.Fatalf("C floor %s printed %q: %v", tc.name, out, err)
		}
		b.Run(tc.l.String(), func(b *testing.B) {
			var p Packet
			b.ReportAllocs()
			c0 := processCPU()
			for b.Loop() {
				if err := p.UnmarshalBinary(pkt); err != nil {
					b.Fatal(err)
				}
			}
			goNs := float64(processCPU()-c0) / float64(b.N)
			b.ReportMetric(goNs, "go-cpu-ns/op")
			b.ReportMetric(cNs, "c-cpu-ns/op")
			b.ReportMetric(goNs/cNs, "x-floor")
		})
	}
}

// processCPU returns the user and system CPU time of this process so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
