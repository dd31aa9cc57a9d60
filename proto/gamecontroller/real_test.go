package gamecontroller

import (
	"bytes"
	"fmt"
	"testing"
)

// TestRealHSLPackets decodes packets captured from the real headless HSL GameControllers
// (v19 and v20: testdata/hsl*-real-*.hex, written by monitor's TestMonitorChannelRealGC):
// a control packet with robot 17/2 penalised for pushing and players 8 … 20 substitutes
// (v20: 3-byte RobotInfo, pushing 10, substitute 13; v19: 4 bytes, 9 and 11), a true-data
// packet of the same layout, and a status message forwarded after the robot's address.
// Each packet re-encodes byte for byte.
func TestRealHSLPackets(t *testing.T) {
	for _, c := range []struct {
		layout              Layout
		pushing, substitute Penalty
		robotInfo, size     int
		forwardFrom         string
	}{
		{LayoutHSL19, 9, 11, 4, SizeHSL19, "10.96.0.2"},
		{LayoutHSL20, 10, 13, 3, SizeHSL20, "10.97.0.2"},
	} {
		t.Run(c.layout.String(), func(t *testing.T) {
			file := func(kind string) []byte {
				bs := readHex(t, goldenPath(fmt.Sprintf("%s-real-%s", c.layout, kind)))
				if len(bs) != 1 {
					t.Fatalf("%s: %d packets, want 1", kind, len(bs))
				}
				return bs[0]
			}
			for _, kind := range []string{"rgme", "rgtd"} {
				b := file(kind)
				var p Packet
				if err := Decode(b, &p); err != nil {
					t.Fatalf("%s: %v", kind, err)
				}
				wantHeader := map[string]HeaderKind{"rgme": HeaderRGme, "rgtd": HeaderRGTD}[kind]
				if len(b) != c.size || p.Layout != c.layout || p.Header != wantHeader || p.PlayersPerTeam != 7 ||
					p.Teams[0].TeamNumber != 17 || p.Teams[1].TeamNumber != 5 {
					t.Fatalf("%s: %d bytes, %s %s, %d players, teams %d %d", kind, len(b), p.Header.Magic(), p.Layout,
						p.PlayersPerTeam, p.Teams[0].TeamNumber, p.Teams[1].TeamNumber)
				}
				if c.layout.spec().robotSize != c.robotInfo {
					t.Errorf("RobotInfo of %d bytes, want %d", c.layout.spec().robotSize, c.robotInfo)
				}
				for ti := range p.Teams {
					for n := 8; n <= MaxPlayers; n++ {
						if r := p.Player(ti, n); r.Penalty != c.substitute || c.layout.PenaltyName(r.Penalty) != "substitute" {
							t.Errorf("%s: team %d player %d penalty %d (%s), want substitute %d", kind, p.Teams[ti].TeamNumber, n,
								r.Penalty, c.layout.PenaltyName(r.Penalty), c.substitute)
						}
					}
				}
				if kind == "rgme" {
					if r := p.Player(0, 2); r.Penalty != c.pushing || c.layout.PenaltyName(r.Penalty) != "pushing" {
						t.Errorf("17/2 penalty %d (%s), want pushing %d", r.Penalty, c.layout.PenaltyName(r.Penalty), c.pushing)
					}
				}
				if out, err := p.MarshalBinary(); err != nil || !bytes.Equal(out, b) {
					t.Errorf("%s re-encodes as % x (%v)", kind, out, err)
				}
			}
			src, msg, err := DecodeForward(file("forward"))
			var r ReturnPacket
			if err == nil {
				err = DecodeReturn(msg, &r)
			}
			if err != nil || src.String() != c.forwardFrom || r.Team != 17 || r.Player != 2 || r.Version != ReturnVersion {
				t.Errorf("forward: from %v %+v %v", src, r, err)
			}
		})
	}
}
