package gamecontroller

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// fromNonzero builds a packet of n bytes from a "[off]=hex …" list of its non-zero bytes.
func fromNonzero(t testing.TB, n int, list string) []byte {
	t.Helper()
	b := make([]byte, n)
	for _, f := range strings.Fields(list) {
		var off int
		var v uint8
		if _, err := fmt.Sscanf(f, "[%d]=%x", &off, &v); err != nil {
			t.Fatalf("bad entry %q: %v", f, err)
		}
		b[off] = v
	}
	return b
}

func mustHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TV-GC-HL640 (protocols.md §6.1).
const tvHL640Nonzero = `[0]=52 [1]=47 [2]=6d [3]=65 [4]=0c [6]=07 [7]=04 [9]=03 [10]=01 [11]=11
[12]=04 [13]=11 [14]=01 [18]=ff [19]=ff [20]=2c [21]=01 [22]=19 [24]=11 [26]=01 [292]=22 [293]=14
[332]=05 [333]=01`

const tvHL640SHA = "54048c67ad0848d8f5f347ae90c0438d17863dbab46e552f3e60af7d42930a50"

// TV-GC-HL688: identical up to offset 26.
const tvHL688Nonzero = `[0]=52 [1]=47 [2]=6d [3]=65 [4]=0c [6]=07 [7]=04 [9]=03 [10]=01 [11]=11
[12]=04 [13]=11 [14]=01 [18]=ff [19]=ff [20]=2c [21]=01 [22]=19 [24]=11 [26]=01 [296]=22 [297]=14
[356]=05 [357]=01`

const tvHL688SHA = "d1b8ff8d794d58d73882b6765dc71cfa80b75e61b5de9f4df370dbf619e02be9"

// TV-GC-HL664: team 1 at 344, player 2 of team 0 at 294.
const tvHL664Nonzero = `[0]=52 [1]=47 [2]=6d [3]=65 [4]=0c [6]=07 [7]=04 [9]=03 [10]=01 [11]=11
[12]=04 [13]=11 [14]=01 [18]=ff [19]=ff [20]=2c [21]=01 [22]=19 [24]=11 [26]=01 [294]=22 [295]=14
[344]=05 [345]=01`

// TV-GC-SPL18 (protocols.md §6.2).
const tvSPL18Hex = `52476d65120707000000030201112c0119001100020101000000b0040000051400000000
000000000000000000000000000000000000000000000000000000000000000005010301
000000007e04000000000000000000000000000000000000000000000000000000000000
00000000000000000000`

// TV-GC-HSL20 (protocols.md §6.2).
const tvHSL20Nonzero = `[0]=52 [1]=47 [2]=6d [3]=65 [4]=14 [5]=07 [6]=05 [10]=03 [11]=01 [12]=01
[13]=11 [14]=2c [15]=01 [16]=19 [18]=11 [20]=02 [21]=01 [22]=01 [26]=b0 [27]=04 [31]=06 [32]=14
[33]=01 [88]=05 [89]=01 [90]=03 [91]=01 [96]=7e [97]=04`

// tvHL is the Packet of TV-GC-HL640/664/688 in layout l.
func tvHL(l Layout) Packet {
	p := Packet{
		Layout: l, PacketNumber: 7, PlayersPerTeam: 4, State: StatePlaying, FirstHalf: true,
		KickingTeam: 17, SetPlay: SetPlayDirectFreeKick, SetPlayRaw: 4,
		SecondaryStateInfo: [4]uint8{17, 1, 0, 0}, DropInTime: -1, SecsRemaining: 300, SecondaryTime: 25,
	}
	p.Teams[0].TeamNumber, p.Teams[0].Score = 17, 1
	p.Teams[0].Players[1] = RobotInfo{Penalty: 34, SecsTillUnpenalised: 20}
	p.Teams[1].TeamNumber, p.Teams[1].FieldPlayerColour = 5, ColourRed
	return p
}

// tvHLInfo is the GCInfo of the HL vectors for team 17, player 2.
func tvHLInfo(l Layout) GCInfo {
	return GCInfo{
		Layout: l, State: StatePlaying, SetPlay: SetPlayDirectFreeKick, SecondaryState: 4, SetPlayTeam: 17,
		OurDirectFreeKick: true, SetPlayReady: true, Kickoff: true, FirstHalf: true,
		SecsRemaining: 300, SecondaryTime: 25, Penalised: true, Penalty: 34, SecsTillUnpenalised: 20,
		OurScore: 1, EnemyColour: ColourRed, MessageBudget: -1,
	}
}

func TestVectorsHL(t *testing.T) {
	for _, tc := range []struct {
		name, nonzero, sha string
		size               int
		l                  Layout
	}{
		{"TV-GC-HL640", tvHL640Nonzero, tvHL640SHA, 640, LayoutHL640},
		{"TV-GC-HL664", tvHL664Nonzero, "", 664, LayoutHL664},
		{"TV-GC-HL688", tvHL688Nonzero, tvHL688SHA, 688, LayoutHL688},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := fromNonzero(t, tc.size, tc.nonzero)
			if tc.sha != "" {
				if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != tc.sha {
					t.Fatalf("vector SHA-256 %x, want %s", sum, tc.sha)
				}
			}
			var p Packet
			if err := p.UnmarshalBinary(b); err != nil {
				t.Fatal(err)
			}
			if want := tvHL(tc.l); p != want {
				t.Errorf("decode:\n got %+v\nwant %+v", p, want)
			}
			want := tvHL(tc.l)
			enc, err := want.MarshalBinary()
			if err != nil || !bytes.Equal(enc, b) {
				t.Errorf("encode: err %v\n got % x\nwant % x", err, enc, b)
			}
			g, err := Derive(&p, 17, 2)
			if err != nil {
				t.Fatal(err)
			}
			if w := tvHLInfo(tc.l); g != w {
				t.Errorf("GCInfo:\n got %+v\nwant %+v", g, w)
			}
		})
	}
}

// TestVectorsHL640Variants covers the variants listed with TV-GC-HL640.
func TestVectorsHL640Variants(t *testing.T) {
	base := fromNonzero(t, 640, tvHL640Nonzero)
	derive := func(t *testing.T, mut func(b []byte)) (GCInfo, error) {
		t.Helper()
		b := bytes.Clone(base)
		mut(b)
		var p Packet
		if err := p.UnmarshalBinary(b); err != nil {
			return GCInfo{}, err
		}
		return Derive(&p, 17, 2)
	}
	type flags struct{ ready, freeze, ourDirect, enemyDirect bool }
	for _, tc := range []struct {
		name string
		mut  func(b []byte)
		want flags
	}{
		{"sub-mode 1", func(b []byte) {}, flags{ready: true, ourDirect: true}},
		{"sub-mode 0", func(b []byte) { b[14] = 0 }, flags{freeze: true, ourDirect: true}},
		{"sub-mode 2", func(b []byte) { b[14] = 2 }, flags{freeze: true, ourDirect: true}},
		{"sub-mode 3 undefined", func(b []byte) { b[14] = 3 }, flags{ourDirect: true}},
		{"enemy set play", func(b []byte) { b[13] = 5 }, flags{ready: true, enemyDirect: true}},
		{"neither team's set play", func(b []byte) { b[13] = 99 }, flags{ready: true, enemyDirect: true}},
		// ZJU's client reports freeze here; no set play is active, so neither flag is set.
		{"penalty shoot-out, info 0", func(b []byte) { b[12] = 1; b[13], b[14] = 0, 0 }, flags{}},
		{"overtime, info 0", func(b []byte) { b[12] = 2; b[13], b[14] = 0, 0 }, flags{}},
		{"timeout, info 0", func(b []byte) { b[12] = 3; b[13], b[14] = 0, 0 }, flags{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := derive(t, tc.mut)
			if err != nil {
				t.Fatal(err)
			}
			got := flags{g.SetPlayReady, g.SetPlayFreeze, g.OurDirectFreeKick, g.EnemyDirectFreeKick}
			if got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}

	t.Run("secsRemaining 0xFFFF", func(t *testing.T) {
		g, err := derive(t, func(b []byte) { b[20], b[21] = 0xff, 0xff; b[22], b[23] = 0x10, 0x27 })
		if err != nil || g.SecsRemaining != 0 || g.SecondaryTime != 0 {
			t.Errorf("err %v, secsRemaining %d secondaryTime %d, want 0 and 0 (10000 too)", err, g.SecsRemaining, g.SecondaryTime)
		}
	})
	t.Run("penalty shoot-out phase", func(t *testing.T) {
		g, err := derive(t, func(b []byte) { b[12] = 1 })
		if err != nil || g.GamePhase != GamePhasePenaltyShoot || g.SecondaryState != 1 || g.SetPlay != SetPlayNone {
			t.Errorf("err %v, phase %v secondaryState %d setPlay %v", err, g.GamePhase, g.SecondaryState, g.SetPlay)
		}
	})
	t.Run("teams swapped, team 0 colour 1", func(t *testing.T) {
		want, _ := derive(t, func([]byte) {})
		g, err := derive(t, func(b []byte) {
			t0 := bytes.Clone(b[24:332])
			copy(b[24:332], b[332:640])
			copy(b[332:640], t0)
		})
		if err != nil || g != want {
			t.Errorf("err %v\n got %+v\nwant %+v", err, g, want)
		}
	})
	for _, tc := range []struct {
		name string
		mut  func(b []byte)
		size int
		want error
	}{
		{"header RGmX", func(b []byte) { b[3] = 'X' }, 640, ErrHeader},
		{"version 13", func(b []byte) { b[4] = 13 }, 640, ErrLength},
		{"uint16 version 268", func(b []byte) { b[5] = 1 }, 640, ErrVersion},
		{"teams 5 and 6", func(b []byte) { b[24], b[332] = 6, 5 }, 640, ErrNotOurTeam},
		{"639 bytes", func([]byte) {}, 639, ErrLength},
		{"641 bytes", func([]byte) {}, 641, ErrLength},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := make([]byte, tc.size)
			copy(b, base)
			tc.mut(b)
			var p Packet
			err := p.UnmarshalBinary(b)
			if err == nil {
				_, err = Derive(&p, 17, 2)
			}
			if !errors.Is(err, tc.want) {
				t.Errorf("got %v, want %v", err, tc.want)
			}
		})
	}
}

func TestVectorSPL18(t *testing.T) {
	b := mustHex(t, tvSPL18Hex)
	if len(b) != SizeSPL18 {
		t.Fatalf("vector has %d bytes", len(b))
	}
	want := Packet{
		Layout: LayoutSPL18, PacketNumber: 7, PlayersPerTeam: 7, State: StatePlaying,
		SetPlay: SetPlayPushingFreeKick, SetPlayRaw: 2, FirstHalf: true, KickingTeam: 17,
		SecsRemaining: 300, SecondaryTime: 25,
	}
	want.Teams[0] = TeamInfo{TeamNumber: 17, GoalkeeperColour: ColourYellow, Goalkeeper: 1, Score: 1, MessageBudget: 1200}
	want.Teams[0].Players[1] = RobotInfo{Penalty: 5, SecsTillUnpenalised: 20}
	want.Teams[1] = TeamInfo{TeamNumber: 5, FieldPlayerColour: ColourRed, GoalkeeperColour: ColourBlack, Goalkeeper: 1, MessageBudget: 1150}
	var p Packet
	if err := p.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if p != want {
		t.Errorf("decode:\n got %+v\nwant %+v", p, want)
	}
	if enc, err := want.MarshalBinary(); err != nil || !bytes.Equal(enc, b) {
		t.Errorf("encode: err %v\n got % x\nwant % x", err, enc, b)
	}
	g, err := Derive(&p, 17, 2)
	if err != nil {
		t.Fatal(err)
	}
	wantInfo := GCInfo{
		Layout: LayoutSPL18, State: StatePlaying, SetPlay: SetPlayPushingFreeKick, SecondaryState: 4,
		SetPlayTeam: 17, OurDirectFreeKick: true, SetPlayReady: true, Kickoff: true, FirstHalf: true,
		SecsRemaining: 300, SecondaryTime: 25, Penalised: true, Penalty: 5, SecsTillUnpenalised: 20,
		OurScore: 1, OurColour: ColourBlue, EnemyColour: ColourRed, MessageBudget: 1200,
	}
	if g != wantInfo {
		t.Errorf("GCInfo:\n got %+v\nwant %+v", g, wantInfo)
	}

	// secsRemaining = -5 is fb ff.
	want.SecsRemaining = -5
	enc, err := want.MarshalBinary()
	if err != nil || enc[14] != 0xfb || enc[15] != 0xff {
		t.Fatalf("secsRemaining -5: err %v bytes % x", err, enc[14:16])
	}
	if err := p.UnmarshalBinary(enc); err != nil || p.SecsRemaining != -5 {
		t.Fatalf("decode -5: err %v secsRemaining %d", err, p.SecsRemaining)
	}
	if g, _ := Derive(&p, 17, 2); g.SecsRemaining != 0 {
		t.Errorf("GCInfo secsRemaining %d for -5, want 0", g.SecsRemaining)
	}
}

func TestVectorHSL20(t *testing.T) {
	b := fromNonzero(t, SizeHSL20, tvHSL20Nonzero)
	want := Packet{
		Layout: LayoutHSL20, PacketNumber: 7, PlayersPerTeam: 5, State: StatePlaying,
		SetPlay: SetPlayDirectFreeKick, SetPlayRaw: 1, FirstHalf: true, KickingTeam: 17,
		SecsRemaining: 300, SecondaryTime: 25,
	}
	want.Teams[0] = TeamInfo{TeamNumber: 17, GoalkeeperColour: ColourYellow, Goalkeeper: 1, Score: 1, MessageBudget: 1200}
	want.Teams[0].Players[1] = RobotInfo{Penalty: 6, SecsTillUnpenalised: 20, YellowCards: 1}
	want.Teams[1] = TeamInfo{TeamNumber: 5, FieldPlayerColour: ColourRed, GoalkeeperColour: ColourBlack, Goalkeeper: 1, MessageBudget: 1150}
	var p Packet
	if err := p.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if p != want {
		t.Errorf("decode:\n got %+v\nwant %+v", p, want)
	}
	if enc, err := want.MarshalBinary(); err != nil || !bytes.Equal(enc, b) {
		t.Errorf("encode: err %v\n got % x\nwant % x", err, enc, b)
	}
	if name := p.Layout.PenaltyName(p.Teams[0].Players[1].Penalty); name != "pick_up" {
		t.Errorf("penalty name %q, want pick_up", name)
	}
	g, err := Derive(&p, 17, 2)
	if err != nil {
		t.Fatal(err)
	}
	wantInfo := GCInfo{
		Layout: LayoutHSL20, State: StatePlaying, SetPlay: SetPlayDirectFreeKick, SecondaryState: 4,
		SetPlayTeam: 17, OurDirectFreeKick: true, SetPlayReady: true, Kickoff: true, FirstHalf: true,
		SecsRemaining: 300, SecondaryTime: 25, Penalised: true, Penalty: 6, SecsTillUnpenalised: 20,
		OurScore: 1, OurColour: ColourBlue, EnemyColour: ColourRed, MessageBudget: 1200,
	}
	if g != wantInfo {
		t.Errorf("GCInfo:\n got %+v\nwant %+v", g, wantInfo)
	}
}

// TestDispatchTable is the research dispatch table: (length, byte 4) → layout or reject.
func TestDispatchTable(t *testing.T) {
	for _, tc := range []struct {
		n    int
		v    uint8
		want Layout
		err  error
	}{
		{640, 0x0c, LayoutHL640, nil},
		{664, 0x0c, LayoutHL664, nil},
		{688, 0x0c, LayoutHL688, nil},
		{54, 0x0c, LayoutSPL12, nil},
		{54, 0x0d, LayoutSPL13, nil},
		{62, 0x0e, LayoutSPL14, nil},
		{118, 0x0f, LayoutSPL15, nil},
		{118, 0x10, LayoutSPL16, nil},
		{118, 0x11, LayoutSPL17, nil},
		{118, 0x12, LayoutSPL18, nil},
		{198, 0x13, LayoutHSL19, nil},
		{158, 0x14, LayoutHSL20, nil},
		{118, 0x0c, LayoutInvalid, ErrLength},
		{688, 0x12, LayoutInvalid, ErrLength},
		{54, 0x0e, LayoutInvalid, ErrLength},
		{198, 0x12, LayoutInvalid, ErrLength},
		{158, 0x13, LayoutInvalid, ErrLength},
		{118, 0x15, LayoutInvalid, ErrVersion},
		{118, 0x0b, LayoutInvalid, ErrVersion},
		{688, 0x00, LayoutInvalid, ErrVersion},
	} {
		for _, magic := range []string{"RGme", "RGTD"} {
			b := make([]byte, tc.n)
			copy(b, magic)
			b[4] = tc.v
			kind, l, err := Identify(b)
			if l != tc.want || !errors.Is(err, tc.err) || (err == nil && kind.Magic() != magic) {
				t.Errorf("%s (%d, %#02x): got %v %v %v, want %v %v", magic, tc.n, tc.v, kind, l, err, tc.want, tc.err)
			}
		}
	}
}
