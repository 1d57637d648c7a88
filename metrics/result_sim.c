/* result_sim.c -- BIS result partial similarity (Caglayan et al., Section 5.2).
 *
 * Columns are matched by their values, never their names. A predicted column
 * and a gold column agree when the row counts are equal and every value
 * agrees: numbers within a relative tolerance of 1e-6 (1e-9 absolute near 0),
 * text and blobs exactly, NULL only with NULL. Rows are compared in order when
 * the gold query orders them (top-level ORDER BY), else each column is compared
 * as a sorted multiset. The matching is a maximum one-to-one assignment over
 * all M x N pairs (augmenting paths), not the reference's greedy first match. */
#include "core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct cell {
  uint8_t kind;
  double num;
  uint64_t hash;
} cell;

static int cell_cmp(const void *a, const void *b) {
  const cell *x = a, *y = b;
  if (x->kind != y->kind) return x->kind - y->kind;
  if (x->kind == 1) return x->num < y->num ? -1 : x->num > y->num;
  return x->hash < y->hash ? -1 : x->hash > y->hash;
}

static int cell_eq(const cell *x, const cell *y) {
  if (x->kind != y->kind) return 0;
  if (x->kind == 0) return 1;
  if (x->kind == 1) {
    double d = fabs(x->num - y->num), m = fmax(fabs(x->num), fabs(y->num));
    return d <= 1e-9 || d <= 1e-6 * m;
  }
  return x->hash == y->hash;
}

/* The column's cells, sorted unless ordered. */
static cell *column(const sqlsim_result *r, int c, int ordered) {
  cell *v = malloc(sizeof *v * (size_t)(r->nrows ? r->nrows : 1));
  for (long i = 0; i < r->nrows; i++) {
    long at = i * r->ncols + c;
    v[i].kind = r->kinds ? r->kinds[at] : 2;
    v[i].num = r->nums ? r->nums[at] : 0;
    v[i].hash = r->cells[at];
  }
  if (!ordered) qsort(v, (size_t)r->nrows, sizeof *v, cell_cmp);
  return v;
}

static int augment(int g, const unsigned char *edge, int np, int *match_p, unsigned char *seen) {
  for (int p = 0; p < np; p++) {
    if (!edge[g * np + p] || seen[p]) continue;
    seen[p] = 1;
    if (match_p[p] < 0 || augment(match_p[p], edge, np, match_p, seen)) {
      match_p[p] = g;
      return 1;
    }
  }
  return 0;
}

void sqlsim_result_similarity(const sqlsim_result *g, const sqlsim_result *p, int ordered,
                              sqlsim_result_sim *out) {
  memset(out, 0, sizeof *out);
  out->gold_cols = g->ncols;
  out->pred_cols = p->ncols;
  if (g->nrows == 0 && p->nrows == 0) {
    out->matched = g->ncols < p->ncols ? g->ncols : p->ncols;
    out->p = out->r = out->f1 = 1;
    return;
  }
  int ng = g->ncols, np = p->ncols;
  unsigned char *edge = calloc((size_t)(ng * np + 1), 1);
  if (g->nrows == p->nrows) {
    cell **gc = malloc(sizeof *gc * (size_t)(ng + 1)), **pc = malloc(sizeof *pc * (size_t)(np + 1));
    for (int i = 0; i < ng; i++) gc[i] = column(g, i, ordered);
    for (int j = 0; j < np; j++) pc[j] = column(p, j, ordered);
    for (int i = 0; i < ng; i++)
      for (int j = 0; j < np; j++) {
        int eq = 1;
        for (long k = 0; k < g->nrows && eq; k++) eq = cell_eq(&gc[i][k], &pc[j][k]);
        edge[i * np + j] = (unsigned char)eq;
      }
    for (int i = 0; i < ng; i++) free(gc[i]);
    for (int j = 0; j < np; j++) free(pc[j]);
    free(gc);
    free(pc);
  }
  int *match_p = malloc(sizeof *match_p * (size_t)(np + 1));
  unsigned char *seen = malloc((size_t)np + 1);
  for (int j = 0; j < np; j++) match_p[j] = -1;
  for (int i = 0; i < ng; i++) {
    memset(seen, 0, (size_t)np + 1);
    out->matched += augment(i, edge, np, match_p, seen);
  }
  free(edge);
  free(match_p);
  free(seen);
  out->p = np ? (double)out->matched / np : 0;
  out->r = ng ? (double)out->matched / ng : 0;
  out->f1 = out->p + out->r > 0 ? 2 * out->p * out->r / (out->p + out->r) : 0;
}
