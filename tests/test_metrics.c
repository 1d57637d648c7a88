/* test_metrics.c -- VES/R-VES arithmetic and BIS result similarity. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sqlsim.h"

static char path[64];
static sqlsim_db *db;

static int setup(void **state) {
  (void)state;
  snprintf(path, sizeof path, "/tmp/sqlsim_metrics_XXXXXX");
  close(mkstemp(path));
  sqlite3 *s;
  sqlite3_open(path, &s);
  sqlite3_exec(s, "CREATE TABLE t (a INT, b REAL, c TEXT); INSERT INTO t VALUES (1, 1.0, 'x'), (2, 2.0, 'y');",
               NULL, NULL, NULL);
  sqlite3_close(s);
  return sqlsim_db_open(path, NULL, &db, NULL);
}

static int teardown(void **state) {
  (void)state;
  sqlsim_db_close(db);
  unlink(path);
  return 0;
}

static sqlsim_result_sim sim(const char *g, const char *p, int ordered) {
  sqlsim_result gr, pr;
  sqlsim_exec_flags(db, g, SQLSIM_EXEC_VALUES, &gr);
  sqlsim_exec_flags(db, p, SQLSIM_EXEC_VALUES, &pr);
  assert_int_equal(gr.status, SQLSIM_EXEC_OK);
  assert_int_equal(pr.status, SQLSIM_EXEC_OK);
  sqlsim_result_sim s;
  sqlsim_result_similarity(&gr, &pr, ordered, &s);
  sqlsim_result_free(&gr);
  sqlsim_result_free(&pr);
  return s;
}

static void test_result_similarity(void **state) {
  (void)state;
  sqlsim_result_sim s = sim("SELECT a, c FROM t", "SELECT c, a FROM t", 0);
  assert_int_equal(s.matched, 2); /* by values, not names or positions */
  assert_true(s.f1 == 1);
  s = sim("SELECT a, c FROM t", "SELECT a FROM t", 0);
  assert_true(s.p == 1 && s.r == 0.5);
  /* numbers within tolerance; 1 and 1.0 agree */
  s = sim("SELECT a FROM t", "SELECT a + 1e-9 FROM t", 0);
  assert_int_equal(s.matched, 1);
  s = sim("SELECT a FROM t", "SELECT b FROM t", 0);
  assert_int_equal(s.matched, 1);
  /* NULL is not 0 */
  s = sim("SELECT NULL", "SELECT 0", 0);
  assert_int_equal(s.matched, 0);
  /* one gold row against two predicted rows repeating it: different results */
  s = sim("SELECT 1", "SELECT 1 FROM t", 0);
  assert_int_equal(s.matched, 0);
  /* both without rows: 1 */
  s = sim("SELECT a FROM t WHERE 0", "SELECT a FROM t WHERE 0", 0);
  assert_true(s.f1 == 1);
  /* best assignment, not greedy: X matches A and B, Y only A */
  s = sim("SELECT 1 AS A, 1 AS B", "SELECT 1 AS X, 1 AS Y", 0);
  assert_int_equal(s.matched, 2);
  s = sim("SELECT a AS A, a AS B FROM t", "SELECT a AS X, b AS Y FROM t", 0);
  assert_int_equal(s.matched, 2);
  /* row order counts only when the gold orders */
  s = sim("SELECT a FROM t ORDER BY a", "SELECT a FROM t ORDER BY a DESC", 1);
  assert_int_equal(s.matched, 0);
  s = sim("SELECT a FROM t", "SELECT a FROM t ORDER BY a DESC", 0);
  assert_int_equal(s.matched, 1);
}

static void test_ves_arithmetic(void **state) {
  (void)state;
  assert_true(sqlsim_rves_reward(2.0) == 1.25);
  assert_true(sqlsim_rves_reward(1.99) == 1.0);
  assert_true(sqlsim_rves_reward(1.0) == 1.0);
  assert_true(sqlsim_rves_reward(0.5) == 0.75);
  assert_true(sqlsim_rves_reward(0.3) == 0.5);
  assert_true(sqlsim_rves_reward(0.1) == 0.25);
  assert_true(sqlsim_rves_reward(0) == 0);
  /* all identical: the reference keeps nothing and divides by zero */
  double same[5] = {1.5, 1.5, 1.5, 1.5, 1.5};
  int kept;
  assert_true(sqlsim_ves_filtered_mean(same, 5, &kept) == 1.5);
  assert_int_equal(kept, 0);
  /* an outlier beyond 3 sd goes */
  double x[20];
  for (int i = 0; i < 19; i++) x[i] = 1.0 + (i % 2) * 0.01;
  x[19] = 50;
  double m = sqlsim_ves_filtered_mean(x, 20, &kept);
  assert_int_equal(kept, 19);
  assert_true(m < 1.02);
}

/* The noise floor's figures: nearest-rank median and 90% range, and the
 * VES and R-VES of the self-pairs (a self-ratio under 1 costs R-VES). */
static void test_noise_floor(void **state) {
  (void)state;
  sqlsim_noise_floor nf;
  /* 21 self-ratios 0.90, 0.91, ..., 1.10, shuffled */
  double x[21];
  for (int i = 0; i < 21; i++) x[i] = 0.90 + 0.01 * ((i * 8) % 21);
  sqlsim_noise_floor_of(x, 21, &nf);
  assert_int_equal(nf.n, 21);
  assert_true(fabs(nf.median - 1.00) < 1e-9);
  assert_true(fabs(nf.p05 - 0.91) < 1e-9); /* rank round(0.05 * 20) = 1 */
  assert_true(fabs(nf.p95 - 1.09) < 1e-9); /* rank 19 */
  /* 10 ratios below 1 score reward 0.75, 11 at or above score 1 */
  assert_true(fabs(nf.rves - 100 * (10 * sqrt(0.75) + 11) / 21) < 1e-9);
  double v = 0;
  for (int i = 0; i < 21; i++) v += sqrt(0.90 + 0.01 * i);
  assert_true(fabs(nf.ves - 100 * v / 21) < 1e-9);
  /* no timing noise: every self-ratio 1 scores 100 and 100 */
  double ones[3] = {1, 1, 1};
  sqlsim_noise_floor_of(ones, 3, &nf);
  assert_true(nf.ves == 100 && nf.rves == 100 && nf.p05 == 1 && nf.p95 == 1);
  /* nothing sampled */
  sqlsim_noise_floor_of(NULL, 0, &nf);
  assert_int_equal(nf.n, 0);
  assert_true(isnan(nf.median) && isnan(nf.rves));
}

static void test_time_pair(void **state) {
  (void)state;
  sqlsim_timing_opts o = {0};
  o.iterations = 8;
  sqlsim_timing t;
  sqlsim_time_pair(path, "SELECT * FROM t", "SELECT * FROM t", &o, &t);
  assert_true(t.ok);
  assert_int_equal(t.n, 8);
  assert_true(t.ratio > 0.1 && t.ratio < 10);
  /* one connection for the pair: the same runs, and a query that fails in
   * the untimed first run stops the pair with its reason */
  o.reuse = 1;
  sqlsim_time_pair(path, "SELECT * FROM t", "SELECT * FROM t", &o, &t);
  assert_true(t.ok);
  assert_int_equal(t.n, 8);
  assert_true(t.ratio > 0.1 && t.ratio < 10);
  sqlsim_time_pair(path, "SELECT * FROM t", "SELECT nosuch FROM t", &o, &t);
  assert_false(t.ok);
  assert_int_equal(t.n, 0);
  assert_non_null(strstr(t.reason, "nosuch"));
  o.reuse = 0;
  assert_true(t.ci_low <= t.ratio && t.ratio <= t.ci_high);
  sqlsim_time_pair(path, "SELECT * FROM t", "SELECT nosuch FROM t", &o, &t);
  assert_false(t.ok);
  assert_non_null(strstr(t.reason, "no such column"));
}

/* A result of nrows x ncols cells (their hashes: equal numbers, equal values). */
static sqlsim_result cells_of(int nrows, int ncols, const uint64_t *c) {
  sqlsim_result r;
  memset(&r, 0, sizeof r);
  r.nrows = nrows;
  r.ncols = ncols;
  r.cells = (uint64_t *)c;
  return r;
}

/* Soft F1 as mini-dev's evaluation_f1.py computes it, cases worked by hand
 * from its code: rows paired in order after de-duplication, per pair the
 * shares of values found in the other row (a repeated value counted each
 * time), unpaired rows whole. */
static void test_soft_f1(void **state) {
  (void)state;
  enum { A = 101, B = 102, C = 103 };
  /* gold (1,a) (2,b); pred (1,a) (2,c): tp 1.5, fp 0.5, fn 0.5 */
  uint64_t g1[] = {1, A, 2, B}, p1[] = {1, A, 2, C};
  sqlsim_result g = cells_of(2, 2, g1), p = cells_of(2, 2, p1);
  assert_true(fabs(sqlsim_soft_f1(&g, &p) - 0.75) < 1e-15);
  /* gold (1) (1) (2) is (1) (2); pred (2) (3) (4): nothing paired matches */
  uint64_t g2[] = {1, 1, 2}, p2[] = {2, 3, 4};
  g = cells_of(3, 1, g2), p = cells_of(3, 1, p2);
  assert_true(sqlsim_soft_f1(&g, &p) == 0);
  /* widths differ: gold (1,2), pred (2,1,5): m 2/2, p 1/2, t 0 */
  uint64_t g3[] = {1, 2}, p3[] = {2, 1, 5};
  g = cells_of(1, 2, g3), p = cells_of(1, 3, p3);
  double precision = 1.0 / (1.0 + 0.5), recall = 1.0;
  assert_true(sqlsim_soft_f1(&g, &p) == 2 * precision * recall / (precision + recall));
  /* a repeated value counts each time: gold (1,2), pred (1,1): m 1, t 1/2 */
  uint64_t g4[] = {1, 2}, p4[] = {1, 1};
  g = cells_of(1, 2, g4), p = cells_of(1, 2, p4);
  recall = 1.0 / (1.0 + 0.5);
  assert_true(sqlsim_soft_f1(&g, &p) == 2 * 1.0 * recall / (1.0 + recall));
  /* more predicted rows than gold: each extra one is fp 1 */
  uint64_t g5[] = {1}, p5[] = {1, 2, 3};
  g = cells_of(1, 1, g5), p = cells_of(3, 1, p5);
  precision = 1.0 / (1.0 + 2.0);
  assert_true(sqlsim_soft_f1(&g, &p) == 2 * precision * 1.0 / (precision + 1.0));
  /* both empty: 1; one empty: 0; a failed side: 0 */
  g = cells_of(0, 1, g5), p = cells_of(0, 1, p5);
  assert_true(sqlsim_soft_f1(&g, &p) == 1.0);
  p = cells_of(1, 1, p5);
  assert_true(sqlsim_soft_f1(&g, &p) == 0 && sqlsim_soft_f1(&p, &g) == 0);
  g = cells_of(1, 1, g5);
  p.status = SQLSIM_EXEC_ERROR;
  assert_true(sqlsim_soft_f1(&g, &p) == 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_result_similarity),
      cmocka_unit_test(test_ves_arithmetic), cmocka_unit_test(test_noise_floor),
      cmocka_unit_test(test_time_pair),         cmocka_unit_test(test_soft_f1),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
