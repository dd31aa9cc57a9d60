package gamecontroller

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/geometry_msgs"
)

// nextReturn advances a second (one return tick at the default rate) while the
// GameController sends p at 5 Hz, and returns the return packet sent meanwhile.
func (h *harness) nextReturn(p *gcproto.Packet) []byte {
	h.t.Helper()
	b, _ := h.nextReturnAt(p)
	return b
}

// nextReturnAt is nextReturn that also returns the time the packet was sent: on the
// tick's timer, or earlier on a GameController packet that took the tick
// (idletick.Ticker.Early).
func (h *harness) nextReturnAt(p *gcproto.Packet) ([]byte, time.Time) {
	h.t.Helper()
	n := len(h.returns())
	var at time.Time
	note := func() {
		if at.IsZero() && len(h.returns()) > n {
			at = h.clk.Now()
		}
	}
	for range 5 {
		h.send(gcA, p)
		note()
		h.advance(200 * time.Millisecond)
		note()
	}
	sent := h.returns()
	if len(sent) != n+1 {
		h.t.Fatalf("%d return packets in 1 s, want 1", len(sent)-n)
	}
	return sent[n].Payload, at
}

// age is the ball age a return packet sent at at gives a ball seen at seen.
func age(at, seen time.Time) float32 { return float32(at.Sub(seen).Seconds()) }

// TestReturnV4 checks the 32-byte packet byte by byte: defaults before any input, then
// fallen, pose and ball from MotionInfo and VisionInfo, and the ball age.
func TestReturnV4(t *testing.T) {
	h := newHarness(t, nil)
	p := basePacket(gcproto.LayoutHSL20)

	if got, want := h.nextReturn(&p), returnV4(ourPlayer, ourTeam, 0, [3]float32{}, -1, [2]float32{}); !bytes.Equal(got, want) {
		t.Fatalf("without inputs:\n got % x\nwant % x", got, want)
	}

	// t = 1 s: fallen, localised at (150 cm, -75 cm, 90°), ball 30 cm ahead, 40 cm right.
	seen := h.clk.Now()
	h.c.SetMotion(&dmsgs.MotionInfo{Stable: false})
	h.c.SetVision(&dmsgs.VisionInfo{
		SeeBall:   true,
		RobotPos:  geometry_msgs.Vector3{X: 150, Y: -75, Z: 90},
		BallField: geometry_msgs.Vector3{X: 30, Y: -40},
	})
	pose := [3]float32{1500, -750, float32(math.Pi / 2)}
	ball := [2]float32{300, -400}
	if got, at := h.nextReturnAt(&p); !bytes.Equal(got, returnV4(ourPlayer, ourTeam, 1, pose, age(at, seen), ball)) {
		t.Fatalf("fallen, ball seen %v ago:\n got % x\nwant % x", at.Sub(seen), got, returnV4(ourPlayer, ourTeam, 1, pose, age(at, seen), ball))
	}

	// t = 2 s: standing again, moved; the ball is no longer seen: its last position
	// stays and ages.
	h.c.SetMotion(&dmsgs.MotionInfo{Stable: true})
	h.c.SetVision(&dmsgs.VisionInfo{
		RobotPos:  geometry_msgs.Vector3{X: -10, Y: 20, Z: -180},
		BallField: geometry_msgs.Vector3{X: 999, Y: 999},
	})
	pose = [3]float32{-100, 200, float32(-math.Pi)}
	if got, at := h.nextReturnAt(&p); !bytes.Equal(got, returnV4(ourPlayer, ourTeam, 0, pose, age(at, seen), ball)) {
		t.Fatalf("ball last seen %v ago:\n got % x\nwant % x", at.Sub(seen), got, returnV4(ourPlayer, ourTeam, 0, pose, age(at, seen), ball))
	}

	// Non-finite inputs are sent as 0 so the GameController accepts the packet.
	seen = h.clk.Now()
	h.c.SetVision(&dmsgs.VisionInfo{
		SeeBall:   true,
		RobotPos:  geometry_msgs.Vector3{X: math.NaN(), Y: math.Inf(1), Z: 1e300},
		BallField: geometry_msgs.Vector3{X: math.Inf(-1), Y: 5},
	})
	h.c.SetMotion(nil)
	h.c.SetVision(nil)
	got, at := h.nextReturnAt(&p)
	if want := returnV4(ourPlayer, ourTeam, 0, [3]float32{}, age(at, seen), [2]float32{0, 50}); !bytes.Equal(got, want) {
		t.Fatalf("non-finite inputs:\n got % x\nwant % x", got, want)
	}
	var r gcproto.ReturnPacket
	if err := r.UnmarshalBinary(got); err != nil {
		t.Fatalf("the GameController's rules reject our packet: %v", err)
	}
	st := h.c.Status()
	if !bytes.Equal(st.LastReturnBytes, got) || st.LastReturn != at ||
		st.LastReturnTo != netip.MustParseAddrPort("10.0.0.1:3939") || st.ReturnsSent != 4 || st.ReturnErrors != 0 {
		t.Errorf("status of the last return: %+v", st)
	}
	h.checkInvariant()
}

// TestReturnV2Messages: ALIVE by default; a requested message goes out once.
func TestReturnV2Messages(t *testing.T) {
	h := newHarness(t, nil)
	p := basePacket(gcproto.LayoutHL688)
	if got, want := h.nextReturn(&p), returnV2(ourTeam, ourPlayer, 2); !bytes.Equal(got, want) {
		t.Fatalf("alive:\n got % x\nwant % x", got, want)
	}
	for _, m := range []gcproto.ReturnMessage{gcproto.MsgManPenalise, gcproto.MsgManUnpenalise, gcproto.MsgGoalkeeper, gcproto.MsgGameInterruptionReady} {
		if err := h.c.RequestMessage(m); err != nil {
			t.Fatal(err)
		}
		if got, want := h.nextReturn(&p), returnV2(ourTeam, ourPlayer, byte(m)); !bytes.Equal(got, want) {
			t.Errorf("request %d:\n got % x\nwant % x", m, got, want)
		}
		if got, want := h.nextReturn(&p), returnV2(ourTeam, ourPlayer, 2); !bytes.Equal(got, want) {
			t.Errorf("after request %d:\n got % x\nwant % x", m, got, want)
		}
	}
	if err := h.c.RequestMessage(5); !errors.Is(err, ErrMessage) {
		t.Errorf("message 5: %v", err)
	}

	// A request that fails to send is kept for the next packet.
	h.conn.SendErr = errors.New("network down")
	if err := h.c.RequestMessage(gcproto.MsgManPenalise); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		h.send(gcA, &p)
		h.advance(200 * time.Millisecond)
	}
	if st := h.c.Status(); st.ReturnErrors != 1 {
		t.Fatalf("return errors %d, want 1", st.ReturnErrors)
	}
	if len(h.logs.lines("sending the return packet failed", "network down")) != 1 {
		t.Errorf("no warning about the failed send:\n%s", h.logs)
	}
	h.conn.SendErr = nil
	if got, want := h.nextReturn(&p), returnV2(ourTeam, ourPlayer, 0); !bytes.Equal(got, want) {
		t.Errorf("request after a failed send:\n got % x\nwant % x", got, want)
	}
}

// TestReturnV3AndOverride: SPL v12/v13 get v3 with ALIVE = 0 (requests are dropped with
// a warning); Config.ReturnVersion overrides the choice.
func TestReturnV3AndOverride(t *testing.T) {
	h := newHarness(t, nil)
	p := basePacket(gcproto.LayoutSPL13)
	if err := h.c.RequestMessage(gcproto.MsgGoalkeeper); err != nil {
		t.Fatal(err)
	}
	if got, want := h.nextReturn(&p), returnV3(ourTeam, ourPlayer); !bytes.Equal(got, want) {
		t.Fatalf("v3:\n got % x\nwant % x", got, want)
	}
	if len(h.logs.lines("request dropped", "message=goalkeeper")) != 1 {
		t.Errorf("no warning about the dropped request:\n%s", h.logs)
	}

	h2 := newHarness(t, func(c *Config) { c.ReturnVersion = gcproto.ReturnVersion })
	p = basePacket(gcproto.LayoutHL688)
	if got, want := h2.nextReturn(&p), returnV4(ourPlayer, ourTeam, 0, [3]float32{}, -1, [2]float32{}); !bytes.Equal(got, want) {
		t.Fatalf("forced v4 to HL:\n got % x\nwant % x", got, want)
	}
}

// TestReturnRate: exactly one return packet per period, each within half a period of
// its own instant of the ticker's grid (a GameController packet takes the tick that is
// due, idletick.Ticker.Early), however fast the GameController sends; none before the
// first packet or after the timeout.
func TestReturnRate(t *testing.T) {
	for _, rate := range []float64{0.5, 1, 2} {
		t.Run(fmt.Sprint(rate, "Hz"), func(t *testing.T) {
			h := newHarness(t, func(c *Config) { c.ReturnRate = rate })
			period := time.Duration(float64(time.Second) / rate)
			step := 100 * time.Millisecond

			// 5 s before any packet: nothing.
			for range 50 {
				h.advance(step)
			}
			if n := len(h.returns()); n != 0 {
				t.Fatalf("%d return packets before the first GameController packet", n)
			}

			// 10 s of 5 Hz bursts (two packets every 200 ms, as an HSL GameController
			// repeats itself) and note when each return leaves.
			p := basePacket(gcproto.LayoutHSL20)
			var at []time.Time
			note := func(n int) {
				if len(h.returns()) > n {
					at = append(at, h.clk.Now())
				}
			}
			for i := range 100 {
				n := len(h.returns())
				if i%2 == 0 {
					h.send(gcA, &p)
					h.send(gcA, &p)
					p.PacketNumber++
				}
				note(n)
				n = len(h.returns())
				h.advance(step)
				note(n)
			}
			if want := int(10 * rate); len(at) != want {
				t.Fatalf("%d return packets in 10 s at %v Hz, want %d (at %v)", len(at), rate, want, at)
			}
			// The k-th return belongs to the k-th grid instant after the first one's.
			grid := func(t time.Time) time.Time { return t.Add(period / 2).Truncate(period) }
			for i, a := range at {
				g := grid(at[0]).Add(time.Duration(i) * period)
				if d := a.Sub(g); d < -period/2 || d >= period/2 {
					t.Fatalf("return packet %d at %v: %v from its grid instant %v (all at %v)", i, a, d, g, at)
				}
			}
			// The GameController stops (last packet at 9.8 s): returns go on until 3 s
			// later, then stop.
			last := h.c.Status().LastPacket
			n := len(h.returns())
			for range 100 {
				h.advance(step)
			}
			sent := h.returns()[n:]
			st := h.c.Status()
			if st.LastReturn.Sub(last) >= 3*time.Second || st.Connected {
				t.Errorf("return sent %v after the last packet", st.LastReturn.Sub(last))
			}
			// Ticks in (9.8 s, 12.8 s) after start: 10 s only at 0.5 Hz, 10, 11, 12 s at 1 Hz, …
			want := 0
			for tk := period; tk < 30*time.Second; tk += period {
				if rel := tk - 5*time.Second; rel > 10*time.Second && rel < 12800*time.Millisecond {
					want++
				}
			}
			// The first tick after the last packet may wait half a period for one more
			// packet, and then miss the timeout.
			if len(sent) != want && len(sent) != want-1 {
				t.Errorf("%d return packets after the GameController stopped, want %d or %d", len(sent), want-1, want)
			}
			if int(st.ReturnsSent) != len(h.returns()) {
				t.Errorf("ReturnsSent %d, sent %d", st.ReturnsSent, len(h.returns()))
			}
			h.checkInvariant()
		})
	}
}

// TestSubmitMessage: a message is refused with the reason while no GameController is
// connected, when the GameController takes no messages (SPL, HSL) or the node is set to
// another return version; to an HL GameController it goes out once.
func TestSubmitMessage(t *testing.T) {
	h := newHarness(t, nil)
	if err := h.c.SubmitMessage(gcproto.MsgManPenalise); !errors.Is(err, ErrNotConnected) || !strings.Contains(err.Error(), "no packet") {
		t.Errorf("before any packet: %v", err)
	}
	hsl := basePacket(gcproto.LayoutHSL20)
	h.nextReturn(&hsl)
	if err := h.c.SubmitMessage(gcproto.MsgManPenalise); !errors.Is(err, ErrNoMessages) || !strings.Contains(err.Error(), "HSL20") {
		t.Errorf("to an HSL GameController: %v", err)
	}
	if got := h.nextReturn(&hsl); len(got) != gcproto.ReturnSizeV4 {
		t.Errorf("return packet after a refused request: % x", got)
	}

	hl := basePacket(gcproto.LayoutHL688)
	h.nextReturn(&hl)
	for _, m := range []gcproto.ReturnMessage{gcproto.MsgAlive, 5} {
		if err := h.c.SubmitMessage(m); !errors.Is(err, ErrMessage) {
			t.Errorf("message %d: %v", m, err)
		}
	}
	for _, m := range []gcproto.ReturnMessage{gcproto.MsgManPenalise, gcproto.MsgManUnpenalise} {
		if err := h.c.SubmitMessage(m); err != nil {
			t.Fatalf("message %d to HL: %v", m, err)
		}
		if got, want := h.nextReturn(&hl), returnV2(ourTeam, ourPlayer, byte(m)); !bytes.Equal(got, want) {
			t.Errorf("message %d:\n got % x\nwant % x", m, got, want)
		}
		if got, want := h.nextReturn(&hl), returnV2(ourTeam, ourPlayer, byte(gcproto.MsgAlive)); !bytes.Equal(got, want) {
			t.Errorf("after message %d:\n got % x\nwant % x", m, got, want)
		}
	}

	// Silence: not connected any more.
	h.advance(4 * time.Second)
	if err := h.c.SubmitMessage(gcproto.MsgManUnpenalise); !errors.Is(err, ErrNotConnected) || !strings.Contains(err.Error(), "old") {
		t.Errorf("after the GameController fell silent: %v", err)
	}

	h2 := newHarness(t, func(c *Config) { c.ReturnVersion = gcproto.ReturnVersion })
	h2.nextReturn(&hl)
	if err := h2.c.SubmitMessage(gcproto.MsgManPenalise); !errors.Is(err, ErrNoMessages) || !strings.Contains(err.Error(), "return_version") {
		t.Errorf("with return_version 4: %v", err)
	}
}

// TestReturnTickWaitedForPacket: a return tick whose timer waited past its instant for a
// packet (idletick.Ticker.Ticked) answers a GameController that was connected at the
// instant, although the timeout has passed when it runs.
func TestReturnTickWaitedForPacket(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.ReturnRate = 2; c.Timeout = 600 * time.Millisecond })
	p := basePacket(gcproto.LayoutHSL20)
	h.advance(100 * time.Millisecond)
	h.send(gcA, &p) // 0.1 s: connects, the tick of 0.5 s is not yet due
	h.advance(400 * time.Millisecond)
	if n := len(h.returns()); n != 1 {
		t.Fatalf("%d return packets at the tick of 0.5 s, want 1", n)
	}
	h.advance(10 * time.Millisecond)
	h.send(gcA, &p) // 0.51 s: the last packet; the tick of 1 s waits until 1.25 s for another
	h.advance(730 * time.Millisecond)
	if n := len(h.returns()); n != 1 {
		t.Fatalf("%d return packets at 1.24 s, want 1", n)
	}
	h.advance(10 * time.Millisecond)
	if n := len(h.returns()); n != 2 {
		t.Fatalf("%d return packets at 1.25 s, want 2: the tick of 1 s, when the GameController was connected (timeout at 1.11 s)", n)
	}
	if st := h.c.Status(); st.Connected {
		t.Error("connected after the timeout")
	}
}
