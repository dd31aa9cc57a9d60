package main

import (
	"os"
	"strings"
	"testing"
)

// boosterGoldens returns the g++-written golden files of package booster as decode input.
func boosterGoldens(t *testing.T) string {
	t.Helper()
	var sb strings.Builder
	for _, f := range []string{"main.hex", "2026.hex"} {
		b, err := os.ReadFile("../../proto/booster/testdata/" + f)
		if err != nil {
			t.Fatal(err)
		}
		sb.Write(b)
	}
	return sb.String()
}

func TestDecodeBoosterByContent(t *testing.T) {
	code, recs, stderr := runDecodeCmd(t, boosterGoldens(t))
	if code != 0 || len(recs) != 4 {
		t.Fatalf("exit %d, %d records, stderr %s", code, len(recs), stderr)
	}
	common := map[string]any{
		"protocol": "booster", "communication_id": 4711, "team_number": 12, "player_number": 3,
		"role": 1, "role_name": "striker", "is_alive": true, "is_lead": false, "ball_detected": true,
		"ball_location_known": true, "ball_confidence": 0.875, "ball_range": 1.25, "cost": 3.5,
		"ball_global.x": 1.5, "ball_global.y": -0.75, "robot_pos.x": -2.25, "robot_pos.y": 1,
		"robot_pos.theta": 0.5, "kick_dir": -0.25, "theta_rb": 1.125, "cmd_id": 42, "cmd": 100,
		"units.length": "m",
	}
	expectFields(t, recs[0], common)
	expectFields(t, recs[0], map[string]any{"version": "main"})
	if _, ok := recs[0]["is_in_visual_kick"]; ok {
		t.Error("main record has is_in_visual_kick")
	}
	expectFields(t, recs[2], common)
	expectFields(t, recs[2], map[string]any{"version": "2026", "is_in_visual_kick": true})
	for _, i := range []int{1, 3} {
		expectFields(t, recs[i], map[string]any{
			"protocol": "booster-discovery", "communication_id": 815, "team_number": 12, "player_number": 3,
		})
	}
}

func TestDecodeBoosterForced(t *testing.T) {
	text := boosterGoldens(t)
	// Forced on the right packets: decoded; a discovery packet is not a message.
	code, recs, _ := runDecodeCmd(t, text, "--proto", "booster")
	if code != 1 || len(recs) != 4 {
		t.Fatalf("exit %d, %d records", code, len(recs))
	}
	for i, want := range []string{"booster", "booster", "booster", "booster"} {
		if recs[i]["protocol"] != want {
			t.Errorf("record %d protocol %v", i, recs[i]["protocol"])
		}
	}
	for _, i := range []int{1, 3} {
		if e, _ := recs[i]["error"].(string); !strings.Contains(e, "bad packet length") {
			t.Errorf("record %d: %v", i, recs[i])
		}
	}
	// A wrong magic is not recognised by content, and a forced decode names the cause.
	bad := strings.Replace(text, "e2790000", "e2790001", 1)
	code, recs, _ = runDecodeCmd(t, bad, "--proto", "booster")
	if code != 1 || !strings.Contains(recs[0]["error"].(string), "validation") {
		t.Fatalf("exit %d, %v", code, recs[0])
	}
}
