// Package gcsim simulates a RoboCup GameController: it plays a scripted game, sends
// the control packets ("RGme") of any layout the gamecontroller codec supports, and
// listens for the robots' return packets ("RGrt") to show which robots are online.
//
// It is the engine of "dnetwork gc-sim" and the GameController inside "dnetwork sim";
// both embed a Simulator, hand it their sockets and read State and Robots.
//
// # Game model
//
// The Simulator keeps one game in game time, which runs Config.Speed times as fast as
// the injected clock. Script steps and the following timers are in game time:
//
//	timer               runs while                      at zero
//	secsRemaining       PLAYING, READY and SET once     FINISHED (half over); after the
//	                    started (not in the shoot-out)  first half the break starts
//	secondaryTime       READY                           SET (ready time over)
//	                    kick-off in PLAYING             kicking team "none" (SPL v18, HSL)
//	                    set play                        set play ends
//	                    half-time break                 nothing
//	secsTillUnpenalised READY, SET, PLAYING             the player is unpenalised
//
// Stopped play (HSL) halts the ready, kick-off and set play times; in HSL v19 also the
// game clock and the break, which GameController 7 (v20) lets run on.
//
// Times are sent rounded up to whole seconds, as GameController3 does. A goal adds to
// the score, goes back to READY and gives the kick-off to the other team. The second
// half starts in INITIAL with firstHalf 0, a fresh clock, the kick-off for the team
// that did not kick off the first half, and the two TeamInfo blocks swapped (teams
// change sides; robots find their team by number). Players above Config.Players are
// sent as substitutes.
//
// # Message budget
//
// Layouts with a messageBudget (SPL v14 on, HSL) start every team with the league's
// budget (SPL 1200, HSL 12000, or Config.Budget). When Config.TeamConns are given
// (sockets on port 10000+team), every team message heard in READY, SET or PLAYING
// costs one, never in the penalty shoot-out; a message over the league's size limit
// (SPL 128, HSL 512 bytes) or one sent with the budget spent marks the team's
// communication illegal and sets its score to 0 (later goals do not count). HSL
// additional time adds 600 messages per minute and extra time 6000, to teams whose
// communication is legal. These are the rules of the GameController's own actions
// (team_message, add_additional_time, start_extra_time); TestAgainstGameController
// checks the packets against its game logic. Without TeamConns the budget changes only
// by those rules and "budget" steps.
//
// # Sending
//
// Control packets go out every 500 ms (2 Hz) to the Destination: the broadcast address
// of an interface, a list of unicast addresses (several robots' ports on 127.0.0.1,
// since loopback cannot broadcast) or a multicast group. The HSL GameController also
// sends at once and then at 5 Hz, five packets in all, when play stops; for HSL
// layouts the simulator does so after every change of the game. The regular 2 Hz
// slots keep their phase; a burst packet that falls on one is sent once.
//
// # Return packets
//
// Return packets of version 2, 3 and 4 are decoded with the codec's acceptance rules;
// rejected datagrams are counted by cause. Robots are tracked by (team, player) with
// their last address, packet count and last contents. A robot is Good when heard
// within 2 s, Bad within 4 s, and Offline after that, GameController3's rule.
//
// # Scripts
//
// A script is text, one step per line; ScriptHelp documents the format, ParseScript
// reads it and DefaultScript builds the built-in short game. The same action syntax (and a few
// one-letter shortcuts) drives a running Simulator through Apply.
package gcsim
