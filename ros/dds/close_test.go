//go:build cgo

package dds

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/ros/internal/ddstest"
)

// TestCloseWaitsForStoppingReaders closes the participant while readers stopped
// elsewhere (as a service's shutdown stops its request reader) are being deleted by
// their own goroutines. Close must wait for each of them: the participant is deleted
// only once none of its readers is still being deleted, since the two deletions at
// once can hang Cyclone (a node that never exits on SIGTERM). The rounds close at
// varying instants of the readers' ending: before, while and after their goroutines
// delete them.
func TestCloseWaitsForStoppingReaders(t *testing.T) {
	domainClose := takeDomain(t)
	ddstest.Setup(t)
	var rs []*Reader
	var early []int // per round, the readers not yet deleted when the participant was
	testHookParticipantDelete = func() {
		n := 0
		for _, r := range rs {
			select {
			case <-r.Done():
			default:
				n++
			}
		}
		early = append(early, n)
	}
	t.Cleanup(func() { testHookParticipantDelete = nil })
	rounds := 300
	if testing.Short() {
		rounds = 50
	}
	for i := range rounds {
		p, err := NewParticipant(ParticipantOptions{DomainID: domainClose, Config: os.Getenv("CYCLONEDDS_URI")})
		if err != nil {
			t.Fatal(err)
		}
		w, err := p.NewWriter("rt/close", testType, QoS{Depth: 4})
		if err != nil {
			t.Fatal(err)
		}
		rs = make([]*Reader, 8)
		for k := range rs {
			if rs[k], err = p.NewReader("rt/close", testType, QoS{Depth: 4}, func(Sample) {}); err != nil {
				t.Fatal(err)
			}
		}
		for range 4 {
			_ = w.Write(sample(fmt.Sprint(i)))
		}
		for _, r := range rs {
			r.Stop()
		}
		time.Sleep(time.Duration(i%20) * 20 * time.Microsecond)
		done := make(chan error, 1)
		go func() { done <- p.Close() }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("round %d: Close: %v", i, err)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("round %d: Close still waits after 20 s", i)
		}
		if n := early[len(early)-1]; n > 0 {
			t.Fatalf("round %d: the participant was deleted while %d of its readers were still being deleted", i, n)
		}
		for k, r := range rs {
			select {
			case <-r.Done():
			default:
				t.Fatalf("round %d: Close returned while reader %d still ran", i, k)
			}
		}
	}
}
