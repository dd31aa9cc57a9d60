package gamecontroller

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/robocup-dnetwork/dnetwork/internal/pcaptest"
	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
)

// TestCaptureReturnPackets: against the first control packet of each capture of a real
// GameController (testdata/captures), the component answers with the return packet the
// captured robot sent, which that GameController accepted (it showed the robot online):
// the same version, team and player, byte for byte.
func TestCaptureReturnPackets(t *testing.T) {
	for _, c := range []struct {
		file         string
		robot        string // source address of the robot in the capture
		team, player int
		version      uint8
	}{
		{"hl12-gui.pcap", "10.201.0.11", 1, 3, gcproto.ReturnVersionHL},
		{"hl12-gui.pcap", "10.201.0.12", 2, 1, gcproto.ReturnVersionHL},
		{"spl14.pcap", "10.201.0.11", 5, 2, gcproto.ReturnVersion},
		{"spl15.pcap", "10.201.0.12", 5, 3, gcproto.ReturnVersion},
	} {
		t.Run(c.file+"/"+c.robot, func(t *testing.T) {
			var first gcproto.Packet
			var captured []byte
			for _, d := range pcaptest.ReadUDP(t, filepath.Join("..", "..", "testdata", "captures", c.file)) {
				switch {
				case d.Dst.Port() == gcproto.ControlPort && !first.Layout.Valid():
					if err := first.UnmarshalBinary(d.Payload); err != nil {
						t.Fatal(err)
					}
				case d.Dst.Port() == gcproto.ReturnPort && d.Src.Addr().String() == c.robot && captured == nil:
					captured = d.Payload
				}
			}
			if !first.Layout.Valid() || captured == nil {
				t.Fatalf("capture lacks a control packet or a return packet of %s", c.robot)
			}
			if v := ReturnVersionFor(first.Layout); v != c.version {
				t.Errorf("ReturnVersionFor(%v) = %d, want %d", first.Layout, v, c.version)
			}
			h := newHarness(t, func(cfg *Config) { cfg.Team, cfg.Player = c.team, c.player })
			if got := h.nextReturn(&first); !bytes.Equal(got, captured) {
				t.Errorf("return packet to %v:\n got % x\nwant % x (captured, accepted by the GameController)", first.Layout, got, captured)
			}
		})
	}
}
