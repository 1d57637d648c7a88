/* bench_bis.c -- BIS similarity and the calibrated score: speed and quality.
 *
 * Speed: pairs per second single-threaded for both scores together (each
 * gold parsed twice once, each prediction parsed once and diffed twice),
 * against the reference implementation's ~500 pairs/s.
 * Quality (with --ref-dir): ROC AUC of each score as a predictor of the
 * official execution result (the reference TSV's exec column), per file and
 * pooled, and the Kendall tau between the ranking of the systems by mean score
 * and by EX (and by the official exact match, for comparison).
 *
 * usage: bench_bis --tables FILE --gold FILE [--ref-dir DIR] [--rounds N] PRED... */
#include "clock.h"
#include "sqlsim.h"
#include "stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv) {
  const char *tables = NULL, *gold_path = NULL, *ref_dir = NULL;
  const char *preds[64];
  int npreds = 0, rounds = 3;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--tables") && i + 1 < argc) tables = argv[++i];
    else if (!strcmp(argv[i], "--gold") && i + 1 < argc) gold_path = argv[++i];
    else if (!strcmp(argv[i], "--ref-dir") && i + 1 < argc) ref_dir = argv[++i];
    else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = atoi(argv[++i]);
    else if (npreds < 64) preds[npreds++] = argv[i];
  }
  if (!tables || !gold_path || !npreds) {
    fprintf(stderr, "usage: bench_bis --tables FILE --gold FILE [--ref-dir DIR] PRED...\n");
    return 2;
  }
  sqlsim_error err = {0};
  sqlsim_catalog *cat;
  sqlsim_itemset *gold, *pred[64];
  if (sqlsim_catalog_load_tables_json(tables, &cat, &err) || sqlsim_items_load(gold_path, &gold, &err)) {
    fprintf(stderr, "error: %s\n", err.message);
    return 1;
  }
  for (int p = 0; p < npreds; p++)
    if (sqlsim_items_load(preds[p], &pred[p], &err)) {
      fprintf(stderr, "error: %s\n", err.message);
      return 1;
    }
  int n = gold->n;
  double *bis = calloc((size_t)(n * npreds), sizeof *bis), *score = calloc((size_t)(n * npreds), sizeof *score);
  double best = 1e9, best_dedup = 1e9;
  for (int dedup = 0; dedup < 2; dedup++)
  for (int r = 0; r < rounds; r++) {
    double t0 = now();
    for (int i = 0; i < n; i++) {
      const sqlsim_schema *s = sqlsim_catalog_find(cat, gold->items[i].db_id);
      const char *g = gold->items[i].sql;
      sqlsim_query *gq, *ge;
      if (sqlsim_parse(g, strlen(g), s, 0, &gq, NULL)) continue;
      ge = sqlsim_query_clone(gq);
      sqlsim_equiv_normalize(ge);
      for (int p = 0; p < npreds; p++) {
        const char *ps = pred[p]->items[i].sql;
        sqlsim_query *q;
        double b = 0, sc = 0;
        int same = -1;
        for (int o = 0; dedup && o < p && same < 0; o++)
          if (sqlsim_same_text(pred[o]->items[i].sql, ps)) same = o;
        if (same >= 0) {
          bis[p * n + i] = bis[same * n + i];
          score[p * n + i] = score[same * n + i];
          continue;
        }
        if (sqlsim_parse(ps, strlen(ps), s, 0, &q, NULL) == 0) {
          sqlsim_diff *d;
          if (sqlsim_diff_trees(gq->root, q->root, &d, NULL) == 0) {
            b = d->bis;
            sqlsim_diff_free(d);
          }
          sqlsim_equiv_normalize(q);
          if (sqlsim_diff_trees(ge->root, q->root, &d, NULL) == 0) {
            sc = d->score;
            sqlsim_diff_free(d);
          }
          sqlsim_query_free(q);
        }
        bis[p * n + i] = b;
        score[p * n + i] = sc;
      }
      sqlsim_query_free(gq);
      sqlsim_query_free(ge);
    }
    double t = now() - t0;
    if (dedup && t < best_dedup) best_dedup = t;
    if (!dedup && t < best) best = t;
  }
  long pairs = (long)n * npreds;
  printf("%ld pairs, best of %d: every pair computed %.1f ms, %.0f pairs/s single-threaded (%.0fx the "
         "reference's ~500 pairs/s);\n  identical predictions of an item scored once (as sqlsim eval does): "
         "%.1f ms, %.0f pairs/s (%.0fx)\n",
         pairs, rounds, best * 1e3, pairs / best, pairs / best / 500, best_dedup * 1e3, pairs / best_dedup,
         pairs / best_dedup / 500);
  /* symmetry: the BIS similarity of gold vs prediction and of prediction vs gold */
  int sym_n = 0, sym_same = 0;
  for (int p = 0; p < npreds; p++)
    for (int i = 0; i < n; i++) {
      const sqlsim_schema *s = sqlsim_catalog_find(cat, gold->items[i].db_id);
      double b1, s1, b2, s2;
      sqlsim_query *q;
      const char *ps_ = pred[p]->items[i].sql;
      if (sqlsim_parse(ps_, strlen(ps_), s, 0, &q, NULL)) continue;
      sqlsim_query_free(q);
      if (sqlsim_similarity(gold->items[i].sql, ps_, s, &b1, &s1, NULL) ||
          sqlsim_similarity(ps_, gold->items[i].sql, s, &b2, &s2, NULL))
        continue;
      sym_n++;
      sym_same += b1 == b2;
    }
  printf("  symmetry: bis(gold, pred) == bis(pred, gold) on %d of %d parsed pairs (%.1f%%)\n", sym_same, sym_n,
         100.0 * sym_same / (sym_n ? sym_n : 1));
  if (ref_dir) {
    pt *ps = malloc(sizeof *ps * (size_t)pairs), *pb = malloc(sizeof *pb * (size_t)pairs);
    int pooled = 0;
    double ex[64], ms[64], mb[64], em[64];
    for (int p = 0; p < npreds; p++) {
      char model[256];
      model_name(preds[p], model, sizeof model);
      int *exec = read_col(ref_dir, model, "exec", n), *exact = read_col(ref_dir, model, "exact", n);
      if (!exec) continue;
      int m = 0, npos = 0, nex = 0;
      double ss = 0, sb = 0;
      pt *vs = malloc(sizeof *vs * (size_t)n), *vb = malloc(sizeof *vb * (size_t)n);
      for (int i = 0; i < n; i++) {
        if (exact && exact[i] >= 0) nex += exact[i];
        if (exec[i] < 0) continue;
        vs[m] = (pt){score[p * n + i], exec[i]};
        vb[m] = (pt){bis[p * n + i], exec[i]};
        ps[pooled] = vs[m];
        pb[pooled] = vb[m];
        pooled++;
        npos += exec[i];
        ss += vs[m].s;
        sb += vb[m].s;
        m++;
      }
      ex[p] = (double)npos / m;
      ms[p] = ss / m;
      mb[p] = sb / m;
      em[p] = (double)nex / n;
      printf("  %-16s AUC score %.3f  bis %.3f   (EX %.3f, mean score %.3f, mean bis %.3f)\n", model,
             auc(vs, m), auc(vb, m), ex[p], ms[p], mb[p]);
      free(vs);
      free(vb);
      free(exec);
      free(exact);
    }
    printf("  pooled (%d items)  AUC score %.3f  bis %.3f\n", pooled, auc(ps, pooled), auc(pb, pooled));
    printf("  Kendall tau of the systems' ranking against EX: score %.3f, bis %.3f, official exact match %.3f\n",
           kendall(ex, ms, npreds), kendall(ex, mb, npreds), kendall(ex, em, npreds));
    free(ps);
    free(pb);
  }
  free(bis);
  free(score);
  for (int p = 0; p < npreds; p++) sqlsim_items_free(pred[p]);
  sqlsim_items_free(gold);
  sqlsim_catalog_free(cat);
  return 0;
}
