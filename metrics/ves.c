/* ves.c -- the timing protocols of BIRD's VES (paper) and R-VES (mini-dev).
 *
 * Per iteration: open a fresh connection (not timed), run the prediction to
 * its last row, close; the same for the gold; ratio = gold / pred. With
 * reuse (not the papers' protocol) one connection serves the pair: both
 * queries run once on it untimed, then every timed run is on it. With
 * alternate set the order swaps every iteration (pred-gold, gold-pred, ...),
 * which cancels the advantage of running second in a warm cache. The ratios
 * go through the reference's 3-sigma filter (population sd, strict bounds)
 * and are averaged; when the filter keeps nothing -- every ratio identical --
 * the reference divides by zero and scores 0; here the mean of all is used.
 * The interval is a 95% percentile bootstrap of that mean (1000 resamples,
 * fixed seed, so reports are reproducible).
 *
 * Adaptive (auto_width > 0): the pair stops once it has min_iterations and
 * the normal 95% interval of the mean of its ratios so far is at most
 * auto_width times that mean wide. The ratio reported is then the same
 * filtered mean over fewer iterations; a settled pair (most of them: the
 * two queries of a correct prediction usually take about the same time)
 * stops after a handful. */
#include "core.h"
#include "timing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static sqlsim_db *timing_open(const char *path, double timeout_s, const char *fixed_now, char *why, size_t wn) {
  sqlsim_exec_opts eo = {0};
  eo.timeout_s = timeout_s > 0 ? timeout_s : 30;
  eo.fixed_now = fixed_now;
  sqlsim_db *db;
  sqlsim_error err = {0};
  if (sqlsim_db_open(path, &eo, &db, &err)) {
    snprintf(why, wn, "%.250s", err.message);
    return NULL;
  }
  return db;
}

/* One timed run on an open connection: prepare to the last row. */
static double run_on(sqlsim_db *db, int cpu_clock, const char *sql, double *first, char *why, size_t wn) {
  sqlsim_result r;
  sqlsim_exec_flags(db, sql, SQLSIM_EXEC_NO_CELLS, &r);
  double t = r.status == SQLSIM_EXEC_OK ? (cpu_clock ? r.cpu_s : r.total_s) : -1;
  *first = r.first_row_s;
  if (t < 0) snprintf(why, wn, "%s", r.reason);
  sqlsim_result_free(&r);
  return t;
}

double timing_run_once(const char *path, double timeout_s, const char *fixed_now, int cpu_clock, const char *sql,
                       double *first, char *why, size_t wn) {
  sqlsim_db *db = timing_open(path, timeout_s, fixed_now, why, wn);
  if (!db) return -1;
  double t = run_on(db, cpu_clock, sql, first, why, wn);
  sqlsim_db_close(db);
  return t;
}

/* A run by the protocol: on the pair's connection when it keeps one, else on
 * a fresh one. */
static double run_once(sqlsim_db *kept, const char *path, const sqlsim_timing_opts *o, const char *sql, double *first,
                       char *why, size_t wn) {
  if (kept) return run_on(kept, o->cpu_clock, sql, first, why, wn);
  return timing_run_once(path, o->timeout_s, o->fixed_now, o->cpu_clock, sql, first, why, wn);
}

/* The reference's clean_abnormal + mean; *kept gets the count kept. */
double sqlsim_ves_filtered_mean(const double *x, int n, int *kept) {
  double mean = 0, var = 0;
  for (int i = 0; i < n; i++) mean += x[i];
  mean /= n;
  for (int i = 0; i < n; i++) var += (x[i] - mean) * (x[i] - mean);
  double sd = sqrt(var / n);
  double sum = 0;
  int k = 0;
  for (int i = 0; i < n; i++)
    if (x[i] < mean + 3 * sd && x[i] > mean - 3 * sd) {
      sum += x[i];
      k++;
    }
  *kept = k;
  return k ? sum / k : mean;
}

static uint64_t rng_next(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

void sqlsim_time_pair(const char *path, const char *gold, const char *pred,
                      const sqlsim_timing_opts *o, sqlsim_timing *out) {
  memset(out, 0, sizeof *out);
  int iters = o && o->iterations > 0 ? o->iterations : 100;
  sqlsim_timing_opts dflt = {0};
  if (!o) o = &dflt;
  double *ratio = malloc(sizeof *ratio * (size_t)iters), *fr = malloc(sizeof *fr * (size_t)iters);
  double *gt = malloc(sizeof *gt * (size_t)iters), *pt = malloc(sizeof *pt * (size_t)iters);
  double budget = (o->timeout_s > 0 ? o->timeout_s : 30) * iters, spent = 0;
  int n = 0;
  double sum = 0, sum2 = 0;
  int min_auto = o->min_iterations > 0 ? o->min_iterations : 10;
  out->ok = 1;
  sqlsim_db *kept = NULL;
  if (o->reuse) { /* one connection, schema read and pages cached by a first untimed run of each */
    double f;
    kept = timing_open(path, o->timeout_s, o->fixed_now, out->reason, sizeof out->reason);
    if (!kept || run_on(kept, 0, pred, &f, out->reason, sizeof out->reason) < 0 ||
        run_on(kept, 0, gold, &f, out->reason, sizeof out->reason) < 0) {
      out->ok = 0;
      iters = 0;
    }
  }
  for (int i = 0; i < iters; i++) {
    if (o->cancel && *o->cancel) {
      out->ok = 0;
      snprintf(out->reason, sizeof out->reason, "cancelled");
      break;
    }
    double gf, pf, g, p;
    int pred_first = !o->alternate || i % 2 == 0;
    if (pred_first) {
      p = run_once(kept, path, o, pred, &pf, out->reason, sizeof out->reason);
      g = p >= 0 ? run_once(kept, path, o, gold, &gf, out->reason, sizeof out->reason) : -1;
    } else {
      g = run_once(kept, path, o, gold, &gf, out->reason, sizeof out->reason);
      p = g >= 0 ? run_once(kept, path, o, pred, &pf, out->reason, sizeof out->reason) : -1;
    }
    if (p < 0 || g < 0) {
      out->ok = 0;
      break;
    }
    spent += p + g;
    gt[n] = g;
    pt[n] = p;
    ratio[n] = g / (p > 1e-9 ? p : 1e-9);
    fr[n] = gf / (pf > 1e-9 ? pf : 1e-9);
    sum += ratio[n];
    sum2 += ratio[n] * ratio[n];
    n++;
    if (o->auto_width > 0 && n >= min_auto) {
      double mean = sum / n, var = (sum2 - n * mean * mean) / (n - 1);
      if (2 * 1.96 * sqrt(var > 0 ? var / n : 0) <= o->auto_width * mean) break;
    }
    if (spent > budget) {
      out->ok = 0;
      snprintf(out->reason, sizeof out->reason, "stopped: the pair took over %g s", budget);
      break;
    }
  }
  sqlsim_db_close(kept);
  out->n = n;
  if (out->ok && n > 0) {
    out->ratio = sqlsim_ves_filtered_mean(ratio, n, &out->kept);
    int k2;
    out->first_row_ratio = sqlsim_ves_filtered_mean(fr, n, &k2);
    /* bootstrap of the filtered mean */
    double *boot = malloc(sizeof *boot * 1000), *sample = malloc(sizeof *sample * (size_t)n);
    uint64_t seed = 0x5eed5eedULL;
    for (int b = 0; b < 1000; b++) {
      for (int i = 0; i < n; i++) sample[i] = ratio[rng_next(&seed) % (uint64_t)n];
      int k;
      boot[b] = sqlsim_ves_filtered_mean(sample, n, &k);
    }
    qsort(boot, 1000, sizeof *boot, timing_cmp_d);
    out->ci_low = boot[24];
    out->ci_high = boot[974];
    free(boot);
    free(sample);
    qsort(gt, (size_t)n, sizeof *gt, timing_cmp_d);
    qsort(pt, (size_t)n, sizeof *pt, timing_cmp_d);
    out->gold_median_s = gt[n / 2];
    out->pred_median_s = pt[n / 2];
  }
  free(ratio);
  free(fr);
  free(gt);
  free(pt);
}

double sqlsim_rves_reward(double r) {
  if (r >= 2) return 1.25;
  if (r >= 1) return 1;
  if (r >= 0.5) return 0.75;
  if (r >= 0.25) return 0.5;
  if (r > 0) return 0.25;
  return 0;
}

void sqlsim_ves_add(sqlsim_ves_sum *s, double ratio) {
  if (ratio > 0) {
    s->ves += sqrt(ratio);
    s->rves += sqrt(sqlsim_rves_reward(ratio));
  }
  s->n++;
}

double sqlsim_ves_value(const sqlsim_ves_sum *s) { return s->n ? 100 * s->ves / (double)s->n : NAN; }
double sqlsim_rves_value(const sqlsim_ves_sum *s) { return s->n ? 100 * s->rves / (double)s->n : NAN; }

void sqlsim_noise_floor_of(double *x, int n, sqlsim_noise_floor *out) {
  memset(out, 0, sizeof *out);
  out->n = n;
  if (n <= 0) {
    out->n = 0;
    out->median = out->p05 = out->p95 = out->ves = out->rves = NAN;
    return;
  }
  qsort(x, (size_t)n, sizeof *x, timing_cmp_d);
  /* nearest rank, so that each figure is one of the measured ratios */
  out->median = x[(n - 1) / 2];
  out->p05 = x[(int)floor(0.05 * (n - 1) + 0.5)];
  out->p95 = x[(int)floor(0.95 * (n - 1) + 0.5)];
  sqlsim_ves_sum s = {0};
  for (int i = 0; i < n; i++) sqlsim_ves_add(&s, x[i]);
  out->ves = sqlsim_ves_value(&s);
  out->rves = sqlsim_rves_value(&s);
}
