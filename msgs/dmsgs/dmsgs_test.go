package dmsgs_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/ros/cdr"
	"github.com/robocup-dnetwork/dnetwork/ros/cdr/cdrtest"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/builtin_interfaces"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/geometry_msgs"
)

func TestRoundTripEveryMessage(t *testing.T) {
	for _, m := range dmsgs.Messages() {
		t.Run(m.TypeName(), func(t *testing.T) {
			cdrtest.RoundTripRandom(t, m, 8, 3)
		})
	}
}

// Every .msg file is listed in CMakeLists.txt (so colcon builds it) and has a Go type.
func TestInterfacePackageConsistent(t *testing.T) {
	files, err := filepath.Glob("../msg/*.msg")
	if err != nil || len(files) == 0 {
		t.Fatalf("no .msg files: %v", err)
	}
	cmake, err := os.ReadFile("../CMakeLists.txt")
	if err != nil {
		t.Fatal(err)
	}
	listed := regexp.MustCompile(`"(msg/[A-Za-z0-9]+\.msg)"`).FindAllStringSubmatch(string(cmake), -1)
	var inCMake, onDisk, inGo []string
	for _, l := range listed {
		inCMake = append(inCMake, strings.TrimSuffix(strings.TrimPrefix(l[1], "msg/"), ".msg"))
	}
	for _, f := range files {
		onDisk = append(onDisk, strings.TrimSuffix(filepath.Base(f), ".msg"))
	}
	for _, m := range dmsgs.Messages() {
		if name, ok := strings.CutPrefix(m.TypeName(), "dmsgs/msg/"); ok {
			inGo = append(inGo, name)
		}
	}
	slices.Sort(inCMake)
	slices.Sort(inGo)
	if !slices.Equal(inCMake, onDisk) {
		t.Errorf("CMakeLists.txt lists %v, msg/ holds %v", inCMake, onDisk)
	}
	if !slices.Equal(inGo, onDisk) {
		t.Errorf("Go types %v, msg/ holds %v", inGo, onDisk)
	}
	// Every .srv file is listed too, and has its request and response types.
	srvs, _ := filepath.Glob("../srv/*.srv")
	var srvListed, srvOnDisk []string
	for _, l := range regexp.MustCompile(`"(srv/[A-Za-z0-9]+\.srv)"`).FindAllStringSubmatch(string(cmake), -1) {
		srvListed = append(srvListed, strings.TrimSuffix(strings.TrimPrefix(l[1], "srv/"), ".srv"))
	}
	for _, f := range srvs {
		name := strings.TrimSuffix(filepath.Base(f), ".srv")
		srvOnDisk = append(srvOnDisk, name)
		var req, resp bool
		for _, m := range dmsgs.Messages() {
			req = req || m.TypeName() == "dmsgs/srv/"+name+"_Request"
			resp = resp || m.TypeName() == "dmsgs/srv/"+name+"_Response"
		}
		if !req || !resp {
			t.Errorf("srv/%s.srv has no Go request or response type", name)
		}
	}
	slices.Sort(srvListed)
	if !slices.Equal(srvListed, srvOnDisk) {
		t.Errorf("CMakeLists.txt lists services %v, srv/ holds %v", srvListed, srvOnDisk)
	}
	pkg, err := os.ReadFile("../package.xml")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<package format="3">`, "<name>dmsgs</name>", "rosidl_default_generators",
		"<member_of_group>rosidl_interface_packages</member_of_group>", "<depend>geometry_msgs</depend>"} {
		if !bytes.Contains(pkg, []byte(want)) {
			t.Errorf("package.xml lacks %s", want)
		}
	}
}

func v3(x, y, z float64) geometry_msgs.Vector3 { return geometry_msgs.Vector3{X: x, Y: y, Z: z} }

// teamInfo is a typical teammate packet: a dnet sender with six voronoi corners.
func teamInfo() *dmsgs.TeamInfo {
	return &dmsgs.TeamInfo{
		SenderTime:    builtin_interfaces.Time{Sec: 1700000000, Nanosec: 250_000_000},
		ReceiveTime:   builtin_interfaces.Time{Sec: 1700000000, Nanosec: 253_000_000},
		Age:           builtin_interfaces.Duration{Nanosec: 3_000_000},
		Sequence:      4711,
		Format:        dmsgs.TeamInfoFormatDnet,
		Authenticated: true,
		PlayerNumber:  3, TeamNumber: 17,
		Role:        dmsgs.TeamInfoRoleStriker,
		AttackRight: true,
		Dest:        v3(120, -40, 90), FinalDest: v3(300, 0, 0), AttackTarget: v3(450, 0, 0),
		TimeSinceLastKick: 12.5,
		State:             dmsgs.TeamInfoStateBallHandling,
		Priority:          true, KickerID: 3,
		MatesOnline: [6]bool{true, true, true, false, true, false},
		SeeBall:     true, SeeGoal: true,
		RobotPos: v3(100, -50, 12), BallField: v3(35, 5, 0), BallGlobal: v3(135, -45, 0),
		GoalField: v3(350, 40, 0), GoalGlobal: v3(450, 0, 0),
		BallQuality: 0.9, FieldQuality: 0.8, FieldConsistency: 0.95,
		GCConnected: true, GCState: dmsgs.GCInfoStatePlaying,
		GamePhase: dmsgs.GCInfoGamePhaseNormal, SetPlay: dmsgs.GCInfoSetPlayNone,
		TimeToReachBall: 1.5, BallAge: 0.1,
		TeamBallGlobal: v3(136, -44, 0),
		VoronoiList:    []geometry_msgs.Vector3{v3(0, 0, 0), v3(450, 0, 0), v3(450, -300, 0), v3(0, -300, 0), v3(-100, -150, 0), v3(0, 150, 0)},
	}
}

func TestTeamInfoSize(t *testing.T) {
	b, err := cdr.Append(nil, teamInfo())
	if err != nil {
		t.Fatal(err)
	}
	// Body offsets: times and age 0..24, sequence 24, eight 1-byte fields 28..36,
	// dest/final_dest/attack_target 40..112 (float64 aligned to 8), time_since_last_kick
	// 112, 11 bytes 116..127, seven Vector3 128..296, three float32 296..308, eight bytes
	// 308..316, two float32 316..324, team_ball_global 328..352, voronoi count 352,
	// six Vector3 360..504, clock_offset_known 504, clock_offset, clock_offset_bound,
	// sender_time_local and delay 508..540. 4 + 540 = 544 bytes.
	if len(b) != 544 {
		t.Errorf("TeamInfo sample is %d bytes", len(b))
	}
	var got dmsgs.TeamInfo
	if err := cdr.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.VoronoiList[5] != v3(0, 150, 0) || got.Sequence != 4711 || !got.MatesOnline[4] {
		t.Errorf("decoded %+v", got)
	}
	full := teamInfo()
	full.VoronoiList = append(full.VoronoiList, v3(1, 2, 3))
	if _, err := cdr.Append(nil, full); !errors.Is(err, cdr.ErrBound) {
		t.Errorf("7 voronoi corners: %v, want ErrBound", err)
	}
}

func TestSwarmMessageBound(t *testing.T) {
	m := &dmsgs.SwarmMessage{Src: "192.168.1.2", Dst: "broadcast", Port: 4100, Data: make([]byte, 1500)}
	b, err := cdr.Append(nil, m)
	if err != nil {
		t.Fatal(err)
	}
	var got dmsgs.SwarmMessage
	if err := cdr.Unmarshal(b, &got); err != nil || len(got.Data) != 1500 {
		t.Fatalf("1500-byte payload: %v, %d bytes", err, len(got.Data))
	}
	m.Data = make([]byte, 1501)
	b, err = cdr.Append(nil, m)
	if !errors.Is(err, cdr.ErrBound) {
		t.Fatalf("1501-byte payload: %v", err)
	}
	if err := cdr.Unmarshal(b, &got); !errors.Is(err, cdr.ErrBound) {
		t.Fatalf("decoding a 1501-byte payload: %v", err)
	}
}

func TestGameControlDataTeams(t *testing.T) {
	var g dmsgs.GameControlData
	g.Layout, g.Version, g.Magic = "HSL20", 20, "RGme"
	for i := range g.Teams {
		g.Teams[i].TeamNumber = uint8(17 + i)
		g.Teams[i].Players = make([]dmsgs.GCPlayer, 20)
		g.Teams[i].Players[2] = dmsgs.GCPlayer{Penalty: 6, SecsTillUnpenalised: 30, Cautions: 1}
	}
	cdrtest.RoundTrip(t, &g)
	g.Teams[1].Players = make([]dmsgs.GCPlayer, 21)
	if _, err := cdr.Append(nil, &g); !errors.Is(err, cdr.ErrBound) {
		t.Errorf("21 players: %v", err)
	}
}

// benchTeamInfo is the teammate packet without voronoi corners, as a zju sender's
// packet arrives: a 396-byte sample.
func benchTeamInfo() *dmsgs.TeamInfo {
	m := teamInfo()
	m.VoronoiList = nil
	return m
}

func TestBenchTeamInfoSize(t *testing.T) {
	// Voronoi count 352..356, clock_offset_known 356, the four times 360..392.
	if n := len(cdr.Marshal(benchTeamInfo())); n != 396 {
		t.Fatalf("%d bytes, want 4 + 392", n)
	}
}

func BenchmarkTeamInfoMarshal(b *testing.B) {
	m := benchTeamInfo()
	buf := make([]byte, 0, 512)
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if buf, err = cdr.Append(buf[:0], m); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(buf)))
}

func BenchmarkTeamInfoMarshalNew(b *testing.B) {
	m := benchTeamInfo()
	b.ReportAllocs()
	for b.Loop() {
		_ = cdr.Marshal(m)
	}
}

func BenchmarkTeamInfoUnmarshal(b *testing.B) {
	sample := cdr.Marshal(benchTeamInfo())
	var m dmsgs.TeamInfo
	b.ReportAllocs()
	b.SetBytes(int64(len(sample)))
	for b.Loop() {
		if err := cdr.Unmarshal(sample, &m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTeamInfoVoronoiRoundTrip(b *testing.B) {
	m := teamInfo()
	buf := make([]byte, 0, 512)
	var got dmsgs.TeamInfo
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = cdr.Append(buf[:0], m)
		if err := cdr.Unmarshal(buf, &got); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(buf)))
}

// BenchmarkInputsUnmarshal decodes the robot's three inputs as the six-robot node
// benchmark publishes them (node/bench_six_test.go) into a reused message with a reused
// decoder, as the node's subscriptions do.
func BenchmarkInputsUnmarshal(b *testing.B) {
	inputs := []struct {
		name string
		msg  cdr.Message
		into cdr.Message
	}{
		{"MotionInfo", &dmsgs.MotionInfo{Stable: true, JointFeedback: make([]float64, 20), NeckToFoot: make([]float64, 16)}, new(dmsgs.MotionInfo)},
		{"BehaviorInfo", &dmsgs.BehaviorInfo{CurrentRole: dmsgs.BehaviorInfoRoleStriker,
			TeamPlayState: dmsgs.BehaviorInfoStateBallHandling, Voronoi: make([]geometry_msgs.Vector3, 8)}, new(dmsgs.BehaviorInfo)},
		{"VisionInfo", &dmsgs.VisionInfo{SeeBall: true, SeeField: true, LocOK: true, SeeObstacle: true,
			RobotPos: geometry_msgs.Vector3{X: 100, Y: 50, Z: 30}, BallField: geometry_msgs.Vector3{X: 30},
			ObstaclesField: make([]geometry_msgs.Vector3, 5), ObstaclesGlobal: make([]geometry_msgs.Vector3, 5),
			LinesField: make([]dmsgs.Line, 10), FeaturesField: make([]dmsgs.FieldFeature, 10)}, new(dmsgs.VisionInfo)},
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			sample := cdr.Marshal(in.msg)
			var d cdr.Decoder
			b.ReportAllocs()
			b.SetBytes(int64(len(sample)))
			for b.Loop() {
				if err := d.Reset(sample); err != nil {
					b.Fatal(err)
				}
				if err := in.into.UnmarshalCDR(&d); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
