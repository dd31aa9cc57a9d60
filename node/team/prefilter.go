package team

import (
	"github.com/robocup-dnetwork/dnetwork/node/internal/warnlimit"
	"github.com/robocup-dnetwork/dnetwork/proto/booster"
	"github.com/robocup-dnetwork/dnetwork/proto/robocup"
	"github.com/robocup-dnetwork/dnetwork/proto/teaminfo"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// headerVerdict applies the checks that need only the datagram's size and first bytes:
// wrong-size, wrong-format and foreign-team, in the order decode applies them. It
// returns accepted for a datagram that needs the full decode.
func (c *Component) headerVerdict(b []byte) verdict {
	switch c.cfg.Format {
	case FormatBooster:
		return c.headerVerdictBooster(b)
	case FormatZJU:
		if len(b) != teaminfo.ZJUSize {
			if teaminfo.IsDNet(b) || robocup.Looks(b) || booster.IsMessage(b) {
				return dropWrongFormat
			}
			return dropWrongSize
		}
		if b[zjuTeamOffset] != c.cfg.Team {
			return dropForeign
		}
	case FormatRobocup:
		return headerRobocup(b)
	default:
		if !teaminfo.IsDNet(b) {
			if len(b) == teaminfo.ZJUSize || robocup.Looks(b) || booster.IsMessage(b) {
				return dropWrongFormat
			}
			return dropWrongSize
		}
		if len(b) > dnetTeamOffset && knownDNetVersion(b[dnetVerOffset]) && b[dnetTeamOffset] != c.cfg.Team {
			return dropForeign
		}
	}
	return accepted
}

// prefilter is the part of the component that runs on the socket worker's goroutine.
type prefilter struct {
	warn warnlimit.Limiter[cause] // guarded by Component.mu
}

// Prefilter is the team socket's transport.Filter: it rejects, before the payload is
// copied and queued, every datagram the size, format and team checks drop, and counts
// it in ReceiveCounters exactly as Run would (Received and the cause), with the same
// rate-limited warnings. The socket counts it as Filtered instead of Malformed. Under a
// flood of junk the hand-off queue then holds only candidates for a teammate's packet.
// It is safe for concurrent use with Run.
func (c *Component) Prefilter(d transport.Datagram) bool {
	v := c.headerVerdict(d.Payload)
	if v == accepted {
		return true
	}
	now := c.clk.Now()
	c.mu.Lock()
	r := &c.st.recv
	r.Received++
	switch v {
	case dropWrongSize:
		r.WrongSize++
	case dropWrongFormat:
		r.WrongFormat++
	case dropForeign:
		r.ForeignTeam++
	}
	k, msg := dropWarning(v)
	warn, _ := c.pre.warn.Allow(k, now)
	c.mu.Unlock()
	if warn {
		c.log.Warn(msg, "from", d.Src, "bytes", len(d.Payload), "format", c.cfg.Format)
	}
	return false
}
