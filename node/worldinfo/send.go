package worldinfo

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/node/units"
	wi "github.com/robocup-dnetwork/dnetwork/proto/worldinfo"
)

// zero covariances: the inputs carry no uncertainty.
var (
	zero9 = make([]float32, wi.Cov3Len)
	zero4 = make([]float32, wi.Cov2Len)
)

// obstacle is an obstacle with its robot-relative position in metres and distance.
type obstacle struct {
	rel  point
	dist float64
}

// cycle runs one send cycle at the clock time now.
func (c *Component) cycle(now time.Time) {
	defer c.cycles.Add(1) // last, so that a test seeing the count sees the datagram too
	c.forgetSenders(now)
	c.inputSync.Sync()
	c.in.copyTo(&c.snap)
	if c.fill(now, &c.snap) == 0 {
		c.emptyCycles.Add(1)
		return
	}
	if err := c.tx.Send(c.write); err != nil {
		c.warn("send", "worldinfo: send failed", "group", c.cfg.Group, "err", err)
	}
}

// fill hands the snapshot's values to the sender and returns how many records it set.
func (c *Component) fill(now time.Time, s *snapshot) int {
	cfg := &c.cfg
	n := 0
	set := func(err error) {
		if err != nil {
			c.setErrors.Add(1)
			c.warn("set", "worldinfo: value rejected", "err", err)
			return
		}
		n++
	}
	fr := frame{flip: s.attackLeft && !cfg.IgnoreAttackSide, mirror: !cfg.ROSFrameOnWire}
	v := &s.vision
	visionFresh := v.valid && clock.Within(now, v.at, cfg.InputTimeout)
	poseOK := visionFresh && (v.locOK || cfg.PoseWithoutLoc)
	if poseOK && !finite(v.robot[:]...) {
		c.invalidInputs.Add(1)
		poseOK = false
	}
	heading := units.Radians(v.robot[2]) // robot's field frame, counter-clockwise
	if poseOK {
		x, y := fr.fieldPoint(units.Metres(v.robot[0]), units.Metres(v.robot[1]))
		set(c.tx.SetPose(float32(x), float32(y), float32(fr.heading(heading)), zero9))
	}

	if vx, vy, w, ok := c.velocity(now, s); ok && poseOK {
		vx, vy = rotate(vx, vy, heading)
		vx, vy = fr.fieldPoint(vx, vy)
		set(c.tx.SetVelocity(float32(vx), float32(vy), float32(fr.rate(w)), zero9))
	}

	if visionFresh && v.ballSeen {
		bf, bg := v.ballField, v.ballGlobal
		if finite(bf.x, bf.y) {
			dist, bearing := fr.polar(units.Metres(bf.x), units.Metres(bf.y))
			set(c.tx.SetRelBallPos(float32(dist), float32(bearing), 0, zero9))
			c.tx.SetRelBallVisible(v.seeBall, v.history)
		} else {
			c.invalidInputs.Add(1)
		}
		if poseOK && finite(bg.x, bg.y) {
			x, y := fr.fieldPoint(units.Metres(bg.x), units.Metres(bg.y))
			set(c.tx.SetGlobalBallPos(float32(x), float32(y), 0, zero9))
			c.tx.SetGlobalBallVisible(v.seeBall, v.history)
		} else if poseOK {
			c.invalidInputs.Add(1)
		}
	}

	n += c.opponents(visionFresh, poseOK, heading, fr, v)

	if c.game != nil {
		if g, ok := c.game.WorldInfoGame(); ok {
			f, known := toFawkes(g)
			if !known {
				c.warn("gamestate", "worldinfo: unknown GameController state, game state not sent", "state", g.State)
			} else {
				set(c.tx.SetGameState(f.state, f.stateTeam))
				set(c.tx.SetScore(f.cyan, f.magenta))
				set(c.tx.SetTeamGoal(f.ourTeam, f.goal))
				set(c.tx.SetHalf(f.half))
				if cfg.PlayerNumber > 0 {
					set(c.tx.AddPenalty(cfg.PlayerNumber, f.penalty, f.secs))
				}
			}
		}
	}
	return n
}

// velocity returns the robot-frame velocity over the odometry samples since the last
// cycle (see the package documentation) and moves the window on.
func (c *Component) velocity(now time.Time, s *snapshot) (fwd, left, w float64, ok bool) {
	cur, base := s.motion, c.odoBase
	switch {
	case !cur.valid || !clock.Within(now, s.motionAt, c.cfg.InputTimeout):
		c.odoBase = odoSample{}
		return 0, 0, 0, false
	case !base.valid || base.stamped != cur.stamped || cur.t.Before(base.t):
		c.odoBase = cur
		return 0, 0, 0, false
	case cur.t.Equal(base.t): // no new sample since the last cycle
		return 0, 0, 0, false
	}
	c.odoBase = cur
	if cur.t.Sub(base.t) > 2*c.cfg.Interval+c.cfg.InputTimeout {
		return 0, 0, 0, false
	}
	return odoVelocity(base, cur)
}

// opponents adds the nearest obstacles with their tracked uids and the disappeared
// uids to the next datagram and returns how many records it added.
func (c *Component) opponents(visionFresh, poseOK bool, heading float64, fr frame, v *visionState) int {
	if !visionFresh {
		gone := c.trk.reset()
		for _, uid := range gone {
			c.tx.AddDisappearedOpponent(uid)
		}
		return len(gone)
	}
	c.near = c.near[:0]
	if v.seeObstacle {
		for _, o := range v.obstacles {
			if !finite(o.x, o.y) {
				c.invalidInputs.Add(1)
				continue
			}
			rel := point{units.Metres(o.x), units.Metres(o.y)}
			c.near = append(c.near, obstacle{rel: rel, dist: math.Hypot(rel.x, rel.y)})
		}
	}
	slices.SortStableFunc(c.near, func(a, b obstacle) int { return cmp.Compare(a.dist, b.dist) })
	c.near = c.near[:min(len(c.near), c.cfg.MaxOpponents)]
	c.obs = c.obs[:0]
	for _, o := range c.near {
		p := o.rel
		if poseOK { // match in the field frame: robust to the robot turning
			x, y := rotate(p.x, p.y, heading)
			p = point{units.Metres(v.robot[0]) + x, units.Metres(v.robot[1]) + y}
		}
		c.obs = append(c.obs, p)
	}
	uids, gone := c.trk.update(c.obs, poseOK, c.cfg.OpponentGate)
	n := 0
	for i, o := range c.near {
		dist, bearing := fr.polar(o.rel.x, o.rel.y)
		if err := c.tx.AddOpponent(uids[i], float32(dist), float32(bearing), zero4); err != nil {
			c.setErrors.Add(1)
			continue
		}
		n++
	}
	for _, uid := range gone {
		c.tx.AddDisappearedOpponent(uid)
	}
	return n + len(gone)
}
