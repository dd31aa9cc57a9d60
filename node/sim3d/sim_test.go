package sim3d

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	sim3dproto "github.com/robocup-dnetwork/dnetwork/proto/sim3d"
)

// Listener capacity of rcssserver3d (protocols.md §5.3): a message is accepted only when
// the capacity is at least hearDecay, which it then costs; every cycle adds hearInc up to
// hearMax. Teammates and opponents have separate capacities; the own message is always
// echoed.
const (
	hearMax   = 2
	hearInc   = 1
	hearDecay = 2
)

// simServer models the server's say/hear delivery.
type simServer struct {
	labels bool // LabelMessages: hear perceptors carry the speaker's team
	agents []simAgent
	lost   int // teammate messages lost to the capacity rule
}

type simAgent struct {
	team            string
	mateCap, oppCap int
	pending         []dmsgs.Sim3dHear // heard with the next percept
	self            *dmsgs.Sim3dHear
	oppHeard        int
}

type utterance struct {
	speaker int
	msg     string
}

func newSimServer(labels bool, teams ...string) *simServer {
	s := &simServer{labels: labels}
	for _, team := range teams {
		s.agents = append(s.agents, simAgent{team: team, mateCap: hearMax, oppCap: hearMax})
	}
	return s
}

// cycle processes the messages said in one cycle in order (the first accepted wins),
// then refills every listener's capacity.
func (s *simServer) cycle(gameTime float64, says []utterance) {
	for _, u := range says {
		sp := &s.agents[u.speaker]
		sp.self = &dmsgs.Sim3dHear{GameTime: gameTime, Team: sp.team, Own: true, Message: u.msg}
		if !s.labels {
			sp.self.Team = ""
		}
		for l := range s.agents {
			if l == u.speaker {
				continue
			}
			ls := &s.agents[l]
			capacity := &ls.oppCap
			if ls.team == sp.team {
				capacity = &ls.mateCap
			}
			if *capacity < hearDecay {
				if ls.team == sp.team {
					s.lost++
				}
				continue
			}
			*capacity -= hearDecay
			h := dmsgs.Sim3dHear{GameTime: gameTime, Direction: float32(10 * (u.speaker - l)), Message: u.msg}
			if s.labels {
				h.Team = sp.team
			}
			if ls.team != sp.team {
				ls.oppHeard++
			}
			ls.pending = append(ls.pending, h)
		}
	}
	for l := range s.agents {
		a := &s.agents[l]
		a.mateCap = min(a.mateCap+hearInc, hearMax)
		a.oppCap = min(a.oppCap+hearInc, hearMax)
	}
}

// percept returns, and forgets, the hear perceptors agent i gets with its next percept.
func (s *simServer) percept(i int) []dmsgs.Sim3dHear {
	a := &s.agents[i]
	out := a.pending
	if a.self != nil {
		out = append(out, *a.self)
	}
	a.pending, a.self = nil, nil
	return out
}

// TestSimServerCapacity checks the model against the capacity vector of protocols.md
// §6.6.
func TestSimServerCapacity(t *testing.T) {
	const l, t1, t2, opp = 0, 1, 2, 3
	s := newSimServer(true, "A", "A", "A", "B")
	msgs := func(hs []dmsgs.Sim3dHear) (out []string) {
		for _, h := range hs {
			out = append(out, fmt.Sprintf("%s:%v:%s", h.Team, h.Own, h.Message))
		}
		return out
	}
	s.cycle(1, []utterance{{t1, "k1"}, {t2, "k2"}, {opp, "o"}})
	if got := fmt.Sprint(msgs(s.percept(l))); got != "[A:false:k1 B:false:o]" {
		t.Errorf("cycle k: L hears %s, want T1's message and the opponent's", got)
	}
	if got := fmt.Sprint(msgs(s.percept(t2))); got != "[A:false:k1 B:false:o A:true:k2]" {
		t.Errorf("cycle k: T2 hears %s, want T1's, the opponent's and its own", got)
	}
	s.percept(t1)
	s.cycle(1.02, []utterance{{t1, "k+1"}})
	if got := s.percept(l); len(got) != 0 {
		t.Errorf("cycle k+1: L hears %v, want nothing (capacity 1)", msgs(got))
	}
	if got := fmt.Sprint(msgs(s.percept(t1))); got != "[A:true:k+1]" {
		t.Errorf("cycle k+1: T1 hears %s, want its own message", got)
	}
	s.cycle(1.04, []utterance{{t1, "k+2"}})
	if got := fmt.Sprint(msgs(s.percept(l))); got != "[A:false:k+2]" {
		t.Errorf("cycle k+2: L hears %s, want T1's message", got)
	}
	// Lost: T2's message at L (k), T1's at L and T2 (k+1) - T2 had heard k1.
	if s.lost != 3 {
		t.Errorf("lost %d, want 3", s.lost)
	}
}

// simResult is what a simulated match produced.
type simResult struct {
	rigs      []*rig
	server    *simServer
	firstHear [][]int // firstHear[i][j]: step at which robot i first published robot j's TeamInfo; 0 = never
	said      []uint64
}

// simulate runs robots with the given uniform numbers (a team of len(players)) and
// one opponent that talks in every cycle, for the given number of cycles. Each robot's
// Sim3dSay goes through simServer to the others' HandleHear; cycles are counted on the
// clock through Run, or on server times passed to SetServerTime.
func simulate(t *testing.T, players []int, serverTime, labels bool, cycles int) simResult {
	t.Helper()
	return simulateRelay(t, players, serverTime, labels, cycles, MinSlotCycles, func(int, int) int { return 0 })
}

// simulateRelay is simulate with slots of slotCycles cycles and agents that relay robot
// i's say of step k late(k, i) cycles late.
func simulateRelay(t *testing.T, players []int, serverTime, labels bool, cycles, slotCycles int, late func(k, i int) int) simResult {
	t.Helper()
	n := len(players)
	clk := clock.NewManual(start)
	teams := make([]string, n+1)
	for i := range n {
		teams[i] = "TeamX"
	}
	teams[n] = "TeamY"
	res := simResult{server: newSimServer(labels, teams...), said: make([]uint64, n)}
	for i, p := range players {
		r := newRig(t, clk, func(c *Config) {
			c.Player, c.TeamSize, c.TeamName, c.TeamNumber, c.SlotCycles = p, n, "TeamX", 5, slotCycles
		})
		r.team.SetMotion(&dmsgs.MotionInfo{Stable: true})
		r.team.SetBehavior(&dmsgs.BehaviorInfo{CurrentRole: uint8(i + 1), TeamPlayState: dmsgs.BehaviorInfoStatePlaying})
		r.team.SetVision(&dmsgs.VisionInfo{RobotPos: vec(float64(100*i)-250, float64(-50*i), float64(30*i)),
			SeeBall: true, BallGlobal: vec(120, -80, 0)})
		if !serverTime {
			r.run()
		}
		res.rigs = append(res.rigs, r)
		res.firstHear = append(res.firstHear, make([]int, n))
	}
	oppMsgs := []string{"e4GtG4EAPS6ia", encode(t, "TeamY", sim3dproto.TeamState{Player: 2})}
	deliver := func(step int) {
		for i, r := range res.rigs {
			for _, h := range res.server.percept(i) {
				r.team.HandleHear(&h)
			}
			for _, ti := range r.infos.Messages() {
				for j, p := range players {
					if int(ti.PlayerNumber) == p && j != i && res.firstHear[i][j] == 0 {
						res.firstHear[i][j] = step
					}
				}
			}
		}
	}
	relayed := map[int][]utterance{} // by the step the server gets them
	for k := 1; k <= cycles; k++ {
		clk.Advance(cycle)
		deliver(k)
		says := relayed[k]
		delete(relayed, k)
		for i, r := range res.rigs {
			if serverTime {
				r.team.SetServerTime(200 + float64(k)*0.02)
			} else {
				r.waitEval(uint64(k))
			}
			switch got := uint64(r.says.Len()); {
			case got == res.said[i]+1:
				m, _ := r.says.Last()
				if d := late(k, i); d == 0 {
					says = append(says, utterance{i, m.Message})
				} else {
					relayed[k+d] = append(relayed[k+d], utterance{i, m.Message})
				}
				res.said[i] = got
			case got != res.said[i]:
				t.Fatalf("robot %d said %d messages in one cycle", i, got-res.said[i])
			}
		}
		// The opponent is heard every second cycle; alternate per heard message.
		says = append(says, utterance{n, oppMsgs[k/2%2]})
		res.server.cycle(float64(k)*0.02, says)
	}
	clk.Advance(cycle)
	deliver(cycles + 1)
	return res
}

// TestThreeRobotSimulation lets three robots talk through the server model: no message
// is lost to the capacity rule, every robot hears every teammate within one round plus
// the delivery cycle, and each TeamInfo matches what its sender said.
func TestThreeRobotSimulation(t *testing.T) {
	for _, tc := range []struct {
		name               string
		serverTime, labels bool
	}{
		{"clock ticker, labelled messages", false, true},
		{"server time, unlabelled messages", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const cycles = 300
			res := simulate(t, []int{1, 2, 3}, tc.serverTime, tc.labels, cycles)
			if res.server.lost != 0 {
				t.Errorf("%d teammate messages lost to the capacity rule", res.server.lost)
			}
			bound := 2*3 + 1 // one round of slots, then the delivery cycle
			for i := range res.rigs {
				for j := range res.rigs {
					if i != j && (res.firstHear[i][j] == 0 || res.firstHear[i][j] > bound) {
						t.Errorf("robot %d first heard robot %d at step %d, want 1..%d", i+1, j+1, res.firstHear[i][j], bound)
					}
				}
			}
			for i, r := range res.rigs {
				st := r.team.Status()
				checkInvariants(t, st)
				if st.Said != cycles/6 || st.SlotsMissed != 0 || st.EncodeErrors != 0 {
					t.Errorf("robot %d: said %d, missed %d, encode errors %d; want %d, 0, 0",
						i+1, st.Said, st.SlotsMissed, st.EncodeErrors, cycles/6)
				}
				want := uint64(0)
				for j := range res.rigs {
					if j != i {
						want += res.said[j]
						if m := st.Mates[j]; m.Heard != res.said[j] || m.Lost != 0 {
							t.Errorf("robot %d: mate %d heard %d lost %d, want %d and 0", i+1, j+1, m.Heard, m.Lost, res.said[j])
						}
					}
				}
				opp := uint64(res.server.agents[i].oppHeard)
				if st.Accepted != want || st.Dropped.Self != st.Said ||
					st.Dropped.OtherTeam+st.Dropped.Foreign+st.Dropped.Malformed != opp ||
					st.Dropped.OwnNumber+st.Dropped.Duplicate+st.Dropped.Publish != 0 {
					t.Errorf("robot %d: accepted %d (want %d), dropped %+v (own said %d, opponent heard %d)",
						i+1, st.Accepted, want, st.Dropped, st.Said, opp)
				}
				if tc.labels && st.Dropped.OtherTeam != opp || !tc.labels && (st.Dropped.Foreign == 0 || st.Dropped.Malformed == 0) {
					t.Errorf("robot %d: opponent drops %+v with labels=%v", i+1, st.Dropped, tc.labels)
				}
				for _, ti := range r.infos.Messages() {
					j := int(ti.PlayerNumber) - 1
					wantX, wantY := float64(100*j)-250, float64(-50*j)
					if math.Abs(ti.RobotPos.X-wantX) > 0.5 || math.Abs(ti.RobotPos.Y-wantY) > 0.5 ||
						angleDiff(ti.RobotPos.Z, float64(30*j)) > sim3dproto.HeadingStep/2 ||
						ti.Role != uint8(j+1) || ti.State != dmsgs.TeamInfoStatePlaying || ti.Fallen ||
						!ti.SeeBall || !near(ti.BallGlobal.X, 120) || !near(ti.BallGlobal.Y, -80) || ti.TeamNumber != 5 {
						t.Fatalf("robot %d published for player %d: %+v", i+1, j+1, ti)
					}
				}
			}
		})
	}
}

// TestSimulationCollisionControl shows that the server model punishes a broken slot
// plan: with two robots on the same number, their messages collide and are lost.
func TestSimulationCollisionControl(t *testing.T) {
	res := simulate(t, []int{1, 2, 2}, true, true, 120)
	if res.server.lost == 0 {
		t.Fatal("no message lost although two robots share a slot")
	}
	st := res.rigs[0].team.Status()
	if st.Accepted >= res.said[1]+res.said[2] {
		t.Errorf("robot 1 accepted %d of %d messages", st.Accepted, res.said[1]+res.said[2])
	}
	for _, r := range res.rigs[1:] {
		if r.team.Status().Dropped.OwnNumber == 0 {
			t.Error("robots sharing a number did not report it")
		}
	}
}

// TestLateRelaySimulation lets the agents relay each say 0, 1 or 2 cycles late at
// random, as relays against the real server do on a busy machine. With the default
// four-cycle slots no teammate message is lost to the capacity rule; with two-cycle slots
// relays only 0 or 1 cycle late lose some, which is why the default has margin.
func TestLateRelaySimulation(t *testing.T) {
	const cycles = 1200
	rnd := rand.New(rand.NewPCG(13, 3))
	res := simulateRelay(t, []int{1, 2, 3}, true, true, cycles, DefaultConfig().SlotCycles,
		func(int, int) int { return rnd.IntN(3) })
	if res.server.lost != 0 {
		t.Errorf("default slots: %d teammate messages lost with late relays", res.server.lost)
	}
	for i, r := range res.rigs {
		st := r.team.Status()
		checkInvariants(t, st)
		for j := range res.rigs {
			if m := st.Mates[j]; j != i && (m.Lost != 0 || m.Heard+1 < res.said[j]) {
				t.Errorf("robot %d: mate %d heard %d lost %d of %d said", i+1, j+1, m.Heard, m.Lost, res.said[j])
			}
		}
		if want := uint64(cycles / (3 * DefaultSlotCycles)); st.Said != want {
			t.Errorf("robot %d said %d, want %d", i+1, st.Said, want)
		}
	}
	tight := simulateRelay(t, []int{1, 2, 3}, true, true, cycles, MinSlotCycles,
		func(int, int) int { return rnd.IntN(2) })
	if tight.server.lost == 0 {
		t.Error("two-cycle slots lost nothing with late relays; the margin would be needless")
	}
}
