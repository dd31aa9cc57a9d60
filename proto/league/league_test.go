package league

import (
	"testing"

	gc "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
)

func TestCounted(t *testing.T) {
	for _, c := range []struct {
		l      League
		state  gc.State
		phase  gc.GamePhase
		counts bool
	}{
		{SPL, gc.StateStandby, gc.GamePhaseNormal, true},
		{HSL, gc.StateStandby, gc.GamePhaseNormal, false},
		{HSL, gc.StateReady, gc.GamePhaseNormal, true},
		{HSL, gc.StateSet, gc.GamePhaseNormal, true},
		{HSL, gc.StatePlaying, gc.GamePhaseNormal, true},
		{HSL, gc.StatePlaying, gc.GamePhaseOvertime, true},
		{HSL, gc.StatePlaying, gc.GamePhasePenaltyShoot, false},
		{SPL, gc.StatePlaying, gc.GamePhaseTimeout, false},
		{HSL, gc.StateInitial, gc.GamePhaseNormal, false},
		{SPL, gc.StateFinished, gc.GamePhaseNormal, false},
		{HL, gc.StatePlaying, gc.GamePhaseNormal, false},
	} {
		if got := c.l.Counted(uint8(c.state), uint8(c.phase)); got != c.counts {
			t.Errorf("%v state %v phase %v: counted %v, want %v", c.l, c.state, c.phase, got, c.counts)
		}
	}
}

func TestParse(t *testing.T) {
	for _, s := range []string{"hsl", "spl", "hl"} {
		l, err := Parse(s)
		if err != nil || l.String() != s || !l.Valid() {
			t.Fatalf("%s: %v %v", s, l, err)
		}
	}
	if _, err := Parse("msl"); err == nil {
		t.Fatal("msl accepted")
	}
	if League(9).Valid() || League(9).String() != "League(9)" {
		t.Fatal("League(9) is valid")
	}
	if SPL.SizeCap() != 128 || HSL.SizeCap() != 512 || HL.SizeCap() != 512 {
		t.Fatal("size caps")
	}
	if SPL.DefaultReserve() != 30 || HSL.DefaultReserve() != 100 || HL.DefaultReserve() != 0 {
		t.Fatal("default reserves")
	}
	if TeamPort(5) != 10005 || TeamPort(254) != 10254 {
		t.Fatalf("team ports %d %d", TeamPort(5), TeamPort(254))
	}
}
