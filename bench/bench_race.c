/* bench_race.c -- the error rates and costs of the rewrite timing rule, by
 * simulation.
 *
 * Races (sqlsim_race_with) on a simulated timer: the original takes 1 time
 * unit, the candidate 1 / R, each run multiplied by lognormal noise of
 * spread sigma, and in the "contaminated" model 5% of runs are slowed a
 * further 1.5-5x (what a busy machine does). For each true ratio R and noise
 * it prints how often the rewrite is offered at the 1.1 threshold (the
 * error rate when R < 1.1, the power when above), how often the race
 * stopped early, and the runs it used, against the fixed protocol's cost of
 * `--max` runs a side; and, on the same simulated runs, how often the final
 * rule alone (no early stop, every race to `--max` runs a side) offers it:
 * the difference is the error the early stops add. Seeded: the figures
 * repeat.
 *
 * usage: bench_race [--races N] [--max RUNS] [--alpha A] */
#include "sqlsim.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sim {
  double mean[2], sigma, contaminate;
  uint64_t s;
} sim;

static double unif(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return ((double)(*s >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(uint64_t *s) { return sqrt(-2 * log(unif(s))) * cos(2 * M_PI * unif(s)); }

static double timer(void *ctx, int side, char *why, size_t wn) {
  (void)why;
  (void)wn;
  sim *m = ctx;
  double t = m->mean[side] * exp(m->sigma * gauss(&m->s));
  if (m->contaminate > 0 && unif(&m->s) < m->contaminate) t *= 1.5 + 3.5 * unif(&m->s);
  return t;
}

int main(int argc, char **argv) {
  int races = 1000, max = 20;
  double alpha = 0.005;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--races")) races = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--max")) max = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--alpha")) alpha = atof(argv[i + 1]);
    else {
      fprintf(stderr, "usage: bench_race [--races N] [--max RUNS] [--alpha A]\n");
      return 2;
    }
  }
  const double ratios[] = {1.0, 1.05, 1.08, 1.1, 1.15, 1.3, 2, 10};
  const double sigmas[] = {0.02, 0.1, 0.3};
  printf("threshold 1.1, alpha %g per look and direction, at most %d runs a side, %d races per row\n", alpha, max,
         races);
  printf("%-13s %6s %6s %9s %8s %10s %10s %14s\n", "noise", "sigma", "ratio", "offered", "early", "runs a+b",
         "vs fixed", "final rule only");
  for (int c = 0; c < 2; c++)
    for (size_t si = 0; si < sizeof sigmas / sizeof *sigmas; si++)
      for (size_t ri = 0; ri < sizeof ratios / sizeof *ratios; ri++) {
        uint64_t seed = 0x9e3779b97f4a7c15ULL ^ (ri * 1000 + si * 10 + c);
        sim m = {{1, 1 / ratios[ri]}, sigmas[si], c ? 0.05 : 0, seed};
        sim f = m;
        int offered = 0, early = 0, offered_final = 0;
        double runs = 0;
        for (int k = 0; k < races; k++) {
          sqlsim_race_opts o = {.threshold = 1.1, .max_runs = max, .alpha = alpha};
          sqlsim_race r;
          sqlsim_race_with(&o, timer, &m, &r);
          offered += r.decision == SQLSIM_RACE_FASTER;
          early += r.early;
          runs += r.na + r.nb;
          o.alpha = 1e-300; /* no early stop */
          sqlsim_race_with(&o, timer, &f, &r);
          offered_final += r.decision == SQLSIM_RACE_FASTER;
        }
        printf("%-13s %6.2f %6.2f %8.2f%% %7.1f%% %10.1f %9.0f%% %13.2f%%\n", c ? "contaminated" : "lognormal",
               sigmas[si], ratios[ri], 100.0 * offered / races, 100.0 * early / races, runs / races,
               100 * runs / races / (2.0 * max), 100.0 * offered_final / races);
      }
  return 0;
}
