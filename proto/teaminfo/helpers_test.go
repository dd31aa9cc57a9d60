package teaminfo

import (
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// readHex reads a testdata file of hex bytes: everything after '#' on a line is a
// comment, white space is ignored, and all lines form one packet.
func readHex(t testing.TB, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	for line := range strings.Lines(string(raw)) {
		line, _, _ = strings.Cut(line, "#")
		sb.WriteString(strings.Join(strings.Fields(line), ""))
	}
	b, err := hex.DecodeString(sb.String())
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return b
}

// crc32cBitwise is CRC-32C computed bit by bit (reflected polynomial 0x82f63b78,
// initial value and final xor 0xffffffff): a reference for hash/crc32's table.
func crc32cBitwise(b []byte) uint32 {
	c := ^uint32(0)
	for _, x := range b {
		c ^= uint32(x)
		for range 8 {
			if c&1 != 0 {
				c = c>>1 ^ 0x82f63b78
			} else {
				c >>= 1
			}
		}
	}
	return ^c
}

// diff lists the fields in which got and want differ. Floats compare by value with NaN
// equal to NaN, and -0 equal to 0.
func diff(got, want any) []string {
	var out []string
	diffValue(&out, "", reflect.ValueOf(got), reflect.ValueOf(want), 0)
	return out
}

// diffTol is diff with an absolute tolerance for float fields.
func diffTol(got, want any, tol float64) []string {
	var out []string
	diffValue(&out, "", reflect.ValueOf(got), reflect.ValueOf(want), tol)
	return out
}

func diffValue(out *[]string, path string, g, w reflect.Value, tol float64) {
	switch g.Kind() {
	case reflect.Struct:
		for i := range g.NumField() {
			diffValue(out, path+"."+g.Type().Field(i).Name, g.Field(i), w.Field(i), tol)
		}
	case reflect.Array:
		for i := range g.Len() {
			diffValue(out, fmt.Sprintf("%s[%d]", path, i), g.Index(i), w.Index(i), tol)
		}
	case reflect.Float32, reflect.Float64:
		a, b := g.Float(), w.Float()
		if math.IsNaN(a) && math.IsNaN(b) {
			return
		}
		if a == b || math.Abs(a-b) <= tol {
			return
		}
		*out = append(*out, fmt.Sprintf("%s: got %v, want %v", path, a, b))
	default:
		if !reflect.DeepEqual(g.Interface(), w.Interface()) {
			*out = append(*out, fmt.Sprintf("%s: got %v, want %v", path, g.Interface(), w.Interface()))
		}
	}
}

func reportDiff(t *testing.T, what string, d []string) {
	t.Helper()
	if len(d) > 0 {
		t.Errorf("%s differs:\n  %s", what, strings.Join(d, "\n  "))
	}
}
