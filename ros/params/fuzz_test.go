package params

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// yamlOf writes v back as YAML that rcl types the same way.
func yamlOf(v Value) string {
	dbl := func(f float64) string {
		switch {
		case math.IsNaN(f):
			return ".nan"
		case math.IsInf(f, 1):
			return ".inf"
		case math.IsInf(f, -1):
			return "-.inf"
		}
		return formatDouble(f)
	}
	switch v.Type {
	case TypeBool:
		return strconv.FormatBool(v.BoolValue)
	case TypeInteger:
		return strconv.FormatInt(v.IntegerValue, 10)
	case TypeDouble:
		return dbl(v.DoubleValue)
	case TypeString:
		return strconv.Quote(v.StringValue)
	case TypeBoolArray:
		return formatList(v.BoolArrayValue, strconv.FormatBool)
	case TypeIntegerArray:
		return formatList(v.IntegerArrayValue, func(i int64) string { return strconv.FormatInt(i, 10) })
	case TypeDoubleArray:
		return formatList(v.DoubleArrayValue, dbl)
	case TypeStringArray:
		return formatList(v.StringArrayValue, strconv.Quote)
	}
	return "?"
}

// FuzzLoadYAML: the loader never panics, a file it accepts holds only valid
// node keys, and writing the table back as one flat file and loading that
// gives the same table.
func FuzzLoadYAML(f *testing.F) {
	for _, seed := range []string{
		teamConfig, teamOverlay,
		"/**:\n  ros__parameters:\n    use_sim_time: false\nrobot1:\n  dnetwork:\n    ros__parameters:\n      team_id: 7\n      net:\n        port: 0x0EF6\n        peers: [\"10.0.0.2\", \"10.0.0.3\"]\n",
		"/:\n  n:\n    ros__parameters: {a: [.nan, -.inf, 1e3], b: [y, N], c: !!str 5, d: '', e: 010}\n",
		"dn:\n  ros__parameters: {p: 1}\n  sub:\n    ros__parameters: {p: 2}\n",
		"n:\n  ros__parameters:\n    x:\n      a.b: {c: 1}\n      d: 2\n",
		"a: &x {ros__parameters: {p: 1}}\nb: *x\n",
		"n:\n  ros__parameters: {a: [], b: [1, x], c: , d: [[1]]}\n---\n- 1\n",
		"/foo10/**/bar:\n  bar1/bar2/**:\n    ros__parameters: {id: 10}\n",
		// Syntax errors, for the hints of syntaxError.
		"n:\n  ros__parameters:\n    a: b: c\n", "n:\n\tros__parameters: {}\n", "n:\n  ros__parameters:\n    a: 'x\n    b: 1\n",
		"n:\n  ros__parameters:\n    a: 1\n      b: 2\n", "n:\n  ros__parameters:\n    a:1\n    b: 2\n", "n: [",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data string) {
		o := &Overrides{}
		if err := o.LoadYAML("f.yaml", []byte(data)); err != nil {
			if len(o.nodes) != 0 {
				t.Fatalf("a bad file changed the table: %v", err)
			}
			return
		}
		var b strings.Builder
		for _, n := range o.nodes {
			if err := validateNodeKey(n.key); err != nil {
				t.Fatalf("accepted node key %q: %v", n.key, err)
			}
			b.WriteString(strconv.Quote(n.key) + ":\n  ros__parameters:\n")
			if len(n.vals) == 0 {
				b.WriteString("    {}\n")
			}
			for name, ov := range n.vals {
				if !ov.Value.IsSet() || ov.NodeKey != n.key || ov.Name != name {
					t.Fatalf("bad override %+v under %q", ov, n.key)
				}
				b.WriteString("    " + strconv.Quote(name) + ": " + yamlOf(ov.Value) + "\n")
			}
		}
		again := &Overrides{}
		if err := again.LoadYAML("g.yaml", []byte(b.String())); err != nil {
			t.Fatalf("reloading\n%s\nfailed: %v", b.String(), err)
		}
		if strings.Join(again.Keys(), "\x00") != strings.Join(o.Keys(), "\x00") {
			t.Fatalf("keys %q became %q", o.Keys(), again.Keys())
		}
		for _, n := range o.nodes {
			for name, ov := range n.vals {
				got, ok := again.Lookup(n.key, name)
				if !ok || !got.Value.Equal(ov.Value) {
					t.Fatalf("%s %s: %s became %s", n.key, name, ov.Value.describe(), got.Value.describe())
				}
			}
			_ = o.ForNode("/robot1/dnetwork")
		}
	})
}

var decimalInt = regexp.MustCompile(`^[+-]?[1-9][0-9]*$`)

// FuzzParseValue: -p values never panic, and what parses writes back to the
// same value. Plain decimal integers agree with strconv.
func FuzzParseValue(f *testing.F) {
	for _, s := range []string{"3838\n...\n", "[1, 2]", "'yes'", "0x1F", "08", "1e-400", ".inf", "[a, 1]", "{a: 1}",
		"nan(x)", "- 1\n- 2\n", "!!str 1", "-9223372036854775808", "99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if decimalInt.MatchString(s) {
			want, err := strconv.ParseInt(s, 10, 64)
			got, ok := parseCInt(s)
			if (err == nil) != ok || ok && got != want {
				t.Fatalf("parseCInt(%q) = %d, %v; strconv %d, %v", s, got, ok, want, err)
			}
		}
		v, err := ParseValue(s)
		if err != nil {
			return
		}
		again, err := ParseValue(yamlOf(v))
		if err != nil || !again.Equal(v) {
			t.Fatalf("%q = %s, written as %q reads %s, %v", s, v.describe(), yamlOf(v), again.describe(), err)
		}
	})
}
