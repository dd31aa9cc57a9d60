package params

import (
	"fmt"
	"testing"
)

func BenchmarkLoadYAML(b *testing.B) {
	data := []byte(teamConfig)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if err := (&Overrides{}).LoadYAML("f.yaml", data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseValue(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseValue("[10.0.0.2, 10.0.0.3]"); err != nil {
			b.Fatal(err)
		}
	}
}

func benchStore(b *testing.B) *Store {
	s, err := NewStore(nil)
	if err != nil {
		b.Fatal(err)
	}
	for i := range 50 {
		if _, err := s.Declare(fmt.Sprintf("p%d", i), Integer(0), Descriptor{IntegerRange: &IntegerRange{From: 0, To: 1 << 40}}); err != nil {
			b.Fatal(err)
		}
	}
	return s
}

func BenchmarkGetInteger(b *testing.B) {
	s := benchStore(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.GetInteger("p7"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSetAtomically(b *testing.B) {
	s := benchStore(b)
	s.OnChange(func(Event) {})
	b.ReportAllocs()
	i := int64(0)
	for b.Loop() {
		i++
		if r := s.SetAtomically(Parameter{Name: "p7", Value: Integer(i)}); !r.Successful {
			b.Fatal(r.Reason)
		}
	}
}
