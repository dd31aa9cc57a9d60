package transport

import (
	"runtime"
	"sync/atomic"
)

// Stats is a snapshot of one worker's counters, for diagnostics.
//
// Every datagram read from the socket is counted once in Received and then ends in
// exactly one of Delivered, QueueFull, Oversize, Filtered or Malformed, so
//
//	Received == Delivered + Dropped()
//
// holds in every snapshot, also under traffic: a snapshot never sees a datagram between
// its Received count and its outcome. Malformed datagrams
// were handed to the consumer, which reported them with [Worker.ReportMalformed]; they
// are not counted as delivered.
type Stats struct {
	// Received counts datagrams read from the socket.
	Received uint64
	// Delivered counts datagrams handed to the consumer and not reported malformed.
	Delivered uint64
	// QueueFull counts datagrams dropped because the consumer's queue was full.
	QueueFull uint64
	// Oversize counts datagrams longer than the worker's MaxDatagram.
	Oversize uint64
	// Filtered counts datagrams the Filter rejected.
	Filtered uint64
	// Malformed counts datagrams the consumer reported as undecodable.
	Malformed uint64
	// Sent counts datagrams the kernel accepted for sending.
	Sent uint64
	// SendErrors counts send calls that failed (socket down, too large, kernel error).
	SendErrors uint64
	// Opens counts how often the socket was opened; more than one means the worker
	// recovered from an interface change or failure.
	Opens uint64
	// SentNoCarrier counts the datagrams of Sent that left while the interface had no
	// carrier (Status.NoCarrier): the kernel took them, the link lost them.
	SentNoCarrier uint64
	// KernelDrops counts datagrams the kernel dropped for the socket before it could read
	// them, as SO_RXQ_OVFL reports them with the next datagram read: the receive buffer
	// was full, or the datagram's UDP checksum was wrong (a corrupted datagram longer
	// than 76 bytes; package transport/udpstat tells the causes apart for the
	// namespace). They never reached Received: received by the host = KernelDrops +
	// Received.
	KernelDrops uint64
	// OtherGroups counts datagrams sent to a multicast group that this worker did not
	// join but another socket on the host did, dropped by the worker because the
	// kernel could not be told to (IP_MULTICAST_ALL is missing under qemu-user, gVisor
	// and WSL 1). Where the option works the kernel drops them unseen and this stays 0.
	// Like KernelDrops they are not in Received.
	OtherGroups uint64
}

// Dropped returns the number of received datagrams that were not delivered.
func (s Stats) Dropped() uint64 {
	return s.QueueFull + s.Oversize + s.Filtered + s.Malformed
}

// counters are the live atomic counters behind Stats.
type counters struct {
	received, queued, queueFull, oversize, filtered, malformed atomic.Uint64
	sent, sendErrors, opens, kernelDrops, sentNoCarrier        atomic.Uint64
	otherGroups                                                atomic.Uint64

	// rx is odd while the worker's goroutine, the only writer of received and of the
	// outcomes queued, queueFull, oversize and filtered, counts a datagram's receipt and
	// its outcome (a sequence lock: snapshot retries until it read them all while rx
	// was even and unchanged).
	rx atomic.Uint64
}

// count counts one received datagram and its outcome, one of the worker's outcome
// counters, as one step for snapshot. Only the worker's goroutine calls it.
func (c *counters) count(outcome *atomic.Uint64) {
	c.rx.Add(1)
	c.received.Add(1)
	outcome.Add(1)
	c.rx.Add(1)
}

// snapshot reads the counters. Received and the outcomes the worker counts are read
// together under the sequence lock rx, and Malformed (counted by the consumer, from
// Delivered) before the queued count it is taken from, so every snapshot, also under
// traffic, has Received == Delivered + Dropped().
func (c *counters) snapshot() Stats {
	var s Stats
	s.Malformed = c.malformed.Load()
	for {
		seq := c.rx.Load()
		if seq&1 == 0 {
			s.Received = c.received.Load()
			s.QueueFull = c.queueFull.Load()
			s.Oversize = c.oversize.Load()
			s.Filtered = c.filtered.Load()
			queued := c.queued.Load()
			if c.rx.Load() == seq {
				s.Delivered = queued - min(s.Malformed, queued)
				break
			}
		}
		runtime.Gosched() // the worker is between two of its four atomic adds
	}
	s.Sent = c.sent.Load()
	s.SendErrors = c.sendErrors.Load()
	s.Opens = c.opens.Load()
	s.KernelDrops = c.kernelDrops.Load()
	s.SentNoCarrier = c.sentNoCarrier.Load()
	s.OtherGroups = c.otherGroups.Load()
	return s
}
