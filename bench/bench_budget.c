/* bench_budget.c -- how far the corpus stays from the parser's input budget
 * (parser/frontend.h): the largest depth bound the front end computes and
 * the longest query, over every query of the given item files, against
 * FE_MAX_NESTING and FE_MAX_BYTES. Prints figures and ratios.
 *
 *   bench_budget FILE...      (gold or prediction files in any format sqlsim reads) */
#include "core.h"
#include "parser/frontend.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: bench_budget FILE...\n");
    return 2;
  }
  int nest = 0, len = 0, total = 0, over = 0;
  const char *nest_at = "", *len_at = "";
  for (int f = 1; f < argc; f++) {
    sqlsim_itemset *s;
    sqlsim_error e = {0};
    if (sqlsim_items_load(argv[f], &s, &e)) {
      fprintf(stderr, "%s: %s\n", argv[f], e.message);
      return 1;
    }
    for (int i = 0; i < s->n; i++) {
      const char *q = s->items[i].sql;
      if (!q) continue;
      int n = (int)strlen(q);
      sqlsim_arena *a = sqlsim_arena_new();
      fe_result r;
      sqlsim_error e2 = {0};
      if (fe_translate(a, q, n, &r, &e2) == SQLSIM_EUNSUPPORTED) over++;
      else if (r.nesting > nest) nest = r.nesting, nest_at = argv[f];
      if (n > len) len = n, len_at = argv[f];
      total++;
      sqlsim_arena_free(a);
    }
    sqlsim_items_free(s);
  }
  printf("%d queries, %d over the budget\n", total, over);
  printf("  largest depth bound  %7d of %7d  (%.3f of the limit; %s)\n", nest, FE_MAX_NESTING,
         (double)nest / FE_MAX_NESTING, nest_at);
  printf("  longest query        %7d of %7d bytes  (%.4f of the limit; %s)\n", len, FE_MAX_BYTES,
         (double)len / FE_MAX_BYTES, len_at);
  return over ? 1 : 0;
}
