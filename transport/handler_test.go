package transport

import (
	"fmt"
	"testing"
	"time"
)

// TestHandler: a handler takes the accepted datagrams on the worker's goroutine, the
// socket unread while it runs, those read together flagged as followed by more; they
// are counted as delivered (also when the handler reports one malformed) and never
// queued. SetHandler(nil) waits for a call in progress, and then the queue takes over.
func TestHandler(t *testing.T) {
	// Small datagrams: one read takes up to 32 (maxBatch) of them.
	rx := start(t, Config{Name: "rx", Interface: "lo", MaxDatagram: 512,
		Filter: func(d Datagram) bool { return string(d.Payload) != "junk" }})
	tx := start(t, Config{Name: "tx", Interface: "lo"})

	type call struct {
		payload string
		more    bool
	}
	calls := make(chan call, 16)
	entered, release := make(chan struct{}), make(chan struct{}) // one of each per "hold"
	rx.SetHandler(func(d Datagram, more bool) {
		calls <- call{string(d.Payload), more} // d is the read buffer: copied here
		switch string(d.Payload) {
		case "hold":
			entered <- struct{}{}
			<-release
		case "bad":
			rx.ReportMalformed()
		}
	})
	send := func(p string) {
		t.Helper()
		if err := tx.SendTo([]byte(p), rx.LocalAddr()); err != nil {
			t.Fatal(err)
		}
	}
	send("hold")
	<-entered
	// While the handler runs, the socket is not read: these wait in the kernel and
	// come in one read afterwards.
	for i := range 4 {
		send(fmt.Sprint("p", i))
	}
	send("junk")
	send("bad")
	send("junk") // dropped after the last accepted one: that one is still told it is last
	time.Sleep(50 * time.Millisecond)
	if s := rx.Stats(); s.Received != 1 || len(rx.Datagrams()) != 0 {
		t.Fatalf("while the handler ran: %+v, %d queued; want 1 received, none queued", s, len(rx.Datagrams()))
	}
	release <- struct{}{}
	want := []call{{"hold", false}, {"p0", true}, {"p1", true}, {"p2", true}, {"p3", true}, {"bad", false}}
	for i, w := range want {
		select {
		case got := <-calls:
			if got != w {
				t.Fatalf("call %d: %+v, want %+v", i, got, w)
			}
		case <-time.After(waitLimit):
			t.Fatalf("call %d (%+v) did not come; stats %+v", i, w, rx.Stats())
		}
	}
	eventually(t, "all counted", func() bool { return rx.Stats().Received == 8 })
	if s := rx.Stats(); s.Delivered != 5 || s.Malformed != 1 || s.Filtered != 2 || s.Received != s.Delivered+s.Dropped() || len(rx.Datagrams()) != 0 {
		t.Fatalf("stats %+v, %d queued; want 5 delivered, 1 malformed, 2 filtered, none queued", s, len(rx.Datagrams()))
	}

	// SetHandler(nil) returns only once the call in progress has.
	send("hold")
	<-entered
	cleared := make(chan struct{})
	go func() {
		rx.SetHandler(nil)
		close(cleared)
	}()
	select {
	case <-cleared:
		t.Fatal("SetHandler(nil) returned while the handler ran")
	case <-time.After(50 * time.Millisecond):
	}
	release <- struct{}{}
	<-cleared
	<-calls
	send("queued")
	if d := recv(t, rx); string(d.Payload) != "queued" {
		t.Fatalf("after SetHandler(nil): %q queued, want \"queued\"", d.Payload)
	}
	select {
	case c := <-calls:
		t.Fatalf("handler called after SetHandler(nil): %+v", c)
	default:
	}
}
