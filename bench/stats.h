/* stats.h -- the statistics the quality benchmarks share: ROC AUC (Mann-Whitney,
 * ties counted half), Kendall tau, and a column of the official evaluator's
 * per-item TSV (../shared/reference/spider/<model>.tsv). */
#ifndef SQLSIM_BENCH_STATS_H
#define SQLSIM_BENCH_STATS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pt {
  double s;
  int label;
} pt;

static inline int pt_cmp(const void *a, const void *b) {
  double x = ((const pt *)a)->s, y = ((const pt *)b)->s;
  return x < y ? -1 : x > y;
}

/* Mann-Whitney AUC with ties counted half. */
static inline double auc(pt *v, int n) {
  qsort(v, (size_t)n, sizeof *v, pt_cmp);
  double rank_sum = 0;
  long npos = 0;
  for (int i = 0; i < n;) {
    int j = i;
    while (j < n && v[j].s == v[i].s) j++;
    double r = (i + 1 + j) / 2.0; /* average rank of the tie group */
    for (int k = i; k < j; k++)
      if (v[k].label) {
        rank_sum += r;
        npos++;
      }
    i = j;
  }
  long nneg = n - npos;
  return npos && nneg ? (rank_sum - npos * (npos + 1) / 2.0) / ((double)npos * nneg) : 0;
}

static inline double kendall(const double *x, const double *y, int n) {
  int c = 0, d = 0;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      double s = (x[i] - x[j]) * (y[i] - y[j]);
      c += s > 0;
      d += s < 0;
    }
  return n > 1 ? (c - d) / (n * (n - 1) / 2.0) : 0;
}

/* exec (or exact) column of <ref-dir>/<model>.tsv, -1 where empty. */
static inline int *read_col(const char *dir, const char *model, const char *col, int n) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s.tsv", dir, model);
  FILE *f = fopen(path, "r");
  if (!f) return NULL;
  int *v = malloc(sizeof *v * (size_t)n);
  for (int i = 0; i < n; i++) v[i] = -1;
  char line[65536];
  int c = -1, header = 1;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\r\n")] = 0;
    char *fld[64];
    int nf = 0;
    for (char *p = line; nf < 64;) {
      fld[nf++] = p;
      char *t = strchr(p, '\t');
      if (!t) break;
      *t = 0;
      p = t + 1;
    }
    if (header) {
      for (int i = 0; i < nf; i++)
        if (!strcmp(fld[i], col)) c = i;
      header = 0;
      continue;
    }
    int idx = atoi(fld[0]);
    if (c >= 0 && c < nf && idx >= 0 && idx < n && fld[c][0]) v[idx] = atoi(fld[c]);
  }
  fclose(f);
  return v;
}

/* A prediction file's model name: its base name without the extension (the
 * reference TSVs are named so). */
static inline void model_name(const char *path, char *out, size_t n) {
  const char *b = strrchr(path, '/');
  b = b ? b + 1 : path;
  const char *dot = strrchr(b, '.');
  snprintf(out, n, "%.*s", (int)(dot ? dot - b : (long)strlen(b)), b);
}

#endif
