package node

import (
	"errors"
	"fmt"
	"math"
	"net/netip"
	"strings"
	"time"

	"github.com/robocup-dnetwork/dnetwork/node/swarm"
	"github.com/robocup-dnetwork/dnetwork/node/team"
	"github.com/robocup-dnetwork/dnetwork/proto/league"
	"github.com/robocup-dnetwork/dnetwork/proto/robocup"
	"github.com/robocup-dnetwork/dnetwork/ros/params"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// ParamInfo describes one parameter of the node, for documentation and --list-params.
type ParamInfo struct {
	Name        string
	Type        params.Type
	Default     string // as YAML would write it; "" for a required parameter
	Description string
	Constraints string // range or allowed values; "" if none
}

// Declare declares every parameter of the node on s, with its type, range and
// description, and returns the configuration they give. Every parameter is read-only:
// the components read their configuration once, at start-up.
//
// from are the overrides s was made with (params.Overrides.ForNode); a value that has
// the right type but does not parse (an address, a league name) is then reported with
// the file and key it came from. Declare reports every problem at once, then checks
// the result with Config.Validate. Overrides for parameters the node does not have are
// not checked here; see CheckOverrides.
func Declare(s *params.Store, from ...params.Override) (Config, error) {
	b := &binder{s: s, from: from}
	cfg := DefaultConfig()
	b.bind(&cfg)
	if err := errors.Join(b.errs...); err != nil {
		return cfg, err
	}
	return cfg, cfg.Validate()
}

// Parameters lists every parameter of the node with its default, in declaration order.
func Parameters() []ParamInfo {
	s, err := params.NewStore(nil)
	if err != nil {
		panic(err) // no overrides: cannot fail
	}
	b := &binder{s: s, collect: true}
	cfg := DefaultConfig()
	b.bind(&cfg)
	if err := errors.Join(b.errs...); err != nil {
		panic("node: parameter declarations: " + err.Error()) // a programming error, caught by the tests
	}
	return b.info
}

// CheckOverrides reports the overrides no parameter of s used: an error naming the file
// and key of each one given for this node by name (a key whose last level is the node's
// name, such as "dnetwork_1", "/robot1/dnetwork_1" or "/**/dnetwork_1"), and a warning
// (returned separately, one line each) for each one given under a key whose last level
// is a wildcard, such as "/**", in a parameter file, which other nodes sharing the file
// may use. A -p rule is this process's own, so an unknown one is always an error.
func CheckOverrides(s *params.Store) (warnings []string, err error) {
	var errs []error
	names := s.Names()
	known := map[string]bool{}
	for _, p := range Parameters() {
		known[p.Name] = true
	}
	for _, ov := range s.UnusedOverrides() {
		if s.Has(ov.Name) || known[ov.Name] {
			continue // a parameter of the node whose value was refused: Declare reported it
		}
		msg := fmt.Sprintf("unknown parameter %q", ov.Name)
		if near := params.Closest(ov.Name, names); near != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", near)
		}
		if last := ov.NodeKey[strings.LastIndexByte(ov.NodeKey, '/')+1:]; ov.Source.File != "" && strings.Contains(last, "*") {
			warnings = append(warnings, fmt.Sprintf("%s: %s under %q, ignored", ov.Source, msg, ov.NodeKey))
			continue
		}
		errs = append(errs, &params.SourceError{Source: ov.Source, Err: fmt.Errorf("%w: %s", params.ErrNotDeclared, msg)})
	}
	return warnings, errors.Join(errs...)
}

// bind declares every parameter and stores its value in c. The defaults are c's
// current values, so DefaultConfig is the single source of the defaults.
func (b *binder) bind(c *Config) {
	b.requiredInt("robot_id", &c.RobotID, MinRobotID, MaxRobotID,
		"This robot's player number. Names the node (dnetwork_<id>) and its topics (/dnetwork_<id>/...).")
	b.requiredInt("team_number", &c.TeamNumber, MinTeamNumber, MaxTeamNumber,
		"Our team number as the GameController knows it.")
	b.text("league", c.League.String(), "League profile: team message size cap and budget rules.",
		"hsl, spl or hl", func(v string) (err error) { c.League, err = league.Parse(v); return })
	b.text("interface", c.Interface,
		"Network interface of every socket: a name (wlan0), a CIDR (10.0.1.0/24), an IPv4 address, auto (the single usable broadcast interface), any or lo.",
		"", func(v string) error { c.Interface = v; return checkSelector(v) })
	b.integer("receive_buffer", &c.ReceiveBuffer, 0, MaxReceiveBuffer,
		"Receive buffer (SO_RCVBUF) of the GameController and team sockets in bytes; 0 keeps the system default. Without CAP_NET_ADMIN the kernel caps it at net.core.rmem_max; /diagnostics shows the effective size (read_buffer).")
	b.boolean("inputs.reliable", &c.InputsReliable,
		"Subscribe MotionInfo, BehaviorInfo and VisionInfo with reliable QoS. Off: best effort, which matches publishers of either reliability.")

	// Team communication.
	t := &c.Team
	b.boolean("team.enabled", &c.TeamEnabled, "Run UDP team communication (off in the 3D simulator, where sim3d carries it).")
	b.text("team.format", t.Format.String(), "Team packet format sent and the only one accepted.",
		"zju, dnet, robocup or booster", func(v string) (err error) { t.Format, err = team.ParseFormat(v); return })
	b.text("team.robocup_extension", t.RobocupExtension.String(),
		"Extension fields of format robocup (the HL standard protobuf) we write; the team number goes into current_pose.team with bitbots and nubots, as those teams do. Both are read whatever is set.",
		"none, bitbots or nubots", func(v string) (err error) { t.RobocupExtension, err = robocup.ParseExtension(v); return })
	b.text("team.booster_mode", t.BoosterMode.String(),
		"Format booster only: unicast (the Booster vendor stack's main branch: a discovery broadcast on 20000 + team_number every second, then the packet by unicast to each robot found, on 30000 + team_number) or broadcast (its 2026 branch: broadcast on 10000 + team_number).",
		"unicast or broadcast", func(v string) (err error) { t.BoosterMode, err = team.ParseBoosterMode(v); return })
	b.port("team.port", &t.Port, true,
		"Team UDP port, bound and sent to; 0 means 10000 + team_number, or 30000 + team_number for format booster in unicast mode (ZJUDancer robots use 57335).")
	b.secret("team.auth_key", string(t.AuthKey),
		"Shared team secret (dnet only; an error with zju and robocup, which have no room for a tag): packets are signed with HMAC-SHA-256 and unsigned or badly signed ones dropped. Empty: no signing.",
		func(v string) error { t.AuthKey = []byte(v); return nil })
	b.texts("team.peers", stringsOf(t.Peers),
		"Unicast destinations replacing the broadcast, as address:port (several robots on one host: the teammates' 127.0.0.1:port). Empty: broadcast on the interface.",
		func(v []string) (err error) { t.Peers, err = parseList(v, parseAddrPort); return })
	b.text("team.monitor_address", addrPortString(t.Monitor),
		"Where a copy of every packet goes once per monitor_interval, as address:port (a team computer), also while the robot is silent; neither a broadcast address nor the team port, where the GameController would count it. Empty: off.",
		"", func(v string) (err error) { t.Monitor, err = parseOptionalAddrPort(v); return })
	b.seconds("team.monitor_interval", &t.MonitorInterval, 0.1, 60, "Period of the monitor copy, seconds.")
	b.hz("team.tick_rate", &t.Tick, 1, 100, "Rate of the send loop, Hz; send intervals are rounded to whole ticks.")
	b.seconds("team.rate.ball_handling", &t.Rate.BallHandling, 0.01, 60, "Send interval while our team-play state is BALL_HANDLING, seconds.")
	b.seconds("team.rate.ball_near", &t.Rate.BallNear, 0.01, 60, "Send interval while the ball is seen closer than near_distance, seconds.")
	b.seconds("team.rate.ball_mid", &t.Rate.BallMid, 0.01, 60, "Send interval while the ball is seen closer than mid_distance, seconds.")
	b.seconds("team.rate.ball_far", &t.Rate.BallFar, 0.01, 60, "Send interval while the ball is seen farther away, seconds.")
	b.seconds("team.rate.blind", &t.Rate.Blind, 0.01, 60, "Send interval while the ball is not seen, seconds.")
	b.seconds("team.rate.alone", &t.Rate.Alone, 0, 60, "Longest-interval floor while no teammate is heard, seconds; 0: off.")
	b.double("team.rate.near_distance", &t.Rate.NearDistance, 0.01, 20, "Ball distance of the near row, metres; at most mid_distance.")
	b.double("team.rate.mid_distance", &t.Rate.MidDistance, 0.01, 20, "Ball distance of the mid row, metres.")
	if t.Rate.NearDistance > t.Rate.MidDistance {
		b.fail("team.rate.near_distance", fmt.Errorf("%g m is beyond team.rate.mid_distance %g m; the near row must be the nearer",
			t.Rate.NearDistance, t.Rate.MidDistance))
	}
	b.integer("team.budget_reserve", &t.Reserve, -1, 100000,
		"Messages of the team budget never spent; -1: the league's default (HSL 100, SPL 30).")
	b.boolean("team.silent_uncounted", &t.SilentUncounted, "Stay silent in game states whose messages do not count against the budget.")
	b.boolean("team.silent_when_stopped", &t.SilentWhenStopped, "Stay silent while the GameController says play is stopped (HSL).")
	b.seconds("team.gc_wait", &t.GCWait, 0, team.MaxGCWait.Seconds(),
		"After start, hold team packets until the GameController is heard or for this long without one, seconds (a rebooted robot does not spend the team's budget blind); 0: off.")
	b.seconds("team.teammate_timeout", &t.TeammateTimeout, 0.1, 60, "A teammate counts as online this long after its last packet, seconds.")
	b.seconds("team.replay_silence", &t.ReplaySilence, 0, 600, "How long the replay filter remembers a silent sender (dnet), seconds; 0: 5 s.")
	b.seconds("team.max_age", &t.MaxAge, 0, 600, "Drop packets whose sender time is further than this from our clock, seconds; 0: off (needs synchronised clocks).")
	if c.TeamEnabled && t.Monitor.IsValid() && c.TeamNumber >= MinTeamNumber && c.TeamNumber <= MaxTeamNumber {
		ifs, _ := hostInterfaces() // without the list, the address and the port are checked
		if err := c.Resolve().monitorCounted(ifs); err != nil {
			b.fail("team.monitor_address", err)
		}
	}

	// GameController.
	g := &c.GameController
	b.port("gamecontroller.port", &c.GameControllerPort, false, "UDP port of the GameController's control packets.")
	b.port("gamecontroller.return_port", &g.ReturnPort, false, "GameController's port for return packets.")
	b.texts("gamecontroller.allow_from", stringsOf(g.AllowFrom),
		"GameController source addresses or CIDRs accepted; others are counted as filtered. Empty: any source.",
		func(v []string) (err error) { g.AllowFrom, err = parseList(v, parsePrefix); return })
	b.seconds("gamecontroller.timeout", &g.Timeout, 0.1, 60, "Connected while the last valid packet is younger than this, seconds.")
	b.double("gamecontroller.publish_rate", &g.PublishRate, 0.1, 100, "Rate of GCInfo publications, Hz.")
	b.boolean("gamecontroller.publish_on_change", &g.PublishOnChange, "Also publish GCInfo at once when a packet changes the game state.")
	b.double("gamecontroller.return_rate", &g.ReturnRate, 0.5, 2, "Rate of return packets, Hz.")
	b.integerU8("gamecontroller.return_version", &g.ReturnVersion, []int64{0, 2, 3, 4},
		"Return packet version; 0: follow the GameController's packets (v2 HL, v3 SPL v12/13, v4 otherwise).")
	b.seconds("gamecontroller.multi_window", &g.MultiWindow, 0.1, 600, "Two GameController addresses heard within this window count as more than one GameController, seconds.")

	// World info.
	w := &c.WorldInfo
	b.boolean("worldinfo.enabled", &w.Enabled, "Run the Fawkes world info component.")
	b.text("worldinfo.group", w.Group.Addr().String(), "Multicast group of world info.", "IPv4 multicast address",
		func(v string) error {
			a, err := parseGroup(v)
			if err == nil {
				w.Group = netip.AddrPortFrom(a, w.Group.Port())
			}
			return err
		})
	wport := w.Group.Port()
	b.port("worldinfo.port", &wport, false, "UDP port of world info.")
	w.Group = netip.AddrPortFrom(w.Group.Addr(), wport)
	b.text("worldinfo.interface", w.Interface, "Interface of the world info socket; empty: the node's interface.", "",
		func(v string) error { w.Interface = v; return checkSelector(v) })
	b.secret("worldinfo.key", w.Key, "Encryption key string shared with the Fawkes peers (at least 15 characters).",
		func(v string) error { w.Key = v; return nil })
	b.hz("worldinfo.rate", &w.Interval, 0.02, 50, "Send rate, Hz.")
	if v, ok := b.declare("worldinfo.ttl", params.Integer(int64(w.TTL)), params.TypeInteger,
		"Multicast TTL; -1 keeps datagrams on this host.", "-1 or 1..255", params.IntRange(-1, 255, 1)); ok {
		w.TTL = int(v.IntegerValue)
		if w.TTL == 0 {
			b.fail("worldinfo.ttl", errors.New("0 is not a TTL: -1 keeps datagrams on this host, 1 on the local network"))
		}
	}
	b.boolean("worldinfo.loopback", &w.Loop, "Multicast loopback: this host hears what it sends.")
	b.boolean("worldinfo.fat_message", &w.FatMessage, "Also send the legacy fat record every cycle.")
	b.boolean("worldinfo.relative_ball_as_type10", &w.RelBallAsType10, "Send the relative ball as record type 10, as Fawkes senders do.")
	b.boolean("worldinfo.type10_as_global", &w.Type10AsGlobal, "Read received type-10 records as global balls, as Fawkes receivers do.")
	b.seconds("worldinfo.input_timeout", &w.InputTimeout, 0.05, 60, "MotionInfo and VisionInfo older than this are not sent, seconds.")
	b.boolean("worldinfo.pose_without_loc", &w.PoseWithoutLoc, "Send the pose even while localisation is not trusted (VisionInfo.loc_ok false).")
	b.boolean("worldinfo.ignore_attack_side", &w.IgnoreAttackSide, "Send field positions as they are, whatever BehaviorInfo.attack_right says.")
	b.boolean("worldinfo.ros_frame_on_wire", &w.ROSFrameOnWire, "Send y and angles in the ROS convention instead of Fawkes'.")
	b.integer("worldinfo.max_opponents", &w.MaxOpponents, 0, 25, "Most opponents sent per datagram, the nearest first.")
	b.double("worldinfo.opponent_gate", &w.OpponentGate, 0.01, 10, "Largest move of an obstacle between two cycles that keeps its uid, metres.")
	b.seconds("worldinfo.flush_after", &w.FlushAfter, -1, 3600, "Forget a sender silent for this long, seconds; negative: never; not 0.")
	if w.FlushAfter == 0 {
		b.fail("worldinfo.flush_after", errors.New("0 would forget every sender at once; a negative value never forgets"))
	}

	// Swarm.
	s := &c.Swarm
	b.boolean("swarm.enabled", &s.Enabled, "Run the swarm messaging component.")
	b.text("swarm.name", s.Name, "This robot's swarm address; empty: robot<robot_id>.", "",
		func(v string) error { s.Name = v; return nil })
	b.texts("swarm.hosts", s.Hosts, "Robot names and addresses, name=ip or name=ip:port. Empty: accept any sender.",
		func(v []string) error {
			if _, err := swarm.ParseHosts(v); err != nil {
				return err
			}
			s.Hosts = v
			return nil
		})
	b.text("swarm.mode", s.Mode.String(), "Mapping of virtual destinations to UDP.", "network, ports or host-multicast",
		func(v string) (err error) { s.Mode, err = swarm.ParseMode(v); return })
	b.text("swarm.interface", s.Interface, "Interface of the swarm socket; empty: the node's interface (network mode) or lo.", "",
		func(v string) error { s.Interface = v; return checkSelector(v) })
	b.port("swarm.udp_port", &s.UDPPort, false, "Real UDP port of the network and host-multicast modes.")
	b.text("swarm.group", addrString(s.Group), "Multicast group of \"multicast\" and the host-multicast mode; empty: 239.255.41.0.", "",
		func(v string) error {
			if v == "" {
				s.Group = netip.Addr{}
				return nil
			}
			a, err := parseGroup(v)
			if err == nil {
				s.Group = a
			}
			return err
		})
	b.ports("swarm.ports", &s.Ports, "Virtual ports bound on this robot's address.")
	b.ports("swarm.multicast_ports", &s.MulticastPorts, "Virtual ports bound on \"multicast\".")
	b.seconds("swarm.neighbor_window", &s.NeighborWindow, 0.1, 600, "A robot stays a neighbour this long after it was heard, seconds.")
	b.double("swarm.neighbors_rate", &s.NeighborsRate, 0.1, 100, "Rate of the neighbours topic, Hz.")
	b.double("swarm.range", &s.Range, 0, 10000, "Communication range, metres; 0: unlimited. Network mode only (with team communication and swarm.hosts): a teammate's position comes from its team packets, matched by source IP, until it goes offline; other modes warn at start and ignore it.")

	// 3D simulator.
	d := &c.Sim3D
	b.boolean("sim3d.enabled", &c.Sim3DEnabled, "Carry team talk over the 3D simulator's say/hear channel.")
	b.text("sim3d.key", d.Key, "Key of the team codec's checksum, the same on every robot of the team (e.g. the team name).", "",
		func(v string) error { d.Key = v; return nil })
	b.text("sim3d.team_name", d.TeamName, "Our team's name; hear perceptors labelled with another team are dropped. Empty: the label of the robot's own echoed message.", "",
		func(v string) error { d.TeamName = v; return nil })
	b.integer("sim3d.team_size", &d.TeamSize, 1, 11, "Players sharing the channel (slots per round); the same on every robot.")
	b.integer("sim3d.slot_cycles", &d.SlotCycles, 2, 10, "Server cycles per talking slot (2 plus margin for a say relayed late); the same on every robot.")
	b.seconds("sim3d.cycle", &d.Cycle, 0.001, 1, "The simulator's cycle, seconds.")
	b.seconds("sim3d.ball_forget", &d.BallForget, 0.1, 12.7, "How long after it was last seen the ball is still reported, seconds.")

	// Recording.
	rc := &c.Record
	b.boolean("record.enabled", &rc.Enabled, "Record every datagram the node's sockets receive and send, and the 3D simulator's say/hear messages, to pcapng files (Wireshark, dnetwork decode).")
	b.text("record.dir", rc.Dir, "Directory of the recordings, one file dnetwork_<id>_<UTC start>.pcapng per run; empty: $ROS_HOME/dnetwork (~/.ros/dnetwork without ROS_HOME).", "",
		func(v string) error { rc.Dir = v; return nil })
	b.integer("record.max_size", &rc.MaxSizeMiB, 0, 1<<20, "Size at which a recording continues in a new file (name_001.pcapng, ...), MiB; 0: no limit.")
	b.integer("record.rotate", &rc.Rotate, 0, 100000, "Most files of one run kept, the oldest removed first; 0: all.")
	b.integer("record.min_free", &rc.MinFreeMiB, 0, 1<<20, "Free disk space below which nothing is written (and the loss counted), MiB; 0: no floor.")
	b.seconds("record.flush_interval", &rc.FlushInterval, 0.05, 60, "Longest time a record stays in memory before it is written to the file, seconds.")

	// Diagnostics.
	b.seconds("diagnostics.period", &c.Diagnostics.Period, 0.1, 60, "Period of /diagnostics, seconds.")
	b.text("diagnostics.hardware_id", c.Diagnostics.HardwareID, "hardware_id of every status; empty: robot<robot_id>.", "",
		func(v string) error { c.Diagnostics.HardwareID = v; return nil })
}

// binder declares parameters on a store and writes their values into a Config.
type binder struct {
	s       *params.Store
	from    []params.Override
	collect bool // record ParamInfo
	info    []ParamInfo
	errs    []error
}

// declare declares one read-only parameter and returns its value (the override or
// def); ok is false when the declaration failed or the parameter has no value.
func (b *binder) declare(name string, def params.Value, typ params.Type, desc, constraints string, opts ...params.Option) (params.Value, bool) {
	return b.declareAs(b.s.Declare, name, def, typ, desc, constraints, opts...)
}

// declareAs is declare with the store's Declare or DeclareSecret.
func (b *binder) declareAs(decl func(string, params.Value, params.Descriptor) (params.Value, error),
	name string, def params.Value, typ params.Type, desc, constraints string, opts ...params.Option) (params.Value, bool) {
	d := params.Descriptor{Type: typ, Description: desc, AdditionalConstraints: constraints, ReadOnly: true}
	for _, o := range opts {
		o(&d)
	}
	if b.collect {
		info := ParamInfo{Name: name, Type: typ, Description: desc, Constraints: constraints}
		if def.IsSet() {
			info.Default = def.String()
		}
		var rng string
		if r := d.IntegerRange; r != nil {
			rng = fmt.Sprintf("%d..%d", r.From, r.To)
		}
		if r := d.FloatingPointRange; r != nil {
			rng = fmt.Sprintf("%g..%g", r.From, r.To)
		}
		switch {
		case rng != "" && constraints == "":
			info.Constraints = rng
		case rng != "" && constraints == "required":
			info.Constraints = rng + ", required"
		}
		b.info = append(b.info, info)
	}
	v, err := decl(name, def, d)
	if err != nil {
		b.errs = append(b.errs, err)
		return v, false
	}
	return v, v.IsSet()
}

// errRequired marks a required parameter that is not given.
var errRequired = errors.New("required")

// fail records a value that has the right type but does not parse.
func (b *binder) fail(name string, err error) {
	err = &params.ParamError{Name: name, Err: err}
	for _, ov := range b.from {
		if ov.Name == name {
			err = &params.SourceError{Source: ov.Source, Err: err}
			break
		}
	}
	b.errs = append(b.errs, err)
}

func (b *binder) requiredInt(name string, p *int, lo, hi int64, desc string) {
	v, ok := b.declare(name, params.Value{}, params.TypeInteger, desc, "required", params.IntRange(lo, hi, 1))
	if !ok {
		if !b.collect && b.s.Has(name) {
			b.fail(name, fmt.Errorf("%w, set it in the parameter file or with -p %s:=<%d..%d>", errRequired, name, lo, hi))
		}
		return
	}
	*p = int(v.IntegerValue)
}

func (b *binder) integer(name string, p *int, lo, hi int64, desc string) {
	if v, ok := b.declare(name, params.Integer(int64(*p)), params.TypeInteger, desc, "", params.IntRange(lo, hi, 1)); ok {
		*p = int(v.IntegerValue)
	}
}

// integerU8 declares an integer restricted to a set of values.
func (b *binder) integerU8(name string, p *uint8, allowed []int64, desc string) {
	var text []string
	for _, a := range allowed {
		text = append(text, fmt.Sprint(a))
	}
	v, ok := b.declare(name, params.Integer(int64(*p)), params.TypeInteger, desc, strings.Join(text, ", "),
		params.IntRange(allowed[0], allowed[len(allowed)-1], 1))
	if !ok {
		return
	}
	for _, a := range allowed {
		if v.IntegerValue == a {
			*p = uint8(a)
			return
		}
	}
	b.fail(name, fmt.Errorf("%d is not one of %s", v.IntegerValue, strings.Join(text, ", ")))
}

func (b *binder) port(name string, p *uint16, zeroOK bool, desc string) {
	lo := int64(1)
	if zeroOK {
		lo = 0
	}
	if v, ok := b.declare(name, params.Integer(int64(*p)), params.TypeInteger, desc, "", params.IntRange(lo, 65535, 1)); ok {
		*p = uint16(v.IntegerValue)
	}
}

func (b *binder) ports(name string, p *[]uint16, desc string) {
	def := make([]int64, len(*p))
	for i, x := range *p {
		def[i] = int64(x)
	}
	v, ok := b.declare(name, params.IntegerArray(def), params.TypeIntegerArray, desc, "ports 1..65535")
	if !ok {
		return
	}
	out := make([]uint16, 0, len(v.IntegerArrayValue))
	for _, x := range v.IntegerArrayValue {
		if x < 1 || x > 65535 {
			b.fail(name, fmt.Errorf("port %d is outside 1..65535", x))
			return
		}
		out = append(out, uint16(x))
	}
	*p = out
}

func (b *binder) double(name string, p *float64, lo, hi float64, desc string) {
	if v, ok := b.declare(name, params.Double(*p), params.TypeDouble, desc, "", params.FloatRange(lo, hi, 0)); ok {
		*p = v.DoubleValue
	}
}

func (b *binder) boolean(name string, p *bool, desc string) {
	if v, ok := b.declare(name, params.Bool(*p), params.TypeBool, desc, ""); ok {
		*p = v.BoolValue
	}
}

// seconds declares a duration as a double number of seconds.
func (b *binder) seconds(name string, p *time.Duration, lo, hi float64, desc string) {
	if v, ok := b.declare(name, params.Double(roundSeconds(*p)), params.TypeDouble, desc, "", params.FloatRange(lo, hi, 0)); ok {
		*p = time.Duration(math.Round(v.DoubleValue * float64(time.Second)))
	}
}

// hz declares a period as a double rate in Hz.
func (b *binder) hz(name string, p *time.Duration, lo, hi float64, desc string) {
	def := 0.0
	if *p > 0 {
		def = math.Round(float64(time.Second)/float64(*p)*1000) / 1000
	}
	if v, ok := b.declare(name, params.Double(def), params.TypeDouble, desc, "", params.FloatRange(lo, hi, 0)); ok {
		*p = time.Duration(math.Round(float64(time.Second) / v.DoubleValue))
	}
}

func (b *binder) text(name, def, desc, constraints string, set func(string) error) {
	v, ok := b.declare(name, params.String(def), params.TypeString, desc, constraints)
	if !ok {
		return
	}
	if err := set(v.StringValue); err != nil {
		b.fail(name, err)
	}
}

func (b *binder) texts(name string, def []string, desc string, set func([]string) error) {
	if def == nil {
		def = []string{}
	}
	v, ok := b.declare(name, params.StringArray(def), params.TypeStringArray, desc, "")
	if !ok {
		return
	}
	if err := set(v.StringArrayValue); err != nil {
		b.fail(name, err)
	}
}

// roundSeconds gives a duration in seconds with at most microsecond digits, so that
// defaults print as 0.067 rather than 0.06700000000000001.
func roundSeconds(d time.Duration) float64 {
	return math.Round(d.Seconds()*1e6) / 1e6
}

func checkSelector(v string) error {
	if v == "" {
		return nil
	}
	_, err := transport.ParseSelector(v)
	return err
}

// parseGroup reads an IPv4 multicast address.
func parseGroup(v string) (netip.Addr, error) {
	a, err := netip.ParseAddr(v)
	if err != nil || !a.Is4() || !a.IsMulticast() {
		return netip.Addr{}, fmt.Errorf("%q is not an IPv4 multicast address", v)
	}
	return a, nil
}

// parseList parses every item of a list parameter with parse and returns the items
// that parse, with the errors of the others joined into one line.
func parseList[T any](v []string, parse func(string) (T, error)) ([]T, error) {
	var out []T
	var errs []error
	for _, s := range v {
		x, err := parse(s)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, x)
	}
	return out, joinList(errs)
}

func parseOptionalAddrPort(v string) (netip.AddrPort, error) {
	if v == "" {
		return netip.AddrPort{}, nil
	}
	return parseAddrPort(v)
}

// joinList joins the errors about the items of one list parameter into one line.
func joinList(errs []error) error {
	if len(errs) == 0 {
		return nil
	}
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Error()
	}
	return errors.New(strings.Join(msgs, "; "))
}

// stringsOf returns the text of every item of a list parameter's value.
func stringsOf[T fmt.Stringer](v []T) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = x.String()
	}
	return out
}

func addrPortString(a netip.AddrPort) string {
	if !a.IsValid() {
		return ""
	}
	return a.String()
}

func addrString(a netip.Addr) string {
	if !a.IsValid() {
		return ""
	}
	return a.String()
}
