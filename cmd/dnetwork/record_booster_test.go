//go:build cgo

package main

import (
	"context"
	"encoding/hex"
	"net"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/syncbuf"
	"github.com/robocup-dnetwork/dnetwork/transport/capture"
)

// TestRecordBoosterPorts: dnetwork record listens to the Booster robots' ports of a
// team (10000, 20000 and 30000 + team); the recording decodes and replays as Booster.
func TestRecordBoosterPorts(t *testing.T) {
	const team = 233
	var pk [][]byte
	for _, line := range strings.Split(boosterGoldens(t), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			b, err := hex.DecodeString(line)
			if err != nil {
				t.Fatal(err)
			}
			pk = append(pk, b)
		}
	}
	// main.hex: message, discovery; 2026.hex: message, discovery.
	sends := []struct {
		port uint16
		b    []byte
	}{{30000 + team, pk[0]}, {20000 + team, pk[1]}, {10000 + team, pk[2]}}
	path := filepath.Join(t.TempDir(), "booster.pcapng")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr syncbuf.Buffer
	done := make(chan int, 1)
	go func() {
		done <- dispatch(ctx, []string{"record", "-o", path, "--interface", "lo", "--gc-port", "0", "--teams", "233",
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
	for _, s := range sends {
		if _, err := tx.WriteToUDPAddrPort(s.b, netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), s.port)); err != nil {
			t.Fatal(err)
		}
	}
	for {
		if got, _ := capture.ReadFile(path); len(got) == len(sends) {
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
	_, recs, _ := runDecodeCmd(t, "", path)
	protos := map[string]int{}
	for _, r := range recs {
		protos[r["protocol"].(string)]++
	}
	if len(recs) != 3 || protos["booster"] != 2 || protos["booster-discovery"] != 1 {
		t.Fatalf("decode: %v", recs)
	}
	var mout, merr strings.Builder
	if code := dispatch(context.Background(), []string{"monitor", "--replay", path, "--http", "127.0.0.1:0",
		"--duration", "300ms"}, strings.NewReader(""), &mout, &merr); code != 0 || !strings.Contains(mout.String(), "3 datagrams") {
		t.Errorf("monitor --replay: exit %d\n%s%s", code, mout.String(), merr.String())
	}
}
