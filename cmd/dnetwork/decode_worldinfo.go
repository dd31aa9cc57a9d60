package main

import (
	"crypto/aes"
	"encoding/binary"
	"errors"
	"fmt"

	wi "github.com/robocup-dnetwork/dnetwork/proto/worldinfo"
)

// Fawkes world info datagrams for "dnetwork decode".
//
// Input is the encrypted datagram as sent on the wire; --key gives the key string (default
// "AllemaniACsX0rz"). A packet that does not decrypt but starts with the plaintext header
// (BE EF 02) is decoded as plaintext ("encrypted": false). Ciphertext has no magic, so
// auto-detection decrypts the first block with the default key and looks for the header;
// datagrams under another key need --proto worldinfo --key KEY.
//
// One object per datagram: protocol, version, length, encrypted, plain_length, reserved,
// seq, records, and when the datagram ends inside a record, "truncated" (the reason) and
// "ignored_bytes". Each record has offset, type, type_name, size and its fields in wire
// order under Fawkes' names; a record a receiver skips (unknown type, size mismatch) has
// "skipped" with the reason instead of fields. The first of two adjacent type-10 records
// is a Fawkes sender's relative ball: it prints as "relative_ball" with "fawkes_type10":
// true. Floats print with float32 precision; NaN and infinities as strings.

func init() {
	registerDecoder(&packetDecoder{
		proto:   "worldinfo",
		summary: "Fawkes world info datagrams (AES-128-ECB; auto-detected with the default key only, else --key)",
		order:   60, // ciphertext has no magic: after the protocols that have one
		match:   matchWorldinfo,
		decode:  decodeWorldinfo,
	})
}

// matchWorldinfo reports whether b is a world info datagram under the default key (the
// first block decrypts to the header magic and version), or a plaintext datagram.
func matchWorldinfo(b []byte) bool {
	if isWorldinfoPlain(b) {
		return true
	}
	if len(b) < wi.BlockSize || len(b) > wi.MaxCiphertext || len(b)%wi.BlockSize != 0 {
		return false
	}
	k := wi.DeriveKey(wi.DefaultKey)
	blk, err := aes.NewCipher(k[:])
	if err != nil {
		return false
	}
	var first [wi.BlockSize]byte
	blk.Decrypt(first[:], b[:wi.BlockSize])
	return isWorldinfoPlain(first[:])
}

func isWorldinfoPlain(b []byte) bool {
	return len(b) >= wi.HeaderSize && binary.BigEndian.Uint16(b) == wi.Magic && b[2] == wi.Version
}

func jsonFloats32(fs []float32) []jsonFloat32 {
	out := make([]jsonFloat32, len(fs))
	for i, f := range fs {
		out[i] = jsonFloat32(f)
	}
	return out
}

type wiDatagramJSON struct {
	Protocol     string `json:"protocol"`
	Version      int    `json:"version"`
	Length       int    `json:"length"`
	Encrypted    bool   `json:"encrypted"`
	PlainLength  int    `json:"plain_length"`
	Reserved     uint8  `json:"reserved"`
	Seq          uint32 `json:"seq"`
	Records      []any  `json:"records"`
	Truncated    string `json:"truncated,omitempty"`
	IgnoredBytes int    `json:"ignored_bytes,omitempty"`
}

type wiRecordHead struct {
	Offset       int    `json:"offset"`
	Type         uint16 `json:"type"`
	TypeName     string `json:"type_name"`
	Size         int    `json:"size"`
	FawkesType10 bool   `json:"fawkes_type10,omitempty"`
	Skipped      string `json:"skipped,omitempty"`
}

type wiPoseJSON struct {
	X          jsonFloat32   `json:"x"`
	Y          jsonFloat32   `json:"y"`
	Theta      jsonFloat32   `json:"theta"`
	Covariance []jsonFloat32 `json:"covariance"`
}

type wiVelocityJSON struct {
	VelX       jsonFloat32   `json:"vel_x"`
	VelY       jsonFloat32   `json:"vel_y"`
	VelTheta   jsonFloat32   `json:"vel_theta"`
	Covariance []jsonFloat32 `json:"covariance"`
}

type wiBallVelocityJSON struct {
	VelX       jsonFloat32   `json:"vel_x"`
	VelY       jsonFloat32   `json:"vel_y"`
	VelZ       jsonFloat32   `json:"vel_z"`
	Covariance []jsonFloat32 `json:"covariance"`
}

type wiRelBallJSON struct {
	Visible    bool          `json:"visible"`
	History    int32         `json:"history"`
	Reserved   uint8         `json:"reserved"`
	Bearing    jsonFloat32   `json:"bearing"`
	Dist       jsonFloat32   `json:"dist"`
	Slope      jsonFloat32   `json:"slope"`
	Covariance []jsonFloat32 `json:"covariance"`
}

type wiGlobalBallJSON struct {
	Visible    bool          `json:"visible"`
	History    int32         `json:"history"`
	Reserved   uint8         `json:"reserved"`
	X          jsonFloat32   `json:"x"`
	Y          jsonFloat32   `json:"y"`
	Z          jsonFloat32   `json:"z"`
	Covariance []jsonFloat32 `json:"covariance"`
}

type wiOpponentJSON struct {
	UID        uint32        `json:"uid"`
	Dist       jsonFloat32   `json:"dist"`
	Bearing    jsonFloat32   `json:"bearing"`
	Covariance []jsonFloat32 `json:"covariance"`
}

type wiUIDJSON struct {
	UID uint32 `json:"uid"`
}

type wiGameStateJSON struct {
	GameState        uint8  `json:"game_state"`
	StateTeam        uint8  `json:"state_team"`
	StateTeamName    string `json:"state_team_name"`
	ScoreCyan        uint8  `json:"score_cyan"`
	ScoreMagenta     uint8  `json:"score_magenta"`
	OurTeam          uint8  `json:"our_team"`
	OurTeamName      string `json:"our_team_name"`
	OurGoalColor     uint8  `json:"our_goal_color"`
	OurGoalColorName string `json:"our_goal_color_name"`
	Half             uint8  `json:"half"`
	HalfName         string `json:"half_name"`
	Reserved         uint8  `json:"reserved"`
}

type wiPenaltyJSON struct {
	Player           uint8  `json:"player"`
	Penalty          uint8  `json:"penalty"`
	PenaltyName      string `json:"penalty_name"`
	Reserved         uint8  `json:"reserved"`
	SecondsRemaining uint16 `json:"seconds_remaining"`
}

type wiFatJSON struct {
	ValidPose            bool                `json:"valid_pose"`
	ValidVelo            bool                `json:"valid_velo"`
	ValidRelBallPos      bool                `json:"valid_relball_pos"`
	ValidRelBallVelo     bool                `json:"valid_relball_velo"`
	NumOpponents         uint8               `json:"num_opponents"`
	Reserved             uint32              `json:"reserved"`
	Pose                 *wiPoseJSON         `json:"pose,omitempty"`
	Velo                 *wiVelocityJSON     `json:"velo,omitempty"`
	RelBallPos           *wiRelBallJSON      `json:"relball_pos,omitempty"`
	RelBallVelo          *wiBallVelocityJSON `json:"relball_velo,omitempty"`
	Opponents            []wiOpponentJSON    `json:"opponents"`
	OpponentsIgnoredNote string              `json:"opponents_ignored,omitempty"`
}

func wiPose(m *wi.Pose) wiPoseJSON {
	return wiPoseJSON{jsonFloat32(m.X), jsonFloat32(m.Y), jsonFloat32(m.Theta), jsonFloats32(m.Covariance[:])}
}

func wiVelocity(m *wi.Velocity) wiVelocityJSON {
	return wiVelocityJSON{jsonFloat32(m.VelX), jsonFloat32(m.VelY), jsonFloat32(m.VelTheta), jsonFloats32(m.Covariance[:])}
}

func wiBallVelocity(x, y, z float32, c *wi.Cov3) wiBallVelocityJSON {
	return wiBallVelocityJSON{jsonFloat32(x), jsonFloat32(y), jsonFloat32(z), jsonFloats32(c[:])}
}

func wiRelBall(m *wi.RelBall) wiRelBallJSON {
	return wiRelBallJSON{m.Visible, m.History, m.Reserved, jsonFloat32(m.Bearing), jsonFloat32(m.Dist),
		jsonFloat32(m.Slope), jsonFloats32(m.Covariance[:])}
}

func wiOpponent(m *wi.Opponent) wiOpponentJSON {
	return wiOpponentJSON{m.UID, jsonFloat32(m.Dist), jsonFloat32(m.Bearing), jsonFloats32(m.Covariance[:])}
}

// wiRecord renders one record.
func wiRecord(rec wi.Record, fawkesRelBall bool) any {
	h := wiRecordHead{Offset: rec.Offset, Type: uint16(rec.Type), TypeName: rec.Type.String(), Size: len(rec.Body)}
	m, err := rec.Message()
	if err != nil {
		h.Skipped = err.Error()
		return h
	}
	switch m := m.(type) {
	case *wi.Pose:
		return struct {
			wiRecordHead
			wiPoseJSON
		}{h, wiPose(m)}
	case *wi.Velocity:
		return struct {
			wiRecordHead
			wiVelocityJSON
		}{h, wiVelocity(m)}
	case *wi.RelBall:
		return struct {
			wiRecordHead
			wiRelBallJSON
		}{h, wiRelBall(m)}
	case *wi.GlobalBall:
		if fawkesRelBall {
			h.TypeName, h.FawkesType10 = wi.TypeRelBall.String(), true
			rel := m.RelBall()
			return struct {
				wiRecordHead
				wiRelBallJSON
			}{h, wiRelBall(&rel)}
		}
		return struct {
			wiRecordHead
			wiGlobalBallJSON
		}{h, wiGlobalBallJSON{m.Visible, m.History, m.Reserved, jsonFloat32(m.X), jsonFloat32(m.Y), jsonFloat32(m.Z),
			jsonFloats32(m.Covariance[:])}}
	case *wi.RelBallVelocity:
		return struct {
			wiRecordHead
			wiBallVelocityJSON
		}{h, wiBallVelocity(m.VelX, m.VelY, m.VelZ, &m.Covariance)}
	case *wi.GlobalBallVelocity:
		return struct {
			wiRecordHead
			wiBallVelocityJSON
		}{h, wiBallVelocity(m.VelX, m.VelY, m.VelZ, &m.Covariance)}
	case *wi.Opponent:
		return struct {
			wiRecordHead
			wiOpponentJSON
		}{h, wiOpponent(m)}
	case *wi.OpponentDisappeared:
		return struct {
			wiRecordHead
			wiUIDJSON
		}{h, wiUIDJSON{m.UID}}
	case *wi.GameState:
		return struct {
			wiRecordHead
			wiGameStateJSON
		}{h, wiGameStateJSON{m.State, uint8(m.StateTeam), m.StateTeam.String(), m.ScoreCyan, m.ScoreMagenta,
			uint8(m.OurTeam), m.OurTeam.String(), uint8(m.OurGoalColor), m.OurGoalColor.String(),
			uint8(m.Half), m.Half.String(), m.Reserved}}
	case *wi.Penalty:
		return struct {
			wiRecordHead
			wiPenaltyJSON
		}{h, wiPenaltyJSON{m.Player, uint8(m.Code), m.Code.String(), m.Reserved, m.SecondsRemaining}}
	case *wi.Fat:
		f := wiFatJSON{ValidPose: m.ValidPose, ValidVelo: m.ValidVelocity, ValidRelBallPos: m.ValidRelBall,
			ValidRelBallVelo: m.ValidRelBallVelocity, NumOpponents: m.NumOpponents, Reserved: m.Reserved,
			Opponents: []wiOpponentJSON{}}
		if m.ValidPose {
			p := wiPose(&m.Pose)
			f.Pose = &p
		}
		if m.ValidVelocity {
			v := wiVelocity(&m.Velocity)
			f.Velo = &v
		}
		if m.ValidRelBall {
			b := wiRelBall(&m.RelBall)
			f.RelBallPos = &b
		}
		if m.ValidRelBallVelocity {
			v := wiBallVelocity(m.RelBallVel.VelX, m.RelBallVel.VelY, m.RelBallVel.VelZ, &m.RelBallVel.Covariance)
			f.RelBallVelo = &v
		}
		for i := range m.ValidOpponents() {
			f.Opponents = append(f.Opponents, wiOpponent(&m.Opponents[i]))
		}
		if m.NumOpponents > wi.FatOpponents {
			f.OpponentsIgnoredNote = fmt.Sprintf("num_opponents %d exceeds %d: receivers ignore all opponents",
				m.NumOpponents, wi.FatOpponents)
		}
		return struct {
			wiRecordHead
			wiFatJSON
		}{h, f}
	}
	h.Skipped = fmt.Sprintf("no printer for %T", m) // unreachable: every type is covered
	return h
}

func decodeWorldinfo(b []byte, o *decodeOptions) (any, error) {
	key := wi.DefaultKey
	if o != nil && o.Key != "" {
		key = o.Key
	}
	out := wiDatagramJSON{Protocol: "worldinfo", Version: wi.Version, Length: len(b), Encrypted: true}
	plain, err := wi.NewCipher(key).Open(nil, b)
	if err != nil {
		if !isWorldinfoPlain(b) {
			if errors.Is(err, wi.ErrPadding) {
				return nil, fmt.Errorf("%w (key %q)", err, key)
			}
			return nil, err
		}
		plain, out.Encrypted = b, false
	}
	h, r, err := wi.Parse(plain)
	if err != nil {
		if out.Encrypted {
			return nil, fmt.Errorf("decrypted %d bytes with key %q: %w", len(plain), key, err)
		}
		return nil, err
	}
	out.PlainLength, out.Reserved, out.Seq = len(plain), h.Reserved, h.Seq
	relOff, pair := wi.Type10RelBall(plain)
	out.Records = []any{}
	for rec, ok := r.Next(); ok; rec, ok = r.Next() {
		out.Records = append(out.Records, wiRecord(rec, pair && rec.Offset == relOff))
	}
	if err := r.Err(); err != nil {
		out.Truncated, out.IgnoredBytes = err.Error(), len(plain)-r.Offset()
	}
	return out, nil
}
