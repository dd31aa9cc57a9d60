package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/proto/gclog"
	"github.com/robocup-dnetwork/dnetwork/transport"
	"github.com/robocup-dnetwork/dnetwork/transport/capture"
)

// Logs the headless GameControllers wrote while a dnetwork node played
// (proto/gclog/testdata/README.md).
var gameLogs = []string{"../../proto/gclog/testdata/hsl19.yaml", "../../proto/gclog/testdata/hsl20.yaml"}

func readGameLog(t *testing.T, data []byte) []gclog.Entry {
	t.Helper()
	r := gclog.NewReader(bytes.NewReader(data))
	var es []gclog.Entry
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			return es
		}
		if err != nil {
			t.Fatal(err)
		}
		es = append(es, e)
	}
}

func TestDecodeGameLog(t *testing.T) {
	for _, f := range gameLogs {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			es := readGameLog(t, data)
			code, recs, stderr := runDecodeCmd(t, "", f)
			if code != 0 || len(recs) != len(es) {
				t.Fatalf("exit %d, %d records for %d entries\n%s", code, len(recs), len(es), stderr)
			}
			kinds := map[string]int{}
			for i, r := range recs {
				kinds[r["kind"].(string)]++
				if r["entry"] != float64(i+1) || r["line"] != float64(es[i].Line) || r["log_time_s"] != es[i].Time.Seconds() {
					t.Errorf("record %d: %v", i+1, r)
				}
				switch r["kind"] {
				case "statusMessage":
					if r["protocol"] != "rgrt" || r["host"] != "10.93.0.2" || r["team_num"] != 17.0 || r["player_num"] != 2.0 {
						t.Errorf("status message %v", r)
					}
				case "teamMessage":
					if r["protocol"] != "teaminfo-dnet" || r["host"] != "10.93.0.2" || r["team"] != 17.0 || r["player_number"] != 2.0 {
						t.Errorf("team message %v", r)
					}
				case "gameState":
					g := r["game_state"].(map[string]any)
					if g["state"] != es[i].GameState.State || g["state"] == "" {
						t.Errorf("game state %v", g)
					}
				case "action":
					if a := r["action"].(map[string]any); a["type"] != es[i].Action.Type {
						t.Errorf("action %v", a)
					}
				}
			}
			if kinds["statusMessage"] < 10 || kinds["teamMessage"] < 5 || kinds["gameState"] < 5 || kinds["metadata"] != 1 || kinds["end"] != 1 {
				t.Errorf("kinds %v", kinds)
			}
			if !strings.Contains(stderr, "GameController log, 75 entries") || !strings.Contains(stderr, "closed by an end entry") {
				t.Errorf("summary: %s", stderr)
			}
			// --proto keeps the messages of one protocol.
			if code, recs, _ := runDecodeCmd(t, "", "--proto", "rgrt", f); code != 0 || len(recs) != len(es)-kinds["teamMessage"] {
				t.Errorf("--proto rgrt: exit %d, %d records", code, len(recs))
			}
		})
	}
}

// TestDecodeGameLogBadInput: a truncated or malformed log, or one of another version,
// exits 2 naming the entry and line, after printing the entries before it.
func TestDecodeGameLogBadInput(t *testing.T) {
	data, err := os.ReadFile(gameLogs[1])
	if err != nil {
		t.Fatal(err)
	}
	es := readGameLog(t, data)
	lines := strings.SplitAfter(string(data), "\n")
	bad := es[20]
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		name, input string
		records     int
		want        string
	}{
		{"truncated", strings.Join(lines[:bad.Line+2], "") + lines[bad.Line+2][:6], 20, "entry 21 (line " + strconv.Itoa(bad.Line) + "): gclog: log truncated"},
		{"malformed", strings.Join(lines[:bad.Line+2], "") + "   nanos: 1\n" + strings.Join(lines[bad.Line+3:], ""), 20,
			"entry 21 (line " + strconv.Itoa(bad.Line) + "): gclog: malformed entry: line " + strconv.Itoa(bad.Line+3) + ":"},
		{"version", strings.Replace(string(data), "      version: 1\n", "      version: 3\n", 1), 0, "entry 1 (line 2): gclog: unknown log version 3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, recs, stderr := runDecodeCmd(t, "", write(c.name+".yaml", c.input))
			if code != 2 || len(recs) != c.records || !strings.Contains(stderr, c.want) {
				t.Fatalf("exit %d, %d records, stderr %q; want 2, %d records and %q", code, len(recs), stderr, c.records, c.want)
			}
			for i, r := range recs {
				if r["entry"] != float64(i+1) {
					t.Errorf("record %d: %v", i, r)
				}
			}
		})
	}
}

// TestDecodeToGameLog records a real log's messages as a node's recording holds them
// (the robot's return packets sent to the GameController, its team packets sent and
// received back as broadcasts), writes the recording as a log in both forms, and reads
// back the log's messages at their times since the first.
func TestDecodeToGameLog(t *testing.T) {
	data, err := os.ReadFile(gameLogs[1])
	if err != nil {
		t.Fatal(err)
	}
	var msgs []gclog.Entry
	for _, e := range readGameLog(t, data) {
		if e.Message != nil {
			msgs = append(msgs, e)
		}
	}
	t0 := time.Date(2026, 12, 7, 5, 22, 58, 0, time.UTC)
	robot := netip.MustParseAddr("10.93.0.2")
	gc := netip.MustParseAddrPort("10.93.0.1:3939")
	var recs []capture.Record
	for _, e := range msgs {
		at := t0.Add(e.Time)
		switch e.Kind {
		case gclog.KindStatusMessage:
			recs = append(recs, capture.Record{Interface: 0, Dir: transport.Sent, Time: at, Src: netip.AddrPortFrom(robot, 41000), Dst: gc, Payload: e.Message.Data})
		case gclog.KindTeamMessage:
			src, dst := netip.AddrPortFrom(robot, 10017), netip.MustParseAddrPort("10.93.0.255:10017")
			recs = append(recs, capture.Record{Interface: 1, Dir: transport.Sent, Time: at, Src: src, Dst: dst, Payload: e.Message.Data},
				capture.Record{Interface: 1, Dir: transport.Received, Time: at, Src: src, Dst: dst, Payload: e.Message.Data})
		}
	}
	// A GameController packet, which the log leaves out.
	recs = append(recs, capture.Record{Interface: 0, Dir: transport.Received, Time: t0.Add(time.Second), Src: netip.MustParseAddrPort("10.93.0.1:3838"),
		Dst: netip.MustParseAddrPort("10.93.0.255:3838"), Payload: firstHexPacket(t, "../../testdata/demo/gamecontroller.hex")})
	path := writePcapng(t, recs...)
	for _, form := range []string{"tag", "key"} {
		t.Run(form, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := dispatch(context.Background(), []string{"decode", "--to-gclog", "--gclog-form", form, path}, strings.NewReader(""), &out, &errb)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			if tag := strings.Contains(out.String(), "entry: !statusMessage\n"); tag != (form == "tag") {
				t.Errorf("form %s: tagged entries %v", form, tag)
			}
			got := readGameLog(t, out.Bytes())
			if len(got) != len(msgs)+1 || got[len(got)-1].Kind != gclog.KindEnd {
				t.Fatalf("%d entries, want %d messages and end\n%s", len(got), len(msgs), errb.String())
			}
			for i, e := range got[:len(msgs)] {
				w := msgs[i]
				if e.Kind != w.Kind || e.Time != w.Time-msgs[0].Time || e.Message.Host != w.Message.Host || e.Message.Team != w.Message.Team ||
					!bytes.Equal(e.Message.Data, w.Message.Data) {
					t.Errorf("entry %d: %s at %v %+v, want %s at %v %+v", i+1, e.Kind, e.Time, e.Message, w.Kind, w.Time-msgs[0].Time, w.Message)
				}
			}
			if !strings.Contains(errb.String(), "26 status messages, 13 team messages; 14 other datagrams left out") {
				t.Errorf("summary: %s", errb.String())
			}
			// And decode reads it.
			if code, recs, stderr := runDecodeCmd(t, out.String()); code != 0 || len(recs) != len(got) {
				t.Errorf("decode of the written log: exit %d, %d records\n%s", code, len(recs), stderr)
			}
		})
	}
	if code, _, stderr := runDecodeCmd(t, "", "--to-gclog", "--gclog-form", "json", path); code != 2 || !strings.Contains(stderr, "want tag or key") {
		t.Errorf("--gclog-form json: exit %d, %s", code, stderr)
	}
}

// TestReplayGameLog sends a real log's status and team messages to the ports they are
// mapped to, in order; a truncated log sends those before the bad entry and exits 2,
// a log of an unknown version sends nothing.
func TestReplayGameLog(t *testing.T) {
	data, err := os.ReadFile(gameLogs[1])
	if err != nil {
		t.Fatal(err)
	}
	es := readGameLog(t, data)
	listen := func() *net.UDPConn {
		c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	status, team := listen(), listen()
	to := "3939=" + status.LocalAddr().String() + ",10017=" + team.LocalAddr().String()
	lines := strings.SplitAfter(string(data), "\n")
	bad := es[30]
	dir := t.TempDir()
	truncated := filepath.Join(dir, "truncated.yaml")
	version := filepath.Join(dir, "version.yaml")
	if err := os.WriteFile(truncated, []byte(strings.Join(lines[:bad.Line+1], "")+"    nan"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(version, bytes.Replace(data, []byte("      version: 1\n"), []byte("      version: 3\n"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file    string
		entries []gclog.Entry
		code    int
		stderr  string
	}{
		{gameLogs[1], es, 0, ""},
		{truncated, es[:30], 2, "entry 31 (line " + strconv.Itoa(bad.Line) + "): gclog: log truncated"},
		{version, nil, 2, "unknown log version 3"},
	} {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			var out, errb strings.Builder
			code := dispatch(context.Background(), []string{"replay", "--to", to, "--speed", "0", "--interface", "lo", c.file}, strings.NewReader(""), &out, &errb)
			if code != c.code || !strings.Contains(errb.String(), c.stderr) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, errb.String(), c.code, c.stderr)
			}
			var want [2][][]byte
			for _, e := range c.entries {
				switch e.Kind {
				case gclog.KindStatusMessage:
					want[0] = append(want[0], e.Message.Data)
				case gclog.KindTeamMessage:
					want[1] = append(want[1], e.Message.Data)
				}
			}
			if n := len(want[0]) + len(want[1]); n > 0 && !strings.Contains(out.String(), strconv.Itoa(n)+" sent, 0 unmapped") {
				t.Errorf("summary: %s", out.String())
			}
			buf := make([]byte, 2048)
			for i, conn := range []*net.UDPConn{status, team} {
				for j, w := range want[i] {
					_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
					n, err := conn.Read(buf)
					if err != nil || !bytes.Equal(buf[:n], w) {
						t.Fatalf("port %d, datagram %d: %x, %v; want %x", i, j, buf[:n], err, w)
					}
				}
			}
		})
	}
}

// TestMonitorReplayGameLog serves a real log on the monitor's page; a log of an unknown
// version is refused.
func TestMonitorReplayGameLog(t *testing.T) {
	var out, errb strings.Builder
	if code := dispatch(context.Background(), []string{"monitor", "--replay", gameLogs[0], "--http", "127.0.0.1:0", "--duration", "300ms"},
		strings.NewReader(""), &out, &errb); code != 0 || !strings.Contains(out.String(), "replaying "+gameLogs[0]+": 39 GameController log messages over 26s") {
		t.Errorf("monitor --replay: exit %d\n%s%s", code, out.String(), errb.String())
	}
	data, err := os.ReadFile(gameLogs[0])
	if err != nil {
		t.Fatal(err)
	}
	version := filepath.Join(t.TempDir(), "version.yaml")
	if err := os.WriteFile(version, bytes.Replace(data, []byte("      version: 1\n"), []byte("      version: 9\n"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errb.Reset()
	if code := dispatch(context.Background(), []string{"monitor", "--replay", version, "--http", "127.0.0.1:0", "--duration", "300ms"},
		strings.NewReader(""), &out, &errb); code != 2 || !strings.Contains(errb.String(), "entry 1 (line 2): gclog: unknown log version 9") {
		t.Errorf("monitor --replay of version 9: exit %d\n%s%s", code, out.String(), errb.String())
	}
}

// TestDecodeGameLogMonitorRequest: a logged monitor request is printed as its bytes, not
// rejected.
func TestDecodeGameLogMonitorRequest(t *testing.T) {
	var b bytes.Buffer
	w := gclog.NewWriter(&b, gclog.FormTag)
	if err := w.Write(gclog.Entry{Time: time.Second, Kind: gclog.KindMonitorRequest,
		Message: &gclog.Message{Host: netip.MustParseAddr("10.0.0.9"), Data: []byte("RGTr\x00")}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	code, recs, stderr := runDecodeCmd(t, b.String())
	if code != 0 || len(recs) != 1 || recs[0]["kind"] != "monitorRequest" || recs[0]["host"] != "10.0.0.9" {
		t.Fatalf("exit %d, %v\n%s", code, recs, stderr)
	}
	// Unless a decoder knows monitor requests, its bytes.
	if r := recs[0]; r["protocol"] == "gclog" && r["data"] != "5247547200" {
		t.Errorf("record %v", r)
	}
}

// TestDecodeToGameLogForwarded: a recording made with the GameController's monitor
// channel (dnetwork record by default) holds the robots' status messages only as the
// GameController forwarded them to port 3940, after the robot's address; --to-gclog
// writes them as status messages of that robot, as the GameController logged them.
func TestDecodeToGameLogForwarded(t *testing.T) {
	t0 := time.Date(2026, 12, 7, 5, 22, 58, 0, time.UTC)
	robot := netip.MustParseAddr("10.93.0.2")
	gc := netip.MustParseAddrPort("10.93.0.1:3939")
	monitorHost := netip.MustParseAddrPort("10.93.0.9:3940")
	status := make([]byte, 0, 32)
	status = append(status, "RGrt"...)
	status = append(status, 4, 2, 17, 0)
	status = append(status, make([]byte, 24)...)
	fwd := append(robot.AsSlice(), status...)
	path := writePcapng(t,
		capture.Record{Interface: 0, Dir: transport.Received, Time: t0, Src: gc, Dst: monitorHost, Payload: fwd},
		capture.Record{Interface: 0, Dir: transport.Received, Time: t0.Add(time.Second), Src: gc, Dst: monitorHost, Payload: fwd})
	var out, errb bytes.Buffer
	if code := dispatch(context.Background(), []string{"decode", "--to-gclog", path}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	got := readGameLog(t, out.Bytes())
	if len(got) != 3 || got[2].Kind != gclog.KindEnd {
		t.Fatalf("%d entries, want 2 status messages and end\n%s%s", len(got), out.String(), errb.String())
	}
	for i, e := range got[:2] {
		if e.Kind != gclog.KindStatusMessage || e.Message.Host != robot || !bytes.Equal(e.Message.Data, status) || e.Time != time.Duration(i)*time.Second {
			t.Errorf("entry %d: %s at %v %+v, want the robot's status message at %d s", i+1, e.Kind, e.Time, e.Message, i)
		}
	}
	if !strings.Contains(errb.String(), "2 status messages, 0 team messages; 0 other datagrams left out") {
		t.Errorf("summary: %s", errb.String())
	}
}
