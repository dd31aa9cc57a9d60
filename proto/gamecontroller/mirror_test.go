package gamecontroller

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// The types below mirror the C structs field by field for encoding/binary. They are the
// differential oracle of the fuzz targets: whatever the codec accepts, binary.Decode of
// the mirror must read the same values.

type robotMirror interface{ info() RobotInfo }

type hlRobot4 struct{ Penalty, Secs, Yellow, Red uint8 }
type hlRobot5 struct{ Penalty, Secs, Yellow, Red, IsGoalie uint8 }
type hlRobot6 struct{ Penalty, Secs, Warnings, Yellow, Red, GoalKeeper uint8 }
type splRobot struct{ Penalty, Secs uint8 }
type hsl19Robot struct{ Penalty, Secs, Warnings, Cautions uint8 }
type hsl20Robot struct{ Penalty, Secs, Cautions uint8 }

func (r hlRobot4) info() RobotInfo {
	return RobotInfo{Penalty: Penalty(r.Penalty), SecsTillUnpenalised: r.Secs, YellowCards: r.Yellow, RedCards: r.Red}
}

func (r hlRobot5) info() RobotInfo {
	return RobotInfo{Penalty: Penalty(r.Penalty), SecsTillUnpenalised: r.Secs, YellowCards: r.Yellow, RedCards: r.Red, Goalkeeper: r.IsGoalie == 1}
}

func (r hlRobot6) info() RobotInfo {
	return RobotInfo{Penalty: Penalty(r.Penalty), SecsTillUnpenalised: r.Secs, Warnings: r.Warnings,
		YellowCards: r.Yellow, RedCards: r.Red, Goalkeeper: r.GoalKeeper == 1}
}

func (r splRobot) info() RobotInfo {
	return RobotInfo{Penalty: Penalty(r.Penalty), SecsTillUnpenalised: r.Secs}
}

func (r hsl19Robot) info() RobotInfo {
	return RobotInfo{Penalty: Penalty(r.Penalty), SecsTillUnpenalised: r.Secs, Warnings: r.Warnings, YellowCards: r.Cautions}
}

func (r hsl20Robot) info() RobotInfo {
	return RobotInfo{Penalty: Penalty(r.Penalty), SecsTillUnpenalised: r.Secs, YellowCards: r.Cautions}
}

type hlTeamMirror[R robotMirror] struct {
	TeamNumber, TeamColour, Score, PenaltyShot uint8
	SingleShots                                uint16
	CoachSequence                              uint8
	CoachMessage                               [253]uint8
	Coach                                      R
	Players                                    [11]R
}

type hlMirror[R robotMirror] struct {
	Header                                                                       [4]byte
	Version                                                                      uint16
	PacketNumber, PlayersPerTeam, GameType, State, FirstHalf, KickOffTeam, SecSt uint8
	SecondaryStateInfo                                                           [4]uint8
	DropInTeam                                                                   uint8
	DropInTime, SecsRemaining, SecondaryTime                                     int16
	Teams                                                                        [2]hlTeamMirror[R]
}

type teamMirror interface{ team() TeamInfo }

type spl12Team struct {
	TeamNumber, TeamColour, Score, PenaltyShot uint8
	SingleShots                                uint16
	Players                                    [6]splRobot
}

type spl14Team struct {
	TeamNumber, TeamColour, Score, PenaltyShot uint8
	SingleShots, MessageBudget                 uint16
	Players                                    [7]splRobot
}

type head15 struct {
	TeamNumber, FieldPlayerColour, GoalkeeperColour, Goalkeeper, Score, PenaltyShot uint8
	SingleShots, MessageBudget                                                      uint16
}

type spl15Team struct {
	head15
	Players [20]splRobot
}

type hsl19Team struct {
	head15
	Players [20]hsl19Robot
}

type hsl20Team struct {
	head15
	Players [20]hsl20Robot
}

func (h head15) info() TeamInfo {
	return TeamInfo{TeamNumber: h.TeamNumber, FieldPlayerColour: TeamColour(h.FieldPlayerColour),
		GoalkeeperColour: TeamColour(h.GoalkeeperColour), Goalkeeper: h.Goalkeeper, Score: h.Score,
		PenaltyShot: h.PenaltyShot, SingleShots: h.SingleShots, MessageBudget: h.MessageBudget}
}

func players[R robotMirror](dst *[MaxPlayers]RobotInfo, src []R) {
	for i, r := range src {
		dst[i] = r.info()
	}
}

func (m spl12Team) team() TeamInfo {
	t := TeamInfo{TeamNumber: m.TeamNumber, FieldPlayerColour: TeamColour(m.TeamColour), Score: m.Score,
		PenaltyShot: m.PenaltyShot, SingleShots: m.SingleShots}
	players(&t.Players, m.Players[:])
	return t
}

func (m spl14Team) team() TeamInfo {
	t := TeamInfo{TeamNumber: m.TeamNumber, FieldPlayerColour: TeamColour(m.TeamColour), Score: m.Score,
		PenaltyShot: m.PenaltyShot, SingleShots: m.SingleShots, MessageBudget: m.MessageBudget}
	players(&t.Players, m.Players[:])
	return t
}

func (m spl15Team) team() TeamInfo { t := m.info(); players(&t.Players, m.Players[:]); return t }
func (m hsl19Team) team() TeamInfo { t := m.info(); players(&t.Players, m.Players[:]); return t }
func (m hsl20Team) team() TeamInfo { t := m.info(); players(&t.Players, m.Players[:]); return t }

type splMirror[T teamMirror] struct {
	Header                                                         [4]byte
	Version, PacketNumber, PlayersPerTeam, Byte7, Byte8, GamePhase uint8
	State, SetPlay, FirstHalf, KickingTeam                         uint8
	SecsRemaining, SecondaryTime                                   int16
	Teams                                                          [2]T
}

func (m *hlMirror[R]) packet(l Layout) Packet {
	p := Packet{Layout: l, PacketNumber: m.PacketNumber, PlayersPerTeam: m.PlayersPerTeam, GameType: m.GameType,
		State: State(m.State), FirstHalf: m.FirstHalf == 1, KickingTeam: m.KickOffTeam, SetPlayRaw: m.SecSt,
		SecondaryStateInfo: m.SecondaryStateInfo, DropInTeam: m.DropInTeam, DropInTime: m.DropInTime,
		SecsRemaining: int32(m.SecsRemaining), SecondaryTime: int32(m.SecondaryTime)}
	if int(m.SecSt) < len(wantSetPlays(l)) {
		p.SetPlay = wantSetPlays(l)[m.SecSt]
	}
	if m.SecSt >= 1 && m.SecSt <= 3 {
		p.GamePhase = GamePhase(m.SecSt)
	}
	for i, tm := range m.Teams {
		t := &p.Teams[i]
		t.TeamNumber, t.FieldPlayerColour, t.Score, t.PenaltyShot = tm.TeamNumber, TeamColour(tm.TeamColour), tm.Score, tm.PenaltyShot
		t.SingleShots, t.CoachSequence, t.CoachMessage, t.Coach = tm.SingleShots, tm.CoachSequence, tm.CoachMessage, tm.Coach.info()
		players(&t.Players, tm.Players[:])
	}
	return p
}

func (m *splMirror[T]) packet(l Layout) Packet {
	p := Packet{Layout: l, PacketNumber: m.PacketNumber, PlayersPerTeam: m.PlayersPerTeam,
		GamePhase: GamePhase(m.GamePhase), State: State(m.State), SetPlayRaw: m.SetPlay, FirstHalf: m.FirstHalf == 1,
		KickingTeam: m.KickingTeam, SecsRemaining: int32(m.SecsRemaining), SecondaryTime: int32(m.SecondaryTime)}
	if l.Family() == FamilyHSL {
		p.CompetitionType, p.Stopped = m.Byte7, m.Byte8 == 1
	} else {
		p.CompetitionPhase, p.CompetitionType = m.Byte7, m.Byte8
	}
	if int(m.SetPlay) < len(wantSetPlays(l)) {
		p.SetPlay = wantSetPlays(l)[m.SetPlay]
	}
	for i, tm := range m.Teams {
		p.Teams[i] = tm.team()
	}
	return p
}

// mirrorOf returns a new mirror value for layout l.
func mirrorOf(l Layout) any {
	switch l {
	case LayoutHL640:
		return new(hlMirror[hlRobot4])
	case LayoutHL664:
		return new(hlMirror[hlRobot5])
	case LayoutHL688:
		return new(hlMirror[hlRobot6])
	case LayoutSPL12, LayoutSPL13:
		return new(splMirror[spl12Team])
	case LayoutSPL14:
		return new(splMirror[spl14Team])
	case LayoutSPL15, LayoutSPL16, LayoutSPL17, LayoutSPL18:
		return new(splMirror[spl15Team])
	case LayoutHSL19:
		return new(splMirror[hsl19Team])
	case LayoutHSL20:
		return new(splMirror[hsl20Team])
	}
	return nil
}

// oracle decodes b of layout l with encoding/binary and the mirror structs.
func oracle(t testing.TB, b []byte, l Layout) Packet {
	t.Helper()
	m := mirrorOf(l)
	if _, err := binary.Decode(b, binary.LittleEndian, m); err != nil {
		t.Fatalf("oracle %v: %v", l, err)
	}
	var p Packet
	switch m := m.(type) {
	case interface{ packet(Layout) Packet }:
		p = m.packet(l)
	default:
		t.Fatalf("oracle %v: %T", l, m)
	}
	if bytes.HasPrefix(b, []byte(MagicMonitor)) {
		p.Header = HeaderRGTD
	}
	return p
}

// returnMirror mirrors RoboCupGameControlReturnData v4.
type returnMirror struct {
	Header          [4]byte
	Version, Player uint8
	Team, Fallen    uint8
	Pose            [3]float32
	BallAge         float32
	Ball            [2]float32
}

// TestWireSize pins the mirrors, and so the layouts, to the C sizes.
func TestWireSize(t *testing.T) {
	for _, l := range Layouts() {
		if n := binary.Size(mirrorOf(l)); n != l.Size() {
			t.Errorf("%v: mirror is %d bytes, layout %d", l, n, l.Size())
		}
	}
	for _, tc := range []struct {
		v    any
		want int
	}{
		{hlTeamMirror[hlRobot4]{}, TeamSizeHL640}, {hlTeamMirror[hlRobot5]{}, TeamSizeHL664}, {hlTeamMirror[hlRobot6]{}, TeamSizeHL688},
		{spl12Team{}, TeamSizeSPL12}, {spl14Team{}, TeamSizeSPL14}, {spl15Team{}, TeamSizeSPL15},
		{hsl19Team{}, TeamSizeHSL19}, {hsl20Team{}, TeamSizeHSL20},
		{returnMirror{}, ReturnSizeV4},
	} {
		if n := binary.Size(tc.v); n != tc.want {
			t.Errorf("%T: %d bytes, want %d", tc.v, n, tc.want)
		}
	}
}

// TestOracleGolden checks the oracle itself on the golden packets.
func TestOracleGolden(t *testing.T) {
	for _, g := range goldenLayouts {
		if got := oracle(t, g.build(), g.l); got != g.want() {
			t.Errorf("%s: oracle\n got %+v\nwant %+v", g.file, got, g.want())
		}
	}
}
