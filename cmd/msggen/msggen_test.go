package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in internal/test_msgs and internal/other_msgs")

const interfaces = "../../ros/interfaces/"

// goldenImports maps the test packages to their Go directories, as their gen.go does.
func goldenSetup(t *testing.T) (*Loader, map[string]string) {
	t.Helper()
	l, err := NewLoader([]string{"testdata/test_msgs", "testdata/other_msgs",
		interfaces + "service_msgs", interfaces + "builtin_interfaces"})
	if err != nil {
		t.Fatal(err)
	}
	imports := map[string]string{
		"test_msgs":          "github.com/robocup-dnetwork/dnetwork/cmd/msggen/internal/test_msgs",
		"other_msgs":         "github.com/robocup-dnetwork/dnetwork/cmd/msggen/internal/other_msgs",
		"service_msgs":       "github.com/robocup-dnetwork/dnetwork/ros/interfaces/service_msgs",
		"builtin_interfaces": "github.com/robocup-dnetwork/dnetwork/ros/interfaces/builtin_interfaces",
	}
	return l, imports
}

// TestGolden generates the test packages and compares every file with the checked-in
// output in internal/<pkg>/, which is compiled and round-trip tested there.
func TestGolden(t *testing.T) {
	l, imports := goldenSetup(t)
	for _, name := range []string{"test_msgs", "other_msgs"} {
		pkg, err := l.Package(name)
		if err != nil {
			t.Fatal(err)
		}
		files, err := Generate(l, pkg, imports)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join("internal", name)
		if *update {
			if err := writeFiles(dir, files); err != nil {
				t.Fatal(err)
			}
			continue
		}
		var names []string
		for n, src := range files {
			names = append(names, n)
			want, err := os.ReadFile(filepath.Join(dir, n))
			if err != nil {
				t.Errorf("%s: %v (run go test -update)", n, err)
				continue
			}
			if !bytes.Equal(src, want) {
				t.Errorf("%s/%s differs from the golden file (run go test -update and review the diff)", name, n)
			}
			if !bytes.HasPrefix(src, []byte(Header+"\n")) {
				t.Errorf("%s: missing header", n)
			}
		}
		sort.Strings(names)
		want := map[string][]string{
			"test_msgs": {"arrays.msg.go", "compute.srv.go", "defaults.msg.go", "doc.go", "empty.msg.go",
				"nested.msg.go", "primitives.msg.go", "thing2.msg.go"},
			"other_msgs": {"doc.go", "thing.msg.go"},
		}[name]
		if strings.Join(names, " ") != strings.Join(want, " ") {
			t.Errorf("%s: files %v, want %v", name, names, want)
		}
	}
}

// Hashes published by ROS 2 (rosidl-generated sources of Jazzy and later).
var knownHashes = map[string]string{
	"std_msgs/msg/String":                           "df668c740482bbd48fb39d76a70dfd4bd59db1288021743503259e948f6b1a18",
	"std_msgs/msg/Header":                           "f49fb3ae2cf070f793645ff749683ac6b06203e41c891e17701b1cb597ce6a01",
	"std_msgs/msg/Empty":                            "20b625256f32d5dbc0d04fee44f43c41e51c70d3502f84b4a08e7a9c26a96312",
	"builtin_interfaces/msg/Time":                   "b106235e25a4c5ed35098aa0a61a3ee9c9b18d197f398b0e4206cea9acf9c197",
	"geometry_msgs/msg/Point":                       "6963084842a9b04494d6b2941d11444708d892da2f4b09843b9c43f42a7f6881",
	"rmw_dds_common/msg/Gid":                        "ab6f21cfbb0a6dbb837161e1110c2051a2850ed9f9c53944d7115d9bcebedf71",
	"rmw_dds_common/msg/NodeEntitiesInfo":           "8ffef65ee2d088c63b1e8fcd31e800ba9fc8dbe0ee15ca60d1676de5218087a7",
	"rmw_dds_common/msg/ParticipantEntitiesInfo":    "91a0593bacdcc50ea9bdcf849a938b128412cc1ea821245c663bcd26f83c295e",
	"rcl_interfaces/msg/FloatingPointRange":         "e6af23a23c177fee5f3075c8b1e435162a9b63c863d78c06017460b49684262d",
	"rcl_interfaces/msg/IntegerRange":               "f7b7fdc0f65f07702e099218e13288c3963bcb9345bde78b560e6cd19800fc5a",
	"rcl_interfaces/msg/ParameterDescriptor":        "52175dbfda6c51153101d33d2a9da05743f66f02d5ab2ca9ec4709b46b73d704",
	"rcl_interfaces/msg/ParameterValue":             "115fc089a387e23c7ecd3525c9189c379109119d6ab82e8dfbde0fdf6a7f9b68",
	"service_msgs/msg/ServiceEventInfo":             "41bcbbe07a75c9b52bc96bfd5c24d7f0fc0a08c0cb7921b3373c5732345a6f45",
	"rcl_interfaces/srv/GetParameters_Request":      "135a9e1c3d7cebef792f6687d7ddf99949b21a0bd9a320d863a9110a3f5cf4d6",
	"rcl_interfaces/srv/GetParameters_Response":     "9fa773b46e39cc5d02db6224d8fd520bb9caeeffc2b27c96c1e59431baba9f2a",
	"rcl_interfaces/srv/GetParameters_Event":        "84eeb9247b09067c35bd8750d5c8555b700e394a616737c4624f15ae02e64c4d",
	"rcl_interfaces/srv/GetParameterTypes_Request":  "87d7ec5ef545d4daa289d500025d31fb2437bc8b8365ca367161c4dac4be33fd",
	"rcl_interfaces/srv/GetParameterTypes_Response": "ac1335dce67c478e669434f6ac2fbff34fcd529580f272d3006785ba8b54e47f",
}

var knownServiceHashes = map[string]string{
	"rcl_interfaces/srv/GetParameters":     "bf9803d5c74cf989a5de3e0c2e99444599a627c7ff75f97b8c05b01003675cbc",
	"rcl_interfaces/srv/GetParameterTypes": "da199c878688b3e530bdfe3ca8f74cb9fa0c303101e980a9e8f260e25e1c80ca",
}

func TestKnownHashes(t *testing.T) {
	var dirs []string
	for _, p := range []string{"builtin_interfaces", "std_msgs", "geometry_msgs", "rcl_interfaces", "rmw_dds_common", "service_msgs"} {
		dirs = append(dirs, interfaces+p)
	}
	l, err := NewLoader(dirs)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, name := range []string{"builtin_interfaces", "std_msgs", "geometry_msgs", "rcl_interfaces", "rmw_dds_common", "service_msgs"} {
		pkg, err := l.Package(name)
		if err != nil {
			t.Fatal(err)
		}
		msgs := append([]*Message{}, pkg.Messages...)
		for _, s := range pkg.Services {
			msgs = append(msgs, s.Request, s.Response, s.Event)
			if want, ok := knownServiceHashes[s.FullName()]; ok {
				seen++
				if got, err := l.ServiceHash(s); err != nil || got != "RIHS01_"+want {
					t.Errorf("%s: %s (%v), want RIHS01_%s", s.FullName(), got, err, want)
				}
			}
		}
		for _, m := range msgs {
			want, ok := knownHashes[m.FullName()]
			if !ok {
				continue
			}
			seen++
			if got, err := l.MessageHash(m); err != nil || got != "RIHS01_"+want {
				t.Errorf("%s: %s (%v), want RIHS01_%s", m.FullName(), got, err, want)
			}
		}
	}
	if seen != len(knownHashes)+len(knownServiceHashes) {
		t.Errorf("checked %d hashes, want %d", seen, len(knownHashes)+len(knownServiceHashes))
	}
}

// The exact text that is hashed for std_msgs/msg/Header (Python json.dumps style).
func TestHashInputText(t *testing.T) {
	l, err := NewLoader([]string{interfaces + "std_msgs", interfaces + "builtin_interfaces"})
	if err != nil {
		t.Fatal(err)
	}
	m, err := l.Lookup(Type{Pkg: "std_msgs", Msg: "Header"})
	if err != nil {
		t.Fatal(err)
	}
	td, err := l.describe(m)
	if err != nil {
		t.Fatal(err)
	}
	refs, _ := l.nested(m)
	got, err := l.hashInput(td, refs)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type_description": {"type_name": "std_msgs/msg/Header", "fields": [` +
		`{"name": "stamp", "type": {"type_id": 1, "capacity": 0, "string_capacity": 0, "nested_type_name": "builtin_interfaces/msg/Time"}}, ` +
		`{"name": "frame_id", "type": {"type_id": 17, "capacity": 0, "string_capacity": 0, "nested_type_name": ""}}]}, ` +
		`"referenced_type_descriptions": [{"type_name": "builtin_interfaces/msg/Time", "fields": [` +
		`{"name": "sec", "type": {"type_id": 6, "capacity": 0, "string_capacity": 0, "nested_type_name": ""}}, ` +
		`{"name": "nanosec", "type": {"type_id": 7, "capacity": 0, "string_capacity": 0, "nested_type_name": ""}}]}]}`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// Field type ids and capacities of every kind of field (FieldType.msg numbering).
func TestDescribeFieldTypes(t *testing.T) {
	l, imports := goldenSetup(t)
	_ = imports
	m, err := l.Lookup(Type{Pkg: "test_msgs", Msg: "Arrays"})
	if err != nil {
		t.Fatal(err)
	}
	td, err := l.describe(m)
	if err != nil {
		t.Fatal(err)
	}
	want := []fieldDesc{
		{"fixed_ints", 54, 3, 0, ""},
		{"fixed_octets", 51, 4, 0, ""},
		{"fixed_bools", 63, 2, 0, ""},
		{"fixed_strings", 65, 2, 0, ""},
		{"fixed_short_strings", 69, 2, 5, ""},
		{"fixed_nested", 49, 2, 0, "test_msgs/msg/Primitives"},
		{"doubles", 155, 0, 0, ""},
		{"octets", 160, 0, 0, ""},
		{"strings", 161, 0, 0, ""},
		{"empties", 145, 0, 0, "test_msgs/msg/Empty"},
		{"bounded_shorts", 100, 3, 0, ""},
		{"bounded_chars", 99, 4, 0, ""}, // char is IDL uint8
		{"bounded_short_strings", 117, 2, 4, ""},
		{"bounded_nested", 97, 2, 0, "test_msgs/msg/Nested"},
	}
	if len(td.fields) != len(want) {
		t.Fatalf("%d fields, want %d", len(td.fields), len(want))
	}
	for i, w := range want {
		if td.fields[i] != w {
			t.Errorf("field %d: %+v, want %+v", i, td.fields[i], w)
		}
	}
	e, _ := l.Lookup(Type{Pkg: "test_msgs", Msg: "Empty"})
	td, _ = l.describe(e)
	if len(td.fields) != 1 || td.fields[0] != (fieldDesc{emptyMember, 3, 0, 0, ""}) {
		t.Errorf("empty message described as %+v", td.fields)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"wstring", "wstring w", "wstring is not supported"},
		{"bounded wstring", "wstring<=5 w", "wstring is not supported"},
		{"wstring constant", "wstring W=a", "wstring is not supported"},
		{"ros1 time", "time t", "builtin_interfaces/Time"},
		{"no name", "int32", "want 'type name'"},
		{"bad field name", "int32 Foo", "invalid field name"},
		{"double underscore", "int32 a__b", "invalid field name"},
		{"trailing underscore", "int32 a_", "invalid field name"},
		{"bad constant name", "int32 foo=1", "invalid constant name"},
		{"array constant", "int32[2] A=1", "must be a primitive type"},
		{"constant out of range", "uint8 A=256", "outside [0, 255]"},
		{"negative unsigned", "uint16 A=-1", "outside"},
		{"bad bool", "bool A=yes", "true/1 or false/0"},
		{"float nan", "float64 A=nan", "finite number"},
		{"zero array", "int32[0] a", "integer > 0"},
		{"bad bound", "int32[<=x] a", "integer > 0"},
		{"zero string bound", "string<=0 s", "integer > 0"},
		{"duplicate", "int32 a\nint32 a", "duplicate name"},
		{"nested default", "Foo f 1", "only allowed for primitive"},
		{"bad type", "pkg/sub/Type x", "want pkg/Name"},
		{"lowercase type", "foo x", "invalid message name"},
		{"fixed default count", "int32[3] a [1, 2]", "exactly 3 elements"},
		{"bounded default count", "int32[<=1] a [1, 2]", "at most 1 elements"},
		{"default not array", "int32[] a 5", "must start with '['"},
		{"string over bound", "string<=2 s abc", "longer than 2 bytes"},
		{"unescaped quote", `string s "a"b"`, "unescaped inner quote"},
	}
	for _, tc := range tests {
		_, err := parseMessage("p", "msg", "M", "M.msg", tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %q: error %v, want it to contain %q", tc.name, tc.text, err, tc.want)
		}
	}
}

func TestParseComments(t *testing.T) {
	m, err := parseMessage("p", "msg", "M", "M.msg", strings.Join([]string{
		"# Message comment,",
		"#   indented line.",
		"",
		"# Leading comment of a.",
		"int32 a  # trailing of a",
		"    # continuation of a",
		"",
		"# Comment of B.",
		"string B=x # y",
		"int32 b",
	}, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, got []string, want ...string) {
		t.Helper()
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s: %q, want %q", what, got, want)
		}
	}
	check("message", m.Comment, "Message comment,", "  indented line.")
	check("a", m.Fields[0].Comment, "Leading comment of a.", "trailing of a", "continuation of a")
	check("B", m.Constants[0].Comment, "Comment of B.", "y")
	check("b", m.Fields[1].Comment)
	if m.Constants[0].Value != "x" {
		t.Errorf("constant value %q (rosidl cuts it at '#')", m.Constants[0].Value)
	}
}

func TestParseService(t *testing.T) {
	if _, err := parseService("p", "S", "S.srv", "int32 a\n"); err == nil || !strings.Contains(err.Error(), "no '---'") {
		t.Errorf("missing separator: %v", err)
	}
	if _, err := parseService("p", "S", "S.srv", "---\n---\n"); err == nil || !strings.Contains(err.Error(), "more than one") {
		t.Errorf("two separators: %v", err)
	}
	s, err := parseService("p", "S", "S.srv", "# doc\nint32 a\n---\nbad line here x\n")
	if err == nil || !strings.Contains(err.Error(), "S.srv:4") {
		t.Errorf("response error should name line 4: %v %v", s, err)
	}
}

func TestLiterals(t *testing.T) {
	tests := []struct {
		typ  Type
		raw  string
		want string
	}{
		{Type{Prim: "bool"}, "True", "true"},
		{Type{Prim: "bool"}, "0", "false"},
		{Type{Prim: "int32"}, "010", "10"}, // decimal, as Python's int()
		{Type{Prim: "uint8"}, "0xff", "255"},
		{Type{Prim: "int8"}, "-0x80", "-128"},
		{Type{Prim: "float64"}, "1e3", "1000"},
		{Type{Prim: "float32"}, "-0.5", "-0.5"},
		{Type{Prim: "string"}, `'a "b"'`, `"a \"b\""`},
		{Type{Prim: "string"}, `unquoted text`, `"unquoted text"`},
		{Type{Prim: "string", Array: UnboundedSequence}, `[]`, `[]string{}`},
		{Type{Prim: "uint16", Array: FixedArray, Size: 2}, `[1, 0x2]`, `[2]uint16{1, 2}`},
		{Type{Prim: "string", Array: BoundedSequence, Size: 3}, `["x,y", 'z']`, `[]string{"x,y", "z"}`},
	}
	for _, tc := range tests {
		got, err := goLiteral(tc.typ, tc.raw)
		if err != nil || got != tc.want {
			t.Errorf("%+v %q: %q (%v), want %q", tc.typ, tc.raw, got, err, tc.want)
		}
	}
}

func TestNames(t *testing.T) {
	for in, want := range map[string]string{
		"node_name": "NodeName", "gc_state2": "GCState2", "player_id": "PlayerID", "imu_rpy": "IMURpy",
		"STATE_INITIAL": "StateInitial", "OK": "OK", "x": "X", "type_name": "TypeName",
	} {
		if got := camel(in); got != want {
			t.Errorf("camel(%q) = %q, want %q", in, got, want)
		}
	}
	if got := fieldName(&Field{Name: "type_hash"}); got != "TypeHash_" {
		t.Errorf("field type_hash: %q, want TypeHash_ (the method name is taken)", got)
	}
	for in, want := range map[string]string{
		"Pose2D": "pose2_d", "GCInfo": "gc_info", "ParticipantEntitiesInfo": "participant_entities_info",
		"UInt8": "u_int8", "Sim3dSay": "sim3d_say",
	} {
		if got := snake(in); got != want {
			t.Errorf("snake(%q) = %q, want %q", in, got, want)
		}
	}
	if got := jsonString("a\"b\\c\n\u00e9\U0001F600"); got != `"a\"b\\c\n\u00e9\ud83d\ude00"` {
		t.Errorf("jsonString: %s", got)
	}
}

func TestResolveErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a/msg/Loop.msg", "Loop2 next\n")
	write("a/msg/Loop2.msg", "Loop[] back\nLoop again\n")
	write("a/msg/Missing.msg", "b/Nothing x\n")
	write("a/msg/Unknown.msg", "Nothing x\n")
	l, err := NewLoader([]string{filepath.Join(dir, "a")})
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := l.Package("a")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"Loop": "contains itself", "Loop2": "contains itself",
		"Missing": "package b not found", "Unknown": "message a/Nothing not found",
	}
	for _, m := range pkg.Messages {
		if err := l.Check(m); err == nil || !strings.Contains(err.Error(), want[m.Name]) {
			t.Errorf("%s: %v, want %q", m.Name, err, want[m.Name])
		}
	}
}

// run end to end in a throw-away module: output, -out, stale file removal, errors.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	mustWrite := func(rel, text string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mustWrite("go.mod", "module example.org/m\n")
	mustWrite("ifaces/pkg_a/msg/A.msg", "int32 x\n")
	mustWrite("ifaces/pkg_b/package.xml", `<package format="3"><name>pkg_b</name><description>Second   package.</description></package>`)
	mustWrite("ifaces/pkg_b/msg/B.msg", "pkg_a/A a\n")
	mustWrite("ifaces/pkg_b/stale.msg.go", Header+"\n\npackage pkg_b\n")
	mustWrite("ifaces/pkg_b/keep.go", "package pkg_b\n")
	var stderr bytes.Buffer
	a, b := filepath.Join(dir, "ifaces/pkg_a"), filepath.Join(dir, "ifaces/pkg_b")
	if err := run([]string{a, b}, &stderr); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	src, err := os.ReadFile(filepath.Join(b, "b.msg.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(src, []byte(`"example.org/m/ifaces/pkg_a"`)) || !bytes.Contains(src, []byte("A pkg_a.A")) {
		t.Errorf("cross-package import missing:\n%s", src)
	}
	doc, _ := os.ReadFile(filepath.Join(b, "doc.go"))
	if !bytes.Contains(doc, []byte("// Second package.")) {
		t.Errorf("package.xml description not in doc.go:\n%s", doc)
	}
	if _, err := os.Stat(filepath.Join(b, "stale.msg.go")); !os.IsNotExist(err) {
		t.Errorf("stale generated file kept: %v", err)
	}
	if _, err := os.Stat(filepath.Join(b, "keep.go")); err != nil {
		t.Errorf("hand-written file removed: %v", err)
	}
	// -out and dir=godir put the Go code elsewhere.
	if err := run([]string{"-I", a, "-out", filepath.Join(dir, "gen/bee"), b}, &stderr); err != nil {
		t.Fatal(err)
	}
	if src, err := os.ReadFile(filepath.Join(dir, "gen/bee/b.msg.go")); err != nil || !bytes.Contains(src, []byte("package bee")) {
		t.Errorf("-out: %v\n%s", err, src)
	}
	if err := run([]string{"-I", a + "=" + filepath.Join(dir, "gen/a"), b + "=" + filepath.Join(dir, "gen/b")}, &stderr); err != nil {
		t.Fatal(err)
	}
	if src, err := os.ReadFile(filepath.Join(dir, "gen/b/b.msg.go")); err != nil || !bytes.Contains(src, []byte(`"example.org/m/gen/a"`)) {
		t.Errorf("dir=godir: %v\n%s", err, src)
	}
	for _, args := range [][]string{
		{},
		{"-out", dir, a, b},
		{b},                     // pkg_a missing
		{"-I", os.TempDir(), a}, // not a module
	} {
		if err := run(args, &stderr); err == nil {
			t.Errorf("run %q succeeded", args)
		}
	}
	mustWrite("ifaces/pkg_c/msg/C.msg", "wstring w\n")
	if err := run([]string{filepath.Join(dir, "ifaces/pkg_c")}, &stderr); err == nil || !strings.Contains(err.Error(), "wstring") {
		t.Errorf("wstring: %v", err)
	}
}
