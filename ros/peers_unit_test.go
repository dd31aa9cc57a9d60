package ros

import (
	"slices"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/ros/dds"
)

func TestForeignClient(t *testing.T) {
	fast := dds.GUID{0x01, 0x0f, 0x44, 0x55, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0x12, 0x03}
	cyclone := dds.GUID{0x01, 0x10, 0x44, 0x55, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0x12, 0x03}
	for _, tc := range []struct {
		name     string
		guid     dds.GUID
		userData string
		want     bool
	}{
		{"rmw_fastrtps client", fast, "", true},
		{"rmw_fastrtps client on Jazzy", fast, "typehash=RIHS01_00;", true},
		{"rmw_cyclonedds client", cyclone, "clientid=1.2.3;typehash=RIHS01_00;", false},
		{"Fast DDS writer in rmw_cyclonedds framing", fast, "clientid=1.2.3;", false},
		{"Cyclone writer without client id", cyclone, "", false},
	} {
		ep := dds.Endpoint{GUID: tc.guid, QoS: dds.QoS{UserData: []byte(tc.userData)}}
		if mw, got := foreignClient(ep); got != tc.want || got && mw != "rmw_fastrtps_cpp" {
			t.Errorf("%s: foreignClient = %q, %v; want %v", tc.name, mw, got, tc.want)
		}
	}
	if got := vendorName(fast); got != "eProsima Fast DDS" {
		t.Errorf("vendorName(%v) = %q", fast, got)
	}
	if got := vendorName(dds.GUID{0xab, 0xcd}); got != "vendor ab.cd" {
		t.Errorf("vendorName of an unknown vendor = %q", got)
	}
}

func TestPeerIssuesCount(t *testing.T) {
	var p peerIssues
	p.set(IncompatibleSubscribers, "/b", 2, "DURABILITY")
	p.set(IncompatibleSubscribers, "/b", 1, "RELIABILITY") // totals never go back
	p.add(ForeignRequests, "/a/get_parameters", "rmw_fastrtps_cpp")
	p.add(ForeignRequests, "/a/get_parameters", "rmw_fastrtps_cpp")
	want := []PeerIssue{
		{Name: "/a/get_parameters", Kind: ForeignRequests, Count: 2, Last: "rmw_fastrtps_cpp"},
		{Name: "/b", Kind: IncompatibleSubscribers, Count: 2, Last: "RELIABILITY"},
	}
	if got := p.list(); !slices.Equal(got, want) {
		t.Errorf("list = %+v, want %+v", got, want)
	}
	g := dds.GUID{1}
	if !p.firstTime(g) || p.firstTime(g) {
		t.Error("firstTime does not remember a peer")
	}
	for i := range maxLoggedPeers {
		p.firstTime(dds.GUID{2, byte(i), byte(i >> 8)})
	}
	if len(p.logged) > maxLoggedPeers {
		t.Errorf("%d peers remembered, bound %d", len(p.logged), maxLoggedPeers)
	}
}
