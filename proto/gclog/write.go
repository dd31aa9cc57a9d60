package gclog

import (
	"bufio"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// ErrUnwritable: an entry the Writer does not write (only messages and end).
var ErrUnwritable = errors.New("gclog: entry kind not written")

// Writer writes a log of message entries (statusMessage, teamMessage, monitorRequest)
// and the closing end entry, in one Form, as the GameController's logger writes them
// (serde_yaml's block style, two-space indents). It writes no metadata entry, which
// needs the game's parameters; the GameController's replay skips metadata when it is
// absent.
type Writer struct {
	bw   *bufio.Writer
	form Form
}

// NewWriter returns a Writer of w in form.
func NewWriter(w io.Writer, form Form) *Writer {
	return &Writer{bw: bufio.NewWriter(w), form: form}
}

// Write writes e (its Time, Kind and Message). An entry it refuses (ErrUnwritable)
// writes nothing, so the log stays readable when the caller goes on.
func (w *Writer) Write(e Entry) error {
	if e.Time < 0 {
		return fmt.Errorf("%w: negative time %v", ErrUnwritable, e.Time)
	}
	switch e.Kind {
	case KindEnd:
	case KindStatusMessage, KindTeamMessage, KindMonitorRequest:
		if e.Message == nil || !e.Message.Host.IsValid() {
			return fmt.Errorf("%w: %s without host", ErrUnwritable, e.Kind)
		}
	default:
		return fmt.Errorf("%w: %q", ErrUnwritable, e.Kind)
	}
	if w.form == FormKey {
		w.bw.WriteString("---\n")
	}
	secs, nanos := e.Time/time.Second, e.Time%time.Second
	fmt.Fprintf(w.bw, "- timestamp:\n    secs: %d\n    nanos: %d\n", secs, nanos)
	if e.Kind == KindEnd {
		w.bw.WriteString("  entry: end\n")
		return nil
	}
	ind := "    "
	if w.form == FormKey {
		fmt.Fprintf(w.bw, "  entry:\n    %s:\n", e.Kind)
		ind = "      "
	} else {
		fmt.Fprintf(w.bw, "  entry: !%s\n", e.Kind)
	}
	if e.Kind == KindTeamMessage {
		fmt.Fprintf(w.bw, "%steam: %d\n", ind, e.Message.Team)
	}
	host := e.Message.Host.Unmap().String()
	if strings.Contains(host, ":") { // IPv6: quoted, as a YAML emitter quotes what starts with ':'
		host = `"` + host + `"`
	}
	fmt.Fprintf(w.bw, "%shost: %s\n%sdata: %s\n", ind, host, ind, yamlString(base64.StdEncoding.EncodeToString(e.Message.Data)))
	return nil
}

// Flush writes out what is buffered.
func (w *Writer) Flush() error { return w.bw.Flush() }

// yamlString writes a base64 string as a YAML string: plain where no YAML reader
// could take it for a number, a boolean or null, else double-quoted.
func yamlString(s string) string {
	if s == "" || strings.ContainsAny(s[:1], "0123456789+-.") {
		return `"` + s + `"`
	}
	switch strings.ToLower(s) {
	case "null", "true", "false", "yes", "no", "on", "off", "y", "n":
		return `"` + s + `"`
	}
	return s
}
