// The send queue (rawcdr.h): writes queued by Go with atomic stores, made by a thread
// of their own.

#define _GNU_SOURCE // pthread_setname_np

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "rawcdr.h"

#define SEND_HDR ((uint64_t) sizeof(struct rawcdr_sendrec))

static uint64_t send_align8(uint64_t x) { return (x + 7u) & ~(uint64_t) 7u; }

// Makes every record up to head, in order. Called with q->mu held.
static void sendq_consume(struct rawcdr_sendq *q)
{
  const uint64_t mask = RAWCDR_SENDQ_BYTES - 1;
  uint64_t tail = q->tail;
  const uint64_t head = __atomic_load_n(&q->head, __ATOMIC_SEQ_CST);
  while (tail != head) {
    const uint64_t off = tail & mask;
    if (RAWCDR_SENDQ_BYTES - off < SEND_HDR) { // too little room for a header: wrapped
      tail += RAWCDR_SENDQ_BYTES - off;
      continue;
    }
    const struct rawcdr_sendrec *r = (const struct rawcdr_sendrec *) (q->buf + off);
    if (r->flags & RAWCDR_SEND_WRAP) {
      tail += RAWCDR_SENDQ_BYTES - off;
      continue;
    }
    if (!(r->flags & RAWCDR_SEND_NOSAMPLE)) {
      dds_return_t rc = rawcdr_write(r->writer, q->buf + off + SEND_HDR, r->size);
      if (rc < 0 && r->status != NULL) {
        __atomic_store_n(&r->status->write_rc, rc, __ATOMIC_RELAXED);
        __atomic_fetch_add(&r->status->write_errors, 1, __ATOMIC_RELEASE);
      }
    } else {
      dds_write_flush(r->writer);
    }
    tail += send_align8(SEND_HDR + r->size);
  }
  __atomic_store_n(&q->tail, tail, __ATOMIC_RELEASE);
}

static void *sendq_main(void *arg)
{
  struct rawcdr_sendq *q = arg;
  for (;;) {
    pthread_mutex_lock(&q->mu);
    sendq_consume(q);
    pthread_mutex_unlock(&q->mu);
    __atomic_store_n(&q->sleeping, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&q->head, __ATOMIC_SEQ_CST) != __atomic_load_n(&q->tail, __ATOMIC_ACQUIRE) &&
        __atomic_exchange_n(&q->sleeping, 0, __ATOMIC_SEQ_CST) == 1)
      continue; // queued meanwhile, and no producer has signalled: go on without
    uint64_t n;
    while (read(q->fd, &n, sizeof(n)) < 0 && errno == EINTR)
      ;
  }
  return NULL;
}

struct rawcdr_sendq *rawcdr_sendq_start(void)
{
  struct rawcdr_sendq *q = calloc(1, sizeof(*q));
  if (q == NULL)
    return NULL;
  if ((q->fd = eventfd(0, EFD_CLOEXEC)) < 0) {
    int e = errno;
    free(q);
    errno = e;
    return NULL;
  }
  pthread_mutex_init(&q->mu, NULL);
  // The thread starts with every signal blocked (it inherits the mask), so Go's
  // signal handlers run on Go's threads only.
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_t t;
  int rc = pthread_create(&t, &attr, sendq_main, q);
  pthread_attr_destroy(&attr);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (rc != 0) {
    close(q->fd);
    pthread_mutex_destroy(&q->mu);
    free(q);
    errno = rc;
    return NULL;
  }
#if defined(__GLIBC__)
  pthread_setname_np(t, "dds-sendq");
#endif
  return q;
}

void rawcdr_sendq_drain(struct rawcdr_sendq *q)
{
  pthread_mutex_lock(&q->mu);
  sendq_consume(q);
  pthread_mutex_unlock(&q->mu);
}

dds_return_t rawcdr_sendq_drain_write(struct rawcdr_sendq *q, dds_entity_t writer, const void *data, uint32_t len, int flush)
{
  rawcdr_sendq_drain(q);
  return rawcdr_write_flush(writer, data, len, flush);
}
