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

/* ---------------------------------------------------------------- cloning */

#include "core.h"
#include "tree.h"

#include <stdlib.h>
#include <string.h>

/* Old node -> new node, open addressing on the pointer. */
typedef struct ptr_map {
  const sqlsim_node **from;
  sqlsim_node **to;
  size_t cap;
} ptr_map;

static size_t ptr_slot(const ptr_map *m, const void *p) {
  uint64_t h = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ULL;
  size_t i = (size_t)(h >> 20) & (m->cap - 1);
  while (m->from[i] && m->from[i] != p) i = (i + 1) & (m->cap - 1);
  return i;
}

static sqlsim_node *clone_rec(sqlsim_arena *a, const sqlsim_node *n, ptr_map *m) {
  if (!n) return NULL;
  size_t s = ptr_slot(m, n);
  if (m->from[s]) return m->to[s]; /* shared subtree (equiv.c may share one) */
  sqlsim_node *c = sqlsim_arena_alloc(a, sizeof *c);
  *c = *n;
  m->from[s] = n;
  m->to[s] = c;
  if (n->nkids) {
    c->kids = sqlsim_arena_alloc(a, sizeof *c->kids * n->nkids);
    for (uint32_t i = 0; i < n->nkids; i++) c->kids[i] = clone_rec(a, n->kids[i], m);
  }
  return c;
}

static int count_nodes(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)n;
  (void)parent;
  ++*(size_t *)ctx;
  return SQLSIM_WALK_CONTINUE;
}

static int fix_source(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  ptr_map *m = ctx;
  if (n->source) {
    size_t s = ptr_slot(m, n->source);
    if (m->from[s]) n->source = m->to[s];
  }
  return SQLSIM_WALK_CONTINUE;
}

sqlsim_query *sqlsim_query_clone(const sqlsim_query *q) {
  sqlsim_arena *a = sqlsim_arena_new();
  sqlsim_query *c = sqlsim_arena_alloc(a, sizeof *c);
  *c = *q;
  c->arena = a;
  c->sql = sqlsim_arena_strndup(a, q->sql, q->sql_len);
  size_t n = 0;
  sqlsim_walk(q->root, count_nodes, NULL, &n);
  ptr_map m;
  m.cap = 16;
  while (m.cap < 2 * n + 2) m.cap *= 2;
  m.from = calloc(m.cap, sizeof *m.from);
  m.to = calloc(m.cap, sizeof *m.to);
  c->root = clone_rec(a, q->root, &m);
  sqlsim_walk(c->root, fix_source, NULL, &m); /* columns point at the new FROM items */
  free(m.from);
  free(m.to);
  return c;
}

/* A deep copy of a subtree into a: sources that point into the subtree point
 * at the copies; a source outside it (a correlated column's FROM item) keeps
 * pointing at the original. */
sqlsim_node *tree_clone(sqlsim_arena *a, const sqlsim_node *n) {
  if (!n) return NULL;
  size_t count = 0;
  sqlsim_walk((sqlsim_node *)n, count_nodes, NULL, &count);
  ptr_map m;
  m.cap = 16;
  while (m.cap < 2 * count + 2) m.cap *= 2;
  m.from = calloc(m.cap, sizeof *m.from);
  m.to = calloc(m.cap, sizeof *m.to);
  sqlsim_node *c = clone_rec(a, n, &m);
  sqlsim_walk(c, fix_source, NULL, &m);
  free(m.from);
  free(m.to);
  return c;
}

static const char *const aggregate_names[] = {"count", "sum", "avg", "min", "max", "total", "group_concat", NULL};

int tree_is_aggregate_name(const char *name) {
  for (int i = 0; name && aggregate_names[i]; i++)
    if (!strcmp(name, aggregate_names[i])) return 1;
  return 0;
}

int tree_is_aggregate(const sqlsim_node *n) {
  if (!n || n->kind != SQLSIM_N_FUNC || (n->nkids > 2 && n->kids[2]) || !tree_is_aggregate_name(n->text)) return 0;
  if (strcmp(n->text, "min") && strcmp(n->text, "max")) return 1;
  return (n->kids[0] && n->kids[0]->nkids == 1) || (n->flags & SQLSIM_F_STAR); /* min(a, b) is scalar */
}

int tree_lookup(const sqlsim_node *n, const sqlsim_node **x, const sqlsim_node **sub) {
  if (!n || n->nkids < 2) return 0;
  if (n->kind == SQLSIM_N_SUBLINK && n->op == SQLSIM_SUB_IN && !(n->flags & SQLSIM_F_NOT) && n->kids[0] &&
      n->kids[1]) {
    *x = n->kids[0];
    *sub = n->kids[1];
    return 1;
  }
  if (n->kind != SQLSIM_N_BINOP || n->op != SQLSIM_OP_EQ) return 0;
  for (int s = 0; s < 2; s++) {
    const sqlsim_node *k = n->kids[s];
    if (k && k->kind == SQLSIM_N_SUBLINK && k->op == SQLSIM_SUB_SCALAR && k->nkids >= 2 && k->kids[1] && n->kids[1 - s]) {
      *x = n->kids[1 - s];
      *sub = k->kids[1];
      return 1;
    }
  }
  return 0;
}

int tree_lookup_item(const sqlsim_node *n, const sqlsim_node **x, const sqlsim_node **item) {
  const sqlsim_node *sub;
  if (!tree_lookup(n, x, &sub) || sub->kind != SQLSIM_N_SELECT || sub->op != SQLSIM_SET_NONE ||
      sub->kids[SQLSIM_SEL_GROUP] || sub->kids[SQLSIM_SEL_LIMIT] || !sub->kids[SQLSIM_SEL_TARGETS] ||
      sub->kids[SQLSIM_SEL_TARGETS]->nkids != 1)
    return 0;
  const sqlsim_node *t = sub->kids[SQLSIM_SEL_TARGETS]->kids[0];
  *item = t && t->nkids ? t->kids[0] : NULL;
  return *item != NULL;
}

void tree_join_pairs(const sqlsim_schema *s, const sqlsim_node *join, const int *left, int nl, const int *right, int nr,
                     tree_pair_fn fn, void *ctx) {
  const sqlsim_node *using = join->nkids > 3 ? join->kids[3] : NULL;
  if (!s || (!using && !(join->flags & SQLSIM_F_NATURAL))) return;
  for (int r = 0; r < nr; r++) {
    const sqlsim_table *rt = &s->tables[right[r]];
    for (int i = 0; i < rt->ncolumns; i++) {
      int rc = rt->first_column + i, named = !using;
      for (uint32_t u = 0; using && u < using->nkids && !named; u++)
        named = using->kids[u] && using->kids[u]->text && !strcmp(using->kids[u]->text, s->columns[rc].key);
      if (!named) continue;
      for (int l = 0; l < nl; l++) {
        int lc = sqlsim_schema_find_column(s, left[l], s->columns[rc].key);
        if (lc < 0) continue;
        fn(l, lc, r, rc, ctx);
        break;
      }
    }
  }
}

int tree_op_mirror(int op) {
  switch (op) {
  case SQLSIM_OP_LT: return SQLSIM_OP_GT;
  case SQLSIM_OP_LE: return SQLSIM_OP_GE;
  case SQLSIM_OP_GT: return SQLSIM_OP_LT;
  case SQLSIM_OP_GE: return SQLSIM_OP_LE;
  default: return op;
  }
}
