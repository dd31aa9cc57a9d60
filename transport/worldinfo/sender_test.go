package worldinfo

import (
	"bytes"
	"errors"
	"testing"

	wi "github.com/robocup-dnetwork/dnetwork/proto/worldinfo"
)

func newSender(t *testing.T, cfg Config) *Sender {
	t.Helper()
	s, err := NewSender(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestSenderGolden drives the setters with the values of the codec's vectors and checks
// the datagrams against the ciphertexts OpenSSL made.
func TestSenderGolden(t *testing.T) {
	vs := loadVectors(t)
	diag := func(v float32) []float32 { return []float32{v, 0, 0, 0, v, 0, 0, 0, v} }
	for _, tc := range []struct {
		name  string
		cfg   Config
		seq   uint32
		set   func(s *Sender)
		which int // index of the datagram to compare (1 = fat)
	}{
		{"pose", Config{}, 0, func(s *Sender) { must(t, s.SetPose(1, 2, 0.5, zero9)) }, 0},
		{"velocity", Config{}, 2, func(s *Sender) { must(t, s.SetVelocity(0.5, -0.5, 1, diag(0.25))) }, 0},
		{"relative_ball", Config{}, 3, func(s *Sender) {
			must(t, s.SetRelBallPos(2, 0.5, -0.25, diag(0.5)))
			s.SetRelBallVisible(true, 5)
		}, 0},
		{"relative_ball_velocity", Config{}, 4, func(s *Sender) { must(t, s.SetRelBallVelocity(1, 0, -1, zero9)) }, 0},
		{"opponent", Config{}, 5, func(s *Sender) { must(t, s.AddOpponent(7, 3, -0.5, []float32{1, 0, 0, 1})) }, 0},
		{"opponent_disappeared", Config{}, 6, func(s *Sender) { s.AddDisappearedOpponent(0x01020304) }, 0},
		{"fat", Config{FatMessage: true}, 6, func(s *Sender) {
			must(t, s.SetPose(1, 2, 0.5, zero9))
			must(t, s.SetVelocity(0.5, -0.5, 1, zero9))
			must(t, s.AddOpponent(1, 1, 0, zero4))
			must(t, s.AddOpponent(2, 2, 0.5, zero4))
		}, 1},
		{"game_state", Config{}, 8, func(s *Sender) {
			must(t, s.SetGameState(3, wi.TeamCyan))
			must(t, s.SetScore(2, 1))
			must(t, s.SetTeamGoal(wi.TeamCyan, wi.GoalBlue))
			must(t, s.SetHalf(wi.HalfSecond))
		}, 0},
		{"penalty", Config{}, 9, func(s *Sender) { must(t, s.AddPenalty(3, wi.PenaltyReqForPickup, 30)) }, 0},
		{"global_ball", Config{}, 10, func(s *Sender) {
			s.SetGlobalBallVisible(false, -3)
			must(t, s.SetGlobalBallPos(1.5, -1, 0, zero9))
		}, 0},
		{"global_ball_velocity", Config{}, 11, func(s *Sender) { must(t, s.SetGlobalBallVelocity(0.25, 0.5, 0, zero9)) }, 0},
		{"full_update", Config{}, 12, func(s *Sender) {
			// Set in a different order than sent: Send imposes Fawkes' order.
			must(t, s.AddOpponent(1, 1, 0, zero4))
			must(t, s.AddPenalty(3, wi.PenaltyReqForPickup, 30))
			must(t, s.SetGameState(3, wi.TeamCyan))
			must(t, s.SetScore(2, 1))
			must(t, s.SetTeamGoal(wi.TeamCyan, wi.GoalBlue))
			must(t, s.SetHalf(wi.HalfSecond))
			must(t, s.AddOpponent(2, 2, 0.5, zero4))
			s.SetRelBallVisible(true, 5)
			must(t, s.SetRelBallPos(2, 0.5, -0.25, zero9))
			must(t, s.SetVelocity(0.5, -0.5, 1, zero9))
			must(t, s.SetPose(1, 2, 0.5, zero9))
			must(t, s.AddOpponent(3, 3, -0.5, zero4))
		}, 0},
		{"fawkes_type10_pair", Config{RelBallAsType10: true}, 13, func(s *Sender) {
			s.SetGlobalBallVisible(false, -3)
			must(t, s.SetGlobalBallPos(1.5, -1, 0, zero9))
			must(t, s.SetRelBallPos(2, 0.5, -0.25, zero9))
			s.SetRelBallVisible(true, 5)
		}, 0},
		{"key16", Config{Key: "0123456789abcdef"}, 6, func(s *Sender) { s.AddDisappearedOpponent(0x01020304) }, 0},
		{"key_long", Config{Key: "a key string longer than sixteen bytes"}, 6, func(s *Sender) { s.AddDisappearedOpponent(0x01020304) }, 0},
	} {
		s := newSender(t, tc.cfg)
		s.seq = tc.seq
		tc.set(s)
		var out [][]byte
		if err := s.Send(collect(&out)); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		want := vs[tc.name].cipher
		if len(out) <= tc.which || !bytes.Equal(out[tc.which], want) {
			t.Errorf("%s: sent %d datagrams\n got % x\nwant % x", tc.name, len(out), out, want)
		}
		if got, want := s.Stats().Sent, uint64(len(out)); got != want {
			t.Errorf("%s: Sent = %d, want %d", tc.name, got, want)
		}
		// Everything was reset: the next Send sends nothing.
		out = out[:0]
		if err := s.Send(collect(&out)); err != nil || len(out) != 0 {
			t.Errorf("%s: second Send sent %d datagrams, %v", tc.name, len(out), err)
		}
	}
}

// open decrypts and walks a datagram the sender produced.
func open(t *testing.T, ct []byte) (wi.Header, []wi.Message) {
	t.Helper()
	plain, err := wi.NewCipher(wi.DefaultKey).Open(nil, ct)
	if err != nil {
		t.Fatal(err)
	}
	h, r, err := wi.Parse(plain)
	if err != nil {
		t.Fatal(err)
	}
	var ms []wi.Message
	for rec, ok := r.Next(); ok; rec, ok = r.Next() {
		m, err := rec.Message()
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
	return h, ms
}

func TestSenderSequenceAndReset(t *testing.T) {
	s := newSender(t, Config{})
	var out [][]byte
	must(t, s.Send(collect(&out)))
	if len(out) != 0 || s.Seq() != 0 {
		t.Fatalf("empty update sent %d datagrams, seq now %d", len(out), s.Seq())
	}
	must(t, s.SetGameState(wi.SPLPlay, wi.TeamMagenta))
	must(t, s.AddOpponent(1, 1, 1, zero4))
	must(t, s.AddPenalty(2, wi.PenaltyManual, 10))
	must(t, s.AddPenalty(1, wi.PenaltyDamage, 5))
	must(t, s.AddPenalty(2, wi.PenaltyLeaving, 20)) // replaces player 2's
	must(t, s.Send(collect(&out)))
	must(t, s.SetScore(1, 0)) // the game state word persists across sends
	must(t, s.Send(collect(&out)))
	if len(out) != 2 {
		t.Fatalf("sent %d datagrams, want 2", len(out))
	}
	h, ms := open(t, out[0])
	want := []wi.Message{
		&wi.GameState{State: wi.SPLPlay, StateTeam: wi.TeamMagenta},
		&wi.Penalty{Player: 1, Code: wi.PenaltyDamage, SecondsRemaining: 5},
		&wi.Penalty{Player: 2, Code: wi.PenaltyLeaving, SecondsRemaining: 20},
		&wi.Opponent{UID: 1, Dist: 1, Bearing: 1},
	}
	if h.Seq != 0 || len(ms) != len(want) {
		t.Fatalf("first datagram seq %d, %d records", h.Seq, len(ms))
	}
	for i := range want {
		if !equalMsg(ms[i], want[i]) {
			t.Errorf("record %d = %+v, want %+v", i, ms[i], want[i])
		}
	}
	h, ms = open(t, out[1])
	if h.Seq != 1 || len(ms) != 1 || !equalMsg(ms[0], &wi.GameState{State: wi.SPLPlay, StateTeam: wi.TeamMagenta, ScoreCyan: 1}) {
		t.Errorf("second datagram seq %d records %+v", h.Seq, ms)
	}
	// ClearOpponents empties the list before Send.
	out = out[:0]
	must(t, s.AddOpponent(9, 1, 1, zero4))
	s.ClearOpponents()
	must(t, s.Send(collect(&out)))
	if len(out) != 0 || s.Seq() != 2 {
		t.Errorf("after ClearOpponents sent %d datagrams, seq %d", len(out), s.Seq())
	}
}

func equalMsg(a, b wi.Message) bool {
	x, err1 := a.MarshalBinary()
	y, err2 := b.MarshalBinary()
	return err1 == nil && err2 == nil && a.RecordType() == b.RecordType() && bytes.Equal(x, y)
}

func TestSenderCovarianceErrors(t *testing.T) {
	s := newSender(t, Config{})
	for name, err := range map[string]error{
		"pose nil":        s.SetPose(1, 1, 1, nil),
		"pose short":      s.SetPose(1, 1, 1, make([]float32, 8)),
		"pose long":       s.SetPose(1, 1, 1, make([]float32, 10)),
		"velocity":        s.SetVelocity(1, 1, 1, make([]float32, 4)),
		"rel ball":        s.SetRelBallPos(1, 1, 1, make([]float32, 3)),
		"global ball":     s.SetGlobalBallPos(1, 1, 1, nil),
		"rel ball vel":    s.SetRelBallVelocity(1, 1, 1, make([]float32, 1)),
		"global ball vel": s.SetGlobalBallVelocity(1, 1, 1, make([]float32, 16)),
		"opponent":        s.AddOpponent(1, 1, 1, make([]float32, 3)),
		"opponent 3x3":    s.AddOpponent(1, 1, 1, zero9),
	} {
		if !errors.Is(err, wi.ErrCovariance) {
			t.Errorf("%s: err %v, want ErrCovariance", name, err)
		}
	}
	var out [][]byte
	must(t, s.Send(collect(&out)))
	if len(out) != 0 {
		t.Errorf("rejected values were sent")
	}
}

func TestSenderRangeErrors(t *testing.T) {
	s := newSender(t, Config{})
	for name, err := range map[string]error{
		"state 16":      s.SetGameState(16, wi.TeamNone),
		"state -1":      s.SetGameState(-1, wi.TeamNone),
		"state team":    s.SetGameState(1, 4),
		"score cyan":    s.SetScore(256, 0),
		"score magenta": s.SetScore(0, -1),
		"our team":      s.SetTeamGoal(4, wi.GoalBlue),
		"goal":          s.SetTeamGoal(wi.TeamCyan, 2),
		"half":          s.SetHalf(2),
		"player 16":     s.AddPenalty(16, wi.PenaltyNone, 0),
		"player -1":     s.AddPenalty(-1, wi.PenaltyNone, 0),
		"code":          s.AddPenalty(1, 64, 0),
		"seconds":       s.AddPenalty(1, wi.PenaltyManual, 65536),
	} {
		var re *wi.RangeError
		if !errors.As(err, &re) {
			t.Errorf("%s: err %v, want RangeError", name, err)
		}
	}
	var out [][]byte
	must(t, s.Send(collect(&out)))
	if len(out) != 0 {
		t.Errorf("rejected values were sent")
	}
	// The visibility history saturates.
	s.SetRelBallVisible(true, 1<<30)
	s.SetGlobalBallVisible(false, -(1 << 30))
	must(t, s.Send(collect(&out)))
	_, ms := open(t, out[0])
	if len(ms) != 2 || ms[0].(*wi.RelBall).History != HistoryMax || ms[1].(*wi.GlobalBall).History != HistoryMin {
		t.Errorf("saturated histories: %+v", ms)
	}
}

func TestSenderFullDatagram(t *testing.T) {
	s := newSender(t, Config{FatMessage: true})
	must(t, s.SetPose(1, 2, 3, zero9))
	for i := range 50 { // 8 + 52 + 50*32 > 1400
		must(t, s.AddOpponent(uint32(i), 1, 0, zero4))
	}
	s.AddDisappearedOpponent(77)
	var out [][]byte
	err := s.Send(collect(&out))
	if !errors.Is(err, wi.ErrTooLong) {
		t.Fatalf("err %v, want ErrTooLong", err)
	}
	if len(out) != 2 {
		t.Fatalf("sent %d datagrams, want the slim and the fat one", len(out))
	}
	_, ms := open(t, out[0])
	// 8 + 52 = 60; 42 opponents (1344) make 1404 > 1400, so 41 fit (1372), and the
	// disappeared record (8 bytes) still fits after them: 1380.
	if len(ms) != 1+41+1 || ms[42].RecordType() != wi.TypeOpponentDisapp {
		t.Errorf("%d records in the datagram", len(ms))
	}
	if got := s.Stats().SkippedRecords; got != 9 {
		t.Errorf("SkippedRecords = %d, want 9", got)
	}
	h, fat := open(t, out[1])
	f := fat[0].(*wi.Fat)
	if h.Seq != 1 || !f.ValidPose || f.ValidVelocity || f.NumOpponents != wi.FatOpponents || f.Opponents[9].UID != 9 {
		t.Errorf("fat datagram seq %d: %+v", h.Seq, f)
	}
}

func TestSenderWriteError(t *testing.T) {
	s := newSender(t, Config{})
	must(t, s.SetPose(1, 2, 3, zero9))
	boom := errors.New("boom")
	if err := s.Send(func([]byte) error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("err %v, want boom", err)
	}
	var out [][]byte
	must(t, s.Send(collect(&out)))
	if st := s.Stats(); st.SendErrors != 1 || st.Sent != 0 || len(out) != 0 || s.Seq() != 1 {
		t.Errorf("stats %+v, resent %d, seq %d", st, len(out), s.Seq())
	}
}
