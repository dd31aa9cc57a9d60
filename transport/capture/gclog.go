package capture

import (
	"net/netip"
	"time"

	"github.com/robocup-dnetwork/dnetwork/proto/gclog"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// Ports a GameController receives the logged messages on.
const (
	gclogReturnPort   = 3939  // status (return) messages
	gclogTeamPortBase = 10000 // team messages: 10000 + team number
)

// GameLogPackets returns the datagrams of a GameController log's status and team
// messages as a recording of the GameController's host would hold them: received,
// from the logged host (port 0: the log has none), to 0.0.0.0 port 3939 or
// 10000 + team, on interface "gclog", at the log's start (its metadata's time, or the
// Unix epoch without metadata) plus the entry's time, with the entry's number as
// Frame. Other entries give no datagram.
func GameLogPackets(entries []gclog.Entry) []Packet {
	start := GameLogStart(entries)
	var pkts []Packet
	for _, e := range entries {
		var port uint16
		switch e.Kind {
		case gclog.KindStatusMessage:
			port = gclogReturnPort
		case gclog.KindTeamMessage:
			port = gclogTeamPortBase + uint16(e.Message.Team)
		default:
			continue
		}
		pkts = append(pkts, Packet{Time: start.Add(e.Time), Src: netip.AddrPortFrom(e.Message.Host, 0),
			Dst: netip.AddrPortFrom(netip.IPv4Unspecified(), port), Payload: e.Message.Data,
			Interface: "gclog", Dir: transport.Received, Frame: e.Index})
	}
	return pkts
}

// GameLogStart returns the wall-clock time of a GameController log's start: its
// metadata's time, or the Unix epoch when it has no metadata.
func GameLogStart(entries []gclog.Entry) time.Time {
	for _, e := range entries {
		if e.Metadata != nil {
			return e.Metadata.Timestamp.Add(-e.Time)
		}
	}
	return time.Unix(0, 0).UTC()
}
