package interfaces_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/ros/cdr"
	"github.com/robocup-dnetwork/dnetwork/ros/cdr/cdrtest"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/builtin_interfaces"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/diagnostic_msgs"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/geometry_msgs"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/rcl_interfaces"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/rmw_dds_common"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/rmw_dds_common_humble"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/rosgraph_msgs"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/service_msgs"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/std_msgs"
)

func allMessages() []cdr.Message {
	var all []cdr.Message
	for _, f := range []func() []cdr.Message{
		builtin_interfaces.Messages, diagnostic_msgs.Messages, geometry_msgs.Messages,
		rcl_interfaces.Messages, rmw_dds_common.Messages, rmw_dds_common_humble.Messages,
		rosgraph_msgs.Messages, service_msgs.Messages, std_msgs.Messages,
	} {
		all = append(all, f()...)
	}
	return all
}

func TestRoundTripEveryType(t *testing.T) {
	all := allMessages()
	if len(all) != 62 {
		t.Errorf("%d message types, want 62", len(all))
	}
	for _, m := range all {
		t.Run(m.TypeName(), func(t *testing.T) {
			cdrtest.RoundTripRandom(t, m, 8, 3)
		})
	}
}

func TestNames(t *testing.T) {
	for _, m := range allMessages() {
		name := m.TypeName()
		pkg, rest, _ := strings.Cut(name, "/")
		ns, typ, _ := strings.Cut(rest, "/")
		if want := pkg + "::" + ns + "::dds_::" + typ + "_"; m.DDSTypeName() != want {
			t.Errorf("%s: DDS name %q, want %q", name, m.DDSTypeName(), want)
		}
		if h := m.TypeHash(); len(h) != len("RIHS01_")+64 || !strings.HasPrefix(h, "RIHS01_") {
			t.Errorf("%s: hash %q", name, h)
		} else if _, err := hex.DecodeString(h[7:]); err != nil || strings.ToLower(h[7:]) != h[7:] {
			t.Errorf("%s: hash %q is not lower-case hex", name, h)
		}
	}
	gp := rcl_interfaces.GetParameters
	if gp.RequestDDSTypeName != "rcl_interfaces::srv::dds_::GetParameters_Request_" ||
		gp.ResponseDDSTypeName != "rcl_interfaces::srv::dds_::GetParameters_Response_" ||
		gp.RequestTypeHash != (*rcl_interfaces.GetParameters_Request)(nil).TypeHash() ||
		gp.ResponseTypeHash != (*rcl_interfaces.GetParameters_Response)(nil).TypeHash() {
		t.Errorf("GetParameters descriptor: %+v", gp)
	}
}

// Published Jazzy hashes (REP-2011), as rosidl writes them into generated C sources;
// the first three are also in the project's ROS 2 research notes.
func TestKnownHashes(t *testing.T) {
	for _, tc := range []struct {
		m    cdr.Message
		hash string
	}{
		{new(std_msgs.String), "df668c740482bbd48fb39d76a70dfd4bd59db1288021743503259e948f6b1a18"},
		{new(std_msgs.Header), "f49fb3ae2cf070f793645ff749683ac6b06203e41c891e17701b1cb597ce6a01"},
		{new(builtin_interfaces.Time), "b106235e25a4c5ed35098aa0a61a3ee9c9b18d197f398b0e4206cea9acf9c197"},
		{new(std_msgs.Empty), "20b625256f32d5dbc0d04fee44f43c41e51c70d3502f84b4a08e7a9c26a96312"},
		{new(geometry_msgs.Point), "6963084842a9b04494d6b2941d11444708d892da2f4b09843b9c43f42a7f6881"},
		{new(rmw_dds_common.Gid), "ab6f21cfbb0a6dbb837161e1110c2051a2850ed9f9c53944d7115d9bcebedf71"},
		{new(rmw_dds_common.ParticipantEntitiesInfo), "91a0593bacdcc50ea9bdcf849a938b128412cc1ea821245c663bcd26f83c295e"},
		{new(rcl_interfaces.ParameterDescriptor), "52175dbfda6c51153101d33d2a9da05743f66f02d5ab2ca9ec4709b46b73d704"},
		{new(rcl_interfaces.ParameterValue), "115fc089a387e23c7ecd3525c9189c379109119d6ab82e8dfbde0fdf6a7f9b68"},
		{new(rcl_interfaces.GetParameters_Event), "84eeb9247b09067c35bd8750d5c8555b700e394a616737c4624f15ae02e64c4d"},
		{new(service_msgs.ServiceEventInfo), "41bcbbe07a75c9b52bc96bfd5c24d7f0fc0a08c0cb7921b3373c5732345a6f45"},
	} {
		if got := tc.m.TypeHash(); got != "RIHS01_"+tc.hash {
			t.Errorf("%s: %s, want RIHS01_%s", tc.m.TypeName(), got, tc.hash)
		}
	}
	if got := rcl_interfaces.GetParameters.TypeHash; got != "RIHS01_bf9803d5c74cf989a5de3e0c2e99444599a627c7ff75f97b8c05b01003675cbc" {
		t.Errorf("GetParameters service hash %s", got)
	}
}

func gid(n int, b byte) []byte { return bytes.Repeat([]byte{b}, n) }

// The ros_discovery_info sample of one node "/robot1"/"dnetwork" with 2 readers and
// 3 writers is 188 bytes with Humble GIDs and 140 with Jazzy GIDs (research notes,
// section B), header included.
func TestParticipantEntitiesInfoLayout(t *testing.T) {
	jazzy := &rmw_dds_common.ParticipantEntitiesInfo{
		NodeEntitiesInfoSeq: []rmw_dds_common.NodeEntitiesInfo{{
			NodeNamespace: "/robot1", NodeName: "dnetwork",
			ReaderGIDSeq: make([]rmw_dds_common.Gid, 2),
			WriterGIDSeq: make([]rmw_dds_common.Gid, 3),
		}},
	}
	copy(jazzy.GID.Data[:], gid(16, 0xaa))
	humble := &rmw_dds_common_humble.ParticipantEntitiesInfo{
		NodeEntitiesInfoSeq: []rmw_dds_common_humble.NodeEntitiesInfo{{
			NodeNamespace: "/robot1", NodeName: "dnetwork",
			ReaderGIDSeq: make([]rmw_dds_common_humble.Gid, 2),
			WriterGIDSeq: make([]rmw_dds_common_humble.Gid, 3),
		}},
	}
	copy(humble.GID.Data[:], gid(24, 0xaa))
	for _, tc := range []struct {
		m       cdr.Message
		gidSize int
		size    int
	}{{jazzy, 16, 140}, {humble, 24, 188}} {
		b, err := cdr.Append(nil, tc.m)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) != tc.size {
			t.Errorf("gid %d: %d bytes, want %d", tc.gidSize, len(b), tc.size)
		}
		body := b[cdr.HeaderSize:]
		g := tc.gidSize
		want := append(gid(g, 0xaa),
			1, 0, 0, 0, // one node
			8, 0, 0, 0, '/', 'r', 'o', 'b', 'o', 't', '1', 0,
			9, 0, 0, 0, 'd', 'n', 'e', 't', 'w', 'o', 'r', 'k', 0, 0, 0, 0, // NUL + padding to 4
			2, 0, 0, 0)
		if !bytes.HasPrefix(body, want) {
			t.Errorf("gid %d: body starts % x\nwant % x", g, body[:len(want)], want)
		}
	}
}

// ParameterValue of type INTEGER 7, as a get_parameters reply carries it: the int64
// is aligned to 8 after type and bool, the double to 8, then five empty sequences.
func TestParameterValueGolden(t *testing.T) {
	v := &rcl_interfaces.ParameterValue{Type: rcl_interfaces.ParameterTypeParameterInteger, IntegerValue: 7}
	want, _ := hex.DecodeString("00010000" +
		"02" + "00" + "000000000000" + // type, bool_value, padding to 8
		"0700000000000000" + // integer_value
		"0000000000000000" + // double_value
		"0100000000" + "000000" + // string_value "", padding to 4
		"00000000" + "00000000" + "00000000" + "00000000" + "00000000") // five empty sequences
	got := cdr.Marshal(v)
	if !bytes.Equal(got, want) {
		t.Fatalf("got  % x\nwant % x", got, want)
	}
}

func TestEmptyMessage(t *testing.T) {
	got := cdr.Marshal(new(std_msgs.Empty))
	if want := []byte{0, 1, 0, 0, 0, 0, 0, 0}; !bytes.Equal(got, want) {
		t.Fatalf("got % x, want % x", got, want)
	}
	if err := cdr.Unmarshal([]byte{0, 1, 0, 0}, new(std_msgs.Empty)); !errors.Is(err, cdr.ErrTruncated) {
		t.Fatalf("empty body: %v", err)
	}
}

func TestDefaults(t *testing.T) {
	var p geometry_msgs.Pose
	p.SetDefaults()
	if p.Orientation != (geometry_msgs.Quaternion{W: 1}) {
		t.Errorf("Pose orientation default %+v", p.Orientation)
	}
	var c geometry_msgs.PoseWithCovariance
	c.SetDefaults()
	if c.Pose.Orientation.W != 1 {
		t.Errorf("nested default not set: %+v", c)
	}
	d := rcl_interfaces.ParameterDescriptor{ReadOnly: true, DynamicTyping: true}
	d.SetDefaults()
	if d.ReadOnly || d.DynamicTyping {
		t.Errorf("ParameterDescriptor defaults: %+v", d)
	}
}

func TestBoundsEnforced(t *testing.T) {
	d := &rcl_interfaces.ParameterDescriptor{FloatingPointRange: make([]rcl_interfaces.FloatingPointRange, 2)}
	if _, err := cdr.Append(nil, d); !errors.Is(err, cdr.ErrBound) {
		t.Errorf("2 ranges in FloatingPointRange[<=1]: %v", err)
	}
	n := &rmw_dds_common.NodeEntitiesInfo{NodeName: strings.Repeat("n", 257)}
	b, err := cdr.Append(nil, n)
	if !errors.Is(err, cdr.ErrBound) {
		t.Errorf("257-byte name in string<=256: %v", err)
	}
	if err := cdr.Unmarshal(b, new(rmw_dds_common.NodeEntitiesInfo)); !errors.Is(err, cdr.ErrBound) {
		t.Errorf("decoding a 257-byte name: %v", err)
	}
}
