package gclog

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v4"
)

// maxEntry bounds one entry's size (a gameState entry is about 8 KiB).
const maxEntry = 16 << 20

// IsLog reports whether head, the start of a file, is the start of a GameController
// log: after blank lines, comments and `---` lines, its first line is `- timestamp:`.
func IsLog(head []byte) bool {
	for len(head) > 0 {
		line, rest, found := bytes.Cut(head, []byte("\n"))
		t := bytes.TrimRight(line, " \t\r")
		switch {
		case len(t) == 0 || t[0] == '#' || bytes.Equal(t, []byte("---")):
			if !found {
				return false
			}
			head = rest
			continue
		}
		return bytes.Equal(t, []byte("- timestamp:"))
	}
	return false
}

// Reader reads a log's entries one at a time.
type Reader struct {
	br      *bufio.Reader
	line    int    // lines read
	pending []byte // a line read that starts the next entry
	pendAt  int    // its line number
	entries int
	form    Form  // of the last entry
	err     error // sticky
}

// NewReader returns a Reader of the log r.
func NewReader(r io.Reader) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 64<<10)}
}

// Next returns the next entry, io.EOF after the last one. An error (an *Error for a
// bad entry) ends the log: Next returns it again.
func (r *Reader) Next() (Entry, error) {
	if r.err != nil {
		return Entry{}, r.err
	}
	chunk, start, err := r.chunk()
	if err != nil {
		r.err = err
		return Entry{}, err
	}
	r.entries++
	e, err := decodeEntry(chunk, start)
	if err != nil {
		r.err = &Error{Entry: r.entries, Line: start, Err: err}
		return Entry{}, r.err
	}
	e.Index, e.Line = r.entries, start
	if e.Kind == KindEnd { // a unit variant is written alike in both forms
		e.Form = r.form
	}
	r.form = e.Form
	if e.Kind == KindMetadata && e.Metadata.Version != Version {
		r.err = &Error{Entry: r.entries, Line: start, Err: fmt.Errorf("%w %d (this reader knows version %d)", ErrVersion, e.Metadata.Version, Version)}
		return Entry{}, r.err
	}
	return e, nil
}

// Entries returns the number of entries Next has cut from the log (the bad one
// included).
func (r *Reader) Entries() int { return r.entries }

// readLine returns the next line with its newline, nil at the end of the input.
func (r *Reader) readLine() ([]byte, error) {
	var line []byte
	for {
		frag, err := r.br.ReadSlice('\n')
		line = append(line, frag...)
		if len(line) > maxEntry {
			return nil, fmt.Errorf("%w: line %d is longer than %d bytes", ErrMalformed, r.line+1, maxEntry)
		}
		switch {
		case err == nil:
			r.line++
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if len(line) > 0 {
				r.line++
			}
			return line, nil
		default:
			return nil, err
		}
	}
}

// startsEntry reports whether line begins a top-level sequence item.
func startsEntry(line []byte) bool {
	return len(line) >= 2 && line[0] == '-' && (line[1] == ' ' || line[1] == '\n' || line[1] == '\r')
}

// isDocMark reports whether line is a document start or end marker.
func isDocMark(line []byte) bool {
	t := bytes.TrimRight(line, " \t\r\n")
	return bytes.Equal(t, []byte("---")) || bytes.Equal(t, []byte("..."))
}

// chunk returns the text of the next entry and the line it starts on.
func (r *Reader) chunk() ([]byte, int, error) {
	var buf []byte
	start := 0
	if r.pending != nil {
		buf, start, r.pending = r.pending, r.pendAt, nil
	}
	for {
		line, err := r.readLine()
		if err != nil {
			if buf == nil {
				start = r.line + 1
			}
			return nil, 0, &Error{Entry: r.entries + 1, Line: start, Err: err}
		}
		if len(line) == 0 { // end of input
			if buf == nil {
				return nil, 0, io.EOF
			}
			if buf[len(buf)-1] != '\n' {
				return nil, 0, &Error{Entry: r.entries + 1, Line: start, Err: fmt.Errorf("%w: the input ends inside line %d", ErrTruncated, r.line)}
			}
			return buf, start, nil
		}
		switch {
		case startsEntry(line):
			if buf != nil {
				r.pending, r.pendAt = line, r.line
				return buf, start, nil
			}
			buf, start = line, r.line
		case isDocMark(line):
			if buf != nil {
				return buf, start, nil
			}
		case buf == nil:
			t := bytes.TrimSpace(line)
			if len(t) != 0 && t[0] != '#' && t[0] != '%' {
				return nil, 0, fmt.Errorf("%w: line %d is not a list entry: %.40q", ErrNotLog, r.line, t)
			}
		default:
			if len(buf)+len(line) > maxEntry {
				return nil, 0, &Error{Entry: r.entries + 1, Line: start, Err: fmt.Errorf("%w: longer than %d bytes", ErrMalformed, maxEntry)}
			}
			buf = append(buf, line...)
		}
	}
}

// decodeEntry decodes one entry's text (a one-item sequence) that starts on line start.
func decodeEntry(chunk []byte, start int) (Entry, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(chunk, &doc); err != nil {
		var le *yaml.LoadError
		if errors.As(err, &le) && le.Mark.Line > 0 {
			return Entry{}, fmt.Errorf("%w: line %d: %s", ErrMalformed, start+le.Mark.Line-1, le.Message)
		}
		return Entry{}, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	d := decoder{offset: start - 1}
	e := d.entry(&doc)
	return e, d.err
}

// decoder walks an entry's YAML nodes; the first problem sticks in err.
type decoder struct {
	offset int // added to node lines
	err    error
}

func (d *decoder) fail(n *yaml.Node, format string, args ...any) {
	if d.err != nil {
		return
	}
	msg := fmt.Sprintf(format, args...)
	if n != nil && n.Line > 0 {
		msg = fmt.Sprintf("line %d: %s", d.offset+n.Line, msg)
	}
	d.err = fmt.Errorf("%w: %s", ErrMalformed, msg)
}

func (d *decoder) entry(doc *yaml.Node) Entry {
	n := doc
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	if n.Kind != yaml.SequenceNode || len(n.Content) != 1 {
		d.fail(n, "an entry is a list of one item")
		return Entry{}
	}
	item := n.Content[0]
	var e Entry
	e.Time = d.duration(d.member(item, "timestamp", true))
	kind, body, form := d.variant(d.member(item, "entry", true))
	if d.err != nil {
		return Entry{}
	}
	e.Kind, e.Form = Kind(kind), form
	switch e.Kind {
	case KindMetadata:
		e.Metadata = d.metadata(body)
	case KindAction:
		e.Action = d.action(body)
	case KindGameState:
		e.GameState = d.gameState(body)
	case KindMonitorRequest, KindStatusMessage, KindTeamMessage:
		e.Message = d.message(body, e.Kind == KindTeamMessage)
	case KindEnd:
		if body != nil {
			d.fail(body, "end has no members")
		}
	default:
		d.fail(item, "unknown entry kind %q", kind)
	}
	return e
}

// localTag returns n's tag if it is a local one (`!name`), else "".
func localTag(n *yaml.Node) string {
	if strings.HasPrefix(n.Tag, "!") && !strings.HasPrefix(n.Tag, "!!") {
		return n.Tag[1:]
	}
	return ""
}

// variant splits a Rust enum value as serde_yaml writes it: a tagged node (0.9), a
// map of one key (0.8), or a plain scalar for a unit variant (both).
func (d *decoder) variant(n *yaml.Node) (name string, body *yaml.Node, form Form) {
	if n == nil {
		return "", nil, FormTag
	}
	if t := localTag(n); t != "" {
		if n.Kind == yaml.ScalarNode && n.Value == "" && n.Style == 0 {
			return t, nil, FormTag
		}
		return t, n, FormTag
	}
	switch {
	case n.Kind == yaml.MappingNode && len(n.Content) == 2 && n.Content[0].Kind == yaml.ScalarNode:
		return n.Content[0].Value, n.Content[1], FormKey
	case n.Kind == yaml.ScalarNode && n.Value != "":
		return n.Value, nil, FormTag
	}
	d.fail(n, "want an enum variant (a tag, a map of one key or a name)")
	return "", nil, FormTag
}

// member returns the value of key in the mapping n, nil if it is absent (a problem if
// required).
func (d *decoder) member(n *yaml.Node, key string, required bool) *yaml.Node {
	if d.err != nil {
		return nil
	}
	if n == nil || n.Kind != yaml.MappingNode {
		d.fail(n, "want a map holding %s", key)
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	if required {
		d.fail(n, "no %s", key)
	}
	return nil
}

func (d *decoder) scalar(n *yaml.Node, what string) string {
	if d.err != nil {
		return ""
	}
	if n == nil || n.Kind != yaml.ScalarNode {
		d.fail(n, "%s: want a scalar", what)
		return ""
	}
	return n.Value
}

func (d *decoder) str(n *yaml.Node, key string) string {
	return d.scalar(d.member(n, key, true), key)
}

func (d *decoder) uint(n *yaml.Node, key string, bits int) uint64 {
	s := d.scalar(d.member(n, key, true), key)
	if d.err != nil {
		return 0
	}
	v, err := strconv.ParseUint(s, 10, bits)
	if err != nil {
		d.fail(n, "%s: %q is not a %d-bit unsigned number", key, s, bits)
	}
	return v
}

func (d *decoder) bool(n *yaml.Node, key string) bool {
	s := d.scalar(d.member(n, key, true), key)
	if d.err != nil {
		return false
	}
	v, err := strconv.ParseBool(s)
	if err != nil {
		d.fail(n, "%s: %q is not true or false", key, s)
	}
	return v
}

// duration reads a Rust Duration ({secs, nanos}).
func (d *decoder) duration(n *yaml.Node) time.Duration {
	secs := d.uint(n, "secs", 64)
	nanos := d.uint(n, "nanos", 32)
	if d.err == nil && (nanos >= 1e9 || secs > math.MaxInt64/uint64(time.Second)-1) {
		d.fail(n, "duration %d s %d ns out of range", secs, nanos)
	}
	return time.Duration(secs)*time.Second + time.Duration(nanos)
}

func (d *decoder) metadata(n *yaml.Node) *Metadata {
	m := &Metadata{Creator: d.str(n, "creator"), Version: uint32(d.uint(n, "version", 32))}
	if ts := d.str(n, "timestamp"); d.err == nil {
		t, err := time.Parse(time.RFC3339Nano, ts)
		if err != nil {
			d.fail(n, "timestamp %q is not RFC 3339", ts)
		}
		m.Timestamp = t
	}
	return m
}

func (d *decoder) action(n *yaml.Node) *Action {
	a := &Action{Source: d.str(n, "source")}
	typ, args, _ := d.variantAction(d.member(n, "action", true))
	a.Type = typ
	if args != nil && !(args.Kind == yaml.ScalarNode && args.Tag == "!!null") && d.err == nil {
		plain := untag(args)
		if err := plain.Decode(&a.Args); err != nil {
			d.fail(args, "action %s: args: %v", typ, err)
		}
	}
	return a
}

// variantAction splits a VAction ({type, args}, serde's adjacent tagging).
func (d *decoder) variantAction(n *yaml.Node) (string, *yaml.Node, bool) {
	typ := d.str(n, "type")
	return typ, d.member(n, "args", false), d.err == nil
}

// untag returns a copy of n with every local tag written as a map of one key, the form
// the YAML library decodes into Go maps.
func untag(n *yaml.Node) *yaml.Node {
	c := *n
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, k := range n.Content {
		c.Content[i] = untag(k)
	}
	if t := localTag(n); t != "" {
		c.Tag = ""
		return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Column: n.Column,
			Content: []*yaml.Node{{Kind: yaml.ScalarNode, Tag: "!!str", Value: t}, &c}}
	}
	return &c
}

func (d *decoder) message(n *yaml.Node, team bool) *Message {
	m := &Message{}
	host := d.str(n, "host")
	if d.err == nil {
		a, err := netip.ParseAddr(host)
		if err != nil {
			d.fail(n, "host %q is not an IP address", host)
		}
		m.Host = a
	}
	if team {
		m.Team = uint8(d.uint(n, "team", 8))
	}
	data := d.str(n, "data")
	if d.err == nil {
		b, err := base64.StdEncoding.DecodeString(data)
		if err != nil {
			d.fail(n, "data: %v", err)
		}
		m.Data = b
	}
	return m
}

func (d *decoder) timer(n *yaml.Node) Timer {
	name, body, _ := d.variant(n)
	switch {
	case d.err != nil:
	case name == "stopped" && body == nil:
	case name == "started":
		r := d.member(body, "remaining", true)
		if d.err == nil && (r.Kind != yaml.SequenceNode || len(r.Content) != 2) {
			d.fail(r, "remaining: want [seconds, nanoseconds]")
			return Timer{}
		}
		if d.err != nil {
			return Timer{}
		}
		s, err1 := strconv.ParseInt(r.Content[0].Value, 10, 32)
		ns, err2 := strconv.ParseInt(r.Content[1].Value, 10, 32)
		if err1 != nil || err2 != nil || ns <= -1e9 || ns >= 1e9 {
			d.fail(r, "remaining: want [seconds, nanoseconds]")
		}
		return Timer{Started: true, Remaining: time.Duration(s)*time.Second + time.Duration(ns)}
	default:
		d.fail(n, "unknown timer %q", name)
	}
	return Timer{}
}

func (d *decoder) gameState(n *yaml.Node) *GameState {
	g := &GameState{Phase: d.str(n, "phase"), State: d.str(n, "state"), SetPlay: d.str(n, "setPlay")}
	// Members a monitor can do without are optional, so that a GameController that
	// drops one still has its logs read.
	if d.has(n, "sides") {
		g.Sides = d.str(n, "sides")
	}
	if d.has(n, "stopped") {
		g.Stopped = d.bool(n, "stopped")
	}
	if t := d.member(n, "primaryTimer", false); t != nil {
		g.PrimaryTimer = d.timer(t)
	}
	if t := d.member(n, "secondaryTimer", false); t != nil {
		g.SecondaryTimer = d.timer(t)
	}
	if k := d.member(n, "kickingSide", false); k != nil && k.Tag != "!!null" {
		g.KickingSide = d.scalar(k, "kickingSide")
	}
	teams := d.member(n, "teams", true)
	for i, side := range []string{"home", "away"} {
		g.Teams[i] = d.team(d.member(teams, side, true))
	}
	if d.err != nil {
		return nil
	}
	return g
}

// has reports whether the mapping n holds key.
func (d *decoder) has(n *yaml.Node, key string) bool {
	return d.member(n, key, false) != nil
}

func (d *decoder) team(n *yaml.Node) Team {
	t := Team{Score: uint8(d.uint(n, "score", 8))}
	for _, m := range []struct {
		key string
		v   *uint32
	}{{"penaltyCounter", &t.PenaltyCounter}, {"timeoutBudget", &t.TimeoutBudget}, {"messageBudget", &t.MessageBudget}, {"penaltyShot", &t.PenaltyShot}} {
		if d.has(n, m.key) {
			*m.v = uint32(d.uint(n, m.key, 32))
		}
	}
	if d.has(n, "illegalCommunication") {
		t.IllegalCommunication = d.bool(n, "illegalCommunication")
	}
	if k := d.member(n, "goalkeeper", false); k != nil && k.Tag != "!!null" {
		t.Goalkeeper = uint8(d.uint(n, "goalkeeper", 8))
	}
	ps := d.member(n, "players", true)
	if d.err != nil {
		return t
	}
	if ps.Kind != yaml.SequenceNode {
		d.fail(ps, "players: want a list")
		return t
	}
	for _, p := range ps.Content {
		pl := Player{Penalty: d.str(p, "penalty")}
		if pt := d.member(p, "penaltyTimer", false); pt != nil {
			pl.PenaltyTimer = d.timer(pt)
		}
		if d.has(p, "cautions") {
			pl.Cautions = uint8(d.uint(p, "cautions", 8))
		}
		t.Players = append(t.Players, pl)
	}
	return t
}
