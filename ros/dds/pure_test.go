package dds

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestValidateTopicName(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"rt/robot1/team_status", true},
		{"rq/robot1/dnetwork/get_parametersRequest", true},
		{"ros_discovery_info", true},
		{"_hidden", true},
		{"/leading_slash", true},
		{"", false},
		{"1abc", false},
		{"rt/with space", false},
		{"rt/tilde~", false},
		{"rt/dash-name", false},
		{"rt/ümlaut", false},
		{"DCPSParticipant", false},
	} {
		err := ValidateTopicName(tc.name)
		if (err == nil) != tc.ok {
			t.Errorf("ValidateTopicName(%q) = %v, want ok=%v", tc.name, err, tc.ok)
		}
		if err != nil && !errors.Is(err, ErrTopicName) {
			t.Errorf("ValidateTopicName(%q) = %v, not ErrTopicName", tc.name, err)
		}
	}
	err := ValidateTopicName("rt/a b")
	if err == nil || !strings.Contains(err.Error(), `' ' at byte 4`) {
		t.Errorf("error does not locate the bad byte: %v", err)
	}
}

func TestValidateTypeName(t *testing.T) {
	if err := ValidateTypeName("std_msgs::msg::dds_::String_"); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{"", "a\x00b", "tab\there"} {
		if err := ValidateTypeName(bad); !errors.Is(err, ErrTypeName) {
			t.Errorf("ValidateTypeName(%q) = %v, want ErrTypeName", bad, err)
		}
	}
}

func TestValidateDomainID(t *testing.T) {
	for id, ok := range map[int]bool{0: true, 42: true, 232: true, 233: false, -1: false, 1000: false} {
		err := ValidateDomainID(id)
		if (err == nil) != ok || (err != nil && !errors.Is(err, ErrDomainID)) {
			t.Errorf("ValidateDomainID(%d) = %v, want ok=%v", id, err, ok)
		}
	}
	if err := ValidateDomainID(300); err == nil || !strings.Contains(err.Error(), "300 not in 0..232") {
		t.Errorf("message does not say what is wrong: %v", err)
	}
}

func TestQoSValidate(t *testing.T) {
	good := []QoS{{}, {History: KeepAll}, {Depth: 1000, Durability: TransientLocal, Lifespan: 10 * time.Second}}
	for _, q := range good {
		if err := q.Validate(); err != nil {
			t.Errorf("%v: %v", q, err)
		}
	}
	bad := []QoS{{Depth: -1}, {Reliability: 7}, {Durability: 3}, {History: 2}, {Lifespan: -time.Second}}
	for _, q := range bad {
		if err := q.Validate(); !errors.Is(err, ErrQoS) {
			t.Errorf("%+v: got %v, want ErrQoS", q, err)
		}
	}
	if got := (QoS{}).String(); got != "reliable/volatile/keep-last 1" {
		t.Errorf("zero QoS = %q", got)
	}
	if got := (QoS{Reliability: BestEffort, Depth: 5}).String(); got != "best-effort/volatile/keep-last 5" {
		t.Errorf("sensor QoS = %q", got)
	}
}

func TestGUID(t *testing.T) {
	g := GUID{0x01, 0x10, 0xaa, 0xbb, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0x12, EntityKindWriterNoKey}
	if got, want := g.String(), "0110aabb:01020304:05060708:00001203"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	p := g.ParticipantGUID()
	if p.Prefix() != g.Prefix() || p.EntityKind() != EntityKindParticipant || p[12] != 0 || p[14] != 1 {
		t.Errorf("ParticipantGUID = %v", p)
	}
	if g.IsZero() || !(GUID{}).IsZero() {
		t.Error("IsZero")
	}
}

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestReadEnv(t *testing.T) {
	const uri = "file:///etc/cyclone.xml"
	for _, tc := range []struct {
		name   string
		distro string
		env    map[string]string
		domain uint32
		config string // exact, with "%d" for the pid
	}{
		{"humble default", "humble", map[string]string{"CYCLONEDDS_URI": uri}, 0, uri},
		{"humble localhost only", "humble", map[string]string{"ROS_LOCALHOST_ONLY": "1", "ROS_DOMAIN_ID": "42", "CYCLONEDDS_URI": uri}, 42,
			`<CycloneDDS><Domain><General><Interfaces><NetworkInterface address="127.0.0.1"/></Interfaces></General></Domain></CycloneDDS>,` + uri},
		{"humble ignores jazzy range", "humble", map[string]string{"ROS_AUTOMATIC_DISCOVERY_RANGE": "LOCALHOST"}, 0, ""},
		{"jazzy default subnet", "jazzy", map[string]string{"ROS_DOMAIN_ID": " 7 "}, 7,
			`<CycloneDDS><Domain><Discovery><ParticipantIndex>auto</ParticipantIndex><MaxAutoParticipantIndex>32</MaxAutoParticipantIndex></Discovery></Domain></CycloneDDS>,`},
		{"jazzy subnet with peers", "jazzy", map[string]string{"ROS_STATIC_PEERS": "10.0.0.2; robot3.local;", "CYCLONEDDS_URI": uri}, 0,
			`<CycloneDDS><Domain><Discovery><ParticipantIndex>auto</ParticipantIndex><MaxAutoParticipantIndex>32</MaxAutoParticipantIndex><Peers><Peer address="10.0.0.2"/><Peer address="robot3.local"/></Peers></Discovery></Domain></CycloneDDS>,` + uri},
		{"jazzy localhost", "jazzy", map[string]string{"ROS_AUTOMATIC_DISCOVERY_RANGE": "localhost"}, 0,
			`<CycloneDDS><Domain><General><AllowMulticast>false</AllowMulticast></General><Discovery><ParticipantIndex>auto</ParticipantIndex><MaxAutoParticipantIndex>32</MaxAutoParticipantIndex><Peers><Peer address="localhost"/></Peers></Discovery></Domain></CycloneDDS>,`},
		{"jazzy legacy localhost only", "jazzy", map[string]string{"ROS_LOCALHOST_ONLY": "1"}, 0,
			`<CycloneDDS><Domain><General><AllowMulticast>false</AllowMulticast></General><Discovery><ParticipantIndex>auto</ParticipantIndex><MaxAutoParticipantIndex>32</MaxAutoParticipantIndex><Peers><Peer address="localhost"/></Peers></Discovery></Domain></CycloneDDS>,`},
		{"jazzy off ignores peers", "jazzy", map[string]string{"ROS_AUTOMATIC_DISCOVERY_RANGE": "OFF", "ROS_STATIC_PEERS": "10.0.0.2"}, 0,
			`<CycloneDDS><Domain><General><AllowMulticast>false</AllowMulticast></General><Discovery><ParticipantIndex>none</ParticipantIndex><Tag>ros_discovery_off_%d</Tag></Discovery></Domain></CycloneDDS>,`},
		{"jazzy system default", "", map[string]string{"ROS_AUTOMATIC_DISCOVERY_RANGE": "SYSTEM_DEFAULT", "CYCLONEDDS_URI": uri}, 0, uri},
		{"peer address escaped", "jazzy", map[string]string{"ROS_STATIC_PEERS": `a"b<c`}, 0,
			`<CycloneDDS><Domain><Discovery><ParticipantIndex>auto</ParticipantIndex><MaxAutoParticipantIndex>32</MaxAutoParticipantIndex><Peers><Peer address="a&#34;b&lt;c"/></Peers></Discovery></Domain></CycloneDDS>,`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, err := ReadEnv(envOf(tc.env), tc.distro)
			if err != nil {
				t.Fatal(err)
			}
			if env.DomainID != tc.domain {
				t.Errorf("domain %d, want %d", env.DomainID, tc.domain)
			}
			want := tc.config
			if strings.Contains(want, "%d") {
				want = fmt.Sprintf(want, os.Getpid())
			}
			if got := env.Config(); got != want {
				t.Errorf("config\n got %s\nwant %s", got, want)
			}
		})
	}
}

func TestReadEnvErrors(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want error
		msg  string
	}{
		{map[string]string{"ROS_DOMAIN_ID": "abc"}, ErrEnv, `ROS_DOMAIN_ID="abc" is not a number`},
		{map[string]string{"ROS_DOMAIN_ID": "233"}, ErrDomainID, "233 not in 0..232"},
		{map[string]string{"ROS_DOMAIN_ID": "-1"}, ErrDomainID, "-1 not in"},
		{map[string]string{"ROS_LOCALHOST_ONLY": "yes"}, ErrEnv, `ROS_LOCALHOST_ONLY="yes"`},
		{map[string]string{"ROS_AUTOMATIC_DISCOVERY_RANGE": "LAN"}, ErrEnv, `ROS_AUTOMATIC_DISCOVERY_RANGE="LAN"`},
	} {
		_, err := ReadEnv(envOf(tc.env), "jazzy")
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%v: got %v, want %v containing %q", tc.env, err, tc.want, tc.msg)
		}
	}
}

func TestRetcodeError(t *testing.T) {
	err := error(&RetcodeError{Op: `create topic "rt/x"`, Code: -3, Text: "Bad Parameter"})
	if got := err.Error(); got != `dds: create topic "rt/x": Bad Parameter (-3)` {
		t.Errorf("Error() = %q", got)
	}
	var rc *RetcodeError
	if !errors.As(fmt.Errorf("wrapped: %w", err), &rc) || rc.Code != -3 {
		t.Error("errors.As does not find the RetcodeError")
	}
}

func TestIncompatibilities(t *testing.T) {
	for _, tc := range []struct {
		name string
		w, r QoS
		want []Incompatibility
	}{
		{"same", QoS{}, QoS{}, nil},
		{"more offered than asked", QoS{Durability: TransientLocal, Deadline: time.Second}, QoS{Reliability: BestEffort, Deadline: 2 * time.Second}, nil},
		{"durability", QoS{}, QoS{Durability: TransientLocal}, []Incompatibility{{"DURABILITY", "volatile", "transient-local"}}},
		{"reliability", QoS{Reliability: BestEffort}, QoS{}, []Incompatibility{{"RELIABILITY", "best-effort", "reliable"}}},
		{"deadline", QoS{Deadline: 2 * time.Second}, QoS{Deadline: time.Second}, []Incompatibility{{"DEADLINE", "2s", "1s"}}},
		{"infinite deadline offered", QoS{}, QoS{Deadline: time.Second}, []Incompatibility{{"DEADLINE", "infinite", "1s"}}},
		{"liveliness", QoS{}, QoS{LivelinessLease: time.Second}, []Incompatibility{{"LIVELINESS", "lease infinite", "lease 1s"}}},
		{"two", QoS{Reliability: BestEffort}, QoS{Durability: TransientLocal}, []Incompatibility{{"RELIABILITY", "best-effort", "reliable"}, {"DURABILITY", "volatile", "transient-local"}}},
	} {
		if got := Incompatibilities(tc.w, tc.r); !slices.Equal(got, tc.want) {
			t.Errorf("%s: Incompatibilities = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
