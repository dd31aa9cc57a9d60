package params

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/robocup-dnetwork/dnetwork/ros/rosargs"
	"go.yaml.in/yaml/v4"
)

// paramsKey opens a node's parameters. rcl accepts any key that starts with
// it (it compares only the first len("ros__parameters") bytes); so do we.
const paramsKey = "ros__parameters"

// Override is a parameter value given on the command line or in a parameter
// file; it replaces the default when the parameter is declared.
type Override struct {
	Name    string
	Value   Value
	NodeKey string // the node key it was given for: "/**", "/robot1/dnetwork", "robot1/dnetwork", "dnetwork"
	Source  Source
	// EmptyArray marks "[]": an array without items has no type of its own, so it
	// takes the type of the array parameter it is given for (Value holds an empty
	// string_array until then). ros2 param dump writes unset lists this way.
	EmptyArray bool
}

// Overrides is rcl's table of parameter overrides: node keys in order of
// first appearance, each with its parameters. All --params-file files and
// -p rules go into one table in command-line order; a later value for the
// same key and name replaces the earlier one.
type Overrides struct {
	nodes []*nodeOverrides
	files []File
}

// File is a parameter file of the table and its node keys as written ("dnetwork_3",
// "/**", "robot1/dnetwork"), in file order: what a node's name is matched against.
type File struct {
	Path string
	Keys []string
}

// Files returns the parameter files loaded into the table, in order.
func (o *Overrides) Files() []File {
	out := make([]File, len(o.files))
	for i, f := range o.files {
		out[i] = File{Path: f.Path, Keys: slices.Clone(f.Keys)}
	}
	return out
}

type nodeOverrides struct {
	key  string
	vals map[string]Override
}

func (o *Overrides) node(key string) *nodeOverrides {
	for _, n := range o.nodes {
		if n.key == key {
			return n
		}
	}
	n := &nodeOverrides{key: key, vals: map[string]Override{}}
	o.nodes = append(o.nodes, n)
	return n
}

// Set records ov for the node key ov.NodeKey.
func (o *Overrides) Set(ov Override) {
	ov.Value = ov.Value.Clone()
	o.node(ov.NodeKey).vals[ov.Name] = ov
}

// Keys returns the node keys in order of first appearance.
func (o *Overrides) Keys() []string {
	keys := make([]string, len(o.nodes))
	for i, n := range o.nodes {
		keys[i] = n.key
	}
	return keys
}

// Lookup returns the override for a node key (as written) and parameter.
func (o *Overrides) Lookup(nodeKey, name string) (Override, bool) {
	for _, n := range o.nodes {
		if n.key == nodeKey {
			ov, ok := n.vals[name]
			return ov, ok
		}
	}
	return Override{}, false
}

// ForNode returns the overrides for the node with the fully qualified name
// fqn ("/robot1/dnetwork"), sorted by name. As rclcpp does, it walks the
// node keys in table order and applies every key that matches, so a later
// key wins over an earlier one whether it is a wildcard or not.
func (o *Overrides) ForNode(fqn string) []Override {
	merged := map[string]Override{}
	for _, n := range o.nodes {
		if !MatchNode(n.key, fqn) {
			continue
		}
		for name, ov := range n.vals {
			merged[name] = ov
		}
	}
	out := make([]Override, 0, len(merged))
	for _, ov := range merged {
		ov.Value = ov.Value.Clone()
		out = append(out, ov)
	}
	slices.SortFunc(out, func(a, b Override) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// MatchNode reports whether a node key of a parameter file or -p rule
// applies to the node with the fully qualified name fqn. Like rclcpp, it
// puts a '/' in front of a relative key, reads "/*" as one namespace or name
// level and "/**" as any number of levels, and matches the whole name.
func MatchNode(key, fqn string) bool {
	if !strings.HasPrefix(key, "/") {
		key = "/" + key
	}
	var re strings.Builder
	re.WriteString(`^(?:`)
	for i := 0; i < len(key); i++ {
		switch {
		case strings.HasPrefix(key[i:], "/*"):
			re.WriteString(`(/\w+)`)
			i++
		case key[i] == '*':
			re.WriteString(`*`) // rclcpp leaves it a regex repetition
		default:
			re.WriteString(regexp.QuoteMeta(key[i : i+1]))
		}
	}
	re.WriteString(`)$`)
	rx, err := regexp.Compile(re.String())
	return err == nil && rx.MatchString(fqn)
}

// LoadArgs builds the override table from the --params-file and -p
// arguments in command-line order. It reports every bad file and rule.
func LoadArgs(a *rosargs.Args) (*Overrides, error) {
	o := &Overrides{}
	var errs []error
	for _, p := range a.Params {
		var err error
		if p.File != "" {
			err = o.LoadFile(p.File)
		} else {
			err = o.AddRule(p.Node, p.Name, p.Value, p.Arg)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return o, errors.Join(errs...)
}

// AddRule records a -p rule: the value is YAML typed as rcl does. arg is the
// rule as given, for error messages.
func (o *Overrides) AddRule(nodeKey, name, value, arg string) error {
	src := Source{Key: arg}
	v, empty, err := parseValue(value)
	if err != nil {
		return &SourceError{Source: src, Err: err}
	}
	o.Set(Override{Name: name, Value: v, NodeKey: nodeKey, Source: src, EmptyArray: empty})
	return nil
}

// ParseValue types the YAML text of a -p rule (rcl_parse_yaml_value): a
// scalar or a sequence of scalars of one type.
func ParseValue(text string) (Value, error) {
	v, empty, err := parseValue(text)
	if err == nil && empty {
		err = errEmptyArray()
	}
	return v, err
}

// parseValue is ParseValue that also accepts "[]" (empty true; see Override.EmptyArray).
func parseValue(text string) (v Value, empty bool, err error) {
	dec := yaml.NewDecoder(strings.NewReader(text))
	found := false
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err == io.EOF {
			break
		} else if err != nil {
			return Value{}, false, &kindError{kind: ErrInvalidValue, msg: err.Error()}
		}
		if len(doc.Content) == 0 {
			continue
		}
		n := doc.Content[0]
		if n.Kind == yaml.MappingNode {
			return Value{}, false, errorf(ErrInvalidValue, "a map is not a parameter value")
		}
		if v, empty, err = decodeValue(n); err != nil {
			return Value{}, false, err
		}
		found = true
	}
	if !found {
		return Value{}, false, errorf(ErrInvalidValue, "no value")
	}
	return v, empty, nil
}

func errEmptyArray() error {
	return errorf(ErrInvalidValue, "an empty array has no type; leave the parameter out instead")
}

// decodeValue types a scalar or a sequence of scalars; empty reports "[]", which
// has no type (rcl refuses it; see Override.EmptyArray).
func decodeValue(n *yaml.Node) (v Value, empty bool, err error) {
	switch n.Kind {
	case yaml.ScalarNode:
		if isNull(n) {
			return Value{}, false, errorf(ErrInvalidValue, "no value")
		}
		return scalarOf(n), false, nil
	case yaml.SequenceNode:
		if len(n.Content) == 0 {
			return StringArray([]string{}), true, nil
		}
		items := make([]Value, len(n.Content))
		for i, it := range n.Content {
			switch {
			case it.Kind == yaml.AliasNode:
				return Value{}, false, errorf(ErrInvalidValue, "aliases are not supported (item %d)", i)
			case it.Kind != yaml.ScalarNode:
				return Value{}, false, errorf(ErrInvalidValue, "array items must be plain values, item %d is %s", i, kindName(it))
			case isNull(it):
				return Value{}, false, errorf(ErrInvalidValue, "array item %d has no value", i)
			}
			items[i] = scalarOf(it)
			if items[i].Type != items[0].Type {
				return Value{}, false, errorf(ErrInvalidValue, "array mixes %s and %s (item %d is %s); rcl needs one type",
					items[0].Type, items[i].Type, i, items[i].describe())
			}
		}
		return arrayOf(items), false, nil
	case yaml.AliasNode:
		return Value{}, false, errorf(ErrInvalidValue, "aliases are not supported")
	}
	return Value{}, false, errorf(ErrInvalidValue, "%s is not a parameter value", kindName(n))
}

// isNull is an empty plain scalar (key with nothing after it), which rcl
// rejects; "~" and "null" are strings for rcl.
func isNull(n *yaml.Node) bool {
	return n.Value == "" && n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) == 0
}

func scalarOf(n *yaml.Node) Value {
	quoted := n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0 ||
		n.Style&yaml.TaggedStyle != 0 && n.Tag == "!!str"
	return scalarValue(n.Value, quoted)
}

func arrayOf(items []Value) Value {
	switch items[0].Type {
	case TypeBool:
		a := make([]bool, len(items))
		for i, v := range items {
			a[i] = v.BoolValue
		}
		return BoolArray(a)
	case TypeInteger:
		a := make([]int64, len(items))
		for i, v := range items {
			a[i] = v.IntegerValue
		}
		return IntegerArray(a)
	case TypeDouble:
		a := make([]float64, len(items))
		for i, v := range items {
			a[i] = v.DoubleValue
		}
		return DoubleArray(a)
	}
	a := make([]string, len(items))
	for i, v := range items {
		a[i] = v.StringValue
	}
	return StringArray(a)
}

// kindName names a node's kind with its article: "a map", "an empty value".
func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a map"
	case yaml.SequenceNode:
		return "a sequence"
	case yaml.AliasNode:
		return "an alias"
	case yaml.ScalarNode:
		if isNull(n) {
			return "an empty value"
		}
		return "a value"
	}
	return "a document"
}

// LoadFile reads a parameter file and adds its values (see LoadYAML).
func (o *Overrides) LoadFile(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("params: %w", err)
	}
	return o.LoadYAML(path, data)
}

// LoadYAML adds the values of a parameter file; file names it in errors. It
// reports every problem it finds, each naming the file and the key path, and
// changes nothing unless the whole file is good.
func (o *Overrides) LoadYAML(file string, data []byte) error {
	l := &loader{file: file}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err == io.EOF {
			break
		} else if err != nil {
			l.errs = append(l.errs, syntaxError(file, data, err))
			break
		}
		l.document(&doc)
	}
	if len(l.errs) > 0 {
		return errors.Join(l.errs...)
	}
	f := File{Path: file}
	for _, e := range l.out {
		if !slices.Contains(f.Keys, e.key) {
			f.Keys = append(f.Keys, e.key)
		}
		if e.ov == nil {
			o.node(e.key)
		} else {
			o.Set(*e.ov)
		}
	}
	o.files = append(o.files, f)
	return nil
}

// loader walks one file. Besides the tree it keeps rcl's own name trackers
// (namespace.c: the node namespace joined with '/', the parameter namespace
// joined with '.', each a string plus a count), updated at the same events
// as in parse.c. Where rcl's names drift from the nesting of the file – a
// key after ros__parameters in the same map, a nested key holding '/' or '.'
// followed by more keys – rcl reads names the file does not show; the loader
// reports an error there instead of guessing either way.
type loader struct {
	file  string
	errs  []error
	out   []loaded
	abort bool // a structural error: the rest of the document is not read

	depth    int      // rcl's map_depth
	nodeNS   rclNames // rcl's node namespace tracker
	paramNS  rclNames // rcl's parameter namespace tracker
	curParam string   // rcl's current parameter entry name
}

// loaded is one node key (ov nil: the key is created, as rcl does at
// ros__parameters) or one value, in file order.
type loaded struct {
	key string
	ov  *Override
}

type rclNames struct {
	s string
	n int
}

func (t *rclNames) add(name, sep string) {
	switch {
	case t.n == 0:
		t.s = name
	case strings.HasSuffix(t.s, sep):
		t.s += name
	default:
		t.s += sep + name
	}
	t.n++
}

func (t *rclNames) remove(sep string) {
	switch {
	case t.n == 0:
		return
	case t.n == 1:
		t.s = ""
	default:
		if i := strings.LastIndex(t.s, sep); i >= 0 {
			t.s = t.s[:i]
		}
	}
	t.n--
}

func (l *loader) fail(n *yaml.Node, path []string, kind error, format string, args ...any) {
	src := Source{File: l.file, Key: strings.Join(path, ".")}
	if n != nil {
		src.Line = n.Line
	}
	l.errs = append(l.errs, &SourceError{Source: src, Err: errorf(kind, format, args...)})
}

// structural records an error after which the document cannot be read.
func (l *loader) structural(n *yaml.Node, path []string, format string, args ...any) {
	l.fail(n, path, ErrInvalidFile, format, args...)
	l.abort = true
}

func (l *loader) document(doc *yaml.Node) {
	l.abort, l.depth, l.nodeNS, l.paramNS = false, 0, rclNames{}, rclNames{}
	if len(doc.Content) == 0 {
		return // empty document
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		l.structural(root, nil, "a parameter file is a map of node names, found %s", kindName(root))
		return
	}
	l.depth = 1
	l.nodes(root, nil, "", 0)
}

// key checks a mapping key and returns the path to it.
func (l *loader) key(k *yaml.Node, path []string) ([]string, bool) {
	if k.Kind != yaml.ScalarNode {
		l.structural(k, path, "keys must be plain names, found %s", kindName(k))
		return nil, false
	}
	p := append(slices.Clip(path), k.Value)
	if k.Value == "" {
		l.structural(k, p, "empty key")
		return nil, false
	}
	return p, true
}

// nodes reads a map of node names and namespaces; ns is the name the
// nesting spells so far and count the number of keys in it.
func (l *loader) nodes(m *yaml.Node, path []string, ns string, count int) {
	for i := 0; i+1 < len(m.Content) && !l.abort; i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		p, ok := l.key(k, path)
		if !ok {
			return
		}
		if strings.HasPrefix(k.Value, paramsKey) {
			l.nodeParams(k, v, p, ns, count)
			continue
		}
		l.nodeNS.add(k.Value, "/")
		child := k.Value
		if ns != "" {
			child = joinNS(ns, k.Value)
		}
		if v.Kind != yaml.MappingNode {
			l.structural(v, p, "expected a map of node names or %s, found %s", paramsKey, kindName(v))
			return
		}
		l.depth++
		l.nodes(v, p, child, count+1)
		if l.depth == l.nodeNS.n+1 { // rcl's MAPPING_END at node level
			l.nodeNS.remove("/")
		}
		l.depth--
	}
}

func joinNS(ns, name string) string {
	if strings.HasSuffix(ns, "/") {
		return ns + name
	}
	return ns + "/" + name
}

func (l *loader) nodeParams(k, v *yaml.Node, path []string, ns string, count int) {
	if count == 0 {
		l.structural(k, path, "%s must be inside a node name entry", paramsKey)
		return
	}
	if l.nodeNS.s != ns || l.nodeNS.n != count {
		l.structural(k, path, "rcl reads this entry as node %q, not %q as the nesting shows "+
			"(keys after %s or nested keys with '/' confuse it); give each node its own entry", l.nodeNS.s, ns, paramsKey)
		return
	}
	if err := validateNodeKey(ns); err != nil {
		l.structural(k, path[:len(path)-1], "%v", err)
		return
	}
	l.out = append(l.out, loaded{key: ns})
	l.nodeNS.remove("/")
	switch {
	case v.Kind != yaml.MappingNode:
		l.structural(v, path, "expected a map of parameters, found %s", kindName(v))
		return
	case len(v.Content) == 0:
		return
	}
	l.depth++
	l.curParam = ""
	l.params(v, ns, path, "", true)
	l.depth--
}

// params reads a map of parameters; prefix is the dotted name the nesting
// spells so far ("net." for the keys under net:).
func (l *loader) params(m *yaml.Node, nodeKey string, path []string, prefix string, top bool) {
	newMap := !top
	for i := 0; i+1 < len(m.Content) && !l.abort; i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		p, ok := l.key(k, path)
		if !ok {
			return
		}
		if newMap { // first key of a nested map: its parent's name becomes the namespace
			l.paramNS.s, l.paramNS.n = l.curParam, l.paramNS.n+1
			newMap = false
		}
		rclName := k.Value
		if l.paramNS.n > 0 {
			rclName = l.paramNS.s + "." + k.Value
		}
		name := prefix + k.Value
		if rclName != name {
			l.structural(k, p, "rcl reads this parameter as %q, not %q as the nesting shows "+
				"(nested keys with '.' confuse it); write the full dotted name in one key", rclName, name)
			return
		}
		l.curParam = name
		switch v.Kind {
		case yaml.MappingNode:
			if len(v.Content) == 0 {
				l.structural(v, p, "an empty map is not a parameter value")
				return
			}
			l.depth++
			l.params(v, nodeKey, p, name+".", false)
			l.paramNS.remove(".")
			l.depth--
		default:
			val, empty, err := decodeValue(v)
			if err != nil {
				l.errs = append(l.errs, &SourceError{Source: Source{File: l.file, Line: v.Line, Key: strings.Join(p, ".")}, Err: err})
				continue
			}
			l.out = append(l.out, loaded{key: nodeKey, ov: &Override{
				Name: name, Value: val, NodeKey: nodeKey, EmptyArray: empty,
				Source: Source{File: l.file, Line: k.Line, Key: strings.Join(p, ".")},
			}})
		}
	}
}

// validateNodeKey checks a node key as rcl_yaml_param_parser does
// (_validate_name): "/**" and "/*" as a whole, otherwise every namespace
// level is a valid namespace or "*" or "**", and the last level a valid node
// name or "*" or "**". A relative key is read as absolute.
func validateNodeKey(key string) error {
	if key == "/**" || key == "/*" {
		return nil
	}
	name := key
	if i := strings.LastIndexByte(key, '/'); i >= 0 {
		ns := key[:i+1]
		name = key[i+1:]
		if ns[0] != '/' {
			ns = "/" + ns
		}
		// Levels run from each '/' to the next; the last '/' ends the last one.
		for start := 0; start < len(ns)-1; {
			end := start + 1 + strings.IndexByte(ns[start+1:], '/')
			level := ns[start:end]
			if level == "/" {
				return fmt.Errorf("invalid node name %q: repeated '/'", key)
			}
			if level != "/*" && level != "/**" {
				if err := rosargs.ValidateNamespace(level); err != nil {
					return fmt.Errorf("invalid node name %q: %s", key, nameReason(err))
				}
			}
			start = end
		}
	}
	if name != "*" && name != "**" {
		if err := rosargs.ValidateNodeName(name); err != nil {
			return fmt.Errorf("invalid node name %q: %s", key, nameReason(err))
		}
	}
	return nil
}

func nameReason(err error) string {
	var ne *rosargs.NameError
	if errors.As(err, &ne) {
		return fmt.Sprintf("%s %q %s", ne.What, ne.Name, ne.Reason)
	}
	return err.Error()
}
