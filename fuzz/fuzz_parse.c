/* fuzz_parse.c -- the front end, libpg_query, the tree, normalization and the
 * printer, and the round trip: a query that parses prints as SQL that parses
 * again to a tree that prints the same. The same text is also read as
 * PostgreSQL's and as MySQL's (their lexing and rewrites): no crash, errors
 * inside the text, trees that print. */
#include "fuzz_common.h"

#include <stdio.h>

/* Read in another dialect: what is read prints; an error points into the text. */
static void other_dialects(const uint8_t *data, size_t size, const sqlsim_schema *s) {
  static const unsigned opts[] = {SQLSIM_PARSE_POSTGRES, SQLSIM_PARSE_MYSQL,
                                  SQLSIM_PARSE_MYSQL | SQLSIM_PARSE_PIPES_AS_CONCAT | SQLSIM_PARSE_ANSI_QUOTES};
  for (size_t k = 0; k < sizeof opts / sizeof opts[0]; k++) {
    sqlsim_query *q = NULL;
    sqlsim_error err = {0};
    if (sqlsim_parse((const char *)data, size, s, opts[k], &q, &err)) {
      if (err.offset < -1 || err.offset > (int)size) abort();
      continue;
    }
    free(sqlsim_print_sql(q->root, 0));
    free(sqlsim_print_tree(q->root));
    sqlsim_query_free(q);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const sqlsim_schema *schema = sqlsim_catalog_at(fuzz_catalog(), 0);
  other_dialects(data, size, schema);
  for (int with_schema = 0; with_schema < 2; with_schema++) {
    const sqlsim_schema *s = with_schema ? schema : NULL;
    sqlsim_query *q = NULL;
    sqlsim_error err = {0};
    if (sqlsim_parse((const char *)data, size, s, 0, &q, &err)) {
      if (err.offset < -1 || err.offset > (int)size) abort(); /* an error points into the text */
      continue;
    }
    char *sql = sqlsim_print_sql(q->root, 0);
    char *tree = sqlsim_print_tree(q->root);
    char *json = sqlsim_print_json(q->root);
    char *qual = sqlsim_print_sql(q->root, SQLSIM_PRINT_QUALIFY);
    sqlsim_query *c = sqlsim_query_clone(q);
    sqlsim_equiv_normalize(c);
    sqlsim_query *r = NULL;
    sqlsim_error err2 = {0};
    if (sqlsim_parse(sql, strlen(sql), s, 0, &r, &err2) == 0) {
      char *again = sqlsim_print_sql(r->root, 0);
      if (strcmp(sql, again)) {
        fprintf(stderr, "round trip differs:\n  %s\n  %s\n", sql, again);
        abort();
      }
      free(again);
      sqlsim_query_free(r);
    } else if (err2.code != SQLSIM_EUNSUPPORTED) {
      fprintf(stderr, "printed SQL does not parse: %s\n  %s\n", sql, err2.message);
      abort();
    }
    free(sql);
    free(tree);
    free(json);
    free(qual);
    sqlsim_query_free(c);
    sqlsim_query_free(q);
  }
  return 0;
}
