package rosargs

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// The argument lists below are the ones rcl's own test_arguments.cpp uses
// (check_known_vs_unknown_args and check_valid_vs_invalid_args), with the
// verdict rclcpp reaches: unknown ROS arguments stop the node.
func TestKnownROSArgs(t *testing.T) {
	for _, rule := range [][]string{
		{"-r", "__node:=node_name"},
		{"-r", "old_name:__node:=node_name"},
		{"-r", "old_name:__node:=nodename123"},
		{"-r", "__node:=nodename123"},
		{"-r", "__name:=nodename123"},
		{"-r", "__ns:=/foo/bar"},
		{"-r", "__ns:=/"},
		{"-r", "_:=kq"},
		{"-r", "nodename:__ns:=/foobar"},
		{"-r", "foo:=bar"},
		{"-r", "~/foo:=~/bar"},
		{"-r", "/foo/bar:=bar"},
		{"-r", "foo:=/bar"},
		{"-r", "/foo123:=/bar123"},
		{"-r", "node:/foo123:=/bar123"},
		{"-r", "rostopic:=/foo/bar"},
		{"-r", "rosservice:=baz"},
		{"-r", "rostopic://rostopic:=rosservice"},
		{"-r", "rostopic:///rosservice:=rostopic"},
		{"-r", "rostopic:///foo/bar:=baz"},
		{"--remap", "foo:=bar"},
		{"-p", "foo:=bar"},
		{"-p", "foo.bar:=bar"},
		{"-p", "node:foo:=bar"},
		{"-p", "fizz123:=buzz456"},
		{"--param", "a:=[1, 2]"},
		{"--params-file", "params.yaml"},
		{"--log-config-file", "file.config"},
		{"--log-level", "UNSET"},
		{"--log-level", "DEBUG"},
		{"--log-level", "INFO"},
		{"--log-level", "WARN"},
		{"--log-level", "ERROR"},
		{"--log-level", "FATAL"},
		{"--log-level", "debug"},
		{"--log-level", "Info"},
		{"--log-level", "rcl:=debug"},
		{"--log-file-name", "filename"},
		{"--enable-rosout-logs"},
		{"--disable-rosout-logs"},
		{"--enable-stdout-logs"},
		{"--disable-stdout-logs"},
		{"--enable-external-lib-logs"},
		{"--disable-external-lib-logs"},
		{"-e", "/robot1"},
		{"--enclave", "/"},
	} {
		argv := append([]string{"--ros-args"}, rule...)
		if _, rest, err := Parse(argv); err != nil || len(rest) != 0 {
			t.Errorf("Parse(%q) = rest %q, err %v; want a known ROS argument", argv, rest, err)
		}
	}
}

func TestUnknownROSArgs(t *testing.T) {
	for _, tc := range []struct {
		argv    []string
		unknown []string
	}{
		{[]string{"--ros-args", "--custom-ros-arg"}, []string{"--custom-ros-arg"}},
		{[]string{"--ros-args", "__node:=node_name"}, []string{"__node:=node_name"}},
		{[]string{"--ros-args", "old_name:__node:=node_name"}, []string{"old_name:__node:=node_name"}},
		{[]string{"--ros-args", "/foo/bar:=bar"}, []string{"/foo/bar:=bar"}},
		{[]string{"--ros-args", "foo:=/bar"}, []string{"foo:=/bar"}},
		{[]string{"--ros-args", "file_name.yaml"}, []string{"file_name.yaml"}},
		{[]string{"--ros-args", "--log", "foo"}, []string{"--log", "foo"}},
		{[]string{"--ros-args", "--loglevel", "foo"}, []string{"--loglevel", "foo"}},
		{[]string{"--ros-args", "--logfile-name", "filename"}, []string{"--logfile-name", "filename"}},
		{[]string{"--ros-args", "stdout-logs"}, []string{"stdout-logs"}},
		{[]string{"--ros-args", "--enable-foo-logs"}, []string{"--enable-foo-logs"}},
		{[]string{"--ros-args", "-r", "a:=b", "random:=arg", "--", "x", "--ros-args", "--team", "7"},
			[]string{"random:=arg", "--team", "7"}},
	} {
		_, _, err := Parse(tc.argv)
		var ue *UnknownArgsError
		if !errors.As(err, &ue) || !errors.Is(err, ErrUnknownArg) {
			t.Errorf("Parse(%q) err = %v, want UnknownArgsError", tc.argv, err)
			continue
		}
		if !reflect.DeepEqual(ue.Args, tc.unknown) {
			t.Errorf("Parse(%q) unknown = %q, want %q", tc.argv, ue.Args, tc.unknown)
		}
		for _, u := range tc.unknown {
			if !strings.Contains(err.Error(), `"`+u+`"`) {
				t.Errorf("Parse(%q) error %q does not name %q", tc.argv, err, u)
			}
		}
	}
}

func TestInvalidROSArgs(t *testing.T) {
	for _, argv := range [][]string{
		{"-r"}, {"--remap"}, {"-r", ":"}, {"-r", "1"}, {"-r", "~"}, {"-r", ":="}, {"-r", "foo:="},
		{"-r", ":=bar"}, {"-r", "::="}, {"-r", "1:="}, {"-r", "~:="}, {"-r", "__node:="},
		{"-r", "__node:=/foo/bar"}, {"-r", "__ns:="}, {"-r", "__ns:=foo"}, {"-r", ":__node:=nodename"},
		{"-r", "~:__node:=nodename"}, {"-r", "}foo:=/bar"}, {"-r", "f oo:=/bar"}, {"-r", "foo:=/b ar"},
		{"-r", "f{oo:=/bar"}, {"-r", "foo:=/b}ar"}, {"-r", "rostopic://:=rosservice"},
		{"-r", "rostopic::=rosservice"}, {"-r", "foo/*:=bar"}, {"-r", "**:=bar"}, {"-r", `foo:=\1`},
		{"-r", "__ns:=/foo//bar"}, {"-r", "__node:=a:=b"}, {"-r", "foo:=bar/"}, {"-r", "foo/:=bar"},
		{"-p"}, {"-p", ":="}, {"-p", "foo:="}, {"-p", ":=bar"}, {"-p", ":"}, {"-p", "1"}, {"-p", "~"},
		{"-p", "::="}, {"-p", "1:="}, {"-p", "~:="}, {"-p", "__node:="}, {"-p", "__node:=/foo/bar"},
		{"-p", "__ns:=foo"}, {"-p", ":__node:=nodename"}, {"-p", "~:__node:=nodename"},
		{"-p", "}foo:=/bar"}, {"--param", "}foo:=/bar"}, {"-p", "f oo:=/bar"}, {"--param", "f oo:=/bar"},
		{"-p", "foo"}, {"-p", "a*:=1"}, {"-p", "a..b:=1"},
		{"-e"}, {"--enclave"}, {"--params-file"}, {"--params-file", ""}, {"--log-config-file"}, {"--log-file-name"},
		{"--log-level"}, {"--log-level", "foo"}, {"--log-level", "rcl:=foo"}, {"--log-level", ":=debug"},
		{"--log-level", "rcl:=debug:=info"}, {"--log-level", "rcl:="},
	} {
		full := append([]string{"--ros-args"}, argv...)
		_, _, err := Parse(full)
		var ae *ArgError
		if !errors.As(err, &ae) || !errors.Is(err, ErrInvalidArg) {
			t.Errorf("Parse(%q) err = %v, want ArgError", full, err)
			continue
		}
		if ae.Flag != argv[0] || !strings.Contains(err.Error(), argv[0]) {
			t.Errorf("Parse(%q) error %q does not name flag %s", full, err, argv[0])
		}
		if len(argv) > 1 && !strings.Contains(err.Error(), strconv.Quote(argv[1])) {
			t.Errorf("Parse(%q) error %q does not quote the value", full, err)
		}
	}
}

func TestArgErrorMessages(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want string
	}{
		{[]string{"--ros-args", "-r"}, `rosargs: -r at the end of the arguments: needs a remap rule from:=to`},
		{[]string{"--ros-args", "-r", "__ns:=robot1"}, `rosargs: -r "__ns:=robot1": expected an absolute namespace starting with '/' at offset 6, found "robot1"`},
		{[]string{"--ros-args", "-r", "__node:=/x"}, `rosargs: -r "__node:=/x": expected a node name (letters, digits and '_', not starting with a digit) at offset 8, found "/"`},
		{[]string{"--ros-args", "-r", "foo:=bar-baz"}, `rosargs: -r "foo:=bar-baz": expected '/' or end of rule at offset 8, found invalid character "-"`},
		{[]string{"--ros-args", "-r", "a/*:=b"}, `rosargs: -r "a/*:=b": wildcard '*' at offset 2 is not supported in remap rules`},
		{[]string{"--ros-args", "-p", "team_id"}, `rosargs: -p "team_id": expected '.' or ':=' at offset 7, found end of rule`},
		{[]string{"--ros-args", "-p", "team_id:="}, `rosargs: -p "team_id:=": no value after ':='`},
		{[]string{"--ros-args", "--log-level", "verbose"}, `rosargs: --log-level "verbose": unknown log level "verbose" (want debug, info, warn, error, fatal or unset)`},
		{[]string{"--ros-args", "--team", "7"}, `rosargs: unknown ROS arguments "--team", "7" after --ros-args (end the ROS section with "--" to pass arguments to the program)`},
		{[]string{"--ros-args", "x"}, `rosargs: unknown ROS argument "x" after --ros-args (end the ROS section with "--" to pass arguments to the program)`},
	} {
		_, _, err := Parse(tc.argv)
		if err == nil || err.Error() != tc.want {
			t.Errorf("Parse(%q) error\n got %v\nwant %s", tc.argv, err, tc.want)
		}
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name string
		argv []string
		rest []string
		want Args
	}{
		{
			name: "no ROS args",
			argv: []string{"--team", "7", "-v"},
			rest: []string{"--team", "7", "-v"},
		},
		{
			name: "empty sections",
			argv: []string{"--ros-args", "--", "--ros-args"},
		},
		{
			// launch_ros Node(executable=…, name='dnetwork', namespace='robot1',
			// arguments=['--team', '7'], parameters=[{…}, {'gc_port': 3838}],
			// remappings=[('team_status', '/team/status')]).
			name: "ros2 launch",
			argv: []string{"--team", "7", "--ros-args", "-r", "__node:=dnetwork", "-r", "__ns:=/robot1",
				"--params-file", "/tmp/launch_params_k3x1", "-p", "gc_port:=3838\n...\n",
				"-r", "team_status:=/team/status"},
			rest: []string{"--team", "7"},
			want: Args{
				Remaps: []Remap{
					{Kind: RemapNodeName, Replacement: "dnetwork"},
					{Kind: RemapNamespace, Replacement: "/robot1"},
					{Kind: RemapTopic | RemapService, Match: "team_status", Replacement: "/team/status"},
				},
				Params: []ParamArg{
					{File: "/tmp/launch_params_k3x1", Arg: "--params-file /tmp/launch_params_k3x1"},
					{Node: "/**", Name: "gc_port", Value: "3838\n...\n", Arg: "-p gc_port:=3838\n...\n"},
				},
			},
		},
		{
			// ros_arguments=[…] in the launch file give a first section,
			// then launch_ros opens its own.
			name: "ros2 launch with ros_arguments",
			argv: []string{"--ros-args", "--log-level", "robot1.dnetwork:=debug", "-e", "/", "--ros-args",
				"-r", "__node:=dnetwork", "--params-file", "/a.yaml", "--params-file", "/b.yaml"},
			want: Args{
				LoggerLevels: []LoggerLevel{{Logger: "robot1.dnetwork", Level: LogDebug}},
				Enclave:      "/",
				Remaps:       []Remap{{Kind: RemapNodeName, Replacement: "dnetwork"}},
				Params: []ParamArg{
					{File: "/a.yaml", Arg: "--params-file /a.yaml"},
					{File: "/b.yaml", Arg: "--params-file /b.yaml"},
				},
			},
		},
		{
			// rcl test_remove_ros_args.
			name: "sections anywhere",
			argv: []string{"-d", "--ros-args", "-r", "__ns:=/foo/bar", "-r", "__ns:=/fiz/buz", "--",
				"--foo=bar", "--baz", "--ros-args", "--ros-args", "-p", "bar:=baz", "--", "--", "arg"},
			rest: []string{"-d", "--foo=bar", "--baz", "--", "arg"},
			want: Args{
				Remaps: []Remap{{Kind: RemapNamespace, Replacement: "/foo/bar"}, {Kind: RemapNamespace, Replacement: "/fiz/buz"}},
				Params: []ParamArg{{Node: "/**", Name: "bar", Value: "baz", Arg: "-p bar:=baz"}},
			},
		},
		{
			name: "deprecated remap outside a section",
			argv: []string{"chatter:=/talk", "--mode=x", "a:=b:=c"},
			rest: []string{"--mode=x", "a:=b:=c"},
			want: Args{
				Remaps:           []Remap{{Kind: RemapTopic | RemapService, Match: "chatter", Replacement: "/talk"}},
				DeprecatedRemaps: []string{"chatter:=/talk"},
			},
		},
		{
			name: "all remap forms",
			argv: []string{"--ros-args", "-r", "dnetwork:__node:=dn2", "--remap", "dn2:__ns:=/r2/", "-r", "__name:=n",
				"-r", "rostopic://~/status:=status2", "-r", "rosservice:///a/b:=c", "-r", "rostopic:=x"},
			want: Args{Remaps: []Remap{
				{Node: "dnetwork", Kind: RemapNodeName, Replacement: "dn2"},
				{Node: "dn2", Kind: RemapNamespace, Replacement: "/r2/"},
				{Kind: RemapNodeName, Replacement: "n"},
				{Kind: RemapTopic, Match: "~/status", Replacement: "status2"},
				{Kind: RemapService, Match: "/a/b", Replacement: "c"},
				{Kind: RemapTopic | RemapService, Match: "rostopic", Replacement: "x"},
			}},
		},
		{
			name: "param rules",
			argv: []string{"--ros-args", "-p", "dnetwork:net.port:=3838", "--param", "peers:=[a, b]",
				"-p", "x/y.z:=a:=b", "-p", "some_node:int_param:=4"},
			want: Args{Params: []ParamArg{
				{Node: "dnetwork", Name: "net.port", Value: "3838", Arg: "-p dnetwork:net.port:=3838"},
				{Node: "/**", Name: "peers", Value: "[a, b]", Arg: "--param peers:=[a, b]"},
				{Node: "/**", Name: "x/y.z", Value: "a:=b", Arg: "-p x/y.z:=a:=b"},
				{Node: "some_node", Name: "int_param", Value: "4", Arg: "-p some_node:int_param:=4"},
			}},
		},
		{
			name: "logging flags, last wins",
			argv: []string{"--ros-args", "--log-level", "info", "--log-level", "WARN", "--log-level", "a.b:=debug",
				"--log-level", "c:=error", "--log-level", "a.b:=fatal", "--disable-stdout-logs", "--disable-rosout-logs",
				"--enable-rosout-logs", "--disable-external-lib-logs", "--log-config-file", "log.conf",
				"--log-file-name", "dn", "-e", "/a", "--enclave", "/b"},
			want: Args{
				LogLevel:               LogWarn,
				LoggerLevels:           []LoggerLevel{{"a.b", LogFatal}, {"c", LogError}},
				DisableStdoutLogs:      true,
				DisableExternalLibLogs: true,
				LogConfigFile:          "log.conf",
				LogFileName:            "dn",
				Enclave:                "/b",
			},
		},
		{
			name: "flag values are taken verbatim",
			argv: []string{"--ros-args", "--params-file", "--", "-e", "--ros-args", "--", "--x"},
			rest: []string{"--x"},
			want: Args{Params: []ParamArg{{File: "--", Arg: "--params-file --"}}, Enclave: "--ros-args"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, rest, err := Parse(tc.argv)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(rest, tc.rest) {
				t.Errorf("rest = %q, want %q", rest, tc.rest)
			}
			if !reflect.DeepEqual(*a, tc.want) {
				t.Errorf("args =\n%+v\nwant\n%+v", *a, tc.want)
			}
		})
	}
}

func TestParamFiles(t *testing.T) {
	a, _, err := Parse([]string{"--ros-args", "--params-file", "a.yaml", "-p", "x:=1", "--params-file", "b.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	if got := a.ParamFiles(); !reflect.DeepEqual(got, []string{"a.yaml", "b.yaml"}) {
		t.Errorf("ParamFiles = %q", got)
	}
}

func TestLevelFor(t *testing.T) {
	a, _, err := Parse([]string{"--ros-args", "--log-level", "warn", "--log-level", "robot1:=debug",
		"--log-level", "robot1.dnetwork.team:=error", "--log-level", "robot1.x:=unset"})
	if err != nil {
		t.Fatal(err)
	}
	for logger, want := range map[string]LogLevel{
		"robot1":                   LogDebug,
		"robot1.dnetwork":          LogDebug,
		"robot1.dnetwork.team":     LogError,
		"robot1.dnetwork.team.sub": LogError,
		"robot1.x":                 LogDebug,
		"robot2":                   LogWarn,
		"":                         LogWarn,
	} {
		if got := a.LevelFor(logger); got != want {
			t.Errorf("LevelFor(%q) = %v, want %v", logger, got, want)
		}
	}
}

func TestRemapString(t *testing.T) {
	for _, rule := range []string{
		"__node:=a", "n:__node:=a", "__ns:=/x/y", "n:__ns:=/", "a:=b", "n:~/a:=/b/c",
		"rostopic://a:=b", "rosservice://n:=m",
	} {
		r, err := parseRemap(rule)
		if err != nil {
			t.Fatalf("%s: %v", rule, err)
		}
		if got := r.String(); got != rule {
			t.Errorf("Remap(%q).String() = %q", rule, got)
		}
	}
	r, _ := parseRemap("__name:=a")
	if r.String() != "__node:=a" {
		t.Errorf("__name:=a prints as %q", r)
	}
}
