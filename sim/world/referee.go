package world

import "github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"

// Referee is what a robot's behaviour knows of the game: the GCInfo its dnetwork node
// publishes, reduced to what the simulated robots act on. The zero value is a robot
// that has heard no GameController: it stands still.
type Referee struct {
	// Connected: the GameController is heard. Robots without one stand still.
	Connected bool
	// State is the game state, dmsgs.GCInfoState*.
	State uint8
	// Stopped: play is stopped (HSL); everything freezes.
	Stopped bool
	// FirstHalf is true in the first half.
	FirstHalf bool
	// SetPlay is the running set play, dmsgs.GCInfoSetPlay*; SetPlayOurs tells whether
	// our team takes it.
	SetPlay     uint8
	SetPlayOurs bool
	// KickOff: our team has the kick-off. KickOffRunning: the kick-off time of PLAYING
	// has not run out yet (the secondary timer counts in PLAYING without a set play).
	KickOff        bool
	KickOffRunning bool
	// Penalised: this robot is penalised and off the field.
	Penalised bool
	// OurScore and EnemyScore are the goals of the two teams.
	OurScore, EnemyScore uint8
}

// RefereeOf reduces a GCInfo message of the robot's node to a Referee.
func RefereeOf(g *dmsgs.GCInfo, team uint8) Referee {
	if g == nil {
		return Referee{}
	}
	r := Referee{
		Connected:  g.Connected,
		State:      g.State,
		Stopped:    g.Stopped,
		FirstHalf:  g.FirstHalf,
		SetPlay:    g.SetPlay,
		KickOff:    g.Kickoff,
		Penalised:  g.Penalised,
		OurScore:   g.OurScore,
		EnemyScore: g.EnemyScore,
	}
	if g.SetPlay != dmsgs.GCInfoSetPlayNone {
		r.SetPlayOurs = g.SetPlayTeam == team
	}
	r.KickOffRunning = g.State == dmsgs.GCInfoStatePlaying && g.SetPlay == dmsgs.GCInfoSetPlayNone && g.SecondaryTime > 0
	return r
}

// playing reports whether the ball is in play: PLAYING and not stopped.
func (r Referee) playing() bool {
	return r.Connected && r.State == dmsgs.GCInfoStatePlaying && !r.Stopped
}

// keepAway reports whether our robots must keep their distance from the ball: the
// other team's set play or kick-off.
func (r Referee) keepAway() bool {
	if !r.playing() {
		return false
	}
	if r.SetPlay != dmsgs.GCInfoSetPlayNone {
		return !r.SetPlayOurs
	}
	return r.KickOffRunning && !r.KickOff
}

// ourKick reports whether our team has a set play or kick-off running, during which
// the other team keeps away.
func (r Referee) ourKick() bool {
	if !r.playing() {
		return false
	}
	if r.SetPlay != dmsgs.GCInfoSetPlayNone {
		return r.SetPlayOurs
	}
	return r.KickOffRunning && r.KickOff
}
