/* cells.c -- a result cell's hash, equal for values Python compares equal.
 *
 * The evaluators people compare with (BIRD's, Spider's) fetch rows through
 * a Python driver and compare them as tuples in sets: what decides EX is
 * Python's ==. So a cell hashes by the value the driver makes of it: SQLite's
 * sqlite3 module, psycopg2 for PostgreSQL, PyMySQL for MySQL.
 *
 *   numbers     int, float, Decimal (NUMERIC, DECIMAL, MySQL's division and
 *               SUM) and bool are one family: equal when their values are
 *               exactly equal (Python compares a Decimal with a float
 *               exactly: Decimal('0.1') != 0.1, Decimal('0.5') == 0.5). A
 *               value that is an integer in int64's range hashes as that
 *               integer, else one exactly a double as the double's bits,
 *               else as its canonical decimal digits. NaN equals nothing.
 *   text        by its bytes; bytes (BLOB, bytea) by theirs, apart from text.
 *   dates       date, datetime (naive), datetime (aware, by its instant),
 *               time, timedelta: each its own kind, by value.
 * A driver's value the Python evaluator would choke on (psycopg2's
 * memoryview and JSON objects are unhashable) is hashed as its text. */
#include "server.h"
#include "exec.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define K_INT 0x1111111111111111ULL
#define K_REAL 0x2222222222222222ULL
#define K_TEXT 0x7465787474657874ULL
#define K_BLOB 0x626c6f62626c6f62ULL
#define K_DECIMAL 0x646563696d616c21ULL
#define K_DATE 0x6461746564617465ULL
#define K_STAMP 0x7374616d70737461ULL
#define K_STAMPTZ 0x7374616d70747a21ULL
#define K_TIME 0x74696d6574696d65ULL
#define K_DURATION 0x6475726174696f6eULL
#define K_NULL 0x6e756c6c6e756c6cULL

uint64_t cell_hash_bytes(uint64_t seed, const void *data, size_t n) {
  const unsigned char *p = data;
  uint64_t h = seed ^ (0x9e3779b97f4a7c15ULL * (uint64_t)(n + 1));
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, p + i, 8);
    h = (h ^ mix64(w)) * 0x9e3779b97f4a7c15ULL;
  }
  uint64_t tail = 0;
  for (int k = 0; i < n; i++, k++) tail |= (uint64_t)p[i] << (8 * k);
  return mix64(h ^ tail);
}

uint64_t cell_hash_null(void) { return K_NULL; }
uint64_t cell_hash_int(long long v) { return mix64((uint64_t)v ^ K_INT); }
uint64_t cell_hash_text(const void *p, size_t n) { return cell_hash_bytes(K_TEXT, p, n); }
uint64_t cell_hash_blob(const void *p, size_t n) { return cell_hash_bytes(K_BLOB, p, n); }

uint64_t cell_hash_real(double x) {
  if (x != x) { /* NaN: equal to nothing, itself included */
    static _Atomic unsigned long long nans;
    return mix64(++nans ^ 0x6e616e6e616e6e61ULL);
  }
  if (x >= -9223372036854775808.0 && x < 9223372036854775808.0 && (double)(long long)x == x)
    return cell_hash_int((long long)x);
  if (x == 0) x = 0; /* -0.0 == 0.0 */
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  return mix64(bits ^ K_REAL);
}

/* A decimal numeral's value: canonical digits in d ("-123.45": no leading
 * zeros but one before a point, no trailing zeros after it, no point when
 * integral, "0" for zero), its count of digits after the point in *frac.
 * 0, or -1 when p is not a numeral. */
static int canonical_decimal(const char *p, size_t n, strbuf *d, int *frac) {
  size_t i = 0;
  int neg = 0;
  if (i < n && (p[i] == '+' || p[i] == '-')) neg = p[i++] == '-';
  char digits[160];
  size_t nd = 0;
  long point = -1, exp10 = 0;
  int any = 0;
  for (; i < n; i++) {
    char c = p[i];
    if (c >= '0' && c <= '9') {
      any = 1;
      if (nd < sizeof digits) digits[nd++] = c;
      else return -1;
    } else if (c == '.' && point < 0) {
      point = (long)nd;
    } else {
      break;
    }
  }
  if (!any) return -1;
  if (i < n && (p[i] == 'e' || p[i] == 'E')) {
    char *end;
    char tmp[32];
    size_t m = n - i - 1 < sizeof tmp - 1 ? n - i - 1 : sizeof tmp - 1;
    memcpy(tmp, p + i + 1, m);
    tmp[m] = '\0';
    exp10 = strtol(tmp, &end, 10);
    if (end == tmp || *end || exp10 > 1000 || exp10 < -1000) return -1;
    i = n;
  }
  while (i < n && (p[i] == ' ' || p[i] == '\t')) i++;
  if (i != n) return -1;
  if (point < 0) point = (long)nd;
  point += exp10; /* digits[0..point) before the point */
  /* the digits as integer part and fraction */
  strbuf ip = {0}, fp = {0};
  for (long k = point < 0 ? point : 0; k < point; k++) sb_putc(&ip, k >= 0 && k < (long)nd ? digits[k] : '0');
  for (long k = point; k < (long)nd; k++) sb_putc(&fp, k >= 0 ? digits[k] : '0');
  if (point < 0) { /* zeros between the point and the digits */
    strbuf z = {0};
    for (long k = point; k < 0; k++) sb_putc(&z, '0');
    sb_putn(&z, digits, nd);
    free(fp.buf);
    fp = z;
    free(ip.buf);
    ip = (strbuf){0};
  }
  const char *is = ip.buf ? ip.buf : "";
  size_t il = ip.len, fl = fp.len;
  while (il > 0 && *is == '0') is++, il--;
  while (fl > 0 && fp.buf[fl - 1] == '0') fl--;
  if (!il && !fl) neg = 0;
  if (neg) sb_putc(d, '-');
  if (il) sb_putn(d, is, il);
  else sb_putc(d, '0');
  if (fl) {
    sb_putc(d, '.');
    sb_putn(d, fp.buf, fl);
  }
  *frac = (int)fl;
  free(ip.buf);
  free(fp.buf);
  return 0;
}

/* A NUMERIC's hash and value: see the file's comment. */
static uint64_t hash_decimal(const char *p, size_t n, double *num) {
  char buf[64];
  size_t m = n < sizeof buf - 1 ? n : sizeof buf - 1;
  memcpy(buf, p, m);
  buf[m] = '\0';
  if (!strcasecmp(buf, "NaN")) {
    *num = NAN;
    return cell_hash_real(NAN);
  }
  if (!strcasecmp(buf, "Infinity") || !strcasecmp(buf, "-Infinity") || !strcasecmp(buf, "inf") ||
      !strcasecmp(buf, "-inf")) {
    *num = buf[0] == '-' ? -INFINITY : INFINITY;
    return cell_hash_real(*num);
  }
  strbuf d = {0};
  int frac = 0;
  if (canonical_decimal(p, n, &d, &frac)) { /* not a numeral: its text */
    free(d.buf);
    *num = NAN;
    return cell_hash_text(p, n);
  }
  char *c = d.buf;
  double x = strtod(c, NULL);
  *num = x;
  uint64_t h;
  if (frac == 0) {
    char *end;
    errno = 0;
    long long v = strtoll(c, &end, 10);
    if (!errno && !*end) h = cell_hash_int(v);
    else if (isfinite(x) && fabs(x) >= 9.2e18) { /* exactly that double? */
      char back[400];
      snprintf(back, sizeof back, "%.0f", x);
      h = !strcmp(back, c) ? cell_hash_real(x) : cell_hash_bytes(K_DECIMAL, c, d.len);
    } else {
      h = cell_hash_bytes(K_DECIMAL, c, d.len);
    }
  } else {
    /* exactly a double: x = N / 2^frac for an integer N (a decimal with frac
     * digits after its point, the last not 0, that is a dyadic rational has
     * frac binary digits after it), and x printed with frac digits is c */
    int exact = 0;
    if (isfinite(x) && frac <= 1074) {
      double scaled = ldexp(x, frac);
      if (isfinite(scaled) && scaled == floor(scaled)) {
        size_t cap = d.len + 400;
        char *back = malloc(cap);
        if (back) {
          snprintf(back, cap, "%.*f", frac, x);
          exact = !strcmp(back, c);
          free(back);
        }
      }
    }
    h = exact ? cell_hash_real(x) : cell_hash_bytes(K_DECIMAL, c, d.len);
  }
  free(d.buf);
  return h;
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian). */
static long long days_from_civil(long long y, unsigned m, unsigned d) {
  y -= m <= 2;
  long long era = (y >= 0 ? y : y - 399) / 400;
  unsigned yoe = (unsigned)(y - era * 400);
  unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + (long long)doe - 719468;
}

/* Reads 1 to max decimal digits at *p into *v: 1, or 0 when none. */
static int digits_at(const char **p, const char *end, int max, int *v) {
  int n = 0, x = 0;
  while (*p < end && n < max && **p >= '0' && **p <= '9') x = x * 10 + (*(*p)++ - '0'), n++;
  *v = x;
  return n > 0;
}

/* Reads YYYY-MM-DD[ HH:MM:SS[.ffffff]][+HH[:MM[:SS]]] into the microseconds
 * since the epoch (its zone taken off when it has one): 1, or 0 when it does
 * not read so, or is no date Python holds (years 1 to 9999). Every field is
 * read digit by digit, bounded: no text makes it overflow. */
static int read_stamp(const char *p, size_t n, int want_time, long long *us) {
  const char *q = p, *end = p + n;
  int y, mo, d, h = 0, mi = 0, s = 0;
  if (!digits_at(&q, end, 4, &y) || q >= end || *q++ != '-' || !digits_at(&q, end, 2, &mo) || q >= end ||
      *q++ != '-' || !digits_at(&q, end, 2, &d))
    return 0;
  long long frac_us = 0;
  if (want_time) {
    if (q >= end || (*q != ' ' && *q != 'T')) return 0;
    q++;
    if (!digits_at(&q, end, 2, &h) || q >= end || *q++ != ':' || !digits_at(&q, end, 2, &mi) || q >= end ||
        *q++ != ':' || !digits_at(&q, end, 2, &s))
      return 0;
    if (q < end && *q == '.') {
      q++;
      int k = 0;
      for (; q < end && *q >= '0' && *q <= '9'; q++, k++)
        if (k < 6) frac_us = frac_us * 10 + (*q - '0');
      for (; k < 6; k++) frac_us *= 10;
    }
  }
  long long off_s = 0;
  if (q < end && (*q == '+' || *q == '-')) {
    int sign = *q++ == '-' ? -1 : 1, oh = 0, om = 0, os = 0;
    if (!digits_at(&q, end, 2, &oh)) return 0;
    if (q < end && *q == ':' && (q++, !digits_at(&q, end, 2, &om))) return 0;
    if (q < end && *q == ':' && (q++, !digits_at(&q, end, 2, &os))) return 0;
    off_s = sign * (oh * 3600LL + om * 60 + os);
  }
  if (q != end) return 0;
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 24 || mi > 59 || s > 60) return 0;
  *us = ((days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400LL + h * 3600LL + mi * 60LL + s - off_s) * 1000000LL) +
        frac_us;
  return 1;
}

uint64_t srv_cell_hash(const srv_cell *c, double *num, unsigned char *kind) {
  *num = NAN;
  *kind = 2;
  long long us;
  switch (c->type) {
  case SRV_NULL: *kind = 0; return K_NULL;
  case SRV_INT: *kind = 1; *num = (double)c->i; return cell_hash_int(c->i);
  case SRV_REAL: *kind = 1; *num = c->x; return cell_hash_real(c->x);
  case SRV_DECIMAL: {
    uint64_t h = hash_decimal(c->p, c->n, num);
    *kind = *num == *num || !strncasecmp(c->p, "nan", 3) ? 1 : 2;
    return h;
  }
  case SRV_BLOB: *kind = 3; return cell_hash_blob(c->p, c->n);
  case SRV_DATE:
    return read_stamp(c->p, c->n, 0, &us) ? mix64((uint64_t)us ^ K_DATE) : cell_hash_bytes(K_DATE, c->p, c->n);
  case SRV_TIMESTAMP:
    return read_stamp(c->p, c->n, 1, &us) ? mix64((uint64_t)us ^ K_STAMP) : cell_hash_bytes(K_STAMP, c->p, c->n);
  case SRV_TIMESTAMPTZ:
    return read_stamp(c->p, c->n, 1, &us) ? mix64((uint64_t)us ^ K_STAMPTZ)
                                          : cell_hash_bytes(K_STAMPTZ, c->p, c->n);
  case SRV_TIME: return cell_hash_bytes(K_TIME, c->p, c->n);
  case SRV_DURATION: return mix64((uint64_t)c->i ^ K_DURATION);
  default: return cell_hash_text(c->p, c->n);
  }
}
