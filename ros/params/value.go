package params

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Type is a parameter type; the values are those of
// rcl_interfaces/msg/ParameterType.
type Type uint8

const (
	TypeNotSet       Type = 0
	TypeBool         Type = 1
	TypeInteger      Type = 2 // int64
	TypeDouble       Type = 3 // float64
	TypeString       Type = 4
	TypeByteArray    Type = 5
	TypeBoolArray    Type = 6
	TypeIntegerArray Type = 7
	TypeDoubleArray  Type = 8
	TypeStringArray  Type = 9
)

var typeNames = [...]string{
	TypeNotSet:       "not set",
	TypeBool:         "bool",
	TypeInteger:      "integer",
	TypeDouble:       "double",
	TypeString:       "string",
	TypeByteArray:    "byte_array",
	TypeBoolArray:    "bool_array",
	TypeIntegerArray: "integer_array",
	TypeDoubleArray:  "double_array",
	TypeStringArray:  "string_array",
}

// String is the name rclcpp gives the type ("integer", "string_array", …).
func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return fmt.Sprintf("Type(%d)", uint8(t))
}

// Value is a parameter value. It mirrors rcl_interfaces/msg/ParameterValue
// field by field: Type says which one field holds the value.
type Value struct {
	Type              Type
	BoolValue         bool
	IntegerValue      int64
	DoubleValue       float64
	StringValue       string
	ByteArrayValue    []byte
	BoolArrayValue    []bool
	IntegerArrayValue []int64
	DoubleArrayValue  []float64
	StringArrayValue  []string
}

// Constructors of each kind of value. The array constructors keep the slice;
// the Store copies values on the way in and out.
func Bool(b bool) Value             { return Value{Type: TypeBool, BoolValue: b} }
func Integer(i int64) Value         { return Value{Type: TypeInteger, IntegerValue: i} }
func Double(f float64) Value        { return Value{Type: TypeDouble, DoubleValue: f} }
func String(s string) Value         { return Value{Type: TypeString, StringValue: s} }
func ByteArray(b []byte) Value      { return Value{Type: TypeByteArray, ByteArrayValue: b} }
func BoolArray(b []bool) Value      { return Value{Type: TypeBoolArray, BoolArrayValue: b} }
func IntegerArray(i []int64) Value  { return Value{Type: TypeIntegerArray, IntegerArrayValue: i} }
func DoubleArray(f []float64) Value { return Value{Type: TypeDoubleArray, DoubleArrayValue: f} }
func StringArray(s []string) Value  { return Value{Type: TypeStringArray, StringArrayValue: s} }

// IsSet reports whether v holds a value (its Type is not TypeNotSet).
func (v Value) IsSet() bool { return v.Type != TypeNotSet }

// cloneOrEmpty copies s into a new, non-nil slice.
func cloneOrEmpty[S ~[]E, E any](s S) S { return append(S{}, s...) }

// Clone returns a copy that shares no memory with v and holds only the field
// its Type names.
func (v Value) Clone() Value {
	switch v.Type {
	case TypeBool:
		return Bool(v.BoolValue)
	case TypeInteger:
		return Integer(v.IntegerValue)
	case TypeDouble:
		return Double(v.DoubleValue)
	case TypeString:
		return String(v.StringValue)
	case TypeByteArray:
		return ByteArray(cloneOrEmpty(v.ByteArrayValue))
	case TypeBoolArray:
		return BoolArray(cloneOrEmpty(v.BoolArrayValue))
	case TypeIntegerArray:
		return IntegerArray(cloneOrEmpty(v.IntegerArrayValue))
	case TypeDoubleArray:
		return DoubleArray(cloneOrEmpty(v.DoubleArrayValue))
	case TypeStringArray:
		return StringArray(cloneOrEmpty(v.StringArrayValue))
	}
	return Value{Type: v.Type}
}

func sameFloat(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) || a == b }

// Equal reports whether v and w have the same type and value. Doubles compare
// by bits, so a NaN equals the same NaN.
func (v Value) Equal(w Value) bool {
	if v.Type != w.Type {
		return false
	}
	switch v.Type {
	case TypeBool:
		return v.BoolValue == w.BoolValue
	case TypeInteger:
		return v.IntegerValue == w.IntegerValue
	case TypeDouble:
		return sameFloat(v.DoubleValue, w.DoubleValue)
	case TypeString:
		return v.StringValue == w.StringValue
	case TypeByteArray:
		return slices.Equal(v.ByteArrayValue, w.ByteArrayValue)
	case TypeBoolArray:
		return slices.Equal(v.BoolArrayValue, w.BoolArrayValue)
	case TypeIntegerArray:
		return slices.Equal(v.IntegerArrayValue, w.IntegerArrayValue)
	case TypeDoubleArray:
		return slices.EqualFunc(v.DoubleArrayValue, w.DoubleArrayValue, sameFloat)
	case TypeStringArray:
		return slices.Equal(v.StringArrayValue, w.StringArrayValue)
	}
	return true
}

func formatDouble(f float64) string {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eEnN") { // keep doubles recognisable: 1.0, not 1
		s += ".0"
	}
	return s
}

func formatList[E any](s []E, f func(E) string) string {
	parts := make([]string, len(s))
	for i, e := range s {
		parts[i] = f(e)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// String formats the value as YAML would show it: true, 7, 1.5, "text", [1, 2].
func (v Value) String() string {
	switch v.Type {
	case TypeBool:
		return strconv.FormatBool(v.BoolValue)
	case TypeInteger:
		return strconv.FormatInt(v.IntegerValue, 10)
	case TypeDouble:
		return formatDouble(v.DoubleValue)
	case TypeString:
		return strconv.Quote(v.StringValue)
	case TypeByteArray:
		return formatList(v.ByteArrayValue, func(b byte) string { return strconv.Itoa(int(b)) })
	case TypeBoolArray:
		return formatList(v.BoolArrayValue, strconv.FormatBool)
	case TypeIntegerArray:
		return formatList(v.IntegerArrayValue, func(i int64) string { return strconv.FormatInt(i, 10) })
	case TypeDoubleArray:
		return formatList(v.DoubleArrayValue, formatDouble)
	case TypeStringArray:
		return formatList(v.StringArrayValue, strconv.Quote)
	case TypeNotSet:
		return "not set"
	}
	return v.Type.String()
}

// describe is the type and the value, for error messages: string "seventeen".
func (v Value) describe() string {
	if v.Type == TypeNotSet {
		return "no value"
	}
	return v.Type.String() + " " + v.String()
}

// Parameter is a named value (rcl_interfaces/msg/Parameter).
type Parameter struct {
	Name  string
	Value Value
}
