// Package transport owns the UDP sockets of dnetwork: one [Worker] goroutine per
// socket, interface selection, broadcast and multicast sending, and per-socket counters.
// Protocol codecs never see a socket; components get [Datagram] values from a worker's
// queue and hand bytes back to its send methods. The package is Linux-only (it uses
// SO_BINDTODEVICE and IP_PKTINFO).
//
// # Workers
//
// [New] validates a [Config]; [Worker.Run] opens the socket, reads until its context is
// cancelled, then closes the socket and the queue and returns. One goroutine (the one
// calling Run) owns the socket and does all socket and interface work. Reads are
// batched: one recvmmsg takes every datagram already queued on the socket (up to 32, and
// at most 256 KiB of buffers), each with its own source, destination, interface and
// kernel drop count, all stamped with the time of the read. Reads (recvmmsg with
// MSG_DONTWAIT) and sends (sendto with MSG_DONTWAIT; [Worker.SendToEach] sends one
// datagram to many IPv4 destinations with one sendmmsg, each datagram still counted,
// tapped and failing alone) are raw system calls on the
// nonblocking socket: they never block, so they skip Go's system-call path, which would
// hand the goroutine's processor to another thread and wake the scheduler's monitor
// thread; waiting for data or room is left to the netpoller. The worker stays in one
// netpoller wait while it reads and handles datagrams, waiting again as soon as a read
// took fewer than a batch holds (the socket was empty then), so a datagram that comes
// alone costs one recvmmsg, not one more that finds nothing. Each datagram is
// stamped, classified and, unless the [Filter] rejects it, copied into the bounded queue
// returned by [Worker.Datagrams]. The reader never waits for the consumer: when the
// queue is full the datagram is dropped and counted. A bad datagram never ends the loop.
//
// A consumer that can do its work on the worker's goroutine sets a [Handler]
// ([Worker.SetHandler]) instead, and the worker's goroutine can then own the consumer's
// state: the accepted datagrams of each read are given to it at once, in the read
// buffers, with no copy and no hand-off to the consumer's goroutine (a hand-off costs a
// second goroutine's wake-up and the scheduler's work around it for every read), and
// [Worker.Wake], from any goroutine, has it called soon with none (the read deadline
// moves to now; while the socket is down the wait between open attempts takes it): a
// consumer's timer and its other events wake the same goroutine as its datagrams. A
// read deadline at a future instant would be a Go timer, which costs more wake-ups than
// a timerfd (package clock), so the consumer keeps its own timer. Invariant: the handler runs only
// on the worker's goroutine, with the worker's handler lock held (the one lock a
// consumer's locks may nest in, never the other way round); after SetHandler returns,
// the handler it replaced neither runs nor will, and datagrams go to the queue again
// when it is nil.
//
// # Counters
//
// [Worker.Stats] returns a snapshot of the counters:
//
//	Received   datagrams read from the socket
//	Delivered  queued for the consumer (or given to its handler) and not reported malformed
//	QueueFull  dropped: the consumer's queue was full
//	Oversize   dropped: longer than MaxDatagram (detected with one spare buffer byte)
//	Filtered   dropped: rejected by the Filter (e.g. AllowFrom, a source allow-list)
//	Malformed  dropped: the consumer called ReportMalformed after failing to decode it
//	Sent       datagrams accepted by the kernel
//	SendErrors sends that failed: socket down, too large, kernel error
//	Opens      socket opens; above one means the worker recovered
//	SentNoCarrier sends of Sent made while the interface had no carrier (lost)
//	KernelDrops datagrams the kernel dropped before the worker could read them
//
// so that Received == Delivered + QueueFull + Oversize + Filtered + Malformed in every
// snapshot (also under traffic: a datagram is counted with its outcome), and the
// datagrams that reached the socket are KernelDrops + Received. KernelDrops comes from
// SO_RXQ_OVFL: the kernel attaches its cumulative drop count for the socket to the next
// datagram read, so drops show once traffic resumes. It counts two causes the kernel
// does not tell apart per socket: a full receive buffer and a bad UDP checksum (a
// datagram corrupted on the way); package transport/udpstat reads the namespace's
// counters, which do. The Filter runs before the payload
// is copied: a consumer that screens junk there (size, header, version, team) keeps its
// queue free for real packets under a flood. Config.ReadBuffer sets SO_RCVBUF (with
// SO_RCVBUFFORCE when privileged, else capped by net.core.rmem_max); Status.ReadBuffer
// is the kernel's effective figure.
//
// A [Tap] in the Config sees every datagram received (before the Filter) and sent, on
// the goroutine that moved it; recorders use it and must never block it.
//
// # Interface selection
//
// Config.Interface is parsed by [ParseSelector]: an interface name ("wlan0"), a CIDR
// ("10.0.1.0/24": the interface that owns an address in it), an IPv4 address, "any"
// (no device binding, no broadcast) or "auto" (the default). "auto" takes the single
// up, running, broadcast-capable, non-loopback IPv4 interface that is not the host side
// of a container or VM network (docker0, br-*, podman*, cni*, virbr*, lxcbr*, lxdbr*,
// incusbr*, vboxnet*, vmnet*), and fails with a message listing every interface and why
// it was rejected when there are none or several. [Worker.Interface] and [Worker.Status]
// report the choice; a line is logged whenever the worker goes up or down.
//
// Inside a container the other way round matters: [ContainerNetworkWarning] says when
// every interface the selector can use is a veth to another namespace or a tap that the
// default route goes through (the kernel's link kind, peer namespace and routes, read
// over netlink by [Links]), the private network of a container engine, which broadcasts
// do not cross; the node logs it at start-up. Other veths (a robot's, a test's) do not
// warn.
//
// The socket is bound to 0.0.0.0:port and, unless the selector is "any", to the chosen
// device with SO_BINDTODEVICE. The kernel then delivers only datagrams that arrived on
// that interface and sends everything, broadcast included, through it, whatever the
// routing table says: a broadcast to the directed broadcast address of the interface
// ([Worker.Broadcast]) cannot leave by the Ethernet default route. Multicast is set up
// through golang.org/x/net/ipv4 with an explicit interface, TTL and loopback, and groups
// are joined on that interface ([Worker.Join], [Worker.Leave]).
//
// # Recovery
//
// A worker bound to one interface subscribes to the kernel's link and IPv4 address
// events (a netlink socket of its own) and, on every event (also while a flood keeps it
// reading), verifies that its interface
// still exists with the same index, is up and holds the address in use; nothing wakes
// it while the interfaces stay as they are. Without the events (the netlink socket
// cannot be opened or fails) it checks every Recheck interval (1 s by default) instead,
// and says so in its log. When the check fails, or
// the socket fails, the worker closes the socket, reports the error (Status, OnStatus,
// one log line per change) and tries to reopen on every interface event (the same watch,
// kept for the whole Run: a socket comes back within milliseconds of its link), and
// otherwise with exponential backoff (250 ms to 8 s by default), rerunning the selector,
// rebinding the same port and rejoining its groups.
// Sends in the meantime fail with [ErrDown] and are counted. An interface that is up
// without a carrier (no association, no cable) keeps the socket open: Status.NoCarrier
// says so (carrier.go), and the sends the kernel takes meanwhile are counted in
// SentNoCarrier. "auto" is decided when the
// socket opens; a second interface appearing later does not disturb an open socket.
//
// # Sharing a port with a monitor
//
// Receive sockets set SO_REUSEADDR, so a monitor and the node can bind the same port on
// one host (both must set it). SO_REUSEPORT is deliberately not used: it would spread
// unicast datagrams over the sharers. With SO_REUSEADDR, Linux delivers a copy of every
// broadcast and multicast datagram to every socket bound to the port (and, for
// multicast, joined to the group), but a unicast datagram to exactly one of them,
// normally the one bound last. Monitors therefore see all broadcast and multicast
// traffic, while unicast (GameController replies, swarm unicast) reaches only one
// process. Sockets set IP_MULTICAST_ALL off, so a socket receives only the groups it
// joined itself, not those another sharer joined.
//
// Where the kernel (or what plays it: qemu-user, gVisor, WSL 1) lacks IP_MULTICAST_ALL,
// the socket opens all the same, the worker logs one warning, and the kernel hands it
// every group that any socket on the host joined on the interface and bound the port:
// two teams' robots simulated on one host, each team on its own group, would hear each
// other. The worker then drops, by the destination IP_PKTINFO gives, every multicast
// datagram to a group it has not joined, before the Tap and the counters, as the kernel
// would have; Stats.OtherGroups counts them. Broadcast and unicast are unaffected. The
// same warning names the other optional options a kernel may lack: SO_RXQ_OVFL
// (KernelDrops then stays 0) and IP_MULTICAST_IF (the device binding sends multicast
// through the interface anyway). Groups are joined with IP_ADD_MEMBERSHIP and struct
// ip_mreq (the interface by its address), the form qemu-user emulates.
//
// # Several robots on one host
//
// Two set-ups let simulated robots share a machine:
//
//   - Per-robot ports: every robot binds its own port on "lo" (or "any") and peers are
//     addressed as 127.0.0.1:port. Nothing is shared, and unicast works.
//   - Host-only multicast: every robot binds the same port with SO_REUSEADDR, joins one
//     group on an interface with the MULTICAST flag and sends to it with
//     MulticastTTL = HostOnlyTTL (TTL 0: never leaves the host) and MulticastLoopback on.
//     Every robot receives every datagram, its own included; the payload must name
//     sender and receiver (as the swarm framing does), since all share one address.
//
// Broadcast to 127.255.255.255 on "lo" also reaches every socket bound to the port.
package transport
