/* soft_f1.c -- BIRD mini-dev's Soft F1-Score (its evaluation_f1.py), on
 * the hashed cells of two results.
 *
 * The script: both empty scores 1. Each side's rows are de-duplicated,
 * keeping each first occurrence in order; the i-th gold row is paired with
 * the i-th predicted row. For a pair, with n the gold row's width: matches
 * counts the predicted row's values found in the gold row, pred_only those
 * not found, truth_only the gold row's values not found in the predicted
 * row; the pair adds matches / n to tp, pred_only / n to fp, truth_only / n
 * to fn. A gold row without a partner adds 1 to fn, a predicted row without
 * one 1 to fp. Precision tp / (tp + fp), recall tp / (tp + fn) (0 when the
 * sum is 0), F1 their harmonic mean (0 when both are). The sums are taken
 * in the script's order (its lists, then Python's sum from the left), so the
 * figure is the script's to the last bit. Row order is the order the engine
 * returned them: the same query on the same database gives the script the
 * same order. A cell is found in a row when a cell of equal hash is there
 * (cells.c: equal when Python's values are equal). */
#include "core.h"

#include <stdlib.h>
#include <string.h>

static uint64_t row_key(const sqlsim_result *r, long i) {
  uint64_t h = FNV_OFFSET ^ (uint64_t)r->ncols;
  for (int k = 0; k < r->ncols; k++) h = fnv1a_word(h, r->cells[i * r->ncols + k]) ^ (h >> 29);
  return h;
}

static int same_row(const sqlsim_result *r, long a, long b) {
  return !memcmp(&r->cells[a * r->ncols], &r->cells[b * r->ncols], sizeof *r->cells * (size_t)r->ncols);
}

/* The first occurrence of each distinct row, in order: their indexes in
 * out; returns how many (-1 out of memory). Open addressing on the rows'
 * keys, rows compared whole. */
static long distinct_rows(const sqlsim_result *r, long *out) {
  if (r->nrows <= 0) return 0;
  size_t cap = 16;
  while (cap < (size_t)r->nrows * 2) cap <<= 1;
  long *slot = malloc(sizeof *slot * cap);
  if (!slot) return -1;
  for (size_t k = 0; k < cap; k++) slot[k] = -1;
  long n = 0;
  for (long i = 0; i < r->nrows; i++) {
    size_t k = (size_t)row_key(r, i) & (cap - 1);
    while (slot[k] >= 0 && !same_row(r, slot[k], i)) k = (k + 1) & (cap - 1);
    if (slot[k] < 0) {
      slot[k] = i;
      out[n++] = i;
    }
  }
  free(slot);
  return n;
}

/* Whether cell value v is among row i's cells. */
static int in_row(const sqlsim_result *r, long i, uint64_t v) {
  for (int k = 0; k < r->ncols; k++)
    if (r->cells[i * r->ncols + k] == v) return 1;
  return 0;
}

double sqlsim_soft_f1(const sqlsim_result *gold, const sqlsim_result *pred) {
  if (gold->status != SQLSIM_EXEC_OK || pred->status != SQLSIM_EXEC_OK) return 0;
  if (gold->nrows == 0 && pred->nrows == 0) return 1.0;
  long *gi = malloc(sizeof *gi * (size_t)(gold->nrows + 1)), *pi = malloc(sizeof *pi * (size_t)(pred->nrows + 1));
  long ng = gi ? distinct_rows(gold, gi) : -1, np = pi ? distinct_rows(pred, pi) : -1;
  double f1 = 0;
  if (ng < 0 || np < 0) goto done;
  /* the script's three lists, summed from the left: paired rows, then gold
   * rows without a partner (fn 1), then predicted rows without one (fp 1) */
  double tp = 0, fp = 0, fn = 0;
  for (long i = 0; i < ng; i++) {
    if (i >= np) { /* match 0, truth_only 1; nothing in pred_only's list */
      tp += 0;
      fn += 1;
      continue;
    }
    long g = gi[i], p = pi[i];
    int n = gold->ncols, matches = 0, pred_only = 0, truth_only = 0;
    for (int k = 0; k < pred->ncols; k++) {
      if (in_row(gold, g, pred->cells[p * pred->ncols + k])) matches++;
      else pred_only++;
    }
    for (int k = 0; k < gold->ncols; k++)
      if (!in_row(pred, p, gold->cells[g * gold->ncols + k])) truth_only++;
    if (n == 0) goto done; /* the script divides by zero: its item scores 0 */
    tp += (double)matches / n;
    fp += (double)pred_only / n;
    fn += (double)truth_only / n;
  }
  for (long i = ng; i < np; i++) {
    tp += 0;
    fp += 1;
    fn += 0;
  }
  double precision = tp + fp > 0 ? tp / (tp + fp) : 0;
  double recall = tp + fn > 0 ? tp / (tp + fn) : 0;
  f1 = precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0;
done:
  free(gi);
  free(pi);
  return f1;
}
