package record

import (
	"context"
	"io"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"github.com/robocup-dnetwork/dnetwork/node/diagnostics"
	"github.com/robocup-dnetwork/dnetwork/transport"
	"github.com/robocup-dnetwork/dnetwork/transport/capture"
)

// TestRecorder: socket taps and the 3D simulator's messages end up in one file, stamped
// with the node's clock (a simulated one here), each under its own interface.
func TestRecorder(t *testing.T) {
	dir := t.TempDir()
	sim := time.Date(2026, 1, 1, 0, 0, 42, 0, time.UTC) // simulator time, far from the wall clock
	clk := clock.NewManual(sim)
	cfg := DefaultConfig()
	cfg.Enabled, cfg.Dir, cfg.MinFreeMiB = true, dir, 0
	r, err := New(cfg, clk, "dnetwork_3")
	if err != nil {
		t.Fatal(err)
	}
	tap := r.Socket("gamecontroller", "udp port 3838 on lo")
	r.Sim3d()
	var said []string
	say := r.SayPublisher(bus.PublisherFunc[dmsgs.Sim3dSay](func(m *dmsgs.Sim3dSay) error { said = append(said, m.Message); return nil }))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()

	gc := netip.MustParseAddrPort("127.0.0.1:5000")
	me := netip.MustParseAddrPort("127.0.0.1:3838")
	tap(transport.Received, transport.Datagram{Payload: []byte("RGme"), Src: gc, Dst: me, Time: time.Now()})
	clk.Advance(time.Second)
	tap(transport.Sent, transport.Datagram{Payload: []byte("RGrt"), Src: me, Dst: gc, Time: time.Now()})
	clk.Advance(time.Second)
	if err := say.Publish(&dmsgs.Sim3dSay{Message: "abc"}); err != nil || len(said) != 1 {
		t.Fatalf("say not passed on: %v %v", err, said)
	}
	r.Hear(&dmsgs.Sim3dHear{Message: "xyz"})
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	files, _ := filepath.Glob(filepath.Join(dir, "dnetwork_3_*.pcapng"))
	if len(files) != 1 || r.Path() != files[0] {
		t.Fatalf("files %v, path %s", files, r.Path())
	}
	f, _ := os.Open(files[0])
	defer f.Close()
	rd, err := capture.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		iface, payload string
		dir            transport.Direction
		at             time.Duration
	}
	want := []row{
		{"gamecontroller", "RGme", transport.Received, 0},
		{"gamecontroller", "RGrt", transport.Sent, time.Second},
		{"sim3d", "abc", transport.Sent, 2 * time.Second},
		{"sim3d", "xyz", transport.Received, 2 * time.Second},
	}
	for i, w := range want {
		p, err := rd.Next()
		if err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		got := row{p.Interface, string(p.Payload), p.Dir, p.Time.Sub(sim)}
		if got != w {
			t.Errorf("record %d = %+v, want %+v", i, got, w)
		}
	}
	if _, err := rd.Next(); err != io.EOF {
		t.Fatalf("after the records: %v", err)
	}
	st := r.Status("record")
	if st.Level != diagnostics.OK || !strings.Contains(st.Message, files[0]) {
		t.Fatalf("status %+v", st)
	}
}

// TestStatusWarnsOnLoss: records refused for lack of space turn the status to a warning
// that says why.
func TestStatusWarnsOnLoss(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Enabled, cfg.Dir, cfg.MinFreeMiB = true, t.TempDir(), 1<<30 // a floor no disk has
	r, err := New(cfg, clock.NewManual(time.Unix(0, 0)), "dnetwork_1")
	if err != nil {
		t.Fatal(err)
	}
	tap := r.Socket("team", "")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	tap(transport.Received, transport.Datagram{Payload: []byte("x")})
	cancel()
	<-done
	st := r.Status("record")
	if st.Level != diagnostics.Warn || !strings.Contains(st.Message, "below the floor") {
		t.Fatalf("status %+v, want a warning about the floor", st)
	}
	found := false
	for _, kv := range st.Values {
		found = found || kv.Key == "dropped_no_space" && kv.Value == "1"
	}
	if !found {
		t.Fatalf("status values %+v lack dropped_no_space 1", st.Values)
	}
}

func TestConfigValidate(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatal(err)
	}
	c := DefaultConfig()
	c.FlushInterval, c.Rotate = 0, -1
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "flush_interval") || !strings.Contains(err.Error(), "negative") {
		t.Fatalf("Validate = %v", err)
	}
}

// TestDefaultDir: without record.dir the recordings go to $ROS_HOME/dnetwork, or
// ~/.ros/dnetwork when ROS_HOME is unset, as ROS 2's own logs do.
func TestDefaultDir(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("ROS_HOME", "")
	if got, err := DefaultDir(); err != nil || got != filepath.Join(home, ".ros", "dnetwork") {
		t.Errorf("ROS_HOME unset: DefaultDir() = %q, %v; want %s", got, err, filepath.Join(home, ".ros", "dnetwork"))
	}
	rosHome := filepath.Join(t.TempDir(), "data")
	t.Setenv("ROS_HOME", rosHome)
	want := filepath.Join(rosHome, "dnetwork")
	if got, err := DefaultDir(); err != nil || got != want {
		t.Errorf("ROS_HOME=%s: DefaultDir() = %q, %v; want %s", rosHome, got, err, want)
	}
	cfg := DefaultConfig()
	cfg.Enabled, cfg.MinFreeMiB = true, 0
	r, err := New(cfg, clock.NewManual(time.Unix(0, 0)), "dnetwork_4")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := r.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(r.Path()) != want {
		t.Errorf("recording %s, want it in %s", r.Path(), want)
	}
	if st, err := os.Stat(want); err != nil || !st.IsDir() {
		t.Errorf("recording directory: %v", err)
	}
}
