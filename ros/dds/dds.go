//go:build cgo

package dds

/*
#include <stdlib.h>
#include "dds/dds.h"
#include "rawcdr.h"
*/
import "C"

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/robocup-dnetwork/dnetwork/ros/dds/internal/directcall"
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

// Writer writes serialised samples to one topic.
type Writer struct {
	p        *Participant
	handle   C.dds_entity_t
	topic    string
	typeName string
	guid     GUID
	ih       InstanceHandle
	closed   atomic.Bool
	// status holds the count of matched readers the writer's listener stores
	// (rawcdr.h), -1 while unknown (see NewWriter). It is pinned while Cyclone may call
	// the listener: until the writer is deleted, by Close or with the participant.
	status   C.struct_rawcdr_status
	pin      runtime.Pinner
	volatile bool // durability VOLATILE: no history is kept for readers that come later
	qos      QoS
	// depth is the KEEP_LAST depth, 0 for KEEP_ALL: what the writer's history can hold,
	// which decides whether a write can block (see direct).
	depth int

	directMu sync.Mutex
	bigLeft  int // writes before the last too large for a direct call has left the history

	notifyMu sync.Mutex    // guards the fields below
	changes  chan struct{} // MatchChanges' channel; nil until its first call
	notify   *os.File      // the eventfd the listener signals; nil until then
	notified chan struct{} // closed when the goroutine forwarding its signals ends
	released bool          // the writer is deleted and its eventfd closed
}

// NewWriter creates a writer on the key-less topic with DDS type typeName.
func (p *Participant) NewWriter(topic, typeName string, qos QoS) (*Writer, error) {
	if err := qos.Validate(); err != nil {
		return nil, fmt.Errorf("writer on %q: %w", topic, err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, fmt.Errorf("%w: participant (creating writer on %q)", ErrClosed, topic)
	}
	tp, err := p.topicLocked(topic, typeName)
	if err != nil {
		return nil, err
	}
	w := &Writer{p: p, topic: topic, typeName: typeName, volatile: qos.Durability == Volatile, qos: qos}
	if qos.History != KeepAll {
		w.depth = int(qos.depth())
	}
	w.status.matched, w.status.notify_fd = -1, -1
	w.status.incompatible_fd = C.int32_t(p.offered.fdLocked())
	w.pin.Pin(&w.status)
	l := C.rawcdr_matched_listener(&w.status)
	if l == nil {
		w.pin.Unpin()
		return nil, fmt.Errorf("dds: writer on %q: cannot create listener", topic)
	}
	defer C.dds_delete_listener(l)
	cq := cQoS(&qos)
	defer C.dds_delete_qos(cq)
	if w.handle = C.dds_create_writer(p.handle, tp, cq, l); w.handle < 0 {
		w.pin.Unpin()
		return nil, retcode(fmt.Sprintf("create writer on %q (%s)", topic, qos), w.handle)
	}
	if w.guid, w.ih, err = identity(w.handle, "writer"); err != nil {
		if C.dds_delete(w.handle) >= 0 {
			w.pin.Unpin()
		}
		return nil, err
	}
	// The listener is called on changes only: a writer that no reader ever matches
	// would stay unknown. The count now, unless a callback has stored a count already
	// (its own or a later one; callbacks come in order, so that one stands).
	var st C.dds_publication_matched_status_t
	if C.dds_get_publication_matched_status(w.handle, &st) == 0 {
		initMatched(&w.status, st.current_count)
	}
	p.writers[w] = struct{}{}
	return w, nil
}

// Unread reports whether a sample written now would reach no reader: the writer is
// volatile (it keeps nothing for readers that come later) and Cyclone's last
// publication-matched callback (or the count taken when the writer was created)
// counted no reader. It is an atomic load, no cgo call, so a publisher can skip both
// the write for nobody and the cgo call, which would wake the runtime's sysmon thread
// from its idle sleep.
func (w *Writer) Unread() bool {
	n, ok := matchedCount(&w.status)
	return w.volatile && ok && n == 0
}

// MatchedCount returns the number of readers matched as Cyclone's last
// publication-matched callback (or the count taken at creation) counted them, without
// a cgo call; ok is false only if neither is known.
func (w *Writer) MatchedCount() (n int, ok bool) { return matchedCount(&w.status) }

// matchedCount loads the count of matched endpoints a listener keeps in s; ok is false
// while it is unknown (-1).
func matchedCount(s *C.struct_rawcdr_status) (n int, ok bool) {
	c := atomic.LoadInt32((*int32)(unsafe.Pointer(&s.matched)))
	return int(c), c >= 0
}

// initMatched stores the count taken at creation, unless a callback has stored one.
func initMatched(s *C.struct_rawcdr_status, n C.uint32_t) {
	atomic.CompareAndSwapInt32((*int32)(unsafe.Pointer(&s.matched)), -1, int32(n))
}

// incompatibleTotal loads the number of writers a reader's listener counted as refused
// for incompatible QoS (stored after the policy).
func incompatibleTotal(s *C.struct_rawcdr_status) uint32 {
	return atomic.LoadUint32((*uint32)(unsafe.Pointer(&s.incompatible)))
}

// Topic returns the DDS topic name.
func (w *Writer) Topic() string { return w.topic }

// GUID returns the writer's GUID.
func (w *Writer) GUID() GUID { return w.guid }

// InstanceHandle returns the writer's local instance handle.
func (w *Writer) InstanceHandle() InstanceHandle { return w.ih }

// Write publishes one sample: the 4-byte encapsulation header followed by the CDR body.
// The bytes are copied; sample may be reused when Write returns. A RELIABLE writer
// blocks while its history is full of unacknowledged samples.
//
// Where it cannot block, Write calls Cyclone directly (package directcall), outside the
// runtime's system-call path, which would wake the runtime's monitor thread after an
// idle spell and hand the processor to another thread when the write outlasts its
// ticks (see direct).
func (w *Writer) Write(sample []byte) error {
	if len(sample) < 4 {
		return fmt.Errorf("%w: %d bytes on %q, need at least the 4-byte encapsulation header", ErrSample, len(sample), w.topic)
	}
	if len(sample) > math.MaxUint32-3 {
		return fmt.Errorf("%w: %d bytes on %q exceed 4 GiB", ErrSample, len(sample), w.topic)
	}
	if w.closed.Load() {
		return fmt.Errorf("%w: writer on %q", ErrClosed, w.topic)
	}
	data, n := unsafe.Pointer(&sample[0]), C.uint32_t(len(sample))
	var rc C.dds_return_t
	if w.direct(len(sample)) {
		a := C.struct_rawcdr_write_args{writer: w.handle, len: n, data: data}
		raceSync() // race builds: what the cgo call would tell the race detector
		directcall.Call(unsafe.Pointer(C.rawcdr_write_direct), unsafe.Pointer(&a))
		directWrites.Add(1)
		rc = a.rc
		runtime.KeepAlive(sample)
	} else {
		rc = C.rawcdr_write(w.handle, data, n)
	}
	if rc < 0 {
		return retcode(fmt.Sprintf("write %d bytes to %q", len(sample), w.topic), rc)
	}
	return nil
}

// directWriteBytes bounds the bytes a writer's history may hold for a write to be a
// direct call. Cyclone blocks a write (up to the reliability's max_blocking_time, which
// is infinite here) only while its history holds more unacknowledged bytes than the
// writer's high-water mark, which starts at WhcHighInit (30 KiB by default) and only
// grows; a local reader's history refuses nothing, since no resource limits are set.
// A KEEP_LAST history holds the last depth samples at most (Cyclone drops the oldest,
// acknowledged or not), so writes stay under the mark while the last depth+1 samples
// were each at most directWriteBytes/(depth+1). Nothing else in a write waits: the
// listeners it may run (local readers) are C code that neither blocks nor calls Go.
const directWriteBytes = 16 << 10

// directWrites counts the writes made as direct calls (for tests).
var directWrites atomic.Uint64

// direct reports whether a write of size bytes is made as a direct call: in builds
// that make them, for KEEP_LAST writers whose history cannot reach directWriteBytes. A
// larger sample goes through cgo, and so do the depth writes after it, until it has
// left the history.
func (w *Writer) direct(size int) bool {
	if !directcall.Available || w.depth == 0 {
		return false
	}
	w.directMu.Lock()
	defer w.directMu.Unlock()
	if size > directWriteBytes/(w.depth+1) {
		w.bigLeft = w.depth
		return false
	}
	if w.bigLeft > 0 {
		w.bigLeft--
		return false
	}
	return true
}

// MatchedSubscriptions describes the readers currently matched with w.
func (w *Writer) MatchedSubscriptions() ([]Endpoint, error) {
	if w.closed.Load() {
		return nil, fmt.Errorf("%w: writer on %q", ErrClosed, w.topic)
	}
	eps, err := matchedEndpoints(w.handle, true)
	if err != nil {
		return nil, fmt.Errorf("writer on %q: %w", w.topic, err)
	}
	return eps, nil
}

// Close deletes the writer. Closing twice is a no-op.
func (w *Writer) Close() error {
	if w.closed.Swap(true) {
		return nil
	}
	w.p.mu.Lock()
	defer w.p.mu.Unlock()
	if w.p.closed {
		return nil // deleted with the participant
	}
	delete(w.p.writers, w)
	if rc := C.dds_delete(w.handle); rc < 0 {
		return retcode(fmt.Sprintf("delete writer on %q", w.topic), rc) // the listener may still run: stay pinned
	}
	w.release()
	return nil
}

// release frees what the writer's listener used, once the writer is deleted and the
// listener runs no more: its pinned statuses and MatchChanges' eventfd (whose
// goroutine then ends).
func (w *Writer) release() {
	w.pin.Unpin()
	w.notifyMu.Lock()
	defer w.notifyMu.Unlock()
	w.released = true
	if w.notify != nil {
		w.notify.Close()
	}
}

// MatchChanges returns a channel that receives a value after each change of the
// number of readers matched with w, as Cyclone's publication-matched listener reports
// it (one value waits at most: changes coalesce). A receiver reads Unread or
// MatchedCount for the count now. Changes before the first call are not signalled, so
// a caller reads the count after it. The first call makes an eventfd that the listener
// signals and a goroutine that waits for it in Go's netpoller, so a process that
// watches its audience sleeps until it changes; both end when the writer is deleted.
func (w *Writer) MatchChanges() (<-chan struct{}, error) {
	w.notifyMu.Lock()
	defer w.notifyMu.Unlock()
	if w.released || w.closed.Load() {
		return nil, fmt.Errorf("%w: writer on %q", ErrClosed, w.topic)
	}
	if w.changes != nil {
		return w.changes, nil
	}
	f, rc, fd, err := polledEventfd("dds-writer-" + w.topic)
	if err != nil {
		return nil, fmt.Errorf("dds: writer on %q: %w", w.topic, err)
	}
	w.notify, w.changes, w.notified = f, make(chan struct{}, 1), make(chan struct{})
	atomic.StoreInt32((*int32)(unsafe.Pointer(&w.status.notify_fd)), fd)
	go forwardSignals(rc, w.changes, w.notified)
	return w.changes, nil
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
// signalled, until the descriptor is closed; then it closes done.
func forwardSignals(rc syscall.RawConn, ch chan<- struct{}, done chan<- struct{}) {
	defer close(done)
	ew := newEventWait(func() bool {
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
