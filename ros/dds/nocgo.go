//go:build !cgo

package dds

import "time"

// This file keeps the package's API when cgo is off (CGO_ENABLED=0), so the rest of
// dnetwork still builds; every constructor then reports ErrUnavailable.

// Available reports whether this build can reach Cyclone DDS (it was built with cgo).
const Available = false

// Participant is a DDS domain participant; without cgo none can be created.
type Participant struct{}

// NewParticipant reports ErrUnavailable: this build has no cgo.
func NewParticipant(opts ParticipantOptions) (*Participant, error) {
	if err := ValidateDomainID(int(opts.DomainID)); err != nil {
		return nil, err
	}
	return nil, ErrUnavailable
}

func processDomainConfig(id uint32) (string, bool) { return "", false }

func (p *Participant) GUID() GUID                     { return GUID{} }
func (p *Participant) InstanceHandle() InstanceHandle { return 0 }
func (p *Participant) DomainID() uint32               { return 0 }
func (p *Participant) Close() error                   { return nil }
func (p *Participant) NewWriter(topic, typeName string, qos QoS) (*Writer, error) {
	return nil, ErrUnavailable
}
func (p *Participant) NewReader(topic, typeName string, qos QoS, handler func(Sample)) (*Reader, error) {
	return nil, ErrUnavailable
}
func (p *Participant) NewReaderLent(topic, typeName string, qos QoS, handler func(Sample)) (*Reader, error) {
	return nil, ErrUnavailable
}
func (p *Participant) DiscoveredParticipants() ([]ParticipantData, error) {
	return nil, ErrUnavailable
}
func (p *Participant) DiscoveredPublications() ([]Endpoint, error)  { return nil, ErrUnavailable }
func (p *Participant) DiscoveredSubscriptions() ([]Endpoint, error) { return nil, ErrUnavailable }

// Writer writes serialised samples to one topic; without cgo none can be created.
type Writer struct{}

func (w *Writer) Topic() string                             { return "" }
func (w *Writer) GUID() GUID                                { return GUID{} }
func (w *Writer) InstanceHandle() InstanceHandle            { return 0 }
func (w *Writer) Write(sample []byte) error                 { return ErrUnavailable }
func (w *Writer) WriteHeld(sample []byte) error             { return ErrUnavailable }
func (w *Writer) Flush()                                    {}
func (w *Writer) FlushWithin(d time.Duration)               {}
func (w *Writer) MatchedSubscriptions() ([]Endpoint, error) { return nil, ErrUnavailable }
func (w *Writer) MatchedCount() (int, bool)                 { return 0, false }
func (w *Writer) Unread() bool                              { return false }
func (w *Writer) MatchChanges() (<-chan struct{}, error)    { return nil, ErrUnavailable }
func (w *Writer) Close() error                              { return nil }
func (w *Writer) IncompatibleQoS() (uint32, string, error)  { return 0, "", ErrUnavailable }
func (w *Writer) TypeName() string                          { return "" }
func (w *Writer) QoS() QoS                                  { return QoS{} }

func (p *Participant) OnOfferedIncompatibleQoS(fn func(w *Writer, total uint32, policy string)) error {
	return ErrUnavailable
}

// Reader receives samples of one topic; without cgo none can be created.
type Reader struct{}

func (r *Reader) Topic() string                                         { return "" }
func (r *Reader) GUID() GUID                                            { return GUID{} }
func (r *Reader) InstanceHandle() InstanceHandle                        { return 0 }
func (r *Reader) Received() uint64                                      { return 0 }
func (r *Reader) Err() error                                            { return ErrUnavailable }
func (r *Reader) Done() <-chan struct{}                                 { return closedChan }
func (r *Reader) Stop()                                                 {}
func (r *Reader) Close() error                                          { return nil }
func (r *Reader) IncompatibleQoS() (uint32, string, error)              { return 0, "", ErrUnavailable }
func (r *Reader) OnIncompatibleQoS(func(total uint32, policy string))   {}
func (r *Reader) MatchedCount() (int, bool)                             { return 0, false }
func (r *Reader) MatchedPublications() ([]Endpoint, error)              { return nil, ErrUnavailable }
func (r *Reader) MatchedPublication(ih InstanceHandle) (Endpoint, bool) { return Endpoint{}, false }
func (r *Reader) Defer(rule WakeRule) error                             { return ErrUnavailable }
func (r *Reader) Eager() error                                          { return nil }
func (r *Reader) Sync() error                                           { return nil }
func (r *Reader) WakeNext()                                             {}

// EvalWake needs the C evaluator; without cgo it reports ErrUnavailable.
func EvalWake(rule WakeRule, sample []byte) ([]byte, bool, error) { return nil, false, ErrUnavailable }

var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()
