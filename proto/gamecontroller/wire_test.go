package gamecontroller

import "testing"

// TestWireLayout: the description of every layout tiles its packet: header fields
// before the teams, two teams to the end, robots to the end of a team, every field
// inside its block, and the code names those of the Layout methods.
func TestWireLayout(t *testing.T) {
	inside := func(name string, fs []WireField, size int) {
		t.Helper()
		for _, f := range fs {
			if f.Off < 0 || f.Size < 1 || f.Off+f.Size > size {
				t.Errorf("%s: %s at %d+%d outside %d bytes", name, f.Name, f.Off, f.Size, size)
			}
		}
	}
	for _, l := range Layouts() {
		w := l.Wire()
		if w.Name != l.String() || w.Size != l.Size() || w.Version != l.Version() || w.Players != l.MaxPlayers() {
			t.Errorf("%s: %+v", l, w)
		}
		if w.TeamsOff+2*w.TeamSize != w.Size || w.PlayersOff+w.Players*w.RobotSize != w.TeamSize {
			t.Errorf("%s: teams at %d of %d bytes, players at %d of %d × %d bytes", l, w.TeamsOff, w.TeamSize,
				w.PlayersOff, w.Players, w.RobotSize)
		}
		if (w.CoachOff >= 0) != l.HasCoach() || (w.CoachOff >= 0 && w.CoachOff+w.RobotSize != w.PlayersOff) {
			t.Errorf("%s: coach at %d", l, w.CoachOff)
		}
		inside(l.String()+" header", w.Header, w.TeamsOff)
		inside(l.String()+" team", w.Team, w.PlayersOff)
		inside(l.String()+" robot", w.Robot, w.RobotSize)
		for p := range 256 {
			got := ""
			if p < len(w.Penalties) {
				got = w.Penalties[p]
			}
			if want := l.PenaltyName(Penalty(p)); got != want {
				t.Errorf("%s: penalty %d is %q, want %q", l, p, got, want)
			}
		}
		if len(w.SetPlays) == 0 || w.SetPlays[0] != l.SetPlayName(0) || len(w.States) < 5 {
			t.Errorf("%s: set plays %v, states %v", l, w.SetPlays, w.States)
		}
	}
	if got := len(WireReturn(ReturnVersion)); got != 9 {
		t.Errorf("return v4: %d fields", got)
	}
	if n := ReturnMessageNames(ReturnVersionHL); len(n) != 5 || n[2] != "alive" {
		t.Errorf("return v2 messages %v", n)
	}
}
