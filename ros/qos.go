package ros

import (
	"time"

	"github.com/robocup-dnetwork/dnetwork/ros/dds"
)

// QoS is the quality of service of a publisher, subscription or service; see the
// profiles below for the ones ROS uses.
type QoS = dds.QoS

// QoS policy kinds, re-exported from package dds.
const (
	Reliable       = dds.Reliable
	BestEffort     = dds.BestEffort
	Volatile       = dds.Volatile
	TransientLocal = dds.TransientLocal
	KeepLast       = dds.KeepLast
	KeepAll        = dds.KeepAll
)

// The QoS profiles of ROS 2 (rmw/qos_profiles.h, rcl/logging_rosout.h, rclcpp ClockQoS),
// identical in Humble and Jazzy. Copy one and change fields to derive another.
var (
	// QoSDefault is rmw_qos_profile_default, for ordinary topics.
	QoSDefault = QoS{Reliability: Reliable, Durability: Volatile, History: KeepLast, Depth: 10}
	// QoSSensorData is rmw_qos_profile_sensor_data: newest data matters, losses are fine.
	QoSSensorData = QoS{Reliability: BestEffort, Durability: Volatile, History: KeepLast, Depth: 5}
	// QoSServices is rmw_qos_profile_services_default, for services and clients.
	QoSServices = QoS{Reliability: Reliable, Durability: Volatile, History: KeepLast, Depth: 10}
	// QoSParameters is rmw_qos_profile_parameters, for the parameter services.
	QoSParameters = QoS{Reliability: Reliable, Durability: Volatile, History: KeepLast, Depth: 1000}
	// QoSParameterEvents is rmw_qos_profile_parameter_events, for /parameter_events.
	QoSParameterEvents = QoS{Reliability: Reliable, Durability: Volatile, History: KeepLast, Depth: 1000}
	// QoSRosout is rcl_qos_profile_rosout_default, for /rosout: late joiners get the
	// last 1000 log messages of the past 10 s.
	QoSRosout = QoS{Reliability: Reliable, Durability: TransientLocal, History: KeepLast, Depth: 1000, Lifespan: 10 * time.Second}
	// QoSClock is rclcpp's ClockQoS, for subscribing to /clock.
	QoSClock = QoS{Reliability: BestEffort, Durability: Volatile, History: KeepLast, Depth: 1}
	// QoSLatched is the default profile made transient-local with depth 1, the
	// usual "latched topic" for state that late joiners need (e.g. a map or a
	// robot description).
	QoSLatched = QoS{Reliability: Reliable, Durability: TransientLocal, History: KeepLast, Depth: 1}
)

// QoS of the ros_discovery_info endpoints (rmw_cyclonedds and rmw_fastrtps alike).
var (
	qosDiscoveryWriter = QoS{Reliability: Reliable, Durability: TransientLocal, History: KeepLast, Depth: 1}
	qosDiscoveryReader = QoS{Reliability: Reliable, Durability: TransientLocal, History: KeepAll, IgnoreLocal: true}
)
