package node

import (
	"context"
	"log/slog"
	"strconv"
	"strings"

	"github.com/robocup-dnetwork/dnetwork/ros"
)

// SlogLogger returns a *slog.Logger that writes through the ROS logger l, so that the
// components' logs reach stderr and /rosout like every other line of the node.
// A "component" attribute (the components add one) selects the child logger
// "<l's name>.<component>" instead of being printed; other attributes follow the
// message as key=value.
func SlogLogger(l *ros.Logger) *slog.Logger {
	return slog.New(&rosHandler{log: l})
}

// rosHandler is a slog.Handler writing to a ros.Logger.
type rosHandler struct {
	log    *ros.Logger
	attrs  string // preformatted " key=value" pairs of WithAttrs
	prefix string // group prefix of later keys, "g." for WithGroup("g")
}

func rosLevel(l slog.Level) ros.Level {
	switch {
	case l >= slog.LevelError:
		return ros.LevelError
	case l >= slog.LevelWarn:
		return ros.LevelWarn
	case l >= slog.LevelInfo:
		return ros.LevelInfo
	}
	return ros.LevelDebug
}

func (h *rosHandler) Enabled(_ context.Context, l slog.Level) bool {
	return h.log.Enabled(rosLevel(l))
}

func (h *rosHandler) Handle(_ context.Context, r slog.Record) error {
	var sb strings.Builder
	sb.WriteString(r.Message)
	sb.WriteString(h.attrs)
	r.Attrs(func(a slog.Attr) bool {
		appendAttr(&sb, h.prefix, a)
		return true
	})
	h.log.Log(rosLevel(r.Level), r.PC, sb.String()) // the call site of the record
	return nil
}

func (h *rosHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	n := *h
	var sb strings.Builder
	sb.WriteString(h.attrs)
	for _, a := range attrs {
		if a.Key == "component" && h.prefix == "" {
			n.log = h.log.Named(a.Value.String())
			continue
		}
		appendAttr(&sb, h.prefix, a)
	}
	n.attrs = sb.String()
	return &n
}

func (h *rosHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	n := *h
	n.prefix = h.prefix + name + "."
	return &n
}

func appendAttr(sb *strings.Builder, prefix string, a slog.Attr) {
	a.Value = a.Value.Resolve()
	if a.Equal(slog.Attr{}) {
		return
	}
	if a.Value.Kind() == slog.KindGroup {
		p := prefix
		if a.Key != "" {
			p += a.Key + "."
		}
		for _, g := range a.Value.Group() {
			appendAttr(sb, p, g)
		}
		return
	}
	sb.WriteByte(' ')
	sb.WriteString(prefix)
	sb.WriteString(a.Key)
	sb.WriteByte('=')
	v := a.Value.String()
	if v == "" || strings.ContainsAny(v, " \t\n\"=") {
		sb.WriteString(strconv.Quote(v))
	} else {
		sb.WriteString(v)
	}
}
