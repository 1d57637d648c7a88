/* clock.h -- wall-clock seconds for the bench programs. */
#ifndef SQLSIM_BENCH_CLOCK_H
#define SQLSIM_BENCH_CLOCK_H

#include <time.h>

static inline double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#endif
