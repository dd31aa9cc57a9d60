package main

import (
	"os"
	"strings"
	"testing"
	"time"

	sim3dproto "github.com/robocup-dnetwork/dnetwork/proto/sim3d"
)

func sim3dTeamMessage(t *testing.T, key string) string {
	t.Helper()
	s := sim3dproto.TeamState{
		Player: 7, Seq: 42, Role: 2, State: 1, Fallen: true,
		X: -4.25, Y: 1.5, Heading: -45,
		BallKnown: true, BallX: 2.5, BallY: -0.75, BallAge: 1200 * time.Millisecond,
	}
	msg, err := sim3dproto.NewTeamCodec(key).Append(nil, &s)
	if err != nil {
		t.Fatal(err)
	}
	return string(msg)
}

func TestDecodeSim3DHear(t *testing.T) {
	ours := sim3dTeamMessage(t, "dancer")
	in := strings.Join([]string{
		"(hear TeamA 12.30 self helloworld)",
		"(hear TeamA 0.8 -179.99 Test_1)",
		"(hear 0.4 self Test_2)",
		"(hear Dancer 61.2 35.5 " + ours + ")",
		ours,
	}, "\n")
	code, recs, stderr := runDecodeCmd(t, in, "--proto", "sim3d", "--auth-key", "dancer")
	if code != 0 || len(recs) != 5 {
		t.Fatalf("exit %d, %d records, stderr %q: %v", code, len(recs), stderr, recs)
	}
	for i, r := range recs {
		if r["protocol"] != "sim3d" || r["version"] != 1.0 {
			t.Errorf("record %d: %v", i, r)
		}
	}
	msg := func(i int) map[string]any {
		t.Helper()
		ms, ok := recs[i]["messages"].([]any)
		if !ok || len(ms) != 1 {
			t.Fatalf("record %d messages: %v", i, recs[i]["messages"])
		}
		return ms[0].(map[string]any)
	}

	if recs[0]["input"] != "hear" {
		t.Errorf("record 0 input %v", recs[0]["input"])
	}
	m := msg(0)
	if m["kind"] != "hear" || m["team"] != "TeamA" || m["time"] != 12.3 || m["self"] != true ||
		m["message"] != "helloworld" || m["direction"] != nil || m["state"] != nil ||
		!strings.Contains(m["state_error"].(string), "10 characters, want 20") {
		t.Errorf("self hear: %v", m)
	}
	m = msg(1)
	if m["team"] != "TeamA" || m["time"] != 0.8 || m["self"] != false || m["direction"] != -179.99 || m["message"] != "Test_1" {
		t.Errorf("hear with direction: %v", m)
	}
	m = msg(2)
	if _, labelled := m["team"]; labelled || m["time"] != 0.4 || m["self"] != true || m["message"] != "Test_2" {
		t.Errorf("unlabelled hear: %v", m)
	}

	want := map[string]any{
		"player": 7.0, "seq": 42.0, "role": 2.0, "state": 1.0, "fallen": true,
		"x": -4.25, "y": 1.5, "heading": -45.0,
		"ball": map[string]any{"x": 2.5, "y": -0.75, "age": 1.2},
	}
	for _, i := range []int{3, 4} {
		m = msg(i)
		st, ok := m["state"].(map[string]any)
		if !ok || m["state_error"] != nil || m["message"] != ours {
			t.Fatalf("record %d: %v", i, m)
		}
		for k, v := range want {
			if k == "ball" {
				b := st["ball"].(map[string]any)
				for bk, bv := range v.(map[string]any) {
					if b[bk] != bv {
						t.Errorf("record %d ball %s = %v, want %v", i, bk, b[bk], bv)
					}
				}
				continue
			}
			if st[k] != v {
				t.Errorf("record %d state %s = %v, want %v", i, k, st[k], v)
			}
		}
	}
	if m := msg(3); m["direction"] != 35.5 || m["team"] != "Dancer" {
		t.Errorf("record 3: %v", m)
	}
	if recs[4]["input"] != "say" || msg(4)["kind"] != "say" || msg(4)["time"] != nil {
		t.Errorf("bare say: %v", recs[4])
	}
}

func TestDecodeSim3DKeyAndUnknownBall(t *testing.T) {
	ours := sim3dTeamMessage(t, "dancer")
	// Without the key our own message is somebody else's.
	code, recs, _ := runDecodeCmd(t, ours+"\n", "--proto", "sim3d")
	if code != 0 || len(recs) != 1 {
		t.Fatalf("exit %d, records %v", code, recs)
	}
	m := recs[0]["messages"].([]any)[0].(map[string]any)
	if m["state"] != nil || !strings.Contains(m["state_error"].(string), "checksum mismatch") {
		t.Errorf("foreign key: %v", m)
	}

	s := sim3dproto.TeamState{Player: 1, X: 1, Y: 2}
	noBall, err := sim3dproto.TeamCodec{}.Append(nil, &s)
	if err != nil {
		t.Fatal(err)
	}
	code, recs, _ = runDecodeCmd(t, string(noBall)+"\n", "--proto", "sim3d")
	if code != 0 || len(recs) != 1 {
		t.Fatalf("exit %d, records %v", code, recs)
	}
	st := recs[0]["messages"].([]any)[0].(map[string]any)["state"].(map[string]any)
	if ball, present := st["ball"]; !present || ball != nil || st["x"] != 1.0 || st["y"] != 2.0 {
		t.Errorf("unknown ball: %v", st)
	}
}

func TestDecodeSim3DPerceptorAndCommands(t *testing.T) {
	ours := sim3dTeamMessage(t, "")
	in := "(time (now 412.36))(GS (unum 4) (team right) (t 187.42) (pm PlayOn))(GYR (n torso) (rt 0.1 0.2 0.3))" +
		"(hear TeamB 187.40 self " + ours + ")(hear Rival 187.40 102.5 9-Z)(HJ (n hj1) (ax -12.40))\n" +
		"(he1 1.5)(say " + ours + ")(syn)\n" +
		"(say hi)\n"
	code, recs, stderr := runDecodeCmd(t, in, "--proto", "sim3d")
	if code != 0 || len(recs) != 3 {
		t.Fatalf("exit %d, stderr %q, records %v", code, stderr, recs)
	}
	r := recs[0]
	game := r["game"].(map[string]any)
	if r["input"] != "perceptor" || r["now"] != 412.36 || game["time"] != 187.42 || game["play_mode"] != "PlayOn" {
		t.Errorf("perceptor: %v", r)
	}
	ms := r["messages"].([]any)
	if len(ms) != 2 {
		t.Fatalf("perceptor messages: %v", ms)
	}
	if m := ms[0].(map[string]any); m["self"] != true || m["state"].(map[string]any)["player"] != 7.0 {
		t.Errorf("own message: %v", m)
	}
	if m := ms[1].(map[string]any); m["team"] != "Rival" || m["direction"] != 102.5 || m["state"] != nil {
		t.Errorf("opponent message: %v", m)
	}
	r = recs[1]
	if r["input"] != "commands" || len(r["messages"].([]any)) != 1 {
		t.Errorf("agent commands: %v", r)
	}
	if m := r["messages"].([]any)[0].(map[string]any); m["kind"] != "say" || m["state"].(map[string]any)["seq"] != 42.0 {
		t.Errorf("said message: %v", m)
	}
	if r = recs[2]; r["input"] != "say" || r["messages"].([]any)[0].(map[string]any)["message"] != "hi" {
		t.Errorf("say command: %v", r)
	}
}

func TestDecodeSim3DErrors(t *testing.T) {
	tests := []struct {
		line, err string
	}{
		{"hello world", "byte 5 is 0x20 (space)"},
		{strings.Repeat("a", 21), "21 bytes, at most 20"},
		{"caf\xc3\xa9", "byte 3 is 0xC3"},
		{"(hear TeamA 12.30 self", "'(' at byte 0 is not closed"},
		{"(hear TeamA 12.30 sideways x)", "direction"},
		{"(hear TeamA 12.30 self a b c)", "6 fields"},
		{"(time (now 1))(GS (t 0))", "lacks (t ...) or (pm ...)"},
		{"(time (now 1)) stray", "perceptor lists"},
		{"(time (now x))(hear 1 self a)", "bad number"},
		{"(he1 1)(say a(b)", "unbalanced"},
		{"(he1 fast)(say ab)", "joint he1"},
		{"(say a b)", "say needs one message atom"},
		{"a)b", "byte 1 is 0x29"},
	}
	var in strings.Builder
	for _, tt := range tests {
		in.WriteString(tt.line + "\n")
	}
	code, recs, stderr := runDecodeCmd(t, in.String(), "--proto", "sim3d")
	if code != 1 || len(recs) != len(tests) {
		t.Fatalf("exit %d, %d records: %v", code, len(recs), recs)
	}
	for i, tt := range tests {
		r := recs[i]
		e, _ := r["error"].(string)
		if r["protocol"] != "sim3d" || !strings.Contains(e, tt.err) {
			t.Errorf("%q: record %v, want error with %q", tt.line, r, tt.err)
		}
	}
	if !strings.Contains(stderr, "13 of 13 packets rejected") {
		t.Errorf("stderr %q", stderr)
	}
}

// TestDecodeSim3DServerLog decodes messages a real rcssserver3d sent: with and without
// hear perceptors, with team labels off, with the GS penalty info of its fork. A plain
// server log decodes without a rejected line.
func TestDecodeSim3DServerLog(t *testing.T) {
	raw, err := os.ReadFile("../../proto/sim3d/testdata/percepts_real.txt")
	if err != nil {
		t.Fatal(err)
	}
	in := string(raw) + "(time (now 1.5))(GS (unum 2) (team left) (sl 1) (sr 0) (t 0.000) (pm BeforeKickOff))\n"
	code, recs, stderr := runDecodeCmd(t, in, "--proto", "sim3d")
	if code != 0 || len(recs) != 5 {
		t.Fatalf("exit %d, stderr %q, %d records", code, stderr, len(recs))
	}
	wantHears := []int{1, 1, 0, 1, 0}
	for i, r := range recs {
		if r["input"] != "perceptor" || r["now"] == nil || r["game"] == nil {
			t.Errorf("record %d: %v", i, r)
			continue
		}
		if ms := r["messages"].([]any); len(ms) != wantHears[i] {
			t.Errorf("record %d: %d messages, want %d", i, len(ms), wantHears[i])
		}
	}
	if sk := recs[0]["skipped"].([]any); len(sk) < 5 || sk[0] != "GYR" || sk[1] != "ACC" || sk[2] != "HJ" {
		t.Errorf("skipped perceptors: %v", sk)
	}
	if m := recs[1]["messages"].([]any)[0].(map[string]any); m["team"] != "Y" || m["direction"] != 11.41 || m["time"] != 0.02 {
		t.Errorf("labelled hear: %v", m)
	}
	if m := recs[3]["messages"].([]any)[0].(map[string]any); m["team"] != nil || m["direction"] != -44.58 {
		t.Errorf("unlabelled hear: %v", m)
	}
	if g := recs[2]["game"].(map[string]any); g["unum"] != 2.0 || g["side"] != "left" || g["play_mode"] != "BeforeKickOff" {
		t.Errorf("first percept's game state: %v", g)
	}
	if g := recs[4]["game"].(map[string]any); g["score_left"] != 1.0 || g["score_right"] != 0.0 || recs[4]["now"] != 1.5 {
		t.Errorf("score: %v", recs[4])
	}
}
