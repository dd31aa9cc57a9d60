package capture

import (
	"bytes"
	"io"
	"testing"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
)

// TestReadSnaplenCut: a capture taken with a short snap length (tcpdump -s 64) holds
// only the start of a long datagram. Such a frame is skipped and counted, never
// returned as a datagram with a shorter payload, which decode would report as a robot's
// malformed packet and replay would send on cut short.
func TestReadSnaplenCut(t *testing.T) {
	const snaplen = 64
	var buf gopacket.SerializeBuffer = gopacket.NewSerializeBuffer()
	long, err := appendFrame(buf, false, gc, robot, bytes.Repeat([]byte{0xab}, 100))
	if err != nil {
		t.Fatal(err)
	}
	long = append([]byte(nil), long...)
	short, err := appendFrame(gopacket.NewSerializeBuffer(), false, gc, robot, []byte("RGme"))
	if err != nil {
		t.Fatal(err)
	}
	var file bytes.Buffer
	pw := pcapgo.NewWriterNanos(&file)
	if err := pw.WriteFileHeader(snaplen, layers.LinkTypeEthernet); err != nil {
		t.Fatal(err)
	}
	if err := pw.WritePacket(gopacket.CaptureInfo{Timestamp: t0, CaptureLength: snaplen, Length: len(long)}, long[:snaplen]); err != nil {
		t.Fatal(err)
	}
	if err := pw.WritePacket(gopacket.CaptureInfo{Timestamp: t0, CaptureLength: len(short), Length: len(short)}, short); err != nil {
		t.Fatal(err)
	}
	r, err := NewReader(&file)
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.Next()
	if err != nil || string(p.Payload) != "RGme" || p.Frame != 2 {
		t.Fatalf("first datagram %d bytes (frame %d), %v; want the 4-byte RGme of frame 2, the cut frame skipped", len(p.Payload), p.Frame, err)
	}
	if _, err := r.Next(); err != io.EOF || r.Skipped() != 1 {
		t.Fatalf("after the datagram: %v, %d skipped; want EOF, 1 skipped", err, r.Skipped())
	}
}
