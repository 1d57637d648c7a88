/* diff.h -- internal side of the tree diff (treediff.c, score.c, equiv.c);
 * what other modules read of a diff is in flat.h. */
#ifndef SQLSIM_DIFF_H
#define SQLSIM_DIFF_H

#include "flat.h"

struct diff_private {
  ftree g, p;
  sqlsim_query *own[2]; /* sqlsim_diff_pair's normalized copies, freed with the diff */
};

/* Flattens a tree into the arena; -1 past the size bound. */
int diff_flatten(sqlsim_arena *a, const sqlsim_node *root, ftree *t);
/* GumTree matching: fills v[].match on both trees. */
void diff_match(ftree *g, ftree *p);
/* The edit script from a matching. */
int diff_script(sqlsim_diff *d, const ftree *g, const ftree *p);
/* BIS similarity and the calibrated weights and score of a script. */
void diff_score(sqlsim_diff *d);

#endif
