package rosargs

import (
	"fmt"
	"strings"
)

// RemapKind says what a remap rule renames. Topic and service rules may be
// combined: a rule without a rostopic:// or rosservice:// prefix applies to both.
type RemapKind uint8

const (
	RemapTopic     RemapKind = 1 << iota // MATCH:=REPLACEMENT or rostopic://MATCH:=REPLACEMENT
	RemapService                         // MATCH:=REPLACEMENT or rosservice://MATCH:=REPLACEMENT
	RemapNodeName                        // __node:=NAME (alias __name:=NAME)
	RemapNamespace                       // __ns:=/NAMESPACE
)

func (k RemapKind) String() string {
	var parts []string
	for _, n := range []struct {
		k    RemapKind
		name string
	}{{RemapTopic, "topic"}, {RemapService, "service"}, {RemapNodeName, "node name"}, {RemapNamespace, "namespace"}} {
		if k&n.k != 0 {
			parts = append(parts, n.name)
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "+")
}

// Remap is one -r/--remap rule.
type Remap struct {
	Node        string    // the rule applies only to the node of this name; "" for every node
	Kind        RemapKind // what the rule renames
	Match       string    // topic or service name to match (relative, ~/ or absolute); empty for node name and namespace rules
	Replacement string    // the new name, node name or namespace
}

// String gives the rule back in command-line syntax.
func (r Remap) String() string {
	var b strings.Builder
	if r.Node != "" {
		b.WriteString(r.Node + ":")
	}
	switch r.Kind {
	case RemapNodeName:
		b.WriteString("__node:=" + r.Replacement)
		return b.String()
	case RemapNamespace:
		b.WriteString("__ns:=" + r.Replacement)
		return b.String()
	case RemapTopic:
		b.WriteString("rostopic://")
	case RemapService:
		b.WriteString("rosservice://")
	}
	b.WriteString(r.Match + ":=" + r.Replacement)
	return b.String()
}

// ruleError explains why a rule does not parse.
type ruleError string

func (e ruleError) Error() string { return string(e) }

// found describes the next lexeme for an error message.
func (p *scanner) found() string {
	l, n := p.peek()
	switch l {
	case lexEOF:
		return "end of rule"
	case lexNone:
		return fmt.Sprintf("invalid character %q", p.s[p.pos+n-1:p.pos+n])
	default:
		return fmt.Sprintf("%q", p.s[p.pos:p.pos+n])
	}
}

func (p *scanner) fail(want string) ruleError {
	return ruleError(fmt.Sprintf("expected %s at offset %d, found %s", want, p.pos, p.found()))
}

// parseRemap parses a remap rule with rcl's grammar:
//
//	rule        = [ node ":" ] ( "__node:=" token | "__ns:=" "/" { token "/" } [ token ] | name-remap )
//	name-remap  = [ "rostopic://" | "rosservice://" ] match ":=" replacement
//	match       = [ "~/" | "/" ] token { "/" token }
//	replacement = [ "~/" | "/" ] token { "/" token }
func parseRemap(rule string) (Remap, error) {
	p := &scanner{s: rule}
	var r Remap
	if l1, l2 := p.peek2(); l1 == lexToken && l2 == lexColon {
		r.Node = p.accept()
		p.accept()
	}
	switch l, _ := p.peek(); l {
	case lexNode:
		p.accept()
		if _, ok := p.expect(lexSeparator); !ok {
			return r, p.fail("':=' after __node")
		}
		name, ok := p.expect(lexToken)
		if !ok {
			return r, p.fail("a node name (letters, digits and '_', not starting with a digit)")
		}
		r.Kind, r.Replacement = RemapNodeName, name
	case lexNS:
		p.accept()
		if _, ok := p.expect(lexSeparator); !ok {
			return r, p.fail("':=' after __ns")
		}
		start := p.pos
		if _, ok := p.expect(lexSlash); !ok {
			return r, p.fail("an absolute namespace starting with '/'")
		}
		for {
			if _, ok := p.expect(lexToken); !ok {
				break
			}
			if _, ok := p.expect(lexSlash); !ok {
				break
			}
		}
		r.Kind, r.Replacement = RemapNamespace, rule[start:p.pos]
	default:
		switch l {
		case lexURLTopic:
			r.Kind = RemapTopic
			p.accept()
		case lexURLService:
			r.Kind = RemapService
			p.accept()
		default:
			r.Kind = RemapTopic | RemapService
		}
		start := p.pos
		if l, _ := p.peek(); l == lexTildeSlash || l == lexSlash {
			p.accept()
		}
		if err := p.matchToken(); err != nil {
			return r, err
		}
		for {
			if l, _ := p.peek(); l == lexSeparator {
				break
			}
			if _, ok := p.expect(lexSlash); !ok {
				return r, p.fail("'/' or ':='")
			}
			if err := p.matchToken(); err != nil {
				return r, err
			}
		}
		r.Match = rule[start:p.pos]
		p.accept() // ":="
		start = p.pos
		if l, _ := p.peek(); l == lexTildeSlash || l == lexSlash {
			p.accept()
		}
		if err := p.replacementToken(); err != nil {
			return r, err
		}
		for {
			if l, _ := p.peek(); l == lexEOF {
				break
			}
			if _, ok := p.expect(lexSlash); !ok {
				return r, p.fail("'/' or end of rule")
			}
			if err := p.replacementToken(); err != nil {
				return r, err
			}
		}
		r.Replacement = rule[start:p.pos]
	}
	if _, ok := p.expect(lexEOF); !ok {
		return r, p.fail("end of rule")
	}
	return r, nil
}

func (p *scanner) matchToken() error {
	switch l, _ := p.peek(); l {
	case lexToken:
		p.accept()
		return nil
	case lexWildOne, lexWildMulti:
		return ruleError(fmt.Sprintf("wildcard %s at offset %d is not supported in remap rules", l, p.pos))
	default:
		return p.fail("a name")
	}
}

func (p *scanner) replacementToken() error {
	switch l, _ := p.peek(); l {
	case lexToken:
		p.accept()
		return nil
	case lexBackref:
		return ruleError(fmt.Sprintf("back-reference at offset %d is not supported in remap rules", p.pos))
	default:
		return p.fail("a name")
	}
}

// parseParamRule parses a parameter override rule with rcl's grammar:
//
//	rule  = [ node ":" ] name ":=" value
//	name  = part { "." part }, part = ( token | "/" ) { token | "/" }
//
// Without a node prefix the rule applies to every node ("/**"). The value is
// returned as text; it is YAML and typed by the params package.
func parseParamRule(rule string) (node, name, value string, err error) {
	p := &scanner{s: rule}
	node = "/**"
	if l1, l2 := p.peek2(); l1 == lexToken && l2 == lexColon {
		node = p.accept()
		p.accept()
	}
	start := p.pos
	if err := p.paramNamePart(); err != nil {
		return "", "", "", err
	}
	for {
		if l, _ := p.peek(); l == lexSeparator {
			break
		}
		if _, ok := p.expect(lexDot); !ok {
			return "", "", "", p.fail("'.' or ':='")
		}
		if err := p.paramNamePart(); err != nil {
			return "", "", "", err
		}
	}
	name = rule[start:p.pos]
	p.accept() // ":="
	if value = p.rest(); value == "" {
		return "", "", "", ruleError("no value after ':='")
	}
	return node, name, value, nil
}

func (p *scanner) paramNamePart() error {
	switch l, _ := p.peek(); l {
	case lexToken, lexSlash:
	case lexWildOne, lexWildMulti:
		return ruleError(fmt.Sprintf("wildcard %s at offset %d is not supported in parameter names", l, p.pos))
	default:
		return p.fail("a parameter name")
	}
	for {
		l, _ := p.peek()
		if l != lexToken && l != lexSlash {
			return nil
		}
		p.accept()
	}
}

// LogLevel is a logging severity with the values of rcutils and of
// rcl_interfaces/msg/Log.
type LogLevel uint8

const (
	LogUnset LogLevel = 0
	LogDebug LogLevel = 10
	LogInfo  LogLevel = 20
	LogWarn  LogLevel = 30
	LogError LogLevel = 40
	LogFatal LogLevel = 50
)

var logLevelNames = map[LogLevel]string{
	LogUnset: "UNSET", LogDebug: "DEBUG", LogInfo: "INFO", LogWarn: "WARN", LogError: "ERROR", LogFatal: "FATAL",
}

func (l LogLevel) String() string {
	if s, ok := logLevelNames[l]; ok {
		return s
	}
	return fmt.Sprintf("LogLevel(%d)", uint8(l))
}

// ParseLogLevel reads a severity name in any letter case, as rcutils does:
// unset, debug, info, warn, error or fatal.
func ParseLogLevel(s string) (LogLevel, error) {
	u := strings.ToUpper(s)
	for l, name := range logLevelNames {
		if u == name {
			return l, nil
		}
	}
	return 0, ruleError(fmt.Sprintf("unknown log level %q (want debug, info, warn, error, fatal or unset)", s))
}

// parseLogLevel parses LEVEL or LOGGER:=LEVEL. Any characters up to the first
// ":=" form the logger name, as in rcl.
func parseLogLevel(arg string) (logger string, level LogLevel, err error) {
	p := &scanner{s: arg}
	for {
		l, _ := p.peek()
		if l == lexSeparator {
			break
		}
		if l == lexEOF {
			level, err = ParseLogLevel(arg)
			return "", level, err
		}
		p.accept()
	}
	logger = arg[:p.pos]
	if logger == "" {
		return "", 0, ruleError("empty logger name before ':='")
	}
	p.accept() // ":="
	tok, ok := p.expect(lexToken)
	if !ok {
		return "", 0, p.fail("a log level")
	}
	if _, ok := p.expect(lexEOF); !ok {
		return "", 0, p.fail("end of rule")
	}
	level, err = ParseLogLevel(tok)
	return logger, level, err
}
