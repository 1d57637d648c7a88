/* race.c -- is a candidate faster than the original? Decided as soon as the
 * evidence is clear, and no later than a maximum number of runs or a budget.
 *
 * Two samples: the log run times of each side. Two views of them:
 *   - the early stop asks Welch's t on the log times (ratio of geometric
 *     means, unequal variances, Welch-Satterthwaite degrees of freedom):
 *     it uses how far apart the sides are, so a 4 s original against a
 *     0.05 s rewrite is decided on two runs of each, where a rank test would
 *     need twenty of one side whatever the gap. A single run slowed by the
 *     machine inflates the variance more than it moves the mean (t stays
 *     near 1), so outliers delay a decision rather than make one;
 *   - the estimate and 95% interval that are reported, and the final rule
 *     when the race runs out of runs or budget, are distribution-free: the
 *     Hodges-Lehmann shift (the median of log(a_i / b_j) over all pairs: a
 *     slow run moves it by one rank, not by its size) and Moses' interval
 *     from the exact null distribution of the Mann-Whitney count, the
 *     Gaussian binomial coefficient [m+n choose m]_q (normal approximation
 *     past 60 runs together).
 *
 * Sampling is time-balanced: the next run goes to the side that has had less
 * time, so two similar queries alternate run for run (the order effects of a
 * warm cache cancel), and when one is 50 times faster it runs many times per
 * run of the other.
 *
 * Looks are taken after every run; each early stop spends alpha per look and
 * per direction. The chance of a wrong early stop over a whole race was
 * measured by simulation (bench/bench_race.c; docs/timing.md). */
#include "core.h"
#include "timing.h"

#include "exec/exec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The standard normal quantile by bisection on erfc (called rarely). */
static double normal_quantile(double p) {
  double lo = -40, hi = 40;
  for (int i = 0; i < 200; i++) {
    double mid = (lo + hi) / 2;
    if (0.5 * erfc(-mid / sqrt(2.0)) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/* The regularized incomplete beta function I_x(a, b), by its continued
 * fraction (modified Lentz), on the side where it converges fast. */
static double beta_cf(double a, double b, double x) {
  const double tiny = 1e-300;
  double c = 1, d = 1 - (a + b) * x / (a + 1);
  if (fabs(d) < tiny) d = tiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m <= 300; m++) {
    double m2 = 2.0 * m, num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
    d = 1 + num * d;
    c = 1 + num / c;
    if (fabs(d) < tiny) d = tiny;
    if (fabs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
    d = 1 + num * d;
    c = 1 + num / c;
    if (fabs(d) < tiny) d = tiny;
    if (fabs(c) < tiny) c = tiny;
    d = 1 / d;
    double step = d * c;
    h *= step;
    if (fabs(step - 1) < 1e-14) break;
  }
  return h;
}

static double beta_reg(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return front * beta_cf(a, b, x) / a;
  return 1 - front * beta_cf(b, a, 1 - x) / b;
}

/* P(T >= t) for Student's t with nu degrees of freedom (nu > 0, not integer too) */
static double t_upper(double t, double nu) {
  if (isinf(t)) return t > 0 ? 0 : 1;
  double tail = 0.5 * beta_reg(nu / 2, 0.5, nu / (nu + t * t));
  return t >= 0 ? tail : 1 - tail;
}

/* the t with P(T >= t) = p (0 < p < 0.5), by bisection */
static double t_quantile_upper(double p, double nu) {
  double lo = 0, hi = 1;
  while (t_upper(hi, nu) > p && hi < 1e12) hi *= 2;
  for (int i = 0; i < 100; i++) {
    double mid = (lo + hi) / 2;
    if (t_upper(mid, nu) > p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

int sqlsim_mw_critical(int m, int n, double alpha) {
  if (m <= 0 || n <= 0 || !(alpha > 0)) return 0;
  if (m + n > 60) {
    double mean = (double)m * n / 2, sd = sqrt((double)m * n * (m + n + 1) / 12.0);
    double c = floor(mean + 0.5 + normal_quantile(alpha) * sd);
    return c > 0 ? (int)c : 0;
  }
  /* coefficients of [m+n choose m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i):
   * exact integers (at most C(60,30) ~ 1.2e17) in a long double */
  int N = m * n;
  long double *c = calloc((size_t)N + 1 + (size_t)n + (size_t)m + 1, sizeof *c);
  if (!c) return 0;
  c[0] = 1;
  int deg = 0;
  for (int i = 1; i <= m; i++) {
    int s = n + i;
    for (int k = deg + s; k >= s; k--) c[k] -= c[k - s];
    deg += s;
    for (int k = i; k <= deg; k++) c[k] += c[k - i];
    deg -= i;
  }
  long double total = 0, cum = 0;
  for (int u = 0; u <= N; u++) total += c[u];
  int crit = 0;
  for (int u = 0; u <= N; u++) {
    if ((cum + c[u]) / total > alpha) break;
    cum += c[u];
    crit = u + 1;
  }
  free(c);
  return crit;
}

int sqlsim_race_decide(const double *a, int na, const double *b, int nb, double threshold, double alpha,
                       sqlsim_race *out) {
  out->ratio = out->lo95 = out->gm = out->lo = 0;
  out->hi = out->hi95 = INFINITY;
  if (na <= 0 || nb <= 0) return SQLSIM_RACE_UNDECIDED;
  /* the distribution-free estimate and 95% interval */
  int N = na * nb;
  double *d = malloc(sizeof *d * ((size_t)N + (size_t)na + (size_t)nb));
  if (!d) return SQLSIM_RACE_UNDECIDED;
  double *la = d + N, *lb = la + na, ma = 0, mb = 0, va = 0, vb = 0;
  for (int i = 0; i < na; i++) ma += la[i] = log(fmax(a[i], 1e-9));
  for (int j = 0; j < nb; j++) mb += lb[j] = log(fmax(b[j], 1e-9));
  ma /= na;
  mb /= nb;
  for (int i = 0; i < na; i++) va += (la[i] - ma) * (la[i] - ma);
  for (int j = 0; j < nb; j++) vb += (lb[j] - mb) * (lb[j] - mb);
  for (int i = 0; i < na; i++)
    for (int j = 0; j < nb; j++) d[i * nb + j] = la[i] - lb[j];
  qsort(d, (size_t)N, sizeof *d, timing_cmp_d);
  out->ratio = exp(N % 2 ? d[N / 2] : (d[N / 2 - 1] + d[N / 2]) / 2);
  int c95 = sqlsim_mw_critical(na, nb, 0.025);
  if (c95 > 0) {
    out->lo95 = exp(d[c95 - 1]);
    out->hi95 = exp(d[N - c95]);
  }
  free(d);
  /* Welch's t on the log times, for the early stop */
  double diff = ma - mb;
  out->gm = exp(diff);
  if (na < 2 || nb < 2) return SQLSIM_RACE_UNDECIDED;
  va /= na - 1;
  vb /= nb - 1;
  double qa = va / na, qb = vb / nb, se = sqrt(qa + qb);
  if (se < 1e-9) se = 1e-9; /* identical times: a clock's resolution */
  double nu = (qa + qb) * (qa + qb) / (qa * qa / (na - 1) + qb * qb / (nb - 1) + 1e-300);
  if (nu < 1) nu = 1;
  if (nu > 1e6) nu = 1e6;
  double q = t_quantile_upper(alpha, nu);
  out->lo = exp(diff - q * se);
  out->hi = exp(diff + q * se);
  if (out->lo >= threshold) return SQLSIM_RACE_FASTER;
  if (out->hi < threshold) return SQLSIM_RACE_NOT_FASTER;
  return SQLSIM_RACE_UNDECIDED;
}

int sqlsim_race_final(const sqlsim_race *r, double threshold) { return r->ratio >= threshold && r->lo95 > 1; }

/* the median of n times and (q3 - q1) / median */
static double median_spread(const double *t, int n, double *spread) {
  *spread = 0;
  if (n < 1) return 0;
  double *s = malloc(sizeof *s * (size_t)n);
  if (!s) return 0;
  memcpy(s, t, sizeof *s * (size_t)n);
  qsort(s, (size_t)n, sizeof *s, timing_cmp_d);
  double med = s[n / 2], q1 = s[n / 4], q3 = s[(3 * n) / 4];
  free(s);
  if (n >= 2 && med > 0) *spread = (q3 - q1) / med;
  return med;
}

void sqlsim_race_with(const sqlsim_race_opts *opts, sqlsim_race_timer timer, void *ctx, sqlsim_race *out) {
  memset(out, 0, sizeof *out);
  sqlsim_race_opts o = opts ? *opts : (sqlsim_race_opts){0};
  if (!(o.threshold > 0)) o.threshold = 1.1;
  if (o.min_runs <= 0) o.min_runs = 2;
  if (o.max_runs <= 0) o.max_runs = 20;
  if (o.max_runs < o.min_runs) o.max_runs = o.min_runs;
  if (!(o.alpha > 0)) o.alpha = 0.005;
  double t0 = sbx_clock();
  double *ta = malloc(sizeof *ta * (size_t)o.max_runs), *tb = malloc(sizeof *tb * (size_t)o.max_runs);
  int na = 0, nb = 0, budget_out = 0;
  double sa = 0, sb = 0;
  out->ok = ta && tb;
  if (!out->ok) snprintf(out->reason, sizeof out->reason, "out of memory");
  if (out->ok && o.prior_a > 0) sa += ta[na++] = o.prior_a;
  if (out->ok && o.prior_b > 0) sb += tb[nb++] = o.prior_b;
  while (out->ok) {
    if (o.cancel && *o.cancel) {
      out->ok = 0;
      snprintf(out->reason, sizeof out->reason, "cancelled");
      break;
    }
    if (na >= o.min_runs && nb >= o.min_runs) {
      int d = sqlsim_race_decide(ta, na, tb, nb, o.threshold, o.alpha, out);
      if (d != SQLSIM_RACE_UNDECIDED) {
        out->decision = d;
        out->early = 1;
        break;
      }
    }
    int a_full = na >= o.max_runs, b_full = nb >= o.max_runs;
    if (a_full && b_full) break;
    if (o.budget_s > 0 && sbx_clock() - t0 >= o.budget_s) {
      budget_out = 1;
      break;
    }
    /* the side that has had less time; a side short of min_runs first */
    int run_a;
    if (na < o.min_runs || nb < o.min_runs) run_a = na < o.min_runs && (nb >= o.min_runs || sa <= sb);
    else run_a = !a_full && (b_full || sa < sb || (sa == sb && na <= nb));
    char why[200] = "";
    double t = timer(ctx, run_a ? 0 : 1, why, sizeof why);
    if (t < 0) {
      out->ok = 0;
      snprintf(out->reason, sizeof out->reason, "%s: %s", run_a ? "the original" : "the candidate", why);
      break;
    }
    if (run_a) sa += ta[na++] = t;
    else sb += tb[nb++] = t;
  }
  out->na = na;
  out->nb = nb;
  if (out->ok && !out->early) {
    sqlsim_race_decide(ta, na, tb, nb, o.threshold, o.alpha, out);
    /* the final rule; a budget spent before two runs a side leaves nothing to judge */
    if (budget_out && (na < 2 || nb < 2)) out->decision = SQLSIM_RACE_UNDECIDED;
    else out->decision = sqlsim_race_final(out, o.threshold) ? SQLSIM_RACE_FASTER : SQLSIM_RACE_NOT_FASTER;
    if (budget_out)
      snprintf(out->reason, sizeof out->reason, "the time budget ran out (%g s) after %d and %d runs", o.budget_s, na,
               nb);
  }
  double ignore;
  out->median_a = median_spread(ta, na, &out->spread_a);
  out->median_b = median_spread(tb, nb, &ignore);
  out->budget_spent = budget_out;
  out->wall_s = sbx_clock() - t0;
  free(ta);
  free(tb);
}

typedef struct race_ctx {
  const char *path, *sql[2];
  const sqlsim_race_opts *o;
} race_ctx;

static double db_timer(void *ctx, int side, char *why, size_t wn) {
  race_ctx *c = ctx;
  double first;
  return timing_run_once(c->path, c->o->timeout_s, c->o->fixed_now, 0, c->sql[side], &first, why, wn);
}

void sqlsim_race_run(const char *path, const char *a, const char *b, const sqlsim_race_opts *opts,
                     sqlsim_race *out) {
  sqlsim_race_opts dflt = {0};
  race_ctx c = {path, {a, b}, opts ? opts : &dflt};
  sqlsim_race_with(c.o, db_timer, &c, out);
}
