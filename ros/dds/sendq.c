// The send queue (rawcdr.h): writes queued by Go with atomic stores, made by a thread
// of their own.

#define _GNU_SOURCE // pthread_setname_np

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
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

// Reads a nonblocking descriptor's 8-byte count; true if there was one (not EAGAIN).
static int sendq_read(int fd)
{
  uint64_t n;
  ssize_t r;
  while ((r = read(fd, &n, sizeof(n))) < 0 && errno == EINTR)
    ;
  return r == (ssize_t) sizeof(n);
}

// The queue's thread; the protocol is in rawcdr.h (struct rawcdr_sendq).
static void *sendq_main(void *arg)
{
  struct rawcdr_sendq *q = arg;
  static const struct itimerspec disarm; // all zero
  for (;;) {
    pthread_mutex_lock(&q->mu);
    sendq_consume(q);
    pthread_mutex_unlock(&q->mu);
    // The pass took every lazy record whose deadline was stored before this exchange;
    // a disarm that beats a producer's arming is ordered after that producer's push,
    // which the re-check below then sees.
    if (__atomic_exchange_n(&q->lazy_deadline, 0, __ATOMIC_SEQ_CST) != 0)
      timerfd_settime(q->tfd, 0, &disarm, NULL);
    __atomic_store_n(&q->sleeping, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&q->head, __ATOMIC_SEQ_CST) != __atomic_load_n(&q->tail, __ATOMIC_ACQUIRE) &&
        __atomic_exchange_n(&q->sleeping, 0, __ATOMIC_SEQ_CST) == 1)
      continue; // queued meanwhile, and no producer has signalled: go on without
    struct pollfd p[2] = {{.fd = q->fd, .events = POLLIN}, {.fd = q->tfd, .events = POLLIN}};
    while (poll(p, 2, -1) < 0 && errno == EINTR)
      ;
    // A timer's expiry passes through no producer's exchange: awake now, so that
    // producers need not signal. Stored before the counts, so a test that sees
    // sleeping still 1 and the counts unchanged knows the thread has not woken.
    __atomic_store_n(&q->sleeping, 0, __ATOMIC_SEQ_CST);
    if (sendq_read(q->fd))
      __atomic_fetch_add(&q->wakes_event, 1, __ATOMIC_RELAXED);
    if (sendq_read(q->tfd))
      __atomic_fetch_add(&q->wakes_timer, 1, __ATOMIC_RELAXED);
  }
  return NULL;
}

struct rawcdr_sendq *rawcdr_sendq_start(void)
{
  struct rawcdr_sendq *q = calloc(1, sizeof(*q));
  if (q == NULL)
    return NULL;
  if ((q->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) < 0) {
    int e = errno;
    free(q);
    errno = e;
    return NULL;
  }
  if ((q->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC)) < 0) {
    int e = errno;
    close(q->fd);
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
    close(q->tfd);
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

int64_t rawcdr_sendq_timer_left(struct rawcdr_sendq *q)
{
  struct itimerspec v;
  if (timerfd_gettime(q->tfd, &v) < 0)
    return -1;
  return (int64_t) v.it_value.tv_sec * 1000000000 + v.it_value.tv_nsec;
}
