package gamecontroller

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// refUnmarshal is the decoder as it was before the fast path: kept as the reference
// that TestDecodeMatchesReference compares the decoder with.
func refUnmarshal(p *Packet, b []byte) error {
	kind, l, err := Identify(b)
	if err != nil {
		*p = Packet{}
		return err
	}
	*p = Packet{} // cleared in place; a literal with fields would be built, then copied
	p.Header, p.Layout = kind, l
	s := &specs[l]
	if s.family == FamilyHL {
		err = refDecodeHL(p, b, s)
	} else {
		err = refDecodeSPL(p, b, s)
	}
	if err == nil {
		for t := range p.Teams {
			if err = refDecodeTeam(&p.Teams[t], b[s.teamOff(t):], s, t); err != nil {
				break
			}
		}
	}
	if err != nil {
		*p = Packet{}
	}
	return err
}

func refDecodeHL(p *Packet, b []byte, s *spec) error {
	p.PacketNumber = b[hlOffPacketNumber]
	p.PlayersPerTeam = b[hlOffPlayersPerTeam]
	p.GameType = b[hlOffGameType]
	p.State = State(b[hlOffState])
	p.KickingTeam = b[hlOffKickOffTeam]
	p.SetPlayRaw = b[hlOffSecondaryState]
	copy(p.SecondaryStateInfo[:], b[hlOffSecStateInfo:])
	p.DropInTeam = b[hlOffDropInTeam]
	p.DropInTime = int16(binary.LittleEndian.Uint16(b[hlOffDropInTime:]))
	p.SecsRemaining = int32(int16(binary.LittleEndian.Uint16(b[hlOffSecsRemaining:])))
	p.SecondaryTime = int32(int16(binary.LittleEndian.Uint16(b[hlOffSecondaryTime:])))
	if p.State > s.maxState {
		return stateErr(p.State, s)
	}
	var err error
	if p.FirstHalf, err = boolFlag(b[hlOffFirstHalf], "firstHalf", s); err != nil {
		return err
	}
	if int(p.SetPlayRaw) >= len(s.setPlays) {
		return rangeErr("secondaryState", float64(p.SetPlayRaw), fmt.Sprintf("0..%d in %s", len(s.setPlays)-1, s.name))
	}
	w := s.setPlays[p.SetPlayRaw]
	p.GamePhase, p.SetPlay = w.phase, w.play
	return nil
}

func refDecodeSPL(p *Packet, b []byte, s *spec) error {
	p.PacketNumber = b[offPacketNumber]
	p.PlayersPerTeam = b[offPlayersPerTeam]
	var err error
	if s.family == FamilyHSL {
		p.CompetitionType = b[offCompPhase]
		if p.Stopped, err = boolFlag(b[offCompType], "stopped", s); err != nil {
			return err
		}
	} else {
		p.CompetitionPhase = b[offCompPhase]
		p.CompetitionType = b[offCompType]
	}
	p.GamePhase = GamePhase(b[offGamePhase])
	p.State = State(b[offState])
	p.SetPlayRaw = b[offSetPlay]
	p.KickingTeam = b[offKickingTeam]
	p.SecsRemaining = int32(int16(binary.LittleEndian.Uint16(b[offSecsRemaining:])))
	p.SecondaryTime = int32(int16(binary.LittleEndian.Uint16(b[offSecondaryTime:])))
	if p.GamePhase > maxGamePhase {
		return rangeErr("gamePhase", float64(p.GamePhase), fmt.Sprintf("0..%d in %s", maxGamePhase, s.name))
	}
	if p.State > s.maxState {
		return stateErr(p.State, s)
	}
	if int(p.SetPlayRaw) >= len(s.setPlays) {
		return rangeErr("setPlay", float64(p.SetPlayRaw), fmt.Sprintf("0..%d in %s", len(s.setPlays)-1, s.name))
	}
	p.SetPlay = s.setPlays[p.SetPlayRaw].play
	p.FirstHalf, err = boolFlag(b[offFirstHalf], "firstHalf", s)
	return err
}

func refDecodeTeam(t *TeamInfo, b []byte, s *spec, ti int) error {
	t.TeamNumber = b[0]
	t.FieldPlayerColour = TeamColour(b[1])
	switch s.team {
	case teamHL, teamSPL12, teamSPL14:
		t.Score = b[2]
		t.PenaltyShot = b[3]
		t.SingleShots = binary.LittleEndian.Uint16(b[4:])
		switch s.team {
		case teamHL:
			t.CoachSequence = b[hlTeamOffCoachSeq]
			copy(t.CoachMessage[:], b[hlTeamOffCoachMsg:])
			if err := refDecodeRobot(&t.Coach, b[hlTeamOffCoach:], s, ti, -1); err != nil {
				return err
			}
		case teamSPL14:
			t.MessageBudget = binary.LittleEndian.Uint16(b[6:])
		}
	case teamSPL15:
		t.GoalkeeperColour = TeamColour(b[2])
		t.Goalkeeper = b[3]
		t.Score = b[4]
		t.PenaltyShot = b[5]
		t.SingleShots = binary.LittleEndian.Uint16(b[6:])
		t.MessageBudget = binary.LittleEndian.Uint16(b[8:])
	}
	for i := range s.players {
		if err := refDecodeRobot(&t.Players[i], b[s.playersOff+i*s.robotSize:], s, ti, i); err != nil {
			return err
		}
	}
	return nil
}

// refDecodeRobot reads one RobotInfo; i is the player index, -1 for the HL coach.
func refDecodeRobot(r *RobotInfo, b []byte, s *spec, ti, i int) error {
	r.Penalty = Penalty(b[0])
	r.SecsTillUnpenalised = b[1]
	if s.warnOff >= 0 {
		r.Warnings = b[s.warnOff]
	}
	if s.yellowOff >= 0 {
		r.YellowCards = b[s.yellowOff]
	}
	if s.redOff >= 0 {
		r.RedCards = b[s.redOff]
	}
	if int(r.Penalty) >= len(s.penalties) || s.penalties[r.Penalty] == "" {
		return rangeErr(robotField(ti, i, "penalty"), float64(r.Penalty), s.penaltyStr+" in "+s.name)
	}
	if s.goalieOff >= 0 {
		switch b[s.goalieOff] {
		case 0:
		case 1:
			r.Goalkeeper = true
		default:
			name := "goalKeeper"
			if s.robotSize == RobotSizeHL664 {
				name = "isGoalie"
			}
			return rangeErr(robotField(ti, i, name), float64(b[s.goalieOff]), "0 or 1 in "+s.name)
		}
	}
	return nil
}

func boolFlag(v uint8, field string, s *spec) (bool, error) {
	switch v {
	case 0:
		return false, nil
	case 1:
		return true, nil
	}
	return false, rangeErr(field, float64(v), "0 or 1 in "+s.name)
}

var dirtyPacket = dirty()

// dirty returns a Packet with every field nonzero, so that a decoder that forgets to
// clear a field the layout does not carry shows it.
func dirty() Packet {
	var p Packet
	fill(reflect.ValueOf(&p).Elem())
	return p
}

func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i))
		}
	case reflect.Array:
		for i := range v.Len() {
			fill(v.Index(i))
		}
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Uint8, reflect.Uint16:
		v.SetUint(0xa5)
	case reflect.Int16, reflect.Int32:
		v.SetInt(-91)
	default:
		panic("dirty: unhandled kind " + v.Kind().String())
	}
}

// sameResult compares the decoder with refUnmarshal on b, both decoding into a dirty
// Packet: the same Packet, and the same error (sentinel and text).
func sameResult(t *testing.T, what string, b []byte) {
	t.Helper()
	got, want := dirtyPacket, dirtyPacket
	gerr, werr := got.UnmarshalBinary(b), refUnmarshal(&want, b)
	switch {
	case (gerr == nil) != (werr == nil):
		t.Fatalf("%s: error %v, reference %v", what, gerr, werr)
	case gerr != nil && gerr.Error() != werr.Error():
		t.Fatalf("%s: error %q, reference %q", what, gerr, werr)
	case gerr != nil:
		for _, sentinel := range []error{ErrLength, ErrHeader, ErrVersion, ErrRange} {
			if errors.Is(gerr, sentinel) != errors.Is(werr, sentinel) {
				t.Fatalf("%s: error %v, reference %v: not the same sentinel", what, gerr, werr)
			}
		}
		var ge, we *RangeError
		if errors.As(gerr, &ge) != errors.As(werr, &we) || (ge != nil && *ge != *we) {
			t.Fatalf("%s: range error %+v, reference %+v", what, ge, we)
		}
	}
	if got != want {
		t.Fatalf("%s: decoded\n%+v\nreference\n%+v", what, got, want)
	}
}

// TestDecodeMatchesReference compares the decoder with the reference decoder on every
// golden packet and vector, on every byte of each set to values around every range
// limit, and on a bounded number of random mutations.
func TestDecodeMatchesReference(t *testing.T) {
	var bases [][]byte
	for _, g := range goldenLayouts {
		b := g.build()
		rgtd := bytes.Clone(b)
		copy(rgtd, MagicMonitor)
		bases = append(bases, b, rgtd)
	}
	bases = append(bases, fromNonzero(t, 640, tvHL640Nonzero), fromNonzero(t, 664, tvHL664Nonzero),
		fromNonzero(t, 688, tvHL688Nonzero), mustHex(t, tvSPL18Hex), fromNonzero(t, SizeHSL20, tvHSL20Nonzero))
	// Values at and around every range limit of every layout.
	values := []uint8{0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15, 16, 29, 30, 35, 36, 128, 254, 255}
	// A Packet that held another layout's packet (or a packet that failed) decodes as a
	// zero Packet does: the decoders that do not clear the whole Packet first must still
	// overwrite or zero every field.
	for _, prev := range bases {
		for _, base := range bases {
			var got, want Packet
			_ = got.UnmarshalBinary(prev)
			gerr, werr := got.UnmarshalBinary(base), refUnmarshal(&want, base)
			if (gerr == nil) != (werr == nil) || got != want {
				_, pl, _ := Classify(prev)
				_, bl, _ := Classify(base)
				t.Fatalf("%s after %s: %v, reference %v\n%+v\nreference\n%+v", bl, pl, gerr, werr, got, want)
			}
		}
	}
	rng := rand.New(rand.NewPCG(14, 2026))
	for _, base := range bases {
		sameResult(t, "base", base)
		for n := range len(base) + 2 {
			sameResult(t, fmt.Sprintf("first %d bytes", n), base[:min(n, len(base))])
		}
		sameResult(t, "one byte too many", append(bytes.Clone(base), 0))
		b := bytes.Clone(base)
		for i := range b {
			for _, v := range values {
				b[i] = v
				sameResult(t, fmt.Sprintf("byte %d = %d", i, v), b)
			}
			b[i] = base[i]
		}
		// Several fields out of range at once: the error must name the first in wire order.
		for range 2000 {
			b := bytes.Clone(base)
			for range 1 + rng.IntN(6) {
				i := 4 + rng.IntN(len(b)-4)
				if i < 6 { // keep the layout most of the time
					i += 6
				}
				b[min(i, len(b)-1)] = values[rng.IntN(len(values))]
			}
			sameResult(t, fmt.Sprintf("mutant % x", b), b)
		}
	}
}

// FuzzDecodeReference: the decoder and the reference decoder agree on every input.
func FuzzDecodeReference(f *testing.F) {
	addControlSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		sameResult(t, "fuzz input", b)
	})
}

// TestShapes: the layouts of the current GameControllers get their decoders of fixed
// offsets; every other layout is read from the offsets of its spec.
func TestShapes(t *testing.T) {
	want := map[Layout]shape{LayoutSPL15: shapeSPL20, LayoutSPL16: shapeSPL20, LayoutSPL17: shapeSPL20,
		LayoutSPL18: shapeSPL20, LayoutHSL20: shapeHSL20, LayoutHL688: shapeHL688}
	for _, l := range Layouts() {
		if got := specs[l].shape; got != want[l] {
			t.Errorf("%s: shape %d, want %d", l, got, want[l])
		}
	}
}

// TestPenaltyLanes: for every layout whose penalties the lanes can check, the lane check
// agrees with the penalty table for every code in every lane, whatever the
// secsTillUnpenalised bytes and the valid codes in the other lanes.
func TestPenaltyLanes(t *testing.T) {
	for _, l := range Layouts() {
		s := &specs[l]
		if !s.lanes.ok {
			continue
		}
		valid := validCodes(s)
		for p := range 256 {
			for lane := range 4 {
				for _, fill := range []uint64{0, 0xff, 0x5a} {
					var w uint64
					for i := range 4 {
						code := valid[(p+i)%len(valid)]
						if i == lane {
							code = uint64(p)
						}
						w |= (code | fill<<8) << (16 * i)
					}
					got := w&laneHigh != 0 || inRun(w, s.lanes.lo, s.lanes.hi)&laneBit7 != 0
					if want := s.undefined[p] == 1; got != want {
						t.Fatalf("%s: penalty %d in lane %d of %#x: lanes say undefined=%v, table %v", l, p, lane, w, got, want)
					}
				}
			}
		}
	}
}

// TestByteCheck: for every layout whose penalties byteCheck can check, byteCheck agrees
// with the penalty table for every pair of codes in every two neighbouring bytes (a carry
// out of one byte reaches the next), the other bytes holding valid codes.
func TestByteCheck(t *testing.T) {
	for _, l := range Layouts() {
		s := &specs[l]
		if s.undefinedFrom == 0 {
			continue
		}
		k := s.byteK
		valid := validCodes(s)
		for pos := range 7 {
			for p := range 256 {
				for q := range 256 {
					var w uint64
					for i := range 8 {
						w |= valid[(p+q+i)%len(valid)] << (8 * i)
					}
					w &^= 0xffff << (8 * pos)
					w |= (uint64(p) | uint64(q)<<8) << (8 * pos)
					got := byteCheck(w, k)&bytesBit7 != 0
					if want := s.undefined[p] == 1 || s.undefined[q] == 1; got != want {
						t.Fatalf("%s: penalties %d, %d in bytes %d, %d of %#x: byteCheck says undefined=%v, table %v",
							l, p, q, pos, pos+1, w, got, want)
					}
				}
			}
		}
	}
}

// validCodes returns the penalty codes s defines.
func validCodes(s *spec) []uint64 {
	var valid []uint64
	for p := range 256 {
		if s.undefined[p] == 0 {
			valid = append(valid, uint64(p))
		}
	}
	return valid
}
