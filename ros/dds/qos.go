package dds

import (
	"fmt"
	"time"
)

// Reliability is the DDS RELIABILITY kind.
type Reliability uint8

// Reliability kinds. The zero value is Reliable, the ROS default.
const (
	Reliable Reliability = iota
	BestEffort
)

func (r Reliability) String() string {
	switch r {
	case Reliable:
		return "reliable"
	case BestEffort:
		return "best-effort"
	}
	return fmt.Sprintf("Reliability(%d)", uint8(r))
}

// Durability is the DDS DURABILITY kind.
type Durability uint8

// Durability kinds. The zero value is Volatile, the ROS default.
const (
	Volatile Durability = iota
	TransientLocal
)

func (d Durability) String() string {
	switch d {
	case Volatile:
		return "volatile"
	case TransientLocal:
		return "transient-local"
	}
	return fmt.Sprintf("Durability(%d)", uint8(d))
}

// History is the DDS HISTORY kind.
type History uint8

// History kinds. The zero value is KeepLast.
const (
	KeepLast History = iota
	KeepAll
)

func (h History) String() string {
	switch h {
	case KeepLast:
		return "keep-last"
	case KeepAll:
		return "keep-all"
	}
	return fmt.Sprintf("History(%d)", uint8(h))
}

// QoS is the subset of DDS QoS that ROS 2 uses for readers and writers. It maps onto
// Cyclone the way rmw_cyclonedds does:
//
//   - writers never auto-dispose (samples of key-less topics are never disposed);
//   - KEEP_LAST with Depth 0 means depth 1 (ROS's "system default" depth);
//   - RELIABLE blocks without a time limit when the history is full of unacknowledged data;
//   - TRANSIENT_LOCAL also sets the durability service history to the same kind and depth;
//   - a zero Deadline or Lifespan is not set (infinite); a zero LivelinessLease is
//     infinite; liveliness is AUTOMATIC.
type QoS struct {
	Reliability     Reliability
	Durability      Durability
	History         History
	Depth           int32         // KEEP_LAST depth; 0 means 1; ignored for KEEP_ALL
	Deadline        time.Duration // 0: infinite
	Lifespan        time.Duration // 0: infinite
	LivelinessLease time.Duration // 0: infinite
	// IgnoreLocal makes a reader ignore writers of its own participant.
	IgnoreLocal bool
	// UserData is announced in discovery (ROS: "typehash=…;", "serviceid=…;").
	UserData []byte
}

// depth returns the KEEP_LAST depth Cyclone gets.
func (q *QoS) depth() int32 {
	if q.Depth == 0 {
		return 1
	}
	return q.Depth
}

// Validate reports a QoS that cannot be expressed in DDS.
func (q *QoS) Validate() error {
	switch {
	case q.Reliability > BestEffort:
		return fmt.Errorf("%w: unknown reliability %d", ErrQoS, q.Reliability)
	case q.Durability > TransientLocal:
		return fmt.Errorf("%w: unknown durability %d", ErrQoS, q.Durability)
	case q.History > KeepAll:
		return fmt.Errorf("%w: unknown history %d", ErrQoS, q.History)
	case q.History == KeepLast && q.Depth < 0:
		return fmt.Errorf("%w: keep-last depth %d must not be negative", ErrQoS, q.Depth)
	case q.Deadline < 0, q.Lifespan < 0, q.LivelinessLease < 0:
		return fmt.Errorf("%w: negative duration (deadline %v, lifespan %v, lease %v)", ErrQoS, q.Deadline, q.Lifespan, q.LivelinessLease)
	}
	return nil
}

func (q QoS) String() string {
	s := fmt.Sprintf("%s/%s/%s", q.Reliability, q.Durability, q.History)
	if q.History == KeepLast {
		s += fmt.Sprintf(" %d", q.depth())
	}
	if q.Lifespan > 0 {
		s += fmt.Sprintf(" lifespan %v", q.Lifespan)
	}
	if q.Deadline > 0 {
		s += fmt.Sprintf(" deadline %v", q.Deadline)
	}
	return s
}
