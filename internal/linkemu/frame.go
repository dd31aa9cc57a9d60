package linkemu

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
)

// Offsets in an Ethernet frame carrying IPv4.
const (
	ethHeader  = 14
	etherIPv4  = 0x0800
	protoUDP   = 17
	udpHeader  = 8
	minIPv4Hdr = 20
)

// errNotUDP is returned by parseUDP for a frame that is not an unfragmented IPv4 UDP
// datagram.
var errNotUDP = errors.New("linkemu: not an IPv4 UDP frame")

// udpFrame locates the parts of an IPv4 UDP frame.
type udpFrame struct {
	ip      []byte // the IPv4 header
	udp     []byte // the UDP header and payload, as long as the UDP length says
	dstPort uint16
}

// parseUDP locates the UDP datagram in an Ethernet frame.
func parseUDP(f []byte) (udpFrame, error) {
	if len(f) < ethHeader+minIPv4Hdr+udpHeader || binary.BigEndian.Uint16(f[12:]) != etherIPv4 {
		return udpFrame{}, errNotUDP
	}
	ip := f[ethHeader:]
	ihl := int(ip[0]&0x0f) * 4
	total := int(binary.BigEndian.Uint16(ip[2:]))
	if ip[0]>>4 != 4 || ihl < minIPv4Hdr || total < ihl+udpHeader || total > len(ip) || ip[9] != protoUDP {
		return udpFrame{}, errNotUDP
	}
	if frag := binary.BigEndian.Uint16(ip[6:]); frag&0x3fff != 0 { // more fragments, or an offset
		return udpFrame{}, errNotUDP
	}
	u := ip[ihl:total]
	ulen := int(binary.BigEndian.Uint16(u[4:]))
	if ulen < udpHeader || ulen > len(u) {
		return udpFrame{}, errNotUDP
	}
	return udpFrame{ip: ip[:ihl], udp: u[:ulen], dstPort: binary.BigEndian.Uint16(u[2:])}, nil
}

// checksum returns the UDP checksum of u over the IPv4 pseudo header of ip.
func (u udpFrame) checksum() uint16 {
	var sum uint32
	add := func(b []byte) {
		for len(b) >= 2 {
			sum += uint32(binary.BigEndian.Uint16(b))
			b = b[2:]
		}
		if len(b) == 1 {
			sum += uint32(b[0]) << 8
		}
	}
	add(u.ip[12:20]) // source and destination addresses
	sum += protoUDP + uint32(len(u.udp))
	add(u.udp[:6])
	add(u.udp[8:]) // the checksum field counts as zero
	for sum>>16 != 0 {
		sum = sum&0xffff + sum>>16
	}
	c := ^uint16(sum)
	if c == 0 {
		c = 0xffff // 0 means "no checksum"
	}
	return c
}

// corrupt flips n distinct random bits of the UDP payload (every bit when it has fewer,
// none when it is empty) and, unless badChecksum, recomputes the checksum so the
// datagram passes it. It reports whether it changed anything.
func (u udpFrame) corrupt(rng *rand.Rand, n int, badChecksum bool) bool {
	payload := u.udp[udpHeader:]
	if len(payload) == 0 {
		return false
	}
	total := len(payload) * 8
	n = min(max(n, 1), total)
	// Draw distinct bits: a bit drawn twice would be flipped back.
	flipped := make(map[int]bool, n)
	for len(flipped) < n {
		i := rng.IntN(total)
		if flipped[i] {
			continue
		}
		flipped[i] = true
		payload[i/8] ^= 1 << (i % 8)
	}
	if !badChecksum {
		binary.BigEndian.PutUint16(u.udp[6:], u.checksum())
	}
	return true
}

// dstMAC returns the frame's destination address, and whether it is a group
// (broadcast or multicast) address.
func dstMAC(f []byte) (mac [6]byte, group bool) {
	copy(mac[:], f[:6])
	return mac, f[0]&1 != 0
}

// srcMAC returns the frame's source address.
func srcMAC(f []byte) (mac [6]byte) {
	copy(mac[:], f[6:12])
	return mac
}

// mangle lets f change the UDP payload and, unless badChecksum, recomputes the
// checksum. It reports whether f changed anything.
func (u udpFrame) mangle(f func([]byte) bool, badChecksum bool) bool {
	if !f(u.udp[udpHeader:]) {
		return false
	}
	if !badChecksum {
		binary.BigEndian.PutUint16(u.udp[6:], u.checksum())
	}
	return true
}
