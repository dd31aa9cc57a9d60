// Wake rules of deferred readers (rawcdr.h): a key read out of a sample's CDR, on
// Cyclone's thread, that says whether the sample must wake the reader's goroutine now.
#include <math.h>
#include <string.h>
#include "rawcdr.h"

// Within this fraction of a limit a class is uncertain: Go's and C's hypot may round
// differently in the last place.
#define WAKE_BAND 1e-9

static int read_f64(const unsigned char *b, uint32_t len, uint32_t pos, double *v)
{
  if (pos > len || len - pos < 8)
    return 0;
  memcpy(v, b + pos, 8); // the body is little-endian, as this machine
  return 1;
}

int rawcdr_wake_eval(const struct rawcdr_wake *w, const unsigned char *data, uint32_t len, unsigned char *key, uint32_t *keylen)
{
  *keylen = 0;
  // XCDR1 little-endian only (what ROS 2 writes on these machines); anything else wakes.
  if (len < 4 || data[0] != 0x00 || data[1] != 0x01)
    return 0;
  const unsigned char *b = data + 4;
  const uint32_t n = len - 4;
  uint32_t pos = 0, k = 0;
  int certain = 1;
  for (uint32_t i = 0; i < w->nsteps && i < RAWCDR_WAKE_STEPS; i++) {
    const struct rawcdr_wake_step *s = &w->step[i];
    switch (s->op) {
    case RAWCDR_WAKE_SKIP:
      if (s->n > n - pos)
        return 0;
      pos += s->n;
      break;
    case RAWCDR_WAKE_ALIGN:
      if (s->n == 0 || (s->n & (s->n - 1)) != 0 || s->n > 8)
        return 0;
      pos = (pos + s->n - 1) & ~(s->n - 1);
      if (pos > n)
        return 0;
      break;
    case RAWCDR_WAKE_STRING: {
      pos = (pos + 3u) & ~3u;
      if (pos > n || n - pos < 4)
        return 0;
      uint32_t l;
      memcpy(&l, b + pos, 4);
      pos += 4;
      if (l > n - pos)
        return 0;
      pos += l;
      break;
    }
    case RAWCDR_WAKE_BYTE:
      if (pos >= n || k >= RAWCDR_WAKE_KEY)
        return 0;
      key[k++] = b[pos++];
      break;
    case RAWCDR_WAKE_CLASS2: {
      double x, y;
      pos = (pos + 7u) & ~7u;
      if (k == 0 || k >= RAWCDR_WAKE_KEY || !read_f64(b, n, pos, &x) || !read_f64(b, n, pos + 8, &y))
        return 0;
      pos += 16;
      if (key[k - 1] == 0) {
        key[k++] = 0;
        break;
      }
      const double v = hypot(x, y) / s->div;
      unsigned char c = 3;
      if (v < s->lim[0])
        c = 1;
      else if (v < s->lim[1])
        c = 2;
      for (int j = 0; j < 2; j++)
        if (fabs(v - s->lim[j]) <= WAKE_BAND * fabs(s->lim[j]))
          certain = 0;
      key[k++] = c;
      break;
    }
    default:
      return 0;
    }
  }
  *keylen = k;
  return certain;
}
