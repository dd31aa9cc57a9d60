package sim3drelay

import (
	"context"
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	sim3dproto "github.com/robocup-dnetwork/dnetwork/proto/sim3d"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/builtin_interfaces"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/rosgraph_msgs"
)

// fakeServer is the server side of one agent connection on loopback.
type fakeServer struct {
	t    *testing.T
	conn net.Conn
	fr   *sim3dproto.FrameReader
}

func listen(t *testing.T) (net.Listener, string) {
	t.Helper()
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l, l.Addr().String()
}

func accept(t *testing.T, l net.Listener) *fakeServer {
	t.Helper()
	_ = l.(*net.TCPListener).SetDeadline(time.Now().Add(5 * time.Second))
	c, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &fakeServer{t: t, conn: c, fr: sim3dproto.NewFrameReader(c, 0)}
}

// expect reads the next agent frame and checks it.
func (s *fakeServer) expect(want string) {
	s.t.Helper()
	_ = s.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	got, err := s.fr.Next()
	if err != nil {
		s.t.Fatalf("waiting for %q: %v", want, err)
	}
	if string(got) != want {
		s.t.Fatalf("agent sent %q, want %q", got, want)
	}
}

func (s *fakeServer) send(msg string) {
	s.t.Helper()
	b, _ := sim3dproto.AppendFrame(nil, []byte(msg))
	if _, err := s.conn.Write(b); err != nil {
		s.t.Fatal(err)
	}
}

// TestRelayHandshakeAndRelaying plays the server: the relay must build its body, join,
// beam, answer every percept with syn, publish hears with their server time and the
// time itself once it is in the game, write the node's says, and count what it drops.
func TestRelayHandshakeAndRelaying(t *testing.T) {
	l, addr := listen(t)
	hears := &bus.Recorder[dmsgs.Sim3dHear]{}
	times := &bus.Recorder[rosgraph_msgs.Clock]{}
	said := make(chan string, 4)
	r, err := New(Config{Server: addr, Team: "DNA", Unum: 2, BeamX: -2.5, BeamY: 3, BeamRot: 45,
		OnSay: func(at float64, msg string) { said <- msg }},
		Deps{Hear: hears, Time: times})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()

	s := accept(t, l)
	s.expect("(scene rsg/agent/nao/nao_hetero.rsg 0)")
	r.Say(&dmsgs.Sim3dSay{Message: "early"}) // not in the game yet: dropped
	s.send("(time (now 0.10))(GS (t 0.00) (pm BeforeKickOff))(hear 0.00 self x)")
	s.expect("(init (unum 2)(teamname DNA))(syn)")
	s.send("(time (now 0.12))(GS (t 0.00) (pm BeforeKickOff))")
	s.expect("(syn)")
	s.send("(time (now 0.14))(GS (unum 2) (team left) (t 0.00) (pm BeforeKickOff))")
	s.expect("(beam -2.5 3 45)(syn)")
	select {
	case <-r.Ready():
	case <-time.After(5 * time.Second):
		t.Fatal("not ready")
	}
	// (hear RIV 0.00 -1.5 ) is how the server relays an opponent's say of "": skipped
	// and counted, the rest of the percept relayed.
	s.send("(time (now 0.16))(GS (t 0.00) (pm BeforeKickOff))(hear RIV 0.00 -1.5 )(hear DNA 0.00 -46.5 AbC)(hear RIV 0.00 12 zz)(GYR (n torso) (rt 0 0 0))")
	s.expect("(syn)")
	s.send("(time (now 0.18)")                              // does not parse
	s.expect("(syn)")                                       // answered all the same
	r.Say(&dmsgs.Sim3dSay{Message: `a"b`})                  // would freeze the server
	r.Say(&dmsgs.Sim3dSay{Message: "EQFM5xAAQIln5wLXbjYc"}) // a team message
	s.expect("(say EQFM5xAAQIln5wLXbjYc)")

	want := []dmsgs.Sim3dHear{
		{GameTime: 0, ServerTime: 0.16, Team: "DNA", Direction: -46.5, Message: "AbC"},
		{GameTime: 0, ServerTime: 0.16, Team: "RIV", Direction: 12, Message: "zz"},
	}
	got := hears.Messages()
	if len(got) != len(want) {
		t.Fatalf("published hears %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("hear %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	var tms []builtin_interfaces.Time
	for _, m := range times.Messages() {
		tms = append(tms, m.Clock)
	}
	if len(tms) != 2 || tms[0] != (builtin_interfaces.Time{Nanosec: 140_000_000}) || tms[1] != (builtin_interfaces.Time{Nanosec: 160_000_000}) {
		t.Errorf("published server times %+v, want 0.14 and 0.16 (from joining on)", tms)
	}
	waitStatus(t, r, func(st Status) bool { return st.Said == 1 })
	st := r.Status()
	if st.Unum != 2 || st.Side != "left" || st.Percepts != 5 || st.ParseErrors != 1 || st.Hears != 2 || st.BadHears != 1 ||
		st.Times != 2 || st.SayEarly != 1 || st.SayRefused != 1 || st.Said != 1 || st.ServerTime != 0.16 {
		t.Errorf("status %+v", st)
	}
	if m := <-said; m != "EQFM5xAAQIln5wLXbjYc" || len(said) != 0 {
		t.Errorf("OnSay saw %q and %d more", m, len(said))
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run after cancel: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return")
	}
}

// TestRelayServerGone checks that Run reports a server that closes the connection,
// and a handshake the server never answers.
func TestRelayServerGone(t *testing.T) {
	l, addr := listen(t)
	deps := Deps{Hear: &bus.Recorder[dmsgs.Sim3dHear]{}, Time: &bus.Recorder[rosgraph_msgs.Clock]{}}
	r, err := New(Config{Server: addr, Team: "DNA", HandshakeTimeout: 200 * time.Millisecond}, deps)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- r.Run(context.Background()) }()
	accept(t, l).expect("(scene rsg/agent/nao/nao_hetero.rsg 0)")
	if err := <-done; !errors.Is(err, ErrHandshake) {
		t.Errorf("silent server: %v, want ErrHandshake", err)
	}

	r, _ = New(Config{Server: addr, Team: "DNA"}, deps)
	go func() { done <- r.Run(context.Background()) }()
	s := accept(t, l)
	s.expect("(scene rsg/agent/nao/nao_hetero.rsg 0)")
	s.conn.Close()
	if err := <-done; !errors.Is(err, io.EOF) {
		t.Errorf("closed connection: %v, want EOF", err)
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	deps := Deps{Hear: &bus.Recorder[dmsgs.Sim3dHear]{}, Time: &bus.Recorder[rosgraph_msgs.Clock]{}}
	for _, c := range []Config{{Team: ""}, {Team: "a b"}, {Team: "DNA", Unum: 12}, {Team: "DNA", Scene: "x(y"}} {
		if _, err := New(c, deps); !errors.Is(err, ErrConfig) {
			t.Errorf("New(%+v): %v, want ErrConfig", c, err)
		}
	}
	if _, err := New(Config{Team: "DNA"}, Deps{}); !errors.Is(err, ErrConfig) {
		t.Errorf("nil publishers: %v", err)
	}
}

func waitStatus(t *testing.T, r *Relay, ok func(Status) bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !ok(r.Status()) {
		if time.Now().After(deadline) {
			t.Fatalf("status %+v", r.Status())
		}
		time.Sleep(time.Millisecond)
	}
}

// TestRelayCountsSaysAfterStop: a say handed to Say once the connection is gone (Run has
// returned) is counted as dropped, so that every say is counted once.
func TestRelayCountsSaysAfterStop(t *testing.T) {
	l, addr := listen(t)
	deps := Deps{Hear: &bus.Recorder[dmsgs.Sim3dHear]{}, Time: &bus.Recorder[rosgraph_msgs.Clock]{}}
	r, err := New(Config{Server: addr, Team: "DNA", Unum: 2}, deps)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- r.Run(context.Background()) }()
	s := accept(t, l)
	s.expect("(scene rsg/agent/nao/nao_hetero.rsg 0)")
	s.send("(time (now 0.10))(GS (t 0.00) (pm BeforeKickOff))")
	s.expect("(init (unum 2)(teamname DNA))(syn)")
	s.send("(time (now 0.12))(GS (unum 2) (team left) (t 0.00) (pm BeforeKickOff))")
	s.expect("(beam 0 0 0)(syn)")
	<-r.Ready()
	s.conn.Close()
	if err := <-done; err == nil {
		t.Fatal("Run returned nil after the server closed the connection")
	}
	const says = 3
	for range says {
		r.Say(&dmsgs.Sim3dSay{Message: "EQFM5xAAQIln5wLXbjYc"})
	}
	st := r.Status()
	if n := st.Said + st.SayRefused + st.SayQueueFull + st.SayEarly + st.SayStopped; n != says {
		t.Fatalf("%d says after the relay stopped, %d counted: %+v", says, n, st)
	}
}
