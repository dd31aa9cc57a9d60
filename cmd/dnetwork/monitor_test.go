package main

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/netip"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/monitor"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
	"github.com/robocup-dnetwork/dnetwork/transport"
	"github.com/robocup-dnetwork/dnetwork/transport/capture"
)

func TestMonitorPorts(t *testing.T) {
	gc := monitor.Port{Kind: monitor.KindGameController, Port: 3838}
	ret := monitor.Port{Kind: monitor.KindReturn, Port: 3939}
	for _, c := range []struct {
		name             string
		gc, ret          uint16
		teams, teamPorts string
		want             []monitor.Port
		err              string
	}{
		{name: "defaults", gc: 3838, ret: 3939, want: []monitor.Port{gc, ret}},
		{name: "teams", gc: 3838, ret: 0, teams: "5,12", want: []monitor.Port{gc, monitor.TeamPort(5), monitor.TeamPort(12)}},
		{name: "override and shared", teams: "5 12", teamPorts: "12=4000,57335,3=4003",
			want: []monitor.Port{monitor.TeamPort(5), {Kind: monitor.KindTeam, Port: 4000, Team: 12},
				{Kind: monitor.KindTeam, Port: 4003, Team: 3}, {Kind: monitor.KindTeam, Port: 57335}}},
		{name: "bad team", teams: "5,256", err: `"256" is not a team number`},
		{name: "team 0", teams: "0", err: `"0" is not a team number`},
		{name: "bad port", teamPorts: "5=70000", err: `"70000" is not a port`},
		{name: "bad team in ports", teamPorts: "x=4000", err: `"x" is not a team number`},
		{name: "team twice", teams: "5,5", err: `--teams "5,5": team 5 is listed twice`},
		{name: "team twice in ports", teams: "5", teamPorts: "5=10005,5=10006", err: `--team-ports "5=10005,5=10006": team 5 is listed twice`},
	} {
		got, err := monitorPorts(c.gc, c.ret, c.teams, c.teamPorts)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: err = %v, want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil || len(got) != len(c.want) {
			t.Errorf("%s: %+v, %v; want %+v", c.name, got, err, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s: port %d = %+v, want %+v", c.name, i, got[i], c.want[i])
			}
		}
	}
}

func TestMonitorFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"--league", "msl"}, 2, "unknown league"},
		{[]string{"--teams", "a"}, 2, `"a" is not a team number`},
		{[]string{"--gc-port", "70000"}, 2, "--gc-port 70000 is not a port"},
		{[]string{"--group", "239.0.0.300"}, 2, "--group"},
		{[]string{"extra"}, 2, "unexpected arguments"},
		{[]string{"--duration", "-1s"}, 2, "negative"},
		{[]string{"--no-such-flag"}, 2, "flag provided but not defined"},
		{[]string{"-h"}, 0, "closes the return port 3939"},
		{[]string{"--gc-port", "0", "--return-port", "0", "--follow-gc=false"}, 2, "no ports"},
		{[]string{"--group", "10.0.0.1", "--http", "127.0.0.1:0"}, 2, "not an IPv4 multicast"},
	} {
		var stdout, stderr strings.Builder
		code := dispatch(context.Background(), append([]string{"monitor"}, c.args...), strings.NewReader(""), &stdout, &stderr)
		if code != c.code || !strings.Contains(stderr.String(), c.err) {
			t.Errorf("monitor %q = %d, stderr %q; want %d and %q", c.args, code, stderr.String(), c.code, c.err)
		}
	}
}

// monitorFreePort returns a UDP port that was free a moment ago.
func monitorFreePort(t *testing.T) uint16 {
	t.Helper()
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	return uint16(c.LocalAddr().(*net.UDPAddr).Port)
}

// TestMonitorCommand runs "dnetwork monitor" on loopback, sends it a team message and reads
// the robot back from /api/state.
// startMonitorCommand runs "dnetwork" with args (a monitor that serves its page on a
// free port) until the test ends, and returns the page's address and the output lines
// up to it; stop ends the command and returns its exit code.
func startMonitorCommand(t *testing.T, args []string) (url string, out []string, stop func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var stderr strings.Builder
	done := make(chan int, 1)
	go func() {
		code := dispatch(ctx, args, strings.NewReader(""), pw, &syncWriter{w: &stderr})
		pw.Close()
		done <- code
	}()
	stopped := false
	stop = func() int {
		cancel()
		select {
		case code := <-done:
			stopped = true
			if code != 0 {
				t.Errorf("%q: exit code %d, stderr %q", args, code, stderr.String())
			}
			return code
		case <-time.After(10 * time.Second):
			t.Fatal("monitor did not stop after cancel")
			return -1
		}
	}
	t.Cleanup(func() {
		if !stopped {
			stop()
		}
	})
	lines := bufio.NewScanner(pr)
	urlRE := regexp.MustCompile(`web page (http://127\.0\.0\.1:\d+/)`)
	for url == "" && lines.Scan() {
		out = append(out, lines.Text())
		if m := urlRE.FindStringSubmatch(lines.Text()); m != nil {
			url = m[1]
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	if url == "" {
		stop()
		t.Fatalf("no web page address in the output %q (stderr %q)", out, stderr.String())
	}
	return url, out, stop
}

// stateOf fetches /api/state from the page at url.
func stateOf(t *testing.T, url string) monitor.Snapshot {
	t.Helper()
	s, err := getState(http.DefaultClient, strings.TrimSuffix(url, "/"))
	if err != nil {
		t.Fatal(err)
	}
	return *s
}

func TestMonitorCommand(t *testing.T) {
	gcPort, teamPort := monitorFreePort(t), monitorFreePort(t)
	args := []string{"monitor", "--http", "127.0.0.1:0", "--gc-port", strconv.Itoa(int(gcPort)), "--return-port", "0",
		"--team-ports", "7=" + strconv.Itoa(int(teamPort)), "--follow-gc=false", "--league", "spl"}
	url, out, stop := startMonitorCommand(t, args)
	if !strings.Contains(out[0], "team 7 :"+strconv.Itoa(int(teamPort))) || !strings.Contains(out[0], "gamecontroller :") {
		t.Errorf("listening line %q", out[0])
	}

	st := teaminfo.State{Team: 7, Player: 3, Seq: 1, Role: teaminfo.RoleStriker}
	pkt, err := teaminfo.AppendDNet(nil, &st, nil)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	dst := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), teamPort)
	deadline := time.Now().Add(10 * time.Second)
	var s monitor.Snapshot
	for {
		if _, err := conn.WriteToUDPAddrPort(pkt, dst); err != nil {
			t.Fatal(err)
		}
		s = stateOf(t, url)
		if len(s.Robots) > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(s.Robots) != 1 || s.Robots[0].Team != 7 || s.Robots[0].Player != 3 || s.Robots[0].Role != "striker" ||
		!s.Robots[0].Online || s.League != "spl" || s.SizeCap != 128 {
		t.Errorf("state robots %+v league %s", s.Robots, s.League)
	}
	for _, p := range s.Ports {
		if p.Sent != 0 {
			t.Errorf("port %s sent %d datagrams", p.Name, p.Sent)
		}
	}

	stop()
}

// TestMonitorReplayLeague: a replay takes the league of the recording's GameController
// (captures of the SPL and Humanoid League GameControllers), for the page's size cap,
// budget rules and field, unless --league says otherwise; a recording without a
// GameController keeps the default and says why.
func TestMonitorReplayLeague(t *testing.T) {
	noGC := filepath.Join(t.TempDir(), "team.pcapng")
	w, err := capture.NewWriter(capture.Config{Path: noGC, FlushInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	tap := w.Tap(w.AddInterface("team 5", "udp port 10005"), time.Now)
	st := teaminfo.State{Team: 5, Player: 1, Seq: 1}
	msg, err := teaminfo.AppendDNet(nil, &st, nil)
	if err != nil {
		t.Fatal(err)
	}
	tap(transport.Received, transport.Datagram{Src: netip.MustParseAddrPort("10.0.0.1:10005"),
		Dst: netip.MustParseAddrPort("10.0.0.255:10005"), Payload: msg, Time: time.Now()})
	ctx, cancel := context.WithCancel(context.Background())
	wdone := make(chan error, 1)
	go func() { wdone <- w.Run(ctx) }()
	time.Sleep(50 * time.Millisecond)
	cancel()
	if err := <-wdone; err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		file, flag string
		league     string
		cap        int
		fieldLen   float64
		line       string // of the output; "" none about the league
	}{
		{"../../testdata/captures/spl15.pcap", "", "spl", 128, 9, "league spl, from the recording (231 GameController packets, spl15)"},
		{"../../testdata/captures/spl14.pcap", "", "spl", 128, 9, "league spl, from the recording (230 GameController packets, spl14)"},
		{"../../testdata/captures/hl12-gui.pcap", "", "hl", 512, 0, "league hl, from the recording (60 GameController packets, hl12-688)"},
		{"../../testdata/captures/spl15.pcap", "hsl", "hsl", 512, 0, ""},
		{noGC, "", "hsl", 512, 0, "league hsl, the default: the recording holds no GameController packet"},
	} {
		args := []string{"monitor", "--replay", c.file, "--http", "127.0.0.1:0"}
		if c.flag != "" {
			args = append(args, "--league", c.flag)
		}
		url, out, stop := startMonitorCommand(t, args)
		text := strings.Join(out, "\n")
		if c.line != "" && !strings.Contains(text, "dnetwork monitor: "+c.line) || c.line == "" && strings.Contains(text, "league") {
			t.Errorf("%q: output %q, want the line %q", args, text, c.line)
		}
		s := stateOf(t, url)
		if s.League != c.league || s.SizeCap != c.cap || c.fieldLen != 0 && s.Field.Length != c.fieldLen {
			t.Errorf("%q: state league %s, cap %d, field %+v; want %s, %d", args, s.League, s.SizeCap, s.Field, c.league, c.cap)
		}
		stop()
	}
}

func TestMonitorDuration(t *testing.T) {
	var stdout, stderr strings.Builder
	start := time.Now()
	code := dispatch(context.Background(), []string{"monitor", "--http", "127.0.0.1:0", "--gc-port", "0", "--return-port", "0",
		"--team-ports", strconv.Itoa(int(monitorFreePort(t))), "--follow-gc=false", "--duration", "300ms"},
		strings.NewReader(""), &syncWriter{w: &stdout}, &syncWriter{w: &stderr})
	if code != 0 || time.Since(start) > 5*time.Second || !strings.Contains(stdout.String(), "team port ") {
		t.Errorf("exit %d after %v, stdout %q, stderr %q", code, time.Since(start), stdout.String(), stderr.String())
	}
}

// TestMonitorChannelFlags: by default the monitor asks for the monitor channel and takes
// the return packets from the forward port, not from 3939; --passive listens on 3939.
func TestMonitorChannelFlags(t *testing.T) {
	gc := monitor.Port{Kind: monitor.KindGameController, Port: 3838}
	ret := monitor.Port{Kind: monitor.KindReturn, Port: 3939}
	fwd := monitor.Port{Kind: monitor.KindForward, Port: 3940}
	for _, c := range []struct {
		args     []string
		trueData bool
		want     []monitor.Port
	}{
		{nil, true, []monitor.Port{gc, fwd}},
		{[]string{"--passive"}, false, []monitor.Port{gc, ret}},
		{[]string{"--return-port", "3939"}, true, []monitor.Port{gc, ret, fwd}},
		{[]string{"--forward-port", "0"}, true, []monitor.Port{gc}},
		{[]string{"--gc-port", "0", "--teams", "5"}, false, []monitor.Port{ret, monitor.TeamPort(5)}},
	} {
		var stderr strings.Builder
		o, code := parseMonitorFlags(c.args, &stderr)
		if code >= 0 {
			t.Errorf("%q: exit %d: %s", c.args, code, stderr.String())
			continue
		}
		if o.cfg.TrueData != c.trueData || !slices.Equal(o.cfg.Ports, c.want) {
			t.Errorf("%q: true data %v, ports %+v; want %v, %+v", c.args, o.cfg.TrueData, o.cfg.Ports, c.trueData, c.want)
		}
	}
}
