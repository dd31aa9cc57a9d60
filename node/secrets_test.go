package node

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/node/worldinfo"
	"github.com/robocup-dnetwork/dnetwork/ros/params"
)

// shownValue is what the node's parameter services answer for name.
func shownValue(t *testing.T, st *Startup, name string) string {
	t.Helper()
	v, err := st.Store.GetString(name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return v
}

// TestSecretParams: keys reach the configuration, never the parameter store, from the
// parameter file or from a key file; every way to give a key wrongly is refused with
// the parameter and the reason.
func TestSecretParams(t *testing.T) {
	dir := t.TempDir()
	keyFile := func(name, text string, mode os.FileMode) string {
		p := writeFile(t, dir, name, text)
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	teamKey := keyFile("team.key", "team-secret\n", 0o600)
	wiKey := keyFile("worldinfo.key", "a-long-worldinfo-secret\r\n", 0o640)
	base := []string{"-p", "robot_id:=1", "-p", "team_number:=17"}

	// Inline keys: in the configuration, hidden in the store.
	st := mustLoad(t, append(base, "-p", "team.auth_key:=team-secret", "-p", "worldinfo.key:=a-long-worldinfo-secret")...)
	if string(st.Config.Team.AuthKey) != "team-secret" || st.Config.WorldInfo.Key != "a-long-worldinfo-secret" {
		t.Errorf("keys %q %q", st.Config.Team.AuthKey, st.Config.WorldInfo.Key)
	}
	for _, name := range []string{"team.auth_key", "worldinfo.key"} {
		if got := shownValue(t, st, name); got != params.Hidden {
			t.Errorf("%s shows %q", name, got)
		}
	}
	// Defaults: no team key (shown empty); world info's public Fawkes key, shown as it is.
	st = mustLoad(t, base...)
	if got := shownValue(t, st, "team.auth_key"); got != "" || len(st.Config.Team.AuthKey) != 0 {
		t.Errorf("no team key: shows %q, key %q", got, st.Config.Team.AuthKey)
	}
	if def := worldinfo.DefaultConfig().Key; shownValue(t, st, "worldinfo.key") != def || st.Config.WorldInfo.Key != def {
		t.Errorf("default world info key shows %q", shownValue(t, st, "worldinfo.key"))
	}
	// Key files: the key without its line break; the store shows the path only.
	st = mustLoad(t, append(base, "-p", "team.auth_key_file:="+teamKey, "-p", "worldinfo.key_file:="+wiKey)...)
	if string(st.Config.Team.AuthKey) != "team-secret" || st.Config.WorldInfo.Key != "a-long-worldinfo-secret" {
		t.Errorf("keys from files %q %q", st.Config.Team.AuthKey, st.Config.WorldInfo.Key)
	}
	if shownValue(t, st, "team.auth_key") != "" || shownValue(t, st, "team.auth_key_file") != teamKey {
		t.Errorf("key file: shows %q and %q", shownValue(t, st, "team.auth_key"), shownValue(t, st, "team.auth_key_file"))
	}
	// A dump of a node with a key file loads back: "<hidden>" next to the file is fine.
	st = mustLoad(t, append(base, "-p", "team.auth_key:="+params.Hidden, "-p", "team.auth_key_file:="+teamKey)...)
	if string(st.Config.Team.AuthKey) != "team-secret" {
		t.Errorf("hidden key with its file: %q", st.Config.Team.AuthKey)
	}

	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"dumped key", []string{"-p", "team.auth_key:=" + params.Hidden},
			`-p team.auth_key:=<hidden>: parameter 'team.auth_key': "<hidden>" stands for a key that ros2 param get and dump do not show (this looks like a dump); give the key itself, or the file that holds it in team.auth_key_file`},
		{"both", []string{"-p", "team.auth_key:=x", "-p", "team.auth_key_file:=" + teamKey},
			"-p team.auth_key:=x: parameter 'team.auth_key': give the key in team.auth_key or in team.auth_key_file, not in both"},
		{"readable by others", []string{"-p", "team.auth_key_file:=" + keyFile("open.key", "k\n", 0o644)},
			"-p team.auth_key_file:=" + filepath.Join(dir, "open.key") + ": parameter 'team.auth_key_file': " + filepath.Join(dir, "open.key") +
				" can be read or changed by other users (mode 0644); chmod 600 " + filepath.Join(dir, "open.key")},
		{"group writable", []string{"-p", "worldinfo.key_file:=" + keyFile("gw.key", "k\n", 0o660)}, "(mode 0660); chmod 600"},
		{"relative", []string{"-p", "team.auth_key_file:=team.key"}, `parameter 'team.auth_key_file': "team.key" is not an absolute path`},
		{"missing", []string{"-p", "team.auth_key_file:=" + filepath.Join(dir, "none.key")}, "cannot read the key: open " + filepath.Join(dir, "none.key") + ": no such file or directory"},
		{"directory", []string{"-p", "team.auth_key_file:=" + dir}, dir + " is not a regular file"},
		{"empty", []string{"-p", "team.auth_key_file:=" + keyFile("empty.key", "\n", 0o600)}, filepath.Join(dir, "empty.key") + " is empty"},
		{"two lines", []string{"-p", "team.auth_key_file:=" + keyFile("two.key", "a\nb\n", 0o600)}, "two.key holds more than one line; write the key on one line"},
		{"too big", []string{"-p", "team.auth_key_file:=" + keyFile("big.key", strings.Repeat("k", maxKeyFile+1), 0o600)},
			"big.key holds 4097 bytes; a key file holds one key of at most 4096 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := load(t, append(base, tc.args...)...)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error\n got %v\nwant it to contain %s", err, tc.want)
			}
			if strings.Contains(err.Error(), "team-secret") {
				t.Errorf("the error shows a key: %v", err)
			}
			if !strings.Contains(err.Error(), "parameter '") {
				t.Errorf("not a parameter error: %v", err)
			}
		})
	}
}

// TestSecretParamsListed: --list-params documents both ways to give a key and says that
// the value is not shown.
func TestSecretParamsListed(t *testing.T) {
	byName := map[string]ParamInfo{}
	for _, p := range Parameters() {
		byName[p.Name] = p
	}
	for _, name := range []string{"team.auth_key", "worldinfo.key"} {
		if p := byName[name]; !strings.Contains(p.Description, params.Hidden) {
			t.Errorf("%s: %q", name, p.Description)
		}
		if p, ok := byName[name+"_file"]; !ok || p.Default != `""` || p.Type != params.TypeString {
			t.Errorf("%s_file: %+v", name, p)
		}
	}
}

// TestParamDumpLoadsBack loads what "ros2 param dump /dnetwork_1" printed for a node
// started with params/robot1.yaml -p interface:=lo -p team.port:=25011 -p
// gamecontroller.port:=25012 (testdata/ros2_param_dump.yaml: Humble's ros2cli 0.18.11
// and Jazzy's 0.32.2 print it byte for byte alike): the node gets the same parameters,
// empty lists ([]) included. A dump of a node with an inline key holds <hidden> instead
// of the key and is refused with a message that says so.
func TestParamDumpLoadsBack(t *testing.T) {
	dump := filepath.Join("testdata", "ros2_param_dump.yaml")
	orig := mustLoad(t, "--params-file", filepath.Join(repoRoot, "params", "robot1.yaml"),
		"-p", "interface:=lo", "-p", "team.port:=25011", "-p", "gamecontroller.port:=25012")
	back := mustLoad(t, "--params-file", dump)
	if back.Name != orig.Name || len(back.Warnings) > 0 {
		t.Errorf("node %s, warnings %q", back.Name, back.Warnings)
	}
	if !reflect.DeepEqual(back.Config, orig.Config) {
		t.Errorf("config from the dump\n%+v\nwant\n%+v", back.Config, orig.Config)
	}
	for _, name := range orig.Store.Names() {
		a, _ := orig.Store.Get(name)
		b, err := back.Store.Get(name)
		if err != nil || !a.Equal(b) {
			t.Errorf("%s: %s from the dump, want %s (%v)", name, b, a, err)
		}
	}
	// What the dump of a node with team.auth_key:=... holds.
	text, err := os.ReadFile(dump)
	if err != nil {
		t.Fatal(err)
	}
	hidden := writeFile(t, t.TempDir(), "dump.yaml", strings.Replace(string(text), "auth_key: ''", "auth_key: <hidden>", 1))
	if _, err := load(t, "--params-file", hidden); err == nil || !strings.Contains(err.Error(),
		`dump.yaml: /dnetwork_1.ros__parameters.team.auth_key: parameter 'team.auth_key': "<hidden>" stands for a key`) {
		t.Errorf("dump with a hidden key: %v", err)
	}
}
