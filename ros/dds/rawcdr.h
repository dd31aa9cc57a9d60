// Opaque-CDR sertype for Cyclone DDS 0.10.x: Cyclone moves serialised samples
// (4-byte encapsulation header + body) without knowing their type. See doc.go.
#ifndef DNETWORK_RAWCDR_H
#define DNETWORK_RAWCDR_H

#include <stdint.h>
#include <pthread.h>
#include "dds/dds.h"

// A sample as dds_write sees it: a byte range owned by the caller.
struct rawcdr_sample {
  uint32_t len;
  const void *data;
};

// Creates a key-less topic whose samples are raw CDR of the DDS type type_name.
// Returns the topic handle or a negative DDS return code.
dds_entity_t rawcdr_create_topic(dds_entity_t participant, const char *topic_name, const char *type_name, const dds_qos_t *qos);

// Copies len bytes from data (encapsulation header included) into a new sample and
// writes it. data is not retained after the call.
dds_return_t rawcdr_write(dds_entity_t writer, const void *data, uint32_t len);

// rawcdr_write, then, if flush, dds_write_flush: with write batching on (package dds
// turns it on for the process), a write without the flush leaves its sample with the
// writer's other unsent ones, and the flush sends them all, in as few datagrams as
// they fit.
dds_return_t rawcdr_write_flush(dds_entity_t writer, const void *data, uint32_t len, int flush);

// rawcdr_write_direct's and rawcdr_flush_direct's argument and result.
struct rawcdr_write_args {
  dds_entity_t writer;
  uint32_t len;
  const void *data;
  int flush;
  dds_return_t rc; // rawcdr_write_flush's result
};

// rawcdr_write_flush for a direct call (package directcall: on the system stack,
// outside Go's system-call path): a->rc = rawcdr_write_flush(a->writer, a->data, a->len,
// a->flush). Returns 0.
int rawcdr_write_direct(void *a);

// dds_write_flush(a->writer) for a direct call. Returns 0.
int rawcdr_flush_direct(void *a);

// Samples handed over to Go outside the ring: rawcdr_ring_resume hands over one at a
// time, a sample larger than the whole ring.
#define RAWCDR_BATCH 1

struct rawcdr_batch {
  int32_t n;                                // valid entries in the arrays below
  uint64_t total;                           // sum of size[i]
  struct ddsi_serdata *data[RAWCDR_BATCH];  // owned references, released by rawcdr_copyout
  uint32_t size[RAWCDR_BATCH];              // serialised size incl. encapsulation header
  dds_instance_handle_t publication[RAWCDR_BATCH];
  int64_t source_time[RAWCDR_BATCH];        // ns since the Unix epoch
  int64_t arrival[RAWCDR_BATCH];            // CLOCK_MONOTONIC ns when the listener took it
};

// The sample ring of one reader. Its data-available listener (on Cyclone's threads)
// takes every sample into the ring, serialised, and adds 1 to the eventfd fd unless a
// signal is pending already (signalled); the reader's goroutine copies records out of
// the ring with atomic loads and stores alone, so taking a sample needs no cgo call. Records are 8-aligned: a rawcdr_rec header,
// then size bytes of CDR (encapsulation header included), padded to 8. A record that
// would cross the end of the buffer starts at offset 0 instead; the bytes skipped
// start with a header flagged RAWCDR_REC_WRAP when at least a header fits there.
//
// All takes happen under mu, in the listener or in rawcdr_ring_resume, so samples
// enter the ring in the reader's order. A sample that does not fit waits in pending
// (stalled = 1) until the goroutine has made room and calls rawcdr_ring_resume; one
// larger than the whole buffer is handed over in a rawcdr_batch when the ring is empty.
#define RAWCDR_RING_BYTES (64 * 1024) // a power of two
#define RAWCDR_REC_WRAP 1u

struct rawcdr_rec {
  uint32_t size;        // CDR bytes that follow
  uint32_t flags;       // RAWCDR_REC_WRAP: no record, continue at offset 0
  uint64_t publication; // dds_instance_handle_t of the writer
  int64_t source_time;  // ns since the Unix epoch
  int64_t arrival;      // CLOCK_MONOTONIC ns when the listener took the sample from the reader
};

// A wake rule: what of a deferred reader's samples wakes its goroutine at once. The
// steps walk a sample's CDR body (little-endian XCDR1, alignment counted from the end
// of the 4-byte encapsulation header) and append bytes to the sample's key; a sample
// wakes the goroutine when its key differs from the previous sample's, and always when
// the rule cannot tell (a body it cannot walk, another encoding, a value within a
// rounding error of a class limit). See rawcdr_wake_eval.
enum {
  RAWCDR_WAKE_SKIP = 1,   // skip n bytes
  RAWCDR_WAKE_ALIGN = 2,  // align to n (1, 2, 4 or 8)
  RAWCDR_WAKE_STRING = 3, // skip a string: align 4, uint32 length, that many bytes
  RAWCDR_WAKE_BYTE = 4,   // append the byte here, skip it
  // Align 8, read two float64 x and y, skip 16 bytes; append 0 when the key's last byte
  // is 0 (the class counts only while that flag is set), else the class of
  // v = hypot(x, y) / div: 1 below lim[0], 2 below lim[1], 3 otherwise (NaN too).
  RAWCDR_WAKE_CLASS2 = 5,
};
#define RAWCDR_WAKE_STEPS 16
#define RAWCDR_WAKE_KEY 16

struct rawcdr_wake_step {
  uint32_t op;
  uint32_t n;
  double div;
  double lim[2];
};

struct rawcdr_wake {
  uint32_t nsteps; // 0: no rule (every sample waits, up to the ring's half)
  struct rawcdr_wake_step step[RAWCDR_WAKE_STEPS];
};

// Evaluates w on one sample (encapsulation header and body, len bytes): the key goes
// to key (*keylen bytes, at most RAWCDR_WAKE_KEY). Returns 1 when the key is certain,
// 0 when the sample must wake its goroutine whatever the key.
int rawcdr_wake_eval(const struct rawcdr_wake *w, const unsigned char *data, uint32_t len, unsigned char *key, uint32_t *keylen);

struct rawcdr_ring {
  uint64_t head;  // bytes produced; stored (release) under mu, loaded (acquire) by Go
  uint64_t tail;  // bytes consumed; stored by Go, loaded (acquire) by the filler
  uint32_t stalled; // 1 while a sample waits in pending
  // 1 from a signal of the eventfd until the goroutine takes it (exchanges it for 0,
  // before it empties the ring): the listener writes the eventfd only when it sets
  // signalled from 0, so one signal stands for every sample put in the ring meanwhile.
  uint32_t signalled;
  int32_t err;      // a negative DDS return code of a take in the listener, or 0
  int fd;           // eventfd the listener signals
  struct rawcdr_status *status; // the reader's statuses (pinned Go memory)
  // Deferred mode (set by Go with rawcdr_ring_defer): the listener signals the eventfd
  // only for a sample the wake rule says must wake, when the ring is half full, when
  // a sample waits in pending or a take failed. 0: every take signals.
  uint32_t deferred;
  struct rawcdr_wake wake; // the rule; written under mu
  uint32_t haskey;         // key holds the previous sample's key; stored 0 by Go to wake on the next
  uint32_t keylen;
  unsigned char key[RAWCDR_WAKE_KEY];
  uint32_t due;            // a sample taken under mu must wake the goroutine
  pthread_mutex_t mu;
  struct ddsi_serdata *pending;
  uint64_t pending_publication;
  int64_t pending_time;
  int64_t pending_arrival;
  unsigned char buf[RAWCDR_RING_BYTES];
};

// Allocates an empty ring that signals fd and keeps the reader's statuses in *status
// (valid until the reader is deleted); NULL when out of memory.
struct rawcdr_ring *rawcdr_ring_new(int fd, struct rawcdr_status *status);

// Releases a pending sample and frees the ring. Call it only after the reader the
// ring's listener was given to is deleted (Cyclone then runs no listener any more).
void rawcdr_ring_free(struct rawcdr_ring *r);

// Returns a listener that fills r from the reader it is attached to and signals r's
// eventfd, and keeps the reader's statuses in r->status (signalling the eventfd too
// when a writer is refused for incompatible QoS). Cyclone copies the listener into each
// entity it is given to; delete it with dds_delete_listener.
dds_listener_t *rawcdr_ring_listener(struct rawcdr_ring *r);

// Switches r to deferred mode with rule w (copied; NULL: no rule) when on, back to
// signalling every take when not. The previous key is forgotten either way.
void rawcdr_ring_defer(struct rawcdr_ring *r, int on, const struct rawcdr_wake *w);

// Takes what the listener left in the reader (after a stall) into the ring, in order.
// When the ring is empty and the next sample does not fit (larger than the whole
// buffer, or larger than half of it where its record would have to wrap), that sample
// goes into big (n = 1) instead, and comes before everything in the ring.
// Returns 0 or a negative DDS return code.
dds_return_t rawcdr_ring_resume(struct rawcdr_ring *r, dds_entity_t reader, struct rawcdr_batch *big);

// Copies all samples of b back to back into dst (capacity b->total) and releases them.
void rawcdr_copyout(struct rawcdr_batch *b, void *dst);

// Releases all samples of b without copying.
void rawcdr_release(struct rawcdr_batch *b);

// Statuses of a reader or writer that its listener stores, atomically, for Go to load
// without a cgo call. It lives in pinned Go memory, valid until the entity is deleted.
// Cyclone runs the listeners of one entity one at a time, in the order of the
// changes, so the last store is the state now.
struct rawcdr_status {
  int32_t matched;             // readers matched (of a writer) or writers (of a reader); -1 while unknown
  uint32_t incompatible;       // peers refused for incompatible QoS, in all (stored last): writers a
                               // reader refused (requested), readers a writer refused (offered)
  int32_t incompatible_policy; // dds_qos_policy_id_t of the last refusal
  int32_t notify_fd;           // writers: eventfd to add 1 to after each change of matched; -1: none
  int32_t incompatible_fd;     // writers: eventfd to add 1 to after each refusal; -1: none
  uint32_t write_errors;       // writers: queued writes that failed (stored after write_rc)
  int32_t write_rc;            // writers: the DDS return code of the last failed queued write
  uint64_t signals;            // readers: times the listener wrote the ring's eventfd
};

// Returns a listener that keeps s->matched of the writer it is attached to and, once
// s->notify_fd is set (>= 0), adds 1 to that eventfd after each change; it also keeps
// the writer's refusals of readers for incompatible QoS in s and, once
// s->incompatible_fd is set (>= 0), adds 1 to that eventfd after each refusal. Delete
// it with dds_delete_listener.
dds_listener_t *rawcdr_matched_listener(struct rawcdr_status *s);

// Does nothing: race builds call it so the race detector sees the synchronisation of
// the sample ring (a cgo call is where it models synchronisation through C).
void rawcdr_sync(void);

// The send queue: one per process, a ring of held writes (dds.Writer.WriteHeld) and
// flushes that Go fills with atomic stores alone and a thread of its own (not a Go
// thread) makes, so a burst of writes from Go needs no cgo call (every cgo call enters
// Go's system-call path, which wakes the runtime's sysmon thread after an idle spell).
// Records are 8-aligned: a rawcdr_sendrec header, then size bytes of CDR, padded to 8;
// a record that would cross the end of the buffer starts at offset 0 instead, the
// bytes skipped starting with a header flagged RAWCDR_SEND_WRAP when at least a header
// fits there.
//
// The thread makes the writes under mu, in the ring's order, and so does
// rawcdr_sendq_drain, so a write made by a cgo call after a drain comes after every
// record queued before. The thread loops: a consume pass (every record up to head);
// if it exchanges lazy_deadline for 0 and gets a deadline, it disarms the timerfd
// tfd; it stores sleeping = 1 and re-checks head != tail (then it exchanges sleeping
// back for 0 and goes on, unless a producer took the 1 and signals fd); else it polls
// fd and tfd, stores sleeping = 0 and reads both (nonblocking), counting each signal
// found (wakes_event, wakes_timer).
//
// A flush wakes the thread: the producer pushes it, exchanges sleeping for 0 and, if it
// was 1, adds 1 to fd (all sequentially consistent, so either the thread's re-check
// sees the record or the producer sees it sleeping). A lazy flush (FlushWithin) wakes
// nobody: it rides the next pass (any producer's flush, or a thread already awake), and
// a deadline bounds its wait. Its producer pushes it and then, under the Go side's
// producer mutex, where lazy_deadline is 0 or later than its own deadline, stores its
// deadline and arms tfd for it (absolute CLOCK_MONOTONIC). No lazy record is left
// without a pass to come: a producer that armed either keeps its arming, or loses it to
// a disarm that the kernel ordered after the arming, and so after the push, and the
// thread's head re-check after that disarm sees the record (the pass it brings clears
// the deadline the lost arming left); a producer that saw an earlier deadline stored
// either read it before the thread's exchange that clears it, so its push comes before
// that exchange and the re-check after it, or that deadline's arming still stands.
#define RAWCDR_SENDQ_BYTES (256 * 1024) // a power of two
#define RAWCDR_SEND_WRAP 1u              // no record: continue at offset 0
#define RAWCDR_SEND_NOSAMPLE 2u          // no sample: dds_write_flush the writer

struct rawcdr_sendrec {
  uint32_t size;                // CDR bytes that follow
  uint32_t flags;               // RAWCDR_SEND_*
  int32_t writer;               // dds_entity_t
  uint32_t pad;
  struct rawcdr_status *status; // the writer's statuses: failed writes are counted there
};

struct rawcdr_sendq {
  uint64_t head;          // bytes produced; stored by Go (seq_cst)
  uint64_t tail;          // bytes consumed; stored under mu (release), loaded by Go
  uint64_t lazy_deadline; // CLOCK_MONOTONIC ns tfd is armed for, 0: none (seq_cst)
  uint64_t wakes_event;   // thread's wake-ups that found fd signalled (relaxed)
  uint64_t wakes_timer;   // thread's wake-ups that found tfd expired (relaxed)
  uint32_t sleeping;      // 1 while the thread waits for fd and tfd, or is about to
  int fd;                 // eventfd producers signal (nonblocking)
  int tfd;                // timerfd of lazy flushes (CLOCK_MONOTONIC, nonblocking)
  pthread_mutex_t mu;
  unsigned char buf[RAWCDR_SENDQ_BYTES];
};

// Allocates the send queue and starts its thread (all signals blocked); NULL when it
// cannot (errno tells). The queue lives as long as the process.
struct rawcdr_sendq *rawcdr_sendq_start(void);

// Makes every write queued so far, under mu, on the calling thread.
void rawcdr_sendq_drain(struct rawcdr_sendq *q);

// Returns the ns until tfd expires, 0 if it is disarmed, -1 if it cannot tell (tests).
int64_t rawcdr_sendq_timer_left(struct rawcdr_sendq *q);

// rawcdr_sendq_drain, then rawcdr_write_flush outside mu: a write that must not wait
// in the queue (it does not fit, or may block) and yet must come after those queued.
dds_return_t rawcdr_sendq_drain_write(struct rawcdr_sendq *q, dds_entity_t writer, const void *data, uint32_t len, int flush);

// Discovery data of a reader or writer QoS, flattened for Go.
struct rawcdr_qos {
  int32_t reliability;     // dds_reliability_kind_t, -1 if not set
  int32_t durability;      // dds_durability_kind_t, -1 if not set
  int32_t history;         // dds_history_kind_t, -1 if not set
  int32_t depth;
  int64_t deadline;        // ns, DDS_INFINITY if not set
  int64_t lifespan;        // ns, DDS_INFINITY if not set
  int64_t lease;           // ns, DDS_INFINITY if not set
  int32_t ignorelocal;     // dds_ignorelocal_kind_t, -1 if not set
  void *userdata;          // dds_alloc'd copy or NULL; release with dds_free
  size_t userdata_len;
};

// Fills out from q (q may be NULL).
void rawcdr_qos_get(const dds_qos_t *q, struct rawcdr_qos *out);

// Reads (without taking) up to max alive samples of a built-in topic reader into
// loaned buffers; release them with dds_return_loan(reader, bufs, n).
dds_return_t rawcdr_read_builtin(dds_entity_t reader, void **bufs, dds_sample_info_t *si, uint32_t max);

#endif
