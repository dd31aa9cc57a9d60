package capture

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"

	"github.com/robocup-dnetwork/dnetwork/transport"
)

var (
	robot = netip.MustParseAddrPort("10.0.1.13:3838")
	gc    = netip.MustParseAddrPort("10.0.1.2:41234")
	bcast = netip.MustParseAddrPort("10.0.1.255:10017")
	t0    = time.Date(2026, 7, 15, 14, 3, 7, 123456789, time.UTC)
)

// runWriter runs w until the returned stop is called; stop waits for Run to return.
func runWriter(t *testing.T, w *Writer) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	}
	t.Cleanup(stop)
	return stop
}

func readAll(t *testing.T, path string) ([]Packet, *Reader) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []Packet
	for {
		p, err := r.Next()
		if err == io.EOF {
			return out, r
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, p)
	}
}

// TestRoundTrip: what a Writer records, a Reader returns: time to the nanosecond,
// addresses, ports, payload, interface and direction.
func TestRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "game.pcapng")
	w, err := NewWriter(Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	gcIf := w.AddInterface("gamecontroller", "udp 0.0.0.0:3838")
	teamIf := w.AddInterface("team", "udp 0.0.0.0:10017")
	stop := runWriter(t, w)
	recs := []Record{
		{Interface: gcIf, Dir: transport.Received, Time: t0, Src: gc, Dst: robot, Payload: []byte("RGme-control")},
		{Interface: teamIf, Dir: transport.Sent, Time: t0.Add(time.Millisecond), Src: netip.MustParseAddrPort("10.0.1.13:10017"), Dst: bcast, Payload: bytes.Repeat([]byte{0xab}, 118)},
		{Interface: gcIf, Dir: transport.Sent, Time: t0.Add(2 * time.Millisecond), Src: robot, Dst: netip.MustParseAddrPort("10.0.1.2:3939"), Payload: []byte("RGrt")},
		{Interface: teamIf, Dir: transport.Received, Time: t0.Add(3 * time.Millisecond), Src: netip.MustParseAddrPort("10.0.1.14:10017"), Dst: bcast, Payload: []byte{}},
	}
	for _, r := range recs {
		if !w.Write(r) {
			t.Fatalf("Write(%v) refused", r)
		}
	}
	stop()
	got, rd := readAll(t, path)
	if len(got) != len(recs) || rd.Skipped() != 0 {
		t.Fatalf("read %d packets (%d skipped), want %d", len(got), rd.Skipped(), len(recs))
	}
	names := []string{"gamecontroller", "team", "gamecontroller", "team"}
	for i, p := range got {
		r := recs[i]
		if !p.Time.Equal(r.Time) || p.Src != r.Src || p.Dst != r.Dst || !bytes.Equal(p.Payload, r.Payload) ||
			p.Dir != r.Dir || p.Interface != names[i] || p.Frame != i+1 {
			t.Errorf("packet %d = %+v, want %+v on %s", i, p, r, names[i])
		}
	}
	s := w.Stats()
	if s.Offered != 4 || s.Written != 4 || s.Dropped() != 0 || s.Files != 1 || s.File != path {
		t.Fatalf("stats %+v, want 4 written to one file", s)
	}
	if fi, _ := os.Stat(path); fi.Size() != s.Bytes {
		t.Fatalf("Stats.Bytes %d, file has %d", s.Bytes, fi.Size())
	}
}

// TestTsharkOpensRecording: Wireshark's reader accepts the file and sees the UDP
// datagrams with their ports and interface names.
func TestTsharkOpensRecording(t *testing.T) {
	if _, err := exec.LookPath("tshark"); err != nil {
		t.Skip("tshark not installed (apt-get install tshark)")
	}
	path := filepath.Join(t.TempDir(), "game.pcapng")
	w, _ := NewWriter(Config{Path: path})
	id := w.AddInterface("gamecontroller", "udp 0.0.0.0:3838")
	stop := runWriter(t, w)
	w.Write(Record{Interface: id, Dir: transport.Received, Time: t0, Src: gc, Dst: robot, Payload: []byte("hello")})
	w.Write(Record{Interface: id, Dir: transport.Sent, Time: t0.Add(time.Second), Src: robot, Dst: gc, Payload: []byte("world")})
	stop()
	out, err := exec.Command("tshark", "-r", path, "-T", "fields", "-E", "separator=,",
		"-e", "frame.interface_name", "-e", "ip.src", "-e", "udp.srcport", "-e", "ip.dst", "-e", "udp.dstport",
		"-e", "udp.checksum.status", "-e", "eth.src", "-e", "frame.interface_description", "-o", "udp.check_checksum:TRUE").Output()
	if err != nil {
		t.Fatalf("tshark: %v\n%s", err, out)
	}
	want := "gamecontroller,10.0.1.2,41234,10.0.1.13,3838,1,02:00:0a:00:01:02,udp 0.0.0.0:3838\n" +
		"gamecontroller,10.0.1.13,3838,10.0.1.2,41234,1,02:64:6e:65:74:00,udp 0.0.0.0:3838\n"
	if string(out) != want {
		t.Fatalf("tshark printed\n%s\nwant\n%s", out, want)
	}
}

// TestRotation: MaxSize starts new files, Rotate keeps the newest, and every file
// declares the interfaces its records use.
func TestRotation(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.pcapng")
	w, _ := NewWriter(Config{Path: path, MaxSize: 1, Rotate: 2, QueueLen: 16})
	a, b := w.AddInterface("a", ""), w.AddInterface("b", "")
	for i := range 5 {
		id := a
		if i%2 == 1 {
			id = b
		}
		w.Write(Record{Interface: id, Dir: transport.Received, Time: t0.Add(time.Duration(i) * time.Second), Src: gc, Dst: robot, Payload: []byte{byte(i)}})
	}
	runWriter(t, w)()
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	want := []string{filepath.Join(dir, "r_003.pcapng"), filepath.Join(dir, "r_004.pcapng")}
	if strings.Join(files, " ") != strings.Join(want, " ") {
		t.Fatalf("files %v, want %v", files, want)
	}
	for i, f := range want {
		got, _ := readAll(t, f)
		wantIf := []string{"b", "a"}[i]
		if len(got) != 1 || got[0].Payload[0] != byte(3+i) || got[0].Interface != wantIf {
			t.Fatalf("%s holds %+v, want record %d on %s", f, got, 3+i, wantIf)
		}
	}
	if s := w.Stats(); s.Files != 5 || s.Written != 5 {
		t.Fatalf("stats %+v, want 5 files, 5 written", s)
	}
}

// TestFreeSpaceFloor: below MinFree nothing is written and every record is counted.
func TestFreeSpaceFloor(t *testing.T) {
	path := filepath.Join(t.TempDir(), "full.pcapng")
	w, _ := NewWriter(Config{Path: path, MinFree: 1 << 62})
	id := w.AddInterface("gamecontroller", "")
	for range 3 {
		w.Write(Record{Interface: id, Time: t0, Src: gc, Dst: robot, Payload: []byte("x")})
	}
	runWriter(t, w)()
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("file written below the floor: %v", err)
	}
	s := w.Stats()
	if s.NoSpace != 3 || s.Written != 0 || !strings.Contains(s.LastError, "below the floor") {
		t.Fatalf("stats %+v, want 3 NoSpace and the reason", s)
	}
}

// TestWriteNeverBlocks: with nobody draining the queue, Write returns at once and
// counts what did not fit; after Run returned, records are counted as Stopped.
func TestWriteNeverBlocks(t *testing.T) {
	w, _ := NewWriter(Config{Path: filepath.Join(t.TempDir(), "q.pcapng"), QueueLen: 2})
	id := w.AddInterface("team", "")
	r := Record{Interface: id, Time: t0, Src: gc, Dst: robot, Payload: []byte("x")}
	for range 5 {
		w.Write(r)
	}
	if s := w.Stats(); s.QueueFull != 3 {
		t.Fatalf("stats %+v, want 3 QueueFull", s)
	}
	runWriter(t, w)()
	if w.Write(r) {
		t.Fatal("Write accepted a record after Run returned")
	}
	s := w.Stats()
	if s.Written != 2 || s.Stopped != 1 || s.Offered != s.Written+s.Dropped() {
		t.Fatalf("stats %+v, want 2 written, 1 stopped, offered = written + dropped", s)
	}
}

// TestFlushInterval: a running Writer flushes within FlushInterval, so the records are
// in the file while the recording goes on.
func TestFlushInterval(t *testing.T) {
	path := filepath.Join(t.TempDir(), "live.pcapng")
	w, _ := NewWriter(Config{Path: path, FlushInterval: 20 * time.Millisecond})
	id := w.AddInterface("team", "")
	runWriter(t, w)
	w.Write(Record{Interface: id, Time: t0, Src: gc, Dst: robot, Payload: []byte("live")})
	deadline := time.Now().Add(5 * time.Second)
	for {
		if b, err := os.ReadFile(path); err == nil {
			if r, err := NewReader(bytes.NewReader(b)); err == nil {
				if p, err := r.Next(); err == nil && string(p.Payload) == "live" {
					return
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("record not in the file 5 s after writing")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestReadPcapLinkTypes: classic pcap files of the link types tcpdump writes are read,
// and non-UDP frames and fragments are skipped.
func TestReadPcapLinkTypes(t *testing.T) {
	payload := []byte("RGme")
	ip := &layers.IPv4{Version: 4, IHL: 5, TTL: 1, Protocol: layers.IPProtocolUDP,
		SrcIP: gc.Addr().AsSlice(), DstIP: robot.Addr().AsSlice()}
	udp := &layers.UDP{SrcPort: layers.UDPPort(gc.Port()), DstPort: layers.UDPPort(robot.Port())}
	_ = udp.SetNetworkLayerForChecksum(ip)
	ser := func(ls ...gopacket.SerializableLayer) []byte {
		buf := gopacket.NewSerializeBuffer()
		if err := gopacket.SerializeLayers(buf, gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}, ls...); err != nil {
			t.Fatal(err)
		}
		return append([]byte(nil), buf.Bytes()...)
	}
	tcp := &layers.TCP{SrcPort: 1, DstPort: 2}
	ipTCP := *ip
	ipTCP.Protocol = layers.IPProtocolTCP
	_ = tcp.SetNetworkLayerForChecksum(&ipTCP)
	frag := *ip
	frag.Flags = layers.IPv4MoreFragments
	eth := &layers.Ethernet{SrcMAC: HostMAC, DstMAC: layers.EthernetBroadcast, EthernetType: layers.EthernetTypeIPv4}
	// Linux cooked header: packet type 0 (to us), ARPHRD_ETHER, address length 6, the
	// address padded to 8 bytes, protocol IPv4.
	sll := append([]byte{0, 0, 0, 1, 0, 6}, append(append([]byte(nil), HostMAC...), 0, 0, 0x08, 0x00)...)
	cases := []struct {
		link   layers.LinkType
		frames [][]byte
	}{
		{layers.LinkTypeEthernet, [][]byte{ser(eth, &ipTCP, tcp), ser(eth, &frag, udp, gopacket.Payload(payload)), ser(eth, ip, udp, gopacket.Payload(payload))}},
		{layers.LinkTypeLinuxSLL, [][]byte{append(sll, ser(ip, udp, gopacket.Payload(payload))...)}},
		{layers.LinkTypeRaw, [][]byte{ser(ip, udp, gopacket.Payload(payload))}},
	}
	for _, c := range cases {
		var file bytes.Buffer
		pw := pcapgo.NewWriterNanos(&file)
		if err := pw.WriteFileHeader(65535, c.link); err != nil {
			t.Fatal(err)
		}
		for _, f := range c.frames {
			if err := pw.WritePacket(gopacket.CaptureInfo{Timestamp: t0, CaptureLength: len(f), Length: len(f)}, f); err != nil {
				t.Fatal(err)
			}
		}
		r, err := NewReader(&file)
		if err != nil {
			t.Fatalf("%v: %v", c.link, err)
		}
		p, err := r.Next()
		if err != nil || string(p.Payload) != "RGme" || p.Src != gc || p.Dst != robot || !p.Time.Equal(t0) || p.Frame != len(c.frames) {
			t.Fatalf("%v: got %+v, %v", c.link, p, err)
		}
		if _, err := r.Next(); err != io.EOF || r.Skipped() != len(c.frames)-1 {
			t.Fatalf("%v: after the datagram: %v, %d skipped", c.link, err, r.Skipped())
		}
	}
	if _, err := NewReader(strings.NewReader("0a1b2c3d not a capture")); !errors.Is(err, ErrFormat) {
		t.Fatalf("text file: %v, want ErrFormat", err)
	}
}

// TestTruncatedFile: a file cut short (the node lost power) gives its complete records,
// then an error rather than a silent end.
func TestTruncatedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cut.pcapng")
	w, _ := NewWriter(Config{Path: path})
	id := w.AddInterface("team", "")
	for i := range 3 {
		w.Write(Record{Interface: id, Time: t0, Src: gc, Dst: robot, Payload: []byte{byte(i)}})
	}
	runWriter(t, w)()
	b, _ := os.ReadFile(path)
	r, err := NewReader(bytes.NewReader(b[:len(b)-10]))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		_, err := r.Next()
		if err != nil {
			if err == io.EOF {
				t.Fatal("a truncated file ended without an error")
			}
			break
		}
		n++
	}
	if n != 2 {
		t.Fatalf("read %d complete records, want 2", n)
	}
}

// BenchmarkWrite is what a socket pays per datagram: Write with the writer goroutine
// draining the queue; queuefull/op is the share the writer could not keep up with.
func BenchmarkWrite(b *testing.B) {
	w, _ := NewWriter(Config{Path: filepath.Join(b.TempDir(), "b.pcapng"), QueueLen: 1 << 16})
	id := w.AddInterface("team", "")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = w.Run(ctx); close(done) }()
	r := Record{Interface: id, Dir: transport.Received, Time: t0, Src: gc, Dst: robot, Payload: make([]byte, 118)}
	b.ReportAllocs()
	for b.Loop() {
		w.Write(r)
	}
	cancel()
	<-done
	s := w.Stats()
	b.ReportMetric(float64(s.QueueFull)/float64(s.Offered), "queuefull/op")
}

// BenchmarkWriteFile is the writer goroutine's cost per record: frame building and the
// buffered file write (rotation checks included).
func BenchmarkWriteFile(b *testing.B) {
	w, _ := NewWriter(Config{Path: filepath.Join(b.TempDir(), "f.pcapng"), MaxSize: 64 << 20})
	id := w.AddInterface("team", "")
	r := Record{Interface: id, Dir: transport.Received, Time: t0, Src: gc, Dst: robot, Payload: make([]byte, 118)}
	b.ReportAllocs()
	for b.Loop() {
		w.write(r)
	}
	w.closeFile()
	if s := w.Stats(); s.Failed != 0 {
		b.Fatalf("stats %+v", s)
	}
}

// TestWriteErrorKeepsFile fills a small file system until writing fails: the Writer
// reports the error, keeps running, and never reopens (and so truncates) a file that
// already holds records.
func TestWriteErrorKeepsFile(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a small tmpfs needs root")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount: %v %s", err, out)
		}
	})
	path := filepath.Join(dir, "small.pcapng")
	w, _ := NewWriter(Config{Path: path, FlushInterval: time.Millisecond, QueueLen: 4096})
	id := w.AddInterface("team", "")
	stop := runWriter(t, w)
	payload := bytes.Repeat([]byte{0x5a}, 1400)
	deadline := time.Now().Add(10 * time.Second)
	for w.Stats().LastError == "" {
		if time.Now().After(deadline) {
			t.Fatalf("no write error on a full 256 KiB file system: %+v", w.Stats())
		}
		w.Write(Record{Interface: id, Time: t0, Src: gc, Dst: robot, Payload: payload})
		time.Sleep(100 * time.Microsecond)
	}
	for range 50 { // records after the error go to the next file, not over the first
		w.Write(Record{Interface: id, Time: t0, Src: gc, Dst: robot, Payload: payload})
	}
	stop()
	s := w.Stats()
	if !strings.Contains(s.LastError, "no space") || s.Failed == 0 {
		t.Errorf("stats %+v, want failures and the reason", s)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := NewReader(f)
	if err != nil {
		t.Fatalf("the first file lost its header: %v", err)
	}
	n := 0
	for {
		if _, err := r.Next(); err != nil {
			break
		}
		n++
	}
	if n < 100 {
		t.Errorf("the first file holds %d readable records, want the ≈180 written before the disk filled", n)
	}
}
