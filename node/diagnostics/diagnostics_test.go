package diagnostics

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	dm "github.com/robocup-dnetwork/dnetwork/ros/interfaces/diagnostic_msgs"
	"github.com/robocup-dnetwork/dnetwork/transport"
)

func value(s dm.DiagnosticStatus, key string) (string, bool) {
	for _, kv := range s.Values {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return "", false
}

func TestStatusWorstWins(t *testing.T) {
	s := NewStatus("x").Level(Warn, "slow").Level(OK, "fine").Level(Error, "down").Level(Warn, "again").
		Add("n", 3).Add("f", 1.5).Add("b", true).Add("d", 1500*time.Microsecond).Done()
	if s.Level != Error || s.Message != "down" {
		t.Fatalf("level %d %q", s.Level, s.Message)
	}
	for k, want := range map[string]string{"n": "3", "f": "1.500", "b": "true", "d": "2ms"} {
		if v, _ := value(s, k); v != want {
			t.Errorf("%s = %q want %q", k, v, want)
		}
	}
}

func TestSocketStatus(t *testing.T) {
	st := transport.Stats{Received: 100, Delivered: 80, Malformed: 15, Filtered: 5, Sent: 10, KernelDrops: 2, OtherGroups: 7}
	s := Socket("team socket", st, transport.Choice{}, true, nil)
	if s.Level != Warn || s.Message != "15 of 100 datagrams dropped" {
		t.Fatalf("level %d %q", s.Level, s.Message)
	}
	if v, _ := value(s, "interface"); v != "any" {
		t.Fatalf("interface %q", v)
	}
	for key, want := range map[string]string{"dropped_malformed": "15", "dropped_kernel": "2", "dropped_other_groups": "7"} {
		if v, _ := value(s, key); v != want {
			t.Fatalf("%s %q, want %s", key, v, want)
		}
	}
	s = Socket("gc socket", transport.Stats{}, transport.Choice{}, false, errors.New("no such device"))
	if s.Level != Error || s.Message != "socket down: no such device" {
		t.Fatalf("down: %d %q", s.Level, s.Message)
	}
}

func TestComponentPublishesEveryPeriod(t *testing.T) {
	clk := clock.NewManual(time.Unix(1000, 0))
	var rec bus.Recorder[dm.DiagnosticArray]
	var mu sync.Mutex
	calls := 0
	src := func(now time.Time) []dm.DiagnosticStatus {
		mu.Lock()
		calls++
		mu.Unlock()
		return []dm.DiagnosticStatus{NewStatus("GameController").Level(Warn, "not connected").Done()}
	}
	c, err := New(Config{Period: time.Second, Prefix: "dnetwork_2", HardwareID: "robot2"}, clk, &rec, nil, src)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	for i := 1; i <= 3; i++ {
		// The ticker is created inside Run; keep advancing until each array arrives.
		deadline := time.Now().Add(5 * time.Second)
		for rec.Len() < i && time.Now().Before(deadline) {
			clk.Advance(time.Second)
			rec.WaitLen(i, 20*time.Millisecond)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	msgs := rec.Messages()
	if len(msgs) < 3 {
		t.Fatalf("%d arrays", len(msgs))
	}
	a := msgs[0]
	if len(a.Status) != 1 || a.Status[0].Name != "dnetwork_2: GameController" || a.Status[0].HardwareID != "robot2" || a.Status[0].Level != Warn {
		t.Fatalf("array %+v", a)
	}
	if a.Header.Stamp.Sec <= 1000 {
		t.Fatalf("stamp %+v", a.Header.Stamp)
	}
	if _, err := New(Config{}, clk, &rec, nil); err == nil {
		t.Fatal("zero period accepted")
	}
}

// audience is a Recorder whose Listened answer the test sets.
type audience struct {
	bus.Recorder[dm.DiagnosticArray]
	mu       sync.Mutex
	listened bool
}

func (a *audience) Listened() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.listened
}

func (a *audience) set(v bool) {
	a.mu.Lock()
	a.listened = v
	a.mu.Unlock()
}

// TestComponentSkipsWithoutAudience checks that no array is collected or published
// while the publisher has nobody listening, and that publishing resumes once somebody
// does. In a synctest bubble: synctest.Wait returns once Run waits for its next tick.
func TestComponentSkipsWithoutAudience(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := clock.NewManual(time.Unix(1000, 0))
		pub := &audience{}
		var calls atomic.Int32
		src := func(now time.Time) []dm.DiagnosticStatus {
			calls.Add(1)
			return []dm.DiagnosticStatus{NewStatus("team").Done()}
		}
		c, err := New(Config{Period: time.Second, Prefix: "dnetwork_2"}, clk, pub, nil, src)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- c.Run(ctx) }()
		defer func() { // on a failure too: the bubble ends only with Run
			cancel()
			if err := <-done; err != nil {
				t.Error(err)
			}
		}()
		// Ten periods with nobody listening, each tick taken by Run.
		for range 10 {
			synctest.Wait()
			if clk.Tickers() != 1 {
				t.Fatalf("%d tickers, want Run's", clk.Tickers())
			}
			clk.Advance(time.Second)
		}
		synctest.Wait()
		if n := calls.Load(); n != 0 || pub.Len() != 0 {
			t.Fatalf("nobody listening: %d collections, %d arrays published", n, pub.Len())
		}
		pub.set(true)
		clk.Advance(time.Second)
		synctest.Wait()
		if pub.Len() != 1 || calls.Load() != 1 {
			t.Fatalf("listening, one tick: %d collections, %d arrays published; want 1", calls.Load(), pub.Len())
		}
	})
}

// watched is an audience that signals each change, as ros.Publisher does.
type watched struct {
	audience
	changes chan struct{}
}

func (w *watched) AudienceChanges() <-chan struct{} { return w.changes }

// waitTickers waits until clk has n tickers.
func waitTickers(t *testing.T, clk *clock.Manual, n int, what string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for clk.Tickers() != n {
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d tickers after 5 s, want %d", what, clk.Tickers(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestComponentIdlesWithoutAudience: with a publisher that signals its audience, the
// first tick that finds nobody listening stops the ticker (an audience that appears
// without a signal gets nothing), and the signal of a subscriber starts it again.
func TestComponentIdlesWithoutAudience(t *testing.T) {
	clk := clock.NewManual(time.Unix(1000, 0))
	pub := &watched{changes: make(chan struct{}, 1)}
	c, err := New(Config{Period: time.Second, Prefix: "dnetwork_2"}, clk, pub, nil,
		func(time.Time) []dm.DiagnosticStatus { return []dm.DiagnosticStatus{NewStatus("team").Done()} })
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	waitTickers(t, clk, 1, "started")
	clk.Advance(time.Second)
	waitTickers(t, clk, 0, "nobody listening")
	pub.set(true) // no signal: the component does not know
	for range 3 {
		clk.Advance(time.Second)
	}
	if n := pub.Len(); n != 0 || clk.Tickers() != 0 {
		t.Fatalf("without a signal: %d arrays, %d tickers; want 0, 0", n, clk.Tickers())
	}
	pub.changes <- struct{}{}
	waitTickers(t, clk, 1, "signalled")
	clk.Advance(time.Second)
	if !pub.WaitLen(1, 5*time.Second) {
		t.Fatal("no array after the signal and a period")
	}
}

// TestComponentGoesOnAfterFailedPublish: a publication that fails goes to failed, and
// the next period publishes again; Run returns nil when cancelled. Before, the first
// failure ended Run and with it the node.
func TestComponentGoesOnAfterFailedPublish(t *testing.T) {
	clk := clock.NewManual(time.Unix(1000, 0))
	refused := errors.New("refused")
	tries := make(chan int, 8)
	n := 0
	pub := bus.PublisherFunc[dm.DiagnosticArray](func(*dm.DiagnosticArray) error {
		n++ // Run's goroutine only
		tries <- n
		if n%2 == 1 {
			return refused
		}
		return nil
	})
	failures := make(chan error, 8)
	c, err := New(Config{Period: time.Second}, clk, pub, func(err error) { failures <- err })
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	waitTickers(t, clk, 1, "started")
	for want := 1; want <= 4; want++ {
		clk.Advance(time.Second)
		select {
		case got := <-tries:
			if got != want {
				t.Fatalf("publication %d, want %d", got, want)
			}
		case err := <-done:
			t.Fatalf("Run returned %v after %d publications", err, want-1)
		case <-time.After(5 * time.Second):
			t.Fatalf("no publication %d within 5 s", want)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run: %v, want nil", err)
	}
	close(failures)
	var got []error
	for err := range failures {
		got = append(got, err)
	}
	if len(got) != 2 || !errors.Is(got[0], refused) || !errors.Is(got[1], refused) {
		t.Fatalf("failed got %v, want the two refusals", got)
	}
}
