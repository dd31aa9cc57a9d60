package team

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/netip"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"github.com/robocup-dnetwork/dnetwork/node/units"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
)

// Inputs of the rate tiers.
var (
	ballHandling = dmsgs.BehaviorInfo{TeamPlayState: dmsgs.BehaviorInfoStateBallHandling}
	ballNear     = dmsgs.VisionInfo{SeeBall: true, BallField: v3(59, 0, 0)}
	ballMid      = dmsgs.VisionInfo{SeeBall: true, BallField: v3(60, 80, 0)} // exactly 1 m: not near
	ballFar      = dmsgs.VisionInfo{SeeBall: true, BallField: v3(300, 0, 0)} // exactly 3 m: far
)

// TestSendScheduleTiers runs 90 ticks (3 s at 30 Hz) in every rate tier and counts the
// packets: the first tick sends, then one every round(interval / tick) ticks.
func TestSendScheduleTiers(t *testing.T) {
	cases := []struct {
		name     string
		behavior *dmsgs.BehaviorInfo
		vision   *dmsgs.VisionInfo
		alone    time.Duration
		tier     Tier
		every    int // ticks between packets
		want     int // packets in 90 ticks
	}{
		{"ball handling 67 ms", &ballHandling, nil, 0, TierBallHandling, 2, 45},
		{"ball near 100 ms", nil, &ballNear, 0, TierBallNear, 3, 30},
		{"ball mid 200 ms", nil, &ballMid, 0, TierBallMid, 6, 15},
		{"ball far 400 ms", nil, &ballFar, 0, TierBallFar, 12, 8},
		{"blind 1 s", nil, nil, 0, TierBlind, 30, 3},
		{"alone 1.5 s overrides ball handling", &ballHandling, nil, 1500 * time.Millisecond, TierAlone, 45, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig()
			cfg.Rate.Alone = tc.alone
			h := newHarness(t, cfg, harnessStart, nil)
			if tc.behavior != nil {
				h.c.SetBehavior(tc.behavior)
			}
			if tc.vision != nil {
				h.c.SetVision(tc.vision)
			}
			var sentAt []int
			for i := 1; i <= 90; i++ {
				h.ticks(1)
				if h.c.Status().LastDecision == DecisionSent {
					sentAt = append(sentAt, i)
				}
			}
			if len(sentAt) != tc.want {
				t.Fatalf("%d packets in 90 ticks (at ticks %v), want %d", len(sentAt), sentAt, tc.want)
			}
			for i := 1; i < len(sentAt); i++ {
				if d := sentAt[i] - sentAt[i-1]; d != tc.every {
					t.Fatalf("packets at ticks %v, want one every %d ticks", sentAt, tc.every)
				}
			}
			st := h.checkInvariants()
			if st.Send.Sent != uint64(tc.want) || st.Send.NotDue != uint64(90-tc.want) || st.Send.Ticks != 90 {
				t.Errorf("counters %+v", st.Send)
			}
			if st.Tier != tc.tier || st.Interval != time.Duration(tc.every)*cfg.Tick {
				t.Errorf("status: tier %v interval %v, want %v %v", st.Tier, st.Interval, tc.tier, time.Duration(tc.every)*cfg.Tick)
			}
			// Sequence numbers count up by one per packet.
			for i, b := range h.broadcasts() {
				var p teaminfo.DNetPacket
				if err := p.UnmarshalBinary(b); err != nil {
					t.Fatal(err)
				}
				if p.Seq != uint32(i+1) {
					t.Fatalf("packet %d has seq %d", i, p.Seq)
				}
			}
		})
	}
}

func playing(budget int) func(s *GameSnapshot) {
	return func(s *GameSnapshot) {
		*s = GameSnapshot{Connected: true, State: StatePlaying, FirstHalf: false, SecsRemaining: 300, MessageBudget: budget}
	}
}

// TestBudgetAllowance: the allowance slows the rate below the rate table's, shrinks as
// teammates come online and messages are heard, and the GameController's figure replaces
// the estimate when it changes.
func TestBudgetAllowance(t *testing.T) {
	cfg := testConfig()
	cfg.Reserve = 100
	h := newHarness(t, cfg, harnessStart, nil)
	h.c.SetBehavior(&ballHandling) // 2 ticks without a budget
	// 400 left, 100 reserved, 300 s to go, alone: 1 msg/s -> every 30 ticks.
	h.game.set(playing(400))
	h.ticks(90)
	st := h.checkInvariants()
	if st.Send.Sent != 3 || st.Send.NotDue != 87 {
		t.Fatalf("sent %d, not due %d; want 3 and 87", st.Send.Sent, st.Send.NotDue)
	}
	if !st.BudgetKnown || st.BudgetLeft != 397 {
		t.Fatalf("budget left %d (known %v), want 400 - 3 sent", st.BudgetLeft, st.BudgetKnown)
	}
	// Now 397 left: 0.99 msg/s -> 1.0101 s, rounded up to 31 ticks (the allowance is a
	// ceiling: 30 ticks would be 1 msg/s).
	if st.Budget.Cause != BudgetAllowance || st.Interval != 31*cfg.Tick || st.Tier != TierBallHandling {
		t.Fatalf("status %v %v %v, reason %q", st.Budget.Cause, st.Interval, st.Tier, st.IntervalReason())
	}

	// A teammate talks: 5 heard messages count, and the allowance is shared by two robots:
	// (392 - 100) / 300 / 2 = 0.487 msg/s -> 2.05 s -> 62 ticks.
	stamp := stampAt(h.clk.Now())
	h.introduce(17, 3, 1, stamp, nil) // held until the next confirms it: not counted
	for i := range 5 {
		h.deliver(dnetFrom(t, 17, 3, uint32(i+1), stamp+time.Duration(i)*time.Millisecond, nil))
	}
	h.ticks(1)
	st = h.checkInvariants()
	if st.BudgetLeft != 392-int(st.Send.Sent-3) {
		t.Fatalf("budget left %d after 5 heard and %d sent", st.BudgetLeft, st.Send.Sent-3)
	}
	if st.Interval != 62*cfg.Tick {
		t.Fatalf("interval with a teammate %v (%s), want 62 ticks", st.Interval, st.IntervalReason())
	}

	// The GameController says 1000: taken as truth, then counted down again.
	h.game.set(playing(1000))
	before := h.c.Status().Send.Sent
	h.ticks(1)
	st = h.c.Status()
	if want := 1000 - int(st.Send.Sent-before); st.BudgetLeft != want {
		t.Fatalf("budget left %d after the GameController said 1000, want %d", st.BudgetLeft, want)
	}
	// The same figure again does not reset the estimate.
	h.deliver(dnetFrom(t, 17, 3, 10, stamp+time.Second, nil))
	h.ticks(1)
	if got := h.c.Status().BudgetLeft; got >= st.BudgetLeft {
		t.Fatalf("budget left %d after a heard message, was %d", got, st.BudgetLeft)
	}
	// Unknown budget: no bound, the rate table rules.
	h.game.set(playing(-1))
	h.ticks(1)
	if st := h.c.Status(); st.BudgetKnown || st.Interval != 2*cfg.Tick || st.Budget.Cause != BudgetUnknown {
		t.Fatalf("unknown budget: known %v interval %v cause %v", st.BudgetKnown, st.Interval, st.Budget.Cause)
	}
	h.checkInvariants()
}

// TestBudgetCountsSends: in a counted state every packet sent costs one message.
func TestBudgetCountsSends(t *testing.T) {
	cfg := testConfig()
	cfg.Reserve = 100
	h := newHarness(t, cfg, harnessStart, nil)
	h.c.SetBehavior(&ballHandling)
	// 11 900 usable over 1 200 s (first half): 9.9 msg/s -> 101 ms -> rounded up to 4
	// ticks (7.5 msg/s: the allowance is a ceiling).
	h.game.set(func(s *GameSnapshot) {
		*s = GameSnapshot{Connected: true, State: StatePlaying, FirstHalf: true, SecsRemaining: 600, MessageBudget: 12000}
	})
	h.ticks(90)
	st := h.checkInvariants()
	if st.Send.Sent != 23 || st.BudgetLeft != 12000-23 {
		t.Fatalf("sent %d, budget left %d; want 23 and 11977", st.Send.Sent, st.BudgetLeft)
	}
}

// TestBudgetReserveSilence: at the reserve the robot is silent until the budget grows.
func TestBudgetReserveSilence(t *testing.T) {
	cfg := testConfig()
	cfg.Reserve = 100
	h := newHarness(t, cfg, harnessStart, nil)
	h.c.SetBehavior(&ballHandling)
	h.game.set(playing(100))
	h.ticks(60)
	st := h.checkInvariants()
	if len(h.broadcasts()) != 0 || st.Send.SilentBudget != 60 {
		t.Fatalf("at the reserve: %d packets, %d silent ticks", len(h.broadcasts()), st.Send.SilentBudget)
	}
	if st.Budget.Cause != BudgetReserve || st.LastDecision != DecisionSilentBudget || !st.LastSend.IsZero() {
		t.Fatalf("status %+v", st)
	}
	h.game.set(playing(200))
	h.ticks(1)
	if len(h.broadcasts()) != 1 {
		t.Fatal("no packet once the budget is above the reserve")
	}
}

// TestPenalisedSilence: a penalised robot sends nothing (monitor copies excepted) and
// talks again on the first tick after its penalty.
func TestPenalisedSilence(t *testing.T) {
	cfg := testConfig()
	cfg.Monitor = netip.MustParseAddrPort("10.0.0.100:10099")
	h := newHarness(t, cfg, harnessStart, nil)
	h.c.SetBehavior(&ballHandling)
	h.game.set(func(s *GameSnapshot) { *s = GameSnapshot{State: StatePlaying, Penalised: true, MessageBudget: 12000} })
	h.ticks(90)
	st := h.checkInvariants()
	if len(h.broadcasts()) != 0 || st.Send.SilentPenalised != 90 {
		t.Fatalf("penalised: %d packets, %d silent ticks", len(h.broadcasts()), st.Send.SilentPenalised)
	}
	if st.Send.MonitorSent != 3 || st.BudgetLeft != 12000 {
		t.Fatalf("penalised: %d monitor copies (want 3), budget %d (want 12000)", st.Send.MonitorSent, st.BudgetLeft)
	}
	var p teaminfo.DNetPacket
	if err := p.UnmarshalBinary(h.conn.Sent()[0].Payload); err != nil || p.Flags&teaminfo.FlagPenalised == 0 {
		t.Fatalf("monitor copy: err %v, penalised flag %v", err, p.Flags&teaminfo.FlagPenalised != 0)
	}
	h.game.set(func(s *GameSnapshot) { s.Penalised = false })
	h.ticks(1)
	if len(h.broadcasts()) != 1 {
		t.Fatal("no packet on the first tick after the penalty")
	}
}

// TestUncountedStates: in states that do not count the robot talks at the full rate
// without spending budget, unless configured to be silent there; at the reserve it is
// silent there too (a counted state may have begun), the penalty shoot-out excepted.
func TestUncountedStates(t *testing.T) {
	cases := []struct {
		name   string
		league League
		snap   GameSnapshot
	}{
		{"initial", LeagueHSL, GameSnapshot{State: StateInitial, MessageBudget: 1000}},
		{"finished", LeagueHSL, GameSnapshot{State: StateFinished, MessageBudget: 1000}},
		{"hsl standby", LeagueHSL, GameSnapshot{State: StateStandby, MessageBudget: 1000}},
		{"penalty shoot-out", LeagueHSL, GameSnapshot{State: StatePlaying, GamePhase: PhasePenaltyShoot, MessageBudget: 1000}},
		{"timeout", LeagueSPL, GameSnapshot{State: StateReady, GamePhase: PhaseTimeout, MessageBudget: 1000}},
		{"hl playing", LeagueHL, GameSnapshot{State: StatePlaying, MessageBudget: 1000}},
	}
	for _, tc := range cases {
		for _, silent := range []bool{false, true} {
			cfg := testConfig()
			cfg.League = tc.league
			cfg.SilentUncounted = silent
			h := newHarness(t, cfg, harnessStart, nil)
			h.c.SetBehavior(&ballHandling)
			h.game.set(func(s *GameSnapshot) { *s = tc.snap })
			h.deliver(dnetFrom(t, 17, 3, 1, stampAt(harnessStart), nil))
			h.ticks(90)
			st := h.checkInvariants()
			want := uint64(45)
			if silent {
				want = 0
			}
			if st.Send.Sent != want || st.BudgetLeft != 1000 || !st.BudgetKnown {
				t.Errorf("%s, silent %v: sent %d (want %d), budget %d known %v (want 1000, not spent)",
					tc.name, silent, st.Send.Sent, want, st.BudgetLeft, st.BudgetKnown)
			}
		}
	}
	for _, tc := range []struct {
		name string
		snap GameSnapshot
		want uint64
	}{
		{"initial at 0", GameSnapshot{State: StateInitial, MessageBudget: 0}, 0},
		{"penalty shoot-out at 0", GameSnapshot{State: StatePlaying, GamePhase: PhasePenaltyShoot, MessageBudget: 0}, 45},
	} {
		h := newHarness(t, testConfig(), harnessStart, nil)
		h.c.SetBehavior(&ballHandling)
		h.game.set(func(s *GameSnapshot) { *s = tc.snap })
		h.deliver(dnetFrom(t, 17, 3, 1, stampAt(harnessStart), nil))
		h.ticks(90)
		if st := h.checkInvariants(); st.Send.Sent != tc.want {
			t.Errorf("%s: sent %d, want %d", tc.name, st.Send.Sent, tc.want)
		}
	}
	// The SPL counts STANDBY: with no budget left the robot is silent.
	cfg := testConfig()
	cfg.League = LeagueSPL
	h := newHarness(t, cfg, harnessStart, nil)
	h.game.set(func(s *GameSnapshot) { *s = GameSnapshot{State: StateStandby, MessageBudget: 0} })
	h.ticks(30)
	if st := h.checkInvariants(); st.Send.SilentBudget != 30 {
		t.Errorf("spl standby without budget: %+v", st.Send)
	}
}

// TestStoppedSilence: silent while play is stopped only when configured.
func TestStoppedSilence(t *testing.T) {
	for _, silent := range []bool{false, true} {
		cfg := testConfig()
		cfg.SilentWhenStopped = silent
		h := newHarness(t, cfg, harnessStart, nil)
		h.game.set(func(s *GameSnapshot) { *s = GameSnapshot{State: StatePlaying, Stopped: true, MessageBudget: -1} })
		h.ticks(30)
		st := h.checkInvariants()
		if silent && (st.Send.SilentStopped != 30 || st.Send.Sent != 0) || !silent && st.Send.Sent != 1 {
			t.Errorf("silent when stopped %v: %+v", silent, st.Send)
		}
		if !silent {
			var p teaminfo.DNetPacket
			if err := p.UnmarshalBinary(h.broadcasts()[0]); err != nil || p.Flags&teaminfo.FlagGCStopped == 0 {
				t.Errorf("gc_stopped flag not sent (err %v)", err)
			}
		}
	}
}

// TestSizeCap: a packet above the league's cap is not sent, and counted.
func TestSizeCap(t *testing.T) {
	h := newHarness(t, testConfig(), harnessStart, func(c *Component) { c.sizeCap = teaminfo.DNetSize - 1 })
	h.ticks(90)
	st := h.checkInvariants()
	if len(h.conn.Sent()) != 0 || st.Send.TooLarge != 3 || st.Send.NotDue != 87 || st.LastDecision != DecisionNotDue {
		t.Fatalf("%d datagrams, counters %+v", len(h.conn.Sent()), st.Send)
	}
}

// TestSendErrors: failed sends are counted, retried at the send rate and cost nothing.
func TestSendErrors(t *testing.T) {
	h := newHarness(t, testConfig(), harnessStart, nil)
	h.game.set(playing(1000))
	h.conn.SendErr = errors.New("network is down")
	h.ticks(90)
	st := h.checkInvariants()
	if st.Send.SendErrors != 3 || st.Send.DatagramErrors != 3 || st.Send.Sent != 0 || st.BudgetLeft != 1000 {
		t.Fatalf("counters %+v, budget %d", st.Send, st.BudgetLeft)
	}
}

// TestPeersMode: with Peers every packet goes to each peer by unicast, not by broadcast,
// and counts once against the budget.
func TestPeersMode(t *testing.T) {
	cfg := testConfig()
	peers := []netip.AddrPort{netip.MustParseAddrPort("127.0.0.1:20001"), netip.MustParseAddrPort("127.0.0.1:20003")}
	cfg.Peers = peers
	h := newHarness(t, cfg, harnessStart, nil)
	h.game.set(playing(1000))
	h.ticks(60) // blind: 2 packets
	sent := h.conn.Sent()
	if len(sent) != 4 {
		t.Fatalf("%d datagrams, want 2 packets x 2 peers", len(sent))
	}
	for i, s := range sent {
		if s.Broadcast || s.Dst != peers[i%2] {
			t.Errorf("datagram %d went to %v (broadcast %v)", i, s.Dst, s.Broadcast)
		}
	}
	st := h.checkInvariants()
	if st.Send.Sent != 2 || st.Send.Datagrams != 4 || st.BudgetLeft != 998 {
		t.Fatalf("counters %+v, budget %d", st.Send, st.BudgetLeft)
	}
}

// TestMonitorCopy: a unicast copy every second, the packet of that tick when one was
// sent, a fresh one otherwise.
func TestMonitorCopy(t *testing.T) {
	cfg := testConfig()
	mon := netip.MustParseAddrPort("10.0.0.100:10099")
	cfg.Monitor = mon
	h := newHarness(t, cfg, harnessStart, nil)
	h.c.SetVision(&ballFar) // every 12 ticks: 1, 13, 25, ...; monitor at 1, 31, 61
	h.ticks(90)
	var copies []bus.Sent
	var seqs []uint32
	for _, s := range h.conn.Sent() {
		if !s.Broadcast {
			copies = append(copies, s)
		}
		var p teaminfo.DNetPacket
		if err := p.UnmarshalBinary(s.Payload); err != nil {
			t.Fatal(err)
		}
		seqs = append(seqs, p.Seq)
	}
	if len(copies) != 3 {
		t.Fatalf("%d monitor copies in 3 s, want 3", len(copies))
	}
	for _, c := range copies {
		if c.Dst != mon {
			t.Errorf("monitor copy to %v", c.Dst)
		}
	}
	// Ticks 1 and 61 send a packet, and the copy is that packet; tick 31 sends none, and
	// the copy is a fresh packet with the sequence number of the last team packet, so
	// that the teammates see no gap.
	want := []uint32{1, 1, 2, 3, 3, 4, 5, 6, 6, 7, 8}
	if !slices.Equal(seqs, want) {
		t.Fatalf("sequence numbers %v, want %v", seqs, want)
	}
	sent := h.conn.Sent()
	if !bytes.Equal(sent[0].Payload, sent[1].Payload) || !bytes.Equal(sent[7].Payload, sent[8].Payload) {
		t.Error("the copy on a send tick differs from the packet sent")
	}
	if sent[4].Broadcast || sent[4].Dst != mon {
		t.Errorf("datagram 4 should be the fresh copy of tick 31: %+v", sent[4])
	}
	st := h.checkInvariants()
	if st.Send.MonitorSent != 3 || st.Send.Sent != 8 {
		t.Fatalf("counters %+v", st.Send)
	}
}

// TestReceiveDrops delivers one datagram per drop cause to a dnet component.
func TestReceiveDrops(t *testing.T) {
	h := newHarness(t, testConfig(), harnessStart, nil)
	h.ticks(1) // sends our first packet
	own := h.broadcasts()[0]
	now := stampAt(h.clk.Now())

	reserved := dnetFrom(t, 17, 3, 1, now, nil)
	reserved[4] |= 0x80 // reserved header bit
	v3 := dnetFrom(t, 17, 3, 1, now, nil)
	v3[3] = 3
	short := dnetFrom(t, 17, 3, 1, now, nil)[:60]

	steps := []struct {
		name    string
		payload []byte
		field   func(r ReceiveCounters) uint64
	}{
		{"junk", []byte("hello"), func(r ReceiveCounters) uint64 { return r.WrongSize }},
		{"truncated dnet", short, func(r ReceiveCounters) uint64 { return r.WrongSize }},
		{"zju to a dnet robot", zjuFrom(t, 17, 3), func(r ReceiveCounters) uint64 { return r.WrongFormat }},
		{"dnet version 3", v3, func(r ReceiveCounters) uint64 { return r.WrongFormat }},
		{"reserved bit", reserved, func(r ReceiveCounters) uint64 { return r.Malformed }},
		{"player 0", dnetFrom(t, 17, 0, 1, now, nil), func(r ReceiveCounters) uint64 { return r.Malformed }},
		{"foreign team", dnetFrom(t, 18, 3, 1, now, nil), func(r ReceiveCounters) uint64 { return r.ForeignTeam }},
		{"own echo", own, func(r ReceiveCounters) uint64 { return r.Own }},
		{"our number, not ours", dnetFrom(t, 17, 2, 77, now+time.Hour, nil), func(r ReceiveCounters) uint64 { return r.Conflict }},
		{"a new sender's first packet", dnetFrom(t, 17, 3, 99, now-time.Millisecond, nil), func(r ReceiveCounters) uint64 { return r.Unconfirmed }},
		{"accepted: its second confirms it", dnetFrom(t, 17, 3, 100, now, nil), func(r ReceiveCounters) uint64 { return r.Accepted }},
		{"duplicate", dnetFrom(t, 17, 3, 100, now, nil), func(r ReceiveCounters) uint64 { return r.Duplicate }},
		{"newer", dnetFrom(t, 17, 3, 150, now+time.Millisecond, nil), func(r ReceiveCounters) uint64 { return r.Accepted }},
		{"late inside the window", dnetFrom(t, 17, 3, 149, now, nil), func(r ReceiveCounters) uint64 { return r.Late }},
		{"late again", dnetFrom(t, 17, 3, 149, now, nil), func(r ReceiveCounters) uint64 { return r.Duplicate }},
		{"below the window", dnetFrom(t, 17, 3, 80, now, nil), func(r ReceiveCounters) uint64 { return r.Unconfirmed }},
		{"a jump further than plausible", dnetFrom(t, 17, 3, 150+1000, now+2*time.Millisecond, nil), func(r ReceiveCounters) uint64 { return r.Unconfirmed }},
		{"old number, later stamp: a restart", dnetFrom(t, 17, 3, 5, now+time.Second, nil), func(r ReceiveCounters) uint64 { return r.Unconfirmed }},
		{"the restart confirmed", dnetFrom(t, 17, 3, 6, now+time.Second+time.Millisecond, nil), func(r ReceiveCounters) uint64 { return r.Accepted }},
		{"newer number, earlier stamp", dnetFrom(t, 17, 3, 300, now-time.Second, nil), func(r ReceiveCounters) uint64 { return r.Unconfirmed }},
	}
	for _, s := range steps {
		before := s.field(h.c.Status().Receive)
		h.deliver(s.payload)
		if got := s.field(h.c.Status().Receive); got != before+1 {
			t.Errorf("%s: counter went from %d to %d, want +1 (%+v)", s.name, before, got, h.c.Status().Receive)
		}
	}
	st := h.checkInvariants()
	if st.Receive.Received != uint64(len(steps)) || st.Receive.Accepted != 3 {
		t.Fatalf("received %d accepted %d", st.Receive.Received, st.Receive.Accepted)
	}
	if len(st.Teammates) != 1 || st.Teammates[0].Player != 3 {
		t.Fatalf("teammates %v, want only player 3", st.Teammates)
	}
}

// TestReceiveDropsZJU covers the drop causes of a zju component.
func TestReceiveDropsZJU(t *testing.T) {
	cfg := testConfig()
	cfg.Format = FormatZJU
	h := newHarness(t, cfg, harnessStart, nil)
	h.ticks(1)
	own := h.broadcasts()[0]
	badBool := zjuFrom(t, 17, 3)
	badBool[109] = 2 // see_ball
	for _, s := range []struct {
		payload []byte
		field   func(r ReceiveCounters) uint64
	}{
		{zjuFrom(t, 17, 3)[:295], func(r ReceiveCounters) uint64 { return r.WrongSize }},
		{append(zjuFrom(t, 17, 3), 0), func(r ReceiveCounters) uint64 { return r.WrongSize }},
		{dnetFrom(t, 17, 3, 1, 0, nil), func(r ReceiveCounters) uint64 { return r.WrongFormat }},
		{badBool, func(r ReceiveCounters) uint64 { return r.Malformed }},
		{zjuFrom(t, 18, 3), func(r ReceiveCounters) uint64 { return r.ForeignTeam }},
		{own, func(r ReceiveCounters) uint64 { return r.Own }},
		{zjuFrom(t, 17, 2), func(r ReceiveCounters) uint64 { return r.Conflict }},
		{zjuFrom(t, 17, 3), func(r ReceiveCounters) uint64 { return r.Accepted }},
		// zju carries no sequence number: a repeated packet is accepted again.
		{zjuFrom(t, 17, 3), func(r ReceiveCounters) uint64 { return r.Accepted }},
	} {
		before := s.field(h.c.Status().Receive)
		h.deliver(s.payload)
		if got := s.field(h.c.Status().Receive); got != before+1 {
			t.Errorf("%d bytes: counter %d -> %d (%+v)", len(s.payload), before, got, h.c.Status().Receive)
		}
	}
	h.checkInvariants()
}

// TestAuthentication: with a key, only correctly signed packets pass; without one,
// signed packets pass unverified.
func TestAuthentication(t *testing.T) {
	cfg := testConfig()
	cfg.AuthKey = []byte("team17-shared-secret")
	h := newHarness(t, cfg, harnessStart, nil)
	other, _ := teaminfo.NewKey([]byte("team17-wrong-secret"))
	now := stampAt(harnessStart)

	good := dnetFrom(t, 17, 3, 1, now, h.c.key)
	tampered := bytes.Clone(good)
	tampered[30] ^= 1
	for _, b := range [][]byte{dnetFrom(t, 17, 3, 1, now, nil), dnetFrom(t, 17, 3, 1, now, other), tampered} {
		h.deliver(b)
	}
	if st := h.c.Status(); st.Receive.Auth != 3 || st.Receive.Accepted != 0 {
		t.Fatalf("forged packets: %+v", st.Receive)
	}
	h.introduce(17, 3, 1, now, h.c.key)
	h.deliver(good)
	h.deliver(good) // a replay of a genuine packet
	st := h.checkInvariants()
	if st.Receive.Accepted != 1 || st.Receive.Duplicate != 1 || st.Receive.Unconfirmed != 1 {
		t.Fatalf("genuine packet: %+v", st.Receive)
	}
	if m, _ := h.rec.Last(); !m.Authenticated || m.PlayerNumber != 3 {
		t.Fatalf("published %+v", m)
	}
	// Our own packets are signed.
	h.ticks(1)
	var s teaminfo.State
	if a, err := teaminfo.DecodeDNet(h.broadcasts()[0], &s, h.c.key); err != nil || a != teaminfo.AuthVerified {
		t.Fatalf("our packet: auth %v err %v", a, err)
	}

	// Without a key a signed packet is accepted but not marked authenticated.
	h2 := newHarness(t, testConfig(), harnessStart, nil)
	h2.introduce(17, 3, 1, now, h.c.key)
	h2.deliver(good)
	if m, ok := h2.rec.Last(); !ok || m.Authenticated {
		t.Fatalf("without key: published %v, authenticated %v", ok, m.Authenticated)
	}
}

// TestMaxAge drops packets whose sender time is too far from ours.
func TestMaxAge(t *testing.T) {
	cfg := testConfig()
	cfg.MaxAge = 2 * time.Second
	h := newHarness(t, cfg, harnessStart, nil)
	now := stampAt(harnessStart)
	h.deliver(dnetFrom(t, 17, 3, 1, now-3*time.Second, nil))
	h.deliver(dnetFrom(t, 17, 3, 2, now+3*time.Second, nil))
	h.deliver(dnetFrom(t, 17, 3, 3, now-time.Second, nil))
	h.deliver(dnetFrom(t, 17, 3, 4, now-time.Second, nil))
	if st := h.checkInvariants(); st.Receive.Stale != 2 || st.Receive.Unconfirmed != 1 || st.Receive.Accepted != 1 {
		t.Fatalf("%+v", st.Receive)
	}
}

// TestTeammateTimeout: a teammate is online for TeammateTimeout after its last packet,
// in Status and in our packet's mates_online.
func TestTeammateTimeout(t *testing.T) {
	h := newHarness(t, testConfig(), harnessStart, nil)
	mates := func() uint8 {
		b := h.broadcasts()
		var p teaminfo.DNetPacket
		if err := p.UnmarshalBinary(b[len(b)-1]); err != nil {
			t.Fatal(err)
		}
		return p.Mates
	}
	h.introduce(17, 3, 1, stampAt(harnessStart), nil)
	h.deliver(dnetFrom(t, 17, 3, 1, stampAt(harnessStart), nil))
	h.introduce(17, 9, 1, stampAt(harnessStart), nil)
	h.deliver(dnetFrom(t, 17, 9, 1, stampAt(harnessStart), nil)) // beyond mates_online
	h.ticks(1)
	if got := mates(); got != 0b0110 {
		t.Fatalf("mates_online %06b, want players 2 (us) and 3", got)
	}
	st := h.c.Status()
	if len(st.Teammates) != 2 || st.Teammates[0].Player != 3 || st.Teammates[1].Player != 9 || st.Teammates[0].Age != h.c.cfg.Tick {
		t.Fatalf("teammates %+v", st.Teammates)
	}
	h.ticks(89) // 90 ticks = 2.99999997 s after the packets
	if n := len(h.c.Status().Teammates); n != 2 {
		t.Fatalf("%d teammates online before the timeout", n)
	}
	h.ticks(1) // 3.03 s: timed out
	if st := h.c.Status(); len(st.Teammates) != 0 {
		t.Fatalf("teammates %+v after the timeout", st.Teammates)
	}
	h.ticks(30)
	if got := mates(); got != 0b0010 {
		t.Fatalf("mates_online %06b after the timeout, want only us", got)
	}
}

// TestPublishedDNet checks the published message of a dnet packet: units, times,
// sequence and format.
func TestPublishedDNet(t *testing.T) {
	h := newHarness(t, testConfig(), harnessStart, nil)
	h.clk.Advance(250 * time.Millisecond)
	h.expect(eventTick)
	sent := harnessStart.Add(100 * time.Millisecond)
	s := teaminfo.State{
		Team: 17, Player: 4, Seq: 42, Stamp: stampAt(sent), Fallen: true, SeeBall: true,
		Role: teaminfo.RoleGoalie, RobotPos: teaminfo.Pose{X: 1.5, Y: -2, Theta: 0.5},
		BallField: teaminfo.Point{X: 0.6, Y: 0.8}, TimeSinceLastKick: 1.5, TimeToReachBall: 4,
		BallAge: 0.25, BallQuality: 1, FieldQuality: 0.5, FieldConsistency: 0,
		GamePhase: 2, SetPlay: 3, VoronoiLen: 2,
		Voronoi: [6]teaminfo.Point{{X: 1, Y: 2}, {X: -1, Y: -0.5}},
		Dest:    teaminfo.Pose{X: 1, Y: 1, Theta: 1}, FinalDest: teaminfo.Pose{X: 2, Y: 2, Theta: 2},
		AttackTarget: teaminfo.Point{X: 4.5}, TeamBallGlobal: teaminfo.Point{X: 0.1, Y: 0.2},
	}
	b, err := teaminfo.AppendDNet(nil, &s, nil)
	if err != nil {
		t.Fatal(err)
	}
	h.introduce(17, 4, 42, s.Stamp, nil)
	h.deliver(b)
	m, ok := h.rec.Last()
	if !ok {
		t.Fatal("nothing published")
	}
	near := func(name string, got, want float64) {
		t.Helper()
		if d := got - want; d > 0.051 || d < -0.051 {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	if m.Sequence != 42 || m.Format != dmsgs.TeamInfoFormatDnet || m.PlayerNumber != 4 || m.TeamNumber != 17 ||
		m.Role != dmsgs.TeamInfoRoleGoalie || !m.Fallen || !m.SeeBall || m.GamePhase != 2 || m.SetPlay != 3 {
		t.Errorf("header fields %+v", m)
	}
	if m.SenderTime.Sec != 1700000000 || m.SenderTime.Nanosec != 100_000_000 ||
		m.ReceiveTime.Sec != 1700000000 || m.ReceiveTime.Nanosec != 250_000_000 ||
		m.Age.Sec != 0 || m.Age.Nanosec != 150_000_000 {
		t.Errorf("times: sender %+v receive %+v age %+v", m.SenderTime, m.ReceiveTime, m.Age)
	}
	near("robot_pos.x (cm)", m.RobotPos.X, 150)
	near("robot_pos.y (cm)", m.RobotPos.Y, -200)
	near("robot_pos.z (deg)", m.RobotPos.Z, units.Degrees(0.5))
	near("dest.z (deg)", m.Dest.Z, units.Degrees(1))
	near("final_dest.x (cm)", m.FinalDest.X, 200)
	near("attack_target.x (cm)", m.AttackTarget.X, 450)
	near("ball_field.y (cm)", m.BallField.Y, 80)
	near("team_ball_global.y (cm)", m.TeamBallGlobal.Y, 20)
	near("time_since_last_kick", float64(m.TimeSinceLastKick), 1.5)
	near("time_to_reach_ball", float64(m.TimeToReachBall), 4)
	near("ball_age", float64(m.BallAge), 0.25)
	near("ball_quality", float64(m.BallQuality), 1)
	near("field_quality", float64(m.FieldQuality), 0.5)
	if len(m.VoronoiList) != 2 {
		t.Fatalf("voronoi %v", m.VoronoiList)
	}
	near("voronoi[1].x (cm)", m.VoronoiList[1].X, -100)
	near("voronoi[1].y (cm)", m.VoronoiList[1].Y, -50)
	h.checkInvariants()
}

// TestPublishedZJU: a zju packet is published with its values unchanged (cm, degrees),
// and the fields zju lacks as 0.
func TestPublishedZJU(t *testing.T) {
	cfg := testConfig()
	cfg.Format = FormatZJU
	cfg.Player = 5
	h := newHarness(t, cfg, harnessStart, nil)
	vector := readHex(t, "tv-team-296.hex")
	h.deliver(vector)
	m, ok := h.rec.Last()
	if !ok {
		t.Fatal("nothing published")
	}
	want := dmsgs.TeamInfo{
		SenderTime:  builtinTime(1700000000, 500000000),
		ReceiveTime: builtinTime(1700000000, 0),
		Age:         builtinDuration(-1, 500000000),
		Format:      dmsgs.TeamInfoFormatZju, PlayerNumber: 2, TeamNumber: 17, Role: 1,
		Dest: v3(100, 50, 90), TimeSinceLastKick: 2.5, State: 2, Priority: true, KickerID: 2,
		MatesOnline: [6]bool{true, true, false, true, false, false}, SeeBall: true,
		RobotPos: v3(-200, 100, 45), BallField: v3(60, 80, 0), BallGlobal: v3(-150, 150, 0),
		BallQuality: 0.75, GCConnected: true, GCState: 3,
	}
	if !equalMsg(m, want) {
		t.Fatalf("published\n %+v\nwant\n %+v", m, want)
	}
	h.checkInvariants()
}

// TestWarningsRateLimited: a flood of bad packets logs one warning per cause per 10 s.
func TestWarningsRateLimited(t *testing.T) {
	var warns atomic.Int64
	cfg := testConfig()
	cfg.Logger = slog.New(countHandler{&warns})
	h := newHarness(t, cfg, harnessStart, nil)
	for range 20 {
		h.deliver([]byte("junk"))
		h.deliver(dnetFrom(t, 17, 3, 1, 0, nil)[:50])
	}
	if got := warns.Load(); got != 1 {
		t.Fatalf("%d warnings for 40 wrong-size packets, want 1", got)
	}
	h.deliver(zjuFrom(t, 17, 3))
	if got := warns.Load(); got != 2 {
		t.Fatalf("%d warnings after another cause, want 2", got)
	}
	h.clk.Advance(10 * time.Second)
	h.expect(eventTick)
	h.deliver([]byte("junk"))
	if got := warns.Load(); got != 3 {
		t.Fatalf("%d warnings 10 s later, want 3", got)
	}
	if st := h.checkInvariants(); st.Receive.WrongSize != 41 {
		t.Fatalf("%+v", st.Receive)
	}
}

type countHandler struct{ n *atomic.Int64 }

func (h countHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }
func (h countHandler) Handle(context.Context, slog.Record) error {
	h.n.Add(1)
	return nil
}
func (h countHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h countHandler) WithGroup(string) slog.Handler      { return h }

// TestRunOnce: Run refuses a second call, and New refuses missing dependencies.
func TestRunOnce(t *testing.T) {
	h := newHarness(t, testConfig(), harnessStart, nil)
	if err := h.c.Run(context.Background()); !errors.Is(err, ErrRunTwice) {
		t.Fatalf("second Run: %v", err)
	}
	if _, err := New(testConfig(), Deps{Conn: h.conn}); !errors.Is(err, ErrConfig) {
		t.Fatalf("New without publisher: %v", err)
	}
}

// TestPublishErrors: an accepted packet the publisher refuses is still accepted, and
// counted.
func TestPublishErrors(t *testing.T) {
	conn := bus.NewFakeConn(4)
	pub := bus.PublisherFunc[dmsgs.TeamInfo](func(*dmsgs.TeamInfo) error { return errors.New("no subscriber") })
	cfg := testConfig()
	c, err := New(cfg, Deps{Conn: conn, Publisher: pub, Clock: nil})
	if err != nil {
		t.Fatal(err)
	}
	c.receive(datagram(dnetFrom(t, 17, 3, 1, 0, nil)), c.clk.Now())
	c.receive(datagram(dnetFrom(t, 17, 3, 2, 0, nil)), c.clk.Now())
	if st := c.Status(); st.Receive.Accepted != 1 || st.Receive.PublishErrors != 1 {
		t.Fatalf("%+v", st.Receive)
	}
}

// TestBudgetExhausted plays the end of a budget on the manual clock, with reserve 0 and
// the GameController's figures as the HSL 7 GameController sends them: the robot spends
// the 3 messages left and then sends no counted message, although the GameController's
// figure lags (it is taken only when it changes) and when it confirms 0; it says why in
// its status. It talks again when the figure grows (a minute of additional time, +600)
// and, spending nothing, in the penalty shoot-out, where messages never count.
func TestBudgetExhausted(t *testing.T) {
	cfg := testConfig()
	cfg.Reserve = 0
	h := newHarness(t, cfg, harnessStart, nil)
	h.c.SetBehavior(&ballHandling)
	snap := func(budget int, phase uint8) func(*GameSnapshot) {
		return func(s *GameSnapshot) {
			*s = GameSnapshot{Connected: true, State: StatePlaying, GamePhase: phase, SecsRemaining: 1, MessageBudget: budget}
		}
	}
	h.game.set(snap(3, PhaseNormal))
	h.ticks(300)
	st := h.checkInvariants()
	if len(h.broadcasts()) != 3 || st.Send.Sent != 3 || st.BudgetLeft != 0 {
		t.Fatalf("3 left: %d packets, budget left %d", len(h.broadcasts()), st.BudgetLeft)
	}
	if !st.BudgetExhausted() || st.LastDecision != DecisionSilentBudget || st.Budget.Cause != BudgetReserve ||
		!strings.HasPrefix(st.Budget.Reason(), "budget exhausted (0 left, reserve 0)") {
		t.Fatalf("exhausted: decision %v, reason %q, exhausted %v", st.LastDecision, st.Budget.Reason(), st.BudgetExhausted())
	}
	// The GameController has not counted them yet, then says 0: silent all along.
	h.game.set(snap(3, PhaseNormal))
	h.ticks(100)
	h.game.set(snap(0, PhaseNormal))
	h.ticks(100)
	if st := h.checkInvariants(); len(h.broadcasts()) != 3 || st.Send.SilentBudget < 200 {
		t.Fatalf("after exhaustion: %d packets, %d silent ticks", len(h.broadcasts()), st.Send.SilentBudget)
	}
	// A minute of additional time: 600 more.
	h.game.set(snap(600, PhaseNormal))
	h.ticks(10)
	if st := h.checkInvariants(); len(h.broadcasts()) == 3 || st.BudgetExhausted() || st.BudgetLeft != 600-(len(h.broadcasts())-3) {
		t.Fatalf("after +600: %d packets, budget left %d", len(h.broadcasts()), st.BudgetLeft)
	}
	// Penalty shoot-out with nothing left: free.
	h.game.set(snap(0, PhasePenaltyShoot))
	before := len(h.broadcasts())
	h.ticks(30)
	if st := h.checkInvariants(); len(h.broadcasts()) == before || st.BudgetLeft != 0 || st.Budget.Cause != BudgetUncounted {
		t.Fatalf("shoot-out: %d packets, budget left %d, cause %v", len(h.broadcasts())-before, st.BudgetLeft, st.Budget.Cause)
	}
}
