package teamsim

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/team"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/sim/gcsim"
	"github.com/robocup-dnetwork/dnetwork/sim/world"
)

// MateTimeout is how recently a robot's node must have published a teammate's
// TeamInfo for the teammate to count as heard: the team component's online rule.
const MateTimeout = team.DefaultTeammateTimeout

// Status is a snapshot of the simulation.
type Status struct {
	// Up: everything runs. The other fields are zero until then.
	Up bool
	// Elapsed is the real time since the game started.
	Elapsed time.Duration
	// Game and GC are the simulated GameController's game and counters.
	Game gcsim.GameView
	GC   gcsim.Stats
	// Robots are our robots, by player number.
	Robots []RobotStatus
	// Online is the number of our robots the monitor shows online.
	Online int
	// TeamMessages is the number of our team's messages the monitor heard: every packet
	// a robot sent (each robot sends a copy to the monitor).
	TeamMessages uint64
	// Inputs counts the MotionInfo, BehaviorInfo and VisionInfo messages published to
	// the robots; InputErrors those that failed.
	Inputs, InputErrors uint64
	// World counts kicks, falls and ball placements; Ball is where the ball is.
	World world.Stats
	Ball  world.BallView
}

// RobotStatus is one robot as the world, the monitor and its node's topics show it.
type RobotStatus struct {
	ID int
	// Role and Play are the world's dmsgs.BehaviorInfoRole* and State* values.
	Role, Play uint8
	Skill      string
	Fallen     bool
	Penalised  bool
	// Online: the monitor heard the robot within its offline time.
	Online bool
	// GCConnected is the connected flag of the robot's last GCInfo.
	GCConnected bool
	// GCInfos and TeamInfos count the messages its node published on GCInfo and TeamInfo.
	GCInfos, TeamInfos uint64
	// Mates are the teammates whose TeamInfo its node published within MateTimeout.
	Mates []int
}

// Status returns a snapshot of the simulation.
func (s *Sim) Status() Status {
	select {
	case <-s.up:
	default:
		return Status{}
	}
	st := Status{
		Up: true, Elapsed: time.Since(s.began), Game: s.gc.State(), GC: s.gc.Stats(),
		Inputs: s.inputs.Load(), InputErrors: s.publishErr.Load(),
	}
	online := map[int]bool{}
	snap := s.mon.State()
	for _, r := range snap.Robots {
		if r.Team == s.cfg.Team && r.Online {
			online[int(r.Player)] = true
		}
	}
	for _, t := range snap.Teams {
		if t.Team == s.cfg.Team {
			st.TeamMessages += t.Messages
		}
	}
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	st.World, st.Ball = s.w.Stats(), s.w.Ball()
	for _, v := range s.w.Robots() {
		h := &s.heard[v.ID-1]
		r := RobotStatus{
			ID: v.ID, Role: v.Role, Play: v.Play, Skill: v.Skill, Fallen: v.Fallen, Penalised: v.Penalised,
			Online: online[v.ID], GCConnected: h.gcConnected, GCInfos: h.gcInfos, TeamInfos: h.teamInfos,
		}
		for p, t := range h.mates {
			if !t.IsZero() && now.Sub(t) <= MateTimeout {
				r.Mates = append(r.Mates, p)
			}
		}
		if r.Online {
			st.Online++
		}
		st.Robots = append(st.Robots, r)
	}
	return st
}

// RoleName returns the name of a dmsgs.BehaviorInfoRole* value.
func RoleName(role uint8) string {
	switch role {
	case dmsgs.BehaviorInfoRoleStriker:
		return "striker"
	case dmsgs.BehaviorInfoRoleDefender:
		return "defender"
	case dmsgs.BehaviorInfoRoleSupporter:
		return "supporter"
	case dmsgs.BehaviorInfoRoleGoalie:
		return "goalie"
	}
	return "other"
}

// Line describes the status in one line for a terminal, e.g.
//
//	12.5s PLAYING 1st 0:47 17 1:0 5 corner_kick 5 | online 5/5 | mates 4 4 4 4 4 | fallen 2 | team 410 gc 31 ret 60 | budget 11870
//
// game state, half, clock, score, set play or kick-off and penalties of our robots,
// then robots online per the monitor, the teammates each robot hears (from its
// TeamInfo topic), fallen robots, and the packets: team messages, control packets,
// return packets, and our remaining message budget as the GameController counts it.
func (st Status) Line() string {
	if !st.Up {
		return "starting..."
	}
	var b strings.Builder
	g := st.Game
	half := "1st"
	if !g.FirstHalf {
		half = "2nd"
	}
	secs := max(g.SecsRemaining, 0)
	fmt.Fprintf(&b, "%5.1fs %s %s %d:%02d %d %d:%d %d", st.Elapsed.Seconds(), strings.ToUpper(g.StateName), half,
		secs/60, secs%60, g.Teams[0].Number, g.Teams[0].Score, g.Teams[1].Score, g.Teams[1].Number)
	switch {
	case g.SetPlay != gcproto.SetPlayNone:
		fmt.Fprintf(&b, " %s %d", g.SetPlayName, g.KickingTeam)
	case g.SecondaryFor == "kick-off":
		fmt.Fprintf(&b, " kick-off %d", g.KickingTeam)
	}
	if g.Stopped {
		b.WriteString(" STOPPED")
	}
	for _, p := range g.Teams[0].Players {
		if p.Penalty != gcproto.PenaltyNone {
			fmt.Fprintf(&b, " P%d %ds", p.Number, p.SecsTillUnpenalised)
		}
	}
	fmt.Fprintf(&b, " | online %d/%d | mates", st.Online, len(st.Robots))
	all := true
	for _, r := range st.Robots {
		all = all && len(r.Mates) == len(st.Robots)-1
	}
	if all && len(st.Robots) > 1 {
		fmt.Fprintf(&b, " all %d", len(st.Robots)-1)
	} else {
		for _, r := range st.Robots {
			b.WriteString(" " + strconv.Itoa(len(r.Mates)))
		}
	}
	var fallen []string
	for _, r := range st.Robots {
		if r.Fallen {
			fallen = append(fallen, strconv.Itoa(r.ID))
		}
	}
	if len(fallen) > 0 {
		fmt.Fprintf(&b, " | fallen %s", strings.Join(fallen, ","))
	}
	fmt.Fprintf(&b, " | team %d gc %d ret %d", st.TeamMessages, st.GC.Packets, st.GC.Returns)
	if budget := g.Teams[0].MessageBudget; budget >= 0 {
		fmt.Fprintf(&b, " | budget %d", budget)
	}
	return b.String()
}
