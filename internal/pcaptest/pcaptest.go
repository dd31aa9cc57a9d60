package pcaptest

import (
	"errors"
	"io"
	"net/netip"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
)

// Datagram is one UDP/IPv4 datagram of a capture.
type Datagram struct {
	At       time.Duration // since the first packet of the capture
	Src, Dst netip.AddrPort
	Payload  []byte
}

// ReadUDP reads every UDP/IPv4 datagram of a pcap file (libpcap format, Ethernet link
// type), skipping everything else (ARP, IPv6). It fails t when the file cannot be read
// or holds no UDP datagram.
func ReadUDP(t testing.TB, path string) []Datagram {
	t.Helper()
	name := filepath.Base(path)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := pcapgo.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if r.LinkType() != layers.LinkTypeEthernet {
		t.Fatalf("%s: link type %v, want Ethernet", name, r.LinkType())
	}
	var (
		out   []Datagram
		first time.Time
		eth   layers.Ethernet
		ip4   layers.IPv4
		udp   layers.UDP
		pl    gopacket.Payload
	)
	parser := gopacket.NewDecodingLayerParser(layers.LayerTypeEthernet, &eth, &ip4, &udp, &pl)
	parser.IgnoreUnsupported = true
	var decoded []gopacket.LayerType
	for {
		data, ci, err := r.ReadPacketData()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if first.IsZero() {
			first = ci.Timestamp
		}
		if err := parser.DecodeLayers(data, &decoded); err != nil {
			continue // ARP, IPv6 link-local noise
		}
		isUDP := false
		for _, l := range decoded {
			isUDP = isUDP || l == layers.LayerTypeUDP
		}
		if !isUDP || len(decoded) < 3 {
			continue
		}
		src, _ := netip.AddrFromSlice(ip4.SrcIP.To4())
		dst, _ := netip.AddrFromSlice(ip4.DstIP.To4())
		out = append(out, Datagram{
			At:      ci.Timestamp.Sub(first),
			Src:     netip.AddrPortFrom(src, uint16(udp.SrcPort)),
			Dst:     netip.AddrPortFrom(dst, uint16(udp.DstPort)),
			Payload: append([]byte(nil), udp.Payload...),
		})
	}
	if len(out) == 0 {
		t.Fatalf("%s: no UDP datagrams", name)
	}
	return out
}
