/* timing.h -- one timed run, shared by the VES protocols (ves.c) and the
 * sequential race (race.c). */
#ifndef SQLSIM_TIMING_H
#define SQLSIM_TIMING_H

#include <stddef.h>

/* qsort order of doubles */
static inline int timing_cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Opens a fresh connection to path (not timed), runs sql to its last row
 * keeping no cells, closes. Returns the seconds from prepare to the last row
 * (the thread's CPU time with cpu_clock), or -1 with why filled; *first gets
 * the time to the first row. */
double timing_run_once(const char *path, double timeout_s, const char *fixed_now, int cpu_clock, const char *sql,
                       double *first, char *why, size_t wn);

#endif
