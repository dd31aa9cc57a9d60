package gcsim

import (
	"cmp"
	"net/netip"
	"slices"
	"time"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
)

// ConnStatus is how a GameController rates a robot's connection from the age of its
// last return packet.
type ConnStatus uint8

// Connection states, GameController3's connection_status rule.
const (
	Offline ConnStatus = iota // nothing heard for more than BadWithin
	Bad                       // last heard within BadWithin
	Good                      // last heard within GoodWithin
)

// Limits of the connection states.
const (
	GoodWithin = 2 * time.Second
	BadWithin  = 4 * time.Second
)

// String returns "good", "bad" or "offline".
func (c ConnStatus) String() string {
	switch c {
	case Good:
		return "good"
	case Bad:
		return "bad"
	default:
		return "offline"
	}
}

// StatusOf rates a robot last heard age ago: Good up to 2 s, Bad up to 4 s, else
// Offline.
func StatusOf(age time.Duration) ConnStatus {
	switch {
	case age <= GoodWithin:
		return Good
	case age <= BadWithin:
		return Bad
	default:
		return Offline
	}
}

// RobotView is what the simulator knows about one robot (team, player) from its return
// packets.
type RobotView struct {
	Team   uint8 `json:"team"`
	Player uint8 `json:"player"`
	// InGame is true when Team is one of the two teams of the game; a GameController
	// ignores the others.
	InGame bool `json:"inGame"`

	Status    ConnStatus    `json:"-"`
	StatusStr string        `json:"status"`
	LastHeard time.Time     `json:"lastHeard"`
	Age       time.Duration `json:"age"`
	// Addr is the source of the last packet; AddrChanges counts how often it changed
	// (two robots with the same number, or a robot that changed its address).
	Addr        netip.AddrPort `json:"addr"`
	AddrChanges uint64         `json:"addrChanges"`
	Packets     uint64         `json:"packets"`

	// Version is the return packet version of the last packet (2, 3 or 4).
	Version uint8 `json:"version"`
	// Message is the message byte of version 2 and 3 packets; MessageName names it.
	Message     gcproto.ReturnMessage `json:"message"`
	MessageName string                `json:"messageName,omitempty"`
	// Version 4 contents of the last packet.
	Fallen  bool       `json:"fallen"`
	Pose    [3]float32 `json:"pose"`
	BallAge float32    `json:"ballAge"`
	Ball    [2]float32 `json:"ball"`
}

type robotKey struct{ team, player uint8 }

// robots tracks return packets. It is guarded by the Simulator's lock.
type robots struct {
	teams [2]uint8
	m     map[robotKey]*RobotView
}

func (rs *robots) heard(r *gcproto.ReturnPacket, src netip.AddrPort, now time.Time) {
	k := robotKey{r.Team, r.Player}
	v := rs.m[k]
	if v == nil {
		if rs.m == nil {
			rs.m = map[robotKey]*RobotView{}
		}
		v = &RobotView{Team: r.Team, Player: r.Player, InGame: r.Team == rs.teams[0] || r.Team == rs.teams[1]}
		rs.m[k] = v
	} else if v.Addr != src {
		v.AddrChanges++
	}
	v.Addr = src
	v.LastHeard = now
	v.Packets++
	v.Version = r.Version
	v.Message = r.Message
	v.MessageName = ""
	if r.Version != gcproto.ReturnVersion {
		v.MessageName = gcproto.MessageName(r.Version, r.Message)
	}
	v.Fallen, v.Pose, v.BallAge, v.Ball = r.Fallen, r.Pose, r.BallAge, r.Ball
}

// views returns the robots sorted by team and player, rated at now.
func (rs *robots) views(now time.Time) []RobotView {
	out := make([]RobotView, 0, len(rs.m))
	for _, v := range rs.m {
		c := *v
		c.Age = max(now.Sub(c.LastHeard), 0)
		c.Status = StatusOf(c.Age)
		c.StatusStr = c.Status.String()
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b RobotView) int {
		return cmp.Or(cmp.Compare(a.Team, b.Team), cmp.Compare(a.Player, b.Player))
	})
	return out
}
