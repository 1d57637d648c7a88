/* build.h -- the stages of a parse after the front end, internal to the
 * parser module (parse.c runs them in order). */
#ifndef SQLSIM_BUILD_H
#define SQLSIM_BUILD_H

#include "frontend.h"

/* Builds the sqlsim tree into arena a from libpg_query's parse tree, as the
 * document of its JSON (parser/pgnodes.c makes it; strings are copied). */
struct pj;
int parse_build_tree(sqlsim_arena *a, const fe_result *fe, const struct pj *doc, sqlsim_node **root,
                     sqlsim_error *err);
/* Resolves names and puts the tree in canonical order (parser/normalize.c).
 * Returns 0, or SQLSIM_EUNSUPPORTED when resolving would pass the work
 * budget. */
int parse_normalize(sqlsim_query *q, sqlsim_error *err);

#endif
