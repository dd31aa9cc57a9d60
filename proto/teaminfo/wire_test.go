package teaminfo

import "testing"

// TestWire: the zju and dnet descriptions lie inside their packets, in wire order, and
// name every enum value the codecs accept.
func TestWire(t *testing.T) {
	for _, c := range []struct {
		name   string
		fields []WireField
		size   int
	}{{"zju", ZJUWire(), ZJUSize}, {"dnet", DNetWire(), DNetSize}} {
		prev := -1
		for _, f := range c.fields {
			if f.Off < prev || f.Size < 1 || f.Off+f.Size > c.size {
				t.Errorf("%s: %s at %d+%d (previous field at %d, %d bytes)", c.name, f.Name, f.Off, f.Size, prev, c.size)
			}
			prev = f.Off
		}
	}
	if n := RoleNames(); len(n) != int(RoleOther)+1 || n[RoleGoalie] != "goalie" {
		t.Errorf("roles %v", n)
	}
	if n := PlayStateNames(); len(n) != int(PlayAssisting)+1 || n[PlayPlacing] != "placing" {
		t.Errorf("play states %v", n)
	}
}
