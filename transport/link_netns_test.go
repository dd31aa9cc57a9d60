package transport

import (
	"errors"
	"net/netip"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/netnstest"
)

// statusLog collects a worker's status changes for a test.
type statusLog chan Status

func (l statusLog) onStatus(t *testing.T) func(Status) {
	return func(s Status) {
		select {
		case l <- s:
		default:
			t.Error("status channel full")
		}
	}
}

// wait returns the first status that satisfies ok, failing t after waitLimit.
func (l statusLog) wait(t *testing.T, what string, w *Worker, ok func(Status) bool) Status {
	t.Helper()
	timer := time.NewTimer(waitLimit)
	defer timer.Stop()
	for {
		select {
		case s := <-l:
			if ok(s) {
				return s
			}
		case <-timer.C:
			t.Fatalf("no %s status; now %+v", what, w.Status())
		}
	}
}

// TestNetnsReopenOnLinkUp: a socket whose interface went down reopens when the link
// comes back, on the kernel's event, whatever its backoff timer says: here the backoff
// is 10 s, and the link is down for 1.5 s.
func TestNetnsReopenOnLinkUp(t *testing.T) {
	a, b := netnstest.New(t, "la"), netnstest.New(t, "lb")
	netnstest.Veth(t, a, "va", "10.92.0.1/24", b, "vb", "10.92.0.2/24")
	log := make(statusLog, 64)
	cfg := Config{Name: "rx", Interface: "vb", Port: 4600, Recheck: time.Hour, BackoffMin: 10 * time.Second, BackoffMax: 10 * time.Second}
	cfg.OnStatus = log.onStatus(t)
	rx := startIn(t, b, cfg)
	log.wait(t, "up", rx, func(s Status) bool { return s.State == StateUp })
	var worst time.Duration
	for round := range 3 {
		b.IP(t, "link", "set", "vb", "down")
		down := log.wait(t, "down", rx, func(s Status) bool { return s.State == StateDown && errors.Is(s.Err, ErrInterfaceDown) })
		if down.RetryIn < 10*time.Second {
			t.Fatalf("retry in %v, want the 10 s backoff", down.RetryIn)
		}
		time.Sleep(1500 * time.Millisecond)
		back := time.Now() // before the command: the figure includes running ip
		b.IP(t, "link", "set", "vb", "up")
		up := log.wait(t, "up", rx, func(s Status) bool { return s.State == StateUp })
		took := up.Since.Sub(back)
		worst = max(worst, took)
		t.Logf("round %d: socket up %v after the link", round, took.Round(time.Microsecond))
		if took > 200*time.Millisecond {
			t.Fatalf("round %d: socket reopened %v after the link came back, want within 0.2 s", round, took)
		}
	}
	if s := rx.Stats(); s.Opens != 4 {
		t.Fatalf("%d opens, want 4", s.Opens)
	}
	t.Logf("reopen after link-up: at most %v", worst.Round(time.Microsecond))
}

// TestNetnsCarrier: the peer of a veth going down takes the carrier away while the
// interface stays up: the socket stays open, its status says no carrier, and what it
// sends meanwhile is counted as sent without carrier; the carrier's return clears it.
func TestNetnsCarrier(t *testing.T) {
	a, b := netnstest.New(t, "ca"), netnstest.New(t, "cb")
	netnstest.Veth(t, a, "va", "10.93.0.1/24", b, "vb", "10.93.0.2/24")
	log := make(statusLog, 64)
	cfg := Config{Name: "tx", Interface: "vb", Recheck: time.Hour}
	cfg.OnStatus = log.onStatus(t)
	w := startIn(t, b, cfg)
	log.wait(t, "up", w, func(s Status) bool { return s.State == StateUp })
	to := netip.MustParseAddrPort("10.93.0.1:9")
	if err := w.SendTo([]byte("x"), to); err != nil {
		t.Fatal(err)
	}
	if st := w.Stats(); st.Sent != 1 || st.SentNoCarrier != 0 || w.Status().NoCarrier {
		t.Fatalf("with carrier: %+v %+v", st, w.Status())
	}

	a.IP(t, "link", "set", "va", "down")
	off := log.wait(t, "no carrier", w, func(s Status) bool { return s.State == StateUp && s.NoCarrier })
	if off.Err != nil || w.Stats().Opens != 1 {
		t.Fatalf("no carrier: %+v, %d opens: the socket must stay open", off, w.Stats().Opens)
	}
	for range 3 {
		if err := w.SendTo([]byte("x"), to); err != nil {
			t.Fatalf("send without carrier: %v (the kernel takes it)", err)
		}
	}
	if st := w.Stats(); st.Sent != 4 || st.SentNoCarrier != 3 {
		t.Fatalf("without carrier: %+v", st)
	}

	a.IP(t, "link", "set", "va", "up")
	log.wait(t, "carrier back", w, func(s Status) bool { return s.State == StateUp && !s.NoCarrier })
	if err := w.SendTo([]byte("x"), to); err != nil {
		t.Fatal(err)
	}
	if st := w.Stats(); st.Sent != 5 || st.SentNoCarrier != 3 || st.Opens != 1 {
		t.Fatalf("carrier back: %+v", st)
	}
}
