package worldinfo

import (
	"errors"
	"net/netip"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	wi "github.com/robocup-dnetwork/dnetwork/proto/worldinfo"
)

func newReceiver(t *testing.T, cfg Config) (*Receiver, *recorder, *fakeClock) {
	t.Helper()
	clk := newClock()
	if cfg.Now == nil {
		cfg.Now = clk.Now
	}
	r, err := NewReceiver(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	must(t, r.AddHandler(rec))
	return r, rec, clk
}

const gsRecord = "0008 0004 93404002"

func checkInvariant(t *testing.T, r *Receiver) {
	t.Helper()
	if st := r.Stats(); st.Datagrams != st.Accepted+st.Dropped() {
		t.Errorf("Datagrams %d != Accepted %d + Dropped %d: %+v", st.Datagrams, st.Accepted, st.Dropped(), st)
	}
}

// TestReceiveSequence is the sequence part of the receive-rule tests (one sender IP).
func TestReceiveSequence(t *testing.T) {
	r, rec, clk := newReceiver(t, Config{FlushAfter: 5 * time.Second})
	steps := []struct {
		from netip.Addr
		seq  uint32
		want error
	}{
		{peerA, 5, nil},
		{peerA, 5, ErrStale},
		{peerA, 4, ErrStale},
		{peerA, 6, nil},
		{peerB, 0, nil}, // another sender has its own numbers
		{peerA, 0, ErrStale},
		{netip.MustParseAddr("::ffff:10.0.0.1"), 6, ErrStale}, // IPv4-mapped is the same sender
	}
	for i, s := range steps {
		err := r.Receive(s.from, datagram(t, s.seq, gsRecord))
		if !errors.Is(err, s.want) || (s.want == nil && err != nil) {
			t.Fatalf("step %d (%v seq %d): err %v, want %v", i, s.from, s.seq, err, s.want)
		}
	}
	if got := len(rec.take()); got != 3 {
		t.Errorf("%d records delivered, want 3", got)
	}
	// Silent for exactly 5 s: still remembered. Longer: forgotten, seq 0 accepted.
	clk.Advance(5 * time.Second)
	if err := r.Receive(peerA, datagram(t, 0, gsRecord)); !errors.Is(err, ErrStale) {
		t.Fatalf("after 5 s: %v, want ErrStale", err)
	}
	clk.Advance(time.Millisecond)
	if err := r.Receive(peerA, datagram(t, 0, gsRecord)); err != nil {
		t.Fatalf("after 5.001 s: %v, want accepted", err)
	}
	if err := r.Receive(peerA, datagram(t, 0, gsRecord)); !errors.Is(err, ErrStale) {
		t.Fatalf("replay after flush: %v, want ErrStale", err)
	}
	st := r.Stats()
	if st.Stale != 6 || st.Accepted != 4 || st.Flushed < 1 {
		t.Errorf("stats %+v", st)
	}
	checkInvariant(t, r)
}

func TestFlushSequenceNumbers(t *testing.T) {
	r, _, clk := newReceiver(t, Config{})
	must(t, r.Receive(peerA, datagram(t, 9, gsRecord)))
	clk.Advance(3 * time.Second)
	must(t, r.Receive(peerB, datagram(t, 9, gsRecord)))
	clk.Advance(3 * time.Second)
	if n := r.FlushSequenceNumbers(5 * time.Second); n != 1 || r.Senders() != 1 {
		t.Fatalf("flushed %d, %d senders left; want 1 and 1", n, r.Senders())
	}
	must(t, r.Receive(peerA, datagram(t, 0, gsRecord)))
	if err := r.Receive(peerB, datagram(t, 0, gsRecord)); !errors.Is(err, ErrStale) {
		t.Fatalf("B was not flushed: %v", err)
	}
	// The default FlushAfter is 10 s, and Receive sweeps silent senders by itself.
	clk.Advance(10*time.Second + time.Millisecond)
	must(t, r.Receive(netip.MustParseAddr("10.0.0.3"), datagram(t, 0, gsRecord)))
	if r.Senders() != 1 {
		t.Errorf("%d senders after the sweep, want 1", r.Senders())
	}
	// A negative FlushAfter never forgets.
	r2, _, clk2 := newReceiver(t, Config{FlushAfter: -1})
	must(t, r2.Receive(peerA, datagram(t, 3, gsRecord)))
	clk2.Advance(24 * time.Hour)
	if err := r2.Receive(peerA, datagram(t, 0, gsRecord)); !errors.Is(err, ErrStale) {
		t.Errorf("FlushAfter -1 forgot the sender: %v", err)
	}
}

// TestSequenceAfterClockWentBack: the clock goes back (a restarted simulation under
// use_sim_time, or a stepped clock) and a sender restarts, numbering from 0 again. How
// long it was silent cannot be told, so its old number is forgotten as after FlushAfter
// and its datagrams are heard, rather than dropped as stale until the clock catches up
// with its last datagram.
func TestSequenceAfterClockWentBack(t *testing.T) {
	r, _, clk := newReceiver(t, Config{FlushAfter: 5 * time.Second})
	must(t, r.Receive(peerA, datagram(t, 500, gsRecord)))
	clk.Advance(-10 * time.Minute)
	if err := r.Receive(peerA, datagram(t, 0, gsRecord)); err != nil {
		t.Fatalf("restarted sender after the clock went back 10 min: %v, want accepted", err)
	}
	if err := r.Receive(peerA, datagram(t, 0, gsRecord)); !errors.Is(err, ErrStale) {
		t.Errorf("replay after the clock went back: %v, want ErrStale", err)
	}
	checkInvariant(t, r)
}

func TestMaxSenders(t *testing.T) {
	r, _, clk := newReceiver(t, Config{MaxSenders: 2})
	must(t, r.Receive(peerA, datagram(t, 0, gsRecord)))
	must(t, r.Receive(peerB, datagram(t, 0, gsRecord)))
	c := netip.MustParseAddr("10.0.0.3")
	if err := r.Receive(c, datagram(t, 0, gsRecord)); !errors.Is(err, ErrTooManySenders) {
		t.Fatalf("third sender: %v", err)
	}
	must(t, r.Receive(peerA, datagram(t, 1, gsRecord))) // known senders go on
	clk.Advance(11 * time.Second)
	must(t, r.Receive(c, datagram(t, 0, gsRecord)))
	if st := r.Stats(); st.TooManySenders != 1 || st.Accepted != 4 {
		t.Errorf("stats %+v", st)
	}
	checkInvariant(t, r)
	if _, err := NewReceiver(Config{MaxSenders: -1}); !errors.Is(err, ErrConfig) {
		t.Errorf("MaxSenders -1: %v", err)
	}
	if _, err := NewReceiver(Config{Group: netip.MustParseAddrPort("10.1.1.1:2806")}); !errors.Is(err, ErrConfig) {
		t.Errorf("unicast group: %v", err)
	}
}

// TestReceiveDrops covers the datagram-level drop rules.
func TestReceiveDrops(t *testing.T) {
	c := wi.NewCipher(wi.DefaultKey)
	sealOr := func(plain []byte) []byte {
		ct, err := c.Seal(nil, plain)
		if err != nil {
			t.Fatal(err)
		}
		return ct
	}
	// A 1408-byte ciphertext with one byte of padding decrypts to 1407 bytes (> 1400).
	lng := make([]byte, 0, wi.MaxCiphertext)
	for i := 0; i < wi.MaxCiphertext; i += wi.BlockSize {
		blk := make([]byte, wi.BlockSize)
		if i == 0 {
			copy(blk, mustHex(t, "beef0200 00000001"))
		}
		if i+wi.BlockSize == wi.MaxCiphertext {
			blk[15] = 1
		}
		lng = append(lng, blk...)
	}
	lngCT := encryptRaw(t, lng)

	wrongKey, err := wi.NewCipher("AllemaniACsX0ry").Seal(nil, mustHex(t, "beef0200 00000001"+gsRecord))
	must(t, err)
	for _, tc := range []struct {
		name string
		cfg  Config
		from netip.Addr
		b    []byte
		want error
		n    func(RecvStats) uint64
	}{
		{"loopback off", Config{}, netip.MustParseAddr("127.0.0.1"), datagram(t, 1, gsRecord), ErrLoopback,
			func(s RecvStats) uint64 { return s.Loopback }},
		{"empty", Config{}, peerA, nil, wi.ErrCipherLength, func(s RecvStats) uint64 { return s.CipherLength }},
		{"length 17", Config{}, peerA, make([]byte, 17), wi.ErrCipherLength, func(s RecvStats) uint64 { return s.CipherLength }},
		{"length 47", Config{}, peerA, datagram(t, 1, gsRecord+"00000000 00000000 00000000 00000000")[:47], wi.ErrCipherLength,
			func(s RecvStats) uint64 { return s.CipherLength }},
		{"oversize", Config{}, peerA, make([]byte, wi.RecvBufferSize+16), ErrOversize, func(s RecvStats) uint64 { return s.Oversize }},
		{"plaintext > 1400", Config{}, peerA, lngCT, wi.ErrTooLong, func(s RecvStats) uint64 { return s.TooLong }},
		{"plaintext < 8", Config{}, peerA, sealOr(mustHex(t, "beef0200 0000")), wi.ErrShort, func(s RecvStats) uint64 { return s.Short }},
		{"empty plaintext", Config{}, peerA, sealOr(nil), wi.ErrShort, func(s RecvStats) uint64 { return s.Short }},
		{"magic", Config{}, peerA, sealOr(mustHex(t, "beee0200 00000001"+gsRecord)), wi.ErrMagic, func(s RecvStats) uint64 { return s.Magic }},
		{"version 1", Config{}, peerA, sealOr(mustHex(t, "beef0100 00000001"+gsRecord)), wi.ErrVersion, func(s RecvStats) uint64 { return s.Version }},
		{"version 3", Config{}, peerA, sealOr(mustHex(t, "beef0300 00000001"+gsRecord)), wi.ErrVersion, func(s RecvStats) uint64 { return s.Version }},
		{"wrong key", Config{}, peerA, wrongKey, wi.ErrPadding, func(s RecvStats) uint64 { return s.Padding }},
		{"other key configured", Config{Key: "something else!!"}, peerA, datagram(t, 1, gsRecord), wi.ErrPadding,
			func(s RecvStats) uint64 { return s.Padding }},
	} {
		r, rec, _ := newReceiver(t, tc.cfg)
		err := r.Receive(tc.from, tc.b)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: err %v, want %v", tc.name, err, tc.want)
		}
		st := r.Stats()
		if tc.n(st) != 1 || st.Dropped() != 1 || st.Accepted != 0 || len(rec.take()) != 0 || r.Senders() != 0 {
			t.Errorf("%s: stats %+v", tc.name, st)
		}
		checkInvariant(t, r)
	}
	// Loopback on accepts 127.0.0.1; other addresses never count as loopback.
	r, rec, _ := newReceiver(t, Config{Loop: true})
	must(t, r.Receive(netip.MustParseAddr("127.0.0.1"), datagram(t, 1, gsRecord)))
	r2, _, _ := newReceiver(t, Config{})
	must(t, r2.Receive(netip.MustParseAddr("127.0.0.2"), datagram(t, 1, gsRecord)))
	if len(rec.take()) != 1 {
		t.Error("loopback on: nothing delivered")
	}
	// A reserved header byte of any value is accepted.
	must(t, r2.Receive(peerA, seal(t, mustHex(t, "beef02ff 00000001"+gsRecord))))
}

// encryptRaw encrypts whole blocks without adding padding (the plaintext carries its own).
func encryptRaw(t *testing.T, plain []byte) []byte {
	t.Helper()
	// Seal of all but the last block, plus the padding block Seal appends, is not what we
	// want; instead seal plain[:len-1] when its last byte is the 0x01 pad: PKCS#7 then adds
	// exactly that byte.
	if plain[len(plain)-1] != 1 {
		t.Fatal("encryptRaw needs a plaintext ending in 0x01")
	}
	c := wi.NewCipher(wi.DefaultKey)
	out := make([]byte, 0, len(plain))
	// Seal rejects more than 1400 bytes, so encrypt the leading blocks through a block-
	// sized Seal each and drop its padding block.
	for i := 0; i < len(plain); i += wi.BlockSize {
		ct, err := c.Seal(nil, plain[i:i+wi.BlockSize])
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ct[:wi.BlockSize]...)
	}
	return out
}

// TestReceiveRecordRules: records of wrong size or unknown type are skipped, a truncated
// record ends the datagram, the records around them are used.
func TestReceiveRecordRules(t *testing.T) {
	pose44 := "0001 002c 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000"
	unknown := "0063 0008 01020304 05060708"
	penalty := "0009 0004 73001e00"
	for _, tc := range []struct {
		name  string
		recs  string
		kinds []string
		st    RecvStats
	}{
		{"pose size 44", pose44 + gsRecord, []string{"game_state"}, RecvStats{SizeMismatch: 1, Records: 1}},
		{"type 99 size 8", penalty + unknown + gsRecord, []string{"penalty", "game_state"}, RecvStats{UnknownType: 1, Records: 2}},
		{"pose 48 with 40 left", gsRecord + "0001 0030" + " 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000",
			[]string{"game_state"}, RecvStats{Truncated: 1, Records: 1}},
		{"2 stray bytes", gsRecord + penalty + "0001", []string{"game_state", "penalty"}, RecvStats{Truncated: 1, Records: 2}},
		{"no records", "", nil, RecvStats{}},
	} {
		r, rec, _ := newReceiver(t, Config{})
		if err := r.Receive(peerA, datagram(t, 1, tc.recs)); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := rec.kinds(); !slices.Equal(got, tc.kinds) {
			t.Errorf("%s: delivered %v, want %v", tc.name, got, tc.kinds)
		}
		st := r.Stats()
		got := RecvStats{SizeMismatch: st.SizeMismatch, UnknownType: st.UnknownType, Truncated: st.Truncated, Records: st.Records}
		if got != tc.st || st.Accepted != 1 {
			t.Errorf("%s: stats %+v, want %+v", tc.name, got, tc.st)
		}
	}
}

// TestRoundTrip sends every kind of record through a Sender and checks what a Receiver's
// handler gets.
func TestRoundTrip(t *testing.T) {
	s := newSender(t, Config{})
	cov := []float32{1, 2, 3, 4, 5, 6, 7, 8, 9}
	must(t, s.SetPose(1, 2, 3, cov))
	must(t, s.SetVelocity(4, 5, 6, cov))
	must(t, s.SetRelBallPos(7, 8, 9, cov))
	s.SetRelBallVisible(true, -12)
	must(t, s.SetGlobalBallPos(10, 11, 12, cov))
	s.SetGlobalBallVisible(true, 99)
	must(t, s.SetRelBallVelocity(13, 14, 15, cov))
	must(t, s.SetGlobalBallVelocity(16, 17, 18, cov))
	must(t, s.SetGameState(wi.MSLKickOff, wi.TeamMagenta))
	must(t, s.AddPenalty(5, wi.PenaltyObstruction, 45))
	must(t, s.AddOpponent(42, 2.5, -1, []float32{1, 2, 3, 4}))
	s.AddDisappearedOpponent(41)
	var out [][]byte
	must(t, s.Send(collect(&out)))

	r, rec, _ := newReceiver(t, Config{})
	must(t, r.Receive(peerA, out[0]))
	c3 := wi.Cov3{1, 2, 3, 4, 5, 6, 7, 8, 9}
	want := []event{
		{peerA, "pose", wi.Pose{X: 1, Y: 2, Theta: 3, Covariance: c3}},
		{peerA, "velocity", wi.Velocity{VelX: 4, VelY: 5, VelTheta: 6, Covariance: c3}},
		{peerA, "rel_ball", wi.RelBall{Visible: true, History: -12, Dist: 7, Bearing: 8, Slope: 9, Covariance: c3}},
		{peerA, "global_ball", wi.GlobalBall{Visible: true, History: 99, X: 10, Y: 11, Z: 12, Covariance: c3}},
		{peerA, "game_state", wi.GameState{State: wi.MSLKickOff, StateTeam: wi.TeamMagenta}},
		{peerA, "rel_ball_velocity", wi.RelBallVelocity{VelX: 13, VelY: 14, VelZ: 15, Covariance: c3}},
		{peerA, "global_ball_velocity", wi.GlobalBallVelocity{VelX: 16, VelY: 17, VelZ: 18, Covariance: c3}},
		{peerA, "penalty", wi.Penalty{Player: 5, Code: wi.PenaltyObstruction, SecondsRemaining: 45}},
		{peerA, "opponent", wi.Opponent{UID: 42, Dist: 2.5, Bearing: -1, Covariance: wi.Cov2{1, 2, 3, 4}}},
		{peerA, "opponent_disappeared", uint32(41)},
	}
	if got := rec.take(); !reflect.DeepEqual(got, want) {
		t.Errorf("delivered\n%+v\nwant\n%+v", got, want)
	}
}

// TestType10 covers the Fawkes relative ball sent as type 10, in both receive modes and
// against a bug-compatible sender.
func TestType10(t *testing.T) {
	s := newSender(t, Config{RelBallAsType10: true})
	must(t, s.SetRelBallPos(2, 0.5, -0.25, zero9))
	s.SetRelBallVisible(true, 5)
	must(t, s.SetGlobalBallPos(1.5, -1, 0, zero9))
	var out [][]byte
	must(t, s.Send(collect(&out)))
	must(t, s.SetRelBallPos(2, 0.5, -0.25, zero9)) // alone: ambiguous
	must(t, s.Send(collect(&out)))

	_, ms := open(t, out[0])
	if len(ms) != 2 || ms[0].RecordType() != wi.TypeGlobalBall || ms[1].RecordType() != wi.TypeGlobalBall {
		t.Fatalf("bug-compatible sender wrote %+v", ms)
	}
	rel := wi.RelBall{Visible: true, History: 5, Bearing: 0.5, Dist: 2, Slope: -0.25}
	glob := wi.GlobalBall{History: 0, X: 1.5, Y: -1}
	r, rec, _ := newReceiver(t, Config{})
	must(t, r.Receive(peerA, out[0]))
	must(t, r.Receive(peerA, out[1]))
	got := rec.take()
	want := []event{{peerA, "rel_ball", rel}, {peerA, "global_ball", glob},
		{peerA, "global_ball", wi.GlobalBall{Visible: true, History: 5, X: 0.5, Y: 2, Z: -0.25}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("delivered\n%+v\nwant\n%+v", got, want)
	}
	if r.Stats().Type10Pairs != 1 {
		t.Errorf("Type10Pairs = %d", r.Stats().Type10Pairs)
	}

	r2, rec2, _ := newReceiver(t, Config{Type10AsGlobal: true})
	must(t, r2.Receive(peerA, out[0]))
	if got := rec2.kinds(); !slices.Equal(got, []string{"global_ball", "global_ball"}) {
		t.Errorf("Type10AsGlobal delivered %v", got)
	}
}

func TestFatReceive(t *testing.T) {
	vs := loadVectors(t)
	r, rec, _ := newReceiver(t, Config{})
	must(t, r.Receive(peerA, vs["fat"].cipher))
	want := []string{"pose", "velocity", "opponent", "opponent"}
	if got := rec.kinds(); !slices.Equal(got, want) {
		t.Errorf("fat delivered %v, want %v", got, want)
	}
	// num_opponents 11: parts delivered, opponents ignored.
	plain := slices.Clone(vs["fat"].plain)
	plain[7] = 8 // seq 8
	// Flags word 0x000000b3: valid pose and velocity, num_opponents (bits 4-11) = 11.
	plain[12], plain[13] = 0xb3, 0x00
	must(t, r.Receive(peerA, seal(t, plain)))
	if got := rec.kinds(); !slices.Equal(got, []string{"pose", "velocity"}) {
		t.Errorf("fat with 11 opponents delivered %v", got)
	}
	if r.Stats().FatOpponents != 1 {
		t.Errorf("FatOpponents = %d", r.Stats().FatOpponents)
	}
	// A fat sender's two datagrams deliver everything twice (slim, then fat), as in Fawkes.
	s := newSender(t, Config{FatMessage: true})
	must(t, s.SetRelBallPos(1, 2, 3, zero9))
	must(t, s.SetRelBallVelocity(1, 2, 3, zero9))
	var out [][]byte
	must(t, s.Send(collect(&out)))
	r2, rec2, _ := newReceiver(t, Config{})
	for _, d := range out {
		must(t, r2.Receive(peerB, d))
	}
	want = []string{"rel_ball", "rel_ball_velocity", "rel_ball", "rel_ball_velocity"}
	if got := rec2.kinds(); !slices.Equal(got, want) {
		t.Errorf("slim+fat delivered %v, want %v", got, want)
	}
}

// TestHandlerFanOut: every handler gets every record, in registration order; duplicates
// are ignored, removal works, also from inside a callback.
func TestHandlerFanOut(t *testing.T) {
	r, first, _ := newReceiver(t, Config{})
	var order []string
	var mu sync.Mutex
	note := func(s string) {
		mu.Lock()
		defer mu.Unlock()
		order = append(order, s)
	}
	second := &Funcs{OnGameState: func(netip.Addr, wi.GameState) { note("second") },
		OnPenalty: func(netip.Addr, wi.Penalty) { note("second-penalty") }}
	var third *Funcs
	third = &Funcs{OnGameState: func(netip.Addr, wi.GameState) {
		note("third")
		r.RemoveHandler(third) // removing itself during dispatch
	}}
	must(t, r.AddHandler(second))
	must(t, r.AddHandler(third))
	must(t, r.AddHandler(second)) // duplicate: ignored
	must(t, r.Receive(peerA, datagram(t, 1, gsRecord+" 0009 0004 73001e00")))
	if got := first.kinds(); !slices.Equal(got, []string{"game_state", "penalty"}) {
		t.Errorf("first handler got %v", got)
	}
	if want := []string{"second", "third", "second-penalty"}; !slices.Equal(order, want) {
		t.Errorf("order %v, want %v", order, want)
	}
	order = nil
	r.RemoveHandler(first)
	r.RemoveHandler(first) // harmless
	r.RemoveHandler(&Funcs{})
	must(t, r.Receive(peerA, datagram(t, 2, gsRecord)))
	if got := first.kinds(); len(got) != 0 || !slices.Equal(order, []string{"second"}) {
		t.Errorf("after removal: first %v, order %v", got, order)
	}
	// Handlers must be comparable.
	if err := r.AddHandler(nil); !errors.Is(err, ErrHandler) {
		t.Errorf("AddHandler(nil): %v", err)
	}
	if err := r.AddHandler(sliceHandler{}); !errors.Is(err, ErrHandler) {
		t.Errorf("AddHandler(non-comparable): %v", err)
	}
	r.RemoveHandler(sliceHandler{}) // must not panic
}

// sliceHandler is a Handler of a non-comparable type.
type sliceHandler struct {
	*Funcs
	_ []int
}

// TestReceiveConcurrent runs receives, handler changes and flushes at once (for -race).
func TestReceiveConcurrent(t *testing.T) {
	r, rec, _ := newReceiver(t, Config{})
	var wg sync.WaitGroup
	const perSender = 50
	for i := range 4 {
		from := netip.AddrFrom4([4]byte{10, 0, 1, byte(i)})
		wg.Go(func() {
			for seq := range uint32(perSender) {
				if err := r.Receive(from, datagram(t, seq, gsRecord)); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Go(func() {
		for range 50 {
			h := &Funcs{}
			if err := r.AddHandler(h); err != nil {
				t.Error(err)
			}
			r.RemoveHandler(h)
			r.FlushSequenceNumbers(time.Hour)
		}
	})
	wg.Wait()
	if got := len(rec.take()); got != 4*perSender {
		t.Errorf("%d records delivered, want %d", got, 4*perSender)
	}
	checkInvariant(t, r)
}
