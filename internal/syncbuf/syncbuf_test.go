package syncbuf

import (
	"strings"
	"sync"
	"testing"
)

// TestConcurrentWrites writes from several goroutines while reading, and checks that
// every write arrives whole.
func TestConcurrentWrites(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				if n, err := b.Write([]byte("abc\n")); n != 4 || err != nil {
					t.Errorf("Write = %d, %v", n, err)
				}
				_ = b.String()
			}
		})
	}
	wg.Wait()
	s := b.String()
	if strings.Count(s, "abc\n") != 800 || len(s) != 800*4 {
		t.Errorf("got %d bytes, %d whole writes; want 3200, 800", len(s), strings.Count(s, "abc\n"))
	}
}
