package ros

import (
	"fmt"
	"strings"

	"github.com/robocup-dnetwork/dnetwork/ros/cdr"
	"github.com/robocup-dnetwork/dnetwork/ros/dds"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/rmw_dds_common"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/rmw_dds_common_humble"
	"github.com/robocup-dnetwork/dnetwork/ros/params"
)

// Distro holds the wire conventions that differ between ROS 2 releases. Nodes of
// different conventions cannot share a DDS domain (ros_discovery_info has one type
// name with two layouts), as between real ROS nodes of those releases.
type Distro struct {
	// Name is the ROS_DISTRO value, lower case ("humble", "jazzy", …).
	Name string
	// GIDSize is the size of a GID in ros_discovery_info: 24 bytes up to Humble,
	// 16 from Iron on.
	GIDSize int
	// TypeHash reports whether endpoints announce "typehash=RIHS01_…;" (Iron on).
	TypeHash bool
	// Params is the rclcpp release whose parameter services the node answers
	// like (list_parameters' depth below a prefix, an empty atomic set).
	Params params.Release
}

// DefaultDistro is assumed when ROS_DISTRO is not set.
const DefaultDistro = "jazzy"

// ParseDistro returns the conventions of a ROS_DISTRO value; empty means DefaultDistro.
// Distros before Humble are refused; unknown later names get the Jazzy conventions.
func ParseDistro(name string) (Distro, error) {
	name = strings.ToLower(strings.TrimSpace(name))
	switch name {
	case "":
		name = DefaultDistro
	case "humble":
		return Distro{Name: name, GIDSize: 24, Params: params.Humble}, nil
	case "ardent", "bouncy", "crystal", "dashing", "eloquent", "foxy", "galactic":
		return Distro{}, fmt.Errorf("ros: ROS_DISTRO=%s is not supported (humble or later)", name)
	}
	return Distro{Name: name, GIDSize: 16, TypeHash: true}, nil
}

// NodeEntities is one node's entry in ros_discovery_info.
type NodeEntities struct {
	Namespace string
	Name      string
	Readers   []dds.GUID
	Writers   []dds.GUID
}

// discoveryMessage returns the ParticipantEntitiesInfo sample for the participant and
// its nodes, in the layout of d.
func (d Distro) discoveryMessage(participant dds.GUID, nodes []NodeEntities) cdr.Message {
	if d.GIDSize == 24 {
		m := &rmw_dds_common_humble.ParticipantEntitiesInfo{}
		copy(m.GID.Data[:], participant[:])
		for _, n := range nodes {
			e := rmw_dds_common_humble.NodeEntitiesInfo{NodeNamespace: n.Namespace, NodeName: n.Name}
			for _, g := range n.Readers {
				var gid rmw_dds_common_humble.Gid
				copy(gid.Data[:], g[:])
				e.ReaderGIDSeq = append(e.ReaderGIDSeq, gid)
			}
			for _, g := range n.Writers {
				var gid rmw_dds_common_humble.Gid
				copy(gid.Data[:], g[:])
				e.WriterGIDSeq = append(e.WriterGIDSeq, gid)
			}
			m.NodeEntitiesInfoSeq = append(m.NodeEntitiesInfoSeq, e)
		}
		return m
	}
	m := &rmw_dds_common.ParticipantEntitiesInfo{}
	m.GID.Data = [16]uint8(participant)
	for _, n := range nodes {
		e := rmw_dds_common.NodeEntitiesInfo{NodeNamespace: n.Namespace, NodeName: n.Name}
		for _, g := range n.Readers {
			e.ReaderGIDSeq = append(e.ReaderGIDSeq, rmw_dds_common.Gid{Data: [16]uint8(g)})
		}
		for _, g := range n.Writers {
			e.WriterGIDSeq = append(e.WriterGIDSeq, rmw_dds_common.Gid{Data: [16]uint8(g)})
		}
		m.NodeEntitiesInfoSeq = append(m.NodeEntitiesInfoSeq, e)
	}
	return m
}

// ParticipantEntities is a decoded ros_discovery_info sample.
type ParticipantEntities struct {
	GID   dds.GUID // the participant (GID bytes beyond 16 dropped)
	Nodes []NodeEntities
}

// decodeDiscovery decodes a ros_discovery_info sample in the layout of d.
func (d Distro) decodeDiscovery(sample []byte) (ParticipantEntities, error) {
	var out ParticipantEntities
	if d.GIDSize == 24 {
		var m rmw_dds_common_humble.ParticipantEntitiesInfo
		if err := cdr.Unmarshal(sample, &m); err != nil {
			return out, err
		}
		out.GID = dds.GUID(m.GID.Data[:16])
		for _, n := range m.NodeEntitiesInfoSeq {
			e := NodeEntities{Namespace: n.NodeNamespace, Name: n.NodeName}
			for _, g := range n.ReaderGIDSeq {
				e.Readers = append(e.Readers, dds.GUID(g.Data[:16]))
			}
			for _, g := range n.WriterGIDSeq {
				e.Writers = append(e.Writers, dds.GUID(g.Data[:16]))
			}
			out.Nodes = append(out.Nodes, e)
		}
		return out, nil
	}
	var m rmw_dds_common.ParticipantEntitiesInfo
	if err := cdr.Unmarshal(sample, &m); err != nil {
		return out, err
	}
	out.GID = dds.GUID(m.GID.Data)
	for _, n := range m.NodeEntitiesInfoSeq {
		e := NodeEntities{Namespace: n.NodeNamespace, Name: n.NodeName}
		for _, g := range n.ReaderGIDSeq {
			e.Readers = append(e.Readers, dds.GUID(g.Data))
		}
		for _, g := range n.WriterGIDSeq {
			e.Writers = append(e.Writers, dds.GUID(g.Data))
		}
		out.Nodes = append(out.Nodes, e)
	}
	return out, nil
}
