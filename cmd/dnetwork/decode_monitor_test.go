package main

import (
	"encoding/hex"
	"encoding/json"
	"net/netip"
	"strings"
	"testing"
	"time"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/transport"
	"github.com/robocup-dnetwork/dnetwork/transport/capture"
)

// realForwards are the status messages the real HSL GameControllers (v19, v20) forwarded
// to a monitor, captured by monitor's TestMonitorChannelRealGC.
var realForwards = []string{
	"../../proto/gamecontroller/testdata/hsl19-real-forward.hex",
	"../../proto/gamecontroller/testdata/hsl20-real-forward.hex",
}

// rgrtRecord is what decode prints for the return packet b on its own.
func rgrtRecord(t *testing.T, b []byte) map[string]any {
	t.Helper()
	code, recs, stderr := runDecodeCmd(t, hex.EncodeToString(b), "--proto", "rgrt")
	if code != 0 || len(recs) != 1 {
		t.Fatalf("decode of the return packet: exit %d, %v, %s", code, recs, stderr)
	}
	return recs[0]
}

// TestDecodeMonitorChannel: a recording made with the monitor channel, as dnetwork
// record writes it (the request to 3636, the real GameControllers' forwards to 3940),
// decodes to rgtr and fwd records: the robot's address as host and the return packet
// as the rgrt decoder prints it. Forwards are taken by their port, even when their
// address spells another protocol's magic; broken ones are rejected, not skipped.
func TestDecodeMonitorChannel(t *testing.T) {
	t0 := time.Date(2026, 12, 7, 6, 0, 0, 0, time.UTC)
	gc := netip.MustParseAddr("10.93.0.1")
	monitorHost := netip.MustParseAddr("10.93.0.9")
	recs := []capture.Record{{Dir: transport.Sent, Time: t0, Src: netip.AddrPortFrom(monitorHost, 41000),
		Dst: netip.AddrPortFrom(gc, gcproto.MonitorRequestPort), Payload: gcproto.AppendMonitorRequest(nil)}}
	forward := func(p []byte) {
		recs = append(recs, capture.Record{Dir: transport.Received, Time: t0.Add(time.Duration(len(recs)) * time.Millisecond),
			Src: netip.AddrPortFrom(gc, 50123), Dst: netip.AddrPortFrom(monitorHost, gcproto.StatusForwardPort), Payload: p})
	}
	var fwds [][]byte
	for _, f := range realForwards {
		p := firstHexPacket(t, f)
		fwds = append(fwds, p)
		forward(p)
	}
	_, status, err := gcproto.DecodeForward(fwds[1])
	if err != nil {
		t.Fatal(err)
	}
	rgme := gcproto.AppendForward(nil, netip.AddrFrom4([4]byte([]byte(gcproto.MagicControl))), status)
	forward(rgme)                                  // an address that reads "RGme": still a forward
	forward(fwds[1][:len(fwds[1])-1])              // a status message one byte short
	forward(fwds[1][:gcproto.ForwardPrefixSize-1]) // no whole address
	path := writePcapng(t, recs...)

	code, out, stderr := runDecodeCmd(t, "", path)
	if code != 1 || len(out) != len(recs) {
		t.Fatalf("exit %d, %d records, want 1 and %d: %v\n%s", code, len(out), len(recs), out, stderr)
	}
	if !strings.Contains(stderr, "0 of no known protocol") || !strings.Contains(stderr, "2 of 6 packets rejected") {
		t.Errorf("stderr: %s", stderr)
	}
	expectFields(t, out[0], map[string]any{"protocol": "rgtr", "version": 0, "header": "RGTr", "length": 5, "dst": "10.93.0.1:3636"})
	for i, p := range append(fwds, rgme) {
		host, status, err := gcproto.DecodeForward(p)
		if err != nil {
			t.Fatal(err)
		}
		expectFields(t, out[1+i], map[string]any{"protocol": "fwd", "version": 0, "length": len(p), "host": host.String(),
			"rgrt": rgrtRecord(t, status), "frame": 2 + i})
	}
	if h := out[1]["host"]; h != "10.96.0.2" || out[1]["rgrt"].(map[string]any)["team_num"] != 17.0 {
		t.Errorf("v19 forward from %v: %v", h, out[1])
	}
	for _, r := range out[4:] {
		if r["protocol"] != "fwd" || r["error"] == nil {
			t.Errorf("broken forward: %v", r)
		}
	}
	if e, _ := out[4]["error"].(string); !strings.Contains(e, "forwarded from 10.97.0.2") {
		t.Errorf("short status message: %q, want the robot's address", e)
	}

	// --proto fwd keeps the forwards, --proto rgtr the request.
	if _, out, _ := runDecodeCmd(t, "", "--proto", "fwd", path); len(out) != 5 {
		t.Errorf("--proto fwd: %d records, want 5: %v", len(out), out)
	}
	if _, out, _ := runDecodeCmd(t, "", "--proto", "rgtr", path); len(out) != 1 || out[0]["protocol"] != "rgtr" {
		t.Errorf("--proto rgtr: %v", out)
	}
}

// TestDecodeMonitorChannelHex: in hex input a forward is recognised by the "RGrt" after
// its address, a monitor request by its header; a request the GameController would
// ignore is rejected.
func TestDecodeMonitorChannelHex(t *testing.T) {
	var in strings.Builder
	for _, f := range realForwards {
		in.WriteString(hex.EncodeToString(firstHexPacket(t, f)) + "\n")
	}
	in.WriteString("52475472 00\n52475472 01\n5247547200 00\n")
	code, out, stderr := runDecodeCmd(t, in.String())
	if code != 1 || len(out) != 5 {
		t.Fatalf("exit %d, %d records: %v\n%s", code, len(out), out, stderr)
	}
	expectFields(t, out[0], map[string]any{"protocol": "fwd", "host": "10.96.0.2", "rgrt.version": 4, "rgrt.player_num": 2})
	expectFields(t, out[1], map[string]any{"protocol": "fwd", "host": "10.97.0.2", "rgrt.pose": []float64{1500, -500, 0.25}})
	expectFields(t, out[2], map[string]any{"protocol": "rgtr", "version": 0})
	for _, r := range out[3:] {
		if r["protocol"] != "rgtr" || r["error"] == nil {
			t.Errorf("bad request: %v", r)
		}
	}
}

// The monitor channel decoders never panic; what they accept prints as a JSON object
// with protocol and version, and a forward's rgrt member is the rgrt decoder's record.
func FuzzDecodeMonitorChannel(f *testing.F) {
	f.Add(gcproto.AppendMonitorRequest(nil))
	for _, p := range realForwards {
		f.Add(firstHexPacket(f, p))
	}
	f.Add([]byte{10, 0, 0, 2})
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, d := range []*packetDecoder{packetDecoders["rgtr"], packetDecoders["fwd"]} {
			v, err := d.decode(b, &decodeOptions{})
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
			if d.proto != "fwd" {
				continue
			}
			inner, err := decodeRGrt(b[gcproto.ForwardPrefixSize:], nil)
			if err != nil {
				t.Fatalf("fwd accepted a status message rgrt rejects: %v", err)
			}
			var want map[string]any
			if err := json.Unmarshal(marshalText(inner), &want); err != nil {
				t.Fatal(err)
			}
			if g, w := marshalText(m["rgrt"]), marshalText(want); string(g) != string(w) {
				t.Fatalf("fwd's rgrt %s, rgrt decodes %s", g, w)
			}
		}
	})
}
