//go:build cgo

package main

import (
	"encoding/binary"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/linkemu"
)

// wall converts a record's system time.
func wall(r fieldRecord) time.Time { return time.Unix(0, r.Wall) }

// checkCommon checks what must hold in every run: every datagram accounted for, the
// true clock offset inside the published bound, no phantom teammate.
func (f *fieldRun) checkCommon(recs [fieldRobots + 1][]fieldRecord) {
	t := f.t
	for id := 1; id <= fieldRobots; id++ {
		samples, infos, clockChecks := 0, 0, 0
		maxBound := map[string]time.Duration{}
		for _, r := range recs[id] {
			if d := diag(r, id, "team"); d != nil {
				samples++
				var dropped uint64
				for k := range d {
					if strings.HasPrefix(k, "dropped_") {
						dropped += num(t, d, k)
					}
				}
				if rx, acc := num(t, d, "received"), num(t, d, "accepted"); rx != acc+dropped {
					t.Errorf("robot %d at %v: received %d != accepted %d + dropped %d", id, wall(r), rx, acc, dropped)
				}
			}
			if d := diag(r, id, "socket team"); d != nil {
				if rx, out := num(t, d, "received"), num(t, d, "delivered")+num(t, d, "dropped_queue_full")+num(t, d, "dropped_oversize")+
					num(t, d, "dropped_filtered")+num(t, d, "dropped_malformed"); rx != out {
					t.Errorf("robot %d socket at %v: received %d != delivered + dropped %d", id, wall(r), rx, out)
				}
			}
			in := r.Info
			if in == nil {
				continue
			}
			infos++
			if in.Team != fieldTeam || in.Player < 1 || in.Player > fieldRobots || int(in.Player) == id {
				t.Errorf("robot %d published a packet of team %d player %d: a phantom", id, in.Team, in.Player)
				continue
			}
			if !in.Known {
				continue
			}
			clockChecks++
			truth := fieldOffsets[in.Player] - fieldOffsets[id]
			off, bound := time.Duration(in.Offset), time.Duration(in.Bound)
			if e := off - truth; e > bound || -e > bound {
				t.Errorf("robot %d about %d at %v (%s): offset %v ± %v, truth %v", id, in.Player, wall(r), f.phaseAt(wall(r)), off, bound, truth)
			}
			ph := f.phaseAt(wall(r))
			maxBound[ph] = max(maxBound[ph], bound)
		}
		if samples < 20 || infos < 200 || clockChecks < infos/2 {
			t.Errorf("robot %d: %d diagnostics samples, %d TeamInfo, %d with a known offset", id, samples, infos, clockChecks)
		}
		t.Logf("robot %d: %d diagnostics samples balance; %d TeamInfo, the true offset within the bound in all %d known; largest bound by phase %v",
			id, samples, infos, clockChecks, maxBound)
	}
}

// lastDiag returns robot id's last status suffix.
func lastDiag(recs []fieldRecord, id int, suffix string) map[string]string {
	for i := len(recs) - 1; i >= 0; i-- {
		if d := diag(recs[i], id, suffix); d != nil {
			return d
		}
	}
	return nil
}

// seen reports whether some status suffix of robot id within [from, to] satisfies ok.
func seen(recs []fieldRecord, id int, suffix string, from, to time.Time, ok func(map[string]string) bool) bool {
	for _, r := range recs {
		if w := wall(r); w.Before(from) || w.After(to) {
			continue
		}
		if d := diag(r, id, suffix); d != nil && ok(d) {
			return true
		}
	}
	return false
}

var allowanceRe = regexp.MustCompile(`allowance ([0-9.]+) msg/s`)

func (f *fieldRun) checkAuthenticated(recs [fieldRobots + 1][]fieldRecord) {
	t := f.t
	for id := 1; id <= fieldRobots; id++ {
		// No wrong data: every published packet verified, and as its sender said it.
		for _, r := range recs[id] {
			if in := r.Info; in != nil && (!in.Auth || in.Role != fieldRole(int(in.Player)) || math.Abs(in.PosX-100*float64(in.Player)) > 1) {
				t.Errorf("robot %d published wrong data at %v (%s): %+v", id, wall(r), f.phaseAt(wall(r)), *in)
			}
		}
		// The rate never exceeds the budget's allowance.
		rates, maxAllowed := 0, 0.0
		var first, last map[string]string
		var firstAt, lastAt time.Time
		for _, r := range recs[id] {
			d := diag(r, id, "team")
			if d == nil {
				continue
			}
			if first == nil {
				first, firstAt = d, wall(r)
			}
			last, lastAt = d, wall(r)
			m := allowanceRe.FindStringSubmatch(d["interval_reason"])
			if m == nil {
				continue
			}
			allowed, _ := strconv.ParseFloat(m[1], 64)
			iv, err := time.ParseDuration(d["interval"])
			if err != nil {
				t.Fatalf("interval %q", d["interval"])
			}
			rates++
			maxAllowed = max(maxAllowed, allowed)
			// The interval is shown to the millisecond, the allowance to 0.01 msg/s.
			if got := 1 / (iv + time.Millisecond/2).Seconds(); got > allowed+0.005 {
				t.Errorf("robot %d at %v: interval %v (%.2f msg/s) above the allowance %.2f msg/s", id, wall(r), iv, got, allowed)
			}
		}
		sent := float64(num(t, last, "sent")-num(t, first, "sent")) / lastAt.Sub(firstAt).Seconds()
		if rates < 20 || sent > maxAllowed {
			t.Errorf("robot %d: %d samples under the allowance; sent %.2f msg/s, allowed at most %.2f", id, rates, sent, maxAllowed)
		}
		t.Logf("robot %d: sent %.2f msg/s, allowance at most %.2f msg/s per robot", id, sent, maxAllowed)
	}

	// Corruption: the tag catches every corrupted datagram that passes the checksum;
	// the kernel drops the ones with a bad checksum (from robot 3), and says why.
	for id := 1; id <= fieldRobots; id++ {
		team, k := lastDiag(recs[id], id, "team"), lastDiag(recs[id], id, "kernel udp")
		if num(t, team, "dropped_auth") == 0 {
			t.Errorf("robot %d: no auth drops after the corruption", id)
		}
		if id != 3 && (num(t, k, "checksum_errors") == 0 || num(t, k, "receive_buffer_errors") != 0) {
			t.Errorf("robot %d: kernel udp %v", id, k)
		}
		t.Logf("robot %d: %s auth drops; kernel: %s checksum errors, %s receive buffer errors; socket dropped_kernel %s", id,
			team["dropped_auth"], k["checksum_errors"], k["receive_buffer_errors"], lastDiag(recs[id], id, "socket team")["dropped_kernel"])
	}

	// The GameController lost and found again (by robot 4 once its carrier is back).
	g, c := f.phase(gcLost), f.phase(carrier4)
	for id := 1; id <= fieldRobots; id++ {
		lost := seen(recs[id], id, "gamecontroller", g.from.Add(3500*time.Millisecond), g.to.Add(200*time.Millisecond), func(d map[string]string) bool { return d["connected"] == "false" })
		found := g.to
		if id == 4 {
			found = c.to
		}
		back := seen(recs[id], id, "gamecontroller", found, found.Add(2*time.Second), func(d map[string]string) bool { return d["connected"] == "true" })
		if !lost || !back {
			t.Errorf("robot %d: GameController lost %v, back within 2 s %v", id, lost, back)
		}
	}

	// Robot 4 without carrier: its teammates time it out and take it back; it shows the
	// missing carrier as an error of its team socket.
	for id := 1; id < fieldRobots; id++ {
		gone := seen(recs[id], id, "team", c.from.Add(3500*time.Millisecond), c.to.Add(200*time.Millisecond), func(d map[string]string) bool {
			return !strings.Contains(" "+d["teammates"]+" ", " 4 ")
		})
		back := seen(recs[id], id, "team", c.to, c.to.Add(2*time.Second), func(d map[string]string) bool {
			return strings.Contains(" "+d["teammates"]+" ", " 4 ")
		})
		if !gone || !back {
			t.Errorf("robot %d: robot 4 timed out %v, back within 2 s %v", id, gone, back)
		}
	}
	noCarrier := seen(recs[4], 4, "socket team", c.from.Add(500*time.Millisecond), c.to, func(d map[string]string) bool {
		return d["carrier"] == "no" && d["_level"] == "2"
	})
	carrierBack := seen(recs[4], 4, "socket team", c.to, c.to.Add(2*time.Second), func(d map[string]string) bool { return d["carrier"] == "yes" })
	if !noCarrier || !carrierBack {
		t.Errorf("robot 4: no carrier shown as an error %v, carrier back %v", noCarrier, carrierBack)
	}

	// Link quality in the bad Wi-Fi, against what the emulator did.
	p := f.phase(badWiFi)
	for _, dir := range [][2]int{{2, 1}, {3, 1}, {1, 2}} {
		f.checkLink(recs[dir[1]], dir[0], dir[1], p)
	}
}

// checkLink compares robot to's last TeamLinks figures about robot from in phase p
// (covering 10 s within it) with the emulator's records of that direction.
func (f *fieldRun) checkLink(recs []fieldRecord, from, to int, p phase) {
	t := f.t
	var got *linkRecord
	var at time.Time
	for _, r := range recs {
		if r.Links == nil || r.Stamp == 0 {
			continue
		}
		// The message's stamp is the robot's clock: the window ends there.
		end := time.Unix(0, r.Stamp).Add(-fieldOffsets[to])
		if end.Before(p.from.Add(10*time.Second+500*time.Millisecond)) || end.After(p.to) {
			continue
		}
		for i := range r.Links {
			if int(r.Links[i].Player) == from {
				got, at = &r.Links[i], end
			}
		}
	}
	if got == nil || got.Loss == nil || got.Delay == nil || got.Jitter == nil {
		t.Errorf("robot %d about %d: no full link figures in %q: %+v", to, from, p.name, got)
		return
	}
	// The emulator's frames of that direction to the team port written in the window:
	// the sequence numbers among them are what the node's loss figure counts (the
	// emulator decided which frames were lost). Their transits run from the sender's
	// stamp (on the system clock: the stamp minus the sender's offset) to the write,
	// through the sender's stack and the emulator; the receiving node's stack adds the
	// rest, which its TeamInfo.receive_time of each packet shows. So the node's delay and
	// jitter must equal those of the emulator's transits plus each packet's receive
	// latency, and that latency must never be negative.
	recv := map[uint32]time.Time{} // by sequence number: the node's receive time, system clock
	for _, r := range recs {
		if in := r.Info; in != nil && int(in.Player) == from {
			recv[in.Seq] = time.Unix(0, in.Recv).Add(-fieldOffsets[to])
		}
	}
	type arrival struct {
		at           time.Time
		emu, end2end time.Duration
	}
	// A duplicated frame reaches the node twice; the first copy written is the one it
	// publishes.
	records := f.emu.Records(f.robot[from], f.robot[to])
	first := map[uint32]time.Time{}
	for _, d := range records {
		if d.Port == teamPort && d.Fate == linkemu.Delivered && string(d.Head[:3]) == "DNt" {
			seq := binary.LittleEndian.Uint32(d.Head[8:])
			if w, ok := first[seq]; !ok || d.Written.Before(w) {
				first[seq] = d.Written
			}
		}
	}
	var arr []arrival
	var seqs []uint32
	offered, lost, unmatched := 0, 0, 0
	var latency time.Duration
	for _, d := range records {
		if d.Port != teamPort {
			continue
		}
		if !d.Offered.Before(p.from) && d.Offered.Before(p.to) {
			offered++
			if d.Fate != linkemu.Delivered {
				lost++
			}
		}
		if d.Fate != linkemu.Delivered || d.Copy || d.Written.Before(at.Add(-10*time.Second)) || d.Written.After(at) || string(d.Head[:3]) != "DNt" {
			continue
		}
		seq := binary.LittleEndian.Uint32(d.Head[8:])
		d.Written = first[seq]
		seqs = append(seqs, seq)
		sent := time.Unix(0, 0).Add(dnetStamp(d.Head[:]) - fieldOffsets[from])
		r, ok := recv[seq]
		if !ok {
			unmatched++ // late: not published
			continue
		}
		if r.Before(d.Written) {
			t.Errorf("robot %d about %d: packet %d received %v before the emulator wrote it", to, from, seq, d.Written.Sub(r))
		}
		latency += r.Sub(d.Written)
		arr = append(arr, arrival{at: r, emu: d.Written.Sub(sent), end2end: r.Sub(sent)})
	}
	if len(arr) < 20 || unmatched > len(arr)/10 {
		t.Errorf("robot %d about %d: %d packets in the window, %d not published", to, from, len(arr), unmatched)
		return
	}
	slices.SortFunc(arr, func(a, b arrival) int { return a.at.Compare(b.at) })
	var emuSum, e2eSum, emuDiff, e2eDiff time.Duration
	for i, a := range arr {
		emuSum += a.emu
		e2eSum += a.end2end
		if i > 0 {
			emuDiff += (a.emu - arr[i-1].emu).Abs()
			e2eDiff += (a.end2end - arr[i-1].end2end).Abs()
		}
	}
	n := time.Duration(len(arr))
	lo, hi := slices.Min(seqs), slices.Max(seqs)
	emuLoss := 1 - float64(len(seqs))/float64(hi-lo+1)
	wantDelay, wantJitter := e2eSum/n, e2eDiff/(n-1)
	delay, bound, jitter := secs(*got.Delay), secs(*got.DelayBound), secs(*got.Jitter)
	t.Logf("robot %d about %d (%s): loss %.3f (%d of %d; the emulator's deliveries %.3f; %.3f of the %d frames offered in the phase); "+
		"delay %v ± %v (emulator plus receive latency %v: emulator %v, latency %v); jitter %v (%v; emulator alone %v); %d duplicates, %d reordered",
		to, from, p.name, *got.Loss, got.Lost, got.Expected, emuLoss, float64(lost)/float64(offered), offered,
		delay.Round(10*time.Microsecond), bound.Round(10*time.Microsecond), wantDelay.Round(10*time.Microsecond),
		(emuSum / n).Round(10*time.Microsecond), (latency / n).Round(10*time.Microsecond),
		jitter.Round(10*time.Microsecond), wantJitter.Round(10*time.Microsecond), (emuDiff / (n - 1)).Round(10*time.Microsecond),
		got.Duplicates, got.Reordered)
	// Tolerances: loss within 3 points (a packet at either edge of the window); delay
	// within its bound plus 1 ms; jitter within 1 ms (the late packets the node counts
	// but did not publish).
	if math.Abs(*got.Loss-emuLoss) > 0.03 {
		t.Errorf("robot %d about %d: loss %.3f, emulator %.3f", to, from, *got.Loss, emuLoss)
	}
	if (delay - wantDelay).Abs() > bound+time.Millisecond {
		t.Errorf("robot %d about %d: delay %v ± %v, emulator plus receive latency %v", to, from, delay, bound, wantDelay)
	}
	if (jitter - wantJitter).Abs() > time.Millisecond {
		t.Errorf("robot %d about %d: jitter %v, emulator plus receive latency %v", to, from, jitter, wantJitter)
	}
}

func secs(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

func (f *fieldRun) checkUnauthenticated(recs [fieldRobots + 1][]fieldRecord) {
	t := f.t
	f.checkNothingCorrupted(recs)
	fp, c := f.phase(forged), f.phase(corrupt)
	for id := 1; id <= fieldRobots; id++ {
		// The filters held: no teammate dropped out while packets from the future came,
		// nor while one datagram in ten was corrupted.
		for _, r := range recs[id] {
			w := wall(r)
			if w.Before(fp.from.Add(time.Second)) || w.After(c.to) {
				continue
			}
			if d := diag(r, id, "team"); d != nil && d["teammates_online"] != strconv.Itoa(fieldRobots-1) {
				t.Errorf("robot %d at %v (%s): teammates %q", id, w, f.phaseAt(w), d["teammates"])
			}
		}
		// What the forged packets cost.
		var forgedIn uint64
		for mate := 1; mate <= fieldRobots; mate++ {
			if mate == id {
				continue
			}
			for _, d := range f.emu.Records(f.robot[mate], f.robot[id]) {
				if d.Port == teamPort && d.Fate == linkemu.Delivered && d.Corrupted && !d.Offered.Before(fp.from) && d.Offered.Before(fp.to) {
					forgedIn++
				}
			}
		}
		var before, after map[string]string
		for _, r := range recs[id] {
			if d := diag(r, id, "team"); d != nil {
				if wall(r).Before(fp.from) {
					before = d
				} else if wall(r).Before(fp.to.Add(time.Second)) {
					after = d
				}
			}
		}
		unconf := num(t, after, "dropped_unconfirmed") - num(t, before, "dropped_unconfirmed")
		if forgedIn == 0 || unconf > 2*forgedIn {
			t.Errorf("robot %d: %d forged packets in, %d unconfirmed drops", id, forgedIn, unconf)
		}
		t.Logf("robot %d: %d forged packets from the future in: %d unconfirmed drops, teammates online throughout", id, forgedIn, unconf)
		// What the filters cost: unconfirmed drops against the corrupted datagrams that
		// reached the robot; duplicates and reorders counted.
		var corrupted, duplicated uint64
		for mate := 1; mate <= fieldRobots; mate++ {
			if mate == id {
				continue
			}
			for _, d := range f.emu.Records(f.robot[mate], f.robot[id]) {
				if d.Port == teamPort && d.Fate == linkemu.Delivered {
					if d.Corrupted {
						corrupted++
					}
					if d.Copy {
						duplicated++
					}
				}
			}
		}
		team := lastDiag(recs[id], id, "team")
		unconfirmed, dups, late := num(t, team, "dropped_unconfirmed"), num(t, team, "dropped_duplicate"), num(t, team, "dropped_late")
		if num(t, team, "dropped_replay") != 0 || unconfirmed > 3+2*corrupted || dups == 0 || dups > duplicated+corrupted || late == 0 {
			t.Errorf("robot %d: %d corrupted and %d duplicated datagrams in; team %v", id, corrupted, duplicated, team)
		}
		var rejected uint64
		for _, r := range recs[id] {
			for _, l := range r.Links {
				rejected = max(rejected, l.ClockRejected)
			}
		}
		t.Logf("robot %d: %d corrupted datagrams in: %d dropped as unconfirmed, %d malformed, %d accepted or late otherwise; %d duplicates (emulator %d), %d late; clock samples rejected up to %d per teammate",
			id, corrupted, unconfirmed, num(t, team, "dropped_malformed"), num(t, team, "accepted")+late, dups, duplicated, late, rejected)
	}
}

// dnetStamp reads the stamp of a dnet packet (u48 ms, little-endian, at byte 12).
func dnetStamp(b []byte) time.Duration {
	var v uint64
	for i := range 6 {
		v |= uint64(b[12+i]) << (8 * i)
	}
	return time.Duration(v) * time.Millisecond
}

// checkNothingCorrupted: without a key, through every phase, no TeamInfo carries a value
// its sender's inputs did not give it, and no GCInfo a value the GameController did not
// send (issue 39): corrupted team packets are dropped by checksum and range, corrupted
// GameController packets are held until the next packet confirms them.
func (f *fieldRun) checkNothingCorrupted(recs [fieldRobots + 1][]fieldRecord) {
	t := f.t
	clean := f.phase("clean")
	// The rest of each sender's content (not fixed by its inputs) as every robot saw it
	// before any impairment.
	rest := map[uint8]map[string]bool{}
	for id := 1; id <= fieldRobots; id++ {
		for _, r := range recs[id] {
			if in := r.Info; in != nil && wall(r).Before(clean.to) {
				if rest[in.Player] == nil {
					rest[in.Player] = map[string]bool{}
				}
				rest[in.Player][in.Rest] = true
			}
		}
	}
	near := func(a, b, tol float64) bool { return math.Abs(a-b) <= tol }
	for id := 1; id <= fieldRobots; id++ {
		var infos, wrong int
		for _, r := range recs[id] {
			in := r.Info
			if in == nil {
				continue
			}
			infos++
			p := int(in.Player)
			pose, ball := fieldPose(p), fieldBall(p)
			if in.Role != fieldRole(p) || !near(in.PosX, pose.X, 0.1) || !near(in.PosY, pose.Y, 0.1) ||
				!near(in.Theta, pose.Z, 0.3) || !near(in.BallX, ball.X, 0.1) || !near(in.BallY, ball.Y, 0.1) ||
				in.PlayState != 2 || !in.SeeBall || !rest[in.Player][in.Rest] {
				wrong++
				if wrong <= 3 {
					t.Errorf("robot %d at %v (%s): TeamInfo of player %d carries values it did not send: %+v", id, wall(r), f.phaseAt(wall(r)), p, *in)
				}
			}
		}
		if len(rest[uint8(id%fieldRobots+1)]) == 0 || infos == 0 {
			t.Errorf("robot %d: %d TeamInfo messages, no clean content of player %d", id, infos, id%fieldRobots+1)
		}

		// GCInfo: the game of gc-sim's script (PLAYING, 0:0, first half) throughout, the
		// clock running down with the system time, the budget never growing.
		var base *gcRecord
		var baseAt time.Time
		var gcs, gcWrong int
		budget := int32(math.MaxInt32)
		for _, r := range recs[id] {
			g := r.GC
			if g == nil || !g.Connected {
				continue
			}
			if base == nil {
				if wall(r).Before(clean.from) || !wall(r).Before(clean.to) {
					continue
				}
				base, baseAt = g, wall(r)
			}
			gcs++
			want := *base
			want.Secs, want.Secondary, want.Budget = g.Secs, g.Secondary, g.Budget
			secs := float64(base.Secs) - wall(r).Sub(baseAt).Seconds()
			if *g != want || math.Abs(float64(g.Secs)-secs) > 3 || g.Budget > budget || g.Budget < 0 {
				gcWrong++
				if gcWrong <= 3 {
					t.Errorf("robot %d at %v (%s): GCInfo %+v, the GameController sent %+v with %.0f s left and budget <= %d",
						id, wall(r), f.phaseAt(wall(r)), *g, *base, secs, budget)
				}
			}
			budget = min(budget, g.Budget)
		}
		if base == nil || gcs < 100 {
			t.Errorf("robot %d: %d GCInfo messages while connected", id, gcs)
			continue
		}

		// What the corruption cost, against what the emulator did (random corruption:
		// the forged packets of the phase before are left out).
		fp := f.phase(forged)
		var teamIn, gcIn uint64
		for from := 0; from <= fieldRobots; from++ {
			h := f.gc
			if from > 0 {
				h = f.robot[from]
			}
			if from == id {
				continue
			}
			for _, d := range f.emu.Records(h, f.robot[id]) {
				if d.Fate != linkemu.Delivered || !d.Corrupted || (!d.Offered.Before(fp.from) && d.Offered.Before(fp.to)) {
					continue
				}
				switch d.Port {
				case teamPort:
					teamIn++
				case 3838: // the GameController's control port
					gcIn++
				}
			}
		}
		team, gcd := lastDiag(recs[id], id, "team"), lastDiag(recs[id], id, "gamecontroller")
		var held []string
		var heldN uint64
		for k, v := range gcd {
			if n, _ := strconv.ParseUint(v, 10, 64); strings.HasPrefix(k, "dropped_unconfirmed_") && n > 0 {
				held = append(held, strings.TrimPrefix(k, "dropped_unconfirmed_")+" "+v)
				heldN += n
			}
		}
		slices.Sort(held)
		if wrong != 0 || gcWrong != 0 || teamIn == 0 || gcIn == 0 || num(t, team, "dropped_checksum") == 0 {
			t.Errorf("robot %d: %d of %d TeamInfo and %d of %d GCInfo wrong; %d corrupted team and %d GameController datagrams in; team %v",
				id, wrong, infos, gcWrong, gcs, teamIn, gcIn, team)
		}
		t.Logf("robot %d: %d corrupted team datagrams in: dropped %s by checksum, %s by range, %s malformed, %s unconfirmed; %d of %d TeamInfo wrong",
			id, teamIn, team["dropped_checksum"], team["dropped_range"], team["dropped_malformed"], team["dropped_unconfirmed"], wrong, infos)
		t.Logf("robot %d: %d corrupted GameController datagrams in: %d held (%s), %s out of range, %s wrong length; %d of %d GCInfo wrong",
			id, gcIn, heldN, strings.Join(held, ", "), gcd["dropped_range"], gcd["dropped_length"], gcWrong, gcs)
	}
}
