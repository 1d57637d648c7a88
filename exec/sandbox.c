/* sandbox.c -- every database sqlsim did not make is opened here.
 *
 * A connection from sbx_open() is read-only (SQLITE_OPEN_READONLY, PRAGMA
 * query_only), defensive, with an untrusted schema (functions with side
 * effects refused inside views and constraints) and extension loading off.
 * sqlite3_limit() bounds what SQL can grow: the largest value (16 MiB), the
 * SQL text (1,000,000 bytes, SQLite's own default), LIKE patterns, attached
 * databases (none), worker threads (none). Temporary tables and sorts stay in
 * memory, so nothing is written to disk and everything counts against the
 * connection's memory account.
 *
 * Accounts: when sqlsim gets to configure SQLite before it is initialized
 * (the CLI always; a library user unless another part of the process used
 * SQLite first), SQLite allocates through a thin wrapper that charges each
 * allocation made while an account is entered on the thread to that account,
 * and refuses it past the account's cap, which SQLite reports as "out of
 * memory" for that statement alone. Each allocation carries its account in a
 * 16-byte header, so frees credit the right account whatever thread frees;
 * an account lives until its owner released it and its last byte is freed.
 * Otherwise a process-wide hard heap limit is the fallback.
 *
 * "now": SQLite takes the time for 'now' and CURRENT_* from the connection's
 * VFS, so a fixed time is a VFS that wraps the default one and answers
 * xCurrentTimeInt64 with that time. */
#include "sandbox.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FALLBACK_HEAP_LIMIT ((sqlite3_int64)4 << 30)

/* ---------------------------------------------------------------- accounts */

struct sbx_account {
  atomic_size_t used;
  size_t cap;
  atomic_long refs; /* the owner's, plus one per live allocation */
};

typedef struct mem_hdr {
  sbx_account *acct;
  size_t size;
} mem_hdr; /* 16 bytes: keeps SQLite's 8-byte alignment */

static sqlite3_mem_methods base_mem;
static _Thread_local sbx_account *cur_account;
static int per_connection;

static void account_drop(sbx_account *a) {
  if (atomic_fetch_sub_explicit(&a->refs, 1, memory_order_acq_rel) == 1) free(a);
}

/* Charges n bytes to a; 0 when that would pass its cap. */
static int account_charge(sbx_account *a, size_t n) {
  size_t before = atomic_fetch_add_explicit(&a->used, n, memory_order_relaxed);
  if (before + n > a->cap) {
    atomic_fetch_sub_explicit(&a->used, n, memory_order_relaxed);
    return 0;
  }
  return 1;
}

static void *mem_malloc(int n) {
  sbx_account *a = cur_account;
  if (n < 0) return NULL;
  if (a && !account_charge(a, (size_t)n)) return NULL;
  mem_hdr *h = base_mem.xMalloc(n + (int)sizeof(mem_hdr));
  if (!h) {
    if (a) atomic_fetch_sub_explicit(&a->used, (size_t)n, memory_order_relaxed);
    return NULL;
  }
  h->acct = a;
  h->size = (size_t)n;
  if (a) atomic_fetch_add_explicit(&a->refs, 1, memory_order_relaxed);
  return h + 1;
}

static void mem_free(void *p) {
  if (!p) return;
  mem_hdr *h = (mem_hdr *)p - 1;
  sbx_account *a = h->acct;
  if (a) {
    atomic_fetch_sub_explicit(&a->used, h->size, memory_order_relaxed);
    account_drop(a);
  }
  base_mem.xFree(h);
}

static void *mem_realloc(void *p, int n) {
  if (!p) return mem_malloc(n);
  if (n < 0) return NULL;
  mem_hdr *h = (mem_hdr *)p - 1;
  sbx_account *a = h->acct;
  size_t old = h->size, want = (size_t)n;
  if (a && want > old && !account_charge(a, want - old)) return NULL;
  mem_hdr *q = base_mem.xRealloc(h, n + (int)sizeof(mem_hdr));
  if (!q) {
    if (a && want > old) atomic_fetch_sub_explicit(&a->used, want - old, memory_order_relaxed);
    return NULL;
  }
  if (a && want < old) atomic_fetch_sub_explicit(&a->used, old - want, memory_order_relaxed);
  q->size = want;
  return q + 1;
}

static int mem_size(void *p) { return p ? (int)((mem_hdr *)p - 1)->size : 0; }

static int mem_roundup(int n) {
  int r = base_mem.xRoundup(n + (int)sizeof(mem_hdr)) - (int)sizeof(mem_hdr);
  return r < n ? n : r;
}

static int mem_init(void *x) {
  (void)x;
  return base_mem.xInit(base_mem.pAppData);
}

static void mem_shutdown(void *x) {
  (void)x;
  base_mem.xShutdown(base_mem.pAppData);
}

sbx_account *sbx_account_new(size_t cap) {
  sbx_account *a = malloc(sizeof *a);
  if (!a) return NULL;
  atomic_init(&a->used, 0);
  a->cap = cap ? cap : SBX_DEFAULT_MEM;
  atomic_init(&a->refs, 1);
  return a;
}

void sbx_account_release(sbx_account *a) {
  if (a) account_drop(a);
}

sbx_account *sbx_enter(sbx_account *a) {
  sbx_account *prev = cur_account;
  cur_account = per_connection ? a : NULL;
  return prev;
}

void sbx_leave(sbx_account *prev) { cur_account = prev; }

/* ---------------------------------------------------------------- set-up */

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void init_sqlite(void) {
  sqlite3_mem_methods m;
  if (sqlite3_config(SQLITE_CONFIG_GETMALLOC, &base_mem) == SQLITE_OK) {
    m = base_mem;
    m.xMalloc = mem_malloc;
    m.xFree = mem_free;
    m.xRealloc = mem_realloc;
    m.xSize = mem_size;
    m.xRoundup = mem_roundup;
    m.xInit = mem_init;
    m.xShutdown = mem_shutdown;
    m.pAppData = NULL;
    per_connection = sqlite3_config(SQLITE_CONFIG_MALLOC, &m) == SQLITE_OK;
    /* SQLite's own memory statistics take one process-wide mutex on every
     * allocation, which serializes threads; the accounts replace them (the
     * fallback heap limit below needs them, so they stay on there) */
    if (per_connection) sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
  }
  if (!per_connection && sqlite3_hard_heap_limit64(-1) == 0) sqlite3_hard_heap_limit64(FALLBACK_HEAP_LIMIT);
  sqlite3_initialize();
}

void sbx_init(void) { pthread_once(&init_once, init_sqlite); }

/* As soon as the library is loaded: before anything else in the process has
 * had a chance to initialize SQLite, if it can be done at all. */
__attribute__((constructor)) static void sbx_load(void) { sbx_init(); }

/* ---------------------------------------------------------------- files */

int sbx_check_file(const char *path, sqlsim_error *err) {
  struct stat st;
  if (!path || !*path) return sqlsim_error_set(err, SQLSIM_EIO, -1, "no database file given");
  if (stat(path, &st) != 0) return sqlsim_error_set(err, SQLSIM_EIO, -1, "%s: %s", path, strerror(errno));
  if (S_ISDIR(st.st_mode))
    return sqlsim_error_set(err, SQLSIM_EIO, -1, "%s: is a directory, not a database file", path);
  if (!S_ISREG(st.st_mode))
    return sqlsim_error_set(err, SQLSIM_EIO, -1, "%s: not a regular file (a device, pipe or socket)", path);
  if (access(path, R_OK) != 0) return sqlsim_error_set(err, SQLSIM_EIO, -1, "%s: %s", path, strerror(errno));
  return 0;
}

/* ---------------------------------------------------------------- fixed now */

static int is_leap(long y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

/* Days since 1970-01-01 of a proleptic Gregorian date. */
static long long days_from_civil(long y, int m, int d) {
  y -= m <= 2;
  long era = (y >= 0 ? y : y - 399) / 400;
  long yoe = y - era * 400;
  long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return (long long)era * 146097 + doe - 719468;
}

static int digits(const char *s, int n, int *out) {
  int v = 0;
  for (int i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return 0;
    v = v * 10 + (s[i] - '0');
  }
  *out = v;
  return 1;
}

int sbx_parse_now(const char *t, long long *unix_s, sqlsim_error *err) {
  static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  int y, mo, d, h = 0, mi = 0, s = 0;
  size_t n = t ? strlen(t) : 0;
  int shape = (n == 10 || n == 19) && t[4] == '-' && t[7] == '-' && digits(t, 4, &y) && digits(t + 5, 2, &mo) &&
              digits(t + 8, 2, &d);
  if (shape && n == 19)
    shape = (t[10] == ' ' || t[10] == 'T') && t[13] == ':' && t[16] == ':' && digits(t + 11, 2, &h) &&
            digits(t + 14, 2, &mi) && digits(t + 17, 2, &s);
  if (!shape)
    return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "'%.40s' is not a date and time: write YYYY-MM-DD or "
                            "'YYYY-MM-DD HH:MM:SS'", t ? t : "");
  if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] + (mo == 2 && is_leap(y)))
    return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "'%s' is not a calendar date", t);
  if (h > 23 || mi > 59 || s > 59) return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "'%s': no such time of day", t);
  *unix_s = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s;
  return 0;
}

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

const char *sbx_vfs(const char *fixed, sqlsim_error *err) {
  sbx_init();
  if (!fixed) return NULL;
  long long unix_s;
  if (sbx_parse_now(fixed, &unix_s, err)) return NULL;
  sqlite3_int64 ijd = (sqlite3_int64)unix_s * 1000 + (sqlite3_int64)210866760000000LL;
  pthread_mutex_lock(&now_mu);
  now_vfs *v;
  for (v = now_vfs_list; v; v = v->next)
    if (v->ijd == ijd) break;
  if (!v && (v = calloc(1, sizeof *v))) {
    v->vfs = *sqlite3_vfs_find(NULL);
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
  if (!v) sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
  return v ? v->name : NULL;
}

/* ---------------------------------------------------------------- connections */

/* Settings every sandboxed connection gets, before anything of the user's runs. */
static int harden(sqlite3 *db, const sbx_limits *lim, sbx_guard *g) {
  sbx_limits l = lim ? *lim : (sbx_limits){0};
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, (int *)0);
  sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
  sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)0);
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, (int *)0);
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, l.value_bytes > 0 ? l.value_bytes : SBX_DEFAULT_VALUE);
  sqlite3_limit(db, SQLITE_LIMIT_SQL_LENGTH, l.sql_bytes > 0 ? l.sql_bytes : SBX_DEFAULT_SQL);
  sqlite3_limit(db, SQLITE_LIMIT_LIKE_PATTERN_LENGTH, SBX_LIKE_PATTERN);
  sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
  sqlite3_limit(db, SQLITE_LIMIT_WORKER_THREADS, 0);
  sqlite3_limit(db, SQLITE_LIMIT_VDBE_OP, 5000000);
  sqlite3_limit(db, SQLITE_LIMIT_TRIGGER_DEPTH, 1);
  if (sqlite3_exec(db, "PRAGMA query_only = 1; PRAGMA temp_store = MEMORY", NULL, NULL, NULL) != SQLITE_OK)
    return SQLITE_ERROR;
  return sqlfuncs_register(db, g);
}

static int open_fail(sqlite3 *db, const char *what, sqlsim_error *err) {
  int rc = sqlsim_error_set(err, SQLSIM_ESQLITE, -1, "%s: %s", what, db ? sqlite3_errmsg(db) : "cannot open");
  sqlite3_close(db);
  return rc;
}

int sbx_open(const char *path, const char *fixed_now, const sbx_limits *lim, sbx_account *acct, sbx_guard *g,
             sqlite3 **out, sqlsim_error *err) {
  *out = NULL;
  sbx_init();
  int rc = sbx_check_file(path, err);
  if (rc) return rc;
  const char *vfs = NULL;
  if (fixed_now && !(vfs = sbx_vfs(fixed_now, err))) return SQLSIM_EFORMAT;
  /* a path that looks like a URI is a file name here, never a URI */
  char *name = !strncmp(path, "file:", 5) ? sqlite3_mprintf("./%s", path) : sqlite3_mprintf("%s", path);
  if (!name) return sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
  sqlite3 *db = NULL;
  sbx_account *prev = sbx_enter(acct);
  rc = sqlite3_open_v2(name, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, vfs);
  if (rc == SQLITE_OK) rc = harden(db, lim, g);
  sbx_leave(prev);
  sqlite3_free(name);
  if (rc != SQLITE_OK) return open_fail(db, path, err);
  *out = db;
  return 0;
}

int sbx_open_image(unsigned char *image, size_t n, const char *fixed_now, const sbx_limits *lim,
                   sbx_account *acct, sbx_guard *g, sqlite3 **out, sqlsim_error *err) {
  *out = NULL;
  sbx_init();
  const char *vfs = NULL;
  if (fixed_now && !(vfs = sbx_vfs(fixed_now, err))) {
    sqlite3_free(image);
    return SQLSIM_EFORMAT;
  }
  sqlite3 *db = NULL;
  sbx_account *prev = sbx_enter(acct);
  int rc = sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, vfs);
  if (rc == SQLITE_OK)
    rc = sqlite3_deserialize(db, "main", image, (sqlite3_int64)n, (sqlite3_int64)n,
                             SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY);
  else
    sqlite3_free(image);
  if (rc == SQLITE_OK) rc = harden(db, lim, g);
  sbx_leave(prev);
  if (rc != SQLITE_OK) return open_fail(db, "in-memory database", err);
  *out = db;
  return 0;
}

int sbx_open_memory(const char *fixed_now, const sbx_limits *lim, sbx_account *acct, sbx_guard *g, sqlite3 **out,
                    sqlsim_error *err) {
  *out = NULL;
  sbx_init();
  const char *vfs = NULL;
  if (fixed_now && !(vfs = sbx_vfs(fixed_now, err))) return SQLSIM_EFORMAT;
  sqlite3 *db = NULL;
  sbx_account *prev = sbx_enter(acct);
  int rc = sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, vfs);
  if (rc == SQLITE_OK) rc = harden(db, lim, g);
  sbx_leave(prev);
  if (rc != SQLITE_OK) return open_fail(db, "in-memory database", err);
  *out = db;
  return 0;
}
