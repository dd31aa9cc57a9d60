package monitor

import (
	"context"
	"net"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var (
	tableRow = regexp.MustCompile(`<tr class="(?:online|offline)" data-team="(\d+)" data-player="(\d+)"`)
	heardDot = regexp.MustCompile(`<span class="port" title="[^"]*" data-state="heard"><span class="dot up"></span>`)
)

// TestBrowserReplay serves a recorded game in replay mode and loads the page in
// headless Chromium with a moment in the link, which the page sets on its time slider
// as a person would; the field, the clock and the table must show that moment, first
// late in the game, then earlier (the slider moved back).
func TestBrowserReplay(t *testing.T) {
	bin := chromium(t)
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	p := newPlayer(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served, ran := make(chan error, 1), make(chan error, 1)
	go func() { served <- Serve(ctx, ln, p.Handler()) }()
	go func() { ran <- p.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
		<-ran
	})
	url := "http://" + ln.Addr().String() + "/"

	for _, c := range []struct {
		at    string
		x     float64 // robot 5/1
		clock string
		rows  []string
	}{
		{"20.5", 1, ">09:40<", []string{"5/1", "5/2"}},
		{"5.5", -2.75, ">09:55<", []string{"5/1"}},
	} {
		dom := runChromium(t, bin, url+"#t="+c.at, "--dump-dom")
		if !strings.Contains(dom, `data-replay-position="`+c.at+`"`) || strings.Contains(dom, `id="replay" class="replay" hidden`) {
			t.Errorf("#t=%s: replay bar not shown at %s:\n%.1500s", c.at, c.at, dom)
		}
		robots := drawn(dom, robotTag)
		if len(robots) != len(c.rows) {
			t.Errorf("#t=%s: %d robots drawn, want %d", c.at, len(robots), len(c.rows))
		}
		if x, err := strconv.ParseFloat(robots["5/1"]["x"], 64); err != nil || !near(x, c.x) {
			t.Errorf("#t=%s: robot 5/1 drawn at x %q, want %g", c.at, robots["5/1"]["x"], c.x)
		}
		if !strings.Contains(dom, c.clock) {
			t.Errorf("#t=%s: the clock does not show %s", c.at, c.clock)
		}
		var rows []string
		for _, m := range tableRow.FindAllStringSubmatch(dom, -1) {
			rows = append(rows, m[1]+"/"+m[2])
		}
		if strings.Join(rows, " ") != strings.Join(c.rows, " ") {
			t.Errorf("#t=%s: table rows %v, want %v", c.at, rows, c.rows)
		}
		// The footer's dots show the recording at that moment: both ports carry
		// datagrams (green), none is shown as a failed socket (red).
		if n := len(heardDot.FindAllString(dom, -1)); n != 2 || strings.Contains(dom, `<span class="dot"></span>`) {
			t.Errorf("#t=%s: %d green port dots, want 2 and no red one", c.at, n)
		}
	}
}
