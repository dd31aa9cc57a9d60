package monitor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"slices"
	"sync"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/proto/gclog"
	"github.com/robocup-dnetwork/dnetwork/proto/league"
	"github.com/robocup-dnetwork/dnetwork/transport"
	"github.com/robocup-dnetwork/dnetwork/transport/capture"
)

// Replay limits.
const (
	// replayStep is how often a playing replay moves on.
	replayStep = 50 * time.Millisecond
	// MaxReplaySpeed bounds the replay speed.
	MaxReplaySpeed = 64
	// echoWindow is how close in time a sent datagram and its received copy lie.
	echoWindow = time.Second
)

// The states of a port in a replay (PortView.State), where there is no socket: what the
// recording holds for the port at the replay position.
const (
	// PortHeard: the port carried a datagram within OfflineAfter before the position.
	PortHeard = "heard"
	// PortSilent: no datagram on the port within OfflineAfter before the position (none
	// yet, or it fell silent).
	PortSilent = "silent"
)

// ErrNoPackets reports a recording with nothing the monitor understands.
var ErrNoPackets = errors.New("monitor: the recording holds no GameController, return or team datagrams")

// ReplayView describes a replay in the Snapshot: the recording's span, the position and
// the controls' state.
type ReplayView struct {
	Start     time.Time `json:"start"`
	End       time.Time `json:"end"`
	DurationS float64   `json:"duration_s"`
	PositionS float64   `json:"position_s"`
	Playing   bool      `json:"playing"`
	Speed     float64   `json:"speed"`
	Packets   int       `json:"packets"`
	Played    int       `json:"played"`
	// Set when a GameController log is replayed: its actions over the whole log, and
	// the game's state the log holds at the position (nil before its first).
	Events    []ReplayEvent    `json:"events,omitempty"`
	GameState *gclog.GameState `json:"game_state,omitempty"`
}

// replayPacket is one datagram of a recording with the port it is observed on.
type replayPacket struct {
	port Port
	d    transport.Datagram
}

// Player replays a recording into a monitor: the page and /api/state show the game as
// it was at the replay position, which plays at a chosen speed, pauses, and jumps to
// any moment (going back rebuilds the state from the recording's start, so every
// moment shows what a live monitor would have shown then). Its methods are safe for
// concurrent use.
type Player struct {
	cfg      Config
	pkts     []replayPacket // in time order
	ports    []Port
	from, to time.Time    // the recording's span
	log      *logTimeline // a GameController log's states and actions; nil for a recording

	mu      sync.Mutex
	m       *Monitor
	clk     *clock.Manual
	next    int       // first packet not yet observed
	pos     time.Time // replay position
	playing bool
	speed   float64
	counts  map[Port]*PortView
	last    map[Port]time.Time // each port's latest datagram up to pos
}

// NewPlayer prepares a replay of pkts (a recording's datagrams) with cfg's rules
// (league, key, windows; its ports, interface and clock are not used). Datagrams go
// to the monitor port their destination port names: cfg's GameController, return and
// forward ports (each the default unless cfg.Ports names another), or a team port
// (10000 + team, or one of cfg.Ports); others are left out. A
// datagram the recording host sent is left out when the host also recorded receiving
// it (its own broadcasts). The replay starts paused at the first datagram.
func NewPlayer(cfg Config, pkts []capture.Packet) (*Player, error) {
	pl := buildPlayer(cfg, pkts)
	if len(pl.pkts) == 0 {
		return nil, ErrNoPackets
	}
	pl.from, pl.to = pl.pkts[0].d.Time, pl.pkts[len(pl.pkts)-1].d.Time
	return pl, pl.begin()
}

// buildPlayer makes a paused Player of pkts (of the ports cfg names, in time order, own
// broadcasts once), without its span and monitor.
func buildPlayer(cfg Config, pkts []capture.Packet) *Player {
	gcPort, retPort, fwdPort := uint16(GameControllerPort), uint16(ReturnPort), uint16(ForwardPort)
	known := map[uint16]Port{}
	for _, p := range cfg.Ports {
		switch p.Kind {
		case KindGameController:
			gcPort = p.Port
		case KindReturn:
			retPort = p.Port
		case KindForward:
			fwdPort = p.Port
		default:
			known[p.Port] = p
		}
	}
	cfg.Ports, cfg.FollowGC, cfg.TrueData = nil, true, false // no sockets, nothing sent
	type echoKey struct {
		src     netip.AddrPort
		payload string
	}
	received := map[echoKey][]time.Time{}
	for _, p := range pkts {
		if p.Dir != transport.Sent {
			k := echoKey{p.Src, string(p.Payload)}
			received[k] = append(received[k], p.Time)
		}
	}
	pl := &Player{cfg: cfg, speed: 1}
	seen := map[Port]bool{}
	for _, p := range pkts {
		if p.Dir == transport.Sent && slices.ContainsFunc(received[echoKey{p.Src, string(p.Payload)}], func(t time.Time) bool {
			d := t.Sub(p.Time)
			return d > -echoWindow && d < echoWindow
		}) {
			continue
		}
		var port Port
		dst := p.Dst.Port()
		switch q, ok := known[dst]; {
		case dst == gcPort:
			port = Port{Kind: KindGameController, Port: dst}
		case dst == retPort:
			port = Port{Kind: KindReturn, Port: dst}
		case dst == fwdPort:
			port = Port{Kind: KindForward, Port: dst}
		case ok:
			port = q
		case dst > TeamBasePort && dst < TeamBasePort+255:
			port = TeamPort(uint8(dst - TeamBasePort))
		case isBoosterPort(dst):
			port = boosterPort(dst)
		default:
			continue
		}
		if !seen[port] {
			seen[port] = true
			pl.ports = append(pl.ports, port)
		}
		pl.pkts = append(pl.pkts, replayPacket{port: port, d: transport.Datagram{
			Payload: p.Payload, Src: p.Src, Dst: p.Dst, Interface: p.Interface, Time: p.Time}})
	}
	slices.SortStableFunc(pl.pkts, func(a, b replayPacket) int { return a.d.Time.Compare(b.d.Time) })
	return pl
}

// begin starts the replay, paused at its start.
func (p *Player) begin() error {
	if err := p.reset(p.from); err != nil {
		return err
	}
	p.advance(p.from)
	return nil
}

// reset starts a fresh monitor at t, before the first packet. p.mu is held (or p is new).
func (p *Player) reset(t time.Time) error {
	cfg := p.cfg
	p.clk = clock.NewManual(t)
	cfg.Clock = p.clk
	m, err := New(cfg)
	if err != nil {
		return err
	}
	p.m, p.next, p.pos = m, 0, t
	p.counts = map[Port]*PortView{}
	p.last = map[Port]time.Time{}
	for _, port := range p.ports {
		p.counts[port] = &PortView{Name: port.Name(), Kind: port.Kind.String(), Port: port.Port, Team: port.Team,
			State: PortSilent, Interface: "recording"}
	}
	return nil
}

// advance observes every packet up to t and moves the clock there. p.mu is held.
func (p *Player) advance(t time.Time) {
	for p.next < len(p.pkts) && !p.pkts[p.next].d.Time.After(t) {
		rp := p.pkts[p.next]
		p.clk.Set(rp.d.Time)
		c := p.counts[rp.port]
		c.Received++
		p.last[rp.port] = rp.d.Time
		if p.m.Observe(rp.port, rp.d) {
			c.Delivered++
		} else {
			c.Malformed++
		}
		p.next++
	}
	p.clk.Set(t)
	p.pos = t
}

// span returns the recording's first and last time.
func (p *Player) span() (time.Time, time.Time) {
	return p.from, p.to
}

// Seek moves the replay to offset from the recording's start (clamped to the
// recording), replaying from the start when it goes back.
func (p *Player) Seek(offset time.Duration) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	start, end := p.span()
	t := start.Add(min(max(offset, 0), end.Sub(start)))
	if t.Before(p.pos) {
		if err := p.reset(start); err != nil {
			return err
		}
	}
	p.advance(t)
	return nil
}

// Play starts or stops playing; a replay at its end starts again from the beginning.
func (p *Player) Play(on bool) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	start, end := p.span()
	if on && !p.pos.Before(end) {
		if err := p.reset(start); err != nil {
			return err
		}
		p.advance(start)
	}
	p.playing = on
	return nil
}

// SetSpeed sets the replay speed, 1 being the recorded pace.
func (p *Player) SetSpeed(s float64) error {
	if !(s > 0 && s <= MaxReplaySpeed) {
		return fmt.Errorf("monitor: replay speed %v outside (0, %d]", s, MaxReplaySpeed)
	}
	p.mu.Lock()
	p.speed = s
	p.mu.Unlock()
	return nil
}

// Run moves a playing replay on with the wall clock until ctx is done; it pauses at
// the recording's end.
func (p *Player) Run(ctx context.Context) error {
	t := time.NewTicker(replayStep)
	defer t.Stop()
	last := time.Now()
	for {
		select {
		case <-ctx.Done():
			return nil
		case now := <-t.C:
			elapsed := now.Sub(last)
			last = now
			p.mu.Lock()
			if p.playing {
				_, end := p.span()
				to := p.pos.Add(time.Duration(float64(elapsed) * p.speed))
				if !to.Before(end) {
					to, p.playing = end, false
				}
				p.advance(to)
			}
			p.mu.Unlock()
		}
	}
}

// State returns the monitor's snapshot at the replay position, with the replay's
// controls and per-port counts.
func (p *Player) State() Snapshot {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.m.State()
	start, end := p.span()
	s.Replay = &ReplayView{Start: start, End: end, DurationS: end.Sub(start).Seconds(),
		PositionS: p.pos.Sub(start).Seconds(), Playing: p.playing, Speed: p.speed,
		Packets: len(p.pkts), Played: p.next}
	if p.log != nil {
		p.log.view(s.Replay, p.pos)
	}
	for _, port := range p.ports {
		v := *p.counts[port]
		if last, ok := p.last[port]; ok && p.pos.Sub(last) <= p.m.cfg.OfflineAfter {
			v.State = PortHeard
		}
		s.Ports = append(s.Ports, v)
	}
	return s
}

// replayCommand is the body of POST /api/replay; absent members are left alone.
type replayCommand struct {
	Playing   *bool    `json:"playing"`
	Speed     *float64 `json:"speed"`
	PositionS *float64 `json:"position_s"`
}

// Handler serves the page and /api/state as Monitor.Handler does, and
//
//	POST /api/replay  {"playing": true, "speed": 4, "position_s": 93.5}
//
// to control the replay (any subset of the members); it answers with the new state.
func (p *Player) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", NewHandler(p.State))
	mux.HandleFunc("POST /api/replay", func(w http.ResponseWriter, r *http.Request) {
		var c replayCommand
		dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<10))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			http.Error(w, "monitor: bad replay command: "+err.Error(), http.StatusBadRequest)
			return
		}
		var errs []error
		if c.Speed != nil {
			errs = append(errs, p.SetSpeed(*c.Speed))
		}
		if c.PositionS != nil {
			errs = append(errs, p.Seek(time.Duration(*c.PositionS*float64(time.Second))))
		}
		if c.Playing != nil {
			errs = append(errs, p.Play(*c.Playing))
		}
		if err := errors.Join(errs...); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		b, err := json.Marshal(p.State())
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(append(b, '\n'))
	})
	return mux
}

// RecordingLeague tells the league of a recording from its GameController packets (the
// datagrams to gcPort that decode): the family of their layout, SPL (v12 … v18), HSL
// (v19, v20) or the Humanoid League (v12, 640 … 688 bytes); the most frequent one wins.
// why says what it went by, e.g. "812 GameController packets, spl18". Without a
// GameController packet the league cannot be told (team messages look alike in every
// league) and ok is false; why then says so, noting team messages longer than SPL's cap,
// which rule SPL out.
func RecordingLeague(pkts []capture.Packet, gcPort uint16) (l league.League, why string, ok bool) {
	counts := map[gcproto.Layout]int{}
	var total, longest int
	for _, p := range pkts {
		if p.Dst.Port() != gcPort {
			if len(p.Payload) > longest && p.Dst.Port() > TeamBasePort && p.Dst.Port() < TeamBasePort+255 {
				longest = len(p.Payload)
			}
			continue
		}
		var gp gcproto.Packet
		if gcproto.Decode(p.Payload, &gp) == nil {
			counts[gp.Layout]++
			total++
		}
	}
	if total == 0 {
		why = "the recording holds no GameController packet"
		if longest > league.SPL.SizeCap() {
			why += fmt.Sprintf(" (team messages up to %d bytes: not SPL)", longest)
		}
		return league.HSL, why, false
	}
	// The most frequent family, then its most frequent layout (ties: the lower value).
	families := map[gcproto.Family]int{}
	for layout, n := range counts {
		families[layout.Family()] += n
	}
	var fam gcproto.Family
	for f, n := range families {
		if n > families[fam] || (n == families[fam] && f < fam) {
			fam = f
		}
	}
	var top gcproto.Layout
	for layout, n := range counts {
		if layout.Family() == fam && (n > counts[top] || (n == counts[top] && layout < top)) {
			top = layout
		}
	}
	switch fam {
	case gcproto.FamilySPL:
		l = league.SPL
	case gcproto.FamilyHL:
		l = league.HL
	default:
		l = league.HSL
	}
	return l, fmt.Sprintf("%d GameController packets, %v", total, top), true
}
