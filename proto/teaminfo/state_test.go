package teaminfo

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// viaDNet returns s after a trip through a dnet packet.
func viaDNet(t testing.TB, s *State) State {
	t.Helper()
	b, err := AppendDNet(nil, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out State
	if _, err := DecodeDNet(b, &out, nil); err != nil {
		t.Fatal(err)
	}
	return out
}

func randState(r *rand.Rand) State {
	u := func(lo, hi float64) float64 { return lo + r.Float64()*(hi-lo) }
	pos := func() float64 { return u(-32.767, 32.767) }
	ang := func() float64 { return u(-327.67, 327.67) }
	pt := func() Point { return Point{X: pos(), Y: pos()} }
	pose := func() Pose { return Pose{pos(), pos(), ang()} }
	s := State{
		Team: uint8(r.Uint32()), Player: uint8(r.Uint32()), Seq: r.Uint32(),
		Stamp:         time.Duration(r.Int64N(int64(MaxStampMs) * int64(time.Millisecond))),
		Incapacitated: r.IntN(2) == 1, Fallen: r.IntN(2) == 1, Penalised: r.IntN(2) == 1,
		AttackRight: r.IntN(2) == 1, Priority: r.IntN(2) == 1, SeeBall: r.IntN(2) == 1,
		SeeCircle: r.IntN(2) == 1, SeeGoal: r.IntN(2) == 1, GCConnected: r.IntN(2) == 1,
		GCStopped: r.IntN(2) == 1,
		Role:      Role(r.IntN(int(RoleOther) + 1)), PlayState: PlayState(r.IntN(int(PlayAssisting) + 1)), KickerID: uint8(r.Uint32()),
		RobotPos: pose(), Dest: pose(), FinalDest: pose(),
		AttackTarget: pt(), BallField: pt(), BallGlobal: pt(), TeamBallGlobal: pt(),
		CircleField: pt(), CircleGlobal: pt(), GoalField: pt(), GoalGlobal: pt(),
		TimeSinceLastKick: u(0, 655.34), TimeToReachBall: u(0, 655.34), BallAge: u(0, 655.34),
		BallQuality: u(0, 1), FieldQuality: u(0, 1), FieldConsistency: u(0, 1),
		GCState: uint8(r.IntN(16)), GCSecondaryState: uint8(r.IntN(16)),
		GamePhase: uint8(r.IntN(16)), SetPlay: uint8(r.IntN(16)),
		VoronoiLen: r.IntN(MaxVoronoi + 1),
	}
	for i := range s.MatesOnline {
		s.MatesOnline[i] = r.IntN(2) == 1
	}
	for i := range s.VoronoiLen {
		s.Voronoi[i] = Point{X: u(-20.47, 20.47), Y: u(-20.47, 20.47)}
	}
	return s
}

// within checks |got - want| <= tol for one quantity.
func within(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol+1e-9 {
		t.Errorf("%s: %v -> %v, error %g > %g", name, want, got, math.Abs(got-want), tol)
	}
}

func TestQuantisationTolerances(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		s := randState(r)
		g := viaDNet(t, &s)
		if g.Team != s.Team || g.Player != s.Player || g.Seq != s.Seq || g.Role != s.Role ||
			g.PlayState != s.PlayState || g.KickerID != s.KickerID || g.MatesOnline != s.MatesOnline ||
			g.Incapacitated != s.Incapacitated || g.Fallen != s.Fallen || g.Penalised != s.Penalised ||
			g.AttackRight != s.AttackRight || g.Priority != s.Priority || g.SeeBall != s.SeeBall ||
			g.SeeCircle != s.SeeCircle || g.SeeGoal != s.SeeGoal || g.GCConnected != s.GCConnected ||
			g.GCStopped != s.GCStopped || g.GCState != s.GCState || g.GCSecondaryState != s.GCSecondaryState ||
			g.GamePhase != s.GamePhase || g.SetPlay != s.SetPlay || g.VoronoiLen != s.VoronoiLen {
			t.Fatalf("exact fields changed:\n got %+v\nwant %+v", g, s)
		}
		if d := s.Stamp - g.Stamp; d < 0 || d >= TolStamp {
			t.Errorf("stamp %v -> %v", s.Stamp, g.Stamp)
		}
		for _, p := range [][2]Pose{{g.RobotPos, s.RobotPos}, {g.Dest, s.Dest}, {g.FinalDest, s.FinalDest}} {
			within(t, "pose x", p[0].X, p[1].X, TolPosition)
			within(t, "pose y", p[0].Y, p[1].Y, TolPosition)
			within(t, "pose theta", p[0].Theta, p[1].Theta, TolAngle)
		}
		for _, p := range [][2]Point{
			{g.AttackTarget, s.AttackTarget}, {g.BallField, s.BallField}, {g.BallGlobal, s.BallGlobal},
			{g.TeamBallGlobal, s.TeamBallGlobal}, {g.CircleField, s.CircleField},
			{g.CircleGlobal, s.CircleGlobal}, {g.GoalField, s.GoalField}, {g.GoalGlobal, s.GoalGlobal},
		} {
			within(t, "point x", p[0].X, p[1].X, TolPosition)
			within(t, "point y", p[0].Y, p[1].Y, TolPosition)
		}
		within(t, "time_since_last_kick", g.TimeSinceLastKick, s.TimeSinceLastKick, TolDuration)
		within(t, "time_to_reach_ball", g.TimeToReachBall, s.TimeToReachBall, TolDuration)
		within(t, "ball_age", g.BallAge, s.BallAge, TolDuration)
		within(t, "ball_quality", g.BallQuality, s.BallQuality, TolQuality)
		within(t, "field_quality", g.FieldQuality, s.FieldQuality, TolQuality)
		within(t, "field_consistency", g.FieldConsistency, s.FieldConsistency, TolQuality)
		for i := range s.VoronoiLen {
			within(t, "voronoi x", g.Voronoi[i].X, s.Voronoi[i].X, TolVoronoi)
			within(t, "voronoi y", g.Voronoi[i].Y, s.Voronoi[i].Y, TolVoronoi)
		}
		// Quantising again changes nothing.
		reportDiff(t, "second trip", diff(viaDNet(t, &g), g))
		if t.Failed() {
			t.FailNow()
		}
	}
}

func TestQuantisationLimits(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	type tc struct{ in, want float64 }
	check := func(name string, cases []tc, set func(s *State, v float64), get func(s *State) float64) {
		t.Helper()
		for _, c := range cases {
			var s State
			set(&s, c.in)
			g := viaDNet(t, &s)
			got := get(&g)
			if math.IsNaN(c.want) != math.IsNaN(got) || (!math.IsNaN(c.want) && math.Abs(got-c.want) > 1e-12) {
				t.Errorf("%s %v: got %v, want %v", name, c.in, got, c.want)
			}
		}
	}
	check("position", []tc{
		{32.767, 32.767}, {32.7674, 32.767}, {32.8, 32.767}, {1e9, 32.767}, {inf, 32.767},
		{-32.767, -32.767}, {-32.768, -32.767}, {-1e9, -32.767}, {-inf, -32.767},
		{nan, nan}, {0.0004, 0}, {0.0005, 0.001}, {-0.0005, -0.001}, {math.Copysign(0, -1), 0},
	}, func(s *State, v float64) { s.BallGlobal.X = v }, func(s *State) float64 { return s.BallGlobal.X })
	check("angle", []tc{
		{math.Pi, 3.14}, {-math.Pi, -3.14}, {4 * math.Pi, 12.57}, {327.67, 327.67}, {400, 327.67},
		{-inf, -327.67}, {nan, nan}, {0.004, 0}, {-0.006, -0.01},
	}, func(s *State, v float64) { s.RobotPos.Theta = v }, func(s *State) float64 { return s.RobotPos.Theta })
	check("duration", []tc{
		{0, 0}, {-1, 0}, {-inf, 0}, {655.34, 655.34}, {655.35, 655.34}, {1e6, 655.34}, {inf, 655.34},
		{nan, nan}, {0.004, 0}, {0.005, 0.01}, {2.5, 2.5},
	}, func(s *State, v float64) { s.TimeSinceLastKick = v }, func(s *State) float64 { return s.TimeSinceLastKick })
	check("quality", []tc{
		{0, 0}, {1, 1}, {-0.5, 0}, {1.5, 1}, {inf, 1}, {-inf, 0}, {nan, nan}, {0.5, 127.0 / 254},
	}, func(s *State, v float64) { s.FieldQuality = v }, func(s *State) float64 { return s.FieldQuality })
	check("voronoi", []tc{
		{20.47, 20.47}, {25, 20.47}, {-25, -20.47}, {-inf, -20.47}, {nan, nan}, {0.004, 0}, {0.006, 0.01},
	}, func(s *State, v float64) { s.VoronoiLen = 1; s.Voronoi[0].Y = v }, func(s *State) float64 { return s.Voronoi[0].Y })

	for _, c := range []struct{ in, want time.Duration }{
		{0, 0}, {-time.Hour, 0}, {time.Millisecond - 1, 0}, {1999 * time.Microsecond, time.Millisecond},
		{math.MaxInt64, time.Duration(MaxStampMs) * time.Millisecond},
	} {
		s := State{Stamp: c.in}
		if g := viaDNet(t, &s); g.Stamp != c.want {
			t.Errorf("stamp %v: got %v, want %v", c.in, g.Stamp, c.want)
		}
	}
}

func TestDNetFromStateVoronoi(t *testing.T) {
	s := State{VoronoiLen: 9}
	for i := range s.Voronoi {
		s.Voronoi[i] = Point{X: float64(i), Y: -float64(i)}
	}
	var p DNetPacket
	p.FromState(&s)
	if p.VoronoiLen != MaxVoronoi || p.Voronoi[5] != (QPoint{500, -500}) {
		t.Errorf("VoronoiLen 9: packet %d points, last %v", p.VoronoiLen, p.Voronoi[5])
	}
	s.VoronoiLen = -1
	p.FromState(&s)
	if p.VoronoiLen != 0 || p.Voronoi != [MaxVoronoi]QPoint{} {
		t.Errorf("VoronoiLen -1: %d points %v", p.VoronoiLen, p.Voronoi)
	}
	s.VoronoiLen = 2
	p.FromState(&s)
	if p.VoronoiLen != 2 || p.Voronoi[2] != (QPoint{}) {
		t.Errorf("unused slots not zero: %v", p.Voronoi)
	}
	// Decoding ignores slots beyond the count.
	p.Voronoi[4] = QPoint{7, 7}
	var g State
	p.ToState(&g)
	if g.VoronoiLen != 2 || g.Voronoi[4] != (Point{}) || len(g.VoronoiPoints()) != 2 {
		t.Errorf("ToState used unused slots: %+v", g.Voronoi)
	}
}

func TestDNetGCRangeFromState(t *testing.T) {
	s := State{GCState: 16}
	if _, err := AppendDNet(nil, &s, nil); err == nil {
		t.Fatal("gc_state 16 encoded")
	}
}

// A zju packet relayed as dnet keeps its content within the dnet tolerances.
func TestZJUThroughDNet(t *testing.T) {
	in := tvTeam296
	in.BallField.Z = 7 // dnet drops z of points
	var s State
	in.ToState(&s)
	g := viaDNet(t, &s)
	var back ZJUPacket
	back.FromState(&g)
	const cm, deg = TolPosition * cmPerM, TolAngle * degPerRad
	// Compare the vectors separately (cm and degrees), then everything else exactly.
	vecs := func(p *ZJUPacket) []*Vector3 {
		return []*Vector3{&p.Dest, &p.FinalDest, &p.AttackTarget, &p.RobotPos, &p.BallField,
			&p.BallGlobal, &p.CircleField, &p.CircleGlobal, &p.GoalField, &p.GoalGlobal}
	}
	want := in
	for i, v := range vecs(&back) {
		w := vecs(&want)[i]
		within(t, "x", v.X, w.X, cm)
		within(t, "y", v.Y, w.Y, cm)
		if v == &back.Dest || v == &back.FinalDest || v == &back.RobotPos {
			within(t, "heading", v.Z, w.Z, deg)
		} else if v.Z != 0 {
			t.Errorf("z of a point is not dropped: %v", v.Z)
		}
		*v, *w = Vector3{}, Vector3{}
	}
	within(t, "ball_quality", float64(back.BallQuality), float64(want.BallQuality), TolQuality)
	back.BallQuality, want.BallQuality = 0, 0
	reportDiff(t, "TV-TEAM-296 through dnet", diff(back, want))
	if !math.IsNaN(g.TimeToReachBall) || !math.IsNaN(g.BallAge) {
		t.Errorf("unknown durations did not stay unknown: %v %v", g.TimeToReachBall, g.BallAge)
	}
}
