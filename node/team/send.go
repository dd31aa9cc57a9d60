package team

import (
	"math"
	"time"

	"github.com/robocup-dnetwork/dnetwork/node/units"
	"github.com/robocup-dnetwork/dnetwork/proto/robocup"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/geometry_msgs"
)

// rule is the send rule's reading of the situation at one instant.
type rule struct {
	in       inputs
	on       [256]bool // teammates online, by player number
	mates    []uint8   // the player numbers ever heard (shared.mates): the only ones on may hold
	online   int
	verdict  Verdict
	interval time.Duration // rounded to whole ticks
	tier     Tier
	// silent is the silent decision that applies, or DecisionNone when a packet may go
	// once the interval has passed.
	silent Decision
}

// read applies the rate rule and the budget policy to the inputs handed over last and
// the teammates at now, the snapshot snap and the budget estimate b. It changes
// nothing.
func (c *Component) read(now time.Time, snap *GameSnapshot, b BudgetTracker) rule {
	var r rule
	c.mu.Lock()
	r.in = c.in
	r.mates = c.st.mates[:c.st.nMates]
	for _, p := range r.mates {
		if t := c.st.heard[p]; !t.IsZero() && c.isOnline(t, now) {
			r.on[p] = true
			r.online++
		}
	}
	c.mu.Unlock()
	held := c.startHeld(now)
	remaining, known := b.Remaining()
	r.verdict = c.policy.Decide(BudgetInput{
		Known: known, Remaining: remaining, State: snap.State, Phase: snap.GamePhase,
		FirstHalf: snap.FirstHalf, SecsRemaining: snap.SecsRemaining,
		Robots: 1 + r.online, Penalised: snap.Penalised,
	})
	ri := r.in.rateInput()
	ri.MatesOnline = r.online
	interval, tier := c.cfg.Rate.Choose(ri)
	r.interval, r.tier = c.sched.Interval(interval, r.verdict.MinInterval), tier
	switch {
	case held:
		r.silent = DecisionSilentStart
	case snap.Penalised:
		r.silent = DecisionSilentPenalised
	case snap.Stopped && c.cfg.SilentWhenStopped:
		r.silent = DecisionSilentStopped
	case r.verdict.Silent:
		r.silent = DecisionSilentBudget
	}
	return r
}

// startHeld reports whether our team packets are held at now (Config.GCWait): since
// Run started, neither has the GameController been heard nor has the wait passed
// (noteStart records both; a clock without time yet holds).
func (c *Component) startHeld(now time.Time) bool {
	return !c.holdOver && (c.holdUntil.IsZero() || now.Before(c.holdUntil))
}

// startHold starts the wait of Config.GCWait as Run starts at now (a clock without
// time yet: at its first time, noteStart).
func (c *Component) startHold(now time.Time) {
	c.holdOver = c.cfg.GCWait <= 0
	if !c.holdOver && !now.IsZero() {
		c.holdUntil = now.Add(c.cfg.GCWait)
	}
}

// noteStart ends the hold after start for good once the GameController is heard or
// the wait has passed, so that neither a lost GameController nor a clock gone back
// holds the packets again. A clock gone back during the wait (a simulation reset)
// restarts it from now, as the GameController's connection counts from the reset.
func (c *Component) noteStart(now time.Time, snap *GameSnapshot) {
	if !c.holdOver && !c.holdUntil.IsZero() && !now.IsZero() && c.holdUntil.Sub(now) > c.cfg.GCWait {
		c.holdUntil = now.Add(c.cfg.GCWait)
	}
	switch {
	case c.holdOver:
	case snap.Connected:
		c.holdOver = true
		c.log.Info("GameController heard, team packets start")
	case c.holdUntil.IsZero():
		if !now.IsZero() {
			c.holdUntil = now.Add(c.cfg.GCWait)
		}
	case !now.Before(c.holdUntil):
		c.holdOver = true
		c.log.Info("no GameController heard since start, team packets start", "gc_wait", c.cfg.GCWait)
	}
}

// noteOnline logs the teammates that came online or went offline since the last call
// (r.mates are all that ever were) and tells the mate hook of those gone offline.
func (c *Component) noteOnline(r *rule) {
	for _, p := range r.mates {
		if o := r.on[p]; o != c.online[p] {
			c.online[p] = o
			if o {
				c.log.Info("teammate online", "player", p)
			} else {
				c.log.Info("teammate offline", "player", p, "timeout", c.cfg.TeammateTimeout)
			}
		}
	}
	c.tellOffline(r)
}

// tick runs one step of the send loop at now.
func (c *Component) tick(now time.Time) {
	snap := c.game.Snapshot()
	c.snap = snap
	c.updateBudget(&snap)

	c.inputSync.Sync() // the packet carries every input that arrived before the tick
	c.noteStart(now, &snap)
	r := c.read(now, &snap, c.budget)
	c.noteOnline(&r)
	// mates_online holds the teammates heard recently and ourselves: ZJUDancer robots set
	// their own entry too (TV-TEAM-296; their "alone" rule skips the own index).
	var mates [teaminfo.MaxMates]bool
	if p := int(c.cfg.Player); p <= teaminfo.MaxMates {
		mates[p-1] = true
	}
	for _, p := range r.mates {
		if r.on[p] && p >= 1 && p <= teaminfo.MaxMates {
			mates[p-1] = true
		}
	}
	in, interval, tier, verdict := r.in, r.interval, r.tier, r.verdict

	d := r.silent
	var pkt []byte
	built := false
	switch {
	case d != DecisionNone:
	case !c.sched.Due(now, interval):
		d = DecisionNotDue
	default:
		// Every attempt restarts the interval, so a failing send is retried at the send
		// rate, not on every tick.
		c.sched.Sent(now)
		var err error
		pkt, err = c.build(now, &in, &snap, mates, true)
		built = err == nil
		switch {
		case err != nil:
			d = DecisionEncodeError
			if c.warnAllowed(causeEncode, now) {
				c.log.Warn("cannot encode our team packet", "err", err)
			}
		case len(pkt) > c.sizeCap:
			d = DecisionTooLarge
			if c.warnAllowed(causeTooLarge, now) {
				c.log.Warn("team packet above the league's size cap, not sent",
					"bytes", len(pkt), "cap", c.sizeCap, "league", c.cfg.League)
			}
		case c.send(pkt, now):
			d = DecisionSent
			if c.policy.League.Counted(snap.State, snap.GamePhase) {
				c.budget.Spend(1)
			}
		default:
			d = DecisionSendError
		}
	}

	if c.cfg.Monitor.IsValid() && c.monSched.Due(now, c.cfg.MonitorInterval) {
		c.monSched.Sent(now)
		c.sendMonitor(now, pkt, built, &in, &snap, mates)
	}

	remaining, known := c.budget.Remaining()
	c.mu.Lock()
	st := &c.st
	st.send.Ticks++
	switch d {
	case DecisionSilentStart:
		st.send.SilentStart++
	case DecisionSilentPenalised:
		st.send.SilentPenalised++
	case DecisionSilentStopped:
		st.send.SilentStopped++
	case DecisionSilentBudget:
		st.send.SilentBudget++
	case DecisionNotDue:
		st.send.NotDue++
	case DecisionEncodeError:
		st.send.EncodeErrors++
	case DecisionTooLarge:
		st.send.TooLarge++
	case DecisionSendError:
		st.send.SendErrors++
	case DecisionSent:
		st.send.Sent++
		st.lastSend = now
	}
	st.decision, st.lastTick = d, now
	st.interval, st.tier, st.verdict = interval, tier, verdict
	st.budget, st.known = remaining, known
	c.mu.Unlock()
}

// updateBudget takes the GameController's budget figure as truth when it changes or a
// packet brought it.
func (c *Component) updateBudget(snap *GameSnapshot) {
	applyBudget(&c.budget, &c.gcBudget, snap)
}

// applyBudget updates the estimate b, whose last GameController figure is gc (-1
// none), from snap: when the figure changed, or b was told of a packet (Packet), whose
// figure wins over the messages counted since the last one even when it is the same.
func applyBudget(b *BudgetTracker, gc *int, snap *GameSnapshot) {
	switch {
	case snap.MessageBudget < 0:
		if *gc >= 0 {
			b.Forget()
			*gc = -1
		}
	case snap.MessageBudget != *gc || b.packet:
		b.FromGameController(snap.MessageBudget)
		*gc = snap.MessageBudget
	}
}

// send sends pkt to the team (broadcast, or each peer) and reports whether at least one
// datagram left.
func (c *Component) send(pkt []byte, now time.Time) bool {
	var ok, failed int
	var lastErr error
	if dsts, unicast := c.boosterPeers(now); unicast {
		if len(dsts) == 0 {
			// No teammate discovered yet: nothing leaves, as on a vendor robot.
			c.mu.Lock()
			c.st.send.NoPeers++
			c.mu.Unlock()
			return false
		}
		ok, lastErr = c.conn.SendToEach(pkt, dsts)
		failed = len(dsts) - ok
	} else if len(c.cfg.Peers) == 0 {
		if err := c.conn.Broadcast(pkt, c.port); err != nil {
			failed, lastErr = 1, err
		} else {
			ok = 1
		}
	} else {
		ok, lastErr = c.conn.SendToEach(pkt, c.cfg.Peers)
		failed = len(c.cfg.Peers) - ok
	}
	if failed > 0 && c.warnAllowed(causeSend, now) {
		c.log.Warn("cannot send our team packet", "failed", failed, "of", failed+ok, "err", lastErr)
	}
	c.mu.Lock()
	c.st.send.Datagrams += uint64(ok)
	c.st.send.DatagramErrors += uint64(failed)
	c.mu.Unlock()
	return ok > 0
}

// sendMonitor sends the monitor copy: the packet built this tick, or a fresh one.
func (c *Component) sendMonitor(now time.Time, pkt []byte, built bool, in *inputs, snap *GameSnapshot, mates [teaminfo.MaxMates]bool) {
	var err error
	if !built {
		pkt, err = c.build(now, in, snap, mates, false)
	}
	if err == nil {
		err = c.conn.SendTo(pkt, c.cfg.Monitor)
	}
	if err != nil && c.warnAllowed(causeMonitor, now) {
		c.log.Warn("cannot send the monitor copy", "monitor", c.cfg.Monitor, "err", err)
	}
	c.mu.Lock()
	if err != nil {
		c.st.send.MonitorErrors++
	} else {
		c.st.send.MonitorSent++
	}
	c.mu.Unlock()
}

// build encodes our packet from the inputs into c.buf and records its stamp, so that
// the echo of it can be told from another robot using our player number. A dnet packet
// for the team (answer set) answers one teammate's packet (clocks.pick).
func (c *Component) build(now time.Time, in *inputs, snap *GameSnapshot, mates [teaminfo.MaxMates]bool, answer bool) ([]byte, error) {
	var stamp time.Duration
	var err error
	switch c.cfg.Format {
	case FormatBooster:
		stamp = c.buildBooster(in, snap, answer)
		c.buf, err = c.bst.Append(c.buf[:0])
	case FormatZJU:
		c.buildZJU(now, in, snap, mates)
		c.buf, err = c.zju.AppendBinary(c.buf[:0])
		t := c.zju.TxpTimestamp
		stamp = time.Duration(t.Sec)*time.Second + time.Duration(t.Nsec)
	case FormatRobocup:
		stamp = c.buildRobocup(now, in, snap)
		c.buf, err = robocup.Append(c.buf[:0], &c.rc.tx, c.cfg.RobocupExtension)
	default:
		c.buildState(now, in, snap, mates)
		if answer {
			c.tx.Echo = c.clocks.pick(now, c.cfg.TeammateTimeout)
		}
		c.dnet.FromState(&c.tx)
		if answer { // a packet for the team; a copy for the monitor alone reuses the number
			c.seq++
		}
		c.dnet.Seq = c.seq
		if c.key != nil {
			c.buf, err = c.dnet.AppendSigned(c.buf[:0], c.key)
		} else {
			c.buf, err = c.dnet.AppendBinary(c.buf[:0])
		}
		stamp = time.Duration(c.dnet.StampMs) * time.Millisecond
	}
	if err != nil {
		return nil, err
	}
	c.recent[c.recentN%len(c.recent)] = stamp
	c.recentN++
	return c.buf, nil
}

// sentByUs reports whether a packet with our player number and this stamp is one we
// built recently.
func (c *Component) sentByUs(stamp time.Duration) bool {
	for i := range min(c.recentN, len(c.recent)) {
		if c.recent[i] == stamp {
			return true
		}
	}
	return false
}

// rosTime converts a clock reading to the ROS 1 time of a zju packet (seconds clamped to
// 0 .. 2^32-1).
func rosTime(t time.Time) teaminfo.RosTime {
	ns := t.UnixNano()
	if ns <= 0 {
		return teaminfo.RosTime{}
	}
	sec := ns / int64(time.Second)
	if sec > math.MaxUint32 {
		return teaminfo.RosTime{Sec: math.MaxUint32, Nsec: uint32(time.Second - 1)}
	}
	return teaminfo.RosTime{Sec: uint32(sec), Nsec: uint32(ns % int64(time.Second))}
}

func vec(v geometry_msgs.Vector3) teaminfo.Vector3 { return teaminfo.Vector3{X: v.X, Y: v.Y, Z: v.Z} }

// buildZJU fills c.zju straight from the inputs: both are in cm and degrees, so the
// values go on the wire exactly as the robot's nodes published them.
func (c *Component) buildZJU(now time.Time, in *inputs, snap *GameSnapshot, mates [teaminfo.MaxMates]bool) {
	c.zju = teaminfo.ZJUPacket{
		TxpTimestamp:      rosTime(now),
		PlayerNumber:      c.cfg.Player,
		TeamNumber:        c.cfg.Team,
		Incapacitated:     in.motionAt.IsZero() || !in.stable,
		Role:              in.role,
		AttackRight:       in.attackRight,
		Dest:              vec(in.dest),
		FinalDest:         vec(in.finalDest),
		AttackTarget:      vec(in.target),
		TimeSinceLastKick: in.sinceKick,
		State:             in.playState,
		Priority:          in.priority,
		KickerID:          in.kickerID,
		MatesOnline:       mates,
		SeeBall:           in.seeBall,
		SeeCircle:         in.seeCircle,
		SeeGoal:           in.seeGoal,
		RobotPos:          vec(in.robotPos),
		BallField:         vec(in.ballField),
		BallGlobal:        vec(in.ballGlobal),
		CircleField:       vec(in.circleField),
		CircleGlobal:      vec(in.circleGlobal),
		GoalField:         vec(in.goalField),
		GoalGlobal:        vec(in.goalGlobal),
		BallQuality:       in.ballQ,
		FieldQuality:      in.fieldQ,
		FieldConsistency:  in.fieldC,
		GCConnected:       snap.Connected,
		GCState:           snap.State,
		GCState2:          snap.SecondaryState,
	}
}

func pose(v geometry_msgs.Vector3) teaminfo.Pose {
	return teaminfo.Pose{X: units.Metres(v.X), Y: units.Metres(v.Y), Theta: units.Radians(v.Z)}
}

func point(v geometry_msgs.Vector3) teaminfo.Point {
	return teaminfo.Point{X: units.Metres(v.X), Y: units.Metres(v.Y), Z: units.Metres(v.Z)}
}

// buildState fills c.tx, the model of our packet in SI units, for the dnet format.
func (c *Component) buildState(now time.Time, in *inputs, snap *GameSnapshot, mates [teaminfo.MaxMates]bool) {
	ballAge := math.NaN()
	if !in.ballSeenAt.IsZero() {
		ballAge = max(now.Sub(in.ballSeenAt).Seconds(), 0)
	}
	stamp := time.Duration(max(now.UnixNano(), 0))
	c.tx = teaminfo.State{
		Team:              c.cfg.Team,
		Player:            c.cfg.Player,
		Stamp:             stamp,
		Incapacitated:     in.motionAt.IsZero() || !in.stable,
		Fallen:            !in.motionAt.IsZero() && !in.stable,
		Penalised:         snap.Penalised,
		AttackRight:       in.attackRight,
		Priority:          in.priority,
		SeeBall:           in.seeBall,
		SeeCircle:         in.seeCircle,
		SeeGoal:           in.seeGoal,
		GCConnected:       snap.Connected,
		GCStopped:         snap.Stopped,
		Role:              teaminfo.Role(in.role),
		PlayState:         teaminfo.PlayState(in.playState),
		KickerID:          in.kickerID,
		MatesOnline:       mates,
		RobotPos:          pose(in.robotPos),
		Dest:              pose(in.dest),
		FinalDest:         pose(in.finalDest),
		AttackTarget:      point(in.target),
		BallField:         point(in.ballField),
		BallGlobal:        point(in.ballGlobal),
		TeamBallGlobal:    point(in.teamBall),
		CircleField:       point(in.circleField),
		CircleGlobal:      point(in.circleGlobal),
		GoalField:         point(in.goalField),
		GoalGlobal:        point(in.goalGlobal),
		TimeSinceLastKick: float64(in.sinceKick),
		TimeToReachBall:   float64(in.toBall),
		BallAge:           ballAge,
		BallQuality:       float64(in.ballQ),
		FieldQuality:      float64(in.fieldQ),
		FieldConsistency:  float64(in.fieldC),
		GCState:           snap.State,
		GCSecondaryState:  snap.SecondaryState,
		GamePhase:         snap.GamePhase,
		SetPlay:           snap.SetPlay,
		VoronoiLen:        in.voronoiLen,
	}
	for i, v := range in.voronoi[:in.voronoiLen] {
		c.tx.Voronoi[i] = point(v)
	}
}
