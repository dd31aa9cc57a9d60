package main

import (
	"bytes"
	"fmt"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
)

// The GameController's monitor channel for "dnetwork decode".
//
// A monitor request ("RGTr", to port 3636) prints as "protocol" "rgtr", "version" (its
// version byte), "header", "length". A status message the GameController forwarded to a
// monitor (to port 3940) prints as "protocol" "fwd", "version" 0 (the monitor channel's,
// which the request names; the datagram has none of its own), "length", "host" (the
// robot's IPv4 address before the message, as GameController logs name it) and "rgrt",
// the return packet as the rgrt decoder prints it. The names are the Wireshark
// dissector's: dnetwork.rgtr.version, dnetwork.fwd.host, and dnetwork.rgrt.<field> for
// what "rgrt" holds. A forward whose status message is no valid return packet (the
// GameController forwards those too) is rejected with the robot's address in the error.
//
// A forward has no magic of its own: in captures every datagram to port 3940 is one; in
// hex or raw input a packet whose bytes 4..7 are "RGrt" is taken for one.

func init() {
	registerDecoder(&packetDecoder{
		proto:   "rgtr",
		summary: `GameController monitor requests ("RGTr", to port 3636)`,
		order:   10,
		match:   func(b []byte) bool { return bytes.HasPrefix(b, []byte(gcproto.MagicMonitorRequest)) },
		decode:  decodeRGTr,
	})
	registerDecoder(&packetDecoder{
		proto:   "fwd",
		summary: `GameController's forwarded status messages (to port 3940: robot's IPv4, "RGrt")`,
		order:   15, // after the magics at offset 0, before the protocols without a magic
		port:    gcproto.StatusForwardPort,
		match: func(b []byte) bool {
			return len(b) >= gcproto.ForwardPrefixSize+4 &&
				string(b[gcproto.ForwardPrefixSize:gcproto.ForwardPrefixSize+4]) == gcproto.MagicReturn
		},
		decode: decodeForward,
	})
}

func decodeRGTr(b []byte, _ *decodeOptions) (any, error) {
	if err := gcproto.DecodeMonitorRequest(b); err != nil {
		return nil, err
	}
	rec := gcObject{}
	rec.add("protocol", "rgtr")
	rec.add("version", b[4])
	rec.add("header", gcproto.MagicMonitorRequest)
	rec.add("length", len(b))
	return rec, nil
}

func decodeForward(b []byte, o *decodeOptions) (any, error) {
	src, msg, err := gcproto.DecodeForward(b)
	if err != nil {
		return nil, err
	}
	inner, err := decodeRGrt(msg, o)
	if err != nil {
		return nil, fmt.Errorf("status message forwarded from %s: %w", src, err)
	}
	rec := gcObject{}
	rec.add("protocol", "fwd")
	rec.add("version", gcproto.MonitorRequestVersion)
	rec.add("length", len(b))
	rec.add("host", src.String())
	rec.add("rgrt", inner)
	return rec, nil
}
