package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testDecoder is a tiny protocol used only to exercise the decode command's plumbing:
// packets start with "TST" followed by one version byte.
func withTestDecoder(t *testing.T) {
	t.Helper()
	registerDecoder(&packetDecoder{
		proto: "test", summary: "test protocol", order: -1,
		match: func(b []byte) bool { return bytes.HasPrefix(b, []byte("TST")) },
		decode: func(b []byte, _ *decodeOptions) (any, error) {
			if len(b) != 4 {
				return nil, errors.New("test: need 4 bytes")
			}
			return map[string]any{"protocol": "test", "version": int(b[3])}, nil
		},
	})
	registerDecoder(&packetDecoder{
		proto: "testtext", summary: "text protocol", text: true,
		decode: func(b []byte, _ *decodeOptions) (any, error) {
			return map[string]any{"protocol": "testtext", "version": 1, "text": string(b)}, nil
		},
	})
	t.Cleanup(func() { delete(packetDecoders, "test"); delete(packetDecoders, "testtext") })
}

func runDecodeCmd(t *testing.T, stdin string, args ...string) (int, []map[string]any, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := dispatch(context.Background(), append([]string{"decode"}, args...), strings.NewReader(stdin), &out, &errb)
	var recs []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("output line is not JSON: %q: %v", line, err)
		}
		recs = append(recs, m)
	}
	return code, recs, errb.String()
}

func TestDecodeHexLines(t *testing.T) {
	withTestDecoder(t)
	in := "# comment\n\n545354 07\n54:53:54:08\nzz\n5453540102\nffff\n"
	code, recs, stderr := runDecodeCmd(t, in)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (rejected packets); stderr %s", code, stderr)
	}
	if len(recs) != 5 {
		t.Fatalf("got %d records, want 5: %v", len(recs), recs)
	}
	if recs[0]["protocol"] != "test" || recs[0]["version"] != 7.0 {
		t.Errorf("record 0 = %v", recs[0])
	}
	if recs[1]["version"] != 8.0 {
		t.Errorf("record 1 = %v", recs[1])
	}
	if !strings.HasPrefix(recs[2]["error"].(string), "bad hex") || recs[2]["source"] != "stdin:5" {
		t.Errorf("record 2 = %v", recs[2])
	}
	if recs[3]["protocol"] != "test" || recs[3]["error"] != "test: need 4 bytes" {
		t.Errorf("record 3 = %v", recs[3])
	}
	if recs[4]["protocol"] != "unknown" || recs[4]["length"] != 2.0 {
		t.Errorf("record 4 = %v", recs[4])
	}
	if !strings.Contains(stderr, "3 of 5 packets rejected") {
		t.Errorf("stderr = %q", stderr)
	}
}

func TestDecodeRawFilesAndText(t *testing.T) {
	withTestDecoder(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "a.bin")
	if err := os.WriteFile(p, []byte("TST\x03"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, recs, _ := runDecodeCmd(t, "", "--raw", p)
	if code != 0 || len(recs) != 1 || recs[0]["version"] != 3.0 {
		t.Fatalf("raw: code %d recs %v", code, recs)
	}
	code, recs, _ = runDecodeCmd(t, "(hear 1.0 self abc)\n", "--proto", "testtext")
	if code != 0 || len(recs) != 1 || recs[0]["text"] != "(hear 1.0 self abc)" {
		t.Fatalf("text: code %d recs %v", code, recs)
	}
}

func TestDecodeUnknownProto(t *testing.T) {
	code, _, stderr := runDecodeCmd(t, "", "--proto", "nope")
	if code != 2 || !strings.Contains(stderr, `unknown protocol "nope"`) {
		t.Fatalf("code %d stderr %q", code, stderr)
	}
}
