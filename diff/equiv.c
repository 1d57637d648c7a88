/* equiv.c -- equivalent forms made one, for the calibrated score.
 *
 * Each rewrite keeps the result of the query the same on every database
 * (under the schema's declared keys), so two queries that differ only by it
 * should not be told apart:
 *  - inner and cross joins: the tables go into the FROM bag and the ON
 *    conditions into WHERE, so "a JOIN b ON c" and "FROM a, b WHERE c" agree
 *    (outer joins stay as they are);
 *  - COUNT(col) of a column that cannot be NULL (primary key or NOT NULL) and
 *    COUNT(1) become COUNT(*);
 *  - x BETWEEN a AND b becomes x >= a AND x <= b (NOT BETWEEN: x < a OR x > b);
 *  - NOT (a op b) becomes a (negated op) b, NOT (x IS NULL) becomes x IS NOT NULL;
 *  - ORDER BY without LIMIT inside IN/EXISTS/derived tables goes (row order
 *    there cannot show in the result);
 *  - a >= c and a > c-1 agree on an INTEGER column with an integer c
 *    (declared type INTEGER/INT, as read from a SQLite schema).
 * The tree is then put back in canonical order. */
#include "diff.h"

#include <errno.h>
#include <limits.h>

#include "parser/frontend.h"

#include <stdlib.h>
#include <string.h>

typedef struct eq_ctx {
  sqlsim_query *q;
  sqlsim_arena *a;
} eq_ctx;

static sqlsim_node *mk(eq_ctx *c, int kind, int op, int nkids) {
  sqlsim_node *n = node_new(c->a, kind, nkids);
  n->op = (uint16_t)op;
  return n;
}

static sqlsim_node *and_of(eq_ctx *c, sqlsim_node *x, sqlsim_node *y) {
  if (!x) return y;
  if (!y) return x;
  sqlsim_node *n = mk(c, SQLSIM_N_AND, 0, 2);
  n->kids[0] = x;
  n->kids[1] = y;
  return n;
}

/* Collects the leaves of inner/cross joins into items[], ON conditions into *where. */
static void flatten_join(eq_ctx *c, sqlsim_node *n, sqlsim_node ***items, int *ni, int *cap,
                         sqlsim_node **where) {
  if (n->kind == SQLSIM_N_JOIN && (n->op == SQLSIM_JOIN_INNER || n->op == SQLSIM_JOIN_CROSS) &&
      !(n->flags & SQLSIM_F_NATURAL) && !n->kids[3]) {
    flatten_join(c, n->kids[0], items, ni, cap, where);
    flatten_join(c, n->kids[1], items, ni, cap, where);
    if (n->kids[2] && !(n->kids[2]->kind == SQLSIM_N_CONST && n->kids[2]->op == SQLSIM_CONST_BOOL))
      *where = and_of(c, *where, n->kids[2]);
    return;
  }
  if (*ni == *cap) {
    int nc = *cap * 2;
    sqlsim_node **p = sqlsim_arena_alloc(c->a, sizeof *p * (size_t)nc);
    memcpy(p, *items, sizeof *p * (size_t)*ni);
    *items = p;
    *cap = nc;
  }
  (*items)[(*ni)++] = n;
}

static void flatten_from(eq_ctx *c, sqlsim_node *sel) {
  sqlsim_node *from = sel->kids[SQLSIM_SEL_FROM];
  if (!from || !from->nkids) return;
  int cap = (int)from->nkids * 2 + 4, ni = 0;
  sqlsim_node **items = sqlsim_arena_alloc(c->a, sizeof *items * (size_t)cap);
  sqlsim_node *where = sel->kids[SQLSIM_SEL_WHERE];
  for (uint32_t i = 0; i < from->nkids; i++) flatten_join(c, from->kids[i], &items, &ni, &cap, &where);
  from->kids = items;
  from->nkids = (uint32_t)ni;
  from->flags |= SQLSIM_F_UNORDERED;
  sel->kids[SQLSIM_SEL_WHERE] = where;
}

static int column_not_null(eq_ctx *c, const sqlsim_node *col) {
  if (!c->q->schema || col->kind != SQLSIM_N_COLUMN || col->column < 0) return 0;
  const sqlsim_column *sc = &c->q->schema->columns[col->column];
  return sc->pk || sc->notnull;
}

static int column_integer(eq_ctx *c, const sqlsim_node *col) {
  if (!c->q->schema || col->kind != SQLSIM_N_COLUMN || col->column < 0) return 0;
  const char *t = c->q->schema->columns[col->column].type;
  return t && strcasestr(t, "int") != NULL;
}

static int negate(int op) {
  switch (op) {
  case SQLSIM_OP_EQ: return SQLSIM_OP_NE;
  case SQLSIM_OP_NE: return SQLSIM_OP_EQ;
  case SQLSIM_OP_LT: return SQLSIM_OP_GE;
  case SQLSIM_OP_LE: return SQLSIM_OP_GT;
  case SQLSIM_OP_GT: return SQLSIM_OP_LE;
  case SQLSIM_OP_GE: return SQLSIM_OP_LT;
  case SQLSIM_OP_LIKE: return SQLSIM_OP_NOTLIKE;
  case SQLSIM_OP_NOTLIKE: return SQLSIM_OP_LIKE;
  case SQLSIM_OP_GLOB: return SQLSIM_OP_NOTGLOB;
  case SQLSIM_OP_NOTGLOB: return SQLSIM_OP_GLOB;
  default: return -1;
  }
}

static int drop_order(sqlsim_node *sel) {
  if (sel && sel->kind == SQLSIM_N_SELECT && sel->kids[SQLSIM_SEL_ORDER] && !sel->kids[SQLSIM_SEL_LIMIT] &&
      !sel->kids[SQLSIM_SEL_OFFSET]) {
    sel->kids[SQLSIM_SEL_ORDER] = NULL;
    return 1;
  }
  return 0;
}

static int equiv_post(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  eq_ctx *c = ctx;
  (void)parent;
  switch (n->kind) {
  case SQLSIM_N_SELECT:
    if (n->op == SQLSIM_SET_NONE) flatten_from(c, n);
    break;
  case SQLSIM_N_SUBQUERY:
    drop_order(n->kids[0]);
    break;
  case SQLSIM_N_SUBLINK:
    if (n->op == SQLSIM_SUB_IN || n->op == SQLSIM_SUB_EXISTS) drop_order(n->kids[1]);
    break;
  case SQLSIM_N_FUNC:
    if (!strcmp(n->text, "count") && !(n->flags & (SQLSIM_F_DISTINCT | SQLSIM_F_STAR)) && n->kids[0] &&
        n->kids[0]->nkids == 1) {
      const sqlsim_node *arg = n->kids[0]->kids[0];
      if (column_not_null(c, arg) || (arg->kind == SQLSIM_N_CONST && arg->op != SQLSIM_CONST_NULL)) {
        n->flags |= SQLSIM_F_STAR;
        n->kids[0]->nkids = 0;
      }
    }
    break;
  case SQLSIM_N_BETWEEN: {
    int neg = (n->flags & SQLSIM_F_NOT) != 0;
    sqlsim_node *lo = mk(c, SQLSIM_N_BINOP, neg ? SQLSIM_OP_LT : SQLSIM_OP_GE, 2);
    sqlsim_node *hi = mk(c, SQLSIM_N_BINOP, neg ? SQLSIM_OP_GT : SQLSIM_OP_LE, 2);
    lo->kids[0] = n->kids[0];
    lo->kids[1] = n->kids[1];
    hi->kids[0] = n->kids[0];
    hi->kids[1] = n->kids[2];
    sqlsim_node *x = n;
    x->kind = neg ? SQLSIM_N_OR : SQLSIM_N_AND;
    x->flags &= ~(uint32_t)SQLSIM_F_NOT;
    x->kids = sqlsim_arena_alloc(c->a, sizeof *x->kids * 2);
    x->kids[0] = lo;
    x->kids[1] = hi;
    x->nkids = 2;
    break;
  }
  case SQLSIM_N_NOT: {
    sqlsim_node *x = n->kids[0];
    if (x && x->kind == SQLSIM_N_BINOP && x->nkids == 2 && negate(x->op) >= 0) {
      *n = *x;
      n->op = (uint16_t)negate(x->op);
    } else if (x && x->kind == SQLSIM_N_ISNULL) {
      *n = *x;
      n->op = x->op == SQLSIM_ISNULL ? SQLSIM_NOTNULL : SQLSIM_ISNULL;
    }
    break;
  }
  case SQLSIM_N_BINOP:
    /* a >= c  ->  a > c - 1 and a <= c -> a < c + 1 on INTEGER columns (the
     * strict form is the one people write more, so evidence shows their values) */
    if ((n->op == SQLSIM_OP_GE || n->op == SQLSIM_OP_LE) && n->nkids == 2 && column_integer(c, n->kids[0]) &&
        n->kids[1]->kind == SQLSIM_N_CONST && n->kids[1]->op == SQLSIM_CONST_INT) {
      errno = 0;
      long long v = strtoll(n->kids[1]->text, NULL, 10);
      int ge = n->op == SQLSIM_OP_GE;
      if (errno || (ge && v == LLONG_MIN) || (!ge && v == LLONG_MAX)) break;
      sqlsim_node *k = mk(c, SQLSIM_N_CONST, SQLSIM_CONST_INT, 0);
      k->text = sqlsim_arena_printf(c->a, "%lld", ge ? v - 1 : v + 1);
      n->kids[1] = k;
      n->op = ge ? SQLSIM_OP_GT : SQLSIM_OP_LT;
    }
    break;
  default:
    break;
  }
  return SQLSIM_WALK_CONTINUE;
}

void sqlsim_equiv_normalize(sqlsim_query *q) {
  eq_ctx c = {q, q->arena};
  sqlsim_walk(q->root, NULL, equiv_post, &c);
  normalize_reorder(q);
}
