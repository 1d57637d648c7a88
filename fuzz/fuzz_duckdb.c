/* fuzz_duckdb.c -- DuckDB's paths (exec/duckdb.c) with any text as model
 * SQL: the guard, the statement run streaming on a small database file
 * (every DuckDB type its values can come as, read from the vectors into
 * cells), a second input compared with it under both EX semantics, and the
 * file unchanged after every input (its size and time; its bytes every 64
 * inputs), nothing written beside it. */
#include "fuzz_common.h"
#include "core.h"

#include <dirent.h>
#include <sqlite3.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[256], path[300], target[320];
static uint64_t sum0;
static int entries0;
static struct stat st0;
static unsigned long inputs;
static sqlsim_db *db;

static uint64_t checksum(void) {
  FILE *f = fopen(path, "rb");
  if (!f) abort();
  uint64_t h = FNV_OFFSET;
  int c;
  while ((c = fgetc(f)) != EOF) h = fnv1a_word(h, (uint64_t)c);
  fclose(f);
  return h;
}

static int entries(void) {
  DIR *d = opendir(dir);
  int n = 0;
  for (struct dirent *x; d && (x = readdir(d));) n++;
  if (d) closedir(d);
  return n;
}

static void cleanup(void) {
  sqlsim_db_close(db);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd)) return;
}

static void setup(void) {
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/sqlsim-fuzz-duckdb-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) abort();
  char src[300];
  snprintf(src, sizeof src, "%s/src.sqlite", dir);
  sqlite3 *w;
  if (sqlite3_open(src, &w) != SQLITE_OK) abort();
  sqlite3_exec(w,
               "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, x REAL, d DATE, s DATETIME, b BLOB);"
               "CREATE TABLE u (a INT REFERENCES t (id), v TEXT UNIQUE);"
               "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 200)"
               " INSERT INTO t SELECT n, 'Name' || (n % 17), n * 0.5, date('2023-01-01', '+' || n || ' days'),"
               " datetime('2023-01-01 10:00:00', '+' || n || ' hours'), randomblob(n % 20) FROM c;"
               "INSERT INTO u SELECT id % 50, 'v' || id FROM t;",
               NULL, NULL, NULL);
  sqlite3_close(w);
  snprintf(target, sizeof target, "duckdb://%s/fuzz.duckdb", dir);
  snprintf(path, sizeof path, "%s/fuzz.duckdb", dir);
  sqlsim_load_report rep;
  sqlsim_error err = {0};
  if (sqlsim_load(src, target, NULL, NULL, &rep, &err)) {
    fprintf(stderr, "fuzz_duckdb: %s\n", err.message);
    abort();
  }
  sqlsim_load_report_free(&rep);
  unlink(src);
  sum0 = checksum();
  entries0 = entries();
  if (stat(path, &st0)) abort();
  sqlsim_exec_opts o = {.timeout_s = 1, .max_rows = 100000, .max_memory = (size_t)256 << 20};
  if (sqlsim_db_open(target, &o, &db, &err)) abort();
  atexit(cleanup);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!db) setup();
  char *buf;
  const char *a, *b;
  fuzz_split(data, size, &buf, &a, &b);
  sqlsim_result r1, r2;
  sqlsim_exec_flags(db, a, SQLSIM_EXEC_VALUES, &r1);
  if (r1.status != SQLSIM_EXEC_OK && !r1.reason[0]) abort(); /* a failure says why */
  sqlsim_exec_flags(db, *b ? b : a, SQLSIM_EXEC_VALUES, &r2);
  if (r1.status == SQLSIM_EXEC_OK && r2.status == SQLSIM_EXEC_OK) {
    sqlsim_ex_bird(&r1, &r2);
    sqlsim_ex_spider(&r1, &r2, 0);
  }
  sqlsim_result_free(&r1);
  sqlsim_result_free(&r2);
  free(buf);
  /* the file's size and time every input, its bytes every 64 (the checksum
   * costs more than most statements) */
  struct stat st;
  if (stat(path, &st) || st.st_size != st0.st_size || st.st_mtim.tv_sec != st0.st_mtim.tv_sec ||
      st.st_mtim.tv_nsec != st0.st_mtim.tv_nsec || (++inputs % 64 == 0 && checksum() != sum0) ||
      entries() != entries0) {
    fprintf(stderr, "the database file changed, or a file was written beside it\n");
    abort();
  }
  return 0;
}
