package rosargs

import (
	"errors"
	"strings"
	"testing"
)

func mustParse(t *testing.T, argv ...string) *Args {
	t.Helper()
	a, _, err := Parse(argv)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func checkName(t *testing.T, fn func(string) error, name string, index int, reason string) {
	t.Helper()
	err := fn(name)
	if reason == "" {
		if err != nil {
			t.Errorf("%q: unexpected error %v", name, err)
		}
		return
	}
	var ne *NameError
	if !errors.As(err, &ne) || !errors.Is(err, ErrInvalidName) {
		t.Errorf("%q: err = %v, want NameError", name, err)
		return
	}
	if ne.Index != index || !strings.Contains(ne.Reason, reason) || ne.Name != name {
		t.Errorf("%q: got %+v, want index %d reason ~%q", name, *ne, index, reason)
	}
}

func TestValidateTopicName(t *testing.T) {
	// Cases of rcl's test_validate_topic_name.cpp plus valid ones.
	for _, tc := range []struct {
		name   string
		index  int
		reason string
	}{
		{"topic", 0, ""}, {"/topic", 0, ""}, {"~/topic", 0, ""}, {"~", 0, ""}, {"{node}/x", 0, ""},
		{"ns/{ns}/{namespace}_x", 0, ""}, {"a1/_b/C_", 0, ""},
		{"123abc", 0, "start with a digit"},
		{"123", 0, "start with a digit"},
		{" ", 0, "may contain only"},
		{"foo bar", 3, "may contain only"},
		{"/~", 1, "'~' is allowed only as the first character"},
		{"~foo", 1, "'~' must be followed by '/'"},
		{"foo~", 3, "'~' is allowed only"},
		{"foo~/bar", 3, "'~' is allowed only"},
		{"foo/~bar", 4, "'~' is allowed only"},
		{"foo/~/bar", 4, "'~' is allowed only"},
		{"foo/", 3, "must not end with '/'"},
		{"/", 0, "must not end with '/'"},
		{"", 0, "must not be empty"},
		{"foo/123bar", 4, "start with a digit"},
		{"foo/bar}/baz", 7, "'}' without '{'"},
		{"foo/{bar", 4, "'{' without '}'"},
		{"{$}", 1, "a substitution may contain only"},
		{"{{bar}_baz}", 1, "a substitution may contain only"},
		{"foo/{bar/baz}", 8, "a substitution may contain only"},
		{"{1foo}", 1, "a substitution must not start with a digit"},
	} {
		checkName(t, ValidateTopicName, tc.name, tc.index, tc.reason)
	}
}

func TestValidateFullTopicName(t *testing.T) {
	long := "/" + strings.Repeat("a", MaxTopicNameLength-1)
	for _, tc := range []struct {
		name   string
		index  int
		reason string
	}{
		{"/chatter", 0, ""}, {"/robot1/dnetwork/team_status", 0, ""}, {long, 0, ""},
		{"", 0, "must not be empty"},
		{"chatter", 0, "must be absolute"},
		{"/chatter/", 8, "must not end with '/'"},
		{"/", 0, "must not end with '/'"},
		{"/foo//bar", 5, "repeated '/'"},
		{"/foo/1bar", 5, "start with a digit"},
		{"/foo/b~r", 6, "may contain only"},
		{"/{node}", 1, "may contain only"},
		{long + "a", MaxTopicNameLength - 1, "longer than 247"},
	} {
		checkName(t, ValidateFullTopicName, tc.name, tc.index, tc.reason)
	}
}

func TestValidateNodeName(t *testing.T) {
	for _, tc := range []struct {
		name   string
		index  int
		reason string
	}{
		{"dnetwork", 0, ""}, {"_x", 0, ""}, {"a__b", 0, ""}, {strings.Repeat("n", 255), 0, ""},
		{"", 0, "must not be empty"},
		{"1node", 0, "must not start with a digit"},
		{"dnet/work", 4, "only letters, digits and '_'"},
		{"dnet-work", 4, "only letters, digits and '_'"},
		{"/dnetwork", 0, "only letters"},
		{strings.Repeat("n", 256), 254, "longer than 255"},
	} {
		checkName(t, ValidateNodeName, tc.name, tc.index, tc.reason)
	}
}

func TestValidateNamespace(t *testing.T) {
	for _, tc := range []struct {
		name   string
		index  int
		reason string
	}{
		{"/", 0, ""}, {"/robot1", 0, ""}, {"/a/b_c/d9", 0, ""},
		{"", 0, "must not be empty"},
		{"robot1", 0, "must be absolute"},
		{"/robot1/", 7, "must not end with '/'"},
		{"//", 1, "must not end"},
		{"/a//b", 3, "repeated '/'"},
		{"/1robot", 1, "start with a digit"},
		{"/ro bot", 3, "may contain only"},
		{"/" + strings.Repeat("a", MaxNamespaceLength), MaxNamespaceLength - 1, "longer than 245"},
	} {
		checkName(t, ValidateNamespace, tc.name, tc.index, tc.reason)
	}
}

func TestExpandTopicName(t *testing.T) {
	// Table of rcl's test_expand_topic_name.cpp.
	for _, tc := range []struct{ in, node, ns, want string }{
		{"/chatter", "my_node", "/my_ns", "/chatter"},
		{"chatter", "my_node", "/my_ns", "/my_ns/chatter"},
		{"{node}/chatter", "my_node", "/my_ns", "/my_ns/my_node/chatter"},
		{"/{node}", "my_node", "/my_ns", "/my_node"},
		{"{node}", "my_node", "/my_ns", "/my_ns/my_node"},
		{"{ns}", "my_node", "/my_ns", "/my_ns"},
		{"{namespace}", "my_node", "/my_ns", "/my_ns"},
		{"{namespace}/{node}/chatter", "my_node", "/my_ns", "/my_ns/my_node/chatter"},
		{"/foo/{namespace}", "my_node", "/my_ns", "/foo//my_ns"},
		{"ping", "my_node", "/", "/ping"},
		{"ping", "my_node", "/my_ns", "/my_ns/ping"},
		{"/ping", "my_node", "/", "/ping"},
		{"/ping", "my_node", "/my_ns", "/ping"},
		{"~", "my_node", "/", "/my_node"},
		{"~", "my_node", "/my_ns", "/my_ns/my_node"},
		{"~/ping", "my_node", "/", "/my_node/ping"},
		{"~/ping", "my_node", "/my_ns", "/my_ns/my_node/ping"},
		{"~/{node}/x", "dn", "/robot1", "/robot1/dn/dn/x"},
	} {
		got, err := ExpandTopicName(tc.in, tc.node, tc.ns)
		if err != nil || got != tc.want {
			t.Errorf("ExpandTopicName(%q, %q, %q) = %q, %v; want %q", tc.in, tc.node, tc.ns, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ in, node, ns, want string }{
		{"white space", "n", "/ns", `invalid topic name "white space"`},
		{"{node}/chatter", "/invalid_node", "/ns", `invalid node name "/invalid_node"`},
		{"{node}/chatter", "n", "white space", `invalid namespace "white space"`},
		{"{doesnotexist}", "n", "/ns", "unknown substitution {doesnotexist}"},
	} {
		_, err := ExpandTopicName(tc.in, tc.node, tc.ns)
		if !errors.Is(err, ErrInvalidName) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ExpandTopicName(%q, %q, %q) err = %v, want ~%q", tc.in, tc.node, tc.ns, err, tc.want)
		}
	}
}

func TestNodeNameAndNamespace(t *testing.T) {
	a := mustParse(t, "--ros-args", "-r", "__ns:=/namespace", "-r", "other:__node:=x", "-r", "__node:=firstname",
		"-r", "__node:=secondname", "-r", "Node1:__ns:=/foo/bar")
	if got := a.NodeName("NodeName"); got != "firstname" {
		t.Errorf("NodeName = %q, want the first rule", got)
	}
	if got := a.NodeName("other"); got != "x" {
		t.Errorf("NodeName(other) = %q, want the prefixed rule", got)
	}
	if got := a.Namespace("NodeName", "/"); got != "/namespace" {
		t.Errorf("Namespace = %q", got)
	}

	// rcl test_remap nodename_prefix_namespace_remap.
	a = mustParse(t, "--ros-args", "-r", "Node1:__ns:=/foo/bar", "-r", "Node2:__ns:=/this_one", "-r", "Node3:__ns:=/bar/foo")
	for node, want := range map[string]string{"Node1": "/foo/bar", "Node2": "/this_one", "Node3": "/bar/foo", "Node4": "/default"} {
		if got := a.Namespace(node, "/default"); got != want {
			t.Errorf("Namespace(%s) = %q, want %q", node, got, want)
		}
	}
	if got := mustParse(t).NodeName("dnetwork"); got != "dnetwork" {
		t.Errorf("no rules: NodeName = %q", got)
	}
	if got := mustParse(t, "--ros-args", "-r", "__ns:=/r1/").Namespace("n", "/"); got != "/r1" {
		t.Errorf("trailing slash: Namespace = %q", got)
	}
	if got := mustParse(t, "--ros-args", "-r", "__ns:=/").Namespace("n", "/x"); got != "/" {
		t.Errorf("root: Namespace = %q", got)
	}

	// The launch case: the namespace rule is matched against the new name.
	a = mustParse(t, "--ros-args", "-r", "__node:=dnetwork", "-r", "dnetwork:__ns:=/robot1")
	name := a.NodeName("dnetwork_node")
	ns := a.Namespace(name, "/")
	if name != "dnetwork" || ns != "/robot1" || FullyQualifiedName(ns, name) != "/robot1/dnetwork" ||
		LoggerName(ns, name) != "robot1.dnetwork" {
		t.Errorf("got %q %q %q %q", name, ns, FullyQualifiedName(ns, name), LoggerName(ns, name))
	}
	if FullyQualifiedName("/", "dn") != "/dn" || LoggerName("/", "dn") != "dn" || LoggerName("/a/b", "dn") != "a.b.dn" {
		t.Error("root namespace names")
	}
}

func TestResolveTopic(t *testing.T) {
	a := mustParse(t, "--ros-args",
		"-r", "__ns:=/namespace", "-r", "__node:=remap_name",
		"-r", "/bar/foo:=/foo/bar",
		"-r", "foo:=bar",
		"-r", "Node1:/x:=/foo/bar", "-r", "Node2:/x:=/this_one",
		"-r", "team_status:=/team/status",
		"-r", "~/private:=~/renamed",
		"-r", "rosservice://srv:=srv2",
		"-r", "rostopic://only_topic:=t2",
		"-r", "team_status:=/not/first")
	// Parse never yields a rule with braces; Args built by hand may.
	a.Remaps = append(a.Remaps, Remap{Kind: RemapTopic, Match: "bad", Replacement: "/x/{nope}"})
	for _, tc := range []struct {
		service         bool
		name, node, ns  string
		want, wantError string
	}{
		{false, "/bar/foo", "NodeName", "/", "/foo/bar", ""},
		{true, "/bar/foo", "NodeName", "/", "/foo/bar", ""},
		{false, "foo", "NodeName", "/ns", "/ns/bar", ""},
		{false, "/x", "Node1", "/", "/foo/bar", ""},
		{false, "/x", "Node2", "/", "/this_one", ""},
		{false, "/x", "Node3", "/", "/x", ""},
		{false, "team_status", "dnetwork", "/robot1", "/team/status", ""},
		{false, "/robot1/team_status", "dnetwork", "/robot1", "/team/status", ""},
		{false, "~/private", "dnetwork", "/robot1", "/robot1/dnetwork/renamed", ""},
		{false, "private", "dnetwork", "/robot1", "/robot1/private", ""},
		{false, "srv", "n", "/", "/srv", ""},
		{true, "srv", "n", "/", "/srv2", ""},
		{false, "only_topic", "n", "/", "/t2", ""},
		{true, "only_topic", "n", "/", "/only_topic", ""},
		{false, "{ns}/x", "n", "/", "", "repeated '/'"},
		{false, "bad", "n", "/", "", "unknown substitution {nope}"},
		{false, "1x", "n", "/", "", "start with a digit"},
	} {
		resolve := a.ResolveTopic
		if tc.service {
			resolve = a.ResolveService
		}
		got, err := resolve(tc.name, tc.node, tc.ns)
		if tc.wantError != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantError) || !errors.Is(err, ErrInvalidName) {
				t.Errorf("resolve(%q, %q, %q) = %q, %v; want error ~%q", tc.name, tc.node, tc.ns, got, err, tc.wantError)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("resolve(%q, %q, %q, service=%v) = %q, %v; want %q", tc.name, tc.node, tc.ns, tc.service, got, err, tc.want)
		}
	}
	// The relative rule "foo:=bar" expands against the node's namespace
	// (rcl test relative_topic_name_remap).
	if got, _ := mustParse(t, "--ros-args", "-r", "foo:=bar").ResolveTopic("/ns/foo", "NodeName", "/ns"); got != "/ns/bar" {
		t.Errorf("relative rule on /ns/foo = %q", got)
	}
}
