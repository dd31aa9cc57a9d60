package main

import (
	"bufio"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/robocup-dnetwork/dnetwork/proto/gclog"
	"github.com/robocup-dnetwork/dnetwork/transport/capture"
)

// decodeOptions are the flags a protocol decoder may need.
type decodeOptions struct {
	Key     string // worldinfo encryption key string
	AuthKey string // shared key for authenticated TeamInfo packets
	Team    int    // our team number, 0 = unknown (adds derived views where a protocol has them)
	Player  int    // our player number, 0 = unknown
}

// packetDecoder decodes one protocol for "dnetwork decode". Protocol files register one
// or more in init.
type packetDecoder struct {
	// proto is the name accepted by --proto.
	proto string
	// summary is shown in the usage text.
	summary string
	// order sorts auto-detection: lower values are tried first.
	order int
	// text marks protocols whose packets are text lines; they are read verbatim, not as hex.
	text bool
	// match reports whether a packet belongs to this protocol. Nil means the protocol is
	// never auto-detected and must be chosen with --proto.
	match func(b []byte) bool
	// port, if not 0, claims every datagram of a capture sent to this UDP port, whatever
	// its content (for formats without a magic, such as the GameController's forwards).
	port uint16
	// decode returns a value whose JSON encoding is an object that holds at least
	// "protocol" and "version" members.
	decode func(b []byte, o *decodeOptions) (any, error)
}

var packetDecoders = map[string]*packetDecoder{}

func registerDecoder(d *packetDecoder) {
	if _, dup := packetDecoders[d.proto]; dup {
		panic("dnetwork: duplicate decoder " + d.proto)
	}
	packetDecoders[d.proto] = d
}

func sortedDecoders() []*packetDecoder {
	ds := make([]*packetDecoder, 0, len(packetDecoders))
	for _, d := range packetDecoders {
		ds = append(ds, d)
	}
	sort.Slice(ds, func(i, j int) bool {
		if ds[i].order != ds[j].order {
			return ds[i].order < ds[j].order
		}
		return ds[i].proto < ds[j].proto
	})
	return ds
}

func init() {
	register(&command{
		name:    "decode",
		summary: "print packets given as hex lines, raw files or pcap/pcapng captures as JSON Lines",
		run:     runDecode,
	})
}

// errorRecord is printed for a packet that could not be decoded.
type errorRecord struct {
	Protocol string `json:"protocol"`
	Source   string `json:"source"`
	Length   int    `json:"length"`
	Error    string `json:"error"`
}

func runDecode(_ context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("decode", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		proto = fs.String("proto", "auto", "protocol to decode (auto detects the binary protocols)")
		raw   = fs.Bool("raw", false, "each input file (or stdin) is one raw binary packet instead of hex lines")
		port  = fs.Int("port", 0, "captures: only UDP datagrams from or to this port")
		toLog = fs.Bool("to-gclog", false, "write the recordings' status and team messages as a GameController log instead")
		form  = fs.String("gclog-form", "tag", "with --to-gclog: tag (serde_yaml 0.9, upstream GameController) or key (0.8, Debian builds)")
		opts  decodeOptions
	)
	fs.StringVar(&opts.Key, "key", "AllemaniACsX0rz", "worldinfo encryption key string")
	fs.StringVar(&opts.AuthKey, "auth-key", "", "shared key of authenticated dnet TeamInfo packets")
	fs.IntVar(&opts.Team, "team", 0, "our team number: adds the derived GCInfo view to GameController packets")
	fs.IntVar(&opts.Player, "player", 0, "our player number (with --team)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: dnetwork decode [flags] [file ...]")
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "Reads packets from the files, or stdin when none are given, and prints one JSON")
		fmt.Fprintln(stderr, "object per packet. Hex input is one packet per line; blank lines and lines")
		fmt.Fprintln(stderr, "starting with # are skipped, white space and colons inside a line are ignored.")
		fmt.Fprintln(stderr, "pcap and pcapng files (tcpdump, Wireshark, dnetwork record, the node's record.*)")
		fmt.Fprintln(stderr, "are recognised by their magic number: every UDP datagram of a known protocol is")
		fmt.Fprintln(stderr, "printed with its capture time, addresses, ports, interface and direction; other")
		fmt.Fprintln(stderr, "frames and datagrams are skipped and counted on stderr. Datagrams to port 3940 are")
		fmt.Fprintln(stderr, "the status messages a GameController forwarded to a monitor (fwd: host, rgrt).")
		fmt.Fprintln(stderr, "GameController YAML logs are recognised by their first entry: status and team")
		fmt.Fprintln(stderr, "messages are decoded with their log time, host and team; game states, actions")
		fmt.Fprintln(stderr, "and metadata are printed as read. A malformed or truncated log, or one of an")
		fmt.Fprintln(stderr, "unknown version, ends the run with status 2 after the entries before it.")
		fmt.Fprintln(stderr, "--to-gclog writes the status and team messages of recordings as such a log.")
		fmt.Fprintln(stderr, "Exit status is 1 if any packet was rejected.")
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "protocols:")
		for _, d := range sortedDecoders() {
			auto := ""
			if d.match == nil {
				auto = " (only with --proto)"
			}
			fmt.Fprintf(stderr, "  %-16s %s%s\n", d.proto, d.summary, auto)
		}
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "flags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	var forced *packetDecoder
	if *proto != "auto" {
		forced = packetDecoders[*proto]
		if forced == nil {
			fmt.Fprintf(stderr, "dnetwork decode: unknown protocol %q\n", *proto)
			return 2
		}
	}
	if *port < 0 || *port > 65535 {
		fmt.Fprintf(stderr, "dnetwork decode: --port %d outside 0..65535\n", *port)
		return 2
	}
	if *toLog {
		f := gclog.FormTag
		switch *form {
		case "tag":
		case "key":
			f = gclog.FormKey
		default:
			fmt.Fprintf(stderr, "dnetwork decode: --gclog-form %q: want tag or key\n", *form)
			return 2
		}
		if fs.NArg() == 0 {
			fmt.Fprintln(stderr, "dnetwork decode: --to-gclog needs recordings (pcap or pcapng files)")
			return 2
		}
		return writeGameLog(fs.Args(), f, stdout, stderr)
	}
	dec := &decodeRun{forced: forced, opts: &opts, out: json.NewEncoder(stdout), port: uint16(*port), stderr: stderr}
	dec.out.SetEscapeHTML(false)

	files := fs.Args()
	if len(files) == 0 {
		files = []string{"-"}
	}
	for _, name := range files {
		if err := dec.file(name, stdin, *raw); err != nil {
			fmt.Fprintf(stderr, "dnetwork decode: %v\n", err)
			return 2
		}
	}
	if dec.rejected > 0 {
		fmt.Fprintf(stderr, "dnetwork decode: %d of %d packets rejected\n", dec.rejected, dec.total)
		return 1
	}
	return 0
}

type decodeRun struct {
	forced          *packetDecoder
	opts            *decodeOptions
	out             *json.Encoder
	port            uint16 // captures: only datagrams from or to it; 0: all
	stderr          io.Writer
	total, rejected int
}

func (r *decodeRun) file(name string, stdin io.Reader, raw bool) error {
	var in io.Reader = stdin
	label := "stdin"
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		in, label = f, name
	}
	br := bufio.NewReader(in)
	head, _ := br.Peek(512)
	if capture.IsCapture(head) {
		return r.capture(br, label)
	}
	if gclog.IsLog(head) {
		return r.gameLog(br, label)
	}
	in = br
	if raw {
		b, err := io.ReadAll(in)
		if err != nil {
			return fmt.Errorf("%s: %w", label, err)
		}
		return r.packet(b, label)
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		src := fmt.Sprintf("%s:%d", label, line)
		if r.forced != nil && r.forced.text {
			if err := r.packet([]byte(text), src); err != nil {
				return err
			}
			continue
		}
		b, err := hex.DecodeString(strings.Map(func(c rune) rune {
			if c == ' ' || c == '\t' || c == ':' {
				return -1
			}
			return c
		}, text))
		if err != nil {
			r.total++
			r.rejected++
			proto := "unknown"
			if r.forced != nil {
				proto = r.forced.proto
			}
			if err := r.out.Encode(errorRecord{Protocol: proto, Source: src, Error: "bad hex: " + err.Error()}); err != nil {
				return err
			}
			continue
		}
		if err := r.packet(b, src); err != nil {
			return err
		}
	}
	return sc.Err()
}

// packet decodes and prints one packet. Only output errors are returned.
func (r *decodeRun) packet(b []byte, src string) error {
	r.total++
	d := r.forced
	if d == nil {
		d = r.detect(b)
	}
	if d == nil {
		r.rejected++
		return r.out.Encode(errorRecord{Protocol: "unknown", Source: src, Length: len(b),
			Error: fmt.Sprintf("no known protocol matches %d bytes starting % x", len(b), b[:min(len(b), 8)])})
	}
	v, err := d.decode(b, r.opts)
	if err != nil {
		r.rejected++
		return r.out.Encode(errorRecord{Protocol: d.proto, Source: src, Length: len(b), Error: err.Error()})
	}
	return r.out.Encode(v)
}

// jsonFloat prints a float as a JSON number, or NaN and infinities as the strings "NaN",
// "+Inf" and "-Inf", which JSON numbers cannot express.
type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) { return appendJSONFloat(nil, float64(f), 64), nil }

// jsonFloat32 is jsonFloat for float32 fields, printed with float32 precision.
type jsonFloat32 float32

func (f jsonFloat32) MarshalJSON() ([]byte, error) {
	return appendJSONFloat(nil, float64(f), 32), nil
}

func appendJSONFloat(b []byte, v float64, bits int) []byte {
	switch {
	case math.IsNaN(v):
		return append(b, `"NaN"`...)
	case math.IsInf(v, 1):
		return append(b, `"+Inf"`...)
	case math.IsInf(v, -1):
		return append(b, `"-Inf"`...)
	}
	return strconv.AppendFloat(b, v, 'g', -1, bits)
}
