/* bench_match.c -- Spider matching throughput against its floors.
 *
 * Loads the gold and prediction files once, then times, best of --rounds:
 *  - compatible and corrected mode: preparing the gold and scoring every
 *    prediction file against it (pairs/second, single-threaded);
 *  - the floor: pg_query_parse (libpg_query's fastest entry point) on every
 *    gold and prediction string once;
 *  - one whole run of the first prediction file (tables.json load included),
 *    as `sqlsim eval` does it.
 * Prints figures and the ratios to the floor, and the peak RSS.
 *
 * usage: bench_match --tables FILE [--db-dir DIR] --gold FILE [--rounds N] PRED... */
#include "clock.h"
#include "sqlsim.h"

#include <pg_query.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double score_all(const sqlsim_catalog *cat, const char *db_dir, int mode,
                        const sqlsim_itemset *gold, sqlsim_itemset **preds, int npreds, int *exact) {
  double t0 = now();
  sqlsim_spider *ev;
  sqlsim_spider_new(cat, db_dir, mode, &ev, NULL);
  *exact = 0;
  for (int i = 0; i < gold->n; i++) {
    sqlsim_spider_gold *g;
    if (sqlsim_spider_gold_prepare(ev, gold->items[i].sql, gold->items[i].db_id, &g, NULL)) continue;
    for (int p = 0; p < npreds; p++) {
      sqlsim_spider_score s;
      sqlsim_spider_score_pred(ev, g, preds[p]->items[i].sql, &s);
      *exact += s.exact;
    }
    sqlsim_spider_gold_free(g);
  }
  sqlsim_spider_free(ev);
  return now() - t0;
}

int main(int argc, char **argv) {
  const char *tables = NULL, *db_dir = NULL, *gold_path = NULL;
  int rounds = 5, npreds = 0;
  const char *pred_paths[64];
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--tables") && i + 1 < argc) tables = argv[++i];
    else if (!strcmp(argv[i], "--db-dir") && i + 1 < argc) db_dir = argv[++i];
    else if (!strcmp(argv[i], "--gold") && i + 1 < argc) gold_path = argv[++i];
    else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = atoi(argv[++i]);
    else if (npreds < 64) pred_paths[npreds++] = argv[i];
  }
  if (!tables || !gold_path || !npreds) {
    fprintf(stderr, "usage: bench_match --tables FILE [--db-dir DIR] --gold FILE [--rounds N] PRED...\n");
    return 2;
  }
  sqlsim_error err = {0};
  sqlsim_catalog *cat;
  sqlsim_itemset *gold, *preds[64];
  if (sqlsim_catalog_load_tables_json(tables, &cat, &err) || sqlsim_items_load(gold_path, &gold, &err)) {
    fprintf(stderr, "error: %s\n", err.message);
    return 1;
  }
  for (int p = 0; p < npreds; p++)
    if (sqlsim_items_load(pred_paths[p], &preds[p], &err)) {
      fprintf(stderr, "error: %s\n", err.message);
      return 1;
    }
  long pairs = (long)gold->n * npreds;
  double best_compat = 1e9, best_corr = 1e9, best_floor = 1e9, best_run = 1e9;
  int ex_compat = 0, ex_corr = 0;
  for (int r = 0; r < rounds; r++) {
    double t = score_all(cat, db_dir, SQLSIM_SPIDER_COMPATIBLE, gold, preds, npreds, &ex_compat);
    if (t < best_compat) best_compat = t;
    t = score_all(cat, db_dir, SQLSIM_SPIDER_CORRECTED, gold, preds, npreds, &ex_corr);
    if (t < best_corr) best_corr = t;
    double t0 = now();
    for (int i = 0; i < gold->n; i++) {
      PgQueryParseResult pr = pg_query_parse(gold->items[i].sql);
      pg_query_free_parse_result(pr);
      for (int p = 0; p < npreds; p++) {
        pr = pg_query_parse(preds[p]->items[i].sql);
        pg_query_free_parse_result(pr);
      }
    }
    t = now() - t0;
    if (t < best_floor) best_floor = t;
    /* one whole run: schemas, files, one prediction file */
    t0 = now();
    sqlsim_catalog *c2;
    sqlsim_itemset *g2, *p2;
    sqlsim_catalog_load_tables_json(tables, &c2, NULL);
    sqlsim_items_load(gold_path, &g2, NULL);
    sqlsim_items_load(pred_paths[0], &p2, NULL);
    int ex;
    score_all(c2, db_dir, SQLSIM_SPIDER_COMPATIBLE, g2, &p2, 1, &ex);
    sqlsim_items_free(g2);
    sqlsim_items_free(p2);
    sqlsim_catalog_free(c2);
    t = now() - t0;
    if (t < best_run) best_run = t;
  }
  printf("%d gold x %d prediction files = %ld pairs, best of %d rounds\n", gold->n, npreds, pairs, rounds);
  printf("  compatible  %8.1f ms  %9.0f pairs/s  %.2fx the floor  (exact %d)\n", best_compat * 1e3,
         pairs / best_compat, best_compat / best_floor, ex_compat);
  printf("  corrected   %8.1f ms  %9.0f pairs/s  %.2fx the floor  (exact %d)\n", best_corr * 1e3,
         pairs / best_corr, best_corr / best_floor, ex_corr);
  printf("  floor: pg_query_parse of all %ld strings %8.1f ms\n", pairs + gold->n, best_floor * 1e3);
  printf("  one compatible run of %s (load + score %d pairs): %.1f ms\n", pred_paths[0], gold->n,
         best_run * 1e3);
  printf("  vs the official evaluator (about 2400 pairs/s in its loop, 0.8 s per run): %.0fx, %.0fx\n",
         pairs / best_compat / 2400.0, 0.8 / best_run);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("  peak RSS %.1f MiB\n", ru.ru_maxrss / 1024.0);
  for (int p = 0; p < npreds; p++) sqlsim_items_free(preds[p]);
  sqlsim_items_free(gold);
  sqlsim_catalog_free(cat);
  return 0;
}
