package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"math"
	"math/rand/v2"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	wi "github.com/robocup-dnetwork/dnetwork/proto/worldinfo"
	"github.com/robocup-dnetwork/dnetwork/transport"
	"github.com/robocup-dnetwork/dnetwork/transport/capture"
)

// The Wireshark dissector (wireshark/dnetwork.lua) against "dnetwork decode": a capture
// of every golden packet of the codecs goes through tshark with the dissector and
// through decode, and every member decode prints must be a field of the dissector with
// the same value (field dnetwork.<proto>.<path>, path the member's keys joined by dots).

const dissectorPath = "../../wireshark/dnetwork.lua"

// dissectorPrefix maps decode's protocol names to the dissector's field prefixes.
var dissectorPrefix = map[string]string{
	"gamecontroller": "dnetwork.gc.",
	"rgrt":           "dnetwork.rgrt.",
	"rgtr":           "dnetwork.rgtr.",
	"fwd":            "dnetwork.fwd.", // its "rgrt" member: the return packet's dnetwork.rgrt.* fields
	"teaminfo-dnet":  "dnetwork.dnet.",
	"teaminfo-zju":   "dnetwork.zju.",
	"worldinfo":      "dnetwork.wi.",

	"booster":           "dnetwork.booster.",
	"booster-discovery": "dnetwork.booster_discovery.",
	// the HL standard protobuf: message.<path> in protobuf's JSON names, then decode's
	// team_number, colour, bitbots, nubots_purposes and unknown_bytes
	"teaminfo-robocup": "dnetwork.robocup.",
}

// dissectorField is the dissector's field for the member at path of a decode record of
// proto: a forward's return packet (member "rgrt") is dissected as a return packet.
func dissectorField(proto, path string) string {
	if rest, ok := strings.CutPrefix(path, "rgrt."); ok && proto == "fwd" {
		return dissectorPrefix["rgrt"] + rest
	}
	return dissectorPrefix[proto] + path
}

// notDissected are the members of decode's output the dissector does not show, by
// protocol: what needs a key (the dnet tag check; TestWiresharkDissectorKey sets one),
// derived views and units, the bodies of world info records (the dissector shows the
// header and the record list), and the forward's version (the monitor channel's; the
// datagram has none).
func notDissected(proto, path string) bool {
	if rest, ok := strings.CutPrefix(path, "rgrt."); ok && proto == "fwd" {
		return notDissected("rgrt", rest)
	}
	switch path {
	case "protocol", "frame", "capture_time", "src", "dst", "interface", "direction", "length", "units.length",
		"units.angle", "units.time":
		return true
	}
	switch proto {
	case "gamecontroller":
		return path == "drop_ball"
	case "teaminfo-dnet":
		return path == "authenticated"
	case "fwd":
		return path == "version"
	case "worldinfo":
		if !strings.HasPrefix(path, "records.") {
			return false
		}
		switch path {
		case "records.offset", "records.type", "records.type_name", "records.size":
			return false
		}
		return true
	}
	return false
}

// goldenDatagram is one datagram of the test capture.
type goldenDatagram struct {
	name    string
	port    uint16
	payload []byte
}

// hexPackets returns the packets of a hex golden file: one per line, # comments.
func hexPackets(t *testing.T, path string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ps [][]byte
	for _, line := range strings.Split(string(b), "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p, err := hex.DecodeString(strings.ReplaceAll(line, " ", ""))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		ps = append(ps, p)
	}
	return ps
}

// goldenDatagrams returns every golden packet of the codecs on its port, plus the
// return packets the codec writes for v2 and v3, a monitor request, and broken packets
// the dissector must flag.
func goldenDatagrams(t *testing.T) []goldenDatagram {
	t.Helper()
	var ds []goldenDatagram
	gcFiles, _ := filepath.Glob("../../proto/gamecontroller/testdata/*.hex")
	teamFiles, _ := filepath.Glob("../../proto/teaminfo/testdata/*.hex")
	if len(gcFiles) < 12 || len(teamFiles) < 5 {
		t.Fatalf("golden files: %d GameController, %d team", len(gcFiles), len(teamFiles))
	}
	for _, f := range gcFiles {
		port := uint16(gcproto.ControlPort)
		if strings.Contains(f, "forward") {
			port = gcproto.StatusForwardPort
		}
		for _, p := range hexPackets(t, f) {
			ds = append(ds, goldenDatagram{filepath.Base(f), port, p})
		}
	}
	for _, f := range teamFiles {
		for _, p := range hexPackets(t, f) {
			ds = append(ds, goldenDatagram{filepath.Base(f), gcproto.TeamPortBase + 17, p})
		}
	}
	// The HL standard protobuf, written by the official .proto and the teams' extensions
	// through protoc (proto/robocup/testdata/fixtures.py), on a team port.
	robocupFiles, _ := filepath.Glob("../../proto/robocup/testdata/golden/*.bin")
	if len(robocupFiles) < 6 {
		t.Fatalf("golden files: %d robocup", len(robocupFiles))
	}
	for _, f := range robocupFiles {
		p, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, goldenDatagram{filepath.Base(f), gcproto.TeamPortBase + 17, p})
	}
	vectors, err := os.ReadFile("../../proto/worldinfo/testdata/vectors.txt")
	if err != nil {
		t.Fatal(err)
	}
	// The ciphertexts under the default key, as the robots send them (not the empty
	// plaintext's, which no receiver takes for world info).
	name, key, plain, n := "", "", "", 0
	for _, line := range strings.Split(string(vectors), "\n") {
		switch f := strings.Fields(line); {
		case len(f) == 2 && f[0] == "name":
			name = f[1]
		case len(f) == 2 && f[0] == "key":
			key = f[1]
		case len(f) >= 1 && f[0] == "plain":
			plain = strings.Join(f[1:], "")
		case len(f) == 2 && f[0] == "cipher" && key == wi.DefaultKey && plain != "":
			p, err := hex.DecodeString(f[1])
			if err != nil {
				t.Fatal(err)
			}
			ds = append(ds, goldenDatagram{"worldinfo " + name, wi.DefaultPort, p})
			n++
		}
	}
	if n < 10 {
		t.Fatalf("%d world info vectors", n)
	}
	for _, r := range []gcproto.ReturnPacket{
		{Version: gcproto.ReturnVersionHL, Team: 17, Player: 3, Message: gcproto.MsgGoalkeeper},
		{Version: gcproto.ReturnVersionSPL3, Team: 5, Player: 20, Message: gcproto.MsgAliveV3},
	} {
		b, err := r.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, goldenDatagram{fmt.Sprintf("return v%d", r.Version), gcproto.ReturnPort, b})
	}
	ds = append(ds, goldenDatagram{"monitor request", gcproto.MonitorRequestPort, gcproto.AppendMonitorRequest(nil)})
	ds = append(ds, boosterDatagrams(t)...)
	return ds
}

// pdmlField is a field or protocol of tshark's PDML output.
type pdmlField struct {
	Name     string      `xml:"name,attr"`
	Show     string      `xml:"show,attr"`
	ShowName string      `xml:"showname,attr"`
	Fields   []pdmlField `xml:"field"`
	Protos   []pdmlField `xml:"proto"`
}

// dissected is what the dissector showed of one datagram: the values of each field in
// tree order.
type dissected map[string][]string

func (d dissected) walk(fs []pdmlField) {
	for _, f := range fs {
		if strings.HasPrefix(f.Name, "dnetwork.") || strings.HasPrefix(f.Name, "_ws.lua") {
			d[f.Name] = append(d[f.Name], f.Show)
		}
		d.walk(f.Fields)
		d.walk(f.Protos)
	}
}

// runTshark dissects the capture at path with the dissector; one dissected per frame.
func runTshark(t *testing.T, tshark, path string, args ...string) []dissected {
	t.Helper()
	script, err := filepath.Abs(dissectorPath)
	if err != nil {
		t.Fatal(err)
	}
	// -J: only the dissector's protocols, with every field below them
	cmd := exec.Command(tshark, "-n", "-X", "lua_script:"+script, "-r", path, "-T", "pdml",
		"-J", "dnetwork_gc dnetwork_rgrt dnetwork_rgtr dnetwork_fwd dnetwork_dnet dnetwork_zju dnetwork_wi dnetwork_booster dnetwork_booster_discovery dnetwork_robocup")
	cmd.Args = append(cmd.Args, args...)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir()) // no user plugins or preferences
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tshark: %v\n%s", err, stderr.String())
	}
	if s := stderr.String(); strings.Contains(s, "Lua") || strings.Contains(s, "lua") {
		t.Fatalf("tshark reports a Lua error:\n%s", s)
	}
	var doc struct {
		Packets []struct {
			Protos []pdmlField `xml:"proto"`
		} `xml:"packet"`
	}
	if err := xml.Unmarshal(out, &doc); err != nil {
		t.Fatalf("PDML: %v", err)
	}
	frames := make([]dissected, len(doc.Packets))
	for i, p := range doc.Packets {
		frames[i] = dissected{}
		frames[i].walk(p.Protos)
	}
	// A Lua error is in none of the dissector's protocols: a second pass collects them
	// as the frame's "_ws.lua.error".
	cmd = exec.Command(tshark, "-n", "-X", "lua_script:"+script, "-r", path, "-T", "fields",
		"-e", "frame.number", "-e", "_ws.lua.error")
	cmd.Args = append(cmd.Args, args...)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	out, err = cmd.Output()
	if err != nil {
		t.Fatalf("tshark: %v", err)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.SplitN(l, "\t", 2)
		if n, _ := strconv.Atoi(f[0]); len(f) == 2 && f[1] != "" && n >= 1 && n <= len(frames) {
			frames[n-1]["_ws.lua.error"] = append(frames[n-1]["_ws.lua.error"], f[1])
		}
	}
	return frames
}

// flatten collects the leaves of a decoded JSON value by dotted path, in order.
func flatten(v any, path string, out map[string][]any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			p := k
			if path != "" {
				p = path + "." + k
			}
			flatten(e, p, out)
		}
	case []any:
		for _, e := range x {
			flatten(e, path, out)
		}
	case nil:
	default:
		out[path] = append(out[path], x)
	}
}

// sameValue reports whether the dissector's show text equals decode's JSON value.
func sameValue(path string, show string, want any) bool {
	switch w := want.(type) {
	case bool:
		return show == map[bool]string{true: "1", false: "0"}[w]
	case float64:
		got, err := strconv.ParseFloat(show, 64)
		if err != nil {
			return false
		}
		return got == w || math.Abs(got-w) <= 1e-5*math.Max(1, math.Abs(w))
	case string:
		switch w {
		case "NaN":
			return strings.HasSuffix(show, "nan")
		case "+Inf", "Infinity": // decode's and protobuf JSON's spelling
			return show == "inf"
		case "-Inf", "-Infinity":
			return show == "-inf"
		}
		if path == "message.timestamp" { // protobuf JSON's RFC 3339; Wireshark's UTC time
			w, err1 := time.Parse(time.RFC3339Nano, w)
			got, err2 := time.Parse("Jan _2, 2006 15:04:05.999999999 MST", show)
			return err1 == nil && err2 == nil && got.Equal(w)
		}
		if strings.HasSuffix(path, "coach_message") {
			h := strings.ReplaceAll(show, ":", "")
			for strings.HasSuffix(h, "00") {
				h = strings.TrimSuffix(h, "00")
			}
			return h == w
		}
		return show == w
	}
	return false
}

// compareFrame compares decode's record rec with the dissector's fields d and returns
// the number of values compared.
func compareFrame(t *testing.T, label string, rec map[string]any, d dissected) int {
	t.Helper()
	proto, _ := rec["protocol"].(string)
	if _, ok := dissectorPrefix[proto]; !ok {
		t.Errorf("%s: decode's protocol %q has no dissector", label, proto)
		return 0
	}
	leaves := map[string][]any{}
	flatten(rec, "", leaves)
	paths := make([]string, 0, len(leaves))
	for p := range leaves {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	n := 0
	for _, p := range paths {
		if notDissected(proto, p) {
			continue
		}
		f := dissectorField(proto, p)
		want, got := leaves[p], d[f]
		if len(got) != len(want) {
			t.Errorf("%s: %s: dissector shows %d values %q, decode prints %d %v", label, f, len(got), got, len(want), want)
			continue
		}
		for i := range want {
			if !sameValue(p, got[i], want[i]) {
				t.Errorf("%s: %s[%d]: dissector %q, decode %v", label, f, i, got[i], want[i])
			}
			n++
		}
	}
	return n
}

func TestWiresharkDissector(t *testing.T) {
	tshark, err := exec.LookPath("tshark")
	if err != nil {
		t.Skip("tshark is not installed (scripts/setup.sh --test installs it)")
	}
	ds := goldenDatagrams(t)
	// Broken packets: a dnet packet with one bit flipped (bad checksum) and an SPL v18
	// packet one byte short.
	var crcFrame, shortFrame int
	for _, d := range ds {
		if d.name == "dnet-v2-checked.hex" {
			bad := bytes.Clone(d.payload)
			bad[40] ^= 0x01
			ds = append(ds, goldenDatagram{"dnet-v2-checked.hex, bit flipped", d.port, bad})
			crcFrame = len(ds)
		}
		if d.name == "spl18.hex" {
			ds = append(ds, goldenDatagram{"spl18.hex, one byte short", d.port, d.payload[:len(d.payload)-1]})
			shortFrame = len(ds)
		}
	}
	if crcFrame == 0 || shortFrame == 0 {
		t.Fatal("dnet-v2-checked.hex or spl18.hex missing")
	}
	flagged := map[int]string{} // frame: the expert info the dissector must add
	for _, b := range boosterBroken(t, ds) {
		ds = append(ds, b.goldenDatagram)
		flagged[len(ds)] = b.expert
	}
	// Broken monitor channel datagrams: decode rejects each, the dissector flags it.
	rejected := map[int]string{} // frame: the expert info the dissector must add
	for _, d := range ds {
		if d.name != "hsl20-real-forward.hex" {
			continue
		}
		robot := d.payload[:gcproto.ForwardPrefixSize]
		for _, b := range []struct {
			name, expert string
			port         uint16
			payload      []byte
		}{
			{"forward, status message one byte short", "dnetwork.rgrt.bad_size", d.port, d.payload[:len(d.payload)-1]},
			{"forward of 3 bytes", "dnetwork.fwd.short", d.port, robot[:3]},
			{"forward, empty status message", "dnetwork.fwd.not_return", d.port, robot},
			{"forward, status message not RGrt", "dnetwork.fwd.not_return", d.port, append(bytes.Clone(robot), "hello, GameController"...)},
			{"monitor request version 1", "dnetwork.rgtr.bad", gcproto.MonitorRequestPort, []byte("RGTr\x01")},
			{"monitor request of 6 bytes", "dnetwork.rgtr.bad", gcproto.MonitorRequestPort, []byte("RGTr\x00\x00")},
		} {
			ds = append(ds, goldenDatagram{b.name, b.port, b.payload})
			rejected[len(ds)] = b.expert
		}
	}
	if len(rejected) == 0 {
		t.Fatal("hsl20-real-forward.hex missing")
	}
	t0 := time.Date(2026, 12, 7, 6, 0, 0, 0, time.UTC)
	recs := make([]capture.Record, len(ds))
	for i, d := range ds {
		recs[i] = capture.Record{Dir: transport.Received, Time: t0.Add(time.Duration(i) * time.Millisecond),
			Src: netip.MustParseAddrPort("10.0.17.2:41000"), Dst: netip.AddrPortFrom(netip.MustParseAddr("10.0.17.255"), d.port),
			Payload: d.payload}
	}
	path := writePcapng(t, recs...)

	if dir := os.Getenv("DNETWORK_KEEP_CAPTURE"); dir != "" { // to look at it in Wireshark
		b, _ := os.ReadFile(path)
		_ = os.WriteFile(filepath.Join(dir, "golden.pcapng"), b, 0o644)
	}
	frames := runTshark(t, tshark, path)
	if len(frames) != len(ds) {
		t.Fatalf("tshark read %d frames, the capture has %d", len(frames), len(ds))
	}
	_, decoded, stderr := runDecodeCmd(t, "", path)
	byFrame := map[int]map[string]any{}
	for _, r := range decoded {
		byFrame[int(r["frame"].(float64))] = r
	}

	total := 0
	for i, d := range ds {
		frame, label := i+1, fmt.Sprintf("frame %d (%s)", i+1, d.name)
		got := frames[i]
		if e := got["_ws.lua.error"]; e != nil {
			t.Errorf("%s: Lua error %q", label, e)
		}
		switch {
		case frame == crcFrame:
			if r := byFrame[frame]; r == nil || !strings.Contains(fmt.Sprint(r["error"]), "checksum") {
				t.Errorf("%s: decode: %v, want a checksum error", label, r)
			}
			if got["dnetwork.dnet.bad_checksum"] == nil || fmt.Sprint(got["dnetwork.dnet.checked"]) != "[0]" {
				t.Errorf("%s: the dissector does not flag the checksum: %v", label, got)
			}
		case frame == shortFrame:
			if r := byFrame[frame]; r == nil || r["error"] == nil {
				t.Errorf("%s: decode: %v, want an error", label, r)
			}
			if got["dnetwork.gc.bad_size"] == nil {
				t.Errorf("%s: the dissector does not flag the size: %v", label, got)
			}
		case flagged[frame] != "":
			if r := byFrame[frame]; r != nil && r["error"] == nil { // decode skips what matches no protocol
				t.Errorf("%s: decode: %v, want an error", label, r)
			}
			if got[flagged[frame]] == nil {
				t.Errorf("%s: the dissector does not add %s: %v", label, flagged[frame], got)
			}
		case rejected[frame] != "":
			if r := byFrame[frame]; r == nil || r["error"] == nil {
				t.Errorf("%s: decode: %v, want an error", label, r)
			}
			if got[rejected[frame]] == nil {
				t.Errorf("%s: the dissector does not add %s: %v", label, rejected[frame], got)
			}
		case d.port == gcproto.StatusForwardPort || d.port == gcproto.MonitorRequestPort:
			// The monitor channel: decode's fwd record holds the robot's address as host
			// and the return packet under "rgrt", the dissector the same as dnetwork.fwd.host
			// and the return packet's fields.
			r := byFrame[frame]
			if want := map[uint16]string{gcproto.StatusForwardPort: "fwd", gcproto.MonitorRequestPort: "rgtr"}[d.port]; r == nil ||
				r["error"] != nil || r["protocol"] != want {
				t.Errorf("%s: decode: %v, want %s", label, r, want)
				continue
			}
			if n := compareFrame(t, label, r, got); n < 2 {
				t.Errorf("%s: %d values compared", label, n)
			} else {
				total += n
			}
			for f := range got {
				if strings.Contains(f, ".bad") || strings.HasSuffix(f, ".short") {
					t.Errorf("%s: the dissector flags a good packet: %s", label, f)
				}
			}
		default:
			r := byFrame[frame]
			if r == nil || r["error"] != nil {
				t.Errorf("%s: decode: %v\n%s", label, r, stderr)
				continue
			}
			if n := compareFrame(t, label, r, got); n == 0 {
				t.Errorf("%s: no value compared", label)
			} else {
				total += n
			}
			for f := range got {
				if strings.Contains(f, ".bad") || strings.HasSuffix(f, "out_of_range") {
					t.Errorf("%s: the dissector flags a good packet: %s", label, f)
				}
			}
		}
	}
	t.Logf("%d datagrams, %d values compared", len(ds), total)
	if t.Failed() {
		b, _ := json.Marshal(frames[0])
		t.Logf("frame 1 as dissected: %s", b)
	}
}

// TestWiresharkDissectorCaptures: the real GameController captures of testdata/captures
// (control, return and dnet packets as they were on the wire) through the dissector and
// decode; every datagram decode prints must be dissected alike.
func TestWiresharkDissectorCaptures(t *testing.T) {
	tshark, err := exec.LookPath("tshark")
	if err != nil {
		t.Skip("tshark is not installed (scripts/setup.sh --test installs it)")
	}
	files, _ := filepath.Glob("../../testdata/captures/*.pcap")
	if len(files) == 0 {
		t.Fatal("no captures in testdata/captures")
	}
	for _, f := range files {
		frames := runTshark(t, tshark, f)
		_, decoded, _ := runDecodeCmd(t, "", f)
		n, total := 0, 0
		for _, r := range decoded {
			i := int(r["frame"].(float64))
			label := fmt.Sprintf("%s frame %d", filepath.Base(f), i)
			if i < 1 || i > len(frames) || r["error"] != nil {
				t.Errorf("%s: decode: %v", label, r)
				continue
			}
			total += compareFrame(t, label, r, frames[i-1])
			n++
		}
		if n == 0 {
			t.Errorf("%s: nothing decoded", f)
		}
		t.Logf("%s: %d datagrams, %d values compared", filepath.Base(f), n, total)
	}
}

// TestWiresharkDissectorBadInput: truncated and corrupted golden packets on their ports
// never make the dissector fail with a Lua error (it flags them instead).
func TestWiresharkDissectorBadInput(t *testing.T) {
	tshark, err := exec.LookPath("tshark")
	if err != nil {
		t.Skip("tshark is not installed (scripts/setup.sh --test installs it)")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var recs []capture.Record
	add := func(port uint16, p []byte) {
		recs = append(recs, capture.Record{Time: time.Unix(int64(len(recs)), 0),
			Src: netip.MustParseAddrPort("10.0.17.2:41000"), Dst: netip.AddrPortFrom(netip.MustParseAddr("10.0.17.255"), port),
			Payload: p})
	}
	for _, d := range goldenDatagrams(t) {
		for n := 0; n < len(d.payload); n++ {
			if n < 12 || n%17 == 0 || n > len(d.payload)-4 {
				add(d.port, d.payload[:n])
			}
		}
		for range 8 {
			p := bytes.Clone(d.payload)
			p[rng.IntN(len(p))] = byte(rng.IntN(256))
			add(d.port, p)
		}
	}
	path := writePcapng(t, recs...)
	script, _ := filepath.Abs(dissectorPath)
	cmd := exec.Command(tshark, "-n", "-X", "lua_script:"+script, "-r", path, "-T", "fields", "-e", "frame.number", "-e", "_ws.lua.error",
		"-e", "_ws.expert.severity")
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tshark: %v", err)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != len(recs) {
		t.Fatalf("tshark read %d frames, the capture has %d", len(lines), len(recs))
	}
	severity := make([]string, len(lines))
	for i, l := range lines {
		f := strings.Split(l, "\t")
		if len(f) != 3 {
			t.Fatalf("tshark line %q", l)
		}
		if f[1] != "" {
			t.Errorf("frame %s: Lua error (tshark -X lua_script:wireshark/dnetwork.lua -V shows it)", f[0])
		}
		severity[i] = f[2]
	}
	// Where the dissector takes a datagram for Booster, it flags an error exactly when
	// decode does not accept it as Booster (an error, no record, or another protocol).
	_, decoded, _ := runDecodeCmd(t, "", path)
	accepted := map[int]bool{}
	for _, r := range decoded {
		proto, _ := r["protocol"].(string)
		accepted[int(r["frame"].(float64))] = r["error"] == nil && strings.HasPrefix(proto, "booster")
	}
	nb := checkBoosterFlagged(t, func(i int) uint16 { return recs[i-1].Dst.Port() },
		func(i int) []byte { return recs[i-1].Payload }, severity, accepted)
	t.Logf("%d datagrams, %d of them Booster", len(recs), nb)
}

// TestWiresharkDissectorKey: with the team's key (preference dnetwork_dnet.key, decode's
// --auth-key) the dissector checks the dnet tags as decode does.
func TestWiresharkDissectorKey(t *testing.T) {
	tshark, err := exec.LookPath("tshark")
	if err != nil {
		t.Skip("tshark is not installed (scripts/setup.sh --test installs it)")
	}
	const key = "team17-shared-secret" // the key of the tagged goldens (their comments)
	var ds []goldenDatagram
	for _, d := range goldenDatagrams(t) {
		if strings.HasPrefix(d.name, "dnet-") {
			ds = append(ds, d)
			if d.name == "dnet-v2-tagged.hex" {
				bad := bytes.Clone(d.payload)
				bad[30] ^= 0x80
				ds = append(ds, goldenDatagram{d.name + ", bit flipped", d.port, bad})
			}
		}
	}
	recs := make([]capture.Record, len(ds))
	for i, d := range ds {
		recs[i] = capture.Record{Time: time.Unix(int64(i), 0), Src: netip.MustParseAddrPort("10.0.17.2:41000"),
			Dst: netip.AddrPortFrom(netip.MustParseAddr("10.0.17.255"), d.port), Payload: d.payload}
	}
	path := writePcapng(t, recs...)
	frames := runTshark(t, tshark, path, "-o", "dnetwork_dnet.key:"+key)
	_, decoded, _ := runDecodeCmd(t, "", "--auth-key", key, path)
	if len(frames) != len(ds) || len(decoded) != len(ds) {
		t.Fatalf("%d frames, %d decoded, want %d", len(frames), len(decoded), len(ds))
	}
	tagged := 0
	for i, d := range ds {
		label, got, r := fmt.Sprintf("frame %d (%s)", i+1, d.name), frames[i], decoded[i]
		switch {
		case strings.Contains(d.name, "flipped"):
			if !strings.Contains(fmt.Sprint(r["error"]), "tag") || got["dnetwork.dnet.bad_tag"] == nil ||
				fmt.Sprint(got["dnetwork.dnet.authenticated"]) != "[0]" {
				t.Errorf("%s: decode %v; dissector %v", label, r["error"], got)
			}
		case strings.Contains(d.name, "tagged"):
			tagged++
			if r["authenticated"] != true || fmt.Sprint(got["dnetwork.dnet.authenticated"]) != "[1]" {
				t.Errorf("%s: decode authenticated %v, dissector %v", label, r["authenticated"], got["dnetwork.dnet.authenticated"])
			}
			compareFrame(t, label, r, got)
		default: // no tag, but a key
			if r["error"] == nil || got["dnetwork.dnet.no_tag"] == nil {
				t.Errorf("%s: decode %v; dissector %v", label, r["error"], got)
			}
		}
	}
	if tagged != 2 {
		t.Errorf("%d tagged goldens, want 2", tagged)
	}
}
