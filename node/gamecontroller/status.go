package gamecontroller

import (
	"net/netip"
	"time"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
)

// Counters counts the datagrams the component took from its socket, by outcome. Every
// datagram is counted in Received and in exactly one other field.
type Counters struct {
	Received uint64 // taken from the socket's queue
	Accepted uint64 // valid, for our team, from the GameController followed

	Filtered            uint64 // source not in Config.AllowFrom
	Header              uint64 // not "RGme"/"RGTD" (reported malformed)
	Length              uint64 // length does not match the version (reported malformed)
	Version             uint64 // unknown version (reported malformed)
	Range               uint64 // field outside its version's range (reported malformed)
	Monitor             uint64 // "RGTD" packets meant for monitor programs
	NotOurTeam          uint64 // neither team is ours
	PlayerOutOfRange    uint64 // our player number does not exist in the layout
	OtherGameController uint64 // valid for our team, but from a GameController not followed
	// Unconfirmed: from the GameController followed, but a change no GameController makes
	// in one packet (confirm.go), by cause: held, never published itself.
	Unconfirmed Unconfirmed
}

// Dropped returns the number of datagrams that were not accepted.
func (c Counters) Dropped() uint64 {
	return c.Filtered + c.Header + c.Length + c.Version + c.Range + c.Monitor +
		c.NotOurTeam + c.PlayerOutOfRange + c.OtherGameController + c.Unconfirmed.Total()
}

// Malformed returns the drops reported to the socket as malformed (undecodable).
func (c Counters) Malformed() uint64 { return c.Header + c.Length + c.Version + c.Range }

// Source is one GameController address heard with valid packets for our team.
type Source struct {
	Addr     netip.Addr
	First    time.Time // first valid packet within the current run of packets
	Last     time.Time // latest valid packet
	Packets  uint64    // valid packets for our team from this address
	Followed bool      // the component follows this GameController
}

// Status is a snapshot of the component's health, for diagnostics.
type Status struct {
	// Connected is true while the last accepted packet is younger than Config.Timeout.
	Connected bool
	// Layout and Version are those of the last accepted packet (LayoutInvalid and 0
	// before the first).
	Layout  gcproto.Layout
	Version int
	// GameController is the source of the last accepted packet: the GameController
	// followed (invalid before the first packet).
	GameController netip.AddrPort
	// GameControllers lists the addresses that sent valid packets for our team within
	// Config.MultiWindow, oldest first.
	GameControllers []Source
	// MultipleGameControllers is true when GameControllers has more than one entry.
	MultipleGameControllers bool
	// LastPacket is when the last packet was accepted (zero before the first), and
	// LastPacketAge its age at the time of the snapshot (-1 before the first).
	LastPacket    time.Time
	LastPacketAge time.Duration

	// LastReturn is when the last return packet was sent (zero if none), LastReturnTo
	// where, and LastReturnBytes what (a copy).
	LastReturn      time.Time
	LastReturnTo    netip.AddrPort
	LastReturnBytes []byte
	// ReturnsSent counts return packets handed to the socket; ReturnErrors sends that
	// failed.
	ReturnsSent  uint64
	ReturnErrors uint64

	// GCInfoPublished and DataPublished count publications of the two topics;
	// PublishErrors counts publications that failed.
	GCInfoPublished uint64
	DataPublished   uint64
	PublishErrors   uint64

	Counters Counters
}

// Snapshot is the GameController state for other components (the team component reads
// state, game phase, penalty, budget and kickoff from it). The embedded GCInfo is the
// last derived state, kept while disconnected.
type Snapshot struct {
	// Connected is true while the last accepted packet is younger than Config.Timeout.
	Connected bool
	// Valid is true once a packet was accepted; before that GCInfo is zero except
	// MessageBudget, which is -1.
	Valid bool
	// Received is when the last packet was accepted, Source who sent it.
	Received time.Time
	Source   netip.AddrPort
	gcproto.GCInfo
}
