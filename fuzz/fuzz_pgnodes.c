/* fuzz_pgnodes.c -- the node reader (parser/pgnodes.c) against libpg_query's
 * JSON on the same parse tree: the input as PostgreSQL text (its whole
 * grammar, so nodes the reader hands over come too) and as the front end
 * rewrites it; whenever the reader makes a document, it must be the one read
 * from the JSON. Inputs over the front end's budget are skipped both ways
 * (PostgreSQL's own JSON writer recurses as deep as the tree). */
#include "fuzz_common.h"

#include "parser/frontend.h"
#include "parser/pgnodes.h"

#include <stdio.h>

static void both(const char *text) {
  sqlsim_arena *scratch = sqlsim_arena_new();
  const pj *nodes, *json;
  pg_doc d;
  if (!pg_parse_both(scratch, text, &nodes, &json, &d) && nodes && !pj_same(nodes, json)) {
    fprintf(stderr, "the node reader and the JSON differ on: %s\n", text);
    abort();
  }
  pg_doc_done(&d);
  sqlsim_arena_free(scratch);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  sqlsim_arena *a = sqlsim_arena_new();
  fe_result fe;
  sqlsim_error err = {0};
  if (!fe_translate(a, (const char *)data, (int)size, &fe, &err)) {
    char *text = sqlsim_arena_strndup(a, (const char *)data, size);
    if (strlen(text) == size) both(text); /* no NUL inside */
    both(fe.out);
  }
  sqlsim_arena_free(a);
  return 0;
}
