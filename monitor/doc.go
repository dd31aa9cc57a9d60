// Package monitor is a passive listener for a RoboCup game's network, in the spirit of the
// SPL TeamCommunicationMonitor: it hears the GameController, the robots' return packets
// and the team messages, and shows every robot on a web page and as JSON. It sends nothing
// but, with Config.TrueData, the GameController's monitor requests (see below).
//
// # Ports and what is seen where
//
//	port            kind            traffic                                    decoded with
//	3838            gamecontroller  "RGme"/"RGTD" broadcast by the GameController   proto/gamecontroller
//	3939            return          "RGrt" unicast from each robot to the GC host   proto/gamecontroller
//	3940            forward         robot address + "RGrt", from the GameController proto/gamecontroller
//	10000 + team    team            team messages broadcast by the robots           proto/teaminfo (zju, dnet)
//	e.g. 57335      team (shared)   ZJUDancer's one port for every team             proto/teaminfo
//
// Every socket is a transport.Worker bound to 0.0.0.0:port with SO_REUSEADDR, on the
// interface Config.Interface selects ("any" by default, so loopback works too). A monitor
// therefore runs beside a dnetwork node or a GameController on the same host, and what it
// sees follows the kernel's rules for shared ports:
//
//   - Broadcast and multicast datagrams are copied to every socket bound to the port:
//     the monitor sees every control packet and every team message that reaches its
//     host, whoever else listens there.
//   - A unicast datagram reaches only one of the sockets sharing a port, normally the one
//     bound last. Return packets are unicast to the GameController's host: on another
//     host the monitor sees none of them, and on the GameController's host it competes
//     with the GameController for them: a monitor started after the GameController would
//     take the return packets away from it (the GameController then shows the robots
//     offline). So when the monitor hears control packets from one of this host's own
//     addresses (loopback included), it closes its socket on the GameController's return
//     port 3939 and says why in the log and in gamecontroller.warning (local: true);
//     Config.KeepReturnPort keeps the socket and only warns. A return port of 0 in the
//     dnetwork monitor command (no Port of KindReturn here) leaves them alone from the
//     start.
//   - Several simulated robots on one host talk either on per-robot ports (unicast,
//     which a monitor cannot share without stealing) or on a host-only multicast group,
//     which Config.Groups joins on every team port.
//
// With Config.TrueData the monitor speaks the GameController's monitor channel, as the
// TeamCommunicationMonitor does: it sends "RGTr" to UDP 3636 of every GameController it
// hears but the HL ones (v12), every second until answered, then every 10 s (since a
// GameController's senders to a monitor end when sending fails), keeps the true-data
// packets ("RGTD") apart from the robots' view and takes the status messages the GameController forwards to port 3940 as
// return packets of the address in their prefix: from any host, the GameController's own
// included, without a socket on 3939. A GameController ignores requests from a host it has
// received status messages from; when control packets arrive but requests stay unanswered
// for 3 s, gamecontroller.true_data says so (refused, warning), and the log too.
//
// With Config.FollowGC the monitor also opens the team port of every team the
// GameController names, so no team list is needed during a game.
//
// Team ports carry dnet, zju and Booster team messages, each robot shown with its
// format. With Config.Booster the monitor also opens the Booster robots' own ports of
// each team (BoosterPorts: discovery 20000 + team, unicast 30000 + team); what arrives
// there shows its robot, counted as OffPort (illegal) and not on the team's port.
//
// # Clocks
//
// A passive monitor cannot measure a robot's clock against its own, but dnet version 2
// packets let it compare teammates: when robot b's packet answers robot a's, the echo
// tells when b received it on b's clock, which bounds clock_b - clock_a from above;
// a's answers to b bound it from below. Each pair keeps a clock/offset Estimator (the
// second tightest bound each way, loosened by 100 ppm per second of age; a bound that
// contradicts the estimate is rejected unless several agree), and every robot is shown
// against its team's lowest-numbered robot.
//
// # Links
//
// Every robot's team messages feed a link tracker (package proto/linkq) on the monitor's
// clock: the fraction lost on the way to the monitor, from the gaps in their sequence
// numbers (dnet), the jitter of their transit times, duplicates and reorders, over
// Config.RateWindow. A dnet packet with a number not newer than the robot's last but a
// later stamp (its node restarted) starts the robot's window afresh. The page shows loss
// and jitter in the Link column, so a team sees which robot's Wi-Fi is bad; each robot's
// own view of its teammates is its TeamLinks topic.
//
// # Robots
//
// A robot is identified by its (team, player) numbers as its packets carry them, not by
// address; the addresses it sends from are shown per kind of port. A team message sets
// its pose, ball, role, team-play state and (dnet only) fallen flag; a version 4 return
// packet sets its pose, ball and fallen flag; the newer of the two poses is shown. The
// ball estimate arrives relative to the robot and is turned into field coordinates with
// the robot's pose, in the robot's own frame (centre origin, +x towards the goal its team
// attacks). The GameController's penalty of the player is shown too.
//
// Times: a robot is online while its last packet of any kind is at most
// Config.OfflineAfter (5 s, the TeamCommunicationMonitor's value) old, and is forgotten
// after Config.RemoveAfter (60 s; the TeamCommunicationMonitor uses 10 s, which makes a
// robot vanish during a long pick-up). Rates are packets in the last Config.RateWindow
// (10 s) divided by the whole window, so they build up over the first 10 s. Times come
// from the injected clock: the receive time of each datagram and "now" of each snapshot.
//
// Budget: a team's messages are the datagrams on its port (every datagram, malformed
// ones included, as the GameController counts them), or on a shared port the decoded
// packets carrying its number. A message is counted against the budget when the last
// control packet's state counts for the league (league.League.Counted: READY, SET,
// PLAYING, and STANDBY in the SPL; never in a penalty shoot-out or timeout), and is
// over budget when the GameController's messageBudget for the team was 0. Counters reset
// when a new game starts: the control packets name other teams, or return to INITIAL of
// the first half in the normal game phase (a timeout, sent as INITIAL, and the first half
// of extra time go on with the game). The GameController's own count (gc_used) is the sum of the drops of
// its messageBudget between the control packets heard in the same time (a rise is
// budget granted); budget_diff is counted minus gc_used.
//
// Rules: team messages belong on 10000 + team number of the two teams the GameController
// names. A datagram the monitor hears on a team port of a team that is not playing (while
// a GameController is heard), on a port no team owns (a shared port such as 57335), or
// carrying another team's number than its port's is flagged per source host and port
// (port_flags). The GameController's ports are always allowed.
//
// Formats: a team message is decoded in the first format of teamFormats (formats.go)
// that claims it by content: dnet, zju, robocup. A new format is one entry there.
//
// Faults of a packet are counted for the robot last heard from its source address, for
// the robot an unverifiable dnet packet claims to be when that one is known, or else for
// the source address (Snapshot.Sources):
//
//	wrong_size   malformed  no packet of the port's protocol has this length
//	undecodable  malformed  right size, rejected by the decoder (header, version, range,
//	                        checksum, bool byte, reserved bit, NaN, player or team
//	                        number 0), or a dnet packet with neither checksum nor tag
//	auth         malformed  with Config.AuthKey: a dnet packet without a valid tag
//	oversize     illegal    decodes, but longer than the league's cap (128 B SPL, 512 B HSL)
//	wrong_port   illegal    a team message on another team's port
//	off_port     illegal    a team or discovery message on a Booster robots' own port
//
// Memory is bounded: at most Config.MaxRobots robots, Config.MaxSources sources and as
// many GameController hosts and port flags; the packets of further robots are counted in dropped_robots,
// and the source heard from longest ago makes room for a new one.
//
// # Replay
//
// A Player replays a recording (package transport/capture) into a monitor that opens no
// socket: datagrams are observed at their capture times on a manual clock, so the page
// shows each moment as a live monitor showed it. It plays at a chosen speed, pauses, and
// seeks; seeking back rebuilds the state from the recording's start. Snapshot.Replay
// describes the position and POST /api/replay controls it. Each port's state is
// PortHeard while the recording carries datagrams on it within OfflineAfter before the
// position, PortSilent otherwise (there is no socket to be up or down).
// RecordingLeague tells a recording's league from its GameController packets, which the
// replay's size cap, budget rules and field follow unless the league is given.
// NewLogPlayer replays a GameController log alike: its status and team messages are the
// datagrams, its actions are ReplayView.Events over the whole log, and ReplayView.GameState
// is the log's latest game state at the position.
//
// # HTTP
//
// Monitor.Handler serves the web page at GET / (index.html, app.js and style.css,
// embedded: no external scripts or fonts) and the state at GET /api/state. The page polls
// the state every 400 ms and draws the field with every robot (circle in the team colour,
// heading line, player number, role), its ball estimate, the GameController's state,
// clock and score, per-team budget cards and a table of the robots. The first team of the
// state is drawn attacking right; the second team's poses are mirrored so that it attacks
// left.
//
// # JSON
//
// GET /api/state returns a Snapshot. Keys are snake_case; distances are metres, angles
// radians, times seconds; null marks a value not known.
//
//	time                 string   the monitor clock's now (RFC 3339)
//	league, size_cap     string, int   rules in use: "hsl", "spl" or "hl"; cap in bytes
//	offline_after_s, remove_after_s, rate_window_s   number
//	field                object   length, width, border, goal_width, goal_depth,
//	                              goal_area_length/_width, penalty_area_length/_width,
//	                              penalty_mark_distance, centre_circle_diameter
//	gamecontroller       object
//	  online             bool     a control packet within offline_after_s
//	  packets, rate      int, number   valid control packets; per second
//	  age_s              number|null
//	  source             string   address of the last control packet
//	  sources, multiple  [string], bool   GameController hosts heard within
//	                              offline_after_s; true when more than one
//	  games              int      new games seen (budget counters reset)
//	  local              bool     a GameController was heard from this host's address
//	  warning            string   what the monitor did about it (closed the return port)
//	  faults, last_error object, string   bad packets on the port (see Faults)
//	  game               object|null   the last valid control packet:
//	    layout, version, header, packet_number, players_per_team
//	    state, game_phase, set_play   names, e.g. "playing", "normal", "corner_kick"
//	    stopped, first_half
//	    kicking_team     int      the byte as sent (255: HL drop ball, SPL/HSL no team)
//	    kicking_team_number  int  the kicking team's number, 0 when no team kicks
//	    set_play_team    int      the team taking the set play (HL secondaryStateInfo[0],
//	                              SPL/HSL kickingTeam); 0 without a set play
//	    drop_ball        bool     gamecontroller.Packet.DropBall
//	    secs_remaining, secondary_time   int   seconds, negative when overrun
//	    budget_counted   bool     messages sent now count against the budget
//	    teams            [2]{team, colour, goalkeeper_colour, goalkeeper, score,
//	                     penalty_shot, message_budget (int|null: remaining, as the
//	                     GameController reports it), players [{player, penalty,
//	                     secs_till_unpenalised}]}
//	  true_data          object|null   the monitor channel (Config.TrueData): requested,
//	                     requests, packets (RGTD), online, age_s, source, forwarded
//	                     (status messages), refused, warning, game (the last RGTD, as
//	                     game); robots' penalties come from it while it is online
//	teams                [object] in drawing order
//	  team, port         int      port 0: no port of its own
//	  attacks            string   "right" or "left" on the page; "" for a team the
//	                     GameController does not name
//	  colour             string   field player colour from the GameController, or ""
//	  score              int|null
//	  messages, rate     int, number   team messages; per second
//	  formats            [string] its robots' formats ("dnet", "robocup", "zju"), sorted
//	  counted            int      messages counted against the budget this game
//	  budget_remaining   int|null the GameController's messageBudget
//	  gc_used, budget_diff  int|null   the GameController's count in the same time,
//	                     counted minus it; null without a budget in the control packet
//	  over_budget        int      counted while budget_remaining was 0
//	  robots, robots_online  int
//	  malformed, illegal int      sums over its robots (illegal adds over_budget)
//	robots               [object] by team (in teams order), then player
//	  team, player, online, age_s   age of the last packet of any kind
//	  pose               {x, y, theta}|null   the robot's own frame
//	  pose_source        string   "team" or "return"
//	  ball               {x, y, rel_x, rel_y, age_s (number|null), source}|null
//	  role, play_state   string   "" until a team message arrived
//	  fallen, incapacitated, penalised   bool
//	  penalty, secs_till_unpenalised   the GameController's view of the player
//	  format, auth       string   "dnet"/"zju"/"robocup"; "none", "unverified" or "verified"
//	  team_msgs, return_msgs   {count, rate, age_s (number|null), source}
//	  return_version     int      2, 3 or 4; 0 before the first return packet
//	  counted            int      its messages counted against the budget this game
//	  faults             {wrong_size, undecodable, auth, oversize, wrong_port, off_port}
//	  malformed, illegal int      the first three and the last three of faults
//	  last_error         string
//	  echo               {player, hold_ms}|null   the clock echo of its last dnet packet
//	  clock              {ref, offset_ms, bound_ms}|null   its clock minus robot ref's
//	                     (the lowest player number of its team), true value within
//	                     ± bound_ms; null for ref itself and until both bounded it
//	  link               {loss (number|null), received, expected, jitter_ms
//	                     (number|null), duplicates, reordered}|null   how its team
//	                     messages reach the monitor over rate_window_s (LinkView): loss
//	                     from the gaps in their sequence numbers (dnet), jitter from
//	                     their transit times; its monitor copies count as duplicates
//	ports                [{name, kind, port, team, state, interface, error, received,
//	                     delivered, malformed, queue_full, oversize, filtered, sent,
//	                     send_errors}]   the sockets and their transport counters
//	sources              [{source, kind, port, packets, age_s, faults, last_error}]
//	port_flags           [{host, port, port_name, packets, age_s, team, reason}]   by
//	                     host: traffic on ports the rules do not allow (team 0: unknown)
//	dropped_robots       int
package monitor
