package main

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"hash/crc32"
	"os"
	"strings"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
)

const demoKey = "team17-shared-secret"

// demoTeaminfo returns the packets of testdata/demo/teaminfo.hex: zju TV-TEAM-296, zju
// with NaN ball, dnet v1 untagged, dnet v1 tagged, dnet v2 untagged, dnet v2 tagged.
func demoTeaminfo(t testing.TB) (text string, pkts [][]byte) {
	t.Helper()
	raw, err := os.ReadFile("../../testdata/demo/teaminfo.hex")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		b, err := hex.DecodeString(line)
		if err != nil {
			t.Fatal(err)
		}
		pkts = append(pkts, b)
	}
	if len(pkts) != 6 {
		t.Fatalf("demo file has %d packets, want 6", len(pkts))
	}
	return string(raw), pkts
}

// field walks a decoded JSON record along a dotted path ("robot_pos.x").
func field(t *testing.T, rec map[string]any, path string) any {
	t.Helper()
	var v any = rec
	for _, k := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%s: %v is not an object", path, v)
		}
		if v, ok = m[k]; !ok {
			t.Fatalf("%s: no key %q in %v", path, k, m)
		}
	}
	return v
}

func expectFields(t *testing.T, rec map[string]any, want map[string]any) {
	t.Helper()
	for path, w := range want {
		got := field(t, rec, path)
		if gj, wj := mustJSON(t, got), mustJSON(t, w); gj != wj {
			t.Errorf("%s = %s, want %s", path, gj, wj)
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestDecodeTeaminfoDemo(t *testing.T) {
	text, _ := demoTeaminfo(t)
	code, recs, stderr := runDecodeCmd(t, text)
	if code != 0 || len(recs) != 6 {
		t.Fatalf("exit %d, %d records, stderr %q: %v", code, len(recs), stderr, recs)
	}
	expectFields(t, recs[0], map[string]any{
		"protocol": "teaminfo-zju", "version": "hightorque-296", "units.length": "cm",
		"txp_timestamp": map[string]any{"sec": 1700000000, "nsec": 500000000},
		"player_number": 2, "team_number": 17, "role": 1, "role_name": "striker",
		"dest": map[string]any{"x": 100, "y": 50, "z": 90}, "time_since_last_kick": 2.5,
		"state": 2, "state_name": "ball_handling", "priority": true, "kicker_id": 2,
		"mates_online": []bool{true, true, false, true, false, false}, "see_ball": true,
		"robot_pos":    map[string]any{"x": -200, "y": 100, "z": 45},
		"ball_field.x": 60, "ball_field.y": 80, "ball_global.x": -150, "ball_quality": 0.75,
		"gc_connected": true, "gc_state": 3, "gc_state2": 0, "incapacitated": false,
	})
	expectFields(t, recs[1], map[string]any{
		"protocol": "teaminfo-zju", "player_number": 1, "role_name": "goalie",
		"ball_field.x": "NaN", "ball_global.y": "NaN", "robot_pos.z": -2.5, "field_quality": 0.9,
	})
	expectFields(t, recs[2], map[string]any{
		"protocol": "teaminfo-dnet", "version": 1, "units.length": "m", "units.angle": "rad",
		"tagged": false, "authenticated": false, "team_number": 17, "player_number": 3,
		"seq": 16909060, "txp_timestamp": map[string]any{"sec": 1700000000, "nsec": 123000000},
		"attack_right": true, "see_circle": false, "role_name": "defender",
		"mates_online": []bool{true, false, true, true, false, false},
		"robot_pos":    map[string]any{"x": -1.234, "y": 2.5, "theta": 1.57},
		"final_dest.x": "NaN", "ball_field": map[string]any{"x": 0.6, "y": 0.8},
		"team_ball_global.x": -1.49, "time_to_reach_ball": "NaN", "ball_age": 0.12,
		"field_consistency": "NaN", "gc_state": 3, "game_phase": 1, "set_play": 2,
		"voronoi": []map[string]any{{"x": 1, "y": 2}, {"x": -1, "y": -0.5}, {"x": 20.47, "y": -20.47}},
		"echo":    nil,
	})
	expectFields(t, recs[3], map[string]any{
		"protocol": "teaminfo-dnet", "tagged": true, "authenticated": false, "player_number": 3,
	})
	expectFields(t, recs[4], map[string]any{
		"protocol": "teaminfo-dnet", "version": 2, "tagged": false, "player_number": 3,
		"txp_timestamp": map[string]any{"sec": 1700000000, "nsec": 123000000}, "ball_age": 0.12,
		"echo": map[string]any{"player": 1, "stamp_ms": 1699999999989 & 0xffffffff, "hold": 0.12},
	})
	expectFields(t, recs[5], map[string]any{
		"protocol": "teaminfo-dnet", "version": 2, "tagged": true, "echo.player": 1,
	})
}

// TestDecodeTeaminfoChecksum: a packet with its checksum shows checked; one bit flipped
// is an error naming the checksum, and role 68 one naming the range.
func TestDecodeTeaminfoChecksum(t *testing.T) {
	_, pkts := demoTeaminfo(t)
	var p teaminfo.DNetPacket
	if _, err := p.Decode(pkts[4], nil); err != nil {
		t.Fatal(err)
	}
	p.Unchecked = false
	checked, err := p.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	flipped := bytes.Clone(checked)
	flipped[30] ^= 8
	role68 := bytes.Clone(checked) // with the checksum recomputed
	role68[7] = 68
	n := len(role68) - teaminfo.CRCSize
	binary.LittleEndian.PutUint32(role68[n:], crc32.Checksum(role68[:n], crc32.MakeTable(crc32.Castagnoli)))
	text := hex.EncodeToString(checked) + "\n" + hex.EncodeToString(flipped) + "\n" + hex.EncodeToString(role68) + "\n"
	code, recs, stderr := runDecodeCmd(t, text)
	if code != 1 || len(recs) != 3 || !strings.Contains(stderr, "2 of 3 packets rejected") {
		t.Fatalf("exit %d, %d records, stderr %q", code, len(recs), stderr)
	}
	expectFields(t, recs[0], map[string]any{"protocol": "teaminfo-dnet", "version": 2, "checked": true, "tagged": false, "ball_age": 0.12})
	if e, _ := recs[1]["error"].(string); !strings.Contains(e, "checksum mismatch") {
		t.Errorf("flipped bit: %v", recs[1])
	}
	if e, _ := recs[2]["error"].(string); !strings.Contains(e, "role 68") {
		t.Errorf("role 68: %v", recs[2])
	}
}

func TestDecodeTeaminfoAuthKey(t *testing.T) {
	text, _ := demoTeaminfo(t)
	code, recs, stderr := runDecodeCmd(t, text, "--auth-key", demoKey)
	if code != 1 || len(recs) != 6 || !strings.Contains(stderr, "2 of 6 packets rejected") {
		t.Fatalf("exit %d, %d records, stderr %q", code, len(recs), stderr)
	}
	if recs[0]["protocol"] != "teaminfo-zju" || recs[0]["error"] != nil {
		t.Errorf("zju is not affected by the key: %v", recs[0])
	}
	expectFields(t, recs[2], map[string]any{
		"protocol": "teaminfo-dnet", "length": 102,
		"error": "teaminfo: authentication failed: dnet packet has no tag but a key is required",
	})
	expectFields(t, recs[3], map[string]any{"tagged": true, "authenticated": true})
	expectFields(t, recs[4], map[string]any{
		"protocol": "teaminfo-dnet", "length": 109,
		"error": "teaminfo: authentication failed: dnet packet has no tag but a key is required",
	})
	expectFields(t, recs[5], map[string]any{"tagged": true, "authenticated": true, "echo.hold": 0.12})

	code, recs, _ = runDecodeCmd(t, text, "--auth-key", demoKey+"!")
	if code != 1 || len(recs) != 6 {
		t.Fatalf("wrong key: exit %d, %d records", code, len(recs))
	}
	expectFields(t, recs[3], map[string]any{
		"protocol": "teaminfo-dnet", "error": "teaminfo: authentication failed: dnet tag does not match the key",
	})
}

// TestDecodeTeaminfoSignedDemo keeps testdata/demo/teaminfo-signed.hex (docs/tools.md's
// --auth-key example) equal to the tagged packets of teaminfo.hex, so both change together.
func TestDecodeTeaminfoSignedDemo(t *testing.T) {
	_, pkts := demoTeaminfo(t)
	raw, err := os.ReadFile("../../testdata/demo/teaminfo-signed.hex")
	if err != nil {
		t.Fatal(err)
	}
	var signed [][]byte
	for _, line := range strings.Split(string(raw), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			b, err := hex.DecodeString(line)
			if err != nil {
				t.Fatal(err)
			}
			signed = append(signed, b)
		}
	}
	if len(signed) != 2 || !bytes.Equal(signed[0], pkts[3]) || !bytes.Equal(signed[1], pkts[5]) {
		t.Fatalf("teaminfo-signed.hex holds %d packets, not teaminfo.hex's two tagged ones", len(signed))
	}
	code, recs, stderr := runDecodeCmd(t, string(raw), "--auth-key", demoKey)
	if code != 0 || len(recs) != 2 {
		t.Fatalf("exit %d, %d records, stderr %q", code, len(recs), stderr)
	}
	for _, r := range recs {
		expectFields(t, r, map[string]any{"tagged": true, "authenticated": true})
	}
}

func TestDecodeTeaminfoMutants(t *testing.T) {
	_, pkts := demoTeaminfo(t)
	zju, plain, tagged := pkts[0], pkts[2], pkts[3]
	mut := func(b []byte, f func(b []byte) []byte) string { return hex.EncodeToString(f(bytes.Clone(b))) }
	for _, tc := range []struct {
		name  string
		args  []string
		hex   string
		proto string
		err   string
	}{
		{"zju 295 bytes", nil, hex.EncodeToString(zju[:295]), "unknown", "no known protocol matches 295 bytes"},
		{"zju 297 bytes", nil, hex.EncodeToString(append(bytes.Clone(zju), 0)), "unknown", "no known protocol matches 297 bytes"},
		{"zju 295 bytes forced", []string{"--proto", "teaminfo-zju"}, hex.EncodeToString(zju[:295]), "teaminfo-zju",
			"teaminfo: bad packet length: zju packet needs 296 bytes, got 295"},
		{"zju bool 2", nil, mut(zju, func(b []byte) []byte { b[109] = 2; return b }), "teaminfo-zju",
			"teaminfo: bool byte is not 0 or 1: zju see_ball (offset 109) is 2"},
		{"296 bytes with dnet magic", nil, mut(zju, func(b []byte) []byte { copy(b, "DNt\x01\x00"); return b }), "teaminfo-dnet",
			"teaminfo: bad packet length: dnet version 1 without tag needs 102 bytes, got 296"},
		{"dnet version 3", nil, mut(plain, func(b []byte) []byte { b[3] = 3; return b }), "teaminfo-dnet",
			"teaminfo: unsupported dnet version: dnet version 3, this node speaks 1 and 2"},
		{"dnet version 2 of version 1 size", nil, mut(plain, func(b []byte) []byte { b[3] = 2; return b }), "teaminfo-dnet",
			"teaminfo: bad packet length: dnet version 2 without tag needs 109 bytes, got 102"},
		{"dnet truncated tag", nil, hex.EncodeToString(tagged[:110]), "teaminfo-dnet",
			"teaminfo: bad packet length: dnet version 1 with tag needs 118 bytes, got 110"},
		{"dnet tampered", []string{"--auth-key", demoKey}, mut(tagged, func(b []byte) []byte { b[50] ^= 4; return b }), "teaminfo-dnet",
			"teaminfo: authentication failed: dnet tag does not match the key"},
		{"dnet forced on zju", []string{"--proto", "teaminfo-dnet"}, hex.EncodeToString(zju), "teaminfo-dnet",
			"teaminfo: bad dnet magic"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, recs, _ := runDecodeCmd(t, tc.hex+"\n", tc.args...)
			if code != 1 || len(recs) != 1 {
				t.Fatalf("exit %d, records %v", code, recs)
			}
			if recs[0]["protocol"] != tc.proto || !strings.HasPrefix(recs[0]["error"].(string), tc.err) {
				t.Errorf("got %v, want protocol %s and error %q", recs[0], tc.proto, tc.err)
			}
		})
	}
}

func TestDecodeTeaminfoRegistered(t *testing.T) {
	dn, zj := packetDecoders["teaminfo-dnet"], packetDecoders["teaminfo-zju"]
	if dn == nil || zj == nil {
		t.Fatal("teaminfo decoders not registered")
	}
	if dn.order >= zj.order {
		t.Errorf("dnet (magic) must be tried before zju (size only): orders %d, %d", dn.order, zj.order)
	}
	if zj.match(make([]byte, 295)) || !zj.match(make([]byte, 296)) || dn.match([]byte("DN")) || !dn.match([]byte("DNt")) {
		t.Error("match functions are wrong")
	}
}

// The decoders never panic and whatever they return encodes as a JSON object.
func FuzzDecodeTeaminfo(f *testing.F) {
	_, pkts := demoTeaminfo(f)
	for _, p := range pkts {
		f.Add(p, "")
		f.Add(p, demoKey)
	}
	f.Add([]byte("DNt\x01\x01"), "k")
	f.Fuzz(func(t *testing.T, b []byte, key string) {
		opts := &decodeOptions{AuthKey: key}
		for _, d := range []*packetDecoder{packetDecoders["teaminfo-dnet"], packetDecoders["teaminfo-zju"]} {
			v, err := d.decode(b, opts)
			if err != nil {
				if v != nil {
					t.Fatalf("%s: value %v with error %v", d.proto, v, err)
				}
				continue
			}
			out, err := json.Marshal(v)
			if err != nil {
				t.Fatalf("%s: %v", d.proto, err)
			}
			var m map[string]any
			if err := json.Unmarshal(out, &m); err != nil || m["protocol"] != d.proto || m["version"] == nil {
				t.Fatalf("%s: bad record %s (%v)", d.proto, out, err)
			}
		}
	})
}
