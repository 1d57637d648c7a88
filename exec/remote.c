/* remote.c -- a server's database as an executor connection: the same
 * sqlsim_db, sqlsim_exec and result as SQLite's, through a backend of
 * server.h.
 *
 * A statement is checked (srv_guard) before it is sent, runs under the
 * server's time limit with the watchdog's cancel as the client's (at the
 * limit plus a second), and its rows are hashed as they arrive, counted
 * against the row limit and their bytes against the result budget. A lost
 * connection is opened again once and the statement run again (not one the
 * watchdog stopped: that one timed out); the result says it reconnected. */
#include "db.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CLIENT_GRACE 1.0 /* the client's cancel, after the server's own limit */

static double cpu_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int exec_server_open(const exec_target *t, const char *db_id, const sqlsim_exec_opts *opts, sqlsim_db **out,
                     sqlsim_error *err) {
  *out = NULL;
  sqlsim_db *d = exec_db_new(opts);
  if (!d) return sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
  int rc = srv_url_bind(t, db_id, &d->url, err);
  if (rc) {
    exec_db_free(d);
    return rc;
  }
  d->srv = t->engine;
  sqlsim_error e = {0};
  d->sc = d->srv->connect(&d->url, d->timeout, d->mem_cap, 0, &e);
  if (!d->sc) {
    char *shown = srv_url_redact(d->url.text);
    rc = sqlsim_error_set(err, e.code ? e.code : SQLSIM_EIO, -1, "%.300s: %s", shown ? shown : "the server",
                          e.message);
    free(shown);
    srv_url_clear(&d->url);
    exec_db_free(d);
    return rc;
  }
  *out = d;
  return 0;
}

void exec_server_close(sqlsim_db *d) {
  d->srv->close(d->sc);
  srv_url_clear(&d->url);
  exec_db_free(d);
}

/* A new connection for d after its last was lost: 0, or -1 with why. */
static int reconnect(sqlsim_db *d, char *why, size_t wn) {
  d->srv->close(d->sc);
  sqlsim_error e = {0};
  d->sc = d->srv->connect(&d->url, d->timeout, d->mem_cap, 0, &e);
  if (!d->sc) {
    snprintf(why, wn, "the connection to the server was lost and could not be made again: %.180s", e.message);
    return -1;
  }
  d->reconnects++;
  return 0;
}

/* With SQLSIM_STATS set, the statements sent to each engine and their time
 * are printed when the process ends (to weigh an engine's cost per
 * statement against another's: bench/bench_strict_engines.py). */
static struct {
  pthread_mutex_t mu;
  const exec_engine *e[8];
  long n[8][2];
  double s[8][2];
} stats = {PTHREAD_MUTEX_INITIALIZER, {0}, {{0}}, {{0}}};

static void stats_print(void) {
  for (int i = 0; i < 8 && stats.e[i]; i++)
    fprintf(stderr, "sqlsim stats: %s: %ld queries in %.3f s, %ld scripts of sqlsim's own (generated databases loaded) in %.3f s\n",
            stats.e[i]->name, stats.n[i][0], stats.s[i][0], stats.n[i][1], stats.s[i][1]);
}

/* Counts one statement of engine e (own: sqlsim's) that took s seconds. */
static void stats_add(const exec_engine *e, int own, double s) {
  static int on = -1;
  if (on < 0) on = getenv("SQLSIM_STATS") != NULL;
  if (!on) return;
  pthread_mutex_lock(&stats.mu);
  int i = 0;
  while (i < 8 && stats.e[i] && stats.e[i] != e) i++;
  if (i < 8) {
    if (!stats.e[i] && !stats.e[0]) atexit(stats_print);
    stats.e[i] = e;
    stats.n[i][own]++;
    stats.s[i][own] += s;
  }
  pthread_mutex_unlock(&stats.mu);
}

/* Runs sql with the watchdog armed: the backend's SRV_* status. */
static int run_armed(sqlsim_db *d, const char *sql, srv_row_fn row, void *ctx, char *why, size_t wn) {
  d->timed_out = 0;
  double t0 = sbx_clock();
  d->guard.deadline = t0 + d->timeout + CLIENT_GRACE;
  exec_wd_arm(d);
  int st = d->srv->query(d->sc, sql, row, ctx, why, wn);
  exec_wd_disarm(d);
  stats_add(d->srv, 0, sbx_clock() - t0);
  if (st == SRV_ERROR && d->timed_out) st = SRV_TIMEOUT; /* the cancel's own error */
  return st;
}

/* Runs sql, opening the connection again once when it was lost: the
 * backend's status; *reconnected when it did. reset() starts the result over
 * before the second run. */
static int run_once_more(sqlsim_db *d, const char *sql, srv_row_fn row, void *ctx, void (*reset)(void *), char *why,
                         size_t wn, int *reconnected) {
  *reconnected = 0;
  if (!d->sc) {
    if (reconnect(d, why, wn)) return SRV_LOST;
    *reconnected = 1;
  }
  int st = run_armed(d, sql, row, ctx, why, wn);
  if (st != SRV_LOST) return st;
  if (d->timed_out) { /* it ran past the limit and the server stopped answering */
    snprintf(why, wn, "stopped: over the %g s time limit (the server did not answer the cancel)", d->timeout);
    if (reconnect(d, why, wn)) d->sc = NULL;
    else *reconnected = 1;
    return SRV_TIMEOUT;
  }
  char first[200];
  snprintf(first, sizeof first, "%s", why);
  if (reconnect(d, why, wn)) {
    d->sc = NULL;
    return SRV_LOST;
  }
  *reconnected = 1;
  if (reset) reset(ctx);
  st = run_armed(d, sql, row, ctx, why, wn);
  if (st == SRV_LOST) {
    snprintf(why, wn, "the connection to the server was lost twice running this statement: %.180s", first);
    d->srv->close(d->sc);
    d->sc = NULL;
  }
  return st;
}

/* ---------------------------------------------------------------- results */

typedef struct collect {
  sqlsim_db *d;
  sqlsim_result *r;
  unsigned flags;
  long cap;
  size_t bytes;
  double t0;
  srv_row_fn each;         /* exec_each_row: rows handed on, not kept */
  void (*each_reset)(void *);
  void *each_ctx;
} collect;

static void collect_reset(void *ctx) {
  collect *k = ctx;
  if (k->each_reset) k->each_reset(k->each_ctx);
  sqlsim_result_free(k->r);
  k->r->nrows = 0;
  k->r->ncols = 0;
  k->r->status = SQLSIM_EXEC_OK;
  k->r->reason[0] = '\0';
  k->r->first_row_s = 0;
  k->cap = 0;
  k->bytes = 0;
}

static int too_big(sqlsim_result *r, const char *fmt, unsigned long long n) {
  r->status = SQLSIM_EXEC_TOO_BIG;
  snprintf(r->reason, sizeof r->reason, fmt, n);
  return 1;
}

static int collect_row(void *ctx, const srv_cell *cells, int nc) {
  collect *k = ctx;
  sqlsim_result *r = k->r;
  if (!cells) {
    r->ncols = nc;
    return k->each ? k->each(k->each_ctx, NULL, nc) : 0;
  }
  if (r->nrows == 0) r->first_row_s = sbx_clock() - k->t0;
  if (r->nrows >= k->d->max_rows) return too_big(r, "stopped: more than %llu rows", (unsigned long long)k->d->max_rows);
  for (int i = 0; i < nc; i++) k->bytes += cells[i].n + 8;
  if (k->bytes > DEFAULT_RESULT_BYTES)
    return too_big(r, "stopped: the result is over %llu MiB", (unsigned long long)(DEFAULT_RESULT_BYTES >> 20));
  if (k->each) {
    if (k->each(k->each_ctx, cells, nc))
      return too_big(r, "stopped: the result is over %llu MiB", (unsigned long long)(DEFAULT_RESULT_BYTES >> 20));
    r->nrows++;
    return 0;
  }
  if (k->flags & SQLSIM_EXEC_NO_CELLS) {
    r->nrows++;
    return 0;
  }
  if ((r->nrows + 1) * nc > k->cap) {
    k->cap = k->cap ? k->cap * 2 : 64 * (nc ? nc : 1);
    if (!exec_grow_cells(r, k->cap, k->flags))
      return too_big(r, "stopped: the result is over %llu MiB", (unsigned long long)(DEFAULT_RESULT_BYTES >> 20));
  }
  for (int i = 0; i < nc; i++) {
    long at = r->nrows * nc + i;
    double num;
    unsigned char kind;
    r->cells[at] = srv_cell_hash(&cells[i], &num, &kind);
    if (k->flags & SQLSIM_EXEC_VALUES) {
      r->kinds[at] = kind;
      r->nums[at] = num;
    }
  }
  r->nrows++;
  return 0;
}

static void server_run(sqlsim_db *d, const char *sql, unsigned flags, collect *k0, sqlsim_result *r);

void exec_server_run(sqlsim_db *d, const char *sql, unsigned flags, sqlsim_result *r) {
  collect k = {0};
  server_run(d, sql, flags, &k, r);
}

void exec_server_each(sqlsim_db *d, const char *sql, srv_row_fn row, void (*reset)(void *), void *ctx,
                      sqlsim_result *r) {
  collect k = {.each = row, .each_reset = reset, .each_ctx = ctx};
  server_run(d, sql, SQLSIM_EXEC_NO_CELLS, &k, r);
}

static void server_run(sqlsim_db *d, const char *sql, unsigned flags, collect *k0, sqlsim_result *r) {
  memset(r, 0, sizeof *r);
  int cpu = !(flags & SQLSIM_EXEC_NO_CPU_TIME);
  double t0 = sbx_clock(), c0 = cpu ? cpu_now() : 0;
  int st = srv_guard(d->srv, sql, r->reason, sizeof r->reason);
  if (st) {
    r->status = st;
    r->total_s = r->first_row_s = sbx_clock() - t0;
    return;
  }
  collect k = *k0;
  k.d = d, k.r = r, k.flags = flags, k.t0 = t0;
  char why[256] = "";
  int reconnected;
  st = run_once_more(d, sql, collect_row, &k, collect_reset, why, sizeof why, &reconnected);
  r->reconnected = reconnected;
  /* a server may answer a statement it stopped at its limit (MariaDB's
   * BENCHMARK gives 0): past the limit is over it, whatever came back */
  if ((st == SRV_OK || st == SRV_STOPPED) && sbx_clock() - t0 > d->timeout) st = SRV_TIMEOUT;
  switch (st) {
  case SRV_OK: break;
  case SRV_STOPPED: break; /* collect_row said why */
  case SRV_TIMEOUT:
    r->status = SQLSIM_EXEC_TIMEOUT;
    snprintf(r->reason, sizeof r->reason, "stopped: over the %g s time limit", d->timeout);
    break;
  case SRV_TOO_BIG:
    r->status = SQLSIM_EXEC_TOO_BIG;
    snprintf(r->reason, sizeof r->reason, "stopped: %.240s", why);
    break;
  case SRV_REFUSED:
    r->status = SQLSIM_EXEC_REFUSED;
    snprintf(r->reason, sizeof r->reason, "%s", why);
    break;
  default:
    r->status = SQLSIM_EXEC_ERROR;
    snprintf(r->reason, sizeof r->reason, "%s", why);
  }
  if (r->status != SQLSIM_EXEC_OK) {
    sqlsim_result_free(r);
    if (r->status != SQLSIM_EXEC_TOO_BIG) r->nrows = 0;
  }
  r->total_s = sbx_clock() - t0;
  r->cpu_s = cpu ? cpu_now() - c0 : 0;
  if (r->first_row_s == 0) r->first_row_s = r->total_s;
}

/* ---------------------------------------------------------------- rows as JSON */

typedef struct rows_json {
  strbuf sb;
  const long *want;
  int nwant, first_n, k, shown;
  long n, max;
} rows_json;

static void json_cell(strbuf *sb, const srv_cell *c) {
  switch (c->type) {
  case SRV_NULL: sb_puts(sb, "null"); return;
  case SRV_INT: sb_printf(sb, "%lld", c->i); return;
  case SRV_REAL: sb_json_real(sb, c->x); return;
  case SRV_BLOB:
    sb_putc(sb, '"');
    for (size_t j = 0; j < c->n && j < 64; j++) sb_printf(sb, "%02x", (unsigned char)c->p[j]);
    sb_putc(sb, '"');
    return;
  default: {
    size_t n = c->n > 1000 ? 1000 : c->n; /* long text cut: evidence, not data */
    char *t = malloc(n + 1);
    if (!t) return;
    memcpy(t, c->p ? c->p : "", n);
    t[n] = '\0';
    sb_json_str(sb, t);
    free(t);
  }
  }
}

static int json_row(void *ctx, const srv_cell *cells, int nc) {
  rows_json *j = ctx;
  if (!cells) return 0;
  if (j->n >= j->max) return 1;
  int show = j->want ? (j->k < j->nwant && j->want[j->k] == j->n) : j->n < j->first_n;
  if (show) {
    sb_puts(&j->sb, j->shown++ ? ",[" : "[");
    for (int i = 0; i < nc; i++) {
      if (i) sb_putc(&j->sb, ',');
      json_cell(&j->sb, &cells[i]);
    }
    sb_putc(&j->sb, ']');
    j->k++;
  }
  j->n++;
  return 0;
}

static void json_reset(void *ctx) {
  rows_json *j = ctx;
  j->sb.len = 0;
  sb_putc(&j->sb, '[');
  j->k = j->shown = 0;
  j->n = 0;
}

char *exec_server_rows_json(sqlsim_db *d, const char *sql, const long *want, int nwant, int first_n, long *count,
                            char **err) {
  *count = -1;
  *err = NULL;
  rows_json j = {{0}, want, nwant, first_n, 0, 0, 0, d->max_rows};
  sb_putc(&j.sb, '[');
  char why[256] = "";
  int st = srv_guard(d->srv, sql, why, sizeof why), reconnected;
  if (!st) st = run_once_more(d, sql, json_row, &j, json_reset, why, sizeof why, &reconnected);
  else st = SRV_REFUSED;
  if (st == SRV_OK || st == SRV_STOPPED) *count = j.n;
  else *err = strdup(st == SRV_TIMEOUT ? "stopped: over the time limit" : why);
  sb_putc(&j.sb, ']');
  return sb_take(&j.sb);
}

/* ---------------------------------------------------------------- sqlsim's own statements */

const exec_engine *exec_engine_of(const sqlsim_db *d) { return d->srv ? d->srv : &exec_sqlite; }

/* d's connection, opened again when it was lost; NULL when it cannot be. */
static srv_conn *conn_of(sqlsim_db *d) {
  char why[200];
  if (!d->sc && reconnect(d, why, sizeof why)) d->sc = NULL;
  return d->sc;
}

void exec_server_quote(sqlsim_db *d, strbuf *sb, const char *text, size_t n) {
  srv_conn *c = conn_of(d);
  if (c) d->srv->quote(c, sb, text, n);
  else sb_puts(sb, "NULL");
}

void exec_server_columns_sql(sqlsim_db *d, strbuf *sb, const char *name) {
  srv_conn *c = conn_of(d);
  if (c) d->srv->columns_sql(c, sb, name);
}

int exec_server_script(sqlsim_db *d, const char *sql, char *why, size_t wn) {
  if (!d->srv) {
    snprintf(why, wn, "not a server's connection");
    return -1;
  }
  if (!d->sc && reconnect(d, why, wn)) return -1;
  strbuf sb = {0};
  /* the sessions are read-only: this transaction is not (the session stays so) */
  sb_puts(&sb, d->srv->write_begin);
  size_t n = strlen(sql); /* its own last ';' taken off: MySQL refuses an empty statement */
  while (n > 0 && (sql[n - 1] == ';' || sql[n - 1] == '\n' || sql[n - 1] == ' ')) n--;
  sb_putn(&sb, sql, n);
  sb_puts(&sb, ";\nCOMMIT");
  double t0 = sbx_clock();
  int rc = d->srv->own(d->sc, sb.buf, why, wn);
  stats_add(d->srv, 1, sbx_clock() - t0);
  if (rc) {
    char w2[64];
    d->srv->own(d->sc, "ROLLBACK", w2, sizeof w2);
  }
  sb_free(&sb);
  return rc;
}

int exec_server_reloaded(sqlsim_db *d, const char *const *names, int n, unsigned long loads) {
  if (!d->srv || !d->sc || !d->srv->reloaded || d->srv->reloaded(d->sc, names, n, loads) == 0) return 0;
  d->srv->close(d->sc); /* not read-only any more: gone */
  d->sc = NULL;
  return -1;
}

typedef struct own_rows {
  void (*row)(void *ctx, const char *text, size_t n);
  void *ctx;
} own_rows;

static int own_row(void *ctx, const srv_cell *cells, int nc) {
  own_rows *o = ctx;
  if (cells && nc > 0) o->row(o->ctx, cells[0].p ? cells[0].p : "", cells[0].p ? cells[0].n : 0);
  return 0;
}

int exec_server_rows(sqlsim_db *d, const char *sql, void (*row)(void *ctx, const char *text, size_t n), void *ctx,
                     char *why, size_t wn) {
  if (!d->srv) return -1;
  own_rows o = {row, ctx};
  int reconnected;
  int st = run_once_more(d, sql, own_row, &o, NULL, why, wn, &reconnected);
  return st == SRV_OK ? 0 : -1;
}
