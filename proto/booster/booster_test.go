package booster

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/proto/booster/boostertest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata from the g++-built fixture program")

// goldens are the checked-in outputs of "gen write" for each carried header.
var goldens = []struct {
	rev  Revision
	dir  string // carried header
	file string
}{
	{RevisionMain, boostertest.Main, "main.hex"},
	{Revision2026, boostertest.Y26, "2026.hex"},
}

// wantMessage is what gen.cpp writes (team 12, player 3) in revision r.
func wantMessage(r Revision) Message {
	return Message{
		Revision: r, CommunicationID: 4711, TeamID: 12, PlayerID: 3, PlayerRole: RoleStriker,
		IsAlive: true, IsInVisualKick: r == Revision2026, BallDetected: true, BallLocationKnown: true,
		BallConfidence: 0.875, BallRange: 1.25, Cost: 3.5,
		BallPos: Point{1.5, -0.75, 0}, RobotPose: Pose{-2.25, 1, 0.5},
		KickDir: -0.25, ThetaRb: 1.125, CmdID: 42, Cmd: 100,
	}
}

var wantDiscovery = Discovery{CommunicationID: 815, TeamID: 12, PlayerID: 3}

func goldenHeader(dir string) string {
	return "# Written by testdata/gen.cpp built with g++ against testdata/" + dir + "/team_communication_msg.h.\n" +
		"# Regenerate: go test -count=1 -run '^TestGolden' ./proto/booster -update\n"
}

func readGolden(t *testing.T, file string) (msg, disc []byte) { return readGoldenF(t, file) }

func readGoldenF(t testing.TB, file string) (msg, disc []byte) {
	t.Helper()
	text, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	pk := boostertest.ParseHex(t, text)
	if len(pk) != 2 {
		t.Fatalf("%s: %d packets, want 2", file, len(pk))
	}
	return pk[0], pk[1]
}

// TestGoldenGcc builds the fixture program against each carried header and checks its
// output is the checked-in golden (or rewrites it with -update).
func TestGoldenGcc(t *testing.T) {
	for _, g := range goldens {
		t.Run(g.rev.String(), func(t *testing.T) {
			prog := boostertest.Build(t, g.dir)
			got := append([]byte(goldenHeader(g.dir)), prog.WriteText(t, 12, 3)...)
			path := filepath.Join("testdata", g.file)
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("g++ output differs from %s (run with -update if the header changed):\n%s", path, got)
			}
		})
	}
}

// TestGoldenDecode decodes the checked-in goldens and encodes the expected values back to
// the same bytes.
func TestGoldenDecode(t *testing.T) {
	for _, g := range goldens {
		t.Run(g.rev.String(), func(t *testing.T) {
			msg, disc := readGolden(t, g.file)
			if len(msg) != g.rev.Size() {
				t.Fatalf("golden message is %d bytes, want %d", len(msg), g.rev.Size())
			}
			m, err := Decode(msg)
			if err != nil {
				t.Fatal(err)
			}
			if want := wantMessage(g.rev); m != want {
				t.Fatalf("decode:\n got %+v\nwant %+v", m, want)
			}
			want := wantMessage(g.rev)
			out, err := want.Append(nil)
			if err != nil || !bytes.Equal(out, msg) {
				t.Fatalf("append: err %v\n got % x\nwant % x", err, out, msg)
			}
			d, err := DecodeDiscovery(disc)
			if err != nil || d != wantDiscovery {
				t.Fatalf("discovery: %+v, %v", d, err)
			}
			if out := wantDiscovery.Append(nil); !bytes.Equal(out, disc) {
				t.Fatalf("discovery append % x, want % x", out, disc)
			}
			if !IsMessage(msg) || IsDiscovery(msg) || !IsDiscovery(disc) || IsMessage(disc) {
				t.Fatal("IsMessage/IsDiscovery disagree with the goldens")
			}
			if team, player, ok := Peek(msg); !ok || team != 12 || player != 3 {
				t.Fatalf("Peek: %d %d %v", team, player, ok)
			}
		})
	}
}

// cFields formats m as the fixture program's "read" prints it.
func cFields(m Message) string {
	vk := -1
	if m.Revision == Revision2026 {
		vk = b2i(m.IsInVisualKick)
	}
	g := func(v float64) string { return fmt.Sprintf("%.17g", v) }
	return fmt.Sprintf("msg validation=%d communicationId=%d teamId=%d playerId=%d playerRole=%d "+
		"isAlive=%d isLead=%d isInVisualKick=%d ballDetected=%d ballLocationKnown=%d "+
		"ballConfidence=%s ballRange=%s cost=%s ball=%s,%s,%s pose=%s,%s,%s kickDir=%s thetaRb=%s cmdId=%d cmd=%d",
		Magic, m.CommunicationID, m.TeamID, m.PlayerID, m.PlayerRole,
		b2i(m.IsAlive), b2i(m.IsLead), vk, b2i(m.BallDetected), b2i(m.BallLocationKnown),
		g(m.BallConfidence), g(m.BallRange), g(m.Cost), g(m.BallPos.X), g(m.BallPos.Y), g(m.BallPos.Z),
		g(m.RobotPose.X), g(m.RobotPose.Y), g(m.RobotPose.Theta), g(m.KickDir), g(m.ThetaRb), m.CmdID, m.Cmd)
}

func b2i(v bool) int {
	if v {
		return 1
	}
	return 0
}

// TestEncodeReadByC encodes messages with every field distinct and has the C struct read
// them: each field lands where the vendor's compiler puts it.
func TestEncodeReadByC(t *testing.T) {
	for _, g := range goldens {
		t.Run(g.rev.String(), func(t *testing.T) {
			prog := boostertest.Build(t, g.dir)
			ms := []Message{
				{Revision: g.rev, CommunicationID: -7, TeamID: 31, PlayerID: 5, PlayerRole: 2,
					IsLead: true, IsInVisualKick: true, BallLocationKnown: true,
					BallConfidence: 0.1, BallRange: 2.2, Cost: 3.3, BallPos: Point{4.4, 5.5, 6.6},
					RobotPose: Pose{7.7, 8.8, -9.9}, KickDir: 10.1, ThetaRb: -11.11, CmdID: 1 << 30, Cmd: 11},
				{Revision: g.rev, TeamID: 1, PlayerID: 1, PlayerRole: 4, IsAlive: true, BallDetected: true,
					BallRange: 1e300, Cost: -1e-300},
			}
			var pk [][]byte
			var want []string
			for _, m := range ms {
				b, err := m.Append(nil)
				if err != nil {
					t.Fatal(err)
				}
				pk = append(pk, b)
				want = append(want, cFields(m))
			}
			d := Discovery{CommunicationID: 9, TeamID: 31, PlayerID: 5}
			pk = append(pk, d.Append(nil))
			want = append(want, "discovery validation=41203 communicationId=9 teamId=31 playerId=5")
			got := prog.Read(t, pk...)
			if len(got) != len(want) {
				t.Fatalf("C read %d lines, want %d: %q", len(got), len(want), got)
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("packet %d:\n   C %s\n  Go %s", i, got[i], want[i])
				}
			}
		})
	}
}

// TestDecodeMutants changes one thing of a golden at a time.
func TestDecodeMutants(t *testing.T) {
	main, disc := readGolden(t, "main.hex")
	y26, _ := readGolden(t, "2026.hex")
	mut := func(b []byte, f func([]byte)) []byte { c := bytes.Clone(b); f(c); return c }
	cases := []struct {
		name string
		b    []byte
		want error
	}{
		{"short", main[:Size-1], ErrLength},
		{"long", append(bytes.Clone(main), 0), ErrLength},
		{"2026 short", y26[:Size2026-1], ErrLength},
		{"discovery as message", disc, ErrLength},
		{"empty", nil, ErrLength},
		{"magic", mut(main, func(b []byte) { b[0]++ }), ErrMagic},
		{"magic big-endian", mut(main, func(b []byte) { binary.BigEndian.PutUint32(b, Magic) }), ErrMagic},
		{"2026 magic", mut(y26, func(b []byte) { b[3] = 1 }), ErrMagic},
		{"isAlive 2", mut(main, func(b []byte) { b[offIsAlive] = 2 }), ErrBool},
		{"ballLocationKnown 0xff", mut(main, func(b []byte) { b[offBallLocationKnown] = 0xff }), ErrBool},
		{"2026 isInVisualKick 3", mut(y26, func(b []byte) { b[off2026IsInVisualKick] = 3 }), ErrBool},
		{"2026 ballLocationKnown 2", mut(y26, func(b []byte) { b[off2026BallLocationKnown] = 2 }), ErrBool},
	}
	for _, c := range cases {
		if _, err := Decode(c.b); !errors.Is(err, c.want) {
			t.Errorf("%s: err %v, want %v", c.name, err, c.want)
		}
	}
	// Padding is ignored, and written back as zero.
	noisy := mut(y26, func(b []byte) {
		for i := off2026BallLocationKnown + 1; i < off2026Doubles; i++ {
			b[i] = 0xa5
		}
	})
	m, err := Decode(noisy)
	if err != nil || m != wantMessage(Revision2026) {
		t.Fatalf("padding: %+v, %v", m, err)
	}
	// A main message ignores IsInVisualKick; a message of no revision is refused.
	vk := wantMessage(RevisionMain)
	vk.IsInVisualKick = true
	if b, err := vk.Append(nil); err != nil || !bytes.Equal(b, main) {
		t.Fatalf("main with isInVisualKick: % x, %v", b, err)
	}
	bad := wantMessage(0)
	if b, err := bad.Append([]byte{1}); !errors.Is(err, ErrRevision) || !bytes.Equal(b, []byte{1}) {
		t.Fatalf("revision 0: % x, %v", b, err)
	}
	// Discovery.
	for name, b := range map[string][]byte{
		"short": disc[:15], "long": append(bytes.Clone(disc), 0), "message": main,
	} {
		if _, err := DecodeDiscovery(b); !errors.Is(err, ErrLength) {
			t.Errorf("discovery %s: %v", name, err)
		}
	}
	if _, err := DecodeDiscovery(mut(disc, func(b []byte) { b[1] = 0 })); !errors.Is(err, ErrMagic) {
		t.Errorf("discovery magic: %v", err)
	}
	if _, _, ok := Peek(mut(main, func(b []byte) { b[0] = 0 })); ok {
		t.Error("Peek accepted a wrong magic")
	}
}

func TestRoleName(t *testing.T) {
	for _, c := range []struct {
		r    Revision
		role int32
		want string
	}{
		{RevisionMain, 1, "striker"}, {RevisionMain, 2, "goal_keeper"}, {RevisionMain, 3, "unknown"},
		{RevisionMain, 4, "undefined"}, {Revision2026, 3, "defender"}, {Revision2026, 4, "unknown"},
		{Revision2026, 0, "undefined"}, {Revision2026, -1, "undefined"},
	} {
		if got := RoleName(c.r, c.role); got != c.want {
			t.Errorf("RoleName(%v, %d) = %q, want %q", c.r, c.role, got, c.want)
		}
	}
}
