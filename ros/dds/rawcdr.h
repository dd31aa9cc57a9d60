// Opaque-CDR sertype for Cyclone DDS 0.10.x: Cyclone moves serialised samples
// (4-byte encapsulation header + body) without knowing their type. See doc.go.
#ifndef DNETWORK_RAWCDR_H
#define DNETWORK_RAWCDR_H

#include <stdint.h>
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

// Returns a listener whose data-available callback adds 1 to the eventfd fd, so a
// reader created with it wakes whoever polls fd (Go's netpoller) instead of holding a
// thread blocked in a waitset. Cyclone copies the listener into each entity it is
// given to; delete it with dds_delete_listener. fd must outlive every such entity.
dds_listener_t *rawcdr_wake_listener(int fd);

// Up to RAWCDR_BATCH samples taken by one rawcdr_take call.
#define RAWCDR_BATCH 32

struct rawcdr_batch {
  int32_t n;                                // valid entries in the arrays below
  uint64_t total;                           // sum of size[i]
  struct ddsi_serdata *data[RAWCDR_BATCH];  // owned references, released by rawcdr_copyout
  uint32_t size[RAWCDR_BATCH];              // serialised size incl. encapsulation header
  dds_instance_handle_t publication[RAWCDR_BATCH];
  int64_t source_time[RAWCDR_BATCH];        // ns since the Unix epoch
};

// Takes up to RAWCDR_BATCH samples from reader, dropping invalid (dispose/unregister)
// samples. Returns the number kept (>= 0) or a negative DDS return code.
dds_return_t rawcdr_take(dds_entity_t reader, struct rawcdr_batch *b);

// Copies all samples of b back to back into dst (capacity b->total) and releases them.
void rawcdr_copyout(struct rawcdr_batch *b, void *dst);

// Releases all samples of b without copying.
void rawcdr_release(struct rawcdr_batch *b);

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
