/* neighbors.c -- the queries near a gold query: one change each.
 *
 * A neighbor is what a model gets wrong when it is nearly right (Zhong, Yu &
 * Klein's neighbor queries; XData's query mutants): a comparison operator, a
 * number moved across its boundary, a column for another of its table and
 * type, an aggregate for another (DISTINCT inside, COUNT(*) against
 * COUNT(col)), a condition dropped, AND for OR, an inner join for a left one,
 * a grouping key dropped, the order reversed, LIMIT +-1, DISTINCT added or
 * removed, IS NULL for IS NOT NULL, IN for NOT IN, EXISTS for NOT EXISTS, a
 * set operation for another, integer against real division. The suite
 * (suite.c) keeps the databases that tell the gold from them.
 *
 * Each change is made on a copy of the gold's tree at one node (found again
 * in the copy by its pre-order number) and printed as SQLite SQL. Changes are
 * taken round the kinds, so that a long query's many comparisons do not
 * crowd out its one join; a neighbor that prints as the gold, or as an
 * earlier neighbor, is left out. Entry point: synth_neighbors (synth.h). */
#include "synth.h"
#include "parser/tree.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

enum {
  MUT_OP,        /* comparison or LIKE operator: arg the new op */
  MUT_LITERAL,   /* a number +arg */
  MUT_COLUMN,    /* arg the schema column put in its place */
  MUT_AGG,       /* arg the aggregate's new name (index in agg_names) */
  MUT_AGG_DISTINCT, /* DISTINCT inside an aggregate toggled */
  MUT_COUNT_STAR,   /* COUNT(col) -> COUNT(*) */
  MUT_COUNT_COL,    /* COUNT(*) -> COUNT(col): arg the column, of the block's first table */
  MUT_DROP,      /* kid arg of an AND/OR dropped */
  MUT_DROP_SLOT, /* SELECT slot arg (WHERE, HAVING) dropped */
  MUT_ANDOR,     /* AND <-> OR */
  MUT_JOIN,      /* arg the join's new type */
  MUT_GROUP_DROP,/* grouping key arg dropped */
  MUT_SORT,      /* ASC <-> DESC */
  MUT_DISTINCT,  /* SELECT DISTINCT toggled */
  MUT_NOT,       /* NOT toggled: IN, NOT IN, EXISTS, BETWEEN; IS [NOT] NULL */
  MUT_SETOP,     /* arg the set operation's new op (4: ALL toggled) */
  MUT_DIV,       /* x / y -> CAST(x AS REAL) / y */
  MUT_OR_NULL,   /* c op v -> (c op v OR c IS NULL), c a nullable column */
  MUT_IN_NOTNULL,/* x [NOT] IN (SELECT y ..) -> .. WHERE .. AND y IS NOT NULL */
  MUT_ELSE_DROP, /* CASE .. ELSE e END -> CASE .. END (NULL where no branch holds) */
  MUT_TOTAL,     /* sum(x) -> total(x) (0.0 where sum gives NULL: no row, or NULLs only) */
  MUT__KINDS
};

static const char *const mut_names[MUT__KINDS] = {
    "operator", "literal", "column", "aggregate", "distinct inside", "count(*)", "count(column)", "condition dropped",
    "clause dropped", "and/or", "join type", "grouping key dropped", "order", "distinct", "not", "set operation",
    "division", "or null", "in without nulls", "else dropped", "total"};

static const char *const agg_names[] = {"count", "sum", "avg", "min", "max"};

typedef struct mutation {
  int node; /* pre-order number in the gold's tree */
  int kind, arg;
  const char *qual; /* MUT_COUNT_COL: the qualifier of the column's table in the query */
} mutation;

typedef struct site_ctx {
  const sqlsim_schema *s;
  mutation *v;
  int n, cap;
  int counter;
  const sqlsim_node *block; /* the innermost SELECT */
  const sqlsim_node *blocks[64];
  int depth;
} site_ctx;

static void add_q(site_ctx *c, int node, int kind, int arg, const char *qual) {
  if (c->n == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 64;
    c->v = realloc(c->v, sizeof *c->v * (size_t)c->cap);
  }
  c->v[c->n++] = (mutation){node, kind, arg, qual};
}

static void add(site_ctx *c, int node, int kind, int arg) { add_q(c, node, kind, arg, NULL); }

static int is_comparison(int op) { return op >= SQLSIM_OP_EQ && op <= SQLSIM_OP_GE; }

/* The comparisons one change away from op: its negation, the boundary moved
 * (< and <=), the direction reversed. */
static void comparison_neighbors(site_ctx *c, int node, int op) {
  static const int alt[][3] = {
      [SQLSIM_OP_EQ] = {SQLSIM_OP_NE, SQLSIM_OP_LE, SQLSIM_OP_GE},
      [SQLSIM_OP_NE] = {SQLSIM_OP_EQ, SQLSIM_OP_LT, SQLSIM_OP_GT},
      [SQLSIM_OP_LT] = {SQLSIM_OP_LE, SQLSIM_OP_GT, SQLSIM_OP_GE},
      [SQLSIM_OP_LE] = {SQLSIM_OP_LT, SQLSIM_OP_GE, SQLSIM_OP_GT},
      [SQLSIM_OP_GT] = {SQLSIM_OP_GE, SQLSIM_OP_LT, SQLSIM_OP_LE},
      [SQLSIM_OP_GE] = {SQLSIM_OP_GT, SQLSIM_OP_LE, SQLSIM_OP_LT},
  };
  for (int i = 0; i < 3; i++) add(c, node, MUT_OP, alt[op][i]);
}

/* Another column of the same table with the same affinity, up to two. */
static void column_neighbors(site_ctx *c, int node, const sqlsim_node *n) {
  if (!c->s || n->column < 0 || n->column >= c->s->ncolumns || (n->flags & SQLSIM_F_ALIASREF)) return;
  const sqlsim_column *col = &c->s->columns[n->column];
  const sqlsim_table *t = &c->s->tables[col->table];
  int aff = core_type_affinity(col->type ? col->type : ""), found = 0;
  for (int k = 1; k < t->ncolumns && found < 2; k++) {
    int o = t->first_column + (n->column - t->first_column + k) % t->ncolumns;
    if (core_type_affinity(c->s->columns[o].type ? c->s->columns[o].type : "") != aff) continue;
    add(c, node, MUT_COLUMN, o);
    found++;
  }
}

/* A qualifier for a column of from-item t: its alias, else its name. */
static const char *qualifier_of(const sqlsim_node *t) { return t->alias ? t->alias : t->raw ? t->raw : t->text; }

/* A nullable column of the block's first FROM table, for COUNT(*) ->
 * COUNT(col), and that table's qualifier: -1 when there is none. */
static int count_column(const site_ctx *c, const char **qual) {
  const sqlsim_node *from = c->block ? c->block->kids[SQLSIM_SEL_FROM] : NULL;
  const sqlsim_node *first = from && from->nkids ? from->kids[0] : NULL;
  while (first && first->kind == SQLSIM_N_JOIN) first = first->kids[0];
  if (!c->s || !first || first->kind != SQLSIM_N_TABLE || first->table < 0) return -1;
  *qual = qualifier_of(first);
  const sqlsim_table *t = &c->s->tables[first->table];
  for (int i = 0; i < t->ncolumns; i++)
    if (!c->s->columns[t->first_column + i].pk && !c->s->columns[t->first_column + i].notnull)
      return t->first_column + i;
  return -1;
}

/* A column of the schema that may hold NULL. */
static int nullable_column(const site_ctx *c, const sqlsim_node *n) {
  if (!c->s || !n || n->kind != SQLSIM_N_COLUMN || n->column < 0 || n->column >= c->s->ncolumns) return 0;
  const sqlsim_column *col = &c->s->columns[n->column];
  return !col->pk && !col->notnull;
}

static int site_pre(sqlsim_node *n, sqlsim_node *parent, void *arg) {
  site_ctx *c = arg;
  int at = c->counter++;
  (void)parent;
  switch (n->kind) {
  case SQLSIM_N_SELECT:
    if (c->depth < 64) c->blocks[c->depth] = n;
    c->depth++;
    c->block = n;
    if (n->op == SQLSIM_SET_NONE) {
      add(c, at, MUT_DISTINCT, 0);
      if (n->kids[SQLSIM_SEL_WHERE]) add(c, at, MUT_DROP_SLOT, SQLSIM_SEL_WHERE);
      if (n->kids[SQLSIM_SEL_HAVING]) add(c, at, MUT_DROP_SLOT, SQLSIM_SEL_HAVING);
    } else {
      for (int op = SQLSIM_SET_UNION; op <= SQLSIM_SET_EXCEPT; op++)
        if (op != n->op) add(c, at, MUT_SETOP, op);
      if (n->op == SQLSIM_SET_UNION) add(c, at, MUT_SETOP, 4);
    }
    break;
  case SQLSIM_N_BINOP:
    if (is_comparison(n->op) && n->nkids == 2 && (nullable_column(c, n->kids[0]) || nullable_column(c, n->kids[1])))
      add(c, at, MUT_OR_NULL, nullable_column(c, n->kids[0]) ? 0 : 1);
    if (is_comparison(n->op)) comparison_neighbors(c, at, n->op);
    else if (n->op == SQLSIM_OP_LIKE) add(c, at, MUT_OP, SQLSIM_OP_NOTLIKE);
    else if (n->op == SQLSIM_OP_NOTLIKE) add(c, at, MUT_OP, SQLSIM_OP_LIKE);
    else if (n->op == SQLSIM_OP_DIV && n->nkids == 2 && n->kids[0] && n->kids[0]->kind != SQLSIM_N_CAST)
      add(c, at, MUT_DIV, 0);
    break;
  case SQLSIM_N_CONST:
    if (n->op == SQLSIM_CONST_INT || n->op == SQLSIM_CONST_FLOAT) {
      add(c, at, MUT_LITERAL, 1);
      add(c, at, MUT_LITERAL, -1);
    }
    break;
  case SQLSIM_N_COLUMN:
    column_neighbors(c, at, n);
    break;
  case SQLSIM_N_FUNC:
    if (tree_is_aggregate(n) && !n->kids[2]) {
      int name = -1;
      for (int i = 0; i < 5; i++)
        if (!strcmp(n->text, agg_names[i])) name = i;
      if (name < 0) break;
      static const int alt[5][2] = {{-1, -1}, {2, 0}, {1, -1}, {4, -1}, {3, -1}}; /* count, sum, avg, min, max */
      for (int i = 0; i < 2; i++)
        if (alt[name][i] >= 0 && !(n->flags & SQLSIM_F_STAR)) add(c, at, MUT_AGG, alt[name][i]);
      if (!(n->flags & SQLSIM_F_STAR)) add(c, at, MUT_AGG_DISTINCT, 0);
      if (name == 0 && !(n->flags & SQLSIM_F_STAR)) add(c, at, MUT_COUNT_STAR, 0);
      if (name == 1) add(c, at, MUT_TOTAL, 0);
      if (name == 0 && (n->flags & SQLSIM_F_STAR)) {
        const char *qual = NULL;
        int col = count_column(c, &qual);
        if (col >= 0) add_q(c, at, MUT_COUNT_COL, col, qual);
      }
    }
    break;
  case SQLSIM_N_AND:
  case SQLSIM_N_OR:
    add(c, at, MUT_ANDOR, 0);
    for (uint32_t i = 0; i < n->nkids && i < 8; i++) add(c, at, MUT_DROP, (int)i);
    break;
  case SQLSIM_N_JOIN:
    if (n->op == SQLSIM_JOIN_INNER && n->kids[2]) add(c, at, MUT_JOIN, SQLSIM_JOIN_LEFT);
    else if (n->op == SQLSIM_JOIN_LEFT) add(c, at, MUT_JOIN, SQLSIM_JOIN_INNER);
    break;
  case SQLSIM_N_SORT:
    add(c, at, MUT_SORT, 0);
    break;
  case SQLSIM_N_ISNULL:
  case SQLSIM_N_IN:
  case SQLSIM_N_BETWEEN:
    add(c, at, MUT_NOT, 0);
    break;
  case SQLSIM_N_SUBLINK:
    if (n->op == SQLSIM_SUB_EXISTS || n->op == SQLSIM_SUB_IN) add(c, at, MUT_NOT, 0);
    if (n->op == SQLSIM_SUB_IN && n->nkids == 2 && n->kids[1] && n->kids[1]->kind == SQLSIM_N_SELECT &&
        n->kids[1]->op == SQLSIM_SET_NONE) {
      const sqlsim_node *tl = n->kids[1]->kids[SQLSIM_SEL_TARGETS];
      if (tl && tl->nkids == 1 && tl->kids[0]->nkids && nullable_column(c, tl->kids[0]->kids[0]))
        add(c, at, MUT_IN_NOTNULL, 0);
    }
    break;
  case SQLSIM_N_CASE:
    if (n->kids[1]) add(c, at, MUT_ELSE_DROP, 0);
    break;
  case SQLSIM_N_LIST:
    /* a GROUP BY of several keys: each dropped (the parent is the block) */
    if (c->block && c->block->kids[SQLSIM_SEL_GROUP] == n && n->nkids > 1)
      for (uint32_t i = 0; i < n->nkids && i < 4; i++) add(c, at, MUT_GROUP_DROP, (int)i);
    break;
  default:
    break;
  }
  return SQLSIM_WALK_CONTINUE;
}

static int site_post(sqlsim_node *n, sqlsim_node *parent, void *arg) {
  site_ctx *c = arg;
  (void)parent;
  if (n->kind == SQLSIM_N_SELECT) {
    c->depth--;
    c->block = c->depth > 0 && c->depth <= 64 ? c->blocks[c->depth - 1] : NULL;
  }
  return SQLSIM_WALK_CONTINUE;
}

/* ---------------------------------------------------------------- applying one */

typedef struct find_ctx {
  int want, counter;
  sqlsim_node *found;
} find_ctx;

static int find_pre(sqlsim_node *n, sqlsim_node *parent, void *arg) {
  find_ctx *c = arg;
  (void)parent;
  if (c->counter++ == c->want) {
    c->found = n;
    return SQLSIM_WALK_ABORT;
  }
  return SQLSIM_WALK_CONTINUE;
}

static int apply(sqlsim_query *q, const mutation *m) {
  find_ctx f = {m->node, 0, NULL};
  sqlsim_walk(q->root, find_pre, NULL, &f);
  sqlsim_node *n = f.found;
  if (!n) return 0;
  sqlsim_arena *a = q->arena;
  const sqlsim_schema *s = q->schema;
  switch (m->kind) {
  case MUT_OP: n->op = (uint16_t)m->arg; return 1;
  case MUT_LITERAL: {
    if (n->op == SQLSIM_CONST_INT) {
      long long v;
      if (!core_int_literal(n->text, &v) || v == LLONG_MAX || v == LLONG_MIN) return 0;
      n->text = sqlsim_arena_printf(a, "%lld", v + m->arg);
    } else {
      char *end;
      double v = strtod(n->text, &end);
      if (*end || v != v || v > 1e15 || v < -1e15) return 0;
      n->text = sqlsim_arena_printf(a, "%.17g", v + m->arg);
      if (!strpbrk(n->text, ".eE")) n->text = sqlsim_arena_printf(a, "%s.0", n->text);
    }
    return 1;
  }
  case MUT_COLUMN: {
    if (!s || m->arg < 0 || m->arg >= s->ncolumns) return 0;
    n->column = m->arg;
    n->text = s->columns[m->arg].key;
    n->raw = s->columns[m->arg].name;
    return 1;
  }
  case MUT_AGG: n->text = agg_names[m->arg]; return 1;
  case MUT_AGG_DISTINCT: n->flags ^= SQLSIM_F_DISTINCT; return 1;
  case MUT_COUNT_STAR:
    n->flags = (n->flags | SQLSIM_F_STAR) & ~(uint32_t)SQLSIM_F_DISTINCT;
    n->kids[0] = tree_node_new(a, SQLSIM_N_LIST, 0);
    return 1;
  case MUT_COUNT_COL: {
    if (!s || !m->qual) return 0;
    const sqlsim_column *col = &s->columns[m->arg];
    sqlsim_node *c = tree_node_new(a, SQLSIM_N_COLUMN, 0);
    c->text = col->key;
    c->raw = col->name;
    c->column = m->arg;
    c->table = col->table;
    c->alias = m->qual;
    c->start = c->end = -1;
    sqlsim_node *args = tree_node_new(a, SQLSIM_N_LIST, 1);
    args->kids[0] = c;
    n->kids[0] = args;
    n->flags &= ~(uint32_t)SQLSIM_F_STAR;
    return 1;
  }
  case MUT_DROP: {
    if ((uint32_t)m->arg >= n->nkids || n->nkids < 2) return 0;
    memmove(&n->kids[m->arg], &n->kids[m->arg + 1], sizeof *n->kids * (n->nkids - (uint32_t)m->arg - 1));
    n->nkids--;
    return 1;
  }
  case MUT_DROP_SLOT: n->kids[m->arg] = NULL; return 1;
  case MUT_ANDOR: n->kind = n->kind == SQLSIM_N_AND ? SQLSIM_N_OR : SQLSIM_N_AND; return 1;
  case MUT_JOIN: n->op = (uint16_t)m->arg; return 1;
  case MUT_GROUP_DROP: {
    if ((uint32_t)m->arg >= n->nkids) return 0;
    memmove(&n->kids[m->arg], &n->kids[m->arg + 1], sizeof *n->kids * (n->nkids - (uint32_t)m->arg - 1));
    n->nkids--;
    return 1;
  }
  case MUT_SORT: n->op = n->op == SQLSIM_SORT_DESC ? SQLSIM_SORT_ASC : SQLSIM_SORT_DESC; return 1;
  case MUT_DISTINCT: n->flags ^= SQLSIM_F_DISTINCT; return 1;
  case MUT_NOT:
    if (n->kind == SQLSIM_N_ISNULL) n->op = n->op == SQLSIM_ISNULL ? SQLSIM_NOTNULL : SQLSIM_ISNULL;
    else n->flags ^= SQLSIM_F_NOT;
    return 1;
  case MUT_SETOP:
    if (m->arg == 4) n->flags ^= SQLSIM_F_ALL;
    else n->op = (uint16_t)m->arg;
    return 1;
  case MUT_OR_NULL: {
    sqlsim_node *col = tree_clone(a, n->kids[m->arg]);
    sqlsim_node *isnull = tree_node_new(a, SQLSIM_N_ISNULL, 1);
    isnull->op = SQLSIM_ISNULL;
    isnull->kids[0] = col;
    isnull->start = isnull->end = -1;
    sqlsim_node *cmp = tree_node_new(a, SQLSIM_N_BINOP, 2);
    *cmp = *n; /* the comparison itself, moved under the OR */
    sqlsim_node **kids = sqlsim_arena_alloc(a, sizeof *kids * 2);
    kids[0] = cmp;
    kids[1] = isnull;
    n->kind = SQLSIM_N_OR;
    n->op = 0;
    n->flags = 0;
    n->kids = kids;
    n->nkids = 2;
    return 1;
  }
  case MUT_IN_NOTNULL: {
    sqlsim_node *sel = n->kids[1];
    sqlsim_node *col = tree_clone(a, sel->kids[SQLSIM_SEL_TARGETS]->kids[0]->kids[0]);
    sqlsim_node *test = tree_node_new(a, SQLSIM_N_ISNULL, 1);
    test->op = SQLSIM_NOTNULL;
    test->kids[0] = col;
    test->start = test->end = -1;
    sqlsim_node *w = sel->kids[SQLSIM_SEL_WHERE];
    if (!w) {
      sel->kids[SQLSIM_SEL_WHERE] = test;
    } else {
      sqlsim_node *and = tree_node_new(a, SQLSIM_N_AND, 2);
      and->kids[0] = w;
      and->kids[1] = test;
      and->start = and->end = -1;
      sel->kids[SQLSIM_SEL_WHERE] = and;
    }
    return 1;
  }
  case MUT_ELSE_DROP: n->kids[1] = NULL; return 1;
  case MUT_TOTAL: n->text = "total"; return 1;
  case MUT_DIV: {
    sqlsim_node *cast = tree_node_new(a, SQLSIM_N_CAST, 1);
    cast->text = "REAL";
    cast->kids[0] = n->kids[0];
    cast->start = cast->end = -1;
    n->kids[0] = cast;
    return 1;
  }
  }
  return 0;
}

/* ---------------------------------------------------------------- entry point */

int synth_neighbors(const sqlsim_query *gold, int max, synth_neighbor **out) {
  *out = NULL;
  if (!gold || !gold->root || max <= 0) return 0;
  site_ctx c = {.s = gold->schema};
  sqlsim_walk(gold->root, site_pre, site_post, &c);
  /* round the kinds: the first site of each kind, then the second, ... */
  int *order = malloc(sizeof *order * (size_t)(c.n + 1)), no = 0;
  unsigned char *taken = calloc((size_t)c.n + 1, 1);
  while (no < c.n) {
    int took = 0;
    for (int k = 0; k < MUT__KINDS; k++)
      for (int i = 0; i < c.n; i++)
        if (!taken[i] && c.v[i].kind == k) {
          taken[i] = 1;
          order[no++] = i;
          took = 1;
          break;
        }
    if (!took) break;
  }
  free(taken);
  char *base = sqlsim_print_sql(gold->root, 0);
  synth_neighbor *v = calloc((size_t)max, sizeof *v);
  int n = 0;
  for (int j = 0; j < no && n < max && base && v; j++) {
    const mutation *m = &c.v[order[j]];
    sqlsim_query *q = sqlsim_query_clone(gold);
    if (!q) break;
    char *sql = apply(q, m) ? sqlsim_print_sql(q->root, 0) : NULL;
    sqlsim_query_free(q);
    int dup = !sql || !strcmp(sql, base);
    for (int i = 0; i < n && !dup; i++) dup = !strcmp(v[i].sql, sql);
    if (dup) {
      free(sql);
      continue;
    }
    v[n].sql = sql;
    v[n].kind = mut_names[m->kind];
    n++;
  }
  free(base);
  free(order);
  free(c.v);
  *out = v;
  return n;
}

void synth_neighbors_free(synth_neighbor *v, int n) {
  for (int i = 0; i < n; i++) free(v[i].sql);
  free(v);
}
