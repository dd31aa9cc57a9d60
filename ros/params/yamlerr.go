package params

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v4"
)

// syntaxError reports a YAML syntax error of a parameter file at the line and column
// (both counted from 1, as editors count them) where the parser found the problem, with
// the construct it was reading and where that starts, and a hint for the usual causes:
//
//	robot3.yaml: line 34, column 10: did not find expected key (while parsing a block
//	mapping that starts on line 31, column 7; is line 34 indented like the keys above it?)
func syntaxError(file string, data []byte, err error) error {
	var le *yaml.LoadError
	if !errors.As(err, &le) || le.Mark.Line <= 0 {
		return &SourceError{Source: Source{File: file}, Err: &kindError{kind: ErrInvalidFile, msg: err.Error(), cause: err}}
	}
	var notes []string
	if le.ContextMsg != "" && le.ContextMark.Line > 0 && le.ContextMark != le.Mark {
		notes = append(notes, fmt.Sprintf("%s that starts on line %d, column %d", le.ContextMsg, le.ContextMark.Line, le.ContextMark.Column))
	}
	if h := syntaxHint(le, data); h != "" {
		notes = append(notes, h)
	}
	msg := fmt.Sprintf("line %d, column %d: %s", le.Mark.Line, le.Mark.Column, le.Message)
	if len(notes) > 0 {
		msg += " (" + strings.Join(notes, "; ") + ")"
	}
	return &SourceError{Source: Source{File: file, Line: le.Mark.Line}, Err: &kindError{kind: ErrInvalidFile, msg: msg, cause: err}}
}

// syntaxHint names the likely cause of a syntax error, or returns "".
func syntaxHint(le *yaml.LoadError, data []byte) string {
	lines := bytes.Split(data, []byte("\n"))
	if open := unclosedQuote(lines, le.Mark.Line); open > 0 && open < le.Mark.Line {
		return fmt.Sprintf("line %d opens a quote it does not close", open)
	}
	line := lines[min(le.Mark.Line, len(lines))-1]
	switch {
	case bytes.IndexByte(line[:len(line)-len(bytes.TrimLeft(line, " \t"))], '\t') >= 0:
		return fmt.Sprintf("line %d is indented with a tab; YAML indents with spaces", le.Mark.Line)
	case strings.Contains(le.Message, "could not find expected ':'"):
		return fmt.Sprintf("a key needs ': ' (colon and space) before its value; line %d has none", max(le.ContextMark.Line, 1))
	case strings.Contains(le.Message, "did not find expected key"):
		return fmt.Sprintf("is line %d indented like the keys above it?", le.Mark.Line)
	case strings.Contains(le.Message, "mapping values are not allowed"):
		if above := deeperThanAbove(lines, le.Mark.Line); above > 0 {
			return fmt.Sprintf("line %d is indented deeper than line %d, so it continues that line's value", le.Mark.Line, above)
		}
		return "a value holding ': ' needs quotes"
	}
	return ""
}

// deeperThanAbove returns the line above line n (1-based; blank lines and comments
// skipped) when that line holds a value and line n is indented deeper, else 0.
func deeperThanAbove(lines [][]byte, n int) int {
	if n < 1 || n > len(lines) {
		return 0
	}
	indent := func(l []byte) int { return len(l) - len(bytes.TrimLeft(l, " ")) }
	for i := n - 2; i >= 0; i-- {
		l := bytes.TrimSpace(lines[i])
		if len(l) == 0 || l[0] == '#' {
			continue
		}
		if !bytes.HasSuffix(l, []byte(":")) && indent(lines[n-1]) > indent(lines[i]) {
			return i + 1
		}
		return 0
	}
	return 0
}

// unclosedQuote returns the first of lines 1..upto whose quoted value does not end on
// that line, or 0.
func unclosedQuote(lines [][]byte, upto int) int {
	for i := 0; i < upto && i < len(lines); i++ {
		if leavesQuoteOpen(lines[i]) {
			return i + 1
		}
	}
	return 0
}

// leavesQuoteOpen reports whether line opens a quoted value it does not close. Quotes in
// a comment or inside a plain word (it's) do not count.
func leavesQuoteOpen(line []byte) bool {
	var quote byte
	prev := byte(' ')
	for _, c := range line {
		switch {
		case quote == 0 && c == '#' && (prev == ' ' || prev == '\t'):
			return false
		case quote == 0 && (c == '"' || c == '\'') && strings.IndexByte(" \t:[{,-", prev) >= 0:
			quote = c
		case quote != 0 && c == quote && (c == '\'' || prev != '\\'):
			quote = 0
		}
		prev = c
	}
	return quote != 0
}
