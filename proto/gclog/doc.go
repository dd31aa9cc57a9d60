// Package gclog reads and writes the GameController's YAML game logs: a list of
// timestamped entries (metadata, action, gameState, monitorRequest, statusMessage,
// teamMessage, end), each timestamp the time since the game's start. It knows bytes
// only: no sockets, no clock.
//
// Two forms are read. A build with serde_yaml 0.9 (the upstream GameController) names
// an entry's kind with a tag (`entry: !statusMessage`) and writes one sequence; a build
// with serde_yaml 0.8 (the Debian-built headless GameControllers) names it with a map
// key (`entry:` then `statusMessage:`) and writes one `---` document per entry. Both
// forms are written.
//
// Invariants:
//   - The Reader cuts the input into entries at column-0 `- ` and `---` lines and hands
//     each entry alone to the YAML library, so every entry before a bad one is read, and
//     an error names the entry (counted from 1) and the line it starts on.
//   - A metadata entry whose version is not Version is refused with ErrVersion and the
//     version found; a log without metadata (as Writer writes it) is read.
//   - Messages keep their bytes: Data is the datagram the GameController received.
package gclog
