package ddsconfig

import (
	"encoding/xml"
	"testing"
)

func TestLoopback(t *testing.T) {
	var cfg struct {
		Domain struct {
			ID        string `xml:"Id,attr"`
			Interface struct {
				Name string `xml:"name,attr"`
			} `xml:"General>Interfaces>NetworkInterface"`
			AllowMulticast string `xml:"General>AllowMulticast"`
			Index          string `xml:"Discovery>ParticipantIndex"`
			MaxIndex       int    `xml:"Discovery>MaxAutoParticipantIndex"`
			Peers          []struct {
				Address string `xml:"address,attr"`
			} `xml:"Discovery>Peers>Peer"`
			Verbosity  string `xml:"Tracing>Verbosity"`
			OutputFile string `xml:"Tracing>OutputFile"`
		}
	}
	for _, tc := range []struct {
		max      int
		warnings bool
	}{{30, false}, {100, true}} {
		s := Loopback(tc.max, tc.warnings)
		cfg.Domain.Peers = nil
		cfg.Domain.Verbosity, cfg.Domain.OutputFile = "", ""
		if err := xml.Unmarshal([]byte(s), &cfg); err != nil {
			t.Fatalf("Loopback(%d, %v) is not XML: %v\n%s", tc.max, tc.warnings, err, s)
		}
		d := cfg.Domain
		if d.ID != "any" || d.Interface.Name != "lo" || d.AllowMulticast != "false" || d.Index != "auto" ||
			d.MaxIndex != tc.max || len(d.Peers) != 1 || d.Peers[0].Address != "127.0.0.1" {
			t.Errorf("Loopback(%d, %v) = %s, parsed %+v", tc.max, tc.warnings, s, d)
		}
		if tracing := d.Verbosity == "warning" && d.OutputFile == "stderr"; tracing != tc.warnings {
			t.Errorf("Loopback(%d, %v): tracing to stderr %v, want %v", tc.max, tc.warnings, tracing, tc.warnings)
		}
	}
}
