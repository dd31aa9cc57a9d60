//go:build cgo

package dds

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/ros/internal/ddstest"
)

// TestReaderSignalsOnce checks that the listener signals the reader's goroutine once
// for all the samples it puts in the ring before the goroutine takes the signal: while
// the handler holds the first sample, 30 more are written, and the eventfd's counter
// (which nothing reads: see Reader.run) grows by at most one for them, not by 30. Every sample
// still arrives, in order, and so do samples written after the goroutine has taken the
// signal, each burst signalled anew.
func TestReaderSignalsOnce(t *testing.T) {
	domainSignal := takeDomain(t)
	ddstest.Setup(t)
	p := newParticipant(t, domainSignal, "")
	q := QoS{History: KeepAll}
	w, err := p.NewWriter("rt/signal", testType, q)
	if err != nil {
		t.Fatal(err)
	}
	gate, held := make(chan struct{}), make(chan struct{})
	c := newCollector()
	first := true
	r, err := p.NewReader("rt/signal", testType, q, func(s Sample) {
		if first {
			first = false
			close(held)
			<-gate
		}
		c.handle(s)
	})
	if err != nil {
		t.Fatal(err)
	}
	waitMatched(t, w, 1)
	write := func(i int) {
		t.Helper()
		if err := w.Write(sample(fmt.Sprintf("sample %03d", i))); err != nil {
			t.Fatal(err)
		}
	}
	write(0)
	<-held
	before := eventfdCount(t, r)
	for i := 1; i <= 30; i++ {
		write(i) // local delivery: the listener has run when Write returns
	}
	// One signal for the 30, or none when the first sample's own signal was still
	// pending: it came between the goroutine's taking of the signal and its emptying of
	// the ring (a goroutine that started late), which then found the sample already.
	if n := eventfdCount(t, r) - before; n > 1 {
		t.Errorf("30 samples written while the goroutine worked: the eventfd was signalled %d times, want at most 1", n)
	}
	close(gate)
	c.wait(t, 31, 10*time.Second)
	for burst := range 3 {
		mark := eventfdCount(t, r)
		write(100 + burst)
		c.wait(t, 32+burst, 10*time.Second)
		if n := eventfdCount(t, r) - mark; n != 1 {
			t.Errorf("burst %d after the goroutine went back to wait: %d signals, want 1", burst, n)
		}
	}
	got := c.wait(t, 34, time.Second)
	for i, s := range got {
		want := i
		if i > 30 {
			want = 100 + i - 31
		}
		if body := string(trimmed(t, s.Data, 14)[4:]); body != fmt.Sprintf("sample %03d", want) {
			t.Fatalf("sample %d is %q, want %q", i, body, fmt.Sprintf("sample %03d", want))
		}
	}
}

// eventfdCount reads the counter of the reader's eventfd from /proc, without reading
// the descriptor itself.
func eventfdCount(t *testing.T, r *Reader) uint64 {
	t.Helper()
	return fileEventfdCount(t, r.wake)
}

// fileEventfdCount reads the counter of the eventfd f from /proc, without reading f.
func fileEventfdCount(t *testing.T, f *os.File) uint64 {
	t.Helper()
	rc, err := f.SyscallConn() // not Fd, which would make the descriptor blocking
	if err != nil {
		t.Fatal(err)
	}
	var info []byte
	if cerr := rc.Control(func(fd uintptr) { info, err = os.ReadFile(fmt.Sprintf("/proc/self/fdinfo/%d", fd)) }); cerr != nil {
		t.Fatal(cerr)
	}
	if err != nil {
		t.Fatal(err)
	}
	for l := range strings.Lines(string(info)) {
		if v, ok := strings.CutPrefix(l, "eventfd-count:"); ok {
			n, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("no eventfd-count in %s", info)
	return 0
}
