/* bench_exec.c -- execution metrics: throughput, executor overhead, timing noise.
 *
 *  1. EX pairs/second (Spider test-suite semantics, every item with a
 *     database), single-threaded, against the official ~400 pairs/s;
 *  2. the safe executor's overhead over a bare prepare/step/finalize loop on a
 *     plain read-only connection, same queries, best of rounds;
 *  3. the cost of one timed run (VES/R-VES: a fresh connection per run, the
 *     query to its last row, close) against a bare open/prepare/step/close
 *     loop on the same queries, per run;
 *  4. noise of the VES ratio: one query against itself, --runs runs of
 *     --iterations iterations, in the reference's order (prediction first) and
 *     alternating (ABBA); the mean ratio of each run and their spread.
 *
 * usage: bench_exec --gold FILE --pred FILE --db-dir DIR [--runs 10] [--iterations 100]
 *                   [--noise-db FILE --noise-sql SQL] */
#include "clock.h"
#include "sqlsim.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile double sink;

static void noise(const char *db, const char *sql, int runs, int iters, int alternate, int cpu) {
  sqlsim_timing_opts o = {0};
  o.iterations = iters;
  o.alternate = alternate;
  o.cpu_clock = cpu;
  double lo = 1e9, hi = -1e9, sum = 0, sum2 = 0, mlo = 1e9, mhi = -1e9;
  printf("  %-28s", cpu ? "ABBA, thread CPU clock:" : alternate ? "ABBA, wall clock:" : "reference (pred first, wall):");
  for (int r = 0; r < runs; r++) {
    sqlsim_timing t;
    sqlsim_time_pair(db, sql, sql, &o, &t);
    if (!t.ok) {
      printf(" failed: %s\n", t.reason);
      return;
    }
    printf(" %.3f", t.ratio);
    double mr = t.gold_median_s / t.pred_median_s;
    if (mr < mlo) mlo = mr;
    if (mr > mhi) mhi = mr;
    if (t.ratio < lo) lo = t.ratio;
    if (t.ratio > hi) hi = t.ratio;
    sum += t.ratio;
    sum2 += t.ratio * t.ratio;
  }
  double mean = sum / runs, sd = sqrt(sum2 / runs - mean * mean);
  printf("\n  %-28s mean %.4f, range %.4f..%.4f (width %.4f), sd %.4f; ratio of medians: range %.4f..%.4f (width %.4f)\n",
         "", mean, lo, hi, hi - lo, sd, mlo, mhi, mhi - mlo);
}

int main(int argc, char **argv) {
  const char *gold_path = NULL, *pred_path = NULL, *db_dir = NULL, *noise_db = NULL, *noise_sql = NULL;
  int runs = 10, iters = 100;
  for (int i = 1; i + 1 < argc; i++) {
    if (!strcmp(argv[i], "--gold")) gold_path = argv[++i];
    else if (!strcmp(argv[i], "--pred")) pred_path = argv[++i];
    else if (!strcmp(argv[i], "--db-dir")) db_dir = argv[++i];
    else if (!strcmp(argv[i], "--runs")) runs = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--iterations")) iters = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--noise-db")) noise_db = argv[++i];
    else if (!strcmp(argv[i], "--noise-sql")) noise_sql = argv[++i];
  }
  if (!gold_path || !pred_path || !db_dir) {
    fprintf(stderr, "usage: bench_exec --gold FILE --pred FILE --db-dir DIR [--runs N] [--iterations N]\n"
                    "                  [--noise-db FILE --noise-sql SQL]\n");
    return 2;
  }
  sqlsim_itemset *gold, *pred;
  sqlsim_error err = {0};
  if (sqlsim_items_load(gold_path, &gold, &err) || sqlsim_items_load(pred_path, &pred, &err)) {
    fprintf(stderr, "error: %s\n", err.message);
    return 1;
  }
  /* open every database once, both ways */
  int n = gold->n;
  sqlsim_db **safe = calloc((size_t)n, sizeof *safe);
  sqlite3 **bare = calloc((size_t)n, sizeof *bare);
  char path[1024];
  int with_db = 0;
  for (int i = 0; i < n; i++) {
    snprintf(path, sizeof path, "%s/%s/%s.sqlite", db_dir, gold->items[i].db_id, gold->items[i].db_id);
    if (access(path, R_OK)) continue;
    for (int j = 0; j < i; j++)
      if (safe[j] && !strcmp(gold->items[j].db_id, gold->items[i].db_id)) {
        safe[i] = safe[j];
        bare[i] = bare[j];
      }
    if (!safe[i]) {
      sqlsim_db_open(path, NULL, &safe[i], NULL);
      sqlite3_open_v2(path, &bare[i], SQLITE_OPEN_READONLY, NULL);
    }
    with_db++;
  }
  /* 1. EX throughput */
  double best = 1e9;
  int matches = 0;
  for (int r = 0; r < 3; r++) {
    double t0 = now();
    matches = 0;
    char why[300];
    for (int i = 0; i < n; i++)
      if (safe[i]) matches += sqlsim_ex_spider_item(safe[i], gold->items[i].sql, pred->items[i].sql, why, sizeof why) == 1;
    double t = now() - t0;
    if (t < best) best = t;
  }
  printf("EX (Spider semantics), %d pairs with a database: %.1f ms, %.0f pairs/s single-threaded "
         "(%.0fx the official ~400 pairs/s); %d match\n",
         with_db, best * 1e3, with_db / best, with_db / best / 400, matches);
  /* 2. overhead over a bare loop, gold and predictions */
  double best_bare = 1e9, best_safe = 1e9;
  for (int r = 0; r < 5; r++) {
    double t0 = now();
    for (int i = 0; i < n; i++) {
      if (!bare[i]) continue;
      const char *qs[2] = {gold->items[i].sql, pred->items[i].sql};
      for (int k = 0; k < 2; k++) {
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(bare[i], qs[k], -1, &st, NULL) == SQLITE_OK) {
          while (sqlite3_step(st) == SQLITE_ROW) { /* fetch every value, as any evaluator must */
            int nc = sqlite3_column_count(st);
            for (int c = 0; c < nc; c++) {
              switch (sqlite3_column_type(st, c)) {
              case SQLITE_INTEGER: sink += (double)sqlite3_column_int64(st, c); break;
              case SQLITE_FLOAT: sink += sqlite3_column_double(st, c); break;
              case SQLITE_NULL: break;
              default: sink += (double)sqlite3_column_bytes(st, c) + (sqlite3_column_blob(st, c) != NULL);
              }
            }
          }
        }
        sqlite3_finalize(st);
      }
    }
    double t1 = now();
    for (int i = 0; i < n; i++) {
      if (!safe[i]) continue;
      const char *qs[2] = {gold->items[i].sql, pred->items[i].sql};
      for (int k = 0; k < 2; k++) {
        sqlsim_result res;
        sqlsim_exec(safe[i], qs[k], &res);
        sqlsim_result_free(&res);
      }
    }
    double t2 = now();
    if (t1 - t0 < best_bare) best_bare = t1 - t0;
    if (t2 - t1 < best_safe) best_safe = t2 - t1;
  }
  printf("executor overhead, %d queries: bare sqlite3_step loop %.1f ms, safe executor %.1f ms: %+.1f%%\n",
         2 * with_db, best_bare * 1e3, best_safe * 1e3, (best_safe / best_bare - 1) * 100);
  /* 3. one timed run against a bare open/prepare/step/close, per run */
  {
    /* the pairs whose two queries both run (a failing one stops a pair early) */
    char *both_run = calloc((size_t)n, 1);
    int runs_done = 0;
    for (int i = 0; i < n; i++) {
      if (!bare[i]) continue;
      snprintf(path, sizeof path, "%s/%s/%s.sqlite", db_dir, gold->items[i].db_id, gold->items[i].db_id);
      sqlsim_timing_opts o = {.iterations = 1};
      sqlsim_timing t;
      sqlsim_time_pair(path, gold->items[i].sql, pred->items[i].sql, &o, &t);
      both_run[i] = (char)t.ok;
      runs_done += 2 * t.ok;
    }
    double bbest = 1e9, sbest = 1e9;
    for (int r = 0; r < 3; r++) {
      double t0 = now();
      for (int i = 0; i < n; i++) {
        if (!both_run[i]) continue;
        snprintf(path, sizeof path, "%s/%s/%s.sqlite", db_dir, gold->items[i].db_id, gold->items[i].db_id);
        const char *qs[2] = {pred->items[i].sql, gold->items[i].sql};
        for (int k = 0; k < 2; k++) {
          sqlite3 *db;
          if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
            sqlite3_stmt *st;
            if (sqlite3_prepare_v2(db, qs[k], -1, &st, NULL) == SQLITE_OK)
              while (sqlite3_step(st) == SQLITE_ROW) sink += sqlite3_column_count(st);
            sqlite3_finalize(st);
          }
          sqlite3_close(db);
        }
      }
      double t1 = now();
      for (int i = 0; i < n; i++) {
        if (!both_run[i]) continue;
        snprintf(path, sizeof path, "%s/%s/%s.sqlite", db_dir, gold->items[i].db_id, gold->items[i].db_id);
        sqlsim_timing_opts o = {.iterations = 1};
        sqlsim_timing t;
        sqlsim_time_pair(path, gold->items[i].sql, pred->items[i].sql, &o, &t);
      }
      double t2 = now();
      if (t1 - t0 < bbest) bbest = t1 - t0;
      if (t2 - t1 < sbest) sbest = t2 - t1;
    }
    printf("one timed run (fresh connection, to the last row, close), %d runs: bare %.1f us/run, "
           "sqlsim_time_pair %.1f us/run: overhead %.1f us/run (%.2fx)\n",
           runs_done, bbest / runs_done * 1e6, sbest / runs_done * 1e6, (sbest - bbest) / runs_done * 1e6,
           sbest / bbest);
    free(both_run);
  }
  /* 4. noise */
  if (noise_db && noise_sql) {
    printf("VES self-ratio noise: %s\n  on %s, %d runs of %d iterations\n", noise_sql, noise_db, runs, iters);
    noise(noise_db, noise_sql, runs, iters, 0, 0);
    noise(noise_db, noise_sql, runs, iters, 1, 0);
    noise(noise_db, noise_sql, runs, iters, 1, 1);
  }
  for (int i = 0; i < n; i++) {
    int first = 1;
    for (int j = 0; j < i; j++)
      if (safe[j] == safe[i]) first = 0;
    if (first && safe[i]) {
      sqlsim_db_close(safe[i]);
      sqlite3_close(bare[i]);
    }
  }
  free(safe);
  free(bare);
  sqlsim_items_free(gold);
  sqlsim_items_free(pred);
  return 0;
}
