//go:build cgo

package dds

/*
#include <stdlib.h>
#include "dds/dds.h"
#include "rawcdr.h"
*/
import "C"

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

const (
	ddsInfinity = math.MaxInt64 // DDS_INFINITY
	ringBytes   = C.RAWCDR_RING_BYTES
	recHeader   = uint64(unsafe.Sizeof(C.struct_rawcdr_rec{}))
)

// Available reports whether this build can reach Cyclone DDS (it was built with cgo).
const Available = true

func retcode(op string, rc C.dds_return_t) error {
	return &RetcodeError{Op: op, Code: int(rc), Text: C.GoString(C.dds_strretcode(rc))}
}

// domains holds the Cyclone domains this process created, by domain id. Cyclone has one
// domain instance per id and process; all participants of an id share its configuration.
var domains = struct {
	sync.Mutex
	m map[uint32]*domain
}{m: map[uint32]*domain{}}

type domain struct {
	handle C.dds_entity_t
	config string
	refs   int
}

func acquireDomain(id uint32, config string) error {
	domains.Lock()
	defer domains.Unlock()
	if d, ok := domains.m[id]; ok {
		if d.config != config {
			return fmt.Errorf("%w: domain %d already exists in this process with config %q, not %q", ErrDomainConfig, id, d.config, config)
		}
		d.refs++
		return nil
	}
	cfg := C.CString(config)
	defer C.free(unsafe.Pointer(cfg))
	h := C.dds_create_domain(C.dds_domainid_t(id), cfg)
	if h < 0 {
		// Cyclone says why on stderr just before (e.g. "failed to find interfaces");
		// the usual causes are named here.
		return retcode(fmt.Sprintf("create domain %d with config %q (Cyclone DDS's message above says why; "+
			"usually no usable network interface, lo included, or an interface or peer in "+
			"CYCLONEDDS_URI that this host does not have)", id, config), h)
	}
	domains.m[id] = &domain{handle: h, config: config, refs: 1}
	return nil
}

// processDomainConfig returns the configuration of domain id if this process has it.
func processDomainConfig(id uint32) (string, bool) {
	domains.Lock()
	defer domains.Unlock()
	d, ok := domains.m[id]
	if !ok {
		return "", false
	}
	return d.config, true
}

func releaseDomain(id uint32) {
	domains.Lock()
	defer domains.Unlock()
	d, ok := domains.m[id]
	if !ok {
		return
	}
	if d.refs--; d.refs == 0 {
		C.dds_delete(d.handle)
		delete(domains.m, id)
	}
}

// Participant is a DDS domain participant. Its methods are safe for concurrent use.
type Participant struct {
	handle   C.dds_entity_t
	domainID uint32
	guid     GUID
	ih       InstanceHandle

	mu      sync.Mutex
	closed  bool
	topics  map[string]*topic
	writers map[*Writer]struct{}
	readers map[*Reader]struct{}
	builtin [3]C.dds_entity_t // DCPSParticipant, DCPSPublication, DCPSSubscription readers
	offered offeredWatch      // OnOfferedIncompatibleQoS (offered.go)
}

type topic struct {
	handle   C.dds_entity_t
	typeName string
}

// NewParticipant creates a participant in opts.DomainID, creating the domain with
// opts.Config first if this process has none yet.
func NewParticipant(opts ParticipantOptions) (*Participant, error) {
	if err := ValidateDomainID(int(opts.DomainID)); err != nil {
		return nil, err
	}
	if err := acquireDomain(opts.DomainID, opts.Config); err != nil {
		return nil, err
	}
	qos := C.dds_create_qos()
	defer C.dds_delete_qos(qos)
	if len(opts.UserData) > 0 {
		C.dds_qset_userdata(qos, unsafe.Pointer(&opts.UserData[0]), C.size_t(len(opts.UserData)))
	}
	h := C.dds_create_participant(C.dds_domainid_t(opts.DomainID), qos, nil)
	if h < 0 {
		releaseDomain(opts.DomainID)
		return nil, retcode(fmt.Sprintf("create participant in domain %d", opts.DomainID), h)
	}
	p := &Participant{
		handle:   h,
		domainID: opts.DomainID,
		topics:   map[string]*topic{},
		writers:  map[*Writer]struct{}{},
		readers:  map[*Reader]struct{}{},
	}
	// Write batching for every writer of the process, this domain's included (a
	// process-wide switch of Cyclone's; see Writer.WriteHeld): Write flushes each
	// sample itself, so only WriteHeld's wait.
	C.dds_write_set_batch(true)
	var err error
	if p.guid, p.ih, err = identity(h, "participant"); err != nil {
		C.dds_delete(h)
		releaseDomain(opts.DomainID)
		return nil, err
	}
	return p, nil
}

func identity(h C.dds_entity_t, what string) (GUID, InstanceHandle, error) {
	var g C.dds_guid_t
	if rc := C.dds_get_guid(h, &g); rc < 0 {
		return GUID{}, 0, retcode("get GUID of "+what, rc)
	}
	var ih C.dds_instance_handle_t
	if rc := C.dds_get_instance_handle(h, &ih); rc < 0 {
		return GUID{}, 0, retcode("get instance handle of "+what, rc)
	}
	return GUID(C.GoBytes(unsafe.Pointer(&g.v[0]), GUIDSize)), InstanceHandle(ih), nil
}

// GUID returns the participant's GUID (entity id 000001c1), which ROS uses as its GID.
func (p *Participant) GUID() GUID { return p.guid }

// InstanceHandle returns the participant's local instance handle.
func (p *Participant) InstanceHandle() InstanceHandle { return p.ih }

// DomainID returns the participant's domain id.
func (p *Participant) DomainID() uint32 { return p.domainID }

// Close stops all readers (waiting for their handlers to return), deletes the
// participant with all its entities and releases the domain. It must not be called
// from a reader's handler. Closing twice is a no-op.
func (p *Participant) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	readers := make([]*Reader, 0, len(p.readers))
	for r := range p.readers {
		readers = append(readers, r)
	}
	p.mu.Unlock()
	for _, r := range readers {
		r.Stop()
	}
	for _, r := range readers {
		<-r.done
	}
	p.mu.Lock()
	writers := make([]*Writer, 0, len(p.writers))
	for w := range p.writers {
		w.closed.Store(true)
		writers = append(writers, w)
	}
	p.writers, p.readers, p.topics = nil, nil, nil
	p.mu.Unlock()
	drainAfterClose()
	if testHookParticipantDelete != nil {
		testHookParticipantDelete()
	}
	var err error
	if rc := C.dds_delete(p.handle); rc < 0 {
		err = retcode("delete participant", rc)
	} else {
		// The writers went with the participant: no listener runs any more.
		for _, w := range writers {
			w.release()
		}
		p.offered.stop()
	}
	releaseDomain(p.domainID)
	return err
}

// testHookParticipantDelete, if set (tests), is called by Close right before it
// deletes the participant.
var testHookParticipantDelete func()

// topicLocked returns the participant's topic name, creating it with typeName.
func (p *Participant) topicLocked(name, typeName string) (C.dds_entity_t, error) {
	if t, ok := p.topics[name]; ok {
		if t.typeName != typeName {
			return 0, fmt.Errorf("%w: topic %q already has type %q, not %q", ErrTypeName, name, t.typeName, typeName)
		}
		return t.handle, nil
	}
	if err := ValidateTopicName(name); err != nil {
		return 0, err
	}
	if err := ValidateTypeName(typeName); err != nil {
		return 0, err
	}
	cname, ctype := C.CString(name), C.CString(typeName)
	defer C.free(unsafe.Pointer(cname))
	defer C.free(unsafe.Pointer(ctype))
	h := C.rawcdr_create_topic(p.handle, cname, ctype, nil)
	if h < 0 {
		return 0, retcode(fmt.Sprintf("create topic %q of type %q", name, typeName), h)
	}
	p.topics[name] = &topic{handle: h, typeName: typeName}
	return h, nil
}

// cQoS builds the Cyclone QoS for q (see QoS for the mapping). The caller deletes it.
func cQoS(q *QoS) *C.dds_qos_t {
	c := C.dds_create_qos()
	C.dds_qset_writer_data_lifecycle(c, false)
	hk, depth := C.dds_history_kind_t(C.DDS_HISTORY_KEEP_LAST), C.int32_t(q.depth())
	if q.History == KeepAll {
		hk, depth = C.DDS_HISTORY_KEEP_ALL, C.DDS_LENGTH_UNLIMITED
	}
	C.dds_qset_history(c, hk, depth)
	if q.Reliability == BestEffort {
		C.dds_qset_reliability(c, C.DDS_RELIABILITY_BEST_EFFORT, 0)
	} else {
		C.dds_qset_reliability(c, C.DDS_RELIABILITY_RELIABLE, ddsInfinity)
	}
	if q.Durability == TransientLocal {
		C.dds_qset_durability(c, C.DDS_DURABILITY_TRANSIENT_LOCAL)
		C.dds_qset_durability_service(c, 0, hk, depth, C.DDS_LENGTH_UNLIMITED, C.DDS_LENGTH_UNLIMITED, C.DDS_LENGTH_UNLIMITED)
	} else {
		C.dds_qset_durability(c, C.DDS_DURABILITY_VOLATILE)
	}
	if q.Lifespan > 0 {
		C.dds_qset_lifespan(c, C.dds_duration_t(q.Lifespan))
	}
	if q.Deadline > 0 {
		C.dds_qset_deadline(c, C.dds_duration_t(q.Deadline))
	}
	lease := C.dds_duration_t(ddsInfinity)
	if q.LivelinessLease > 0 {
		lease = C.dds_duration_t(q.LivelinessLease)
	}
	C.dds_qset_liveliness(c, C.DDS_LIVELINESS_AUTOMATIC, lease)
	if q.IgnoreLocal {
		C.dds_qset_ignorelocal(c, C.DDS_IGNORELOCAL_PARTICIPANT)
	}
	if len(q.UserData) > 0 {
		C.dds_qset_userdata(c, unsafe.Pointer(&q.UserData[0]), C.size_t(len(q.UserData)))
	}
	return c
}

// polledEventfd makes a nonblocking eventfd that Go's netpoller watches, for a goroutine
// to wait on with its RawConn while C code signals the descriptor. os.NewFile leaves a
// descriptor out of the netpoller, without an error, where epoll refuses it; a wait
// would then end at once and no signal would ever arrive. Only a descriptor in the
// netpoller takes a read deadline, so that is the check.
func polledEventfd(name string) (*os.File, syscall.RawConn, int32, error) {
	fd, err := unix.Eventfd(0, unix.EFD_NONBLOCK|unix.EFD_CLOEXEC)
	if err != nil {
		return nil, nil, -1, fmt.Errorf("eventfd: %w", err)
	}
	f := os.NewFile(uintptr(fd), name)
	if err := f.SetReadDeadline(time.Time{}); err != nil {
		f.Close()
		return nil, nil, -1, fmt.Errorf("eventfd: %w", err)
	}
	rc, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return nil, nil, -1, err
	}
	return f, rc, int32(fd), nil
}

// forwardSignals sends on ch (without blocking) each time the eventfd behind rc is
// signalled, until the descriptor is closed; then it closes done. It adds the counts it
// reads (the signals made) to signals.
func forwardSignals(rc syscall.RawConn, ch chan<- struct{}, done chan<- struct{}, signals *atomic.Uint64) {
	defer close(done)
	var ew *eventWait
	ew = newEventWait(func() bool {
		signals.Add(binary.NativeEndian.Uint64(ew.counter[:]))
		select {
		case ch <- struct{}{}:
		default: // one is pending: the receiver reads the count now anyway
		}
		return false
	})
	_ = rc.Read(ew.fn) // ends when the descriptor is closed (or a read fails)
}

// matchedEndpoints describes the readers (subscriptions true) matched with the writer
// h, or the writers matched with the reader h. An endpoint that goes away between
// listing and describing is left out.
func matchedEndpoints(h C.dds_entity_t, subscriptions bool) ([]Endpoint, error) {
	hs, err := matchedHandles(h, subscriptions)
	if err != nil {
		return nil, err
	}
	eps := make([]Endpoint, 0, len(hs))
	for _, ih := range hs {
		var ep *C.dds_builtintopic_endpoint_t
		if subscriptions {
			ep = C.dds_get_matched_subscription_data(h, ih)
		} else {
			ep = C.dds_get_matched_publication_data(h, ih)
		}
		if ep != nil {
			eps = append(eps, endpointFromC(ep, InstanceHandle(ih)))
			C.dds_builtintopic_free_endpoint(ep)
		}
	}
	return eps, nil
}

func matchedHandles(h C.dds_entity_t, subscriptions bool) ([]C.dds_instance_handle_t, error) {
	get := func(buf *C.dds_instance_handle_t, n C.size_t) C.dds_return_t {
		if subscriptions {
			return C.dds_get_matched_subscriptions(h, buf, n)
		}
		return C.dds_get_matched_publications(h, buf, n)
	}
	for size := 8; ; size *= 2 {
		buf := (*C.dds_instance_handle_t)(C.malloc(C.size_t(size) * C.size_t(unsafe.Sizeof(C.dds_instance_handle_t(0)))))
		n := get(buf, C.size_t(size))
		if n < 0 {
			C.free(unsafe.Pointer(buf))
			return nil, retcode("get matched endpoints", n)
		}
		if int(n) <= size {
			hs := append([]C.dds_instance_handle_t(nil), unsafe.Slice(buf, int(n))...)
			C.free(unsafe.Pointer(buf))
			return hs, nil
		}
		C.free(unsafe.Pointer(buf))
	}
}

func endpointFromC(ep *C.dds_builtintopic_endpoint_t, ih InstanceHandle) Endpoint {
	return Endpoint{
		GUID:              GUID(C.GoBytes(unsafe.Pointer(&ep.key.v[0]), GUIDSize)),
		ParticipantGUID:   GUID(C.GoBytes(unsafe.Pointer(&ep.participant_key.v[0]), GUIDSize)),
		ParticipantHandle: InstanceHandle(ep.participant_instance_handle),
		Handle:            ih,
		Topic:             C.GoString(ep.topic_name),
		Type:              C.GoString(ep.type_name),
		QoS:               qosFromC(ep.qos),
	}
}

// qosFromC converts discovered QoS; policies that are not set keep their zero value.
func qosFromC(q *C.dds_qos_t) QoS {
	var c C.struct_rawcdr_qos
	C.rawcdr_qos_get(q, &c)
	var out QoS
	if c.reliability == C.DDS_RELIABILITY_BEST_EFFORT {
		out.Reliability = BestEffort
	}
	if c.durability == C.DDS_DURABILITY_TRANSIENT_LOCAL {
		out.Durability = TransientLocal
	}
	switch c.history {
	case C.DDS_HISTORY_KEEP_ALL:
		out.History = KeepAll
	case C.DDS_HISTORY_KEEP_LAST:
		out.Depth = int32(c.depth)
	}
	dur := func(d C.int64_t) time.Duration {
		if d == ddsInfinity {
			return 0
		}
		return time.Duration(d)
	}
	out.Deadline, out.Lifespan, out.LivelinessLease = dur(c.deadline), dur(c.lifespan), dur(c.lease)
	out.IgnoreLocal = c.ignorelocal == C.DDS_IGNORELOCAL_PARTICIPANT
	if c.userdata != nil {
		out.UserData = C.GoBytes(c.userdata, C.int(c.userdata_len))
		C.dds_free(c.userdata)
	}
	return out
}

// builtin kinds index Participant.builtin.
const (
	builtinParticipant = iota
	builtinPublication
	builtinSubscription
)

// builtinReader returns the participant's reader of a built-in topic, creating it.
func (p *Participant) builtinReader(kind int) (C.dds_entity_t, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return 0, fmt.Errorf("%w: participant", ErrClosed)
	}
	if h := p.builtin[kind]; h > 0 {
		return h, nil
	}
	topics := [...]C.dds_entity_t{C.DDS_BUILTIN_TOPIC_DCPSPARTICIPANT, C.DDS_BUILTIN_TOPIC_DCPSPUBLICATION, C.DDS_BUILTIN_TOPIC_DCPSSUBSCRIPTION}
	h := C.dds_create_reader(p.handle, topics[kind], nil, nil)
	if h < 0 {
		return 0, retcode("create built-in topic reader", h)
	}
	p.builtin[kind] = h
	return h, nil
}

const builtinMax = 1024

// readBuiltin calls f for every alive sample of a built-in topic.
func (p *Participant) readBuiltin(kind int, f func(sample unsafe.Pointer, ih InstanceHandle)) error {
	rd, err := p.builtinReader(kind)
	if err != nil {
		return err
	}
	bufs := (*unsafe.Pointer)(C.calloc(builtinMax, C.size_t(unsafe.Sizeof(unsafe.Pointer(nil)))))
	defer C.free(unsafe.Pointer(bufs))
	infos := (*C.dds_sample_info_t)(C.calloc(builtinMax, C.size_t(unsafe.Sizeof(C.dds_sample_info_t{}))))
	defer C.free(unsafe.Pointer(infos))
	n := C.rawcdr_read_builtin(rd, bufs, infos, builtinMax)
	if n < 0 {
		return retcode("read built-in topic", n)
	}
	if n == 0 {
		return nil
	}
	defer C.dds_return_loan(rd, bufs, n)
	bs, is := unsafe.Slice(bufs, int(n)), unsafe.Slice(infos, int(n))
	for i := range bs {
		if is[i].valid_data {
			f(bs[i], InstanceHandle(is[i].instance_handle))
		}
	}
	return nil
}

// DiscoveredParticipants lists the participants in the domain that are alive, this one included.
func (p *Participant) DiscoveredParticipants() ([]ParticipantData, error) {
	var out []ParticipantData
	err := p.readBuiltin(builtinParticipant, func(s unsafe.Pointer, ih InstanceHandle) {
		d := (*C.dds_builtintopic_participant_t)(s)
		q := qosFromC(d.qos)
		out = append(out, ParticipantData{
			GUID:     GUID(C.GoBytes(unsafe.Pointer(&d.key.v[0]), GUIDSize)),
			Handle:   ih,
			UserData: q.UserData,
		})
	})
	return out, err
}

// DiscoveredPublications lists the writers in the domain that are alive, local ones included.
func (p *Participant) DiscoveredPublications() ([]Endpoint, error) {
	return p.discoveredEndpoints(builtinPublication)
}

// DiscoveredSubscriptions lists the readers in the domain that are alive, local ones included.
func (p *Participant) DiscoveredSubscriptions() ([]Endpoint, error) {
	return p.discoveredEndpoints(builtinSubscription)
}

func (p *Participant) discoveredEndpoints(kind int) ([]Endpoint, error) {
	var out []Endpoint
	err := p.readBuiltin(kind, func(s unsafe.Pointer, ih InstanceHandle) {
		out = append(out, endpointFromC((*C.dds_builtintopic_endpoint_t)(s), ih))
	})
	return out, err
}
