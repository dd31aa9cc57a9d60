package rosargs

import (
	"errors"
	"fmt"
	"strings"
)

// Name length limits of rmw (rmw/validate_*.h).
const (
	MaxTopicNameLength = 255 - 8 // RMW_TOPIC_MAX_NAME_LENGTH: 255 less room for the DDS prefixes
	MaxNamespaceLength = MaxTopicNameLength - 2
	MaxNodeNameLength  = 255
)

// ErrInvalidName is matched by every *NameError.
var ErrInvalidName = errors.New("rosargs: invalid name")

// NameError reports a node name, namespace or topic name that breaks the ROS
// naming rules.
type NameError struct {
	What   string // "node name", "namespace", "topic name" or "fully qualified topic name"
	Name   string
	Index  int // byte offset of the offending character
	Reason string
}

func (e *NameError) Error() string {
	return fmt.Sprintf("rosargs: invalid %s %q: %s (at offset %d)", e.What, e.Name, e.Reason, e.Index)
}

// Is makes errors.Is(err, ErrInvalidName) true.
func (e *NameError) Is(target error) bool { return target == ErrInvalidName }

func nameErr(what, name string, i int, reason string) error {
	return &NameError{What: what, Name: name, Index: i, Reason: reason}
}

// ValidateNodeName checks a node name (rmw_validate_node_name): not empty,
// only letters, digits and '_', not starting with a digit, at most 255 bytes.
func ValidateNodeName(name string) error {
	const what = "node name"
	if name == "" {
		return nameErr(what, name, 0, "must not be empty")
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !isAlnum(c) && c != '_' {
			return nameErr(what, name, i, "may contain only letters, digits and '_'")
		}
	}
	if isDigit(name[0]) {
		return nameErr(what, name, 0, "must not start with a digit")
	}
	if len(name) > MaxNodeNameLength {
		return nameErr(what, name, MaxNodeNameLength-1, fmt.Sprintf("must not be longer than %d bytes", MaxNodeNameLength))
	}
	return nil
}

// ValidateFullTopicName checks an expanded, absolute topic or service name
// (rmw_validate_full_topic_name): it starts with '/', does not end with '/',
// has only letters, digits, '_' and '/', no "//", no token starting with a
// digit, and is at most MaxTopicNameLength bytes.
func ValidateFullTopicName(name string) error {
	return validateFull("fully qualified topic name", name, MaxTopicNameLength)
}

func validateFull(what, name string, maxLen int) error {
	if name == "" {
		return nameErr(what, name, 0, "must not be empty")
	}
	if name[0] != '/' {
		return nameErr(what, name, 0, "must be absolute (start with '/')")
	}
	if name[len(name)-1] == '/' {
		return nameErr(what, name, len(name)-1, "must not end with '/'")
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !isAlnum(c) && c != '_' && c != '/' {
			return nameErr(what, name, i, "may contain only letters, digits, '_' and '/'")
		}
	}
	for i := 0; i+1 < len(name); i++ {
		if name[i] != '/' {
			continue
		}
		if name[i+1] == '/' {
			return nameErr(what, name, i+1, "must not contain repeated '/'")
		}
		if isDigit(name[i+1]) {
			return nameErr(what, name, i+1, "a name token must not start with a digit")
		}
	}
	if len(name) > maxLen {
		return nameErr(what, name, maxLen-1, fmt.Sprintf("must not be longer than %d bytes", maxLen))
	}
	return nil
}

// ValidateNamespace checks a node namespace (rmw_validate_namespace): "/" or a
// fully qualified name of at most MaxNamespaceLength bytes.
func ValidateNamespace(ns string) error {
	if ns == "/" {
		return nil
	}
	return validateFull("namespace", ns, MaxNamespaceLength)
}

// ValidateTopicName checks a topic or service name as a node may write it
// (rcl_validate_topic_name): relative ("scan"), private ("~/scan"), absolute
// ("/scan"), with substitutions ("{node}/scan"). Only characters and the
// placement of '~', '{' and '}' are checked; the expanded name is checked by
// ValidateFullTopicName.
func ValidateTopicName(name string) error {
	const what = "topic name"
	if name == "" {
		return nameErr(what, name, 0, "must not be empty")
	}
	if isDigit(name[0]) {
		return nameErr(what, name, 0, "a name token must not start with a digit")
	}
	if name[len(name)-1] == '/' {
		return nameErr(what, name, len(name)-1, "must not end with '/'")
	}
	inBrace, open := false, 0
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case isAlnum(c):
			if isDigit(c) && inBrace && i == open+1 {
				return nameErr(what, name, i, "a substitution must not start with a digit")
			}
		case c == '_':
		case c == '/':
			if inBrace {
				return nameErr(what, name, i, "a substitution may contain only letters, digits and '_'")
			}
		case c == '~':
			if i != 0 {
				return nameErr(what, name, i, "'~' is allowed only as the first character")
			}
		case c == '{':
			if inBrace {
				return nameErr(what, name, i, "a substitution may contain only letters, digits and '_'")
			}
			inBrace, open = true, i
		case c == '}':
			if !inBrace {
				return nameErr(what, name, i, "'}' without '{'")
			}
			inBrace = false
		default:
			if inBrace {
				return nameErr(what, name, i, "a substitution may contain only letters, digits and '_'")
			}
			return nameErr(what, name, i, "may contain only letters, digits, '_', '/', '~', '{' and '}'")
		}
	}
	if inBrace {
		return nameErr(what, name, open, "'{' without '}'")
	}
	for i := 0; i+1 < len(name); i++ {
		if name[i] == '/' && isDigit(name[i+1]) {
			return nameErr(what, name, i+1, "a name token must not start with a digit")
		}
		if i == 1 && name[0] == '~' && name[1] != '/' {
			return nameErr(what, name, 1, "'~' must be followed by '/'")
		}
	}
	return nil
}

// ExpandTopicName turns a topic or service name into a fully qualified one
// the way rcl_expand_topic_name does: "~" becomes the node's fully qualified
// name, "{node}" the node name, "{ns}" and "{namespace}" the namespace, and a
// relative name is put under the namespace. The node name and namespace are
// validated too. The result still has to pass ValidateFullTopicName (an
// empty substitution can leave "//").
func ExpandTopicName(name, nodeName, namespace string) (string, error) {
	if err := ValidateTopicName(name); err != nil {
		return "", err
	}
	if err := ValidateNodeName(nodeName); err != nil {
		return "", err
	}
	if err := ValidateNamespace(namespace); err != nil {
		return "", err
	}
	if name[0] == '/' && !strings.Contains(name, "{") {
		return name, nil
	}
	out := name
	if out[0] == '~' {
		out = joinName(namespace, nodeName) + out[1:]
	}
	for {
		open := strings.IndexByte(out, '{')
		if open < 0 {
			break
		}
		closing := strings.IndexByte(out[open:], '}')
		if closing < 0 { // cannot happen after ValidateTopicName
			return "", nameErr("topic name", name, open, "'{' without '}'")
		}
		sub := out[open : open+closing+1]
		var repl string
		switch sub {
		case "{node}":
			repl = nodeName
		case "{ns}", "{namespace}":
			repl = namespace
		default:
			return "", nameErr("topic name", name, strings.Index(name, sub), fmt.Sprintf("unknown substitution %s (known: {node}, {ns}, {namespace})", sub))
		}
		out = strings.ReplaceAll(out, sub, repl)
	}
	if out[0] != '/' {
		out = joinName(namespace, out)
	}
	return out, nil
}

// joinName puts name under the namespace ns without doubling the '/' of "/".
func joinName(ns, name string) string {
	if strings.HasSuffix(ns, "/") {
		return ns + name
	}
	return ns + "/" + name
}

// FullyQualifiedName is the node's name in the ROS graph: "/robot1/dnetwork",
// or "/dnetwork" in the root namespace.
func FullyQualifiedName(namespace, nodeName string) string { return joinName(namespace, nodeName) }

// LoggerName is the name of the node's logger as rcl builds it: the namespace
// without its leading '/', with '/' turned into '.', then the node name:
// "robot1.dnetwork".
func LoggerName(namespace, nodeName string) string {
	ns := strings.Trim(namespace, "/")
	if ns == "" {
		return nodeName
	}
	return strings.ReplaceAll(ns, "/", ".") + "." + nodeName
}

// NodeName applies the __node:= rules to the node's own name: the first rule
// without a node prefix or with the prefix name wins.
func (a *Args) NodeName(name string) string {
	for _, r := range a.Remaps {
		if r.Kind == RemapNodeName && (r.Node == "" || r.Node == name) {
			return r.Replacement
		}
	}
	return name
}

// Namespace applies the __ns:= rules for the node (called with the already
// remapped node name, as rcl does) and returns ns when none matches. A
// trailing '/' that the rule grammar allows ("__ns:=/robot1/") is dropped,
// except for the root namespace "/".
func (a *Args) Namespace(nodeName, ns string) string {
	for _, r := range a.Remaps {
		if r.Kind == RemapNamespace && (r.Node == "" || r.Node == nodeName) {
			if out := strings.TrimRight(r.Replacement, "/"); out != "" {
				return out
			}
			return "/"
		}
	}
	return ns
}

// ResolveTopic expands a topic name for the node, applies the first matching
// topic remap rule and validates the result (rcl_node_resolve_name).
func (a *Args) ResolveTopic(name, nodeName, namespace string) (string, error) {
	return a.resolve(RemapTopic, name, nodeName, namespace)
}

// ResolveService is ResolveTopic for service names.
func (a *Args) ResolveService(name, nodeName, namespace string) (string, error) {
	return a.resolve(RemapService, name, nodeName, namespace)
}

func (a *Args) resolve(kind RemapKind, name, nodeName, namespace string) (string, error) {
	expanded, err := ExpandTopicName(name, nodeName, namespace)
	if err != nil {
		return "", err
	}
	out := expanded
	for _, r := range a.Remaps {
		if r.Kind&kind == 0 || (r.Node != "" && r.Node != nodeName) {
			continue
		}
		// Node name and namespace were validated above, so a rule's match
		// that does not expand is just a rule that cannot match.
		m, err := ExpandTopicName(r.Match, nodeName, namespace)
		if err != nil || m != expanded {
			continue
		}
		if out, err = ExpandTopicName(r.Replacement, nodeName, namespace); err != nil {
			return "", fmt.Errorf("rosargs: remap rule %s: %w", r, err)
		}
		break
	}
	if err := ValidateFullTopicName(out); err != nil {
		return "", err
	}
	return out, nil
}
