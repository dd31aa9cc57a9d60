package monitor

import (
	"errors"
	"fmt"
	"math"
	"net/netip"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock/offset"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/proto/linkq"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// Faults counts the packets of a sender that were malformed or illegal.
type Faults struct {
	// WrongSize: a length no packet of the port's protocol has (malformed).
	WrongSize uint64 `json:"wrong_size"`
	// Undecodable: the right size, but rejected by the decoder: bad header, version,
	// range, bool byte, reserved bit, player or team number 0 (malformed).
	Undecodable uint64 `json:"undecodable"`
	// Auth: a dnet packet without a tag, or with a wrong one, while an auth key is set
	// (malformed).
	Auth uint64 `json:"auth"`
	// Oversize: a team message that decodes but is longer than the league's size cap;
	// the GameController marks the team's communication illegal (illegal).
	Oversize uint64 `json:"oversize"`
	// WrongPort: a team message on the port of another team (illegal).
	WrongPort uint64 `json:"wrong_port"`
	// OffPort: a team or discovery message on a port the rules do not allow (the Booster
	// robots' own ports; illegal).
	OffPort uint64 `json:"off_port"`
}

// Malformed is the number of packets that could not be decoded.
func (f Faults) Malformed() uint64 { return f.WrongSize + f.Undecodable + f.Auth }

// Illegal is the number of packets that decoded but broke a rule.
func (f Faults) Illegal() uint64 { return f.Oversize + f.WrongPort + f.OffPort }

type robotKey struct{ team, player uint8 }

// channel is what a robot sent on one kind of port.
type channel struct {
	count uint64
	last  time.Time
	src   netip.AddrPort
	win   window
}

func (c *channel) add(t time.Time, src netip.AddrPort) {
	c.count++
	c.last = t
	c.src = src
	c.win.add(t)
}

type robot struct {
	key         robotKey
	first, last time.Time
	team, ret   channel
	counted     uint64 // team messages counted against the budget this game

	hasInfo bool
	info    teaminfo.State // the last team message
	format  string
	auth    teaminfo.Auth
	retVer  uint8

	hasPose  bool
	pose     teaminfo.Pose // metres, radians, the robot's own frame
	poseFrom Kind

	hasBall  bool
	ballRel  teaminfo.Point // relative to the robot, metres
	ballAge  float64        // seconds, NaN unknown
	ballFrom Kind

	fallen bool

	faults  Faults
	lastErr string

	clocks map[uint8]*offset.Estimator // clock of a higher-numbered teammate minus ours

	link linkq.Tracker // its team messages' link to the monitor
}

// source counts the faults of an address no robot is known at.
type source struct {
	kind   Kind
	port   uint16
	first  time.Time
	last   time.Time
	count  uint64
	faults Faults
	err    string
}

type teamStats struct {
	messages   uint64 // datagrams on the team's port (or, on shared ports, decoded with its number)
	counted    uint64 // of these, sent while the game state counts against the budget
	overBudget uint64 // counted while the GameController reported a budget of 0
	gcUsed     uint64 // the drops of the GameController's remaining budget this game
	win        window
}

type gcState struct {
	has     bool
	pkt     gcproto.Packet
	src     netip.AddrPort
	last    time.Time
	count   uint64
	win     window
	faults  Faults
	err     string
	sources map[netip.Addr]time.Time // GameController hosts, for detecting a second one
	games   uint64                   // new games seen (counters reset)
	local   bool                     // a GameController runs on this host
	warning string                   // what the monitor did about it (see gchost.go)
}

// Observe processes one datagram received on port p, as Run does for every datagram of
// its sockets; it is exported for callers that receive the datagrams themselves. d.Time
// is the receive time (the zero time means the clock's now). It reports whether the
// datagram could be decoded; false means it was counted as malformed.
func (m *Monitor) Observe(p Port, d transport.Datagram) bool {
	if d.Time.IsZero() {
		d.Time = m.clk.Now()
	}
	switch p.Kind {
	case KindGameController:
		return m.observeGC(d)
	case KindReturn:
		return m.observeReturn(p, d)
	case KindTeam:
		return m.observeTeam(p, d)
	case KindForward:
		return m.observeForward(p, d)
	case KindBooster:
		return m.observeBooster(p, d)
	}
	return false
}

func sizeFault(err error, lengthErr error) (Faults, string) {
	var f Faults
	if errors.Is(err, lengthErr) {
		f.WrongSize = 1
	} else {
		f.Undecodable = 1
	}
	return f, err.Error()
}

func (m *Monitor) observeGC(d transport.Datagram) bool {
	var p gcproto.Packet
	err := gcproto.Decode(d.Payload, &p)
	m.mu.Lock()
	defer m.mu.Unlock()
	g := &m.gc
	if err != nil {
		f, msg := sizeFault(err, gcproto.ErrLength)
		addFaults(&g.faults, f)
		g.err = msg
		return false
	}
	if p.Header == gcproto.HeaderRGTD {
		// True data answers the monitor's requests; the robots' view stays g.pkt.
		m.observeTrue(&p, d)
		return true
	}
	if g.has && newGame(&g.pkt, &p) {
		m.resetGame()
	} else if g.has {
		m.countGCBudget(&g.pkt, &p)
	}
	if !g.has {
		g.win = newWindow(m.cfg.RateWindow)
	}
	g.has = true
	g.pkt = p
	g.src = d.Src
	g.last = d.Time
	g.count++
	g.win.add(d.Time)
	_, known := g.sources[d.Src.Addr()]
	if known || len(g.sources) < m.cfg.MaxSources {
		g.sources[d.Src.Addr()] = d.Time
	}
	if !known {
		m.checkGCHost(d.Src.Addr())
	}
	for _, t := range p.Teams {
		m.follow(t.TeamNumber)
	}
	return true
}

// newGame reports whether control packet q starts a new game after p: other teams, or
// a return to INITIAL of the first half in the normal game phase. The GameControllers
// of SPL and HSL send a timeout as INITIAL in game phase TIMEOUT and start extra time
// with INITIAL and firstHalf set (the first extra half, game phase EXTRA_TIME): both
// belong to the game going on.
func newGame(p, q *gcproto.Packet) bool {
	a, b := p.Teams[0].TeamNumber, p.Teams[1].TeamNumber
	c, d := q.Teams[0].TeamNumber, q.Teams[1].TeamNumber
	if !(a == c && b == d) && !(a == d && b == c) {
		return true
	}
	return q.State == gcproto.StateInitial && q.FirstHalf && q.GamePhase == gcproto.GamePhaseNormal &&
		p.State != gcproto.StateInitial
}

// resetGame zeroes the budget counters of every team and robot. m.mu is held.
func (m *Monitor) resetGame() {
	m.gc.games++
	for _, t := range m.teams {
		t.counted, t.overBudget, t.gcUsed = 0, 0, 0
	}
	for _, r := range m.robots {
		r.counted = 0
	}
}

// countGCBudget adds what the GameController counted between control packets p and q of
// one game: the drop of each team's remaining budget (a rise is budget granted, as at
// the start of extra time). Summed over the packets heard, a lost packet loses nothing.
// m.mu is held.
func (m *Monitor) countGCBudget(p, q *gcproto.Packet) {
	if !p.Layout.HasMessageBudget() || !q.Layout.HasMessageBudget() {
		return
	}
	for _, b := range q.Teams {
		for _, a := range p.Teams {
			if a.TeamNumber == b.TeamNumber && b.TeamNumber != 0 && a.MessageBudget > b.MessageBudget {
				m.team(b.TeamNumber).gcUsed += uint64(a.MessageBudget - b.MessageBudget)
			}
		}
	}
}

func (m *Monitor) observeReturn(p Port, d transport.Datagram) bool {
	var rp gcproto.ReturnPacket
	err := gcproto.DecodeReturn(d.Payload, &rp)
	m.mu.Lock()
	defer m.mu.Unlock()
	if err != nil {
		f, msg := sizeFault(err, gcproto.ErrLength)
		m.fault(KindReturn, p.Port, d, robotKey{}, f, msg)
		return false
	}
	r := m.robot(robotKey{rp.Team, rp.Player}, d.Time)
	if r == nil {
		return true
	}
	m.setAddr(KindReturn, d.Src, r)
	r.ret.add(d.Time, d.Src)
	r.retVer = rp.Version
	if rp.Version == gcproto.ReturnVersion {
		r.fallen = rp.Fallen
		r.hasPose, r.poseFrom = true, KindReturn
		r.pose = teaminfo.Pose{X: float64(rp.Pose[0]) / 1000, Y: float64(rp.Pose[1]) / 1000, Theta: float64(rp.Pose[2])}
		r.ballFrom = KindReturn
		r.hasBall = rp.BallAge >= 0
		r.ballRel = teaminfo.Point{X: float64(rp.Ball[0]) / 1000, Y: float64(rp.Ball[1]) / 1000}
		r.ballAge = float64(rp.BallAge)
	}
	return true
}

func (m *Monitor) observeTeam(p Port, d transport.Datagram) bool {
	var s teaminfo.State
	b := d.Payload
	format, auth, f, err := m.decodeTeam(b, p.Team, d.Time, &s)
	if err == nil && (s.Team == 0 || s.Player == 0) {
		f.Undecodable = 1
		err = fmt.Errorf("%w: team %d player %d: numbers start at 1", teaminfo.ErrRange, s.Team, s.Player)
	}

	m.mu.Lock()
	defer m.mu.Unlock()
	counted := m.gc.has && m.cfg.League.Counted(uint8(m.gc.pkt.State), uint8(m.gc.pkt.GamePhase))
	if p.Team != 0 && p.Kind == KindTeam {
		m.countTeam(p.Team, d.Time, counted)
	}
	if err != nil {
		m.checkPort(p, d, 0)
		var claimed robotKey
		if f.Auth != 0 && len(b) > 6 {
			claimed = robotKey{b[5], b[6]} // header bytes, shown only for a robot already known
		}
		m.fault(KindTeam, p.Port, d, claimed, f, err.Error())
		return false
	}
	m.checkPort(p, d, s.Team)
	r := m.robot(robotKey{s.Team, s.Player}, d.Time)
	if r == nil {
		return true
	}
	if p.Team == 0 {
		m.countTeam(s.Team, d.Time, counted)
	}
	if counted {
		r.counted++
	}
	m.setAddr(KindTeam, d.Src, r)
	r.team.add(d.Time, d.Src)
	dnet := format == "dnet"
	r.link.Observe(s.Seq, dnet, dnet && restarted(r, &s), time.Duration(d.Time.UnixNano())-s.Stamp, d.Time)
	if cap := m.cfg.League.SizeCap(); len(b) > cap {
		r.faults.Oversize++
		r.lastErr = fmt.Sprintf("%s packet of %d bytes exceeds the %s cap of %d bytes", format, len(b), m.cfg.League, cap)
	}
	if p.Team != 0 && p.Team != s.Team {
		r.faults.WrongPort++
		r.lastErr = fmt.Sprintf("team %d message on the port of team %d", s.Team, p.Team)
	}
	if p.Kind == KindBooster {
		r.faults.OffPort++
		r.lastErr = fmt.Sprintf("%s team message on port %d, which the rules do not allow", format, p.Port)
	}
	if format == "dnet" {
		m.observeEcho(r, &s, d.Time)
	}
	r.hasInfo = true
	r.info = s
	r.format = format
	r.auth = auth
	r.hasPose, r.poseFrom, r.pose = true, KindTeam, s.RobotPos
	r.ballFrom = KindTeam
	r.hasBall = s.SeeBall
	r.ballRel = s.BallField
	r.ballAge = s.BallAge
	if format == "dnet" {
		r.fallen = s.Fallen
	}
	return true
}

// restarted reports whether dnet packet s of robot r starts a new numbering: its
// sequence number is not newer than that of r's last dnet packet, but its stamp is
// later. A packet the network delayed or duplicated has an earlier or the same stamp;
// a robot whose node restarted counts from 1 again on a clock that went on.
func restarted(r *robot, s *teaminfo.State) bool {
	last := &r.info
	return r.hasInfo && r.format == "dnet" && s.Seq != last.Seq && !teaminfo.SeqNewer(s.Seq, last.Seq) &&
		s.Stamp > last.Stamp
}

// countTeam counts one message of team t. m.mu is held.
func (m *Monitor) countTeam(t uint8, now time.Time, counted bool) {
	ts := m.team(t)
	ts.messages++
	ts.win.add(now)
	if !counted {
		return
	}
	ts.counted++
	if gt := m.gcTeam(t); gt != nil && m.gc.pkt.Layout.HasMessageBudget() && gt.MessageBudget == 0 {
		ts.overBudget++
	}
}

func (m *Monitor) team(t uint8) *teamStats {
	ts := m.teams[t]
	if ts == nil {
		ts = &teamStats{win: newWindow(m.cfg.RateWindow)}
		m.teams[t] = ts
	}
	return ts
}

// gcTeam returns the GameController's TeamInfo of team t, or nil. m.mu is held.
func (m *Monitor) gcTeam(t uint8) *gcproto.TeamInfo {
	if !m.gc.has || t == 0 {
		return nil
	}
	for i := range m.gc.pkt.Teams {
		if m.gc.pkt.Teams[i].TeamNumber == t {
			return &m.gc.pkt.Teams[i]
		}
	}
	return nil
}

// robot returns the record of k, creating it unless MaxRobots are tracked already (then
// it counts the packet as dropped and returns nil). m.mu is held.
func (m *Monitor) robot(k robotKey, now time.Time) *robot {
	r := m.robots[k]
	if r == nil {
		if len(m.robots) >= m.cfg.MaxRobots {
			m.dropped++
			return nil
		}
		r = &robot{key: k, first: now, team: channel{win: newWindow(m.cfg.RateWindow)},
			ret: channel{win: newWindow(m.cfg.RateWindow)}, ballAge: math.NaN()}
		m.robots[k] = r
		m.team(k.team)
	}
	if now.After(r.last) {
		r.last = now
	}
	return r
}

// setAddr records that r sends kind packets from a. m.mu is held.
func (m *Monitor) setAddr(kind Kind, a netip.AddrPort, r *robot) {
	old := r.team.src
	if kind == KindReturn {
		old = r.ret.src
	}
	if old != a {
		if k, ok := m.byAddr[addrKey{kind, old}]; ok && k == r.key {
			delete(m.byAddr, addrKey{kind, old})
		}
	}
	m.byAddr[addrKey{kind, a}] = r.key
}

// fault counts a packet that could not be decoded: for the robot last heard from its
// source address, else for the robot it claims to be when that one is known, else for
// the source. m.mu is held.
func (m *Monitor) fault(kind Kind, port uint16, d transport.Datagram, claimed robotKey, f Faults, msg string) {
	k, ok := m.byAddr[addrKey{kind, d.Src}]
	if !ok {
		_, ok = m.robots[claimed]
		k = claimed
	}
	if r := m.robots[k]; ok && r != nil {
		addFaults(&r.faults, f)
		r.lastErr = msg
		return
	}
	ak := addrKey{kind, d.Src}
	s := m.sources[ak]
	if s == nil {
		if len(m.sources) >= m.cfg.MaxSources {
			evictOldest(m.sources, func(s *source) time.Time { return s.last })
		}
		s = &source{kind: kind, port: port, first: d.Time}
		m.sources[ak] = s
	}
	s.count++
	s.last = d.Time
	s.port = port
	addFaults(&s.faults, f)
	s.err = msg
}

// evictOldest deletes from m the entry whose last time is the earliest.
func evictOldest[K comparable, V any](m map[K]V, last func(V) time.Time) {
	var (
		oldest K
		t      time.Time
		found  bool
	)
	for k, v := range m {
		if l := last(v); !found || l.Before(t) {
			oldest, t, found = k, l, true
		}
	}
	delete(m, oldest)
}

func addFaults(dst *Faults, f Faults) {
	dst.WrongSize += f.WrongSize
	dst.Undecodable += f.Undecodable
	dst.Auth += f.Auth
	dst.Oversize += f.Oversize
	dst.WrongPort += f.WrongPort
	dst.OffPort += f.OffPort
}

// prune forgets robots and sources silent for longer than RemoveAfter and GameController
// hosts silent for longer than OfflineAfter. m.mu is held.
func (m *Monitor) prune(now time.Time) {
	for k, r := range m.robots {
		if now.Sub(r.last) > m.cfg.RemoveAfter {
			delete(m.robots, k)
		}
	}
	for a, k := range m.byAddr {
		if _, ok := m.robots[k]; !ok {
			delete(m.byAddr, a)
		}
	}
	for a, s := range m.sources {
		if now.Sub(s.last) > m.cfg.RemoveAfter {
			delete(m.sources, a)
		}
	}
	for k, f := range m.flags {
		if now.Sub(f.last) > m.cfg.RemoveAfter {
			delete(m.flags, k)
		}
	}
	for a, t := range m.gc.sources {
		if now.Sub(t) > m.cfg.OfflineAfter {
			delete(m.gc.sources, a)
		}
	}
}
