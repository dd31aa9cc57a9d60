package gamecontroller

import (
	"net/netip"
)

// The GameController's monitor channel: a monitor application sends a monitor request
// ("RGTr", version 0, 5 bytes) to MonitorRequestPort; the GameController then sends the
// requesting host the true-data control packets ("RGTD", decoded by Packet like "RGme")
// on ControlPort and forwards every status message it receives to the host's
// StatusForwardPort, each prefixed by the IPv4 address of the robot that sent it:
//
//	0 source IPv4 address (4 bytes, network order)   4 the status message as received
//
// The GameController forwards status messages even when they are ill-formed, so the
// payload after the prefix is returned as it is; DecodeReturn judges it.

// Monitor request constants.
const (
	MagicMonitorRequest   = "RGTr"
	MonitorRequestVersion = 0
	MonitorRequestSize    = 5
	// ForwardPrefixSize is the length of the source address before a forwarded status
	// message.
	ForwardPrefixSize = 4
)

// AppendMonitorRequest appends the 5-byte monitor request to b.
func AppendMonitorRequest(b []byte) []byte {
	return append(append(b, MagicMonitorRequest...), MonitorRequestVersion)
}

// DecodeMonitorRequest checks a monitor request with the GameController's rules: exactly
// 5 bytes, header "RGTr", version 0.
func DecodeMonitorRequest(b []byte) error {
	if len(b) != MonitorRequestSize {
		return errorf(ErrLength, "monitor request of %d bytes, want %d", len(b), MonitorRequestSize)
	}
	if string(b[:4]) != MagicMonitorRequest {
		return errorf(ErrHeader, "monitor request header %q, want %q", b[:4], MagicMonitorRequest)
	}
	if b[4] != MonitorRequestVersion {
		return errorf(ErrVersion, "monitor request version %d, want %d", b[4], MonitorRequestVersion)
	}
	return nil
}

// DecodeForward splits a forwarded status message into the IPv4 address of the robot
// that sent it and the status message (aliasing b). A datagram shorter than the prefix
// is ErrLength; the status message itself is not checked (it may be empty).
func DecodeForward(b []byte) (src netip.Addr, msg []byte, err error) {
	if len(b) < ForwardPrefixSize {
		return netip.Addr{}, nil, errorf(ErrLength, "forwarded status message of %d bytes is shorter than its %d-byte source address",
			len(b), ForwardPrefixSize)
	}
	return netip.AddrFrom4([4]byte(b[:ForwardPrefixSize])), b[ForwardPrefixSize:], nil
}

// AppendForward appends a forwarded status message (src must be IPv4) to b, as the
// GameController sends it; tests and simulators use it.
func AppendForward(b []byte, src netip.Addr, msg []byte) []byte {
	a := src.Unmap().As4()
	return append(append(b, a[:]...), msg...)
}
