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
 * >= 0.9"; their number is printed.
 *
 * usage: bench_synth --tables FILE --gold FILE [--ref-dir DIR] [--databases K] PRED... */
#include "clock.h"
#include "sqlsim.h"
#include "stats.h"

#include <math.h>
#include <sys/resource.h>
#include <time.h>

int main(int argc, char **argv) {
  const char *tables = NULL, *gold_path = NULL, *ref_dir = NULL;
  const char *preds[64];
  int npreds = 0, k = 6;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--tables") && i + 1 < argc) tables = argv[++i];
    else if (!strcmp(argv[i], "--gold") && i + 1 < argc) gold_path = argv[++i];
    else if (!strcmp(argv[i], "--ref-dir") && i + 1 < argc) ref_dir = argv[++i];
    else if (!strcmp(argv[i], "--databases") && i + 1 < argc) k = atoi(argv[++i]);
    else if (npreds < 64) preds[npreds++] = argv[i];
  }
  if (!tables || !gold_path || !npreds) {
    fprintf(stderr, "usage: bench_synth --tables FILE --gold FILE [--ref-dir DIR] [--databases K] PRED...\n");
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
  if (ref_dir) {
    pt *pg = malloc(sizeof *pg * np), *ps = malloc(sizeof *ps * np), *pst = malloc(sizeof *pst * np);
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
        double g = counted ? r->synth.graded : r->score_structure;
        int pass = counted ? r->synth.pass : r->score_structure >= 0.9;
        fallback += !counted;
        pg[pooled] = (pt){g, exec[i]};
        ps[pooled] = (pt){r->score, exec[i]};
        pst[pooled] = (pt){r->score_structure, exec[i]};
        pooled++;
        tp += pass && exec[i];
        fp += pass && !exec[i];
        fn += !pass && exec[i];
        tn += !pass && !exec[i];
        npos += exec[i];
        sg += g;
        ss += r->score;
        sst += r->score_structure;
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
    printf("  pass/fail: precision %.4f, recall %.4f, accuracy %.4f\n", (double)tp / (tp + fp), (double)tp / (tp + fn),
           (double)(tp + tn) / pooled);
    printf("  Kendall tau of the systems' mean against EX: graded synthetic %.3f, calibrated score %.3f "
           "(structure alone %.3f)\n",
           kendall(ex, mg, npreds), kendall(ex, ms, npreds), kendall(ex, mst, npreds));
    free(pg);
    free(ps);
    free(pst);
  }
  for (int run = 0; run < 2; run++) {
    for (size_t i = 0; i < np; i++) sqlsim_record_clear(&out[run][i]);
    free(out[run]);
  }
  free(pairs);
  for (int p = 0; p < npreds; p++) sqlsim_items_free(pred[p]);
  sqlsim_items_free(gold);
  return 0;
}
