package dds

import "time"

// ParticipantOptions configure NewParticipant.
type ParticipantOptions struct {
	DomainID uint32
	// Config is handed to dds_create_domain when this process creates the domain
	// (Env.Config() mirrors rmw_cyclonedds). All participants of a domain in one
	// process must use the same Config.
	Config string
	// UserData is the participant's USER_DATA (ROS: "enclave=/;").
	UserData []byte
}

// Sample is one received sample.
type Sample struct {
	// Data is the 4-byte encapsulation header and the CDR body, possibly followed by
	// up to 3 bytes of padding. It belongs to the receiver.
	Data []byte
	// Publication is the local instance handle of the writer that sent the sample.
	Publication InstanceHandle
	// SourceTime is the writer's time stamp.
	SourceTime time.Time
	// Arrival is when Cyclone's listener took the sample from the reader (time.Now's
	// clock, monotonic reading included): the handler of a deferred reader may run
	// long after it.
	Arrival time.Time
}

// Endpoint describes a reader or writer as discovery announces it.
type Endpoint struct {
	GUID              GUID
	ParticipantGUID   GUID
	ParticipantHandle InstanceHandle
	Handle            InstanceHandle // local instance handle of the endpoint
	Topic             string
	Type              string
	QoS               QoS
}

// ParticipantData describes a participant as discovery announces it.
type ParticipantData struct {
	GUID     GUID
	Handle   InstanceHandle
	UserData []byte
}
