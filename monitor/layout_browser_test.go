package monitor

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/netip"
	"regexp"
	"strings"
	"testing"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
)

// layoutCheck is a page served next to the monitor's: it loads the monitor in a frame
// of the window's size and, once the robots are drawn, measures the page as Chromium
// laid it out (label boxes, robot bodies, the table and its card) and writes the
// measurements as JSON into #result, which --dump-dom shows.
const layoutCheck = `<!doctype html>
<html><body style="margin:0">
<iframe id="f" src="/" style="width:1280px;height:800px;border:0"></iframe>
<pre id="result">pending</pre>
<script>
"use strict";
function box(r) { return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }; }
function check() {
  const d = document.getElementById("f").contentDocument;
  const robots = d ? [...d.querySelectorAll("#robots .robot")] : [];
  if (robots.length < WANT || d.body.dataset.updates < 2) { setTimeout(check, 100); return; }
  const out = { labels: [], bodies: [], cells: [] };
  for (const g of robots) {
    const id = g.dataset.team + "/" + g.dataset.player;
    const label = g.querySelector(".role");
    if (label) out.labels.push({ id, text: label.textContent, box: box(label.getBoundingClientRect()) });
    const c = g.querySelector(".body").getBoundingClientRect();
    out.bodies.push({ id, x: (c.left + c.right) / 2, y: (c.top + c.bottom) / 2, r: (c.right - c.left) / 2 });
  }
  out.card = box(d.querySelector(".table-panel").getBoundingClientRect());
  out.table = box(d.getElementById("robots-table").getBoundingClientRect());
  for (const td of d.querySelectorAll("#robots-body td.status")) {
    const tr = td.closest("tr");
    out.cells.push({ id: tr.dataset.team + "/" + tr.dataset.player, text: td.textContent, box: box(td.getBoundingClientRect()),
      badges: [...td.querySelectorAll(".badge")].map((b) => box(b.getBoundingClientRect())) });
  }
  document.getElementById("result").textContent = JSON.stringify(out);
}
check();
</script>
</body></html>`

// rect is a box in CSS pixels.
type rect struct{ Left, Top, Right, Bottom float64 }

func (a rect) overlaps(b rect) bool {
	return a.Left < b.Right && b.Left < a.Right && a.Top < b.Bottom && b.Top < a.Bottom
}

func (a rect) inside(b rect) bool {
	const slack = 0.5
	return a.Left >= b.Left-slack && a.Right <= b.Right+slack && a.Top >= b.Top-slack && a.Bottom <= b.Bottom+slack
}

// touchesCircle reports whether the box reaches into the circle.
func (a rect) touchesCircle(x, y, r float64) bool {
	nx, ny := max(a.Left, min(x, a.Right)), max(a.Top, min(y, a.Bottom))
	return (nx-x)*(nx-x)+(ny-y)*(ny-y) < r*r
}

type layout struct {
	Labels []struct {
		ID, Text string
		Box      rect
	}
	Bodies []struct {
		ID      string
		X, Y, R float64
	}
	Card, Table rect
	Cells       []struct {
		ID, Text string
		Box      rect
		Badges   []rect
	}
}

var resultPre = regexp.MustCompile(`(?s)<pre id="result">(.*?)</pre>`)

// TestBrowserLayout draws robots standing close together (a duel for the ball, a
// defender beside its goalie) and robots with long penalties, in headless Chromium, and
// measures the laid-out page: no role label covers another label or a robot, and the
// status column with its badges stays inside the table's card. It writes a screenshot
// to build/monitor-layout.png.
func TestBrowserLayout(t *testing.T) {
	bin := chromium(t)
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	m, clk := newTest(t, Config{})
	at := clk.Now()
	// HSL 2020 packet: team 5's player 3 and team 12's player 2 penalised with the
	// longest HSL penalty name.
	g := game{state: gcproto.StatePlaying, firstHalf: true, kicking: 5, secs: 300, teams: [2]uint8{5, 12},
		budgets: [2]uint16{1200, 1200}, penalised: [2]uint8{3, 2}, penalty: 9 /* playing_with_arms_hands */}
	if !m.Observe(gcPort, dg(g.packet(t), gcSrc, at)) {
		t.Fatal("control packet rejected")
	}
	// Robots at least 0.55 m apart (centre to centre): close, as robots stand, without
	// their drawn bodies (0.5 m across) touching. Team 12 attacks left and is drawn
	// mirrored: its poses are the negated places on the page.
	robots := []mate{
		// A duel at the centre: two robots of each team within about 0.7 m.
		{team: 5, player: 2, x: 0, y: 0.3, role: teaminfo.RoleStriker, play: teaminfo.PlayBallHandling, answers: 4},
		{team: 5, player: 4, x: 0.6, y: -0.1, role: teaminfo.RoleSupporter, answers: 2},
		{team: 12, player: 3, x: -0.55, y: -0.5, theta: 3, role: teaminfo.RoleStriker, play: teaminfo.PlayBallHandling},
		{team: 12, player: 4, x: 0.1, y: 0.35, theta: 3, role: teaminfo.RoleSupporter, play: teaminfo.PlayAssisting},
		// A defender beside its goalie, and a fallen robot in a penalty beside them.
		{team: 5, player: 1, x: -4.2, y: 0.1, role: teaminfo.RoleGoalie},
		{team: 5, player: 5, x: -3.6, y: 0.35, role: teaminfo.RoleDefender, play: teaminfo.PlayInitializing},
		{team: 5, player: 3, x: -3.85, y: -0.4, role: teaminfo.RoleDefender, fallen: true},
		// Side by side on the touch line, one of them fallen in a penalty.
		{team: 12, player: 1, x: 1.5, y: -2.8, role: teaminfo.RoleDefender},
		{team: 12, player: 2, x: 2.1, y: -2.8, role: teaminfo.RoleSupporter, fallen: true},
	}
	for i, r := range robots {
		if r.play == 0 {
			r.play = teaminfo.PlayPlaying
		}
		src := netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 0, r.team, r.player}), uint16(40000+i))
		if !m.Observe(TeamPort(r.team), dg(r.dnet(t, nil), src, at)) {
			t.Fatalf("team message of %d/%d rejected", r.team, r.player)
		}
	}

	mux := http.NewServeMux()
	mux.Handle("/", m.Handler())
	mux.HandleFunc("/layoutcheck.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(strings.Replace(layoutCheck, "WANT", "9", 1)))
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, ln, mux) }()
	t.Cleanup(func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	base := "http://" + ln.Addr().String() + "/"

	dom := runChromium(t, bin, base+"layoutcheck.html", "--window-size=1300,1700", "--dump-dom")
	res := resultPre.FindStringSubmatch(dom)
	if res == nil {
		t.Fatalf("no measurements in the page:\n%.2000s", dom)
	}
	var l layout
	if err := json.Unmarshal([]byte(strings.ReplaceAll(res[1], "&quot;", `"`)), &l); err != nil {
		t.Fatalf("measurements %q: %v", res[1], err)
	}
	if len(l.Labels) != len(robots) || len(l.Bodies) != len(robots) || len(l.Cells) != len(robots) {
		t.Fatalf("measured %d labels, %d robots, %d status cells; want %d of each", len(l.Labels), len(l.Bodies), len(l.Cells), len(robots))
	}
	for i, a := range l.Labels {
		for _, b := range l.Labels[i+1:] {
			if a.Box.overlaps(b.Box) {
				t.Errorf("label %q of %s overlaps label %q of %s: %+v, %+v", a.Text, a.ID, b.Text, b.ID, a.Box, b.Box)
			}
		}
		for _, c := range l.Bodies {
			if a.Box.touchesCircle(c.X, c.Y, c.R) {
				t.Errorf("label %q of %s covers robot %s", a.Text, a.ID, c.ID)
			}
		}
	}
	if !l.Table.inside(l.Card) {
		t.Errorf("the robot table %+v spills out of its card %+v", l.Table, l.Card)
	}
	penalties := 0
	for _, c := range l.Cells {
		if !c.Box.inside(l.Card) {
			t.Errorf("status of %s (%q) %+v spills out of the card %+v", c.ID, c.Text, c.Box, l.Card)
		}
		for _, b := range c.Badges {
			if !b.inside(c.Box) {
				t.Errorf("a badge of %s (%q) %+v spills out of its cell %+v", c.ID, c.Text, b, c.Box)
			}
		}
		if strings.Contains(c.Text, "arms hands") {
			penalties++
		}
	}
	if penalties != 2 {
		t.Errorf("%d status cells show the penalty, want 2: %+v", penalties, l.Cells)
	}

	screenshot(t, bin, base, "monitor-layout.png")
}
