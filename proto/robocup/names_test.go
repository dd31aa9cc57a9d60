package robocup

import (
	"os"
	"reflect"
	"regexp"
	"strconv"
	"testing"
)

// TestNamesMatchProto: the enum names are those of the teams' own .proto files, by value.
func TestNamesMatchProto(t *testing.T) {
	enums := map[string][]string{}
	for _, f := range []string{"testdata/bitbots/robocup_extension.proto", "testdata/nubots/Purposes.proto"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range regexp.MustCompile(`(?s)enum (\w+) \{(.*?)\}`).FindAllStringSubmatch(string(b), -1) {
			var ns []string
			for _, v := range regexp.MustCompile(`(\w+)\s*=\s*(\d+);`).FindAllStringSubmatch(e[2], -1) {
				n, _ := strconv.Atoi(v[2])
				if n != len(ns) {
					t.Fatalf("%s: enum %s: %s = %d out of order", f, e[1], v[1], n)
				}
				ns = append(ns, v[1])
			}
			enums[e[1]] = ns
		}
	}
	for name, got := range map[string][]string{"Role": RoleNames(), "Action": ActionNames(),
		"OffensiveSide": OffensiveSideNames(), "SoccerPosition": PurposeNames()} {
		if !reflect.DeepEqual(got, enums[name]) {
			t.Errorf("%s: %q, the .proto has %q", name, got, enums[name])
		}
	}
	if got := []uint32{RoleGoalie, ActionPassive, PurposeStriker}; got[0] != 6 || got[1] != 8 || got[2] != 1 {
		t.Errorf("constants %v", got)
	}
}
