package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tswarm "github.com/robocup-dnetwork/dnetwork/transport/swarm"
)

// Swarm frames written out by hand from the layout in transport/swarm.
var swarmGolden = []struct {
	name  string
	hex   string
	frame tswarm.Frame
	json  string
}{
	{
		name: "unicast to the base station",
		hex: "5357524d" + // magic "SWRM"
			"01" + // version 1
			"01" + // kind unicast
			"1068" + // port 4200
			"02" + "03" + // source "r2", destination "boo"
			"7232" + "626f6f" +
			"464f554e442031203220332034", // "FOUND 1 2 3 4"
		frame: tswarm.Frame{Kind: tswarm.KindUnicast, Port: 4200, Src: "r2", Dst: "boo", Payload: []byte("FOUND 1 2 3 4")},
		json: `{"protocol":"swarm","version":1,"length":28,"kind":"unicast","port":4200,"src":"r2","dst":"boo",` +
			`"payload_length":13,"payload":"464f554e442031203220332034","text":"FOUND 1 2 3 4"}`,
	},
	{
		name: "binary broadcast",
		hex: "5357524d" + "01" +
			"02" + // kind broadcast
			"1004" + // port 4100
			"02" + "00" + // source "r1", no destination name
			"7231" +
			"00ff10",
		frame: tswarm.Frame{Kind: tswarm.KindBroadcast, Port: 4100, Src: "r1", Payload: []byte{0, 0xff, 0x10}},
		json: `{"protocol":"swarm","version":1,"length":15,"kind":"broadcast","port":4100,"src":"r1","dst":"broadcast",` +
			`"payload_length":3,"payload":"00ff10"}`,
	},
	{
		name: "empty multicast from an IPv4 address",
		hex: "5357524d" + "01" +
			"03" + // kind multicast
			"1403" + // port 5123
			"08" + "00" + // source "10.0.0.1"
			"31302e302e302e31",
		frame: tswarm.Frame{Kind: tswarm.KindMulticast, Port: 5123, Src: "10.0.0.1"},
		json: `{"protocol":"swarm","version":1,"length":18,"kind":"multicast","port":5123,"src":"10.0.0.1","dst":"multicast",` +
			`"payload_length":0,"payload":""}`,
	},
}

func swarmDecodeLines(t *testing.T, stdin string, args ...string) (int, []string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := dispatch(context.Background(), append([]string{"decode"}, args...), strings.NewReader(stdin), &out, &errb)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if out.Len() == 0 {
		lines = nil
	}
	return code, lines, errb.String()
}

func TestDecodeSwarmGolden(t *testing.T) {
	var in strings.Builder
	for _, g := range swarmGolden {
		// The hand-written bytes are what the codec writes.
		b, err := g.frame.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if got := hex.EncodeToString(b); got != g.hex {
			t.Fatalf("%s: codec writes\n%s\nwant\n%s", g.name, got, g.hex)
		}
		in.WriteString("# " + g.name + "\n" + g.hex + "\n")
	}
	for _, args := range [][]string{nil, {"--proto", "swarm"}} {
		code, lines, stderr := swarmDecodeLines(t, in.String(), args...)
		if code != 0 || len(lines) != len(swarmGolden) {
			t.Fatalf("%v: exit %d, %d lines, stderr %q", args, code, len(lines), stderr)
		}
		for i, g := range swarmGolden {
			if lines[i] != g.json {
				t.Errorf("%v %s:\n got %s\nwant %s", args, g.name, lines[i], g.json)
			}
		}
	}
}

func TestDecodeSwarmRaw(t *testing.T) {
	b, err := hex.DecodeString(swarmGolden[0].hex)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "frame.bin")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	code, lines, stderr := swarmDecodeLines(t, "", "--raw", path)
	if code != 0 || len(lines) != 1 || lines[0] != swarmGolden[0].json {
		t.Fatalf("exit %d, %v, stderr %q", code, lines, stderr)
	}
}

func TestDecodeSwarmErrors(t *testing.T) {
	big := "5357524d" + "01" + "02" + "1004" + "02" + "00" + "7231" + strings.Repeat("00", tswarm.MaxPayload+1)
	for _, tc := range []struct{ name, hex, want string }{
		{"short", "5357524d0101", "swarm: frame too short: 6 bytes, header needs 10"},
		{"version", "5357524d" + "02" + "02" + "1004" + "0200" + "7231", "swarm: unsupported version: 2, want 1"},
		{"kind", "5357524d" + "01" + "04" + "1004" + "0200" + "7231", "swarm: bad destination kind: 4"},
		{"unicast without destination", "5357524d" + "01" + "01" + "1004" + "0200" + "7231", "swarm: inconsistent header: unicast frame without destination name"},
		{"broadcast with destination", "5357524d" + "01" + "02" + "1004" + "0202" + "7231" + "7232", "swarm: inconsistent header: broadcast frame with a 2-byte destination name"},
		{"names beyond the end", "5357524d" + "01" + "02" + "1004" + "0900" + "7231", "swarm: frame too short: 12 bytes, header with names needs 19"},
		{"space in name", "5357524d" + "01" + "02" + "1004" + "0300" + "722031", `source: swarm: bad robot name: byte 0x20 in "r 1"`},
		{"reserved name", "5357524d" + "01" + "01" + "1004" + "0209" + "7231" + hex.EncodeToString([]byte("multicast")), `destination: swarm: bad robot name: "multicast" is reserved`},
		{"payload too large", big, "swarm: payload too large: 1501 bytes, limit 1500"},
	} {
		for _, args := range [][]string{nil, {"--proto", "swarm"}} {
			code, recs, _ := runDecodeCmd(t, tc.hex+"\n", args...)
			if code != 1 || len(recs) != 1 || recs[0]["protocol"] != "swarm" || recs[0]["error"] != tc.want {
				t.Errorf("%s %v: exit %d %v, want error %q", tc.name, args, code, recs, tc.want)
			}
		}
	}
	// A frame without the magic is not auto-detected as swarm, and refused when forced.
	code, recs, _ := runDecodeCmd(t, "5357524e0102100402007231\n", "--proto", "swarm")
	if code != 1 || !strings.HasPrefix(recs[0]["error"].(string), "swarm: bad magic") {
		t.Errorf("bad magic: exit %d %v", code, recs)
	}
	if packetDecoders["swarm"].match([]byte("SWR")) {
		t.Errorf("3 bytes of magic matched")
	}
}

func TestSwarmText(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"FOUND 1 2 3 4", true},
		{"tab\tand\nnewline", true},
		{"héllo", true},
		{"", false},
		{"nul\x00", false},
		{"\xff\xfe", false},
		{"bell\a", false},
	} {
		if got := isSwarmText([]byte(tc.in)); got != tc.want {
			t.Errorf("isSwarmText(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// FuzzDecodeSwarm checks that the decoder never panics, agrees with the codec, prints a
// valid record and that the record describes the input exactly (rebuilt, it encodes to
// the same bytes).
func FuzzDecodeSwarm(f *testing.F) {
	for _, g := range swarmGolden {
		b, _ := hex.DecodeString(g.hex)
		f.Add(b)
	}
	f.Add([]byte("SWRM\x01\x01\x10\x04\x02\x00r1"))
	f.Add([]byte("SWRM\x01\x03\x10\x04\x01\x01ab"))
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := decodeSwarm(b, &decodeOptions{})
		var fr tswarm.Frame
		if codecErr := fr.UnmarshalBinary(b); (err == nil) != (codecErr == nil) {
			t.Fatalf("decoder error %v, codec error %v", err, codecErr)
		}
		if err != nil {
			if v != nil {
				t.Fatalf("value %v with error %v", v, err)
			}
			return
		}
		if !packetDecoders["swarm"].match(b) {
			t.Fatalf("decodable frame not auto-detected")
		}
		out, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var rec swarmFrameJSON
		if err := json.Unmarshal(out, &rec); err != nil || rec.Protocol != "swarm" || rec.Version != tswarm.Version || rec.Length != len(b) {
			t.Fatalf("bad record %s (%v)", out, err)
		}
		payload, err := hex.DecodeString(rec.Payload)
		if err != nil || len(payload) != rec.PayloadLength {
			t.Fatalf("payload %q (%v), length %d", rec.Payload, err, rec.PayloadLength)
		}
		re := tswarm.Frame{Port: rec.Port, Src: rec.Src, Payload: payload}
		switch rec.Kind {
		case "unicast":
			re.Kind, re.Dst = tswarm.KindUnicast, rec.Dst
		case "broadcast", "multicast":
			re.Kind = tswarm.KindBroadcast
			if rec.Kind == "multicast" {
				re.Kind = tswarm.KindMulticast
			}
			if rec.Dst != rec.Kind {
				t.Fatalf("%s frame with dst %q", rec.Kind, rec.Dst)
			}
		default:
			t.Fatalf("kind %q", rec.Kind)
		}
		got, err := re.MarshalBinary()
		if err != nil || !bytes.Equal(got, b) {
			t.Fatalf("record %s rebuilds to % x (%v), input % x", out, got, err, b)
		}
		if (rec.Text != nil) != isSwarmText(payload) || rec.Text != nil && *rec.Text != string(payload) {
			t.Fatalf("text %v for payload % x", rec.Text, payload)
		}
	})
}
