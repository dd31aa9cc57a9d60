package worldinfo

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	wi "github.com/robocup-dnetwork/dnetwork/proto/worldinfo"
)

// Visibility history limits: the 24-bit signed field of the ball word.
const (
	HistoryMin = wi.HistoryMin
	HistoryMax = wi.HistoryMax
)

// Sender keeps what a robot wants to tell and turns it into datagrams (the send half of
// Fawkes' WorldInfoTransceiver). Setters record values and mark them changed;
// [Sender.Send] puts everything changed since the previous Send into one datagram, in
// Fawkes' order, and resets the changed marks, the penalties and the opponent lists.
// Unlike Fawkes, covariances are copied when set, and values that do not fit their
// bit-fields are rejected instead of truncated. It is safe for concurrent use.
type Sender struct {
	cipher *wi.Cipher
	fat    bool
	type10 bool

	mu  sync.Mutex
	seq uint32

	pose        wi.Pose
	vel         wi.Velocity
	relBall     wi.RelBall
	globBall    wi.GlobalBall
	relBallVel  wi.RelBallVelocity
	globBallVel wi.GlobalBallVelocity
	game        wi.GameState // persistent: the game state setters edit parts of it
	changed     uint8        // changed* bits
	penalties   [wi.MaxPenaltyPlayer + 1]wi.Penalty
	penaltySet  uint16 // bit per player
	opponents   []wi.Opponent
	disappeared []wi.OpponentDisappeared

	plain    wi.Builder
	fatPlain wi.Builder
	fatRec   wi.Fat
	out      [2][]byte
	outN     int

	sent, sendErrors, skipped atomic.Uint64
}

const (
	changedPose = 1 << iota
	changedVel
	changedRelBall
	changedGlobBall
	changedRelBallVel
	changedGlobBallVel
	changedGame
)

// NewSender returns a sender for cfg (Key, FatMessage and RelBallAsType10 are used).
func NewSender(cfg Config) (*Sender, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	s := &Sender{cipher: wi.NewCipher(cfg.Key), fat: cfg.FatMessage, type10: cfg.RelBallAsType10}
	for i := range s.out {
		s.out[i] = make([]byte, 0, wi.MaxCiphertext)
	}
	return s, nil
}

func cov3(what string, c []float32) (wi.Cov3, error) {
	var m wi.Cov3
	if len(c) != wi.Cov3Len {
		return m, fmt.Errorf("%w: %s covariance needs %d values (3x3, row-major), got %d",
			wi.ErrCovariance, what, wi.Cov3Len, len(c))
	}
	copy(m[:], c)
	return m, nil
}

func clampHistory(h int) int32 { return int32(min(max(h, HistoryMin), HistoryMax)) }

// SetPose sets the robot's global pose with its 3x3 covariance (9 values, row-major).
func (s *Sender) SetPose(x, y, theta float32, covariance []float32) error {
	c, err := cov3("pose", covariance)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pose = wi.Pose{X: x, Y: y, Theta: theta, Covariance: c}
	s.changed |= changedPose
	return nil
}

// SetVelocity sets the robot's velocity with its 3x3 covariance.
func (s *Sender) SetVelocity(velX, velY, velTheta float32, covariance []float32) error {
	c, err := cov3("velocity", covariance)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.vel = wi.Velocity{VelX: velX, VelY: velY, VelTheta: velTheta, Covariance: c}
	s.changed |= changedVel
	return nil
}

// SetRelBallPos sets the ball position relative to the robot (distance, bearing, slope)
// with its 3x3 covariance. The visibility set by SetRelBallVisible is kept.
func (s *Sender) SetRelBallPos(dist, bearing, slope float32, covariance []float32) error {
	c, err := cov3("relative ball", covariance)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.relBall.Dist, s.relBall.Bearing, s.relBall.Slope, s.relBall.Covariance = dist, bearing, slope, c
	s.changed |= changedRelBall
	return nil
}

// SetRelBallVisible sets the relative ball's visibility and visibility history (positive:
// frames seen in a row, negative: frames not seen). The history saturates at the 24-bit
// field's limits.
func (s *Sender) SetRelBallVisible(visible bool, history int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.relBall.Visible, s.relBall.History = visible, clampHistory(history)
	s.changed |= changedRelBall
}

// SetGlobalBallPos sets the ball position in the field frame with its 3x3 covariance.
func (s *Sender) SetGlobalBallPos(x, y, z float32, covariance []float32) error {
	c, err := cov3("global ball", covariance)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.globBall.X, s.globBall.Y, s.globBall.Z, s.globBall.Covariance = x, y, z, c
	s.changed |= changedGlobBall
	return nil
}

// SetGlobalBallVisible sets the global ball's visibility and history (see
// SetRelBallVisible).
func (s *Sender) SetGlobalBallVisible(visible bool, history int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.globBall.Visible, s.globBall.History = visible, clampHistory(history)
	s.changed |= changedGlobBall
}

// SetRelBallVelocity sets the ball velocity relative to the robot with its covariance.
func (s *Sender) SetRelBallVelocity(velX, velY, velZ float32, covariance []float32) error {
	c, err := cov3("relative ball velocity", covariance)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.relBallVel = wi.RelBallVelocity{VelX: velX, VelY: velY, VelZ: velZ, Covariance: c}
	s.changed |= changedRelBallVel
	return nil
}

// SetGlobalBallVelocity sets the ball velocity in the field frame with its covariance.
func (s *Sender) SetGlobalBallVelocity(velX, velY, velZ float32, covariance []float32) error {
	c, err := cov3("global ball velocity", covariance)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.globBallVel = wi.GlobalBallVelocity{VelX: velX, VelY: velY, VelZ: velZ, Covariance: c}
	s.changed |= changedGlobBallVel
	return nil
}

// SetGameState sets the game state (0..15, see the wi.MSL* and wi.SPL* values) and the
// team it refers to.
func (s *Sender) SetGameState(state int, team wi.Team) error {
	if state < 0 || state > wi.MaxGameState {
		return &wi.RangeError{Field: "game state", Value: int64(state), Max: wi.MaxGameState}
	}
	if team > wi.TeamBoth {
		return &wi.RangeError{Field: "state team", Value: int64(team), Max: 3}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.game.State, s.game.StateTeam = uint8(state), team
	s.changed |= changedGame
	return nil
}

// SetScore sets both teams' scores (0..255 each).
func (s *Sender) SetScore(cyan, magenta int) error {
	for _, v := range [...]struct {
		f string
		v int
	}{{"cyan score", cyan}, {"magenta score", magenta}} {
		if v.v < 0 || v.v > 255 {
			return &wi.RangeError{Field: v.f, Value: int64(v.v), Max: 255}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.game.ScoreCyan, s.game.ScoreMagenta = uint8(cyan), uint8(magenta)
	s.changed |= changedGame
	return nil
}

// SetTeamGoal sets our team colour and the colour of our own goal.
func (s *Sender) SetTeamGoal(team wi.Team, goal wi.GoalColor) error {
	if team > wi.TeamBoth {
		return &wi.RangeError{Field: "our team", Value: int64(team), Max: 3}
	}
	if goal > wi.GoalYellow {
		return &wi.RangeError{Field: "goal color", Value: int64(goal), Max: 1}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.game.OurTeam, s.game.OurGoalColor = team, goal
	s.changed |= changedGame
	return nil
}

// SetHalf sets the half of the game.
func (s *Sender) SetHalf(h wi.Half) error {
	if h > wi.HalfSecond {
		return &wi.RangeError{Field: "half", Value: int64(h), Max: 1}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.game.Half = h
	s.changed |= changedGame
	return nil
}

// AddPenalty adds a penalty record for a player (0..15) to the next datagram; a later call
// for the same player replaces it. Penalties go out in player order.
func (s *Sender) AddPenalty(player int, code wi.PenaltyCode, secondsRemaining int) error {
	switch {
	case player < 0 || player > wi.MaxPenaltyPlayer:
		return &wi.RangeError{Field: "penalty player", Value: int64(player), Max: wi.MaxPenaltyPlayer}
	case code > wi.MaxPenaltyCode:
		return &wi.RangeError{Field: "penalty code", Value: int64(code), Max: wi.MaxPenaltyCode}
	case secondsRemaining < 0 || secondsRemaining > 0xffff:
		return &wi.RangeError{Field: "penalty seconds remaining", Value: int64(secondsRemaining), Max: 0xffff}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.penalties[player] = wi.Penalty{Player: uint8(player), Code: code, SecondsRemaining: uint16(secondsRemaining)}
	s.penaltySet |= 1 << player
	return nil
}

// AddOpponent adds an opponent seen at distance and bearing (0 ahead, positive right)
// with its 2x2 covariance (4 values) to the next datagram. uid must name the same
// opponent across updates and must not be reused after AddDisappearedOpponent.
func (s *Sender) AddOpponent(uid uint32, dist, bearing float32, covariance []float32) error {
	if len(covariance) != wi.Cov2Len {
		return fmt.Errorf("%w: opponent covariance needs %d values (2x2, row-major), got %d",
			wi.ErrCovariance, wi.Cov2Len, len(covariance))
	}
	o := wi.Opponent{UID: uid, Dist: dist, Bearing: bearing}
	copy(o.Covariance[:], covariance)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.opponents = append(s.opponents, o)
	return nil
}

// AddDisappearedOpponent announces in the next datagram that opponent uid is gone.
func (s *Sender) AddDisappearedOpponent(uid uint32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.disappeared = append(s.disappeared, wi.OpponentDisappeared{UID: uid})
}

// ClearOpponents empties the opponent list of the next datagram (Send does so too).
func (s *Sender) ClearOpponents() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.opponents = s.opponents[:0]
}

// Seq returns the sequence number the next datagram will carry.
func (s *Sender) Seq() uint32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seq
}

// SendStats counts the sender's work.
type SendStats struct {
	// Sent counts datagrams handed to the write function without error.
	Sent uint64
	// SendErrors counts datagrams the write function failed to send.
	SendErrors uint64
	// SkippedRecords counts records left out because the datagram was full (1400 bytes).
	SkippedRecords uint64
}

// Stats returns the sender's counters.
func (s *Sender) Stats() SendStats {
	return SendStats{Sent: s.sent.Load(), SendErrors: s.sendErrors.Load(), SkippedRecords: s.skipped.Load()}
}

// Send builds the datagram of everything changed since the last Send, encrypts it, and
// passes it to write; with the fat message enabled a second datagram with the fat record
// follows. Nothing is written when nothing changed. The changed marks, penalties and
// opponent lists are reset whether or not write succeeds. The slices passed to write are
// reused by the next Send.
//
// Records that no longer fit into the 1400-byte datagram are left out (Fawkes throws
// instead); the datagram with the rest is still sent and the error wraps wi.ErrTooLong.
// write errors are returned too, joined with that one.
func (s *Sender) Send(write func(datagram []byte) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	buildErr := s.buildLocked()
	var writeErr error
	for _, d := range s.out[:s.outN] {
		if err := write(d); err != nil {
			s.sendErrors.Add(1)
			writeErr = errors.Join(writeErr, err)
		} else {
			s.sent.Add(1)
		}
	}
	if writeErr != nil {
		return errors.Join(buildErr, fmt.Errorf("worldinfo: send: %w", writeErr))
	}
	return buildErr
}

// buildLocked fills s.out[:s.outN] with the encrypted datagrams and resets the state.
func (s *Sender) buildLocked() error {
	s.outN = 0
	b := &s.plain
	b.Reset(wi.Header{})
	skipped := 0
	var first error
	add := func(t wi.RecordType, m wi.Message) bool {
		err := b.AddAs(t, m)
		if err != nil {
			skipped++
			if first == nil {
				first = err
			}
		}
		return err == nil
	}
	f := &s.fatRec
	*f = wi.Fat{}
	ch := s.changed
	if ch&changedPose != 0 && add(wi.TypePose, &s.pose) {
		f.ValidPose, f.Pose = true, s.pose
	}
	if ch&changedVel != 0 && add(wi.TypeVelocity, &s.vel) {
		f.ValidVelocity, f.Velocity = true, s.vel
	}
	relBallType := wi.TypeRelBall
	if s.type10 {
		relBallType = wi.TypeGlobalBall
	}
	if ch&changedRelBall != 0 && add(relBallType, &s.relBall) {
		f.ValidRelBall, f.RelBall = true, s.relBall
	}
	if ch&changedGlobBall != 0 {
		add(wi.TypeGlobalBall, &s.globBall)
	}
	if ch&changedGame != 0 {
		add(wi.TypeGameState, &s.game)
	}
	if ch&changedRelBallVel != 0 && add(wi.TypeRelBallVelocity, &s.relBallVel) {
		f.ValidRelBallVelocity, f.RelBallVel = true, s.relBallVel
	}
	if ch&changedGlobBallVel != 0 {
		add(wi.TypeGlobalBallVelocity, &s.globBallVel)
	}
	for p := range s.penalties {
		if s.penaltySet&(1<<p) != 0 {
			add(wi.TypePenalty, &s.penalties[p])
		}
	}
	for i := range s.opponents {
		if add(wi.TypeOpponent, &s.opponents[i]) && f.NumOpponents < wi.FatOpponents {
			f.Opponents[f.NumOpponents] = s.opponents[i]
			f.NumOpponents++
		}
	}
	for i := range s.disappeared {
		add(wi.TypeOpponentDisapp, &s.disappeared[i])
	}
	s.changed, s.penaltySet = 0, 0
	s.opponents, s.disappeared = s.opponents[:0], s.disappeared[:0]
	if skipped > 0 {
		s.skipped.Add(uint64(skipped))
		first = fmt.Errorf("worldinfo: %d records left out of a full datagram: %w", skipped, first)
	}
	if b.Records() == 0 {
		return first
	}
	if err := s.sealLocked(b); err != nil {
		return errors.Join(first, err)
	}
	if s.fat {
		s.fatPlain.Reset(wi.Header{})
		if err := s.fatPlain.Add(f); err != nil {
			return errors.Join(first, err)
		}
		if err := s.sealLocked(&s.fatPlain); err != nil {
			return errors.Join(first, err)
		}
	}
	return first
}

func (s *Sender) sealLocked(b *wi.Builder) error {
	b.SetSeq(s.seq)
	out, err := s.cipher.Seal(s.out[s.outN][:0], b.Bytes())
	if err != nil {
		return err
	}
	s.out[s.outN] = out
	s.outN++
	s.seq++
	return nil
}
