/* test_exec.c -- the safe executor against hostile predictions, and EX.
 *
 * Every prediction here must come back as an item-level result with a reason
 * (never a crash or a hang), within the time limit, and the database file must
 * be byte-identical afterwards. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core.h"

static char path[64];

static uint64_t file_checksum(const char *p) {
  FILE *f = fopen(p, "rb");
  assert_non_null(f);
  uint64_t h = FNV_OFFSET;
  int c;
  while ((c = fgetc(f)) != EOF) h = fnv1a_word(h, (uint64_t)c);
  fclose(f);
  return h;
}

static int setup(void **state) {
  (void)state;
  snprintf(path, sizeof path, "/tmp/sqlsim_exec_XXXXXX");
  int fd = mkstemp(path);
  close(fd);
  sqlite3 *db;
  sqlite3_open(path, &db);
  int rc = sqlite3_exec(db,
                        "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, x REAL);"
                        "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 3000)"
                        " INSERT INTO t SELECT n, 'name' || (n % 50), n * 1.5 FROM c;"
                        "CREATE TABLE u (a INT, b TEXT); INSERT INTO u VALUES (1, 'x'), (2, 'y'), (2, 'y');",
                        NULL, NULL, NULL);
  sqlite3_close(db);
  return rc;
}

static int teardown(void **state) {
  (void)state;
  unlink(path);
  return 0;
}

/* The process's CPU time: a statement stopped at its deadline (on the
 * monotonic clock) has used at most that much of it, however loaded the
 * machine; the wall time it took is the load's. */
static double cpu_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void test_hostile(void **state) {
  (void)state;
  static const struct {
    const char *sql;
    int status;
    const char *reason;
  } cases[] = {
      {"DROP TABLE t", SQLSIM_EXEC_REFUSED, "not allowed"},
      {"DELETE FROM t", SQLSIM_EXEC_REFUSED, "DELETE"},
      {"UPDATE t SET name = 'x'", SQLSIM_EXEC_REFUSED, "UPDATE"},
      {"INSERT INTO t (name) VALUES ('x')", SQLSIM_EXEC_REFUSED, "INSERT"},
      {"ATTACH DATABASE '/tmp/sqlsim_evil.db' AS evil", SQLSIM_EXEC_REFUSED, "ATTACH"},
      {"PRAGMA journal_mode = DELETE", SQLSIM_EXEC_REFUSED, "PRAGMA"},
      {"PRAGMA query_only = 0", SQLSIM_EXEC_REFUSED, "PRAGMA"},
      {"SELECT load_extension('/tmp/evil.so')", SQLSIM_EXEC_REFUSED, "load_extension"},
      {"CREATE TABLE evil (a)", SQLSIM_EXEC_REFUSED, "not allowed"},
      {"BEGIN", SQLSIM_EXEC_REFUSED, "transaction"},
      {"SELECT 1; DROP TABLE t", SQLSIM_EXEC_MULTI, "more than one statement"},
      {"WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT count(*) FROM c",
       SQLSIM_EXEC_TIMEOUT, "time limit"},
      {"SELECT count(*) FROM t a, t b, t c", SQLSIM_EXEC_TIMEOUT, "time limit"},
      {"WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT n FROM c",
       SQLSIM_EXEC_TOO_BIG, "rows"},
      {"SELECT nosuch FROM t", SQLSIM_EXEC_ERROR, "no such column"},
      {"", SQLSIM_EXEC_ERROR, "empty"},
  };
  uint64_t before = file_checksum(path);
  sqlsim_exec_opts o = {0};
  o.timeout_s = 0.5;
  o.max_rows = 20000; /* reached in a fraction of the 0.5 s limit even under a sanitizer on a loaded machine */
  sqlsim_db *db;
  assert_int_equal(sqlsim_db_open(path, &o, &db, NULL), 0);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    sqlsim_result r;
    double t0 = cpu_now();
    sqlsim_exec(db, cases[i].sql, &r);
    double took = cpu_now() - t0;
    if (r.status != cases[i].status || !strstr(r.reason, cases[i].reason))
      fail_msg("case %zu (%s): status %d reason '%s'", i, cases[i].sql, r.status, r.reason);
    if (took > 2.0) fail_msg("case %zu took %.2f s of CPU, past the 0.5 s limit", i, took);
    sqlsim_result_free(&r);
  }
  /* the run goes on: an ordinary query still works on the same connection */
  sqlsim_result r;
  sqlsim_exec(db, "SELECT count(*) FROM t", &r);
  assert_int_equal(r.status, SQLSIM_EXEC_OK);
  assert_int_equal(r.nrows, 1);
  sqlsim_result_free(&r);
  sqlsim_db_close(db);
  assert_true(file_checksum(path) == before);
}

static void test_fixed_now(void **state) {
  (void)state;
  sqlsim_exec_opts o = {0};
  o.fixed_now = "2023-01-17 00:00:00";
  sqlsim_db *db, *plain;
  assert_int_equal(sqlsim_db_open(path, &o, &db, NULL), 0);
  assert_int_equal(sqlsim_db_open(path, NULL, &plain, NULL), 0);
  sqlsim_result a, b;
  const char *q = "SELECT date('now'), datetime('now'), strftime('%Y-%m-%d', 'now'), "
                  "julianday('now'), CURRENT_DATE, CURRENT_TIMESTAMP, unixepoch('now')";
  sqlsim_exec(db, q, &a);
  sqlsim_exec(db, "SELECT '2023-01-17', '2023-01-17 00:00:00', '2023-01-17', 2459961.5, '2023-01-17', "
                  "'2023-01-17 00:00:00', 1673913600",
              &b);
  assert_int_equal(a.status, SQLSIM_EXEC_OK);
  assert_int_equal(a.ncols, b.ncols);
  assert_memory_equal(a.cells, b.cells, sizeof(uint64_t) * (size_t)a.ncols);
  sqlsim_result_free(&a);
  sqlsim_result_free(&b);
  sqlsim_exec(plain, "SELECT date('now') = '2023-01-17'", &a);
  sqlsim_exec(plain, "SELECT 0", &b);
  assert_true(a.cells[0] == b.cells[0]); /* without the option, the real clock */
  sqlsim_result_free(&a);
  sqlsim_result_free(&b);
  sqlsim_db_close(db);
  sqlsim_db_close(plain);
}

static int ex(const char *g, const char *p, int bird, int ordered) {
  sqlsim_db *db;
  assert_int_equal(sqlsim_db_open(path, NULL, &db, NULL), 0);
  sqlsim_result gr, pr;
  sqlsim_exec(db, g, &gr);
  sqlsim_exec(db, p, &pr);
  assert_int_equal(gr.status, SQLSIM_EXEC_OK);
  assert_int_equal(pr.status, SQLSIM_EXEC_OK);
  int r = bird ? sqlsim_ex_bird(&gr, &pr) : sqlsim_ex_spider(&gr, &pr, ordered);
  sqlsim_result_free(&gr);
  sqlsim_result_free(&pr);
  sqlsim_db_close(db);
  return r;
}

static void test_ex_semantics(void **state) {
  (void)state;
  /* 1 == 1.0 in both */
  assert_true(ex("SELECT 1", "SELECT 1.0", 1, 0));
  assert_true(ex("SELECT 1", "SELECT 1.0", 0, 0));
  /* text is not a number */
  assert_false(ex("SELECT 1", "SELECT '1'", 1, 0));
  /* BIRD: duplicates and order ignored, column order kept */
  assert_true(ex("SELECT a, b FROM u", "SELECT DISTINCT a, b FROM u ORDER BY a DESC", 1, 0));
  assert_false(ex("SELECT a, b FROM u", "SELECT b, a FROM u", 1, 0));
  /* Spider: multisets, columns may be permuted, order only when asked */
  assert_false(ex("SELECT a, b FROM u", "SELECT DISTINCT a, b FROM u", 0, 0));
  assert_true(ex("SELECT a, b FROM u", "SELECT b, a FROM u", 0, 0));
  assert_true(ex("SELECT a FROM u ORDER BY a", "SELECT a FROM u ORDER BY a DESC", 0, 0));
  assert_false(ex("SELECT a FROM u ORDER BY a", "SELECT a FROM u ORDER BY a DESC", 0, 1));
  /* both empty match, whatever the columns */
  assert_true(ex("SELECT a FROM u WHERE 0", "SELECT a, b FROM u WHERE 0", 0, 0));
  /* NULL is not 0 */
  assert_false(ex("SELECT NULL", "SELECT 0", 1, 0));
}

static void test_spider_exec_text(void **state) {
  (void)state;
  char *t = sqlsim_spider_exec_text("SELECT count(DISTINCT name) FROM t WHERE x > = 1 AND name = 'distinct'");
  assert_string_equal(t, "SELECT count( name) FROM t WHERE x >= 1 AND name = 'distinct'");
  free(t);
  t = sqlsim_spider_exec_text("SELECT YEAR(CURDATE()) - 1");
  assert_string_equal(t, "SELECT 2020- 1");
  free(t);
  assert_true(sqlsim_spider_order_matters("select a from t ORDER  BY a") == 0);
  assert_true(sqlsim_spider_order_matters("select a from t Order By a") == 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hostile),
      cmocka_unit_test(test_fixed_now),
      cmocka_unit_test(test_ex_semantics),
      cmocka_unit_test(test_spider_exec_text),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
