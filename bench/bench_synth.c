/* bench_synth.c -- synthetic execution (`--metrics synth`): speed, memory,
 * determinism and quality.
 *
 * Speed: pairs per second through the evaluator (each pair: the prediction
 * parsed, K databases generated and filled, both queries run on each, the
 * structural score beside it), single-threaded and with -j 2, and the share
 * of the synthetic part's time spent generating rows against running queries;
 * peak memory (max RSS). Determinism: the per-item JSON of the two runs
 * compared byte for byte. Quality (with --ref-dir, the official evaluator's
 * per-item TSVs): ROC AUC against the official `exec` column of the graded
 * synthetic score and of the calibrated score, precision and recall of
 * pass/fail, Kendall tau of the systems' mean scores against their EX. Items
 * where no generated database counted take the structural score there (the
 * calibrated score does the same), and pass/fail there is "structural score
 * >= 0.9"; their number is printed. With --db-dir, the same figures again
 * without the pairs whose gold answers nothing on the real database (no row,
 * or only NULL and 0: EX passes any prediction that does the same there).
 *
 * Strict (--metrics strict: the gold's distilled suite and the pair's own
 * databases): pairs per second single-threaded, and the cost of a gold's
 * samples: scoring 8 predictions of each of 200 golds against scoring one
 * (the suite is distilled once per gold); how many EX-correct pairs fail
 * strict and EX-wrong pairs pass it; the coverage of the golds' suites; the
 * time a witness adds to a failing pair (shrinking and both answers), median.
 *
 * usage: bench_synth --tables FILE --gold FILE [--ref-dir DIR] [--db-dir DIR] [--databases K] PRED... */
#include "clock.h"
#include "sqlsim.h"
#include "stats.h"

#include <math.h>
#include <sys/resource.h>
#include <time.h>

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Seconds to score pairs[0..m) on a new evaluator of cfg, single-threaded:
 * the best of three runs (the machine's noise is one-sided). */
static double best_of_3(const sqlsim_config *cfg, const sqlsim_pair *pairs, size_t m) {
  double best = INFINITY;
  sqlsim_batch_opts o = {.jobs = 1};
  for (int rep = 0; rep < 3; rep++) {
    sqlsim_record *r = calloc(m, sizeof *r);
    sqlsim_evaluator *ev;
    if (sqlsim_evaluator_new(cfg, &ev, NULL)) {
      free(r);
      return NAN;
    }
    double t0 = now();
    sqlsim_evaluate_batch(ev, pairs, m, r, &o);
    double t = now() - t0;
    if (t < best) best = t;
    sqlsim_evaluator_free(ev);
    for (size_t i = 0; i < m; i++) sqlsim_record_clear(&r[i]);
    free(r);
  }
  return best;
}

/* Strict: speed, the cost of a gold's samples, agreement with EX, coverage,
 * the witness's cost. */
static double solver_budget; /* --solver-budget: the solver's seconds a pair (0: the default) */

static void strict_bench(const char *tables, const sqlsim_itemset *gold, sqlsim_itemset **pred, int npreds,
                         const sqlsim_pair *pairs, size_t np, int k, const char *ref_dir, const char **preds) {
  sqlsim_error err = {0};
  sqlsim_config cfg = {.tables = tables, .metrics = SQLSIM_M_STRICT, .synth_databases = k, .no_solver = 1};
  sqlsim_record *out = calloc(np, sizeof *out);
  sqlsim_evaluator *ev;
  if (sqlsim_evaluator_new(&cfg, &ev, &err)) return;
  sqlsim_batch_opts o = {.jobs = 1};
  double t0 = now();
  sqlsim_evaluate_batch(ev, pairs, np, out, &o);
  double secs = now() - t0;
  sqlsim_evaluator_free(ev);
  printf("strict (the gold's distilled suite and the pair's own databases):\n");
  printf("  single-threaded, --no-solver: %.2f s, %.0f pairs/s (target >= 500)\n", secs, np / secs);
  /* the same with the solver (the default): how far it got, what it cost */
  sqlsim_config with = cfg;
  with.no_solver = 0;
  with.solver_budget = solver_budget;
  sqlsim_record *sv = calloc(np, sizeof *sv);
  if (sv && !sqlsim_evaluator_new(&with, &ev, &err)) {
    t0 = now();
    sqlsim_evaluate_batch(ev, pairs, np, sv, &o);
    double s2 = now() - t0, solver_s = 0;
    sqlsim_evaluator_free(ev);
    long ran = 0, bounded = 0, budget = 0, outside = 0, refuted = 0, defects = 0, passes = 0, pass_bound = 0, at_k[8] = {0};
    double *ref_s = malloc(sizeof *ref_s * (np ? np : 1));
    struct { char why[64]; long n; } unbounded[64]; /* strict passes without a bound, by the solver's reason */
    int nunb = 0;
    for (size_t i = 0; i < np; i++) {
      const sqlsim_synth *y = &sv[i].synth;
      if (!sv[i].has_synth) continue;
      if (y->strict == 1) { /* every pass, whether the solver checked it or not */
        passes++;
        pass_bound += y->bound > 0;
        if (y->bound > 0 && y->bound < 8) at_k[y->bound]++;
        if (y->bound <= 0) {
          char why[64];
          const char *w = strstr(y->solver, "subset: ");
          snprintf(why, sizeof why, "%s", w ? w + 8 : y->solver[0] ? y->solver : "(no solver field)");
          why[strcspn(why, "(0123456789")] = 0;
          int j = 0;
          while (j < nunb && strcmp(unbounded[j].why, why)) j++;
          if (j == nunb && nunb < 64) {
            snprintf(unbounded[nunb].why, sizeof why, "%s", why);
            unbounded[nunb++].n = 0;
          }
          if (j < nunb) unbounded[j].n++;
        }
      }
      if (!y->solver[0]) continue;
      solver_s += y->solver_s;
      if (!strncmp(y->solver, "not checked", 11)) {
        outside += !strstr(y->solver, "budget");
        budget += strstr(y->solver, "budget") != NULL;
        continue;
      }
      ran++;
      if (y->by_solver && ref_s) ref_s[refuted++] = y->solver_s;
      defects += !strncmp(y->solver, "defect", 6);
      bounded += y->bound > 0;
    }
    qsort(ref_s, (size_t)refuted, sizeof *ref_s, cmp_double);
    (void)solver_s; /* a repeated pair's record carries its first run's seconds: the difference of the runs is the cost */
    printf("  single-threaded, with the solver (default budget): %.2f s, %.0f pairs/s (target >= 100); the solver's\n"
           "    share of the time %.0f%%; pairs it checked %ld: bounded %ld, refuted %ld (median %.3f s), defects %ld;\n"
           "    not checked: outside the subset %ld, budget spent before k = 1 %ld; strict passes with a bound %ld of %ld\n",
           s2, np / s2, s2 > secs ? 100 * (s2 - secs) / s2 : 0.0, ran, bounded, refuted, refuted ? ref_s[refuted / 2] : 0.0,
           defects, outside, budget, pass_bound, passes);
    printf("      passes bounded at k = 1..6:");
    for (int b = 1; b <= 6; b++) printf(" %ld", at_k[b]);
    printf("\n");
    for (int pass = 0; pass < 8; pass++) { /* the commonest reasons a pass has no bound */
      int best = -1;
      for (int j = 0; j < nunb; j++)
        if (unbounded[j].n > 0 && (best < 0 || unbounded[j].n > unbounded[best].n)) best = j;
      if (best < 0) break;
      printf("      %5ld passes without a bound: %s\n", unbounded[best].n, unbounded[best].why);
      unbounded[best].n = -unbounded[best].n;
    }
    free(ref_s);
    for (size_t i = 0; i < np; i++) sqlsim_record_clear(&sv[i]);
  }
  free(sv);
  /* a gold's samples: 8 predictions (the files, then the gold itself) against 1 */
  int ngolds = gold->n < 200 ? gold->n : 200;
  sqlsim_pair *one = malloc(sizeof *one * (size_t)ngolds), *eight = malloc(sizeof *eight * (size_t)ngolds * 8);
  for (int i = 0; i < ngolds; i++) {
    one[i] = (sqlsim_pair){gold->items[i].sql, pred[0]->items[i].sql, gold->items[i].db_id};
    for (int p = 0; p < 8; p++)
      eight[i * 8 + p] = (sqlsim_pair){gold->items[i].sql,
                                       p < npreds ? pred[p]->items[i].sql : gold->items[i].sql, gold->items[i].db_id};
  }
  int distinct = 0; /* the samples' texts, as a trainer would see repeats */
  for (int i = 0; i < ngolds * 8; i++) {
    int seen = 0;
    for (int j = i - i % 8; j < i && !seen; j++) seen = !strcmp(eight[j].pred, eight[i].pred);
    distinct += !seen;
  }
  double t1 = best_of_3(&cfg, one, (size_t)ngolds), t8 = best_of_3(&cfg, eight, (size_t)ngolds * 8);
  printf("  %d golds: one prediction each %.3f s, eight each %.3f s (%d distinct texts of %d): %.2fx (target <= 2x;\n"
         "    best of three runs each)\n",
         ngolds, t1, t8, distinct, ngolds * 8, t8 / t1);
  sqlsim_config synth_only = cfg;
  synth_only.metrics = SQLSIM_M_SYNTH;
  double s1 = best_of_3(&synth_only, one, (size_t)ngolds), s8 = best_of_3(&synth_only, eight, (size_t)ngolds * 8);
  printf("  the same with synth alone (no suite): %.3f s, %.3f s: %.2fx\n", s1, s8, s8 / s1);
  free(one);
  free(eight);
  /* coverage, and strict against EX */
  double *cov = malloc(sizeof *cov * (size_t)gold->n);
  int ncov = 0;
  for (int i = 0; i < gold->n; i++) {
    const sqlsim_record *r = &out[(size_t)i * (size_t)npreds];
    if (r->has_synth && r->synth.neighbors > 0) cov[ncov++] = (double)r->synth.told / r->synth.neighbors;
  }
  qsort(cov, (size_t)ncov, sizeof *cov, cmp_double);
  int full = 0;
  double sum = 0;
  for (int i = 0; i < ncov; i++) full += cov[i] >= 1, sum += cov[i];
  if (ncov)
    printf("  coverage of %d golds' suites (neighbors told apart): median %.3f, mean %.3f, p10 %.3f, all told %d\n",
           ncov, cov[ncov / 2], sum / ncov, cov[ncov / 10], full);
  free(cov);
  if (ref_dir) {
    long ex_ok_fail = 0, ex_ok = 0, ex_bad_pass = 0, ex_bad = 0;
    for (int p = 0; p < npreds; p++) {
      char model[256];
      model_name(preds[p], model, sizeof model);
      int *exec = read_col(ref_dir, model, "exec", gold->n);
      for (int i = 0; exec && i < gold->n; i++) {
        const sqlsim_record *r = &out[(size_t)i * (size_t)npreds + (size_t)p];
        if (exec[i] < 0 || !r->has_synth || r->synth.strict < 0) continue;
        if (exec[i]) ex_ok++, ex_ok_fail += !r->synth.strict;
        else ex_bad++, ex_bad_pass += r->synth.strict;
      }
      free(exec);
    }
    printf("  EX-correct pairs failing strict: %ld of %ld; EX-wrong pairs passing strict: %ld of %ld\n", ex_ok_fail,
           ex_ok, ex_bad_pass, ex_bad);
  }
  /* the witness's cost on failing pairs: a pair with and without it, the suite cached */
  sqlsim_catalog *cat;
  if (sqlsim_catalog_load_tables_json(tables, &cat, &err) == 0) {
    sqlsim_synth_opts plain = {.databases = k, .strict = 1}, wit = {.databases = k, .strict = 1, .witness = 1};
    sqlsim_synth_runner *a = sqlsim_synth_runner_new(&plain), *b = sqlsim_synth_runner_new(&wit);
    double *cost = malloc(sizeof *cost * np);
    long nw = 0, rows_sum = 0, rows_max = 0;
    long *sizes = malloc(sizeof *sizes * np);
    for (size_t i = 0; i < np && nw < 2000; i++) {
      if (!out[i].has_synth || (out[i].synth.strict != 0 && out[i].synth.pass != 0)) continue;
      const sqlsim_schema *s = sqlsim_catalog_find(cat, pairs[i].db_id);
      sqlsim_synth x, y;
      /* the suites warmed by the gold against itself (the pair itself would be
       * answered from the runner's verdicts) */
      if (!s || sqlsim_synth_pair(a, s, pairs[i].gold, pairs[i].gold, &x, NULL)) continue;
      if (sqlsim_synth_pair(b, s, pairs[i].gold, pairs[i].gold, &y, NULL)) continue;
      sqlsim_witness_free(y.witness);
      double c0 = now();
      sqlsim_synth_pair(a, s, pairs[i].gold, pairs[i].pred, &x, NULL);
      double c1 = now();
      sqlsim_synth_pair(b, s, pairs[i].gold, pairs[i].pred, &y, NULL);
      double c2 = now();
      if (!y.witness) continue;
      cost[nw] = (c2 - c1) - (c1 - c0);
      sizes[nw] = y.witness->rows;
      rows_sum += y.witness->rows;
      if (y.witness->rows > rows_max) rows_max = y.witness->rows;
      nw++;
      sqlsim_witness_free(y.witness);
    }
    qsort(cost, (size_t)nw, sizeof *cost, cmp_double);
    long *srt = sizes;
    for (long i = 1; i < nw; i++) /* insertion sort of the sizes (few thousand) */
      for (long j = i; j > 0 && srt[j] < srt[j - 1]; j--) {
        long tmp = srt[j];
        srt[j] = srt[j - 1];
        srt[j - 1] = tmp;
      }
    if (nw)
      printf("  witnesses of %ld failing pairs: %.1f ms added per pair (median; target <= 20), rows median %ld, "
             "largest %ld (targets <= 8, <= 40)\n",
             nw, 1000 * cost[nw / 2], srt[nw / 2], rows_max);
    free(cost);
    free(sizes);
    sqlsim_synth_runner_free(a);
    sqlsim_synth_runner_free(b);
    sqlsim_catalog_free(cat);
  }
  for (size_t i = 0; i < np; i++) sqlsim_record_clear(&out[i]);
  free(out);
}

int main(int argc, char **argv) {
  const char *tables = NULL, *gold_path = NULL, *ref_dir = NULL, *db_dir = NULL;
  const char *preds[64];
  int npreds = 0, k = 6;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--tables") && i + 1 < argc) tables = argv[++i];
    else if (!strcmp(argv[i], "--gold") && i + 1 < argc) gold_path = argv[++i];
    else if (!strcmp(argv[i], "--ref-dir") && i + 1 < argc) ref_dir = argv[++i];
    else if (!strcmp(argv[i], "--db-dir") && i + 1 < argc) db_dir = argv[++i];
    else if (!strcmp(argv[i], "--databases") && i + 1 < argc) k = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--solver-budget") && i + 1 < argc) solver_budget = atof(argv[++i]);
    else if (npreds < 64) preds[npreds++] = argv[i];
  }
  if (!tables || !gold_path || !npreds) {
    fprintf(stderr, "usage: bench_synth --tables FILE --gold FILE [--ref-dir DIR] [--db-dir DIR] [--databases K] PRED...\n");
    return 2;
  }
  sqlsim_error err = {0};
  sqlsim_itemset *gold, *pred[64];
  if (sqlsim_items_load(gold_path, &gold, &err)) {
    fprintf(stderr, "error: %s\n", err.message);
    return 1;
  }
  for (int p = 0; p < npreds; p++)
    if (sqlsim_items_load(preds[p], &pred[p], &err)) {
      fprintf(stderr, "error: %s\n", err.message);
      return 1;
    }
  int n = gold->n;
  size_t np = (size_t)n * (size_t)npreds;
  sqlsim_pair *pairs = malloc(sizeof *pairs * np);
  for (int i = 0; i < n; i++) /* item-major: each gold is prepared once for all systems */
    for (int p = 0; p < npreds; p++)
      pairs[(size_t)i * npreds + p] = (sqlsim_pair){gold->items[i].sql, pred[p]->items[i].sql, gold->items[i].db_id};
  sqlsim_config cfg = {.tables = tables, .metrics = SQLSIM_M_SYNTH, .synth_databases = k};
  sqlsim_record *out[2] = {calloc(np, sizeof(sqlsim_record)), calloc(np, sizeof(sqlsim_record))};
  double secs[2];
  for (int run = 0; run < 2; run++) {
    sqlsim_evaluator *ev;
    if (sqlsim_evaluator_new(&cfg, &ev, &err)) {
      fprintf(stderr, "error: %s\n", err.message);
      return 1;
    }
    sqlsim_batch_opts o = {.jobs = run ? 2 : 1};
    double t0 = now();
    sqlsim_evaluate_batch(ev, pairs, np, out[run], &o);
    secs[run] = now() - t0;
    sqlsim_evaluator_free(ev);
  }
  /* the synthetic part alone, every pair (the evaluator scores a prediction
   * that repeats an earlier one's text once): parse both, generate, run */
  sqlsim_catalog *cat;
  if (sqlsim_catalog_load_tables_json(tables, &cat, &err)) {
    fprintf(stderr, "error: %s\n", err.message);
    return 1;
  }
  sqlsim_synth_opts so = {.databases = k};
  sqlsim_synth_runner *runner = sqlsim_synth_runner_new(&so);
  double gen = 0, exe = 0, t0 = now();
  for (size_t i = 0; i < np; i++) {
    sqlsim_synth x;
    const sqlsim_schema *s = sqlsim_catalog_find(cat, pairs[i].db_id);
    if (s && sqlsim_synth_pair(runner, s, pairs[i].gold, pairs[i].pred, &x, NULL) == 0) {
      gen += x.gen_s;
      exe += x.exec_s;
    }
  }
  double alone = now() - t0;
  sqlsim_synth_runner_free(runner);
  sqlsim_catalog_free(cat);
  long identical = 0, synth_items = 0;
  for (size_t i = 0; i < np; i++) {
    synth_items += out[0][i].has_synth;
    char *a = sqlsim_record_to_json(&out[0][i]), *b = sqlsim_record_to_json(&out[1][i]);
    identical += !strcmp(a, b);
    free(a);
    free(b);
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("%zu pairs (%d files), K = %d databases per pair\n", np, npreds, k);
  printf("  single-threaded: %.2f s, %.0f pairs/s (target >= 1,000; the Python prototype: 150)\n", secs[0],
         np / secs[0]);
  printf("  -j 2:            %.2f s, %.0f pairs/s (%.2fx)\n", secs[1], np / secs[1], secs[0] / secs[1]);
  printf("  synthetic execution alone, every pair (no reuse of repeated predictions): %.2f s, %.0f pairs/s;\n"
         "    generating and loading rows %.2f s (%.0f%%), running the queries %.2f s (%.0f%%), parsing the rest\n",
         alone, np / alone, gen, 100 * gen / alone, exe, 100 * exe / alone);
  printf("  peak memory (max RSS): %.1f MiB\n", ru.ru_maxrss / 1024.0);
  printf("  per-item JSON identical between -j 1 and -j 2: %ld of %zu\n", identical, np);
  printf("  pairs with synthetic execution: %ld\n", synth_items);
  /* golds that answer nothing on the real database: EX passes them vacuously */
  unsigned char *vacuous = calloc((size_t)n + 1, 1);
  int nvacuous = 0;
  for (int i = 0; db_dir && i < n; i++) {
    char *path = sqlsim_db_path(db_dir, gold->items[i].db_id, NULL);
    sqlsim_db *db = NULL;
    if (path && sqlsim_db_open(path, NULL, &db, NULL) == 0) {
      sqlsim_result r;
      sqlsim_exec_flags(db, gold->items[i].sql, SQLSIM_EXEC_VALUES, &r);
      int any = 0;
      for (long c = 0; r.status == SQLSIM_EXEC_OK && c < r.nrows * r.ncols && !any; c++)
        any = r.kinds[c] != 0 && !(r.kinds[c] == 1 && r.nums[c] == 0);
      vacuous[i] = r.status == SQLSIM_EXEC_OK && !any;
      nvacuous += vacuous[i];
      sqlsim_result_free(&r);
      sqlsim_db_close(db);
    }
    free(path);
  }
  if (db_dir) printf("  golds answering nothing on the real database (no row, or only NULL and 0): %d of %d\n", nvacuous, n);
  if (ref_dir) {
    pt *pg = malloc(sizeof *pg * np), *ps = malloc(sizeof *ps * np), *pst = malloc(sizeof *pst * np);
    pt *qg = malloc(sizeof *qg * np), *qs = malloc(sizeof *qs * np);
    int kept = 0;
    int pooled = 0, tp = 0, fp = 0, fn = 0, tn = 0, fallback = 0;
    double ex[64], mg[64], ms[64], mst[64];
    for (int p = 0; p < npreds; p++) {
      char model[256];
      model_name(preds[p], model, sizeof model);
      int *exec = read_col(ref_dir, model, "exec", n);
      if (!exec) {
        fprintf(stderr, "error: no %s/%s.tsv\n", ref_dir, model);
        return 1;
      }
      int m = 0, npos = 0;
      double sg = 0, ss = 0, sst = 0;
      for (int i = 0; i < n; i++) {
        if (exec[i] < 0) continue;
        const sqlsim_record *r = &out[0][(size_t)i * npreds + p];
        int counted = r->has_synth && r->synth.pass >= 0;
        double g = counted ? r->synth.graded : r->structure.score;
        int pass = counted ? r->synth.pass : r->structure.score >= 0.9;
        fallback += !counted;
        pg[pooled] = (pt){g, exec[i]};
        ps[pooled] = (pt){r->score, exec[i]};
        if (!vacuous[i]) {
          qg[kept] = (pt){g, exec[i]};
          qs[kept++] = (pt){r->score, exec[i]};
        }
        pst[pooled] = (pt){r->structure.score, exec[i]};
        pooled++;
        tp += pass && exec[i];
        fp += pass && !exec[i];
        fn += !pass && exec[i];
        tn += !pass && !exec[i];
        npos += exec[i];
        sg += g;
        ss += r->score;
        sst += r->structure.score;
        m++;
      }
      ex[p] = (double)npos / m;
      mg[p] = sg / m;
      ms[p] = ss / m;
      mst[p] = sst / m;
      printf("  %-16s EX %.3f  mean graded synthetic %.3f  calibrated score %.3f  structure alone %.3f\n", model,
             ex[p], mg[p], ms[p], mst[p]);
      free(exec);
    }
    printf("  pooled (%d items with a database; %d where no generated database counted)\n", pooled, fallback);
    printf("  ROC AUC against official EX: graded synthetic %.4f, calibrated score %.4f (structure alone %.4f)\n",
           auc(pg, pooled), auc(ps, pooled), auc(pst, pooled));
    if (db_dir)
      printf("    without the %d pairs whose gold answers nothing on the real database: graded synthetic %.4f, "
             "calibrated score %.4f\n",
             pooled - kept, auc(qg, kept), auc(qs, kept));
    printf("  pass/fail: precision %.4f, recall %.4f, accuracy %.4f\n", (double)tp / (tp + fp), (double)tp / (tp + fn),
           (double)(tp + tn) / pooled);
    printf("  Kendall tau of the systems' mean against EX: graded synthetic %.3f, calibrated score %.3f "
           "(structure alone %.3f)\n",
           kendall(ex, mg, npreds), kendall(ex, ms, npreds), kendall(ex, mst, npreds));
    free(pg);
    free(ps);
    free(pst);
    free(qg);
    free(qs);
  }
  free(vacuous);
  strict_bench(tables, gold, pred, npreds, pairs, np, k, ref_dir, preds);
  for (int run = 0; run < 2; run++) {
    for (size_t i = 0; i < np; i++) sqlsim_record_clear(&out[run][i]);
    free(out[run]);
  }
  free(pairs);
  for (int p = 0; p < npreds; p++) sqlsim_items_free(pred[p]);
  sqlsim_items_free(gold);
  return 0;
}
