package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"slices"
	"sort"
	"strings"
	"testing"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
)

const gcDemoFile = "../../testdata/demo/gamecontroller.hex"

func TestDecodeGameControllerDemo(t *testing.T) {
	code, recs, stderr := runDecodeCmd(t, "", "--team", "17", "--player", "2", gcDemoFile)
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	want := []struct{ protocol, layout, header string }{
		{"gamecontroller", "hl12-640", "RGme"}, {"gamecontroller", "hl12-688", "RGme"},
		{"gamecontroller", "spl18", "RGme"}, {"gamecontroller", "spl18", "RGTD"},
		{"gamecontroller", "hsl20", "RGme"}, {"rgrt", "", "RGrt"}, {"rgrt", "", "RGrt"}, {"rgrt", "", "RGrt"},
	}
	if len(recs) != len(want) {
		t.Fatalf("%d records, want %d", len(recs), len(want))
	}
	for i, w := range want {
		r := recs[i]
		if r["protocol"] != w.protocol || r["header"] != w.header || (w.layout != "" && r["layout"] != w.layout) {
			t.Errorf("record %d: protocol %v header %v layout %v, want %+v", i, r["protocol"], r["header"], r["layout"], w)
		}
	}

	// TV-GC-HL640 and HL688: same values, player 2 of team 17 penalised (34).
	for _, i := range []int{0, 1} {
		r := recs[i]
		p2 := gcPlayer(t, r, 0, 2)
		if r["version"] != 12.0 || r["secondary_state_name"] != "direct_freekick" || r["kick_off_team"] != 17.0 ||
			p2["penalty"] != 34.0 || p2["penalty_name"] != "hl_pickup_or_incapable" || p2["secs_till_unpenalised"] != 20.0 {
			t.Errorf("record %d: %v / player 2 %v", i, r, p2)
		}
		info := r["gcinfo"].(map[string]any)
		for k, v := range map[string]any{"our_direct_free_kick": true, "set_play_ready": true, "set_play_freeze": false,
			"kickoff": true, "penalised": true, "secs_remaining": 300.0, "message_budget": -1.0, "secondary_state": 4.0} {
			if info[k] != v {
				t.Errorf("record %d gcinfo %s = %v, want %v", i, k, info[k], v)
			}
		}
	}
	if p := gcPlayer(t, recs[1], 1, 11); !gcHasKeys(p, "penalty", "penalty_name", "secs_till_unpenalised",
		"number_of_warnings", "yellow_card_count", "red_card_count", "goal_keeper") {
		t.Errorf("hl12-688 player keys: %v", gcKeys(p))
	}
	if p := gcPlayer(t, recs[0], 1, 11); !gcHasKeys(p, "penalty", "penalty_name", "secs_till_unpenalised",
		"yellow_card_count", "red_card_count") {
		t.Errorf("hl12-640 player keys: %v", gcKeys(p))
	}

	// TV-GC-SPL18.
	spl := recs[2]
	if spl["set_play"] != 2.0 || spl["set_play_name"] != "pushing_free_kick" || spl["secs_remaining"] != 300.0 ||
		spl["kicking_team"] != 17.0 || gcTeam(t, spl, 1)["message_budget"] != 1150.0 || gcTeam(t, spl, 0)["goalkeeper_colour_name"] != "yellow" {
		t.Errorf("spl18 record: %v", spl)
	}
	if p := gcPlayer(t, spl, 0, 20); !gcHasKeys(p, "penalty", "penalty_name", "secs_till_unpenalised") {
		t.Errorf("spl18 player keys: %v", gcKeys(p))
	}
	if info := spl["gcinfo"].(map[string]any); info["our_direct_free_kick"] != true || info["penalty_name"] != "spl_illegal_position" {
		t.Errorf("spl18 gcinfo: %v", info)
	}

	// TV-GC-HSL20 and its expected GCInfo.
	hsl := recs[4]
	if p := gcPlayer(t, hsl, 0, 2); p["penalty"] != 6.0 || p["penalty_name"] != "pick_up" || p["cautions"] != 1.0 || len(p) != 4 {
		t.Errorf("hsl20 player 2: %v", p)
	}
	info := hsl["gcinfo"].(map[string]any)
	for k, v := range map[string]any{"our_direct_free_kick": true, "enemy_direct_free_kick": false, "set_play_ready": true,
		"set_play_freeze": false, "kickoff": true, "penalised": true, "penalty": 6.0, "secs_till_unpenalised": 20.0,
		"our_score": 1.0, "enemy_score": 0.0, "message_budget": 1200.0, "stopped": false, "player": 2.0, "team": 17.0} {
		if info[k] != v {
			t.Errorf("hsl20 gcinfo %s = %v, want %v", k, info[k], v)
		}
	}

	// Return packets.
	if r := recs[5]; r["version"] != 2.0 || r["team"] != 17.0 || r["player"] != 2.0 || r["message_name"] != "alive" {
		t.Errorf("rgrt v2: %v", r)
	}
	if r := recs[6]; r["version"] != 4.0 || r["player_num"] != 2.0 || r["team_num"] != 17.0 || r["ball_age"] != 0.5 ||
		!slices.Equal(r["pose"].([]any), []any{1000.0, -500.0, 1.5}) || !slices.Equal(r["ball"].([]any), []any{300.0, 0.0}) {
		t.Errorf("rgrt v4: %v", r)
	}
	if r := recs[7]; r["ball_age"] != -1.0 || r["fallen"] != false {
		t.Errorf("rgrt v4 default: %v", r)
	}
}

func TestDecodeGameControllerKeyOrderAndOptions(t *testing.T) {
	p := gcproto.Packet{Layout: gcproto.LayoutHSL19, State: gcproto.StateSet, Stopped: true,
		SetPlay: gcproto.SetPlayCornerKick, KickingTeam: 5, SecsRemaining: -3}
	p.Teams[0].TeamNumber, p.Teams[1].TeamNumber = 17, 5
	p.Teams[0].Players[0] = gcproto.RobotInfo{Warnings: 1, YellowCards: 2}
	b, err := p.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	line := hex.EncodeToString(b) + "\n"

	var out, errb bytes.Buffer
	if code := dispatch(context.Background(), []string{"decode"}, strings.NewReader(line), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	prefix := `{"protocol":"gamecontroller","version":19,"header":"RGme","layout":"hsl19","length":198,"packet_number":0,` +
		`"players_per_team":0,"competition_type":0,"stopped":true,"game_phase":0,"game_phase_name":"normal",` +
		`"state":2,"state_name":"set","set_play":6,"set_play_name":"corner_kick","first_half":false,"kicking_team":5,` +
		`"drop_ball":false,"secs_remaining":-3,"secondary_time":0,"teams":[{"team_number":17,`
	if !strings.HasPrefix(out.String(), prefix) || strings.Contains(out.String(), "gcinfo") {
		t.Errorf("output\n%s\nwant prefix\n%s\nand no gcinfo", out.String(), prefix)
	}
	if !strings.Contains(out.String(), `"players":[{"penalty":0,"penalty_name":"none","secs_till_unpenalised":0,"warnings":1,"cautions":2},`) {
		t.Errorf("hsl19 player 1 not printed with warnings and cautions: %s", out.String())
	}

	_, recs, _ := runDecodeCmd(t, line, "--team", "17", "--player", "1")
	info := recs[0]["gcinfo"].(map[string]any)
	if info["enemy_corner_kick"] != true || info["set_play_freeze"] != true || info["set_play_ready"] != false ||
		info["secs_remaining"] != 0.0 || info["penalised"] != false {
		t.Errorf("gcinfo: %v", info)
	}
	_, recs, _ = runDecodeCmd(t, line, "--team", "5")
	info = recs[0]["gcinfo"].(map[string]any)
	if _, ok := info["penalised"]; ok || info["our_corner_kick"] != true || info["kickoff"] != true {
		t.Errorf("team-only gcinfo: %v", info)
	}
	_, recs, _ = runDecodeCmd(t, line, "--team", "6", "--player", "1")
	if recs[0]["gcinfo_error"] != "gamecontroller: packet names teams 17 and 5, not our team 6" || recs[0]["gcinfo"] != nil {
		t.Errorf("foreign team: %v", recs[0]["gcinfo_error"])
	}
	_, recs, _ = runDecodeCmd(t, line, "--team", "17", "--player", "21")
	if e, _ := recs[0]["gcinfo_error"].(string); !strings.Contains(e, "player = 21 out of range") {
		t.Errorf("player 21: %v", e)
	}
}

func TestDecodeGameControllerRejects(t *testing.T) {
	spl18, _ := (&gcproto.Packet{Layout: gcproto.LayoutSPL18}).MarshalBinary()
	good := hex.EncodeToString(spl18)
	in := strings.Join([]string{
		good + "00",                                   // one byte too long
		"52476d65" + good[8:len(good)-2],              // truncated
		"52476d6514" + strings.Repeat("00", 153),      // version 20 with 158 bytes: decodes
		"52545444" + good[8:],                         // "RTTD": unknown header
		"5247727404001100" + strings.Repeat("00", 24), // RGrt v4 player 0
		"52477274040211ff" + strings.Repeat("00", 24), // fallen 255
		"5247727402110200",                            // fine
	}, "\n")
	code, recs, stderr := runDecodeCmd(t, in)
	if code != 1 || !strings.Contains(stderr, "5 of 7 packets rejected") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	want := []struct{ protocol, errPart string }{
		{"gamecontroller", "gamecontroller: version 18 needs 118 bytes, got 119"},
		{"gamecontroller", "gamecontroller: version 18 needs 118 bytes, got 117"},
		{"gamecontroller", ""},
		{"unknown", "no known protocol"},
		{"rgrt", "gamecontroller: playerNum = 0 out of range, want 1..20"},
		{"rgrt", "gamecontroller: fallen = 255 out of range"},
		{"rgrt", ""},
	}
	for i, w := range want {
		r := recs[i]
		e, _ := r["error"].(string)
		if r["protocol"] != w.protocol || (w.errPart == "") != (e == "") || !strings.Contains(e, w.errPart) {
			t.Errorf("record %d: %v, want protocol %s error %q", i, r, w.protocol, w.errPart)
		}
	}

	// Forcing the wrong protocol gives that protocol's error.
	_, recs, _ = runDecodeCmd(t, "5247727402110202\n", "--proto", "gamecontroller")
	if e, _ := recs[0]["error"].(string); !strings.Contains(e, `header "RGrt" is neither "RGme" nor "RGTD"`) {
		t.Errorf("forced gamecontroller: %v", recs[0])
	}
	_, recs, _ = runDecodeCmd(t, good+"\n", "--proto", "rgrt")
	if e, _ := recs[0]["error"].(string); !strings.Contains(e, `return packet header "RGme", want "RGrt"`) {
		t.Errorf("forced rgrt: %v", recs[0])
	}
}

func gcTeam(t *testing.T, rec map[string]any, i int) map[string]any {
	t.Helper()
	teams, ok := rec["teams"].([]any)
	if !ok || len(teams) != 2 {
		t.Fatalf("teams: %v", rec["teams"])
	}
	return teams[i].(map[string]any)
}

func gcPlayer(t *testing.T, rec map[string]any, ti, n int) map[string]any {
	t.Helper()
	ps, ok := gcTeam(t, rec, ti)["players"].([]any)
	if !ok || n > len(ps) {
		t.Fatalf("players of team %d: %v", ti, gcTeam(t, rec, ti)["players"])
	}
	return ps[n-1].(map[string]any)
}

func gcKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// gcHasKeys reports whether m has exactly the keys ks.
func gcHasKeys(m map[string]any, ks ...string) bool {
	sort.Strings(ks)
	return slices.Equal(gcKeys(m), ks)
}

// TestDecodeHLSignedTimes: the HL GameController writes its times as signed shorts; an
// overrun set play preparation decodes as -35 (the GameController shows -00:35), not
// 65501, and dropInTime before the first drop-in as -1.
func TestDecodeHLSignedTimes(t *testing.T) {
	p := gcproto.Packet{Layout: gcproto.LayoutHL688, State: gcproto.StatePlaying,
		SetPlay: gcproto.SetPlayCornerKick, KickingTeam: 17, SecondaryStateInfo: [4]uint8{12, 0, 0, 0},
		SecsRemaining: 412, SecondaryTime: -35, DropInTime: -1}
	p.Teams[0].TeamNumber, p.Teams[1].TeamNumber = 12, 17
	b, err := p.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if b[22] != 0xdd || b[23] != 0xff || b[18] != 0xff || b[19] != 0xff {
		t.Fatalf("wire bytes % x, want secondaryTime dd ff and dropInTime ff ff", b[18:24])
	}
	_, recs, _ := runDecodeCmd(t, hex.EncodeToString(b)+"\n", "--team", "12", "--player", "1")
	r := recs[0]
	if r["secondary_time"] != -35.0 || r["drop_in_time"] != -1.0 || r["secs_remaining"] != 412.0 {
		t.Errorf("times: secondary %v drop-in %v secs %v, want -35, -1, 412", r["secondary_time"], r["drop_in_time"], r["secs_remaining"])
	}
	if info := r["gcinfo"].(map[string]any); info["our_corner_kick"] != true || info["kickoff"] != false || info["secondary_time"] != 0.0 {
		t.Errorf("gcinfo: %v, want our corner kick (secondaryStateInfo[0] = 12), no kick-off, secondary time clamped to 0", info)
	}
}
