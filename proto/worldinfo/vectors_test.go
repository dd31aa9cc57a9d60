package worldinfo

import (
	"bufio"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// vector is one entry of testdata/vectors.txt (made by OpenSSL, see testdata/README.md).
type vector struct {
	name, key     string
	plain, cipher []byte
}

func loadVectors(tb testing.TB) map[string]vector {
	tb.Helper()
	f, err := os.Open(filepath.Join("testdata", "vectors.txt"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	vs := map[string]vector{}
	var v vector
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 8192), 1<<16)
	for sc.Scan() {
		line := sc.Text()
		field, rest, _ := strings.Cut(line, " ")
		switch field {
		case "name":
			v = vector{name: rest}
		case "key":
			v.key = rest
		case "plain":
			if v.plain, err = hex.DecodeString(strings.TrimSpace(rest)); err != nil {
				tb.Fatalf("%s: plain: %v", v.name, err)
			}
		case "cipher":
			if v.cipher, err = hex.DecodeString(rest); err != nil {
				tb.Fatalf("%s: cipher: %v", v.name, err)
			}
			vs[v.name] = v
		}
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	if len(vs) < 19 {
		tb.Fatalf("read %d vectors, want at least 19", len(vs))
	}
	return vs
}

func mustHex(tb testing.TB, s string) []byte {
	tb.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
