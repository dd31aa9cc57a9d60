// The C floor of BenchmarkTeamOfSix (node/bench_cfloor_test.go): the six-robot traffic
// handled by a C program on the same Cyclone DDS and the same raw-CDR sertype
// (ros/dds/rawcdr.c), doing nothing but the I/O the node cannot avoid:
//
//   - one participant, three readers of the robot's inputs whose samples are taken in
//     Cyclone's data-available listener, on the thread that delivers them (Cyclone's
//     receive thread for a peer's samples), and copied out of Cyclone's buffers;
//   - one epoll thread (the main thread) for the team and GameController sockets, a
//     15 Hz timerfd and a signalfd: a TeamInfo is written for every datagram on the team
//     port and a GCInfo for every one on the GameController port (both samples fixed,
//     serialised by the benchmark), and every tick sends a 109-byte datagram (a dnet
//     packet's size) to each teammate.
//
// It speaks the benchmark child's protocol: "ready" on stdout once everything is
// created; on SIGUSR1 or SIGUSR2 (a measurement's end or start) a line
// "stats <cpu ns> 0 0 0 <voluntary context switches>" (all threads, getrusage); SIGTERM
// ends it.
//
// Usage: team <domain> <team port> <gc port> <peer ports, comma-separated>
//             <TeamInfo topic> <type> <hex CDR> <GCInfo topic> <type> <hex CDR>
//             <input topic> <type> [<input topic> <type> ...]
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "dds/dds.h"
#include "dds/ddsi/ddsi_serdata.h"
#include "rawcdr.h"

#define MAX_INPUTS 8
#define MAX_PEERS 16
#define BATCH 32
#define DGRAM 1500

static void die(const char *what, int rc)
{
  fprintf(stderr, "cfloor: %s: %d (%s)\n", what, rc, rc < 0 ? dds_strretcode(rc) : strerror(errno));
  exit(1);
}

// Copies a sample out of Cyclone's buffers, as the node's reader does.
static unsigned char sample_buf[64 * 1024];

static void on_data_available(dds_entity_t reader, void *arg)
{
  (void) arg;
  for (;;) {
    struct ddsi_serdata *sd = NULL;
    dds_sample_info_t si;
    dds_return_t n = dds_takecdr(reader, &sd, 1, &si, DDS_ANY_STATE);
    if (n <= 0)
      return;
    if (si.valid_data) {
      uint32_t size = ddsi_serdata_size(sd);
      if (size <= sizeof(sample_buf))
        ddsi_serdata_to_ser(sd, 0, size, sample_buf);
    }
    ddsi_serdata_unref(sd);
  }
}

static size_t unhex(const char *s, unsigned char **out)
{
  size_t n = strlen(s) / 2;
  unsigned char *b = malloc(n > 0 ? n : 1);
  for (size_t i = 0; i < n; i++) {
    unsigned v;
    if (sscanf(s + 2 * i, "%2x", &v) != 1)
      die("bad hex sample", 0);
    b[i] = (unsigned char) v;
  }
  *out = b;
  return n;
}

static int udp_socket(uint16_t port)
{
  int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0)
    die("socket", 0);
  struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(fd, (struct sockaddr *) &a, sizeof(a)) != 0)
    die("bind", 0);
  return fd;
}

static dds_entity_t writer(dds_entity_t pp, const char *topic, const char *type)
{
  dds_qos_t *q = dds_create_qos();
  dds_qset_reliability(q, DDS_RELIABILITY_RELIABLE, DDS_SECS(1));
  dds_qset_durability(q, DDS_DURABILITY_VOLATILE);
  dds_qset_history(q, DDS_HISTORY_KEEP_LAST, 10);
  dds_entity_t tp = rawcdr_create_topic(pp, topic, type, q);
  if (tp < 0)
    die(topic, tp);
  dds_entity_t w = dds_create_writer(pp, tp, q, NULL);
  dds_delete_qos(q);
  if (w < 0)
    die(topic, w);
  return w;
}

// Reads every datagram queued on fd, one recvmmsg per BATCH, and writes sample to w
// once for each.
static void republish(int fd, dds_entity_t w, const unsigned char *sample, uint32_t len)
{
  static unsigned char bufs[BATCH][DGRAM];
  static struct iovec iov[BATCH];
  static struct mmsghdr msgs[BATCH];
  static struct sockaddr_in src[BATCH];
  for (;;) {
    for (int i = 0; i < BATCH; i++) {
      iov[i] = (struct iovec){ .iov_base = bufs[i], .iov_len = DGRAM };
      msgs[i].msg_hdr = (struct msghdr){ .msg_name = &src[i], .msg_namelen = sizeof(src[i]), .msg_iov = &iov[i], .msg_iovlen = 1 };
    }
    int n = recvmmsg(fd, msgs, BATCH, MSG_DONTWAIT, NULL);
    if (n <= 0)
      return;
    for (int i = 0; i < n; i++)
      rawcdr_write(w, sample, len);
    if (n < BATCH)
      return;
  }
}

int main(int argc, char **argv)
{
  if (argc < 13 || (argc - 11) % 2 != 0 || (argc - 11) / 2 > MAX_INPUTS) {
    fprintf(stderr, "usage: %s domain team-port gc-port peer-ports ti-topic ti-type ti-hex gi-topic gi-type gi-hex (input-topic input-type)...\n", argv[0]);
    return 2;
  }
  const dds_domainid_t domain = (dds_domainid_t) atoi(argv[1]);
  const uint16_t team_port = (uint16_t) atoi(argv[2]), gc_port = (uint16_t) atoi(argv[3]);
  struct sockaddr_in peers[MAX_PEERS];
  int npeers = 0;
  for (char *s = strtok(argv[4], ","); s != NULL && npeers < MAX_PEERS; s = strtok(NULL, ",")) {
    peers[npeers] = (struct sockaddr_in){ .sin_family = AF_INET, .sin_port = htons((uint16_t) atoi(s)) };
    peers[npeers].sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    npeers++;
  }
  unsigned char *ti_sample, *gi_sample;
  const uint32_t ti_len = (uint32_t) unhex(argv[7], &ti_sample);
  const uint32_t gi_len = (uint32_t) unhex(argv[10], &gi_sample);

  // Signals come through the epoll loop; block them in every thread (Cyclone's threads
  // inherit the mask).
  sigset_t sigs;
  sigemptyset(&sigs);
  sigaddset(&sigs, SIGUSR1);
  sigaddset(&sigs, SIGUSR2);
  sigaddset(&sigs, SIGTERM);
  sigaddset(&sigs, SIGINT);
  pthread_sigmask(SIG_BLOCK, &sigs, NULL);
  int sfd = signalfd(-1, &sigs, SFD_NONBLOCK | SFD_CLOEXEC);
  if (sfd < 0)
    die("signalfd", 0);

  dds_entity_t pp = dds_create_participant(domain, NULL, NULL);
  if (pp < 0)
    die("participant", pp);
  dds_entity_t ti = writer(pp, argv[5], argv[6]);
  dds_entity_t gi = writer(pp, argv[8], argv[9]);
  dds_listener_t *l = dds_create_listener(NULL);
  dds_lset_data_available(l, on_data_available);
  dds_qos_t *rq = dds_create_qos();
  dds_qset_reliability(rq, DDS_RELIABILITY_BEST_EFFORT, 0);
  dds_qset_history(rq, DDS_HISTORY_KEEP_LAST, 10);
  for (int i = 11; i + 1 < argc; i += 2) {
    dds_entity_t tp = rawcdr_create_topic(pp, argv[i], argv[i + 1], rq);
    if (tp < 0)
      die(argv[i], tp);
    dds_entity_t r = dds_create_reader(pp, tp, rq, l);
    if (r < 0)
      die(argv[i], r);
  }
  dds_delete_qos(rq);
  dds_delete_listener(l);

  int team = udp_socket(team_port), gc = udp_socket(gc_port);
  int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  const long period = 1000000000L / 15;
  struct itimerspec its = { .it_interval = { 0, period }, .it_value = { 0, period } };
  if (tfd < 0 || timerfd_settime(tfd, 0, &its, NULL) != 0)
    die("timerfd", 0);
  int ep = epoll_create1(EPOLL_CLOEXEC);
  int fds[] = { team, gc, tfd, sfd };
  for (int i = 0; i < 4; i++) {
    struct epoll_event ev = { .events = EPOLLIN, .data = { .fd = fds[i] } };
    if (epoll_ctl(ep, EPOLL_CTL_ADD, fds[i], &ev) != 0)
      die("epoll_ctl", 0);
  }
  printf("ready\n");
  fflush(stdout);

  unsigned char out[109] = { 0 };
  for (;;) {
    struct epoll_event evs[4];
    int n = epoll_wait(ep, evs, 4, -1);
    if (n < 0 && errno != EINTR)
      die("epoll_wait", 0);
    for (int i = 0; i < n; i++) {
      const int fd = evs[i].data.fd;
      if (fd == team) {
        republish(team, ti, ti_sample, ti_len);
      } else if (fd == gc) {
        republish(gc, gi, gi_sample, gi_len);
      } else if (fd == tfd) {
        uint64_t ticks;
        if (read(tfd, &ticks, sizeof(ticks)) == sizeof(ticks))
          for (int p = 0; p < npeers; p++)
            sendto(team, out, sizeof(out), MSG_DONTWAIT, (struct sockaddr *) &peers[p], sizeof(peers[p]));
      } else if (fd == sfd) {
        struct signalfd_siginfo si;
        while (read(sfd, &si, sizeof(si)) == sizeof(si)) {
          if (si.ssi_signo != SIGUSR1 && si.ssi_signo != SIGUSR2) {
            dds_delete(pp);
            return 0;
          }
          struct rusage ru;
          getrusage(RUSAGE_SELF, &ru);
          const long long cpu = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
                                (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL;
          printf("stats %lld 0 0 0 %ld\n", cpu, ru.ru_nvcsw);
          fflush(stdout);
        }
      }
    }
  }
}
