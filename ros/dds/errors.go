package dds

import (
	"errors"
	"fmt"
)

// Sentinel errors; the returned errors wrap them with details.
var (
	// ErrDomainID reports a domain id outside 0..MaxDomainID.
	ErrDomainID = errors.New("dds: domain id out of range")
	// ErrTopicName reports a DDS topic name Cyclone would refuse.
	ErrTopicName = errors.New("dds: invalid topic name")
	// ErrTypeName reports an empty or malformed DDS type name.
	ErrTypeName = errors.New("dds: invalid type name")
	// ErrQoS reports a QoS that cannot be expressed in DDS (for example a negative KEEP_LAST depth).
	ErrQoS = errors.New("dds: invalid QoS")
	// ErrSample reports a sample too short to hold the 4-byte encapsulation header.
	ErrSample = errors.New("dds: invalid sample")
	// ErrQueuedWrite reports writes that failed in the send queue after Write had
	// returned; the next Write of the same writer that succeeds reports them (its own
	// sample is written or queued all the same).
	ErrQueuedWrite = errors.New("dds: queued writes failed")
	// ErrClosed reports use of a closed participant, writer or reader.
	ErrClosed = errors.New("dds: closed")
	// ErrDomainConfig reports a domain that exists in this process with another configuration.
	ErrDomainConfig = errors.New("dds: conflicting domain configuration")
	// ErrEnv reports an environment variable with a value that cannot be used.
	ErrEnv = errors.New("dds: invalid environment")
	// ErrUnavailable reports a build without cgo, which cannot reach Cyclone DDS.
	ErrUnavailable = errors.New("dds: Cyclone DDS not available in this build (needs CGO_ENABLED=1, gcc and cyclonedds-dev)")
)

// RetcodeError is a failed Cyclone DDS call: the operation and Cyclone's return code.
type RetcodeError struct {
	Op   string // what was attempted, e.g. `create topic "rt/chatter"`
	Code int    // negative DDS_RETCODE_* value
	Text string // Cyclone's description of Code
}

func (e *RetcodeError) Error() string {
	return fmt.Sprintf("dds: %s: %s (%d)", e.Op, e.Text, e.Code)
}
