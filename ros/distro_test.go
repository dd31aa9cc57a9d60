package ros

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/ros/cdr"
	"github.com/robocup-dnetwork/dnetwork/ros/dds"
	"github.com/robocup-dnetwork/dnetwork/ros/params"
)

func TestParseDistro(t *testing.T) {
	for in, want := range map[string]Distro{
		"":         {Name: "jazzy", GIDSize: 16, TypeHash: true},
		"humble":   {Name: "humble", GIDSize: 24, Params: params.Humble},
		" Humble ": {Name: "humble", GIDSize: 24, Params: params.Humble},
		"iron":     {Name: "iron", GIDSize: 16, TypeHash: true},
		"jazzy":    {Name: "jazzy", GIDSize: 16, TypeHash: true},
		"kilted":   {Name: "kilted", GIDSize: 16, TypeHash: true},
		"rolling":  {Name: "rolling", GIDSize: 16, TypeHash: true},
	} {
		got, err := ParseDistro(in)
		if err != nil || got != want {
			t.Errorf("ParseDistro(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, old := range []string{"foxy", "galactic", "dashing"} {
		if _, err := ParseDistro(old); err == nil {
			t.Errorf("ParseDistro(%q) accepted", old)
		}
	}
}

// discoveryOracle lays out ParticipantEntitiesInfo by hand, following the table in
// the package documentation, as an oracle for the generated codecs.
func discoveryOracle(gidSize int, participant dds.GUID, ns, name string, readers, writers []dds.GUID) []byte {
	b := []byte{0, 1, 0, 0}
	body := func() int { return len(b) - 4 }
	align4 := func() {
		for body()%4 != 0 {
			b = append(b, 0)
		}
	}
	gid := func(g dds.GUID) { b = append(b, g[:]...); b = append(b, make([]byte, gidSize-16)...) }
	u32 := func(v int) { align4(); b = binary.LittleEndian.AppendUint32(b, uint32(v)) }
	str := func(s string) { u32(len(s) + 1); b = append(b, s...); b = append(b, 0) }
	gid(participant)
	u32(1)
	str(ns)
	str(name)
	u32(len(readers))
	for _, g := range readers {
		gid(g)
	}
	u32(len(writers))
	for _, g := range writers {
		gid(g)
	}
	align4()
	return b
}

func guidN(n byte, kind byte) dds.GUID {
	return dds.GUID{1, 0x10, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 1, 2, 3, 4, 0, 0, n, kind}
}

func TestDiscoveryMessageGolden(t *testing.T) {
	part := guidN(0, dds.EntityKindParticipant)
	part[12], part[13], part[14] = 0, 0, 1
	readers := []dds.GUID{guidN(1, 4), guidN(2, 4)}
	writers := []dds.GUID{guidN(3, 3), guidN(4, 3), guidN(5, 3)}
	nodes := []NodeEntities{{Namespace: "/robot1", Name: "dnetwork", Readers: readers, Writers: writers}}
	for _, tc := range []struct {
		distro string
		size   int // from the research notes: one node, 2 readers, 3 writers
	}{{"humble", 188}, {"jazzy", 140}} {
		d, _ := ParseDistro(tc.distro)
		m := d.discoveryMessage(part, nodes)
		if m.DDSTypeName() != "rmw_dds_common::msg::dds_::ParticipantEntitiesInfo_" {
			t.Errorf("%s: type %q", tc.distro, m.DDSTypeName())
		}
		got := cdr.Marshal(m)
		want := discoveryOracle(d.GIDSize, part, "/robot1", "dnetwork", readers, writers)
		if len(got) != tc.size || !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes\n got % x\nwant % x", tc.distro, len(got), got, want)
		}
		back, err := d.decodeDiscovery(got)
		if err != nil {
			t.Fatalf("%s: %v", tc.distro, err)
		}
		if back.GID != part || !reflect.DeepEqual(back.Nodes, nodes) {
			t.Errorf("%s: round trip %+v", tc.distro, back)
		}
		// The other distro's layout must not silently decode the same entities.
		other := Distro{GIDSize: 40 - d.GIDSize}
		if o, err := other.decodeDiscovery(got); err == nil && reflect.DeepEqual(o.Nodes, nodes) {
			t.Errorf("%s sample decodes identically with %d-byte GIDs", tc.distro, other.GIDSize)
		}
	}
	// The empty snapshot a node sends when it goes away.
	d, _ := ParseDistro("jazzy")
	if got, want := cdr.Marshal(d.discoveryMessage(part, nil)), append(append([]byte{0, 1, 0, 0}, part[:]...), 0, 0, 0, 0); !bytes.Equal(got, want) {
		t.Errorf("empty snapshot % x, want % x", got, want)
	}
}

func FuzzDiscoveryInfo(f *testing.F) {
	part := guidN(0, dds.EntityKindParticipant)
	nodes := []NodeEntities{{Namespace: "/robot1", Name: "dnetwork", Readers: []dds.GUID{guidN(1, 4)}, Writers: []dds.GUID{guidN(2, 3)}}}
	for _, name := range []string{"humble", "jazzy"} {
		d, _ := ParseDistro(name)
		f.Add(cdr.Marshal(d.discoveryMessage(part, nodes)))
		f.Add(cdr.Marshal(d.discoveryMessage(part, nil)))
	}
	f.Add([]byte{0, 1, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, name := range []string{"humble", "jazzy"} {
			d, _ := ParseDistro(name)
			e, err := d.decodeDiscovery(b)
			if err != nil {
				continue
			}
			again := cdr.Marshal(d.discoveryMessage(e.GID, e.Nodes))
			e2, err := d.decodeDiscovery(again)
			if err != nil || e2.GID != e.GID || len(e2.Nodes) != len(e.Nodes) {
				t.Fatalf("%s round trip: %+v → %+v %v", name, e, e2, err)
			}
			for i := range e.Nodes {
				if !reflect.DeepEqual(normal(e.Nodes[i]), normal(e2.Nodes[i])) {
					t.Fatalf("%s node %d: %+v → %+v", name, i, e.Nodes[i], e2.Nodes[i])
				}
			}
			if !bytes.Equal(cdr.Marshal(d.discoveryMessage(e2.GID, e2.Nodes)), again) {
				t.Fatalf("%s: encoding is not stable", name)
			}
		}
	})
}

// normal makes empty GID lists nil, so that DeepEqual compares content.
func normal(n NodeEntities) NodeEntities {
	if len(n.Readers) == 0 {
		n.Readers = nil
	}
	if len(n.Writers) == 0 {
		n.Writers = nil
	}
	return n
}
