package record

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/msgs/dmsgs"
	"github.com/robocup-dnetwork/dnetwork/node/bus"
	"github.com/robocup-dnetwork/dnetwork/node/diagnostics"
	dm "github.com/robocup-dnetwork/dnetwork/ros/interfaces/diagnostic_msgs"
	"github.com/robocup-dnetwork/dnetwork/transport"
	"github.com/robocup-dnetwork/dnetwork/transport/capture"
)

// MiB is the unit of the size parameters.
const MiB = 1 << 20

// Sim3dServer is the address the 3D simulator's messages are recorded at: the
// simulator's agent port on this host.
var Sim3dServer = netip.MustParseAddrPort("127.0.0.1:3100")

// sim3dAgent is the robot's side of a recorded 3D simulator message.
var sim3dAgent = netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), 0)

// ErrConfig is wrapped by the errors of Validate.
var ErrConfig = errors.New("record: bad config")

// Config configures the recorder (parameters record.*).
type Config struct {
	// Enabled records the node's traffic (record.enabled). Default false.
	Enabled bool
	// Dir is the directory of the recordings (record.dir); empty: $ROS_HOME/dnetwork,
	// where ROS_HOME defaults to ~/.ros as for every ROS 2 tool ([DefaultDir]).
	Dir string
	// MaxSizeMiB starts a new file when one reaches this size (record.max_size); 0: no
	// limit. Default 100.
	MaxSizeMiB int
	// Rotate is the most files of one run kept, the oldest removed (record.rotate); 0:
	// all. Default 20.
	Rotate int
	// MinFreeMiB stops writing while the file system has less free space
	// (record.min_free). Default 200.
	MinFreeMiB int
	// FlushInterval bounds how long a record stays in memory (record.flush_interval).
	// Default 1 s.
	FlushInterval time.Duration
}

// DefaultConfig returns the defaults: off, 100 MiB files, 20 kept, 200 MiB floor,
// flushed every second.
func DefaultConfig() Config {
	return Config{MaxSizeMiB: 100, Rotate: 20, MinFreeMiB: 200, FlushInterval: time.Second}
}

// Validate reports an unusable configuration.
func (c Config) Validate() error {
	var errs []error
	if c.MaxSizeMiB < 0 || c.Rotate < 0 || c.MinFreeMiB < 0 {
		errs = append(errs, fmt.Errorf("%w: negative max_size, rotate or min_free", ErrConfig))
	}
	if c.FlushInterval <= 0 {
		errs = append(errs, fmt.Errorf("%w: flush_interval must be positive", ErrConfig))
	}
	return errors.Join(errs...)
}

// FileName is the first file of a run of node name started at start:
// <name>_<YYYYmmdd-HHMMSS>.pcapng (UTC).
func FileName(name string, start time.Time) string {
	return name + "_" + start.UTC().Format("20060102-150405") + ".pcapng"
}

// Recorder writes the node's traffic. Its Tap methods may be called from any goroutine.
type Recorder struct {
	cfg   Config
	clk   clock.Clock
	w     *capture.Writer
	sim3d int // interface id of the 3D simulator's messages, -1 until declared
}

// DefaultDir is the directory of the recordings when record.dir is empty: dnetwork/ in
// the ROS home directory, which is $ROS_HOME, or ~/.ros when ROS_HOME is unset, as for
// the logs of every ROS 2 tool. A container image sets ROS_HOME to its data volume.
func DefaultDir() (string, error) {
	if h := os.Getenv("ROS_HOME"); h != "" {
		return filepath.Join(h, "dnetwork"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("record: no record.dir, no ROS_HOME and no home directory: %w", err)
	}
	return filepath.Join(home, ".ros", "dnetwork"), nil
}

// New creates the directory and returns a recorder writing <dir>/FileName(name, now).
func New(cfg Config, clk clock.Clock, name string) (*Recorder, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	dir := cfg.Dir
	if dir == "" {
		var err error
		if dir, err = DefaultDir(); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	w, err := capture.NewWriter(capture.Config{
		Path:          filepath.Join(dir, FileName(name, time.Now())),
		MaxSize:       int64(cfg.MaxSizeMiB) * MiB,
		Rotate:        cfg.Rotate,
		MinFree:       int64(cfg.MinFreeMiB) * MiB,
		FlushInterval: cfg.FlushInterval,
		Application:   "dnetwork " + name,
	})
	if err != nil {
		return nil, err
	}
	return &Recorder{cfg: cfg, clk: clk, w: w, sim3d: -1}, nil
}

// Socket declares a socket and returns the Tap that records its datagrams. desc
// describes it in the file, e.g. "udp port 3838 on wlan0".
func (r *Recorder) Socket(name, desc string) transport.Tap {
	return r.w.Tap(r.w.AddInterface(name, desc), r.clk.Now)
}

// Sim3d declares the 3D simulator's channel; call it before Run when the channel is
// in use.
func (r *Recorder) Sim3d() {
	r.sim3d = r.w.AddInterface("sim3d", fmt.Sprintf("3D simulator say/hear messages as UDP to and from %v", Sim3dServer))
}

// Say records a say message the robot sent.
func (r *Recorder) Say(m *dmsgs.Sim3dSay) {
	r.w.Write(capture.Record{Interface: r.sim3d, Dir: transport.Sent, Time: r.clk.Now(),
		Src: sim3dAgent, Dst: Sim3dServer, Payload: []byte(m.Message)})
}

// Hear records a hear message the robot received.
func (r *Recorder) Hear(m *dmsgs.Sim3dHear) {
	r.w.Write(capture.Record{Interface: r.sim3d, Dir: transport.Received, Time: r.clk.Now(),
		Src: Sim3dServer, Dst: sim3dAgent, Payload: []byte(m.Message)})
}

// SayPublisher returns a publisher that records every say message, then publishes it
// with pub.
func (r *Recorder) SayPublisher(pub bus.Publisher[dmsgs.Sim3dSay]) bus.Publisher[dmsgs.Sim3dSay] {
	return bus.PublisherFunc[dmsgs.Sim3dSay](func(m *dmsgs.Sim3dSay) error {
		r.Say(m)
		return pub.Publish(m)
	})
}

// Run writes until ctx is done, then flushes and closes the file.
func (r *Recorder) Run(ctx context.Context) error { return r.w.Run(ctx) }

// Path returns the name of the run's first file.
func (r *Recorder) Path() string { return r.w.Path() }

// Stats returns the writer's counters.
func (r *Recorder) Stats() capture.Stats { return r.w.Stats() }

// Status is the recorder's line on /diagnostics: OK while everything offered is
// written, a warning naming the cause when records are dropped.
func (r *Recorder) Status(name string) dm.DiagnosticStatus {
	s := r.w.Stats()
	msg := "recording to " + s.File
	if s.File == "" {
		msg = "recording, nothing written yet"
	}
	b := diagnostics.NewStatus(name).Level(diagnostics.OK, msg)
	b.Add("file", s.File).Add("files", s.Files).Add("bytes", s.Bytes).
		Add("offered", s.Offered).Add("written", s.Written).
		Add("dropped_queue_full", s.QueueFull).Add("dropped_no_space", s.NoSpace).
		Add("dropped_write_error", s.Failed).Add("dropped_stopped", s.Stopped)
	if s.LastError != "" {
		b.Add("last_error", s.LastError)
	}
	switch {
	case s.NoSpace > 0 && s.LastError != "":
		b.Level(diagnostics.Warn, fmt.Sprintf("%d records not written: %s", s.Dropped(), s.LastError))
	case s.Dropped() > s.Stopped:
		b.Level(diagnostics.Warn, fmt.Sprintf("%d records not written", s.Dropped()))
	}
	return b.Done()
}
