/* normalize.c -- names resolved through the schema, commutative parts ordered.
 *
 * Two passes over a built tree:
 *  1. Resolution, one scope per SELECT: FROM items become numbered instances
 *     (a self-join keeps two), table names are looked up in the schema or the
 *     visible WITH tables, and every column is tied to the FROM item it reads
 *     (qualified through the alias, unqualified through the schema; an enclosing
 *     query's item for a correlated column; a select-list alias where SQLite
 *     allows one). A lone "word" in double quotes that names nothing becomes
 *     the string SQLite would read. What cannot be resolved is kept and flagged
 *     UNRESOLVED or AMBIGUOUS, never guessed.
 *  2. Canonical order, bottom-up: AND/OR chains flattened and sorted; operands
 *     of = <> IS + * & | sorted; < <= > >= turned to put the smaller operand
 *     left; IN lists sorted; x IS [NOT] NULL spelled IS [NOT] DISTINCT FROM NULL
 *     becomes the NULL test. Comparison is sqlsim_node_cmp(), which compares
 *     resolved columns by schema table and column, never by alias. Operands
 *     whose collations would change with their order (SQLite takes the left
 *     one's) are left alone.
 * Select lists and GROUP BY keep their order and are flagged UNORDERED. */
#include "build.h"
#include "tree.h"


#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- scopes */

typedef struct source {
  sqlsim_node *node;  /* TABLE, SUBQUERY or FUNCTABLE */
  const char *name;   /* alias, else the table name */
  int table;          /* schema table, -1 if none */
  sqlsim_node *body;  /* SELECT behind a SUBQUERY or a CTE reference */
  sqlsim_node *cte;   /* the CTE node, for CTE references */
} source;

typedef struct scope {
  struct scope *outer;
  source *src;
  int nsrc, cap;
  sqlsim_node *sel;   /* for select-list aliases */
  int clause;         /* which clause is being resolved (SQLSIM_SEL_*) */
  int compound;       /* ORDER BY of a compound: names are output columns */
} scope;

typedef struct norm_ctx {
  sqlsim_query *q;
  sqlsim_arena *a;
  const sqlsim_schema *schema;
  sqlsim_node **ctes; /* visible WITH tables, innermost last */
  int nctes, ctecap;
  uint32_t next_instance;
  scope *cur;
  long work; /* names compared so far: a hostile query can make resolution quadratic */
} norm_ctx;

/* Name comparisons one query may cost (the largest any Spider or BIRD query
 * needs is under 200); past it the query is refused rather than resolved for
 * minutes. */
#define NORM_WORK_LIMIT 20000000L

/* Charges n comparisons; 1 when the query is over its budget. */
static int over_budget(norm_ctx *c, long n) {
  c->work += n;
  return c->work > NORM_WORK_LIMIT;
}

static void resolve_select(norm_ctx *c, sqlsim_node *sel, scope *outer);

static void scope_add(norm_ctx *c, scope *s, source src) {
  s->src = arena_array_grow(c->a, s->src, s->nsrc, &s->cap, sizeof *s->src, 8);
  s->src[s->nsrc++] = src;
}

static sqlsim_node *find_cte(norm_ctx *c, const char *name) {
  if (over_budget(c, c->nctes)) return NULL;
  for (int i = c->nctes - 1; i >= 0; i--)
    if (!strcmp(c->ctes[i]->text, name)) return c->ctes[i];
  return NULL;
}

static void push_cte(norm_ctx *c, sqlsim_node *cte) {
  c->ctes = arena_array_grow(c->a, c->ctes, c->nctes, &c->ctecap, sizeof *c->ctes, 8);
  c->ctes[c->nctes++] = cte;
}

/* The leftmost plain SELECT of a set operation (it names the output). */
static sqlsim_node *leftmost_select(sqlsim_node *sel) {
  while (sel && sel->op != SQLSIM_SET_NONE && sel->kids[SQLSIM_SEL_LARG])
    sel = sel->kids[SQLSIM_SEL_LARG];
  return sel;
}

/* Output name of a select item, or NULL. */
static const char *target_name(const sqlsim_node *t) {
  if (t->text) return t->text;
  const sqlsim_node *e = t->kids[0];
  if (e && e->kind == SQLSIM_N_COLUMN) return e->text;
  return NULL;
}

/* Does the SELECT (with optional CTE column list) output a column `name`?
 * 1 yes, 0 no, -1 unknown (a * in the list). */
static int select_outputs(norm_ctx *c, sqlsim_node *sel, sqlsim_node *collist, const char *name) {
  if (over_budget(c, collist ? (long)collist->nkids : 1)) return -1;
  if (collist) {
    for (uint32_t i = 0; i < collist->nkids; i++)
      if (!strcmp(collist->kids[i]->text, name)) return 1;
    return 0;
  }
  sqlsim_node *s = sel;
  long links = 0;
  while (s && s->op != SQLSIM_SET_NONE && s->kids[SQLSIM_SEL_LARG]) s = s->kids[SQLSIM_SEL_LARG], links++;
  if (over_budget(c, links)) return -1;
  sqlsim_node *tl = s ? s->kids[SQLSIM_SEL_TARGETS] : NULL;
  if (!tl || over_budget(c, (long)tl->nkids)) return -1;
  int unknown = 0;
  for (uint32_t i = 0; i < tl->nkids; i++) {
    const sqlsim_node *t = tl->kids[i];
    if (t->kids[0] && t->kids[0]->kind == SQLSIM_N_STAR) unknown = 1;
    const char *nm = target_name(t);
    if (nm && !strcmp(nm, name)) return 1;
  }
  return unknown ? -1 : 0;
}

/* Does a source have a column `name`? 1, 0, or -1 when it cannot be known. */
static int source_has(norm_ctx *c, const source *s, const char *name, int *col) {
  *col = -1;
  if (s->table >= 0) {
    *col = sqlsim_schema_find_column(c->schema, s->table, name);
    if (*col >= 0) return 1;
    if (!strcmp(name, "rowid") || !strcmp(name, "oid") || !strcmp(name, "_rowid_")) return 1;
    return 0;
  }
  if (s->body) return select_outputs(c, s->body, s->cte ? s->cte->kids[1] : NULL, name);
  return -1; /* unknown table or table-valued function */
}

/* ---------------------------------------------------------------- FROM */

static void collect_from(norm_ctx *c, scope *s, sqlsim_node *n, scope *outer) {
  if (!n) return;
  switch (n->kind) {
  case SQLSIM_N_JOIN:
    collect_from(c, s, n->kids[0], outer);
    collect_from(c, s, n->kids[1], outer);
    break;
  case SQLSIM_N_TABLE: {
    source src = {n, n->alias ? n->alias : n->text, -1, NULL, NULL};
    n->instance = c->next_instance++;
    sqlsim_node *cte = find_cte(c, n->text);
    if (cte) {
      n->flags |= SQLSIM_F_CTEREF;
      n->source = cte;
      src.body = cte->kids[0];
      src.cte = cte;
    } else if (c->schema) {
      n->table = sqlsim_schema_find_table(c->schema, n->text);
      if (n->table < 0) {
        n->flags |= SQLSIM_F_UNRESOLVED;
        c->q->nunresolved++;
      }
      src.table = n->table;
    }
    scope_add(c, s, src);
    break;
  }
  case SQLSIM_N_SUBQUERY: {
    n->instance = c->next_instance++;
    /* A derived table sees the enclosing queries, not its siblings. */
    resolve_select(c, n->kids[0], outer);
    source src = {n, n->alias, -1, n->kids[0], NULL};
    scope_add(c, s, src);
    break;
  }
  case SQLSIM_N_FUNCTABLE: {
    n->instance = c->next_instance++;
    source src = {n, n->alias ? n->alias : n->kids[0]->text, -1, NULL, NULL};
    scope_add(c, s, src);
    break;
  }
  default:
    break;
  }
}

/* ---------------------------------------------------------------- columns */

static void flag(norm_ctx *c, sqlsim_node *n, uint32_t f) {
  if (!(n->flags & (SQLSIM_F_UNRESOLVED | SQLSIM_F_AMBIGUOUS)) &&
      (f & (SQLSIM_F_UNRESOLVED | SQLSIM_F_AMBIGUOUS)))
    c->q->nunresolved++;
  n->flags |= f;
}

/* A select-list alias named `name` in the scope's SELECT, or NULL. */
static sqlsim_node *find_alias(norm_ctx *c, scope *s, const char *name) {
  sqlsim_node *tl = s->sel ? s->sel->kids[SQLSIM_SEL_TARGETS] : NULL;
  if (tl && over_budget(c, (long)tl->nkids)) return NULL;
  for (uint32_t i = 0; tl && i < tl->nkids; i++) {
    const char *nm = s->compound ? target_name(tl->kids[i]) : tl->kids[i]->text;
    if (nm && !strcmp(nm, name)) return tl->kids[i];
  }
  return NULL;
}

static void bind(sqlsim_node *col, const source *src, int column) {
  col->source = src->node;
  col->table = src->table;
  col->column = column;
}

/* Resolves a qualified column t.x: returns 1 if t named a source. */
static int resolve_qualified(norm_ctx *c, sqlsim_node *col) {
  int depth = 0;
  for (scope *s = c->cur; s; s = s->outer, depth++) {
    if (over_budget(c, s->nsrc + 1)) return 1;
    for (int i = 0; i < s->nsrc; i++) {
      const source *src = &s->src[i];
      /* An alias hides the table name, as in SQLite. */
      if (!src->name || strcmp(src->name, col->alias) != 0) continue;
      int ci;
      int has = source_has(c, src, col->text, &ci);
      bind(col, src, ci);
      if (depth) col->flags |= SQLSIM_F_OUTER;
      if (has == 0 && (c->schema || src->body)) flag(c, col, SQLSIM_F_UNRESOLVED);
      return 1;
    }
  }
  return 0;
}

/* Turns a COLUMN into the string constant SQLite reads for "word". */
static void to_string(sqlsim_node *n) {
  n->kind = SQLSIM_N_CONST;
  n->op = SQLSIM_CONST_STRING;
  n->text = n->raw ? n->raw : n->text;
  n->source = NULL;
  n->table = n->column = -1;
}

static void resolve_column(norm_ctx *c, sqlsim_node *col) {
  if (col->alias) {
    if (!resolve_qualified(c, col)) flag(c, col, SQLSIM_F_UNRESOLVED);
    return;
  }
  scope *s0 = c->cur;
  /* ORDER BY: a bare select-list alias wins over a column (SQLite's rule). */
  if (s0 && s0->clause == SQLSIM_SEL_ORDER) {
    sqlsim_node *t = find_alias(c, s0, col->text);
    if (t) {
      col->flags |= SQLSIM_F_ALIASREF;
      col->source = t;
      return;
    }
  }
  int depth = 0;
  for (scope *s = s0; s; s = s->outer, depth++) {
    /* SQLite resolves GROUP BY terms in their own query only. */
    if (depth && s0->clause == SQLSIM_SEL_GROUP) break;
    if (over_budget(c, s->nsrc + 1)) return;
    int found = 0, unknown = 0;
    for (int i = 0; i < s->nsrc; i++) {
      int ci;
      int has = source_has(c, &s->src[i], col->text, &ci);
      if (has == 1) {
        if (!found) bind(col, &s->src[i], ci);
        found++;
      } else if (has < 0) {
        unknown++;
      }
    }
    if (found) {
      if (depth) col->flags |= SQLSIM_F_OUTER;
      if (found > 1) flag(c, col, SQLSIM_F_AMBIGUOUS);
      return;
    }
    if (unknown) {
      /* No schema for some item: attribute only when it is the only one. */
      if (s->nsrc == 1 && !depth) {
        col->source = s->src[0].node;
        return;
      }
      if (!c->schema) return;
    }
    /* WHERE, GROUP BY, HAVING may name a select-list alias after the columns. */
    if (!depth && s->clause != SQLSIM_SEL_TARGETS) {
      sqlsim_node *t = find_alias(c, s, col->text);
      if (t) {
        col->flags |= SQLSIM_F_ALIASREF;
        col->source = t;
        return;
      }
    }
  }
  if (col->flags & SQLSIM_F_DQSTRING) {
    to_string(col);
    return;
  }
  if (c->schema || (s0 && s0->nsrc)) flag(c, col, SQLSIM_F_UNRESOLVED);
}

static int resolve_pre(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  norm_ctx *c = ctx;
  switch (n->kind) {
  case SQLSIM_N_SELECT:
    resolve_select(c, n, c->cur);
    return SQLSIM_WALK_PRUNE;
  case SQLSIM_N_COLUMN:
    resolve_column(c, n);
    return SQLSIM_WALK_PRUNE;
  case SQLSIM_N_STAR:
    if (n->alias) {
      for (scope *s = c->cur; s && !over_budget(c, s->nsrc + 1); s = s->outer)
        for (int i = 0; i < s->nsrc; i++)
          if (s->src[i].name && !strcmp(s->src[i].name, n->alias)) {
            n->source = s->src[i].node;
            n->table = s->src[i].table;
            return SQLSIM_WALK_PRUNE;
          }
      flag(c, n, SQLSIM_F_UNRESOLVED);
    }
    return SQLSIM_WALK_PRUNE;
  default:
    return SQLSIM_WALK_CONTINUE;
  }
}

static void resolve_clause(norm_ctx *c, scope *s, int clause, sqlsim_node *n) {
  if (!n) return;
  scope *saved = c->cur;
  c->cur = s;
  s->clause = clause;
  sqlsim_walk(n, resolve_pre, NULL, c);
  c->cur = saved;
}

/* Resolves the ON/USING parts of the joins in a FROM tree. */
static void resolve_joins(norm_ctx *c, scope *s, sqlsim_node *n) {
  if (!n) return;
  if (n->kind == SQLSIM_N_JOIN) {
    resolve_joins(c, s, n->kids[0]);
    resolve_joins(c, s, n->kids[1]);
    resolve_clause(c, s, SQLSIM_SEL_FROM, n->kids[2]);
  } else if (n->kind == SQLSIM_N_FUNCTABLE) {
    resolve_clause(c, s, SQLSIM_SEL_FROM, n->kids[0]);
  }
}

static void resolve_select(norm_ctx *c, sqlsim_node *sel, scope *outer) {
  if (!sel) return;
  int saved_ctes = c->nctes;
  sqlsim_node *with = sel->kids[SQLSIM_SEL_WITH];
  if (with) {
    int recursive = (with->flags & SQLSIM_F_RECURSIVE) != 0;
    for (uint32_t i = 0; i < with->nkids; i++) {
      sqlsim_node *cte = with->kids[i];
      if (recursive) push_cte(c, cte);
      resolve_select(c, cte->kids[0], outer);
      if (!recursive) push_cte(c, cte);
    }
  }
  scope *s = sqlsim_arena_alloc(c->a, sizeof *s);
  s->outer = outer;
  s->sel = sel;
  if (sel->op != SQLSIM_SET_NONE) {
    resolve_select(c, sel->kids[SQLSIM_SEL_LARG], outer);
    resolve_select(c, sel->kids[SQLSIM_SEL_RARG], outer);
    /* ORDER BY of a compound names the output columns of its first SELECT. */
    s->sel = leftmost_select(sel);
    s->compound = 1;
    resolve_clause(c, s, SQLSIM_SEL_ORDER, sel->kids[SQLSIM_SEL_ORDER]);
    resolve_clause(c, s, SQLSIM_SEL_LIMIT, sel->kids[SQLSIM_SEL_LIMIT]);
    resolve_clause(c, s, SQLSIM_SEL_OFFSET, sel->kids[SQLSIM_SEL_OFFSET]);
    c->nctes = saved_ctes;
    return;
  }
  sqlsim_node *from = sel->kids[SQLSIM_SEL_FROM];
  for (uint32_t i = 0; from && i < from->nkids; i++) collect_from(c, s, from->kids[i], outer);
  for (uint32_t i = 0; from && i < from->nkids; i++) resolve_joins(c, s, from->kids[i]);
  static const int clauses[] = {SQLSIM_SEL_TARGETS, SQLSIM_SEL_WHERE,  SQLSIM_SEL_GROUP,
                                SQLSIM_SEL_HAVING,  SQLSIM_SEL_WINDOW, SQLSIM_SEL_ORDER,
                                SQLSIM_SEL_LIMIT,   SQLSIM_SEL_OFFSET, SQLSIM_SEL_VALUES, SQLSIM_SEL_DISTINCT_ON};
  for (size_t i = 0; i < sizeof clauses / sizeof clauses[0]; i++)
    resolve_clause(c, s, clauses[i], sel->kids[clauses[i]]);
  c->nctes = saved_ctes;
}

/* ---------------------------------------------------------------- ordering */

/* Rank of kinds in canonical order: columns first, literals last, so that
 * "col op value" is the usual written form. */
static int kind_rank(int kind) {
  switch (kind) {
  case SQLSIM_N_COLUMN: return 0;
  case SQLSIM_N_STAR: return 1;
  case SQLSIM_N_FUNC: return 2;
  case SQLSIM_N_CONST: return 9;
  case SQLSIM_N_PARAM: return 10;
  default: return 3 + (kind % 5);
  }
}

static int strcmp_null(const char *a, const char *b) {
  if (a == b) return 0;
  if (!a) return -1;
  if (!b) return 1;
  return strcmp(a, b);
}

#define CMP_FLAGS (SQLSIM_F_DISTINCT | SQLSIM_F_NOT | SQLSIM_F_ALL | SQLSIM_F_STAR | \
                   SQLSIM_F_NATURAL | SQLSIM_F_FILTER)

int sqlsim_node_cmp(const sqlsim_node *a, const sqlsim_node *b) {
  if (a == b) return 0;
  if (!a) return -1;
  if (!b) return 1;
  int d = kind_rank(a->kind) - kind_rank(b->kind);
  if (d) return d;
  if (a->kind != b->kind) return (int)a->kind - (int)b->kind;
  if (a->op != b->op) return (int)a->op - (int)b->op;
  if ((a->flags & CMP_FLAGS) != (b->flags & CMP_FLAGS))
    return (int)(a->flags & CMP_FLAGS) - (int)(b->flags & CMP_FLAGS);
  switch (a->kind) {
  case SQLSIM_N_COLUMN:
    if (a->table >= 0 && b->table >= 0) {
      if (a->table != b->table) return a->table - b->table;
      if (a->column != b->column) return a->column - b->column;
      uint32_t ia = a->source ? a->source->instance : 0, ib = b->source ? b->source->instance : 0;
      return ia < ib ? -1 : ia > ib;
    }
    if ((a->table >= 0) != (b->table >= 0)) return a->table >= 0 ? -1 : 1;
    d = strcmp_null(a->text, b->text);
    if (d) return d;
    return strcmp_null(a->alias, b->alias);
  case SQLSIM_N_TABLE:
  case SQLSIM_N_SUBQUERY:
  case SQLSIM_N_TARGET:
    break; /* aliases do not count */
  case SQLSIM_N_CONST:
    /* 5 and 5.0 stay apart: SQLite can tell them apart in output. */
    return strcmp_null(a->text, b->text);
  default:
    d = strcmp_null(a->text, b->text);
    if (d) return d;
  }
  if (a->kind == SQLSIM_N_TABLE) {
    d = strcmp_null(a->text, b->text);
    if (d) return d;
  }
  if (a->nkids != b->nkids) return (int)a->nkids - (int)b->nkids;
  for (uint32_t i = 0; i < a->nkids; i++) {
    d = sqlsim_node_cmp(a->kids[i], b->kids[i]);
    if (d) return d;
  }
  return 0;
}

static int cmp_ptr(const void *x, const void *y) {
  return sqlsim_node_cmp(*(sqlsim_node *const *)x, *(sqlsim_node *const *)y);
}

/* Explicit COLLATE of an operand, else NULL. */
static const char *explicit_coll(const sqlsim_node *n) {
  return n && n->kind == SQLSIM_N_COLLATE ? n->text : NULL;
}
/* Declared collation of a column operand, else NULL. */
static const char *column_coll(const sqlsim_schema *s, const sqlsim_node *n) {
  if (!s || !n || n->kind != SQLSIM_N_COLUMN || n->column < 0) return NULL;
  return s->columns[n->column].collation;
}

/* Would swapping l and r change the collation SQLite picks for l op r? */
static int collation_pins_order(const sqlsim_schema *s, const sqlsim_node *l,
                                const sqlsim_node *r) {
  const char *el = explicit_coll(l), *er = explicit_coll(r);
  if (el && er) return strcmp(el, er) != 0;
  if (el || er) return 0;
  const char *cl = column_coll(s, l), *cr = column_coll(s, r);
  if (cl && cr) return strcmp(cl, cr) != 0;
  if (cl || cr) return (cl && r && r->kind == SQLSIM_N_COLUMN) || (cr && l && l->kind == SQLSIM_N_COLUMN);
  return 0;
}

static void flatten_and_or(norm_ctx *c, sqlsim_node *n) {
  uint32_t total = 0;
  for (uint32_t i = 0; i < n->nkids; i++)
    total += n->kids[i]->kind == n->kind ? n->kids[i]->nkids : 1;
  if (total == n->nkids) return;
  sqlsim_node **k = sqlsim_arena_alloc(c->a, sizeof *k * total);
  uint32_t j = 0;
  for (uint32_t i = 0; i < n->nkids; i++) {
    sqlsim_node *x = n->kids[i];
    if (x->kind == n->kind)
      for (uint32_t m = 0; m < x->nkids; m++) k[j++] = x->kids[m];
    else
      k[j++] = x;
  }
  n->kids = k;
  n->nkids = total;
}

static int canon_post(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  norm_ctx *c = ctx;
  switch (n->kind) {
  case SQLSIM_N_AND:
  case SQLSIM_N_OR:
    flatten_and_or(c, n);
    qsort(n->kids, n->nkids, sizeof *n->kids, cmp_ptr);
    break;
  case SQLSIM_N_BINOP: {
    int op = n->op;
    int commutative = op == SQLSIM_OP_EQ || op == SQLSIM_OP_NE || op == SQLSIM_OP_IS ||
                      op == SQLSIM_OP_ISNOT || op == SQLSIM_OP_ADD || op == SQLSIM_OP_MUL ||
                      op == SQLSIM_OP_BITAND || op == SQLSIM_OP_BITOR;
    int ordering = op == SQLSIM_OP_LT || op == SQLSIM_OP_LE || op == SQLSIM_OP_GT ||
                   op == SQLSIM_OP_GE;
    if (n->nkids != 2 || !(commutative || ordering)) break;
    sqlsim_node *l = n->kids[0], *r = n->kids[1];
    /* x IS NULL written as IS [NOT] DISTINCT FROM NULL: one form. */
    if ((op == SQLSIM_OP_IS || op == SQLSIM_OP_ISNOT) &&
        ((r->kind == SQLSIM_N_CONST && r->op == SQLSIM_CONST_NULL) ||
         (l->kind == SQLSIM_N_CONST && l->op == SQLSIM_CONST_NULL))) {
      sqlsim_node *x = (r->kind == SQLSIM_N_CONST && r->op == SQLSIM_CONST_NULL) ? l : r;
      n->kind = SQLSIM_N_ISNULL;
      n->op = op == SQLSIM_OP_IS ? SQLSIM_ISNULL : SQLSIM_NOTNULL;
      n->kids[0] = x;
      n->nkids = 1;
      break;
    }
    if (sqlsim_node_cmp(l, r) <= 0) break;
    int compare = op != SQLSIM_OP_ADD && op != SQLSIM_OP_MUL && op != SQLSIM_OP_BITAND &&
                  op != SQLSIM_OP_BITOR;
    if (compare && collation_pins_order(c->schema, l, r)) break;
    n->kids[0] = r;
    n->kids[1] = l;
    n->op = (uint16_t)tree_op_mirror(op);
    n->flags |= SQLSIM_F_SWAPPED;
    break;
  }
  case SQLSIM_N_IN:
    if (n->kids[1]) qsort(n->kids[1]->kids, n->kids[1]->nkids, sizeof(sqlsim_node *), cmp_ptr);
    break;
  default:
    break;
  }
  if (n->flags & SQLSIM_F_DIALECT) c->q->ndialect++;
  return SQLSIM_WALK_CONTINUE;
}

void tree_reorder(sqlsim_query *q) {
  norm_ctx c = {0};
  c.q = q;
  c.a = q->arena;
  c.schema = q->schema;
  int nd = q->ndialect;
  sqlsim_walk(q->root, NULL, canon_post, &c);
  q->ndialect = nd;
}

int parse_normalize(sqlsim_query *q, sqlsim_error *err) {
  norm_ctx c = {0};
  c.q = q;
  c.a = q->arena;
  c.schema = q->schema;
  resolve_select(&c, q->root, NULL);
  if (c.work > NORM_WORK_LIMIT)
    return sqlsim_error_set(err, SQLSIM_EUNSUPPORTED, 0,
                            "too many names to resolve (over %ld name comparisons, sqlsim's limit for one query)",
                            NORM_WORK_LIMIT);
  sqlsim_walk(q->root, NULL, canon_post, &c);
  return 0;
}
