package sim3d

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	sim3dproto "github.com/robocup-dnetwork/dnetwork/proto/sim3d"
)

// ErrConfig reports an invalid Config; Validate wraps it for every problem it finds.
var ErrConfig = errors.New("sim3d: invalid config")

// Config configures a Team. Start from DefaultConfig and set Player and Key.
type Config struct {
	// Player is the robot's uniform number, 1..TeamSize. It is sent in every message and
	// chooses the talking slot. Required.
	Player int
	// TeamSize is the number of players that share the channel and so the number of
	// slots in a round (default 11, the most a team can field). Every robot of the team
	// must use the same value; a smaller one shortens the round.
	TeamSize int
	// TeamNumber is copied into the team_number of every TeamInfo published.
	TeamNumber uint8
	// TeamName drops hear perceptors labelled with another team before decoding
	// (servers with LabelMessages on, the default, label every message). Empty: the
	// label of the robot's own echoed message is taken as the team's name.
	TeamName string
	// SlotCycles is the length of one talking slot in server cycles, MinSlotCycles..
	// MaxSlotCycles (default DefaultSlotCycles, 4: two cycles of margin for a relayed say
	// that reaches the server late). Every robot of the team must use the same value.
	SlotCycles int
	// Key seeds the team codec's checksum (proto/sim3d.NewTeamCodec); every robot of the
	// team uses the same key, for example the team name. It separates teams, it does not
	// authenticate. The empty key is valid.
	Key string
	// Cycle is the simulator's cycle (default 20 ms). The ticker runs once per cycle
	// and the slot rule counts cycles.
	Cycle time.Duration
	// ServerTimeTimeout is how long, on the clock, the server time last passed to
	// SetServerTime stays the time base; after it the clock is used (default 1 s).
	ServerTimeTimeout time.Duration
	// BallForget is how long after the ball was last seen it is still reported (default
	// sim3d.BallAgeMax, 12.7 s, the oldest age the codec tells apart); after that the
	// ball is reported unknown.
	BallForget time.Duration
	// Logger receives rate-limited warnings; nil means slog.Default().
	Logger *slog.Logger
}

// Defaults.
const (
	DefaultCycle             = 20 * time.Millisecond
	DefaultServerTimeTimeout = time.Second
	DefaultBallForget        = sim3dproto.BallAgeMax
)

// DefaultConfig returns the defaults: 11 slots of 4 cycles, 20 ms cycle, 1 s server time timeout,
// 12.7 s ball memory. Player must still be set.
func DefaultConfig() Config {
	return Config{
		TeamSize:          sim3dproto.MaxUnum,
		SlotCycles:        DefaultSlotCycles,
		Cycle:             DefaultCycle,
		ServerTimeTimeout: DefaultServerTimeTimeout,
		BallForget:        DefaultBallForget,
	}
}

// Validate reports every problem of c at once.
func (c *Config) Validate() error {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: "+format, append([]any{ErrConfig}, args...)...))
	}
	if c.TeamSize < 1 || c.TeamSize > sim3dproto.MaxUnum {
		bad("team size %d, want 1..%d", c.TeamSize, sim3dproto.MaxUnum)
	}
	if c.Player < 1 || c.Player > min(max(c.TeamSize, 1), sim3dproto.MaxUnum) {
		bad("player %d, want 1..%d (team size)", c.Player, min(max(c.TeamSize, 1), sim3dproto.MaxUnum))
	}
	if c.SlotCycles < MinSlotCycles || c.SlotCycles > MaxSlotCycles {
		bad("slot cycles %d, want %d..%d", c.SlotCycles, MinSlotCycles, MaxSlotCycles)
	}
	if c.Cycle <= 0 {
		bad("cycle %v, want > 0", c.Cycle)
	}
	if c.ServerTimeTimeout <= 0 {
		bad("server time timeout %v, want > 0", c.ServerTimeTimeout)
	}
	if c.BallForget <= 0 {
		bad("ball forget %v, want > 0", c.BallForget)
	}
	return errors.Join(errs...)
}
