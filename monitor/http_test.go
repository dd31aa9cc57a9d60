package monitor

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
)

func get(t *testing.T, url string) (*http.Response, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(b)
}

func TestHandler(t *testing.T) {
	m, clk := newTest(t, Config{})
	g := game{state: gcproto.StateSet, firstHalf: true, secs: 600, teams: [2]uint8{5, 12}, budgets: [2]uint16{12000, 11990}}
	m.Observe(gcPort, dg(g.packet(t), gcSrc, t0))
	m.Observe(team5, dg(mate{team: 5, player: 2, x: 1, y: 2, role: teaminfo.RoleDefender, ball: &[2]float64{1, 1}}.dnet(t, nil), robotSrc, t0))
	m.Observe(team5, dg([]byte("junk"), gcSrc, t0))
	clk.Set(t0.Add(time.Second))
	srv := httptest.NewServer(m.Handler())
	defer srv.Close()

	res, body := get(t, srv.URL+"/")
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") ||
		!strings.Contains(body, `<svg id="field"`) || !strings.Contains(body, `src="app.js"`) {
		t.Errorf("GET / = %d %s:\n%.300s", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
	if strings.Contains(body, "http://") && !strings.Contains(body, `xmlns="http://www.w3.org/2000/svg"`) || strings.Contains(body, "https://") {
		t.Error("the page refers to an external resource")
	}
	for _, c := range []struct{ path, ctype, has string }{
		{"/app.js", "text/javascript", "api/state"},
		{"/style.css", "text/css", "#field"},
	} {
		res, body := get(t, srv.URL+c.path)
		if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), c.ctype) || !strings.Contains(body, c.has) {
			t.Errorf("GET %s = %d %s", c.path, res.StatusCode, res.Header.Get("Content-Type"))
		}
		if strings.Contains(body, "https://") {
			t.Errorf("%s refers to an external resource", c.path)
		}
	}

	res, body = get(t, srv.URL+"/api/state")
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/json" || res.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("GET /api/state = %d %q %q", res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Cache-Control"))
	}
	var s Snapshot
	if err := json.Unmarshal([]byte(body), &s); err != nil {
		t.Fatalf("state: %v\n%s", err, body)
	}
	if r := findRobot(s, 5, 2); r == nil || r.Role != "defender" || r.Ball == nil || s.GameController.Game.State != "set" {
		t.Errorf("state robots %+v, gamecontroller %+v", s.Robots, s.GameController)
	}
	// The documented snake_case keys are on the wire.
	var raw map[string]any
	if err := json.Unmarshal([]byte(body), &raw); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"time", "league", "size_cap", "offline_after_s", "remove_after_s", "rate_window_s", "field",
		"gamecontroller", "teams", "robots", "ports", "sources", "dropped_robots"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("state has no %q", k)
		}
	}
	robot := raw["robots"].([]any)[0].(map[string]any)
	for _, k := range []string{"team", "player", "online", "age_s", "pose", "pose_source", "ball", "role", "play_state",
		"fallen", "incapacitated", "penalised", "penalty", "secs_till_unpenalised", "format", "auth", "team_msgs",
		"return_msgs", "return_version", "counted", "faults", "malformed", "illegal", "last_error"} {
		if _, ok := robot[k]; !ok {
			t.Errorf("robot has no %q", k)
		}
	}
	if ball := robot["ball"].(map[string]any); ball["rel_x"] != 1.0 || ball["age_s"] == nil {
		t.Errorf("ball = %v", ball)
	}
	if game := raw["gamecontroller"].(map[string]any)["game"].(map[string]any); game["secs_remaining"] != 600.0 || game["budget_counted"] != true {
		t.Errorf("game = %v", game)
	}
	src := raw["sources"].([]any)
	if len(src) != 1 || src[0].(map[string]any)["faults"].(map[string]any)["wrong_size"] != 1.0 {
		t.Errorf("sources = %v", src)
	}

	for _, c := range []struct {
		method, path string
		code         int
	}{
		{http.MethodPost, "/api/state", http.StatusMethodNotAllowed},
		{http.MethodGet, "/nothing.js", http.StatusNotFound},
		{http.MethodHead, "/api/state", http.StatusOK},
	} {
		req, _ := http.NewRequest(c.method, srv.URL+c.path, nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != c.code {
			t.Errorf("%s %s = %d, want %d", c.method, c.path, res.StatusCode, c.code)
		}
	}
}

// TestStateJSONNoNaN checks that values a sender leaves unknown (NaN) never reach the JSON,
// which cannot carry them.
func TestStateJSONNoNaN(t *testing.T) {
	m, _ := newTest(t, Config{})
	s := mate{team: 5, player: 1, ball: &[2]float64{1, 0}}.state()
	s.RobotPos.X = nanF()
	b, err := teaminfo.AppendDNet(nil, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	m.Observe(team5, dg(b, robotSrc, t0))
	st := m.State()
	if _, err := json.Marshal(st); err != nil {
		t.Fatalf("json: %v", err)
	}
	if r := findRobot(st, 5, 1); r.Pose != nil || r.Ball != nil {
		t.Errorf("unknown pose shown: %+v", r)
	}
}

func nanF() float64 { var z float64; return z / z }

func TestServe(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m, _ := newTest(t, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- Serve(ctx, ln, m.Handler()) }()
	res, body := get(t, "http://"+ln.Addr().String()+"/api/state")
	if res.StatusCode != http.StatusOK || !strings.Contains(body, `"robots":[]`) {
		t.Errorf("GET /api/state = %d %.200s", res.StatusCode, body)
	}
	cancel()
	if err := <-errc; err != nil {
		t.Errorf("Serve = %v, want nil after cancel", err)
	}
	if _, err := http.Get("http://" + ln.Addr().String() + "/"); err == nil {
		t.Error("server still answers after Serve returned")
	}
}
