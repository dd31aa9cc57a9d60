package transport

import (
	"testing"
	"time"
)

// TestIfWatchCloseEndsRun closes a watch while run waits for events, as a worker does
// when it stops: run must end with nil, not report a failure (a worker would log that
// the watch failed and fall back to periodic checks on every shutdown).
func TestIfWatchCloseEndsRun(t *testing.T) {
	w, err := openIfWatch()
	if err != nil {
		t.Skipf("no netlink route socket here: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- w.run(func() {}) }()
	time.Sleep(50 * time.Millisecond) // let run wait in the netpoller
	w.close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run after close: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("run did not end after close")
	}
}
