package freeport

import (
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// TestUDPDistinct takes ports from eight goroutines at once, each call opening and
// locking the counter file as another process would: every port is handed out once,
// lies above the ephemeral range and can be bound.
func TestUDPDistinct(t *testing.T) {
	dir = t.TempDir()
	first, last := portRange()
	if last-first+1 < minRange {
		t.Skipf("ports %d..%d above the ephemeral range: too few, the kernel chooses", first, last)
	}
	var mu sync.Mutex
	seen := map[uint16]bool{}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 5 {
				ports, err := UDP(4)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				for _, p := range ports {
					if seen[p] {
						t.Errorf("port %d handed out twice", p)
					}
					seen[p] = true
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(seen) != 160 {
		t.Fatalf("%d distinct ports, want 160", len(seen))
	}
	for p := range seen {
		if int(p) < first || int(p) > last {
			t.Fatalf("port %d outside %d..%d", p, first, last)
		}
	}
	for p := range seen {
		c, err := net.ListenUDP("udp4", &net.UDPAddr{Port: int(p)})
		if err != nil {
			t.Fatalf("port %d: %v", p, err)
		}
		c.Close()
	}
}

// TestUDPSkipsBusy holds the next port in turn open: it is skipped, and the counter
// moves past both.
func TestUDPSkipsBusy(t *testing.T) {
	dir = t.TempDir()
	first, last := portRange()
	if last-first+1 < minRange {
		t.Skipf("ports %d..%d above the ephemeral range: too few, the kernel chooses", first, last)
	}
	var busy *net.UDPConn
	var index int
	for i := 100; i < 400 && busy == nil; i++ {
		if c, err := net.ListenUDP("udp4", &net.UDPAddr{Port: first + i}); err == nil {
			busy, index = c, i
		}
	}
	if busy == nil {
		t.Skip("no port to hold open")
	}
	defer busy.Close()
	if err := os.WriteFile(counterPath(), []byte(strconv.Itoa(index)), 0o666); err != nil {
		t.Fatal(err)
	}
	ports, err := UDP(1)
	if err != nil {
		t.Fatal(err)
	}
	if int(ports[0]) == first+index || int(ports[0]) <= first+index {
		t.Fatalf("got port %d, want one after the busy %d", ports[0], first+index)
	}
	b, err := os.ReadFile(counterPath())
	if err != nil {
		t.Fatal(err)
	}
	if next, _ := strconv.Atoi(string(b[:len(b)-1])); next != int(ports[0])-first+1 {
		t.Fatalf("counter %d after port %d", next, ports[0])
	}
}

// TestCounterPerUser: the counter file is the user's own (its name ends in the user's
// id) and only the user may write it.
func TestCounterPerUser(t *testing.T) {
	dir = t.TempDir()
	if _, err := UDP(1); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(counterPath())
	if err != nil {
		t.Fatal(err)
	}
	if want := "-" + strconv.Itoa(os.Getuid()); !strings.HasSuffix(st.Name(), want) {
		t.Errorf("counter file %s, want a name ending in %s", st.Name(), want)
	}
	if st.Mode().Perm()&0o077 != 0 {
		t.Errorf("counter file mode %v, want the user's alone", st.Mode().Perm())
	}
}
