package worldinfo

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	wi "github.com/robocup-dnetwork/dnetwork/proto/worldinfo"
)

// vector is an entry of the codec's OpenSSL-made test vectors.
type vector struct {
	key           string
	plain, cipher []byte
}

func loadVectors(tb testing.TB) map[string]vector {
	tb.Helper()
	f, err := os.Open(filepath.Join("..", "..", "proto", "worldinfo", "testdata", "vectors.txt"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	vs := map[string]vector{}
	var name string
	var v vector
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 8192), 1<<16)
	for sc.Scan() {
		field, rest, _ := strings.Cut(sc.Text(), " ")
		switch field {
		case "name":
			name, v = rest, vector{}
		case "key":
			v.key = rest
		case "plain":
			v.plain, err = hex.DecodeString(strings.TrimSpace(rest))
		case "cipher":
			v.cipher, err = hex.DecodeString(rest)
			vs[name] = v
		}
		if err != nil {
			tb.Fatalf("%s: %v", name, err)
		}
	}
	if len(vs) == 0 {
		tb.Fatal("no vectors")
	}
	return vs
}

func mustHex(tb testing.TB, s string) []byte {
	tb.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// seal encrypts a plaintext with the default key.
func seal(tb testing.TB, plain []byte) []byte {
	tb.Helper()
	ct, err := wi.NewCipher(wi.DefaultKey).Seal(nil, plain)
	if err != nil {
		tb.Fatal(err)
	}
	return ct
}

// datagram builds an encrypted datagram with header seq and the given record bytes.
func datagram(tb testing.TB, seq uint32, records string) []byte {
	tb.Helper()
	return seal(tb, mustHex(tb, fmt.Sprintf("beef0200 %08x %s", seq, records)))
}

type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *fakeClock {
	return &fakeClock{t: time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// event is one handler call.
type event struct {
	from netip.Addr
	kind string
	msg  any
}

// recorder is a Handler that records every call.
type recorder struct {
	mu     sync.Mutex
	events []event
}

func (r *recorder) add(from netip.Addr, kind string, msg any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, event{from, kind, msg})
}

func (r *recorder) take() []event {
	r.mu.Lock()
	defer r.mu.Unlock()
	ev := r.events
	r.events = nil
	return ev
}

func (r *recorder) kinds() []string {
	var ks []string
	for _, e := range r.take() {
		ks = append(ks, e.kind)
	}
	return ks
}

func (r *recorder) Pose(from netip.Addr, p wi.Pose)         { r.add(from, "pose", p) }
func (r *recorder) Velocity(from netip.Addr, v wi.Velocity) { r.add(from, "velocity", v) }
func (r *recorder) RelBall(from netip.Addr, b wi.RelBall)   { r.add(from, "rel_ball", b) }
func (r *recorder) GlobalBall(from netip.Addr, b wi.GlobalBall) {
	r.add(from, "global_ball", b)
}
func (r *recorder) RelBallVelocity(from netip.Addr, v wi.RelBallVelocity) {
	r.add(from, "rel_ball_velocity", v)
}
func (r *recorder) GlobalBallVelocity(from netip.Addr, v wi.GlobalBallVelocity) {
	r.add(from, "global_ball_velocity", v)
}
func (r *recorder) Opponent(from netip.Addr, o wi.Opponent) { r.add(from, "opponent", o) }
func (r *recorder) OpponentDisappeared(from netip.Addr, uid uint32) {
	r.add(from, "opponent_disappeared", uid)
}
func (r *recorder) GameState(from netip.Addr, g wi.GameState) { r.add(from, "game_state", g) }
func (r *recorder) Penalty(from netip.Addr, p wi.Penalty)     { r.add(from, "penalty", p) }

var (
	zero9 = make([]float32, 9)
	zero4 = make([]float32, 4)
	peerA = netip.MustParseAddr("10.0.0.1")
	peerB = netip.MustParseAddr("10.0.0.2")
)

// collect returns a write function that keeps copies of the datagrams.
func collect(out *[][]byte) func([]byte) error {
	return func(b []byte) error {
		*out = append(*out, append([]byte(nil), b...))
		return nil
	}
}
