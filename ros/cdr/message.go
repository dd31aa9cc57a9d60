package cdr

// Message is implemented by every generated ROS message type (by its pointer).
type Message interface {
	// TypeName is the ROS name, e.g. "std_msgs/msg/String".
	TypeName() string
	// DDSTypeName is the name announced in DDS discovery, e.g. "std_msgs::msg::dds_::String_".
	DDSTypeName() string
	// TypeHash is the REP-2011 hash, "RIHS01_" followed by 64 lower-case hex digits.
	TypeHash() string
	// MarshalCDR appends the message body to e.
	MarshalCDR(e *Encoder)
	// UnmarshalCDR overwrites every field of the message from d and returns d.Err().
	UnmarshalCDR(d *Decoder) error
}

// PtrMessage constrains a type parameter to *T where *T is a generated message, so
// generic code can allocate values: func f[T any, P PtrMessage[T]]() { var v T; P(&v) }.
type PtrMessage[T any] interface {
	*T
	Message
}

// Service describes a generated ROS service type. Its request and response are the
// generated <Srv>_Request and <Srv>_Response message types.
type Service struct {
	// Name is the ROS name, e.g. "rcl_interfaces/srv/GetParameters".
	Name string
	// RequestTypeName and ResponseTypeName are the ROS names of the two messages,
	// e.g. "rcl_interfaces/srv/GetParameters_Request".
	RequestTypeName, ResponseTypeName string
	// RequestDDSTypeName and ResponseDDSTypeName are the DDS type names of the two
	// messages, e.g. "rcl_interfaces::srv::dds_::GetParameters_Request_".
	RequestDDSTypeName, ResponseDDSTypeName string
	// RequestTypeHash and ResponseTypeHash are the REP-2011 hashes of the two
	// messages. Jazzy's rmw_cyclonedds announces the request hash (typehash=) on the
	// request reader and writer and the response hash on the reply reader and writer.
	RequestTypeHash, ResponseTypeHash string
	// TypeHash is the REP-2011 hash of the service as a whole (request, response and
	// event message), as the type description service reports it.
	TypeHash string
}

// Marshal returns m as a complete sample: the CDR_LE encapsulation header, the body,
// and zero padding to a multiple of 4 bytes. It does not report bound violations;
// use [Append] where a bounded field might be too long.
func Marshal(m Message) []byte {
	b, _ := Append(make([]byte, 0, 128), m)
	return b
}

// Append appends m to dst as a complete sample, like Marshal, and returns the
// extended slice. The error is non-nil (wrapping ErrBound) if a bounded string or
// sequence is longer than its bound; the sample is complete even then.
func Append(dst []byte, m Message) ([]byte, error) {
	var e Encoder
	e.Reset(dst)
	m.MarshalCDR(&e)
	return e.Finish(), e.err
}

// Unmarshal decodes a complete sample (header and body) into m, overwriting every
// field. Trailing bytes after the body are ignored.
func Unmarshal(b []byte, m Message) error {
	var d Decoder
	if err := d.Reset(b); err != nil {
		return err
	}
	return m.UnmarshalCDR(&d)
}
