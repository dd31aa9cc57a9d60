package teaminfo

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

// goldenKey is the key of testdata/dnet-v1-tagged.hex.
const goldenKey = "team17-shared-secret"

// dnetGolden is testdata/dnet-v1.txt field by field: a packet of a node before the
// checksum (dnet-v1-checked.hex is it with the checksum).
var dnetGolden = DNetPacket{
	Version:   1,
	Unchecked: true,
	Team:      17, Player: 3, Role: 2,
	Seq:              0x01020304,
	StampMs:          1700000000123,
	Flags:            FlagAttackRight | FlagPriority | FlagSeeBall | FlagSeeGoal | FlagGCConnected,
	Mates:            0x0d,
	PlayState:        2,
	KickerID:         3,
	GCState:          3,
	GamePhase:        1,
	GCSecondaryState: 0,
	SetPlay:          2,
	RobotPos:         QPose{-1234, 2500, 157},
	Dest:             QPose{100, -200, -314},
	FinalDest:        QPose{-32768, 32767, 0},
	AttackTarget:     QPoint{4500, 0},
	BallField:        QPoint{600, 800},
	BallGlobal:       QPoint{-1500, 1500},
	TeamBallGlobal:   QPoint{-1490, 1510},
	GoalField:        QPoint{3200, -700},
	GoalGlobal:       QPoint{4500, -750},

	TimeSinceLastKick: 250,
	TimeToReachBall:   0xffff,
	BallAge:           12,
	BallQuality:       127,
	FieldQuality:      254,
	FieldConsistency:  255,
	VoronoiLen:        3,
	Voronoi:           [6]QPoint{{100, 200}, {-100, -50}, {2047, -2047}},
}

// dnetGoldenV2 is testdata/dnet-v2.txt field by field: dnetGolden with an echo.
var dnetGoldenV2 = func() DNetPacket {
	p := dnetGolden
	p.Version = 2
	p.EchoPlayer, p.EchoStampMs, p.EchoHoldMs = 1, uint32(1699999999989&0xffffffff), 120
	return p
}()

// dnetGoldenStateV2 is dnetGoldenV2 in the model.
var dnetGoldenStateV2 = func() State {
	s := dnetGoldenState
	s.Echo = Echo{Player: 1, StampMs: uint32(1699999999989 & 0xffffffff), Hold: 120 * time.Millisecond}
	return s
}()

// dnetGoldenState is dnetGolden in the model.
var dnetGoldenState = State{
	Team: 17, Player: 3,
	Seq:               0x01020304,
	Stamp:             1700000000123 * time.Millisecond,
	AttackRight:       true,
	Priority:          true,
	SeeBall:           true,
	SeeGoal:           true,
	GCConnected:       true,
	Role:              RoleDefender,
	PlayState:         PlayBallHandling,
	KickerID:          3,
	MatesOnline:       [6]bool{true, false, true, true},
	RobotPos:          Pose{-1.234, 2.5, 1.57},
	Dest:              Pose{0.1, -0.2, -3.14},
	FinalDest:         Pose{math.NaN(), 32.767, 0},
	AttackTarget:      Point{X: 4.5},
	BallField:         Point{X: 0.6, Y: 0.8},
	BallGlobal:        Point{X: -1.5, Y: 1.5},
	TeamBallGlobal:    Point{X: -1.49, Y: 1.51},
	GoalField:         Point{X: 3.2, Y: -0.7},
	GoalGlobal:        Point{X: 4.5, Y: -0.75},
	TimeSinceLastKick: 2.5,
	TimeToReachBall:   math.NaN(),
	BallAge:           0.12,
	BallQuality:       127.0 / 254,
	FieldQuality:      1,
	FieldConsistency:  math.NaN(),
	GCState:           3,
	GamePhase:         1,
	SetPlay:           2,
	Voronoi:           [6]Point{{X: 1, Y: 2}, {X: -1, Y: -0.5}, {X: 20.47, Y: -20.47}},
	VoronoiLen:        3,
}

func mustKey(t testing.TB, s string) *Key {
	t.Helper()
	k, err := NewKey([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestDNetSizes(t *testing.T) {
	if DNetSizeV1 != dnOffVoronoi+MaxVoronoi*dnVoronoiSize {
		t.Errorf("DNetSizeV1 %d does not end after the voronoi list (%d)", DNetSizeV1, dnOffVoronoi+MaxVoronoi*dnVoronoiSize)
	}
	if DNetSize != dnOffEchoHold+2 {
		t.Errorf("DNetSize %d does not end after the echo (%d)", DNetSize, dnOffEchoHold+2)
	}
	// The SPL caps team messages at 128 bytes, tag included.
	if DNetTaggedSize > 128 {
		t.Errorf("tagged packet is %d bytes, want <= 128", DNetTaggedSize)
	}
	if len(readHex(t, "dnet-v1.txt")) != DNetSizeV1 || len(readHex(t, "dnet-v1-tagged.hex")) != DNetTaggedSizeV1 ||
		len(readHex(t, "dnet-v2.txt")) != DNetSize || len(readHex(t, "dnet-v2-tagged.hex")) != DNetTaggedSize {
		t.Error("golden files have the wrong size")
	}
	for _, tc := range []struct {
		v      uint8
		tagged bool
		want   int
		ok     bool
	}{{1, false, 102, true}, {1, true, 118, true}, {2, false, 109, true}, {2, true, 125, true}, {0, false, 0, false}, {3, true, 0, false}} {
		if n, ok := DNetVersionSize(tc.v, tc.tagged); n != tc.want || ok != tc.ok {
			t.Errorf("DNetVersionSize(%d, %v) = %d, %v, want %d, %v", tc.v, tc.tagged, n, ok, tc.want, tc.ok)
		}
	}
	if DNetPacketSize(true) != 125 || DNetPacketSize(false) != 113 || DNetCheckedSize != 113 || DNetCheckedSizeV1 != 106 {
		t.Error("DNetPacketSize does not give version 2 sizes")
	}
	if len(readHex(t, "dnet-v1-checked.hex")) != DNetCheckedSizeV1 || len(readHex(t, "dnet-v2-checked.hex")) != DNetCheckedSize {
		t.Error("checked golden files have the wrong size")
	}
}

// goldenCase is one golden packet: its files, its fields and its model.
type goldenCase struct {
	plain, tagged, checked string
	size                   int
	packet                 DNetPacket
	state                  State
}

var goldenCases = []goldenCase{
	{"dnet-v1.txt", "dnet-v1-tagged.hex", "dnet-v1-checked.hex", DNetSizeV1, dnetGolden, dnetGoldenState},
	{"dnet-v2.txt", "dnet-v2-tagged.hex", "dnet-v2-checked.hex", DNetSize, dnetGoldenV2, dnetGoldenStateV2},
}

func TestDNetGolden(t *testing.T) {
	for _, g := range goldenCases {
		t.Run(g.plain, func(t *testing.T) {
			want := readHex(t, g.plain)
			var p DNetPacket
			auth, err := p.Decode(want, nil)
			if err != nil {
				t.Fatal(err)
			}
			if auth != AuthNone {
				t.Errorf("auth %v, want none", auth)
			}
			reportDiff(t, "decoded golden packet", diff(p, g.packet))

			var s State
			p.ToState(&s)
			reportDiff(t, "golden packet as State", diffTol(s, g.state, 1e-12))

			// Encode from the independent literals.
			got, err := g.packet.AppendBinary([]byte("prefix"))
			if err != nil {
				t.Fatal(err)
			}
			if rest, ok := bytes.CutPrefix(got, []byte("prefix")); !ok || !bytes.Equal(rest, want) {
				t.Errorf("AppendBinary:\n got % x\nwant prefix + % x", got, want)
			}
		})
	}
	// The model encodes to the current version, with the checksum.
	got, err := AppendDNet(nil, &dnetGoldenStateV2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := readHex(t, "dnet-v2-checked.hex"); !bytes.Equal(got, want) {
		t.Errorf("AppendDNet(golden State):\n got % x\nwant % x", got, want)
	}
	// Version 1 content through the model: version 2 without echo.
	got, err = AppendDNet(nil, &dnetGoldenState, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := readHex(t, "dnet-v2-checked.hex")[:DNetSize]
	want[dnOffEchoPlayer], want[dnOffEchoStamp], want[dnOffEchoStamp+1], want[dnOffEchoStamp+2] = 0, 0, 0, 0
	want[dnOffEchoStamp+3], want[dnOffEchoHold], want[dnOffEchoHold+1] = 0, 0, 0
	want = binary.LittleEndian.AppendUint32(want, crc32cBitwise(want))
	if !bytes.Equal(got, want) {
		t.Errorf("AppendDNet(version 1 State):\n got % x\nwant % x", got, want)
	}
}

// An echo with a hold the field cannot carry is left out, never shortened.
func TestDNetEchoHoldRange(t *testing.T) {
	for _, tc := range []struct {
		hold   time.Duration
		player uint8
		want   uint16
	}{
		{0, 5, 0}, {1500 * time.Microsecond, 5, 1}, {MaxEchoHoldMs * time.Millisecond, 5, MaxEchoHoldMs},
		{(MaxEchoHoldMs + 1) * time.Millisecond, 0, 0}, {-time.Millisecond, 0, 0},
	} {
		s := dnetGoldenState
		s.Echo = Echo{Player: 5, StampMs: 77, Hold: tc.hold}
		var p DNetPacket
		p.FromState(&s)
		if p.EchoPlayer != tc.player || p.EchoHoldMs != tc.want || (tc.player == 0) != (p.EchoStampMs == 0) {
			t.Errorf("hold %v: echo %d %d %d", tc.hold, p.EchoPlayer, p.EchoStampMs, p.EchoHoldMs)
		}
	}
}

func TestDNetTaggedGolden(t *testing.T) {
	for _, g := range goldenCases {
		t.Run(g.tagged, func(t *testing.T) { testTaggedGolden(t, g) })
	}
}

func testTaggedGolden(t *testing.T, g goldenCase) {
	want := readHex(t, g.tagged)
	// The file agrees with crypto/hmac directly.
	mac := hmac.New(sha256.New, []byte(goldenKey))
	mac.Write(want[:g.size])
	if sum := mac.Sum(nil); !bytes.Equal(sum[:TagSize], want[g.size:]) {
		t.Fatalf("tag in file % x, crypto/hmac says % x", want[g.size:], sum[:TagSize])
	}
	if body := readHex(t, g.plain); !bytes.Equal(body[5:], want[5:g.size]) {
		t.Fatal("tagged golden body differs from " + g.plain)
	}

	k := mustKey(t, goldenKey)
	var p DNetPacket
	auth, err := p.Decode(want, k)
	if err != nil || auth != AuthVerified {
		t.Fatalf("with key: auth %v err %v", auth, err)
	}
	wantP := g.packet
	wantP.Tagged, wantP.Unchecked = true, false
	copy(wantP.Tag[:], want[g.size:])
	reportDiff(t, "decoded tagged packet", diff(p, wantP))

	var q DNetPacket
	if auth, err := q.Decode(want, nil); err != nil || auth != AuthUnverified || !q.Tagged {
		t.Errorf("without key: auth %v err %v tagged %v", auth, err, q.Tagged)
	}
	if _, err := q.Decode(want, mustKey(t, goldenKey+"x")); !errors.Is(err, ErrAuth) {
		t.Errorf("wrong key: %v, want ErrAuth", err)
	}

	signed, err := g.packet.AppendSigned([]byte{1, 2}, k)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(signed[2:], want) || signed[0] != 1 {
		t.Errorf("AppendSigned:\n got % x\nwant 01 02 + % x", signed, want)
	}
	relayed, _ := p.MarshalBinary()
	if !bytes.Equal(relayed, want) {
		t.Errorf("relaying the decoded tagged packet:\n got % x\nwant % x", relayed, want)
	}
	var s State
	if auth, err := DecodeDNet(want, &s, k); err != nil || auth != AuthVerified {
		t.Errorf("DecodeDNet: %v %v", auth, err)
	}
	reportDiff(t, "DecodeDNet", diffTol(s, g.state, 1e-12))
	if g.packet.Version != DNetVersion {
		return
	}
	viaState, err := AppendDNet(nil, &g.state, k)
	if err != nil || !bytes.Equal(viaState, want) {
		t.Errorf("AppendDNet with key: err %v\n got % x\nwant % x", err, viaState, want)
	}
}

func TestDNetMutants(t *testing.T) {
	plain := readHex(t, "dnet-v1.txt")
	tagged := readHex(t, "dnet-v1-tagged.hex")
	plain2 := readHex(t, "dnet-v2.txt")
	tagged2 := readHex(t, "dnet-v2-tagged.hex")
	k := mustKey(t, goldenKey)
	mut := func(b []byte, f func(b []byte) []byte) []byte { return f(bytes.Clone(b)) }
	for _, tc := range []struct {
		name string
		b    []byte
		key  *Key
		err  error
		msg  string
	}{
		{"empty", nil, nil, ErrLength, "0 bytes is shorter than its header"},
		{"magic only", []byte("DNt"), nil, ErrLength, "3 bytes"},
		{"no header flags", []byte("DNt\x01"), nil, ErrLength, "4 bytes"},
		{"untagged 101", plain[:DNetSizeV1-1], nil, ErrLength, "without tag needs 102 bytes, got 101"},
		{"untagged 103", append(bytes.Clone(plain), 0), nil, ErrLength, "without tag needs 102 bytes, got 103"},
		{"tag flag but no tag", mut(plain, func(b []byte) []byte { b[4] = 1; return b }), nil, ErrLength, "with tag needs 118 bytes, got 102"},
		{"truncated tag", tagged[:DNetTaggedSizeV1-1], nil, ErrLength, "with tag needs 118 bytes, got 117"},
		{"half tag", tagged[:DNetSizeV1+8], k, ErrLength, "got 110"},
		{"tag without flag", mut(tagged, func(b []byte) []byte { b[4] = 0; return b }), nil, ErrLength, "without tag needs 102 bytes, got 118"},
		{"wrong magic", mut(plain, func(b []byte) []byte { b[2] = 'T'; return b }), nil, ErrMagic, "44 4e 54"},
		{"zju-sized junk", make([]byte, ZJUSize), nil, ErrMagic, ""},
		{"version 1 sized as 2", mut(plain2, func(b []byte) []byte { b[3] = 1; return b }), nil, ErrLength, "version 1 without tag needs 102 bytes, got 109"},
		{"version 2 sized as 1", mut(plain, func(b []byte) []byte { b[3] = 2; return b }), nil, ErrLength, "version 2 without tag needs 109 bytes, got 102"},
		{"version 2 tagged short", tagged2[:DNetTaggedSize-1], nil, ErrLength, "version 2 with tag needs 125 bytes, got 124"},
		{"version 3", mut(plain2, func(b []byte) []byte { b[3] = 3; return b }), nil, ErrVersion, "version 3, this node speaks 1 and 2"},
		{"echo stamp without player", mut(plain2, func(b []byte) []byte { b[102] = 0; return b }), nil, ErrReserved, "echo without player"},
		{"echo hold without player", mut(plain2, func(b []byte) []byte { clear(b[102:107]); return b }), nil, ErrReserved, "hold 120"},
		{"v2 tampered echo", mut(tagged2, func(b []byte) []byte { b[108]++; return b }), k, ErrAuth, "tag does not match"},
		{"version 0", mut(plain, func(b []byte) []byte { b[3] = 0; return b }), nil, ErrVersion, "version 0"},
		{"reserved header bit", mut(plain, func(b []byte) []byte { b[4] = 0x80; return b }), nil, ErrReserved, "header flags 0x80"},
		{"reserved status bit", mut(plain, func(b []byte) []byte { b[19] |= 0x80; return b }), nil, ErrReserved, "status word"},
		{"voronoi count 7", mut(plain, func(b []byte) []byte { b[19] = b[19]&^0x1c | 7<<2; return b }), nil, ErrRange, "voronoi length 7 > 6"},
		{"reserved mates bit", mut(plain, func(b []byte) []byte { b[20] |= 0x40; return b }), nil, ErrReserved, "mates mask 0x4d"},
		{"stamp beyond Duration", mut(plain, func(b []byte) []byte { copy(b[12:18], []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}); return b }), nil, ErrRange, "stamp 281474976710655 ms"},
		{"untagged but key required", plain, k, ErrAuth, "no tag but a key is required"},
		{"tampered body", mut(tagged, func(b []byte) []byte { b[25] ^= 1; return b }), k, ErrAuth, "tag does not match"},
		{"tampered tag", mut(tagged, func(b []byte) []byte { b[DNetTaggedSizeV1-1] ^= 0x80; return b }), k, ErrAuth, "tag does not match"},
		{"tampered seq", mut(tagged, func(b []byte) []byte { b[8]++; return b }), k, ErrAuth, "tag does not match"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := dnetGolden
			_, err := p.Decode(tc.b, tc.key)
			if !errors.Is(err, tc.err) {
				t.Fatalf("err %v, want %v", err, tc.err)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("message %q does not contain %q", err, tc.msg)
			}
			reportDiff(t, "packet after failed decode", diff(p, dnetGolden))
		})
	}
}

// Any single flipped bit of a tagged packet is caught, by the header checks or the tag.
func TestDNetEveryBitAuthenticated(t *testing.T) {
	for _, name := range []string{"dnet-v1-tagged.hex", "dnet-v2-tagged.hex"} {
		everyBitAuthenticated(t, readHex(t, name))
	}
}

func everyBitAuthenticated(t *testing.T, tagged []byte) {
	k := mustKey(t, goldenKey)
	var p DNetPacket
	for i := range tagged {
		for bit := range 8 {
			b := bytes.Clone(tagged)
			b[i] ^= 1 << bit
			if _, err := p.Decode(b, k); err == nil {
				t.Fatalf("byte %d bit %d flipped: accepted", i, bit)
			} else if i >= dnHeaderSize && !errors.Is(err, ErrAuth) {
				t.Fatalf("byte %d bit %d flipped: %v, want ErrAuth", i, bit, err)
			}
		}
	}
}

func TestDNetEncodeErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		mod  func(p *DNetPacket)
		err  error
		msg  string
	}{
		{"gc_state 16", func(p *DNetPacket) { p.GCState = 16 }, ErrRange, "gc_state 16 does not fit 4 bits"},
		{"game_phase 200", func(p *DNetPacket) { p.GamePhase = 200 }, ErrRange, "game_phase 200"},
		{"gc_secondary 16", func(p *DNetPacket) { p.GCSecondaryState = 16 }, ErrRange, "gc_secondary_state 16"},
		{"set_play 99", func(p *DNetPacket) { p.SetPlay = 99 }, ErrRange, "set_play 99"},
		{"flag bit 10", func(p *DNetPacket) { p.Flags |= 1 << 10 }, ErrReserved, "flags 0x05b8"},
		{"mates bit 7", func(p *DNetPacket) { p.Mates |= 0x80 }, ErrReserved, "mates mask 0x8d"},
		{"voronoi length 7", func(p *DNetPacket) { p.VoronoiLen = 7 }, ErrRange, "voronoi length 7 > 6"},
		{"voronoi x 2048", func(p *DNetPacket) { p.Voronoi[5].X = 2048 }, ErrRange, "voronoi[5] (2048, 0)"},
		{"voronoi y -2049", func(p *DNetPacket) { p.Voronoi[0].Y = -2049 }, ErrRange, "voronoi[0] (100, -2049)"},
		{"stamp", func(p *DNetPacket) { p.StampMs = MaxStampMs + 1 }, ErrRange, "stamp 9223372036855 ms"},
		{"version 3", func(p *DNetPacket) { p.Version = 3 }, ErrVersion, "dnet version 3"},
		{"echo in version 1", func(p *DNetPacket) { p.EchoPlayer = 2 }, ErrRange, "version 1 carries no echo"},
		{"echo stamp without player", func(p *DNetPacket) { p.Version, p.EchoStampMs = 2, 9 }, ErrReserved, "echo without player has stamp 9"},
	} {
		p := dnetGolden
		tc.mod(&p)
		prefix := []byte("keep")
		out, err := p.AppendBinary(prefix)
		if !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: err %v, want %v containing %q", tc.name, err, tc.err, tc.msg)
		}
		if string(out) != "keep" {
			t.Errorf("%s: failed AppendBinary changed b to % x", tc.name, out)
		}
		if _, err := p.AppendSigned(nil, mustKey(t, "k")); !errors.Is(err, tc.err) {
			t.Errorf("%s: AppendSigned err %v", tc.name, err)
		}
	}
	if _, err := dnetGolden.AppendSigned(nil, nil); !errors.Is(err, ErrKey) {
		t.Errorf("AppendSigned without key: %v", err)
	}
	if _, err := NewKey(nil); !errors.Is(err, ErrKey) {
		t.Errorf("NewKey(nil): %v", err)
	}
}

func TestKeyCopiesSecret(t *testing.T) {
	secret := []byte(goldenKey)
	k, _ := NewKey(secret)
	secret[0] = 'X'
	if _, err := new(DNetPacket).Decode(readHex(t, "dnet-v1-tagged.hex"), k); err != nil {
		t.Fatalf("key changed with the caller's slice: %v", err)
	}
}

func TestVoronoiPacking(t *testing.T) {
	for _, v := range []int16{0, 1, -1, 2047, -2047, -2048, 0x555, -0x555, 100, -100} {
		for _, w := range []int16{0, -1, 2047, -2048, 0x2aa} {
			var b [3]byte
			putVoronoi(b[:], QPoint{v, w})
			if got := getVoronoi(b[:]); got != (QPoint{v, w}) {
				t.Errorf("(%d, %d) -> % x -> %v", v, w, b, got)
			}
		}
	}
}

func TestIsDNet(t *testing.T) {
	for _, tc := range []struct {
		b    string
		want bool
	}{{"", false}, {"DN", false}, {"DNt", true}, {"DNt\x07rest", true}, {"dnt", false}, {"RGme", false}} {
		if got := IsDNet([]byte(tc.b)); got != tc.want {
			t.Errorf("IsDNet(%q) = %v", tc.b, got)
		}
	}
}

func TestEnumStrings(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{RoleGoalie.String(), "goalie"}, {Role(9).String(), "role(9)"},
		{PlayAssisting.String(), "assisting"}, {PlayState(7).String(), "play_state(7)"},
		{AuthVerified.String(), "verified"}, {Auth(3).String(), "auth(3)"},
		{VerdictRestart.String(), "restart"}, {Verdict(9).String(), "verdict(9)"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// The offsets tile the packet with no gap or overlap, as the table in doc.go shows.
func TestDNetLayoutContiguous(t *testing.T) {
	fields := []struct {
		name      string
		off, size int
	}{
		{"magic", dnOffMagic, len(DNetMagic)}, {"version", dnOffVersion, 1},
		{"header flags", dnOffHeaderFlags, 1}, {"team", dnOffTeam, 1}, {"player", dnOffPlayer, 1},
		{"role", dnOffRole, 1}, {"seq", dnOffSeq, 4}, {"stamp", dnOffStamp, 6},
		{"status", dnOffStatus, 2}, {"mates", dnOffMates, 1}, {"state", dnOffPlayState, 1},
		{"kicker", dnOffKickerID, 1}, {"gc", dnOffGCState, 1}, {"gc2", dnOffGCSecondary, 1},
		{"robot_pos", dnOffRobotPos, dnPoseSize}, {"dest", dnOffDest, dnPoseSize},
		{"final_dest", dnOffFinalDest, dnPoseSize}, {"attack_target", dnOffAttackTarget, dnPointSize},
		{"ball_field", dnOffBallField, dnPointSize}, {"ball_global", dnOffBallGlobal, dnPointSize},
		{"team_ball", dnOffTeamBall, dnPointSize}, {"circle_field", dnOffCircleField, dnPointSize},
		{"circle_global", dnOffCircleGlobal, dnPointSize}, {"goal_field", dnOffGoalField, dnPointSize},
		{"goal_global", dnOffGoalGlobal, dnPointSize}, {"since_kick", dnOffSinceKick, 2},
		{"to_reach_ball", dnOffToReachBall, 2}, {"ball_age", dnOffBallAge, 2},
		{"ball_quality", dnOffBallQuality, 1}, {"field_quality", dnOffFieldQuality, 1},
		{"field_consistency", dnOffFieldConsist, 1}, {"voronoi", dnOffVoronoi, MaxVoronoi * dnVoronoiSize},
		{"echo_player", dnOffEchoPlayer, 1}, {"echo_stamp", dnOffEchoStamp, 4}, {"echo_hold", dnOffEchoHold, 2},
		{"tag", dnOffTag, TagSize},
	}
	next := 0
	for _, f := range fields {
		if f.off != next {
			t.Errorf("%s at %d, want %d", f.name, f.off, next)
		}
		next = f.off + f.size
	}
	if next != DNetTaggedSize {
		t.Errorf("layout ends at %d, want %d", next, DNetTaggedSize)
	}
}
