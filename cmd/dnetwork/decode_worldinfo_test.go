package main

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	wi "github.com/robocup-dnetwork/dnetwork/proto/worldinfo"
)

const wiDemo = "../../testdata/demo/worldinfo.hex"

// wiVectors reads the OpenSSL-made vectors of proto/worldinfo: name -> key, cipher, plain.
func wiVectors(t *testing.T) map[string][3]string {
	t.Helper()
	raw, err := os.ReadFile("../../proto/worldinfo/testdata/vectors.txt")
	if err != nil {
		t.Fatal(err)
	}
	vs := map[string][3]string{}
	var name string
	var v [3]string
	for _, line := range strings.Split(string(raw), "\n") {
		field, rest, _ := strings.Cut(line, " ")
		switch field {
		case "name":
			name, v = rest, [3]string{}
		case "key":
			v[0] = rest
		case "plain":
			v[2] = strings.TrimSpace(rest)
		case "cipher":
			v[1] = rest
			vs[name] = v
		}
	}
	return vs
}

// wiGet walks a decoded JSON value along a path of object keys and array indexes.
func wiGet(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("%v: %v is not an object", path, v)
			}
			if v, ok = m[k]; !ok {
				t.Fatalf("%v: no %q in %v", path, k, m)
			}
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				t.Fatalf("%v: no element %d in %v", path, k, v)
			}
			v = a[k]
		}
	}
	return v
}

func wiJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestDecodeWorldinfoDemo(t *testing.T) {
	raw, err := os.ReadFile(wiDemo)
	if err != nil {
		t.Fatal(err)
	}
	code, recs, stderr := runDecodeCmd(t, string(raw), "--proto", "worldinfo")
	if code != 0 || len(recs) != 7 {
		t.Fatalf("exit %d, %d records, stderr %q", code, len(recs), stderr)
	}
	// Auto-detection (default key) gives the same output.
	code, auto, _ := runDecodeCmd(t, string(raw))
	if code != 0 || !reflect.DeepEqual(auto, recs) {
		t.Errorf("auto-detected output differs (exit %d)", code)
	}
	for _, tc := range []struct {
		rec  int
		path []any
		want string
	}{
		{0, []any{"protocol"}, `"worldinfo"`},
		{0, []any{"version"}, `2`},
		{0, []any{"length"}, `64`},
		{0, []any{"plain_length"}, `60`},
		{0, []any{"encrypted"}, `true`},
		{0, []any{"seq"}, `0`},
		{0, []any{"records", 0}, `{"covariance":[0,0,0,0,0,0,0,0,0],"offset":8,"size":48,"theta":0.5,"type":1,"type_name":"pose","x":1,"y":2}`},
		{1, []any{"seq"}, `12`},
		{1, []any{"records", 2, "type_name"}, `"relative_ball"`},
		{1, []any{"records", 2, "history"}, `5`},
		{1, []any{"records", 2, "slope"}, `-0.25`},
		{1, []any{"records", 3}, `{"game_state":3,"half":1,"half_name":"second","offset":168,"our_goal_color":0,` +
			`"our_goal_color_name":"blue","our_team":1,"our_team_name":"cyan","reserved":0,"score_cyan":2,` +
			`"score_magenta":1,"size":4,"state_team":1,"state_team_name":"cyan","type":8,"type_name":"game_state"}`},
		{1, []any{"records", 4, "penalty_name"}, `"request_for_pickup"`},
		{1, []any{"records", 7}, `{"bearing":-0.5,"covariance":[0,0,0,0],"dist":3,"offset":248,"size":28,"type":5,"type_name":"opponent","uid":3}`},
		{2, []any{"records", 0, "type"}, `10`},
		{2, []any{"records", 0, "type_name"}, `"relative_ball"`},
		{2, []any{"records", 0, "fawkes_type10"}, `true`},
		{2, []any{"records", 0, "bearing"}, `0.5`},
		{2, []any{"records", 1, "type_name"}, `"global_ball"`},
		{2, []any{"records", 1, "history"}, `-3`},
		{3, []any{"records", 0, "num_opponents"}, `2`},
		{3, []any{"records", 0, "velo", "vel_y"}, `-0.5`},
		{3, []any{"records", 0, "opponents", 1, "uid"}, `2`},
		{5, []any{"records", 0, "x"}, `1.5`},
		{6, []any{"records", 0, "skipped"}, `"worldinfo: unknown record type 99 (8-byte body skipped)"`},
		{6, []any{"records", 1, "score_cyan"}, `2`},
		{6, []any{"truncated"}, `"worldinfo: truncated record: pose record at offset 28 declares 48 bytes, 8 left"`},
		{6, []any{"ignored_bytes"}, `12`},
	} {
		if got := wiJSON(t, wiGet(t, recs[tc.rec], tc.path...)); got != tc.want {
			t.Errorf("record %d %v = %s, want %s", tc.rec, tc.path, got, tc.want)
		}
	}
	if _, ok := recs[3]["records"].([]any)[0].(map[string]any)["relball_pos"]; ok {
		t.Errorf("fat record prints an invalid relball_pos")
	}
}

func TestDecodeWorldinfoKeys(t *testing.T) {
	vs := wiVectors(t)
	k16 := vs["key16"]
	// The right key decodes, the default key does not, auto-detection needs the default key.
	code, recs, _ := runDecodeCmd(t, k16[1]+"\n", "--proto", "worldinfo", "--key", k16[0])
	if code != 0 || len(recs) != 1 || wiJSON(t, wiGet(t, recs[0], "records", 0, "uid")) != "16909060" {
		t.Fatalf("--key: exit %d %v", code, recs)
	}
	code, recs, stderr := runDecodeCmd(t, k16[1]+"\n", "--proto", "worldinfo")
	if code != 1 || len(recs) != 1 || !strings.Contains(recs[0]["error"].(string), "bad padding") ||
		!strings.Contains(recs[0]["error"].(string), `"AllemaniACsX0rz"`) || recs[0]["protocol"] != "worldinfo" {
		t.Fatalf("default key: exit %d %v %s", code, recs, stderr)
	}
	code, recs, _ = runDecodeCmd(t, k16[1]+"\n")
	if code != 1 || recs[0]["protocol"] != "unknown" {
		t.Errorf("auto-detect under another key: exit %d %v", code, recs)
	}
	// Plaintext input is decoded as such.
	code, recs, _ = runDecodeCmd(t, vs["pose"][2]+"\n", "--proto", "worldinfo")
	if code != 0 || recs[0]["encrypted"] != false || recs[0]["plain_length"] != 60.0 ||
		wiJSON(t, wiGet(t, recs[0], "records", 0, "y")) != "2" {
		t.Errorf("plaintext: exit %d %v", code, recs)
	}
}

func TestDecodeWorldinfoErrors(t *testing.T) {
	c := wi.NewCipher(wi.DefaultKey)
	sealHex := func(h string) string {
		p, err := hex.DecodeString(strings.ReplaceAll(h, " ", ""))
		if err != nil {
			t.Fatal(err)
		}
		ct, err := c.Seal(nil, p)
		if err != nil {
			t.Fatal(err)
		}
		return hex.EncodeToString(ct)
	}
	for _, tc := range []struct{ name, in, want string }{
		{"length", strings.Repeat("00", 17), "not a positive multiple of 16"},
		{"version", sealHex("beef0300 00000001"), "decrypted 8 bytes with key \"AllemaniACsX0rz\": worldinfo: unsupported version: 3, want 2"},
		{"magic", sealHex("beee0200 00000001"), "bad magic"},
		{"short", sealHex("beef02"), "header needs 8 bytes, got 3"},
		{"plain version", "beef0100 00000000", ""},
	} {
		code, recs, _ := runDecodeCmd(t, tc.in+"\n", "--proto", "worldinfo")
		if tc.want == "" { // starts like no world info datagram at all: a decryption error
			if code != 1 || recs[0]["error"] == nil {
				t.Errorf("%s: exit %d %v", tc.name, code, recs)
			}
			continue
		}
		if code != 1 || len(recs) != 1 || !strings.Contains(recs[0]["error"].(string), tc.want) {
			t.Errorf("%s: exit %d %v, want error containing %q", tc.name, code, recs, tc.want)
		}
	}
	// NaN and infinities print as strings; size mismatches are noted; a fat record with
	// too many opponents says so.
	nan := sealHex("beef0200 00000001 0001 0030 0000c07f 0000807f 000080ff" + strings.Repeat("00", 36) +
		" 0002 002c" + strings.Repeat("00", 44) +
		" 0007 01e0 b3000000" + strings.Repeat("00", 476))
	code, recs, _ := runDecodeCmd(t, nan+"\n", "--proto", "worldinfo")
	if code != 0 {
		t.Fatalf("NaN datagram: exit %d %v", code, recs)
	}
	for path, want := range map[string]string{
		"x": `"NaN"`, "y": `"+Inf"`, "theta": `"-Inf"`,
	} {
		if got := wiJSON(t, wiGet(t, recs[0], "records", 0, path)); got != want {
			t.Errorf("%s = %s, want %s", path, got, want)
		}
	}
	if got := wiGet(t, recs[0], "records", 1, "skipped").(string); !strings.Contains(got, "velocity body needs 48 bytes, got 44") {
		t.Errorf("size mismatch noted as %q", got)
	}
	fat := wiGet(t, recs[0], "records", 2).(map[string]any)
	if fat["num_opponents"] != 11.0 || fat["opponents_ignored"] == nil || len(fat["opponents"].([]any)) != 0 {
		t.Errorf("fat with 11 opponents: %v", fat)
	}
}

func TestMatchWorldinfo(t *testing.T) {
	vs := wiVectors(t)
	for name, v := range vs {
		ct, _ := hex.DecodeString(v[1])
		want := v[0] == wi.DefaultKey && name != "empty"
		if got := matchWorldinfo(ct); got != want {
			t.Errorf("%s: match = %v, want %v", name, got, want)
		}
		pt, _ := hex.DecodeString(v[2])
		if got := matchWorldinfo(pt); got != (len(pt) >= 8) {
			t.Errorf("%s plaintext: match = %v", name, got)
		}
	}
	for _, b := range [][]byte{nil, make([]byte, 16), make([]byte, 17), make([]byte, 1424), []byte("RGme")} {
		if matchWorldinfo(b) {
			t.Errorf("matched %d bytes % x", len(b), b[:min(len(b), 8)])
		}
	}
}

// FuzzDecodeWorldinfo checks that the decoder never panics and that whatever it decodes
// prints as JSON (NaN and infinities included).
func FuzzDecodeWorldinfo(f *testing.F) {
	raw, err := os.ReadFile(wiDemo)
	if err != nil {
		f.Fatal(err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if b, err := hex.DecodeString(strings.TrimSpace(line)); err == nil && len(b) > 0 {
			f.Add(b)
		}
	}
	f.Add([]byte{0xbe, 0xef, 0x02, 0x00, 0, 0, 0, 1, 0, 7, 1, 0xe0})
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := decodeWorldinfo(b, &decodeOptions{Key: wi.DefaultKey})
		if err != nil {
			return
		}
		out, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("decoded datagram does not print: %v", err)
		}
		var m map[string]any
		if err := json.Unmarshal(out, &m); err != nil || m["protocol"] != "worldinfo" || m["version"] != 2.0 {
			t.Fatalf("bad JSON %s: %v", out, err)
		}
		if !matchWorldinfo(b) && isWorldinfoPlain(b) {
			t.Fatalf("plaintext datagram not matched")
		}
	})
}
