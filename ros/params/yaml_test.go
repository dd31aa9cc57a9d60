package params

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/ros/rosargs"
)

func load(t *testing.T, files ...string) *Overrides {
	t.Helper()
	o := &Overrides{}
	for i, f := range files {
		if err := o.LoadYAML("f"+string(rune('1'+i))+".yaml", []byte(f)); err != nil {
			t.Fatalf("file %d: %v", i+1, err)
		}
	}
	return o
}

func wantValue(t *testing.T, o *Overrides, key, name string, want Value) {
	t.Helper()
	ov, ok := o.Lookup(key, name)
	if !ok {
		t.Errorf("%s %s: missing", key, name)
		return
	}
	if !ov.Value.Equal(want) || ov.Name != name || ov.NodeKey != key {
		t.Errorf("%s %s = %+v, want %s", key, name, ov, want.describe())
	}
}

// A file shaped like rcl's correct_config.yaml: namespaces as nested maps,
// nested parameter maps, arrays of each type, !!str tags.
const teamConfig = `# robot parameters
---

robots:
  striker_1:
    ros__parameters:
      id: 10
      name: front_striker
      ports: [3838, 3939, 10004]
      kick:
        dx: 4.56
        dy: 2.30
        fr_gains: [12, 3, 0, 7]
        bk_gains: [12.1, -2.3, 5.2, 9.0]
      is_front: true
      walk:
        dx: 1.23
        dy: 0.45
  keeper_1:
    ros__parameters:
      id: 992147483647
      name: keeper
      dy1: 0.003
      is_back: false
      dive:
        dz: 7.89
camera:
  ros__parameters:
    name: top_cam
    loc: front
    spec:
      angle: 2.34
      brands: ["Bosch", "Novatek", "Mobius"]
cams:
  cam_a:
    ros__parameters:
      flags: [true, true, false, true, false, false]
      brand: Bosch
  cam_b:
    ros__parameters:
      calib:
        name: default
      brand: Mobius 
tags:
  ros__parameters:
    string_bool: !!str yes
    string_int: !!str 1234
    string_double: !!str 12.34
`

// An overlay in the style of rcl's overlay.yaml.
const teamOverlay = `
robots:
  keeper_1:
    ros__parameters:
      is_back: true
camera:
  ros__parameters:
    loc: back
tags:
  ros__parameters:
    string_int: 99
`

func TestLoadYAML(t *testing.T) {
	o := load(t, teamConfig)
	if got, want := o.Keys(), []string{"robots/striker_1", "robots/keeper_1", "camera", "cams/cam_a", "cams/cam_b", "tags"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Keys = %q, want %q", got, want)
	}
	wantValue(t, o, "robots/striker_1", "id", Integer(10))
	wantValue(t, o, "robots/striker_1", "name", String("front_striker"))
	wantValue(t, o, "robots/striker_1", "ports", IntegerArray([]int64{3838, 3939, 10004}))
	wantValue(t, o, "robots/striker_1", "kick.dx", Double(4.56))
	wantValue(t, o, "robots/striker_1", "kick.dy", Double(2.3))
	wantValue(t, o, "robots/striker_1", "kick.fr_gains", IntegerArray([]int64{12, 3, 0, 7}))
	wantValue(t, o, "robots/striker_1", "kick.bk_gains", DoubleArray([]float64{12.1, -2.3, 5.2, 9.0}))
	wantValue(t, o, "robots/striker_1", "is_front", Bool(true))
	wantValue(t, o, "robots/striker_1", "walk.dy", Double(0.45))
	wantValue(t, o, "robots/keeper_1", "id", Integer(992147483647))
	wantValue(t, o, "robots/keeper_1", "dive.dz", Double(7.89))
	wantValue(t, o, "camera", "spec.brands", StringArray([]string{"Bosch", "Novatek", "Mobius"}))
	wantValue(t, o, "cams/cam_a", "flags", BoolArray([]bool{true, true, false, true, false, false}))
	wantValue(t, o, "cams/cam_b", "calib.name", String("default"))
	wantValue(t, o, "cams/cam_b", "brand", String("Mobius"))
	wantValue(t, o, "tags", "string_bool", String("yes"))
	wantValue(t, o, "tags", "string_int", String("1234"))
	wantValue(t, o, "tags", "string_double", String("12.34"))
	if _, ok := o.Lookup("robots/striker_1", "kick"); ok {
		t.Error("a parameter namespace is not a parameter")
	}
	ov, _ := o.Lookup("robots/striker_1", "kick.dy")
	if want := (Source{File: "f1.yaml", Line: 12, Key: "robots.striker_1.ros__parameters.kick.dy"}); ov.Source != want {
		t.Errorf("source = %+v, want %+v", ov.Source, want)
	}

	// The overlay replaces values, also with another type, and keeps the rest.
	o = load(t, teamConfig, teamOverlay)
	wantValue(t, o, "robots/keeper_1", "is_back", Bool(true))
	wantValue(t, o, "robots/keeper_1", "id", Integer(992147483647))
	wantValue(t, o, "camera", "loc", String("back"))
	wantValue(t, o, "tags", "string_int", Integer(99))
	if ov, _ := o.Lookup("camera", "loc"); ov.Source.File != "f2.yaml" {
		t.Errorf("overlay source = %+v", ov.Source)
	}
}

func TestLoadYAMLNames(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		keys       []string
		param      string // a parameter of the last key
	}{
		{"deep namespaces (multi_ns_correct)", `
a:
  b:
    c:
      d:
        ros__parameters:
          k1:
            k2:
              k3: {x: 1}
            y: 2
  e:
    f:
      ros__parameters: {z: 3}
`, []string{"a/b/c/d", "a/e/f"}, "z"},
		{"root namespace (root_ns)", "/:\n  my_node:\n    ros__parameters:\n      p: 'value'\n", []string{"/my_node"}, "p"},
		{"root then sibling", "/:\n  n1:\n    ros__parameters: {p: 1}\n  n2:\n    ros__parameters: {p: 2}\n", []string{"/n1", "/n2"}, "p"},
		{"trailing slash key", "robot1/:\n  dnetwork:\n    ros__parameters: {p: 1}\n  other:\n    ros__parameters: {p: 1}\n", []string{"robot1/dnetwork", "robot1/other"}, "p"},
		{"full names", "/robot1/dnetwork:\n  ros__parameters: {p: 1}\n/robot2/dnetwork:\n  ros__parameters: {p: 2}\n", []string{"/robot1/dnetwork", "/robot2/dnetwork"}, "p"},
		{"nested key with slash, last in its map", "robots:\n  team/dnetwork:\n    ros__parameters: {p: 1}\n", []string{"robots/team/dnetwork"}, "p"},
		{"node before its own parameters", "dn:\n  sub:\n    ros__parameters: {p: 1}\n  ros__parameters: {p: 2}\n", []string{"dn/sub", "dn"}, "p"},
		{"empty parameters and empty namespaces", "a: {}\nb:\n  ros__parameters: {}\nc:\n  ros__parameters: {p: 1}\n", []string{"b", "c"}, "p"},
		{"ros__parameters prefix", "n:\n  ros__parameters_v2: {p: 1}\n", []string{"n"}, "p"},
		{"dotted keys", "n:\n  ros__parameters:\n    net.port: 1\n    net:\n      peers.count: 2\n    p: 3\n", []string{"n"}, "net.peers.count"},
		{"duplicate key, later wins", "n:\n  ros__parameters: {p: 1, p: 2}\n", []string{"n"}, "p"},
		{"two documents", "n:\n  ros__parameters: {p: 1}\n---\nm:\n  ros__parameters: {p: 2}\n", []string{"n", "m"}, "p"},
		{"empty file", "# nothing\n", nil, ""},
		{"wildcards (rcl wildcards.yaml)", `
/**:
  ros__parameters: {id: 10}
/*:
  ros__parameters: {id: 10}
/**/some_node1:
  ros__parameters: {id: 10}
/*/some_node2:
  ros__parameters: {id: 10}
/**:
  some_node3:
    ros__parameters: {id: 10}
/*:
  some_node4:
    ros__parameters: {id: 10}
/foo1/**:
  ros__parameters: {id: 10}
/foo2/*:
  ros__parameters: {id: 10}
/foo3/**:
  some_node5:
    ros__parameters: {id: 10}
/foo5:
  "*":
    ros__parameters: {id: 10}
/foo6/**/some_node6:
  ros__parameters: {id: 10}
/foo7/*/some_node7:
  ros__parameters: {id: 10}
/foo10/**/bar:
  bar1/bar2/**:
    ros__parameters: {id: 10}
/foo11/*/bar:
  bar1/bar2/*:
    ros__parameters: {id: 10}
`, []string{"/**", "/*", "/**/some_node1", "/*/some_node2", "/**/some_node3", "/*/some_node4", "/foo1/**", "/foo2/*",
			"/foo3/**/some_node5", "/foo5/*", "/foo6/**/some_node6", "/foo7/*/some_node7", "/foo10/**/bar/bar1/bar2/**",
			"/foo11/*/bar/bar1/bar2/*"}, "id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := load(t, tc.yaml)
			if !reflect.DeepEqual(o.Keys(), tc.keys) && !(len(tc.keys) == 0 && len(o.Keys()) == 0) {
				t.Errorf("Keys = %q, want %q", o.Keys(), tc.keys)
			}
			if tc.param != "" {
				if _, ok := o.Lookup(tc.keys[len(tc.keys)-1], tc.param); !ok {
					t.Errorf("no %s under %s", tc.param, tc.keys[len(tc.keys)-1])
				}
			}
		})
	}
	o := load(t, "n:\n  ros__parameters: {p: 1, p: 2}\n")
	wantValue(t, o, "n", "p", Integer(2))
	o = load(t, "n:\n  ros__parameters:\n    net.port: 1\n    net:\n      peers.count: 2\n      port: 5\n")
	wantValue(t, o, "n", "net.port", Integer(5))
}

func TestLoadYAMLErrors(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		want       []string // one line per error
		kind       error
	}{
		{"scalar root", "hello", []string{"f.yaml: a parameter file is a map of node names, found a value"}, ErrInvalidFile},
		{"syntax (seq_map2)", "n:\n  ros__parameters:\n    id: 10\n    - a: 1\n", []string{"f.yaml: line 4, column 5: did not find expected key (while parsing a block mapping that starts on line 3, column 5; is line 4 indented like the keys above it?)"}, ErrInvalidFile},
		{"sequence of maps (seq_map1)", "ns:\n  n:\n    ros__parameters:\n      - driver: front\n        dx: 4.56\n",
			[]string{"f.yaml: ns.n.ros__parameters: expected a map of parameters, found a sequence"}, ErrInvalidFile},
		{"parameters without node (params_with_no_node)", "node1:\n  ros__parameters: {name: test}\nros__parameters:\n  id: 10\n",
			[]string{"f.yaml: ros__parameters: ros__parameters must be inside a node name entry"}, ErrInvalidFile},
		{"alias (no_alias_support)", "ns:\n  n:\n    ros__parameters:\n      name: &FL \"front\"\n      spec: *FL\n",
			[]string{"f.yaml: ns.n.ros__parameters.spec: aliases are not supported"}, ErrInvalidValue},
		{"no value (no_value1)", "ns:\n  n:\n    ros__parameters:\n      id:\n      name: \"front lidar\"\n",
			[]string{"f.yaml: ns.n.ros__parameters.id: no value"}, ErrInvalidValue},
		{"misindented namespace (indented_name_space)", "---\n  ns:\n  n:\n    ros__parameters:\n      id: 10\n",
			[]string{"f.yaml: ns: expected a map of node names or ros__parameters, found an empty value"}, ErrInvalidFile},
		{"empty level (empty_name_in_ns)", "ns//n_w:\n  ros__parameters: {id: 10}\n",
			[]string{`f.yaml: ns//n_w: invalid node name "ns//n_w": repeated '/'`}, ErrInvalidFile},
		{"slash node under a key (wildcards_node_slash)", "/foo:\n  /*:\n    ros__parameters: {id: 10}\n",
			[]string{`f.yaml: /foo./*: invalid node name "/foo//*": repeated '/'`}, ErrInvalidFile},
		{"value at node level", "n:\n  id: 10\n", []string{"f.yaml: n.id: expected a map of node names or ros__parameters, found a value"}, ErrInvalidFile},
		{"bad node name", "robot-1:\n  ros__parameters: {id: 1}\n",
			[]string{`f.yaml: robot-1: invalid node name "robot-1": node name "robot-1" may contain only letters, digits and '_'`}, ErrInvalidFile},
		{"bad namespace", "/1robot/dn:\n  ros__parameters: {id: 1}\n",
			[]string{`f.yaml: /1robot/dn: invalid node name "/1robot/dn": namespace "/1robot" a name token must not start with a digit`}, ErrInvalidFile},
		{"key after ros__parameters", "dn:\n  ros__parameters: {p: 1}\n  sub:\n    ros__parameters: {p: 2}\n",
			[]string{`f.yaml: dn.sub.ros__parameters: rcl reads this entry as node "sub", not "dn/sub" as the nesting shows (keys after ros__parameters or nested keys with '/' confuse it); give each node its own entry`}, ErrInvalidFile},
		{"nested slash key then a sibling", "robots:\n  team/dn:\n    ros__parameters: {p: 1}\n  other:\n    ros__parameters: {p: 2}\n",
			[]string{`f.yaml: robots.other.ros__parameters: rcl reads this entry as node "robots/team/other", not "robots/other" as the nesting shows (keys after ros__parameters or nested keys with '/' confuse it); give each node its own entry`}, ErrInvalidFile},
		{"nested dotted key then a sibling", "n:\n  ros__parameters:\n    x:\n      a.b: {c: 1}\n      d: 2\n",
			[]string{`f.yaml: n.ros__parameters.x.d: rcl reads this parameter as "x.a.d", not "x.d" as the nesting shows (nested keys with '.' confuse it); write the full dotted name in one key`}, ErrInvalidFile},
		{"empty parameter map", "n:\n  ros__parameters:\n    x: {}\n    y: 1\n", []string{"f.yaml: n.ros__parameters.x: an empty map is not a parameter value"}, ErrInvalidFile},
		{"complex key", "n:\n  ros__parameters:\n    ? [a]\n    : 1\n", []string{"f.yaml: n.ros__parameters: keys must be plain names, found a sequence"}, ErrInvalidFile},
		{"empty key", "n:\n  ros__parameters:\n    '': 1\n", []string{"f.yaml: n.ros__parameters.: empty key"}, ErrInvalidFile},
		{"all value errors are reported", "n:\n  ros__parameters:\n    a: [1, 2]\n    b: [1, x]\n    c: 3\n    d: [[1]]\n",
			[]string{
				`f.yaml: n.ros__parameters.b: array mixes integer and string (item 1 is string "x"); rcl needs one type`,
				"f.yaml: n.ros__parameters.d: array items must be plain values, item 0 is a sequence",
			}, ErrInvalidValue},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := &Overrides{}
			o.Set(Override{Name: "keep", Value: Integer(1), NodeKey: "/**"})
			err := o.LoadYAML("f.yaml", []byte(tc.yaml))
			if err == nil {
				t.Fatal("no error")
			}
			if got := strings.Split(err.Error(), "\n"); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("error\n got %q\nwant %q", got, tc.want)
			}
			if !errors.Is(err, tc.kind) {
				t.Errorf("error %v does not match %v", err, tc.kind)
			}
			if !reflect.DeepEqual(o.Keys(), []string{"/**"}) || len(o.nodes[0].vals) != 1 {
				t.Errorf("a bad file changed the table: %q", o.Keys())
			}
		})
	}

	// Partial wildcards (rcl's wildcards_partial_*.yaml) are not node names.
	for _, key := range []string{"/foo**", "/**foo", "/f**oo", "/foo*", "/*foo", "/f*oo", "/**/node**", "/**/**node",
		"/**/n**ode", "/**/*node", "/**/node*", "/**/n*ode"} {
		err := (&Overrides{}).LoadYAML("w.yaml", []byte(key+":\n  ros__parameters: {id: 10}\n"))
		if err == nil || !strings.HasPrefix(err.Error(), "w.yaml: "+key+": invalid node name") {
			t.Errorf("%s: err = %v", key, err)
		}
	}
}

func TestLoadYAMLLine(t *testing.T) {
	err := (&Overrides{}).LoadYAML("f.yaml", []byte("n:\n  ros__parameters:\n    a: 1\n    b: [1, x]\n"))
	var se *SourceError
	if !errors.As(err, &se) || se.Source.Line != 4 || se.Source.Key != "n.ros__parameters.b" {
		t.Errorf("err = %#v", err)
	}
}

func TestSpecialFloatsFile(t *testing.T) {
	// rcl's special_float.yaml and string_array_with_quoted_number.yaml.
	o := load(t, `node:
    ros__parameters:
        isstring: [string, .nananan, .nAN, .Nan, .infinf, .INf, .infinity]
        nan_inf: [1.1, 2.2, .nan, .NAN, .inf, +.Inf, -.INF]
        sa1: ["Four", "score"]
        sa2: ["and", "7"]
        empty: ""
        empty2: ''
`)
	wantValue(t, o, "node", "isstring", StringArray([]string{"string", ".nananan", ".nAN", ".Nan", ".infinf", ".INf", ".infinity"}))
	ov, _ := o.Lookup("node", "nan_inf")
	d := ov.Value.DoubleArrayValue
	if ov.Value.Type != TypeDoubleArray || len(d) != 7 || d[1] != 2.2 || !math.IsNaN(d[2]) || !math.IsNaN(d[3]) ||
		!math.IsInf(d[4], 1) || !math.IsInf(d[5], 1) || !math.IsInf(d[6], -1) {
		t.Errorf("nan_inf = %s", ov.Value.describe())
	}
	wantValue(t, o, "node", "sa2", StringArray([]string{"and", "7"}))
	wantValue(t, o, "node", "empty", String(""))
	wantValue(t, o, "node", "empty2", String(""))
}

func TestMatchNode(t *testing.T) {
	for _, tc := range []struct {
		key     string
		yes, no []string
	}{
		{"/**", []string{"/a", "/a/b", "/robot1/dnetwork"}, []string{"/", "a"}},
		{"/*", []string{"/a", "/dnetwork"}, []string{"/a/b"}},
		{"/**/dnetwork", []string{"/dnetwork", "/r1/dnetwork", "/a/b/dnetwork"}, []string{"/dnetwork2", "/r1/dnet"}},
		{"/robot1/*", []string{"/robot1/x"}, []string{"/robot1", "/robot1/x/y", "/robot2/x"}},
		{"/robot1/**", []string{"/robot1/x", "/robot1/x/y", "/robot1"}, []string{"/robot2/x", "/robot10"}},
		{"/*/dnetwork", []string{"/r1/dnetwork"}, []string{"/dnetwork", "/a/b/dnetwork"}},
		{"robot1/dnetwork", []string{"/robot1/dnetwork"}, []string{"/robot1/dnetwork/x", "/x/robot1/dnetwork"}},
		{"/robot1/dnetwork", []string{"/robot1/dnetwork"}, []string{"/robot1/dnetwor"}},
		{"dnetwork", []string{"/dnetwork"}, []string{"/robot1/dnetwork"}},
		{"*", []string{"/dnetwork"}, []string{"/robot1/dnetwork"}},
		{"/foo10/**/bar/bar1/bar2/**", []string{"/foo10/bar/bar1/bar2/x", "/foo10/a/b/bar/bar1/bar2/x/y", "/foo10/bar/bar1/bar2"}, []string{"/foo10/bar/bar1"}},
		{"/a.b", []string{"/a.b"}, []string{"/axb"}}, // literal text stays literal
		{"**", []string{"/a", "/a/b"}, nil},          // read as /**
		{"/a**", nil, []string{"/a", "/a**"}},        // not a valid pattern: matches nothing
	} {
		for _, fqn := range tc.yes {
			if !MatchNode(tc.key, fqn) {
				t.Errorf("MatchNode(%q, %q) = false", tc.key, fqn)
			}
		}
		for _, fqn := range tc.no {
			if MatchNode(tc.key, fqn) {
				t.Errorf("MatchNode(%q, %q) = true", tc.key, fqn)
			}
		}
	}
}

func names(ovs []Override) map[string]string {
	m := map[string]string{}
	for _, ov := range ovs {
		m[ov.Name] = ov.Value.String()
	}
	return m
}

func TestForNodePrecedence(t *testing.T) {
	// rclcpp's params_by_order: the later matching key wins even over an
	// earlier exact name.
	o := load(t, `
/**:
  ros__parameters:
    a: first
/ns:
  node2:
    ros__parameters:
      a: exact
      b: exact
/*:
  node2:
    ros__parameters:
      a: last_one_win
/other:
  ros__parameters:
    c: not_mine
`)
	got := names(o.ForNode("/ns/node2"))
	if want := map[string]string{"a": `"last_one_win"`, "b": `"exact"`}; !reflect.DeepEqual(got, want) {
		t.Errorf("ForNode = %v, want %v", got, want)
	}
	if got := names(o.ForNode("/x/node3")); !reflect.DeepEqual(got, map[string]string{"a": `"first"`}) {
		t.Errorf("ForNode(/x/node3) = %v", got)
	}
	// Order of first appearance: a key seen again later keeps its place.
	o = load(t, "/**:\n  ros__parameters: {a: 1}\n/n:\n  ros__parameters: {a: 2}\n", "/**:\n  ros__parameters: {a: 3}\n")
	if got := names(o.ForNode("/n")); got["a"] != "2" {
		t.Errorf("a = %v, want 2 (the /n key comes after /** in the table)", got["a"])
	}
	// Raw keys are distinct table entries, as in rcl: "n" and "/n" are two keys.
	o = load(t, "n:\n  ros__parameters: {a: 1}\n/**:\n  ros__parameters: {a: 2}\n/n:\n  ros__parameters: {a: 3}\n")
	if got := names(o.ForNode("/n")); got["a"] != "3" {
		t.Errorf("a = %v, want 3", got["a"])
	}
	ovs := o.ForNode("/n")
	ovs[0].Value = Integer(99)
	if names(o.ForNode("/n"))["a"] != "3" {
		t.Error("ForNode results share memory with the table")
	}
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadArgs(t *testing.T) {
	dir := t.TempDir()
	// What launch_ros writes for parameters=[{...}] of a node with a name and namespace.
	launch := writeFile(t, dir, "launch_params_k3x1", `/robot1/dnetwork:
  ros__parameters:
    gc_port: 3838
    net.peers:
    - 10.0.0.2
    - 10.0.0.3
    robot_name: alpha
    team_id: 7
`)
	global := writeFile(t, dir, "global.yaml", "/**:\n  ros__parameters:\n    use_sim_time: true\n    team_id: 1\n")
	a, rest, err := rosargs.Parse([]string{"--team", "7", "--ros-args", "-r", "__node:=dnetwork", "-r", "__ns:=/robot1",
		"-p", "team_id:=2\n...\n", "--params-file", global, "--params-file", launch, "-p", "gc_port:=3939\n...\n",
		"-p", "dnetwork:robot_name:=beta", "-r", "team_status:=/team/status"})
	if err != nil || !reflect.DeepEqual(rest, []string{"--team", "7"}) {
		t.Fatal(err, rest)
	}
	o, err := LoadArgs(a)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := o.Keys(), []string{"/**", "/robot1/dnetwork", "dnetwork"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Keys = %q, want %q", got, want)
	}
	got := names(o.ForNode("/robot1/dnetwork"))
	want := map[string]string{
		"use_sim_time": "true",
		"team_id":      "7", // the file's exact key comes after /** in the table
		// The -p after the file sets gc_port under /**, which is first in the
		// table (the first -p created it), so the file's exact key still wins.
		"gc_port":    "3838",
		"net.peers":  `["10.0.0.2", "10.0.0.3"]`,
		"robot_name": `"alpha"`, // the key "dnetwork" matches only /dnetwork
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ForNode =\n%v\nwant\n%v", got, want)
	}
	if got := names(o.ForNode("/dnetwork")); got["robot_name"] != `"beta"` || got["gc_port"] != "3939" || got["team_id"] != "1" {
		t.Errorf("ForNode(/dnetwork) = %v", got)
	}
	ov, _ := o.Lookup("dnetwork", "robot_name")
	if ov.Source != (Source{Key: "-p dnetwork:robot_name:=beta"}) {
		t.Errorf("rule source = %+v", ov.Source)
	}

	// -p after a file with the same key overrides it.
	a, _, _ = rosargs.Parse([]string{"--ros-args", "--params-file", global, "-p", "team_id:=5"})
	if o, err = LoadArgs(a); err != nil || names(o.ForNode("/x"))["team_id"] != "5" {
		t.Errorf("-p after file: %v %v", names(o.ForNode("/x")), err)
	}
	// … and before it, the file wins.
	a, _, _ = rosargs.Parse([]string{"--ros-args", "-p", "team_id:=5", "--params-file", global})
	if o, err = LoadArgs(a); err != nil || names(o.ForNode("/x"))["team_id"] != "1" {
		t.Errorf("-p before file: %v %v", names(o.ForNode("/x")), err)
	}

	// Every bad file and rule is reported.
	bad := writeFile(t, dir, "bad.yaml", "n:\n  ros__parameters:\n    a: [1, b]\n")
	a, _, _ = rosargs.Parse([]string{"--ros-args", "--params-file", bad, "-p", "x:=[1, [2]]", "--params-file", filepath.Join(dir, "missing.yaml"), "-p", "y:={a: 1}"})
	_, err = LoadArgs(a)
	lines := strings.Split(fmtErr(err), "\n")
	wantLines := []string{
		bad + `: n.ros__parameters.a: array mixes integer and string (item 1 is string "b"); rcl needs one type`,
		"-p x:=[1, [2]]: array items must be plain values, item 1 is a sequence",
		"params: open " + filepath.Join(dir, "missing.yaml") + ": no such file or directory",
		"-p y:={a: 1}: a map is not a parameter value",
	}
	if !reflect.DeepEqual(lines, wantLines) {
		t.Errorf("errors\n got %q\nwant %q", lines, wantLines)
	}
	if !errors.Is(err, ErrInvalidValue) || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("error kinds lost: %v", err)
	}
}

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestEmptyArray: "[]" (what ros2 param dump writes for an empty list) takes the type of
// the array parameter it is given for, from a file or a -p rule, and is refused for a
// parameter that is not an array.
func TestEmptyArray(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, dir, "dump.yaml", "/n:\n  ros__parameters:\n    peers: []\n    ports: []\n    name: []\n    any: []\n")
	a, _, _ := rosargs.Parse([]string{"--ros-args", "--params-file", f, "-p", "ids:=[]"})
	o, err := LoadArgs(a)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"peers", "ports", "name", "any"} {
		if ov, ok := o.Lookup("/n", name); !ok || !ov.EmptyArray || ov.Value.String() != "[]" {
			t.Errorf("%s: %+v", name, ov)
		}
	}
	s, err := NewStore(o.ForNode("/n"))
	if err != nil {
		t.Fatal(err)
	}
	for name, typ := range map[string]Type{"peers": TypeStringArray, "ports": TypeIntegerArray, "ids": TypeDoubleArray} {
		def := Value{Type: typ, StringArrayValue: []string{"x"}, IntegerArrayValue: []int64{1}, DoubleArrayValue: []float64{1}}
		v, err := s.Declare(name, def, Descriptor{})
		if err != nil || v.Type != typ || !v.Equal(Value{Type: typ}.Clone()) {
			t.Errorf("%s: %s, %v; want an empty %s", name, v.describe(), err, typ)
		}
	}
	_, err = s.Declare("name", String("robot"), Descriptor{})
	if err == nil || err.Error() != f+": /n.ros__parameters.name: expected string, got an empty array" || !errors.Is(err, ErrTypeMismatch) {
		t.Errorf("string parameter: %v", err)
	}
	_, err = s.Declare("any", Integer(1), Descriptor{DynamicTyping: true})
	if err == nil || !strings.Contains(err.Error(), "an empty array has no type") {
		t.Errorf("dynamically typed parameter: %v", err)
	}
	if _, err := ParseValue("[]"); err == nil {
		t.Error("ParseValue([]): a value of no type")
	}
}
