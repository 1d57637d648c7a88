/* facts.c -- what a pair of queries needs from generated data.
 *
 * One walk over each normalized tree (sqlsim_walk, pre and post callbacks)
 * collects: the tables either query reads; every literal compared with a
 * column (=, <>, <, <=, >, >=, LIKE, GLOB, IN lists, BETWEEN, the column
 * possibly inside a function such as lower() or a CAST; through strftime() or
 * substr() the literal is those fields of a date), with the SELECT it
 * belongs to as its group, so the generator can plant one SELECT's literals in
 * one row; the columns grouped by or counted distinct (their values should
 * repeat), sorted by or under MAX/MIN (ties matter), summed or averaged; and
 * the largest number a COUNT is compared with (HAVING count(*) > 3 needs a
 * group of four); the joins between columns no foreign key links (Spider's
 * schemas leave many out), which then serve as keys. Foreign keys then carry each literal on a referencing
 * column to the referenced one, so a planted child value has its parent. */
#include "synth.h"

#include "parser/tree.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 64 /* SELECT nesting followed for groups; deeper ones share a group */

typedef struct walk_ctx {
  synth_facts *f;
  int is_gold;
  int stack[MAX_DEPTH];
  int depth;
} walk_ctx;

static int column_of(const sqlsim_node *n, int depth);
static const char *literal_of(synth_facts *f, const sqlsim_node *n, int *num);

static uint64_t fact_hash(const synth_fact *x) {
  uint64_t h = FNV_OFFSET ^ ((uint64_t)(unsigned)x->column << 32 | (unsigned)x->op);
  h = fnv1a_word(h, (uint64_t)(unsigned)x->group);
  h = fnv1a_word(h, (uint64_t)(unsigned)x->sub);
  return mix64(fnv1a_str(fnv1a_str(h, x->text), x->fmt));
}

static int same_fact(const synth_fact *x, const synth_fact *y) {
  return x->column == y->column && x->op == y->op && x->group == y->group && !strcmp(x->text, y->text) &&
         x->sub == y->sub && !x->fmt == !y->fmt && (!x->fmt || !strcmp(x->fmt, y->fmt));
}

/* The slot of f->seen where fact y is, or the empty one where it would go. */
static int seen_slot(const synth_facts *f, const synth_fact *y) {
  int mask = f->seen_cap - 1, j = (int)(fact_hash(y) & (uint64_t)mask);
  while (f->seen[j] >= 0 && !same_fact(&f->facts[f->seen[j]], y)) j = (j + 1) & mask;
  return j;
}

static void add_fact_as(synth_facts *f, synth_fact y) {
  if (y.column < 0 || y.column >= f->schema->ncolumns || !y.text) return;
  if (2 * (f->nfacts + 1) > f->seen_cap) { /* rehash at half full */
    f->seen_cap = f->seen_cap ? 2 * f->seen_cap : 64;
    f->seen = sqlsim_arena_alloc(f->arena, sizeof *f->seen * (size_t)f->seen_cap);
    for (int j = 0; j < f->seen_cap; j++) f->seen[j] = -1;
    for (int i = 0; i < f->nfacts; i++) f->seen[seen_slot(f, &f->facts[i])] = i;
  }
  int j = seen_slot(f, &y);
  if (f->seen[j] >= 0) return; /* the same literal on the same column once per group */
  f->facts = arena_array_grow(f->arena, f->facts, f->nfacts, &f->cap, sizeof *f->facts, 16);
  f->seen[j] = f->nfacts;
  f->facts[f->nfacts++] = y;
}

/* How a comparison operand reads its column: through strftime(fmt, ...)
 * (*fmt) or substr(..., start, ...) (*sub), under casts; else neither. */
static void access_of(const sqlsim_node *n, const char **fmt, int *sub) {
  *fmt = NULL;
  *sub = 0;
  while (n && (n->kind == SQLSIM_N_CAST || n->kind == SQLSIM_N_COLLATE || n->kind == SQLSIM_N_UNOP) && n->nkids)
    n = n->kids[0];
  if (!n || n->kind != SQLSIM_N_FUNC || !n->text || !n->nkids || !n->kids[0] || n->kids[0]->nkids < 2) return;
  const sqlsim_node *a0 = n->kids[0]->kids[0], *a1 = n->kids[0]->kids[1];
  if (!strcmp(n->text, "strftime") && a0->kind == SQLSIM_N_CONST && a0->op == SQLSIM_CONST_STRING)
    *fmt = a0->text;
  else if ((!strcmp(n->text, "substr") || !strcmp(n->text, "substring")) && a1->kind == SQLSIM_N_CONST &&
           a1->op == SQLSIM_CONST_INT) {
    long v = strtol(a1->text, NULL, 10);
    if (v >= 1 && v <= 32) *sub = (int)v;
  }
}

/* Text that starts with a year and a month as dates are written (YYYY-MM). */
static int date_prefix(const char *t) {
  for (int i = 0; i < 7; i++)
    if (i == 4 ? t[i] != '-' : !(t[i] >= '0' && t[i] <= '9')) return 0;
  return 1;
}

static void add_fact(walk_ctx *c, const sqlsim_node *operand, int op, int num, const char *text, int group) {
  synth_facts *f = c->f;
  synth_fact y = {.column = column_of(operand, 0), .op = op, .num = num, .text = text, .group = group,
                  .gold = c->is_gold};
  access_of(operand, &y.fmt, &y.sub);
  /* the gold compares the column, or its first characters, with a date
   * (substr(d, 1, 7) BETWEEN '2008-08' AND '2008-10', d LIKE '2015-05-01%'):
   * it holds dates, as where the gold reads it with a date function */
  if (c->is_gold && y.column >= 0 && y.column < f->schema->ncolumns && !num && !y.fmt && y.sub <= 1 &&
      date_prefix(text)) {
    f->role[y.column] |= SYNTH_DATE;
    /* substr(d, 1, 10) = '2014-09-18', d LIKE '2015-05-01%': a time follows the date */
    size_t n = strlen(text);
    if ((y.sub == 1 && n == 10) || (op == SQLSIM_OP_LIKE && n == 11 && text[10] == '%'))
      f->role[y.column] |= SYNTH_TIME;
  }
  add_fact_as(f, y);
  /* one column in arithmetic with a number, compared with the literal (x / 60
   * <= 5, x * 2 > 100, x - 1 = 9): the column's own boundary planted too,
   * where the arithmetic meets the literal (300, and 359 where an integer
   * division still gives 5), so that a query writing the boundary out (x <=
   * 300) meets a value on each side of it */
  const sqlsim_node *ar = operand;
  while (ar && (ar->kind == SQLSIM_N_CAST || ar->kind == SQLSIM_N_COLLATE) && ar->nkids) ar = ar->kids[0];
  if (num && ar && ar->kind == SQLSIM_N_BINOP && ar->nkids == 2 && ar->op >= SQLSIM_OP_ADD && ar->op <= SQLSIM_OP_DIV &&
      y.column >= 0) {
    int at = column_of(ar->kids[0], 0) == y.column && ar->kids[0]->kind == SQLSIM_N_COLUMN ? 1 : 0;
    int other_num = 0;
    const char *k = at == 1 || ar->kids[0]->kind != SQLSIM_N_COLUMN ? literal_of(f, ar->kids[at], &other_num) : NULL;
    double L = strtod(text, NULL), K = k ? strtod(k, NULL) : 0;
    if (k && other_num && at == 1 && isfinite(L) && isfinite(K) && fabs(L) < 1e15 && fabs(K) < 1e15) {
      double b[2];
      int nb = 1;
      switch (ar->op) {
      case SQLSIM_OP_ADD: b[0] = L - K; break;
      case SQLSIM_OP_SUB: b[0] = L + K; break;
      case SQLSIM_OP_MUL: if (K == 0) nb = 0; else b[0] = L / K; break;
      default: /* division: the bucket's two ends, as integers divide */
        if (K == 0) nb = 0;
        else {
          b[0] = L * K;
          b[1] = L * K + (K > 0 ? K - 1 : K + 1);
          nb = 2;
        }
      }
      for (int i = 0; i < nb; i++) {
        char *t = b[i] == floor(b[i]) && fabs(b[i]) < 9e15 ? sqlsim_arena_printf(f->arena, "%lld", (long long)b[i])
                                                            : sqlsim_arena_printf(f->arena, "%.17g", b[i]);
        add_fact_as(f, (synth_fact){.column = y.column, .op = op, .num = 1, .text = t, .group = group,
                                    .gold = c->is_gold});
      }
    }
  }
  /* two columns in arithmetic compared with the literal (a / b > 29, a - b >
   * 30): the second takes the operator's identity in the same row (b = 1
   * for * and /, 0 for + and -), so the literal planted on the first decides
   * the comparison there as it would alone. On about half the databases (a
   * bit of each one's seed): on the others b is free, or `Price * Amount =
   * 548.4` would pass for `Price = 548.4` everywhere the literal is */
  const sqlsim_node *e = operand;
  while (e && (e->kind == SQLSIM_N_CAST || e->kind == SQLSIM_N_COLLATE) && e->nkids) e = e->kids[0];
  if (e && e->kind == SQLSIM_N_BINOP && e->nkids == 2 && e->op >= SQLSIM_OP_ADD && e->op <= SQLSIM_OP_DIV) {
    int c0 = column_of(e->kids[0], 0), c1 = column_of(e->kids[1], 0);
    if (c0 >= 0 && c1 >= 0 && c0 != c1 && c0 == y.column)
      add_fact_as(f, (synth_fact){.column = c1, .op = SQLSIM_OP_EQ, .num = 1,
                                  .text = e->op == SQLSIM_OP_MUL || e->op == SQLSIM_OP_DIV ? "1" : "0",
                                  .group = group, .gold = c->is_gold, .identity = 1});
  }
}

static int date_function(const char *name) {
  static const char *const names[] = {"strftime", "date", "datetime", "julianday", "time", "unixepoch", NULL};
  for (int i = 0; names[i]; i++)
    if (!strcmp(name, names[i])) return 1;
  return 0;
}

/* The schema column a comparison operand reads: a column, or one inside a
 * function, CAST or COLLATE over it (lower(name) = 'x'). -1 when none. */
static int column_of(const sqlsim_node *n, int depth) {
  if (!n || depth > 4) return -1;
  switch (n->kind) {
  case SQLSIM_N_COLUMN: return n->column;
  case SQLSIM_N_CAST:
  case SQLSIM_N_COLLATE:
  case SQLSIM_N_UNOP: return column_of(n->kids[0], depth + 1);
  case SQLSIM_N_FUNC:
    if (n->nkids && n->kids[0] && n->kids[0]->kind == SQLSIM_N_LIST)
      for (uint32_t i = 0; i < n->kids[0]->nkids; i++) {
        int c = column_of(n->kids[0]->kids[i], depth + 1);
        if (c >= 0) return c;
      }
    return -1;
  case SQLSIM_N_BINOP: { /* col + 1, col || 'x' */
    int c = column_of(n->kids[0], depth + 1);
    return c >= 0 ? c : n->nkids > 1 ? column_of(n->kids[1], depth + 1) : -1;
  }
  default: return -1;
  }
}

/* A literal operand: its text (a negative number with its sign) and whether
 * it is a number. NULL when n is not a number or string literal. */
static const char *literal_of(synth_facts *f, const sqlsim_node *n, int *num) {
  if (!n) return NULL;
  if (n->kind == SQLSIM_N_UNOP && n->op == SQLSIM_OP_NEG && n->nkids && n->kids[0] &&
      n->kids[0]->kind == SQLSIM_N_CONST &&
      (n->kids[0]->op == SQLSIM_CONST_INT || n->kids[0]->op == SQLSIM_CONST_FLOAT)) {
    *num = 1;
    return sqlsim_arena_printf(f->arena, "-%s", n->kids[0]->text);
  }
  if (n->kind != SQLSIM_N_CONST || !n->text) return NULL;
  if (n->op == SQLSIM_CONST_INT || n->op == SQLSIM_CONST_FLOAT) *num = 1;
  else if (n->op == SQLSIM_CONST_STRING) *num = 0;
  else return NULL;
  return n->text;
}

static int is_count(const sqlsim_node *n) {
  return n && n->kind == SQLSIM_N_FUNC && n->text && !strcmp(n->text, "count");
}

static int comparison(int op) {
  switch (op) {
  case SQLSIM_OP_EQ: case SQLSIM_OP_NE: case SQLSIM_OP_LT: case SQLSIM_OP_LE: case SQLSIM_OP_GT:
  case SQLSIM_OP_GE: case SQLSIM_OP_IS: case SQLSIM_OP_ISNOT: case SQLSIM_OP_LIKE: case SQLSIM_OP_NOTLIKE:
  case SQLSIM_OP_GLOB: case SQLSIM_OP_NOTGLOB: case SQLSIM_OP_ILIKE: case SQLSIM_OP_NOTILIKE:
    return 1;
  default: return 0;
  }
}

static void mark_columns(synth_facts *f, const sqlsim_node *n, unsigned role, int depth) {
  if (!n || depth > 32) return;
  if (n->kind == SQLSIM_N_COLUMN && n->column >= 0 && n->column < f->schema->ncolumns) f->role[n->column] |= role;
  if (n->kind == SQLSIM_N_SELECT || n->kind == SQLSIM_N_SUBLINK) return;
  for (uint32_t i = 0; i < n->nkids; i++) mark_columns(f, n->kids[i], role, depth + 1);
}

/* A join between two columns of different FROM items becomes a key: the
 * unique (or primary key) side is the parent, else the left one. */
static void add_link(synth_facts *f, const sqlsim_node *l, const sqlsim_node *r, int is_gold) {
  const sqlsim_schema *s = f->schema;
  if (!l || !r || l->kind != SQLSIM_N_COLUMN || r->kind != SQLSIM_N_COLUMN) return;
  int a = l->column, b = r->column;
  if (a < 0 || b < 0 || a >= s->ncolumns || b >= s->ncolumns || a == b) return;
  int child = a, parent = b;
  if (s->columns[a].unique && !s->columns[b].unique) child = b, parent = a;
  int ta = s->columns[a].table, tb = s->columns[b].table;
  for (int k = 0; k < f->nkeys; k++) { /* a key already links them, either way */
    int x = f->keys[k].column, y = f->keys[k].ref_column;
    if ((x == a && y == b) || (x == b && y == a)) return;
    if (x == child) return; /* one parent per column */
    /* the prediction joins two tables the schema or the gold already links
     * on other columns: the data follow that key, not the prediction's */
    int tx = s->columns[x].table, ty = s->columns[y].table;
    if (!is_gold && ((tx == ta && ty == tb) || (tx == tb && ty == ta))) return;
  }
  if (f->nkeys >= s->nfkeys + 64) return;
  f->keys[f->nkeys++] = (sqlsim_fkey){.column = child, .ref_column = parent};
}

/* The schema tables a FROM subtree names (a CTE or subquery is not one). */
static int tables_under(const sqlsim_node *n, int *out, int k, int max, int depth) {
  if (!n || depth > 32) return k;
  if (n->kind == SQLSIM_N_TABLE) {
    if (n->table >= 0 && k < max) out[k++] = n->table;
    return k;
  }
  if (n->kind != SQLSIM_N_JOIN) return k;
  k = tables_under(n->kids[0], out, k, max, depth + 1);
  return tables_under(n->kids[1], out, k, max, depth + 1);
}

/* JOIN .. USING (x, ..) and NATURAL JOIN: each named (or shared) column
 * joins the right side's table to the left side's table holding it, as ON
 * l.x = r.x does. */
struct using_ctx {
  synth_facts *f;
  int is_gold;
};

static void link_pair(int l, int lc, int r, int rc, void *ctx) {
  (void)l, (void)r;
  struct using_ctx *u = ctx;
  sqlsim_node a = {.kind = SQLSIM_N_COLUMN, .column = lc}, b = {.kind = SQLSIM_N_COLUMN, .column = rc};
  add_link(u->f, &a, &b, u->is_gold);
}

static void add_using(synth_facts *f, const sqlsim_node *j, int is_gold) {
  int left[16], right[16];
  int nl = tables_under(j->kids[0], left, 0, 16, 0), nr = tables_under(j->kids[1], right, 0, 16, 0);
  struct using_ctx u = {f, is_gold};
  tree_join_pairs(f->schema, j, left, nl, right, nr, link_pair, &u);
}

/* Two columns compared with each other (a.t < b.t, first_name = last_name,
 * through casts and functions): the search makes them equal (ties on a
 * timestamp, two columns of a row coinciding). */
static void add_compared(synth_facts *f, const sqlsim_node *l, const sqlsim_node *r) {
  int a = column_of(l, 0), b = column_of(r, 0);
  if (a < 0 || b < 0 || a >= f->schema->ncolumns || b >= f->schema->ncolumns) return;
  for (int i = 0; i < f->ncompared; i++)
    if ((f->compared[i].a == a && f->compared[i].b == b) || (f->compared[i].a == b && f->compared[i].b == a)) return;
  if (f->ncompared >= 32) return;
  f->compared = arena_array_grow(f->arena, f->compared, f->ncompared, &f->compared_cap, sizeof *f->compared, 4);
  f->compared[f->ncompared++] = (struct synth_compared){a, b};
}

static void count_threshold(synth_facts *f, const sqlsim_node *lit) {
  int num = 0;
  const char *t = literal_of(f, lit, &num);
  if (!t || !num) return;
  long v = strtol(t, NULL, 10);
  if (v > f->count_threshold && v <= 50) f->count_threshold = (int)v;
}

/* The one column a subquery returns (SELECT x FROM ..), or NULL. */
static const sqlsim_node *sub_column(const sqlsim_node *sel) {
  if (!sel || sel->kind != SQLSIM_N_SELECT || sel->nkids <= SQLSIM_SEL_TARGETS) return NULL;
  const sqlsim_node *t = sel->kids[SQLSIM_SEL_TARGETS];
  if (!t || t->nkids != 1) return NULL;
  t = t->kids[0];
  while (t && t->kind == SQLSIM_N_TARGET && t->nkids) t = t->kids[0];
  return t && t->kind == SQLSIM_N_COLUMN ? t : NULL;
}

/* A lookup (tree_lookup: x IN (SELECT y ..) or x = (SELECT y ..), not NOT
 * IN, whose rows are the ones this SELECT's must miss), x and y columns: the
 * subquery's SELECT (the next one the walk numbers: x holds none) joins this
 * one. */
static void note_subquery(walk_ctx *c, int group, const sqlsim_node *col, const sqlsim_node *sel) {
  synth_facts *f = c->f;
  if (!col || col->kind != SQLSIM_N_COLUMN || !sub_column(sel) || f->nsub >= 64 || c->depth >= MAX_DEPTH) return;
  f->sub = arena_array_grow(f->arena, f->sub, f->nsub, &f->sub_cap, sizeof *f->sub, 8);
  f->sub[f->nsub++] = (struct synth_pair){group, f->ngroups};
}

/* instr(x, ':'): x is searched for a colon. */
static int colon_searched(const sqlsim_node *n) {
  const sqlsim_node *args = n->kids[0], *s = args && args->nkids == 2 ? args->kids[1] : NULL;
  return !strcmp(n->text, "instr") && s && s->kind == SQLSIM_N_CONST && s->op == SQLSIM_CONST_STRING && s->text &&
         !strcmp(s->text, ":");
}

static int pre(sqlsim_node *n, sqlsim_node *parent, void *arg) {
  walk_ctx *c = arg;
  synth_facts *f = c->f;
  /* the innermost SELECT followed (deeper ones, a long UNION chain's arms
   * among them, share the group of the last one followed) */
  int group = c->depth ? c->stack[(c->depth < MAX_DEPTH ? c->depth : MAX_DEPTH) - 1] : 0;
  const sqlsim_node *looked, *sub;
  if (tree_lookup(n, &looked, &sub)) note_subquery(c, group, looked, sub);
  switch (n->kind) {
  case SQLSIM_N_SELECT:
    if (c->depth < MAX_DEPTH) c->stack[c->depth] = f->ngroups++;
    c->depth++;
    mark_columns(f, n->kids[SQLSIM_SEL_GROUP], SYNTH_GROUP, 0);
    mark_columns(f, n->kids[SQLSIM_SEL_ORDER], SYNTH_ORDER, 0);
    break;
  case SQLSIM_N_TABLE:
    if (n->table >= 0 && n->table < f->schema->ntables) {
      f->tables[n->table] = 1;
      if (c->is_gold) f->gold_tables[n->table] = 1;
    }
    break;
  case SQLSIM_N_JOIN:
    if ((n->nkids > 3 && n->kids[3]) || (n->flags & SQLSIM_F_NATURAL)) add_using(f, n, c->is_gold);
    break;
  case SQLSIM_N_COLUMN:
    if (n->column >= 0 && n->column < f->schema->ncolumns) {
      f->role[n->column] |= SYNTH_READ;
      f->tables[f->schema->columns[n->column].table] = 1;
    }
    break;
  case SQLSIM_N_FUNC:
    if (n->text && n->nkids) {
      if ((!strcmp(n->text, "count") && (n->flags & SQLSIM_F_DISTINCT)))
        mark_columns(f, n->kids[0], SYNTH_GROUP, 0);
      else if (!strcmp(n->text, "max") || !strcmp(n->text, "min"))
        mark_columns(f, n->kids[0], SYNTH_ORDER, 0);
      else if (!strcmp(n->text, "sum") || !strcmp(n->text, "avg"))
        mark_columns(f, n->kids[0], SYNTH_AGG, 0);
      else if (c->is_gold && date_function(n->text))
        mark_columns(f, n->kids[0], SYNTH_DATE, 0);
      else if (c->is_gold && colon_searched(n))
        mark_columns(f, n->kids[0]->kids[0], SYNTH_CLOCK, 0); /* instr(x, ':'): x holds m:ss times */
    }
    break;
  case SQLSIM_N_BINOP:
    if (n->op == SQLSIM_OP_EQ && n->nkids >= 2) add_link(f, n->kids[0], n->kids[1], c->is_gold);
    if (comparison(n->op) && n->nkids >= 2) add_compared(f, n->kids[0], n->kids[1]);
    if (comparison(n->op) && n->nkids >= 2) {
      int num = 0, op = n->op == SQLSIM_OP_IS ? SQLSIM_OP_EQ : n->op == SQLSIM_OP_ISNOT ? SQLSIM_OP_NE : n->op;
      const char *lit;
      if ((lit = literal_of(f, n->kids[1], &num))) {
        if (is_count(n->kids[0])) count_threshold(f, n->kids[1]);
        else add_fact(c, n->kids[0], op, num, lit, group);
      } else if ((lit = literal_of(f, n->kids[0], &num))) {
        if (is_count(n->kids[1])) count_threshold(f, n->kids[0]);
        else add_fact(c, n->kids[1], tree_op_mirror(op) /* seen from the column's side */, num, lit, group);
      }
    }
    break;
  case SQLSIM_N_ISNULL:
    /* the gold's x IS [NOT] NULL: its author says x can be NULL, and the test
     * says nothing on data without NULLs (a prediction's own test does not
     * put NULLs where the gold never looked for them) */
    if (c->is_gold) {
      mark_columns(f, n->kids[0], SYNTH_NULLS, 0);
      int col = n->kids[0] && n->kids[0]->kind == SQLSIM_N_COLUMN ? n->kids[0]->column : -1;
      if (col >= 0 && col < f->schema->ncolumns && f->nnulls < 64) {
        f->nulls = arena_array_grow(f->arena, f->nulls, f->nnulls, &f->nulls_cap, sizeof *f->nulls, 8);
        f->nulls[f->nnulls++] = (struct synth_null){col, group, n->op == SQLSIM_ISNULL};
      }
    }
    break;
  case SQLSIM_N_IN:
    if (n->nkids >= 2 && n->kids[1] && n->kids[1]->kind == SQLSIM_N_LIST) {
      for (uint32_t i = 0; i < n->kids[1]->nkids; i++) {
        int num = 0;
        const char *lit = literal_of(f, n->kids[1]->kids[i], &num);
        if (lit) add_fact(c, n->kids[0], SQLSIM_OP_EQ, num, lit, group);
      }
    }
    break;
  case SQLSIM_N_BETWEEN:
    if (n->nkids >= 3) {
      int num = 0;
      const char *lo = literal_of(f, n->kids[1], &num);
      if (lo) add_fact(c, n->kids[0], SQLSIM_OP_GE, num, lo, group);
      const char *hi = literal_of(f, n->kids[2], &num);
      if (hi) add_fact(c, n->kids[0], SQLSIM_OP_LE, num, hi, group);
    }
    break;
  default: break;
  }
  (void)parent;
  return SQLSIM_WALK_CONTINUE;
}

static int post(sqlsim_node *n, sqlsim_node *parent, void *arg) {
  (void)parent;
  walk_ctx *c = arg;
  if (n->kind == SQLSIM_N_SELECT) c->depth--;
  return SQLSIM_WALK_CONTINUE;
}

/* A literal on a referencing column must exist on the referenced one; tables
 * whose rows a read table's keys point at are generated too. */
static void follow_keys(synth_facts *f) {
  const sqlsim_schema *s = f->schema;
  for (int round = 0; round < 8; round++) {
    int changed = 0;
    for (int k = 0; k < f->nkeys; k++) {
      int from = f->keys[k].column, to = f->keys[k].ref_column;
      if (from < 0 || to < 0 || from >= s->ncolumns || to >= s->ncolumns) continue;
      int n = f->nfacts;
      for (int i = 0; i < n; i++) {
        synth_fact x = f->facts[i];
        if (x.column != from) continue;
        int before = f->nfacts;
        x.column = to;
        add_fact_as(f, x);
        changed |= f->nfacts != before;
      }
    }
    if (!changed) break;
  }
}

static int find_root(int *r, int g) {
  while (r[g] != g) g = r[g] = r[r[g]];
  return g;
}

/* f->related from the subquery joins: one representative per set. */
static void relate_groups(synth_facts *f) {
  f->related = sqlsim_arena_alloc(f->arena, sizeof *f->related * (size_t)(f->ngroups + 1));
  for (int g = 0; g < f->ngroups; g++) f->related[g] = g;
  for (int i = 0; i < f->nsub; i++) {
    int a = f->sub[i].outer, b = f->sub[i].inner;
    if (a < 0 || b < 0 || a >= f->ngroups || b >= f->ngroups) continue;
    f->related[find_root(f->related, a)] = find_root(f->related, b);
  }
  for (int g = 0; g < f->ngroups; g++) f->related[g] = find_root(f->related, g);
}

synth_facts *synth_facts_read(const sqlsim_schema *s, const sqlsim_query *gold, const sqlsim_query *pred) {
  sqlsim_arena *a = sqlsim_arena_new();
  if (!a) return NULL;
  synth_facts *f = sqlsim_arena_alloc(a, sizeof *f);
  f->arena = a;
  f->schema = s;
  f->tables = sqlsim_arena_alloc(a, (size_t)s->ntables + 1);
  f->gold_tables = sqlsim_arena_alloc(a, (size_t)s->ntables + 1);
  f->role = sqlsim_arena_alloc(a, (size_t)s->ncolumns + 1);
  f->keys = sqlsim_arena_alloc(a, sizeof *f->keys * (size_t)(s->nfkeys + 64));
  for (int k = 0; k < s->nfkeys; k++) {
    int from = s->fkeys[k].column, to = s->fkeys[k].ref_column;
    if (from >= 0 && to >= 0 && from < s->ncolumns && to < s->ncolumns && from != to) f->keys[f->nkeys++] = s->fkeys[k];
  }
  const sqlsim_query *qs[2] = {gold, pred};
  for (int i = 0; i < 2; i++) {
    if (!qs[i] || !qs[i]->root) continue;
    walk_ctx c = {.f = f, .is_gold = i == 0};
    sqlsim_walk(qs[i]->root, pre, post, &c);
  }
  follow_keys(f);
  relate_groups(f);
  return f;
}

void synth_facts_free(synth_facts *f) {
  if (f) sqlsim_arena_free(f->arena);
}
