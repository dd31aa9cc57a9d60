package ros

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/robocup-dnetwork/dnetwork/ros/dds"
)

// Peers the node cannot serve
//
// Two kinds of peer can be discovered and still get nothing from the node, and DDS
// itself says little about them, so the node does:
//
//   - Endpoints whose QoS does not fit (a transient-local subscription of a volatile
//     publisher, a reliable one of a best-effort publisher): DDS never matches them.
//     The node's subscriptions log refused publishers (qoswatch.go); its publishers
//     log each refused subscription once, naming it and the policies (DDS only counts
//     them: the node finds the subscription among the discovered ones).
//   - Service clients on rmw_fastrtps (Fast DDS, the default middleware of Humble and
//     Jazzy): they frame requests differently (service.go) and accept only replies
//     that carry the request's identity as inline QoS, which Cyclone DDS 0.10 cannot
//     write. Their requests are recognised, dropped and logged once per client with
//     the fix, never answered with garbage.
//
// Node.PeerIssues counts both for /diagnostics.

// PeerIssueKind says what an endpoint of the node could not do with its peers.
type PeerIssueKind uint8

// Kinds of PeerIssue.
const (
	// IncompatibleSubscribers: readers of a publisher's topic refused for their QoS.
	IncompatibleSubscribers PeerIssueKind = iota
	// IncompatiblePublishers: writers of a subscription's topic refused for their QoS.
	IncompatiblePublishers
	// ForeignRequests: requests from clients on another ROS middleware, not answered.
	ForeignRequests
)

func (k PeerIssueKind) String() string {
	switch k {
	case IncompatibleSubscribers:
		return "incompatible subscribers"
	case IncompatiblePublishers:
		return "incompatible publishers"
	case ForeignRequests:
		return "unanswerable requests"
	}
	return fmt.Sprintf("PeerIssueKind(%d)", uint8(k))
}

// PeerIssue counts what one endpoint of the node could not do with its peers since
// the node started.
type PeerIssue struct {
	Name  string // ROS topic or service, e.g. "/dnetwork_1/GCInfo"
	Kind  PeerIssueKind
	Count uint64
	Last  string // the policy of the last refusal, or the last client's middleware
}

// PeerIssues returns the node's endpoints that refused peers for their QoS or dropped
// requests they cannot answer, sorted by name and kind; nil when there are none.
func (n *Node) PeerIssues() []PeerIssue {
	return n.peers.list()
}

// peerIssues is the node's record of PeerIssue, and of the peers it has logged.
type peerIssues struct {
	mu     sync.Mutex
	issues map[peerIssueKey]*PeerIssue
	logged map[dds.GUID]bool // refused readers and foreign clients already logged
}

type peerIssueKey struct {
	name string
	kind PeerIssueKind
}

// maxLoggedPeers bounds the set of peers logged once; beyond it the set starts over
// (a peer may then be logged again).
const maxLoggedPeers = 1024

// set records the total count of an issue (DDS keeps totals of refusals).
func (p *peerIssues) set(kind PeerIssueKind, name string, total uint64, last string) {
	p.update(kind, name, func(i *PeerIssue) { i.Count = max(i.Count, total) }, last)
}

// add counts one more occurrence of an issue.
func (p *peerIssues) add(kind PeerIssueKind, name, last string) {
	p.update(kind, name, func(i *PeerIssue) { i.Count++ }, last)
}

func (p *peerIssues) update(kind PeerIssueKind, name string, f func(*PeerIssue), last string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.issues == nil {
		p.issues = map[peerIssueKey]*PeerIssue{}
	}
	k := peerIssueKey{name, kind}
	i := p.issues[k]
	if i == nil {
		i = &PeerIssue{Name: name, Kind: kind}
		p.issues[k] = i
	}
	f(i)
	i.Last = last
}

// firstTime reports whether peer g has not been logged yet, and remembers it.
func (p *peerIssues) firstTime(g dds.GUID) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.logged[g] {
		return false
	}
	if p.logged == nil || len(p.logged) >= maxLoggedPeers {
		p.logged = map[dds.GUID]bool{}
	}
	p.logged[g] = true
	return true
}

func (p *peerIssues) list() []PeerIssue {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []PeerIssue
	for _, i := range p.issues {
		out = append(out, *i)
	}
	slices.SortFunc(out, func(a, b PeerIssue) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return int(a.Kind) - int(b.Kind)
	})
	return out
}

// Vendor ids (RTPS, assigned by the OMG) that DDS implementations put in the first two
// bytes of their GUID prefixes.
var vendors = map[[2]byte]string{
	{0x01, 0x01}: "RTI Connext DDS",
	{0x01, 0x02}: "OpenSplice DDS",
	{0x01, 0x03}: "OpenDDS",
	{0x01, 0x0f}: "eProsima Fast DDS",
	{0x01, 0x10}: "Eclipse Cyclone DDS",
}

// fastDDSVendor is eProsima's vendor id, the start of every Fast DDS GUID.
var fastDDSVendor = [2]byte{0x01, 0x0f}

// vendorName names the DDS implementation that made GUID g.
func vendorName(g dds.GUID) string {
	v := [2]byte{g[0], g[1]}
	if name, ok := vendors[v]; ok {
		return name
	}
	return fmt.Sprintf("vendor %02x.%02x", v[0], v[1])
}

// rosName returns the ROS name of a DDS topic: the topic, or the service of a
// request or reply topic, or the DDS name itself.
func rosName(ddsTopic string) string {
	if name, ok := DemangleTopic(ddsTopic); ok {
		return name
	}
	if name, ok := DemangleService(ddsTopic); ok {
		return name
	}
	return ddsTopic
}

// watchOfferedQoS has the participant report readers that the node's writers refuse.
func (n *Node) watchOfferedQoS() error {
	return n.participant.OnOfferedIncompatibleQoS(n.offeredIncompatible)
}

// offeredIncompatible runs when DDS has refused more readers of w's topic for their
// QoS: it counts them and logs each refused reader once, found among the discovered
// readers of the topic that are not matched and whose QoS asks more than w offers.
func (n *Node) offeredIncompatible(w *dds.Writer, total uint32, policy string) {
	name := rosName(w.Topic())
	n.peers.set(IncompatibleSubscribers, name, uint64(total), policy)
	subs, err := n.participant.DiscoveredSubscriptions()
	if err != nil {
		return
	}
	matched, err := w.MatchedSubscriptions()
	if err != nil {
		return
	}
	offered := w.QoS()
	identified := false
	for _, s := range subs {
		if s.Topic != w.Topic() || s.Type != w.TypeName() || slices.ContainsFunc(matched, func(m dds.Endpoint) bool { return m.GUID == s.GUID }) {
			continue
		}
		why := dds.Incompatibilities(offered, s.QoS)
		if len(why) == 0 {
			continue
		}
		identified = true
		if !n.peers.firstTime(s.GUID) {
			continue
		}
		var policies []string
		for _, i := range why {
			policies = append(policies, fmt.Sprintf("%s (it asks %s, this publisher offers %s)", i.Policy, i.Requested, i.Offered))
		}
		n.log.Warnf("publisher %s cannot serve subscription %v of participant %v (%s): incompatible QoS %s; it receives nothing from this node",
			name, s.GUID, s.ParticipantGUID, vendorName(s.GUID), strings.Join(policies, ", "))
	}
	if !identified {
		n.log.Warnf("publisher %s (%s) refused %d subscription(s) of incompatible QoS, last incompatible policy %s: they receive nothing from this node",
			name, offered, total, policy)
	}
}

// refusedPublishers logs once each publisher that reader r (of ROS topic name, DDS type
// typeName, asking QoS asked) refuses, found among the discovered publications of its
// topic that are not matched and whose QoS offers less than r asks, as
// offeredIncompatible does for a writer. It reports whether it found any.
func (n *Node) refusedPublishers(r *dds.Reader, typeName string, asked dds.QoS, name string) bool {
	pubs, err := n.participant.DiscoveredPublications()
	if err != nil {
		return false
	}
	matched, err := r.MatchedPublications()
	if err != nil {
		return false
	}
	identified := false
	for _, p := range pubs {
		if p.Topic != r.Topic() || p.Type != typeName || slices.ContainsFunc(matched, func(m dds.Endpoint) bool { return m.GUID == p.GUID }) {
			continue
		}
		why := dds.Incompatibilities(p.QoS, asked)
		if len(why) == 0 {
			continue
		}
		identified = true
		if !n.peers.firstTime(p.GUID) {
			continue
		}
		var policies []string
		for _, i := range why {
			policies = append(policies, fmt.Sprintf("%s (it offers %s, this subscription asks %s)", i.Policy, i.Offered, i.Requested))
		}
		n.log.Warnf("subscription %s cannot receive from publisher %v of participant %v (%s): incompatible QoS %s; no messages arrive from it",
			name, p.GUID, p.ParticipantGUID, vendorName(p.GUID), strings.Join(policies, ", "))
	}
	return identified
}

// foreignClient reports the middleware of a service client whose request writer is
// ep when that client does not use rmw_cyclonedds' framing: a Fast DDS writer (vendor
// id 01.0f in its GUID) without the "clientid=" USER_DATA that rmw_cyclonedds gives
// every client endpoint, i.e. a client on rmw_fastrtps_cpp.
func foreignClient(ep dds.Endpoint) (string, bool) {
	if _, ok := userDataValue(ep.QoS.UserData, "clientid"); ok {
		return "", false
	}
	if [2]byte{ep.GUID[0], ep.GUID[1]} == fastDDSVendor {
		return "rmw_fastrtps_cpp", true
	}
	return "", false
}

// foreignRequest reports whether a request came from a client this node cannot
// answer (foreignClient): it is then counted and its client logged once, with the
// reason and the fix. The request's writer is ep, matched with the service's
// request reader.
func (n *Node) foreignRequest(service string, ep dds.Endpoint) bool {
	mw, ok := foreignClient(ep)
	if !ok {
		return false
	}
	n.peers.add(ForeignRequests, service, mw)
	if n.peers.firstTime(ep.GUID) {
		n.log.Warnf("service %s: dropped a request from a client on %s (%s participant %v): this node speaks Cyclone DDS (rmw_cyclonedds_cpp), "+
			"and a Fast DDS client accepts only replies carrying the request's identity as inline QoS, which Cyclone DDS cannot send; "+
			"run that process with RMW_IMPLEMENTATION=rmw_cyclonedds_cpp (for the ros2 CLI also restart its daemon: ros2 daemon stop)",
			service, mw, vendorName(ep.GUID), ep.ParticipantGUID)
	}
	return true
}
