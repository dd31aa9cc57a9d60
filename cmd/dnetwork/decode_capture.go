package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/robocup-dnetwork/dnetwork/transport/capture"
)

// captureInfo leads every record printed from a capture file.
type captureInfo struct {
	Frame     int    `json:"frame"`
	Time      string `json:"capture_time"`
	Src       string `json:"src"`
	Dst       string `json:"dst"`
	Interface string `json:"interface,omitempty"`
	Direction string `json:"direction,omitempty"`
}

// capture decodes every UDP datagram of a pcap or pcapng file whose payload a decoder
// recognises (or the forced one accepts) and prints it after its capture information.
// Datagrams of other protocols are counted and skipped.
func (r *decodeRun) capture(in io.Reader, label string) error {
	rd, err := capture.NewReader(in)
	if err != nil {
		return fmt.Errorf("%s: %w", label, err)
	}
	var datagrams, filtered, unknown int
	for {
		p, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			fmt.Fprintf(r.stderr, "dnetwork decode: %s: %v\n", label, err)
			r.rejected++
			break
		}
		datagrams++
		if r.port != 0 && p.Src.Port() != r.port && p.Dst.Port() != r.port {
			filtered++
			continue
		}
		d := r.forced
		if d == nil || d.match != nil && !d.match(p.Payload) && (d.port == 0 || d.port != p.Dst.Port()) {
			d = nil
			if r.forced == nil {
				d = r.detectDatagram(p.Dst.Port(), p.Payload)
			}
		}
		if d == nil {
			if r.forced != nil {
				filtered++
			} else {
				unknown++
			}
			continue
		}
		info := captureInfo{Frame: p.Frame, Time: p.Time.UTC().Format(time.RFC3339Nano), Src: p.Src.String(), Dst: p.Dst.String(), Interface: p.Interface}
		if p.Dir != 0 {
			info.Direction = p.Dir.String()
		}
		r.total++
		var v any
		v, err = d.decode(p.Payload, r.opts)
		if err != nil {
			r.rejected++
			v = errorRecord{Protocol: d.proto, Source: fmt.Sprintf("%s#%d", label, p.Frame), Length: len(p.Payload), Error: err.Error()}
		}
		if err := r.out.Encode(merged(info, v)); err != nil {
			return err
		}
	}
	fmt.Fprintf(r.stderr, "dnetwork decode: %s: %d UDP datagrams, %d decoded, %d of no known protocol, %d filtered out, %d other frames skipped\n",
		label, datagrams, datagrams-unknown-filtered, unknown, filtered, rd.Skipped())
	return nil
}

// detectDatagram returns the decoder that claims datagrams to port, else the first that
// recognises b; nil if none does.
func (r *decodeRun) detectDatagram(port uint16, b []byte) *packetDecoder {
	for _, c := range sortedDecoders() {
		if c.port != 0 && c.port == port {
			return c
		}
	}
	return r.detect(b)
}

// detect returns the first decoder that recognises b, nil if none does.
func (r *decodeRun) detect(b []byte) *packetDecoder {
	for _, c := range sortedDecoders() {
		if c.match != nil && c.match(b) {
			return c
		}
	}
	return nil
}

// merged is one JSON object with the members of info followed by those of v (an
// object too).
func merged(info, v any) json.RawMessage {
	a := marshalText(info)
	b := marshalText(v)
	if len(b) <= 2 || b[0] != '{' { // not an object, or {}
		return a
	}
	return append(append(a[:len(a)-1], ','), b[1:]...)
}

// marshalText encodes v as the decode command prints it (no HTML escaping), without
// the trailing newline; nil if v cannot be encoded.
func marshalText(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}
