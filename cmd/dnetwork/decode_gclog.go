package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"os"
	"slices"
	"time"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
	"github.com/robocup-dnetwork/dnetwork/proto/gclog"
	"github.com/robocup-dnetwork/dnetwork/transport"
	"github.com/robocup-dnetwork/dnetwork/transport/capture"
)

// logInfo leads every record printed from a GameController log.
type logInfo struct {
	Entry   int     `json:"entry"`
	Line    int     `json:"line"`
	LogTime float64 `json:"log_time_s"` // since the game's start
	Kind    string  `json:"kind"`
	Host    string  `json:"host,omitempty"`
	Team    *uint8  `json:"team,omitempty"`
}

// logRecord is an entry of a GameController log that holds no datagram.
type logRecord struct {
	Protocol  string           `json:"protocol"`
	Metadata  *gclog.Metadata  `json:"metadata,omitempty"`
	Action    *gclog.Action    `json:"action,omitempty"`
	GameState *gclog.GameState `json:"game_state,omitempty"`
	Data      string           `json:"data,omitempty"` // a monitor request no decoder knows, as hex
}

// gameLog prints every entry of a GameController log: a status or team message as
// the decoder of its protocol decodes it, the others as read. A bad entry ends the
// log with an error, after the entries before it.
func (r *decodeRun) gameLog(in io.Reader, label string) error {
	rd := gclog.NewReader(in)
	counts := map[gclog.Kind]int{}
	var last gclog.Kind
	for {
		e, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("%s: %w", label, err)
		}
		counts[e.Kind]++
		last = e.Kind
		info := logInfo{Entry: e.Index, Line: e.Line, LogTime: e.Time.Seconds(), Kind: string(e.Kind)}
		var v any = logRecord{Protocol: "gclog", Metadata: e.Metadata, Action: e.Action, GameState: e.GameState}
		if m := e.Message; m != nil {
			info.Host = m.Host.String()
			if e.Kind == gclog.KindTeamMessage {
				info.Team = &m.Team
			}
			if v = r.decodeMessage(e.Kind, m.Data, fmt.Sprintf("%s:%d", label, e.Line)); v == nil {
				continue
			}
		}
		if err := r.out.Encode(merged(info, v)); err != nil {
			return err
		}
	}
	end := "no end entry: the GameController did not close the log"
	if last == gclog.KindEnd {
		end = "closed by an end entry"
	}
	fmt.Fprintf(r.stderr, "dnetwork decode: %s: GameController log, %d entries (%d status messages, %d team messages, %d game states, %d actions), %s\n",
		label, rd.Entries(), counts[gclog.KindStatusMessage], counts[gclog.KindTeamMessage], counts[gclog.KindGameState], counts[gclog.KindAction], end)
	return nil
}

// decodeMessage decodes a logged datagram with the decoder that recognises it (or the
// forced one); nil when the forced decoder does not take it. A monitor request no
// decoder knows is printed as its bytes, not rejected.
func (r *decodeRun) decodeMessage(kind gclog.Kind, b []byte, src string) any {
	d := r.forced
	if d != nil && d.match != nil && !d.match(b) {
		return nil
	}
	if d == nil {
		d = r.detect(b)
	}
	if d == nil && kind == gclog.KindMonitorRequest && r.forced == nil {
		return logRecord{Protocol: "gclog", Data: hex.EncodeToString(b)}
	}
	r.total++
	if d == nil {
		r.rejected++
		return errorRecord{Protocol: "unknown", Source: src, Length: len(b),
			Error: fmt.Sprintf("no known protocol matches %d bytes starting % x", len(b), b[:min(len(b), 8)])}
	}
	v, err := d.decode(b, r.opts)
	if err != nil {
		r.rejected++
		return errorRecord{Protocol: d.proto, Source: src, Length: len(b), Error: err.Error()}
	}
	return v
}

// Team ports as the GameController listens on them: 10000 + team number.
const (
	teamPortBase = 10000
	teamPortMax  = teamPortBase + 255
)

// writeGameLog writes the status and team messages of recordings as a GameController
// log: a datagram to the return port (3939) that is a return packet is a status
// message, and so is one the GameController forwarded to a monitor (3940: the robot's
// address, then its return packet), from the robot's address; one to a team port
// (10000 + team) is a team message of that team, each at its
// time since the recordings' first datagram; an end entry closes the log. A datagram
// the recording host sent and also recorded receiving (its own broadcast) is written
// once.
func writeGameLog(files []string, form gclog.Form, out, stderr io.Writer) int {
	var pkts []capture.Packet
	for _, f := range files {
		p, err := capture.ReadFile(f)
		if err != nil {
			if len(p) == 0 {
				fmt.Fprintf(stderr, "dnetwork decode: %v\n", err)
				return 2
			}
			fmt.Fprintf(stderr, "dnetwork decode: %v (writing the %d datagrams before it)\n", err, len(p))
		}
		pkts = append(pkts, p...)
	}
	slices.SortStableFunc(pkts, func(a, b capture.Packet) int { return a.Time.Compare(b.Time) })
	type key struct {
		src     netip.AddrPort
		payload string
	}
	received := map[key][]time.Time{}
	for _, p := range pkts {
		if p.Dir != transport.Sent {
			k := key{p.Src, string(p.Payload)}
			received[k] = append(received[k], p.Time)
		}
	}
	w := gclog.NewWriter(out, form)
	var start, last time.Time
	var status, team, skipped int
	for _, p := range pkts {
		if start.IsZero() {
			start = p.Time
		}
		last = p.Time
		e := gclog.Entry{Time: p.Time.Sub(start), Message: &gclog.Message{Host: p.Src.Addr().Unmap(), Data: p.Payload}}
		port := p.Dst.Port()
		switch {
		case port == gcproto.ReturnPort && bytes.HasPrefix(p.Payload, []byte(gcproto.MagicReturn)):
			e.Kind = gclog.KindStatusMessage
			status++
		case port == gcproto.StatusForwardPort:
			src, msg, err := gcproto.DecodeForward(p.Payload)
			if err != nil || !bytes.HasPrefix(msg, []byte(gcproto.MagicReturn)) {
				skipped++
				continue
			}
			e.Kind, e.Message.Host, e.Message.Data = gclog.KindStatusMessage, src, msg
			status++
		case port > teamPortBase && port < teamPortMax:
			e.Kind, e.Message.Team = gclog.KindTeamMessage, uint8(port-teamPortBase)
			team++
		default:
			skipped++
			continue
		}
		if p.Dir == transport.Sent && slices.ContainsFunc(received[key{p.Src, string(p.Payload)}], func(t time.Time) bool {
			d := t.Sub(p.Time)
			return d > -time.Second && d < time.Second
		}) {
			if e.Kind == gclog.KindStatusMessage {
				status--
			} else {
				team--
			}
			skipped++
			continue
		}
		if err := w.Write(e); err != nil {
			fmt.Fprintf(stderr, "dnetwork decode: %v\n", err)
			return 2
		}
	}
	err := w.Write(gclog.Entry{Time: last.Sub(start), Kind: gclog.KindEnd})
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		fmt.Fprintf(stderr, "dnetwork decode: %v\n", err)
		return 2
	}
	fmt.Fprintf(stderr, "dnetwork decode: GameController log (%s form): %d status messages, %d team messages; %d other datagrams left out\n",
		form, status, team, skipped)
	return 0
}

// readGameLogFile reads the entries of path if it is a GameController log (ok false
// if it is not one). On a bad entry it returns the entries before it and the error.
func readGameLogFile(path string) (entries []gclog.Entry, ok bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	if head, _ := br.Peek(512); !gclog.IsLog(head) {
		return nil, false, nil
	}
	r := gclog.NewReader(br)
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			return entries, true, nil
		}
		if err != nil {
			return entries, true, fmt.Errorf("%s: %w", path, err)
		}
		entries = append(entries, e)
	}
}
