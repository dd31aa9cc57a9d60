package capture

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
	"golang.org/x/sys/unix"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

// Defaults of a Writer.
const (
	// DefaultQueueLen is the capacity of the queue between Write and the file.
	DefaultQueueLen = 4096
	// DefaultFlushInterval is the longest time a written record stays in memory.
	DefaultFlushInterval = time.Second
	// fileBuffer is the write buffer of a file.
	fileBuffer = 64 << 10
	// spaceCheck is how often the free space is measured while writing.
	spaceCheck = time.Second
)

// Errors of the capture package.
var (
	// ErrConfig reports an invalid Config.
	ErrConfig = errors.New("capture: bad config")
	// ErrTooLarge reports a payload that does not fit an IPv4 frame.
	ErrTooLarge = errors.New("capture: payload too large")
	// ErrFormat reports a file that is neither pcap nor pcapng.
	ErrFormat = errors.New("capture: not a pcap or pcapng file")
	// ErrRunTwice reports a second call of Writer.Run.
	ErrRunTwice = errors.New("capture: Run called twice")
)

// Config configures a Writer.
type Config struct {
	// Path is the first file's name, e.g. /var/log/dnetwork/robot3.pcapng. Rotation
	// adds _001, _002, ... before the extension.
	Path string
	// MaxSize is the size in bytes at which the next record starts a new file; 0: no
	// limit.
	MaxSize int64
	// Rotate is the most files kept: when a new file would exceed it, the oldest is
	// removed. 0 keeps every file.
	Rotate int
	// MinFree is the free space in bytes the file system must keep: below it records
	// are counted as NoSpace instead of written. 0: no floor.
	MinFree int64
	// FlushInterval bounds how long a record stays buffered; 0 means
	// DefaultFlushInterval.
	FlushInterval time.Duration
	// QueueLen is the capacity of the queue; 0 means DefaultQueueLen.
	QueueLen int
	// Application names the recording program in the file's section header.
	Application string
}

// directionComment explains the direction convention in every interface block.
var directionComment = fmt.Sprintf("sent by the recording host: eth.src == %v; received: eth.dst == %v", HostMAC, HostMAC)

// Record is one datagram to write.
type Record struct {
	// Interface is an id returned by AddInterface.
	Interface int
	// Dir says whether the recording host received or sent the datagram.
	Dir transport.Direction
	// Time is the capture time written to the file.
	Time time.Time
	// Src and Dst are the datagram's addresses and ports.
	Src, Dst netip.AddrPort
	// Payload is the UDP payload; Write copies it.
	Payload []byte
}

// Stats counts what a Writer did with the records offered to it.
type Stats struct {
	Offered   uint64 // records passed to Write
	Written   uint64 // records written to a file's buffer (a failing flush is reported in LastError)
	QueueFull uint64 // dropped: the queue was full (the file could not keep up)
	NoSpace   uint64 // dropped: the file system had less than MinFree available
	Failed    uint64 // dropped: opening or writing the file failed, or the payload was too large
	Stopped   uint64 // dropped: offered after Run returned
	Bytes     int64  // bytes written to files, headers included
	Files     int    // files opened
	File      string // the file being written ("" before the first record)
	LastError string // the last failure, for diagnostics
}

// Dropped is the number of records offered but not written.
func (s Stats) Dropped() uint64 { return s.QueueFull + s.NoSpace + s.Failed + s.Stopped }

// Writer records datagrams into rotating pcapng files. Write and AddInterface are safe
// for concurrent use; Run is the one goroutine that writes files.
type Writer struct {
	cfg   Config
	queue chan Record
	ran   atomic.Bool

	closeMu sync.RWMutex // Write holds it shared while queueing; Run exclusively to close
	closed  bool

	ifMu   sync.Mutex
	ifaces []pcapgo.NgInterface

	offered, written, queueFull, noSpace, failed, stopped atomic.Uint64

	statMu  sync.Mutex // guards the fields below, written by Run's goroutine
	bytes   int64
	files   int
	current string
	lastErr string

	// Run's own state.
	f         *os.File
	cw        *countingWriter
	bw        *bufio.Writer
	ng        *pcapgo.NgWriter
	added     int   // interfaces declared in the current file
	prevBytes int64 // bytes of the files already closed
	seq       int   // number of the current file
	paths     []string
	buf       gopacket.SerializeBuffer
	spaceOK   bool
	spaceAt   time.Time
	statfsFn  func(string) (int64, error)
}

// NewWriter validates cfg and returns a Writer; no file is opened before the first
// record is written.
func NewWriter(cfg Config) (*Writer, error) {
	var errs []error
	if cfg.Path == "" {
		errs = append(errs, fmt.Errorf("%w: empty path", ErrConfig))
	}
	if cfg.MaxSize < 0 || cfg.Rotate < 0 || cfg.MinFree < 0 || cfg.FlushInterval < 0 || cfg.QueueLen < 0 {
		errs = append(errs, fmt.Errorf("%w: negative size, count or interval", ErrConfig))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	cfg.FlushInterval = cmp.Or(cfg.FlushInterval, DefaultFlushInterval)
	cfg.QueueLen = cmp.Or(cfg.QueueLen, DefaultQueueLen)
	cfg.Application = cmp.Or(cfg.Application, "dnetwork")
	return &Writer{
		cfg:      cfg,
		queue:    make(chan Record, cfg.QueueLen),
		buf:      gopacket.NewSerializeBuffer(),
		statfsFn: freeSpace,
	}, nil
}

// AddInterface declares a socket: its records are written under one interface
// description block named name (e.g. "gamecontroller") with the description desc
// (e.g. "udp 0.0.0.0:3838 on wlan0"). It returns the id for Record.Interface.
func (w *Writer) AddInterface(name, desc string) int {
	w.ifMu.Lock()
	defer w.ifMu.Unlock()
	w.ifaces = append(w.ifaces, pcapgo.NgInterface{
		Name: name, Description: desc, Comment: directionComment, OS: runtime.GOOS, LinkType: layers.LinkTypeEthernet,
	})
	return len(w.ifaces) - 1
}

// Tap returns a transport.Tap that writes a socket's datagrams under interface id,
// stamped by now (the node's clock).
func (w *Writer) Tap(id int, now func() time.Time) transport.Tap {
	return func(dir transport.Direction, d transport.Datagram) {
		w.Write(Record{Interface: id, Dir: dir, Time: now(), Src: d.Src, Dst: d.Dst, Payload: d.Payload})
	}
}

// Write queues a copy of r for the file and reports whether it was queued. It never
// blocks: when the queue is full the record is counted as QueueFull.
func (w *Writer) Write(r Record) bool {
	w.offered.Add(1)
	w.closeMu.RLock()
	defer w.closeMu.RUnlock()
	if w.closed {
		w.stopped.Add(1)
		return false
	}
	if len(w.queue) == cap(w.queue) {
		w.queueFull.Add(1)
		return false
	}
	r.Payload = append([]byte(nil), r.Payload...)
	select {
	case w.queue <- r:
		return true
	default: // another writer took the last slot
		w.queueFull.Add(1)
		return false
	}
}

// Path returns the name of the first file.
func (w *Writer) Path() string { return w.cfg.Path }

// Stats returns a snapshot of the counters.
func (w *Writer) Stats() Stats {
	w.statMu.Lock()
	s := Stats{Bytes: w.bytes, Files: w.files, File: w.current, LastError: w.lastErr}
	w.statMu.Unlock()
	s.Written, s.QueueFull, s.NoSpace = w.written.Load(), w.queueFull.Load(), w.noSpace.Load()
	s.Failed, s.Stopped = w.failed.Load(), w.stopped.Load()
	s.Offered = w.offered.Load()
	return s
}

// Run writes queued records until ctx is done; then it writes what is still queued,
// flushes and closes the file and returns. Records offered later are counted as
// Stopped. It returns nil: failures are counted and kept in Stats.LastError.
func (w *Writer) Run(ctx context.Context) error {
	if w.ran.Swap(true) {
		return ErrRunTwice
	}
	t := clock.Wall.NewTicker(w.cfg.FlushInterval) // on the node's grid of wake-ups
	defer t.Stop()
	for {
		select {
		case r := <-w.queue:
			w.write(r)
		case <-t.C():
			w.flush()
		case <-ctx.Done():
			w.closeMu.Lock()
			w.closed = true
			w.closeMu.Unlock()
			for {
				select {
				case r := <-w.queue:
					w.write(r)
					continue
				default:
				}
				break
			}
			w.closeFile()
			return nil
		}
	}
}

// write writes one record, opening or rotating the file as needed.
func (w *Writer) write(r Record) {
	if !w.haveSpace() {
		w.noSpace.Add(1)
		return
	}
	if w.ng != nil && w.cfg.MaxSize > 0 && w.size() >= w.cfg.MaxSize {
		w.closeFile()
	}
	if w.ng == nil {
		if err := w.open(r.Interface); err != nil {
			w.fail(err)
			return
		}
	}
	if err := w.declare(r.Interface); err != nil {
		w.fail(err)
		w.closeFile() // a half-written block: start afresh
		return
	}
	frame, err := appendFrame(w.buf, r.Dir == transport.Sent, r.Src, r.Dst, r.Payload)
	if err != nil {
		w.fail(err)
		return
	}
	ci := gopacket.CaptureInfo{Timestamp: r.Time, CaptureLength: len(frame), Length: len(frame), InterfaceIndex: r.Interface}
	if err := w.ng.WritePacket(ci, frame); err != nil {
		w.fail(err)
		w.closeFile()
		return
	}
	w.written.Add(1)
	w.statMu.Lock()
	w.bytes = w.prevBytes + w.cw.n
	w.statMu.Unlock()
}

// declare writes the interface blocks up to id into the current file.
func (w *Writer) declare(id int) error {
	w.ifMu.Lock()
	defer w.ifMu.Unlock()
	if id < 0 || id >= len(w.ifaces) {
		return fmt.Errorf("capture: record for undeclared interface %d", id)
	}
	for w.added <= id {
		if _, err := w.ng.AddInterface(w.ifaces[w.added]); err != nil {
			return err
		}
		w.added++
	}
	return nil
}

// path returns the name of file number seq.
func (w *Writer) path(seq int) string {
	if seq == 0 {
		return w.cfg.Path
	}
	ext := filepath.Ext(w.cfg.Path)
	return fmt.Sprintf("%s_%03d%s", strings.TrimSuffix(w.cfg.Path, ext), seq, ext)
}

// open creates the current file with its section header and first interface block,
// removing the oldest file beyond Rotate.
func (w *Writer) open(id int) error {
	w.ifMu.Lock()
	if id < 0 || id >= len(w.ifaces) {
		w.ifMu.Unlock()
		return fmt.Errorf("capture: record for undeclared interface %d", id)
	}
	first := w.ifaces[0]
	w.ifMu.Unlock()
	name := w.path(w.seq)
	if w.cfg.Rotate > 0 {
		for len(w.paths) >= w.cfg.Rotate {
			_ = os.Remove(w.paths[0]) // gone already is as good
			w.paths = w.paths[1:]
		}
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		w.seq++ // do not retry the same name for every record
		return err
	}
	cw := &countingWriter{w: f}
	// pcapgo keeps a bufio.Writer given to it, so its buffered bytes can be counted.
	bw := bufio.NewWriterSize(cw, fileBuffer)
	opts := pcapgo.NgWriterOptions{SectionInfo: pcapgo.NgSectionInfo{
		OS: runtime.GOOS, Application: w.cfg.Application,
	}}
	ng, err := pcapgo.NewNgWriterInterface(bw, first, opts)
	if err != nil {
		f.Close()
		return err
	}
	w.f, w.cw, w.bw, w.ng, w.added = f, cw, bw, ng, 1
	w.paths = append(w.paths, name)
	w.statMu.Lock()
	w.files++
	w.current = name
	w.statMu.Unlock()
	return nil
}

// flush pushes buffered records to the file.
func (w *Writer) flush() {
	if w.ng == nil {
		return
	}
	if err := w.ng.Flush(); err != nil {
		w.fail(err)
		w.closeFile() // counts the bytes
		return
	}
	w.statMu.Lock()
	w.bytes = w.prevBytes + w.cw.n
	w.statMu.Unlock()
}

// closeFile flushes and closes the current file, if any; the next file gets the next
// number, so a file closed after a write error is never reopened and truncated.
func (w *Writer) closeFile() {
	if w.ng == nil {
		return
	}
	err := w.ng.Flush()
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		w.statMu.Lock()
		w.lastErr = err.Error()
		w.statMu.Unlock()
	}
	w.statMu.Lock()
	w.bytes = w.prevBytes + w.cw.n
	w.statMu.Unlock()
	w.prevBytes += w.cw.n
	w.f, w.cw, w.bw, w.ng = nil, nil, nil, nil
	w.seq++
}

func (w *Writer) fail(err error) {
	w.failed.Add(1)
	w.statMu.Lock()
	w.lastErr = err.Error()
	w.statMu.Unlock()
}

// haveSpace reports whether the file system keeps MinFree bytes, measured at most once
// per second.
func (w *Writer) haveSpace() bool {
	if w.cfg.MinFree == 0 {
		return true
	}
	now := time.Now()
	if !w.spaceAt.IsZero() && now.Sub(w.spaceAt) < spaceCheck {
		return w.spaceOK
	}
	w.spaceAt = now
	free, err := w.statfsFn(filepath.Dir(w.cfg.Path))
	w.spaceOK = err == nil && free >= w.cfg.MinFree
	if !w.spaceOK {
		w.statMu.Lock()
		if err != nil {
			w.lastErr = err.Error()
		} else {
			w.lastErr = fmt.Sprintf("%d bytes free, below the floor of %d", free, w.cfg.MinFree)
		}
		w.statMu.Unlock()
	}
	return w.spaceOK
}

// freeSpace returns the bytes available to unprivileged users on dir's file system.
func freeSpace(dir string) (int64, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, fmt.Errorf("capture: free space of %s: %w", dir, err)
	}
	return int64(st.Bavail) * st.Bsize, nil
}

// size is the current file's size including what is still buffered.
func (w *Writer) size() int64 { return w.cw.n + int64(w.bw.Buffered()) }

// countingWriter counts the bytes that reached the current file (pcapgo buffers up to
// a few kilobytes before them).
type countingWriter struct {
	w *os.File
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
