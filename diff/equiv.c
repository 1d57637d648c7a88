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
 *    (declared type INTEGER/INT, as read from a SQLite schema);
 *  - x = a OR x = b is x IN (a, b), x <> a AND x <> b is x NOT IN (a, b),
 *    x IN (a) is x = a (constants);
 *  - per query block (blocks()): semijoins, columns joined equal written as
 *    one (and their join conditions as all pairs), GROUP BY a key, a lone
 *    conditional count's FILTER as WHERE.
 * The tree is then put back in canonical order. */
#include "diff.h"

#include <errno.h>
#include <limits.h>

#include "parser/tree.h"

#include <stdlib.h>
#include <string.h>

typedef struct eq_ctx {
  sqlsim_query *q;
  sqlsim_arena *a;
  unsigned flags; /* SQLSIM_EQUIV_* */
} eq_ctx;

static sqlsim_node *mk(eq_ctx *c, int kind, int op, int nkids) {
  sqlsim_node *n = tree_node_new(c->a, kind, nkids);
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
  return t && core_type_affinity(t) == 'I';
}

/* SQLite's affinity of a declared type is TEXT (rule 2 of "Determination of
 * column affinity"): a number compared with such a column is compared as text. */
static int column_text(eq_ctx *c, const sqlsim_node *col) {
  if (!c->q->schema || col->kind != SQLSIM_N_COLUMN || col->column < 0) return 0;
  const char *t = c->q->schema->columns[col->column].type;
  return t && core_type_affinity(t) == 'T';
}

/* Same expression: kind, operator, flags that change meaning, text, resolved
 * column, children. */
static int tree_eq(const sqlsim_node *a, const sqlsim_node *b) {
  if (a == b) return 1;
  if (!a || !b || a->kind != b->kind || a->op != b->op || a->nkids != b->nkids) return 0;
  uint32_t m = SQLSIM_F_DISTINCT | SQLSIM_F_NOT | SQLSIM_F_ALL | SQLSIM_F_STAR | SQLSIM_F_FILTER;
  if ((a->flags & m) != (b->flags & m)) return 0;
  if (a->kind == SQLSIM_N_COLUMN && a->column >= 0) {
    if (a->column != b->column || a->source != b->source) return 0;
  } else if ((a->text || b->text) && (!a->text || !b->text || strcmp(a->text, b->text))) {
    return 0;
  }
  for (uint32_t i = 0; i < a->nkids; i++)
    if (!tree_eq(a->kids[i], b->kids[i])) return 0;
  return 1;
}

static int is_int_const(const sqlsim_node *n, const char *v) {
  return n && n->kind == SQLSIM_N_CONST && n->op == SQLSIM_CONST_INT && !strcmp(n->text, v);
}

static int is_null_const(const sqlsim_node *n) {
  return !n || (n->kind == SQLSIM_N_CONST && n->op == SQLSIM_CONST_NULL);
}

/* Does the condition hold only where col is not NULL (col compared with
 * something, alone or in an AND)? */
static int cond_needs(const sqlsim_node *cond, const sqlsim_node *col) {
  if (!cond) return 0;
  if (cond->kind == SQLSIM_N_AND) {
    for (uint32_t i = 0; i < cond->nkids; i++)
      if (cond_needs(cond->kids[i], col)) return 1;
    return 0;
  }
  if (cond->kind == SQLSIM_N_BINOP && cond->nkids >= 2 && cond->op != SQLSIM_OP_IS && cond->op != SQLSIM_OP_ISNOT &&
      (is_comparison_op(cond->op) || (cond->op >= SQLSIM_OP_LIKE && cond->op <= SQLSIM_OP_NOTREGEXP)))
    return tree_eq(cond->kids[0], col) || tree_eq(cond->kids[1], col);
  if (cond->kind == SQLSIM_N_ISNULL && cond->op == SQLSIM_NOTNULL) return tree_eq(cond->kids[0], col);
  return 0;
}

/* A value that is never NULL where cond holds. */
static int non_null_under(eq_ctx *c, const sqlsim_node *v, const sqlsim_node *cond) {
  if (!v) return 0;
  if (v->kind == SQLSIM_N_CONST) return v->op != SQLSIM_CONST_NULL;
  if (v->kind == SQLSIM_N_COLUMN) {
    if (c->q->schema && v->column >= 0) {
      const sqlsim_column *sc = &c->q->schema->columns[v->column];
      if (sc->notnull || (sc->pk && sc->unique)) return 1;
    }
    return cond_needs(cond, v);
  }
  return 0;
}

/* A truth value (0/1, or NULL), as SUM(x = 1) counts. */
static int is_boolean(const sqlsim_node *n) {
  if (!n) return 0;
  switch (n->kind) {
  case SQLSIM_N_BINOP:
    return is_comparison_op(n->op) || (n->op >= SQLSIM_OP_LIKE && n->op <= SQLSIM_OP_NOTREGEXP) ||
           n->op == SQLSIM_OP_IS || n->op == SQLSIM_OP_ISNOT;
  case SQLSIM_N_AND: case SQLSIM_N_OR: case SQLSIM_N_NOT: case SQLSIM_N_ISNULL: case SQLSIM_N_IN:
  case SQLSIM_N_BETWEEN:
    return 1;
  case SQLSIM_N_SUBLINK: return n->op == SQLSIM_SUB_EXISTS || n->op == SQLSIM_SUB_IN;
  default: return 0;
  }
}

/* The condition c of a conditional value "CASE WHEN c THEN a ELSE b END" or
 * "IIF(c, a, b)" (one WHEN, no operand); *then and *els its two values
 * (*els NULL when absent). */
static const sqlsim_node *conditional(const sqlsim_node *x, const sqlsim_node **then, const sqlsim_node **els) {
  if (x && x->kind == SQLSIM_N_CASE && x->nkids == 3 && !x->kids[0] && x->kids[2] && x->kids[2]->kind == SQLSIM_N_WHEN) {
    *then = x->kids[2]->kids[1];
    *els = x->kids[1];
    return x->kids[2]->kids[0];
  }
  if (x && x->kind == SQLSIM_N_FUNC && x->text && !strcmp(x->text, "iif") && x->kids[0] && x->kids[0]->nkids == 3 &&
      !(x->flags & SQLSIM_F_DISTINCT)) {
    *then = x->kids[0]->kids[1];
    *els = x->kids[0]->kids[2];
    return x->kids[0]->kids[0];
  }
  return NULL;
}

/* n becomes COUNT(*) FILTER (WHERE cond): the one form of a conditional count. */
static void make_count_if(eq_ctx *c, sqlsim_node *n, sqlsim_node *cond) {
  n->text = "count";
  n->flags = (n->flags & ~(uint32_t)SQLSIM_F_DISTINCT) | SQLSIM_F_STAR | SQLSIM_F_FILTER;
  if (n->nkids < 3) {
    sqlsim_node **k = sqlsim_arena_alloc(c->a, sizeof *k * 3);
    k[0] = n->nkids ? n->kids[0] : NULL;
    k[1] = k[2] = NULL;
    n->kids = k;
    n->nkids = 3;
  }
  if (!n->kids[0]) n->kids[0] = mk(c, SQLSIM_N_LIST, 0, 0);
  n->kids[0]->nkids = 0;
  n->kids[1] = cond;
}

/* Conditional counts made one (docs/error-categories.md, "Equivalent forms"):
 * SUM(CASE WHEN c THEN 1 ELSE 0 END), SUM(IIF(c, 1, 0)) and SUM(c) for a truth
 * value c count the rows where c holds, as COUNT(CASE WHEN c THEN v END) and
 * COUNT(IIF(c, v, NULL)) do for a v that is not NULL there; all become
 * COUNT(*) FILTER (WHERE c). (The SUM forms give NULL, not 0, over no rows at
 * all.) */
static void conditional_count(eq_ctx *c, sqlsim_node *n) {
  if (n->flags & (SQLSIM_F_DISTINCT | SQLSIM_F_STAR | SQLSIM_F_FILTER)) return;
  if (n->nkids > 2 && n->kids[2]) return; /* a window */
  if (!n->kids[0] || n->kids[0]->nkids != 1) return;
  sqlsim_node *arg = n->kids[0]->kids[0];
  const sqlsim_node *then = NULL, *els = NULL;
  const sqlsim_node *cond = conditional(arg, &then, &els);
  if (!strcmp(n->text, "sum")) {
    if (cond && is_int_const(then, "1") && is_int_const(els, "0")) make_count_if(c, n, (sqlsim_node *)cond);
    else if (!cond && is_boolean(arg)) make_count_if(c, n, arg);
  } else if (!strcmp(n->text, "count")) {
    if (cond && is_null_const(els) && non_null_under(c, then, cond)) make_count_if(c, n, (sqlsim_node *)cond);
  }
}

/* CAST(SUM(x) AS REAL) / COUNT(x) is AVG(x) (COUNT(*) when x is never NULL):
 * both skip NULLs and divide as reals. */
static void average(eq_ctx *c, sqlsim_node *n) {
  if (n->nkids != 2) return;
  sqlsim_node *l = n->kids[0], *r = n->kids[1];
  if (!l || l->kind != SQLSIM_N_CAST || !l->text || !l->kids[0]) return;
  if (core_type_affinity(l->text) != 'R') return;
  sqlsim_node *sum = l->kids[0];
  if (sum->kind != SQLSIM_N_FUNC || strcmp(sum->text, "sum") || (sum->flags & (SQLSIM_F_DISTINCT | SQLSIM_F_FILTER)) ||
      !sum->kids[0] || sum->kids[0]->nkids != 1 || (sum->nkids > 2 && sum->kids[2]))
    return;
  if (!r || r->kind != SQLSIM_N_FUNC || strcmp(r->text, "count") || (r->flags & (SQLSIM_F_DISTINCT | SQLSIM_F_FILTER)) ||
      (r->nkids > 2 && r->kids[2]))
    return;
  const sqlsim_node *x = sum->kids[0]->kids[0];
  int same = (r->flags & SQLSIM_F_STAR) ? non_null_under(c, x, NULL)
                                        : (r->kids[0] && r->kids[0]->nkids == 1 && tree_eq(r->kids[0]->kids[0], x));
  if (!same) return;
  int32_t start = n->start, end = n->end;
  *n = *sum;
  n->text = "avg";
  n->start = start;
  n->end = end;
}

/* CURRENT_DATE, CURRENT_TIME, CURRENT_TIMESTAMP are date('now'), time('now'),
 * datetime('now') in SQLite. */
static void current_time(eq_ctx *c, sqlsim_node *n) {
  static const char *kw[][2] = {{"current_date", "date"}, {"current_time", "time"}, {"current_timestamp", "datetime"}};
  for (int i = 0; i < 3; i++)
    if (!strcmp(n->text, kw[i][0])) {
      sqlsim_node *now = mk(c, SQLSIM_N_CONST, SQLSIM_CONST_STRING, 0);
      now->text = "now";
      sqlsim_node *args = mk(c, SQLSIM_N_LIST, 0, 1);
      args->kids[0] = now;
      n->text = kw[i][1];
      n->aux = 0;
      if (n->nkids < 1) {
        n->kids = sqlsim_arena_alloc(c->a, sizeof *n->kids);
        n->nkids = 1;
      }
      n->kids[0] = args;
      return;
    }
}

/* A REAL literal with an integral value (29.00) written as the integer (29):
 * the same number wherever it is compared numerically. */
static void integral_literal(eq_ctx *c, sqlsim_node *k) {
  if (!k || k->kind != SQLSIM_N_CONST || k->op != SQLSIM_CONST_FLOAT) return;
  char *end;
  errno = 0;
  double v = strtod(k->text, &end);
  /* the range test first: casting a double past long long's range is undefined */
  if (errno || *end || !(v >= -9007199254740992.0 && v <= 9007199254740992.0) || v != (double)(long long)v) return;
  k->op = SQLSIM_CONST_INT;
  k->text = sqlsim_arena_printf(c->a, "%lld", (long long)v);
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

static void drop_distinct(sqlsim_node *sel) {
  if (sel && sel->kind == SQLSIM_N_SELECT && sel->op == SQLSIM_SET_NONE && !sel->kids[SQLSIM_SEL_LIMIT] &&
      !sel->kids[SQLSIM_SEL_OFFSET] && !sel->kids[SQLSIM_SEL_DISTINCT_ON]) /* DISTINCT ON picks rows: it stays */
    sel->flags &= ~(uint32_t)SQLSIM_F_DISTINCT;
}

static int drop_order(sqlsim_node *sel) {
  if (sel && sel->kind == SQLSIM_N_SELECT && sel->kids[SQLSIM_SEL_ORDER] && !sel->kids[SQLSIM_SEL_LIMIT] &&
      !sel->kids[SQLSIM_SEL_OFFSET]) {
    sel->kids[SQLSIM_SEL_ORDER] = NULL;
    return 1;
  }
  return 0;
}

/* ---- x = a OR x = b OR x IN (c) is x IN (a, b, c), and x <> a AND x <> b
 * is x NOT IN (a, b): the same truth value for every x, NULL included (SQLite
 * applies x's affinity and collation to IN's values as to ='s operand); a
 * one-value list is the comparison itself. Constants only. */

/* For d = `x = constant` (`<>` when neg), or x [NOT] IN (constants): x, with
 * the values counted in *nv; else NULL. */
static sqlsim_node *listed(sqlsim_node *d, int neg, int *nv) {
  if (d->kind == SQLSIM_N_BINOP && d->nkids == 2 && d->op == (neg ? SQLSIM_OP_NE : SQLSIM_OP_EQ)) {
    for (int k = 0; k < 2; k++)
      if (d->kids[1 - k]->kind == SQLSIM_N_CONST && d->kids[k]->kind != SQLSIM_N_CONST) {
        *nv = 1;
        return d->kids[k];
      }
    return NULL;
  }
  if (d->kind != SQLSIM_N_IN || !(d->flags & SQLSIM_F_NOT) != !neg || !d->kids[1]) return NULL;
  for (uint32_t i = 0; i < d->kids[1]->nkids; i++)
    if (d->kids[1]->kids[i]->kind != SQLSIM_N_CONST) return NULL;
  *nv = (int)d->kids[1]->nkids;
  return d->kids[0];
}

static void values_of(sqlsim_node *d, sqlsim_node **out, int *n) {
  if (d->kind == SQLSIM_N_IN) {
    for (uint32_t i = 0; i < d->kids[1]->nkids; i++) out[(*n)++] = d->kids[1]->kids[i];
  } else {
    out[(*n)++] = d->kids[0]->kind == SQLSIM_N_CONST ? d->kids[0] : d->kids[1];
  }
}

static void in_lists(eq_ctx *c, sqlsim_node *n) {
  int neg = n->kind == SQLSIM_N_AND;
  uint32_t m = 0;
  for (uint32_t i = 0; i < n->nkids; i++) {
    sqlsim_node *d = n->kids[i];
    int nv = 0, total = 0, group = 0;
    sqlsim_node *x = d ? listed(d, neg, &nv) : NULL;
    if (!x) {
      n->kids[m++] = d;
      continue;
    }
    for (uint32_t j = i; j < n->nkids; j++) {
      int k;
      sqlsim_node *y = n->kids[j] ? listed(n->kids[j], neg, &k) : NULL;
      if (y && !sqlsim_node_cmp(x, y)) total += k, group++;
    }
    if (group < 2) {
      n->kids[m++] = d;
      continue;
    }
    sqlsim_node *in = mk(c, SQLSIM_N_IN, 0, 2), *list = mk(c, SQLSIM_N_LIST, 0, total);
    list->flags |= SQLSIM_F_UNORDERED;
    list->nkids = 0;
    int nl = 0;
    for (uint32_t j = i; j < n->nkids; j++) {
      int k;
      sqlsim_node *y = n->kids[j] ? listed(n->kids[j], neg, &k) : NULL;
      if (!y || sqlsim_node_cmp(x, y)) continue;
      values_of(n->kids[j], list->kids, &nl);
      /* the span of the merged conditions, for reports */
      if (n->kids[j]->start >= 0 && (in->start < 0 || n->kids[j]->start < in->start)) in->start = n->kids[j]->start;
      if (n->kids[j]->end > in->end) in->end = n->kids[j]->end;
      if (j > i) n->kids[j] = NULL; /* taken into the list */
    }
    list->nkids = (uint32_t)nl;
    in->kids[0] = x;
    in->kids[1] = list;
    if (neg) in->flags |= SQLSIM_F_NOT;
    n->kids[m++] = in;
  }
  uint32_t live = 0;
  for (uint32_t i = 0; i < m; i++)
    if (n->kids[i]) n->kids[live++] = n->kids[i];
  n->nkids = live;
  if (live == 1) *n = *n->kids[0];
}

/* n rewritten in place as `kind` (op) of the two nodes a and b, its NOT gone. */
static void become_pair(eq_ctx *c, sqlsim_node *n, int kind, int op, sqlsim_node *a, sqlsim_node *b) {
  n->kind = (uint16_t)kind;
  n->op = (uint16_t)op;
  n->flags &= ~(uint32_t)SQLSIM_F_NOT;
  n->kids = sqlsim_arena_alloc(c->a, sizeof *n->kids * 2);
  n->kids[0] = a;
  n->kids[1] = b;
  n->nkids = 2;
}

/* x [NOT] IN (v) is x = v (x <> v). */
static void single_value_in(eq_ctx *c, sqlsim_node *n) {
  sqlsim_node *l = n->kids[1];
  if (!l || l->kind != SQLSIM_N_LIST || l->nkids != 1) return;
  int neg = (n->flags & SQLSIM_F_NOT) != 0;
  become_pair(c, n, SQLSIM_N_BINOP, neg ? SQLSIM_OP_NE : SQLSIM_OP_EQ, n->kids[0], l->kids[0]);
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
    if (n->op == SQLSIM_SUB_IN || n->op == SQLSIM_SUB_EXISTS) {
      drop_order(n->kids[1]);
      drop_distinct(n->kids[1]); /* membership and existence ignore duplicates */
    }
    break;
  case SQLSIM_N_TARGET:
    integral_literal(c, n->kids[0]); /* a value compared as a number by both benchmarks */
    break;
  case SQLSIM_N_FUNC:
    if (n->aux == 1) {
      current_time(c, n);
      break;
    }
    conditional_count(c, n);
    if (!strcmp(n->text, "count") && !(n->flags & (SQLSIM_F_DISTINCT | SQLSIM_F_STAR)) && n->kids[0] &&
        n->kids[0]->nkids == 1) {
      const sqlsim_node *arg = n->kids[0]->kids[0];
      if (column_not_null(c, arg) || (arg->kind == SQLSIM_N_CONST && arg->op != SQLSIM_CONST_NULL)) {
        n->flags |= SQLSIM_F_STAR;
        n->kids[0]->nkids = 0;
      }
    }
    break;
  case SQLSIM_N_IN:
    single_value_in(c, n);
    break;
  case SQLSIM_N_OR:
  case SQLSIM_N_AND:
    in_lists(c, n);
    break;
  case SQLSIM_N_BETWEEN: {
    int neg = (n->flags & SQLSIM_F_NOT) != 0;
    sqlsim_node *lo = mk(c, SQLSIM_N_BINOP, neg ? SQLSIM_OP_LT : SQLSIM_OP_GE, 2);
    sqlsim_node *hi = mk(c, SQLSIM_N_BINOP, neg ? SQLSIM_OP_GT : SQLSIM_OP_LE, 2);
    lo->kids[0] = n->kids[0];
    lo->kids[1] = n->kids[1];
    hi->kids[0] = n->kids[0];
    hi->kids[1] = n->kids[2];
    become_pair(c, n, neg ? SQLSIM_N_OR : SQLSIM_N_AND, n->op, lo, hi);
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
    if (n->op == SQLSIM_OP_DIV) average(c, n);
    if (n->kind == SQLSIM_N_BINOP && is_comparison_op(n->op) && n->nkids == 2) {
      if (!column_text(c, n->kids[0])) integral_literal(c, n->kids[1]);
      if (!column_text(c, n->kids[1])) integral_literal(c, n->kids[0]);
    }
    if (n->kind != SQLSIM_N_BINOP) break;
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

/* ---------------------------------------------------------------- query blocks */

/* The conjuncts of a WHERE (an AND, or one condition) into out[], in order;
 * returns how many. ANDs inside ANDs are opened too: the join conditions
 * moved into WHERE (flatten_from) arrive nested, one AND per join. Iterative
 * (an explicit stack), as deep as the nesting goes. */
static int conjuncts(sqlsim_node *w, sqlsim_node ***out, sqlsim_arena *a) {
  if (!w) {
    *out = NULL;
    return 0;
  }
  if (w->kind != SQLSIM_N_AND) {
    *out = sqlsim_arena_alloc(a, sizeof **out);
    (*out)[0] = w;
    return 1;
  }
  int n = 0, cap = 0, depth = 0, scap = 0;
  sqlsim_node **v = NULL, **stack = NULL;
  stack = arena_array_grow(a, stack, depth, &scap, sizeof *stack, 16);
  stack[depth++] = w;
  while (depth) {
    sqlsim_node *x = stack[--depth];
    if (x && x->kind == SQLSIM_N_AND) {
      for (uint32_t i = x->nkids; i-- > 0;) { /* last kid first: popped in order */
        stack = arena_array_grow(a, stack, depth, &scap, sizeof *stack, 16);
        stack[depth++] = x->kids[i];
      }
    } else if (x) {
      v = arena_array_grow(a, v, n, &cap, sizeof *v, 16);
      v[n++] = x;
    }
  }
  *out = v;
  return n;
}

static sqlsim_node *and_list(eq_ctx *c, sqlsim_node **k, int n) {
  if (n == 0) return NULL;
  if (n == 1) return k[0];
  sqlsim_node *x = mk(c, SQLSIM_N_AND, 0, n);
  memcpy(x->kids, k, sizeof *k * (size_t)n);
  return x;
}

static int in_from(const sqlsim_node *sel, const sqlsim_node *item) {
  const sqlsim_node *f = sel->kids[SQLSIM_SEL_FROM];
  for (uint32_t i = 0; f && i < f->nkids; i++)
    if (f->kids[i] == item) return 1;
  return 0;
}

/* col = col between two tables of this block's FROM: a join condition. */
static int join_equality(const sqlsim_node *sel, const sqlsim_node *x) {
  return x->kind == SQLSIM_N_BINOP && x->op == SQLSIM_OP_EQ && x->nkids == 2 && x->kids[0]->kind == SQLSIM_N_COLUMN &&
         x->kids[1]->kind == SQLSIM_N_COLUMN && x->kids[0]->column >= 0 && x->kids[1]->column >= 0 &&
         x->kids[0]->source != x->kids[1]->source && x->kids[0]->source && x->kids[1]->source &&
         x->kids[0]->source->kind == SQLSIM_N_TABLE && x->kids[1]->source->kind == SQLSIM_N_TABLE &&
         in_from(sel, x->kids[0]->source) && in_from(sel, x->kids[1]->source);
}

static int aggregate_pre(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  if (n->kind == SQLSIM_N_SELECT) return SQLSIM_WALK_PRUNE;
  if (n->kind == SQLSIM_N_FUNC && (tree_is_aggregate_name(n->text) || (n->nkids > 2 && n->kids[2]))) {
    *(int *)ctx = 1;
    return SQLSIM_WALK_ABORT;
  }
  return SQLSIM_WALK_CONTINUE;
}

/* An aggregate or window call in a block's own expressions (not its subqueries). */
static int has_aggregate(sqlsim_node *n) {
  int found = 0;
  if (n) sqlsim_walk(n, aggregate_pre, NULL, &found);
  return found;
}

static int correlated_pre(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  if (n->kind == SQLSIM_N_COLUMN && (n->flags & SQLSIM_F_OUTER)) {
    *(int *)ctx = 1;
    return SQLSIM_WALK_ABORT;
  }
  return SQLSIM_WALK_CONTINUE;
}

static int correlated(sqlsim_node *sel) {
  int found = 0;
  sqlsim_walk(sel, correlated_pre, NULL, &found);
  return found;
}

static int plain_block(const sqlsim_node *s) {
  return s && s->kind == SQLSIM_N_SELECT && s->op == SQLSIM_SET_NONE && !s->kids[SQLSIM_SEL_WITH] &&
         !s->kids[SQLSIM_SEL_GROUP] && !s->kids[SQLSIM_SEL_HAVING] && !s->kids[SQLSIM_SEL_LIMIT] &&
         !s->kids[SQLSIM_SEL_OFFSET] && !s->kids[SQLSIM_SEL_VALUES] && !s->kids[SQLSIM_SEL_WINDOW] &&
         !s->kids[SQLSIM_SEL_DISTINCT_ON];
}

/* x IN (SELECT t.y FROM t WHERE c), uncorrelated, becomes a join: t in FROM,
 * x = t.y AND c in WHERE. The same rows when y is unique in t (each row meets
 * at most one t row); under set comparison (sets: the block's duplicates do
 * not count) also when it is not, if the block has no aggregate and no LIMIT. */
/* Rows of this block repeated by a join cannot show: its duplicates do not
 * count (sets) and no aggregate or LIMIT sees them. */
static int duplicates_hidden(sqlsim_node *sel, int sets) {
  return sets && !sel->kids[SQLSIM_SEL_LIMIT] && !sel->kids[SQLSIM_SEL_OFFSET] && !sel->kids[SQLSIM_SEL_HAVING] &&
         !has_aggregate(sel->kids[SQLSIM_SEL_TARGETS]) && !has_aggregate(sel->kids[SQLSIM_SEL_ORDER]);
}

/* Whether conjunct x of block sel is such an IN that may become a join; its
 * table and column in *t and *y. */
static int semijoin_of(eq_ctx *c, sqlsim_node *sel, sqlsim_node *x, int sets, sqlsim_node **t, sqlsim_node **y) {
  sqlsim_node *s = x->kind == SQLSIM_N_SUBLINK ? x->kids[1] : NULL;
  if (!s || x->op != SQLSIM_SUB_IN || (x->flags & SQLSIM_F_NOT) || !x->kids[0] || x->kids[0]->kind == SQLSIM_N_ROW ||
      !plain_block(s) || !s->kids[SQLSIM_SEL_FROM] || s->kids[SQLSIM_SEL_FROM]->nkids != 1 ||
      !s->kids[SQLSIM_SEL_TARGETS] || s->kids[SQLSIM_SEL_TARGETS]->nkids != 1)
    return 0;
  *t = s->kids[SQLSIM_SEL_FROM]->kids[0];
  *y = s->kids[SQLSIM_SEL_TARGETS]->kids[0]->kids[0];
  if ((*t)->kind != SQLSIM_N_TABLE || ((*t)->flags & SQLSIM_F_CTEREF) || !*y || (*y)->kind != SQLSIM_N_COLUMN ||
      (*y)->source != *t || (*y)->column < 0 || !c->q->schema || correlated(s))
    return 0;
  return c->q->schema->columns[(*y)->column].unique || duplicates_hidden(sel, sets);
}

static void semijoins(eq_ctx *c, sqlsim_node *sel, int sets) {
  sqlsim_node *from = sel->kids[SQLSIM_SEL_FROM], *t, *y;
  if (sel->op != SQLSIM_SET_NONE || !from || !sel->kids[SQLSIM_SEL_WHERE]) return;
  sqlsim_node **k;
  int n = conjuncts(sel->kids[SQLSIM_SEL_WHERE], &k, c->a), any = 0;
  for (int i = 0; i < n && !any; i++) any = semijoin_of(c, sel, k[i], sets, &t, &y);
  if (!any) return; /* the common case: nothing to build */
  int cap = 0, m = 0;
  sqlsim_node **out = NULL;
  for (int i = 0; i < n; i++) {
    sqlsim_node *x = k[i];
    if (!semijoin_of(c, sel, x, sets, &t, &y)) {
      out = arena_array_grow(c->a, out, m, &cap, sizeof *out, 16);
      out[m++] = x;
      continue;
    }
    sqlsim_node *eq = mk(c, SQLSIM_N_BINOP, SQLSIM_OP_EQ, 2);
    eq->kids[0] = x->kids[0];
    eq->kids[1] = y;
    eq->start = x->start;
    eq->end = x->end;
    out = arena_array_grow(c->a, out, m, &cap, sizeof *out, 16);
    out[m++] = eq;
    sqlsim_node **ik;
    int ni = conjuncts(x->kids[1]->kids[SQLSIM_SEL_WHERE], &ik, c->a);
    for (int j = 0; j < ni; j++) {
      out = arena_array_grow(c->a, out, m, &cap, sizeof *out, 16);
      out[m++] = ik[j];
    }
    sqlsim_node **items = sqlsim_arena_alloc(c->a, sizeof *items * (from->nkids + 1));
    memcpy(items, from->kids, sizeof *items * from->nkids);
    items[from->nkids] = t;
    from->kids = items;
    from->nkids++;
  }
  sel->kids[SQLSIM_SEL_WHERE] = and_list(c, out, m);
}

/* ---- a.k and b.k are one value where the block joins on a.k = b.k */

typedef struct colclass {
  const sqlsim_node *member[16];
  int n;
} colclass;

typedef struct classes_ctx {
  colclass *cls;
  int ncls;
} classes_ctx;

static int class_of(const classes_ctx *k, const sqlsim_node *col) {
  for (int i = 0; i < k->ncls; i++)
    for (int j = 0; j < k->cls[i].n; j++)
      if (k->cls[i].member[j]->source == col->source && k->cls[i].member[j]->column == col->column) return i;
  return -1;
}

/* The member every column of the class is written as: the lowest schema
 * column (both queries read the same schema, so both choose it), first once
 * column_classes has sorted the members. */
static const sqlsim_node *representative(const colclass *cl) { return cl->member[0]; }

static int replace_pre(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  classes_ctx *k = ctx;
  if (n->kind == SQLSIM_N_SELECT) return SQLSIM_WALK_PRUNE;
  if (n->kind == SQLSIM_N_COLUMN && n->column >= 0 && n->source) {
    int i = class_of(k, n);
    if (i >= 0) {
      const sqlsim_node *r = representative(&k->cls[i]);
      n->table = r->table;
      n->column = r->column;
      n->source = r->source;
      n->text = r->text;
      n->raw = r->raw;
      n->alias = r->alias;
    }
  }
  return SQLSIM_WALK_CONTINUE;
}

/* After replace_pre, COUNT(x) for a member x of a class: the join's equality
 * holds on every row of the block, so x is never NULL there and the count is
 * of rows (COUNT(connected.bond_id) over bond JOIN connected ON bond_id). */
static int count_member_post(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  classes_ctx *k = ctx;
  if (n->kind == SQLSIM_N_FUNC && n->text && !strcmp(n->text, "count") && !(n->flags & (SQLSIM_F_DISTINCT | SQLSIM_F_STAR)) &&
      !(n->nkids > 2 && n->kids[2]) && n->kids[0] && n->kids[0]->nkids == 1) {
    const sqlsim_node *x = n->kids[0]->kids[0];
    if (x->kind == SQLSIM_N_COLUMN && x->column >= 0 && x->source && class_of(k, x) >= 0) {
      n->flags |= SQLSIM_F_STAR;
      n->kids[0]->nkids = 0;
    }
  }
  return SQLSIM_WALK_CONTINUE;
}

static void column_classes(eq_ctx *c, sqlsim_node *sel) {
  if (sel->op != SQLSIM_SET_NONE || !sel->kids[SQLSIM_SEL_WHERE]) return;
  sqlsim_node **k;
  int n = conjuncts(sel->kids[SQLSIM_SEL_WHERE], &k, c->a);
  colclass cls[8];
  classes_ctx cc = {cls, 0};
  for (int i = 0; i < n; i++) {
    if (!join_equality(sel, k[i])) continue;
    const sqlsim_node *a = k[i]->kids[0], *b = k[i]->kids[1];
    int ia = class_of(&cc, a), ib = class_of(&cc, b);
    if (ia < 0 && ib < 0) {
      if (cc.ncls == 8) continue;
      cls[cc.ncls].n = 0;
      ia = cc.ncls++;
    }
    if (ia < 0) ia = ib;
    else if (ib >= 0 && ib != ia) { /* two classes meet: merge */
      for (int j = 0; j < cls[ib].n && cls[ia].n < 16; j++) cls[ia].member[cls[ia].n++] = cls[ib].member[j];
      cls[ib] = cls[--cc.ncls];
      if (ia == cc.ncls) ia = ib;
    }
    if (class_of(&cc, a) < 0 && cls[ia].n < 16) cls[ia].member[cls[ia].n++] = a;
    if (class_of(&cc, b) < 0 && cls[ia].n < 16) cls[ia].member[cls[ia].n++] = b;
  }
  /* a class holding one schema column twice (a self-join on it) has no
   * representative both queries would agree on */
  for (int i = 0; i < cc.ncls; i++)
    for (int x = 0; x < cls[i].n; x++)
      for (int y = x + 1; y < cls[i].n; y++)
        if (cls[i].member[x]->column == cls[i].member[y]->column) cls[i].n = 0;
  int any = 0;
  for (int i = 0; i < cc.ncls; i++) {
    colclass *cl = &cls[i];
    any |= cl->n > 1;
    for (int x = 1; x < cl->n; x++) /* insertion sort by schema column: at most 16 */
      for (int y = x; y > 0 && cl->member[y]->column < cl->member[y - 1]->column; y--) {
        const sqlsim_node *t = cl->member[y];
        cl->member[y] = cl->member[y - 1];
        cl->member[y - 1] = t;
      }
  }
  if (!any) return;
  static const int slots[] = {SQLSIM_SEL_TARGETS, SQLSIM_SEL_GROUP, SQLSIM_SEL_HAVING, SQLSIM_SEL_ORDER};
  for (size_t s = 0; s < sizeof slots / sizeof slots[0]; s++)
    if (sel->kids[slots[s]]) sqlsim_walk(sel->kids[slots[s]], replace_pre, count_member_post, &cc);
  /* the class's own join conditions written one way: every pair of its
   * members, in schema order (a = b AND a = c and a = b AND b = c say the
   * same). All pairs, so that a table joined on in addition only adds
   * conditions: a chain or a star through one member would lose one the
   * other query has whenever the new member sorts before it. */
  sqlsim_node **out = NULL;
  int m = 0, cap = 0;
  for (int i = 0; i < n; i++) {
    int keep = !join_equality(sel, k[i]);
    if (keep) {
      sqlsim_walk(k[i], replace_pre, NULL, &cc);
    } else {
      int ia = class_of(&cc, k[i]->kids[0]);
      keep = ia < 0 || cls[ia].n < 2 || class_of(&cc, k[i]->kids[1]) != ia;
    }
    if (keep) {
      out = arena_array_grow(c->a, out, m, &cap, sizeof *out, 16);
      out[m++] = k[i];
    }
  }
  for (int i = 0; i < cc.ncls; i++) {
    const colclass *cl = &cls[i];
    if (cl->n < 2) continue;
    for (int x = 0; x < cl->n; x++)
      for (int y = x + 1; y < cl->n; y++) {
        sqlsim_node *eq = mk(c, SQLSIM_N_BINOP, SQLSIM_OP_EQ, 2);
        eq->kids[0] = tree_clone(c->a, cl->member[x]);
        eq->kids[1] = tree_clone(c->a, cl->member[y]);
        out = arena_array_grow(c->a, out, m, &cap, sizeof *out, 16);
        out[m++] = eq;
      }
  }
  sel->kids[SQLSIM_SEL_WHERE] = and_list(c, out, m);
}

/* ---- GROUP BY k, x where k is a unique NOT NULL column of a FROM item and
 * x another column of that same item: x is one value in each of k's groups
 * (it depends on k), so the groups are k's alone and x goes. */
static int group_key(eq_ctx *c, const sqlsim_node *k) {
  const sqlsim_schema *s = c->q->schema;
  return k->kind == SQLSIM_N_COLUMN && k->source && k->source->kind == SQLSIM_N_TABLE && k->column >= 0 &&
         k->column < s->ncolumns && s->columns[k->column].unique && column_not_null(c, k);
}

static void group_by_key(eq_ctx *c, sqlsim_node *sel) {
  sqlsim_node *g = sel->kids[SQLSIM_SEL_GROUP];
  if (sel->op != SQLSIM_SET_NONE || !g || g->kind != SQLSIM_N_LIST || g->nkids < 2 || !c->q->schema) return;
  uint32_t m = 0;
  sqlsim_node **keep = sqlsim_arena_alloc(c->a, sizeof *keep * g->nkids);
  for (uint32_t i = 0; i < g->nkids; i++) {
    const sqlsim_node *x = g->kids[i];
    int dependent = 0;
    /* of two keys of one item, the first stays */
    for (uint32_t j = 0; j < g->nkids && !dependent && x->kind == SQLSIM_N_COLUMN; j++) {
      const sqlsim_node *k = g->kids[j];
      dependent = j != i && group_key(c, k) && k->source == x->source && k->column != x->column &&
                  (j < i || !group_key(c, x));
    }
    if (!dependent) keep[m++] = g->kids[i];
  }
  g->kids = keep;
  g->nkids = m;
}

/* SELECT COUNT(*) FILTER (WHERE c) ... [WHERE w] (one count, nothing else
 * read, no grouping) is SELECT COUNT(*) ... WHERE w AND c: a conditional
 * count alone in its block is a count of the rows that meet c. The condition
 * goes to WHERE, where the other query most often has it, so that a WHERE
 * against a SUM(CASE ...) (or against a query with no count at all) differs
 * only where the two really differ. */
static int only_count_pre(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  sqlsim_node **found = ctx;
  if (n->kind == SQLSIM_N_SELECT || n->kind == SQLSIM_N_COLUMN || n->kind == SQLSIM_N_STAR ||
      n->kind == SQLSIM_N_SUBLINK) {
    found[1] = n; /* something else read */
    return SQLSIM_WALK_ABORT;
  }
  if (n->kind == SQLSIM_N_FUNC && (tree_is_aggregate_name(n->text) || (n->nkids > 2 && n->kids[2]))) {
    if (found[0] || strcmp(n->text, "count") || !(n->flags & SQLSIM_F_STAR) || (n->nkids > 2 && n->kids[2])) {
      found[1] = n;
      return SQLSIM_WALK_ABORT;
    }
    found[0] = n;
    return SQLSIM_WALK_PRUNE;
  }
  return SQLSIM_WALK_CONTINUE;
}

static void count_filter(eq_ctx *c, sqlsim_node *sel) {
  if (sel->op != SQLSIM_SET_NONE || !sel->kids[SQLSIM_SEL_TARGETS] || sel->kids[SQLSIM_SEL_GROUP] ||
      sel->kids[SQLSIM_SEL_HAVING] || sel->kids[SQLSIM_SEL_ORDER] || sel->kids[SQLSIM_SEL_OFFSET] ||
      sel->kids[SQLSIM_SEL_WINDOW] || sel->kids[SQLSIM_SEL_VALUES] || sel->kids[SQLSIM_SEL_DISTINCT_ON])
    return;
  const sqlsim_node *lim = sel->kids[SQLSIM_SEL_LIMIT];
  if (lim && !(lim->kind == SQLSIM_N_CONST && lim->op == SQLSIM_CONST_INT && lim->text[0] != '-' && strcmp(lim->text, "0")))
    return;
  sqlsim_node *found[2] = {NULL, NULL};
  sqlsim_walk(sel->kids[SQLSIM_SEL_TARGETS], only_count_pre, NULL, found);
  sqlsim_node *cnt = found[0];
  if (!cnt || found[1] || !(cnt->flags & SQLSIM_F_FILTER) || cnt->nkids < 2 || !cnt->kids[1]) return;
  sqlsim_node **w, **f;
  int nw = sel->kids[SQLSIM_SEL_WHERE] ? conjuncts(sel->kids[SQLSIM_SEL_WHERE], &w, c->a) : 0;
  int nf = conjuncts(cnt->kids[1], &f, c->a);
  sqlsim_node **all = sqlsim_arena_alloc(c->a, sizeof *all * (size_t)(nw + nf));
  for (int i = 0; i < nw; i++) all[i] = w[i];
  for (int i = 0; i < nf; i++) all[nw + i] = f[i];
  sel->kids[SQLSIM_SEL_WHERE] = and_list(c, all, nw + nf);
  cnt->kids[1] = NULL;
  cnt->flags &= ~(uint32_t)SQLSIM_F_FILTER;
}

/* ---- SELECT AVG(x) ... WHERE x IS NOT NULL AND w, the block's one row
 * computed only by aggregates that skip NULLs over x (AVG, SUM, MIN, MAX,
 * TOTAL, GROUP_CONCAT(x); with constants around them: AVG(x) * 1.2), no
 * grouping: the rows the test drops are ones those aggregates skip, so it
 * goes. (With GROUP BY it would not: a group whose x are all NULL vanishes.
 * COUNT(x) is left to the categories' weak COUNT argument: `COUNT(time) WHERE
 * time IS NOT NULL` against `time IS NULL` reads as the operator changed.) */
typedef struct skip_ctx {
  const sqlsim_node *x; /* the column the aggregates read; NULL until the first */
  int bad;
} skip_ctx;

static int null_skipping_pre(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  skip_ctx *k = ctx;
  if (n->kind == SQLSIM_N_FUNC && n->text && tree_is_aggregate(n)) {
    const sqlsim_node *a = n->kids[0] && n->kids[0]->nkids == 1 ? n->kids[0]->kids[0] : NULL;
    /* every aggregate but COUNT skips NULLs (tree_is_aggregate's names) */
    if (!strcmp(n->text, "count") || (n->flags & (SQLSIM_F_STAR | SQLSIM_F_FILTER)) || (n->nkids > 2 && n->kids[2]) ||
        !a || a->kind != SQLSIM_N_COLUMN || a->column < 0 || (k->x && !tree_eq(k->x, a))) {
      k->bad = 1;
      return SQLSIM_WALK_ABORT;
    }
    k->x = a;
    return SQLSIM_WALK_PRUNE;
  }
  if (n->kind == SQLSIM_N_COLUMN || n->kind == SQLSIM_N_STAR || n->kind == SQLSIM_N_SELECT ||
      n->kind == SQLSIM_N_SUBLINK || (n->kind == SQLSIM_N_FUNC && n->nkids > 2 && n->kids[2])) {
    k->bad = 1; /* a value read outside the aggregates, a subquery, a window */
    return SQLSIM_WALK_ABORT;
  }
  return SQLSIM_WALK_CONTINUE;
}

static void null_test_under_aggregates(eq_ctx *c, sqlsim_node *sel) {
  if (sel->op != SQLSIM_SET_NONE || !sel->kids[SQLSIM_SEL_TARGETS] || !sel->kids[SQLSIM_SEL_WHERE] ||
      sel->kids[SQLSIM_SEL_GROUP] || sel->kids[SQLSIM_SEL_HAVING] || sel->kids[SQLSIM_SEL_WINDOW] ||
      sel->kids[SQLSIM_SEL_VALUES] || sel->kids[SQLSIM_SEL_LIMIT] || sel->kids[SQLSIM_SEL_OFFSET] ||
      sel->kids[SQLSIM_SEL_DISTINCT_ON])
    return;
  skip_ctx k = {NULL, 0};
  sqlsim_walk(sel->kids[SQLSIM_SEL_TARGETS], null_skipping_pre, NULL, &k);
  if (k.bad || !k.x) return;
  sqlsim_node **w;
  int nw = conjuncts(sel->kids[SQLSIM_SEL_WHERE], &w, c->a), m = 0;
  for (int i = 0; i < nw; i++) {
    const sqlsim_node *t = w[i];
    int idle = t->kind == SQLSIM_N_ISNULL && t->op == SQLSIM_NOTNULL && t->nkids && tree_eq(t->kids[0], k.x);
    if (!idle) w[m++] = w[i];
  }
  if (m < nw) sel->kids[SQLSIM_SEL_WHERE] = and_list(c, w, m);
}

/* ---- a select-list alias named in ORDER BY, GROUP BY, HAVING or WHERE is
 * the expression it names (SQLite evaluates that expression there): ORDER BY
 * n for ORDER BY COUNT(*) AS n. Not inside subqueries: their names are their
 * own blocks'. */
static void expand_alias_refs(eq_ctx *c, sqlsim_node **at, int depth) {
  sqlsim_node *k = *at;
  if (!k || k->kind == SQLSIM_N_SELECT || depth > 200) return;
  const sqlsim_node *t = k->source;
  if (k->kind == SQLSIM_N_COLUMN && (k->flags & SQLSIM_F_ALIASREF) && t && t->kind == SQLSIM_N_TARGET &&
      t->nkids && t->kids[0]) {
    sqlsim_node *e = tree_clone(c->a, t->kids[0]);
    e->start = k->start;
    e->end = k->end;
    *at = e;
    return;
  }
  for (uint32_t i = 0; i < k->nkids; i++) expand_alias_refs(c, &k->kids[i], depth + 1);
}

static void alias_refs(eq_ctx *c, sqlsim_node *sel) {
  static const int slots[] = {SQLSIM_SEL_WHERE, SQLSIM_SEL_GROUP, SQLSIM_SEL_HAVING, SQLSIM_SEL_ORDER};
  const sqlsim_node *targets = sel->kids[SQLSIM_SEL_TARGETS];
  if (sel->op != SQLSIM_SET_NONE || !targets) return;
  int named = 0; /* only a select item with an alias can be named: most blocks have none */
  for (uint32_t i = 0; i < targets->nkids && !named; i++) named = targets->kids[i]->text != NULL;
  if (named)
    for (size_t s = 0; s < sizeof slots / sizeof slots[0]; s++) expand_alias_refs(c, &sel->kids[slots[s]], 0);
}

/* Each block after its subqueries; sets: the block's duplicates cannot show
 * (the top of a set-compared query, the inside of IN/EXISTS, a UNION side). */
static void blocks(eq_ctx *c, sqlsim_node *n, int sets, int depth) {
  if (!n || depth > 200) return;
  for (uint32_t i = 0; i < n->nkids; i++) {
    sqlsim_node *k = n->kids[i];
    if (!k) continue;
    int ks = 0;
    if (n->kind == SQLSIM_N_SUBLINK && (n->op == SQLSIM_SUB_IN || n->op == SQLSIM_SUB_EXISTS) && i == 1) ks = 1;
    else if (n->kind == SQLSIM_N_SELECT && n->op != SQLSIM_SET_NONE && !(n->flags & SQLSIM_F_ALL) &&
             (i == SQLSIM_SEL_LARG || i == SQLSIM_SEL_RARG))
      ks = 1;
    blocks(c, k, ks, depth + 1);
  }
  if (n->kind != SQLSIM_N_SELECT) return;
  alias_refs(c, n);
  semijoins(c, n, sets);
  column_classes(c, n);
  group_by_key(c, n);
  count_filter(c, n);
  null_test_under_aggregates(c, n);
}

void sqlsim_equiv_normalize_as(sqlsim_query *q, unsigned flags) {
  eq_ctx c = {q, q->arena, flags};
  sqlsim_walk(q->root, NULL, equiv_post, &c);
  sqlsim_node *root = q->root;
  int sets = (flags & SQLSIM_EQUIV_SETS) != 0;
  blocks(&c, root, sets, 0);
  /* the top block's DISTINCT, where the comparison ignores duplicates */
  if (flags & (SQLSIM_EQUIV_SETS | SQLSIM_EQUIV_NO_DISTINCT)) drop_distinct(root);
  tree_reorder(q);
}

void sqlsim_equiv_normalize(sqlsim_query *q) { sqlsim_equiv_normalize_as(q, 0); }
