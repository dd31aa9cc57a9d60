// Opaque-CDR sertype and serdata for Cyclone DDS 0.10.x.
//
// Cyclone calls these hooks to turn samples into bytes and back. Here a sample
// already is bytes: the encapsulation header followed by the CDR body, produced
// and consumed in Go. Every topic created through rawcdr_create_topic is key-less,
// so all samples of a topic belong to one instance: key comparisons always say
// "equal", key hashes are all zero and every serdata carries the type's base hash.
//
// Memory: a serdata is one malloc'd block holding the header, the size and the
// payload rounded up to 4 bytes with zero padding. Nothing here keeps a pointer
// that came from Go: writes copy the caller's bytes during the call, takes hand
// back serdata references that rawcdr_copyout copies into caller memory and releases.

#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "dds/dds.h"
#include "dds/ddsi/ddsi_sertype.h"
#include "dds/ddsi/ddsi_serdata.h"
#include "dds/ddsi/q_radmin.h"
#include "rawcdr.h"

struct rawcdr_serdata {
  struct ddsi_serdata c;
  uint32_t size;         // payload bytes incl. encapsulation header; 0 for key-only samples
  unsigned char data[];  // alignup4(size) bytes, padding zeroed
};

static uint32_t alignup4(uint32_t x) { return (x + 3u) & ~3u; }

static struct rawcdr_serdata *serdata_new(const struct ddsi_sertype *type, enum ddsi_serdata_kind kind, size_t size)
{
  if (size > UINT32_MAX - 3u)
    return NULL;
  const uint32_t padded = alignup4((uint32_t) size);
  struct rawcdr_serdata *d = malloc(sizeof(*d) + padded);
  if (d == NULL)
    return NULL;
  ddsi_serdata_init(&d->c, type, kind);
  d->c.hash = type->serdata_basehash;
  d->size = (uint32_t) size;
  if (padded > size)
    memset(d->data + size, 0, padded - size);
  return d;
}

static bool sd_eqkey(const struct ddsi_serdata *a, const struct ddsi_serdata *b)
{
  (void) a; (void) b;
  return true;
}

static uint32_t sd_get_size(const struct ddsi_serdata *dcmn)
{
  return ((const struct rawcdr_serdata *) dcmn)->size;
}

static struct ddsi_serdata *sd_key_only(const struct ddsi_sertype *type)
{
  struct rawcdr_serdata *d = serdata_new(type, SDK_KEY, 0);
  return d ? &d->c : NULL;
}

// Walks the received fragment chain. Fragments are ordered by start offset and may
// overlap; each one covers [min, maxp1) of the sample.
static struct ddsi_serdata *sd_from_ser(const struct ddsi_sertype *type, enum ddsi_serdata_kind kind, const struct nn_rdata *fragchain, size_t size)
{
  if (kind != SDK_DATA)
    return sd_key_only(type);
  struct rawcdr_serdata *d = serdata_new(type, kind, size);
  if (d == NULL)
    return NULL;
  uint32_t off = 0;
  for (const struct nn_rdata *f = fragchain; f != NULL && off < size; f = f->nextfrag) {
    if (f->min > off)
      break; // a hole: cannot happen for a complete sample
    if (f->maxp1 > off) {
      const uint32_t end = f->maxp1 < size ? f->maxp1 : (uint32_t) size;
      const unsigned char *src = NN_RMSG_PAYLOADOFF(f->rmsg, NN_RDATA_PAYLOAD_OFF(f));
      memcpy(d->data + off, src + (off - f->min), end - off);
      off = end;
    }
  }
  if (off < size) {
    free(d);
    return NULL;
  }
  return &d->c;
}

static struct ddsi_serdata *sd_from_ser_iov(const struct ddsi_sertype *type, enum ddsi_serdata_kind kind, ddsrt_msg_iovlen_t niov, const ddsrt_iovec_t *iov, size_t size)
{
  if (kind != SDK_DATA)
    return sd_key_only(type);
  struct rawcdr_serdata *d = serdata_new(type, kind, size);
  if (d == NULL)
    return NULL;
  size_t off = 0;
  for (ddsrt_msg_iovlen_t i = 0; i < niov && off < size; i++) {
    size_t n = iov[i].iov_len;
    if (n > size - off)
      n = size - off;
    memcpy(d->data + off, iov[i].iov_base, n);
    off += n;
  }
  if (off < size) {
    free(d);
    return NULL;
  }
  return &d->c;
}

static struct ddsi_serdata *sd_from_keyhash(const struct ddsi_sertype *type, const struct ddsi_keyhash *keyhash)
{
  (void) keyhash;
  return sd_key_only(type);
}

static struct ddsi_serdata *sd_from_sample(const struct ddsi_sertype *type, enum ddsi_serdata_kind kind, const void *sample)
{
  if (kind != SDK_DATA)
    return sd_key_only(type);
  const struct rawcdr_sample *s = sample;
  struct rawcdr_serdata *d = serdata_new(type, kind, s->len);
  if (d == NULL)
    return NULL;
  if (s->len > 0)
    memcpy(d->data, s->data, s->len);
  return &d->c;
}

static void sd_to_ser(const struct ddsi_serdata *dcmn, size_t off, size_t sz, void *buf)
{
  const struct rawcdr_serdata *d = (const struct rawcdr_serdata *) dcmn;
  memcpy(buf, d->data + off, sz);
}

static struct ddsi_serdata *sd_to_ser_ref(const struct ddsi_serdata *dcmn, size_t off, size_t sz, ddsrt_iovec_t *ref)
{
  const struct rawcdr_serdata *d = (const struct rawcdr_serdata *) dcmn;
  ref->iov_base = (void *) (d->data + off);
  ref->iov_len = (ddsrt_iov_len_t) sz;
  return ddsi_serdata_ref(dcmn);
}

static void sd_to_ser_unref(struct ddsi_serdata *dcmn, const ddsrt_iovec_t *ref)
{
  (void) ref;
  ddsi_serdata_unref(dcmn);
}

// Used only if someone reads with dds_read/dds_take instead of the cdr calls:
// the sample gets a malloc'd copy that free_samples releases.
static bool sd_to_sample(const struct ddsi_serdata *dcmn, void *sample, void **bufptr, void *buflim)
{
  (void) bufptr; (void) buflim;
  const struct rawcdr_serdata *d = (const struct rawcdr_serdata *) dcmn;
  struct rawcdr_sample *s = sample;
  s->len = 0;
  s->data = NULL;
  if (d->c.kind != SDK_DATA || d->size == 0)
    return true;
  void *p = dds_alloc(d->size);
  if (p == NULL)
    return false;
  memcpy(p, d->data, d->size);
  s->len = d->size;
  s->data = p;
  return true;
}

static struct ddsi_serdata *sd_to_untyped(const struct ddsi_serdata *dcmn)
{
  struct rawcdr_serdata *d = serdata_new(dcmn->type, SDK_KEY, 0);
  if (d == NULL)
    return NULL;
  d->c.type = NULL; // untyped: the type travels separately
  return &d->c;
}

static bool sd_untyped_to_sample(const struct ddsi_sertype *type, const struct ddsi_serdata *d, void *sample, void **bufptr, void *buflim)
{
  (void) type; (void) d; (void) bufptr; (void) buflim;
  struct rawcdr_sample *s = sample;
  s->len = 0;
  s->data = NULL;
  return true;
}

static void sd_free(struct ddsi_serdata *dcmn)
{
  free(dcmn);
}

static size_t sd_print(const struct ddsi_sertype *type, const struct ddsi_serdata *dcmn, char *buf, size_t bufsize)
{
  (void) type;
  const struct rawcdr_serdata *d = (const struct rawcdr_serdata *) dcmn;
  int n = snprintf(buf, bufsize, "rawcdr(%u bytes)", (unsigned) d->size);
  return n < 0 ? 0 : (size_t) n;
}

static void sd_get_keyhash(const struct ddsi_serdata *d, struct ddsi_keyhash *buf, bool force_md5)
{
  (void) d; (void) force_md5;
  memset(buf->value, 0, sizeof(buf->value));
}

static const struct ddsi_serdata_ops rawcdr_serdata_ops = {
  .eqkey = sd_eqkey,
  .get_size = sd_get_size,
  .from_ser = sd_from_ser,
  .from_ser_iov = sd_from_ser_iov,
  .from_keyhash = sd_from_keyhash,
  .from_sample = sd_from_sample,
  .to_ser = sd_to_ser,
  .to_ser_ref = sd_to_ser_ref,
  .to_ser_unref = sd_to_ser_unref,
  .to_sample = sd_to_sample,
  .to_untyped = sd_to_untyped,
  .untyped_to_sample = sd_untyped_to_sample,
  .free = sd_free,
  .print = sd_print,
  .get_keyhash = sd_get_keyhash,
  // get_sample_size and from_iox_buffer (DDS_HAS_SHM) stay NULL: shared memory must be off.
};

static void st_free(struct ddsi_sertype *tp)
{
  ddsi_sertype_fini(tp);
  free(tp);
}

static void st_zero_samples(const struct ddsi_sertype *tp, void *samples, size_t count)
{
  (void) tp;
  memset(samples, 0, count * sizeof(struct rawcdr_sample));
}

static void st_realloc_samples(void **ptrs, const struct ddsi_sertype *tp, void *old, size_t oldcount, size_t count)
{
  (void) tp;
  const size_t sz = sizeof(struct rawcdr_sample);
  char *p = (oldcount == count) ? old : dds_realloc(old, count * sz);
  if (p != NULL && count > oldcount)
    memset(p + oldcount * sz, 0, (count - oldcount) * sz);
  for (size_t i = 0; i < count; i++)
    ptrs[i] = p ? p + i * sz : NULL;
}

static void st_free_samples(const struct ddsi_sertype *tp, void **ptrs, size_t count, dds_free_op_t op)
{
  (void) tp;
  if (count == 0 || ptrs == NULL || ptrs[0] == NULL)
    return;
  if (op & DDS_FREE_CONTENTS_BIT) {
    for (size_t i = 0; i < count; i++) {
      struct rawcdr_sample *s = ptrs[i];
      dds_free((void *) s->data);
      s->data = NULL;
      s->len = 0;
    }
  }
  if (op & DDS_FREE_ALL_BIT)
    dds_free(ptrs[0]);
}

// Two rawcdr sertypes with the same type name are interchangeable.
static bool st_equal(const struct ddsi_sertype *a, const struct ddsi_sertype *b)
{
  (void) a; (void) b;
  return true;
}

static uint32_t st_hash(const struct ddsi_sertype *tp)
{
  (void) tp;
  return 0x52415743u; // "RAWC"
}

static size_t st_get_serialized_size(const struct ddsi_sertype *tp, const void *sample)
{
  (void) tp;
  return ((const struct rawcdr_sample *) sample)->len;
}

static bool st_serialize_into(const struct ddsi_sertype *tp, const void *sample, void *dst, size_t dst_size)
{
  (void) tp;
  const struct rawcdr_sample *s = sample;
  if (dst_size < s->len)
    return false;
  memcpy(dst, s->data, s->len);
  return true;
}

static const struct ddsi_sertype_ops rawcdr_sertype_ops = {
  .version = ddsi_sertype_v0,
  .arg = NULL,
  .free = st_free,
  .zero_samples = st_zero_samples,
  .realloc_samples = st_realloc_samples,
  .free_samples = st_free_samples,
  .equal = st_equal,
  .hash = st_hash,
  // no type identifier, type map, type information or derived sertypes: matching is by
  // topic and type name only, as between ROS 2 nodes.
  .type_id = NULL,
  .type_map = NULL,
  .type_info = NULL,
  .derive_sertype = NULL,
  .get_serialized_size = st_get_serialized_size,
  .serialize_into = st_serialize_into,
};

dds_entity_t rawcdr_create_topic(dds_entity_t participant, const char *topic_name, const char *type_name, const dds_qos_t *qos)
{
  struct ddsi_sertype *st = malloc(sizeof(*st));
  if (st == NULL)
    return DDS_RETCODE_OUT_OF_RESOURCES;
  memset(st, 0, sizeof(*st));
  ddsi_sertype_init_flags(st, type_name, &rawcdr_sertype_ops, &rawcdr_serdata_ops, DDSI_SERTYPE_FLAG_TOPICKIND_NO_KEY);
  struct ddsi_sertype *registered = st;
  // On success the topic holds the (possibly pre-existing, equal) registered sertype
  // and our initial reference has been dropped; on failure it is still ours.
  dds_entity_t tp = dds_create_topic_sertype(participant, topic_name, &registered, qos, NULL, NULL);
  if (tp < 0)
    ddsi_sertype_unref(st);
  return tp;
}

dds_return_t rawcdr_write(dds_entity_t writer, const void *data, uint32_t len)
{
  const struct rawcdr_sample s = { .len = len, .data = data };
  return dds_write(writer, &s);
}

dds_return_t rawcdr_write_flush(dds_entity_t writer, const void *data, uint32_t len, int flush)
{
  dds_return_t rc = rawcdr_write(writer, data, len);
  if (flush)
    dds_write_flush(writer);
  return rc;
}

int rawcdr_write_direct(void *arg)
{
  struct rawcdr_write_args *a = arg;
  a->rc = rawcdr_write_flush(a->writer, a->data, a->len, a->flush);
  return 0;
}

int rawcdr_flush_direct(void *arg)
{
  struct rawcdr_write_args *a = arg;
  dds_write_flush(a->writer);
  return 0;
}

#define REC_HDR ((uint64_t) sizeof(struct rawcdr_rec))

static uint64_t align8(uint64_t x) { return (x + 7u) & ~(uint64_t) 7u; }

// CLOCK_MONOTONIC in ns: the clock Go's runtime reads for time.Now's monotonic part.
static int64_t monotonic_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

struct rawcdr_ring *rawcdr_ring_new(int fd, struct rawcdr_status *status)
{
  struct rawcdr_ring *r = calloc(1, sizeof(*r));
  if (r == NULL)
    return NULL;
  r->fd = fd;
  r->status = status;
  if (pthread_mutex_init(&r->mu, NULL) != 0) {
    free(r);
    return NULL;
  }
  return r;
}

void rawcdr_ring_free(struct rawcdr_ring *r)
{
  if (r == NULL)
    return;
  if (r->pending != NULL)
    ddsi_serdata_unref(r->pending);
  pthread_mutex_destroy(&r->mu);
  free(r);
}

// Decides, in deferred mode, whether the sample just put (its CDR at data, size bytes;
// used bytes of the ring now, its record included) must wake the goroutine: when the
// rule cannot tell, when its key differs from the previous sample's (or there is no
// previous key), or when the ring is half full. r->mu is held.
static void ring_judge(struct rawcdr_ring *r, const unsigned char *data, uint32_t size, uint64_t used)
{
  unsigned char key[RAWCDR_WAKE_KEY];
  uint32_t keylen = 0;
  int certain = 1;
  if (r->wake.nsteps > 0) {
    certain = rawcdr_wake_eval(&r->wake, data, size, key, &keylen);
    // One exchange, so that a WakeNext (Go stores 0 without mu) is never lost: it lands
    // either before it (this sample wakes) or after it (the next one does). A key the
    // rule was unsure of is not trusted for the next sample either.
    const uint32_t had = __atomic_exchange_n(&r->haskey, certain ? 1u : 0u, __ATOMIC_ACQ_REL);
    const int same = had && keylen == r->keylen && memcmp(key, r->key, keylen) == 0;
    if (!same)
      certain = 0;
    memcpy(r->key, key, keylen);
    r->keylen = keylen;
  }
  if (!certain || used >= RAWCDR_RING_BYTES / 2)
    r->due = 1;
}

// Puts one sample into the ring: 1 done, 0 no room now, -1 never fits. r->mu is held.
static int ring_put(struct rawcdr_ring *r, struct ddsi_serdata *sd, uint64_t pub, int64_t t, int64_t arrival)
{
  const uint64_t cap = RAWCDR_RING_BYTES;
  const uint32_t size = ddsi_serdata_size(sd);
  const uint64_t need = REC_HDR + align8(size);
  if (need > cap)
    return -1;
  uint64_t head = r->head;
  const uint64_t tail = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
  uint64_t off = head % cap;
  const uint64_t waste = off + need > cap ? cap - off : 0;
  if (need + waste > cap - (head - tail))
    return 0;
  if (waste > 0) {
    if (waste >= REC_HDR) {
      struct rawcdr_rec w = { .size = 0, .flags = RAWCDR_REC_WRAP };
      memcpy(r->buf + off, &w, sizeof(w));
    }
    head += waste;
    off = 0;
  }
  struct rawcdr_rec h = { .size = size, .flags = 0, .publication = pub, .source_time = t, .arrival = arrival };
  memcpy(r->buf + off, &h, sizeof(h));
  ddsi_serdata_to_ser(sd, 0, size, r->buf + off + REC_HDR);
  if (__atomic_load_n(&r->deferred, __ATOMIC_RELAXED))
    ring_judge(r, r->buf + off + REC_HDR, size, head + need - tail);
  __atomic_store_n(&r->head, head + need, __ATOMIC_RELEASE);
  return 1;
}

// Takes samples from reader into the ring until the reader is empty or the next one
// does not fit (it then waits in pending). With big != NULL and an empty ring, a
// pending sample that does not fit goes into big: one larger than the buffer, or one
// larger than half of it whose record would have to wrap (the room before the offset
// where the last record ended is too short, and an empty ring never frees more). r->mu
// is held. Returns 0 or a negative DDS return code.
static dds_return_t ring_fill(struct rawcdr_ring *r, dds_entity_t reader, struct rawcdr_batch *big)
{
  for (;;) {
    if (r->pending != NULL) {
      int k = ring_put(r, r->pending, r->pending_publication, r->pending_time, r->pending_arrival);
      if (k == 1) {
        ddsi_serdata_unref(r->pending);
        r->pending = NULL;
        continue;
      }
      if (big != NULL && r->head == __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE)) {
        big->data[0] = r->pending;
        big->size[0] = ddsi_serdata_size(r->pending);
        big->publication[0] = r->pending_publication;
        big->source_time[0] = r->pending_time;
        big->arrival[0] = r->pending_arrival;
        big->n = 1;
        big->total = big->size[0];
        r->pending = NULL;
        continue; // the next samples go into the ring, after the big one
      }
      __atomic_store_n(&r->stalled, 1, __ATOMIC_RELEASE);
      return 0;
    }
    if (big != NULL && big->n > 0) {
      // A big sample is out: nothing newer may overtake it through the ring before
      // the caller has delivered it.
      return 0;
    }
    struct ddsi_serdata *sd = NULL;
    dds_sample_info_t si;
    dds_return_t n = dds_takecdr(reader, &sd, 1, &si, DDS_ANY_STATE);
    if (n < 0)
      return n;
    if (n == 0) {
      __atomic_store_n(&r->stalled, 0, __ATOMIC_RELEASE);
      return 0;
    }
    if (!si.valid_data) {
      ddsi_serdata_unref(sd);
      continue;
    }
    r->pending = sd;
    r->pending_publication = si.publication_handle;
    r->pending_time = si.source_timestamp;
    r->pending_arrival = monotonic_ns();
  }
}

// Adds 1 to the eventfd fd. It fails only with EAGAIN when the counter is about to
// overflow: the waiting goroutine has been woken already.
static void signal_fd(int fd)
{
  const uint64_t one = 1;
  ssize_t w = write(fd, &one, sizeof(one));
  (void) w;
}

// Wakes the ring's goroutine unless a signal it has not taken yet is pending: the
// goroutine exchanges signalled for 0 before it empties the ring, so the samples put
// before this exchange are either seen by that emptying or signalled anew. The
// exchange is sequentially consistent, like the goroutine's (Go's atomics).
static void signal_ring(struct rawcdr_ring *r)
{
  if (__atomic_exchange_n(&r->signalled, 1u, __ATOMIC_SEQ_CST) == 0) {
    __atomic_fetch_add(&r->status->signals, 1, __ATOMIC_RELAXED);
    signal_fd(r->fd);
  }
}

// Runs on a Cyclone thread for every sample delivered to the reader (or in a local
// writer's thread): takes what the reader holds into the ring and wakes the goroutine.
static void on_data_available(dds_entity_t reader, void *arg)
{
  struct rawcdr_ring *r = arg;
  pthread_mutex_lock(&r->mu);
  dds_return_t rc = ring_fill(r, reader, NULL);
  if (rc < 0)
    __atomic_store_n(&r->err, rc, __ATOMIC_RELEASE);
  const int wake = !__atomic_load_n(&r->deferred, __ATOMIC_RELAXED) || r->due || rc < 0 ||
                   __atomic_load_n(&r->stalled, __ATOMIC_RELAXED);
  r->due = 0;
  pthread_mutex_unlock(&r->mu);
  if (wake)
    signal_ring(r); // also when stalled or failed: the goroutine resumes or reports
}

void rawcdr_ring_defer(struct rawcdr_ring *r, int on, const struct rawcdr_wake *w)
{
  pthread_mutex_lock(&r->mu);
  memset(&r->wake, 0, sizeof(r->wake));
  if (on && w != NULL)
    r->wake = *w;
  r->keylen = 0;
  __atomic_store_n(&r->haskey, 0u, __ATOMIC_RELEASE);
  __atomic_store_n(&r->deferred, on ? 1u : 0u, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&r->mu);
}

void rawcdr_sync(void) {}

static void on_publication_matched(dds_entity_t writer, const dds_publication_matched_status_t status, void *arg)
{
  (void) writer;
  struct rawcdr_status *s = arg;
  // Sequentially consistent, as Go's atomics are: MatchChanges stores notify_fd and then
  // its caller loads matched, so either this load sees the descriptor or that load
  // sees this count (release and acquire would let both see the old values).
  __atomic_store_n(&s->matched, (int32_t) status.current_count, __ATOMIC_SEQ_CST);
  int fd = __atomic_load_n(&s->notify_fd, __ATOMIC_SEQ_CST);
  if (fd >= 0)
    signal_fd(fd);
}

// A reader was refused for incompatible QoS. Stores as on_publication_matched does, so
// that either Participant.OnOfferedIncompatibleQoS sees this total after storing the
// descriptor or this load sees the descriptor.
static void on_offered_incompatible_qos(dds_entity_t writer, const dds_offered_incompatible_qos_status_t status, void *arg)
{
  (void) writer;
  struct rawcdr_status *s = arg;
  __atomic_store_n(&s->incompatible_policy, (int32_t) status.last_policy_id, __ATOMIC_SEQ_CST);
  __atomic_store_n(&s->incompatible, status.total_count, __ATOMIC_SEQ_CST);
  int fd = __atomic_load_n(&s->incompatible_fd, __ATOMIC_SEQ_CST);
  if (fd >= 0)
    signal_fd(fd);
}

dds_listener_t *rawcdr_matched_listener(struct rawcdr_status *s)
{
  dds_listener_t *l = dds_create_listener(s);
  if (l != NULL) {
    dds_lset_publication_matched(l, on_publication_matched);
    dds_lset_offered_incompatible_qos(l, on_offered_incompatible_qos);
  }
  return l;
}

static void on_subscription_matched(dds_entity_t reader, const dds_subscription_matched_status_t status, void *arg)
{
  (void) reader;
  const struct rawcdr_ring *r = arg;
  __atomic_store_n(&r->status->matched, (int32_t) status.current_count, __ATOMIC_RELEASE);
}

static void on_requested_incompatible_qos(dds_entity_t reader, const dds_requested_incompatible_qos_status_t status, void *arg)
{
  (void) reader;
  struct rawcdr_ring *r = arg;
  __atomic_store_n(&r->status->incompatible_policy, (int32_t) status.last_policy_id, __ATOMIC_RELAXED);
  __atomic_store_n(&r->status->incompatible, status.total_count, __ATOMIC_RELEASE);
  signal_ring(r); // the goroutine reports it (Reader.OnIncompatibleQoS)
}

dds_listener_t *rawcdr_ring_listener(struct rawcdr_ring *r)
{
  dds_listener_t *l = dds_create_listener(r);
  if (l != NULL) {
    dds_lset_data_available(l, on_data_available);
    dds_lset_subscription_matched(l, on_subscription_matched);
    dds_lset_requested_incompatible_qos(l, on_requested_incompatible_qos);
  }
  return l;
}

dds_return_t rawcdr_ring_resume(struct rawcdr_ring *r, dds_entity_t reader, struct rawcdr_batch *big)
{
  big->n = 0;
  big->total = 0;
  pthread_mutex_lock(&r->mu);
  dds_return_t rc = ring_fill(r, reader, big);
  pthread_mutex_unlock(&r->mu);
  return rc;
}

void rawcdr_copyout(struct rawcdr_batch *b, void *dst)
{
  unsigned char *p = dst;
  for (int32_t i = 0; i < b->n; i++) {
    ddsi_serdata_to_ser(b->data[i], 0, b->size[i], p);
    p += b->size[i];
    ddsi_serdata_unref(b->data[i]);
  }
  b->n = 0;
  b->total = 0;
}

void rawcdr_release(struct rawcdr_batch *b)
{
  for (int32_t i = 0; i < b->n; i++)
    ddsi_serdata_unref(b->data[i]);
  b->n = 0;
  b->total = 0;
}

void rawcdr_qos_get(const dds_qos_t *q, struct rawcdr_qos *out)
{
  memset(out, 0, sizeof(*out));
  out->reliability = out->durability = out->history = out->ignorelocal = -1;
  out->deadline = out->lifespan = out->lease = DDS_INFINITY;
  if (q == NULL)
    return;
  dds_reliability_kind_t rk;
  dds_duration_t blocking;
  if (dds_qget_reliability(q, &rk, &blocking))
    out->reliability = (int32_t) rk;
  dds_durability_kind_t dk;
  if (dds_qget_durability(q, &dk))
    out->durability = (int32_t) dk;
  dds_history_kind_t hk;
  int32_t depth;
  if (dds_qget_history(q, &hk, &depth)) {
    out->history = (int32_t) hk;
    out->depth = depth;
  }
  dds_duration_t d;
  if (dds_qget_deadline(q, &d))
    out->deadline = d;
  if (dds_qget_lifespan(q, &d))
    out->lifespan = d;
  dds_liveliness_kind_t lk;
  if (dds_qget_liveliness(q, &lk, &d))
    out->lease = d;
  dds_ignorelocal_kind_t ik;
  if (dds_qget_ignorelocal(q, &ik))
    out->ignorelocal = (int32_t) ik;
  void *ud = NULL;
  size_t udlen = 0;
  if (dds_qget_userdata(q, &ud, &udlen)) {
    out->userdata = ud;
    out->userdata_len = udlen;
  }
}

dds_return_t rawcdr_read_builtin(dds_entity_t reader, void **bufs, dds_sample_info_t *si, uint32_t max)
{
  for (uint32_t i = 0; i < max; i++)
    bufs[i] = NULL;
  return dds_read_mask(reader, bufs, si, max, max, DDS_ANY_SAMPLE_STATE | DDS_ANY_VIEW_STATE | DDS_ALIVE_INSTANCE_STATE);
}
