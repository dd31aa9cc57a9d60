//go:build cgo

package node_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/rosdomain"
	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/ros"
)

// TestE2EGCMessage calls the node's GCMessage service over DDS and watches the return
// packets on the GameController's UDP socket: refused while no GameController is
// connected and while an HSL GameController is followed (its return packets carry no
// messages); to an HL GameController "manually penalise me" and "manually unpenalise
// me" each go out once in a return packet v2, then ALIVE again.
func TestE2EGCMessage(t *testing.T) {
	getenv := testEnv(t, rosdomain.Take(t))
	gc, cfg := gcRobotConfig(t)
	startNode(t, getenv, cfg)

	tester := rosNode(t, getenv, "tester", &syncbuf.Buffer{})
	cl, err := ros.NewClient[dmsgs.GCMessage_Request, dmsgs.GCMessage_Response](tester, "/dnetwork_2/GCMessage", ros.QoSServices)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cl.Close() })
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	if err := cl.WaitForService(ctx); err != nil {
		t.Fatalf("GCMessage service not found: %v", err)
	}
	call := func(m uint8) *dmsgs.GCMessage_Response {
		t.Helper()
		cctx, ccancel := context.WithTimeout(ctx, 5*time.Second)
		defer ccancel()
		resp, err := cl.Call(cctx, &dmsgs.GCMessage_Request{Message: m})
		if err != nil {
			t.Fatalf("call GCMessage %d: %v", m, err)
		}
		return resp
	}

	if r := call(dmsgs.GCMessage_RequestManPenalise); r.Accepted || !strings.Contains(r.Reason, "no GameController connected") {
		t.Errorf("before any GameController: %+v, want refused (not connected)", r)
	}

	// An HSL GameController: connected, but its return packets (v4) carry no messages.
	send := func(l gcproto.Layout) {
		t.Helper()
		p := gamePacket(l, gcproto.StatePlaying)
		b, err := p.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		sendTo(t, gc, b, cfg.GameControllerPort)
	}
	send(gcproto.LayoutHSL20)
	if r := readReturn(t, gc, 3*time.Second); r.Version != gcproto.ReturnVersion {
		t.Fatalf("return packet to HSL: %+v", r)
	}
	if r := call(dmsgs.GCMessage_RequestManPenalise); r.Accepted || !strings.Contains(r.Reason, "HSL20") {
		t.Errorf("to an HSL GameController: %+v, want refused naming HSL20", r)
	}

	// An HL GameController: each message goes out once, then ALIVE again.
	for _, m := range []uint8{dmsgs.GCMessage_RequestManPenalise, dmsgs.GCMessage_RequestManUnpenalise} {
		send(gcproto.LayoutHL688)
		drainReturns(t, gc)
		send(gcproto.LayoutHL688)
		if r := readReturn(t, gc, 3*time.Second); r.Version != gcproto.ReturnVersionHL || r.Message != gcproto.MsgAlive {
			t.Fatalf("return packet to HL before the request: %+v", r)
		}
		if r := call(m); !r.Accepted || r.Reason != "" {
			t.Fatalf("message %d to HL: %+v, want accepted", m, r)
		}
		// Return packets sent before the call are ALIVE; the next one carries m, once.
		send(gcproto.LayoutHL688)
		var r gcproto.ReturnPacket
		for i := 0; ; i++ {
			r = readReturn(t, gc, 3*time.Second)
			if r.Message != gcproto.MsgAlive || i == 3 {
				break
			}
		}
		if r.Version != gcproto.ReturnVersionHL || r.Message != gcproto.ReturnMessage(m) || r.Team != testTeam || r.Player != 2 {
			t.Errorf("return packet after message %d: %+v", m, r)
		}
		send(gcproto.LayoutHL688)
		if r := readReturn(t, gc, 3*time.Second); r.Message != gcproto.MsgAlive {
			t.Errorf("return packet after the message went out: %+v, want ALIVE", r)
		}
	}
}
