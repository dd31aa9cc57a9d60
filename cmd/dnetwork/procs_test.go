package main

import "testing"

func TestRunsNodes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"node", "--ros-args", "-p", "robot_id:=2"}, true},
		{[]string{"--ros-args", "-p", "robot_id:=2"}, true},
		{[]string{"sim", "--robots", "6"}, true},
		{[]string{"monitor"}, false},
		{[]string{"decode", "x.pcap"}, false},
		{nil, false},
	} {
		if got := runsNodes(tc.args); got != tc.want {
			t.Errorf("runsNodes(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}
