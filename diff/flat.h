/* flat.h -- the tree diff's declared interface to the analysis of an edit
 * script (analyze/): the flattened trees a diff was computed on, in which
 * each edit's gold_index and pred_index are positions, and the questions
 * about an edit that need the matching. Everything else of a diff is in
 * sqlsim.h (sqlsim_diff, sqlsim_edit); diff.h is the module's inside. */
#ifndef SQLSIM_FLAT_H
#define SQLSIM_FLAT_H

#include "core.h"

/* =, <>, <, <=, >, >= (not LIKE, IS, ...). */
static inline int is_comparison_op(int op) { return op >= SQLSIM_OP_EQ && op <= SQLSIM_OP_GE; }

/* One node of a flattened tree: pre-order, with a virtual node per SELECT
 * slot in use (slot >= 0, n = the SELECT). */
typedef struct fnode {
  const sqlsim_node *n;
  int slot;                  /* virtual clause node: the SELECT slot, else -1 */
  int parent, first, nkids, pos;
  int size, height;
  uint32_t label;
  const char *value;
  uint64_t hash;             /* subtree: label, value, children (bags unordered) */
  int clause;                /* SELECT slot the node sits in, -1 above any */
  unsigned unordered : 1, table : 1;
  int match;                 /* index in the other tree, -1 */
} fnode;

typedef struct ftree {
  fnode *v;
  int n;
  int *kids;
} ftree;

/* The flattened gold and prediction trees of d (diff/treediff.c). */
const ftree *diff_gold_tree(const sqlsim_diff *d);
const ftree *diff_pred_tree(const sqlsim_diff *d);

/* Is edit e a move of an operand among the same operands in another order
 * (x - y for y - x, a function's arguments swapped)? */
int diff_swapped_operand(const sqlsim_diff *d, const sqlsim_edit *e);
/* Is edit e a column moved from one place to another where both places are
 * in the other tree too (player_api_id and player_fifa_api_id swapped between
 * a join and an ORDER BY): a change of column at each place, not a form? */
int diff_leaf_moved(const sqlsim_diff *d, const sqlsim_edit *e);

#endif
