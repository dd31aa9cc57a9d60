package rosargs

import "testing"

func BenchmarkParseLaunch(b *testing.B) {
	argv := []string{"--team", "7", "--ros-args", "-r", "__node:=dnetwork", "-r", "__ns:=/robot1",
		"--params-file", "/tmp/launch_params_k3x1", "-p", "gc_port:=3838", "-r", "team_status:=/team/status",
		"--log-level", "robot1.dnetwork:=debug", "-e", "/"}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Parse(argv); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkResolveTopic(b *testing.B) {
	a, _, err := Parse([]string{"--ros-args", "-r", "team_status:=/team/status", "-r", "a:=b", "-r", "c:=d"})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.ResolveTopic("~/status", "dnetwork", "/robot1"); err != nil {
			b.Fatal(err)
		}
	}
}
