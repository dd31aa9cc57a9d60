package udpstat

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
)

// ErrFormat reports a counters file that does not hold the Udp table.
var ErrFormat = errors.New("udpstat: no Udp counters")

// Counters are the kernel's UDP counters of one namespace since it was created.
type Counters struct {
	InDatagrams, NoPorts, InErrors, OutDatagrams uint64
	RcvbufErrors, SndbufErrors, InCsumErrors     uint64
	IgnoredMulti, MemErrors                      uint64
}

// OtherErrors returns the receive errors that are neither a full buffer nor a bad
// checksum (memory shortage, socket filters).
func (c Counters) OtherErrors() uint64 {
	known := c.RcvbufErrors + c.InCsumErrors
	if c.InErrors < known {
		return 0
	}
	return c.InErrors - known
}

// Sub returns c - base counter by counter, 0 where c is below base.
func (c Counters) Sub(base Counters) Counters {
	d := func(a, b uint64) uint64 {
		if a < b {
			return 0
		}
		return a - b
	}
	return Counters{
		InDatagrams: d(c.InDatagrams, base.InDatagrams), NoPorts: d(c.NoPorts, base.NoPorts),
		InErrors: d(c.InErrors, base.InErrors), OutDatagrams: d(c.OutDatagrams, base.OutDatagrams),
		RcvbufErrors: d(c.RcvbufErrors, base.RcvbufErrors), SndbufErrors: d(c.SndbufErrors, base.SndbufErrors),
		InCsumErrors: d(c.InCsumErrors, base.InCsumErrors), IgnoredMulti: d(c.IgnoredMulti, base.IgnoredMulti),
		MemErrors: d(c.MemErrors, base.MemErrors),
	}
}

// Paths are tried in order by Read: the namespace of the calling thread, then of the
// process.
var Paths = []string{"/proc/thread-self/net/snmp", "/proc/self/net/snmp"}

// Read returns the counters of the calling thread's network namespace.
func Read() (Counters, error) {
	var err error
	for _, p := range Paths {
		var b []byte
		if b, err = os.ReadFile(p); err == nil {
			return Parse(b)
		}
	}
	return Counters{}, fmt.Errorf("udpstat: %w", err)
}

// Parse reads the counters from the contents of /proc/net/snmp: the first "Udp:" line
// names the columns, the next one holds their values.
func Parse(b []byte) (Counters, error) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	var names [][]byte
	for sc.Scan() {
		line := sc.Bytes()
		rest, ok := bytes.CutPrefix(line, []byte("Udp:"))
		if !ok {
			continue
		}
		f := bytes.Fields(rest)
		if names == nil {
			names = append([][]byte(nil), f...)
			for i := range names {
				names[i] = bytes.Clone(names[i])
			}
			continue
		}
		if len(f) != len(names) || len(f) == 0 {
			return Counters{}, fmt.Errorf("%w: %d names, %d values", ErrFormat, len(names), len(f))
		}
		var c Counters
		for i, v := range f {
			n, err := strconv.ParseUint(string(v), 10, 64)
			if err != nil {
				return Counters{}, fmt.Errorf("%w: %s: %v", ErrFormat, names[i], err)
			}
			if p := c.field(string(names[i])); p != nil {
				*p = n
			}
		}
		return c, nil
	}
	return Counters{}, ErrFormat
}

func (c *Counters) field(name string) *uint64 {
	switch name {
	case "InDatagrams":
		return &c.InDatagrams
	case "NoPorts":
		return &c.NoPorts
	case "InErrors":
		return &c.InErrors
	case "OutDatagrams":
		return &c.OutDatagrams
	case "RcvbufErrors":
		return &c.RcvbufErrors
	case "SndbufErrors":
		return &c.SndbufErrors
	case "InCsumErrors":
		return &c.InCsumErrors
	case "IgnoredMulti":
		return &c.IgnoredMulti
	case "MemErrors":
		return &c.MemErrors
	}
	return nil
}
