package gamecontroller

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/bits"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"github.com/robocup-dnetwork/dnetwork/node/internal/idletick"
	"github.com/robocup-dnetwork/dnetwork/node/internal/warnlimit"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// Errors of the component's life cycle and methods.
var (
	// ErrQueueClosed is returned by Run when the socket's queue closes while the context
	// is still live: the socket's worker stopped.
	ErrQueueClosed = errors.New("gamecontroller: socket queue closed")
	// ErrRunTwice is returned by a second call of Run.
	ErrRunTwice = errors.New("gamecontroller: Run called twice")
	// ErrMessage is returned by RequestMessage for a message return packet v2 lacks.
	ErrMessage = errors.New("gamecontroller: unknown return packet message")
	// ErrNotConnected is returned by SubmitMessage while no GameController is connected.
	ErrNotConnected = errors.New("gamecontroller: no GameController connected")
	// ErrNoMessages is returned by SubmitMessage when the return packets sent to the
	// GameController followed carry no messages (versions 3 and 4).
	ErrNoMessages = errors.New("gamecontroller: the return packets carry no messages")
)

// maxSources bounds the GameController addresses remembered for the multiple
// GameController diagnostic; the oldest is forgotten first.
const maxSources = 8

// Component is the GameController client. Create it with New and run it with Run.
type Component struct {
	cfg       Config
	conn      bus.Conn
	clk       clock.Clock
	log       *slog.Logger
	infoPub   bus.Publisher[dmsgs.GCInfo]
	dataPub   bus.Publisher[dmsgs.GameControlData]
	pubPeriod time.Duration
	retPeriod time.Duration
	running   atomic.Bool
	// flushc asks the Run goroutine to process everything already queued (datagrams
	// and due ticks) and then close the channel sent; tests step the component with it.
	flushc chan chan struct{}
	// changed receives a value (without blocking) after every accepted packet: the
	// view Snapshot returns was replaced; onChange, if set, is called then too.
	changed  chan struct{}
	onChange atomic.Pointer[func()]

	// Owned by the goroutine that runs Run.
	pkt          gcproto.Packet // decode target, reused
	infoMsg      dmsgs.GCInfo
	dataMsg      dmsgs.GameControlData
	retBuf       [gcproto.ReturnSizeV4]byte
	srcAddr      netip.AddrPort // srcText caches srcAddr.String() for GameControlData
	srcText      string
	warn         warnlimit.Limiter[kind]
	preWarn      warnlimit.Limiter[kind] // Prefilter's warnings, guarded by mu
	teamsSeen    [4]uint64               // team numbers in not-our-team packets since the last warning
	wasConnected bool
	tk           ticks // Run's tickers (idle.go)
	// The packet held for confirmation (confirm.go), when it came and why.
	held    bool
	heldPkt gcproto.Packet
	heldAt  time.Time
	heldWhy doubt
	// pace is the seconds a packet this GameController's clocks were confirmed to count
	// (confirmLocked); 0 until one counts faster than it sends.
	pace int32
	// The budgets of the packet before the next one (steadyBudgets).
	prevBudgets budgets

	// inputSync, if set, hands over held-back inputs through the setters (SetInputSync).
	inputSync bus.InputSync

	mu sync.Mutex
	s  shared // guarded by mu
}

// shared is the state the Run goroutine shares with the thread-safe methods.
type shared struct {
	valid     bool           // a packet was accepted
	last      gcproto.Packet // the last accepted packet
	info      gcproto.GCInfo // derived from last
	lastValid time.Time      // when last was accepted
	gc        netip.AddrPort // who sent it: the GameController followed
	sources   []Source       // GameControllers heard within MultiWindow, oldest first
	counters  Counters

	// Inputs for return packet v4.
	stable   bool // MotionInfo.stable; true (not fallen) before the first
	pose     [3]float32
	ball     [2]float32
	ballSeen time.Time
	ballEver bool
	// A message for the next return packet v2.
	request   gcproto.ReturnMessage
	requested bool

	lastReturn    time.Time
	lastReturnTo  netip.AddrPort
	lastReturnBuf [gcproto.ReturnSizeV4]byte
	lastReturnLen int
	returnsSent   uint64
	returnErrors  uint64

	infoPublished uint64
	infoIdle      bool      // the GCInfo ticker is stopped (idle.go) ...
	infoIdleSince time.Time // ... since the tick at this time
	dataPublished uint64
	publishErrors uint64
}

// New returns a component that reads GameController packets from conn (bound to UDP
// 3838), keeps time with clk, and publishes GCInfo on info and whole packets on data.
func New(cfg Config, conn bus.Conn, clk clock.Clock, info bus.Publisher[dmsgs.GCInfo],
	data bus.Publisher[dmsgs.GameControlData]) (*Component, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if conn == nil || clk == nil || info == nil || data == nil {
		return nil, fmt.Errorf("%w: conn, clock and both publishers are required", ErrConfig)
	}
	cfg.AllowFrom = slices.Clone(cfg.AllowFrom)
	c := &Component{
		cfg:       cfg,
		conn:      conn,
		clk:       clk,
		log:       cfg.Logger,
		infoPub:   info,
		dataPub:   data,
		pubPeriod: ratePeriod(cfg.PublishRate),
		retPeriod: ratePeriod(cfg.ReturnRate),
		flushc:    make(chan chan struct{}),
		changed:   make(chan struct{}, 1),
		warn:      warnlimit.Limiter[kind]{Every: cfg.WarnInterval},
		preWarn:   warnlimit.Limiter[kind]{Every: cfg.WarnInterval},
	}
	if c.log == nil {
		c.log = slog.Default()
	}
	c.log = c.log.With("component", "gamecontroller")
	c.s.info.MessageBudget = -1
	c.s.stable = true
	c.s.sources = make([]Source, 0, maxSources)
	return c, nil
}

// Run processes datagrams and publishes and sends on the clock's tickers until ctx is
// done; then it returns nil. It returns ErrQueueClosed if the socket's queue closes
// first. Run may be called once.
func (c *Component) Run(ctx context.Context) error {
	if !c.running.CompareAndSwap(false, true) {
		return ErrRunTwice
	}
	c.tk = ticks{
		pub:      idletick.NewEarly(c.clk, c.pubPeriod),
		ret:      idletick.NewEarly(c.clk, c.retPeriod),
		audience: bus.AudienceChanges(c.infoPub),
	}
	defer c.tk.pub.Stop()
	defer c.tk.ret.Stop()
	in := c.conn.Datagrams()
	for {
		select {
		case <-ctx.Done():
			return nil
		case d, ok := <-in:
			if !ok {
				if ctx.Err() != nil {
					return nil
				}
				return ErrQueueClosed
			}
			c.handle(d)
		case t := <-c.tk.pub.C():
			c.onPublishTick(c.tk.pub.Ticked(t))
		case t := <-c.tk.ret.C():
			c.onReturnTick(c.tk.ret.Ticked(t))
		case <-c.tk.audience:
			c.onAudience()
		case done := <-c.flushc:
			c.flush(in)
			close(done)
		}
	}
}

// flush processes whatever is already waiting, without blocking.
func (c *Component) flush(in <-chan transport.Datagram) {
	for {
		select {
		case d, ok := <-in:
			if !ok {
				return
			}
			c.handle(d)
		case t := <-c.tk.pub.C():
			c.onPublishTick(c.tk.pub.Ticked(t))
		case t := <-c.tk.ret.C():
			c.onReturnTick(c.tk.ret.Ticked(t))
		case <-c.tk.audience:
			c.onAudience()
		default:
			return
		}
	}
}

// handle takes one datagram to its end: accepted or dropped by cause.
func (c *Component) handle(d transport.Datagram) {
	now := c.clk.Now()
	src := d.Src.Addr().Unmap()
	if k, err, ok := c.screen(d); !ok {
		if err != nil {
			c.conn.ReportMalformed()
		}
		c.drop(k)
		if msg, args := screenWarning(k, err, d); msg != "" {
			c.warnf(k, now, msg, args...)
		}
		return
	}
	if err := c.pkt.UnmarshalBinary(d.Payload); err != nil {
		c.conn.ReportMalformed()
		k := classify(err)
		c.drop(k)
		c.warnf(k, now, "undecodable GameController packet", "from", d.Src, "bytes", len(d.Payload), "err", err)
		return
	}
	p := &c.pkt
	if int(p.Teams[0].TeamNumber) != c.cfg.Team && int(p.Teams[1].TeamNumber) != c.cfg.Team {
		c.drop(causeNotOurTeam)
		c.notOurTeam(now, d.Src)
		return
	}
	info, err := gcproto.Derive(p, c.cfg.Team, c.cfg.Player)
	if err != nil {
		c.drop(causePlayer)
		c.warnf(causePlayer, now, "our player number does not exist in this GameController's layout",
			"player", c.cfg.Player, "layout", p.Layout.String(), "players", p.Layout.MaxPlayers(), "err", err)
		return
	}

	c.mu.Lock()
	c.s.counters.Received++
	c.clockBackLocked(now)
	multiple := c.noteSourceLocked(src, now)
	connected := c.connectedLocked(now)
	if connected && src != c.s.gc.Addr() {
		c.s.counters.OtherGameController++
		c.mu.Unlock()
		c.warnMultiple(now)
		return
	}
	first := !c.s.valid
	switched := !first && src != c.s.gc.Addr()
	if first || !connected || switched {
		c.held, c.pace = false, 0 // a new GameController, or one back: nothing to compare with
	} else if why := c.confirmLocked(p, now); why != doubtNone {
		c.s.counters.Unconfirmed[why]++
		c.mu.Unlock()
		// Not a warning: a real GameController's untimed penalty is held too. The count
		// is in /diagnostics.
		if ok, suppressed := c.warn.Allow(causeUnconfirmed, now); ok {
			c.log.Info("GameController packet held until the next one confirms it",
				"from", d.Src, "change", why.String(), "state", p.State.String(), "suppressed", suppressed)
		}
		return
	}
	c.steadyBudgets(p, &info, !first && connected && !switched)
	dataChanged := first || !connected || switched || !samePacket(&c.s.last, p)
	infoChanged := first || !connected || decisive(c.s.info) != decisive(info)
	if dataChanged {
		c.s.last = *p
	} else {
		c.s.last.PacketNumber = p.PacketNumber
	}
	c.s.valid = true
	c.s.info = info
	c.s.lastValid = now
	c.s.gc = netip.AddrPortFrom(src, d.Src.Port())
	c.s.counters.Accepted++
	publishInfo := c.cfg.PublishOnChange && infoChanged
	if publishInfo {
		fillGCInfo(&c.infoMsg, &info, true, true, now)
	}
	c.mu.Unlock()
	// Last, after what this packet publishes: the ticks due within half a period, on
	// this packet's wake-up rather than on one of their own (tickEarly).
	defer c.tickEarly(now)
	select {
	case c.changed <- struct{}{}:
	default: // one is pending: the receiver reads the newest view anyway
	}
	if f := c.onChange.Load(); f != nil {
		(*f)()
	}

	if !connected {
		c.wasConnected = true
		c.wakeTicks(now)
		c.log.Info("GameController connected", "from", d.Src, "layout", p.Layout.String(),
			"return_version", c.returnVersion(p.Layout))
	}
	if multiple {
		c.warnMultiple(now)
	}
	// GCInfo first: it is what behaviour reacts to, and GameControlData (every team and
	// robot) takes longer to encode and write.
	if publishInfo {
		c.publish(now, func() error { return c.infoPub.Publish(&c.infoMsg) }, &c.s.infoPublished)
	}
	if dataChanged {
		if !bus.Listened(c.dataPub) {
			// Nobody subscribes: counted as published, as ros.Publisher counts a message
			// for nobody, without building it (it cannot fail to serialise: no bounds).
			c.publish(now, func() error { return nil }, &c.s.dataPublished)
			return
		}
		if d.Src != c.srcAddr || c.srcText == "" {
			c.srcAddr, c.srcText = d.Src, d.Src.String()
		}
		fillGameControlData(&c.dataMsg, p, c.srcText, now)
		c.publish(now, func() error { return c.dataPub.Publish(&c.dataMsg) }, &c.s.dataPublished)
	}
}

// screen applies the checks that need no decode, in handle's order: the allow-list,
// then header, length and version (gcproto.Classify), then monitor
// copies (RGTD). ok false: the datagram is dropped with cause k; err is the bare
// sentinel of gcproto.Classify.
func (c *Component) screen(d transport.Datagram) (k kind, err error, ok bool) {
	if !c.allowed(d.Src.Addr().Unmap()) {
		return causeFiltered, nil, false
	}
	hk, _, err := gcproto.Classify(d.Payload)
	switch {
	case err != nil:
		return classify(err), err, false
	case hk == gcproto.HeaderRGTD:
		return causeMonitor, nil, false
	}
	return 0, nil, true
}

// screenWarning returns the warning for a datagram screen dropped with cause k; msg
// "" for none (monitor copies are expected). The error is explained only here.
func screenWarning(k kind, err error, d transport.Datagram) (msg string, args []any) {
	switch {
	case k == causeFiltered:
		return "GameController packet from a source outside the allow-list", []any{"from", d.Src}
	case err != nil:
		_, _, detail := gcproto.Identify(d.Payload)
		return "undecodable GameController packet", []any{"from", d.Src, "bytes", len(d.Payload), "err", detail}
	}
	return "", nil
}

// Prefilter is the GameController socket's transport.Filter: it drops, before the
// payload is copied and queued, every datagram screen drops (allow-list, header,
// length, version, monitor copies), counted in Counters exactly as Run would count it,
// with the same rate-limited warnings. The socket counts it as Filtered instead of
// Malformed or Delivered. Under a flood of junk the hand-off queue then holds only
// GameController packets. It is safe for concurrent use with Run.
func (c *Component) Prefilter(d transport.Datagram) bool {
	k, err, ok := c.screen(d)
	if ok {
		return true
	}
	c.drop(k)
	if k == causeMonitor {
		return false // expected: no warning
	}
	c.mu.Lock()
	warn, suppressed := c.preWarn.Allow(k, c.clk.Now())
	c.mu.Unlock()
	if warn { // the warning's arguments are built only now: junk costs no allocation
		msg, args := screenWarning(k, err, d)
		if suppressed > 0 {
			args = append(args, "suppressed", suppressed)
		}
		c.log.Warn(msg, args...)
	}
	return false
}

// allowed applies Config.AllowFrom.
func (c *Component) allowed(a netip.Addr) bool {
	if len(c.cfg.AllowFrom) == 0 {
		return true
	}
	for _, p := range c.cfg.AllowFrom {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// classify maps a decode error to its drop cause. The codec wraps exactly one sentinel;
// anything else would be a range problem of some field.
func classify(err error) kind {
	switch {
	case errors.Is(err, gcproto.ErrHeader):
		return causeHeader
	case errors.Is(err, gcproto.ErrLength):
		return causeLength
	case errors.Is(err, gcproto.ErrVersion):
		return causeVersion
	}
	return causeRange
}

// drop counts a datagram that was not accepted.
func (c *Component) drop(k kind) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := &c.s.counters
	n.Received++
	switch k {
	case causeFiltered:
		n.Filtered++
	case causeHeader:
		n.Header++
	case causeLength:
		n.Length++
	case causeVersion:
		n.Version++
	case causeRange:
		n.Range++
	case causeMonitor:
		n.Monitor++
	case causeNotOurTeam:
		n.NotOurTeam++
	case causePlayer:
		n.PlayerOutOfRange++
	case causeOtherGC:
		n.OtherGameController++
	}
}

// warnf logs a warning of kind k unless one was logged within WarnInterval.
func (c *Component) warnf(k kind, now time.Time, msg string, args ...any) {
	ok, suppressed := c.warn.Allow(k, now)
	if !ok {
		return
	}
	if suppressed > 0 {
		args = append(args, "suppressed", suppressed)
	}
	c.log.Warn(msg, args...)
}

// notOurTeam remembers the teams of a foreign packet and warns, naming every team seen
// since the last warning.
func (c *Component) notOurTeam(now time.Time, src netip.AddrPort) {
	for i := range c.pkt.Teams {
		t := c.pkt.Teams[i].TeamNumber
		c.teamsSeen[t/64] |= 1 << (t % 64)
	}
	ok, suppressed := c.warn.Allow(causeNotOurTeam, now)
	if !ok {
		return
	}
	var teams []string
	for w, word := range c.teamsSeen {
		for word != 0 {
			b := bits.TrailingZeros64(word)
			word &^= 1 << b
			teams = append(teams, strconv.Itoa(64*w+b))
		}
	}
	c.teamsSeen = [4]uint64{}
	args := []any{"our_team", c.cfg.Team, "teams_seen", strings.Join(teams, ","), "from", src}
	if suppressed > 0 {
		args = append(args, "suppressed", suppressed)
	}
	c.log.Warn("GameController packets for other teams", args...)
}

// warnMultiple warns (rate-limited) that several GameControllers send for our team.
func (c *Component) warnMultiple(now time.Time) {
	ok, suppressed := c.warn.Allow(causeOtherGC, now)
	if !ok {
		return
	}
	c.mu.Lock()
	c.pruneSourcesLocked(now)
	addrs := make([]string, len(c.s.sources))
	for i, s := range c.s.sources {
		addrs[i] = s.Addr.String()
	}
	followed := c.s.gc
	c.mu.Unlock()
	args := []any{"addresses", strings.Join(addrs, ","), "following", followed}
	if suppressed > 0 {
		args = append(args, "suppressed", suppressed)
	}
	c.log.Warn("more than one GameController sends packets for our team; set an allow-list", args...)
}

// connectedLocked reports whether the last accepted packet is younger than Timeout.
func (c *Component) connectedLocked(now time.Time) bool {
	if !c.s.valid {
		return false
	}
	age := now.Sub(c.s.lastValid)
	return age >= 0 && age < c.cfg.Timeout
}

// clockBackLocked takes a clock gone back (a simulation reset) into account before the
// connection is judged at now, a time read on Run's goroutine or under c.mu (Snapshot):
// nothing was stamped after it unless the clock went back (a stamp is read before the
// lock is taken, and the same clock read later never reads earlier). The last packet and the held one then count as received at now,
// as the team component's grid starts from now: the GameController stays connected
// for Timeout of the new time and is lost only if no packet comes within it, neither
// lost until its next packet nor connected until the clock has caught up. Never call
// it with a tick's instant (at), which a packet handled since may follow.
func (c *Component) clockBackLocked(now time.Time) {
	if c.s.valid && now.Before(c.s.lastValid) {
		c.s.lastValid = now
	}
	if c.held && now.Before(c.heldAt) {
		c.heldAt = now
	}
}

// connectedAtLocked reports whether a tick that stands for at (idletick.Ticker.Ticked),
// run at now, finds the GameController connected: at at, or at now after a packet
// accepted since at. The caller holds c.mu.
func (c *Component) connectedAtLocked(at, now time.Time) bool {
	return c.connectedLocked(at) || c.connectedLocked(now)
}

// noteSourceLocked records a valid packet for our team from a and reports whether more
// than one address sent such packets within MultiWindow.
func (c *Component) noteSourceLocked(a netip.Addr, now time.Time) bool {
	c.pruneSourcesLocked(now)
	for i := range c.s.sources {
		if s := &c.s.sources[i]; s.Addr == a {
			s.Last = now
			s.Packets++
			return len(c.s.sources) > 1
		}
	}
	if len(c.s.sources) == maxSources {
		c.s.sources = slices.Delete(c.s.sources, 0, 1)
	}
	c.s.sources = append(c.s.sources, Source{Addr: a, First: now, Last: now, Packets: 1})
	return len(c.s.sources) > 1
}

func (c *Component) pruneSourcesLocked(now time.Time) {
	c.s.sources = slices.DeleteFunc(c.s.sources, func(s Source) bool {
		age := now.Sub(s.Last)
		return age >= c.cfg.MultiWindow || age < 0
	})
}

// samePacket reports whether a and b differ at most in the packet number.
func samePacket(a, b *gcproto.Packet) bool {
	x := *a
	x.PacketNumber = b.PacketNumber
	return x == *b
}

// decisive clears the fields of g that change every second without a decision being
// made: the clocks.
func decisive(g gcproto.GCInfo) gcproto.GCInfo {
	g.SecsRemaining, g.SecondaryTime, g.SecsTillUnpenalised = 0, 0, 0
	return g
}

// publish calls pub and counts the outcome in *ok or in PublishErrors.
func (c *Component) publish(now time.Time, pub func() error, ok *uint64) {
	err := pub()
	c.mu.Lock()
	if err != nil {
		c.s.publishErrors++
	} else {
		*ok++
	}
	c.mu.Unlock()
	if err != nil {
		c.warnf(warnPublish, now, "publishing failed", "err", err)
	}
}

// publishTick publishes GCInfo for the tick that stands for at (idletick.Ticker.Ticked:
// now, or the grid instant of a tick that waited for a packet) and notices a lost
// connection.
func (c *Component) publishTick(at time.Time) {
	now := c.clk.Now()
	c.mu.Lock()
	c.clockBackLocked(now)
	connected := c.connectedAtLocked(at, now)
	fillGCInfo(&c.infoMsg, &c.s.info, c.s.valid, connected, now)
	gc, last := c.s.gc, c.s.lastValid
	c.mu.Unlock()
	if c.wasConnected && !connected {
		c.log.Warn("GameController lost", "from", gc, "silent_for", now.Sub(last).Round(time.Millisecond))
	}
	c.wasConnected = connected
	// Periodic: through the send queue (bus.PublishQueued), riding the next flush of
	// anything else or a fifth of the period later; a change is published at once
	// (handle), on this goroutine.
	c.publish(now, func() error { return bus.PublishQueued(c.infoPub, &c.infoMsg, c.pubPeriod/5) }, &c.s.infoPublished)
}

// returnVersion is the return packet version for a GameController sending layout l.
func (c *Component) returnVersion(l gcproto.Layout) uint8 {
	if c.cfg.ReturnVersion != 0 {
		return c.cfg.ReturnVersion
	}
	return ReturnVersionFor(l)
}

// returnTick sends a return packet to the GameController followed, if it is connected
// at at (the time the tick stands for, as for publishTick); it reports whether one is.
// The held-back inputs are handed over first (inputSync).
func (c *Component) returnTick(at time.Time) bool {
	c.mu.Lock()
	now := c.clk.Now()
	c.clockBackLocked(now)
	connected := c.connectedAtLocked(at, now)
	c.mu.Unlock()
	if !connected {
		return false // no packet to build: the inputs may wait
	}
	c.inputSync.Sync()
	now = c.clk.Now()
	c.mu.Lock()
	if !c.connectedAtLocked(at, now) {
		c.mu.Unlock()
		return false
	}
	r := gcproto.ReturnPacket{
		Version: c.returnVersion(c.s.last.Layout),
		Team:    uint8(c.cfg.Team),
		Player:  uint8(c.cfg.Player),
	}
	request, requested := c.s.request, c.s.requested
	c.s.requested = false
	switch r.Version {
	case gcproto.ReturnVersionHL:
		r.Message = gcproto.MsgAlive
		if requested {
			r.Message = request
		}
	case gcproto.ReturnVersionSPL3:
		r.Message = gcproto.MsgAliveV3
	default:
		r.Fallen = !c.s.stable
		r.Pose = c.s.pose
		r.Ball = c.s.ball
		r.BallAge = -1
		if c.s.ballEver {
			r.BallAge = float32(max(now.Sub(c.s.ballSeen), 0).Seconds())
		}
	}
	dst := netip.AddrPortFrom(c.s.gc.Addr(), c.cfg.ReturnPort)
	c.mu.Unlock()

	if requested && r.Version != gcproto.ReturnVersionHL {
		c.warnf(warnRequest, now, "return packet request dropped: only version 2 carries messages",
			"message", gcproto.MessageName(gcproto.ReturnVersionHL, request), "version", r.Version)
		requested = false
	}
	b, err := r.AppendBinary(c.retBuf[:0])
	if err == nil {
		err = c.conn.SendTo(b, dst)
	}
	c.mu.Lock()
	if err != nil {
		c.s.returnErrors++
		if requested && !c.s.requested {
			c.s.request, c.s.requested = request, true // try again next time
		}
	} else {
		c.s.returnsSent++
		c.s.lastReturn = now
		c.s.lastReturnTo = dst
		c.s.lastReturnLen = copy(c.s.lastReturnBuf[:], b)
	}
	c.mu.Unlock()
	if err != nil {
		c.warnf(warnReturn, now, "sending the return packet failed", "to", dst, "err", err)
	}
	return true
}

// RequestMessage puts m (MAN_PENALISE, MAN_UNPENALISE, GOALKEEPER,
// GAME_INTERRUPTION_READY) into the next return packet instead of ALIVE, once. Only
// return packet version 2 (HL) carries messages; with another version the request is
// dropped with a warning when the packet is sent. It is safe for concurrent use.
func (c *Component) RequestMessage(m gcproto.ReturnMessage) error {
	if m > gcproto.MsgGameInterruptionReady {
		return fmt.Errorf("%w: %d (version 2 defines 0..%d)", ErrMessage, m, gcproto.MsgGameInterruptionReady)
	}
	c.mu.Lock()
	c.s.request, c.s.requested = m, true
	c.mu.Unlock()
	return nil
}

// SubmitMessage is RequestMessage for a message that must reach the GameController now:
// it refuses ALIVE and unknown messages (ErrMessage), and a message that cannot go out
// because no GameController is connected (ErrNotConnected) or because the return packets
// sent to it carry no messages (ErrNoMessages: SPL and HSL GameControllers, or
// Config.ReturnVersion set to 3 or 4). The errors say why in words a robot's operator
// understands. It is safe for concurrent use.
func (c *Component) SubmitMessage(m gcproto.ReturnMessage) error {
	if m == gcproto.MsgAlive || m > gcproto.MsgGameInterruptionReady {
		return fmt.Errorf("%w: %d (requests are 0 MAN_PENALISE, 1 MAN_UNPENALISE, 3 GOALKEEPER, "+
			"4 GAME_INTERRUPTION_READY; 2 ALIVE goes out anyway)", ErrMessage, m)
	}
	now := c.clk.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.connectedLocked(now) {
		if !c.s.valid {
			return fmt.Errorf("%w: no packet of our team (%d) heard yet", ErrNotConnected, c.cfg.Team)
		}
		return fmt.Errorf("%w: the last packet from %v is %v old (timeout %v)", ErrNotConnected,
			c.s.gc, now.Sub(c.s.lastValid).Round(time.Millisecond), c.cfg.Timeout)
	}
	if l := c.s.last.Layout; c.returnVersion(l) != gcproto.ReturnVersionHL {
		if c.cfg.ReturnVersion != 0 {
			return fmt.Errorf("%w: the node sends return packets version %d (gamecontroller.return_version); "+
				"only version 2 (HL) carries messages", ErrNoMessages, c.cfg.ReturnVersion)
		}
		return fmt.Errorf("%w: the GameController at %v speaks %s and takes return packets version %d; "+
			"only the HL GameController (version 2) takes messages", ErrNoMessages, c.s.gc.Addr(),
			LayoutName(l), c.returnVersion(l))
	}
	c.s.request, c.s.requested = m, true
	return nil
}

// Snapshot returns the current GameController state. It is safe for concurrent use.
func (c *Component) Snapshot() Snapshot {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.clk.Now() // under the lock: not older than an accepted packet
	c.clockBackLocked(now)
	return Snapshot{
		Connected: c.connectedLocked(now),
		Valid:     c.s.valid,
		Received:  c.s.lastValid,
		Source:    c.s.gc,
		GCInfo:    c.s.info,
	}
}

// Changed returns a channel that receives a value after an accepted packet has
// replaced the view Snapshot returns; several replacements may give one value. It has
// one receiver, which reads Snapshot after each value (the team component re-plans its
// sending).
func (c *Component) Changed() <-chan struct{} { return c.changed }

// OnChange has f called, on the goroutine that accepted the packet and with no lock
// held, whenever Changed receives a value (nil: no more calls; a call in progress may
// still finish). f must return at once: the team component uses it to wake the
// goroutine that owns its state without a goroutine of its own in between.
func (c *Component) OnChange(f func()) {
	if f == nil {
		c.onChange.Store(nil)
		return
	}
	c.onChange.Store(&f)
}

// Status returns the component's health for diagnostics. It is safe for concurrent use.
func (c *Component) Status() Status {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.clk.Now() // under the lock: not older than an accepted packet
	c.pruneSourcesLocked(now)
	st := Status{
		Connected:       c.connectedLocked(now),
		GameController:  c.s.gc,
		GameControllers: slices.Clone(c.s.sources),
		LastPacket:      c.s.lastValid,
		LastPacketAge:   -1,
		LastReturn:      c.s.lastReturn,
		LastReturnTo:    c.s.lastReturnTo,
		LastReturnBytes: slices.Clone(c.s.lastReturnBuf[:c.s.lastReturnLen]),
		ReturnsSent:     c.s.returnsSent,
		ReturnErrors:    c.s.returnErrors,
		GCInfoPublished: c.infoPublishedLocked(now),
		DataPublished:   c.s.dataPublished,
		PublishErrors:   c.s.publishErrors,
		Counters:        c.s.counters,
	}
	st.MultipleGameControllers = len(st.GameControllers) > 1
	for i := range st.GameControllers {
		st.GameControllers[i].Followed = c.s.valid && st.GameControllers[i].Addr == c.s.gc.Addr()
	}
	if c.s.valid {
		st.Layout = c.s.last.Layout
		st.Version = c.s.last.Layout.Version()
		st.LastPacketAge = now.Sub(c.s.lastValid)
	}
	return st
}
