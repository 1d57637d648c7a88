/* exec.c -- the safe executor: model-written SQL run against a user's database.
 *
 * A database is opened read-only (SQLITE_OPEN_READONLY, PRAGMA query_only,
 * defensive mode, untrusted schema, extension loading off) with an authorizer
 * that allows reading and nothing else: no INSERT/UPDATE/DELETE, no schema
 * change, no ATTACH/DETACH, no transaction control, no PRAGMA but a few
 * read-only ones, no load_extension(). Only the first statement of a text is
 * prepared, and a text with a second statement is refused before anything
 * runs. A progress handler enforces the wall-clock limit, and a watchdog
 * thread interrupts a single long step. Rows are hashed cell by cell as they
 * stream (cells[]); nothing else is kept.
 *
 * "now": SQLite takes the time for 'now' and CURRENT_* from the VFS, so a
 * fixed time is a VFS that wraps the default one and answers
 * xCurrentTimeInt64 with that time -- every date function sees it. */
#include "core.h"

#include <errno.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_TIMEOUT 30.0
#define DEFAULT_MAX_ROWS 10000000L
#define HEAP_LIMIT ((sqlite3_int64)4 << 30)

struct sqlsim_db {
  sqlite3 *db;
  double timeout;
  long max_rows;
  double deadline;
  int timed_out;
  char denied[200];
  /* watchdog: polls the deadline; arming a query costs a store, no syscall */
  pthread_t watchdog;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  volatile int armed;
  int stop;
};

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double cpu_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---------------------------------------------------------------- fixed now */

typedef struct now_vfs {
  sqlite3_vfs vfs;
  sqlite3_int64 ijd; /* Julian day times 86400000 */
  char name[64];
  struct now_vfs *next;
} now_vfs;

static now_vfs *now_vfs_list;
static pthread_mutex_t now_mu = PTHREAD_MUTEX_INITIALIZER;

static int fixed_time_int64(sqlite3_vfs *v, sqlite3_int64 *out) {
  *out = ((now_vfs *)v)->ijd;
  return SQLITE_OK;
}
static int fixed_time(sqlite3_vfs *v, double *out) {
  *out = (double)((now_vfs *)v)->ijd / 86400000.0;
  return SQLITE_OK;
}

/* Registers (once) a VFS whose clock says fixed ("YYYY-MM-DD[ HH:MM:SS]", UTC);
 * returns its name, or NULL when the text is not a date. */
static const char *fixed_now_vfs(const char *fixed) {
  struct tm tm;
  memset(&tm, 0, sizeof tm);
  const char *e = strptime(fixed, "%Y-%m-%d %H:%M:%S", &tm);
  if (!e) {
    memset(&tm, 0, sizeof tm);
    e = strptime(fixed, "%Y-%m-%d", &tm);
  }
  if (!e || *e) return NULL;
  sqlite3_int64 unix_s = (sqlite3_int64)timegm(&tm);
  sqlite3_int64 ijd = unix_s * 1000 + (sqlite3_int64)210866760000000LL;
  pthread_mutex_lock(&now_mu);
  now_vfs *v;
  for (v = now_vfs_list; v; v = v->next)
    if (v->ijd == ijd) break;
  if (!v) {
    sqlite3_vfs *base = sqlite3_vfs_find(NULL);
    v = calloc(1, sizeof *v);
    v->vfs = *base;
    v->ijd = ijd;
    snprintf(v->name, sizeof v->name, "sqlsim-now-%lld", (long long)ijd);
    v->vfs.zName = v->name;
    v->vfs.xCurrentTimeInt64 = fixed_time_int64;
    v->vfs.xCurrentTime = fixed_time;
    v->vfs.pNext = NULL;
    sqlite3_vfs_register(&v->vfs, 0);
    v->next = now_vfs_list;
    now_vfs_list = v;
  }
  pthread_mutex_unlock(&now_mu);
  return v->name;
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
  if (now_s() > d->deadline) {
    d->timed_out = 1;
    return 1;
  }
  return 0;
}

/* Wakes every 100 ms; a query still running half a second past its deadline
 * (one long step the progress handler cannot reach) is interrupted. */
static void *watchdog_main(void *arg) {
  sqlsim_db *d = arg;
  pthread_mutex_lock(&d->mu);
  while (!d->stop) {
    if (__atomic_load_n(&d->armed, __ATOMIC_ACQUIRE) && now_s() > d->deadline + 0.5) {
      d->timed_out = 1;
      sqlite3_interrupt(d->db);
      __atomic_store_n(&d->armed, 0, __ATOMIC_RELEASE);
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += 100000000L;
    if (ts.tv_nsec >= 1000000000L) {
      ts.tv_sec++;
      ts.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(&d->cv, &d->mu, &ts);
  }
  pthread_mutex_unlock(&d->mu);
  return NULL;
}

static pthread_once_t heap_once = PTHREAD_ONCE_INIT;
static void heap_limit(void) { sqlite3_hard_heap_limit64(HEAP_LIMIT); }

int sqlsim_db_open(const char *path, const sqlsim_exec_opts *opts, sqlsim_db **out,
                   sqlsim_error *err) {
  *out = NULL;
  pthread_once(&heap_once, heap_limit);
  if (access(path, R_OK) != 0)
    return sqlsim_error_set(err, SQLSIM_EIO, -1, "%s: %s", path, strerror(errno));
  const char *vfs = NULL;
  if (opts && opts->fixed_now && !(vfs = fixed_now_vfs(opts->fixed_now)))
    return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "fixed now '%s' is not YYYY-MM-DD[ HH:MM:SS]",
                            opts->fixed_now);
  sqlsim_db *d = calloc(1, sizeof *d);
  d->timeout = opts && opts->timeout_s > 0 ? opts->timeout_s : DEFAULT_TIMEOUT;
  d->max_rows = opts && opts->max_rows > 0 ? opts->max_rows : DEFAULT_MAX_ROWS;
  if (sqlite3_open_v2(path, &d->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, vfs) != SQLITE_OK) {
    int rc = sqlsim_error_set(err, SQLSIM_ESQLITE, -1, "%s: %s", path,
                              d->db ? sqlite3_errmsg(d->db) : "cannot open");
    sqlite3_close(d->db);
    free(d);
    return rc;
  }
  sqlite3_db_config(d->db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, (int *)0);
  sqlite3_db_config(d->db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
  sqlite3_db_config(d->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)0);
  sqlite3_exec(d->db, "PRAGMA query_only = 1", NULL, NULL, NULL);
  sqlite3_limit(d->db, SQLITE_LIMIT_ATTACHED, 0);
  sqlite3_set_authorizer(d->db, authorize, d);
  sqlite3_progress_handler(d->db, 1000, progress, d);
  pthread_mutex_init(&d->mu, NULL);
  pthread_cond_init(&d->cv, NULL);
  pthread_create(&d->watchdog, NULL, watchdog_main, d);
  *out = d;
  return 0;
}

void sqlsim_db_close(sqlsim_db *d) {
  if (!d) return;
  pthread_mutex_lock(&d->mu);
  d->stop = 1;
  pthread_cond_signal(&d->cv);
  pthread_mutex_unlock(&d->mu);
  pthread_join(d->watchdog, NULL);
  pthread_mutex_destroy(&d->mu);
  pthread_cond_destroy(&d->cv);
  sqlite3_close(d->db);
  free(d);
}

/* ---------------------------------------------------------------- hashing */

static uint64_t hash_bytes(uint64_t seed, const unsigned char *p, int n) {
  uint64_t h = seed ^ (0x9e3779b97f4a7c15ULL * (uint64_t)(n + 1));
  int i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, p + i, 8);
    h = (h ^ mix64(w)) * 0x9e3779b97f4a7c15ULL;
  }
  uint64_t tail = 0;
  for (int k = 0; i < n; i++, k++) tail |= (uint64_t)p[i] << (8 * k);
  return mix64(h ^ tail);
}

/* One cell: numbers by value (an integral REAL hashes as the integer, as
 * Python's 1 == 1.0), TEXT and BLOB by bytes under different seeds, NULL. */
static uint64_t hash_cell(sqlite3_stmt *st, int i) {
  switch (sqlite3_column_type(st, i)) {
  case SQLITE_NULL: return 0x6e756c6c6e756c6cULL;
  case SQLITE_INTEGER: return mix64((uint64_t)sqlite3_column_int64(st, i) ^ 0x1111111111111111ULL);
  case SQLITE_FLOAT: {
    double x = sqlite3_column_double(st, i);
    if (x == x && x >= -9.2e18 && x <= 9.2e18 && (double)(sqlite3_int64)x == x)
      return mix64((uint64_t)(sqlite3_int64)x ^ 0x1111111111111111ULL);
    if (x == 0) x = 0; /* -0.0 == 0.0 */
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    return mix64(bits ^ 0x2222222222222222ULL);
  }
  case SQLITE_TEXT:
    return hash_bytes(0x7465787474657874ULL, sqlite3_column_text(st, i), sqlite3_column_bytes(st, i));
  default:
    return hash_bytes(0x626c6f62626c6f62ULL, sqlite3_column_blob(st, i), sqlite3_column_bytes(st, i));
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

void sqlsim_exec_flags(sqlsim_db *d, const char *sql, unsigned flags, sqlsim_result *r) {
  memset(r, 0, sizeof *r);
  d->denied[0] = '\0';
  d->timed_out = 0;
  double t0 = now_s(), c0 = cpu_s();
  d->deadline = t0 + d->timeout;
  sqlite3_stmt *st = NULL;
  const char *tail = NULL;
  int rc = sqlite3_prepare_v2(d->db, sql, -1, &st, &tail);
  if (rc != SQLITE_OK) {
    if (d->denied[0]) fail(r, SQLSIM_EXEC_REFUSED, "%s", d->denied);
    else fail(r, SQLSIM_EXEC_ERROR, "%s", sqlite3_errmsg(d->db));
    sqlite3_finalize(st);
    return;
  }
  if (!st) {
    fail(r, SQLSIM_EXEC_ERROR, "empty query%s", NULL);
    return;
  }
  const char *rest = skip_blank(tail ? tail : "");
  if (*rest) {
    char where[64];
    snprintf(where, sizeof where, "%ld", (long)(rest - sql));
    fail(r, SQLSIM_EXEC_MULTI, "more than one statement (the second starts at offset %s); nothing was run",
         where);
    sqlite3_finalize(st);
    return;
  }
  if (!sqlite3_stmt_readonly(st)) {
    fail(r, SQLSIM_EXEC_REFUSED, "refused: the statement would write%s", NULL);
    sqlite3_finalize(st);
    return;
  }
  int nc = sqlite3_column_count(st);
  r->ncols = nc;
  long cap = 0;
  __atomic_store_n(&d->armed, 1, __ATOMIC_RELEASE);
  int first = 1;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (first) {
      r->first_row_s = now_s() - t0;
      first = 0;
    }
    if (r->nrows >= d->max_rows) {
      char n[32];
      snprintf(n, sizeof n, "%ld", d->max_rows);
      fail(r, SQLSIM_EXEC_TOO_BIG, "stopped: more than %s rows", n);
      break;
    }
    if (flags & SQLSIM_EXEC_NO_CELLS) {
      r->nrows++;
      continue;
    }
    if ((r->nrows + 1) * nc > cap) {
      cap = cap ? cap * 2 : 64 * (nc ? nc : 1);
      uint64_t *p = realloc(r->cells, sizeof *p * (size_t)cap);
      if (p) r->cells = p;
      if (p && (flags & SQLSIM_EXEC_VALUES)) {
        double *q = realloc(r->nums, sizeof *q * (size_t)cap);
        if (q) r->nums = q;
        uint8_t *k = realloc(r->kinds, (size_t)cap);
        if (k) r->kinds = k;
        if (!q || !k) p = NULL;
      }
      if (!p) {
        fail(r, SQLSIM_EXEC_TOO_BIG, "stopped: out of memory for the result%s", NULL);
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
  __atomic_store_n(&d->armed, 0, __ATOMIC_RELEASE);
  r->total_s = now_s() - t0;
  r->cpu_s = cpu_s() - c0;
  if (first) r->first_row_s = r->total_s;
  if (r->status == SQLSIM_EXEC_OK && rc != SQLITE_DONE) {
    if (d->timed_out || rc == SQLITE_INTERRUPT) {
      char t[32];
      snprintf(t, sizeof t, "%g", d->timeout);
      fail(r, SQLSIM_EXEC_TIMEOUT, "stopped: over the %s s time limit", t);
    } else if (rc == SQLITE_NOMEM) {
      fail(r, SQLSIM_EXEC_TOO_BIG, "stopped: SQLite ran out of memory (heap limit)%s", NULL);
    } else if (d->denied[0]) {
      fail(r, SQLSIM_EXEC_REFUSED, "%s", d->denied);
    } else {
      fail(r, SQLSIM_EXEC_ERROR, "%s", sqlite3_errmsg(d->db));
    }
  }
  sqlite3_finalize(st);
}

void sqlsim_result_free(sqlsim_result *r) {
  free(r->cells);
  free(r->nums);
  free(r->kinds);
  r->cells = NULL;
  r->nums = NULL;
  r->kinds = NULL;
}
