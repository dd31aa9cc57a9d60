package gamecontroller

import (
	"bytes"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// goldenLayout describes a layout with offsets taken from the C headers (see the package
// documentation), written out here independently of the package's own tables, and the
// values of its golden scenario.
type goldenLayout struct {
	l       Layout
	file    string
	size    int
	family  string // "hl", "spl", "hsl"
	version int
	teams   [2]int // absolute offsets of the two TeamInfo blocks
	head    string // TeamInfo head: "hl", "spl12", "spl14", "spl15"
	players int    // offset of players[] inside TeamInfo
	robot   int    // sizeof(RobotInfo)
	n       int    // MAX_NUM_PLAYERS
	// offsets inside RobotInfo, -1 when absent
	warn, yellow, red, goalie int

	// scenario
	state     uint8
	setPlay   uint8 // wire value (HL secondaryState)
	phase     uint8 // SPL/HSL gamePhase byte
	pen2      uint8 // penalty of team 0, player 2
	sub       uint8 // penalty of team 1's last player (the substitute code)
	wantPhase GamePhase
	wantPlay  SetPlay
}

var goldenLayouts = []goldenLayout{
	{LayoutHL640, "hl12-640", 640, "hl", 12, [2]int{24, 332}, "hl", 264, 4, 11, -1, 2, 3, -1,
		3, 4, 0, 34, 14, GamePhaseNormal, SetPlayDirectFreeKick},
	{LayoutHL664, "hl12-664", 664, "hl", 12, [2]int{24, 344}, "hl", 265, 5, 11, -1, 2, 3, 4,
		1, 1, 0, 31, 14, GamePhasePenaltyShoot, SetPlayNone},
	{LayoutHL688, "hl12-688", 688, "hl", 12, [2]int{24, 356}, "hl", 266, 6, 11, 2, 3, 4, 5,
		3, 9, 0, 255, 14, GamePhaseNormal, SetPlayThrowIn},
	{LayoutSPL12, "spl12", 54, "spl", 12, [2]int{18, 36}, "spl12", 6, 2, 6, -1, -1, -1, -1,
		2, 4, 0, 10, 14, GamePhaseNormal, SetPlayThrowIn},
	{LayoutSPL13, "spl13", 54, "spl", 13, [2]int{18, 36}, "spl12", 6, 2, 6, -1, -1, -1, -1,
		3, 5, 0, 9, 15, GamePhaseNormal, SetPlayPenaltyKick},
	{LayoutSPL14, "spl14", 62, "spl", 14, [2]int{18, 40}, "spl14", 8, 2, 7, -1, -1, -1, -1,
		4, 1, 1, 5, 14, GamePhasePenaltyShoot, SetPlayGoalKick},
	{LayoutSPL15, "spl15", 118, "spl", 15, [2]int{18, 68}, "spl15", 10, 2, 20, -1, -1, -1, -1,
		3, 3, 2, 10, 14, GamePhaseOvertime, SetPlayCornerKick},
	{LayoutSPL16, "spl16", 118, "spl", 16, [2]int{18, 68}, "spl15", 10, 2, 20, -1, -1, -1, -1,
		0, 0, 3, 11, 14, GamePhaseTimeout, SetPlayNone},
	{LayoutSPL17, "spl17", 118, "spl", 17, [2]int{18, 68}, "spl15", 10, 2, 20, -1, -1, -1, -1,
		5, 0, 0, 11, 14, GamePhaseNormal, SetPlayNone},
	{LayoutSPL18, "spl18", 118, "spl", 18, [2]int{18, 68}, "spl15", 10, 2, 20, -1, -1, -1, -1,
		5, 2, 0, 5, 14, GamePhaseNormal, SetPlayPushingFreeKick},
	{LayoutHSL19, "hsl19", 198, "hsl", 19, [2]int{18, 108}, "spl15", 10, 4, 20, 2, 3, -1, -1,
		2, 6, 2, 5, 11, GamePhaseOvertime, SetPlayCornerKick},
	{LayoutHSL20, "hsl20", 158, "hsl", 20, [2]int{18, 88}, "spl15", 10, 3, 20, -1, 2, -1, -1,
		3, 2, 0, 6, 13, GamePhaseNormal, SetPlayIndirectFreeKick},
}

// wb writes little-endian fields at absolute offsets.
type wb []byte

func (b wb) u8(off int, v uint8)   { b[off] = v }
func (b wb) u16(off int, v uint16) { b[off], b[off+1] = byte(v), byte(v>>8) }

var coachText = []byte("pass to 3")

// build writes the golden scenario of g field by field.
func (g goldenLayout) build() []byte {
	b := wb(make([]byte, g.size))
	copy(b, "RGme")
	if g.family == "hl" {
		b.u16(4, uint16(g.version))
		b.u8(6, 7)                          // packetNumber
		b.u8(7, 5)                          // playersPerTeam
		b.u8(8, 1)                          // gameType
		b.u8(9, g.state)                    // state
		b.u8(10, 1)                         // firstHalf
		b.u8(11, 17)                        // kickOffTeam
		b.u8(12, g.setPlay)                 // secondaryState
		copy(b[13:17], []byte{17, 1, 0, 0}) // secondaryStateInfo
		b.u8(17, 5)                         // dropInTeam
		b.u16(18, 42)                       // dropInTime
		b.u16(20, 300)                      // secsRemaining
		b.u16(22, 25)                       // secondaryTime
	} else {
		b.u8(4, uint8(g.version))
		b.u8(5, 7) // packetNumber
		b.u8(6, 5) // playersPerTeam
		if g.family == "hsl" {
			b.u8(7, 2) // competitionType LARGE
			b.u8(8, 1) // stopped
		} else {
			b.u8(7, 1) // competitionPhase PLAYOFF
			b.u8(8, 1) // competitionType
		}
		b.u8(9, g.phase)             // gamePhase
		b.u8(10, g.state)            // state
		b.u8(11, g.setPlay)          // setPlay
		b.u8(12, 0)                  // firstHalf
		b.u8(13, 5)                  // kickingTeam
		b.u16(14, uint16(0x10000-5)) // secsRemaining = -5
		b.u16(16, 25)                // secondaryTime
	}
	for t, base := range g.teams {
		number, colour, score := uint8(17), uint8(0), uint8(1)
		if t == 1 {
			number, colour, score = 5, 1, 2
		}
		b.u8(base+0, number)
		b.u8(base+1, colour)
		switch g.head {
		case "spl15":
			b.u8(base+2, colour+2)           // goalkeeperColour
			b.u8(base+3, uint8(1+t))         // goalkeeper
			b.u8(base+4, score)              // score
			b.u8(base+5, 2)                  // penaltyShot
			b.u16(base+6, 0x0003)            // singleShots
			b.u16(base+8, 1200-uint16(50*t)) // messageBudget
		default:
			b.u8(base+2, score)
			b.u8(base+3, 2)
			b.u16(base+4, 0x0003)
		}
		switch g.head {
		case "spl14":
			b.u16(base+6, 1200-uint16(50*t))
		case "hl":
			b.u8(base+6, uint8(9+t))    // coachSequence
			copy(b[base+7:], coachText) // coachMessage
			b.u8(base+7+252, 0xEE)      // last coach message byte
			coach := base + 260
			b.u8(coach+0, 15) // coach penalty MANUAL
			b.u8(coach+1, 30) // coach secsTillUnpenalised
		}
		player := func(n int) int { return base + g.players + (n-1)*g.robot }
		if t == 0 {
			b.u8(player(2)+0, g.pen2)
			b.u8(player(2)+1, 20)
			if g.goalie >= 0 {
				b.u8(player(1)+g.goalie, 1)
			}
			if g.warn >= 0 {
				b.u8(player(1)+g.warn, 1)
			}
			if g.yellow >= 0 {
				b.u8(player(1)+g.yellow, 1)
			}
			if g.red >= 0 {
				b.u8(player(1)+g.red, 1)
			}
		} else {
			b.u8(player(g.n)+0, g.sub)
			if g.yellow >= 0 {
				b.u8(player(3)+g.yellow, 2)
			}
		}
	}
	return b
}

// want is the Packet the golden scenario of g decodes to.
func (g goldenLayout) want() Packet {
	p := Packet{
		Header:         HeaderRGme,
		Layout:         g.l,
		PacketNumber:   7,
		PlayersPerTeam: 5,
		State:          State(g.state),
		GamePhase:      g.wantPhase,
		SetPlay:        g.wantPlay,
		SetPlayRaw:     g.setPlay,
		SecondaryTime:  25,
	}
	switch g.family {
	case "hl":
		p.GameType = 1
		p.FirstHalf = true
		p.KickingTeam = 17
		p.SecondaryStateInfo = [4]uint8{17, 1, 0, 0}
		p.DropInTeam = 5
		p.DropInTime = 42
		p.SecsRemaining = 300
	case "hsl":
		p.CompetitionType = 2
		p.Stopped = true
		p.KickingTeam = 5
		p.SecsRemaining = -5
	default:
		p.CompetitionPhase = 1
		p.CompetitionType = 1
		p.KickingTeam = 5
		p.SecsRemaining = -5
	}
	for t := range p.Teams {
		tm := &p.Teams[t]
		tm.TeamNumber, tm.FieldPlayerColour, tm.Score = 17, ColourBlue, 1
		if t == 1 {
			tm.TeamNumber, tm.FieldPlayerColour, tm.Score = 5, ColourRed, 2
		}
		tm.PenaltyShot = 2
		tm.SingleShots = 3
		switch g.head {
		case "spl15":
			tm.GoalkeeperColour = tm.FieldPlayerColour + 2
			tm.Goalkeeper = uint8(1 + t)
			tm.MessageBudget = 1200 - uint16(50*t)
		case "spl14":
			tm.MessageBudget = 1200 - uint16(50*t)
		case "hl":
			tm.CoachSequence = uint8(9 + t)
			copy(tm.CoachMessage[:], coachText)
			tm.CoachMessage[252] = 0xEE
			tm.Coach = RobotInfo{Penalty: 15, SecsTillUnpenalised: 30}
		}
		if t == 0 {
			tm.Players[1] = RobotInfo{Penalty: Penalty(g.pen2), SecsTillUnpenalised: 20}
			p1 := &tm.Players[0]
			p1.Goalkeeper = g.goalie >= 0
			if g.warn >= 0 {
				p1.Warnings = 1
			}
			if g.yellow >= 0 {
				p1.YellowCards = 1
			}
			if g.red >= 0 {
				p1.RedCards = 1
			}
		} else {
			tm.Players[g.n-1].Penalty = Penalty(g.sub)
			if g.yellow >= 0 {
				tm.Players[2].YellowCards = 2
			}
		}
	}
	return p
}

func goldenPath(file string) string { return filepath.Join("testdata", file+".hex") }

func goldenFileText(g goldenLayout, b []byte) string {
	return fmt.Sprintf("# %s: RoboCupGameControlData %s, %d bytes, built field by field by TestGolden (golden_test.go)\n%s\n",
		g.file, g.file, len(b), hex.EncodeToString(b))
}

// readHex reads a file of hex lines; # lines and blank lines are skipped.
func readHex(t testing.TB, path string) [][]byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, line := range strings.Split(string(raw), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		b, err := hex.DecodeString(line)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, b)
	}
	return out
}

// TestGolden checks the golden files against the field-by-field builder (rewrite them
// with -update), decodes each to the expected Packet and re-encodes it byte for byte.
func TestGolden(t *testing.T) {
	if len(goldenLayouts) != len(Layouts()) {
		t.Fatalf("%d golden layouts, %d layouts", len(goldenLayouts), len(Layouts()))
	}
	for _, g := range goldenLayouts {
		t.Run(g.file, func(t *testing.T) {
			built := g.build()
			if *update {
				if err := os.WriteFile(goldenPath(g.file), []byte(goldenFileText(g, built)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			files := readHex(t, goldenPath(g.file))
			if len(files) != 1 || !bytes.Equal(files[0], built) {
				t.Fatalf("%s differs from the builder; run go test -run TestGolden -update", goldenPath(g.file))
			}
			if g.l.String() != g.file || g.l.Size() != g.size || g.l.Version() != g.version || g.l.MaxPlayers() != g.n {
				t.Errorf("layout %v: name/size/version/players = %s/%d/%d/%d, want %s/%d/%d/%d",
					g.l, g.l, g.l.Size(), g.l.Version(), g.l.MaxPlayers(), g.file, g.size, g.version, g.n)
			}
			var p Packet
			if err := p.UnmarshalBinary(built); err != nil {
				t.Fatalf("decode: %v", err)
			}
			if want := g.want(); p != want {
				t.Errorf("decode:\n got %+v\nwant %+v", p, want)
			}
			out, err := p.AppendBinary([]byte("prefix"))
			if err != nil {
				t.Fatalf("encode: %v", err)
			}
			if rest, ok := bytes.CutPrefix(out, []byte("prefix")); !ok || !bytes.Equal(rest, built) {
				t.Errorf("round trip:\n got % x\nwant prefix + % x", out, built)
			}
		})
	}
}
