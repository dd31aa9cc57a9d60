package sim3d

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
)

// Limits of the S-expression parser. A Tree with zero limits uses these.
const (
	// DefaultMaxDepth bounds list nesting. Server messages nest at most five levels
	// deep (See → P → head → pol); the margin allows new perceptors.
	DefaultMaxDepth = 32
	// DefaultMaxNodes bounds the number of atoms and lists in one message. A full Nao
	// percept with vision of 22 players holds roughly 1500 nodes.
	DefaultMaxNodes = 16384
)

// Parser errors.
var (
	// ErrUnbalanced reports a ')' without '(' or a '(' that is never closed.
	ErrUnbalanced = errors.New("sim3d: unbalanced parentheses")
	// ErrTooDeep reports lists nested deeper than the tree's limit.
	ErrTooDeep = errors.New("sim3d: nesting too deep")
	// ErrTooManyNodes reports a message with more atoms and lists than the tree's limit.
	ErrTooManyNodes = errors.New("sim3d: too many nodes")
	// ErrTooLarge reports an input too large to index.
	ErrTooLarge = errors.New("sim3d: message too large")
	// ErrSyntax reports an atom or list that does not have the expected shape.
	ErrSyntax = errors.New("sim3d: unexpected expression")
	// ErrNumber reports an atom that should be a finite number and is not.
	ErrNumber = errors.New("sim3d: bad number")
)

type nodeKind uint8

const (
	kindAtom nodeKind = iota + 1
	kindList
)

// node is one atom or list. Children of a list form a singly linked chain through next.
type node struct {
	kind       nodeKind
	start, end int32 // atom text, or the list's span including its parentheses
	first      int32 // first child, -1 when none
	next       int32 // next sibling, -1 when none
	count      int32 // number of children
}

// Tree is a parsed S-expression message: a sequence of atoms and lists. It indexes the
// source without copying it, so the source must not change while the tree is used, and a
// Tree reuses its memory across Parse calls: parsing a message of a size seen before does
// not allocate. The zero Tree is ready to use with the default limits.
//
// Atoms are maximal runs of bytes other than white space (space, tab, CR, LF) and
// parentheses; there is no quoting, as in the server's own grammar for perceptors.
type Tree struct {
	// MaxDepth bounds list nesting; 0 means DefaultMaxDepth.
	MaxDepth int
	// MaxNodes bounds atoms plus lists; 0 means DefaultMaxNodes.
	MaxNodes int

	src   []byte
	nodes []node // nodes[0] is the root: a list without parentheses
	stack []frame
}

type frame struct{ list, last int32 }

// Parse indexes src. On error the tree is empty.
func (t *Tree) Parse(src []byte) error {
	maxDepth, maxNodes := t.MaxDepth, t.MaxNodes
	if maxDepth <= 0 {
		maxDepth = DefaultMaxDepth
	}
	if maxNodes <= 0 {
		maxNodes = DefaultMaxNodes
	}
	t.src = nil
	t.nodes = append(t.nodes[:0], node{kind: kindList, start: 0, first: -1, next: -1})
	t.stack = append(t.stack[:0], frame{list: 0, last: -1})
	if len(src) >= math.MaxInt32 {
		return fmt.Errorf("%w: %d bytes", ErrTooLarge, len(src))
	}
	fail := func(err error) error {
		t.nodes = t.nodes[:1]
		t.nodes[0] = node{kind: kindList, first: -1, next: -1}
		t.stack = t.stack[:0]
		return err
	}
	add := func(n node) (int32, error) {
		if len(t.nodes) > maxNodes { // the root does not count
			return 0, fmt.Errorf("%w: more than %d", ErrTooManyNodes, maxNodes)
		}
		idx := int32(len(t.nodes))
		t.nodes = append(t.nodes, n)
		top := &t.stack[len(t.stack)-1]
		parent := &t.nodes[top.list]
		if top.last < 0 {
			parent.first = idx
		} else {
			t.nodes[top.last].next = idx
		}
		parent.count++
		top.last = idx
		return idx, nil
	}
	for i := 0; i < len(src); {
		switch c := src[i]; c {
		case ' ', '\t', '\n', '\r':
			i++
		case '(':
			if len(t.stack) > maxDepth {
				return fail(fmt.Errorf("%w: more than %d levels at byte %d", ErrTooDeep, maxDepth, i))
			}
			idx, err := add(node{kind: kindList, start: int32(i), first: -1, next: -1})
			if err != nil {
				return fail(err)
			}
			t.stack = append(t.stack, frame{list: idx, last: -1})
			i++
		case ')':
			if len(t.stack) == 1 {
				return fail(fmt.Errorf("%w: ')' at byte %d closes nothing", ErrUnbalanced, i))
			}
			t.nodes[t.stack[len(t.stack)-1].list].end = int32(i + 1)
			t.stack = t.stack[:len(t.stack)-1]
			i++
		default:
			j := i + 1
			for j < len(src) && !isDelim(src[j]) {
				j++
			}
			if _, err := add(node{kind: kindAtom, start: int32(i), end: int32(j), first: -1, next: -1}); err != nil {
				return fail(err)
			}
			i = j
		}
	}
	if len(t.stack) != 1 {
		open := t.nodes[t.stack[len(t.stack)-1].list].start
		return fail(fmt.Errorf("%w: '(' at byte %d is not closed", ErrUnbalanced, open))
	}
	t.nodes[0].end = int32(len(src))
	t.src = src
	return nil
}

func isDelim(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '(' || c == ')'
}

// Root returns the top level of the message as a list node without parentheses.
func (t *Tree) Root() Node { return Node{t: t, i: 0} }

// Node is a handle to one atom or list of a Tree. The zero Node is invalid: it reports
// false from Valid and behaves as an empty list.
type Node struct {
	t *Tree
	i int32
}

func (n Node) get() *node {
	if n.t == nil || n.i < 0 || int(n.i) >= len(n.t.nodes) {
		return nil
	}
	return &n.t.nodes[n.i]
}

// Valid reports whether n refers to a node.
func (n Node) Valid() bool { return n.get() != nil }

// IsAtom reports whether n is an atom.
func (n Node) IsAtom() bool {
	p := n.get()
	return p != nil && p.kind == kindAtom
}

// IsList reports whether n is a list.
func (n Node) IsList() bool {
	p := n.get()
	return p != nil && p.kind == kindList
}

// Atom returns the text of an atom, or nil for a list. The slice aliases the source.
func (n Node) Atom() []byte {
	p := n.get()
	if p == nil || p.kind != kindAtom {
		return nil
	}
	return n.t.src[p.start:p.end:p.end]
}

// Text returns the source text the node spans (a list includes its parentheses).
func (n Node) Text() []byte {
	p := n.get()
	if p == nil {
		return nil
	}
	return n.t.src[p.start:p.end:p.end]
}

// Len returns the number of children of a list, 0 for an atom.
func (n Node) Len() int {
	p := n.get()
	if p == nil {
		return 0
	}
	return int(p.count)
}

// First returns the first child of a list; the result is invalid when there is none.
func (n Node) First() Node {
	p := n.get()
	if p == nil {
		return Node{}
	}
	return Node{t: n.t, i: p.first}
}

// Next returns the following sibling; the result is invalid at the end of a list.
func (n Node) Next() Node {
	p := n.get()
	if p == nil || n.i == 0 {
		return Node{}
	}
	return Node{t: n.t, i: p.next}
}

// Head returns the first child of a list when it is an atom (the predicate name of a
// server expression such as "hear" in (hear ...)), else nil.
func (n Node) Head() []byte {
	return n.First().Atom()
}

// HeadIs reports whether n is a list whose first child is the atom name.
func (n Node) HeadIs(name string) bool {
	h := n.Head()
	return h != nil && string(h) == name
}

// Find returns the first child list of n whose head is name; the result is invalid when
// there is none.
func (n Node) Find(name string) Node {
	for c := n.First(); c.Valid(); c = c.Next() {
		if c.HeadIs(name) {
			return c
		}
	}
	return Node{}
}

// Float parses an atom as a finite floating-point number.
func (n Node) Float() (float64, error) { return n.float(64) }

func (n Node) float(bits int) (float64, error) {
	a := n.Atom()
	if a == nil {
		return 0, fmt.Errorf("%w: %s is not an atom", ErrNumber, describe(n))
	}
	v, err := strconv.ParseFloat(string(a), bits)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("%w: %q is not a finite number", ErrNumber, a)
	}
	return v, nil
}

// Int parses an atom as a decimal integer that fits in an int32.
func (n Node) Int() (int, error) {
	a := n.Atom()
	if a == nil {
		return 0, fmt.Errorf("%w: %s is not an atom", ErrNumber, describe(n))
	}
	v, err := strconv.ParseInt(string(a), 10, 32)
	if err != nil {
		return 0, fmt.Errorf("%w: %q is not an integer", ErrNumber, a)
	}
	return int(v), nil
}

// describe names a node for an error message without quoting unbounded input.
func describe(n Node) string {
	const limit = 24
	switch {
	case !n.Valid():
		return "missing value"
	case n.IsAtom():
		return strconv.Quote(string(clip(n.Atom(), limit)))
	default:
		return fmt.Sprintf("list %q", clip(n.Text(), limit))
	}
}

func clip(b []byte, limit int) []byte {
	if len(b) <= limit {
		return b
	}
	return append(bytes.Clone(b[:limit]), "..."...)
}
