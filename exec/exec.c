/* exec.c -- the safe executor: model-written SQL run against a user's database.
 *
 * Connections come from the sandbox (exec/sandbox.c): read-only, hardened,
 * limited in value size, SQL length and memory, with the quadratic string
 * functions replaced. On top of that the executor adds an authorizer that
 * allows reading and nothing else: no INSERT/UPDATE/DELETE, no schema change,
 * no ATTACH/DETACH, no transaction control, no PRAGMA but a few read-only
 * ones, no load_extension(). Only the first statement of a text is prepared,
 * and a text with a second statement is refused before anything runs.
 *
 * Time: each statement gets a deadline. The progress handler stops it between
 * virtual-machine steps once the deadline has passed; the replaced functions
 * stop inside one call; and one watchdog thread for the whole process (not
 * one per connection) interrupts a statement whose single step outlives the
 * deadline. Arming the watchdog links the connection into its list under a
 * mutex; the thread polls every 50 ms and leaves when nothing has been armed
 * for a second. Rows are hashed cell by cell as they stream (cells[]). */
#include "db.h"

#include <errno.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>


static double cpu_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---------------------------------------------------------------- authorizer */

static int authorize(void *ctx, int action, const char *a1, const char *a2, const char *db,
                     const char *trigger) {
  (void)db;
  (void)trigger;
  sqlsim_db *d = ctx;
  static const char *const read_pragmas[] = {"table_info", "table_xinfo", "index_list",
                                             "index_info", "index_xinfo", "foreign_key_list",
                                             "table_list", NULL};
  switch (action) {
  case SQLITE_SELECT:
  case SQLITE_READ:
  case SQLITE_RECURSIVE:
    return SQLITE_OK;
  case SQLITE_FUNCTION:
    if (a2 && (!sqlite3_stricmp(a2, "load_extension") || !sqlite3_stricmp(a2, "readfile") ||
               !sqlite3_stricmp(a2, "writefile") || !sqlite3_stricmp(a2, "edit") ||
               !sqlite3_stricmp(a2, "fts3_tokenizer"))) {
      snprintf(d->denied, sizeof d->denied, "refused: function %s() is not allowed", a2);
      return SQLITE_DENY;
    }
    return SQLITE_OK;
  case SQLITE_PRAGMA:
    /* pragmas that only ever read; their argument is a table or index name */
    for (int i = 0; read_pragmas[i]; i++)
      if (a1 && !sqlite3_stricmp(a1, read_pragmas[i])) return SQLITE_OK;
    snprintf(d->denied, sizeof d->denied, "refused: PRAGMA %s is not allowed", a1 ? a1 : "?");
    return SQLITE_DENY;
  default: {
    static const struct {
      int action;
      const char *what;
    } names[] = {{SQLITE_INSERT, "INSERT"},       {SQLITE_UPDATE, "UPDATE"},
                 {SQLITE_DELETE, "DELETE"},       {SQLITE_ATTACH, "ATTACH"},
                 {SQLITE_DETACH, "DETACH"},       {SQLITE_TRANSACTION, "transaction control"},
                 {SQLITE_SAVEPOINT, "SAVEPOINT"}, {SQLITE_ANALYZE, "ANALYZE"},
                 {SQLITE_REINDEX, "REINDEX"},     {SQLITE_ALTER_TABLE, "ALTER TABLE"}};
    const char *what = "schema changes";
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
      if (names[i].action == action) what = names[i].what;
    snprintf(d->denied, sizeof d->denied, "refused: %s is not allowed (read-only evaluation)", what);
    return SQLITE_DENY;
  }
  }
}

/* ---------------------------------------------------------------- limits */

static int progress(void *ctx) {
  sqlsim_db *d = ctx;
  if (sbx_clock() > d->guard.deadline) {
    d->timed_out = 1;
    return 1;
  }
  return 0;
}

/* The process's one watchdog. */
static struct {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  sqlsim_db *head;
  int running;
} wd = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, 0};

static void *watchdog_main(void *arg) {
  (void)arg;
  pthread_mutex_lock(&wd.mu);
  double idle_since = sbx_clock();
  for (;;) {
    double t = sbx_clock();
    if (wd.head) idle_since = t;
    else if (t - idle_since > 1.0) break;
    for (sqlsim_db *d = wd.head; d; d = d->wd_next)
      if (t > d->guard.deadline && !d->timed_out) {
        d->timed_out = 1;
        if (d->srv) d->srv->cancel(d->sc);
        else sqlite3_interrupt(d->db);
      }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += 50000000L;
    if (ts.tv_nsec >= 1000000000L) {
      ts.tv_sec++;
      ts.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(&wd.cv, &wd.mu, &ts);
  }
  wd.running = 0;
  pthread_mutex_unlock(&wd.mu);
  return NULL;
}

/* A forked child has no watchdog thread and may have inherited a held lock. */
static void wd_after_fork(void) {
  pthread_mutex_init(&wd.mu, NULL);
  pthread_cond_init(&wd.cv, NULL);
  wd.head = NULL;
  wd.running = 0;
}

static pthread_once_t wd_once = PTHREAD_ONCE_INIT;
static void wd_setup(void) { pthread_atfork(NULL, NULL, wd_after_fork); }

void exec_wd_arm(sqlsim_db *d) {
  pthread_once(&wd_once, wd_setup);
  pthread_mutex_lock(&wd.mu);
  d->wd_prev = NULL;
  d->wd_next = wd.head;
  if (wd.head) wd.head->wd_prev = d;
  wd.head = d;
  d->wd_armed = 1;
  if (!wd.running) {
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    pthread_t th;
    if (pthread_create(&th, &at, watchdog_main, NULL) == 0) wd.running = 1;
    pthread_attr_destroy(&at);
  }
  pthread_mutex_unlock(&wd.mu);
}

void exec_wd_disarm(sqlsim_db *d) {
  if (!d->wd_armed) return;
  pthread_mutex_lock(&wd.mu);
  if (d->wd_prev) d->wd_prev->wd_next = d->wd_next;
  else wd.head = d->wd_next;
  if (d->wd_next) d->wd_next->wd_prev = d->wd_prev;
  d->wd_armed = 0;
  pthread_mutex_unlock(&wd.mu);
}

/* ---------------------------------------------------------------- connections */

static int db_finish_open(sqlsim_db *d, const sqlsim_exec_opts *opts) {
  sqlite3_set_authorizer(d->db, authorize, d);
  sqlite3_progress_handler(d->db, 1000, progress, d);
  return 0;
}

sqlsim_db *exec_db_new(const sqlsim_exec_opts *opts) {
  sqlsim_db *d = calloc(1, sizeof *d);
  if (!d) return NULL;
  d->mem_cap = opts && opts->max_memory > 0 ? opts->max_memory : SBX_DEFAULT_MEM;
  d->timeout = opts && opts->timeout_s > 0 ? opts->timeout_s : DEFAULT_TIMEOUT;
  d->max_rows = opts && opts->max_rows > 0 ? opts->max_rows : DEFAULT_MAX_ROWS;
  d->acct = sbx_account_new(d->mem_cap);
  if (!d->acct) {
    free(d);
    return NULL;
  }
  return d;
}

void exec_db_free(sqlsim_db *d) {
  sbx_account_release(d->acct);
  free(d);
}

/* A SQLite file as an executor connection. */
static int open_file(const char *path, const sqlsim_exec_opts *opts, sqlsim_db **out, sqlsim_error *err) {
  sqlsim_db *d = exec_db_new(opts);
  if (!d) return sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
  sbx_limits lim = {d->mem_cap, 0, 0};
  int rc = sbx_open(path, opts ? opts->fixed_now : NULL, &lim, d->acct, &d->guard, &d->db, err);
  if (rc) {
    exec_db_free(d);
    return rc;
  }
  db_finish_open(d, opts);
  *out = d;
  return 0;
}

int exec_connect(const exec_target *t, const char *db_id, const sqlsim_exec_opts *opts, sqlsim_db **out,
                 sqlsim_error *err) {
  *out = NULL;
  if (t->engine->connect) return exec_server_open(t, db_id, opts, out, err);
  return open_file(t->url.text, opts, out, err);
}

int sqlsim_db_connect(const char *target, const char *db_id, const sqlsim_exec_opts *opts, sqlsim_db **out,
                      sqlsim_error *err) {
  *out = NULL;
  exec_target t;
  int rc = exec_target_parse(target, &t, err);
  if (rc) return rc;
  rc = exec_connect(&t, db_id, opts, out, err);
  exec_target_clear(&t);
  return rc;
}

int sqlsim_db_open(const char *path, const sqlsim_exec_opts *opts, sqlsim_db **out, sqlsim_error *err) {
  return sqlsim_db_connect(path, NULL, opts, out, err);
}

int sqlsim_engine_of(const char *target) { return exec_engine_for(target)->id; }

char *sqlsim_engine_redacted(const char *target) {
  return exec_engine_for(target)->connect ? srv_url_redact(target) : strdup(target);
}

int sqlsim_db_engine(const sqlsim_db *d) { return exec_engine_of(d)->id; }

int sqlsim_db_reconnects(const sqlsim_db *d) { return d->reconnects; }

int exec_open_image(unsigned char *image, size_t n, const sqlsim_exec_opts *opts, sqlsim_db **out,
                    sqlsim_error *err) {
  *out = NULL;
  sqlsim_db *d = exec_db_new(opts);
  if (!d) {
    sqlite3_free(image);
    return sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
  }
  sbx_limits lim = {d->mem_cap, 0, 0};
  int rc = sbx_open_image(image, n, opts ? opts->fixed_now : NULL, &lim, d->acct, &d->guard, &d->db, err);
  if (rc) {
    exec_db_free(d);
    return rc;
  }
  db_finish_open(d, opts);
  *out = d;
  return 0;
}

int exec_open_scratch(const sqlsim_exec_opts *opts, sqlsim_db **out, sqlsim_error *err) {
  *out = NULL;
  sqlsim_db *d = exec_db_new(opts);
  if (!d) return sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
  sbx_limits lim = {d->mem_cap, 0, 0};
  int rc = sbx_open_memory(opts ? opts->fixed_now : NULL, &lim, d->acct, &d->guard, &d->db, err);
  if (rc) {
    exec_db_free(d);
    return rc;
  }
  db_finish_open(d, opts);
  *out = d;
  return 0;
}

int exec_writable(sqlsim_db *d, int on) {
  if (!d->db) return -1;
  if (on) {
    d->writes++;
    sqlite3_set_authorizer(d->db, NULL, NULL);
    return sqlite3_exec(d->db, "PRAGMA query_only = 0", NULL, NULL, NULL) != SQLITE_OK;
  }
  int rc = sqlite3_exec(d->db, "PRAGMA query_only = 1", NULL, NULL, NULL);
  sqlite3_set_authorizer(d->db, authorize, d);
  return rc != SQLITE_OK;
}

sqlite3 *exec_handle(sqlsim_db *d) { return d ? d->db : NULL; }

unsigned long exec_writes(const sqlsim_db *d) { return d->writes; }
void exec_set_user(sqlsim_db *d, void *user) { d->user = user; }
void *exec_user(const sqlsim_db *d) { return d->user; }

void exec_enter(sqlsim_db *d, double timeout_s, void **saved) {
  *saved = sbx_enter(d->acct);
  d->timed_out = 0;
  d->guard.stopped = 0;
  d->guard.deadline = sbx_clock() + (timeout_s > 0 ? timeout_s : d->timeout);
}

void exec_leave(sqlsim_db *d, void *saved) {
  (void)d;
  sbx_leave(saved);
}

void exec_trust(sqlsim_db *d, int trusted) {
  if (!d->db) return;
  if (trusted) sqlite3_set_authorizer(d->db, NULL, NULL);
  else sqlite3_set_authorizer(d->db, authorize, d);
}

void sqlsim_db_close(sqlsim_db *d) {
  if (!d) return;
  exec_wd_disarm(d);
  if (d->srv) {
    exec_server_close(d);
    return;
  }
  sbx_account *prev = sbx_enter(d->acct);
  sqlite3_close(d->db);
  sbx_leave(prev);
  exec_db_free(d);
}

/* ---------------------------------------------------------------- hashing */

/* One cell, in cells.c's families: numbers by value (an integral REAL
 * hashes as the integer, as Python's 1 == 1.0), TEXT and BLOB by bytes
 * apart, NULL. */
static uint64_t hash_cell(sqlite3_stmt *st, int i) {
  switch (sqlite3_column_type(st, i)) {
  case SQLITE_NULL: return cell_hash_null();
  case SQLITE_INTEGER: return cell_hash_int(sqlite3_column_int64(st, i));
  case SQLITE_FLOAT: return cell_hash_real(sqlite3_column_double(st, i));
  case SQLITE_TEXT: return cell_hash_text(sqlite3_column_text(st, i), (size_t)sqlite3_column_bytes(st, i));
  default: return cell_hash_blob(sqlite3_column_blob(st, i), (size_t)sqlite3_column_bytes(st, i));
  }
}

/* ---------------------------------------------------------------- running */

/* Skips white space, ';' and comments; returns the rest. */
static const char *skip_blank(const char *p) {
  for (;;) {
    while (*p && (strchr(" \t\r\n\f\v;", *p))) p++;
    if (p[0] == '-' && p[1] == '-') {
      while (*p && *p != '\n') p++;
    } else if (p[0] == '/' && p[1] == '*') {
      const char *e = strstr(p + 2, "*/");
      p = e ? e + 2 : p + strlen(p);
    } else {
      return p;
    }
  }
}

static void fail(sqlsim_result *r, int status, const char *fmt, const char *detail) {
  r->status = status;
  snprintf(r->reason, sizeof r->reason, fmt, detail ? detail : "");
}

void sqlsim_exec(sqlsim_db *d, const char *sql, sqlsim_result *r) { sqlsim_exec_flags(d, sql, 0, r); }

/* Why a statement stopped, from SQLite's code and what the guards saw. */
static void fail_from(sqlsim_db *d, sqlsim_result *r, int rc) {
  if (d->timed_out || d->guard.stopped || rc == SQLITE_INTERRUPT) {
    char t[32];
    snprintf(t, sizeof t, "%g", d->timeout);
    fail(r, SQLSIM_EXEC_TIMEOUT, "stopped: over the %s s time limit", t);
  } else if (rc == SQLITE_NOMEM) {
    char m[32];
    snprintf(m, sizeof m, "%zu", d->mem_cap >> 20);
    fail(r, SQLSIM_EXEC_TOO_BIG, "stopped: over the memory limit (%s MiB per query)", m);
  } else if (rc == SQLITE_TOOBIG) {
    fail(r, SQLSIM_EXEC_TOO_BIG, "stopped: %s", sqlite3_errmsg(d->db));
  } else if (d->denied[0]) {
    fail(r, SQLSIM_EXEC_REFUSED, "%s", d->denied);
  } else {
    fail(r, SQLSIM_EXEC_ERROR, "%s", sqlite3_errmsg(d->db));
  }
}

/* Grows the result arrays to hold cap cells; 0 when that would pass the
 * result budget or memory runs out. */
int exec_grow_cells(sqlsim_result *r, long cap, unsigned flags) {
  size_t per = sizeof(uint64_t) + ((flags & SQLSIM_EXEC_VALUES) ? sizeof(double) + 1 : 0);
  if ((size_t)cap * per > DEFAULT_RESULT_BYTES) return 0;
  uint64_t *p = realloc(r->cells, sizeof *p * (size_t)cap);
  if (!p) return 0;
  r->cells = p;
  if (flags & SQLSIM_EXEC_VALUES) {
    double *q = realloc(r->nums, sizeof *q * (size_t)cap);
    if (!q) return 0;
    r->nums = q;
    uint8_t *k = realloc(r->kinds, (size_t)cap);
    if (!k) return 0;
    r->kinds = k;
  }
  return 1;
}

/* A row's values as the driver reads them, handed to each (exec_each_row);
 * non-zero when it stops the query. */
static int each_row(sqlite3_stmt *st, int nc, srv_row_fn each, void *ctx, size_t *bytes) {
  srv_cell cells[64], *c = nc <= 64 ? cells : malloc(sizeof *c * (size_t)nc);
  if (!c) return -1;
  for (int i = 0; i < nc; i++) {
    srv_cell *x = &c[i];
    memset(x, 0, sizeof *x);
    switch (sqlite3_column_type(st, i)) {
    case SQLITE_INTEGER: x->type = SRV_INT, x->i = sqlite3_column_int64(st, i); break;
    case SQLITE_FLOAT: x->type = SRV_REAL, x->x = sqlite3_column_double(st, i); break;
    case SQLITE_NULL: x->type = SRV_NULL; break;
    case SQLITE_BLOB:
      x->type = SRV_BLOB;
      x->p = sqlite3_column_blob(st, i);
      x->n = (size_t)sqlite3_column_bytes(st, i);
      break;
    default:
      x->type = SRV_TEXT;
      x->p = (const char *)sqlite3_column_text(st, i);
      x->n = (size_t)sqlite3_column_bytes(st, i);
    }
    if (!x->p) x->p = "";
    *bytes += x->n + 8;
  }
  int rc = *bytes > DEFAULT_RESULT_BYTES || each(ctx, c, nc);
  if (c != cells) free(c);
  return rc;
}

static void sqlite_run(sqlsim_db *d, const char *sql, unsigned flags, srv_row_fn each, void *ctx,
                       sqlsim_result *r);

void sqlsim_exec_flags(sqlsim_db *d, const char *sql, unsigned flags, sqlsim_result *r) {
  if (d->srv) {
    exec_server_run(d, sql, flags, r);
    return;
  }
  sqlite_run(d, sql, flags, NULL, NULL, r);
}

void exec_each_row(sqlsim_db *d, const char *sql, srv_row_fn row, void (*reset)(void *), void *ctx,
                   sqlsim_result *r) {
  if (d->srv) exec_server_each(d, sql, row, reset, ctx, r);
  else sqlite_run(d, sql, SQLSIM_EXEC_NO_CELLS, row, ctx, r);
}

static void sqlite_run(sqlsim_db *d, const char *sql, unsigned flags, srv_row_fn each, void *ctx,
                       sqlsim_result *r) {
  memset(r, 0, sizeof *r);
  d->denied[0] = '\0';
  int cpu = !(flags & SQLSIM_EXEC_NO_CPU_TIME);
  double t0 = sbx_clock(), c0 = cpu ? cpu_s() : 0;
  void *saved;
  exec_enter(d, d->timeout, &saved);
  exec_wd_arm(d);
  sqlite3_stmt *st = NULL;
  const char *tail = NULL;
  int rc = sqlite3_prepare_v2(d->db, sql, -1, &st, &tail);
  if (rc != SQLITE_OK || !st) {
    if (rc != SQLITE_OK) fail_from(d, r, rc);
    else fail(r, SQLSIM_EXEC_ERROR, "empty query%s", NULL);
    goto done;
  }
  const char *rest = skip_blank(tail ? tail : "");
  if (*rest) {
    char where[64];
    snprintf(where, sizeof where, "%ld", (long)(rest - sql));
    fail(r, SQLSIM_EXEC_MULTI, "more than one statement (the second starts at offset %s); nothing was run",
         where);
    goto done;
  }
  if (!sqlite3_stmt_readonly(st)) {
    fail(r, SQLSIM_EXEC_REFUSED, "refused: the statement would write%s", NULL);
    goto done;
  }
  int nc = sqlite3_column_count(st);
  r->ncols = nc;
  long cap = 0;
  int first = 1;
  size_t bytes = 0;
  if (each && each(ctx, NULL, nc)) {
    fail(r, SQLSIM_EXEC_TOO_BIG, "stopped: out of memory%s", NULL);
    goto done;
  }
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (first) {
      r->first_row_s = sbx_clock() - t0;
      first = 0;
    }
    if (r->nrows >= d->max_rows) {
      char n[32];
      snprintf(n, sizeof n, "%ld", d->max_rows);
      fail(r, SQLSIM_EXEC_TOO_BIG, "stopped: more than %s rows", n);
      break;
    }
    if (each) {
      if (each_row(st, nc, each, ctx, &bytes)) {
        char m[32];
        snprintf(m, sizeof m, "%zu", DEFAULT_RESULT_BYTES >> 20);
        fail(r, SQLSIM_EXEC_TOO_BIG, "stopped: the result is over %s MiB", m);
        break;
      }
      r->nrows++;
      continue;
    }
    if (flags & SQLSIM_EXEC_NO_CELLS) {
      r->nrows++;
      continue;
    }
    if ((r->nrows + 1) * nc > cap) {
      cap = cap ? cap * 2 : 64 * (nc ? nc : 1);
      if (!exec_grow_cells(r, cap, flags)) {
        char m[32];
        snprintf(m, sizeof m, "%zu", DEFAULT_RESULT_BYTES >> 20);
        fail(r, SQLSIM_EXEC_TOO_BIG, "stopped: the result is over %s MiB", m);
        break;
      }
    }
    for (int i = 0; i < nc; i++) {
      long at = r->nrows * nc + i;
      r->cells[at] = hash_cell(st, i);
      if (flags & SQLSIM_EXEC_VALUES) {
        int t = sqlite3_column_type(st, i);
        r->kinds[at] = t == SQLITE_NULL ? 0 : (t == SQLITE_INTEGER || t == SQLITE_FLOAT) ? 1
                       : t == SQLITE_TEXT ? 2 : 3;
        r->nums[at] = r->kinds[at] == 1 ? sqlite3_column_double(st, i) : 0.0 / 0.0;
      }
    }
    r->nrows++;
  }
  if (r->status == SQLSIM_EXEC_OK && rc != SQLITE_DONE) fail_from(d, r, rc);
done:
  r->total_s = sbx_clock() - t0;
  r->cpu_s = cpu ? cpu_s() - c0 : 0;
  if (r->first_row_s == 0) r->first_row_s = r->total_s;
  exec_wd_disarm(d);
  sqlite3_finalize(st);
  exec_leave(d, saved);
}

/* A value as JSON: numbers, text, null; a blob as the hex of its first 64 bytes. */
static void json_cell(strbuf *sb, sqlite3_stmt *st, int i) {
  switch (sqlite3_column_type(st, i)) {
  case SQLITE_INTEGER: sb_printf(sb, "%lld", (long long)sqlite3_column_int64(st, i)); break;
  case SQLITE_FLOAT: sb_json_real(sb, sqlite3_column_double(st, i)); break;
  case SQLITE_NULL: sb_puts(sb, "null"); break;
  case SQLITE_BLOB: {
    const unsigned char *b = sqlite3_column_blob(st, i);
    int n = sqlite3_column_bytes(st, i);
    sb_putc(sb, '"');
    for (int j = 0; j < n && j < 64; j++) sb_printf(sb, "%02x", b[j]);
    sb_putc(sb, '"');
    break;
  }
  default: {
    const unsigned char *t = sqlite3_column_text(st, i);
    int n = sqlite3_column_bytes(st, i);
    char *c = malloc((size_t)(n > 1000 ? 1000 : n) + 1);
    if (!c) break;
    memcpy(c, t ? (const char *)t : "", (size_t)(n > 1000 ? 1000 : n)); /* long text cut: evidence, not data */
    c[n > 1000 ? 1000 : n] = '\0';
    sb_json_str(sb, c);
    free(c);
  }
  }
}

char *exec_rows_json(sqlsim_db *d, const char *sql, const long *want, int nwant, int first_n, long *count,
                     char **err) {
  if (d->srv) return exec_server_rows_json(d, sql, want, nwant, first_n, count, err);
  strbuf sb = {0};
  *count = -1;
  *err = NULL;
  d->denied[0] = '\0';
  void *saved;
  exec_enter(d, d->timeout, &saved);
  exec_wd_arm(d);
  sqlite3_stmt *st = NULL;
  const char *tail = NULL;
  sb_putc(&sb, '[');
  int rc = sqlite3_prepare_v2(d->db, sql, -1, &st, &tail);
  if (rc != SQLITE_OK || !st) {
    *err = strdup(rc != SQLITE_OK ? sqlite3_errmsg(d->db) : "empty query");
  } else if (*skip_blank(tail ? tail : "")) {
    *err = strdup("more than one statement");
  } else if (!sqlite3_stmt_readonly(st)) {
    *err = strdup("refused: the statement would write");
  } else {
    long n = 0;
    int k = 0, shown = 0, nc = sqlite3_column_count(st);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < d->max_rows) {
      int show = want ? (k < nwant && want[k] == n) : n < first_n;
      if (show) {
        sb_puts(&sb, shown++ ? ",[" : "[");
        for (int i = 0; i < nc; i++) {
          if (i) sb_putc(&sb, ',');
          json_cell(&sb, st, i);
        }
        sb_putc(&sb, ']');
        k++;
      }
      n++;
    }
    if (rc == SQLITE_DONE || rc == SQLITE_ROW) *count = n;
    else *err = strdup(d->timed_out ? "stopped: over the time limit" : sqlite3_errmsg(d->db));
  }
  sb_putc(&sb, ']');
  exec_wd_disarm(d);
  sqlite3_finalize(st);
  exec_leave(d, saved);
  return sb_take(&sb);
}

void sqlsim_result_free(sqlsim_result *r) {
  free(r->cells);
  free(r->nums);
  free(r->kinds);
  r->cells = NULL;
  r->nums = NULL;
  r->kinds = NULL;
}

int sqlsim_check_now(const char *text, sqlsim_error *err) {
  long long t;
  return sbx_parse_now(text, &t, err);
}
