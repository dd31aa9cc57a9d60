package gclog

import (
	"bytes"
	"errors"
	"io"
	"net/netip"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v4"
)

// The fixtures are logs the headless GameControllers wrote while a dnetwork node played
// (testdata/README.md).
var fixtures = []string{"testdata/hsl19.yaml", "testdata/hsl20.yaml"}

func readAll(t testing.TB, data []byte) ([]Entry, error) {
	t.Helper()
	r := NewReader(bytes.NewReader(data))
	var es []Entry
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			return es, nil
		}
		if err != nil {
			return es, err
		}
		es = append(es, e)
	}
}

// countKinds counts the entry kinds by the lines that name them in a key-form log.
func countKinds(data []byte) map[Kind]int {
	n := map[Kind]int{}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "    ") && !strings.HasPrefix(l, "     ") && strings.HasSuffix(l, ":") {
			n[Kind(strings.TrimSuffix(strings.TrimSpace(l), ":"))]++
		}
		if l == "  entry: end" {
			n[KindEnd]++
		}
	}
	return n
}

func TestReadHeadlessLogs(t *testing.T) {
	for _, f := range fixtures {
		t.Run(f, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if !IsLog(data[:64]) {
				t.Fatal("IsLog: false")
			}
			es, err := readAll(t, data)
			if err != nil {
				t.Fatal(err)
			}
			got := map[Kind]int{}
			states := map[string]bool{}
			for i, e := range es {
				got[e.Kind]++
				if e.Form != FormKey || e.Index != i+1 {
					t.Errorf("entry %d: form %v index %d", i+1, e.Form, e.Index)
				}
				if i > 0 && e.Time < es[i-1].Time {
					t.Errorf("entry %d: time %v before %v", i+1, e.Time, es[i-1].Time)
				}
				switch e.Kind {
				case KindStatusMessage:
					if !bytes.HasPrefix(e.Message.Data, []byte("RGrt")) || e.Message.Host != netip.MustParseAddr("10.93.0.2") {
						t.Errorf("entry %d: status message %x from %v", i+1, e.Message.Data, e.Message.Host)
					}
				case KindTeamMessage:
					if e.Message.Team != 17 || !bytes.HasPrefix(e.Message.Data, []byte("DNt")) {
						t.Errorf("entry %d: team message of team %d: %x", i+1, e.Message.Team, e.Message.Data)
					}
				case KindGameState:
					states[e.GameState.State] = true
					if len(e.GameState.Teams[0].Players) != 20 {
						t.Errorf("entry %d: %d home players", i+1, len(e.GameState.Teams[0].Players))
					}
				case KindAction:
					if e.Action.Type == "" || e.Action.Source == "" {
						t.Errorf("entry %d: action %+v", i+1, e.Action)
					}
				}
			}
			if want := countKinds(data); !reflect.DeepEqual(got, want) {
				t.Errorf("kinds %v, the file names %v", got, want)
			}
			if es[0].Kind != KindMetadata || es[0].Metadata.Version != Version || es[0].Metadata.Creator != "GameController" {
				t.Errorf("first entry %+v", es[0])
			}
			if es[len(es)-1].Kind != KindEnd {
				t.Errorf("last entry %s", es[len(es)-1].Kind)
			}
			for _, s := range []string{"ready", "set", "playing", "finished"} {
				if !states[s] {
					t.Errorf("no gameState in %s", s)
				}
			}
			last := lastState(es)
			if last.Teams[0].Score != 1 || last.Teams[0].Players[1].Penalty != "pushing" && last.Teams[0].Players[1].Penalty != "noPenalty" {
				t.Errorf("last state: home %+v", last.Teams[0])
			}
		})
	}
}

func lastState(es []Entry) *GameState {
	var g *GameState
	for _, e := range es {
		if e.GameState != nil {
			g = e.GameState
		}
	}
	return g
}

// variantKeys are the Rust enum variants with members that the logs hold: the entry
// kinds, and the timer's Started and its BehaviorAtZero's Expire.
var variantKeys = map[string]bool{"started": true, "expire": true}

// toTagForm rewrites a key-form log (serde_yaml 0.8) into the tag form serde_yaml 0.9
// writes, mechanically: every entry's one-key map and every started/expire one-key map
// becomes its value with the key as a local tag, and the documents become one list. The
// YAML library writes the result.
func toTagForm(t testing.TB, data []byte) []byte {
	t.Helper()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	list := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		item := doc.Content[0].Content[0]
		for i := 0; i+1 < len(item.Content); i += 2 {
			if v := item.Content[i+1]; item.Content[i].Value == "entry" && v.Kind == yaml.MappingNode {
				item.Content[i+1] = tagged(v)
			}
		}
		retag(item)
		list.Content = append(list.Content, item)
	}
	var out bytes.Buffer
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	if err := enc.Encode(list); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func tagged(m *yaml.Node) *yaml.Node {
	v := m.Content[1]
	v.Tag = "!" + m.Content[0].Value
	return v
}

func retag(n *yaml.Node) {
	for i, c := range n.Content {
		if c.Kind == yaml.MappingNode && len(c.Content) == 2 && variantKeys[c.Content[0].Value] {
			n.Content[i] = tagged(c)
		}
		retag(n.Content[i])
	}
}

func TestReadTagForm(t *testing.T) {
	for _, f := range fixtures {
		t.Run(f, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			tag := toTagForm(t, data)
			if !bytes.Contains(tag, []byte("entry: !statusMessage\n")) || !bytes.Contains(tag, []byte("!started")) || bytes.Contains(tag, []byte("---")) {
				t.Fatalf("the transformation did not give the tag form:\n%.600s", tag)
			}
			if !IsLog(tag) {
				t.Fatal("IsLog: false for the tag form")
			}
			want, err := readAll(t, data)
			if err != nil {
				t.Fatal(err)
			}
			got, err := readAll(t, tag)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("%d entries, want %d", len(got), len(want))
			}
			for i := range got {
				if got[i].Form != FormTag {
					t.Errorf("entry %d: form %v", i+1, got[i].Form)
				}
				got[i].Form, got[i].Line = want[i].Form, want[i].Line
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Errorf("entry %d:\n got %+v\nwant %+v", i+1, got[i], want[i])
				}
			}
		})
	}
}

// entryText returns the text of each entry of a key-form log, with its `---` line.
func entryText(data []byte) []string {
	parts := strings.Split(string(data), "---\n")
	var out []string
	for _, p := range parts[1:] {
		out = append(out, "---\n"+p)
	}
	return out
}

// TestWriteLikeTheGameController writes a headless log's messages and end again in the
// key form: each entry is byte for byte the GameController's.
func TestWriteLikeTheGameController(t *testing.T) {
	for _, f := range fixtures {
		t.Run(f, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			es, err := readAll(t, data)
			if err != nil {
				t.Fatal(err)
			}
			texts := entryText(data)
			if len(texts) != len(es) {
				t.Fatalf("%d entry texts for %d entries", len(texts), len(es))
			}
			n := 0
			for i, e := range es {
				if e.Message == nil && e.Kind != KindEnd {
					continue
				}
				var b bytes.Buffer
				w := NewWriter(&b, FormKey)
				if err := w.Write(e); err != nil {
					t.Fatal(err)
				}
				if err := w.Flush(); err != nil {
					t.Fatal(err)
				}
				if b.String() != texts[i] {
					t.Errorf("entry %d written as\n%s\nthe GameController wrote\n%s", i+1, b.String(), texts[i])
				}
				n++
			}
			if n < 20 {
				t.Errorf("only %d messages compared", n)
			}
		})
	}
}

func TestWriteRoundTrip(t *testing.T) {
	data, err := os.ReadFile(fixtures[1])
	if err != nil {
		t.Fatal(err)
	}
	es, err := readAll(t, data)
	if err != nil {
		t.Fatal(err)
	}
	var msgs []Entry
	for _, e := range es {
		if e.Message != nil || e.Kind == KindEnd {
			msgs = append(msgs, e)
		}
	}
	// Data that YAML would read as a number unless quoted.
	msgs = append(msgs[:len(msgs)-1], Entry{Time: msgs[len(msgs)-1].Time, Kind: KindStatusMessage,
		Message: &Message{Host: netip.MustParseAddr("::1"), Data: []byte{0xd7, 0x6d, 0xf8, 0xe7}}}, msgs[len(msgs)-1])
	for _, form := range []Form{FormTag, FormKey} {
		var b bytes.Buffer
		w := NewWriter(&b, form)
		for _, e := range msgs {
			if err := w.Write(e); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		got, err := readAll(t, b.Bytes())
		if err != nil {
			t.Fatalf("form %v: %v\n%s", form, err, b.String())
		}
		if len(got) != len(msgs) {
			t.Fatalf("form %v: %d entries, want %d", form, len(got), len(msgs))
		}
		for i := range got {
			want := msgs[i]
			want.Index, want.Line, want.Form = got[i].Index, got[i].Line, got[i].Form
			if !reflect.DeepEqual(got[i], want) {
				t.Errorf("form %v entry %d:\n got %+v\nwant %+v", form, i+1, got[i], want)
			}
		}
		// The YAML library reads the same list.
		var plain []map[string]any
		if form == FormTag {
			if err := yaml.Unmarshal(b.Bytes(), &plain); err != nil || len(plain) != len(msgs) {
				t.Errorf("form %v: yaml: %v, %d items", form, err, len(plain))
			}
		}
	}
	if err := NewWriter(io.Discard, FormTag).Write(Entry{Kind: KindGameState}); !errors.Is(err, ErrUnwritable) {
		t.Errorf("writing a gameState: %v, want ErrUnwritable", err)
	}
}

// TestBadInput: a truncated or malformed log gives every entry before the bad one, then
// an *Error that names the bad entry and its line.
func TestBadInput(t *testing.T) {
	data, err := os.ReadFile(fixtures[1])
	if err != nil {
		t.Fatal(err)
	}
	all, err := readAll(t, data)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	// The 10th entry, and the first message from it on.
	bad := all[9]
	m := 9
	for all[m].Message == nil {
		m++
	}
	before := func(n int) string { return strings.Join(lines[:n], "") }
	after := func(n int) string { return strings.Join(lines[n:], "") }
	cases := []struct {
		name  string
		input string
		at    int // index of the bad entry
		want  error
		line  int // the line the error names after the entry's, 0 for none
	}{
		{"cut mid-line", before(bad.Line+1) + lines[bad.Line+1][:5], 9, ErrTruncated, 0},
		{"cut after timestamp", before(bad.Line + 2), 9, ErrMalformed, 0},
		{"bad indentation", before(bad.Line+2) + "   nanos: 1\n" + after(bad.Line+3), 9, ErrMalformed, bad.Line + 3},
		{"bad host", before(all[m].Line) + strings.Replace(after(all[m].Line), "host: 10.93.0.2", "host: 10.93.0.299", 1), m, ErrMalformed, 0},
		{"bad base64", before(all[m].Line) + strings.Replace(after(all[m].Line), "data: ", "data: *", 1), m, ErrMalformed, 0},
		{"unknown kind", before(bad.Line+3) + "  entry: halfTime\n", 9, ErrMalformed, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			es, err := readAll(t, []byte(c.input))
			var le *Error
			if !errors.As(err, &le) || !errors.Is(err, c.want) {
				t.Fatalf("error %v, want an *Error wrapping %v", err, c.want)
			}
			n := c.at
			if len(es) != n || le.Entry != n+1 || le.Line != all[n].Line {
				t.Fatalf("%d entries then %v; want %d entries then an error naming entry %d at line %d", len(es), err, n, n+1, all[n].Line)
			}
			if !reflect.DeepEqual(es, all[:n]) {
				t.Error("the entries before the bad one differ")
			}
			if c.line != 0 && !strings.Contains(err.Error(), "line "+strconv.Itoa(c.line)+":") {
				t.Errorf("%v does not name line %d", err, c.line)
			}
		})
	}
}

func TestUnknownVersion(t *testing.T) {
	data, err := os.ReadFile(fixtures[0])
	if err != nil {
		t.Fatal(err)
	}
	bad := bytes.Replace(data, []byte("      version: 1\n"), []byte("      version: 2\n"), 1)
	if bytes.Equal(bad, data) {
		t.Fatal("no version line")
	}
	es, err := readAll(t, bad)
	if !errors.Is(err, ErrVersion) || !strings.Contains(err.Error(), "version 2") || len(es) != 0 {
		t.Fatalf("%d entries, error %v; want ErrVersion naming version 2", len(es), err)
	}
}

func TestNotALog(t *testing.T) {
	for _, in := range []string{"foo: 1\n", "hello\n- timestamp:\n"} {
		if IsLog([]byte(in)) {
			t.Errorf("IsLog(%q)", in)
		}
		if _, err := readAll(t, []byte(in)); !errors.Is(err, ErrNotLog) {
			t.Errorf("%q: %v, want ErrNotLog", in, err)
		}
	}
}

// TestGameStateMembers: a game state without the members a monitor can do without is
// read; one without its state is not.
func TestGameStateMembers(t *testing.T) {
	data, err := os.ReadFile(fixtures[1])
	if err != nil {
		t.Fatal(err)
	}
	var text string
	for _, e := range entryText(data) {
		if strings.Contains(e, "    gameState:\n") {
			text = e
			break
		}
	}
	var kept []string
	for _, l := range strings.SplitAfter(text, "\n") {
		if !strings.Contains(l, "messageBudget:") && !strings.Contains(l, "      stopped:") {
			kept = append(kept, l)
		}
	}
	es, err := readAll(t, []byte(strings.Join(kept, "")))
	if err != nil || len(es) != 1 || es[0].GameState.Teams[0].MessageBudget != 0 || es[0].GameState.State != "ready" {
		t.Fatalf("without messageBudget and stopped: %v, %+v", err, es)
	}
	noState := strings.Replace(text, "      state: ready\n", "", 1)
	if _, err := readAll(t, []byte(noState)); !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "no state") {
		t.Fatalf("without state: %v", err)
	}
}

// TestLongEntry: an entry longer than maxEntry is refused, not buffered without bound.
func TestLongEntry(t *testing.T) {
	for _, in := range []string{
		"- timestamp:\n    secs: " + strings.Repeat("1", maxEntry+1) + "\n", // one long line
		"- timestamp:\n" + strings.Repeat("    secs: 1\n", maxEntry/12+1),   // many lines
	} {
		_, err := readAll(t, []byte(in))
		var le *Error
		if !errors.As(err, &le) || !errors.Is(err, ErrMalformed) || le.Entry != 1 || le.Line != 1 {
			t.Errorf("%v, want an *Error naming entry 1 at line 1", err)
		}
	}
}

// TestWriteRefusedLeavesNoTrace: an entry the Writer refuses writes nothing, so a caller
// that skips it and goes on still writes a log that reads back.
func TestWriteRefusedLeavesNoTrace(t *testing.T) {
	ok := Entry{Time: time.Second, Kind: KindTeamMessage, Message: &Message{Host: netip.MustParseAddr("10.0.0.1"), Team: 5, Data: []byte("DNt")}}
	for _, form := range []Form{FormTag, FormKey} {
		var b bytes.Buffer
		w := NewWriter(&b, form)
		for _, bad := range []Entry{
			{Kind: KindGameState},
			{Kind: KindStatusMessage},
			{Kind: KindStatusMessage, Message: &Message{Data: []byte("RGrt")}},
			{Time: -time.Second, Kind: KindEnd},
		} {
			if err := w.Write(bad); !errors.Is(err, ErrUnwritable) {
				t.Fatalf("form %v: writing %+v: %v, want ErrUnwritable", form, bad, err)
			}
		}
		if err := w.Write(ok); err != nil {
			t.Fatal(err)
		}
		if err := w.Write(Entry{Time: 2 * time.Second, Kind: KindEnd}); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		got, err := readAll(t, b.Bytes())
		if err != nil || len(got) != 2 || got[0].Kind != KindTeamMessage || got[1].Kind != KindEnd {
			t.Fatalf("form %v: read back %d entries, %v; want the team message and end\n%s", form, len(got), err, b.String())
		}
	}
}
