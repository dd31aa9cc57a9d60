// Package capture writes and reads recordings of UDP traffic as pcap and pcapng files,
// the formats Wireshark and tshark open.
//
// # Writing
//
// A [Writer] records datagrams as pcapng, built with gopacket's pcapgo: one interface
// description block per socket ([Writer.AddInterface]) and one enhanced packet block
// per datagram, holding a synthetic Ethernet/IPv4/UDP frame with the datagram's
// addresses, ports and payload and the time the caller gives (the node's clock, which
// is the simulator's under use_sim_time). The direction is carried by the Ethernet
// addresses: frames the recording host sent come from [HostMAC], frames it received go
// to it, so Wireshark's filter "eth.src == 02:64:6e:65:74:00" shows what it sent.
//
// Invariants:
//   - [Writer.Write] never blocks and never does I/O: it copies the payload into a
//     bounded queue, which one goroutine ([Writer.Run]) drains into the file. A record
//     that cannot be queued or written is counted by cause ([Stats]), never lost
//     silently: Offered == Written + QueueFull + NoSpace + Failed + Stopped once Run
//     has returned.
//   - The file is flushed at least every FlushInterval and when Run returns.
//   - A file never grows much beyond MaxSize: the next record opens a new file
//     (name_001.pcapng, name_002.pcapng, ...), each with the interface blocks it uses,
//     and the oldest files beyond Rotate are removed.
//   - Nothing is written while the file system has less than MinFree bytes available.
//
// # Reading
//
// A [Reader] reads pcap (either byte order, micro- or nanosecond stamps) and pcapng,
// detected by the file's magic number, with Ethernet, Linux cooked v1 (LINUX_SLL),
// raw IP and BSD loopback link types (not Linux cooked v2, which tcpdump 4.99 and later
// writes for -i any: gopacket v1.1.19 cannot represent its link type 276), and yields the UDP datagrams (IPv4 and IPv6) in
// file order with their capture time, addresses, ports and, for recordings made by a
// Writer, interface and direction. Other frames, IP fragments and frames cut short by
// the capture's snap length are skipped and counted. Nothing a file contains can make the Reader panic (fuzzed).
//
// GameLogPackets turns a GameController log's status and team messages (package
// proto/gclog) into the datagrams the GameController received, so that a log replays
// as a recording does.
package capture
