package sim3drelay

import (
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/ros"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/rosgraph_msgs"
)

// Topics under a robot's node prefix (/dnetwork_<id>/), as the node names them.
const (
	TopicSay  = "sim3d/say"
	TopicHear = "sim3d/hear"
	TopicTime = "sim3d/time"
)

// Attach creates a relay whose publishers and subscription live on rn under prefix (for
// example "/dnetwork_1/"): it subscribes to prefix+sim3d/say and publishes
// prefix+sim3d/hear and prefix+sim3d/time. They are closed with rn.
func Attach(rn *ros.Node, prefix string, cfg Config) (*Relay, error) {
	hear, err := ros.NewPublisher[dmsgs.Sim3dHear](rn, prefix+TopicHear, ros.QoSDefault)
	if err != nil {
		return nil, err
	}
	tm, err := ros.NewPublisher[rosgraph_msgs.Clock](rn, prefix+TopicTime, ros.QoSDefault)
	if err != nil {
		return nil, err
	}
	r, err := New(cfg, Deps{Hear: hear, Time: tm})
	if err != nil {
		return nil, err
	}
	if _, err := ros.NewSubscription(rn, prefix+TopicSay, ros.QoSDefault, r.Say); err != nil {
		return nil, err
	}
	return r, nil
}
