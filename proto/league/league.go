package league

import (
	"fmt"
	"time"

	gcproto "github.com/robocup-dnetwork/dnetwork/proto/gamecontroller"
)

// League selects the team message rules of a league.
type League int

const (
	// HSL is the Humanoid Soccer League: team messages up to 512 bytes, a budget of 12 000
	// messages per game, counted in READY, SET and PLAYING.
	HSL League = iota
	// SPL is the Standard Platform League: up to 128 bytes, 1 200 messages per game,
	// counted in STANDBY, READY, SET and PLAYING.
	SPL
	// HL is the former Humanoid League (GameController v12): no budget, no size rule
	// beyond the datagram; 512 bytes is used as a sane cap.
	HL
)

// Parse parses a league profile name as used in the parameter files and on the command
// line: "hsl", "spl" or "hl".
func Parse(s string) (League, error) {
	switch s {
	case "hsl":
		return HSL, nil
	case "spl":
		return SPL, nil
	case "hl":
		return HL, nil
	}
	return 0, fmt.Errorf("league: unknown league profile %q (want hsl, spl or hl)", s)
}

func (l League) String() string {
	switch l {
	case HSL:
		return "hsl"
	case SPL:
		return "spl"
	case HL:
		return "hl"
	}
	return fmt.Sprintf("League(%d)", int(l))
}

// Valid reports whether l is one of the leagues.
func (l League) Valid() bool { return l == HSL || l == SPL || l == HL }

// SizeCap is the largest team message the league allows, in bytes.
func (l League) SizeCap() int {
	if l == SPL {
		return 128
	}
	return 512
}

// DefaultReserve is the number of messages a team keeps back by default: 30 of the SPL's
// 1 200 (as B-Human does), 100 of the HSL's 12 000, none where there is no budget.
func (l League) DefaultReserve() int {
	switch l {
	case SPL:
		return 30
	case HSL:
		return 100
	}
	return 0
}

// HalfDuration is the regular length of one half.
func (l League) HalfDuration() time.Duration { return 10 * time.Minute }

// Counted reports whether team messages sent in a game state (gamecontroller.State) and
// game phase (gamecontroller.GamePhase; the HL secondary states map onto the same
// numbers) count against the budget. The penalty shoot-out and timeouts never count.
func (l League) Counted(state, phase uint8) bool {
	switch gcproto.GamePhase(phase) {
	case gcproto.GamePhasePenaltyShoot, gcproto.GamePhaseTimeout:
		return false
	}
	switch gcproto.State(state) {
	case gcproto.StateReady, gcproto.StateSet, gcproto.StatePlaying:
		return l != HL
	case gcproto.StateStandby:
		return l == SPL
	}
	return false
}

// TeamPort returns the port of a team's team messages: gamecontroller.TeamPortBase plus
// the team number.
func TeamPort(team uint8) uint16 { return gcproto.TeamPortBase + uint16(team) }
