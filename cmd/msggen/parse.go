package main

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// ArrayKind tells whether a field is a single value, a fixed array or a sequence.
type ArrayKind int

// The array kinds of .msg syntax.
const (
	NotArray          ArrayKind = iota
	FixedArray                  // T[N]
	BoundedSequence             // T[<=N]
	UnboundedSequence           // T[]
)

// Type is a field type: a primitive (Prim set) or a message (Pkg and Msg set),
// possibly as an array or sequence.
type Type struct {
	Prim     string // primitive name: bool, byte, char, int8 ... float64, string
	StrBound int    // N of string<=N; 0 if unbounded
	Pkg, Msg string // nested message type pkg/Msg
	Array    ArrayKind
	Size     int // N of T[N] and T[<=N]
}

// IsNested reports whether the element type is a message.
func (t Type) IsNested() bool { return t.Prim == "" }

// Field is one field of a message.
type Field struct {
	Name    string
	Type    Type
	Default string // raw default value text; "" if none
	Comment []string
}

// Constant is one constant of a message.
type Constant struct {
	Type    string // primitive type
	Name    string
	Value   string // raw value text
	Comment []string
}

// Message is a parsed .msg file, or one half of a .srv file, or a service event.
type Message struct {
	Pkg       string
	Namespace string // "msg" or "srv"
	Name      string
	Source    string // file the definition came from, for messages
	Comment   []string
	Fields    []*Field
	Constants []*Constant
}

// FullName returns the ROS name, e.g. "std_msgs/msg/String".
func (m *Message) FullName() string { return m.Pkg + "/" + m.Namespace + "/" + m.Name }

// Service is a parsed .srv file.
type Service struct {
	Pkg      string
	Name     string
	Source   string
	Comment  []string
	Request  *Message
	Response *Message
	Event    *Message
}

// FullName returns the ROS name, e.g. "rcl_interfaces/srv/GetParameters".
func (s *Service) FullName() string { return s.Pkg + "/srv/" + s.Name }

var (
	validPackageName  = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	validFieldName    = validPackageName
	validMessageName  = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*$`)
	validConstantName = regexp.MustCompile(`^[A-Z]([A-Z0-9_]?[A-Z0-9]+)*$`)
)

// primitiveNames lists the .msg primitive types this generator supports.
var primitiveNames = map[string]bool{
	"bool": true, "byte": true, "char": true,
	"int8": true, "uint8": true, "int16": true, "uint16": true,
	"int32": true, "uint32": true, "int64": true, "uint64": true,
	"float32": true, "float64": true, "string": true,
}

// errWString is returned for wstring fields: rmw implementations disagree on its CDR
// form, so no ROS node should depend on it.
var errWString = errors.New("wstring is not supported (its CDR form differs between DDS vendors); use string")

func checkName(re *regexp.Regexp, name, what string) error {
	if !re.MatchString(name) || strings.Contains(name, "__") || strings.HasSuffix(name, "_") {
		return fmt.Errorf("invalid %s name %q (must match %s, no double or trailing underscore)", what, name, re)
	}
	return nil
}

// parseType parses a .msg type such as "int32", "string<=10[<=5]" or "geometry_msgs/Point[]".
// ctxPkg resolves bare message names.
func parseType(s, ctxPkg string) (Type, error) {
	var t Type
	if strings.HasSuffix(s, "]") {
		i := strings.LastIndexByte(s, '[')
		if i < 0 {
			return t, fmt.Errorf("type %q ends with ']' but has no '['", s)
		}
		size := s[i+1 : len(s)-1]
		s = s[:i]
		switch {
		case size == "":
			t.Array = UnboundedSequence
		case strings.HasPrefix(size, "<="):
			t.Array = BoundedSequence
			size = size[2:]
		default:
			t.Array = FixedArray
		}
		if t.Array != UnboundedSequence {
			n, err := strconv.Atoi(size)
			if err != nil || n <= 0 {
				return t, fmt.Errorf("array size in %q must be an integer > 0", s+"["+size+"]")
			}
			t.Size = n
		}
	}
	switch {
	case s == "wstring" || strings.HasPrefix(s, "wstring<="):
		return t, errWString
	case s == "time" || s == "duration":
		return t, fmt.Errorf("ROS 1 type %q is not supported; use builtin_interfaces/%s", s, strings.ToUpper(s[:1])+s[1:])
	case strings.HasPrefix(s, "string<="):
		n, err := strconv.Atoi(s[len("string<="):])
		if err != nil || n <= 0 {
			return t, fmt.Errorf("string bound in %q must be an integer > 0", s)
		}
		t.Prim, t.StrBound = "string", n
	case primitiveNames[s]:
		t.Prim = s
	default:
		pkg, name, ok := strings.Cut(s, "/")
		if !ok {
			pkg, name = ctxPkg, s
		}
		if strings.Contains(name, "/") {
			return t, fmt.Errorf("type %q: want pkg/Name", s)
		}
		if err := checkName(validPackageName, pkg, "package"); err != nil {
			return t, fmt.Errorf("type %q: %w", s, err)
		}
		if !validMessageName.MatchString(name) {
			return t, fmt.Errorf("type %q: invalid message name %q", s, name)
		}
		t.Pkg, t.Msg = pkg, name
	}
	return t, nil
}

// parseMessage parses the text of a .msg file (or one half of a .srv) following
// rosidl_adapter's rules: the leading comment block is the message comment; comment
// lines before an element and the comment after it on the same line document it; an
// indented comment-only line continues the previous element's comment.
func parseMessage(pkg, ns, name, source, text string) (*Message, error) {
	m := &Message{Pkg: pkg, Namespace: ns, Name: name, Source: source}
	lines := strings.Split(strings.ReplaceAll(text, "\t", " "), "\n")
	i := 0
	for ; i < len(lines) && strings.HasPrefix(lines[i], "#"); i++ {
		m.Comment = append(m.Comment, strings.TrimLeft(lines[i], "#"))
	}
	var pending []string
	var last *[]string // comment of the previous element
	names := map[string]bool{}
	for ; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], " \r")
		if line == "" {
			continue
		}
		var comment *string
		if j := strings.IndexByte(line, '#'); j >= 0 {
			c := strings.TrimLeft(line[j:], "#")
			comment = &c
			line = strings.TrimRight(line[:j], " ")
			if line == "" {
				if j > 0 && last != nil { // indented comment line continues the previous element
					*last = append(*last, c)
				} else if j == 0 {
					pending = append(pending, c)
				}
				continue
			}
		}
		where := fmt.Sprintf("%s:%d", source, i+1)
		typ, rest, _ := strings.Cut(strings.TrimLeft(line, " "), " ")
		rest = strings.TrimLeft(rest, " ")
		if rest == "" {
			return nil, fmt.Errorf("%s: %q: want 'type name' or 'type NAME=value'", where, line)
		}
		var doc *[]string
		if cname, value, isConst := strings.Cut(rest, "="); isConst {
			cname = strings.TrimRight(cname, " ")
			value = strings.TrimLeft(value, " ")
			if !primitiveNames[typ] {
				if typ == "wstring" {
					return nil, fmt.Errorf("%s: %w", where, errWString)
				}
				return nil, fmt.Errorf("%s: constant %s: type %q must be a primitive type", where, cname, typ)
			}
			if !validConstantName.MatchString(cname) {
				return nil, fmt.Errorf("%s: invalid constant name %q (must match %s)", where, cname, validConstantName)
			}
			if names[cname] {
				return nil, fmt.Errorf("%s: duplicate name %q", where, cname)
			}
			names[cname] = true
			c := &Constant{Type: typ, Name: cname, Value: value}
			if _, err := goLiteral(Type{Prim: typ}, value); err != nil {
				return nil, fmt.Errorf("%s: constant %s: %w", where, cname, err)
			}
			m.Constants = append(m.Constants, c)
			doc = &c.Comment
		} else {
			fname, def, _ := strings.Cut(rest, " ")
			def = strings.TrimLeft(def, " ")
			t, err := parseType(typ, pkg)
			if err != nil {
				return nil, fmt.Errorf("%s: field %s: %w", where, fname, err)
			}
			if err := checkName(validFieldName, fname, "field"); err != nil {
				return nil, fmt.Errorf("%s: %w", where, err)
			}
			if names[fname] {
				return nil, fmt.Errorf("%s: duplicate name %q", where, fname)
			}
			names[fname] = true
			if def != "" {
				if t.IsNested() {
					return nil, fmt.Errorf("%s: field %s: default values are only allowed for primitive types", where, fname)
				}
				if _, err := goLiteral(t, def); err != nil {
					return nil, fmt.Errorf("%s: field %s: default value: %w", where, fname, err)
				}
			}
			f := &Field{Name: fname, Type: t, Default: def}
			m.Fields = append(m.Fields, f)
			doc = &f.Comment
		}
		*doc = append(*doc, pending...)
		pending = nil
		if comment != nil {
			*doc = append(*doc, *comment)
		}
		last = doc
	}
	m.Comment = tidyComment(m.Comment)
	for _, f := range m.Fields {
		f.Comment = tidyComment(f.Comment)
	}
	for _, c := range m.Constants {
		c.Comment = tidyComment(c.Comment)
	}
	return m, nil
}

// parseService splits a .srv text at its single "---" line and builds the request,
// response and event messages (the event as rosidl defines it for Iron and later).
func parseService(pkg, name, source, text string) (*Service, error) {
	lines := strings.Split(text, "\n")
	sep := -1
	for i, l := range lines {
		if strings.TrimRight(l, "\r") == "---" {
			if sep >= 0 {
				return nil, fmt.Errorf("%s: more than one '---' separator", source)
			}
			sep = i
		}
	}
	if sep < 0 {
		return nil, fmt.Errorf("%s: no '---' separator between request and response", source)
	}
	req, err := parseMessage(pkg, "srv", name+"_Request", source, strings.Join(lines[:sep], "\n"))
	if err != nil {
		return nil, err
	}
	// Line numbers of the response continue after the separator.
	resp, err := parseMessage(pkg, "srv", name+"_Response", source,
		strings.Repeat("\n", sep+1)+strings.Join(lines[sep+1:], "\n"))
	if err != nil {
		return nil, err
	}
	s := &Service{Pkg: pkg, Name: name, Source: source, Comment: req.Comment, Request: req, Response: resp}
	req.Comment = nil
	s.Event = &Message{
		Pkg: pkg, Namespace: "srv", Name: name + "_Event", Source: source,
		Comment: []string{"The service event message of " + s.FullName() + ", published when service introspection is on."},
		Fields: []*Field{
			{Name: "info", Type: Type{Pkg: "service_msgs", Msg: "ServiceEventInfo"}},
			{Name: "request", Type: Type{Pkg: pkg, Msg: req.Name, Array: BoundedSequence, Size: 1}},
			{Name: "response", Type: Type{Pkg: pkg, Msg: resp.Name, Array: BoundedSequence, Size: 1}},
		},
	}
	return s, nil
}

// tidyComment drops leading and trailing blank lines, squeezes blank runs and removes
// the indentation common to all lines.
func tidyComment(lines []string) []string {
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " \r")
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var out []string
	for i, l := range lines {
		if l == "" && i > 0 && lines[i-1] == "" {
			continue
		}
		out = append(out, l)
	}
	indent := -1
	for _, l := range out {
		if l == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " "))
		if indent < 0 || n < indent {
			indent = n
		}
	}
	for i, l := range out {
		if len(l) >= indent && indent > 0 {
			out[i] = l[indent:]
		}
	}
	return out
}
