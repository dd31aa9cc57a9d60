package node

import (
	"errors"
	"net/netip"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/node/team"
	"github.com/robocup-dnetwork/dnetwork/ros"
	"github.com/robocup-dnetwork/dnetwork/ros/params"
	"github.com/robocup-dnetwork/dnetwork/ros/rosargs"
	tswarm "github.com/robocup-dnetwork/dnetwork/transport/swarm"
)

// load runs the command-line path: ROS arguments, parameter files and rules, name,
// declarations.
func load(t *testing.T, args ...string) (*Startup, error) {
	t.Helper()
	a, rest, err := rosargs.Parse(append([]string{"--ros-args"}, args...))
	if err != nil || len(rest) > 0 {
		t.Fatalf("ros args %q: %v (rest %q)", args, err, rest)
	}
	return Load(a)
}

func mustLoad(t *testing.T, args ...string) *Startup {
	t.Helper()
	st, err := load(t, args...)
	if err != nil {
		t.Fatalf("load %q: %v", args, err)
	}
	return st
}

func TestParametersTable(t *testing.T) {
	ps := Parameters()
	if len(ps) < 60 {
		t.Fatalf("only %d parameters", len(ps))
	}
	seen := map[string]bool{}
	for _, p := range ps {
		if seen[p.Name] {
			t.Errorf("%s declared twice", p.Name)
		}
		seen[p.Name] = true
		if len(p.Description) < 10 {
			t.Errorf("%s: description %q too short", p.Name, p.Description)
		}
		if p.Type == params.TypeNotSet {
			t.Errorf("%s: no type", p.Name)
		}
		if p.Default == "" && p.Constraints != "1..20, required" && p.Constraints != "1..254, required" {
			t.Errorf("%s: no default and not required (%q)", p.Name, p.Constraints)
		}
	}
	for _, name := range []string{"robot_id", "team_number", "league", "interface",
		"team.format", "team.port", "team.auth_key", "team.peers", "team.rate.ball_handling",
		"team.budget_reserve", "team.teammate_timeout", "team.monitor_address", "team.monitor_interval",
		"team.tick_rate", "gamecontroller.port", "gamecontroller.return_port", "gamecontroller.allow_from",
		"gamecontroller.timeout", "gamecontroller.publish_rate", "gamecontroller.return_rate",
		"worldinfo.enabled", "worldinfo.group", "worldinfo.port", "worldinfo.key", "worldinfo.rate",
		"worldinfo.ttl", "worldinfo.loopback", "swarm.enabled", "swarm.name", "swarm.hosts", "swarm.mode",
		"swarm.ports", "sim3d.enabled", "sim3d.key", "sim3d.cycle", "diagnostics.period"} {
		if !seen[name] {
			t.Errorf("parameter %s missing", name)
		}
	}
}

// TestDefaults checks that the declared defaults are DefaultConfig: with only the two
// required parameters given, Declare returns DefaultConfig with them set.
func TestDefaults(t *testing.T) {
	st := mustLoad(t, "-p", "robot_id:=4", "-p", "team_number:=17")
	want := DefaultConfig()
	want.RobotID, want.TeamNumber = 4, 17
	got := st.Config
	// Empty and nil lists are the same parameter value.
	if len(got.Team.Peers) == 0 && len(got.GameController.AllowFrom) == 0 && len(got.Swarm.Hosts) == 0 && len(got.Swarm.MulticastPorts) == 0 {
		got.Team.Peers, got.GameController.AllowFrom, got.Swarm.Hosts, got.Swarm.MulticastPorts = nil, nil, nil, nil
		got.Team.AuthKey = want.Team.AuthKey
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("defaults differ:\n got %+v\nwant %+v", got, want)
	}
	if st.Name != "dnetwork_4" || st.Namespace != "/" {
		t.Errorf("name %s in %s, want dnetwork_4 in /", st.Name, st.Namespace)
	}
	for _, name := range st.Store.Names() {
		d, err := st.Store.Describe([]string{name})
		if err != nil {
			t.Fatal(err)
		}
		if name != params.UseSimTime && (!d[0].ReadOnly || d[0].Description == "") {
			t.Errorf("%s: read-only %v, description %q", name, d[0].ReadOnly, d[0].Description)
		}
	}
	r := st.Config.Resolve()
	if r.Team.Team != 17 || r.Team.Player != 4 || r.GameController.Team != 17 || r.GameController.Player != 4 ||
		r.WorldInfo.PlayerNumber != 4 || r.WorldInfo.Interface != "auto" || r.Swarm.Name != "robot4" ||
		r.Swarm.Interface != "auto" || r.Sim3D.Player != 4 || r.Diagnostics.Prefix != "dnetwork_4" ||
		r.Diagnostics.HardwareID != "robot4" || r.TopicPrefix() != "/dnetwork_4" {
		t.Errorf("resolved identity wrong: %+v", r)
	}
}

func TestDeclareValues(t *testing.T) {
	st := mustLoad(t,
		"-p", "robot_id:=3", "-p", "team_number:=42", "-p", "league:=spl", "-p", "interface:=10.0.1.0/24",
		"-p", "inputs.reliable:=true",
		"-p", "team.format:=dnet", "-p", "team.port:=57335", "-p", "team.auth_key:=secret-of-team-42",
		"-p", "team.peers:=[127.0.0.1:10101, 127.0.0.2:10102]", "-p", "team.monitor_address:=10.0.1.9:5000",
		"-p", "team.monitor_interval:=0.5", "-p", "team.tick_rate:=50.0", "-p", "team.rate.ball_handling:=0.05",
		"-p", "team.rate.alone:=2.0", "-p", "team.budget_reserve:=40", "-p", "team.teammate_timeout:=4.5",
		"-p", "team.max_age:=0.25",
		"-p", "gamecontroller.port:=3840", "-p", "gamecontroller.return_port:=3941",
		"-p", "gamecontroller.allow_from:=[10.0.1.2, 10.0.2.0/24]", "-p", "gamecontroller.timeout:=2.0",
		"-p", "gamecontroller.publish_rate:=4.0", "-p", "gamecontroller.return_rate:=0.5",
		"-p", "gamecontroller.return_version:=2",
		"-p", "worldinfo.enabled:=true", "-p", "worldinfo.group:=239.1.2.3", "-p", "worldinfo.port:=2900",
		"-p", "worldinfo.rate:=4.0", "-p", "worldinfo.ttl:=-1", "-p", "worldinfo.loopback:=true",
		"-p", "worldinfo.key:=a-key-of-enough-length",
		"-p", "swarm.enabled:=true", "-p", "swarm.mode:=ports", "-p", "swarm.hosts:=[robot3=127.0.0.1:4103, robot4=127.0.0.1:4104]",
		"-p", "swarm.ports:=[4100, 4200]",
		"-p", "sim3d.enabled:=true", "-p", "sim3d.key:=zju", "-p", "sim3d.cycle:=0.04",
		"-p", "diagnostics.period:=0.25",
	)
	c := st.Config
	check := func(name string, got, want any) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	check("RobotID", c.RobotID, 3)
	check("TeamNumber", c.TeamNumber, 42)
	check("League", c.League, team.LeagueSPL)
	check("Interface", c.Interface, "10.0.1.0/24")
	check("InputsReliable", c.InputsReliable, true)
	check("Team.Port", c.Team.Port, uint16(57335))
	check("Team.AuthKey", string(c.Team.AuthKey), "secret-of-team-42")
	check("Team.Peers", c.Team.Peers, []netip.AddrPort{netip.MustParseAddrPort("127.0.0.1:10101"), netip.MustParseAddrPort("127.0.0.2:10102")})
	check("Team.Monitor", c.Team.Monitor, netip.MustParseAddrPort("10.0.1.9:5000"))
	check("Team.MonitorInterval", c.Team.MonitorInterval, 500*time.Millisecond)
	check("Team.Tick", c.Team.Tick, 20*time.Millisecond)
	check("Team.Rate.BallHandling", c.Team.Rate.BallHandling, 50*time.Millisecond)
	check("Team.Rate.Alone", c.Team.Rate.Alone, 2*time.Second)
	check("Team.Reserve", c.Team.Reserve, 40)
	check("Team.TeammateTimeout", c.Team.TeammateTimeout, 4500*time.Millisecond)
	check("Team.MaxAge", c.Team.MaxAge, 250*time.Millisecond)
	check("GameControllerPort", c.GameControllerPort, uint16(3840))
	check("GameController.ReturnPort", c.GameController.ReturnPort, uint16(3941))
	check("GameController.AllowFrom", c.GameController.AllowFrom, []netip.Prefix{netip.MustParsePrefix("10.0.1.2/32"), netip.MustParsePrefix("10.0.2.0/24")})
	check("GameController.Timeout", c.GameController.Timeout, 2*time.Second)
	check("GameController.PublishRate", c.GameController.PublishRate, 4.0)
	check("GameController.ReturnRate", c.GameController.ReturnRate, 0.5)
	check("GameController.ReturnVersion", c.GameController.ReturnVersion, uint8(2))
	check("WorldInfo.Enabled", c.WorldInfo.Enabled, true)
	check("WorldInfo.Group", c.WorldInfo.Group, netip.MustParseAddrPort("239.1.2.3:2900"))
	check("WorldInfo.Interval", c.WorldInfo.Interval, 250*time.Millisecond)
	check("WorldInfo.TTL", c.WorldInfo.TTL, -1)
	check("WorldInfo.Loop", c.WorldInfo.Loop, true)
	check("WorldInfo.Key", c.WorldInfo.Key, "a-key-of-enough-length")
	check("Swarm.Enabled", c.Swarm.Enabled, true)
	check("Swarm.Mode", c.Swarm.Mode, tswarm.ModePorts)
	check("Swarm.Hosts", c.Swarm.Hosts, []string{"robot3=127.0.0.1:4103", "robot4=127.0.0.1:4104"})
	check("Swarm.Ports", c.Swarm.Ports, []uint16{4100, 4200})
	check("Sim3DEnabled", c.Sim3DEnabled, true)
	check("Sim3D.Key", c.Sim3D.Key, "zju")
	check("Sim3D.Cycle", c.Sim3D.Cycle, 40*time.Millisecond)
	check("Diagnostics.Period", c.Diagnostics.Period, 250*time.Millisecond)

	r := c.Resolve()
	check("resolved Team.League", r.Team.League, team.LeagueSPL)
	check("resolved Swarm.Interface", r.Swarm.Interface, "") // ports mode: the component's own default (lo)
	check("resolved WorldInfo.Interface", r.WorldInfo.Interface, "10.0.1.0/24")
	check("reliable input QoS", r.inputQoS(), ros.QoSDefault)
	r.InputsReliable = false
	check("best-effort input QoS", r.inputQoS().Reliability, ros.BestEffort)
}

// TestDeclareErrors checks that every bad value is reported at once, naming the
// parameter and where the value came from.
func TestDeclareErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string // substrings of the error, in any order
	}{
		{"required missing", []string{"-p", "robot_id:=2"},
			[]string{"team_number", "required"}},
		{"out of range", []string{"-p", "robot_id:=2", "-p", "team_number:=255", "-p", "gamecontroller.return_rate:=5.0"},
			[]string{"-p team_number:=255", "range", "-p gamecontroller.return_rate:=5.0"}},
		{"wrong type", []string{"-p", "robot_id:=2", "-p", "team_number:=7", "-p", "team.port:=high"},
			[]string{"-p team.port:=high", "integer"}},
		{"bad league and format", []string{"-p", "robot_id:=2", "-p", "team_number:=7", "-p", "league:=msl", "-p", "team.format:=json"},
			[]string{`-p league:=msl: parameter 'league'`, "msl", `-p team.format:=json`, "json"}},
		{"bad addresses", []string{"-p", "robot_id:=2", "-p", "team_number:=7", "-p", "team.peers:=[127.0.0.1, 10.0.0.1:0]",
			"-p", "gamecontroller.allow_from:=[10.0.0.300]", "-p", "team.monitor_address:=nowhere"},
			[]string{`"127.0.0.1" is not an address:port`, `"10.0.0.1:0" has port 0`, `"10.0.0.300" is neither`, `"nowhere"`}},
		{"bad interface", []string{"-p", "robot_id:=2", "-p", "team_number:=7", "-p", "interface:=10.0.0.0/99"},
			[]string{"-p interface:=10.0.0.0/99", "interface selector"}},
		{"zju in the spl", []string{"-p", "robot_id:=2", "-p", "team_number:=7", "-p", "league:=spl", "-p", "team.format:=zju"},
			[]string{"zju", "node: bad config"}},
		{"key with robocup", []string{"-p", "robot_id:=2", "-p", "team_number:=7", "-p", "team.format:=robocup", "-p", "team.auth_key:=secret"},
			[]string{"format robocup has no room for an authentication tag", "node: bad config"}},
		{"bad robocup extension", []string{"-p", "robot_id:=2", "-p", "team_number:=7", "-p", "team.robocup_extension:=rhoban"},
			[]string{"-p team.robocup_extension:=rhoban", "want none, bitbots or nubots"}},
		{"port clash", []string{"-p", "robot_id:=2", "-p", "team_number:=7", "-p", "team.port:=3838"},
			[]string{"team port 3838 is the GameController port"}},
		{"swarm on the team port", []string{"-p", "robot_id:=2", "-p", "team_number:=7", "-p", "swarm.enabled:=true", "-p", "swarm.udp_port:=10007"},
			[]string{"swarm port (swarm.udp_port) 10007 is the team port"}},
		{"world info on the GameController port", []string{"-p", "robot_id:=2", "-p", "team_number:=7", "-p", "worldinfo.enabled:=true", "-p", "worldinfo.port:=3838"},
			[]string{"world info port (worldinfo.port) 3838 is the GameController port"}},
		{"booster discovery on the GameController port", []string{"-p", "robot_id:=2", "-p", "team_number:=7", "-p", "team.format:=booster", "-p", "gamecontroller.port:=20007"},
			[]string{"Booster discovery port 20007 is the GameController port"}},
		{"swarm ports mode on the team port", []string{"-p", "robot_id:=2", "-p", "team_number:=7", "-p", "interface:=lo",
			"-p", "swarm.enabled:=true", "-p", "swarm.mode:=ports", "-p", "swarm.hosts:=[robot2=127.0.0.1:10007, robot3=127.0.0.1:4103]"},
			[]string{"swarm port (this robot's entry of swarm.hosts) 10007 is the team port"}},
		{"world info on a named interface, GameController on auto", []string{"-p", "robot_id:=2", "-p", "team_number:=7",
			"-p", "worldinfo.enabled:=true", "-p", "worldinfo.interface:=wlan0", "-p", "worldinfo.port:=3838"},
			[]string{"world info port (worldinfo.port) 3838 is the GameController port"}},
		{"swarm on a CIDR, team on auto", []string{"-p", "robot_id:=2", "-p", "team_number:=7",
			"-p", "swarm.enabled:=true", "-p", "swarm.interface:=10.0.1.0/24", "-p", "swarm.udp_port:=10007"},
			[]string{"swarm port (swarm.udp_port) 10007 is the team port"}},
		{"monitor at the limited broadcast", []string{"-p", "robot_id:=2", "-p", "team_number:=7", "-p", "team.monitor_address:=255.255.255.255:5000"},
			[]string{"parameter 'team.monitor_address'", "255.255.255.255 is the broadcast address", "illegal communication"}},
		{"monitor at the interface's broadcast", []string{"-p", "robot_id:=2", "-p", "team_number:=7", "-p", "interface:=10.0.1.0/24",
			"-p", "team.monitor_address:=10.0.1.255:5000"},
			[]string{"parameter 'team.monitor_address'", "10.0.1.255 is the broadcast address of interface 10.0.1.0/24"}},
		{"monitor on the team port", []string{"-p", "robot_id:=2", "-p", "team_number:=7", "-p", "team.monitor_address:=10.0.1.9:10007"},
			[]string{"parameter 'team.monitor_address'", "port 10007 is a team port of team 7"}},
		{"monitor on a moved team port", []string{"-p", "robot_id:=2", "-p", "team_number:=7", "-p", "team.port:=57335",
			"-p", "team.monitor_address:=10.0.1.9:57335"},
			[]string{"parameter 'team.monitor_address'", "port 57335 is a team port of team 7"}},
		{"monitor on the GameController's team port", []string{"-p", "robot_id:=2", "-p", "team_number:=7", "-p", "team.port:=57335",
			"-p", "team.monitor_address:=10.0.1.9:10007"},
			[]string{"parameter 'team.monitor_address'", "port 10007 is a team port of team 7"}},
		{"near distance 0", []string{"-p", "robot_id:=2", "-p", "team_number:=7", "-p", "team.rate.near_distance:=0.0"},
			[]string{"-p team.rate.near_distance:=0.0", "not in the range [0.01, 20.0]"}},
		{"near beyond mid", []string{"-p", "robot_id:=2", "-p", "team_number:=7", "-p", "team.rate.near_distance:=5.0"},
			[]string{"-p team.rate.near_distance:=5.0", "beyond team.rate.mid_distance 3"}},
		{"flush_after 0", []string{"-p", "robot_id:=2", "-p", "team_number:=7", "-p", "worldinfo.enabled:=true", "-p", "worldinfo.flush_after:=0.0"},
			[]string{"-p worldinfo.flush_after:=0.0", "parameter 'worldinfo.flush_after'", "negative value never forgets"}},
		{"ttl 0", []string{"-p", "robot_id:=2", "-p", "team_number:=7", "-p", "worldinfo.enabled:=true", "-p", "worldinfo.ttl:=0"},
			[]string{"-p worldinfo.ttl:=0", "parameter 'worldinfo.ttl'", "-1 keeps"}},
		{"short world info key", []string{"-p", "robot_id:=2", "-p", "team_number:=7", "-p", "worldinfo.enabled:=true", "-p", "worldinfo.key:=short"},
			[]string{"worldinfo.key has 5 bytes", "at least 15"}},
		{"bad return version", []string{"-p", "robot_id:=2", "-p", "team_number:=7", "-p", "gamecontroller.return_version:=1"},
			[]string{"gamecontroller.return_version", "1 is not one of 0, 2, 3, 4"}},
		{"worldinfo group", []string{"-p", "robot_id:=2", "-p", "team_number:=7", "-p", "worldinfo.group:=10.0.0.1"},
			[]string{"worldinfo.group", "not an IPv4 multicast address"}},
		{"swarm hosts", []string{"-p", "robot_id:=2", "-p", "team_number:=7", "-p", "swarm.hosts:=[robot1]"},
			[]string{"swarm.hosts", "robot1"}},
		{"unknown", []string{"-p", "robot_id:=2", "-p", "team_number:=7", "-p", "team.formt:=dnet"},
			[]string{`-p team.formt:=dnet`, `unknown parameter "team.formt"`, `did you mean "team.format"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load(t, tt.args...)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not mention %q:\n%v", w, err)
				}
			}
		})
	}
}

func TestCheckOverridesFiles(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "p.yaml", `
/**:
  ros__parameters:
    team_number: 17
    colour: red
dnetwork_2:
  ros__parameters:
    robot_id: 2
    leage: spl
/**/dnetwork_2:
  ros__parameters:
    teem:
      port: 1
`)
	_, err := load(t, "--params-file", file)
	if err == nil {
		t.Fatal("no error")
	}
	for _, w := range []string{file + `: dnetwork_2.ros__parameters.leage`, `did you mean "league"`, `teem.port`} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error does not mention %q:\n%v", w, err)
		}
	}
	if strings.Contains(err.Error(), "colour") {
		t.Errorf("an unknown parameter under /** is an error:\n%v", err)
	}
	if !errors.Is(err, params.ErrNotDeclared) {
		t.Errorf("error does not match ErrNotDeclared: %v", err)
	}

	file = writeFile(t, dir, "q.yaml", `
/**:
  ros__parameters:
    team_number: 17
    colour: red
dnetwork_2:
  ros__parameters:
    robot_id: 2
`)
	st := mustLoad(t, "--params-file", file)
	if len(st.Warnings) != 1 || !strings.Contains(st.Warnings[0], `unknown parameter "colour" under "/**"`) {
		t.Errorf("warnings %q", st.Warnings)
	}
}

func TestResolveName(t *testing.T) {
	dir := t.TempDir()
	team := writeFile(t, dir, "team.yaml", `
/**:
  ros__parameters:
    team_number: 17
dnetwork_1:
  ros__parameters:
    robot_id: 1
dnetwork_2:
  ros__parameters:
    robot_id: 2
`)
	shared := writeFile(t, dir, "shared.yaml", `
/**:
  ros__parameters:
    team_number: 17
dnetwork_2:
  ros__parameters:
    team:
      port: 10102
`)
	tests := []struct {
		name     string
		args     []string
		wantName string
		wantNS   string
		wantErr  string
	}{
		{"from -p", []string{"-p", "robot_id:=7", "-p", "team_number:=3"}, "dnetwork_7", "/", ""},
		{"remapped", []string{"-r", "__node:=net", "-r", "__ns:=/robot5", "-p", "robot_id:=5", "-p", "team_number:=3"}, "net", "/robot5", ""},
		{"namespaced", []string{"-r", "__ns:=/team/", "-p", "robot_id:=5", "-p", "team_number:=3"}, "dnetwork_5", "/team", ""},
		{"section per robot, ambiguous", []string{"--params-file", team}, "", "", "robots 1, 2"},
		{"section per robot, remap picks", []string{"--params-file", team, "-r", "__node:=dnetwork_2"}, "dnetwork_2", "/", ""},
		{"shared file and -p", []string{"--params-file", shared, "-p", "robot_id:=2"}, "dnetwork_2", "/", ""},
		{"missing", []string{"-p", "team_number:=3"}, "", "", "robot_id is not set"},
		{"out of range", []string{"-p", "robot_id:=21", "-p", "team_number:=3"}, "", "", "-p robot_id:=21"},
		{"not a number", []string{"-p", "robot_id:=one", "-p", "team_number:=3"}, "", "", "-p robot_id:=one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, err := load(t, tt.args...)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one mentioning %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if st.Name != tt.wantName || st.Namespace != tt.wantNS {
				t.Errorf("node %s in %s, want %s in %s", st.Name, st.Namespace, tt.wantName, tt.wantNS)
			}
		})
	}
	// The shared file's section for dnetwork_2 applies to robot 2 only.
	st := mustLoad(t, "--params-file", shared, "-p", "robot_id:=2")
	if st.Config.Team.Port != 10102 {
		t.Errorf("robot 2 team port %d, want 10102", st.Config.Team.Port)
	}
	st = mustLoad(t, "--params-file", shared, "-p", "robot_id:=3")
	if st.Config.Team.Port != 0 {
		t.Errorf("robot 3 team port %d, want 0", st.Config.Team.Port)
	}
}

func TestValidate(t *testing.T) {
	c := DefaultConfig()
	err := c.Validate()
	if err == nil || !errors.Is(err, ErrConfig) {
		t.Fatalf("zero identity: %v", err)
	}
	for _, w := range []string{"robot_id 0", "team_number 0"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error does not mention %q: %v", w, err)
		}
	}
	c.RobotID, c.TeamNumber = 20, 254
	if err := c.Validate(); err != nil {
		t.Errorf("valid config: %v", err)
	}
	c.Sim3DEnabled = true // team size 11 < player 20
	if err := c.Validate(); err == nil {
		t.Error("sim3d with player 20 of 11 accepted")
	}
}

func TestParamInfoDefaults(t *testing.T) {
	byName := map[string]ParamInfo{}
	for _, p := range Parameters() {
		byName[p.Name] = p
	}
	for name, want := range map[string]string{
		"team.tick_rate":            "30.0",
		"team.rate.ball_handling":   "0.067",
		"gamecontroller.port":       "3838",
		"gamecontroller.allow_from": "[]",
		"worldinfo.group":           `"224.16.0.1"`,
		"swarm.ports":               "[4100]",
		"league":                    `"hsl"`,
		"robot_id":                  "",
	} {
		if got := byName[name].Default; got != want {
			t.Errorf("%s default %q, want %q", name, got, want)
		}
	}
	if got := byName["robot_id"].Constraints; got != "1..20, required" {
		t.Errorf("robot_id constraints %q", got)
	}
	if got := byName["gamecontroller.return_version"].Constraints; got != "0, 2, 3, 4" {
		t.Errorf("return_version constraints %q", got)
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	slices.Sort(names)
	if params.Closest("team.fromat", names) != "team.format" || params.Closest("colour", names) != "" {
		t.Error("closest")
	}
}

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestPortClashInterfaces: two sockets on one port clash when their interface selectors
// may choose one interface ("auto" never chooses loopback) and not otherwise; swarm's
// ports mode binds this robot's entry of swarm.hosts.
func TestPortClashInterfaces(t *testing.T) {
	for _, c := range []struct {
		a, b string
		may  bool
	}{
		{"auto", "auto", true}, {"", "auto", true}, {"wlan0", "wlan0", true}, {"any", "lo", true},
		{"auto", "wlan0", true}, {"10.0.1.0/24", "auto", true}, {"auto", "10.0.1.5", true},
		{"auto", "lo", false}, {"127.0.0.1", "auto", false}, {"auto", "127.0.0.0/8", false},
		{"wlan0", "eth0", false}, {"wlan0", "lo", false},
	} {
		if got := mayShareInterface(c.a, c.b); got != c.may {
			t.Errorf("mayShareInterface(%q, %q) = %v, want %v", c.a, c.b, got, c.may)
		}
	}

	cfg := DefaultConfig()
	cfg.RobotID, cfg.TeamNumber = 2, 7
	cfg.Swarm.Enabled, cfg.Swarm.Mode = true, tswarm.ModePorts
	cfg.Swarm.Hosts = []string{"robot2=127.0.0.1:10007", "robot3=127.0.0.1:4103"}
	// The team socket on auto, the swarm socket on lo: different interfaces.
	if err := cfg.Validate(); err != nil {
		t.Fatalf("team on auto, swarm on lo: %v", err)
	}
	cfg.Interface = "lo"
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "swarm port (this robot's entry of swarm.hosts) 10007 is the team port") {
		t.Fatalf("team and swarm on lo port 10007: %v", err)
	}
	cfg.Swarm.Hosts = []string{"robot2=127.0.0.1:4102", "robot3=127.0.0.1:10007"}
	if err := cfg.Validate(); err != nil {
		t.Fatalf("another robot's swarm port is not ours: %v", err)
	}
}
