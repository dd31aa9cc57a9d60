package main

import (
	"encoding/hex"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/transport"
	"github.com/robocup-dnetwork/dnetwork/transport/capture"
)

// robocupFixture reads a message the official definitions wrote
// (proto/robocup/testdata/golden).
func robocupFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "proto", "robocup", "testdata", "golden", name+".bin"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDecodeRobocup: the official fixtures, given as hex lines, are recognised by
// content among the other formats and printed with their extensions and both readings
// of current_pose.team; a broken message is an error with --proto.
func TestDecodeRobocup(t *testing.T) {
	_, demo := demoTeaminfo(t)
	var in strings.Builder
	for _, name := range []string{"standard_full", "bitbots", "nubots"} {
		in.WriteString(hex.EncodeToString(robocupFixture(t, name)) + "\n")
	}
	in.WriteString(hex.EncodeToString(demo[4]) + "\n") // a dnet packet among them
	code, recs, stderr := runDecodeCmd(t, in.String())
	if code != 0 || len(recs) != 4 {
		t.Fatalf("exit %d, %d records, want 4\n%v\n%s", code, len(recs), recs, stderr)
	}
	for i := range 3 {
		if recs[i]["protocol"] != "teaminfo-robocup" {
			t.Fatalf("record %d: protocol %v, want teaminfo-robocup", i, recs[i]["protocol"])
		}
	}
	if recs[3]["protocol"] != "teaminfo-dnet" {
		t.Errorf("dnet packet decoded as %v", recs[3]["protocol"])
	}
	expectFields(t, recs[0], map[string]any{
		"message.current_pose.player_id": 3.0, "message.current_pose.team": "BLUE", "message.state": "UNPENALISED",
		"message.ball.position.x": 3.0, "message.timestamp": "2026-12-06T23:33:20.250Z",
		"team_number": 1.0, "colour": "BLUE", "unknown_bytes": 0.0,
	})
	expectFields(t, recs[1], map[string]any{
		"message.current_pose.team": 13.0, "team_number": 13.0, "colour": "UNKNOWN_TEAM",
		"bitbots.time_to_ball": 9999.0, "bitbots.role": 3.0, "bitbots.max_walking_speed": 0.25,
	})
	if c := field(t, recs[1], "bitbots.other_robot_confidence").([]any); len(c) != 2 || c[1] != 0.75 {
		t.Errorf("other_robot_confidence %v", c)
	}
	if p := field(t, recs[2], "nubots_purposes").([]any); len(p) != 2 || p[1].(map[string]any)["purpose"] != 1.0 {
		t.Errorf("purposes %v", p)
	}
	if recs[2]["bitbots"] != nil || recs[1]["nubots_purposes"] != nil {
		t.Errorf("one profile's fields read as the other's: %v, %v", recs[1], recs[2])
	}

	// Truncated: an error record, not a crash; --proto forces the format.
	broken := robocupFixture(t, "standard_full")
	code, recs, _ = runDecodeCmd(t, hex.EncodeToString(broken[:len(broken)-3])+"\n", "--proto", "teaminfo-robocup")
	if code != 1 || len(recs) != 1 || recs[0]["error"] == nil {
		t.Errorf("truncated message: exit %d, %v", code, recs)
	}
}

// TestDecodeRobocupCapture: a recording of the team port that holds standard messages
// decodes them by content.
func TestDecodeRobocupCapture(t *testing.T) {
	t0 := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	mate, bcast := netip.MustParseAddrPort("10.0.1.14:10013"), netip.MustParseAddrPort("10.0.1.255:10013")
	path := writePcapng(t,
		capture.Record{Interface: 1, Dir: transport.Received, Time: t0, Src: mate, Dst: bcast, Payload: robocupFixture(t, "bitbots")},
		capture.Record{Interface: 1, Dir: transport.Sent, Time: t0.Add(time.Second), Src: mate, Dst: bcast, Payload: robocupFixture(t, "standard_minimal")},
	)
	code, recs, stderr := runDecodeCmd(t, "", path)
	if code != 0 || len(recs) != 2 {
		t.Fatalf("exit %d, %v\n%s", code, recs, stderr)
	}
	for _, r := range recs {
		if r["protocol"] != "teaminfo-robocup" || r["interface"] != "team" {
			t.Errorf("record %v", r)
		}
	}
}
