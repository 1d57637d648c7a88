/* bis_check.c -- the BIS similarity's paper behaviour on the BIS perturbations.
 *
 * Reads reference/bis_semsim_reference.tsv (gold_id, kind, gold, pred, ...) and
 * checks, per kind: a query against itself, re-rendered, with reordered WHERE
 * conjuncts or with added aliases scores 1; a changed table scores 0; a dropped
 * select column or a changed literal scores strictly between 0 and 1. Prints a
 * line per kind (with the reference's own score distribution beside ours) and
 * every violation; exits 1 on any.
 *
 * usage: bis_check TSV SQLITE_DB_1 [SQLITE_DB_2] */
#include "sqlsim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct kind_stat {
  char kind[64];
  int n, ok, ref_err, ref_one;
  double sum, ref_sum;
} kind_stat;

static int expect_ok(const char *kind, double s) {
  if (!strcmp(kind, "self") || !strcmp(kind, "roundtrip") || !strcmp(kind, "add_alias") ||
      !strcmp(kind, "swap_where_conjuncts"))
    return s == 1.0;
  if (!strcmp(kind, "change_table")) return s == 0.0;
  if (!strcmp(kind, "drop_select_col") || !strcmp(kind, "change_literal")) return s > 0 && s < 1;
  return 1; /* other kinds: reported, not judged */
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: bis_check TSV SQLITE_DB...\n");
    return 2;
  }
  sqlsim_catalog *cats[4] = {0};
  int ncat = 0;
  for (int i = 2; i < argc && ncat < 4; i++) {
    sqlsim_error err = {0};
    if (sqlsim_catalog_load_sqlite(argv[i], &cats[ncat], &err)) {
      fprintf(stderr, "error: %s\n", err.message);
      return 2;
    }
    ncat++;
  }
  FILE *f = fopen(argv[1], "r");
  if (!f) {
    perror(argv[1]);
    return 2;
  }
  char *line = NULL;
  size_t cap = 0;
  kind_stat ks[32];
  int nk = 0, bad = 0, header = 1;
  while (getline(&line, &cap, f) > 0) {
    line[strcspn(line, "\r\n")] = 0;
    if (header) {
      header = 0;
      continue;
    }
    char *fld[8] = {0};
    int nf = 0;
    for (char *p = line; nf < 8;) {
      fld[nf++] = p;
      char *t = strchr(p, '\t');
      if (!t) break;
      *t = 0;
      p = t + 1;
    }
    if (nf < 5) continue;
    const char *id = fld[0], *kind = fld[1], *gold = fld[2], *pred = fld[3], *ref = fld[4];
    /* dataset_1#12 -> the first database, dataset_2#.. -> the second */
    int which = strstr(id, "dataset_2") ? 1 : 0;
    const sqlsim_schema *schema = which < ncat ? sqlsim_catalog_at(cats[which], 0) : NULL;
    double bis, score;
    sqlsim_error err = {0};
    if (sqlsim_similarity(gold, pred, schema, &bis, &score, &err)) {
      printf("GOLD-ERROR %s %s: %s\n", id, kind, err.message);
      bad++;
      continue;
    }
    int k;
    for (k = 0; k < nk; k++)
      if (!strcmp(ks[k].kind, kind)) break;
    if (k == nk) {
      memset(&ks[nk], 0, sizeof ks[nk]);
      snprintf(ks[nk].kind, sizeof ks[nk].kind, "%s", kind);
      nk++;
    }
    ks[k].n++;
    ks[k].sum += bis;
    int ok = expect_ok(kind, bis);
    ks[k].ok += ok;
    if (!strncmp(ref, "ERR", 3) || !*ref) ks[k].ref_err++;
    else {
      double r = atof(ref);
      ks[k].ref_sum += r;
      ks[k].ref_one += r == 1.0;
    }
    if (!ok) {
      bad++;
      printf("VIOLATION %s %s: bis %.3f\n   gold: %s\n   pred: %s\n", id, kind, bis, gold, pred);
    }
  }
  free(line);
  fclose(f);
  printf("%-22s %6s %8s %10s | %s\n", "kind", "pairs", "as paper", "mean bis", "reference: crashes, mean, =1");
  for (int k = 0; k < nk; k++)
    printf("%-22s %6d %8d %10.3f | %d, %.3f, %d\n", ks[k].kind, ks[k].n, ks[k].ok, ks[k].sum / ks[k].n,
           ks[k].ref_err, ks[k].n - ks[k].ref_err ? ks[k].ref_sum / (ks[k].n - ks[k].ref_err) : 0,
           ks[k].ref_one);
  for (int i = 0; i < ncat; i++) sqlsim_catalog_free(cats[i]);
  sqlsim_thread_cleanup();
  return bad ? 1 : 0;
}
