package gamecontroller

import (
	"math"
	"time"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/builtin_interfaces"
)

var layoutNames = map[gcproto.Layout]string{
	gcproto.LayoutHL640: "HL640",
	gcproto.LayoutHL664: "HL664",
	gcproto.LayoutHL688: "HL688",
	gcproto.LayoutSPL12: "SPL12",
	gcproto.LayoutSPL13: "SPL13",
	gcproto.LayoutSPL14: "SPL14",
	gcproto.LayoutSPL15: "SPL15",
	gcproto.LayoutSPL16: "SPL16",
	gcproto.LayoutSPL17: "SPL17",
	gcproto.LayoutSPL18: "SPL18",
	gcproto.LayoutHSL19: "HSL19",
	gcproto.LayoutHSL20: "HSL20",
}

// LayoutName returns the name the ROS messages use for a layout (gc_version,
// layout): "HL640", "HL664", "HL688", "SPL12" … "SPL18", "HSL19", "HSL20"; "" for an
// invalid layout.
func LayoutName(l gcproto.Layout) string { return layoutNames[l] }

// ReturnVersionFor returns the return packet version a GameController sending layout l
// expects: 2 for HL v12, 3 for SPL v12/v13, 4 for SPL v14 on and HSL.
func ReturnVersionFor(l gcproto.Layout) uint8 {
	switch {
	case l.Family() == gcproto.FamilyHL:
		return gcproto.ReturnVersionHL
	case l == gcproto.LayoutSPL12 || l == gcproto.LayoutSPL13:
		return gcproto.ReturnVersionSPL3
	}
	return gcproto.ReturnVersion
}

// rosTime converts t to builtin_interfaces/Time (seconds since the clock's epoch).
func rosTime(t time.Time) builtin_interfaces.Time {
	if t.IsZero() {
		return builtin_interfaces.Time{}
	}
	ns := t.UnixNano()
	sec, nsec := ns/1e9, ns%1e9
	if nsec < 0 {
		sec, nsec = sec-1, nsec+1e9
	}
	return builtin_interfaces.Time{Sec: int32(sec), Nanosec: uint32(nsec)}
}

// fillGCInfo writes the GCInfo message of g into m, overwriting every field.
func fillGCInfo(m *dmsgs.GCInfo, g *gcproto.GCInfo, valid, connected bool, stamp time.Time) {
	*m = dmsgs.GCInfo{
		Stamp:                 rosTime(stamp),
		Connected:             connected,
		GameType:              g.GameType,
		State:                 uint8(g.State),
		GamePhase:             uint8(g.GamePhase),
		SetPlay:               uint8(g.SetPlay),
		SecondaryState:        g.SecondaryState,
		SetPlayTeam:           g.SetPlayTeam,
		OurDirectFreeKick:     g.OurDirectFreeKick,
		OurIndirectFreeKick:   g.OurIndirectFreeKick,
		OurPenaltyKick:        g.OurPenaltyKick,
		OurCornerKick:         g.OurCornerKick,
		OurGoalKick:           g.OurGoalKick,
		OurThrowIn:            g.OurThrowIn,
		EnemyDirectFreeKick:   g.EnemyDirectFreeKick,
		EnemyIndirectFreeKick: g.EnemyIndirectFreeKick,
		EnemyPenaltyKick:      g.EnemyPenaltyKick,
		EnemyCornerKick:       g.EnemyCornerKick,
		EnemyGoalKick:         g.EnemyGoalKick,
		EnemyThrowIn:          g.EnemyThrowIn,
		Ready:                 g.SetPlayReady,
		Freeze:                g.SetPlayFreeze,
		Kickoff:               g.Kickoff,
		DropBall:              g.DropBall,
		FirstHalf:             g.FirstHalf,
		Stopped:               g.Stopped,
		SecsRemaining:         g.SecsRemaining,
		SecondaryTime:         g.SecondaryTime,
		Penalised:             g.Penalised,
		Penalty:               uint8(g.Penalty),
		SecsTillUnpenalised:   g.SecsTillUnpenalised,
		OurScore:              g.OurScore,
		EnemyScore:            g.EnemyScore,
		TeamColour:            uint8(g.OurColour),
		EnemyColour:           uint8(g.EnemyColour),
		MessageBudget:         int32(g.MessageBudget),
	}
	if valid {
		m.GCVersion = LayoutName(g.Layout)
	}
}

// fillGameControlData writes the whole packet p, received from source at stamp, into m.
// The slices are new on every call: a publisher may keep the message.
func fillGameControlData(m *dmsgs.GameControlData, p *gcproto.Packet, source string, stamp time.Time) {
	*m = dmsgs.GameControlData{
		Source:             source,
		Magic:              p.Header.Magic(),
		Version:            uint8(p.Layout.Version()),
		Layout:             LayoutName(p.Layout),
		PacketNumber:       p.PacketNumber,
		PlayersPerTeam:     p.PlayersPerTeam,
		GameType:           p.GameType,
		CompetitionPhase:   p.CompetitionPhase,
		CompetitionType:    p.CompetitionType,
		GamePhase:          uint8(p.GamePhase),
		State:              uint8(p.State),
		SetPlay:            uint8(p.SetPlay),
		SetPlayRaw:         p.SetPlayRaw,
		FirstHalf:          p.FirstHalf,
		KickingTeam:        p.KickingTeam,
		Stopped:            p.Stopped,
		SecsRemaining:      p.SecsRemaining,
		SecondaryTime:      p.SecondaryTime,
		SecondaryStateInfo: p.SecondaryStateInfo,
		DropInTeam:         p.DropInTeam,
		DropInTime:         p.DropInTime,
	}
	m.Header.Stamp = rosTime(stamp)
	n := p.Layout.MaxPlayers()
	players := make([]dmsgs.GCPlayer, 2*n)
	for t := range p.Teams {
		src := &p.Teams[t]
		dst := &m.Teams[t]
		*dst = dmsgs.GCTeam{
			TeamNumber:        src.TeamNumber,
			FieldPlayerColour: uint8(src.FieldPlayerColour),
			GoalkeeperColour:  uint8(src.GoalkeeperColour),
			Goalkeeper:        src.Goalkeeper,
			Score:             src.Score,
			PenaltyShot:       src.PenaltyShot,
			SingleShots:       src.SingleShots,
			MessageBudget:     src.MessageBudget,
			Players:           players[t*n : (t+1)*n : (t+1)*n],
		}
		if p.Layout.HasCoach() {
			dst.CoachSequence = src.CoachSequence
			dst.CoachMessage = append([]uint8(nil), src.CoachMessage[:]...)
			dst.Coach = gcPlayer(&src.Coach, p.Layout)
		}
		for i := range n {
			dst.Players[i] = gcPlayer(&src.Players[i], p.Layout)
		}
	}
}

// gcPlayer maps a RobotInfo: the codec keeps HL yellow cards and HSL cautions in one
// field, the message in two.
func gcPlayer(r *gcproto.RobotInfo, l gcproto.Layout) dmsgs.GCPlayer {
	p := dmsgs.GCPlayer{
		Penalty:             uint8(r.Penalty),
		SecsTillUnpenalised: r.SecsTillUnpenalised,
		Warnings:            r.Warnings,
		RedCards:            r.RedCards,
		Goalkeeper:          r.Goalkeeper,
	}
	if l.Family() == gcproto.FamilyHSL {
		p.Cautions = r.YellowCards
	} else {
		p.YellowCards = r.YellowCards
	}
	return p
}

// mmPerCm converts the robot's centimetres to the return packet's millimetres.
const mmPerCm = 10

// finite32 converts v to float32, or 0 when it is NaN, infinite or beyond float32.
func finite32(v float64) float32 {
	f := float32(v)
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return 0
	}
	return f
}
