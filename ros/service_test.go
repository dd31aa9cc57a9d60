//go:build cgo

package ros

import (
	"bytes"
	"context"
	"errors"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/ros/dds"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/rcl_interfaces"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/std_msgs"
	"github.com/robocup-dnetwork/dnetwork/ros/params"
)

func TestServiceRoundTrip(t *testing.T) {
	env := testEnv(t, rosdomain.Take(t), "jazzy")
	server := newTestNode(t, env, "server", "/robot1")
	client := newTestNode(t, env, "client", "/")
	srv, err := NewService(server, "echo_names", QoSServices, func(req *rcl_interfaces.GetParameters_Request) *rcl_interfaces.GetParameters_Response {
		resp := &rcl_interfaces.GetParameters_Response{}
		for _, name := range req.Names {
			if name == "silent" {
				return nil
			}
			resp.Values = append(resp.Values, rcl_interfaces.ParameterValue{Type: rcl_interfaces.ParameterTypeParameterString, StringValue: name})
		}
		return resp
	})
	if err != nil {
		t.Fatal(err)
	}
	cl, err := NewClient[rcl_interfaces.GetParameters_Request, rcl_interfaces.GetParameters_Response](client, "/robot1/echo_names", QoSServices)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := cl.WaitForService(ctx); err != nil {
		t.Fatal(err)
	}
	for _, names := range [][]string{{"a"}, {"team_id", "robot_name"}, nil} {
		resp, err := cl.Call(ctx, &rcl_interfaces.GetParameters_Request{Names: names})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, v := range resp.Values {
			got = append(got, v.StringValue)
		}
		if !slices.Equal(got, names) {
			t.Errorf("reply %q to %q", got, names)
		}
	}
	// No reply: the call ends with its context.
	short, cancelShort := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancelShort()
	if _, err := cl.Call(short, &rcl_interfaces.GetParameters_Request{Names: []string{"silent"}}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("unanswered call: %v", err)
	}
	// The call ended on the client's clock; the server handles the request on its own
	// time: wait until it has dealt with all four.
	var st ServiceStats
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		st = srv.Stats()
		if st.Replies+st.Dropped+st.Unanswered >= 4 || time.Now().After(deadline) {
			break
		}
	}
	if st.Requests != 4 || st.Replies != 3 || st.Unanswered != 1 || st.Dropped != 0 {
		t.Errorf("stats %+v", st)
	}
}

// TestEntitiesOfClosedNode: making a publisher, subscription, service or client on a
// closed node fails with ErrClosed.
func TestEntitiesOfClosedNode(t *testing.T) {
	n := newTestNode(t, testEnv(t, rosdomain.Take(t), "jazzy"), "closed", "/")
	if err := n.Close(); err != nil {
		t.Fatal(err)
	}
	_, errPub := NewPublisher[std_msgs.String](n, "chatter", QoSDefault)
	_, errSub := NewSubscription[std_msgs.String](n, "chatter", QoSDefault, func(*std_msgs.String) {})
	_, errSrv := NewService(n, "echo", QoSServices, func(*rcl_interfaces.GetParameters_Request) *rcl_interfaces.GetParameters_Response { return nil })
	_, errCl := NewClient[rcl_interfaces.GetParameters_Request, rcl_interfaces.GetParameters_Response](n, "echo", QoSServices)
	for what, err := range map[string]error{"publisher": errPub, "subscription": errSub, "service": errSrv, "client": errCl} {
		if !errors.Is(err, ErrClosed) {
			t.Errorf("%s on a closed node: %v, want ErrClosed", what, err)
		}
	}
}

// TestEntityNotAnnounced: an endpoint whose ros_discovery_info update cannot be
// written (here: the node's discovery writer is gone) is not made, as rmw does not
// make it: the constructor's error leaves no endpoint behind in the node (nor a
// subscription's or service's handler running for an endpoint its caller never got).
func TestEntityNotAnnounced(t *testing.T) {
	n, err := NewNode(context.Background(), "mute", "/", NodeOptions{Getenv: testEnv(t, rosdomain.Take(t), "jazzy"), LogOutput: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close() // fails: it cannot announce its leaving either
	n.mu.Lock()
	before := map[closer]bool{}
	for e := range n.entities {
		before[e] = true
	}
	readers, writers := len(n.readers), len(n.writers)
	n.mu.Unlock()
	if err := n.discovery.Close(); err != nil {
		t.Fatal(err)
	}
	_, errPub := NewPublisher[std_msgs.String](n, "chatter", QoSDefault)
	_, errSub := NewSubscription[std_msgs.String](n, "chatter", QoSDefault, func(*std_msgs.String) {})
	_, errSrv := NewService(n, "echo", QoSServices, func(*rcl_interfaces.GetParameters_Request) *rcl_interfaces.GetParameters_Response { return nil })
	_, errCl := NewClient[rcl_interfaces.GetParameters_Request, rcl_interfaces.GetParameters_Response](n, "echo", QoSServices)
	for what, err := range map[string]error{"publisher": errPub, "subscription": errSub, "service": errSrv, "client": errCl} {
		if err == nil {
			t.Errorf("%s made without a ros_discovery_info update", what)
		}
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	for e := range n.entities {
		if !before[e] {
			t.Errorf("%T of a failed constructor left in the node", e)
		}
	}
	if len(n.readers) != readers || len(n.writers) != writers {
		t.Errorf("after four failed constructors the node lists %d readers, %d writers; before %d, %d",
			len(n.readers), len(n.writers), readers, writers)
	}
}

// TestClientMadeDuringReplies makes clients of a service while another client's calls
// keep its replies coming: a new client's reader takes those replies at once and must
// drop them as another client's (under the race detector, also while NewClient is still
// making the client), and every call of the busy client is answered.
func TestClientMadeDuringReplies(t *testing.T) {
	env := testEnv(t, rosdomain.Take(t), "jazzy")
	server := newTestNode(t, env, "busy_server", "/robot1")
	busy := newTestNode(t, env, "busy_client", "/")
	late := newTestNode(t, env, "late_clients", "/")
	if _, err := NewService(server, "busy_echo", QoSServices, func(req *rcl_interfaces.GetParameters_Request) *rcl_interfaces.GetParameters_Response {
		return &rcl_interfaces.GetParameters_Response{}
	}); err != nil {
		t.Fatal(err)
	}
	cl, err := NewClient[rcl_interfaces.GetParameters_Request, rcl_interfaces.GetParameters_Response](busy, "/robot1/busy_echo", QoSServices)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := cl.WaitForService(ctx); err != nil {
		t.Fatal(err)
	}
	stop, answered := make(chan struct{}), make(chan struct{})
	calls := make(chan error, 1)
	go func() {
		for n := 0; ; n++ {
			select {
			case <-stop:
				calls <- nil
				return
			default:
			}
			if _, err := cl.Call(ctx, &rcl_interfaces.GetParameters_Request{Names: []string{"x"}}); err != nil {
				calls <- err
				return
			}
			if n == 0 {
				close(answered)
			}
		}
	}()
	select {
	case <-answered:
	case err := <-calls:
		t.Fatalf("the busy client's first call: %v", err)
	}
	for range 100 {
		c, err := NewClient[rcl_interfaces.GetParameters_Request, rcl_interfaces.GetParameters_Response](late, "/robot1/busy_echo", QoSServices)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	if err := <-calls; err != nil {
		t.Fatalf("the busy client's calls: %v", err)
	}
}

// TestServiceFraming checks the bytes of rmw_cyclonedds' in-band header with a raw
// DDS client calling the node's get_parameters: a reply echoes guid and seq in
// front of the response body.
func TestServiceFraming(t *testing.T) {
	env := testEnv(t, rosdomain.Take(t), "jazzy")
	n := newTestNode(t, env, "server", "/")
	if _, err := n.Params().Declare("team_id", params.Integer(7), params.Descriptor{}); err != nil {
		t.Fatal(err)
	}
	p := rawParticipant(t, n)
	q := QoSParameters
	q.UserData = []byte("clientid=raw.1;")
	replies := make(chan []byte, 1)
	if _, err := p.NewReader("rr/server/get_parametersReply", "rcl_interfaces::srv::dds_::GetParameters_Response_", q, func(s dds.Sample) { replies <- s.Data }); err != nil {
		t.Fatal(err)
	}
	w, err := p.NewWriter("rq/server/get_parametersRequest", "rcl_interfaces::srv::dds_::GetParameters_Request_", q)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "request writer matched", func() error {
		if subs, _ := w.MatchedSubscriptions(); len(subs) == 0 {
			return errors.New("no reader")
		}
		return nil
	})
	// header, guid 0x1122334455667788, seq 42, names ["team_id"]
	req := []byte{0, 1, 0, 0, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 42, 0, 0, 0, 0, 0, 0, 0,
		1, 0, 0, 0, 8, 0, 0, 0, 't', 'e', 'a', 'm', '_', 'i', 'd', 0}
	if err := w.Write(req); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-replies:
		want := []byte{0, 1, 0, 0, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 42, 0, 0, 0, 0, 0, 0, 0,
			1, 0, 0, 0, // one ParameterValue
			2, 0, 0, 0, // type INTEGER, bool false, pad: integer_value is at body offset 24
			7, 0, 0, 0, 0, 0, 0, 0, // integer_value 7
			0, 0, 0, 0, 0, 0, 0, 0, // double_value
			1, 0, 0, 0, 0, 0, 0, 0, // string_value "", pad
			0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0} // five empty sequences
		if !bytes.Equal(got, want) {
			t.Errorf("reply\n got % x\nwant % x", got, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no reply")
	}
}

// TestCallEndsWhenClientCloses: a call waiting for its reply ends with ErrClosed when
// its client is closed, or its node shuts down, instead of waiting for a reply that
// can no longer come until its context ends (for context.Background: never).
func TestCallEndsWhenClientCloses(t *testing.T) {
	env := testEnv(t, rosdomain.Take(t), "jazzy")
	for _, by := range []string{"client", "node"} {
		n, err := NewNode(context.Background(), "caller", "/", NodeOptions{Getenv: env, LogOutput: io.Discard})
		if err != nil {
			t.Fatal(err)
		}
		cl, err := NewClient[rcl_interfaces.GetParameters_Request, rcl_interfaces.GetParameters_Response](n, "/nobody/answers", QoSServices)
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			_, err := cl.Call(context.Background(), &rcl_interfaces.GetParameters_Request{})
			done <- err
		}()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
			cl.mu.Lock()
			pending := len(cl.pending)
			cl.mu.Unlock()
			if pending == 1 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the call was not sent")
			}
		}
		if by == "client" {
			_ = cl.Close()
		}
		_ = n.Close()
		select {
		case err := <-done:
			if !errors.Is(err, ErrClosed) {
				t.Errorf("closed by the %s: call returned %v, want ErrClosed", by, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("closed by the %s: the call still waits 10 s later", by)
		}
	}
}

// TestWaitForServiceEndsWhenClientCloses: WaitForService ends with ErrClosed when its
// client is closed, instead of polling a closed client until its context ends.
func TestWaitForServiceEndsWhenClientCloses(t *testing.T) {
	env := testEnv(t, rosdomain.Take(t), "jazzy")
	n := newTestNode(t, env, "waiter", "/")
	cl, err := NewClient[rcl_interfaces.GetParameters_Request, rcl_interfaces.GetParameters_Response](n, "/nobody/serves", QoSServices)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cl.WaitForService(context.Background()) }()
	_ = cl.Close()
	select {
	case err := <-done:
		if !errors.Is(err, ErrClosed) {
			t.Errorf("WaitForService returned %v, want ErrClosed", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("WaitForService still waits 10 s after Close")
	}
}
