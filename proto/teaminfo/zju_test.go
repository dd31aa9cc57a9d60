package teaminfo

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// tvTeam296NonZero is the nonzero byte list of TV-TEAM-296 (protocols.md §6.3); every
// other byte, padding included, is zero.
const tvTeam296NonZero = `[1]=f1 [2]=53 [3]=65 [5]=65 [6]=cd [7]=1d [16]=02
[17]=11 [20]=01 [30]=59 [31]=40 [38]=49 [39]=40 [45]=80 [46]=56 [47]=40 [98]=20 [99]=40
[100]=02 [101]=01 [102]=02 [103]=01 [104]=01 [106]=01 [109]=01 [118]=69 [119]=c0 [126]=59
[127]=40 [133]=80 [134]=46 [135]=40 [142]=4e [143]=40 [150]=54 [151]=40 [165]=c0 [166]=62
[167]=c0 [173]=c0 [174]=62 [175]=40 [282]=40 [283]=3f [292]=01 [293]=03`

const tvTeam296SHA256 = "6a85ff7defeab5d8800e9c11364419166086cb7f61bb4bcf646f3987bc0fb941"

// tvTeam296 is the packet TV-TEAM-296 describes, field by field.
var tvTeam296 = ZJUPacket{
	TxpTimestamp:      RosTime{Sec: 1700000000, Nsec: 500000000},
	PlayerNumber:      2,
	TeamNumber:        17,
	Role:              1,
	Dest:              Vector3{100, 50, 90},
	TimeSinceLastKick: 2.5,
	State:             2,
	Priority:          true,
	KickerID:          2,
	MatesOnline:       [6]bool{true, true, false, true, false, false},
	SeeBall:           true,
	RobotPos:          Vector3{-200, 100, 45},
	BallField:         Vector3{60, 80, 0},
	BallGlobal:        Vector3{-150, 150, 0},
	BallQuality:       0.75,
	GCConnected:       true,
	GCState:           3,
}

func tvTeam296Bytes(t testing.TB) []byte {
	t.Helper()
	b := make([]byte, ZJUSize)
	re := regexp.MustCompile(`\[(\d+)\]=([0-9a-f]{2})`)
	for _, m := range re.FindAllStringSubmatch(tvTeam296NonZero, -1) {
		off, _ := strconv.Atoi(m[1])
		v, _ := strconv.ParseUint(m[2], 16, 8)
		b[off] = byte(v)
	}
	return b
}

// wireZJU mirrors the C struct for encoding/binary, padding included: the differential
// oracle for the hand-written codec.
type wireZJU struct {
	TxpSec, TxpNsec, RecvSec, RecvNsec         uint32
	Player, Team, Test, Incapacitated, Role    uint8
	AttackRight                                uint8
	Pad0                                       [2]byte
	Dest, FinalDest, AttackTarget              [3]float64
	TimeSinceLastKick                          float32
	State, Priority, KickerID                  uint8
	MatesOnline                                [6]uint8
	SeeBall, SeeCircle, SeeGoal                uint8
	RobotPos, BallField, BallGlobal            [3]float64
	CircleField, CircleGlobal                  [3]float64
	GoalField, GoalGlobal                      [3]float64
	BallQuality, FieldQuality, FieldConsistent float32
	GCConnected, GCState, GCState2             uint8
	Pad1                                       byte
}

func TestZJUWireSize(t *testing.T) {
	if n := binary.Size(wireZJU{}); n != ZJUSize {
		t.Fatalf("binary.Size(wireZJU) = %d, want %d", n, ZJUSize)
	}
}

func TestZJUVector(t *testing.T) {
	want := tvTeam296Bytes(t)
	if sum := sha256.Sum256(want); hex.EncodeToString(sum[:]) != tvTeam296SHA256 {
		t.Fatalf("TV-TEAM-296 from its byte list has SHA-256 %x, want %s", sum, tvTeam296SHA256)
	}
	if file := readHex(t, "tv-team-296.hex"); !bytes.Equal(file, want) {
		t.Fatalf("testdata/tv-team-296.hex differs from the byte list:\n got % x\nwant % x", file, want)
	}

	var p ZJUPacket
	if err := p.UnmarshalBinary(want); err != nil {
		t.Fatal(err)
	}
	reportDiff(t, "decoded TV-TEAM-296", diff(p, tvTeam296))

	got, err := tvTeam296.AppendBinary([]byte("prefix"))
	if err != nil {
		t.Fatal(err)
	}
	if rest, ok := bytes.CutPrefix(got, []byte("prefix")); !ok || !bytes.Equal(rest, want) {
		t.Errorf("AppendBinary:\n got % x\nwant prefix + % x", got, want)
	}
	m, _ := tvTeam296.MarshalBinary()
	if sum := sha256.Sum256(m); hex.EncodeToString(sum[:]) != tvTeam296SHA256 {
		t.Errorf("MarshalBinary SHA-256 %x, want %s", sum, tvTeam296SHA256)
	}
}

func TestZJUPaddingIgnored(t *testing.T) {
	b := tvTeam296Bytes(t)
	for _, off := range []int{zjuOffPad0, zjuOffPad0 + 1, zjuOffPad1} {
		b[off] = 0xa5
	}
	var p ZJUPacket
	if err := p.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	reportDiff(t, "decoded with padding noise", diff(p, tvTeam296))
	out, _ := p.MarshalBinary()
	if !bytes.Equal(out, tvTeam296Bytes(t)) {
		t.Errorf("re-encoding does not zero the padding: % x", out[zjuOffPad0:zjuOffPad0+2])
	}
}

func TestZJULength(t *testing.T) {
	full := tvTeam296Bytes(t)
	for _, n := range []int{0, 1, ZJUSize - 1, ZJUSize + 1, 2 * ZJUSize} {
		b := make([]byte, n)
		copy(b, full)
		p := tvTeam296
		err := p.UnmarshalBinary(b)
		if !errors.Is(err, ErrLength) {
			t.Errorf("%d bytes: err %v, want ErrLength", n, err)
			continue
		}
		if want := "needs 296 bytes, got " + strconv.Itoa(n); !strings.Contains(err.Error(), want) {
			t.Errorf("%d bytes: message %q does not say %q", n, err, want)
		}
		reportDiff(t, "packet after failed decode", diff(p, tvTeam296))
	}
}

func TestZJUBoolStrict(t *testing.T) {
	bools := map[int]string{
		zjuOffIncapacitated: "incapacitated", zjuOffAttackRight: "attack_right",
		zjuOffPriority: "priority", zjuOffSeeBall: "see_ball", zjuOffSeeCircle: "see_circle",
		zjuOffSeeGoal: "see_goal", zjuOffGCConnected: "gc_connected",
	}
	for i := range MaxMates {
		bools[zjuOffMatesOnline+i] = "mates_online[" + strconv.Itoa(i) + "]"
	}
	for off, name := range bools {
		for _, v := range []byte{2, 0x80, 0xff} {
			b := tvTeam296Bytes(t)
			b[off] = v
			p := tvTeam296
			err := p.UnmarshalBinary(b)
			if !errors.Is(err, ErrBool) {
				t.Errorf("%s = %d: err %v, want ErrBool", name, v, err)
				continue
			}
			if want := name + " (offset " + strconv.Itoa(off) + ") is " + strconv.Itoa(int(v)); !strings.Contains(err.Error(), want) {
				t.Errorf("message %q does not say %q", err, want)
			}
			reportDiff(t, "packet after failed decode", diff(p, tvTeam296))
		}
		// 0 and 1 are both fine.
		b := tvTeam296Bytes(t)
		b[off] ^= 1
		var p ZJUPacket
		if err := p.UnmarshalBinary(b); err != nil {
			t.Errorf("%s flipped: %v", name, err)
		}
	}
}

func TestZJUFloatsAreData(t *testing.T) {
	const nan64 = 0x7ff8_0000_dead_beef // quiet NaN with a payload
	const nan32 = 0x7fc0_1234
	b := tvTeam296Bytes(t)
	binary.LittleEndian.PutUint64(b[zjuOffRobotPos:], nan64)
	binary.LittleEndian.PutUint64(b[zjuOffBallField+8:], math.Float64bits(math.Inf(-1)))
	binary.LittleEndian.PutUint64(b[zjuOffGoalGlobal+16:], 1<<63) // -0
	binary.LittleEndian.PutUint32(b[zjuOffBallQuality:], nan32)
	binary.LittleEndian.PutUint32(b[zjuOffTimeSinceKick:], math.Float32bits(float32(math.Inf(1))))
	var p ZJUPacket
	if err := p.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(p.RobotPos.X) || !math.IsInf(p.BallField.Y, -1) || !math.IsNaN(float64(p.BallQuality)) ||
		!math.IsInf(float64(p.TimeSinceLastKick), 1) || !math.Signbit(p.GoalGlobal.Z) {
		t.Errorf("special floats not kept: %+v", p)
	}
	out, _ := p.MarshalBinary()
	if !bytes.Equal(out, b) {
		t.Errorf("round trip changed special floats:\n got % x\nwant % x", out, b)
	}
}

func TestZJUToState(t *testing.T) {
	var s State
	tvTeam296.ToState(&s)
	want := State{
		Team: 17, Player: 2,
		Stamp:             1700000000*time.Second + 500*time.Millisecond,
		Priority:          true,
		SeeBall:           true,
		GCConnected:       true,
		Role:              RoleStriker,
		PlayState:         PlayBallHandling,
		KickerID:          2,
		MatesOnline:       [6]bool{true, true, false, true},
		RobotPos:          Pose{-2, 1, math.Pi / 4},
		Dest:              Pose{1, 0.5, math.Pi / 2},
		BallField:         Point{0.6, 0.8, 0},
		BallGlobal:        Point{-1.5, 1.5, 0},
		TimeSinceLastKick: 2.5,
		TimeToReachBall:   math.NaN(),
		BallAge:           math.NaN(),
		BallQuality:       0.75,
		GCState:           3,
	}
	reportDiff(t, "TV-TEAM-296 as State", diffTol(s, want, 1e-12))

	// Back to zju: equal up to float64 rounding of the unit factors.
	var p ZJUPacket
	p.FromState(&s)
	reportDiff(t, "TV-TEAM-296 via State", diffTol(p, tvTeam296, 1e-12))

	// The spare test byte passes through the model; recv_timestamp does not.
	in := tvTeam296
	in.Test, in.RecvTimestamp = 7, RosTime{Sec: 5, Nsec: 6}
	in.ToState(&s)
	p.FromState(&s)
	if p.Test != 7 || p.RecvTimestamp != (RosTime{}) {
		t.Errorf("test %d, recv_timestamp %+v after the model", p.Test, p.RecvTimestamp)
	}
}

func TestZJUFromStateStamp(t *testing.T) {
	for _, tc := range []struct {
		in   time.Duration
		want RosTime
	}{
		{0, RosTime{}},
		{-time.Second, RosTime{}},
		{1700000000*time.Second + 1, RosTime{1700000000, 1}},
		{math.MaxUint32*time.Second + time.Second - 1, RosTime{math.MaxUint32, 999999999}},
		{math.MaxUint32*time.Second + time.Second, RosTime{math.MaxUint32, 999999999}},
		{math.MaxInt64, RosTime{math.MaxUint32, 999999999}},
	} {
		var p ZJUPacket
		p.FromState(&State{Stamp: tc.in})
		if p.TxpTimestamp != tc.want {
			t.Errorf("stamp %v: got %+v, want %+v", tc.in, p.TxpTimestamp, tc.want)
		}
	}
}

func TestDecodeAppendZJU(t *testing.T) {
	var s State
	if err := DecodeZJU(tvTeam296Bytes(t), &s); err != nil {
		t.Fatal(err)
	}
	if s.Team != 17 || s.Player != 2 || s.BallField.X != 0.6 {
		t.Errorf("DecodeZJU: %+v", s)
	}
	if err := DecodeZJU(make([]byte, 10), &s); !errors.Is(err, ErrLength) {
		t.Errorf("DecodeZJU short: %v", err)
	}
	out, err := AppendZJU([]byte{0xee}, &s)
	if err != nil || len(out) != 1+ZJUSize || out[0] != 0xee {
		t.Fatalf("AppendZJU did not append: %d bytes", len(out))
	}
	var p ZJUPacket
	if err := p.UnmarshalBinary(out[1:]); err != nil {
		t.Fatal(err)
	}
	reportDiff(t, "AppendZJU result", diffTol(p, tvTeam296, 1e-12))
}
