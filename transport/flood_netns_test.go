package transport

import (
	"errors"
	"net/netip"
	"sync/atomic"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/internal/netnstest"
	"github.com/robocup-dnetwork/dnetwork/internal/qemutest"
)

// TestNetnsInterfaceEventDuringFlood: an interface event is handled while a flood keeps
// every read full. The robot's address goes away while broadcasts to another subnet of
// the same interface keep coming faster than the worker reads them (each one it reads
// makes its Filter send two more, up to a bounded total); the worker must notice the
// lost address at once, not only when the flood ends.
func TestNetnsInterfaceEventDuringFlood(t *testing.T) {
	qemutest.Skip(t, "the address is removed by running ip(8) during the flood, and qemu-user can hang a child forked while other threads work before it reaches exec")
	a, b := netnstest.New(t, "ea"), netnstest.New(t, "eb")
	netnstest.Veth(t, a, "va", "10.93.0.1/24", b, "vb", "10.93.0.2/24")
	const (
		port  = 4600
		flood = 1_000_000 // datagrams the flood sends at most
	)
	tx := plainSocket(t, a)
	to := netip.MustParseAddrPort("10.94.0.255:4600")
	var left atomic.Int64 // datagrams the flood may still send
	payload := []byte("flood")
	send := func() {
		if left.Add(-1) >= 0 {
			_, _ = tx.WriteToUDPAddrPort(payload, to) // the receiver's buffer overflows: drops are expected
		}
	}
	statuses := make(chan Status, 64)
	rx := startIn(t, b, Config{
		Name: "rx", Interface: "vb", Port: port, Recheck: time.Hour, ReadBuffer: 1 << 20,
		BackoffMin: 10 * time.Millisecond, BackoffMax: 80 * time.Millisecond,
		Filter: func(Datagram) bool {
			send()
			send()
			return false
		},
		OnStatus: func(s Status) {
			select {
			case statuses <- s:
			default:
			}
		},
	})
	t.Cleanup(func() { left.Store(0) })
	if c := rx.Interface(); c.Addr != netip.MustParsePrefix("10.93.0.2/24") {
		t.Fatalf("worker uses %v, want 10.93.0.2/24", c.Addr)
	}
	// The flood's subnet, added after the worker chose its address.
	a.IP(t, "addr", "add", "10.94.0.1/24", "dev", "va")
	b.IP(t, "addr", "add", "10.94.0.2/24", "dev", "vb")

	left.Store(flood)
	for range 2 * maxBatch {
		send()
	}
	eventually(t, "a flood that feeds itself", func() bool { return rx.Stats().Received > 20_000 })

	b.IP(t, "addr", "del", "10.93.0.2/24", "dev", "vb")
	deadline := time.After(60 * time.Second)
	for {
		select {
		case s := <-statuses:
			if s.State != StateDown {
				continue
			}
			if !errors.Is(s.Err, ErrNoAddress) {
				t.Fatalf("down for %v, want ErrNoAddress", s.Err)
			}
			if left.Load() <= 0 {
				t.Fatalf("the lost address was noticed only after the flood of %d datagrams ended (stats %+v)", flood, rx.Stats())
			}
			return
		case <-deadline:
			t.Fatalf("the lost address not noticed in 60 s (stats %+v)", rx.Stats())
		}
	}
}
