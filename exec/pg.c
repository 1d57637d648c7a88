/* pg.c -- the PostgreSQL backend (libpq).
 *
 * A connection sets its session once (statement_timeout at the run's limit,
 * lock and idle-transaction limits, ISO dates, standard strings, every
 * transaction read-only by default). A statement of model SQL goes out in
 * one pipeline, one round trip: BEGIN READ ONLY, the statement (extended
 * protocol: one statement only, its rows one at a time), Sync, ROLLBACK,
 * Sync; so whatever it did, settings included, is undone, and its rows are
 * counted and capped as they arrive, never held whole. Waiting polls the
 * socket against a hard deadline (the limit plus a grace), so a server that
 * stops answering loses the connection instead of hanging the run; the
 * executor's watchdog calls pg_cancel from its own thread (PQcancel is safe
 * there). Values arrive as text and are typed by their column's type OID. */
#include "server.h"

#include <dlfcn.h>
#include <libpq-fe.h>
#include <math.h>
#include <pthread.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* libpq, opened at the first PostgreSQL URL (dlopen): sqlsim and its Python
 * wheel run without it until then, and its absence is an error that says
 * what to install. */
#define PQ_FUNCS(X) \
  X(PQcancel) \
  X(PQclear) \
  X(PQconnectdbParams) \
  X(PQconsumeInput) \
  X(PQenterPipelineMode) \
  X(PQerrorMessage) \
  X(PQescapeLiteral) \
  X(PQexec) \
  X(PQexitPipelineMode) \
  X(PQfinish) \
  X(PQfreeCancel) \
  X(PQfreemem) \
  X(PQftype) \
  X(PQgetCancel) \
  X(PQgetResult) \
  X(PQgetisnull) \
  X(PQgetlength) \
  X(PQgetvalue) \
  X(PQisBusy) \
  X(PQnfields) \
  X(PQntuples) \
  X(PQpipelineSync) \
  X(PQputCopyData) \
  X(PQputCopyEnd) \
  X(PQresultErrorField) \
  X(PQresultErrorMessage) \
  X(PQresultStatus) \
  X(PQsendQueryParams) \
  X(PQsetSingleRowMode) \
  X(PQsocket) \
  X(PQstatus) \
  X(PQsetNoticeProcessor)

static struct {
#define PQ_SLOT(f) __typeof__(f) *f;
  PQ_FUNCS(PQ_SLOT)
} pq;
static pthread_once_t pq_once = PTHREAD_ONCE_INIT;
static char pq_error[300];

static void pq_load(void) {
  void *h = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    snprintf(pq_error, sizeof pq_error, "%s", dlerror());
    return;
  }
#define PQ_BIND(f)                                          \
  if (!(pq.f = (__typeof__(pq.f))dlsym(h, #f))) {           \
    snprintf(pq_error, sizeof pq_error, "libpq has no %s (older than PostgreSQL 14's)", #f); \
    return;                                                 \
  }
  PQ_FUNCS(PQ_BIND)
}

/* 0 when libpq is loaded, else SQLSIM_EIO with err saying what to install. */
static int pq_ready(sqlsim_error *err) {
  pthread_once(&pq_once, pq_load);
  if (!pq_error[0]) return 0;
  return sqlsim_error_set(err, SQLSIM_EIO, -1,
                          "PostgreSQL: its client library cannot be loaded (%s): %s", exec_postgres.install,
                          pq_error);
}

struct srv_conn {
  PGconn *pg;
  PGcancel *cancel;
  double timeout;
  strbuf copy;       /* rows of a load not yet sent (COPY's text format) */
};

/* Type OIDs (pg_type.dat). */
enum {
  OID_BOOL = 16, OID_BYTEA = 17, OID_INT8 = 20, OID_INT2 = 21, OID_INT4 = 23, OID_OID = 26,
  OID_FLOAT4 = 700, OID_FLOAT8 = 701, OID_NUMERIC = 1700, OID_DATE = 1082, OID_TIME = 1083,
  OID_TIMESTAMP = 1114, OID_TIMESTAMPTZ = 1184, OID_INTERVAL = 1186, OID_TIMETZ = 1266
};

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The first line of libpq's message, without "ERROR:  ". */
static void message(const char *m, char *why, size_t wn) {
  if (!m || !*m) m = "the server gave no reason";
  if (!strncmp(m, "ERROR:  ", 8)) m += 8;
  size_t n = strcspn(m, "\n");
  snprintf(why, wn, "%.*s", (int)(n < 400 ? n : 400), m);
}

static void quiet(void *arg, const char *message) {
  (void)arg;
  (void)message;
}

static srv_conn *pg_connect(const srv_url *u, double timeout_s, size_t max_memory, int writable, sqlsim_error *err) {
  (void)max_memory; /* the server's own (work_mem) */
  if (pq_ready(err)) return NULL;
  const char *kw[6] = {"connect_timeout", "application_name", "dbname", NULL, NULL, NULL};
  const char *val[6] = {"10", "sqlsim", u->text, NULL, NULL, NULL};
  int n = 3;
  if (u->password) {
    kw[n] = "password";
    val[n++] = u->password;
  }
  if (u->admin) {
    kw[n] = "dbname"; /* after the URL's: it wins */
    val[n++] = "postgres";
  }
  PGconn *pg = pq.PQconnectdbParams(kw, val, 1);
  if (!pg || pq.PQstatus(pg) != CONNECTION_OK) {
    char m[420];
    message(pg ? pq.PQerrorMessage(pg) : "out of memory", m, sizeof m);
    int missing = pg && strstr(m, "does not exist") && strstr(m, "database");
    pq.PQfinish(pg);
    sqlsim_error_set(err, missing ? SQLSIM_ENOTFOUND : SQLSIM_EIO, -1, "PostgreSQL: cannot connect: %s", m);
    return NULL;
  }
  pq.PQsetNoticeProcessor(pg, quiet, NULL); /* the server's NOTICEs are not the user's to read */
  long ms = writable ? 0 : (long)(timeout_s * 1000);
  char set[600];
  snprintf(set, sizeof set,
           "SET statement_timeout = %ld; SET lock_timeout = %ld; SET idle_in_transaction_session_timeout = %ld; "
           "SET standard_conforming_strings = on; SET DateStyle = ISO; SET IntervalStyle = postgres; "
           "SET client_encoding = 'UTF8'; SET default_transaction_read_only = %s",
           ms, ms, writable ? 0 : 2 * ms + 10000, writable ? "off" : "on");
  PGresult *r = pq.PQexec(pg, set);
  if (pq.PQresultStatus(r) != PGRES_COMMAND_OK) {
    char m[420];
    message(pq.PQresultErrorMessage(r), m, sizeof m);
    pq.PQclear(r);
    pq.PQfinish(pg);
    sqlsim_error_set(err, SQLSIM_EIO, -1, "PostgreSQL: the session cannot be set up: %s", m);
    return NULL;
  }
  pq.PQclear(r);
  srv_conn *c = calloc(1, sizeof *c);
  if (!c) {
    pq.PQfinish(pg);
    sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
    return NULL;
  }
  c->pg = pg;
  c->cancel = pq.PQgetCancel(pg);
  c->timeout = timeout_s;
  return c;
}

static void pg_close(srv_conn *c) {
  if (!c) return;
  free(c->copy.buf);
  pq.PQfreeCancel(c->cancel);
  pq.PQfinish(c->pg);
  free(c);
}

static void pg_cancel(srv_conn *c) {
  char buf[256];
  if (c && c->cancel) pq.PQcancel(c->cancel, buf, sizeof buf);
}

/* The next result, waiting at most until deadline; NULL either at the end of
 * a query's results (*lost 0) or when the connection failed or the deadline
 * passed (*lost 1). */
static PGresult *next_result(srv_conn *c, double deadline, int *lost) {
  *lost = 0;
  while (pq.PQisBusy(c->pg)) {
    double left = deadline - now_s();
    if (left <= 0) {
      *lost = 1;
      return NULL;
    }
    struct pollfd pf = {pq.PQsocket(c->pg), POLLIN, 0};
    int ms = left > 1 ? 1000 : (int)(left * 1000) + 1;
    if (pf.fd < 0 || (poll(&pf, 1, ms) < 0) || !pq.PQconsumeInput(c->pg)) {
      *lost = 1;
      return NULL;
    }
  }
  PGresult *r = pq.PQgetResult(c->pg);
  if (!r && pq.PQstatus(c->pg) == CONNECTION_BAD) *lost = 1;
  return r;
}

/* Python's timedelta of an interval in IntervalStyle postgres ("1 year 2 mons
 * -3 days 04:05:06.5"), months 30 days and years 365 as psycopg2 counts
 * them: 1 with *us, 0 when it does not read so. */
static int read_interval(const char *s, long long *us) {
  long long days = 0, micro = 0;
  while (*s) {
    while (*s == ' ') s++;
    if (!*s) break;
    char *end;
    long long n = strtoll(s, &end, 10);
    if (end == s) return 0;
    if (*end == ':') { /* [-]HH:MM:SS[.ffffff] */
      int neg = s[0] == '-';
      long long h = llabs(n), m = 0;
      double sec = 0;
      const char *q = end + 1;
      m = strtoll(q, &end, 10);
      if (*end == ':') sec = strtod(end + 1, &end);
      micro += (neg ? -1 : 1) * (h * 3600000000LL + m * 60000000LL + llround(sec * 1e6));
      s = end;
      continue;
    }
    while (*end == ' ') end++;
    if (!strncmp(end, "year", 4)) days += 365 * n;
    else if (!strncmp(end, "mon", 3)) days += 30 * n;
    else if (!strncmp(end, "day", 3)) days += n;
    else return 0;
    while (*end && *end != ' ') end++;
    s = end;
  }
  *us = days * 86400000000LL + micro;
  return 1;
}

static int hexv(int c) { return c >= '0' && c <= '9' ? c - '0' : (c | 32) - 'a' + 10; }

/* Reads row i of r into cells and hands it to row(); bytea's hex is
 * decoded into scratch (at[k]: where cell k's bytes start there). Returns
 * row()'s answer. */
static int deliver(PGresult *r, int i, srv_cell *cells, size_t *at, int nc, strbuf *scratch, srv_row_fn row,
                   void *ctx) {
  scratch->len = 0;
  for (int k = 0; k < nc; k++) {
    srv_cell *x = &cells[k];
    memset(x, 0, sizeof *x);
    at[k] = (size_t)-1;
    if (pq.PQgetisnull(r, i, k)) continue;
    const char *v = pq.PQgetvalue(r, i, k);
    size_t n = (size_t)pq.PQgetlength(r, i, k);
    x->p = v;
    x->n = n;
    switch (pq.PQftype(r, k)) {
    case OID_BOOL: x->type = SRV_INT; x->i = v[0] == 't'; break;
    case OID_INT2: case OID_INT4: case OID_INT8: case OID_OID: x->type = SRV_INT; x->i = strtoll(v, NULL, 10); break;
    case OID_FLOAT4: case OID_FLOAT8: x->type = SRV_REAL; x->x = strtod(v, NULL); break;
    case OID_NUMERIC: x->type = SRV_DECIMAL; break;
    case OID_DATE: x->type = SRV_DATE; break;
    case OID_TIMESTAMP: x->type = SRV_TIMESTAMP; break;
    case OID_TIMESTAMPTZ: x->type = SRV_TIMESTAMPTZ; break;
    case OID_TIME: case OID_TIMETZ: x->type = SRV_TIME; break;
    case OID_INTERVAL: x->type = read_interval(v, &x->i) ? SRV_DURATION : SRV_TEXT; break;
    case OID_BYTEA:
      x->type = SRV_BLOB;
      if (n >= 2 && v[0] == '\\' && v[1] == 'x') {
        at[k] = scratch->len;
        for (size_t j = 2; j + 1 < n; j += 2) sb_putc(scratch, (char)(hexv(v[j]) * 16 + hexv(v[j + 1])));
        x->n = scratch->len - at[k];
      }
      break;
    default: x->type = SRV_TEXT;
    }
  }
  for (int k = 0; k < nc; k++)
    if (at[k] != (size_t)-1) cells[k].p = scratch->buf ? scratch->buf + at[k] : "";
  return row(ctx, cells, nc);
}

/* What a failed result says: SRV_TIMEOUT for a cancel (57014), SRV_REFUSED
 * for a write in the read-only transaction (25006) or a privilege (42501),
 * else SRV_ERROR; why gets the server's message. */
static int failure(PGresult *r, char *why, size_t wn) {
  const char *state = pq.PQresultErrorField(r, PG_DIAG_SQLSTATE);
  message(pq.PQresultErrorMessage(r), why, wn);
  if (state && !strcmp(state, "57014")) return SRV_TIMEOUT;
  if (state && (!strcmp(state, "25006") || !strcmp(state, "42501"))) {
    char m[420];
    snprintf(m, sizeof m, "refused: %s", why);
    snprintf(why, wn, "%s", m);
    return SRV_REFUSED;
  }
  return SRV_ERROR;
}

static int pg_query(srv_conn *c, const char *sql, srv_row_fn row, void *ctx, char *why, size_t wn) {
  double deadline = now_s() + c->timeout + 5; /* the server stops it at timeout; past this, it is gone */
  if (!pq.PQenterPipelineMode(c->pg)) {
    message(pq.PQerrorMessage(c->pg), why, wn);
    return pq.PQstatus(c->pg) == CONNECTION_BAD ? SRV_LOST : SRV_ERROR;
  }
  int sent = pq.PQsendQueryParams(c->pg, "BEGIN READ ONLY", 0, NULL, NULL, NULL, NULL, 0) &&
             pq.PQsendQueryParams(c->pg, sql, 0, NULL, NULL, NULL, NULL, 0) &&
             pq.PQpipelineSync(c->pg) && pq.PQsendQueryParams(c->pg, "ROLLBACK", 0, NULL, NULL, NULL, NULL, 0) &&
             pq.PQpipelineSync(c->pg);
  if (!sent) {
    message(pq.PQerrorMessage(c->pg), why, wn);
    pq.PQexitPipelineMode(c->pg);
    return SRV_LOST;
  }
  int status = SRV_OK, syncs = 0, step = 0, lost = 0, stopped = 0, ncols = -1;
  srv_cell *cells = NULL;
  size_t *at = NULL;
  strbuf scratch = {0};
  /* step 0: BEGIN's result; 1: the statement's; 2: ROLLBACK's */
  while (syncs < 2) {
    PGresult *r = next_result(c, deadline, &lost);
    if (lost) {
      pq.PQclear(r);
      status = SRV_LOST;
      snprintf(why, wn, "the connection to the server was lost or it stopped answering");
      break;
    }
    if (!r) { /* the end of one query's results */
      if (++step == 1) pq.PQsetSingleRowMode(c->pg); /* for the query now current: the statement */
      continue;
    }
    ExecStatusType st = pq.PQresultStatus(r);
    if (st == PGRES_PIPELINE_SYNC) {
      syncs++;
      step = syncs == 1 ? 2 : 3;
    } else if (step == 1 && (st == PGRES_SINGLE_TUPLE || st == PGRES_TUPLES_OK)) {
      if (ncols < 0) {
        ncols = pq.PQnfields(r);
        cells = calloc((size_t)(ncols ? ncols : 1), sizeof *cells);
        at = calloc((size_t)(ncols ? ncols : 1), sizeof *at);
        if (!cells || !at || row(ctx, NULL, ncols)) {
          stopped = 1;
          pg_cancel(c);
        }
      }
      if (st == PGRES_SINGLE_TUPLE && !stopped && deliver(r, 0, cells, at, ncols, &scratch, row, ctx)) {
        stopped = 1;
        pg_cancel(c);
      }
    } else if (st == PGRES_FATAL_ERROR && status == SRV_OK && step <= 1) {
      status = stopped ? SRV_STOPPED : failure(r, why, wn);
    } else if (st == PGRES_FATAL_ERROR && step >= 2 && status == SRV_OK) {
      message(pq.PQresultErrorMessage(r), why, wn); /* ROLLBACK failed: the session cannot be trusted */
      status = SRV_LOST;
    }
    pq.PQclear(r);
  }
  if (status == SRV_OK && stopped) status = SRV_STOPPED;
  if (status == SRV_OK && ncols < 0) row(ctx, NULL, 0); /* a statement without rows */
  free(cells);
  free(at);
  free(scratch.buf);
  if (status != SRV_LOST && !pq.PQexitPipelineMode(c->pg)) status = SRV_LOST;
  return status;
}

static int pg_own(srv_conn *c, const char *sql, char *why, size_t wn) {
  PGresult *r = pq.PQexec(c->pg, sql);
  ExecStatusType st = pq.PQresultStatus(r);
  int ok = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;
  if (!ok) message(pq.PQresultErrorMessage(r), why, wn);
  pq.PQclear(r);
  return ok ? 0 : -1;
}

static void pg_quote(srv_conn *c, strbuf *sb, const char *text, size_t n) {
  char *q = pq.PQescapeLiteral(c->pg, text, n);
  sb_puts(sb, q ? q : "NULL");
  pq.PQfreemem(q);
}

/* ---------------------------------------------------------------- loading */

#define COPY_BATCH (1 << 20) /* bytes of COPY data sent at once */

static int pg_rows_begin(srv_conn *c, const char *table, const char *columns, int ncols, char *why, size_t wn) {
  (void)ncols;
  strbuf sql = {0};
  sb_printf(&sql, "COPY %s (%s) FROM STDIN", table, columns);
  PGresult *r = pq.PQexec(c->pg, sql.buf);
  free(sql.buf);
  int ok = pq.PQresultStatus(r) == PGRES_COPY_IN;
  if (!ok) {
    char m[420];
    message(pq.PQresultErrorMessage(r), m, sizeof m);
    snprintf(why, wn, "COPY refused: %s", m);
  }
  pq.PQclear(r);
  c->copy.len = 0;
  return ok ? 0 : -1;
}

static int copy_flush(srv_conn *c, char *why, size_t wn) {
  int rc = 0;
  if (c->copy.len && pq.PQputCopyData(c->pg, c->copy.buf, (int)c->copy.len) != 1) {
    message(pq.PQerrorMessage(c->pg), why, wn);
    rc = -1;
  }
  c->copy.len = 0;
  return rc;
}

/* One cell in COPY's text format. */
static void copy_cell(strbuf *sb, const srv_cell *x) {
  switch (x->type) {
  case SRV_NULL: sb_puts(sb, "\\N"); return;
  case SRV_INT: sb_printf(sb, "%lld", x->i); return;
  case SRV_REAL:
    if (x->x != x->x) sb_puts(sb, "NaN");
    else if (x->x > 1.7976931348623157e308) sb_puts(sb, "Infinity");
    else if (x->x < -1.7976931348623157e308) sb_puts(sb, "-Infinity");
    else sb_printf(sb, "%.17g", x->x);
    return;
  case SRV_BLOB:
    sb_puts(sb, "\\\\x");
    for (size_t i = 0; i < x->n; i++) sb_printf(sb, "%02x", (unsigned char)x->p[i]);
    return;
  default:
    for (size_t i = 0; i < x->n; i++) {
      char ch = x->p[i];
      if (ch == '\\') sb_puts(sb, "\\\\");
      else if (ch == '\n') sb_puts(sb, "\\n");
      else if (ch == '\r') sb_puts(sb, "\\r");
      else if (ch == '\t') sb_puts(sb, "\\t");
      else sb_putc(sb, ch);
    }
  }
}

static int pg_rows_put(srv_conn *c, const srv_cell *cells, int ncols, char *why, size_t wn) {
  for (int k = 0; k < ncols; k++) {
    if (k) sb_putc(&c->copy, '\t');
    copy_cell(&c->copy, &cells[k]);
  }
  sb_putc(&c->copy, '\n');
  return c->copy.len >= COPY_BATCH ? copy_flush(c, why, wn) : 0;
}

static int pg_rows_end(srv_conn *c, int ok, char *why, size_t wn) {
  int rc = ok ? copy_flush(c, why, wn) : 0;
  c->copy.len = 0;
  char w2[420];
  if (pq.PQputCopyEnd(c->pg, ok && !rc ? NULL : "abandoned by sqlsim") != 1) {
    message(pq.PQerrorMessage(c->pg), w2, sizeof w2);
    if (!rc) snprintf(why, wn, "%s", w2);
    return -1;
  }
  PGresult *r;
  while ((r = pq.PQgetResult(c->pg))) {
    if (pq.PQresultStatus(r) != PGRES_COMMAND_OK && !rc && ok) {
      message(pq.PQresultErrorMessage(r), why, wn);
      rc = -1;
    }
    pq.PQclear(r);
  }
  return ok ? rc : -1;
}

static int pg_table_exists(srv_conn *c, const char *kept, char *why, size_t wn) {
  strbuf sb = {0};
  sb_puts(&sb, "SELECT 1 FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = ");
  pg_quote(c, &sb, kept, strlen(kept));
  PGresult *r = pq.PQexec(c->pg, sb.buf);
  free(sb.buf);
  int rc = pq.PQresultStatus(r) == PGRES_TUPLES_OK ? pq.PQntuples(r) > 0 : -1;
  if (rc < 0) message(pq.PQresultErrorMessage(r), why, wn);
  pq.PQclear(r);
  return rc;
}

static int pg_create_db(const srv_url *u, char *why, size_t wn) {
  srv_url admin;
  if (srv_url_copy(&admin, u)) return snprintf(why, wn, "out of memory"), -1;
  admin.admin = 1; /* the server's maintenance database */
  sqlsim_error e = {0};
  srv_conn *c = pg_connect(&admin, 3600, 0, 1, &e);
  srv_url_clear(&admin);
  if (!c) return snprintf(why, wn, "%s", e.message), -1;
  strbuf sb = {0};
  sb_puts(&sb, "CREATE DATABASE ");
  srv_put_name_quoted(&sb, u->dbname);
  int rc = pg_own(c, sb.buf, why, wn);
  free(sb.buf);
  pg_close(c);
  return rc;
}

static const char *pg_column_type(int type, size_t maxlen, int keyed, char *buf, size_t n) {
  (void)maxlen, (void)keyed, (void)buf, (void)n;
  static const char *const names[] = {"BIGINT", "DOUBLE PRECISION", "TEXT", "BYTEA", "DATE", "TIMESTAMP"};
  return names[type];
}

static const char *pg_declared_type(const char *declared) {
  if (strcasestr(declared, "int") || strcasestr(declared, "bool")) return "BIGINT";
  if (strcasestr(declared, "datetime") || strcasestr(declared, "timestamp")) return "TIMESTAMP";
  if (strcasestr(declared, "date")) return "DATE";
  if (strcasestr(declared, "time")) return "TEXT";
  if (strcasestr(declared, "real") || strcasestr(declared, "float") || strcasestr(declared, "double") ||
      strcasestr(declared, "num") || strcasestr(declared, "dec"))
    return "DOUBLE PRECISION";
  if (strcasestr(declared, "blob")) return "BYTEA";
  return "TEXT";
}

static void pg_put_blob(strbuf *sb, const unsigned char *p, size_t n) {
  sb_puts(sb, "'\\x");
  for (size_t i = 0; i < n; i++) sb_printf(sb, "%02x", p[i]);
  sb_putc(sb, '\'');
}

/* ---------------------------------------------------------------- temporary tables */

static void pg_columns_sql(srv_conn *c, strbuf *sb, const char *name) {
  strbuf q = {0};
  srv_put_name_folded(&q, name); /* regclass reads the quoted name */
  sb_puts(sb, "SELECT quote_ident(attname) || ' ' || format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = (");
  pg_quote(c, sb, q.buf, q.len);
  sb_puts(sb, ")::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum");
  free(q.buf);
}

/* Nothing vacuums a temporary table: the dead rows of thousands of reloads
 * would make every later scan slower (TRUNCATE costs a millisecond and more
 * a table: files and catalog). VACUUM runs outside a transaction, with the
 * session's read-only default lifted around it; a session that cannot be
 * made read-only again is given up (-1). */
static int pg_reloaded(srv_conn *c, const char *const *names, int n, unsigned long loads) {
  if (loads % 32) return 0;
  char why[200];
  if (pg_own(c, "SET default_transaction_read_only = off", why, sizeof why)) return 0;
  strbuf vac = {0};
  for (int t = 0; t < n; t++) {
    vac.len = 0;
    sb_puts(&vac, "VACUUM ");
    srv_put_name_folded(&vac, names[t]);
    pg_own(c, vac.buf, why, sizeof why);
  }
  free(vac.buf);
  return pg_own(c, "SET default_transaction_read_only = on", why, sizeof why) ? -1 : 0;
}

/* ---------------------------------------------------------------- the entry */

/* Functions that read files, signal or configure the server or other
 * sessions, take locks that outlive the statement, or run SQL given as a
 * string (past the check). */
static const char *const pg_denied[] = {
    "pg_read_file", "pg_read_binary_file", "pg_ls_dir", "pg_stat_file", "pg_ls_logdir", "pg_ls_waldir",
    "pg_ls_tmpdir", "pg_ls_archive_statusdir", "pg_ls_logicalsnapdir", "pg_ls_logicalmapdir",
    "pg_ls_replslotdir", "lo_import", "lo_export", "lo_get", "lo_open", "lo_creat", "lo_create", "lo_unlink",
    "lo_from_bytea", "lo_put", "pg_terminate_backend", "pg_cancel_backend", "pg_reload_conf",
    "pg_rotate_logfile", "pg_switch_wal", "pg_create_restore_point", "pg_promote", "pg_log_backend_memory_contexts",
    "set_config", "pg_advisory_lock", "pg_advisory_lock_shared", "pg_try_advisory_lock",
    "pg_try_advisory_lock_shared", "pg_advisory_xact_lock", "pg_advisory_xact_lock_shared",
    "pg_try_advisory_xact_lock", "pg_try_advisory_xact_lock_shared", "pg_advisory_unlock",
    "pg_advisory_unlock_all", "pg_advisory_unlock_shared", "pg_notify", "pg_logical_emit_message",
    "query_to_xml", "query_to_xml_and_xmlschema", "query_to_xmlschema", "cursor_to_xml", "cursor_to_xmlschema",
    "dblink", "dblink_exec", "dblink_connect", "dblink_send_query", "dblink_open", "pg_file_write",
    "pg_file_rename", "pg_file_unlink", "pg_import_system_collations", "pg_replication_origin_create",
    "pg_create_physical_replication_slot", "pg_create_logical_replication_slot", "pg_drop_replication_slot",
    "pg_export_snapshot", "pg_current_logfile", "txid_current", "pg_current_xact_id", NULL};
static const char *const pg_first[] = {"select", "with", "values", "table", NULL};
static const char *const pg_schemes[] = {"postgresql", "postgres", NULL};

const exec_engine exec_postgres = {
    .name = "PostgreSQL",
    .id = SQLSIM_ENGINE_POSTGRES,
    .schemes = pg_schemes,
    .url_form = EXEC_URL_SERVER,
    .dialect = SQLSIM_DIALECT_POSTGRES,
    .install = "on Debian: apt install libpq5",
    .usage = "postgresql://[user[:password]@][host][:port]/DB[?host=/socket/dir&...] (libpq's parameters)",
    .lexis = SRV_LEX_POSTGRES,
    .first = pg_first,
    .denied = pg_denied,
    .put_name = srv_put_name_folded,
    .put_blob = pg_put_blob,
    .column_type = pg_column_type,
    .declared_type = pg_declared_type,
    .connect = pg_connect,
    .close = pg_close,
    .query = pg_query,
    .cancel = pg_cancel,
    .own = pg_own,
    .quote = pg_quote,
    .create_db = pg_create_db,
    .table_exists = pg_table_exists,
    .table_options = "",
    .drop_options = " CASCADE",
    .begin = "BEGIN",
    .analyze = "ANALYZE ",
    .keys_after = 1,
    .foreign_keys_after = 1,
    .rows_begin = pg_rows_begin,
    .rows_put = pg_rows_put,
    .rows_end = pg_rows_end,
    .temp_like = "CREATE TEMP TABLE %s (LIKE %s)",
    .temp_create = "CREATE TEMP TABLE",
    .write_begin = "BEGIN READ WRITE;\n",
    .columns_sql = pg_columns_sql,
    .reloaded = pg_reloaded,
};
