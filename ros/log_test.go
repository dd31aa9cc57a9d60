package ros

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/robocup-dnetwork/dnetwork/clock"
	"github.com/robocup-dnetwork/dnetwork/ros/interfaces/rcl_interfaces"
)

func TestLoggerConsoleFormat(t *testing.T) {
	var out bytes.Buffer
	clock := clock.NewManual(time.Unix(1700000000, 123456789))
	l := NewLogger("robot1.dnetwork", LevelInfo, &out, clock)
	l.Debugf("hidden %d", 1)
	l.Infof("team %d up", 7)
	l.Named("gc").Errorf("no packet for %v", 3*time.Second)
	want := "[INFO] [1700000000.123456789] [robot1.dnetwork]: team 7 up\n" +
		"[ERROR] [1700000000.123456789] [robot1.dnetwork.gc]: no packet for 3s\n"
	if out.String() != want {
		t.Errorf("console:\n%s\nwant:\n%s", out.String(), want)
	}
	l.Named("gc").SetLevel(LevelDebug) // children share the level
	if !l.Enabled(LevelDebug) {
		t.Error("level not shared with the parent")
	}
	var nilLogger *Logger
	nilLogger.Infof("discarded") // must not panic
	if nilLogger.Named("x") != nil || nilLogger.Enabled(LevelFatal) {
		t.Error("nil logger is not a no-op")
	}
}

// TestLoggerConsoleBeforeClock: while simulation time waits for its first /clock, the
// ROS time is 0, and the console says so as rcutils does, as /rosout's stamp does.
func TestLoggerConsoleBeforeClock(t *testing.T) {
	var out bytes.Buffer
	c := &ROSClock{}
	c.setSim(true)
	l := NewLogger("n", LevelInfo, &out, c)
	l.Infof("waiting for /clock")
	if want := "[INFO] [0.000000000] [n]: waiting for /clock\n"; out.String() != want {
		t.Errorf("console: %q, want %q", out.String(), want)
	}
}

func TestLoggerWarnEvery(t *testing.T) {
	var out bytes.Buffer
	l := NewLogger("n", LevelInfo, &out, nil)
	for i := 0; i < 5; i++ {
		l.WarnEvery("bad", time.Hour, "bad packet %d", i)
	}
	l.WarnEvery("other", time.Hour, "other")
	if got := strings.Count(out.String(), "bad packet"); got != 1 {
		t.Fatalf("%d lines for key bad, want 1:\n%s", got, out.String())
	}
	if !strings.Contains(out.String(), "other") {
		t.Fatal("a different key was suppressed")
	}
	out.Reset()
	l.WarnEvery("fast", 0, "a")
	l.WarnEvery("fast", 0, "b")
	if !strings.Contains(out.String(), "]: a\n") || !strings.Contains(out.String(), "]: b\n") {
		t.Errorf("zero interval suppressed lines:\n%s", out.String())
	}
	// The suppressed count is reported with the next line that gets through. The
	// interval runs on the system clock: the first three calls must fall within it,
	// which a loaded machine may not grant at once, so a try whose three calls took
	// longer is repeated under a fresh key.
	const every = 30 * time.Millisecond
	l2 := NewLogger("n", LevelInfo, &out, nil)
	for try := 1; ; try++ {
		key := fmt.Sprint("k", try)
		out.Reset()
		start := time.Now()
		l2.WarnEvery(key, every, "x")
		l2.WarnEvery(key, every, "x")
		l2.WarnEvery(key, every, "x")
		if time.Since(start) >= every {
			if try == 20 {
				t.Fatalf("three calls never fell within %v", every)
			}
			continue
		}
		if got := strings.Count(out.String(), "x\n"); got != 1 {
			t.Fatalf("%d lines within the interval, want 1:\n%s", got, out.String())
		}
		time.Sleep(every + 10*time.Millisecond)
		l2.WarnEvery(key, every, "x")
		if !strings.Contains(out.String(), "x (2 similar suppressed)") {
			t.Errorf("suppressed count missing:\n%s", out.String())
		}
		break
	}
}

func TestLoggerRosout(t *testing.T) {
	var got []*rcl_interfaces.Log
	l := NewLogger("robot1.dnetwork", LevelInfo, nil, clock.NewManual(time.Unix(12, 5)))
	l.setRosout(func(m *rcl_interfaces.Log) { got = append(got, m) })
	l.Warnf("battery %d%%", 20)
	l.Debugf("not published")
	if len(got) != 1 {
		t.Fatalf("%d messages published, want 1", len(got))
	}
	m := got[0]
	if m.Level != uint8(LevelWarn) || m.Msg != "battery 20%" || m.Name != "robot1.dnetwork" ||
		m.Stamp.Sec != 12 || m.Stamp.Nanosec != 5 {
		t.Errorf("log message %+v", m)
	}
	if !strings.HasSuffix(m.File, "log_test.go") || m.Line == 0 || !strings.HasSuffix(m.Function, "TestLoggerRosout") {
		t.Errorf("caller %s:%d %s", m.File, m.Line, m.Function)
	}
}

// TestLoggerLogCallSite: Log names the call site of the program counter it is given
// (as slog records carry one), or with 0 its own caller; Warnf its caller.
func TestLoggerLogCallSite(t *testing.T) {
	var got []*rcl_interfaces.Log
	l := NewLogger("robot1.dnetwork", LevelInfo, nil, clock.NewManual(time.Unix(12, 5)))
	l.setRosout(func(m *rcl_interfaces.Log) { got = append(got, m) })
	pc, wantLine := logSite() // a call site in another function
	l.Log(LevelWarn, pc, "from elsewhere")
	_, _, ownLine, _ := runtime.Caller(0)
	l.Log(LevelError, 0, "from here")
	l.Log(LevelDebug, pc, "below the level")
	if len(got) != 2 {
		t.Fatalf("%d messages published, want 2", len(got))
	}
	if m := got[0]; m.Msg != "from elsewhere" || m.Level != uint8(LevelWarn) || !strings.HasSuffix(m.File, "log_test.go") ||
		int(m.Line) != wantLine || !strings.HasSuffix(m.Function, ".logSite") {
		t.Errorf("with a pc: %s:%d %s %+v, want line %d of logSite", m.File, m.Line, m.Function, m, wantLine)
	}
	if m := got[1]; !strings.HasSuffix(m.File, "log_test.go") || int(m.Line) != ownLine+1 || !strings.HasSuffix(m.Function, "TestLoggerLogCallSite") {
		t.Errorf("with 0: %s:%d %s, want line %d of the test", m.File, m.Line, m.Function, ownLine+1)
	}
}

// logSite returns the program counter of its call of runtime.Callers, as slog records
// it, and that call's line.
func logSite() (uintptr, int) {
	var pcs [1]uintptr
	runtime.Callers(1, pcs[:])
	_, _, line, _ := runtime.Caller(0)
	return pcs[0], line - 1
}

func TestTimeMsg(t *testing.T) {
	tm := time.Unix(1700000000, 999999999)
	m := timeMsg(tm)
	if m.Sec != 1700000000 || m.Nanosec != 999999999 || !timeFromMsg(m).Equal(tm) {
		t.Errorf("timeMsg(%v) = %+v", tm, m)
	}
	if m := timeMsg(time.Time{}); m.Sec != 0 || m.Nanosec != 0 {
		t.Errorf("zero time → %+v", m)
	}
}

// TestTimeMsgOutOfRange: a time before the epoch (a /clock that went below zero)
// keeps its nanoseconds below one second, as rclcpp's conversion does, and one past
// the int32 seconds saturates (builtin_interfaces.NewTime) instead of wrapping.
func TestTimeMsgOutOfRange(t *testing.T) {
	tm := time.Unix(-2, 250_000_000) // -1.75 s
	if m := timeMsg(tm); m.Sec != -2 || m.Nanosec != 250_000_000 || !timeFromMsg(m).Equal(tm) {
		t.Errorf("timeMsg(%v) = %+v, want {Sec:-2 Nanosec:250000000}", tm, m)
	}
	late := time.Unix(1<<31, 0)
	if m := timeMsg(late); m.Sec != 1<<31-1 || m.Nanosec != 999_999_999 {
		t.Errorf("timeMsg(%v) = %+v, want the largest time", late, m)
	}
}
