package world

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
)

// MaxRobots is the largest team the world simulates: the most players a
// GameController packet carries.
const MaxRobots = 20

// Distances of the behaviour, in metres.
const (
	// KickReach is how close to the ball a robot must stand to kick it.
	KickReach = 0.28
	// HandleDistance is the distance to the ball within which the ball handler's
	// team-play state is BALL_HANDLING.
	HandleDistance = 0.5
	// KeepDistance is how far our robots stay from the ball during the other team's
	// kick-off or set play.
	KeepDistance = 0.9
	// approach is how far behind the ball the ball handler lines up.
	approach = 0.18
	// kickAlign is the largest heading error with which a robot kicks, in radians.
	kickAlign = 35 * math.Pi / 180
)

// Times of the behaviour, in world time.
const (
	// KickTime is how long a kick keeps the robot in place (MotionInfo status KICKING).
	KickTime = 500 * time.Millisecond
	// SearchAfter is how long after it last saw the ball a field player starts searching.
	SearchAfter = 3 * time.Second
	// GoalKickDelay is the mean time the opponent takes for its goal kick after the ball
	// went over its goal line (half to one and a half of it).
	GoalKickDelay = 2 * time.Second
)

// strikerHysteresis is how much faster (in seconds to the ball) another field player
// must be to take the striker role over.
const strikerHysteresis = 1.0

// ErrConfig reports an invalid Config.
var ErrConfig = errors.New("world: bad config")

// Field is the geometry the robots play on, in metres: a rectangle of Length × Width
// centred on the origin. Our team attacks the goal at +x.
type Field struct {
	Length, Width        float64
	GoalWidth            float64
	GoalAreaLength       float64
	PenaltyAreaLength    float64
	PenaltyAreaWidth     float64
	PenaltyMarkDistance  float64
	CentreCircleDiameter float64
}

// KidSizeField returns the humanoid kid-size field (9 × 6 m, 2.6 m goals).
func KidSizeField() Field {
	return Field{Length: 9, Width: 6, GoalWidth: 2.6, GoalAreaLength: 1, PenaltyAreaLength: 2,
		PenaltyAreaWidth: 5, PenaltyMarkDistance: 1.5, CentreCircleDiameter: 1.5}
}

// Config configures a World. Start from DefaultConfig.
type Config struct {
	// Robots is the number of robots of our team, players 1..Robots (1..MaxRobots).
	// Player 1 is the goalie when there are at least two.
	Robots int
	// Field is the field geometry.
	Field Field

	// WalkSpeed is the robots' top speed in m/s; TurnSpeed their turn rate in rad/s.
	WalkSpeed, TurnSpeed float64
	// KickSpeed is the mean speed of a kicked ball in m/s (each kick varies by ±20 %).
	KickSpeed float64
	// BallDecay is the time constant of the rolling ball's slowing down: its speed falls
	// to 1/e in this time.
	BallDecay time.Duration
	// ViewDistance is how far a robot sees the ball, in metres.
	ViewDistance float64
	// FallRate is the chance per second of walking that a robot falls; 0: never.
	FallRate float64
	// FallMin and FallMax bound how long a fallen robot is down (stable false).
	FallMin, FallMax time.Duration
	// OpponentRate is the chance per second that the opponent, which is not simulated as
	// robots, kicks a free ball in its half back towards our goal; it doubles during
	// the opponent's kick-off and set plays. 0: the ball is never kicked back, and the
	// opponent takes no goal kicks.
	OpponentRate float64
	// Noise scales the measurement noise of the inputs (2 cm and 1° for the robot's
	// pose, 3 cm plus 2 % of the distance for the ball); 0 turns it off.
	Noise float64
	// Seed seeds the random numbers: the same seed and the same calls give the same game.
	Seed uint64
}

// DefaultConfig returns the configuration of a team of n robots on the kid-size field:
// 0.45 m/s walking, 2 rad/s turning, 2.5 m/s kicks, a ball seen up to 4.5 m, a fall
// every 40 s of walking on average lasting 1-2 s, the opponent kicking back at 0.8/s.
func DefaultConfig(n int) Config {
	return Config{
		Robots: n, Field: KidSizeField(),
		WalkSpeed: 0.45, TurnSpeed: 2, KickSpeed: 2.5, BallDecay: time.Second,
		ViewDistance: 4.5, FallRate: 1.0 / 40, FallMin: time.Second, FallMax: 2 * time.Second,
		OpponentRate: 0.8, Noise: 1, Seed: 1,
	}
}

// Validate reports every problem of c at once.
func (c Config) Validate() error {
	var errs []error
	bad := func(format string, a ...any) {
		errs = append(errs, fmt.Errorf("%w: "+format, append([]any{ErrConfig}, a...)...))
	}
	if c.Robots < 1 || c.Robots > MaxRobots {
		bad("robots %d outside 1..%d", c.Robots, MaxRobots)
	}
	f := c.Field
	if !(f.Length > 0 && f.Width > 0 && f.GoalWidth > 0 && f.GoalWidth < f.Width) {
		bad("field %gx%g m with %g m goals", f.Length, f.Width, f.GoalWidth)
	}
	if !(f.GoalAreaLength > 0 && f.PenaltyAreaLength >= f.GoalAreaLength && f.PenaltyAreaLength < f.Length/2 &&
		f.PenaltyAreaWidth > 0 && f.PenaltyMarkDistance > 0 && f.PenaltyMarkDistance < f.Length/2 &&
		f.CentreCircleDiameter > 0 && f.CentreCircleDiameter < f.Width) {
		bad("field markings do not fit the field: %+v", f)
	}
	if !(c.WalkSpeed > 0 && c.TurnSpeed > 0 && c.KickSpeed > 0 && c.BallDecay > 0 && c.ViewDistance > 0) {
		bad("speeds, ball decay and view distance must be positive")
	}
	if !(c.FallRate >= 0 && c.FallRate <= 1 && c.OpponentRate >= 0 && c.OpponentRate <= 10 && c.Noise >= 0) {
		bad("fall rate %g (0..1), opponent rate %g (0..10) or noise %g (>= 0) out of range", c.FallRate, c.OpponentRate, c.Noise)
	}
	if c.FallRate > 0 && !(c.FallMin > 0 && c.FallMax >= c.FallMin) {
		bad("fall time %v..%v", c.FallMin, c.FallMax)
	}
	return errors.Join(errs...)
}

// Stats counts what happened in the world.
type Stats struct {
	// Kicks by our robots, and by the opponent.
	Kicks, OpponentKicks uint64
	// Falls of our robots.
	Falls uint64
	// Placements of the ball by the referee: kick-off spot, set plays, out of bounds.
	Placements uint64
}

// World is a simulated team on a field with one ball. It advances by Step and is not
// safe for concurrent use.
type World struct {
	cfg    Config
	rng    *rand.Rand
	t      time.Duration
	game   Referee // the latest referee state of any robot
	prev   Referee // game at the previous step
	ball   ball
	robots []*robot
	// striker is the id of the ball handler among the field players; 0: none.
	striker int
	// goalKick is when the opponent takes its goal kick after the ball went over its
	// goal line; 0: none pending.
	goalKick time.Duration
	stats    Stats
}

type ball struct {
	pos, vel Vec
}

type robot struct {
	id    int
	pose  Pose
	ref   Referee
	role  uint8
	play  uint8
	skill string
	// defender is the robot's index among the defenders, for spreading them out;
	// defenders is their number.
	defender, defenders int

	target     Pose
	walking    bool
	odom       Pose // accumulated in the robot's frame
	fallUntil  time.Duration
	fallPitch  float64
	kickUntil  time.Duration
	lastKick   time.Duration // -1: never
	sees       bool
	lastBall   Vec
	lastSeen   time.Duration // -1: never
	penalised  bool          // taken off at the previous step
	timeToBall float64
}

// New checks cfg and returns a world at time 0: the robots stand on our touchline,
// the ball on the centre mark.
func New(cfg Config) (*World, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	w := &World{cfg: cfg, rng: rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15))}
	f := cfg.Field
	spacing := math.Min(0.75, (f.Length/2-0.25)/float64(cfg.Robots))
	for i := range cfg.Robots {
		r := &robot{
			id:       i + 1,
			pose:     Pose{X: -f.Length/2 + spacing*float64(i+1), Y: -f.Width / 2, Theta: math.Pi / 2},
			role:     dmsgs.BehaviorInfoRoleOther,
			play:     dmsgs.BehaviorInfoStateInitializing,
			skill:    "Initial",
			lastKick: -1,
			lastSeen: -1,
		}
		r.target = r.pose
		w.robots = append(w.robots, r)
	}
	w.assignRoles()
	w.see()
	return w, nil
}

// Config returns the world's configuration.
func (w *World) Config() Config { return w.cfg }

// Time returns the world time: the sum of all steps.
func (w *World) Time() time.Duration { return w.t }

// Stats returns the counters.
func (w *World) Stats() Stats { return w.stats }

// SetReferee gives robot id (1..Robots) what its node says about the game. The latest
// call of any robot also sets the game the ball follows (kick-off spot, set plays).
func (w *World) SetReferee(id int, r Referee) {
	rb := w.robot(id)
	if rb == nil {
		return
	}
	rb.ref = r
	w.game = r
}

func (w *World) robot(id int) *robot {
	if id < 1 || id > len(w.robots) {
		return nil
	}
	return w.robots[id-1]
}

// Step advances the world by dt: the referee places the ball, roles are assigned,
// every robot moves (or kicks, or falls), the ball rolls and the opponent may kick it.
func (w *World) Step(dt time.Duration) {
	if dt <= 0 {
		return
	}
	s := dt.Seconds()
	w.t += dt
	w.placeBall()
	w.assignRoles()
	for _, r := range w.robots {
		w.stepRobot(r, s)
	}
	w.rollBall(s)
	w.opponent(s)
	w.see()
	w.prev = w.game
}

// placeBall puts the ball where the referee wants it: on the centre mark before
// kick-off, on the spot of a set play when one starts.
func (w *World) placeBall() {
	g, f := w.game, w.cfg.Field
	if !g.Connected {
		return
	}
	switch g.State {
	case dmsgs.GCInfoStateInitial, dmsgs.GCInfoStateReady, dmsgs.GCInfoStateSet, dmsgs.GCInfoStateStandby:
		if w.ball != (ball{}) {
			w.ball = ball{}
			w.stats.Placements++
		}
		return
	case dmsgs.GCInfoStatePlaying:
	default:
		return
	}
	if g.SetPlay == dmsgs.GCInfoSetPlayNone || (w.prev.State == dmsgs.GCInfoStatePlaying && w.prev.SetPlay == g.SetPlay) {
		return
	}
	side := sign(w.ball.pos.Y)
	own := -1.0 // the x sign of the goal the set play is taken near
	pos := w.ball.pos
	switch g.SetPlay {
	case dmsgs.GCInfoSetPlayCornerKick:
		if g.SetPlayOurs {
			own = 1
		}
		pos = Vec{own * f.Length / 2, side * f.Width / 2}
	case dmsgs.GCInfoSetPlayGoalKick:
		if !g.SetPlayOurs {
			own = 1
		}
		pos = Vec{own * (f.Length/2 - f.GoalAreaLength), 0}
	case dmsgs.GCInfoSetPlayPenaltyKick:
		if g.SetPlayOurs {
			own = 1
		}
		pos = Vec{own * (f.Length/2 - f.PenaltyMarkDistance), 0}
	case dmsgs.GCInfoSetPlayThrowIn:
		pos = Vec{pos.X, side * f.Width / 2}
	default: // free kicks are taken where the foul was
		return
	}
	w.ball = ball{pos: pos}
	w.stats.Placements++
}

// assignRoles makes player 1 the goalie, the field player who is quickest to the ball
// the striker (with some hysteresis), the field player with the highest number of the
// rest the supporter and the others defenders. Penalised robots keep their role.
func (w *World) assignRoles() {
	for _, r := range w.robots {
		r.timeToBall = w.timeToBall(r)
	}
	var field []*robot
	for _, r := range w.robots {
		switch {
		case r.ref.Penalised:
		case r.id == 1 && len(w.robots) > 1:
			r.role = dmsgs.BehaviorInfoRoleGoalie
		default:
			field = append(field, r)
		}
	}
	if len(field) == 0 {
		w.striker = 0
		return
	}
	best := field[0]
	for _, r := range field[1:] {
		if r.timeToBall < best.timeToBall {
			best = r
		}
	}
	if cur := w.robot(w.striker); cur == nil || cur.ref.Penalised || (cur.id == 1 && len(w.robots) > 1) ||
		cur.timeToBall > best.timeToBall+strikerHysteresis {
		w.striker = best.id
	}
	var rest []*robot
	for _, r := range field {
		if r.id == w.striker {
			r.role = dmsgs.BehaviorInfoRoleStriker
			continue
		}
		rest = append(rest, r)
	}
	defenders := len(rest)
	if len(rest) >= 2 {
		defenders--
		rest[len(rest)-1].role = dmsgs.BehaviorInfoRoleSupporter
	}
	for i, r := range rest[:defenders] {
		r.role = dmsgs.BehaviorInfoRoleDefender
		r.defender, r.defenders = i, defenders
	}
}

// timeToBall estimates the seconds robot r needs to reach the ball: walking plus
// turning, plus the time to get up, or a large value while penalised.
func (w *World) timeToBall(r *robot) float64 {
	if r.ref.Penalised {
		return 999
	}
	d := w.ball.pos.Sub(r.pose.Pos())
	t := d.Len()/w.cfg.WalkSpeed + math.Abs(NormAngle(d.Angle()-r.pose.Theta))/w.cfg.TurnSpeed
	if r.fallUntil > w.t {
		t += (r.fallUntil - w.t).Seconds() + 2
	}
	return t
}

func (w *World) stepRobot(r *robot, s float64) {
	r.walking = false
	g := r.ref
	if g.Penalised {
		if !r.penalised { // taken off the field to the nearest touchline of our half
			f := w.cfg.Field
			side := sign(r.pose.Y)
			r.pose = Pose{X: clamp(r.pose.X, -f.Length/2+0.5, -0.5), Y: side * f.Width / 2, Theta: -side * math.Pi / 2}
			r.fallUntil, r.kickUntil = 0, 0
		}
		r.penalised = true
		r.play, r.skill, r.target = dmsgs.BehaviorInfoStateInactive, "Penalised", r.pose
		return
	}
	r.penalised = false
	if r.fallUntil > w.t {
		r.play, r.skill = dmsgs.BehaviorInfoStateInactive, "GetUp"
		return
	}
	if r.kickUntil > w.t {
		r.skill = "Kick"
		return
	}
	switch {
	case !g.Connected, g.State == dmsgs.GCInfoStateInitial, g.State == dmsgs.GCInfoStateStandby:
		r.play, r.skill, r.target = dmsgs.BehaviorInfoStateInitializing, "Initial", r.pose
		return
	case g.State == dmsgs.GCInfoStateReady:
		r.target = w.readyPose(r)
		r.play, r.skill = dmsgs.BehaviorInfoStatePlacing, "GoToReadyPosition"
	case g.State == dmsgs.GCInfoStatePlaying && !g.Stopped:
		w.playTarget(r)
	default: // SET, FINISHED, stopped play
		r.play, r.skill, r.target = dmsgs.BehaviorInfoStateInactive, "Stand", r.pose
		return
	}
	w.move(r, s)
	if r.walking && w.cfg.FallRate > 0 && w.rng.Float64() < w.cfg.FallRate*s {
		span := w.cfg.FallMax - w.cfg.FallMin
		r.fallUntil = w.t + w.cfg.FallMin + time.Duration(w.rng.Float64()*float64(span))
		r.fallPitch = 85 * sign(w.rng.Float64()-0.5)
		r.walking, r.play, r.skill = false, dmsgs.BehaviorInfoStateInactive, "GetUp"
		w.stats.Falls++
	}
}

// readyPose is the kick-off position of r's role in our half, facing the other goal.
func (w *World) readyPose(r *robot) Pose {
	f, g := w.cfg.Field, r.ref
	switch r.role {
	case dmsgs.BehaviorInfoRoleGoalie:
		return Pose{X: -f.Length/2 + 0.4}
	case dmsgs.BehaviorInfoRoleStriker:
		if g.KickOff {
			return Pose{X: -approach - 0.15}
		}
		return Pose{X: -f.CentreCircleDiameter/2 - 0.4}
	case dmsgs.BehaviorInfoRoleSupporter:
		return Pose{X: -1.4, Y: 1.3}
	}
	return Pose{X: -f.Length/4 - 0.3, Y: w.spread(r)}
}

// spread is the sideways offset of a defender.
func (w *World) spread(r *robot) float64 {
	return (float64(r.defender) - float64(r.defenders-1)/2) * 1.2
}

// playTarget sets r's target, team-play state and skill in PLAYING, and kicks when the
// ball is at its feet.
func (w *World) playTarget(r *robot) {
	f, g := w.cfg.Field, r.ref
	b := w.ball.pos
	ownGoal := Vec{-f.Length / 2, 0}
	facing := func(p Vec) Pose { return Pose{X: p.X, Y: p.Y, Theta: b.Sub(p).Angle()} }
	near := r.pose.Pos().Dist(b) < HandleDistance
	r.play = dmsgs.BehaviorInfoStatePlaying

	handle := func(kickTo Vec, skill string) {
		dir := kickTo.Sub(b).Unit()
		p := b.Sub(dir.Scale(approach))
		r.target, r.skill = Pose{X: p.X, Y: p.Y, Theta: dir.Angle()}, skill
		if near {
			r.play = dmsgs.BehaviorInfoStateBallHandling
			w.tryKick(r, kickTo)
		}
	}
	switch r.role {
	case dmsgs.BehaviorInfoRoleStriker:
		if w.keepAway(g) {
			r.target, r.skill = facing(b.Add(ownGoal.Sub(b).Unit().Scale(KeepDistance))), "KeepDistance"
			break
		}
		handle(Vec{f.Length / 2, 0}, "GoToBall")
	case dmsgs.BehaviorInfoRoleGoalie:
		inArea := b.X < -f.Length/2+f.PenaltyAreaLength && math.Abs(b.Y) < f.PenaltyAreaWidth/2
		if inArea && !w.keepAway(g) && w.ball.vel.Len() < 0.5 {
			handle(Vec{0, sign(b.Y) * f.Width / 3}, "Clear")
			break
		}
		y := clamp(b.Y*0.4, -(f.GoalWidth/2 - 0.2), f.GoalWidth/2-0.2)
		r.target, r.skill = facing(Vec{-f.Length/2 + 0.35, y}), "Goalie"
	case dmsgs.BehaviorInfoRoleSupporter:
		p := b.Add(Vec{-1.3, -sign(b.Y) * 1.3})
		p = Vec{clamp(p.X, -f.Length/2+1.5, f.Length/2-1), clamp(p.Y, -(f.Width/2 - 0.4), f.Width/2-0.4)}
		r.target, r.skill, r.play = facing(p), "Support", dmsgs.BehaviorInfoStateAssisting
	default:
		p := ownGoal.Add(b.Sub(ownGoal).Scale(0.4))
		p = Vec{clamp(p.X, -f.Length/2+0.8, -0.8), clamp(p.Y+w.spread(r), -(f.Width/2 - 0.4), f.Width/2-0.4)}
		r.target, r.skill = facing(p), "Defend"
	}
	if w.keepAway(g) {
		if p := r.target.Pos(); p.Dist(b) < KeepDistance {
			away := p.Sub(b).Unit()
			if away == (Vec{}) {
				away = ownGoal.Sub(b).Unit()
			}
			r.target = facing(b.Add(away.Scale(KeepDistance)))
		}
	}
	if r.role != dmsgs.BehaviorInfoRoleGoalie && r.play != dmsgs.BehaviorInfoStateBallHandling &&
		(r.lastSeen < 0 || w.t-r.lastSeen > SearchAfter) {
		r.play = dmsgs.BehaviorInfoStateSearching
	}
}

// keepAway reports whether our robots must keep away from the ball: the other team's
// kick-off or set play as the referee r says, or its goal kick after the ball went
// over its goal line.
func (w *World) keepAway(r Referee) bool {
	return r.keepAway() || (r.playing() && w.goalKick > 0)
}

// tryKick kicks the ball towards to when r stands at it, faces that way and the ball
// is in play for us.
func (w *World) tryKick(r *robot, to Vec) {
	g := w.game
	if !g.playing() || w.keepAway(g) || r.kickUntil > w.t || w.ball.vel.Len() > 0.6 {
		return
	}
	b := w.ball.pos
	if r.pose.Pos().Dist(b) > KickReach {
		return
	}
	dir := to.Sub(b).Angle()
	if math.Abs(NormAngle(dir-r.pose.Theta)) > kickAlign {
		return
	}
	speed := w.cfg.KickSpeed * (0.8 + 0.4*w.rng.Float64())
	w.ball.vel = Polar(speed, dir+0.12*w.rng.NormFloat64())
	r.kickUntil, r.lastKick, r.skill = w.t+KickTime, w.t, "Kick"
	w.stats.Kicks++
}

// move walks r towards its target: facing the way it walks while far, turning to the
// target's heading when close, slower when not facing the way.
func (w *World) move(r *robot, s float64) {
	d := r.target.Pos().Sub(r.pose.Pos())
	dist := d.Len()
	want := r.target.Theta
	if dist > 0.4 {
		want = d.Angle()
	}
	turn := clamp(NormAngle(want-r.pose.Theta), -w.cfg.TurnSpeed*s, w.cfg.TurnSpeed*s)
	var step Vec
	if dist > 0.03 {
		factor := 0.5 // sideways and backwards steps near the target
		if dist > 0.4 {
			factor = math.Max(0.2, math.Cos(NormAngle(d.Angle()-r.pose.Theta)))
		}
		step = d.Unit().Scale(math.Min(dist, w.cfg.WalkSpeed*factor*s))
	}
	if step == (Vec{}) && math.Abs(turn) < 1e-3 {
		return
	}
	rel := step.Rotate(-r.pose.Theta)
	r.odom.X += rel.X
	r.odom.Y += rel.Y
	r.odom.Theta += turn
	r.pose = Pose{X: r.pose.X + step.X, Y: r.pose.Y + step.Y, Theta: NormAngle(r.pose.Theta + turn)}
	r.walking = true
}

// rollBall moves the ball while it is in play. A ball over a touchline is put on the
// line, a ball over a goal line on the goal area's edge.
func (w *World) rollBall(s float64) {
	if !w.game.playing() {
		w.ball.vel = Vec{}
		return
	}
	b := &w.ball
	b.pos = b.pos.Add(b.vel.Scale(s))
	b.vel = b.vel.Scale(math.Exp(-s / w.cfg.BallDecay.Seconds()))
	if b.vel.Len() < 0.05 {
		b.vel = Vec{}
	}
	f := w.cfg.Field
	if math.Abs(b.pos.Y) > f.Width/2 {
		*b = ball{pos: Vec{b.pos.X, sign(b.pos.Y) * f.Width / 2}}
		w.stats.Placements++
	}
	if math.Abs(b.pos.X) > f.Length/2 {
		*b = ball{pos: Vec{sign(b.pos.X) * (f.Length/2 - f.GoalAreaLength), 0}}
		w.stats.Placements++
		if b.pos.X > 0 && w.cfg.OpponentRate > 0 {
			w.goalKick = w.t + GoalKickDelay/2 + time.Duration(w.rng.Float64()*float64(GoalKickDelay))
		}
	}
}

// opponent plays for the other team, which has no robots: it takes its goal kicks
// and now and then kicks a free ball in its half back towards our goal.
func (w *World) opponent(s float64) {
	g, f := w.game, w.cfg.Field
	if !g.playing() {
		w.goalKick = 0
		return
	}
	if w.goalKick > 0 {
		if w.t < w.goalKick {
			return
		}
		w.goalKick = 0
		w.kickBack(Vec{-f.Length/2 + 0.5 + 2.5*w.rng.Float64(), (w.rng.Float64()*2 - 1) * f.Width / 3})
		return
	}
	if w.cfg.OpponentRate == 0 || g.ourKick() || w.ball.vel.Len() > 0.15 || w.ball.pos.X < -0.3 {
		return
	}
	for _, r := range w.robots {
		if !r.ref.Penalised && r.pose.Pos().Dist(w.ball.pos) < 0.4 {
			return // one of ours is at the ball
		}
	}
	rate := w.cfg.OpponentRate
	if g.keepAway() {
		rate *= 2
	}
	if w.rng.Float64() >= rate*s {
		return
	}
	w.kickBack(Vec{-f.Length / 2, (w.rng.Float64()*2 - 1) * f.GoalWidth * 0.75})
}

// kickBack kicks the ball for the opponent towards the point to.
func (w *World) kickBack(to Vec) {
	d := to.Sub(w.ball.pos)
	// A ball rolling freely goes speed × BallDecay; aim at the point, give or take.
	speed := d.Len() / w.cfg.BallDecay.Seconds() * (0.8 + 0.4*w.rng.Float64())
	w.ball.vel = Polar(clamp(speed, 1, 3.5), d.Angle())
	w.stats.OpponentKicks++
}

// see updates what every robot sees: the ball within the view distance, unless fallen.
func (w *World) see() {
	for _, r := range w.robots {
		r.sees = r.fallUntil <= w.t && r.pose.Pos().Dist(w.ball.pos) <= w.cfg.ViewDistance
		if r.sees {
			r.lastBall, r.lastSeen = w.ball.pos, w.t
		}
	}
}
