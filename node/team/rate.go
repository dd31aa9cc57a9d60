package team

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/robocup-dnetwork/dnetwork/node/units"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
)

// RateConfig holds the intervals of the dynamic send rate. The rule is evaluated on every
// tick; the first matching row wins:
//
//	| condition                                  | interval (default)  |
//	|--------------------------------------------|---------------------|
//	| own team-play state is BALL_HANDLING       | BallHandling 67 ms  |
//	| ball seen closer than NearDistance (1 m)   | BallNear 100 ms     |
//	| ball seen closer than MidDistance (3 m)    | BallMid 200 ms      |
//	| ball seen farther away                     | BallFar 400 ms      |
//	| ball not seen                              | Blind 1 s           |
//
// A robot that hears no teammate at all sends at most every Alone interval (0 = off), whatever
// the row: nobody listens but the GameController, which counts the messages. Distances are
// those of the ball relative to the robot, in metres.
type RateConfig struct {
	BallHandling time.Duration
	BallNear     time.Duration
	BallMid      time.Duration
	BallFar      time.Duration
	Blind        time.Duration
	Alone        time.Duration
	NearDistance float64
	MidDistance  float64
}

// DefaultRateConfig returns the intervals used by ZJUDancer robots: 15, 10, 5, 2.5 and 1 Hz.
func DefaultRateConfig() RateConfig {
	return RateConfig{
		BallHandling: 67 * time.Millisecond,
		BallNear:     100 * time.Millisecond,
		BallMid:      200 * time.Millisecond,
		BallFar:      400 * time.Millisecond,
		Blind:        time.Second,
		NearDistance: 1.0,
		MidDistance:  3.0,
	}
}

// RateInput is what the rate rule looks at.
type RateInput struct {
	BallHandling bool    // team-play state is BALL_HANDLING
	SeeBall      bool    // vision sees the ball
	BallDistance float64 // metres from the robot to the ball; NaN counts as far
	MatesOnline  int     // teammates heard recently, not counting ourselves
}

// Tier names the row of the rate table that matched.
type Tier uint8

// Rows of the rate table, in the order they are tried, and the Alone floor.
const (
	TierBallHandling Tier = iota
	TierBallNear
	TierBallMid
	TierBallFar
	TierBlind
	// TierAlone: no teammate is online and the Alone interval is longer than the row's.
	TierAlone
)

func (t Tier) String() string {
	switch t {
	case TierBallHandling:
		return "ball handling"
	case TierBallNear:
		return "ball near"
	case TierBallMid:
		return "ball mid"
	case TierBallFar:
		return "ball far"
	case TierAlone:
		return "alone"
	case TierBlind:
		return "blind"
	}
	return "tier(" + strconv.Itoa(int(t)) + ")"
}

// Interval returns the send interval for the given situation.
func (c RateConfig) Interval(in RateInput) time.Duration {
	iv, _ := c.Choose(in)
	return iv
}

// Choose returns the send interval for the given situation and the row that gave it.
func (c RateConfig) Choose(in RateInput) (iv time.Duration, tier Tier) {
	tier = TierBallHandling
	if !in.BallHandling {
		tier = c.ballTier(in)
	}
	switch tier {
	case TierBallHandling:
		iv = c.BallHandling
	case TierBallNear:
		iv = c.BallNear
	case TierBallMid:
		iv = c.BallMid
	case TierBallFar:
		iv = c.BallFar
	default:
		iv = c.Blind
	}
	if c.Alone > iv && in.MatesOnline == 0 {
		return c.Alone, TierAlone
	}
	return iv, tier
}

// ballTier is the row the ball gives, ball handling aside: near, mid, far (NaN too) or
// blind.
func (c RateConfig) ballTier(in RateInput) Tier {
	switch {
	case !in.SeeBall:
		return TierBlind
	case in.BallDistance < c.NearDistance:
		return TierBallNear
	case in.BallDistance < c.MidDistance:
		return TierBallMid
	}
	return TierBallFar
}

// Longest returns the longest interval the table can choose.
func (c RateConfig) Longest() time.Duration {
	return max(c.BallHandling, c.BallNear, c.BallMid, c.BallFar, c.Blind, c.Alone)
}

// Validate reports intervals that are not positive (Alone may be 0: off) and distances
// that are not ordered.
func (c RateConfig) Validate() error {
	var errs []error
	for _, f := range []struct {
		name string
		v    time.Duration
	}{{"BallHandling", c.BallHandling}, {"BallNear", c.BallNear}, {"BallMid", c.BallMid},
		{"BallFar", c.BallFar}, {"Blind", c.Blind}} {
		if f.v <= 0 {
			errs = append(errs, fmt.Errorf("team: rate interval %s must be positive, got %v", f.name, f.v))
		}
	}
	if c.Alone < 0 {
		errs = append(errs, fmt.Errorf("team: rate interval Alone must be 0 (off) or positive, got %v", c.Alone))
	}
	if !(c.NearDistance > 0 && c.NearDistance <= c.MidDistance) || math.IsInf(c.MidDistance, 0) {
		errs = append(errs, fmt.Errorf("team: rate distances must satisfy 0 < NearDistance <= MidDistance < Inf, got %v and %v",
			c.NearDistance, c.MidDistance))
	}
	return errors.Join(errs...)
}

// Scheduler decides on which tick a packet is due.
//
// The original node compared "now - last >= interval" on a 30 Hz tick, which rounds every
// interval up to a whole number of ticks: 67 ms took three ticks (100 ms, so the "15 Hz"
// mode really sent at 10 Hz) and jitter could add a fourth. Scheduler instead rounds the
// interval to the nearest whole number of ticks (at least one): a packet is due once
// now - last >= interval - tick/2. The budget's allowance is a ceiling instead: Interval
// rounds its interval up, so 8.78 msg/s allowed (113.9 ms) sends every 4 ticks (7.5
// msg/s), never every 3 (10 msg/s). With a 30 Hz tick this gives 67 ms -> 2 ticks
// (15 Hz), 100 ms -> 3, 200 ms -> 6, 400 ms -> 12 and 1 s -> 30 ticks, each exact and
// free of jitter as long as the ticks themselves are regular.
type Scheduler struct {
	Tick time.Duration // tick period of the caller's loop
	last time.Time
	sent bool
}

// Due reports whether a packet with the given interval is due at now. A clock that went
// back before the last send (a simulation reset) makes it due, as before the first.
func (s *Scheduler) Due(now time.Time, interval time.Duration) bool {
	if !s.sent || now.Before(s.last) {
		return true
	}
	return now.Sub(s.last) >= s.Effective(interval)-s.Tick/2
}

// Effective returns the interval rounded to whole ticks, as Due applies it.
func (s *Scheduler) Effective(interval time.Duration) time.Duration {
	if s.Tick <= 0 {
		return interval
	}
	n := math.Round(float64(interval) / float64(s.Tick))
	if n < 1 {
		n = 1
	}
	return time.Duration(n) * s.Tick
}

// Ceil returns the interval rounded up to whole ticks (at least one): the budget's
// allowance is a ceiling on the rate, so its interval is never shortened.
func (s *Scheduler) Ceil(interval time.Duration) time.Duration {
	if s.Tick <= 0 {
		return interval
	}
	// A part per million below a whole tick counts as whole: Second/30 is 33 333 333 ns,
	// so 30 ticks fall 10 ns short of the second they stand for.
	n := max(math.Ceil(float64(interval)/float64(s.Tick)-1e-6), 1)
	return time.Duration(n) * s.Tick
}

// Interval returns the send interval in force for the rate row's interval and the
// budget's lower bound minInterval (0: none): the rate row rounded to the nearest whole
// tick, the budget's bound rounded up, whichever is longer. So the rate never exceeds
// the budget's allowance.
func (s *Scheduler) Interval(rate, minInterval time.Duration) time.Duration {
	iv := s.Effective(rate)
	if minInterval > 0 {
		iv = max(iv, s.Ceil(minInterval))
	}
	return iv
}

// Sent records that a packet left at now.
func (s *Scheduler) Sent(now time.Time) {
	s.last, s.sent = now, true
}

// Reset forgets the last send, so the next Due is true.
func (s *Scheduler) Reset() { s.sent = false }

// BallRateInput is the part of RateInput the robot's inputs give: ball handling
// (BehaviorInfo's team_play_state), whether vision sees the ball and its distance
// (VisionInfo's see_ball and ball_field, cm).
func BallRateInput(playState uint8, seeBall bool, ballFieldX, ballFieldY float64) RateInput {
	return RateInput{
		BallHandling: playState == uint8(teaminfo.PlayBallHandling),
		SeeBall:      seeBall,
		BallDistance: units.Metres(math.Hypot(ballFieldX, ballFieldY)),
	}
}

// Key is what the rate rule reads of the robot's inputs: ball handling, and the row the
// ball gives (ballTier). The send plan changes with an input only when the key does: an
// input that leaves the key as it was may be handled late (package inputwake).
func (c RateConfig) Key(in RateInput) [2]uint8 {
	var k [2]uint8
	if in.BallHandling {
		k[0] = 1
	}
	k[1] = uint8(c.ballTier(in))
	return k
}
