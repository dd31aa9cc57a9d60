package sim3d

import (
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"time"
)

// Team message layout; see the package documentation for the bit table.
const (
	// TeamMessageLen is the length of an encoded team message in characters.
	TeamMessageLen = 20
	// TeamFormat is the format number carried in the first four bits.
	TeamFormat = 1
	// TeamAlphabet holds the 64 symbols of the encoding (RFC 4648 base64url): letters,
	// digits, '-' and '_'. None of them needs care on the say channel.
	TeamAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

	teamBits     = TeamMessageLen * 6 // 120 bits = 15 bytes
	teamBytes    = teamBits / 8
	teamDataByte = 11 // bytes 0..10 carry the fields, 11..14 the checksum

	// PosStep is the position resolution in metres; PosMin and PosMax are the
	// representable range. Positions outside it saturate.
	PosStep  = 1.0 / posScale
	PosMin   = -20.48
	PosMax   = 20.47
	posScale = 100 // steps per metre
	posBits  = 12
	posZero  = 1 << (posBits - 1)
	posMaxQ  = 1<<posBits - 1

	headingBits  = 9
	headingSteps = 1 << headingBits
	// HeadingStep is the heading resolution in degrees (360/512).
	HeadingStep = 360.0 / headingSteps

	// BallAgeStep is the ball age resolution; BallAgeMax is the largest age that is told
	// apart, older balls are reported as BallAgeMax.
	BallAgeStep = 50 * time.Millisecond
	BallAgeMax  = 254 * BallAgeStep
	ballUnknown = 255

	// MaxRole and MaxTeamState bound the 3-bit role and team-play state fields.
	MaxRole      = 7
	MaxTeamState = 7
)

// Team codec errors. Any of them means the message is not ours (another team's, or
// damaged).
var (
	ErrTeamLength   = errors.New("sim3d: team message has the wrong length")
	ErrTeamAlphabet = errors.New("sim3d: team message has a character outside its alphabet")
	ErrTeamFormat   = errors.New("sim3d: team message has an unknown format")
	ErrTeamChecksum = errors.New("sim3d: team message checksum mismatch")
	ErrTeamField    = errors.New("sim3d: team message field out of range")
)

var (
	castagnoli = crc32.MakeTable(crc32.Castagnoli)
	teamIndex  = func() (t [256]int8) {
		for i := range t {
			t[i] = -1
		}
		for i := 0; i < len(TeamAlphabet); i++ {
			t[TeamAlphabet[i]] = int8(i)
		}
		return t
	}()
)

// TeamState is what one player tells its teammates. Positions are in metres in the team's
// own field frame (own goal at -x), headings in degrees.
type TeamState struct {
	Player  uint8 // uniform number 1..11
	Seq     uint8 // sender's message counter; lets receivers count lost messages
	Role    uint8 // 0..MaxRole, as the behaviour defines (dmsgs ROLE_*)
	State   uint8 // 0..MaxTeamState, team-play state (dmsgs TeamInfo.state)
	Fallen  bool
	X, Y    float64
	Heading float64

	// BallKnown is false when the player has no ball estimate; the ball fields are then
	// zero.
	BallKnown    bool
	BallX, BallY float64
	BallAge      time.Duration // time since the ball was last seen
}

// TeamCodec encodes TeamState into one say message and back. The key separates teams
// that use this codec: it seeds the checksum, so a message made with another key is
// rejected. It is not authentication. The zero TeamCodec uses the empty key.
type TeamCodec struct {
	seed uint32
}

// NewTeamCodec returns a codec keyed with key (for example the team name).
func NewTeamCodec(key string) TeamCodec {
	return TeamCodec{seed: crc32.Update(0, castagnoli, []byte(key))}
}

// checksum continues the keyed CRC-32C over p. It is crc32.Update written out, so that the
// caller's stack buffer does not escape through the package's indirect call.
func (c TeamCodec) checksum(p []byte) uint32 {
	crc := ^c.seed
	for _, v := range p {
		crc = castagnoli[byte(crc)^v] ^ crc>>8
	}
	return ^crc
}

// bitWriter packs fields most significant bit first.
type bitWriter struct {
	b [teamBytes]byte
	n int
}

func (w *bitWriter) put(v uint32, width int) {
	for i := width - 1; i >= 0; i-- {
		if v>>uint(i)&1 != 0 {
			w.b[w.n>>3] |= 0x80 >> uint(w.n&7)
		}
		w.n++
	}
}

type bitReader struct {
	b *[teamBytes]byte
	n int
}

func (r *bitReader) get(width int) uint32 {
	var v uint32
	for range width {
		v = v<<1 | uint32(r.b[r.n>>3]>>(7-uint(r.n&7))&1)
		r.n++
	}
	return v
}

// Append encodes s as TeamMessageLen characters appended to dst. Continuous values
// saturate at the ends of their ranges; discrete fields out of range and non-finite
// numbers are errors.
func (c TeamCodec) Append(dst []byte, s *TeamState) ([]byte, error) {
	switch {
	case s.Player < 1 || s.Player > MaxUnum:
		return dst, fmt.Errorf("%w: player %d, want 1..%d", ErrRange, s.Player, MaxUnum)
	case s.Role > MaxRole:
		return dst, fmt.Errorf("%w: role %d, want 0..%d", ErrRange, s.Role, MaxRole)
	case s.State > MaxTeamState:
		return dst, fmt.Errorf("%w: state %d, want 0..%d", ErrRange, s.State, MaxTeamState)
	}
	if err := finite("team state", s.X, s.Y, s.Heading, s.BallX, s.BallY); err != nil {
		return dst, err
	}
	var w bitWriter
	w.put(TeamFormat, 4)
	w.put(uint32(s.Player), 4)
	w.put(uint32(s.Seq), 8)
	w.put(uint32(s.Role), 3)
	w.put(uint32(s.State), 3)
	w.put(b2u(s.Fallen), 1)
	w.put(quantPos(s.X), posBits)
	w.put(quantPos(s.Y), posBits)
	w.put(quantHeading(s.Heading), headingBits)
	if s.BallKnown {
		if s.BallAge < 0 {
			return dst, fmt.Errorf("%w: negative ball age %v", ErrRange, s.BallAge)
		}
		w.put(quantPos(s.BallX), posBits)
		w.put(quantPos(s.BallY), posBits)
		w.put(uint32(min(s.BallAge.Round(BallAgeStep)/BallAgeStep, BallAgeMax/BallAgeStep)), 8)
	} else {
		w.put(0, 2*posBits)
		w.put(ballUnknown, 8)
	}
	w.put(c.checksum(w.b[:teamDataByte]), 32)
	// Six bits per character.
	r := bitReader{b: &w.b}
	for range TeamMessageLen {
		dst = append(dst, TeamAlphabet[r.get(6)])
	}
	return dst, nil
}

// Decode parses a team message into s. It checks, in order, length, alphabet, format,
// checksum and field ranges; s is written only when all pass.
func (c TeamCodec) Decode(msg []byte, s *TeamState) error {
	if len(msg) != TeamMessageLen {
		return fmt.Errorf("%w: %d characters, want %d", ErrTeamLength, len(msg), TeamMessageLen)
	}
	var w bitWriter
	for i, ch := range msg {
		v := teamIndex[ch]
		if v < 0 {
			return fmt.Errorf("%w: character %d is %s", ErrTeamAlphabet, i, byteName(ch))
		}
		w.put(uint32(v), 6)
	}
	r := bitReader{b: &w.b}
	if f := r.get(4); f != TeamFormat {
		return fmt.Errorf("%w: format %d, want %d", ErrTeamFormat, f, TeamFormat)
	}
	want := c.checksum(w.b[:teamDataByte])
	if got := (&bitReader{b: &w.b, n: teamDataByte * 8}).get(32); got != want {
		return fmt.Errorf("%w: got %08x, want %08x", ErrTeamChecksum, got, want)
	}
	var t TeamState
	t.Player = uint8(r.get(4))
	if t.Player < 1 || t.Player > MaxUnum {
		return fmt.Errorf("%w: player %d", ErrTeamField, t.Player)
	}
	t.Seq = uint8(r.get(8))
	t.Role = uint8(r.get(3))
	t.State = uint8(r.get(3))
	t.Fallen = r.get(1) == 1
	t.X = dequantPos(r.get(posBits))
	t.Y = dequantPos(r.get(posBits))
	t.Heading = dequantHeading(r.get(headingBits))
	bx, by, age := r.get(posBits), r.get(posBits), r.get(8)
	if age == ballUnknown {
		if bx != 0 || by != 0 {
			return fmt.Errorf("%w: ball position %d,%d given for an unknown ball", ErrTeamField, bx, by)
		}
	} else {
		t.BallKnown = true
		t.BallX, t.BallY = dequantPos(bx), dequantPos(by)
		t.BallAge = time.Duration(age) * BallAgeStep
	}
	*s = t
	return nil
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

func quantPos(v float64) uint32 {
	q := math.Round(v*posScale) + posZero
	return uint32(max(0, min(posMaxQ, q)))
}

func dequantPos(q uint32) float64 {
	return float64(int(q)-posZero) / posScale
}

func quantHeading(deg float64) uint32 {
	d := math.Mod(deg, 360)
	if d < 0 {
		d += 360
	}
	return uint32(math.Round(d/HeadingStep)) % headingSteps
}

func dequantHeading(q uint32) float64 {
	d := float64(q) * HeadingStep
	if d > 180 {
		d -= 360
	}
	return d
}
