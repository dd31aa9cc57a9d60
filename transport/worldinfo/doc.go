// Package worldinfo is the Fawkes world info transceiver: robots multicast what they
// believe about themselves, the ball, opponents and the game, and hear the same from
// their teammates. The byte format lives in package
// github.com/robocup-dnetwork/dnetwork/proto/worldinfo (imported here as wi); this package
// adds the behaviour of Fawkes' WorldInfoTransceiver.
//
// It has three layers:
//
//   - [Sender] (no socket): setters in Fawkes' style (SetPose, SetRelBallPos,
//     SetRelBallVisible, SetGameState, AddPenalty, AddOpponent, ...) mark values as
//     changed; Send builds one encrypted datagram from everything changed since the last
//     Send, in Fawkes' record order, and resets the changes. An optional second datagram
//     carries the legacy fat record.
//   - [Receiver] (no socket, clock injected): Receive applies Fawkes' drop rules to one
//     datagram, keeps the last sequence number of every source address, forgets senders
//     silent for Config.FlushAfter (10 s by default), and dispatches every record to all
//     registered [Handler]s. Every drop is counted by cause in [RecvStats].
//   - [Transceiver]: both halves plus a transport.Worker that owns the multicast socket;
//     Run(ctx) receives until ctx is cancelled, Send multicasts.
//
// # Differences from Fawkes
//
//   - Covariances are copied when set, and a covariance of the wrong length is an error
//     (Fawkes keeps the pointer and reads 9 or 4 floats at send time, crashing on short
//     arrays).
//   - Values that do not fit their bit-fields are rejected (Fawkes truncates them); the
//     ball visibility history saturates at +-2^23.
//   - The relative ball is sent with record type 3 by default; Config.RelBallAsType10
//     reproduces Fawkes' type 10. On receive, a datagram holding two adjacent type-10
//     records (what a Fawkes sender writes for a relative plus a global ball) delivers the
//     first as a relative ball unless Config.Type10AsGlobal is set; a lone type-10
//     record is a global ball, as in Fawkes.
//   - A datagram that would exceed 1400 bytes is sent without the records that do not
//     fit, and Send reports them (Fawkes throws and sends nothing).
//   - Sources are netip.Addr values; Fawkes resolved them to host names.
//   - Datagrams Fawkes would mis-handle are dropped and counted: empty datagrams (an
//     uncaught exception in Fawkes), plaintexts shorter than the header or longer than
//     1400 bytes, and records that leave fewer than 4 bytes for a record header.
//
// Like Fawkes, a sender numbers its datagrams from 0 when it starts, so a restarted
// sender is ignored by receivers that still remember its last number until they forget
// it after FlushAfter (Fawkes' world model uses 5 s).
package worldinfo
