/* bench_dialects.c -- how much of a dialect's SQL sqlsim reads: each file's
 * items parsed with the dialect's options, the share read, the reasons for
 * the rest (the most common first), and the time.
 *
 * usage: bench_dialects --dialect sqlite|postgres|mysql [--tables FILE] FILE...
 * FILEs: gold (mini_dev_postgresql.json ...) or prediction files, any format
 * sqlsim reads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "sqlsim.h"

typedef struct reason {
  char text[80];
  int n;
} reason;

int main(int argc, char **argv) {
  int dialect = SQLSIM_DIALECT_SQLITE;
  const char *tables = NULL;
  sqlsim_catalog *cat = NULL;
  reason reasons[64];
  int nreasons = 0, total = 0, read = 0;
  double spent = 0;
  for (int i = 1; i < argc; i++) {
    sqlsim_error e = {0};
    if (!strcmp(argv[i], "--dialect") && i + 1 < argc) {
      if (sqlsim_dialect_parse(argv[++i], &dialect, &e)) return fprintf(stderr, "%s\n", e.message), 2;
      continue;
    }
    if (!strcmp(argv[i], "--tables") && i + 1 < argc) {
      tables = argv[++i];
      if (sqlsim_catalog_load_tables_json(tables, &cat, &e)) return fprintf(stderr, "%s\n", e.message), 1;
      continue;
    }
    sqlsim_itemset *items;
    if (sqlsim_items_load(argv[i], &items, &e)) {
      fprintf(stderr, "%s: %s\n", argv[i], e.message);
      continue;
    }
    int ok = 0;
    double t0 = now();
    for (int k = 0; k < items->n; k++) {
      const sqlsim_item *it = &items->items[k];
      if (!it->sql) continue;
      const sqlsim_schema *s = cat && it->db_id ? sqlsim_catalog_find(cat, it->db_id) : NULL;
      sqlsim_query *q;
      if (!sqlsim_parse(it->sql, strlen(it->sql), s, sqlsim_dialect_parse_options(dialect), &q, &e)) {
        ok++;
        sqlsim_query_free(q);
        continue;
      }
      char key[80];
      snprintf(key, sizeof key, "%.60s", e.message);
      static const char *const cuts[] = {" (at offset", " starting at", ": the second", " at offset", NULL};
      for (int c = 0; cuts[c]; c++) {
        char *at = strstr(key, cuts[c]);
        if (at) *at = '\0';
      }
      int r = 0;
      while (r < nreasons && strcmp(reasons[r].text, key)) r++;
      if (r == nreasons && nreasons < 64) {
        snprintf(reasons[nreasons].text, sizeof reasons[0].text, "%s", key);
        reasons[nreasons++].n = 0;
      }
      if (r < 64) reasons[r].n++;
    }
    spent += now() - t0;
    printf("%-70s %4d of %4d read\n", argv[i], ok, items->n);
    total += items->n;
    read += ok;
    sqlsim_items_free(items);
  }
  printf("all: %d of %d read (%.1f%%), %.0f queries/s\n", read, total, total ? 100.0 * read / total : 0,
         spent > 0 ? total / spent : 0);
  for (int pass = 0; pass < 12; pass++) { /* the most common reasons */
    int best = -1;
    for (int r = 0; r < nreasons; r++)
      if (reasons[r].n > 0 && (best < 0 || reasons[r].n > reasons[best].n)) best = r;
    if (best < 0) break;
    printf("  %4d  %s\n", reasons[best].n, reasons[best].text);
    reasons[best].n = -reasons[best].n;
  }
  sqlsim_catalog_free(cat);
  return 0;
}
