package builtin_interfaces

import "time"

// NewTime returns t as a ROS Time: seconds since the Unix epoch and a nanosecond
// part in [0, 1e9). Times outside the int32 seconds range are clamped to it. The zero
// time.Time, which a ROS clock on simulation time reads until the first /clock, is
// time 0, as rclcpp stamps it.
func NewTime(t time.Time) Time {
	if t.IsZero() {
		return Time{}
	}
	sec, nsec := t.Unix(), t.Nanosecond()
	switch {
	case sec > maxSec:
		return Time{Sec: maxSec, Nanosec: 999_999_999}
	case sec < minSec:
		return Time{Sec: minSec}
	}
	return Time{Sec: int32(sec), Nanosec: uint32(nsec)}
}

// Time returns t as a time.Time in UTC.
func (t Time) Time() time.Time {
	return time.Unix(int64(t.Sec), int64(t.Nanosec)).UTC()
}

// Sub returns t - u.
func (t Time) Sub(u Time) time.Duration {
	return time.Duration(int64(t.Sec)-int64(u.Sec))*time.Second + time.Duration(int64(t.Nanosec)-int64(u.Nanosec))
}

const (
	maxSec = 1<<31 - 1
	minSec = -1 << 31
)

// NewDuration returns d as a ROS Duration, whose nanosecond part is never negative:
// -1.5 s is {Sec: -2, Nanosec: 500000000}. Durations outside the int32 seconds range
// (68 years) are clamped to it, as NewTime's times are.
func NewDuration(d time.Duration) Duration {
	sec, nsec := int64(d/time.Second), int64(d%time.Second)
	if nsec < 0 {
		sec--
		nsec += int64(time.Second)
	}
	switch {
	case sec > maxSec:
		return Duration{Sec: maxSec, Nanosec: 999_999_999}
	case sec < minSec:
		return Duration{Sec: minSec}
	}
	return Duration{Sec: int32(sec), Nanosec: uint32(nsec)}
}

// Duration returns d as a time.Duration.
func (d Duration) Duration() time.Duration {
	return time.Duration(d.Sec)*time.Second + time.Duration(d.Nanosec)
}
