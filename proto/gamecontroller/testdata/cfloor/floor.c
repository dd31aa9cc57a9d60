// floor.c: the C floor of a GameController control packet decoder, for
// BenchmarkDecodeFloor. It does what a C robot does with a datagram, and no more:
// check length, header and version, memcpy into the packed struct of the
// GameController's header for the layout, and apply the same range checks as the Go
// decoder (state, game phase, set play, first half, stopped, every penalty, the HL
// goalkeeper flag) with lookup tables.
//
// usage: floor <spl15|hsl20|hl688> <packet file> <iterations>
// prints: <CPU ns per decode> <checksum>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#pragma pack(push, 1)
struct spl_robot { uint8_t penalty, secsTillUnpenalised; };
struct spl_team {
  uint8_t teamNumber, fieldPlayerColour, goalkeeperColour, goalkeeper, score, penaltyShot;
  uint16_t singleShots, messageBudget;
  struct spl_robot players[20];
};
struct spl_data {  // SPL v15 (118 bytes)
  char header[4];
  uint8_t version, packetNumber, playersPerTeam, competitionPhase, competitionType,
      gamePhase, state, setPlay, firstHalf, kickingTeam;
  int16_t secsRemaining, secondaryTime;
  struct spl_team teams[2];
};
struct hsl_robot { uint8_t penalty, secsTillUnpenalised, cautions; };
struct hsl_team {
  uint8_t teamNumber, fieldPlayerColour, goalkeeperColour, goalkeeper, score, penaltyShot;
  uint16_t singleShots, messageBudget;
  struct hsl_robot players[20];
};
struct hsl_data {  // HSL v20 (158 bytes)
  char header[4];
  uint8_t version, packetNumber, playersPerTeam, competitionType, stopped,
      gamePhase, state, setPlay, firstHalf, kickingTeam;
  int16_t secsRemaining, secondaryTime;
  struct hsl_team teams[2];
};
struct hl_robot { uint8_t penalty, secsTillUnpenalised, numberOfWarnings, yellowCardCount, redCardCount, goalKeeper; };
struct hl_team {
  uint8_t teamNumber, teamColour, score, penaltyShot;
  uint16_t singleShots;
  uint8_t coachSequence, coachMessage[253];
  struct hl_robot coach, players[11];
};
struct hl_data {  // HL v12 (688 bytes)
  char header[4];
  uint16_t version;
  uint8_t packetNumber, playersPerTeam, gameType, state, firstHalf, kickOffTeam,
      secondaryState, secondaryStateInfo[4], dropInTeam;
  uint16_t dropInTime, secsRemaining, secondaryTime;
  struct hl_team teams[2];
};
#pragma pack(pop)

_Static_assert(sizeof(struct spl_data) == 118, "spl v15 size");
_Static_assert(sizeof(struct hsl_data) == 158, "hsl v20 size");
_Static_assert(sizeof(struct hl_data) == 688, "hl v12 size");

static uint8_t pen_spl15[256], pen_hsl20[256], pen_hl[256];

static void tables(void)
{
  for (int p = 0; p <= 10; p++) pen_spl15[p] = 1;
  pen_spl15[14] = pen_spl15[15] = 1;
  for (int p = 0; p <= 13; p++) pen_hsl20[p] = 1;
  for (int p = 0; p <= 9; p++) pen_hl[p] = 1;
  pen_hl[14] = pen_hl[15] = pen_hl[255] = 1;
  for (int p = 30; p <= 35; p++) pen_hl[p] = 1;
}

static int header_ok(const uint8_t *b)
{
  return memcmp(b, "RGme", 4) == 0 || memcmp(b, "RGTD", 4) == 0;
}

static int decode_spl15(const uint8_t *b, size_t n, struct spl_data *d)
{
  if (n != sizeof(*d) || !header_ok(b) || b[4] != 15) return -1;
  memcpy(d, b, sizeof(*d));
  if (d->gamePhase > 3 || d->state > 4 || d->setPlay > 5 || d->firstHalf > 1) return -2;
  for (int t = 0; t < 2; t++)
    for (int i = 0; i < 20; i++)
      if (!pen_spl15[d->teams[t].players[i].penalty]) return -3;
  return 0;
}

static int decode_hsl20(const uint8_t *b, size_t n, struct hsl_data *d)
{
  if (n != sizeof(*d) || !header_ok(b) || b[4] != 20) return -1;
  memcpy(d, b, sizeof(*d));
  if (d->stopped > 1 || d->gamePhase > 3 || d->state > 4 || d->setPlay > 6 || d->firstHalf > 1) return -2;
  for (int t = 0; t < 2; t++)
    for (int i = 0; i < 20; i++)
      if (!pen_hsl20[d->teams[t].players[i].penalty]) return -3;
  return 0;
}

static int decode_hl688(const uint8_t *b, size_t n, struct hl_data *d)
{
  if (n != sizeof(*d) || !header_ok(b) || b[4] != 12 || b[5] != 0) return -1;
  memcpy(d, b, sizeof(*d));
  if (d->state > 4 || d->firstHalf > 1 || d->secondaryState > 9) return -2;
  for (int t = 0; t < 2; t++) {
    if (!pen_hl[d->teams[t].coach.penalty] || d->teams[t].coach.goalKeeper > 1) return -3;
    for (int i = 0; i < 11; i++)
      if (!pen_hl[d->teams[t].players[i].penalty] || d->teams[t].players[i].goalKeeper > 1) return -3;
  }
  return 0;
}

static double cpu_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
  if (argc != 4) {
    fprintf(stderr, "usage: floor <spl15|hsl20|hl688> <packet file> <iterations>\n");
    return 2;
  }
  static uint8_t pkt[1024];
  FILE *f = fopen(argv[2], "rb");
  if (f == NULL) { perror(argv[2]); return 2; }
  size_t n = fread(pkt, 1, sizeof(pkt), f);
  fclose(f);
  long iters = atol(argv[3]);
  tables();
  static union { struct spl_data spl; struct hsl_data hsl; struct hl_data hl; } out;
  int (*decode)(const uint8_t *, size_t, void *);
  if (strcmp(argv[1], "spl15") == 0) decode = (int (*)(const uint8_t *, size_t, void *)) decode_spl15;
  else if (strcmp(argv[1], "hsl20") == 0) decode = (int (*)(const uint8_t *, size_t, void *)) decode_hsl20;
  else if (strcmp(argv[1], "hl688") == 0) decode = (int (*)(const uint8_t *, size_t, void *)) decode_hl688;
  else { fprintf(stderr, "unknown layout %s\n", argv[1]); return 2; }
  if (decode(pkt, n, &out) != 0) { fprintf(stderr, "packet does not decode\n"); return 1; }
  unsigned long sum = 0;
  double t0 = cpu_ns();
  for (long i = 0; i < iters; i++) {
    // The barrier makes the compiler assume pkt changed, so every iteration decodes.
    __asm__ volatile("" : : "r"(pkt) : "memory");
    sum += (unsigned long) decode(pkt, n, &out) + out.spl.packetNumber;
  }
  double t1 = cpu_ns();
  printf("%.2f %lu\n", (t1 - t0) / (double) iters, sum);
  return 0;
}
