/* bench_parse.c -- parse + normalize against libpg_query's own entry points.
 *
 * Reads every query of the given files (any format sqlsim reads), then times,
 * in the same run and on the same strings: pg_query_parse (JSON out, the
 * fastest entry point), pg_query_parse_protobuf, and sqlsim_parse with
 * normalization (schema from --tables when given). Prints microseconds per
 * query, queries per second and the ratio to pg_query_parse, best of
 * --rounds rounds (default 5); and, since a shared machine's speed drifts
 * between loops, the median over the rounds of each round's own ratio (its
 * loops run one after the other). Memory: the bytes a parsed query holds in
 * its arena, mean and largest, and the peak RSS.
 *
 * A second floor: pg_query_parse on the text as PostgreSQL can read it, the
 * front end's output (translated once, outside the timing). On the raw text
 * libpg_query stops at the first SQLite-only form (a `backquoted` name, a
 * FROM subquery without an alias) and returns an error having written no
 * JSON: cheaper than a parse, so the raw floor understates the work wherever
 * such queries are common (132 of BIRD dev's 1534 gold queries). Both ratios
 * are printed, and which route sqlsim_parse read PostgreSQL's tree by.
 *
 * usage: bench_parse [--tables FILE] [--rounds N] [--only-sqlsim] FILE... */
#include "clock.h"
#include "parser/frontend.h"
#include "parser/pgnodes.h"
#include "sqlsim.h"

#include <pg_query.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

typedef struct {
  const char *sql;
  const sqlsim_schema *schema;
  char *pg_text; /* the front end's output (sql itself if it refuses it) */
} job;

int main(int argc, char **argv) {
  const char *tables = NULL;
  int rounds = 5, only_sqlsim = 0;
  job *jobs = NULL;
  int n = 0, cap = 0;
  sqlsim_catalog *cat = NULL;
  sqlsim_itemset *sets[64];
  int nsets = 0;
  sqlsim_error err = {0};
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--tables") && i + 1 < argc) {
      tables = argv[++i];
      if (sqlsim_catalog_load_tables_json(tables, &cat, &err)) {
        fprintf(stderr, "error: %s\n", err.message);
        return 1;
      }
    } else if (!strcmp(argv[i], "--only-sqlsim")) {
      only_sqlsim = 1; /* for profiling */
    } else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
      rounds = atoi(argv[++i]);
      if (rounds < 1) rounds = 1;
    } else if (nsets < 64) {
      if (sqlsim_items_load(argv[i], &sets[nsets], &err)) {
        fprintf(stderr, "error: %s\n", err.message);
        return 1;
      }
      sqlsim_itemset *s = sets[nsets++];
      for (int k = 0; k < s->n; k++) {
        if (n == cap) jobs = realloc(jobs, sizeof *jobs * (size_t)(cap = cap ? cap * 2 : 4096));
        jobs[n].sql = s->items[k].sql;
        jobs[n].schema = s->items[k].db_id ? sqlsim_catalog_find(cat, s->items[k].db_id) : NULL;
        n++;
      }
    }
  }
  if (!n) {
    fprintf(stderr, "usage: bench_parse [--tables FILE] [--rounds N] FILE...\n");
    return 2;
  }
  int rejected = 0, translated = 0;
  for (int i = 0; i < n; i++) {
    sqlsim_arena *a = sqlsim_arena_new();
    fe_result fe;
    const char *t = fe_translate(a, jobs[i].sql, (int)strlen(jobs[i].sql), &fe, NULL) ? jobs[i].sql : fe.out;
    translated += strcmp(t, jobs[i].sql) != 0;
    jobs[i].pg_text = strdup(t);
    sqlsim_arena_free(a);
    PgQueryParseResult pr = pg_query_parse(jobs[i].sql);
    rejected += pr.error != NULL;
    pg_query_free_parse_result(pr);
  }
  double best[4] = {1e9, 1e9, 1e9, 1e9};
  double *ratio = calloc((size_t)rounds + 1, sizeof *ratio);
  double *ratio_pg = calloc((size_t)rounds + 1, sizeof *ratio_pg);
  int ok = 0;
  size_t mem_total = 0, mem_max = 0;
  for (int r = 0; r < rounds; r++) {
    double t0 = now();
    for (int i = 0; i < n && !only_sqlsim; i++) {
      PgQueryParseResult pr = pg_query_parse(jobs[i].sql);
      pg_query_free_parse_result(pr);
    }
    double t1 = now();
    for (int i = 0; i < n && !only_sqlsim; i++) {
      PgQueryProtobufParseResult pr = pg_query_parse_protobuf(jobs[i].sql);
      pg_query_free_protobuf_parse_result(pr);
    }
    double t2 = now();
    ok = 0;
    for (int i = 0; i < n; i++) {
      sqlsim_query *q;
      if (sqlsim_parse(jobs[i].sql, strlen(jobs[i].sql), jobs[i].schema, 0, &q, NULL) == 0) ok++;
      sqlsim_query_free(q);
    }
    double t3 = now();
    for (int i = 0; i < n && !only_sqlsim; i++) {
      PgQueryParseResult pr = pg_query_parse(jobs[i].pg_text);
      pg_query_free_parse_result(pr);
    }
    double t4 = now();
    ratio[r] = (t3 - t2) / (t1 - t0);
    ratio_pg[r] = (t3 - t2) / (t4 - t3);
    if (t1 - t0 < best[0]) best[0] = t1 - t0;
    if (t2 - t1 < best[1]) best[1] = t2 - t1;
    if (t3 - t2 < best[2]) best[2] = t3 - t2;
    if (t4 - t3 < best[3]) best[3] = t4 - t3;
  }
  for (int i = 0; i < n; i++) { /* memory, outside the timed loops */
    sqlsim_query *q;
    if (sqlsim_parse(jobs[i].sql, strlen(jobs[i].sql), jobs[i].schema, 0, &q, NULL)) continue;
    size_t m = sqlsim_arena_used(q->arena);
    mem_total += m;
    if (m > mem_max) mem_max = m;
    sqlsim_query_free(q);
  }
  static const char *names[] = {"pg_query_parse (JSON)", "pg_query_parse_protobuf",
                                "sqlsim_parse + normalize", "pg_query_parse, PG's text"};
  printf("%d queries (%d parsed by sqlsim), best of %d rounds, schema %s\n", n, ok, rounds,
         tables ? "yes" : "no");
  printf("  libpg_query rejects %d of the raw texts; the front end rewrites %d for it (PG's text)\n",
         rejected, translated);
  for (int k = 0; k < 4; k++)
    printf("  %-26s %8.2f us/query %10.0f queries/s  ratio %.2fx\n", names[k], best[k] / n * 1e6,
           n / best[k], best[k] / best[0]);
  if (!only_sqlsim) {
    double *rs[2] = {ratio, ratio_pg};
    static const char *what[2] = {"pg_query_parse", "pg_query_parse of PG's text"};
    for (int k = 0; k < 2; k++) {
      double *x = rs[k];
      for (int i = 1; i < rounds; i++) /* insertion sort: a handful of rounds */
        for (int j = i; j > 0 && x[j - 1] > x[j]; j--) {
          double t = x[j];
          x[j] = x[j - 1];
          x[j - 1] = t;
        }
      double med = rounds % 2 ? x[rounds / 2] : (x[rounds / 2 - 1] + x[rounds / 2]) / 2;
      printf("  sqlsim / %s, each round's own ratio: median %.2fx (range %.2f-%.2f)\n", what[k], med,
             x[0], x[rounds - 1]);
    }
  }
  printf("  memory per parsed query (its arena): mean %.1f KiB, largest %.1f KiB\n",
         ok ? mem_total / 1024.0 / ok : 0.0, mem_max / 1024.0);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("  peak RSS %.1f MiB\n", ru.ru_maxrss / 1024.0);
  printf("  PostgreSQL's tree read %s\n", pg_nodes_in_use() ? "from its nodes (parser/pgnodes.c)"
                                                            : "from libpg_query's JSON");
  for (int i = 0; i < nsets; i++) sqlsim_items_free(sets[i]);
  for (int i = 0; i < n; i++) free(jobs[i].pg_text);
  free(jobs);
  free(ratio);
  free(ratio_pg);
  sqlsim_catalog_free(cat);
  return 0;
}
