package main

import (
	"fmt"
	"strings"
)

// Block paths (ros/cdr's Block and typed slice methods): a message made only of
// fixed-size numeric fields, or a sequence or array of numbers, is read and written in
// one piece where the field-by-field layout allows, and field by field otherwise.

// leaf is one primitive field of a fixed layout: its Go selector below the message
// (".Pose.X", ".C[3]"), primitive and byte offset.
type leaf struct {
	sel  string
	prim string
	off  int
}

// fixedLayout is the wire layout of a message whose fields are all fixed-size numbers
// (no bool, string or sequence; nested messages and arrays of such are flattened), as
// the field-by-field code lays it out from a body offset that is a multiple of align:
// every leaf aligned to its own size.
type fixedLayout struct {
	leaves []leaf
	size   int // bytes from the first leaf to the end of the last
	first  int // alignment of the first leaf
	align  int // the largest leaf alignment
}

// maxBlockLeaves bounds the leaves of a layout (each one a line of generated code).
const maxBlockLeaves = 32

// layout returns m's fixed layout, or false when m has another field or too many.
func (g *generator) layout(m *Message) (fixedLayout, bool) {
	var l fixedLayout
	if len(m.Fields) == 0 || !g.addLeaves(&l, m, "") || len(l.leaves) > maxBlockLeaves {
		return fixedLayout{}, false
	}
	return l, true
}

func (g *generator) addLeaves(l *fixedLayout, m *Message, sel string) bool {
	if len(m.Fields) == 0 {
		return false // one uint8 on the wire with no field to hold it
	}
	for _, f := range m.Fields {
		t := f.Type
		n := 1
		switch t.Array {
		case FixedArray:
			n = t.Size
		case BoundedSequence, UnboundedSequence:
			return false
		}
		for i := range n {
			s := sel + "." + fieldName(f)
			if t.Array == FixedArray {
				s += fmt.Sprintf("[%d]", i)
			}
			if t.IsNested() {
				nm, err := g.l.Lookup(t)
				if err != nil || !g.addLeaves(l, nm, s) {
					return false
				}
				continue
			}
			k, ok := primSizes[t.Prim]
			if !ok || t.Prim == "bool" || t.Prim == "string" {
				return false
			}
			off := l.size + (-l.size & (k - 1))
			if len(l.leaves) == 0 {
				l.first = k
			}
			l.leaves = append(l.leaves, leaf{sel: s, prim: t.Prim, off: off})
			l.size, l.align = off+k, max(l.align, k)
			if len(l.leaves) > maxBlockLeaves {
				return false
			}
		}
	}
	return true
}

// loads and stores are the ros/cdr calls that move one leaf, by primitive.
var (
	blockLoads = map[string]string{
		"int16": "int16(cdr.Load16(%s, be))", "uint16": "cdr.Load16(%s, be)",
		"int32": "int32(cdr.Load32(%s, be))", "uint32": "cdr.Load32(%s, be)",
		"int64": "int64(cdr.Load64(%s, be))", "uint64": "cdr.Load64(%s, be)",
		"float32": "cdr.LoadFloat32(%s, be)", "float64": "cdr.LoadFloat64(%s, be)",
	}
	blockStores = map[string]string{
		"int16": "cdr.Store16(%s, uint16(%s))", "uint16": "cdr.Store16(%s, %s)",
		"int32": "cdr.Store32(%s, uint32(%s))", "uint32": "cdr.Store32(%s, %s)",
		"int64": "cdr.Store64(%s, uint64(%s))", "uint64": "cdr.Store64(%s, %s)",
		"float32": "cdr.StoreFloat32(%s, %s)", "float64": "cdr.StoreFloat64(%s, %s)",
	}
)

// decodeBlock writes the block path that opens UnmarshalCDR of a message with layout l.
func decodeBlock(b *strings.Builder, l fixedLayout) {
	fmt.Fprintf(b, "if p := d.Block(%d, %d, %d); p != nil {\n", l.size, l.first, l.align)
	be := false
	for _, f := range l.leaves {
		if primSizes[f.prim] > 1 {
			be = true
		}
	}
	if be {
		b.WriteString("be := d.BigEndian()\n")
	}
	for _, f := range l.leaves {
		switch f.prim {
		case "int8":
			fmt.Fprintf(b, "m%s = int8(p[%d])\n", f.sel, f.off)
		case "byte", "char", "uint8":
			fmt.Fprintf(b, "m%s = p[%d]\n", f.sel, f.off)
		default:
			fmt.Fprintf(b, "m%s = "+blockLoads[f.prim]+"\n", f.sel, fmt.Sprintf("p[%d:]", f.off))
		}
	}
	b.WriteString("return nil\n}\n")
}

// encodeBlock writes the block path that opens MarshalCDR of a message with layout l.
func encodeBlock(b *strings.Builder, l fixedLayout) {
	fmt.Fprintf(b, "if p := e.Block(%d, %d, %d); p != nil {\n", l.size, l.first, l.align)
	for _, f := range l.leaves {
		switch f.prim {
		case "int8":
			fmt.Fprintf(b, "p[%d] = byte(m%s)\n", f.off, f.sel)
		case "byte", "char", "uint8":
			fmt.Fprintf(b, "p[%d] = m%s\n", f.off, f.sel)
		default:
			fmt.Fprintf(b, blockStores[f.prim]+"\n", fmt.Sprintf("p[%d:]", f.off), "m"+f.sel)
		}
	}
	b.WriteString("return\n}\n")
}

// wordSlices are the primitives whose arrays and sequences move as one block
// (Decoder.Float64s and the like), by the method's name.
var wordSlices = map[string]string{
	"int16": "Int16s", "uint16": "Uint16s", "int32": "Int32s", "uint32": "Uint32s",
	"int64": "Int64s", "uint64": "Uint64s", "float32": "Float32s", "float64": "Float64s",
}
