package capture

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"os"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"

	"github.com/robocup-dnetwork/dnetwork/transport"
)

// Magic numbers at the start of a capture file.
const (
	magicPcapMicro = 0xa1b2c3d4
	magicPcapNano  = 0xa1b23c4d
	magicPcapng    = 0x0a0d0d0a // the section header block's type, the same in both byte orders
)

// IsCapture reports whether b, the start of a file, is a pcap or pcapng header.
func IsCapture(b []byte) bool {
	if len(b) < 4 {
		return false
	}
	le, be := binary.LittleEndian.Uint32(b), binary.BigEndian.Uint32(b)
	switch {
	case le == magicPcapng:
		return true
	case le == magicPcapMicro || le == magicPcapNano || be == magicPcapMicro || be == magicPcapNano:
		return true
	}
	return false
}

// Packet is one UDP datagram read from a capture file.
type Packet struct {
	// Time is the capture time.
	Time time.Time
	// Src and Dst are the datagram's addresses and ports.
	Src, Dst netip.AddrPort
	// Payload is the UDP payload; it is the caller's.
	Payload []byte
	// Interface is the name of the capture interface (pcapng), "" if unnamed.
	Interface string
	// Dir is the direction for recordings made by a Writer (see HostMAC); 0 otherwise.
	Dir transport.Direction
	// Frame is the number of the frame in the file, counting from 1 as Wireshark does.
	Frame int
}

// packetSource is what pcapgo's two readers have in common.
type packetSource interface {
	ReadPacketData() ([]byte, gopacket.CaptureInfo, error)
}

// Reader reads the UDP datagrams of a pcap or pcapng file.
type Reader struct {
	src     packetSource
	ng      *pcapgo.NgReader // nil for pcap
	link    layers.LinkType  // pcap's link type
	frames  int
	skipped int
	tailErr error // what ends the file after its valid prefix
}

// NewReader reads the whole file from r (recordings are bounded by their writer's
// MaxSize) and returns a Reader; ErrFormat when r is neither pcap nor pcapng. A file
// whose tail is cut short or corrupt is read up to the last well-formed frame; Next
// then returns the error found there.
func NewReader(r io.Reader) (_ *Reader, err error) {
	defer recoverAs(&err)
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if !IsCapture(b) {
		return nil, ErrFormat
	}
	n, tailErr := validPrefix(b)
	br := bytes.NewReader(b[:n])
	if binary.LittleEndian.Uint32(b) == magicPcapng {
		ng, err := pcapgo.NewNgReader(br, pcapgo.NgReaderOptions{WantMixedLinkType: true, SkipUnknownVersion: true})
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrFormat, err)
		}
		return &Reader{src: ng, ng: ng, tailErr: tailErr}, nil
	}
	pr, err := pcapgo.NewReader(br)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	return &Reader{src: pr, link: pr.LinkType(), tailErr: tailErr}, nil
}

// Skipped returns the number of frames skipped so far: not UDP, IP fragments, cut short
// by the capture's snap length, or not decodable.
func (r *Reader) Skipped() int { return r.skipped }

// Next returns the next UDP datagram, io.EOF at the end of the file, or the error that
// stopped reading (a truncated or corrupt file).
func (r *Reader) Next() (p Packet, err error) {
	defer recoverAs(&err)
	for {
		data, ci, err := r.src.ReadPacketData()
		if err != nil {
			if errors.Is(err, io.EOF) && r.tailErr != nil {
				return Packet{}, r.tailErr
			}
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return Packet{}, fmt.Errorf("capture: truncated file after frame %d: %w", r.frames, err)
			}
			return Packet{}, err
		}
		r.frames++
		link := r.link
		if r.ng != nil && len(ci.AncillaryData) > 0 {
			if lt, ok := ci.AncillaryData[0].(layers.LinkType); ok {
				link = lt
			}
		}
		p, ok := decodeFrame(data, link)
		if !ok {
			r.skipped++
			continue
		}
		p.Time, p.Frame = ci.Timestamp, r.frames
		if r.ng != nil {
			if ifc, err := r.ng.Interface(ci.InterfaceIndex); err == nil {
				p.Interface = ifc.Name
			}
		}
		return p, nil
	}
}

// decodeFrame extracts the UDP datagram of one frame.
func decodeFrame(data []byte, link layers.LinkType) (Packet, bool) {
	var first gopacket.Decoder
	switch link {
	case layers.LinkTypeEthernet, layers.LinkTypeLinuxSLL, layers.LinkTypeNull, layers.LinkTypeLoop:
		first = link
	case layers.LinkTypeRaw, layers.LinkTypeIPv4, layers.LinkTypeIPv6:
		first = layers.LayerTypeIPv4
		if len(data) > 0 && data[0]>>4 == 6 {
			first = layers.LayerTypeIPv6
		}
	default:
		return Packet{}, false
	}
	pkt := gopacket.NewPacket(data, first, gopacket.DecodeOptions{NoCopy: true})
	udp, _ := pkt.Layer(layers.LayerTypeUDP).(*layers.UDP)
	// A frame cut by the capture's snap length holds only the datagram's start: its
	// payload is not the datagram.
	if udp == nil || pkt.Metadata().Truncated {
		return Packet{}, false
	}
	var src, dst netip.Addr
	switch ip := pkt.NetworkLayer().(type) {
	case *layers.IPv4:
		if ip.Flags&layers.IPv4MoreFragments != 0 || ip.FragOffset != 0 {
			return Packet{}, false
		}
		src, _ = netip.AddrFromSlice(ip.SrcIP.To4())
		dst, _ = netip.AddrFromSlice(ip.DstIP.To4())
	case *layers.IPv6:
		src, _ = netip.AddrFromSlice(ip.SrcIP)
		dst, _ = netip.AddrFromSlice(ip.DstIP)
	default:
		return Packet{}, false
	}
	p := Packet{
		Src:     netip.AddrPortFrom(src, uint16(udp.SrcPort)),
		Dst:     netip.AddrPortFrom(dst, uint16(udp.DstPort)),
		Payload: udp.Payload,
	}
	if eth, ok := pkt.LinkLayer().(*layers.Ethernet); ok {
		switch {
		case bytes.Equal(eth.SrcMAC, HostMAC):
			p.Dir = transport.Sent
		case bytes.Equal(eth.DstMAC, HostMAC):
			p.Dir = transport.Received
		}
	}
	return p, true
}

// recoverAs turns a panic of the third-party decoders on a corrupt file into an error,
// so that no file can stop the program reading it.
func recoverAs(err *error) {
	if v := recover(); v != nil {
		*err = fmt.Errorf("%w: corrupt file (%v)", ErrFormat, v)
	}
}

// ReadFile reads every UDP datagram of a pcap or pcapng file. A file cut short gives the
// datagrams before the cut together with the error.
func ReadFile(path string) ([]Packet, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []Packet
	for {
		p, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, p)
	}
}
