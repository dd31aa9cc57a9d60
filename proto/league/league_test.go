package league

import (
	"testing"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
)

func TestCounted(t *testing.T) {
	for _, c := range []struct {
		l      League
		state  gcproto.State
		phase  gcproto.GamePhase
		counts bool
	}{
		{SPL, gcproto.StateStandby, gcproto.GamePhaseNormal, true},
		{HSL, gcproto.StateStandby, gcproto.GamePhaseNormal, false},
		{HSL, gcproto.StateReady, gcproto.GamePhaseNormal, true},
		{HSL, gcproto.StateSet, gcproto.GamePhaseNormal, true},
		{HSL, gcproto.StatePlaying, gcproto.GamePhaseNormal, true},
		{HSL, gcproto.StatePlaying, gcproto.GamePhaseOvertime, true},
		{HSL, gcproto.StatePlaying, gcproto.GamePhasePenaltyShoot, false},
		{SPL, gcproto.StatePlaying, gcproto.GamePhaseTimeout, false},
		{HSL, gcproto.StateInitial, gcproto.GamePhaseNormal, false},
		{SPL, gcproto.StateFinished, gcproto.GamePhaseNormal, false},
		{HL, gcproto.StatePlaying, gcproto.GamePhaseNormal, false},
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
