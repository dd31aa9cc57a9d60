package worldinfo

import (
	"net/netip"

	wi "github.com/robocup-dnetwork/dnetwork/proto/worldinfo"
)

// Handler receives the records of accepted datagrams, one call per record (Fawkes'
// WorldInfoHandler). from is the sender's address. Handlers run on the receiving
// goroutine, one after another in registration order, and must not block.
//
// A fat record is delivered as its valid parts: Pose, Velocity, RelBall,
// RelBallVelocity and one Opponent call per valid opponent.
type Handler interface {
	Pose(from netip.Addr, p wi.Pose)
	Velocity(from netip.Addr, v wi.Velocity)
	RelBall(from netip.Addr, b wi.RelBall)
	GlobalBall(from netip.Addr, b wi.GlobalBall)
	RelBallVelocity(from netip.Addr, v wi.RelBallVelocity)
	GlobalBallVelocity(from netip.Addr, v wi.GlobalBallVelocity)
	Opponent(from netip.Addr, o wi.Opponent)
	OpponentDisappeared(from netip.Addr, uid uint32)
	GameState(from netip.Addr, g wi.GameState)
	Penalty(from netip.Addr, p wi.Penalty)
}

// Funcs adapts functions to a [Handler]; nil fields ignore their records. Register a
// *Funcs:
//
//	t.AddHandler(&worldinfo.Funcs{OnPose: func(from netip.Addr, p wi.Pose) { ... }})
type Funcs struct {
	OnPose                func(from netip.Addr, p wi.Pose)
	OnVelocity            func(from netip.Addr, v wi.Velocity)
	OnRelBall             func(from netip.Addr, b wi.RelBall)
	OnGlobalBall          func(from netip.Addr, b wi.GlobalBall)
	OnRelBallVelocity     func(from netip.Addr, v wi.RelBallVelocity)
	OnGlobalBallVelocity  func(from netip.Addr, v wi.GlobalBallVelocity)
	OnOpponent            func(from netip.Addr, o wi.Opponent)
	OnOpponentDisappeared func(from netip.Addr, uid uint32)
	OnGameState           func(from netip.Addr, g wi.GameState)
	OnPenalty             func(from netip.Addr, p wi.Penalty)
}

var _ Handler = (*Funcs)(nil)

// Pose calls OnPose if set.
func (f *Funcs) Pose(from netip.Addr, p wi.Pose) {
	if f.OnPose != nil {
		f.OnPose(from, p)
	}
}

// Velocity calls OnVelocity if set.
func (f *Funcs) Velocity(from netip.Addr, v wi.Velocity) {
	if f.OnVelocity != nil {
		f.OnVelocity(from, v)
	}
}

// RelBall calls OnRelBall if set.
func (f *Funcs) RelBall(from netip.Addr, b wi.RelBall) {
	if f.OnRelBall != nil {
		f.OnRelBall(from, b)
	}
}

// GlobalBall calls OnGlobalBall if set.
func (f *Funcs) GlobalBall(from netip.Addr, b wi.GlobalBall) {
	if f.OnGlobalBall != nil {
		f.OnGlobalBall(from, b)
	}
}

// RelBallVelocity calls OnRelBallVelocity if set.
func (f *Funcs) RelBallVelocity(from netip.Addr, v wi.RelBallVelocity) {
	if f.OnRelBallVelocity != nil {
		f.OnRelBallVelocity(from, v)
	}
}

// GlobalBallVelocity calls OnGlobalBallVelocity if set.
func (f *Funcs) GlobalBallVelocity(from netip.Addr, v wi.GlobalBallVelocity) {
	if f.OnGlobalBallVelocity != nil {
		f.OnGlobalBallVelocity(from, v)
	}
}

// Opponent calls OnOpponent if set.
func (f *Funcs) Opponent(from netip.Addr, o wi.Opponent) {
	if f.OnOpponent != nil {
		f.OnOpponent(from, o)
	}
}

// OpponentDisappeared calls OnOpponentDisappeared if set.
func (f *Funcs) OpponentDisappeared(from netip.Addr, uid uint32) {
	if f.OnOpponentDisappeared != nil {
		f.OnOpponentDisappeared(from, uid)
	}
}

// GameState calls OnGameState if set.
func (f *Funcs) GameState(from netip.Addr, g wi.GameState) {
	if f.OnGameState != nil {
		f.OnGameState(from, g)
	}
}

// Penalty calls OnPenalty if set.
func (f *Funcs) Penalty(from netip.Addr, p wi.Penalty) {
	if f.OnPenalty != nil {
		f.OnPenalty(from, p)
	}
}
