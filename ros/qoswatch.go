package ros

import (
	"sync/atomic"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
)

// qosCheckPeriod is how often a node looks for publishers its subscriptions refused.
const qosCheckPeriod = time.Second

// qosChecker is an entity that can report QoS incompatibilities.
type qosChecker interface {
	checkQoS(log *Logger)
}

// watchQoS reports, once per qosCheckPeriod, every subscription that DDS refused to
// match with a publisher of incompatible QoS (a reliable subscription and a
// best-effort publisher, transient-local asked of a volatile one, ...), as rclcpp
// nodes do: such a pair silently exchanges nothing otherwise.
func (n *Node) watchQoS() {
	t := clock.Wall.NewTicker(qosCheckPeriod) // shares its wake-ups with the node's 1 s work
	defer t.Stop()
	for {
		select {
		case <-n.ctx.Done():
			return
		case <-t.C():
		}
		n.mu.Lock()
		var checks []qosChecker
		for e := range n.entities {
			if c, ok := e.(qosChecker); ok {
				checks = append(checks, c)
			}
		}
		n.mu.Unlock()
		for _, c := range checks {
			c.checkQoS(n.log)
		}
	}
}

// incompatibleCount tracks one reader's refused publishers between checks.
type incompatibleCount struct {
	total atomic.Uint32
}

// update stores total and reports whether it grew.
func (c *incompatibleCount) update(total uint32) bool {
	return c.total.Swap(total) < total
}

func (s *Subscription[T, P]) checkQoS(log *Logger) {
	total, policy, err := s.r.IncompatibleQoS()
	if err != nil || !s.incompatible.update(total) {
		return
	}
	log.Warnf("subscription %s (%s) cannot receive from %d publisher(s) of incompatible QoS, last incompatible policy %s: no messages arrive from them",
		s.topic, s.qos.Reliability, total, policy)
}

// IncompatiblePublishers returns how many publishers DDS refused to match with the
// subscription because their QoS cannot serve it (e.g. best effort for a reliable
// subscription).
func (s *Subscription[T, P]) IncompatiblePublishers() uint32 {
	total, _, err := s.r.IncompatibleQoS()
	if err != nil {
		return s.incompatible.total.Load()
	}
	return total
}
