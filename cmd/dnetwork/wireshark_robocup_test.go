package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"os/exec"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/transport/capture"
)

// TestWiresharkDissectorRobocup: the dissector tells the HL standard protobuf on a team
// port by content as decode does (robocup.Looks) and reads it alike. Every golden
// message, each of its truncations and random corruptions of it go through tshark and
// decode: a datagram is a robocup message for both or for neither, and where both read
// it every value decode prints is the dissector's; where decode rejects one (a timestamp
// outside protobuf's range) the dissector flags it.
func TestWiresharkDissectorRobocup(t *testing.T) {
	tshark, err := exec.LookPath("tshark")
	if err != nil {
		t.Skip("tshark is not installed (scripts/setup.sh --test installs it)")
	}
	rng := rand.New(rand.NewPCG(3, 7))
	var ds []goldenDatagram
	for _, d := range goldenDatagrams(t) {
		if !strings.HasSuffix(d.name, ".bin") {
			continue
		}
		for n := 1; n < len(d.payload); n++ {
			ds = append(ds, goldenDatagram{fmt.Sprintf("%s[:%d]", d.name, n), d.port, d.payload[:n]})
		}
		for i := range 100 {
			p := bytes.Clone(d.payload)
			for range 1 + i%3 {
				p[rng.IntN(len(p))] = byte(rng.IntN(256))
			}
			ds = append(ds, goldenDatagram{fmt.Sprintf("%s corrupted %d", d.name, i), d.port, p})
		}
		// a field appended: a standard, reserved or extension number (or none), any
		// wire type, random bytes after the tag (varints of every length, groups, ...)
		nums := []protowire.Number{0, 1, 2, 3, 8, 9, 100, 101, 104, 105, 108, 200, 1 << 20}
		for i := range 100 {
			p := protowire.AppendTag(bytes.Clone(d.payload), nums[rng.IntN(len(nums))], protowire.Type(rng.IntN(8)))
			for range rng.IntN(12) {
				b := byte(rng.IntN(256))
				if i%2 == 0 {
					b |= 0x80 // long varints
				}
				p = append(p, b)
			}
			ds = append(ds, goldenDatagram{fmt.Sprintf("%s appended %d", d.name, i), d.port, p})
		}
		// edges: the longest varint and one that overflows; Bit-Bots' packed floats
		// whole and cut; NUbots' purposes with a cut entry; timestamps outside protobuf's
		// range (seconds 2^40, nanos -1); a group, and one closed by another number
		long := bytes.Repeat([]byte{0xff}, 9)
		for i, tail := range [][]byte{
			append(protowire.AppendTag(nil, 105, protowire.VarintType), append(long, 0x01)...),
			append(protowire.AppendTag(nil, 105, protowire.VarintType), append(long, 0x02)...),
			protowire.AppendBytes(protowire.AppendTag(nil, 108, protowire.BytesType), make([]byte, 8)),
			protowire.AppendBytes(protowire.AppendTag(nil, 108, protowire.BytesType), make([]byte, 7)),
			protowire.AppendBytes(protowire.AppendTag(nil, 101, protowire.BytesType), []byte{0x0a, 0x01, 0x08}),
			protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), protowire.AppendVarint([]byte{0x08}, 1<<40)),
			protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), protowire.AppendVarint([]byte{0x10}, 1<<64-1)),
			protowire.AppendTag(protowire.AppendVarint(protowire.AppendTag(protowire.AppendTag(nil, 150, protowire.StartGroupType),
				1, protowire.VarintType), 7), 150, protowire.EndGroupType),
			protowire.AppendTag(protowire.AppendTag(nil, 150, protowire.StartGroupType), 151, protowire.EndGroupType),
		} {
			ds = append(ds, goldenDatagram{fmt.Sprintf("%s edge %d", d.name, i), d.port, append(bytes.Clone(d.payload), tail...)})
		}
	}
	recs := make([]capture.Record, len(ds))
	for i, d := range ds {
		recs[i] = capture.Record{Time: time.Unix(int64(i), 0), Src: netip.MustParseAddrPort("10.0.17.2:41000"),
			Dst: netip.AddrPortFrom(netip.MustParseAddr("10.0.17.255"), gcproto.TeamPortBase+17), Payload: d.payload}
	}
	path := writePcapng(t, recs...)
	frames := runTshark(t, tshark, path)
	if len(frames) != len(ds) {
		t.Fatalf("tshark read %d frames, the capture has %d", len(frames), len(ds))
	}
	_, decoded, _ := runDecodeCmd(t, "", "--proto", "teaminfo-robocup", path)
	byFrame := map[int]map[string]any{}
	for _, r := range decoded {
		byFrame[int(r["frame"].(float64))] = r
	}
	var both, neither, rejected, total int
	for i, d := range ds {
		label, got, r := fmt.Sprintf("frame %d (%s)", i+1, d.name), frames[i], byFrame[i+1]
		if e := got["_ws.lua.error"]; e != nil {
			t.Errorf("%s: Lua error %q", label, e)
		}
		dissected := got["dnetwork.robocup.version"] != nil
		switch {
		case r == nil:
			neither++
			if dissected {
				t.Errorf("%s: the dissector shows a robocup message decode does not take: % x", label, d.payload)
			}
		case !dissected:
			t.Errorf("%s: decode takes it (%v), the dissector does not: % x", label, r["error"], d.payload)
		case r["error"] != nil:
			rejected++
			if got["dnetwork.robocup.bad_timestamp"] == nil {
				t.Errorf("%s: decode rejects it (%v), the dissector does not flag it", label, r["error"])
			}
		default:
			both++
			total += compareFrame(t, label, r, got)
		}
	}
	t.Logf("%d datagrams: %d read by both (%d values compared), %d rejected by decode, %d by neither",
		len(ds), both, total, rejected, neither)
	if both < 100 || neither < 100 {
		t.Errorf("too few of one kind: %d read, %d not", both, neither)
	}
}
