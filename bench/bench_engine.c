/* bench_engine.c -- the evaluator's per-pair cost from C: the baseline the
 * Python package's overhead is measured against (bench/bench_python.py).
 *
 * Reads tab-separated (gold, pred, db_id) lines, scores each with
 * sqlsim_evaluate on one thread for `rounds` rounds, and prints the best
 * round's microseconds per pair.
 *
 * usage: bench_engine --metrics LIST [--tables FILE] [--db-dir DIR] [--rounds N] PAIRS.tsv */
#include "clock.h"
#include "sqlsim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv) {
  sqlsim_config cfg = {0};
  const char *metrics = "bis", *path = NULL;
  int rounds = 3;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--metrics") && i + 1 < argc) metrics = argv[++i];
    else if (!strcmp(argv[i], "--tables") && i + 1 < argc) cfg.tables = argv[++i];
    else if (!strcmp(argv[i], "--db-dir") && i + 1 < argc) cfg.db_dir = argv[++i];
    else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = atoi(argv[++i]);
    else path = argv[i];
  }
  sqlsim_error err = {0};
  if (!path || sqlsim_metrics_parse(metrics, &cfg.metrics, &err)) {
    fprintf(stderr, "usage: bench_engine --metrics LIST [--tables FILE] [--db-dir DIR] [--rounds N] PAIRS.tsv %s\n",
            err.message);
    return 2;
  }
  sqlsim_evaluator *ev;
  if (sqlsim_evaluator_new(&cfg, &ev, &err)) {
    fprintf(stderr, "%s\n", err.message);
    return 1;
  }
  FILE *f = fopen(path, "r");
  if (!f) return perror(path), 1;
  size_t cap = 1024, n = 0;
  sqlsim_pair *pairs = malloc(cap * sizeof *pairs);
  char *line = NULL;
  size_t lcap = 0;
  ssize_t len;
  while ((len = getline(&line, &lcap, f)) > 0) {
    if (line[len - 1] == '\n') line[--len] = '\0';
    char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
    if (!t2) continue;
    *t1 = *t2 = '\0';
    if (n == cap) pairs = realloc(pairs, (cap *= 2) * sizeof *pairs);
    pairs[n++] = (sqlsim_pair){strdup(line), strdup(t1 + 1), strdup(t2 + 1)};
  }
  free(line);
  fclose(f);
  double best = 1e30;
  for (int r = 0; r < rounds; r++) {
    double t = now();
    for (size_t k = 0; k < n; k++) {
      sqlsim_record rec;
      sqlsim_evaluate(ev, pairs[k].gold, pairs[k].pred, pairs[k].db_id, &rec, NULL);
      sqlsim_record_clear(&rec);
    }
    t = now() - t;
    if (t < best) best = t;
  }
  printf("pairs %zu\nus_per_pair %.3f\n", n, best / (double)n * 1e6);
  for (size_t k = 0; k < n; k++) {
    free((void *)pairs[k].gold);
    free((void *)pairs[k].pred);
    free((void *)pairs[k].db_id);
  }
  free(pairs);
  sqlsim_evaluator_free(ev);
  sqlsim_thread_cleanup();
  return 0;
}
