package udpstat

import (
	"errors"
	"testing"
)

const snmp = `Ip: Forwarding DefaultTTL InReceives
Ip: 1 64 1234
Udp: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors InCsumErrors IgnoredMulti MemErrors
Udp: 235 3 17 237 5 1 9 2 1
UdpLite: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors InCsumErrors IgnoredMulti MemErrors
UdpLite: 0 0 0 0 0 0 0 0 0
`

func TestParse(t *testing.T) {
	c, err := Parse([]byte(snmp))
	if err != nil {
		t.Fatal(err)
	}
	want := Counters{InDatagrams: 235, NoPorts: 3, InErrors: 17, OutDatagrams: 237, RcvbufErrors: 5, SndbufErrors: 1, InCsumErrors: 9, IgnoredMulti: 2, MemErrors: 1}
	if c != want || c.OtherErrors() != 3 {
		t.Fatalf("%+v", c)
	}
	// Older kernels have fewer columns, in another order; unknown ones are skipped.
	c, err = Parse([]byte("Udp: InErrors InDatagrams Future\nUdp: 4 10 99\n"))
	if err != nil || c != (Counters{InErrors: 4, InDatagrams: 10}) {
		t.Fatalf("%+v %v", c, err)
	}
	for _, bad := range []string{"", "Ip: 1\n", "Udp: A B\n", "Udp: A B\nUdp: 1\n", "Udp: InErrors\nUdp: -1\n", "Udp:\nUdp:\n"} {
		if _, err := Parse([]byte(bad)); !errors.Is(err, ErrFormat) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestSub(t *testing.T) {
	a := Counters{InErrors: 10, InCsumErrors: 4, RcvbufErrors: 1}
	b := Counters{InErrors: 3, InCsumErrors: 5}
	if d := a.Sub(b); d != (Counters{InErrors: 7, RcvbufErrors: 1}) {
		t.Fatalf("%+v", d)
	}
	if (Counters{InErrors: 1, InCsumErrors: 2}).OtherErrors() != 0 {
		t.Fatal("other errors underflow")
	}
}

// Read works on this machine (Linux, /proc mounted).
func TestRead(t *testing.T) {
	if _, err := Read(); err != nil {
		t.Fatal(err)
	}
	old := Paths
	defer func() { Paths = old }()
	Paths = []string{"/nonexistent/snmp"}
	if _, err := Read(); err == nil {
		t.Fatal("no error without the file")
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(snmp))
	f.Add([]byte("Udp: InErrors\nUdp: 18446744073709551615\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := Parse(b)
		if err != nil && c != (Counters{}) {
			t.Fatalf("counters %+v with error %v", c, err)
		}
		_ = c.OtherErrors()
	})
}
