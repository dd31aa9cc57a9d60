package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/proto/booster"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
)

// The Booster part of the dissector tests: the g++-written goldens of proto/booster on
// each port they are sent to, and broken Booster packets the dissector must flag.

// boosterTeam is the team of the Booster goldens (gen.cpp's default).
const boosterTeam = 12

// boosterDatagrams returns every Booster golden on the ports its revision sends it to
// (main: unicast 30000+team and discovery 20000+team; 2026: the team port
// 10000+team), on the other revision's port too, and on a port of none of the formats
// (found by magic and size).
func boosterDatagrams(t *testing.T) []goldenDatagram {
	t.Helper()
	files, _ := filepath.Glob("../../proto/booster/testdata/*.hex")
	if len(files) < 2 {
		t.Fatalf("%d Booster golden files", len(files))
	}
	var ds []goldenDatagram
	for _, f := range files {
		for _, p := range hexPackets(t, f) {
			name := filepath.Base(f)
			switch {
			case booster.IsDiscovery(p):
				ds = append(ds, goldenDatagram{name + " discovery", booster.PortDiscovery + boosterTeam, p})
			case booster.IsMessage(p):
				ds = append(ds,
					goldenDatagram{name, booster.PortUnicast + boosterTeam, p},
					goldenDatagram{name + " on the team port", gcproto.TeamPortBase + boosterTeam, p},
					goldenDatagram{name + " on another port", 41234, p})
			default:
				t.Fatalf("%s: %d bytes that are no Booster packet", f, len(p))
			}
		}
	}
	return ds
}

// flaggedDatagram is a broken packet and the expert info the dissector must add.
type flaggedDatagram struct {
	goldenDatagram
	expert string
}

// boosterBroken returns broken Booster packets made from the goldens in ds: each of
// them decode rejects and the dissector flags with expert.
func boosterBroken(t *testing.T, ds []goldenDatagram) []flaggedDatagram {
	t.Helper()
	var msg, disc []byte
	for _, d := range ds {
		if booster.IsMessage(d.payload) && len(d.payload) == booster.Size2026 && msg == nil {
			msg = d.payload
		}
		if booster.IsDiscovery(d.payload) {
			disc = d.payload
		}
	}
	if msg == nil || disc == nil {
		t.Fatal("no Booster goldens")
	}
	unicast, discPort := uint16(booster.PortUnicast+boosterTeam), uint16(booster.PortDiscovery+boosterTeam)
	teamPort := uint16(gcproto.TeamPortBase + boosterTeam)
	badMagic := bytes.Clone(msg)
	binary.LittleEndian.PutUint32(badMagic, booster.Magic+1)
	badDisc := bytes.Clone(disc)
	binary.LittleEndian.PutUint32(badDisc, 0)
	badBool := bytes.Clone(msg)
	badBool[23] = 2 // ballDetected of the 2026 revision
	return []flaggedDatagram{
		{goldenDatagram{"booster one byte short", unicast, msg[:len(msg)-1]}, "dnetwork.booster.bad_size"},
		{goldenDatagram{"booster one byte long", unicast, append(bytes.Clone(msg), 0)}, "dnetwork.booster.bad_size"},
		{goldenDatagram{"booster truncated on the team port", teamPort, msg[:100]}, "dnetwork.booster.bad_size"},
		{goldenDatagram{"booster wrong magic", unicast, badMagic}, "dnetwork.booster.bad_magic"},
		{goldenDatagram{"booster bool byte 2", teamPort, badBool}, "dnetwork.booster.bad_bool"},
		{goldenDatagram{"booster discovery one byte short", discPort, disc[:len(disc)-1]}, "dnetwork.booster_discovery.bad_size"},
		{goldenDatagram{"booster discovery wrong magic", discPort, badDisc}, "dnetwork.booster_discovery.bad_magic"},
	}
}

// boosterPort reports whether port is a Booster robot's own port (discovery or unicast),
// where the dissector takes every datagram for a Booster packet.
func boosterPort(port uint16) bool {
	p := int(port)
	return (p >= booster.PortDiscovery && p < booster.PortDiscovery+100) || (p >= booster.PortUnicast && p < booster.PortUnicast+100)
}

// boosterMagic reports whether b starts with either Booster magic.
func boosterMagic(b []byte) bool {
	if len(b) < 4 {
		return false
	}
	m := int32(binary.LittleEndian.Uint32(b))
	return m == booster.Magic || m == booster.DiscoveryMagic
}

// checkBoosterFlagged checks, for every datagram the dissector takes for Booster (on the
// Booster ports, or with a Booster magic on the team port), that it flags an error
// exactly when decode rejects the datagram. severity holds tshark's
// _ws.expert.severity column by frame, accepted the frames decode accepts as Booster.
func checkBoosterFlagged(t *testing.T, port func(frame int) uint16, payload func(frame int) []byte,
	severity []string, accepted map[int]bool) int {
	t.Helper()
	n := 0
	for i, sev := range severity {
		frame := i + 1
		p, b := port(frame), payload(frame)
		team := int(p) >= gcproto.TeamPortBase && int(p) < gcproto.TeamPortBase+100
		if len(b) == 0 || !(boosterPort(p) || (team && boosterMagic(b))) {
			continue
		}
		n++
		flagged := bytes.Contains([]byte(","+sev+","), []byte(fmt.Sprintf(",%d,", 0x00800000))) // PI_ERROR
		if flagged == accepted[frame] {
			t.Errorf("frame %d (port %d, %d bytes %x): dissector flags an error: %v, decode accepts it as Booster: %v",
				frame, p, len(b), b, flagged, accepted[frame])
		}
	}
	return n
}
