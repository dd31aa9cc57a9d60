package capture

import (
	"fmt"
	"net"
	"net/netip"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
)

// HostMAC is the Ethernet address of the recording host in the frames a Writer builds:
// the source of every datagram it sent and the destination of every one it received. It
// is locally administered (the second-lowest bit of the first byte) and spells "dnet".
var HostMAC = net.HardwareAddr{0x02, 0x64, 0x6e, 0x65, 0x74, 0x00}

// Frame sizes.
const (
	ethernetLen = 14
	ipv4Len     = 20
	udpLen      = 8
	// FrameOverhead is what a synthetic frame adds to a datagram's payload.
	FrameOverhead = ethernetLen + ipv4Len + udpLen
	// MaxPayload is the largest payload a frame carries: an IPv4 packet holds 65535
	// bytes including its own and the UDP header.
	MaxPayload = 65535 - ipv4Len - udpLen
	// frameTTL is the IPv4 TTL of synthetic frames.
	frameTTL = 64
)

// peerMAC is the Ethernet address standing for another host in a synthetic frame:
// broadcast and multicast addresses map as on a real link, unicast IPv4 addresses to
// 02:00 followed by the address.
func peerMAC(a netip.Addr) net.HardwareAddr {
	a = a.Unmap()
	switch {
	case a == netip.IPv4Unspecified():
		return net.HardwareAddr{0x02, 0, 0, 0, 0, 0}
	case a.Is4() && a.As4()[3] == 255 || a == netip.AddrFrom4([4]byte{255, 255, 255, 255}):
		return layers.EthernetBroadcast
	case a.Is4() && a.IsMulticast():
		b := a.As4()
		return net.HardwareAddr{0x01, 0x00, 0x5e, b[1] & 0x7f, b[2], b[3]}
	case a.Is4():
		b := a.As4()
		return net.HardwareAddr{0x02, 0x00, b[0], b[1], b[2], b[3]}
	}
	return net.HardwareAddr{0x02, 0, 0, 0, 0, 0}
}

// addr4 returns a as an IPv4 address for a frame; an invalid or IPv6 address becomes
// 0.0.0.0 (recordings hold IPv4 traffic only).
func addr4(a netip.Addr) net.IP {
	a = a.Unmap()
	if !a.Is4() {
		return net.IPv4zero.To4()
	}
	b := a.As4()
	return net.IP(b[:])
}

// appendFrame serialises one datagram as an Ethernet/IPv4/UDP frame into buf, which it
// clears first, and returns the frame's bytes.
func appendFrame(buf gopacket.SerializeBuffer, sent bool, src, dst netip.AddrPort, payload []byte) ([]byte, error) {
	if len(payload) > MaxPayload {
		return nil, fmt.Errorf("%w: %d bytes", ErrTooLarge, len(payload))
	}
	eth := layers.Ethernet{EthernetType: layers.EthernetTypeIPv4}
	if sent {
		eth.SrcMAC, eth.DstMAC = HostMAC, peerMAC(dst.Addr())
	} else {
		eth.SrcMAC, eth.DstMAC = peerMAC(src.Addr()), HostMAC
	}
	ip := layers.IPv4{
		Version: 4, IHL: 5, TTL: frameTTL, Flags: layers.IPv4DontFragment,
		Protocol: layers.IPProtocolUDP, SrcIP: addr4(src.Addr()), DstIP: addr4(dst.Addr()),
	}
	udp := layers.UDP{SrcPort: layers.UDPPort(src.Port()), DstPort: layers.UDPPort(dst.Port())}
	if err := udp.SetNetworkLayerForChecksum(&ip); err != nil {
		return nil, err
	}
	opts := gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}
	if err := gopacket.SerializeLayers(buf, opts, &eth, &ip, &udp, gopacket.Payload(payload)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
