package main

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/robocup-dnetwork/dnetwork/proto/robocup"
)

// TestRobocupReaderOnNewerLua runs the dissector's protobuf reader on a standalone Lua 5.4
// or 5.3 (integers and floats apart, as a Wireshark built on such a Lua has them) over the
// golden messages, their truncations, corruptions and appended fields: it takes what
// robocup.Looks takes and reads the team field, player, extensions and unknown bytes as
// robocup.Decode does. (Wireshark 4.0's Lua 5.2 runs it in cmd/dnetwork's tshark tests.)
func TestRobocupReaderOnNewerLua(t *testing.T) {
	var lua string
	for _, name := range []string{"lua5.4", "lua5.3"} {
		if p, err := exec.LookPath(name); err == nil {
			lua = p
			break
		}
	}
	if lua == "" {
		t.Skip("no lua5.4 or lua5.3 (scripts/setup.sh --test installs lua5.4)")
	}
	files, _ := filepath.Glob("../../proto/robocup/testdata/golden/*.bin")
	if len(files) < 6 {
		t.Fatalf("%d golden files", len(files))
	}
	rng := rand.New(rand.NewPCG(5, 9))
	var ds [][]byte
	for _, f := range files {
		g, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; n <= len(g); n++ {
			ds = append(ds, g[:n])
		}
		for i := range 200 {
			p := bytes.Clone(g)
			for range 1 + i%3 {
				p[rng.IntN(len(p))] = byte(rng.IntN(256))
			}
			ds = append(ds, p)
		}
		for _, num := range []protowire.Number{1, 3, 8, 9, 101, 105, 108, 150} {
			for typ := range protowire.Type(8) {
				p := protowire.AppendTag(bytes.Clone(g), num, typ)
				ds = append(ds, append(p, 0x02, 0x08, 0x01, 0x10, 0x02))
			}
		}
		long := protowire.AppendTag(bytes.Clone(g), 105, protowire.VarintType)
		long = append(long, bytes.Repeat([]byte{0xff}, 9)...)
		ds = append(ds, append(bytes.Clone(long), 0x01), append(long, 0x02)) // the longest varint, one too long
	}
	var in strings.Builder
	for _, d := range ds {
		in.WriteString(hex.EncodeToString(d) + "\n")
	}
	cmd := exec.Command(lua, "testdata/robocup_check.lua", "../../wireshark/dnetwork.lua")
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", lua, err, out)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(ds) {
		t.Fatalf("%d lines for %d datagrams:\n%s", len(lines), len(ds), out)
	}
	taken := 0
	for i, d := range ds {
		if want := goReading(d); lines[i] != want {
			t.Errorf("% x: Lua reads %q, Go %q", d, lines[i], want)
		}
		if lines[i] != "-" {
			taken++
		}
	}
	t.Logf("%s: %d datagrams, %d standard messages", filepath.Base(lua), len(ds), taken)
	if taken < 100 {
		t.Errorf("only %d datagrams read", taken)
	}
}

// goReading is what robocup_check.lua prints for b, from the Go codec.
func goReading(b []byte) string {
	var p robocup.Packet
	if !robocup.Looks(b) || robocup.Decode(b, &p) != nil {
		return "-"
	}
	bb, pu := "none", "none"
	if p.HasBitBots {
		x := p.BitBots
		bb = fmt.Sprintf("%d,%d,%d,c%d", x.Role, x.Action, x.OffensiveSide, len(x.OtherRobotConfidence))
	}
	if p.HasPurposes {
		var s []string
		for _, q := range p.Purposes {
			s = append(s, fmt.Sprintf("%d:%d", q.PlayerID, q.Purpose))
		}
		pu = "[" + strings.Join(s, ",") + "]"
	}
	return fmt.Sprintf("%d %d %d %s %s", len(p.Msg.ProtoReflect().GetUnknown()), p.TeamNumber(),
		p.Msg.GetCurrentPose().GetPlayerId(), bb, pu)
}
