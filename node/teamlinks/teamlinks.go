package teamlinks

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"github.com/robocup-dnetwork/dnetwork/node/internal/idletick"
	"github.com/robocup-dnetwork/dnetwork/node/team"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/builtin_interfaces"
)

// Period is how often TeamLinks is published.
const Period = time.Second

// Warning thresholds of Warnings: a teammate's link is bad when more than LossWarn of
// its packets are lost (over at least MinExpected numbers), or when its last packet is
// older than AgeWarn.
const (
	LossWarn    = 0.2
	MinExpected = 20
	AgeWarn     = 3 * time.Second
)

// Run publishes Message(status()) on pub every Period of clk until ctx is done, and
// returns nil then. A failed publish goes to failed (nil: none); the next period
// publishes again.
func Run(ctx context.Context, clk clock.Clock, pub bus.Publisher[dmsgs.TeamLinks], status func() team.Status, failed func(error)) error {
	idletick.Publish(ctx, clk, Period, pub, func(time.Time) *dmsgs.TeamLinks {
		m := Message(status())
		return &m
	}, failed)
	return nil
}

// Message builds a TeamLinks message from a status snapshot.
func Message(st team.Status) dmsgs.TeamLinks {
	m := dmsgs.TeamLinks{
		Stamp:        builtin_interfaces.NewTime(st.Time),
		PlayerNumber: st.Player,
		Window:       float32(st.LinkWindow.Seconds()),
		Links:        make([]dmsgs.TeamLink, 0, len(st.Links)),
	}
	for _, l := range st.Links {
		m.Links = append(m.Links, Link(l))
	}
	return m
}

// Link converts one teammate's figures.
func Link(l team.MateLink) dmsgs.TeamLink {
	nan := math.NaN()
	q := &l.Quality
	out := dmsgs.TeamLink{
		PlayerNumber: l.Player,
		Age:          nan,
		Rate:         float32(q.Rate),
		Received:     uint32(q.Received), Expected: uint32(q.Expected), Lost: uint32(q.Lost),
		Loss:       float32(q.Loss),
		Duplicates: uint32(q.Duplicates), Reordered: uint32(q.Reordered),
		TotalDuplicates: q.TotalDuplicates, TotalReordered: q.TotalReordered,
		Delay: nan, DelayBound: nan, Jitter: nan,
		ClockOffsetKnown: l.Clock.Known,
		ClockRejected:    l.Clock.Rejected, ClockJumps: l.Clock.Jumps,
	}
	if q.HasPacket {
		out.Age = q.Age.Seconds()
	}
	if q.DelayKnown {
		out.Delay, out.DelayBound = q.Delay.Seconds(), q.DelayBound.Seconds()
	}
	if q.JitterKnown {
		out.Jitter = q.Jitter.Seconds()
	}
	if l.Clock.Known {
		out.ClockOffset = builtin_interfaces.NewDuration(l.Clock.Offset)
		out.ClockOffsetBound = builtin_interfaces.NewDuration(l.Clock.Bound)
	}
	return out
}

// Text words one teammate's link for /diagnostics, e.g. "loss 3.3 % (29 of 300), delay
// 21.4 ms ± 2.1 ms, jitter 6.2 ms, 0 duplicates, 2 reordered, last 0.03 s ago".
func Text(l team.MateLink) string {
	q := &l.Quality
	var b strings.Builder
	if q.Expected > 0 {
		fmt.Fprintf(&b, "loss %.1f %% (%d of %d)", 100*q.Loss, q.Lost, q.Expected)
	} else {
		fmt.Fprintf(&b, "%d packets, loss unknown", q.Received)
	}
	if q.DelayKnown {
		fmt.Fprintf(&b, ", delay %.1f ms ± %.1f ms", ms(q.Delay), ms(q.DelayBound))
	} else {
		b.WriteString(", delay unknown")
	}
	if q.JitterKnown {
		fmt.Fprintf(&b, ", jitter %.1f ms", ms(q.Jitter))
	}
	fmt.Fprintf(&b, ", %d duplicates, %d reordered", q.Duplicates, q.Reordered)
	if q.HasPacket {
		fmt.Fprintf(&b, ", last %.2f s ago", q.Age.Seconds())
	}
	if l.Clock.Rejected > 0 || l.Clock.Jumps > 0 {
		fmt.Fprintf(&b, ", clock: %d samples rejected, %d jumps", l.Clock.Rejected, l.Clock.Jumps)
	}
	return b.String()
}

// Warnings returns a line for every teammate whose link is bad (see LossWarn), e.g.
// "robot 3: 31 % lost".
func Warnings(links []team.MateLink) []string {
	var out []string
	for _, l := range links {
		q := &l.Quality
		switch {
		case q.HasPacket && q.Age > AgeWarn:
			out = append(out, fmt.Sprintf("robot %d: silent for %.0f s", l.Player, q.Age.Seconds()))
		case q.Expected >= MinExpected && q.Loss > LossWarn:
			out = append(out, fmt.Sprintf("robot %d: %.0f %% lost", l.Player, 100*q.Loss))
		}
	}
	return out
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
