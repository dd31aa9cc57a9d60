package gcsim

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// Timing of the control packets, in the injected clock's time.
const (
	// SendInterval is the period of the regular control packets (2 Hz).
	SendInterval = 500 * time.Millisecond
	// BurstInterval and BurstCount shape the HSL burst after a change: BurstCount
	// packets, BurstInterval apart, the first at once.
	BurstInterval = 200 * time.Millisecond
	BurstCount    = 5
	// Tick is the period at which the simulator advances the game and sends what is
	// due; changes are sent at most one tick late.
	Tick = 100 * time.Millisecond
	// LoopPause is the game time between the end of a game and its restart with
	// Config.Loop.
	LoopPause = 5 * time.Second
)

var (
	// ErrConfig reports an invalid Config.
	ErrConfig = errors.New("gcsim: bad config")
	// ErrRunTwice reports a second call of Run.
	ErrRunTwice = errors.New("gcsim: Run called twice")
	// ErrStopped reports an Apply after Run returned.
	ErrStopped = errors.New("gcsim: simulator stopped")
)

// Sender sends control packets; *transport.Worker implements it.
type Sender interface {
	SendTo(b []byte, dst netip.AddrPort) error
	Broadcast(b []byte, port uint16) error
}

// Receiver delivers received datagrams; *transport.Worker implements it.
type Receiver interface {
	Datagrams() <-chan transport.Datagram
	ReportMalformed()
}

var _ Sender = (*transport.Worker)(nil)
var _ Receiver = (*transport.Worker)(nil)

// Config configures a Simulator.
type Config struct {
	// Setup is the layout, the two teams and the number of players.
	Setup
	// Script is played from the start of Run; an empty script leaves the game in
	// INITIAL until Apply changes it. Script.Half and Script.Break, when set, override
	// Timing.
	Script Script
	// Timing holds the game's durations; zero fields take DefaultTiming's.
	Timing Timing
	// Speed is game seconds per clock second (default 1): 10 plays the script and runs
	// every game timer ten times as fast. Packets still go out at 2 Hz of clock time.
	Speed float64
	// Budget is each team's message budget at the start; 0 means the league's
	// (DefaultBudget). Layouts without messageBudget ignore it.
	Budget int
	// Loop restarts the game LoopPause after the script has run out and the second
	// half is over.
	Loop bool

	// Clock is the time source; nil means clock.Wall.
	Clock clock.Clock
	// Control sends the control packets to Dest.
	Control Sender
	Dest    Destination
	// Return, if set, delivers return packets (port 3939).
	Return Receiver
	// TeamConns, if set, deliver the team messages of side A and B (port 10000+team);
	// each one costs the team one message of its budget.
	TeamConns [2]Receiver

	// OnChange, if set, is called for every change of the game and every script step
	// that could not be applied, in order, on the goroutine of Run. It must not block
	// for long and must not call Apply.
	OnChange func(Change)
	// Logger receives send errors and the first malformed return packet of each kind;
	// nil means slog.Default().
	Logger *slog.Logger
}

// Change is one change of the game.
type Change struct {
	// At is the game time of the change; Wall the clock time it corresponds to.
	At   time.Duration
	Wall time.Time
	// What describes the change: the action in script syntax, or what a timer did.
	What string
	// Auto is true for changes made by timers and team messages, not by an action.
	Auto bool
	// Err is set when a script step could not be applied (ErrState); nothing changed.
	Err error
	// Game is the state after the change.
	Game GameView
}

// Stats counts the simulator's traffic.
type Stats struct {
	// Packets counts control packets handed to the socket (each to every destination
	// address); Burst counts those due to an HSL burst.
	Packets, Burst uint64
	// SendErrors counts datagrams the socket did not accept.
	SendErrors uint64
	// Returns counts return datagrams received; Malformed those the codec rejected,
	// by cause in the four fields after it.
	Returns, Malformed                                 uint64
	MalformedLength, MalformedHeader, MalformedVersion uint64
	MalformedRange                                     uint64
	// Foreign counts valid return packets of teams that are not playing.
	Foreign uint64
	// TeamMessages counts team messages received per side (counted or not).
	TeamMessages [2]uint64
	// Skipped counts script steps the game state did not allow.
	Skipped uint64
	// Restarts counts restarts with Config.Loop.
	Restarts uint64
}

// Simulator is a GameController that plays a script. Create it with New, run it with
// Run; State, Robots, Stats and Apply may be called from any goroutine.
type Simulator struct {
	cfg    Config
	clk    clock.Clock
	log    *slog.Logger
	hsl    bool
	reqs   chan request
	done   chan struct{}
	runned atomic.Bool

	mu      sync.Mutex // guards everything below
	g       *game
	start   time.Time     // clock time of game time 0
	last    time.Time     // clock time the game was last advanced to
	base    time.Duration // game time of script time 0 (moves on restarts)
	next    int           // next script step
	loopAt  time.Duration // game time of the restart; 0 = not armed
	sendAt  time.Time     // next regular packet
	burstAt time.Time     // next burst packet
	burstN  int           // burst packets left
	number  uint8         // next packet number
	stats   Stats
	robots  robots
	pending []Change
	logged  [4]bool // malformed causes already logged

	// Owned by Run's goroutine.
	pkt gcproto.Packet
	buf []byte
}

type request struct {
	a     Action
	reply chan error
}

// New checks cfg and returns a simulator in INITIAL; nothing is sent before Run. Errors
// wrap ErrConfig, ErrDest, or ErrScript and ErrAction for a script the setup cannot play.
func New(cfg Config) (*Simulator, error) {
	cfg.Setup = cfg.Setup.withDefaults()
	errs := cfg.Setup.problems()
	if cfg.Speed == 0 {
		cfg.Speed = 1
	}
	if !(cfg.Speed > 0 && cfg.Speed <= 1000) {
		errs = append(errs, fmt.Errorf("speed %v outside (0, 1000]", cfg.Speed))
	}
	if cfg.Control == nil {
		errs = append(errs, errors.New("no Control sender"))
	}
	if err := cfg.Dest.Validate(); err != nil {
		errs = append(errs, err)
	}
	if cfg.Budget < 0 || cfg.Budget > math.MaxUint16 {
		errs = append(errs, fmt.Errorf("budget %d outside 0..65535", cfg.Budget))
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%w: %w", ErrConfig, errors.Join(errs...))
	}
	if err := cfg.Script.Check(cfg.Setup); err != nil {
		return nil, err
	}
	cfg.Timing = cfg.Timing.withDefaults()
	if cfg.Script.Half > 0 {
		cfg.Timing.Half = cfg.Script.Half
	}
	if cfg.Script.Break > 0 {
		cfg.Timing.HalfTimeBreak = cfg.Script.Break
	}
	budget := DefaultBudget(cfg.Layout)
	if budget >= 0 && cfg.Budget > 0 {
		budget = cfg.Budget
	}
	s := &Simulator{
		cfg:  cfg,
		clk:  cfg.Clock,
		log:  cfg.Logger,
		hsl:  cfg.Layout.Family() == gcproto.FamilyHSL,
		reqs: make(chan request),
		done: make(chan struct{}),
		g:    newGame(cfg.Layout, cfg.Teams, cfg.Players, cfg.Timing, budget),
		buf:  make([]byte, 0, gcproto.MaxSize),
	}
	s.robots.teams = cfg.Teams
	if s.clk == nil {
		s.clk = clock.Wall
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	return s, nil
}

// Setup returns the simulator's setup after defaults, for parsing actions.
func (s *Simulator) Setup() Setup { return s.cfg.Setup }

// Run plays the script and sends control packets until ctx is done, then returns nil.
// Script time 0 is the clock time Run starts; the first packet goes out at once.
func (s *Simulator) Run(ctx context.Context) error {
	if !s.runned.CompareAndSwap(false, true) {
		return ErrRunTwice
	}
	defer close(s.done)
	tk := s.clk.NewTicker(Tick)
	defer tk.Stop()

	recv := func(r Receiver) <-chan transport.Datagram {
		if r == nil {
			return nil
		}
		return r.Datagrams()
	}
	ret := recv(s.cfg.Return)
	team := [2]<-chan transport.Datagram{recv(s.cfg.TeamConns[0]), recv(s.cfg.TeamConns[1])}

	now := s.clk.Now()
	s.mu.Lock()
	s.start, s.last, s.sendAt = now, now, now
	s.mu.Unlock()
	s.step(now, nil)
	for {
		select {
		case <-ctx.Done():
			return nil
		case t := <-tk.C():
			s.step(t, nil)
		case req := <-s.reqs:
			var err error
			s.step(s.clk.Now(), func() { err = s.applyLocked(req.a, false) })
			req.reply <- err
		case d, ok := <-ret:
			if !ok {
				ret = nil
				continue
			}
			s.onReturn(d)
		case d, ok := <-team[0]:
			if !ok {
				team[0] = nil
				continue
			}
			s.onTeamMessage(SideA, d)
		case d, ok := <-team[1]:
			if !ok {
				team[1] = nil
				continue
			}
			s.onTeamMessage(SideB, d)
		}
	}
}

// step advances the game to now, runs fn (with the lock held), then reports the
// changes and sends the packet that is due.
func (s *Simulator) step(now time.Time, fn func()) {
	s.mu.Lock()
	s.advanceLocked(now)
	if fn != nil {
		fn()
	}
	out := s.dueLocked(now)
	changes := s.pending
	s.pending = nil
	s.mu.Unlock()

	if s.cfg.OnChange != nil {
		for _, c := range changes {
			s.cfg.OnChange(c)
		}
	}
	if out != nil {
		s.send(out)
	}
}

// Apply applies an action now, as a referee pressing a button. It waits for Run to take
// it; the error wraps ErrAction or ErrState when the action cannot be applied.
func (s *Simulator) Apply(ctx context.Context, a Action) error {
	if a == nil {
		return actionErr("nil action")
	}
	if err := a.check(s.cfg.Setup); err != nil {
		return err
	}
	req := request{a: a, reply: make(chan error, 1)}
	select {
	case s.reqs <- req:
	case <-s.done:
		return ErrStopped
	case <-ctx.Done():
		return ctx.Err()
	}
	return <-req.reply
}

// gameTimeLocked converts a clock time into game time.
func (s *Simulator) gameTimeLocked(t time.Time) time.Duration {
	return time.Duration(float64(t.Sub(s.start)) * s.cfg.Speed)
}

// wallLocked converts game time into clock time.
func (s *Simulator) wallLocked(gt time.Duration) time.Time {
	return s.start.Add(time.Duration(float64(gt) / s.cfg.Speed))
}

// advanceLocked plays the script and the timers up to clock time now.
func (s *Simulator) advanceLocked(now time.Time) {
	if now.Before(s.last) {
		return
	}
	s.last = now
	target := s.gameTimeLocked(now)
	for {
		steps := s.cfg.Script.Steps
		for s.next < len(steps) && s.base+steps[s.next].At <= target {
			st := steps[s.next]
			s.next++
			s.timeLocked(s.base + st.At)
			if err := s.applyLocked(st.Do, true); err != nil {
				s.stats.Skipped++
				s.emitLocked(fmt.Sprintf("step %d (%s) skipped", s.next, st.Do), false, err)
			}
		}
		s.timeLocked(target)
		if !s.cfg.Loop || s.next < len(steps) || s.g.state != gcproto.StateFinished || s.g.firstHalf {
			return
		}
		if s.loopAt == 0 {
			s.loopAt = s.g.now + LoopPause
		}
		if s.loopAt > target {
			return
		}
		s.timeLocked(s.loopAt)
		s.g.reset()
		s.base, s.next, s.loopAt = s.g.now, 0, 0
		s.stats.Restarts++
		s.emitLocked("restart", true, nil)
	}
}

// timeLocked lets the game run to game time gt.
func (s *Simulator) timeLocked(gt time.Duration) {
	if gt > s.g.now {
		s.g.advance(gt-s.g.now, func(what string) { s.emitLocked(what, true, nil) })
	}
}

// applyLocked applies an action at the current game time.
func (s *Simulator) applyLocked(a Action, script bool) error {
	changed, err := a.apply(s.g)
	if err != nil {
		return err
	}
	if changed {
		what := a.String()
		if !script {
			what += " (by hand)"
		}
		s.emitLocked(what, false, nil)
	}
	s.g.settle(func(what string) { s.emitLocked(what, true, nil) })
	return nil
}

func (s *Simulator) emitLocked(what string, auto bool, err error) {
	s.pending = append(s.pending, Change{
		At:   s.g.now,
		Wall: s.wallLocked(s.g.now),
		What: what,
		Auto: auto,
		Err:  err,
		Game: s.viewLocked(),
	})
	if err == nil && s.hsl {
		s.burstN, s.burstAt = BurstCount, s.last
	}
}

// dueLocked encodes the control packet if one is due at now and returns it.
func (s *Simulator) dueLocked(now time.Time) []byte {
	due := false
	if !now.Before(s.sendAt) {
		due = true
		for !s.sendAt.After(now) {
			s.sendAt = s.sendAt.Add(SendInterval)
		}
	}
	if s.burstN > 0 && !now.Before(s.burstAt) {
		due = true
		s.burstN--
		s.burstAt = s.burstAt.Add(BurstInterval)
		s.stats.Burst++
	}
	if !due {
		return nil
	}
	s.g.packet(&s.pkt, s.number)
	s.number++
	b, err := s.pkt.AppendBinary(s.buf[:0])
	if err != nil {
		// The actions are checked against the layout, so this is a bug.
		s.log.Error("gcsim: control packet does not encode", "err", err)
		return nil
	}
	s.stats.Packets++
	s.buf = b
	return b
}

func (s *Simulator) send(b []byte) {
	failed, err := s.cfg.Dest.send(s.cfg.Control, b)
	if failed == 0 {
		return
	}
	s.mu.Lock()
	first := s.stats.SendErrors == 0
	s.stats.SendErrors += uint64(failed)
	s.mu.Unlock()
	if first {
		s.log.Warn("gcsim: control packet not sent (further errors are only counted)", "dest", s.cfg.Dest.String(), "err", err)
	}
}

func (s *Simulator) onReturn(d transport.Datagram) {
	var r gcproto.ReturnPacket
	err := gcproto.DecodeReturn(d.Payload, &r)
	now := s.clk.Now()
	s.mu.Lock()
	s.stats.Returns++
	if err == nil {
		s.robots.heard(&r, d.Src, now)
		if r.Team != s.cfg.Teams[0] && r.Team != s.cfg.Teams[1] {
			s.stats.Foreign++
		}
		s.mu.Unlock()
		return
	}
	s.stats.Malformed++
	cause := 3
	switch {
	case errors.Is(err, gcproto.ErrLength):
		s.stats.MalformedLength++
		cause = 0
	case errors.Is(err, gcproto.ErrHeader):
		s.stats.MalformedHeader++
		cause = 1
	case errors.Is(err, gcproto.ErrVersion):
		s.stats.MalformedVersion++
		cause = 2
	default:
		s.stats.MalformedRange++
	}
	first := !s.logged[cause]
	s.logged[cause] = true
	s.mu.Unlock()
	s.cfg.Return.ReportMalformed()
	if first {
		s.log.Warn("gcsim: malformed return packet (further ones of this kind are only counted)", "from", d.Src, "len", len(d.Payload), "err", err)
	}
}

func (s *Simulator) onTeamMessage(side Side, d transport.Datagram) {
	now := s.clk.Now()
	s.mu.Lock()
	s.advanceLocked(now)
	s.stats.TeamMessages[side]++
	if what := s.g.teamMessage(side, len(d.Payload)); what != "" {
		s.emitLocked(what, true, nil)
	}
	changes := s.pending
	s.pending = nil
	s.mu.Unlock()
	if s.cfg.OnChange != nil {
		for _, c := range changes {
			s.cfg.OnChange(c)
		}
	}
}

// Robots returns every robot heard so far, sorted by team and player, with its
// connection status at the clock's current time.
func (s *Simulator) Robots() []RobotView {
	now := s.clk.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.robots.views(now)
}

// Stats returns a snapshot of the counters.
func (s *Simulator) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

// State returns the game as last advanced (at most one tick old while Run runs).
func (s *Simulator) State() GameView {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.viewLocked()
}

// GameView is a snapshot of the simulated game.
type GameView struct {
	Layout gcproto.Layout `json:"-"`
	// LayoutName is Layout's name, e.g. "hsl20".
	LayoutName string `json:"layout"`
	// Time is the game time since the start (or the last restart).
	Time time.Duration `json:"time"`

	State     gcproto.State `json:"-"`
	StateName string        `json:"state"`
	// GamePhase is normal, extra time (2) or the penalty shoot-out (1).
	GamePhase gcproto.GamePhase `json:"gamePhase"`
	FirstHalf bool              `json:"firstHalf"`
	Stopped   bool              `json:"stopped"`
	SetPlay   gcproto.SetPlay   `json:"-"`
	// SetPlayName is the unified set play name ("none", "corner_kick", ...).
	SetPlayName string `json:"setPlay"`
	// KickingTeam is the byte sent: a team number, or 255 for a dropped ball (DropBall)
	// or no kicking team.
	KickingTeam uint8 `json:"kickingTeam"`
	DropBall    bool  `json:"dropBall"`
	// SecsRemaining and SecondaryTime are the times sent, in seconds; SecondaryFor says
	// what the secondary time counts: "ready", "kick-off", "set play", "half-time" or "".
	SecsRemaining int    `json:"secsRemaining"`
	SecondaryTime int    `json:"secondaryTime"`
	SecondaryFor  string `json:"secondaryFor"`

	// Teams are side A and B (not the wire order, which swaps in the second half).
	Teams [2]TeamView `json:"teams"`

	// PacketNumber is the number of the next packet; Packets counts packets sent.
	PacketNumber uint8  `json:"packetNumber"`
	Packets      uint64 `json:"packets"`
	// Step is the number of script steps done, of Steps.
	Step  int `json:"step"`
	Steps int `json:"steps"`
}

// TeamView is one team of a GameView.
type TeamView struct {
	Side   Side  `json:"-"`
	Number uint8 `json:"number"`
	Score  int   `json:"score"`
	// MessageBudget is the remaining budget, -1 when the layout has none.
	MessageBudget int `json:"messageBudget"`
	// Messages counts the team messages counted against the budget; TooLong those over
	// the size limit; Illegal is set once the team broke the rules (score 0).
	Messages uint64 `json:"messages"`
	TooLong  uint64 `json:"tooLong"`
	Illegal  bool   `json:"illegal"`
	// Players are players 1..Players.
	Players []PlayerView `json:"players"`
}

// PlayerView is one player of a TeamView.
type PlayerView struct {
	Number              int             `json:"number"`
	Penalty             gcproto.Penalty `json:"penalty"`
	PenaltyName         string          `json:"penaltyName"`
	SecsTillUnpenalised int             `json:"secsTillUnpenalised"`
}

func (s *Simulator) viewLocked() GameView {
	g := s.g
	v := GameView{
		Layout:        g.layout,
		LayoutName:    g.layout.String(),
		Time:          s.g.now - s.base,
		State:         g.state,
		StateName:     strings.ToUpper(g.layout.StateName(g.state)),
		GamePhase:     g.phase,
		FirstHalf:     g.firstHalf,
		Stopped:       g.stopped,
		SetPlay:       g.setPlay,
		SetPlayName:   g.setPlay.String(),
		KickingTeam:   g.kickingTeam(),
		DropBall:      g.dropBall(),
		SecsRemaining: int(g.wireSecs(g.secs)),
		SecondaryTime: int(g.wireSecs(g.second)),
		SecondaryFor:  g.secondFor.String(),
		PacketNumber:  s.number,
		Packets:       s.stats.Packets,
		Step:          s.next,
		Steps:         len(s.cfg.Script.Steps),
	}
	for i := range g.team {
		t := &g.team[i]
		tv := TeamView{Side: Side(i), Number: g.teams[i], Score: t.score, MessageBudget: t.budget,
			Messages: t.messages, TooLong: t.tooLong, Illegal: t.illegal, Players: make([]PlayerView, g.players)}
		for n := range g.players {
			p := t.players[n]
			tv.Players[n] = PlayerView{Number: n + 1, Penalty: p.penalty, PenaltyName: g.layout.PenaltyName(p.penalty)}
			if p.timed {
				tv.Players[n].SecsTillUnpenalised = int(min(ceilSecs(p.left), math.MaxUint8))
			}
		}
		v.Teams[i] = tv
	}
	return v
}

// Summary describes the game in one line, with times as the GameController shows them
// (gamecontroller.FormatSecs), e.g.
// "PLAYING  1st half  17 1:0 5  00:47  corner_kick for 5 (00:30)  B2 pushing 12 s".
func (v GameView) Summary() string {
	var b strings.Builder
	half := "1st half"
	if !v.FirstHalf {
		half = "2nd half"
	}
	fmt.Fprintf(&b, "%-8s %s  %d %d:%d %d  %s", v.StateName, half, v.Teams[0].Number, v.Teams[0].Score,
		v.Teams[1].Score, v.Teams[1].Number, gcproto.FormatSecs(int32(v.SecsRemaining)))
	switch {
	case v.DropBall:
		b.WriteString("  dropped ball")
	case v.SetPlay != gcproto.SetPlayNone:
		fmt.Fprintf(&b, "  %s for %d", v.SetPlayName, v.KickingTeam)
	case v.KickingTeam != gcproto.KickingTeamNone && v.State != gcproto.StateFinished:
		fmt.Fprintf(&b, "  kick-off %d", v.KickingTeam)
	}
	switch v.SecondaryFor {
	case "":
	case "kick-off", "set play":
		fmt.Fprintf(&b, " (%s)", gcproto.FormatSecs(int32(v.SecondaryTime)))
	default:
		fmt.Fprintf(&b, ", %s %s", v.SecondaryFor, gcproto.FormatSecs(int32(v.SecondaryTime)))
	}
	if v.Stopped {
		b.WriteString("  STOPPED")
	}
	for _, t := range v.Teams {
		for _, p := range t.Players {
			if p.Penalty != gcproto.PenaltyNone {
				fmt.Fprintf(&b, "  %s%d %s %d s", t.Side, p.Number, p.PenaltyName, p.SecsTillUnpenalised)
			}
		}
		if t.Illegal {
			fmt.Fprintf(&b, "  %s illegal communication", t.Side)
		}
	}
	return b.String()
}
