/* duckdb.c -- the DuckDB engine (libduckdb's C API, loaded at the first
 * duckdb:// URL as libpq is).
 *
 * DuckDB runs in process, on a database file: duckdb://PATH, {db_id}
 * allowed in the path. Model SQL never runs where it could reach outside the
 * query: every database is opened with access_mode READ_ONLY (the file is
 * never written), enable_external_access off (no file, network or
 * extension: read_csv, COPY, ATTACH, INSTALL and LOAD all fail there), the
 * extension autoloader off, a memory limit, its own threads capped, no
 * spilling to disk, and the configuration locked (SET cannot change any of
 * it). The check of model SQL (guard.c) refuses the same functions by name
 * first, so that the reason is said; the locked database is the second
 * wall. Only sqlsim's loader (sqlsim load) opens a file READ_WRITE.
 *
 * A file is opened once per process and mode (a database instance, shared
 * by every connection to it: DuckDB's connections are cheap, its instances
 * are not) and kept open while connections use it and a few more idle
 * ones. A statement of model SQL is prepared (one statement only), run
 * streaming, and its rows read chunk by chunk as typed vectors; the
 * watchdog's cancel is duckdb_interrupt. Values are typed as DuckDB's own
 * Python client makes them: integers (HUGEINT too), DECIMAL as Decimal,
 * FLOAT and DOUBLE as float, DATE, TIMESTAMP (any unit; with a zone: an
 * instant), TIME and INTERVAL (a timedelta, months of 30 days) by value,
 * VARCHAR as text, BLOB as bytes. A column of a type Python would not hash
 * (LIST, STRUCT, MAP, ARRAY, UNION), or one this file does not read (ENUM,
 * whose text is its value; TIME WITH TIME ZONE, BIT, BIGNUM, UUID), is read as
 * DuckDB's text of it: the statement is run wrapped, those columns cast to
 * VARCHAR by position. */
#include "server.h"

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* ---------------------------------------------------------------- the C API, as libduckdb exports it */

typedef uint64_t idx_t;
typedef int ddb_state; /* 0: success */
typedef struct ddb_handle_ {
  void *p;
} * ddb_handle; /* database, connection, config, prepared, pending, chunk, vector, logical type, appender */
typedef struct {
  idx_t a, b, c;
  void *d, *e;
  void *internal;
} ddb_result;
typedef struct {
  uint64_t lower;
  int64_t upper;
} ddb_hugeint;
typedef struct {
  int32_t months, days;
  int64_t micros;
} ddb_interval;

enum {
  T_BOOLEAN = 1, T_TINYINT, T_SMALLINT, T_INTEGER, T_BIGINT, T_UTINYINT, T_USMALLINT, T_UINTEGER, T_UBIGINT,
  T_FLOAT, T_DOUBLE, T_TIMESTAMP, T_DATE, T_TIME, T_INTERVAL, T_HUGEINT, T_VARCHAR, T_BLOB, T_DECIMAL,
  T_TIMESTAMP_S, T_TIMESTAMP_MS, T_TIMESTAMP_NS, T_ENUM, T_LIST, T_STRUCT, T_MAP, T_UUID, T_UNION, T_BIT,
  T_TIME_TZ, T_TIMESTAMP_TZ, T_UHUGEINT, T_ARRAY
};

#define DDB_FUNCS(X)                                                                                  \
  X(ddb_state, duckdb_create_config, (ddb_handle *))                                                  \
  X(ddb_state, duckdb_set_config, (ddb_handle, const char *, const char *))                           \
  X(void, duckdb_destroy_config, (ddb_handle *))                                                      \
  X(ddb_state, duckdb_open_ext, (const char *, ddb_handle *, ddb_handle, char **))                    \
  X(void, duckdb_close, (ddb_handle *))                                                               \
  X(ddb_state, duckdb_connect, (ddb_handle, ddb_handle *))                                            \
  X(void, duckdb_disconnect, (ddb_handle *))                                                          \
  X(void, duckdb_interrupt, (ddb_handle))                                                             \
  X(void, duckdb_free, (void *))                                                                      \
  X(const char *, duckdb_library_version, (void))                                                     \
  X(ddb_state, duckdb_query, (ddb_handle, const char *, ddb_result *))                                \
  X(void, duckdb_destroy_result, (ddb_result *))                                                      \
  X(const char *, duckdb_result_error, (ddb_result *))                                                \
  X(idx_t, duckdb_column_count, (ddb_result *))                                                       \
  X(int, duckdb_column_type, (ddb_result *, idx_t))                                                   \
  X(ddb_handle, duckdb_column_logical_type, (ddb_result *, idx_t))                                    \
  X(ddb_state, duckdb_prepare, (ddb_handle, const char *, ddb_handle *))                              \
  X(const char *, duckdb_prepare_error, (ddb_handle))                                                 \
  X(void, duckdb_destroy_prepare, (ddb_handle *))                                                     \
  X(idx_t, duckdb_prepared_statement_column_count, (ddb_handle))                                      \
  X(int, duckdb_prepared_statement_column_type, (ddb_handle, idx_t))                                  \
  X(ddb_state, duckdb_pending_prepared_streaming, (ddb_handle, ddb_handle *))                         \
  X(const char *, duckdb_pending_error, (ddb_handle))                                                 \
  X(ddb_state, duckdb_execute_pending, (ddb_handle, ddb_result *))                                    \
  X(void, duckdb_destroy_pending, (ddb_handle *))                                                     \
  X(ddb_handle, duckdb_fetch_chunk, (ddb_result))                                                     \
  X(idx_t, duckdb_data_chunk_get_size, (ddb_handle))                                                  \
  X(ddb_handle, duckdb_data_chunk_get_vector, (ddb_handle, idx_t))                                    \
  X(void, duckdb_destroy_data_chunk, (ddb_handle *))                                                  \
  X(void *, duckdb_vector_get_data, (ddb_handle))                                                     \
  X(uint64_t *, duckdb_vector_get_validity, (ddb_handle))                                             \
  X(int, duckdb_get_type_id, (ddb_handle))                                                            \
  X(uint8_t, duckdb_decimal_scale, (ddb_handle))                                                      \
  X(int, duckdb_decimal_internal_type, (ddb_handle))                                                  \
  X(void, duckdb_destroy_logical_type, (ddb_handle *))                                                \
  X(ddb_state, duckdb_appender_create, (ddb_handle, const char *, const char *, ddb_handle *))        \
  X(const char *, duckdb_appender_error, (ddb_handle))                                                \
  X(ddb_state, duckdb_appender_end_row, (ddb_handle))                                                 \
  X(ddb_state, duckdb_appender_close, (ddb_handle))                                                   \
  X(ddb_state, duckdb_appender_destroy, (ddb_handle *))                                               \
  X(ddb_state, duckdb_append_null, (ddb_handle))                                                      \
  X(ddb_state, duckdb_append_int64, (ddb_handle, int64_t))                                            \
  X(ddb_state, duckdb_append_double, (ddb_handle, double))                                            \
  X(ddb_state, duckdb_append_varchar_length, (ddb_handle, const char *, idx_t))                       \
  X(ddb_state, duckdb_append_blob, (ddb_handle, const void *, idx_t))

static struct {
#define DDB_SLOT(ret, f, args) ret(*f) args;
  DDB_FUNCS(DDB_SLOT)
} dk;
static pthread_once_t dk_once = PTHREAD_ONCE_INIT;
static char dk_error[400];

/* The library: the one SQLSIM_DUCKDB names, else libduckdb.so where the
 * dynamic linker finds it (setup.sh installs it there). */
static void dk_load(void) {
  const char *path = getenv("SQLSIM_DUCKDB");
  void *h = dlopen(path && *path ? path : "libduckdb.so", RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    snprintf(dk_error, sizeof dk_error, "%s", dlerror());
    return;
  }
#define DDB_BIND(ret, f, args)                                                              \
  if (!(dk.f = (ret(*) args)dlsym(h, #f))) {                                                \
    snprintf(dk_error, sizeof dk_error, "libduckdb has no %s (older than DuckDB 1.1)", #f); \
    return;                                                                                 \
  }
  DDB_FUNCS(DDB_BIND)
}

static int dk_ready(sqlsim_error *err) {
  pthread_once(&dk_once, dk_load);
  if (!dk_error[0]) return 0;
  return sqlsim_error_set(err, SQLSIM_EIO, -1, "DuckDB: its library cannot be loaded (%s): %s", exec_duckdb.install,
                          dk_error);
}

/* ---------------------------------------------------------------- database instances */

#define IDLE_KEPT 8 /* instances kept open with no connection */

typedef struct instance {
  char *path;
  int writable;
  size_t mem;
  ddb_handle db;
  int refs;
  unsigned long idle_since;
  struct instance *next;
} instance;

static struct {
  pthread_mutex_t mu;
  instance *head;
  unsigned long tick;
} inst = {PTHREAD_MUTEX_INITIALIZER, NULL, 0};

/* Opens path under the rules of the file's comment: NULL with why set. */
static ddb_handle open_db(const char *path, int writable, size_t mem, char *why, size_t wn) {
  ddb_handle cfg = NULL, db = NULL;
  if (dk.duckdb_create_config(&cfg)) {
    snprintf(why, wn, "out of memory");
    return NULL;
  }
  char limit[40];
  snprintf(limit, sizeof limit, "%zuMB", (mem ? mem : ((size_t)512 << 20)) >> 20);
  const char *opts[][2] = {{"access_mode", writable ? "READ_WRITE" : "READ_ONLY"},
                           {"temp_directory", ""}, /* no spilling beside the user's file */
                           {"max_temp_directory_size", "0KB"},
                           {"enable_external_access", "false"},
                           {"autoload_known_extensions", "false"},
                           {"autoinstall_known_extensions", "false"},
                           {"allow_community_extensions", "false"},
                           {"allow_unsigned_extensions", "false"},
                           {"threads", "1"},
                           {"memory_limit", limit},
                           {"lock_configuration", "true"}};
  for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
    if (dk.duckdb_set_config(cfg, opts[i][0], opts[i][1])) {
      snprintf(why, wn, "this DuckDB does not take the setting %s", opts[i][0]);
      dk.duckdb_destroy_config(&cfg);
      return NULL;
    }
  char *e = NULL;
  if (dk.duckdb_open_ext(path, &db, cfg, &e)) {
    snprintf(why, wn, "%.300s", e ? e : "it cannot be opened");
    dk.duckdb_free(e);
    db = NULL;
  }
  dk.duckdb_destroy_config(&cfg);
  return db;
}

/* The instance of path in this mode, opened if none is: a reference taken;
 * NULL with why set (ENOTFOUND in *missing when a file read is not there). */
static instance *instance_get(const char *path, int writable, size_t mem, char *why, size_t wn, int *missing) {
  *missing = 0;
  pthread_mutex_lock(&inst.mu);
  instance *x = inst.head;
  while (x && (strcmp(x->path, path) || x->writable != writable || x->mem != mem)) x = x->next;
  if (!x) {
    FILE *f = writable ? NULL : fopen(path, "rb");
    if (!writable && !f) {
      *missing = 1;
      snprintf(why, wn, "%.300s: no such database file", path);
    } else {
      if (f) fclose(f);
      ddb_handle db = open_db(path, writable, mem, why, wn);
      if (db && (x = calloc(1, sizeof *x)) && (x->path = strdup(path))) {
        x->db = db;
        x->writable = writable;
        x->mem = mem;
        x->next = inst.head;
        inst.head = x;
      } else if (db) {
        free(x);
        x = NULL;
        dk.duckdb_close(&db);
        snprintf(why, wn, "out of memory");
      }
    }
  }
  if (x) x->refs++;
  pthread_mutex_unlock(&inst.mu);
  return x;
}

/* Gives a reference back; a writable instance is closed at once (its file
 * is then whole on disk), a read-only one kept among the idle few. */
static void instance_put(instance *x) {
  pthread_mutex_lock(&inst.mu);
  x->idle_since = ++inst.tick;
  int idle = 0;
  if (--x->refs == 0 && !x->writable)
    for (instance *y = inst.head; y; y = y->next) idle += y->refs == 0;
  for (instance **p = &inst.head; *p;) {
    instance *y = *p;
    int oldest_idle = idle > IDLE_KEPT && y->refs == 0;
    for (instance *z = inst.head; oldest_idle && z; z = z->next)
      if (z->refs == 0 && z->idle_since < y->idle_since) oldest_idle = 0;
    if ((y == x && x->refs == 0 && x->writable) || oldest_idle) {
      *p = y->next;
      dk.duckdb_close(&y->db);
      free(y->path);
      free(y);
      idle -= oldest_idle;
    } else {
      p = &y->next;
    }
  }
  pthread_mutex_unlock(&inst.mu);
}

/* ---------------------------------------------------------------- connections */

struct srv_conn {
  instance *in;
  ddb_handle con;
  ddb_handle app;   /* a load's appender */
};

static srv_conn *dk_connect(const srv_url *u, double timeout_s, size_t max_memory, int writable, sqlsim_error *err) {
  (void)timeout_s; /* the watchdog's interrupt is the limit: DuckDB has no statement timeout */
  if (dk_ready(err)) return NULL;
  char why[400];
  int missing;
  instance *in = instance_get(u->dbname, writable, max_memory, why, sizeof why, &missing);
  if (!in) {
    sqlsim_error_set(err, missing ? SQLSIM_ENOTFOUND : SQLSIM_EIO, -1, "DuckDB: %s", why);
    return NULL;
  }
  srv_conn *c = calloc(1, sizeof *c);
  if (!c || dk.duckdb_connect(in->db, &c->con)) {
    free(c);
    instance_put(in);
    sqlsim_error_set(err, SQLSIM_EIO, -1, "DuckDB: cannot connect to %.300s", u->dbname);
    return NULL;
  }
  c->in = in;
  return c;
}

static void dk_close(srv_conn *c) {
  if (!c) return;
  if (c->app) dk.duckdb_appender_destroy(&c->app);
  dk.duckdb_disconnect(&c->con);
  instance_put(c->in);
  free(c);
}

static void dk_cancel(srv_conn *c) {
  if (c && c->con) dk.duckdb_interrupt(c->con);
}

/* The first line of a DuckDB message. */
static void message(const char *m, char *why, size_t wn) {
  if (!m || !*m) m = "DuckDB gave no reason";
  size_t n = strcspn(m, "\n");
  snprintf(why, wn, "%.*s", (int)(n < 400 ? n : 400), m);
}

/* What a failure says: a permission error (a file, an extension, a write to
 * the read-only database, a locked setting) is a refusal, an interrupt a
 * timeout. */
static int failure(const char *m, char *why, size_t wn) {
  message(m, why, wn);
  if (m && strstr(m, "INTERRUPT")) return SRV_TIMEOUT;
  if (m && (!strncmp(m, "Interrupt", 9) || strstr(m, "Interrupted"))) return SRV_TIMEOUT;
  if (m && !strncmp(m, "Out of Memory", 13)) return SRV_TOO_BIG; /* its memory_limit: ours */
  if (m && (!strncmp(m, "Permission Error", 16) || strstr(m, "read-only mode") || strstr(m, "configuration has been locked"))) {
    char r[420];
    snprintf(r, sizeof r, "refused: %s", why);
    snprintf(why, wn, "%s", r);
    return SRV_REFUSED;
  }
  return SRV_ERROR;
}

static int dk_own(srv_conn *c, const char *sql, char *why, size_t wn) {
  ddb_result r;
  memset(&r, 0, sizeof r);
  int rc = 0;
  if (dk.duckdb_query(c->con, sql, &r)) {
    message(dk.duckdb_result_error(&r), why, wn);
    rc = -1;
  }
  dk.duckdb_destroy_result(&r);
  return rc;
}

/* A standard SQL literal: DuckDB reads no backslash escapes. */
static void dk_quote(srv_conn *c, strbuf *sb, const char *text, size_t n) {
  (void)c;
  sb_putc(sb, '\'');
  for (size_t i = 0; i < n; i++) {
    if (text[i] == '\'') sb_putc(sb, '\'');
    sb_putc(sb, text[i]);
  }
  sb_putc(sb, '\'');
}

/* ---------------------------------------------------------------- values */

/* Whether a column of type t is read here; a column that is not is read as
 * DuckDB's text of it. */
static int read_here(int t) {
  return (t >= T_BOOLEAN && t <= T_TIMESTAMP_NS) || t == T_TIMESTAMP_TZ || t == T_UHUGEINT;
}

/* v's decimal digits (a 128-bit integer), with a point before the last
 * scale digits, into buf: its length. */
static size_t digits128(uint64_t hi, uint64_t lo, int neg, int scale, char *buf) {
  char d[64];
  int n = 0;
  do { /* divide the 128-bit magnitude by 10 */
    unsigned __int128 v = ((unsigned __int128)hi << 64) | lo;
    d[n++] = (char)('0' + (int)(v % 10));
    v /= 10;
    hi = (uint64_t)(v >> 64);
    lo = (uint64_t)v;
  } while ((hi || lo) && n < 60);
  while (n <= scale) d[n++] = '0';
  size_t k = 0;
  if (neg) buf[k++] = '-';
  for (int i = n - 1; i >= 0; i--) {
    buf[k++] = d[i];
    if (i == scale && scale > 0) buf[k++] = '.';
  }
  buf[k] = '\0';
  return k;
}

static size_t signed128(ddb_hugeint h, int scale, char *buf) {
  int neg = h.upper < 0;
  uint64_t hi = (uint64_t)h.upper, lo = h.lower;
  if (neg) { /* two's complement */
    lo = ~lo + 1;
    hi = ~hi + (lo == 0);
  }
  return digits128(hi, lo, neg, scale, buf);
}

/* Days since 1970-01-01 as a civil date (Howard Hinnant's algorithm). */
static void civil(long long z, long long *y, int *m, int *d) {
  z += 719468;
  long long era = (z >= 0 ? z : z - 146096) / 146097;
  long long doe = z - era * 146097;
  long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  long long mp = (5 * doy + 2) / 153;
  *d = (int)(doy - (153 * mp + 2) / 5 + 1);
  *m = (int)(mp < 10 ? mp + 3 : mp - 9);
  *y = yoe + era * 400 + (*m <= 2);
}

static long long floordiv(long long a, long long b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

/* A date (days) as YYYY-MM-DD: 0 when its year is outside 1..9999 (Python
 * has no such date: DuckDB's client gives text then). */
static size_t date_text(long long days, char *buf) {
  long long y;
  int m, d;
  civil(days, &y, &m, &d);
  if (y < 1 || y > 9999) return 0;
  return (size_t)snprintf(buf, 32, "%04lld-%02d-%02d", y, m, d);
}

/* A time of day (microseconds) as HH:MM:SS[.ffffff]. */
static size_t time_text(long long us, char *buf) {
  long long s = us / 1000000, f = us % 1000000;
  int n = snprintf(buf, 32, "%02lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
  if (f) n += snprintf(buf + n, 16, ".%06lld", f);
  return (size_t)n;
}

/* A timestamp (microseconds since the epoch) as text: 0 outside years
 * 1..9999. */
static size_t stamp_text(long long us, char *buf) {
  long long days = floordiv(us, 86400000000LL), rest = us - days * 86400000000LL;
  size_t n = date_text(days, buf);
  if (!n) return 0;
  buf[n++] = ' ';
  return n + time_text(rest, buf + n);
}

/* A column's reading state for one chunk. */
typedef struct column {
  int type, phys;     /* logical type; a DECIMAL's physical one */
  int scale;
  ddb_handle lt;      /* the logical type */
  const void *data;
  const uint64_t *valid;
} column;

/* Reads row i of column c into x (text into buf, 64 bytes, for what is
 * printed here). */
static void read_cell(const column *c, idx_t i, srv_cell *x, char *buf) {
  memset(x, 0, sizeof *x);
  if (c->valid && !((c->valid[i / 64] >> (i % 64)) & 1)) {
    x->type = SRV_NULL;
    return;
  }
  const void *d = c->data;
  switch (c->type) {
  case T_BOOLEAN: x->type = SRV_INT; x->i = ((const uint8_t *)d)[i] != 0; return;
  case T_TINYINT: x->type = SRV_INT; x->i = ((const int8_t *)d)[i]; return;
  case T_SMALLINT: x->type = SRV_INT; x->i = ((const int16_t *)d)[i]; return;
  case T_INTEGER: x->type = SRV_INT; x->i = ((const int32_t *)d)[i]; return;
  case T_BIGINT: x->type = SRV_INT; x->i = ((const int64_t *)d)[i]; return;
  case T_UTINYINT: x->type = SRV_INT; x->i = ((const uint8_t *)d)[i]; return;
  case T_USMALLINT: x->type = SRV_INT; x->i = ((const uint16_t *)d)[i]; return;
  case T_UINTEGER: x->type = SRV_INT; x->i = ((const uint32_t *)d)[i]; return;
  case T_UBIGINT: {
    uint64_t v = ((const uint64_t *)d)[i];
    if (v <= INT64_MAX) {
      x->type = SRV_INT;
      x->i = (long long)v;
    } else {
      x->type = SRV_DECIMAL;
      x->p = buf;
      x->n = digits128(0, v, 0, 0, buf);
    }
    return;
  }
  case T_HUGEINT: x->type = SRV_DECIMAL; x->p = buf; x->n = signed128(((const ddb_hugeint *)d)[i], 0, buf); return;
  case T_UHUGEINT: {
    const uint64_t *v = (const uint64_t *)d + 2 * i; /* lower, upper */
    x->type = SRV_DECIMAL;
    x->p = buf;
    x->n = digits128(v[1], v[0], 0, 0, buf);
    return;
  }
  case T_FLOAT: x->type = SRV_REAL; x->x = ((const float *)d)[i]; return;
  case T_DOUBLE: x->type = SRV_REAL; x->x = ((const double *)d)[i]; return;
  case T_DECIMAL: {
    ddb_hugeint h;
    switch (c->phys) {
    case T_SMALLINT: h.upper = ((const int16_t *)d)[i] < 0 ? -1 : 0, h.lower = (uint64_t)(int64_t)((const int16_t *)d)[i]; break;
    case T_INTEGER: h.upper = ((const int32_t *)d)[i] < 0 ? -1 : 0, h.lower = (uint64_t)(int64_t)((const int32_t *)d)[i]; break;
    case T_BIGINT: h.upper = ((const int64_t *)d)[i] < 0 ? -1 : 0, h.lower = (uint64_t)((const int64_t *)d)[i]; break;
    default: h = ((const ddb_hugeint *)d)[i];
    }
    x->type = SRV_DECIMAL;
    x->p = buf;
    x->n = signed128(h, c->scale, buf);
    return;
  }
  case T_VARCHAR:
  case T_BLOB: {
    const unsigned char *s = (const unsigned char *)d + 16 * i;
    uint32_t len;
    memcpy(&len, s, 4);
    if (len <= 12) {
      x->p = (const char *)s + 4;
    } else {
      const char *ptr;
      memcpy(&ptr, s + 8, sizeof ptr);
      x->p = ptr;
    }
    x->n = len;
    x->type = c->type == T_BLOB ? SRV_BLOB : SRV_TEXT;
    return;
  }
  case T_DATE: {
    int32_t days = ((const int32_t *)d)[i];
    x->p = buf;
    x->n = date_text(days, buf);
    x->type = x->n ? SRV_DATE : SRV_TEXT;
    if (!x->n) x->n = (size_t)snprintf(buf, 64, "%s", days > 0 ? "infinity" : "-infinity");
    return;
  }
  case T_TIME: x->type = SRV_TIME; x->p = buf; x->n = time_text(((const int64_t *)d)[i], buf); return;
  case T_TIMESTAMP:
  case T_TIMESTAMP_S:
  case T_TIMESTAMP_MS:
  case T_TIMESTAMP_NS:
  case T_TIMESTAMP_TZ: {
    long long v = ((const int64_t *)d)[i];
    long long us = c->type == T_TIMESTAMP_S ? v * 1000000 : c->type == T_TIMESTAMP_MS ? v * 1000
                 : c->type == T_TIMESTAMP_NS ? floordiv(v, 1000) : v;
    x->p = buf;
    x->n = (v == INT64_MAX || v == -INT64_MAX) ? 0 : stamp_text(us, buf);
    if (!x->n) {
      x->type = SRV_TEXT;
      x->n = (size_t)snprintf(buf, 64, "%s", v > 0 ? "infinity" : "-infinity");
    } else if (c->type == T_TIMESTAMP_TZ) {
      x->type = SRV_TIMESTAMPTZ; /* an instant: at UTC */
      x->n += (size_t)snprintf(buf + x->n, 8, "+00");
    } else {
      x->type = SRV_TIMESTAMP;
    }
    return;
  }
  case T_INTERVAL: {
    ddb_interval v = ((const ddb_interval *)d)[i];
    x->type = SRV_DURATION;
    x->i = ((long long)v.months * 30 + v.days) * 86400000000LL + v.micros;
    return;
  }
  default: x->type = SRV_NULL;
  }
}

/* ---------------------------------------------------------------- a statement */

/* sql prepared, or (when a column is of a type not read here) the same
 * wrapped with those columns cast to text: the prepared statement, NULL with
 * why set. */
static ddb_handle prepare(srv_conn *c, const char *sql, char *why, size_t wn, int *status) {
  ddb_handle st = NULL;
  if (dk.duckdb_prepare(c->con, sql, &st)) {
    *status = failure(dk.duckdb_prepare_error(st), why, wn);
    dk.duckdb_destroy_prepare(&st);
    return NULL;
  }
  idx_t n = dk.duckdb_prepared_statement_column_count(st);
  int all = 1;
  for (idx_t k = 0; k < n && all; k++) all = read_here(dk.duckdb_prepared_statement_column_type(st, k));
  if (all) return st;
  strbuf w = {0};
  sb_puts(&w, "SELECT ");
  for (idx_t k = 0; k < n; k++) {
    int t = dk.duckdb_prepared_statement_column_type(st, k);
    sb_printf(&w, read_here(t) ? "%s#%llu" : "%sCAST(#%llu AS VARCHAR)", k ? ", " : "", (unsigned long long)k + 1);
  }
  sb_puts(&w, " FROM (");
  size_t len = strlen(sql);
  while (len && (sql[len - 1] == ';' || sql[len - 1] == ' ' || sql[len - 1] == '\n' || sql[len - 1] == '\t')) len--;
  sb_putn(&w, sql, len);
  sb_puts(&w, "\n) AS sqlsim_q");
  dk.duckdb_destroy_prepare(&st);
  ddb_handle st2 = NULL;
  if (dk.duckdb_prepare(c->con, w.buf, &st2)) {
    *status = failure(dk.duckdb_prepare_error(st2), why, wn);
    dk.duckdb_destroy_prepare(&st2);
    st2 = NULL;
  }
  free(w.buf);
  return st2;
}

static int dk_query(srv_conn *c, const char *sql, srv_row_fn row, void *ctx, char *why, size_t wn) {
  int status = SRV_OK;
  ddb_handle st = prepare(c, sql, why, wn, &status);
  if (!st) return status;
  ddb_handle pend = NULL;
  ddb_result r;
  memset(&r, 0, sizeof r);
  if (dk.duckdb_pending_prepared_streaming(st, &pend)) {
    status = failure(dk.duckdb_pending_error(pend), why, wn);
    dk.duckdb_destroy_pending(&pend);
    dk.duckdb_destroy_prepare(&st);
    return status;
  }
  if (dk.duckdb_execute_pending(pend, &r)) {
    status = failure(dk.duckdb_result_error(&r), why, wn);
    goto done;
  }
  idx_t nc = dk.duckdb_column_count(&r);
  column *cols = calloc((size_t)nc + 1, sizeof *cols);
  srv_cell *cells = calloc((size_t)nc + 1, sizeof *cells);
  char (*bufs)[64] = calloc((size_t)nc + 1, sizeof *bufs);
  if (!cols || !cells || !bufs) {
    snprintf(why, wn, "out of memory");
    status = SRV_ERROR;
  }
  for (idx_t k = 0; status == SRV_OK && k < nc; k++) {
    cols[k].type = dk.duckdb_column_type(&r, k);
    cols[k].lt = dk.duckdb_column_logical_type(&r, k);
    if (cols[k].type == T_DECIMAL) {
      cols[k].phys = dk.duckdb_decimal_internal_type(cols[k].lt);
      cols[k].scale = dk.duckdb_decimal_scale(cols[k].lt);
    }
  }
  if (status == SRV_OK && row(ctx, NULL, (int)nc)) status = SRV_STOPPED;
  while (status == SRV_OK) {
    ddb_handle chunk = dk.duckdb_fetch_chunk(r);
    if (!chunk) {
      const char *e = dk.duckdb_result_error(&r);
      if (e && *e) status = failure(e, why, wn);
      break;
    }
    idx_t n = dk.duckdb_data_chunk_get_size(chunk);
    for (idx_t k = 0; k < nc; k++) {
      ddb_handle v = dk.duckdb_data_chunk_get_vector(chunk, k);
      cols[k].data = dk.duckdb_vector_get_data(v);
      cols[k].valid = dk.duckdb_vector_get_validity(v);
    }
    for (idx_t i = 0; i < n && status == SRV_OK; i++) {
      for (idx_t k = 0; k < nc; k++) read_cell(&cols[k], i, &cells[k], bufs[k]);
      if (row(ctx, cells, (int)nc)) status = SRV_STOPPED;
    }
    dk.duckdb_destroy_data_chunk(&chunk);
  }
  for (idx_t k = 0; cols && k < nc; k++)
    if (cols[k].lt) dk.duckdb_destroy_logical_type(&cols[k].lt);
  free(cols);
  free(cells);
  free(bufs);
done:
  dk.duckdb_destroy_result(&r);
  dk.duckdb_destroy_pending(&pend);
  dk.duckdb_destroy_prepare(&st);
  return status;
}

/* ---------------------------------------------------------------- loading */

/* A name put_name wrote ("..", quotes doubled) as it is: the appender's. */
static char *unquote(const char *q) {
  size_t n = strlen(q);
  char *o = malloc(n + 1), *w = o;
  if (!o) return NULL;
  for (size_t i = (n && q[0] == '"'); i < n - (n > 1 && q[n - 1] == '"'); i++) {
    *w++ = q[i];
    if (q[i] == '"' && q[i + 1] == '"') i++;
  }
  *w = '\0';
  return o;
}

static int dk_rows_begin(srv_conn *c, const char *table, const char *columns, int ncols, char *why, size_t wn) {
  (void)columns, (void)ncols; /* the appender fills every column, in the table's order: the loader's */
  char *name = unquote(table);
  if (c->app) dk.duckdb_appender_destroy(&c->app);
  int rc = !name || dk.duckdb_appender_create(c->con, NULL, name, &c->app) ? -1 : 0;
  if (rc) {
    message(c->app ? dk.duckdb_appender_error(c->app) : "the appender cannot be made", why, wn);
    if (c->app) dk.duckdb_appender_destroy(&c->app);
    c->app = NULL;
  }
  free(name);
  return rc;
}

static int dk_rows_put(srv_conn *c, const srv_cell *cells, int ncols, char *why, size_t wn) {
  int bad = 0;
  for (int k = 0; k < ncols && !bad; k++) {
    const srv_cell *x = &cells[k];
    switch (x->type) {
    case SRV_NULL: bad = dk.duckdb_append_null(c->app); break;
    case SRV_INT: bad = dk.duckdb_append_int64(c->app, x->i); break;
    case SRV_REAL: bad = dk.duckdb_append_double(c->app, x->x); break;
    case SRV_BLOB: bad = dk.duckdb_append_blob(c->app, x->p, x->n); break;
    default: bad = dk.duckdb_append_varchar_length(c->app, x->p, x->n);
    }
  }
  if (!bad) bad = dk.duckdb_appender_end_row(c->app);
  if (bad) message(dk.duckdb_appender_error(c->app), why, wn);
  return bad ? -1 : 0;
}

static int dk_rows_end(srv_conn *c, int ok, char *why, size_t wn) {
  int rc = 0;
  if (ok && c->app && dk.duckdb_appender_close(c->app)) {
    message(dk.duckdb_appender_error(c->app), why, wn);
    rc = -1;
  }
  if (c->app) dk.duckdb_appender_destroy(&c->app);
  c->app = NULL;
  return ok ? rc : -1;
}

static int dk_table_exists(srv_conn *c, const char *kept, char *why, size_t wn) {
  strbuf sb = {0};
  sb_puts(&sb, "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND "
               "lower(table_name) = lower(");
  dk_quote(c, &sb, kept, strlen(kept));
  sb_putc(&sb, ')');
  ddb_result r;
  memset(&r, 0, sizeof r);
  int rc = -1;
  if (dk.duckdb_query(c->con, sb.buf, &r) == 0) {
    ddb_handle chunk = dk.duckdb_fetch_chunk(r);
    if (chunk) {
      const int64_t *v = dk.duckdb_vector_get_data(dk.duckdb_data_chunk_get_vector(chunk, 0));
      rc = dk.duckdb_data_chunk_get_size(chunk) && v && v[0] > 0;
      dk.duckdb_destroy_data_chunk(&chunk);
    }
  }
  if (rc < 0) message(dk.duckdb_result_error(&r), why, wn);
  dk.duckdb_destroy_result(&r);
  free(sb.buf);
  return rc;
}

static const char *dk_column_type(int type, size_t maxlen, int keyed, char *buf, size_t n) {
  (void)maxlen, (void)keyed, (void)buf, (void)n;
  static const char *const names[] = {"BIGINT", "DOUBLE", "VARCHAR", "BLOB", "DATE", "TIMESTAMP"};
  return names[type];
}

static const char *dk_declared_type(const char *declared) {
  if (strcasestr(declared, "int") || strcasestr(declared, "bool")) return "BIGINT";
  if (strcasestr(declared, "datetime") || strcasestr(declared, "timestamp")) return "TIMESTAMP";
  if (strcasestr(declared, "date")) return "DATE";
  if (strcasestr(declared, "time")) return "VARCHAR";
  if (strcasestr(declared, "real") || strcasestr(declared, "float") || strcasestr(declared, "double") ||
      strcasestr(declared, "num") || strcasestr(declared, "dec"))
    return "DOUBLE";
  if (strcasestr(declared, "blob")) return "BLOB";
  return "VARCHAR";
}

static void dk_put_blob(strbuf *sb, const unsigned char *p, size_t n) {
  sb_puts(sb, "'");
  for (size_t i = 0; i < n; i++) sb_printf(sb, "\\x%02X", p[i]);
  sb_puts(sb, "'::BLOB");
}

/* The temporary table's columns (in DuckDB's temp catalog). */
static void dk_columns_sql(srv_conn *c, strbuf *sb, const char *name) {
  sb_puts(sb, "SELECT '\"' || replace(column_name, '\"', '\"\"') || '\" ' || data_type FROM duckdb_columns() "
              "WHERE database_name = 'temp' AND table_name = ");
  dk_quote(c, sb, name, strlen(name));
  sb_puts(sb, " ORDER BY column_index");
}

/* ---------------------------------------------------------------- the entry */

/* Functions that read files or the network, list or attach databases, or
 * run SQL given as a string (all but the last already fail in a database
 * opened as above). */
static const char *const dk_denied[] = {
    "read_csv", "read_csv_auto", "read_parquet", "parquet_scan", "parquet_metadata", "parquet_schema",
    "parquet_file_metadata", "parquet_kv_metadata", "read_json", "read_json_auto", "read_json_objects",
    "read_json_objects_auto", "read_ndjson", "read_ndjson_auto", "read_ndjson_objects", "read_text", "read_blob",
    "glob", "sniff_csv", "iceberg_scan", "iceberg_metadata", "delta_scan", "read_xlsx", "st_read", "sqlite_scan",
    "sqlite_attach", "postgres_scan", "postgres_attach", "mysql_scan", "query", "query_table", "checkpoint",
    "force_checkpoint", "load_extension", "duckdb_secrets", "which_secret", NULL};
static const char *const dk_first[] = {"select", "with", "values", "table", "from", NULL};
static const char *const dk_schemes[] = {"duckdb", NULL};

const exec_engine exec_duckdb = {
    .name = "DuckDB",
    .id = SQLSIM_ENGINE_DUCKDB,
    .schemes = dk_schemes,
    .url_form = EXEC_URL_FILE,
    .dialect = SQLSIM_DIALECT_DUCKDB,
    .install = "setup.sh installs it from the npm package @duckdb/node-bindings-linux-x64; or set SQLSIM_DUCKDB "
               "to a libduckdb.so",
    .usage = "duckdb://PATH (a database file, opened read-only; duckdb:///abs/path)",
    .lexis = SRV_LEX_POSTGRES,
    .first = dk_first,
    .denied = dk_denied,
    .put_name = srv_put_name_quoted,
    .put_blob = dk_put_blob,
    .column_type = dk_column_type,
    .declared_type = dk_declared_type,
    .connect = dk_connect,
    .close = dk_close,
    .query = dk_query,
    .cancel = dk_cancel,
    .own = dk_own,
    .quote = dk_quote,
    .table_exists = dk_table_exists,
    .table_options = "",
    .drop_options = "",
    .begin = "BEGIN TRANSACTION",
    .analyze = "ANALYZE ",
    .keys_after = 1,
    .foreign_keys_after = 0,
    .rows_begin = dk_rows_begin,
    .rows_put = dk_rows_put,
    .rows_end = dk_rows_end,
    .temp_like = "CREATE TEMP TABLE %s AS SELECT * FROM %s LIMIT 0",
    .temp_create = "CREATE TEMP TABLE",
    .write_begin = "BEGIN TRANSACTION;\n",
    .columns_sql = dk_columns_sql,
};
