package params

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestScalarValue(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, tc := range []struct {
		in     string
		quoted bool
		want   Value
	}{
		// bool spellings rcl accepts, and some it does not
		{"true", false, Bool(true)}, {"True", false, Bool(true)}, {"TRUE", false, Bool(true)},
		{"yes", false, Bool(true)}, {"Yes", false, Bool(true)}, {"YES", false, Bool(true)},
		{"y", false, Bool(true)}, {"Y", false, Bool(true)}, {"on", false, Bool(true)},
		{"On", false, Bool(true)}, {"ON", false, Bool(true)},
		{"false", false, Bool(false)}, {"False", false, Bool(false)}, {"FALSE", false, Bool(false)},
		{"no", false, Bool(false)}, {"No", false, Bool(false)}, {"NO", false, Bool(false)},
		{"n", false, Bool(false)}, {"N", false, Bool(false)}, {"off", false, Bool(false)},
		{"Off", false, Bool(false)}, {"OFF", false, Bool(false)},
		{"tRUE", false, String("tRUE")}, {"oN", false, String("oN")}, {"yES", false, String("yES")},
		// integers: strtoll base 0
		{"0", false, Integer(0)}, {"42", false, Integer(42)}, {"-7", false, Integer(-7)}, {"+3", false, Integer(3)},
		{"0x1F", false, Integer(31)}, {"0X1f", false, Integer(31)}, {"0x0EF6", false, Integer(3830)},
		{"010", false, Integer(8)}, {"-010", false, Integer(-8)}, {"-0x10", false, Integer(-16)},
		{"992147483647", false, Integer(992147483647)},
		{"9223372036854775807", false, Integer(math.MaxInt64)},
		{"-9223372036854775808", false, Integer(math.MinInt64)},
		{"0777777777777777777777", false, Integer(math.MaxInt64)},
		// doubles: special spellings, then strtod
		{"1.5", false, Double(1.5)}, {"-2.3", false, Double(-2.3)}, {"2.30", false, Double(2.3)},
		{"1e3", false, Double(1000)}, {"1E-2", false, Double(0.01)}, {".5", false, Double(0.5)},
		{"5.", false, Double(5)}, {"+.5e1", false, Double(5)},
		{"08", false, Double(8)}, {"09.5", false, Double(9.5)}, // not octal, so strtod reads them
		{"9223372036854775808", false, Double(9223372036854775808)}, // strtoll overflows
		{"-9223372036854775809", false, Double(-9223372036854775809)},
		{"0x8000000000000000", false, Double(9223372036854775808)},
		{"0x1.8p1", false, Double(3)}, {"0x.8", false, Double(0.5)}, {"0x1p-2", false, Double(0.25)}, {"0x10.0", false, Double(16)},
		{".nan", false, Double(nan)}, {".NaN", false, Double(nan)}, {".NAN", false, Double(nan)},
		{".inf", false, Double(inf)}, {".Inf", false, Double(inf)}, {".INF", false, Double(inf)},
		{"+.inf", false, Double(inf)}, {"+.Inf", false, Double(inf)}, {"-.INF", false, Double(-inf)},
		{"inf", false, Double(inf)}, {"-Infinity", false, Double(-inf)}, {"NaN", false, Double(nan)},
		{"nan(123abc)", false, Double(nan)}, {"1e308", false, Double(1e308)},
		{"2.2250738585072014e-308", false, Double(2.2250738585072014e-308)},
		// strings
		{".nananan", false, String(".nananan")}, {".nAN", false, String(".nAN")}, {".Nan", false, String(".Nan")},
		{".infinf", false, String(".infinf")}, {".INf", false, String(".INf")}, {".infinity", false, String(".infinity")},
		{"infinit", false, String("infinit")}, {"nan(", false, String("nan(")}, {"nan(x-y)", false, String("nan(x-y)")},
		{"1_000", false, String("1_000")}, {"1.0.0", false, String("1.0.0")}, {"0x", false, String("0x")},
		{"0x1p", false, String("0x1p")}, {"1e", false, String("1e")}, {"1e+", false, String("1e+")},
		{"~", false, String("~")}, {"null", false, String("null")}, {"ARM", false, String("ARM")},
		{"x86_64", false, String("x86_64")}, {"2:1", false, String("2:1")}, {"5\n", false, String("5\n")},
		{"1e400", false, String("1e400")}, {"1e-400", false, String("1e-400")}, {"1e-310", false, String("1e-310")},
		{"0x1p-1030", false, String("0x1p-1030")}, {"- 5", false, String("- 5")}, {"+-1", false, String("+-1")},
		{"0e-999", false, Double(0)}, // zero is exact, not an underflow
		// quoted or !!str: always strings
		{"yes", true, String("yes")}, {"1234", true, String("1234")}, {"12.34", true, String("12.34")}, {"", true, String("")},
	} {
		got := scalarValue(tc.in, tc.quoted)
		if !got.Equal(tc.want) {
			t.Errorf("scalarValue(%q, %v) = %s, want %s", tc.in, tc.quoted, got.describe(), tc.want.describe())
		}
	}
	// Sign of -nan is kept as glibc does.
	if v := scalarValue("-nan", false); v.Type != TypeDouble || !math.IsNaN(v.DoubleValue) || !math.Signbit(v.DoubleValue) {
		t.Errorf("-nan = %s", v.describe())
	}
}

func TestParseValue(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Value
	}{
		{"3838", Integer(3838)},
		{"3838\n...\n", Integer(3838)}, // PyYAML's dump of a scalar, as launch_ros writes -p values
		{"'yes'\n", String("yes")},
		{"alpha", String("alpha")},
		{"hello world", String("hello world")},
		{"a:=b", String("a:=b")},
		{"[1, 2]", IntegerArray([]int64{1, 2})},
		{"- 1\n- 2\n", IntegerArray([]int64{1, 2})},
		{"[false, true]", BoolArray([]bool{false, true})},
		{"[1.0]", DoubleArray([]float64{1})},
		{"[Mobius]", StringArray([]string{"Mobius"})},
		{`["Four", "7"]`, StringArray([]string{"Four", "7"})},
		{"[1.1, .nan]", DoubleArray([]float64{1.1, math.NaN()})},
		{"!!str 5", String("5")},
		{"!!int 5", Integer(5)},
		{"&a 5", Integer(5)},
		{"1\n---\n2\n", Integer(2)}, // each document overwrites, as rcl's event loop does
		{`""`, String("")},
	} {
		got, err := ParseValue(tc.in)
		if err != nil || !got.Equal(tc.want) {
			t.Errorf("ParseValue(%q) = %s, %v; want %s", tc.in, got.describe(), err, tc.want.describe())
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"{a: 1}", "a map is not a parameter value"},
		{"a: 1", "a map is not a parameter value"},
		{"[]", "an empty array has no type"},
		{"[1, a]", `array mixes integer and string (item 1 is string "a")`},
		{"[1, 1.5]", "array mixes integer and double"},
		{"[true, 1]", "array mixes bool and integer"},
		{"['1', 1]", "array mixes string and integer"},
		{"[[1]]", "array items must be plain values, item 0 is a sequence"},
		{"[{a: 1}]", "item 0 is a map"},
		{"- \n- 1\n", "array item 0 has no value"},
		{"# only a comment", "no value"},
		{"!!null", "no value"},
		{"[1, *a]", "yaml:"},
		{"[1", "yaml:"},
	} {
		_, err := ParseValue(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrInvalidValue) {
			t.Errorf("ParseValue(%q) err = %v, want ~%q", tc.in, err, tc.want)
		}
	}
}

func TestValueString(t *testing.T) {
	for _, tc := range []struct {
		v    Value
		want string
	}{
		{Value{}, "no value"},
		{Bool(true), "bool true"},
		{Integer(-3), "integer -3"},
		{Double(1), "double 1.0"},
		{Double(2.5e-9), "double 2.5e-09"},
		{Double(math.Inf(-1)), "double -Inf"},
		{String("seventeen"), `string "seventeen"`},
		{ByteArray([]byte{1, 255}), "byte_array [1, 255]"},
		{BoolArray([]bool{true}), "bool_array [true]"},
		{IntegerArray([]int64{1, 2}), "integer_array [1, 2]"},
		{DoubleArray([]float64{1, 0.5}), "double_array [1.0, 0.5]"},
		{StringArray([]string{"a", `b"c`}), `string_array ["a", "b\"c"]`},
	} {
		if got := tc.v.describe(); got != tc.want {
			t.Errorf("describe = %q, want %q", got, tc.want)
		}
	}
}

func TestValueCloneEqual(t *testing.T) {
	for _, v := range []Value{
		Bool(true), Integer(1), Double(math.NaN()), String("x"), ByteArray([]byte{1}), BoolArray([]bool{true}),
		IntegerArray([]int64{1}), DoubleArray([]float64{1}), StringArray([]string{"a"}), {},
	} {
		c := v.Clone()
		if !c.Equal(v) || !v.Equal(c) {
			t.Errorf("%s: clone not equal", v.describe())
		}
	}
	a := IntegerArray([]int64{1, 2})
	c := a.Clone()
	c.IntegerArrayValue[0] = 9
	if a.IntegerArrayValue[0] != 1 || a.Equal(c) {
		t.Error("Clone shares the slice")
	}
	mixed := Value{Type: TypeInteger, IntegerValue: 1, StringValue: "junk"}
	if got := mixed.Clone(); got.StringValue != "" || !got.Equal(Integer(1)) {
		t.Errorf("Clone keeps fields of other types: %+v", got)
	}
	if Integer(1).Equal(Double(1)) || StringArray(nil).Equal(IntegerArray(nil)) {
		t.Error("values of different types are equal")
	}
}
