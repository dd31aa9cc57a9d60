package params

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"sync"
	"testing"
)

func newStore(t *testing.T, ovs ...Override) *Store {
	t.Helper()
	s, err := NewStore(ovs)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func declare(t *testing.T, s *Store, name string, def Value, d Descriptor) {
	t.Helper()
	if _, err := s.Declare(name, def, d); err != nil {
		t.Fatal(err)
	}
}

func TestUseSimTime(t *testing.T) {
	s := newStore(t)
	if v, err := s.GetBool(UseSimTime); err != nil || v {
		t.Errorf("use_sim_time = %v, %v", v, err)
	}
	s = newStore(t, Override{Name: UseSimTime, Value: Bool(true)})
	if v, _ := s.GetBool(UseSimTime); !v || len(s.UnusedOverrides()) != 0 {
		t.Error("use_sim_time override not used")
	}
	_, err := NewStore([]Override{{Name: UseSimTime, Value: String("yes"), Source: Source{File: "p.yaml", Key: "/**.ros__parameters.use_sim_time"}}})
	if want := `p.yaml: /**.ros__parameters.use_sim_time: expected bool, got string "yes"`; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
}

// The errors a robot's parameter file can produce, end to end.
func TestOverrideErrors(t *testing.T) {
	o := &Overrides{}
	err := o.LoadYAML("params/robot1.yaml", []byte(`/dnetwork_1:
  ros__parameters:
    team_number: seventeen
    gain: 1
    port: 70000
    tema_id: 3
    mode: fast
/**:
  ros__parameters:
    other_nodes_param: 1
`))
	if err != nil {
		t.Fatal(err)
	}
	s := newStore(t, o.ForNode("/dnetwork_1")...)
	for _, tc := range []struct {
		name string
		def  Value
		d    Descriptor
		want string
		kind error
	}{
		{"team_number", Integer(0), Descriptor{}, `params/robot1.yaml: /dnetwork_1.ros__parameters.team_number: expected integer, got string "seventeen"`, ErrTypeMismatch},
		{"gain", Double(0.5), Descriptor{}, `params/robot1.yaml: /dnetwork_1.ros__parameters.gain: expected double, got integer 1 (write 1.0 for a double)`, ErrTypeMismatch},
		{"port", Integer(3838), Descriptor{IntegerRange: &IntegerRange{From: 1, To: 65535}}, `params/robot1.yaml: /dnetwork_1.ros__parameters.port: integer 70000 is not in the range [1, 65535]`, ErrOutOfRange},
	} {
		_, err := s.Declare(tc.name, tc.def, tc.d)
		var se *SourceError
		if err == nil || err.Error() != tc.want || !errors.Is(err, tc.kind) || !errors.As(err, &se) || se.Source.Line == 0 {
			t.Errorf("Declare(%s) err = %v, want %s", tc.name, err, tc.want)
		}
		if s.Has(tc.name) {
			t.Errorf("%s declared despite a bad override", tc.name)
		}
	}
	declare(t, s, "team_id", Integer(0), Descriptor{})
	declare(t, s, "mode", String("slow"), Descriptor{})
	if v, _ := s.GetString("mode"); v != "fast" {
		t.Errorf("mode = %q, want the override", v)
	}
	err = s.CheckOverrides()
	want := strings.Join([]string{
		`params/robot1.yaml: /dnetwork_1.ros__parameters.gain: unknown parameter "gain"`,
		`params/robot1.yaml: /**.ros__parameters.other_nodes_param: unknown parameter "other_nodes_param"`,
		`params/robot1.yaml: /dnetwork_1.ros__parameters.port: unknown parameter "port"`,
		`params/robot1.yaml: /dnetwork_1.ros__parameters.team_number: unknown parameter "team_number"`,
		`params/robot1.yaml: /dnetwork_1.ros__parameters.tema_id: unknown parameter "tema_id" (did you mean "team_id"?)`,
	}, "\n")
	if err == nil || err.Error() != want || !errors.Is(err, ErrNotDeclared) {
		t.Errorf("CheckOverrides =\n%v\nwant\n%s", err, want)
	}
	if un := s.UnusedOverrides(); len(un) != 5 || un[1].NodeKey != "/**" {
		t.Errorf("UnusedOverrides = %+v", un)
	}
}

func TestDeclare(t *testing.T) {
	s := newStore(t, Override{Name: "ro", Value: Integer(5)}, Override{Name: "typed_only", Value: String("given")})
	if v, err := s.Declare("ro", Integer(1), Descriptor{ReadOnly: true, Description: "d"}); err != nil || !v.Equal(Integer(5)) {
		t.Errorf("read-only override: %s %v", v.describe(), err)
	}
	for _, tc := range []struct {
		name string
		def  Value
		d    Descriptor
		kind error
		msg  string
	}{
		{"", Integer(1), Descriptor{}, ErrInvalidName, "parameter name must not be empty"},
		{"ro", Integer(1), Descriptor{}, ErrAlreadyDeclared, "parameter 'ro' is already declared"},
		{"x", Value{}, Descriptor{}, ErrInvalidDescriptor, "parameter 'x': a statically typed parameter needs a type or a default value"},
		{"x", Integer(1), Descriptor{Type: TypeDouble}, ErrTypeMismatch, "parameter 'x': default: expected double, got integer 1 (write 1.0 for a double)"},
		{"x", Value{}, Descriptor{Type: TypeInteger, DynamicTyping: true}, ErrInvalidDescriptor, "parameter 'x': a dynamically typed parameter has no fixed type (got integer)"},
		{"x", Double(1), Descriptor{IntegerRange: &IntegerRange{From: 0, To: 1}}, ErrInvalidDescriptor, "parameter 'x': an integer range needs an integer parameter, not double"},
		{"x", Integer(1), Descriptor{IntegerRange: &IntegerRange{From: 2, To: 1}}, ErrInvalidDescriptor, "parameter 'x': integer range from 2 to 1 is empty"},
		{"x", Integer(1), Descriptor{FloatingPointRange: &FloatingPointRange{To: 1}}, ErrInvalidDescriptor, "parameter 'x': a floating point range needs a double parameter, not integer"},
		{"x", Double(1), Descriptor{FloatingPointRange: &FloatingPointRange{From: math.NaN(), To: 1}}, ErrInvalidDescriptor, "not valid"},
		{"x", Double(1), Descriptor{FloatingPointRange: &FloatingPointRange{To: 1, Step: -1}}, ErrInvalidDescriptor, "not valid"},
		{"x", Integer(10), Descriptor{IntegerRange: &IntegerRange{From: 0, To: 5}}, ErrOutOfRange, "parameter 'x': default: integer 10 is not in the range [0, 5]"},
		{"x", Value{Type: 42}, Descriptor{}, ErrInvalidDescriptor, "unknown type 42"},
	} {
		_, err := s.Declare(tc.name, tc.def, tc.d)
		if !errors.Is(err, tc.kind) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("Declare(%q, %s, %+v) err = %v, want %v ~%q", tc.name, tc.def.describe(), tc.d, err, tc.kind, tc.msg)
		}
	}
	if s.Has("x") {
		t.Error("a failed declaration left x declared")
	}

	// Declared with a type but no default: no value until an override or Set.
	declare(t, s, "later", Value{}, Descriptor{Type: TypeString})
	if _, err := s.Get("later"); !errors.Is(err, ErrUninitialized) {
		t.Errorf("Get(later) err = %v", err)
	}
	if tp, _ := s.GetTypes([]string{"later"}); tp[0] != TypeNotSet {
		t.Errorf("type of later = %v", tp[0])
	}
	if r := s.SetAtomically(Parameter{"later", String("now")}); !r.Successful {
		t.Error(r.Reason)
	}
	declare(t, s, "typed_only", Value{}, Descriptor{Type: TypeString})
	if v, _ := s.GetString("typed_only"); v != "given" {
		t.Errorf("typed_only = %q", v)
	}
	// Dynamic typing: no value is a value of type "not set".
	declare(t, s, "dyn", Value{}, Descriptor{DynamicTyping: true})
	if v, err := s.Get("dyn"); err != nil || v.IsSet() {
		t.Errorf("dyn = %s, %v", v.describe(), err)
	}
	// The descriptor the caller passed is not shared.
	r := &IntegerRange{From: 0, To: 10}
	declare(t, s, "ranged", Integer(5), Descriptor{IntegerRange: r})
	r.To = 1
	if d, _ := s.Describe([]string{"ranged"}); d[0].IntegerRange.To != 10 {
		t.Error("Declare keeps the caller's range")
	}
}

func TestSet(t *testing.T) {
	s := newStore(t)
	declare(t, s, "team_id", Integer(7), Descriptor{ReadOnly: true})
	declare(t, s, "port", Integer(3838), Descriptor{IntegerRange: &IntegerRange{From: 1024, To: 65535}})
	declare(t, s, "even", Integer(0), Descriptor{IntegerRange: &IntegerRange{From: 0, To: 11, Step: 2}})
	declare(t, s, "gain", Double(0.5), Descriptor{FloatingPointRange: &FloatingPointRange{From: 0, To: 1, Step: 0.1}})
	declare(t, s, "free", Double(0), Descriptor{FloatingPointRange: &FloatingPointRange{From: -1, To: 1}})
	declare(t, s, "name", String("alpha"), Descriptor{})
	declare(t, s, "peers", StringArray([]string{"a"}), Descriptor{})
	declare(t, s, "dyn", Integer(1), Descriptor{DynamicTyping: true})

	for _, tc := range []struct {
		p      Parameter
		kind   error  // nil: success
		reason string // exact Reason
	}{
		{Parameter{"port", Integer(4000)}, nil, ""},
		{Parameter{"port", Integer(1024)}, nil, ""},
		{Parameter{"port", Integer(80)}, ErrOutOfRange, "parameter 'port': integer 80 is not in the range [1024, 65535]"},
		{Parameter{"port", String("80")}, ErrTypeMismatch, `parameter 'port': expected integer, got string "80"`},
		{Parameter{"team_id", Integer(8)}, ErrReadOnly, "parameter 'team_id' cannot be set because it is read-only"},
		{Parameter{"missing", Integer(8)}, ErrNotDeclared, "parameter 'missing' cannot be set because it was not declared"},
		{Parameter{"", Integer(8)}, ErrInvalidName, "parameter name must not be empty"},
		{Parameter{"even", Integer(4)}, nil, ""},
		{Parameter{"even", Integer(11)}, nil, ""}, // the upper bound is always allowed
		{Parameter{"even", Integer(5)}, ErrOutOfRange, "parameter 'even': integer 5 is not in the range [0, 11] with step 2"},
		{Parameter{"even", Integer(12)}, ErrOutOfRange, "parameter 'even': integer 12 is not in the range [0, 11] with step 2"},
		{Parameter{"gain", Double(0.3)}, nil, ""}, // 0.1*3 is not exactly 0.3; rclcpp's tolerance allows it
		{Parameter{"gain", Double(1)}, nil, ""},
		{Parameter{"gain", Double(0.35)}, ErrOutOfRange, "parameter 'gain': double 0.35 is not in the range [0.0, 1.0] with step 0.1"},
		{Parameter{"gain", Double(math.NaN())}, ErrOutOfRange, "parameter 'gain': double NaN is not in the range [0.0, 1.0] with step 0.1"},
		{Parameter{"gain", Integer(1)}, ErrTypeMismatch, "parameter 'gain': expected double, got integer 1 (write 1.0 for a double)"},
		{Parameter{"free", Double(-0.123)}, nil, ""},
		{Parameter{"free", Double(1.5)}, ErrOutOfRange, "parameter 'free': double 1.5 is not in the range [-1.0, 1.0]"},
		{Parameter{"name", String("beta")}, nil, ""},
		{Parameter{"name", Value{}}, ErrTypeMismatch, "parameter 'name' is statically typed and cannot be unset"},
		{Parameter{"peers", StringArray(nil)}, nil, ""},
		{Parameter{"peers", IntegerArray([]int64{1})}, ErrTypeMismatch, "parameter 'peers': expected string_array, got integer_array [1]"},
		{Parameter{"dyn", String("now a string")}, nil, ""},
		{Parameter{"dyn", Value{Type: 99}}, ErrTypeMismatch, "parameter 'dyn': unknown type 99"},
	} {
		r := s.SetAtomically(tc.p)
		if tc.kind == nil {
			if !r.Successful || r.Err != nil || r.Reason != "" {
				t.Errorf("set %s = %s: %+v", tc.p.Name, tc.p.Value.describe(), r)
			} else if v, _ := s.Get(tc.p.Name); !v.Equal(tc.p.Value.Clone()) {
				t.Errorf("after set %s = %s, Get = %s", tc.p.Name, tc.p.Value.describe(), v.describe())
			}
			continue
		}
		if r.Successful || !errors.Is(r.Err, tc.kind) || r.Reason != tc.reason {
			t.Errorf("set %s = %s: %+v, want %v %q", tc.p.Name, tc.p.Value.describe(), r, tc.kind, tc.reason)
		}
	}
	if d, _ := s.Describe([]string{"dyn"}); d[0].Type != TypeString {
		t.Errorf("dynamic parameter's descriptor type = %v", d[0].Type)
	}

	// Atomic: one bad parameter and nothing changes; Set: each on its own.
	r := s.SetAtomically(Parameter{"port", Integer(5000)}, Parameter{"team_id", Integer(1)})
	if r.Successful || !errors.Is(r.Err, ErrReadOnly) {
		t.Errorf("atomic = %+v", r)
	}
	if v, _ := s.GetInteger("port"); v != 1024 {
		t.Errorf("port = %d after a failed atomic set", v)
	}
	rs := s.Set(Parameter{"port", Integer(5000)}, Parameter{"team_id", Integer(1)}, Parameter{"name", String("gamma")})
	if !rs[0].Successful || rs[1].Successful || !rs[2].Successful {
		t.Errorf("Set results = %+v", rs)
	}
	if r := s.SetAtomically(); r.Successful || !errors.Is(r.Err, ErrEmptyList) {
		t.Errorf("an empty atomic set as Jazzy = %+v, want ErrEmptyList", r)
	}
	s.SetRelease(Humble)
	if r := s.SetAtomically(); !r.Successful {
		t.Errorf("an empty atomic set as Humble = %+v, want success", r)
	}
	s.SetRelease(Jazzy)

	// Unsetting a dynamically typed parameter undeclares it.
	if r := s.SetAtomically(Parameter{"dyn", Value{}}); !r.Successful {
		t.Fatal(r.Reason)
	}
	if s.Has("dyn") {
		t.Error("dyn still declared after unset")
	}
	// Slices handed in are copied.
	in := []string{"x"}
	s.SetAtomically(Parameter{"peers", StringArray(in)})
	in[0] = "changed"
	if v, _ := s.GetStringArray("peers"); v[0] != "x" {
		t.Error("store shares the caller's slice")
	}
	v, _ := s.GetStringArray("peers")
	v[0] = "changed"
	if v, _ := s.GetStringArray("peers"); v[0] != "x" {
		t.Error("store hands out its own slice")
	}
}

func TestGetters(t *testing.T) {
	s := newStore(t)
	vals := map[string]Value{
		"b": Bool(true), "i": Integer(-4), "d": Double(2.5), "s": String("x"), "ba": ByteArray([]byte{1, 2}),
		"bl": BoolArray([]bool{false}), "il": IntegerArray([]int64{3}), "dl": DoubleArray([]float64{0.5}), "sl": StringArray([]string{"p"}),
	}
	for n, v := range vals {
		declare(t, s, n, v, Descriptor{})
	}
	check := func(name string, got any, err error, want any) {
		t.Helper()
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %v, %v; want %v", name, got, err, want)
		}
	}
	b, err := s.GetBool("b")
	check("b", b, err, true)
	i, err := s.GetInteger("i")
	check("i", i, err, int64(-4))
	d, err := s.GetDouble("d")
	check("d", d, err, 2.5)
	str, err := s.GetString("s")
	check("s", str, err, "x")
	ba, err := s.GetByteArray("ba")
	check("ba", ba, err, []byte{1, 2})
	bl, err := s.GetBoolArray("bl")
	check("bl", bl, err, []bool{false})
	il, err := s.GetIntegerArray("il")
	check("il", il, err, []int64{3})
	dl, err := s.GetDoubleArray("dl")
	check("dl", dl, err, []float64{0.5})
	sl, err := s.GetStringArray("sl")
	check("sl", sl, err, []string{"p"})

	if _, err := s.GetInteger("s"); !errors.Is(err, ErrTypeMismatch) || err.Error() != `parameter 's': expected integer, got string "x"` {
		t.Errorf("GetInteger(s) err = %v", err)
	}
	if _, err := s.GetBool("nope"); !errors.Is(err, ErrNotDeclared) || err.Error() != "parameter 'nope' is not declared" {
		t.Errorf("GetBool(nope) err = %v", err)
	}
	if vs, err := s.GetValues([]string{"i", "s"}); err != nil || !vs[0].Equal(Integer(-4)) || !vs[1].Equal(String("x")) {
		t.Errorf("GetValues = %v, %v", vs, err)
	}
	if vs, err := s.GetValues([]string{"i", "nope"}); vs != nil || !errors.Is(err, ErrNotDeclared) {
		t.Errorf("GetValues with an undeclared name = %v, %v", vs, err)
	}
	if ts, err := s.GetTypes([]string{"b", "sl", UseSimTime}); err != nil || !reflect.DeepEqual(ts, []Type{TypeBool, TypeStringArray, TypeBool}) {
		t.Errorf("GetTypes = %v, %v", ts, err)
	}
	if _, err := s.GetTypes([]string{"b", "nope"}); !errors.Is(err, ErrNotDeclared) {
		t.Errorf("GetTypes err = %v", err)
	}
	if _, err := s.Describe([]string{"nope"}); !errors.Is(err, ErrNotDeclared) {
		t.Errorf("Describe err = %v", err)
	}
}

func TestList(t *testing.T) {
	s := newStore(t)
	for _, n := range []string{"team_id", "net.port", "net.peers", "net.tx.rate", "net.tx.size", "gc.port", "a.b.c.d"} {
		declare(t, s, n, Integer(1), Descriptor{})
	}
	for _, tc := range []struct {
		prefixes         []string
		depth            uint64
		names, prefixes2 []string
	}{
		{nil, DepthRecursive,
			[]string{"a.b.c.d", "gc.port", "net.peers", "net.port", "net.tx.rate", "net.tx.size", "team_id", "use_sim_time"},
			[]string{"a.b.c", "gc", "net", "net.tx"}},
		{nil, 1, []string{"team_id", "use_sim_time"}, nil},
		{nil, 2, []string{"gc.port", "net.peers", "net.port", "team_id", "use_sim_time"}, []string{"gc", "net"}},
		{[]string{"net"}, DepthRecursive, []string{"net.peers", "net.port", "net.tx.rate", "net.tx.size"}, []string{"net", "net.tx"}},
		{[]string{"net"}, 1, []string{"net.peers", "net.port"}, []string{"net"}},
		{[]string{"net"}, 2, []string{"net.peers", "net.port", "net.tx.rate", "net.tx.size"}, []string{"net", "net.tx"}},
		{[]string{"net.tx", "gc"}, 1, []string{"gc.port", "net.tx.rate", "net.tx.size"}, []string{"gc", "net.tx"}},
		{[]string{"team_id"}, 1, []string{"team_id"}, nil},
		{[]string{"ne"}, DepthRecursive, nil, nil},
		{[]string{"a.b"}, 1, nil, nil},
		{[]string{"a.b"}, 2, []string{"a.b.c.d"}, []string{"a.b.c"}},
	} {
		got := s.List(tc.prefixes, tc.depth)
		if !reflect.DeepEqual(got.Names, tc.names) || !reflect.DeepEqual(got.Prefixes, tc.prefixes2) {
			t.Errorf("List(%q, %d) = %+v, want %q %q", tc.prefixes, tc.depth, got, tc.names, tc.prefixes2)
		}
	}
}

// TestListReleases pins List to the answers of rclcpp's list_parameters, read
// from rclcpp 16.0.11 (Humble) and 28.1.6 (Jazzy) for a node that declared the
// same names (rclcpp's own qos_overrides.* and start_type_description_service
// left out). Both count the dots of a name below a prefix against the depth;
// Jazzy counts those after the prefix's dot, Humble that dot too, so Humble's
// depth 1 is the prefix alone. A prefix matches whole levels only ("a." and
// "ab" never match "a.b").
func TestListReleases(t *testing.T) {
	s := newStore(t)
	for _, n := range []string{"a", "a.b", "a.b.c", "a.b.c.d", "ab.c", "x.y"} {
		declare(t, s, n, Integer(1), Descriptor{})
	}
	type want struct{ names, prefixes []string }
	all := []string{"a", "a.b", "a.b.c", "a.b.c.d", "ab.c", "use_sim_time", "x.y"}
	for _, tc := range []struct {
		prefixes      []string
		depth         uint64
		jazzy, humble want
	}{
		// Without prefixes both count all dots of a name.
		{nil, DepthRecursive, want{all, []string{"a", "a.b", "a.b.c", "ab", "x"}}, want{all, []string{"a", "a.b", "a.b.c", "ab", "x"}}},
		{nil, 1, want{[]string{"a", "use_sim_time"}, nil}, want{[]string{"a", "use_sim_time"}, nil}},
		{nil, 2, want{[]string{"a", "a.b", "ab.c", "use_sim_time", "x.y"}, []string{"a", "ab", "x"}},
			want{[]string{"a", "a.b", "ab.c", "use_sim_time", "x.y"}, []string{"a", "ab", "x"}}},
		{nil, 3, want{[]string{"a", "a.b", "a.b.c", "ab.c", "use_sim_time", "x.y"}, []string{"a", "a.b", "ab", "x"}},
			want{[]string{"a", "a.b", "a.b.c", "ab.c", "use_sim_time", "x.y"}, []string{"a", "a.b", "ab", "x"}}},
		// Below a prefix the releases differ by one level.
		{[]string{"a"}, DepthRecursive, want{[]string{"a", "a.b", "a.b.c", "a.b.c.d"}, []string{"a", "a.b", "a.b.c"}},
			want{[]string{"a", "a.b", "a.b.c", "a.b.c.d"}, []string{"a", "a.b", "a.b.c"}}},
		{[]string{"a"}, 1, want{[]string{"a", "a.b"}, []string{"a"}}, want{[]string{"a"}, nil}},
		{[]string{"a"}, 2, want{[]string{"a", "a.b", "a.b.c"}, []string{"a", "a.b"}}, want{[]string{"a", "a.b"}, []string{"a"}}},
		{[]string{"a"}, 3, want{[]string{"a", "a.b", "a.b.c", "a.b.c.d"}, []string{"a", "a.b", "a.b.c"}},
			want{[]string{"a", "a.b", "a.b.c"}, []string{"a", "a.b"}}},
		{[]string{"a.b"}, 1, want{[]string{"a.b", "a.b.c"}, []string{"a", "a.b"}}, want{[]string{"a.b"}, []string{"a"}}},
		{[]string{"a.b"}, 2, want{[]string{"a.b", "a.b.c", "a.b.c.d"}, []string{"a", "a.b", "a.b.c"}},
			want{[]string{"a.b", "a.b.c"}, []string{"a", "a.b"}}},
		{[]string{"a", "x"}, 1, want{[]string{"a", "a.b", "x.y"}, []string{"a", "x"}}, want{[]string{"a"}, nil}},
		{[]string{"a", "x"}, 2, want{[]string{"a", "a.b", "a.b.c", "x.y"}, []string{"a", "a.b", "x"}},
			want{[]string{"a", "a.b", "x.y"}, []string{"a", "x"}}},
		{[]string{"ab"}, 1, want{[]string{"ab.c"}, []string{"ab"}}, want{}},
		{[]string{"ab"}, 2, want{[]string{"ab.c"}, []string{"ab"}}, want{[]string{"ab.c"}, []string{"ab"}}},
		{[]string{"a."}, DepthRecursive, want{}, want{}},
		{[]string{"a."}, 2, want{}, want{}},
	} {
		for _, r := range []struct {
			name    string
			release Release
			want    want
		}{{"jazzy", Jazzy, tc.jazzy}, {"humble", Humble, tc.humble}} {
			s.SetRelease(r.release)
			got := s.List(tc.prefixes, tc.depth)
			if !reflect.DeepEqual(got.Names, r.want.names) || !reflect.DeepEqual(got.Prefixes, r.want.prefixes) {
				t.Errorf("%s: List(%q, %d) = %q %q, want %q %q", r.name, tc.prefixes, tc.depth,
					got.Names, got.Prefixes, r.want.names, r.want.prefixes)
			}
		}
	}
}

func TestEvents(t *testing.T) {
	s := newStore(t)
	var events []Event
	remove := s.OnChange(func(e Event) {
		// Listeners may read the store.
		if _, err := s.Get(UseSimTime); err != nil {
			t.Error(err)
		}
		events = append(events, e)
	})
	declare(t, s, "a", Integer(1), Descriptor{})
	declare(t, s, "typed", Value{}, Descriptor{Type: TypeBool}) // no value: no event
	declare(t, s, "dyn", String("x"), Descriptor{DynamicTyping: true})
	s.SetAtomically(Parameter{"a", Integer(2)}, Parameter{"dyn", Value{}})
	s.SetAtomically(Parameter{"a", String("bad")}) // rejected: no event
	s.Set(Parameter{"a", Integer(3)}, Parameter{"missing", Integer(1)})
	remove()
	s.SetAtomically(Parameter{"a", Integer(4)})
	want := []Event{
		{NewParameters: []Parameter{{"a", Integer(1)}}},
		{NewParameters: []Parameter{{"dyn", String("x")}}},
		{ChangedParameters: []Parameter{{"a", Integer(2)}}, DeletedParameters: []Parameter{{"dyn", String("x")}}},
		{ChangedParameters: []Parameter{{"a", Integer(3)}}},
	}
	if !reflect.DeepEqual(events, want) {
		t.Errorf("events =\n%+v\nwant\n%+v", events, want)
	}
}

func TestValidators(t *testing.T) {
	s := newStore(t)
	var seen [][]Parameter
	remove := s.AddValidator(func(ps []Parameter) error {
		seen = append(seen, ps)
		for _, p := range ps {
			if p.Name == "team_id" && p.Value.IntegerValue == 13 {
				return fmt.Errorf("team 13 is not in this tournament")
			}
		}
		return nil
	})
	declare(t, s, "team_id", Integer(7), Descriptor{})
	if _, err := s.Declare("other", Integer(13), Descriptor{}); err != nil {
		t.Fatal(err)
	}
	r := s.SetAtomically(Parameter{"other", Integer(1)}, Parameter{"team_id", Integer(13)})
	if r.Successful || !errors.Is(r.Err, ErrRejected) || r.Reason != "rejected: team 13 is not in this tournament" {
		t.Errorf("result = %+v", r)
	}
	if v, _ := s.GetInteger("other"); v != 13 {
		t.Error("a rejected atomic set changed a value")
	}
	_, err := s.Declare("late", Integer(0), Descriptor{})
	if err != nil || len(seen) != 4 {
		t.Errorf("validator calls = %d, err %v", len(seen), err)
	}
	s2 := newStore(t, Override{Name: "team_id", Value: Integer(13), Source: Source{Key: "-p team_id:=13"}})
	s2.AddValidator(func(ps []Parameter) error { return fmt.Errorf("no") })
	if _, err := s2.Declare("team_id", Integer(7), Descriptor{}); err == nil || err.Error() != "-p team_id:=13: rejected: no" {
		t.Errorf("override rejected: %v", err)
	}
	remove()
	if r := s.SetAtomically(Parameter{"team_id", Integer(13)}); !r.Successful {
		t.Errorf("removed validator still runs: %+v", r)
	}
}

// TestConcurrency runs setters, readers, listers and a listener at once; run
// with -race. Events must arrive in commit order: the listener's last value
// of each parameter equals the store's final value.
func TestConcurrency(t *testing.T) {
	s := newStore(t)
	const writers, rounds = 4, 200
	for w := range writers {
		declare(t, s, fmt.Sprintf("w%d.v", w), Integer(0), Descriptor{IntegerRange: &IntegerRange{From: 0, To: rounds}})
	}
	var mu sync.Mutex
	last := map[string]int64{}
	count := 0
	s.OnChange(func(e Event) {
		mu.Lock()
		defer mu.Unlock()
		for _, p := range e.ChangedParameters {
			if p.Value.IntegerValue < last[p.Name] {
				t.Errorf("%s went back from %d to %d", p.Name, last[p.Name], p.Value.IntegerValue)
			}
			last[p.Name] = p.Value.IntegerValue
			count++
		}
	})
	var wg sync.WaitGroup
	for w := range writers {
		name := fmt.Sprintf("w%d.v", w)
		wg.Go(func() {
			for i := int64(1); i <= rounds; i++ {
				if r := s.SetAtomically(Parameter{name, Integer(i)}); !r.Successful {
					t.Error(r.Reason)
				}
				s.SetAtomically(Parameter{name, Integer(rounds + 1)}) // out of range, rejected
			}
		})
	}
	for range 2 {
		wg.Go(func() {
			for range rounds {
				_ = s.List(nil, DepthRecursive)
				_, _ = s.GetValues([]string{"w0.v", UseSimTime})
				_, _ = s.Describe([]string{"w1.v"})
			}
		})
	}
	wg.Wait()
	if count != writers*rounds {
		t.Errorf("%d change events, want %d", count, writers*rounds)
	}
	for w := range writers {
		name := fmt.Sprintf("w%d.v", w)
		if v, _ := s.GetInteger(name); v != rounds || last[name] != rounds {
			t.Errorf("%s = %d, last event %d", name, v, last[name])
		}
	}
}

// TestDeclareSecret: the caller gets the secret, the store (and so every parameter
// service, dump and event) only Hidden; a public default and an empty value show as
// they are.
func TestDeclareSecret(t *testing.T) {
	s, err := NewStore([]Override{
		{Name: "key", Value: String("s3cret"), Source: Source{File: "robot.yaml", Key: "n.ros__parameters.key"}},
		{Name: "off", Value: String("")},
		{Name: "dumped", Value: String(Hidden)},
	})
	if err != nil {
		t.Fatal(err)
	}
	var events []Event
	s.OnChange(func(e Event) { events = append(events, e) })
	ro := Descriptor{ReadOnly: true}
	for _, tc := range []struct {
		name, def, got, kept string
	}{
		{"key", "", "s3cret", Hidden},
		{"off", "public", "", ""},
		{"default", "AllemaniACsX0rz", "AllemaniACsX0rz", "AllemaniACsX0rz"},
		{"dumped", "", Hidden, Hidden},
	} {
		v, err := s.DeclareSecret(tc.name, String(tc.def), ro)
		if err != nil || v.StringValue != tc.got {
			t.Errorf("%s: DeclareSecret = %s, %v; want %q", tc.name, v, err, tc.got)
		}
		if kept, err := s.GetString(tc.name); err != nil || kept != tc.kept {
			t.Errorf("%s: the store shows %q, %v; want %q", tc.name, kept, err, tc.kept)
		}
	}
	for _, e := range events {
		for _, p := range e.NewParameters {
			if p.Value.StringValue == "s3cret" {
				t.Errorf("event carries the secret: %+v", e)
			}
		}
	}
	if len(events) != 4 {
		t.Errorf("%d events, want 4", len(events))
	}
	if r := s.Set(Parameter{"key", String("new")}); r[0].Err == nil {
		t.Error("a secret was set at run time")
	}
	for _, d := range []Descriptor{{}, {ReadOnly: true, Type: TypeInteger}, {ReadOnly: true, DynamicTyping: true}} {
		if _, err := s.DeclareSecret("bad", String(""), d); !errors.Is(err, ErrInvalidDescriptor) {
			t.Errorf("descriptor %+v: %v", d, err)
		}
	}
}
