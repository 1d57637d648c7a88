/* fuzz_exec.c -- the safe executor running arbitrary SQL on a small database
 * file, with both EX semantics, the result similarity and the VES timing (on
 * a connection kept for the pair) on top. The file must be byte-identical
 * after every input. */
#include "fuzz_common.h"
#include "core.h"

#include <sqlite3.h>
#include <stdio.h>
#include <unistd.h>

static char path[256];
static uint64_t sum0;
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

static void cleanup(void) {
  sqlsim_db_close(db);
  unlink(path);
}

static void setup(void) {
  const char *tmp = getenv("TMPDIR");
  snprintf(path, sizeof path, "%s/sqlsim-fuzz-exec-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  int fd = mkstemp(path);
  if (fd < 0) abort();
  close(fd);
  sqlite3 *w;
  if (sqlite3_open(path, &w) != SQLITE_OK) abort();
  sqlite3_exec(w,
               "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT COLLATE NOCASE, x REAL, d TEXT);"
               "CREATE TABLE u (a INT REFERENCES t (id), b TEXT UNIQUE, c BLOB);"
               "CREATE INDEX tx ON t (x);"
               "CREATE VIEW v AS SELECT name, count(*) AS n FROM t JOIN u ON u.a = t.id GROUP BY name;"
               "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 200)"
               " INSERT INTO t SELECT n, 'Name' || (n % 17), n * 0.5, date('2023-01-01', '+' || n || ' days') FROM c;"
               "INSERT INTO u SELECT id % 50, 'b' || id, randomblob(8) FROM t;",
               NULL, NULL, NULL);
  sqlite3_close(w);
  sum0 = checksum();
  sqlsim_exec_opts o = {.timeout_s = 1, .max_rows = 100000, .fixed_now = "2023-01-17 00:00:00"};
  if (sqlsim_db_open(path, &o, &db, NULL)) abort();
  atexit(cleanup);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!db) setup();
  char *buf;
  const char *a, *b;
  fuzz_split(data, size, &buf, &a, &b);
  sqlsim_result r1, r2;
  sqlsim_exec_flags(db, a, SQLSIM_EXEC_VALUES, &r1);
  sqlsim_exec_flags(db, *b ? b : a, SQLSIM_EXEC_VALUES, &r2);
  if (r1.status == SQLSIM_EXEC_OK && r2.status == SQLSIM_EXEC_OK) {
    sqlsim_ex_bird(&r1, &r2);
    sqlsim_ex_spider(&r1, &r2, 0);
    sqlsim_ex_spider(&r1, &r2, 1);
    sqlsim_result_sim rs;
    sqlsim_result_similarity(&r1, &r2, 1, &rs);
    if (!(rs.f1 >= 0 && rs.f1 <= 1)) abort();
    /* the VES timing of the two on a connection kept for the pair (and, with
     * a fresh one, what fuzz_exec's kept connection already covers), then the
     * noise floor's arithmetic on what it measured; quick pairs only */
    if (r1.total_s + r2.total_s < 0.02) {
      sqlsim_timing_opts to = {.iterations = 2, .timeout_s = 1, .fixed_now = "2023-01-17 00:00:00",
                               .reuse = 1, .alternate = size % 2};
      sqlsim_timing t;
      sqlsim_time_pair(path, a, *b ? b : a, &to, &t);
      if (t.ok) {
        if (t.n != 2 || !(t.ratio > 0)) abort();
        double x[2] = {t.ratio, t.ratio};
        sqlsim_noise_floor nf;
        sqlsim_noise_floor_of(x, 2, &nf);
        if (nf.n != 2 || !(nf.rves > 0 && nf.rves <= 100 * 1.2)) abort();
      }
    }
  }
  sqlsim_result_free(&r1);
  sqlsim_result_free(&r2);
  char why[256];
  sqlsim_ex_bird_item(db, a, *b ? b : a, why, sizeof why);
  free(buf);
  if (checksum() != sum0) {
    fprintf(stderr, "the database changed\n");
    abort();
  }
  return 0;
}
