//go:build cgo

package main

import (
	"bytes"
	"context"
	"net"
	"net/netip"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/transport"
	"github.com/robocup-dnetwork/dnetwork/transport/capture"
)

// TestRecordThenReplay: dnetwork record writes what arrives at the GameController port
// on loopback; dnetwork replay sends it again to another port, in order.
func TestRecordThenReplay(t *testing.T) {
	gcPkt := firstHexPacket(t, "../../testdata/demo/gamecontroller.hex")
	portText := freeUDPPort(t)
	p64, _ := strconv.ParseUint(portText, 10, 16)
	port := uint16(p64)
	path := filepath.Join(t.TempDir(), "game.pcapng")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr syncbuf.Buffer
	done := make(chan int, 1)
	go func() {
		done <- dispatch(ctx, []string{"record", "-o", path, "--interface", "lo", "--gc-port", portText,
			"--return-port", "0", "--follow-gc=false", "--min-free", "0", "--passive"}, strings.NewReader(""), &stdout, &stderr)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(stdout.String(), "recording to") {
		if time.Now().After(deadline) {
			t.Fatalf("record did not start: %s %s", stdout.String(), stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	tx, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Close()
	dst := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), port)
	payloads := [][]byte{gcPkt, []byte("second"), []byte("third")}
	for _, p := range payloads {
		if _, err := tx.WriteToUDPAddrPort(p, dst); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Wait until the third datagram is in the file (flushed within a second).
	for {
		if pk, _ := capture.ReadFile(path); len(pk) == 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("datagrams not recorded: %s %s", stdout.String(), stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("record exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "3 datagrams written to 1 file(s)") {
		t.Fatalf("summary: %s", stdout.String())
	}
	pk, err := capture.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	src := tx.LocalAddr().(*net.UDPAddr).AddrPort()
	for i, p := range pk {
		if !bytes.Equal(p.Payload, payloads[i]) || p.Src != src || p.Dst.Port() != port || p.Interface != "gamecontroller" || p.Dir != transport.Received {
			t.Errorf("datagram %d: %+v", i, p)
		}
	}
	if _, recs, _ := runDecodeCmd(t, "", path); len(recs) != 1 || recs[0]["protocol"] != "gamecontroller" {
		t.Errorf("decode: %v", recs)
	}

	// The monitor replays it on its page.
	var mout, merr strings.Builder
	if code := dispatch(context.Background(), []string{"monitor", "--replay", path, "--gc-port", portText, "--http", "127.0.0.1:0",
		"--duration", "300ms"}, strings.NewReader(""), &mout, &merr); code != 0 || !strings.Contains(mout.String(), "replaying "+path+": 3 datagrams") {
		t.Errorf("monitor --replay: exit %d\n%s%s", code, mout.String(), merr.String())
	}

	// Replay it, as fast as possible, to a socket of the test.
	rx, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer rx.Close()
	var rout, rerr strings.Builder
	to := portText + "=" + rx.LocalAddr().String()
	if code := dispatch(context.Background(), []string{"replay", "--to", to, "--speed", "0", "--interface", "lo", path},
		strings.NewReader(""), &rout, &rerr); code != 0 {
		t.Fatalf("replay exit %d: %s %s", code, rout.String(), rerr.String())
	}
	if !strings.Contains(rout.String(), "3 sent, 0 unmapped") {
		t.Fatalf("replay output: %s", rout.String())
	}
	buf := make([]byte, 2048)
	_ = rx.SetReadDeadline(time.Now().Add(5 * time.Second))
	for i, want := range payloads {
		n, err := rx.Read(buf)
		if err != nil || !bytes.Equal(buf[:n], want) {
			t.Fatalf("replayed datagram %d: %q, %v", i, buf[:n], err)
		}
	}
}

func TestReplayFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		err  string
	}{
		{[]string{"x.pcapng"}, "no --to mapping"},
		{[]string{"--to", "3838=127.0.0.1:1"}, "no recording given"},
		{[]string{"--to", "3838"}, "not PORT=ADDRESS:PORT"},
		{[]string{"--to", "3838=127.0.0.1:1", "--dir", "up", "x"}, "--dir"},
		{[]string{"--to", "3838=127.0.0.1:1", "/no/such/file"}, "no such file"},
	} {
		var stdout, stderr strings.Builder
		code := dispatch(context.Background(), append([]string{"replay"}, c.args...), strings.NewReader(""), &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), c.err) {
			t.Errorf("replay %q = %d, %q; want 2 and %q", c.args, code, stderr.String(), c.err)
		}
	}
}

// TestRecordHelp: record -h lists what record uses (the sockets' flags and its own),
// not the monitor's display flags, and points nowhere it does not lead.
func TestRecordHelp(t *testing.T) {
	var stdout, stderr strings.Builder
	if code := dispatch(context.Background(), []string{"record", "-h"}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("record -h: exit %d", code)
	}
	help := stdout.String() + stderr.String()
	for _, want := range []string{"-teams", "-team-ports", "-gc-port", "-return-port", "-keep-return-port", "-follow-gc",
		"-interface", "-group", "-o string", "-max-size", "-duration"} {
		if !strings.Contains(help, "  "+want) {
			t.Errorf("record -h lacks %s:\n%s", want, help)
		}
	}
	for _, unwanted := range []string{"-league", "-offline", "-remove", "-window", "-auth-key", "see below", "the monitor", "monitor -h"} {
		if strings.Contains(help, unwanted) {
			t.Errorf("record -h shows %q, which record does not use:\n%s", unwanted, help)
		}
	}
	// The monitor keeps them.
	stdout.Reset()
	stderr.Reset()
	dispatch(context.Background(), []string{"monitor", "-h"}, strings.NewReader(""), &stdout, &stderr)
	for _, want := range []string{"-league", "-offline", "-remove", "-window", "-auth-key", "-replay"} {
		if !strings.Contains(stdout.String()+stderr.String(), "  "+want) {
			t.Errorf("monitor -h lacks %s", want)
		}
	}
}

// TestRecordMonitorChannel: dnetwork record asks the GameController it hears for its
// monitor channel (the request is in the recording, sent from the GameController port's
// socket) and records the status messages forwarded to it on their own interface.
func TestRecordMonitorChannel(t *testing.T) {
	// A packet of the real HSL GameController (the HL one has no monitor channel).
	gcPkt := firstHexPacket(t, "../../proto/gamecontroller/testdata/hsl20-real-rgme.hex")
	gcPort, fwdPort := freeUDPPort(t), freeUDPPort(t)
	path := filepath.Join(t.TempDir(), "game.pcapng")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr syncbuf.Buffer
	done := make(chan int, 1)
	go func() {
		done <- dispatch(ctx, []string{"record", "-o", path, "--interface", "lo", "--gc-port", gcPort, "--forward-port", fwdPort,
			"--follow-gc=false", "--min-free", "0", "--flush", "100ms"}, strings.NewReader(""), &stdout, &stderr)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(stdout.String(), "recording to") {
		if time.Now().After(deadline) {
			t.Fatalf("record did not start: %s %s", stdout.String(), stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	tx, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Close()
	to := func(port string) netip.AddrPort { return netip.MustParseAddrPort("127.0.0.1:" + port) }
	alive := gcproto.NewAlive(17, 2)
	status, err := alive.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	fwd := gcproto.AppendForward(nil, netip.MustParseAddr("10.0.0.17"), status)
	if _, err := tx.WriteToUDPAddrPort(fwd, to(fwdPort)); err != nil {
		t.Fatal(err)
	}
	var request, forwarded bool
	for !(request && forwarded) {
		// The GameController is heard every 100 ms; the recorder asks it within a second.
		if _, err := tx.WriteToUDPAddrPort(gcPkt, to(gcPort)); err != nil {
			t.Fatal(err)
		}
		pk, _ := capture.ReadFile(path)
		for _, p := range pk {
			request = request || (p.Dir == transport.Sent && p.Interface == "gamecontroller" &&
				p.Dst == netip.MustParseAddrPort("127.0.0.1:3636") && gcproto.DecodeMonitorRequest(p.Payload) == nil)
			forwarded = forwarded || (p.Dir == transport.Received && p.Interface == "forward" && bytes.Equal(p.Payload, fwd))
		}
		if time.Now().After(deadline) {
			t.Fatalf("request recorded %v, forward recorded %v: %s %s", request, forwarded, stdout.String(), stderr.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("record exit %d: %s", code, stderr.String())
	}
}
