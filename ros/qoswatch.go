package ros

// Incompatible QoS. DDS never matches a subscription with a publisher whose QoS cannot
// serve it (a reliable subscription and a best-effort publisher, transient-local asked
// of a volatile one, ...): such a pair silently exchanges nothing. As rclcpp nodes do,
// the subscribing node says so in its log. The reader's listener signals each refusal
// like a sample (dds.Reader.OnIncompatibleQoS), so the warning comes from the
// subscription's goroutine at once and nothing polls for it.

// watchQoS has the subscription's reader report refused publishers in the node's log:
// each one once, with its participant (Node.refusedPublishers), or, when discovery does
// not tell which they are, their number and the last policy.
func (s *Subscription[T, P]) watchQoS() {
	var zero T
	typeName := P(&zero).DDSTypeName()
	s.r.OnIncompatibleQoS(func(total uint32, policy string) {
		s.incompatible.Store(total)
		s.node.peers.set(IncompatiblePublishers, s.topic, uint64(total), policy)
		if s.node.refusedPublishers(s.r, typeName, s.qos, s.topic) {
			return
		}
		s.node.log.Warnf("subscription %s (%s) cannot receive from %d publisher(s) of incompatible QoS, last incompatible policy %s: no messages arrive from them",
			s.topic, s.qos.Reliability, total, policy)
	})
}

// IncompatiblePublishers returns how many publishers DDS refused to match with the
// subscription because their QoS cannot serve it (e.g. best effort for a reliable
// subscription).
func (s *Subscription[T, P]) IncompatiblePublishers() uint32 {
	total, _, err := s.r.IncompatibleQoS()
	if err != nil {
		return s.incompatible.Load()
	}
	return total
}
