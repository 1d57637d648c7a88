/* bench_rewrite.c -- the rewriter on generated BIRD-shaped databases.
 *
 * For every query of a queries file (db_id, kind, SQL; bench/rewrite_queries.tsv)
 * runs sqlsim_rewrite against DIR/<db_id>/<db_id>.sqlite (made by gen_bird) and
 * prints what happened: candidates found, proved equivalent, offered, the
 * measured ratio (original time / rewrite time, full fetch, alternating runs)
 * with its interval, or the reason. Then the totals: found / proved / offered,
 * the median and worst speedup of the offered rewrites, the slowest offered
 * rewrite against its original, and VES and R-VES of the set before and after
 * (the original query as the reference: before, every ratio is 1).
 *
 * Each line ends with the wall time sqlsim_rewrite took for that query (the
 * proof and the timing), and the totals with the whole run's: run it once as
 * it is (the sequential race) and once with --fixed (the fixed protocol of
 * --iterations alternating runs) to compare verdicts and time.
 *
 * usage: bench_rewrite --db-dir DIR --queries FILE [--iterations N] [--timeout S]
 *                      [--fixed] [--time-budget S]
 */
#include "clock.h"
#include "sqlsim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  const char *dir = NULL, *queries = NULL;
  sqlsim_rewrite_opts o = {0};
  o.iterations = 10;
  o.timeout_s = 60;
  o.rules = SQLSIM_RULES_ALL; /* the paper's forward forms too: measured, not assumed */
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--db-dir") && i + 1 < argc) dir = argv[++i];
    else if (!strcmp(argv[i], "--queries") && i + 1 < argc) queries = argv[++i];
    else if (!strcmp(argv[i], "--iterations") && i + 1 < argc) o.iterations = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) o.timeout_s = atof(argv[++i]);
    else if (!strcmp(argv[i], "--time-budget") && i + 1 < argc) o.time_budget_s = atof(argv[++i]);
    else if (!strcmp(argv[i], "--fixed")) o.fixed = 1;
    else {
      fprintf(stderr, "usage: bench_rewrite --db-dir DIR --queries FILE [--iterations N] [--timeout S] [--fixed] "
                      "[--time-budget S]\n");
      return 2;
    }
  }
  if (!dir || !queries) {
    fprintf(stderr, "usage: bench_rewrite --db-dir DIR --queries FILE [--iterations N] [--timeout S] [--fixed] "
                      "[--time-budget S]\n");
    return 2;
  }
  FILE *f = fopen(queries, "r");
  if (!f) {
    perror(queries);
    return 1;
  }
  char line[8192];
  int n = 0, found = 0, proved = 0, offered = 0, errors = 0;
  double ratios[512], ves_after = 0, rves_after = 0, slowest = 1e30, total_wall = 0;
  setvbuf(stdout, NULL, _IOLBF, 0); /* progress shows while it runs */
  printf("%-3s %-20s %-5s %-5s %-7s %-8s %s\n", "#", "kind", "found", "proved", "offered", "ratio", "rules / reason");
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    line[strcspn(line, "\r\n")] = 0;
    char *db = line, *kind = strchr(db, '\t'), *sql = kind ? strchr(kind + 1, '\t') : NULL;
    if (!sql) continue;
    *kind++ = 0;
    *sql++ = 0;
    char path[1024];
    if (strlen(dir) + 2 * strlen(db) + 16 > sizeof path) continue;
    snprintf(path, sizeof path, "%.400s/%.300s/%.300s.sqlite", dir, db, db);
    sqlsim_rewrite_result r;
    sqlsim_error err = {0};
    n++;
    double t0 = now();
    int rc = sqlsim_rewrite(path, sql, &o, &r, &err);
    double wall = now() - t0;
    total_wall += wall;
    if (rc) {
      printf("%-3d %-20s error: %s\n", n, kind, err.message);
      errors++;
      ves_after += 1, rves_after += sqlsim_rves_reward(1);
      sqlsim_rewrite_result_free(&r);
      continue;
    }
    int pr = r.candidates - r.rejected_results;
    found += r.candidates > 0;
    proved += pr > 0;
    char rules[128] = "";
    for (int k = 0; k < SQLSIM_NRULES; k++)
      if (r.rules & (1u << k)) {
        if (rules[0]) strcat(rules, ",");
        strcat(rules, sqlsim_rule_names[k]);
      }
    double ratio = 1;
    if (r.offered) {
      ratio = r.timing.ratio;
      ratios[offered++] = ratio;
      if (ratio < slowest) slowest = ratio;
      printf("%-3d %-20s %-5d %-6d %-7s %8.2f %s (interval %.2f-%.2f; %.2f ms -> %.2f ms; runs %d+%d) %.1f s\n", n,
             kind, r.candidates, pr, "yes", ratio, rules, r.timing.ci_low, r.timing.ci_high,
             r.timing.gold_median_s * 1e3, r.timing.pred_median_s * 1e3, o.fixed ? r.timing.n : r.race.na,
             o.fixed ? r.timing.n : r.race.nb, wall);
      printf("    rewrite: %s\n", r.sql); /* for checking it independently */
    } else {
      printf("%-3d %-20s %-5d %-6d %-7s %8s %s %.1f s\n", n, kind, r.candidates, pr, "no", "-", r.reason, wall);
    }
    ves_after += sqrt(ratio);
    rves_after += sqlsim_rves_reward(ratio);
    sqlsim_rewrite_result_free(&r);
  }
  fclose(f);
  qsort(ratios, (size_t)offered, sizeof *ratios, cmp_d);
  printf("\n%d queries (%d could not be read or run): a rule applied to %d, a candidate proved equivalent for %d, "
         "rewrites offered for %d; %.1f s in sqlsim_rewrite (%s)\n",
         n, errors, found, proved, offered, total_wall,
         o.fixed ? "the fixed protocol" : "the sequential race");
  if (offered)
    printf("speedup of the offered rewrites (full fetch): median %.2f, worst %.2f, best %.2f; slowest offered "
           "rewrite against its original: %.2fx (never below 1.1 by construction)\n",
           offered % 2 ? ratios[offered / 2] : (ratios[offered / 2 - 1] + ratios[offered / 2]) / 2, ratios[0],
           ratios[offered - 1], slowest);
  if (n)
    printf("VES of the set, the originals as reference: before 100.0, after %.1f; R-VES before %.1f, after %.1f\n",
           100 * ves_after / n, 100 * sqlsim_rves_reward(1), 100 * rves_after / n);
  return 0;
}
