package main

import (
	"bytes"
	"encoding/hex"
	"unicode"
	"unicode/utf8"

	tswarm "github.com/robocup-dnetwork/dnetwork/transport/swarm"
)

// Swarm virtual-socket frames for "dnetwork decode".
//
// A frame ("SWRM", see package transport/swarm) prints as one object: protocol, version,
// length, kind ("unicast", "broadcast", "multicast"), port (the virtual port), src, dst
// (the robot the sender addressed for unicast, else the kind), payload_length, payload
// (hex) and, when the payload is non-empty printable UTF-8 text (such as a base station
// report "FOUND x y z t"), text.

func init() {
	registerDecoder(&packetDecoder{
		proto:   "swarm",
		summary: `swarm virtual-socket frames ("SWRM"; unicast, broadcast, multicast)`,
		order:   10,
		match:   func(b []byte) bool { return bytes.HasPrefix(b, []byte(tswarm.Magic)) },
		decode:  decodeSwarm,
	})
}

type swarmFrameJSON struct {
	Protocol      string  `json:"protocol"`
	Version       int     `json:"version"`
	Length        int     `json:"length"`
	Kind          string  `json:"kind"`
	Port          uint16  `json:"port"`
	Src           string  `json:"src"`
	Dst           string  `json:"dst"`
	PayloadLength int     `json:"payload_length"`
	Payload       string  `json:"payload"`
	Text          *string `json:"text,omitempty"`
}

func decodeSwarm(b []byte, _ *decodeOptions) (any, error) {
	var f tswarm.Frame
	if err := f.UnmarshalBinary(b); err != nil {
		return nil, err
	}
	out := swarmFrameJSON{
		Protocol:      "swarm",
		Version:       tswarm.Version,
		Length:        len(b),
		Kind:          f.Kind.String(),
		Port:          f.Port,
		Src:           f.Src,
		Dst:           f.Dst,
		PayloadLength: len(f.Payload),
		Payload:       hex.EncodeToString(f.Payload),
	}
	if f.Kind != tswarm.KindUnicast {
		out.Dst = f.Kind.String()
	}
	if isSwarmText(f.Payload) {
		s := string(f.Payload)
		out.Text = &s
	}
	return out, nil
}

// isSwarmText reports whether a payload is non-empty UTF-8 made of printable characters
// and white space.
func isSwarmText(p []byte) bool {
	if len(p) == 0 || !utf8.Valid(p) {
		return false
	}
	for _, r := range string(p) {
		if !unicode.IsPrint(r) && !unicode.IsSpace(r) {
			return false
		}
	}
	return true
}
