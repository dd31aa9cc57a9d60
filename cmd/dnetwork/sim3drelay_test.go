package main

import (
	"strings"
	"testing"
)

func TestSim3DRelayUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--robot", "1:0,0,0"}, "need --team"},
		{[]string{"--team", "DNA"}, "at least one --robot"},
		{[]string{"--team", "DNA", "--robot", "12:0,0,0"}, "uniform number \"12\", want 1..11"},
		{[]string{"--team", "DNA", "--robot", "1:0,0"}, "want X,Y,ROT"},
		{[]string{"--team", "DNA", "--robot", "1"}, "want UNUM:X,Y,ROT"},
		{[]string{"--team", "DNA", "--robot", "1:0,x,0"}, "invalid syntax"},
		{[]string{"--team", "DNA", "--robot", "1:0,0,0", "--robot", "1:1,1,1"}, "robot 1 given twice"},
		{[]string{"--team", "DNA", "--robot", "1:0,0,0", "extra"}, "no arguments"},
	} {
		code, _, stderr := runNodeCmd(t, append([]string{"sim3d-relay"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want exit %d with %q", tc.args, code, stderr, exitUsage, tc.want)
		}
	}
	var r relayRobots
	if err := r.Set("3:-2.5, 3,45"); err != nil || r.String() != "3:-2.5,3,45" {
		t.Errorf("robot value %v: %v", r, err)
	}
}
