// Package linkemu is a userspace link emulator for tests: the kernels the tests run on
// have no netem, so a bad Wi-Fi link is emulated by a Go process instead. Each host is a
// TAP device inside a network namespace the test created; the Emulator reads every
// Ethernet frame a host sends and, as a switch with one port per host, writes it to the
// host it is for (by learnt MAC address; broadcast, multicast and unknown addresses to
// every other host), applying the Impairment of that direction (from host, to host) to
// every IPv4 UDP datagram:
//
//	Loss         the frame is lost with this probability (each receiver of a broadcast
//	             draws on its own, as Wi-Fi receivers do)
//	Delay,       the frame is delivered after Delay plus a jitter drawn uniformly from
//	Jitter       [-Jitter, +Jitter] (at least 0); frames leave in the order of their
//	             release times, so a jitter larger than the spacing reorders them
//	Reorder      the frame skips the delay with this probability and overtakes the
//	             frames queued before it (netem's reorder)
//	Duplicate    a second copy follows with this probability, with its own delay
//	Corrupt,     CorruptBits distinct random bits of the UDP payload are flipped with
//	CorruptBits  this probability; the UDP checksum is then recomputed, so the
//	             datagram arrives corrupted, unless BadChecksum leaves it wrong, so
//	             the receiving kernel drops it
//	Mangle       instead of random bits, a test's function changes the payload of a
//	             frame chosen by Corrupt (a forged field), checksum as above
//	Blackhole    every frame is lost
//
// Other frames (ARP) pass at once and unimpaired, so that addresses resolve. A host's
// carrier can be switched off (TUNSETCARRIER): its kernel then sends nothing, and the
// emulator delivers nothing to it, not even the frames it held for their release when
// the carrier went off.
//
// Invariants: every UDP frame offered to a direction is Lost, dropped for NoCarrier, or
// becomes one copy (two when Duplicated), and every copy is delivered or a WriteError:
// once nothing is InFlight, Offered + Duplicated == Lost + NoCarrier + WriteErrors +
// Delivered. A frame is never
// written before its release time, and the recorded delay of a delivery is the time
// from reading it to writing it. The emulator only reads and writes the TAP devices it
// was given; nothing leaves the test's namespaces. Randomness comes from one seeded
// generator, so the draws of a run repeat (their timing does not).
package linkemu
