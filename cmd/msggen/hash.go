package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
)

// REP-2011 type hashing (RIHS01), as rosidl_generator_type_description computes it:
// the SHA-256 of a JSON text holding the type's description and the descriptions of
// every type it references (transitively, sorted by name). Each field is described by
// its name and {type_id, capacity, string_capacity, nested_type_name}; default values
// are left out. The JSON is what Python's json.dumps writes with separators ", " and
// ": ", keys in insertion order and ASCII output.

// Field type ids of type_description_interfaces/msg/FieldType.
const (
	fieldTypeNested        = 1
	fieldTypeBoundedString = 21
	fieldTypeArrayOffset   = 48 // T[N]
	fieldTypeBoundedSeqOff = 96 // T[<=N]
	fieldTypeSeqOffset     = 144
)

var fieldTypeIDs = map[string]int{
	"int8": 2, "uint8": 3, "int16": 4, "uint16": 5, "int32": 6, "uint32": 7,
	"int64": 8, "uint64": 9, "float32": 10, "float64": 11,
	"char": 3, // .msg char is IDL uint8
	"bool": 15, "byte": 16, "string": 17,
}

// emptyMember is the field rosidl adds to a message without fields.
const emptyMember = "structure_needs_at_least_one_member"

// typeDesc is one individual type description.
type typeDesc struct {
	name   string
	fields []fieldDesc
}

type fieldDesc struct {
	name                             string
	typeID, capacity, stringCapacity int
	nestedTypeName                   string
}

// describe returns the individual type description of m.
func (l *Loader) describe(m *Message) (typeDesc, error) {
	td := typeDesc{name: m.FullName()}
	if len(m.Fields) == 0 {
		td.fields = []fieldDesc{{name: emptyMember, typeID: fieldTypeIDs["uint8"]}}
		return td, nil
	}
	for _, f := range m.Fields {
		fd := fieldDesc{name: f.Name}
		t := f.Type
		switch {
		case t.IsNested():
			n, err := l.Lookup(t)
			if err != nil {
				return td, err
			}
			fd.typeID = fieldTypeNested
			fd.nestedTypeName = n.FullName()
		case t.Prim == "string" && t.StrBound > 0:
			fd.typeID = fieldTypeBoundedString
			fd.stringCapacity = t.StrBound
		default:
			fd.typeID = fieldTypeIDs[t.Prim]
		}
		switch t.Array {
		case FixedArray:
			fd.typeID += fieldTypeArrayOffset
			fd.capacity = t.Size
		case BoundedSequence:
			fd.typeID += fieldTypeBoundedSeqOff
			fd.capacity = t.Size
		case UnboundedSequence:
			fd.typeID += fieldTypeSeqOffset
		}
		td.fields = append(td.fields, fd)
	}
	return td, nil
}

// nested returns the messages that m's fields refer to directly.
func (l *Loader) nested(m *Message) ([]*Message, error) {
	var out []*Message
	for _, f := range m.Fields {
		if f.Type.IsNested() {
			n, err := l.Lookup(f.Type)
			if err != nil {
				return nil, err
			}
			out = append(out, n)
		}
	}
	return out, nil
}

// hashInput returns the JSON text that is hashed for a type whose own description
// is top and whose direct references are refs.
func (l *Loader) hashInput(top typeDesc, refs []*Message) (string, error) {
	seen := map[string]*Message{}
	queue := refs
	for len(queue) > 0 {
		m := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if _, ok := seen[m.FullName()]; ok {
			continue
		}
		seen[m.FullName()] = m
		more, err := l.nested(m)
		if err != nil {
			return "", err
		}
		queue = append(queue, more...)
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(`{"type_description": `)
	writeTypeDesc(&b, top)
	b.WriteString(`, "referenced_type_descriptions": [`)
	for i, n := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		td, err := l.describe(seen[n])
		if err != nil {
			return "", err
		}
		writeTypeDesc(&b, td)
	}
	b.WriteString("]}")
	return b.String(), nil
}

func writeTypeDesc(b *strings.Builder, td typeDesc) {
	fmt.Fprintf(b, `{"type_name": %s, "fields": [`, jsonString(td.name))
	for i, f := range td.fields {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(b, `{"name": %s, "type": {"type_id": %d, "capacity": %d, "string_capacity": %d, "nested_type_name": %s}}`,
			jsonString(f.name), f.typeID, f.capacity, f.stringCapacity, jsonString(f.nestedTypeName))
	}
	b.WriteString("]}")
}

// jsonString quotes s as Python's json.dumps(ensure_ascii=True) does.
func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r > 0x7e:
			if r > 0xffff {
				r -= 0x10000
				fmt.Fprintf(&b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func rihs01(text string) string {
	sum := sha256.Sum256([]byte(text))
	return "RIHS01_" + hex.EncodeToString(sum[:])
}

// MessageHash returns the RIHS01 hash of m.
func (l *Loader) MessageHash(m *Message) (string, error) {
	td, err := l.describe(m)
	if err != nil {
		return "", err
	}
	refs, err := l.nested(m)
	if err != nil {
		return "", err
	}
	text, err := l.hashInput(td, refs)
	if err != nil {
		return "", err
	}
	return rihs01(text), nil
}

// ServiceHash returns the RIHS01 hash of s: a type with the fields request_message,
// response_message and event_message.
func (l *Loader) ServiceHash(s *Service) (string, error) {
	td := typeDesc{name: s.FullName()}
	for _, p := range []struct {
		field string
		m     *Message
	}{{"request_message", s.Request}, {"response_message", s.Response}, {"event_message", s.Event}} {
		td.fields = append(td.fields, fieldDesc{name: p.field, typeID: fieldTypeNested, nestedTypeName: p.m.FullName()})
	}
	text, err := l.hashInput(td, []*Message{s.Request, s.Response, s.Event})
	if err != nil {
		return "", err
	}
	return rihs01(text), nil
}
