package ros

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	dclock "github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/builtin_interfaces"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/rcl_interfaces"
	"github.com/robocup-dnetwork/dnetwork/ros/rosargs"
)

// Level is a log severity, numbered as in rcl_interfaces/msg/Log; it is the level
// type of --log-level (package rosargs).
type Level = rosargs.LogLevel

// Log levels.
const (
	LevelDebug = rosargs.LogDebug
	LevelInfo  = rosargs.LogInfo
	LevelWarn  = rosargs.LogWarn
	LevelError = rosargs.LogError
	LevelFatal = rosargs.LogFatal
)

// Logger writes log messages to stderr (or another writer) in rcutils' console
// format and publishes them on /rosout as rcl_interfaces/msg/Log, like an rclcpp
// node's logger. Its methods are safe for concurrent use; a nil *Logger discards.
type Logger struct {
	name  string
	level *atomic.Uint32 // shared with children
	sink  *logSink
}

// logSink is what all loggers of a node share.
type logSink struct {
	mu     sync.Mutex
	out    io.Writer
	clock  Clock
	rosout func(*rcl_interfaces.Log) // nil until /rosout is up
	every  map[string]*throttle
	// levels are the loggers --log-level gives a level of their own (fixed at creation):
	// a child logger named there, or below one named there, does not share its parent's.
	levels []rosargs.LoggerLevel
}

type throttle struct {
	last       time.Time
	suppressed int
}

// NewLogger returns a logger named name (ROS style: "robot1.dnetwork") that writes
// messages at or above level to out, time-stamped by clock. It publishes nothing on
// /rosout; a node's logger (Node.Logger) does.
func NewLogger(name string, level Level, out io.Writer, clock Clock) *Logger {
	return newLogger(name, level, out, clock, nil)
}

// newLogger is NewLogger with the --log-level LOGGER:=LEVEL settings, which give the
// child loggers they name (Named) a level of their own.
func newLogger(name string, level Level, out io.Writer, clock Clock, levels []rosargs.LoggerLevel) *Logger {
	if clock == nil {
		clock = dclock.Wall
	}
	l := &Logger{name: name, level: new(atomic.Uint32), sink: &logSink{out: out, clock: clock, every: map[string]*throttle{}, levels: levels}}
	l.level.Store(uint32(level))
	return l
}

// Name returns the logger's name.
func (l *Logger) Name() string { return l.name }

// Named returns a child logger "<name>.<child>" sharing output and level, unless
// --log-level names the child (or a logger between the two, "<name>.a" for
// Named("a.b")): then, as in rcutils, the child has that level, its own.
func (l *Logger) Named(child string) *Logger {
	if l == nil {
		return nil
	}
	name := l.name + "." + child
	level := l.level
	if own, ok := l.sink.ownLevel(l.name, name); ok {
		level = new(atomic.Uint32)
		level.Store(uint32(own))
	}
	return &Logger{name: name, level: level, sink: l.sink}
}

// ownLevel returns the level --log-level gives the logger name or its closest ancestor
// below parent, if any.
func (s *logSink) ownLevel(parent, name string) (Level, bool) {
	for n := name; len(n) > len(parent); {
		for _, ll := range s.levels {
			if ll.Logger == n && ll.Level != rosargs.LogUnset {
				return ll.Level, true
			}
		}
		i := strings.LastIndexByte(n, '.')
		if i < 0 {
			break
		}
		n = n[:i]
	}
	return 0, false
}

// SetLevel changes the minimum level of the logger and all loggers sharing it.
func (l *Logger) SetLevel(level Level) { l.level.Store(uint32(level)) }

// Level returns the minimum level that is logged.
func (l *Logger) Level() Level { return Level(l.level.Load()) }

// Enabled reports whether messages of level are logged.
func (l *Logger) Enabled(level Level) bool { return l != nil && uint32(level) >= l.level.Load() }

// Debugf logs at LevelDebug.
func (l *Logger) Debugf(format string, args ...any) { l.log(LevelDebug, 2, format, args...) }

// Infof logs at LevelInfo.
func (l *Logger) Infof(format string, args ...any) { l.log(LevelInfo, 2, format, args...) }

// Warnf logs at LevelWarn.
func (l *Logger) Warnf(format string, args ...any) { l.log(LevelWarn, 2, format, args...) }

// Errorf logs at LevelError.
func (l *Logger) Errorf(format string, args ...any) { l.log(LevelError, 2, format, args...) }

// Fatalf logs at LevelFatal; it does not exit.
func (l *Logger) Fatalf(format string, args ...any) { l.log(LevelFatal, 2, format, args...) }

// WarnEvery logs a warning at most once per interval for each key, so a flood of
// bad packets produces one line per interval. The next line that gets through says
// how many were suppressed in between.
func (l *Logger) WarnEvery(key string, interval time.Duration, format string, args ...any) {
	if !l.Enabled(LevelWarn) {
		return
	}
	now := time.Now()
	k := l.name + "\x00" + key
	l.sink.mu.Lock()
	th := l.sink.every[k]
	if th == nil {
		th = &throttle{}
		l.sink.every[k] = th
	} else if now.Sub(th.last) < interval {
		th.suppressed++
		l.sink.mu.Unlock()
		return
	}
	suppressed := th.suppressed
	th.last, th.suppressed = now, 0
	l.sink.mu.Unlock()
	if suppressed > 0 {
		format += fmt.Sprintf(" (%d similar suppressed)", suppressed)
	}
	l.log(LevelWarn, 2, format, args...)
}

func (l *Logger) log(level Level, skip int, format string, args ...any) {
	if !l.Enabled(level) {
		return
	}
	l.write(level, skip+1, 0, fmt.Sprintf(format, args...))
}

// Log logs msg at level, with the call site of pc in its /rosout message: a program
// counter as runtime.Callers returns it and slog.Record carries (0: Log's caller).
// Adapters from other logging APIs use it, so that /rosout (rqt_console) names the
// line that logged, not the adapter.
func (l *Logger) Log(level Level, pc uintptr, msg string) {
	if !l.Enabled(level) {
		return
	}
	l.write(level, 2, pc, msg)
}

// write logs msg; its call site is pc or, when pc is 0, the frame skip levels up (as
// runtime.Caller counts from write).
func (l *Logger) write(level Level, skip int, pc uintptr, msg string) {
	s := l.sink
	now := s.clock.Now()
	sec, nsec := now.Unix(), now.Nanosecond()
	if now.IsZero() { // simulation time before its first /clock: time 0, as rcutils prints it
		sec = 0
	}
	s.mu.Lock()
	if s.out != nil {
		fmt.Fprintf(s.out, "[%s] [%d.%09d] [%s]: %s\n", level, sec, nsec, l.name, msg)
	}
	publish := s.rosout
	s.mu.Unlock()
	if publish == nil {
		return
	}
	m := &rcl_interfaces.Log{Stamp: timeMsg(now), Level: uint8(level), Name: l.name, Msg: msg}
	if pc == 0 {
		var pcs [1]uintptr
		if runtime.Callers(skip+1, pcs[:]) == 1 {
			pc = pcs[0]
		}
	}
	if pc != 0 {
		f, _ := runtime.CallersFrames([]uintptr{pc}).Next()
		m.File, m.Line, m.Function = f.File, uint32(f.Line), f.Function
	}
	publish(m)
}

// setRosout makes the logger publish every logged message with publish.
func (l *Logger) setRosout(publish func(*rcl_interfaces.Log)) {
	l.sink.mu.Lock()
	l.sink.rosout = publish
	l.sink.mu.Unlock()
}

// timeMsg converts t to builtin_interfaces/Time (seconds since the Unix epoch, the
// nanoseconds below one second also before the epoch; saturated beyond int32 seconds);
// the zero time.Time (simulation time before the first /clock) is time 0.
func timeMsg(t time.Time) builtin_interfaces.Time { return builtin_interfaces.NewTime(t) }

// timeFromMsg converts builtin_interfaces/Time to time.Time.
func timeFromMsg(m builtin_interfaces.Time) time.Time {
	return time.Unix(int64(m.Sec), int64(m.Nanosec))
}
