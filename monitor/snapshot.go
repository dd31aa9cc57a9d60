package monitor

import (
	"cmp"
	"math"
	"net/netip"
	"slices"
	"strconv"
	"time"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
)

// Snapshot is everything the monitor knows at one time; GET /api/state returns it as
// JSON. The package documentation describes every member.
type Snapshot struct {
	Time          time.Time `json:"time"`
	League        string    `json:"league"`
	SizeCap       int       `json:"size_cap"`
	OfflineAfterS float64   `json:"offline_after_s"`
	RemoveAfterS  float64   `json:"remove_after_s"`
	RateWindowS   float64   `json:"rate_window_s"`
	Field         Field     `json:"field"`

	GameController GCView       `json:"gamecontroller"`
	Teams          []TeamView   `json:"teams"`
	Robots         []RobotView  `json:"robots"`
	Ports          []PortView   `json:"ports"`
	Sources        []SourceView `json:"sources"`
	// PortFlags is the traffic heard on ports the rules do not allow, per source host.
	PortFlags     []PortFlagView `json:"port_flags"`
	DroppedRobots uint64         `json:"dropped_robots"`
	// Replay is set while a recording is replayed (Player).
	Replay *ReplayView `json:"replay,omitempty"`
}

// GCView is the GameController as heard on its port.
type GCView struct {
	Online    bool     `json:"online"`
	Packets   uint64   `json:"packets"`
	Rate      float64  `json:"rate"`
	AgeS      *float64 `json:"age_s"`
	Source    string   `json:"source"`
	Sources   []string `json:"sources"`
	Multiple  bool     `json:"multiple"`
	Games     uint64   `json:"games"`
	Local     bool     `json:"local"`
	Warning   string   `json:"warning"`
	Faults    Faults   `json:"faults"`
	LastError string   `json:"last_error"`
	Game      *Game    `json:"game"`
	// TrueData is the GameController's monitor channel; null when it is not requested
	// and nothing arrived on it.
	TrueData *TrueDataView `json:"true_data"`
}

// Game is the content of the last valid control packet.
type Game struct {
	Layout         string      `json:"layout"`
	Version        int         `json:"version"`
	Header         string      `json:"header"`
	PacketNumber   uint8       `json:"packet_number"`
	PlayersPerTeam uint8       `json:"players_per_team"`
	State          string      `json:"state"`
	GamePhase      string      `json:"game_phase"`
	SetPlay        string      `json:"set_play"`
	Stopped        bool        `json:"stopped"`
	FirstHalf      bool        `json:"first_half"`
	KickingTeam    uint8       `json:"kicking_team"`
	KickingNumber  uint8       `json:"kicking_team_number"`
	SetPlayTeam    uint8       `json:"set_play_team"`
	DropBall       bool        `json:"drop_ball"`
	SecsRemaining  int32       `json:"secs_remaining"`
	SecondaryTime  int32       `json:"secondary_time"`
	BudgetCounted  bool        `json:"budget_counted"`
	Teams          [2]GameTeam `json:"teams"`
}

// GameTeam is one team of the control packet.
type GameTeam struct {
	Team             uint8        `json:"team"`
	Colour           string       `json:"colour"`
	GoalkeeperColour string       `json:"goalkeeper_colour,omitempty"`
	Goalkeeper       uint8        `json:"goalkeeper,omitempty"`
	Score            uint8        `json:"score"`
	PenaltyShot      uint8        `json:"penalty_shot"`
	MessageBudget    *int         `json:"message_budget"`
	Players          []GamePlayer `json:"players"`
}

// GamePlayer is one player's penalty as the GameController sends it.
type GamePlayer struct {
	Player              int    `json:"player"`
	Penalty             string `json:"penalty"`
	SecsTillUnpenalised uint8  `json:"secs_till_unpenalised"`
}

// TeamView is one team: its formats, messages and budget.
type TeamView struct {
	Team    uint8  `json:"team"`
	Port    uint16 `json:"port"`
	Attacks string `json:"attacks"`
	Colour  string `json:"colour"`
	Score   *int   `json:"score"`
	// Formats are the formats its robots' last team messages had, sorted ("dnet",
	// "robocup", "zju", ...).
	Formats  []string `json:"formats"`
	Messages uint64   `json:"messages"`
	Rate     float64  `json:"rate"`
	// Counted are its messages the monitor heard while the game state counts.
	Counted         uint64 `json:"counted"`
	BudgetRemaining *int   `json:"budget_remaining"`
	// GCUsed is what the GameController counted in the same time: the drops of its
	// remaining budget since the monitor heard the game begin (or first heard it).
	// BudgetDiff is Counted minus GCUsed: above 0, the monitor heard messages the
	// GameController did not count; below 0, the GameController counted messages the
	// monitor did not hear. Both are null when the GameController sends no budget.
	GCUsed       *uint64 `json:"gc_used"`
	BudgetDiff   *int64  `json:"budget_diff"`
	OverBudget   uint64  `json:"over_budget"`
	Robots       int     `json:"robots"`
	RobotsOnline int     `json:"robots_online"`
	Malformed    uint64  `json:"malformed"`
	Illegal      uint64  `json:"illegal"`
}

// RobotView is one robot (team, player).
type RobotView struct {
	Team                uint8       `json:"team"`
	Player              uint8       `json:"player"`
	Online              bool        `json:"online"`
	AgeS                float64     `json:"age_s"`
	Pose                *PoseView   `json:"pose"`
	PoseSource          string      `json:"pose_source"`
	Ball                *BallView   `json:"ball"`
	Role                string      `json:"role"`
	PlayState           string      `json:"play_state"`
	Fallen              bool        `json:"fallen"`
	Incapacitated       bool        `json:"incapacitated"`
	Penalised           bool        `json:"penalised"`
	Penalty             string      `json:"penalty"`
	SecsTillUnpenalised uint8       `json:"secs_till_unpenalised"`
	Format              string      `json:"format"`
	Auth                string      `json:"auth"`
	TeamMsgs            ChannelView `json:"team_msgs"`
	ReturnMsgs          ChannelView `json:"return_msgs"`
	ReturnVersion       uint8       `json:"return_version"`
	Counted             uint64      `json:"counted"`
	Faults              Faults      `json:"faults"`
	Malformed           uint64      `json:"malformed"`
	Illegal             uint64      `json:"illegal"`
	LastError           string      `json:"last_error"`
	// Echo is the clock echo of the robot's last team packet (dnet version 2); null: none.
	Echo *EchoView `json:"echo"`
	// Clock is the robot's clock against its team's reference robot; null when it is the
	// reference or not yet known.
	Clock *ClockView `json:"clock"`
	// Link is how its team messages reach the monitor; null before the first.
	Link *LinkView `json:"link"`
}

// LinkView is the link of a robot's team messages to the monitor over the last
// Config.RateWindow (package proto/linkq): loss from the gaps in their sequence numbers
// (dnet; null for zju), jitter (the mean difference of the transit times of consecutive
// messages, which needs no clock offset), and the messages that came twice (a robot's
// monitor copies among them) or out of order. A monitor cannot measure a robot's one-way
// delay: it knows no robot's clock against its own.
type LinkView struct {
	Loss       *float64 `json:"loss"`
	Received   int      `json:"received"`
	Expected   int      `json:"expected"`
	JitterMs   *float64 `json:"jitter_ms"`
	Duplicates int      `json:"duplicates"`
	Reordered  int      `json:"reordered"`
}

// linkView returns r's link at now, or nil before its first team message.
func (m *Monitor) linkView(r *robot, now time.Time) *LinkView {
	r.link.Window = m.cfg.RateWindow
	q := r.link.Quality(now, 0, 0, false)
	if !q.HasPacket {
		return nil
	}
	v := &LinkView{Received: q.Received, Expected: q.Expected, Duplicates: q.Duplicates, Reordered: q.Reordered}
	if q.Expected > 0 {
		loss := round(q.Loss, 3)
		v.Loss = &loss
	}
	if q.JitterKnown {
		j := round(float64(q.Jitter)/float64(time.Millisecond), 1)
		v.JitterMs = &j
	}
	return v
}

// PoseView is a pose in metres and radians.
type PoseView struct {
	X     float64 `json:"x"`
	Y     float64 `json:"y"`
	Theta float64 `json:"theta"`
}

// BallView is a robot's ball estimate: global (from the robot's pose) and relative.
type BallView struct {
	X      float64  `json:"x"`
	Y      float64  `json:"y"`
	RelX   float64  `json:"rel_x"`
	RelY   float64  `json:"rel_y"`
	AgeS   *float64 `json:"age_s"`
	Source string   `json:"source"`
}

// ChannelView is what a robot sent on one kind of port.
type ChannelView struct {
	Count  uint64   `json:"count"`
	Rate   float64  `json:"rate"`
	AgeS   *float64 `json:"age_s"`
	Source string   `json:"source"`
}

// PortView is one socket with its counters. State is the socket's (starting, up, down,
// stopped), or in a replay PortHeard or PortSilent.
type PortView struct {
	Name       string `json:"name"`
	Kind       string `json:"kind"`
	Port       uint16 `json:"port"`
	Team       uint8  `json:"team"`
	State      string `json:"state"`
	Interface  string `json:"interface"`
	Error      string `json:"error"`
	Received   uint64 `json:"received"`
	Delivered  uint64 `json:"delivered"`
	Malformed  uint64 `json:"malformed"`
	QueueFull  uint64 `json:"queue_full"`
	Oversize   uint64 `json:"oversize"`
	Filtered   uint64 `json:"filtered"`
	Sent       uint64 `json:"sent"`
	SendErrors uint64 `json:"send_errors"`
}

// SourceView is an address whose packets could not be decoded and that no robot is
// known at.
type SourceView struct {
	Source    string  `json:"source"`
	Kind      string  `json:"kind"`
	Port      uint16  `json:"port"`
	Packets   uint64  `json:"packets"`
	AgeS      float64 `json:"age_s"`
	Faults    Faults  `json:"faults"`
	LastError string  `json:"last_error"`
}

// State returns a snapshot at the clock's now. Robots and sources silent for longer than
// RemoveAfter are forgotten first.
func (m *Monitor) State() Snapshot {
	now := m.clk.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.prune(now)
	s := Snapshot{
		Time:          now,
		League:        m.cfg.League.String(),
		SizeCap:       m.cfg.League.SizeCap(),
		OfflineAfterS: m.cfg.OfflineAfter.Seconds(),
		RemoveAfterS:  m.cfg.RemoveAfter.Seconds(),
		RateWindowS:   m.cfg.RateWindow.Seconds(),
		Field:         m.cfg.Field,
		DroppedRobots: m.dropped,
		Teams:         []TeamView{},
		Robots:        []RobotView{},
		Ports:         []PortView{},
		Sources:       []SourceView{},
		PortFlags:     m.flagViews(now),
	}
	s.GameController = m.gcView(now)
	order := m.teamOrder()
	for i, t := range order {
		s.Teams = append(s.Teams, m.teamView(now, t, i))
	}
	for _, r := range m.robots {
		s.Robots = append(s.Robots, m.robotView(now, r))
	}
	rank := make(map[uint8]int, len(order))
	for i, t := range order {
		rank[t] = i
	}
	slices.SortFunc(s.Robots, func(a, b RobotView) int {
		return cmp.Or(cmp.Compare(rank[a.Team], rank[b.Team]), cmp.Compare(a.Player, b.Player))
	})
	for _, l := range m.listeners {
		st, ss := l.w.Stats(), l.w.Status()
		pv := PortView{Name: l.port.Name(), Kind: l.port.Kind.String(), Port: l.w.LocalAddr().Port(),
			Team: l.port.Team, State: ss.State.String(), Interface: ss.Interface.String(),
			Received: st.Received, Delivered: st.Delivered, Malformed: st.Malformed, QueueFull: st.QueueFull,
			Oversize: st.Oversize, Filtered: st.Filtered, Sent: st.Sent, SendErrors: st.SendErrors}
		if ss.Err != nil {
			pv.Error = ss.Err.Error()
		}
		s.Ports = append(s.Ports, pv)
	}
	for k, src := range m.sources {
		s.Sources = append(s.Sources, SourceView{Source: k.addr.String(), Kind: src.kind.String(), Port: src.port,
			Packets: src.count, AgeS: round(now.Sub(src.last).Seconds(), 2), Faults: src.faults, LastError: src.err})
	}
	slices.SortFunc(s.Sources, func(a, b SourceView) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Source, b.Source))
	})
	return s
}

func (m *Monitor) gcView(now time.Time) GCView {
	g := &m.gc
	v := GCView{Packets: g.count, Faults: g.faults, LastError: g.err, Games: g.games, Sources: []string{},
		Local: g.local, Warning: g.warning, TrueData: m.trueView(now)}
	if !g.has {
		return v
	}
	age := now.Sub(g.last)
	v.Online = age <= m.cfg.OfflineAfter
	v.AgeS = ptr(round(age.Seconds(), 2))
	v.Rate = round(g.win.rate(now), 2)
	v.Source = g.src.String()
	hosts := make([]netip.Addr, 0, len(g.sources))
	for a, t := range g.sources {
		if now.Sub(t) <= m.cfg.OfflineAfter {
			hosts = append(hosts, a)
		}
	}
	slices.SortFunc(hosts, netip.Addr.Compare)
	for _, a := range hosts {
		v.Sources = append(v.Sources, a.String())
	}
	v.Multiple = len(hosts) > 1
	v.Game = m.gameView(&g.pkt)
	return v
}

// gameView returns the content of control packet p. m.mu is held.
func (m *Monitor) gameView(p *gcproto.Packet) *Game {
	gm := &Game{
		Layout: p.Layout.String(), Version: p.Layout.Version(), Header: p.Header.Magic(),
		PacketNumber: p.PacketNumber, PlayersPerTeam: p.PlayersPerTeam,
		State: stateName(p), GamePhase: p.GamePhase.String(), SetPlay: p.SetPlay.String(),
		Stopped: p.Stopped, FirstHalf: p.FirstHalf, KickingTeam: p.KickingTeam,
		KickingNumber: p.KickingTeamNumber(), SetPlayTeam: p.SetPlayTeam(), DropBall: p.DropBall(),
		SecsRemaining: p.SecsRemaining, SecondaryTime: p.SecondaryTime,
		BudgetCounted: m.cfg.League.Counted(uint8(p.State), uint8(p.GamePhase)),
	}
	players := int(p.PlayersPerTeam)
	if players <= 0 || players > p.Layout.MaxPlayers() {
		players = p.Layout.MaxPlayers()
	}
	for i := range p.Teams {
		t := &p.Teams[i]
		gt := GameTeam{Team: t.TeamNumber, Colour: t.FieldPlayerColour.String(), Score: t.Score,
			PenaltyShot: t.PenaltyShot, Players: make([]GamePlayer, 0, players)}
		if p.Layout.HasGoalkeeper() {
			gt.GoalkeeperColour = t.GoalkeeperColour.String()
			gt.Goalkeeper = t.Goalkeeper
		}
		if p.Layout.HasMessageBudget() {
			gt.MessageBudget = ptr(int(t.MessageBudget))
		}
		for n := 1; n <= players; n++ {
			ri := p.Player(i, n)
			gt.Players = append(gt.Players, GamePlayer{Player: n, Penalty: penaltyName(p.Layout, ri.Penalty),
				SecsTillUnpenalised: ri.SecsTillUnpenalised})
		}
		gm.Teams[i] = gt
	}
	return gm
}

func stateName(p *gcproto.Packet) string {
	if n := p.Layout.StateName(p.State); n != "" {
		return n
	}
	return p.State.String()
}

func penaltyName(l gcproto.Layout, p gcproto.Penalty) string {
	if n := l.PenaltyName(p); n != "" {
		return n
	}
	return "penalty(" + strconv.Itoa(int(p)) + ")"
}

// teamOrder lists the teams: the GameController's two first (teams[0] attacks right on the
// page), then the teams of the configured ports, then any other team heard, by number.
// m.mu is held.
func (m *Monitor) teamOrder() []uint8 {
	var order []uint8
	add := func(t uint8) {
		if t != 0 && !slices.Contains(order, t) {
			order = append(order, t)
		}
	}
	if m.gc.has {
		add(m.gc.pkt.Teams[0].TeamNumber)
		add(m.gc.pkt.Teams[1].TeamNumber)
	}
	for _, l := range m.listeners {
		add(l.port.Team)
	}
	rest := make([]uint8, 0, len(m.teams))
	for t := range m.teams {
		if !slices.Contains(order, t) {
			rest = append(rest, t)
		}
	}
	slices.Sort(rest)
	return append(order, rest...)
}

func (m *Monitor) teamView(now time.Time, t uint8, index int) TeamView {
	v := TeamView{Team: t, Attacks: "right"}
	switch {
	case index == 1:
		v.Attacks = "left"
	case m.gc.has && m.gcTeam(t) == nil:
		v.Attacks = "" // heard, but not in the GameController's game
	}
	for _, l := range m.listeners {
		if l.port.Kind == KindTeam && l.port.Team == t {
			v.Port = l.w.LocalAddr().Port()
		}
	}
	if ts := m.teams[t]; ts != nil {
		v.Messages, v.Counted, v.OverBudget = ts.messages, ts.counted, ts.overBudget
		v.Rate = round(ts.win.rate(now), 2)
	}
	if gt := m.gcTeam(t); gt != nil {
		v.Colour = gt.FieldPlayerColour.String()
		v.Score = ptr(int(gt.Score))
		if m.gc.pkt.Layout.HasMessageBudget() {
			v.BudgetRemaining = ptr(int(gt.MessageBudget))
			var used uint64
			if ts := m.teams[t]; ts != nil {
				used = ts.gcUsed
			}
			v.GCUsed = ptr(used)
			v.BudgetDiff = ptr(int64(v.Counted) - int64(used))
		}
	}
	v.Illegal = v.OverBudget
	v.Formats = []string{}
	for k, r := range m.robots {
		if k.team != t {
			continue
		}
		if r.format != "" && !slices.Contains(v.Formats, r.format) {
			v.Formats = append(v.Formats, r.format)
		}
		v.Robots++
		if now.Sub(r.last) <= m.cfg.OfflineAfter {
			v.RobotsOnline++
		}
		v.Malformed += r.faults.Malformed()
		v.Illegal += r.faults.Illegal()
	}
	slices.Sort(v.Formats)
	return v
}

func (m *Monitor) robotView(now time.Time, r *robot) RobotView {
	age := now.Sub(r.last)
	v := RobotView{
		Team: r.key.team, Player: r.key.player,
		Online:        age <= m.cfg.OfflineAfter,
		AgeS:          round(age.Seconds(), 2),
		Fallen:        r.fallen,
		Format:        r.format,
		TeamMsgs:      channelView(now, &r.team),
		ReturnMsgs:    channelView(now, &r.ret),
		ReturnVersion: r.retVer,
		Counted:       r.counted,
		Faults:        r.faults,
		Malformed:     r.faults.Malformed(),
		Illegal:       r.faults.Illegal(),
		LastError:     r.lastErr,
		Echo:          echoView(r),
		Clock:         m.clockView(r, now),
		Link:          m.linkView(r, now),
	}
	if r.hasInfo {
		v.Role = r.info.Role.String()
		v.PlayState = r.info.PlayState.String()
		v.Incapacitated = r.info.Incapacitated
		v.Penalised = r.info.Penalised
		v.Auth = r.auth.String()
	}
	if gt := m.gcTeam(r.key.team); gt != nil {
		pk := m.shownPacket(now) // the true data's teams are in the same order
		if ri := pk.Player(teamIndex(&m.gc.pkt, gt), int(r.key.player)); ri != nil {
			v.Penalty = penaltyName(pk.Layout, ri.Penalty)
			v.SecsTillUnpenalised = ri.SecsTillUnpenalised
			if ri.Penalty != gcproto.PenaltyNone {
				v.Penalised = true
			}
		}
	}
	// Values are checked after rounding: a finite number near the float64 limit (a
	// corrupted zju or Booster double) rounds to an infinity, which JSON cannot carry.
	p := r.pose
	pv := PoseView{X: round(p.X, 3), Y: round(p.Y, 3), Theta: round(p.Theta, 3)}
	if r.hasPose && finite(pv.X, pv.Y, pv.Theta) {
		v.Pose = &pv
		v.PoseSource = r.poseFrom.String()
		gx, gy := toGlobal(p, r.ballRel.X, r.ballRel.Y)
		b := BallView{X: round(gx, 3), Y: round(gy, 3), RelX: round(r.ballRel.X, 3),
			RelY: round(r.ballRel.Y, 3), Source: r.ballFrom.String()}
		if r.hasBall && finite(b.X, b.Y, b.RelX, b.RelY) {
			if age := round(r.ballAge, 2); finite(age) {
				b.AgeS = &age
			}
			v.Ball = &b
		}
	}
	return v
}

func teamIndex(p *gcproto.Packet, t *gcproto.TeamInfo) int {
	if t == &p.Teams[1] {
		return 1
	}
	return 0
}

// toGlobal turns a point relative to a robot at pose p into field coordinates.
func toGlobal(p teaminfo.Pose, rx, ry float64) (x, y float64) {
	sin, cos := math.Sincos(p.Theta)
	return p.X + cos*rx - sin*ry, p.Y + sin*rx + cos*ry
}

func channelView(now time.Time, c *channel) ChannelView {
	v := ChannelView{Count: c.count}
	if c.count == 0 {
		return v
	}
	v.Rate = round(c.win.rate(now), 2)
	v.AgeS = ptr(round(now.Sub(c.last).Seconds(), 2))
	v.Source = c.src.String()
	return v
}

func finite(fs ...float64) bool {
	for _, f := range fs {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return false
		}
	}
	return true
}

func round(f float64, digits int) float64 {
	p := math.Pow10(digits)
	return math.Round(f*p) / p
}

func ptr[T any](v T) *T { return &v }
