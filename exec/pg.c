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
                          "PostgreSQL: its client library cannot be loaded (on Debian: apt install libpq5): %s",
                          pq_error);
}

struct srv_conn {
  PGconn *pg;
  PGcancel *cancel;
  double timeout;
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

static srv_conn *pg_connect(const srv_url *u, double timeout_s, int writable, sqlsim_error *err) {
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

static int pg_copy_begin(srv_conn *c, const char *copy_sql, char *why, size_t wn) {
  PGresult *r = pq.PQexec(c->pg, copy_sql);
  int ok = pq.PQresultStatus(r) == PGRES_COPY_IN;
  if (!ok) message(pq.PQresultErrorMessage(r), why, wn);
  pq.PQclear(r);
  return ok ? 0 : -1;
}

static int pg_copy_data(srv_conn *c, const char *data, size_t n, char *why, size_t wn) {
  if (pq.PQputCopyData(c->pg, data, (int)n) == 1) return 0;
  message(pq.PQerrorMessage(c->pg), why, wn);
  return -1;
}

static int pg_copy_end(srv_conn *c, int ok, char *why, size_t wn) {
  if (pq.PQputCopyEnd(c->pg, ok ? NULL : "abandoned by sqlsim") != 1) {
    message(pq.PQerrorMessage(c->pg), why, wn);
    return -1;
  }
  int rc = 0;
  PGresult *r;
  while ((r = pq.PQgetResult(c->pg))) {
    if (pq.PQresultStatus(r) != PGRES_COMMAND_OK && !rc) {
      message(pq.PQresultErrorMessage(r), why, wn);
      rc = -1;
    }
    pq.PQclear(r);
  }
  return rc;
}

const srv_backend srv_postgres = {"PostgreSQL", pg_connect, pg_close,    pg_query,     pg_cancel,
                                  pg_own,       pg_quote,   pg_copy_begin, pg_copy_data, pg_copy_end};
