package monitor

import (
	"errors"
	"fmt"
	"time"

	"github.com/robocup-dnetwork/dnetwork/proto/booster"
	"github.com/robocup-dnetwork/dnetwork/proto/robocup"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
)

// teamFormat is one team message format the monitor recognises on a team port.
type teamFormat struct {
	// name is the format as the state shows it ("dnet", "zju", "robocup", ...).
	name string
	// looks reports whether b is meant to be a message of this format, by its content
	// (magic, size, wire structure); the first format that claims b decodes it.
	looks func(b []byte) bool
	// decode decodes b into s. portTeam is the team whose port b arrived on, 0 on a port
	// several teams share, for formats that carry no team number; at is its arrival, the
	// stamp of formats that carry no time. It returns the faults of a message it rejects
	// (one of WrongSize, Undecodable, Auth set) with the error.
	decode func(m *Monitor, b []byte, portTeam uint8, at time.Time, s *teaminfo.State) (teaminfo.Auth, Faults, error)
}

// teamFormats are the formats the monitor recognises, tried in order. A new format
// (such as another vendor's fixed struct) is one more entry here; the robots' and
// teams' views show its name.
var teamFormats = []teamFormat{
	{name: "dnet", looks: teaminfo.IsDNet, decode: decodeDNet},
	{name: "booster", looks: booster.IsMessage, decode: decodeBooster},
	{name: "zju", looks: func(b []byte) bool { return len(b) == teaminfo.ZJUSize }, decode: decodeZJU},
	{name: "robocup", looks: robocup.Looks, decode: decodeRobocupFormat},
}

// decodeTeam decodes a team message in the first format that claims it.
func (m *Monitor) decodeTeam(b []byte, portTeam uint8, at time.Time, s *teaminfo.State) (format string, auth teaminfo.Auth, f Faults, err error) {
	for _, tf := range teamFormats {
		if tf.looks(b) {
			auth, f, err = tf.decode(m, b, portTeam, at, s)
			return tf.name, auth, f, err
		}
	}
	f.WrongSize = 1
	err = fmt.Errorf("%w: %d bytes is neither a dnet packet (%q; version 2: %d, %d or %d bytes, version 1: %d, %d or %d), a zju packet (%d bytes), a Booster message nor an HL standard message",
		teaminfo.ErrLength, len(b), teaminfo.DNetMagic, teaminfo.DNetCheckedSize, teaminfo.DNetTaggedSize, teaminfo.DNetSize,
		teaminfo.DNetCheckedSizeV1, teaminfo.DNetTaggedSizeV1, teaminfo.DNetSizeV1, teaminfo.ZJUSize)
	return "", auth, f, err
}

func decodeDNet(m *Monitor, b []byte, _ uint8, _ time.Time, s *teaminfo.State) (teaminfo.Auth, Faults, error) {
	var (
		dp teaminfo.DNetPacket
		f  Faults
	)
	auth, err := dp.Decode(b, m.key)
	if err == nil {
		dp.ToState(s)
	}
	switch {
	case errors.Is(err, teaminfo.ErrLength):
		f.WrongSize = 1
	case errors.Is(err, teaminfo.ErrAuth):
		f.Auth = 1
	case err != nil:
		f.Undecodable = 1
	case dp.Unchecked:
		// Neither tag nor checksum (a node from before the checksum): as the robots
		// do, the monitor cannot tell it from a corrupted packet.
		f.Undecodable = 1
		err = fmt.Errorf("%w: dnet packet without checksum or tag (a dnetwork from before the checksum)", teaminfo.ErrChecksum)
	}
	return auth, f, err
}

// unsigned is the outcome of decoding a format without authentication: undecodable
// when err is not nil.
func unsigned(err error) (teaminfo.Auth, Faults, error) {
	var f Faults
	if err != nil {
		f.Undecodable = 1
	}
	return teaminfo.AuthNone, f, err
}

func decodeZJU(_ *Monitor, b []byte, _ uint8, _ time.Time, s *teaminfo.State) (teaminfo.Auth, Faults, error) {
	return unsigned(teaminfo.DecodeZJU(b, s))
}

func decodeBooster(_ *Monitor, b []byte, _ uint8, at time.Time, s *teaminfo.State) (teaminfo.Auth, Faults, error) {
	return unsigned(boosterState(b, s, at))
}

func decodeRobocupFormat(_ *Monitor, b []byte, portTeam uint8, _ time.Time, s *teaminfo.State) (teaminfo.Auth, Faults, error) {
	return unsigned(decodeRobocup(b, portTeam, s))
}

// decodeRobocup decodes an HL standard message into s. Its team is the port's, or, on a
// port several teams share, what current_pose.team says (Bit-Bots and NUbots write
// their team number there; the standard a colour, which then reads as team 1 or 2).
// On a team port, a current_pose.team that is no colour (above 2) names the sender's
// team, so that a team on another team's port shows as itself.
func decodeRobocup(b []byte, portTeam uint8, s *teaminfo.State) error {
	var p robocup.Packet
	if err := robocup.Decode(b, &p); err != nil {
		return err
	}
	if id := p.Msg.GetCurrentPose().GetPlayerId(); id > 255 {
		return fmt.Errorf("%w: player %d", teaminfo.ErrRange, id)
	}
	p.ToState(s)
	s.Team = portTeam
	if t := p.TeamNumber(); t <= 255 && (portTeam == 0 || t > uint32(robocup.Team_RED)) {
		s.Team = uint8(t)
	}
	return nil
}
