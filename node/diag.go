package node

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/english"
	"github.com/robocup-dnetwork/dnetwork/node/diagnostics"
	"github.com/robocup-dnetwork/dnetwork/node/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/node/team"
	"github.com/robocup-dnetwork/dnetwork/node/teamlinks"
	dm "github.com/robocup-dnetwork/dnetwork/ros/interfaces/diagnostic_msgs"
	"github.com/robocup-dnetwork/dnetwork/transport"
	"github.com/robocup-dnetwork/dnetwork/transport/udpstat"
)

// InputStale is how old the latest MotionInfo, BehaviorInfo or VisionInfo may be
// before the node's status turns to a warning.
const InputStale = 2 * time.Second

// Names of the statuses on /diagnostics, each prefixed with "<node name>: ".
const (
	DiagNode           = "node"
	DiagGameController = "gamecontroller"
	DiagTeam           = "team"
	DiagWorldInfo      = "worldinfo"
	DiagSwarm          = "swarm"
	DiagSim3d          = "sim3d"
	DiagRecord         = "record"
	DiagSocketPrefix   = "socket " // + the socket's name: gamecontroller, team, worldinfo, swarm
	DiagKernelUDP      = "kernel udp"
)

// sources returns the diagnostics sources of every part of the node.
func (n *Node) sources() []diagnostics.Source {
	src := []diagnostics.Source{
		one(n.nodeStatus),
		one(func(now time.Time) dm.DiagnosticStatus { return gameControllerStatus(n.gc.Status(), n.gc.Snapshot()) }),
	}
	if n.team != nil {
		src = append(src, one(func(now time.Time) dm.DiagnosticStatus { return n.boosterStatus(teamStatus(n.team.Status())) }))
	}
	if n.cfg.WorldInfo.Enabled {
		src = append(src, one(n.worldInfoStatus))
	}
	if n.cfg.Swarm.Enabled {
		src = append(src, one(n.swarmStatus))
	}
	if n.sim3d != nil {
		src = append(src, one(n.sim3dStatus))
	}
	if n.rec != nil {
		src = append(src, one(func(time.Time) dm.DiagnosticStatus { return n.rec.Status(DiagRecord) }))
	}
	src = append(src, one(n.kernelUDP), func(now time.Time) []dm.DiagnosticStatus {
		var out []dm.DiagnosticStatus
		for _, w := range n.sockets() {
			out = append(out, socketStatus(w.Name(), w.Stats(), w.Status()))
		}
		if n.cfg.Swarm.Enabled {
			st := n.swarm.Status()
			out = append(out, socketStatus("swarm", st.Swarm.Transport, st.Socket))
		}
		return out
	})
	return src
}

func one(f func(time.Time) dm.DiagnosticStatus) diagnostics.Source {
	return func(now time.Time) []dm.DiagnosticStatus { return []dm.DiagnosticStatus{f(now)} }
}

func socketStatus(name string, st transport.Stats, s transport.Status) dm.DiagnosticStatus {
	d := diagnostics.Socket(DiagSocketPrefix+name, st, s.Interface, s.State == transport.StateUp, s.Err)
	carrier := "yes"
	if s.State == transport.StateUp && s.NoCarrier {
		carrier = "no"
		d.Level = diagnostics.Error
		d.Message = fmt.Sprintf("no carrier on %s: what it sends is lost (%d sends so far)", s.Interface.Name, st.SentNoCarrier)
	}
	d.Values = append(d.Values,
		dm.KeyValue{Key: "state", Value: s.State.String()},
		dm.KeyValue{Key: "carrier", Value: carrier},
		dm.KeyValue{Key: "sent_no_carrier", Value: strconv.FormatUint(st.SentNoCarrier, 10)},
		dm.KeyValue{Key: "local", Value: s.Local.String()},
		dm.KeyValue{Key: "read_buffer", Value: strconv.Itoa(s.ReadBuffer)})
	return d
}

// kernelUDP reports the kernel's UDP receive errors of the node's network namespace
// since the node started, by cause (package transport/udpstat), and warns about the
// causes that grew since the last report.
func (n *Node) kernelUDP(now time.Time) dm.DiagnosticStatus {
	c, err := udpstat.Read()
	if err != nil {
		return diagnostics.NewStatus(DiagKernelUDP).Level(diagnostics.Warn, err.Error()).Done()
	}
	n.udpMu.Lock()
	grew := c.Sub(n.udpLast)
	n.udpLast = c
	n.udpMu.Unlock()
	return kernelUDPStatus(c.Sub(n.udpBase), grew)
}

// kernelUDPStatus is kernelUDP's status for the counters d since the node started, of
// which grew since the last report.
func kernelUDPStatus(d, grew udpstat.Counters) dm.DiagnosticStatus {
	msg := "no receive errors"
	if d.InErrors > 0 {
		// Set as the first message: Level keeps the first one of a level.
		msg = fmt.Sprintf("%d receive errors since start", d.InErrors)
	}
	b := diagnostics.NewStatus(DiagKernelUDP).Level(diagnostics.OK, msg)
	if grew.InCsumErrors > 0 {
		b.Level(diagnostics.Warn, english.Count(grew.InCsumErrors, "datagram")+" with a bad UDP checksum since the last report: the link corrupts packets")
	}
	if grew.RcvbufErrors > 0 {
		b.Level(diagnostics.Warn, english.Count(grew.RcvbufErrors, "datagram")+" dropped for a full receive buffer since the last report: raise receive_buffer, or a process reads too slowly")
	}
	return b.Add("receive_buffer_errors", d.RcvbufErrors).Add("checksum_errors", d.InCsumErrors).
		Add("other_errors", d.OtherErrors()).Add("receive_errors", d.InErrors).
		Add("no_port", d.NoPorts).Add("received", d.InDatagrams).Add("send_buffer_errors", d.SndbufErrors).
		Done()
}

// nodeStatus reports the node's identity and its inputs.
func (n *Node) nodeStatus(now time.Time) dm.DiagnosticStatus {
	c := &n.cfg
	b := diagnostics.NewStatus(DiagNode).Level(diagnostics.OK, "running")
	b.Add("robot_id", c.RobotID).Add("team_number", c.TeamNumber).Add("league", c.League).
		Add("node", n.rn.FullyQualifiedName()).Add("interface", c.Interface).
		Add("uptime", now.Sub(n.start)).
		Add("diagnostics_publish_errors", n.diagFailed.Load())
	if n.links != nil {
		b.Add("teamlinks_publish_errors", n.linksFailed.Load())
	}
	n.syncInputs() // the counts and ages include every sample that has arrived
	var stale []string
	for i, in := range []*input{&n.in.motion, &n.in.behavior, &n.in.vision} {
		sub := n.inSubs[i]
		name := sub.Topic()
		key := strings.ToLower(name[strings.LastIndexByte(name, '/')+1:])
		b.Add(key+"_received", in.count.Load())
		if age, ok := in.age(now); ok {
			b.Add(key+"_age", age)
			if age > InputStale {
				stale = append(stale, fmt.Sprintf("no %s for %v", name, age.Round(100*time.Millisecond)))
			}
		} else {
			b.Add(key+"_age", "never")
			stale = append(stale, "no "+name+" yet")
		}
	}
	for _, sub := range n.inSubs {
		pubs, _ := sub.PublisherCount()
		b.Add(sub.Topic()+" publishers", pubs)
		if d := sub.Dropped(); d > 0 {
			b.Add(sub.Topic()+" dropped", d)
		}
	}
	if w := inputWarning(peerValues(b, n.rn.PeerIssues()), stale); w != "" {
		b.Level(diagnostics.Warn, w)
	}
	var socks []transport.Status
	for _, w := range n.sockets() {
		socks = append(socks, w.Status())
	}
	if err := interfaceError(socks); err != nil {
		b.Level(diagnostics.Error, err.Error())
	}
	return b.Done()
}

// gameControllerStatus reports the GameController client: connection, version, more
// than one GameController, the game as the robot sees it, return packets and drops.
func gameControllerStatus(st gamecontroller.Status, snap gamecontroller.Snapshot) dm.DiagnosticStatus {
	b := diagnostics.NewStatus(DiagGameController)
	version := gamecontroller.LayoutName(st.Layout)
	switch {
	case st.Connected:
		b.Level(diagnostics.OK, fmt.Sprintf("connected to %s (%s)", st.GameController.Addr(), version))
	case st.LastPacket.IsZero():
		b.Level(diagnostics.Warn, "no GameController heard")
	default:
		b.Level(diagnostics.Warn, fmt.Sprintf("GameController lost %v ago", st.LastPacketAge.Round(time.Second)))
	}
	var addrs []string
	for _, s := range st.GameControllers {
		addrs = append(addrs, s.Addr.String())
	}
	if st.MultipleGameControllers {
		b.Level(diagnostics.Warn, "more than one GameController: "+strings.Join(addrs, ", "))
	}
	b.Add("connected", st.Connected).Add("version", version).
		Add("game_controllers", strings.Join(addrs, " ")).
		Add("more_than_one", st.MultipleGameControllers)
	if st.GameController.IsValid() {
		b.Add("game_controller", st.GameController)
	}
	if st.LastPacketAge >= 0 {
		b.Add("last_packet_age", st.LastPacketAge)
	}
	if snap.Valid {
		g := &snap.GCInfo
		b.Add("state", g.Layout.StateName(g.State)).
			Add("secs_remaining", g.SecsRemaining).
			Add("penalised", g.Penalised).
			Add("score", fmt.Sprintf("%d:%d", g.OurScore, g.EnemyScore)).
			Add("message_budget", g.MessageBudget)
	}
	c := st.Counters
	b.Add("returns_sent", st.ReturnsSent).Add("return_errors", st.ReturnErrors)
	if st.LastReturnTo.IsValid() {
		b.Add("last_return_to", st.LastReturnTo)
	}
	b.Add("gcinfo_published", st.GCInfoPublished).Add("data_published", st.DataPublished).
		Add("publish_errors", st.PublishErrors).
		Add("received", c.Received).Add("accepted", c.Accepted).
		Add("dropped_filtered", c.Filtered).Add("dropped_header", c.Header).
		Add("dropped_length", c.Length).Add("dropped_version", c.Version).
		Add("dropped_range", c.Range).Add("dropped_monitor", c.Monitor).
		Add("dropped_not_our_team", c.NotOurTeam).Add("dropped_player_out_of_range", c.PlayerOutOfRange).
		Add("dropped_other_game_controller", c.OtherGameController)
	c.Unconfirmed.Each(func(cause string, n uint64) { b.Add("dropped_unconfirmed_"+cause, n) })
	if st.ReturnErrors > 0 && st.ReturnErrors*10 > st.ReturnsSent+st.ReturnErrors {
		b.Level(diagnostics.Warn, fmt.Sprintf("%d return packets failed", st.ReturnErrors))
	}
	return b.Done()
}

// teamStatus reports team communication: teammates online, budget, send rate and the
// receive drops by cause.
func teamStatus(st team.Status) dm.DiagnosticStatus {
	b := diagnostics.NewStatus(DiagTeam)
	mates := make([]string, len(st.Teammates))
	for i, m := range st.Teammates {
		mates[i] = fmt.Sprint(m.Player)
	}
	b.Level(diagnostics.OK, fmt.Sprintf("%s online, %s", english.Count(len(st.Teammates), "teammate"), st.LastDecision))
	b.Add("teammates_online", len(st.Teammates)).Add("teammates", strings.Join(mates, " ")).
		Add("format", st.Format).Add("port", st.Port)
	if st.BudgetKnown {
		b.Add("budget_left", st.BudgetLeft)
	} else {
		b.Add("budget_left", "unknown")
	}
	b.Add("budget_reserve", st.BudgetReserve).Add("budget_exhausted", st.BudgetExhausted())
	for _, m := range st.Teammates {
		b.Add(fmt.Sprintf("clock_offset_%d", m.Player), clockText(m.Clock))
		if m.Clock.Known {
			b.Add(fmt.Sprintf("delay_%d", m.Player), fmt.Sprintf("%.1f ms", msOf(m.Clock.Delay)))
		}
	}
	for _, l := range st.Links {
		b.Add(fmt.Sprintf("link_%d", l.Player), teamlinks.Text(l))
	}
	b.Add("interval", st.Interval).Add("interval_reason", st.IntervalReason()).
		Add("last_decision", st.LastDecision)
	if !st.LastSend.IsZero() {
		b.Add("last_send_age", st.Time.Sub(st.LastSend))
	}
	s, r := st.Send, st.Receive
	b.Add("ticks", s.Ticks).Add("sent", s.Sent).Add("silent_start", s.SilentStart).
		Add("silent_penalised", s.SilentPenalised).Add("silent_stopped", s.SilentStopped).
		Add("silent_budget", s.SilentBudget).Add("encode_errors", s.EncodeErrors).
		Add("too_large", s.TooLarge).Add("send_errors", s.SendErrors).
		Add("monitor_sent", s.MonitorSent).
		Add("received", r.Received).Add("accepted", r.Accepted).
		Add("dropped_wrong_size", r.WrongSize).Add("dropped_wrong_format", r.WrongFormat).
		Add("dropped_foreign_team", r.ForeignTeam).Add("dropped_auth", r.Auth).
		Add("dropped_malformed", r.Malformed).Add("dropped_checksum", r.Checksum).
		Add("dropped_range", r.Range).Add("dropped_unchecked", r.Unchecked).Add("dropped_own", r.Own).
		Add("dropped_conflict", r.Conflict).Add("dropped_stale", r.Stale).
		Add("dropped_duplicate", r.Duplicate).Add("dropped_replay", r.Replay).
		Add("dropped_unconfirmed", r.Unconfirmed).Add("dropped_late", r.Late).
		Add("publish_errors", r.PublishErrors)
	switch st.LastDecision {
	case team.DecisionSilentBudget:
		b.Level(diagnostics.Warn, "silent: "+st.Budget.Reason())
	case team.DecisionSendError, team.DecisionEncodeError, team.DecisionTooLarge:
		b.Level(diagnostics.Warn, "last packet not sent: "+st.LastDecision.String())
	}
	if r.Conflict > 0 {
		b.Level(diagnostics.Warn, fmt.Sprintf("%s from another robot with our player number %d", english.Count(r.Conflict, "packet"), st.Player))
	}
	if w := teamlinks.Warnings(st.Links); len(w) > 0 {
		b.Level(diagnostics.Warn, "bad link: "+strings.Join(w, "; "))
	}
	if r.WrongFormat > 0 {
		b.Level(diagnostics.Warn, english.Count(r.WrongFormat, "packet")+" in another format: a teammate is configured differently")
	}
	if r.Unchecked > 0 {
		b.Level(diagnostics.Warn, fmt.Sprintf("%d packets without checksum or tag: a teammate runs an older dnetwork", r.Unchecked))
	}
	return b.Done()
}

// clockText shows a teammate's clock offset (its clock minus ours) with its bound, in
// milliseconds: "+2501.3 ms ± 2.8 ms", or "unknown" while no echo of ours has come back.
func clockText(c team.MateClock) string {
	if !c.Known {
		return "unknown"
	}
	return fmt.Sprintf("%+.1f ms ± %.1f ms", msOf(c.Offset), msOf(c.Bound))
}

func msOf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func (n *Node) worldInfoStatus(now time.Time) dm.DiagnosticStatus {
	st := n.wi.Status()
	b := diagnostics.NewStatus(DiagWorldInfo).Level(diagnostics.OK, english.Count(len(st.Senders), "sender"))
	var senders []string
	for _, s := range st.Senders {
		senders = append(senders, s.Addr.String())
	}
	b.Add("group", st.Group).Add("senders", strings.Join(senders, " ")).
		Add("cycles", st.Cycles).Add("empty_cycles", st.EmptyCycles).
		Add("invalid_inputs", st.InvalidInputs).
		Add("received", st.Received).Add("published", st.Published).
		Add("publish_errors", st.PublishErrors).Add("dropped", st.Recv.Dropped())
	return b.Done()
}

func (n *Node) swarmStatus(now time.Time) dm.DiagnosticStatus {
	st := n.swarm.Status()
	c := st.Counters
	b := diagnostics.NewStatus(DiagSwarm).Level(diagnostics.OK, english.Count(len(st.Neighbors), "neighbour"))
	b.Add("name", st.Name).Add("mode", st.Mode).Add("neighbors", strings.Join(st.Neighbors, " ")).
		Add("send_requests", c.SendRequests).Add("send_accepted", c.SendAccepted).
		Add("send_rejected", c.SendRejected()).Add("send_errors", c.SendErrors).
		Add("received", c.Received).Add("published", c.Published).
		Add("publish_errors", c.PublishErrors).
		Add("dropped_own_echo", st.Swarm.OwnEcho).Add("dropped_not_for_us", st.Swarm.NotForUs).
		Add("dropped_unknown_source", st.Swarm.UnknownSource).Add("dropped_out_of_range", st.Swarm.OutOfRange).
		Add("dropped_unbound", st.Swarm.Unbound)
	if c.SendErrors > 0 {
		b.Level(diagnostics.Warn, english.Count(c.SendErrors, "message")+" not sent")
	}
	return b.Done()
}

func (n *Node) sim3dStatus(now time.Time) dm.DiagnosticStatus {
	st := n.sim3d.Status()
	b := diagnostics.NewStatus(DiagSim3d).Level(diagnostics.OK, fmt.Sprintf("time base %s", st.Source))
	heard := 0
	for _, m := range st.Mates {
		if !m.LastHeard.IsZero() && now.Sub(m.LastHeard) < 3*time.Second {
			heard++
		}
	}
	b.Add("teammates_heard", heard).Add("said", st.Said).Add("not_due", st.NotDue).
		Add("encode_errors", st.EncodeErrors).Add("say_publish_errors", st.SayPublishErrors).
		Add("slots_missed", st.SlotsMissed).Add("resyncs", st.Resyncs).
		Add("heard", st.Heard).Add("accepted", st.Accepted).
		Add("dropped_self", st.Dropped.Self).Add("dropped_other_team", st.Dropped.OtherTeam).
		Add("dropped_foreign", st.Dropped.Foreign).Add("dropped_malformed", st.Dropped.Malformed).
		Add("dropped_own_number", st.Dropped.OwnNumber).Add("dropped_duplicate", st.Dropped.Duplicate).
		Add("dropped_publish", st.Dropped.Publish)
	if st.SlotsMissed > 0 {
		b.Level(diagnostics.Warn, fmt.Sprintf("%d talking slots missed", st.SlotsMissed))
	}
	return b.Done()
}
