/* fuzz_diff.c -- the tree diff, the BIS similarity and calibrated score
 * (sqlsim_diff_pair, which leaves the queries as parsed), the equivalence
 * rewriting and the error categories, over pairs of queries
 * (gold, newline, prediction); and the test-suite texts of a pair (DISTINCT
 * removed or kept, the gold's values plugged into the prediction). */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *buf;
  const char *gold, *pred;
  fuzz_split(data, size, &buf, &gold, &pred);
  const sqlsim_schema *schema = sqlsim_catalog_at(fuzz_catalog(), 0);
  sqlsim_query *g = NULL, *p = NULL;
  if (sqlsim_parse(gold, strlen(gold), schema, 0, &g, NULL) == 0 &&
      sqlsim_parse(pred, strlen(pred), schema, 0, &p, NULL) == 0) {
    sqlsim_diff *plain = NULL, *d = NULL;
    /* the comparison in force, from the input's length: none, BIRD's sets, Spider without DISTINCT */
    unsigned flags = size % 3 == 0 ? 0 : size % 3 == 1 ? SQLSIM_EQUIV_SETS : SQLSIM_EQUIV_NO_DISTINCT;
    char *before = sqlsim_print_sql(p->root, 0);
    if (sqlsim_diff_pair(g, p, flags, &plain, &d, NULL) == 0) {
      if (!(plain->bis >= 0 && plain->bis <= 1) || !(plain->score >= 0 && plain->score <= 1)) abort();
      sqlsim_diff_free(plain);
    }
    char *after = sqlsim_print_sql(p->root, 0); /* the queries are not changed */
    if (!before != !after || (before && strcmp(before, after))) abort();
    free(before);
    free(after);
    if (d) {
      if (!(d->score >= 0 && d->score <= 1)) abort();
      sqlsim_arena *a = sqlsim_arena_new();
      sqlsim_categories cats;
      memset(&cats, 0, sizeof cats);
      sqlsim_categorize_diff(d, schema, a, &cats);
      if (cats.mask && (cats.main < 0 || !(cats.mask & (1u << cats.main)) || cats.nranked > SQLSIM_NCAT)) abort();
      const char *what = NULL;
      sqlsim_dialect_construct(p, a, &what);
      sqlsim_arena_free(a);
      sqlsim_diff_free(d);
    }
  }
  double bis, score;
  sqlsim_similarity(gold, pred, schema, &bis, &score, NULL);
  for (int keep = 0; keep < 2; keep++) free(sqlsim_spider_exec_text_opts(pred, keep));
  char **alts;
  int n = sqlsim_plug_values(gold, pred, 64, &alts);
  if (n < -1 || n > 64) abort();
  for (int k = 0; k < n; k++) {
    if (!alts[k]) abort();
    free(alts[k]);
  }
  if (n > 0) free(alts);
  sqlsim_query_free(g);
  sqlsim_query_free(p);
  free(buf);
  return 0;
}
