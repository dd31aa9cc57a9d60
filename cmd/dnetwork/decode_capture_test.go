package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"

	"github.com/robocup-dnetwork/dnetwork/transport"
	"github.com/robocup-dnetwork/dnetwork/transport/capture"
)

// firstHexPacket returns the first packet of a hex sample file.
func firstHexPacket(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p, err := hex.DecodeString(strings.ReplaceAll(line, " ", ""))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	t.Fatalf("%s: no packet", path)
	return nil
}

// writePcapng records datagrams with the node's capture writer.
func writePcapng(t *testing.T, recs ...capture.Record) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rec.pcapng")
	w, err := capture.NewWriter(capture.Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	w.AddInterface("gamecontroller", "")
	w.AddInterface("team", "")
	for _, r := range recs {
		if !w.Write(r) {
			t.Fatal("record refused")
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := w.Run(ctx); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestDecodePcapng(t *testing.T) {
	gcPkt := firstHexPacket(t, "../../testdata/demo/gamecontroller.hex")
	teamPkt := firstHexPacket(t, "../../testdata/demo/teaminfo.hex")
	t0 := time.Date(2026, 7, 15, 14, 0, 0, 5000, time.UTC)
	gc, robot := netip.MustParseAddrPort("10.0.1.2:41000"), netip.MustParseAddrPort("10.0.1.13:3838")
	mate, bcast := netip.MustParseAddrPort("10.0.1.14:10017"), netip.MustParseAddrPort("10.0.1.255:10017")
	path := writePcapng(t,
		capture.Record{Interface: 0, Dir: transport.Received, Time: t0, Src: gc, Dst: robot, Payload: gcPkt},
		capture.Record{Interface: 1, Dir: transport.Received, Time: t0.Add(time.Second), Src: mate, Dst: bcast, Payload: teamPkt},
		capture.Record{Interface: 1, Dir: transport.Received, Time: t0.Add(2 * time.Second), Src: mate, Dst: bcast, Payload: []byte("not a known protocol")},
		capture.Record{Interface: 0, Dir: transport.Received, Time: t0.Add(3 * time.Second), Src: gc, Dst: robot, Payload: append([]byte("RGme"), 20, 0)},
	)

	code, recs, stderr := runDecodeCmd(t, "", path)
	if code != 1 || len(recs) != 3 {
		t.Fatalf("exit %d (want 1: a broken GameController packet), %d records, want 3\n%v\n%s", code, len(recs), recs, stderr)
	}
	g := recs[0]
	if g["protocol"] != "gamecontroller" || g["capture_time"] != "2026-07-15T14:00:00.000005Z" || g["src"] != gc.String() ||
		g["dst"] != robot.String() || g["interface"] != "gamecontroller" || g["direction"] != "received" || g["frame"] != 1.0 {
		t.Errorf("GameController record %v", g)
	}
	if tm := recs[1]; !strings.HasPrefix(tm["protocol"].(string), "teaminfo") || tm["src"] != mate.String() || tm["frame"] != 2.0 {
		t.Errorf("team record %v", tm)
	}
	if e := recs[2]; e["error"] == nil || e["protocol"] != "gamecontroller" || e["frame"] != 4.0 {
		t.Errorf("broken packet record %v", e)
	}
	if !strings.Contains(stderr, "4 UDP datagrams, 3 decoded, 1 of no known protocol") {
		t.Errorf("summary: %s", stderr)
	}

	// --port keeps the datagrams from or to one port, --proto one protocol.
	if _, recs, _ := runDecodeCmd(t, "", "--port", "10017", path); len(recs) != 1 || recs[0]["frame"] != 2.0 {
		t.Errorf("--port 10017: %v", recs)
	}
	if code, recs, _ := runDecodeCmd(t, "", "--proto", "gamecontroller", path); code != 1 || len(recs) != 2 || recs[0]["frame"] != 1.0 || recs[1]["frame"] != 4.0 {
		t.Errorf("--proto gamecontroller: exit %d, %v", code, recs)
	}
	// A capture on stdin is recognised too.
	b, _ := os.ReadFile(path)
	if _, recs, _ := runDecodeCmd(t, string(b), "--port", "3838"); len(recs) != 2 {
		t.Errorf("stdin: %v", recs)
	}
}

// TestDecodePcap: a classic pcap file as tcpdump writes it (Ethernet, microseconds),
// with a frame that is not UDP.
func TestDecodePcap(t *testing.T) {
	gcPkt := firstHexPacket(t, "../../testdata/demo/gamecontroller.hex")
	ip := &layers.IPv4{Version: 4, IHL: 5, TTL: 64, Protocol: layers.IPProtocolUDP,
		SrcIP: []byte{10, 0, 1, 2}, DstIP: []byte{10, 0, 1, 255}}
	udp := &layers.UDP{SrcPort: 41000, DstPort: 3838}
	_ = udp.SetNetworkLayerForChecksum(ip)
	eth := &layers.Ethernet{SrcMAC: []byte{2, 0, 0, 0, 0, 1}, DstMAC: layers.EthernetBroadcast, EthernetType: layers.EthernetTypeIPv4}
	buf := gopacket.NewSerializeBuffer()
	if err := gopacket.SerializeLayers(buf, gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}, eth, ip, udp, gopacket.Payload(gcPkt)); err != nil {
		t.Fatal(err)
	}
	arp := make([]byte, 42)
	copy(arp, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0, 0, 1, 0x08, 0x06})
	var file bytes.Buffer
	pw := pcapgo.NewWriter(&file)
	_ = pw.WriteFileHeader(65535, layers.LinkTypeEthernet)
	at := time.Date(2026, 7, 15, 14, 0, 1, 250000000, time.UTC)
	_ = pw.WritePacket(gopacket.CaptureInfo{Timestamp: at, CaptureLength: len(arp), Length: len(arp)}, arp)
	_ = pw.WritePacket(gopacket.CaptureInfo{Timestamp: at, CaptureLength: len(buf.Bytes()), Length: len(buf.Bytes())}, buf.Bytes())
	path := filepath.Join(t.TempDir(), "tcpdump.pcap")
	if err := os.WriteFile(path, file.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	code, recs, stderr := runDecodeCmd(t, "", path)
	if code != 0 || len(recs) != 1 {
		t.Fatalf("exit %d, records %v\n%s", code, recs, stderr)
	}
	if r := recs[0]; r["protocol"] != "gamecontroller" || r["dst"] != "10.0.1.255:3838" || r["capture_time"] != "2026-07-15T14:00:01.25Z" ||
		r["frame"] != 2.0 || r["direction"] != nil {
		t.Errorf("record %v", r)
	}
	if !strings.Contains(stderr, "1 other frames skipped") {
		t.Errorf("summary: %s", stderr)
	}
}
