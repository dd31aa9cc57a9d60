package monitor

import (
	"context"
	"net"
	"strconv"
	"strings"
	"testing"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
)

// TestBrowserTwoTeams loads the page in headless Chromium for a match of team 17 (dnet)
// against team 5 (the HL standard protobuf, the official definitions' messages) fed by
// real UDP, and checks that both teams are drawn with their formats and their budget
// use against the GameController's count, and that the traffic on ports the rules do
// not allow (team 17 on team 5's port, team 9 that is not playing) is listed by host.
func TestBrowserTwoTeams(t *testing.T) {
	bin := chromium(t)
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	cfg := Config{Interface: "any", Ports: []Port{{Kind: KindGameController},
		{Kind: KindTeam, Team: 17}, {Kind: KindTeam, Team: 5}, {Kind: KindTeam, Team: 9}}}
	m, _ := newTest(t, cfg)
	runMonitor(t, m)
	ps := m.Ports()
	gcp, p17, p5, p9 := ps[0].Port, ps[1].Port, ps[2].Port, ps[3].Port

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, ln, m.Handler()) }()
	t.Cleanup(func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	url := "http://" + ln.Addr().String() + "/"

	gc, r17, r5, r9 := newSender(t), newSender(t), newSender(t), newSender(t)
	g := game{state: gcproto.StatePlaying, firstHalf: true, secs: 540, teams: [2]uint8{17, 5}, budgets: [2]uint16{12000, 12000}}
	gc.send(gcp, g.packet(t))
	eventually(t, "the GameController at the monitor", func() bool { return m.State().GameController.Game != nil })

	for _, r := range []mate{
		{team: 17, player: 1, x: -3.5, role: teaminfo.RoleGoalie},
		{team: 17, player: 2, x: -1, y: 1, role: teaminfo.RoleStriker},
	} {
		r17.send(p17, r.dnet(t, nil))
	}
	r5.send(p5, robocupAs(t, "bitbots", 5))
	r5.send(p5, robocupAs(t, "bitbots_goalie", 5))
	r17.send(p5, mate{team: 17, player: 2, x: -1, y: 1}.dnet(t, nil)) // on the other team's port
	r9.send(p9, mate{team: 9, player: 3}.dnet(t, nil))                // a team that is not playing
	eventually(t, "the messages at the monitor", func() bool {
		s := m.State()
		t5 := findTeam(s, 5)
		return findRobot(s, 17, 2) != nil && findRobot(s, 5, 1) != nil && findRobot(s, 5, 4) != nil &&
			t5 != nil && t5.Messages == 3 && len(s.PortFlags) == 2
	})
	// The GameController counted one message less of team 17 than the monitor heard,
	// and all three on team 5's port.
	g.budgets = [2]uint16{12000 - 1, 12000 - 3}
	gc.send(gcp, g.packet(t))
	eventually(t, "the budgets at the monitor", func() bool {
		tv := findTeam(m.State(), 5)
		return tv != nil && tv.GCUsed != nil && *tv.GCUsed == 3
	})

	dom := runChromium(t, bin, url, "--dump-dom")
	got := drawn(dom, robotTag)
	for _, key := range []string{"17/1", "17/2", "5/1", "5/4"} {
		if got[key] == nil {
			t.Errorf("robot %s not drawn; drawn: %v", key, got)
		}
	}
	cards := map[uint8]string{}
	for _, part := range strings.Split(dom, `<div class="team-card" data-team="`)[1:] {
		n, _ := strconv.Atoi(part[:strings.IndexByte(part, '"')])
		cards[uint8(n)] = part[:strings.Index(part, "</dl>")]
	}
	for team, want := range map[uint8][]string{
		17: {"<dd>dnet</dd>", "2 counted · 11999 left (GC)", "GC counted 1 · +1 heard here"},
		5:  {"<dd>robocup</dd>", "3 counted · 11997 left (GC)", "GC counted 3 · 0 heard here", "◀ attacks left"},
	} {
		for _, w := range want {
			if !strings.Contains(cards[team], w) {
				t.Errorf("team %d's card does not show %q:\n%s", team, w, cards[team])
			}
		}
	}
	if !strings.Contains(dom, `data-team="9"><h3>`) || !strings.Contains(dom, "not in this game") {
		t.Errorf("page does not show team 9 as not in the game")
	}
	for _, w := range []string{
		`data-port="` + strconv.Itoa(int(p5)) + `">127.0.0.1 → :` + strconv.Itoa(int(p5)) + ` (team 17): 1 packets, team 17 sends on the port of team 5`,
		`(team 9): 1 packets, port of team 9, which is not playing`,
	} {
		if !strings.Contains(dom, w) {
			t.Errorf("page does not flag %q", w)
		}
	}
	screenshot(t, bin, url, "monitor-two-teams.png")
}
