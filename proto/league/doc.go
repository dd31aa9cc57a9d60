// Package league is the league profile that the robots' team component and the monitor
// both read: which league's rules apply to team messages (the size cap, the game states in
// which messages count against the GameController's message budget, the budget reserve a
// team keeps by default) and which UDP port each team talks on.
//
// It is protocol knowledge only: no sockets, no clock, no state. The rules:
//
//	league  size cap  budget                         counted in
//	hsl     512 B     12 000 messages per game,      READY, SET, PLAYING
//	                  +600 per additional minute,
//	                  +6 000 at extra time
//	spl     128 B     1 200 messages per game        STANDBY, READY, SET, PLAYING
//	hl      512 B     none (GameController v12)      never
//
// In every league the penalty shoot-out and timeouts never count. A team's port is
// 10000 + its team number (gamecontroller.TeamPortBase), the rule by which the SPL and HSL
// GameControllers count team messages.
package league
