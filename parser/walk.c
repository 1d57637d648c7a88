/* walk.c -- the one tree walker; every pass over a tree is a callback.
 *
 * Pre-order callback returns CONTINUE (visit children), PRUNE (skip them) or
 * ABORT (stop everything); the optional post-order callback runs after the
 * children. NULL children (empty SELECT slots) are skipped. */
#include "sqlsim.h"

#include <stddef.h>

static int walk_rec(sqlsim_node *n, sqlsim_node *parent, sqlsim_walk_fn pre, sqlsim_walk_fn post,
                    void *ctx) {
  int rc = pre ? pre(n, parent, ctx) : SQLSIM_WALK_CONTINUE;
  if (rc == SQLSIM_WALK_ABORT) return rc;
  if (rc != SQLSIM_WALK_PRUNE)
    for (uint32_t i = 0; i < n->nkids; i++)
      if (n->kids[i] && walk_rec(n->kids[i], n, pre, post, ctx) == SQLSIM_WALK_ABORT)
        return SQLSIM_WALK_ABORT;
  if (post && post(n, parent, ctx) == SQLSIM_WALK_ABORT) return SQLSIM_WALK_ABORT;
  return SQLSIM_WALK_CONTINUE;
}

int sqlsim_walk(sqlsim_node *n, sqlsim_walk_fn pre, sqlsim_walk_fn post, void *ctx) {
  if (!n) return SQLSIM_WALK_CONTINUE;
  return walk_rec(n, NULL, pre, post, ctx);
}
