/* categories.c -- the structural rules of the error analysis: what kind of
 * mistake a prediction makes, from its edit script.
 *
 * Each edit of the calibrated diff that carries weight (so not an equivalent
 * form, not an alias, not the order of a bag) is put in one category by where
 * it sits (clause) and what it changes (table, column, function, literal,
 * operator, clause, subquery). Join conditions are told from filters by their
 * shape: an equality between columns of two FROM items. The execution-based
 * categories (correct, execution error, empty result, dialect error) are the
 * verdict's (verdict.c), which has the results. Entry points:
 * sqlsim_categorize_diff (sqlsim.h), analyze_column_order (analyze.h). */
#include "analyze.h"
#include "diff/flat.h"
#include "parser/tree.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const sqlsim_category_names[SQLSIM_NCAT] = {
    "correct",          "correct_other_form", "unparseable",     "dialect_error",
    "execution_error",  "empty_result",       "wrong_table",     "missing_table",
    "extra_table",      "join",               "wrong_column",    "missing_column",
    "extra_column",     "wrong_aggregate",    "filter_column",   "filter_operator",
    "filter_value",     "missing_filter",     "extra_filter",    "group_having",
    "order_limit",      "distinct",           "nesting",         "other"};

static const char *clause_word(int c) {
  static const char *w[] = {"WITH", "SELECT", "FROM", "WHERE", "GROUP BY", "HAVING", "ORDER BY",
                            "LIMIT", "OFFSET", "set operation", "set operation", "WINDOW", "VALUES"};
  return c >= 0 && c < 13 ? w[c] : "query";
}

static char *sql_of(sqlsim_arena *a, const sqlsim_node *n) {
  if (!n) return sqlsim_arena_strdup(a, "(clause)");
  char *s = sqlsim_print_sql(n, SQLSIM_PRINT_QUALIFY);
  size_t l = strlen(s);
  char *r = sqlsim_arena_strndup(a, s, l > 160 ? 160 : l);
  free(s);
  return r;
}

static const char *describe(sqlsim_arena *a, const sqlsim_edit *e, int clause) {
  const char *where = clause_word(clause);
  const sqlsim_node *g = e->gold ? e->gold : e->gold_content, *p = e->pred ? e->pred : e->pred_content;
  const char *whole = (!e->gold && !e->pred) ? " clause" : "";
  switch (e->action) {
  case SQLSIM_EDIT_UPDATE:
    return sqlsim_arena_printf(a, "%s: %s -> %s", where, sql_of(a, g), sql_of(a, p));
  case SQLSIM_EDIT_INSERT: return sqlsim_arena_printf(a, "%s%s added: %s", where, whole, sql_of(a, p));
  case SQLSIM_EDIT_DELETE: return sqlsim_arena_printf(a, "%s%s missing: %s", where, whole, sql_of(a, g));
  default: return sqlsim_arena_printf(a, "%s: moved %s", where, sql_of(a, g));
  }
}

/* A call of an aggregate's name (windows and min(a, b) included: a change of
 * that function is named as one of aggregate). */
static int is_aggregate(const sqlsim_node *n) { return n && n->kind == SQLSIM_N_FUNC && tree_is_aggregate_name(n->text); }

/* col = col between two different FROM items: a join condition; so is an OR
 * of them (a join on either of two keys). */
static int is_join_equality(const sqlsim_node *n) {
  return n && n->kind == SQLSIM_N_BINOP && n->op == SQLSIM_OP_EQ && n->nkids == 2 &&
         n->kids[0]->kind == SQLSIM_N_COLUMN && n->kids[1]->kind == SQLSIM_N_COLUMN &&
         n->kids[0]->source != n->kids[1]->source;
}

static int is_join_condition(const sqlsim_node *n) {
  if (n && n->kind == SQLSIM_N_OR && n->nkids) {
    for (uint32_t i = 0; i < n->nkids; i++)
      if (!is_join_equality(n->kids[i])) return 0;
    return 1;
  }
  return is_join_equality(n);
}

/* A category with its evidence; the evidence of every edit that shows it is
 * kept (joined by "; ", up to about 400 bytes). */
static void cat_add(sqlsim_arena *a, sqlsim_categories *c, int cat, const char *evidence) {
  if (!(c->mask & (1u << cat)) || !c->evidence[cat]) c->evidence[cat] = evidence;
  else if (evidence && strlen(c->evidence[cat]) < 400 && !strstr(c->evidence[cat], evidence))
    c->evidence[cat] = sqlsim_arena_printf(a, "%s; %s", c->evidence[cat], evidence);
  c->mask |= 1u << cat;
}

/* Was this node added (insert) or removed (delete) itself, rather than moved? */
static int changed_itself(const sqlsim_diff *d, const sqlsim_node *n, int action) {
  for (int k = 0; k < d->nedits; k++) {
    const sqlsim_edit *e = &d->edits[k];
    if (e->action == action && (action == SQLSIM_EDIT_INSERT ? e->pred : e->gold) == n) return 1;
  }
  return 0;
}

/* The same column name read from another table: part of a change of table. */
static int same_column_other_table(const sqlsim_diff *d, const sqlsim_edit *e) {
  return d->table_changed && e->action == SQLSIM_EDIT_UPDATE && e->gold->kind == SQLSIM_N_COLUMN &&
         e->pred->kind == SQLSIM_N_COLUMN && e->gold->text && e->pred->text &&
         !strcasecmp(e->gold->text, e->pred->text);
}

/* The same column name written where the query does not have it (no such
 * column in its tables, or one two of its tables have): the column meant is
 * the gold's, put out of scope; the query fails to run, which the execution
 * categories name. Not a choice of another column. */
static int same_column_unresolved(const sqlsim_edit *e) {
  return e->action == SQLSIM_EDIT_UPDATE && e->gold->kind == SQLSIM_N_COLUMN && e->pred->kind == SQLSIM_N_COLUMN &&
         (e->pred->flags & (SQLSIM_F_UNRESOLVED | SQLSIM_F_AMBIGUOUS)) && e->gold->text && e->pred->text &&
         !strcasecmp(e->gold->text, e->pred->text);
}

/* ---------------------------------------------------------------- positions */

static const ftree *side_tree(const sqlsim_diff *d, const sqlsim_edit *e, int *i) {
  if (e->gold_index >= 0) {
    *i = e->gold_index;
    return diff_gold_tree(d);
  }
  *i = e->pred_index;
  return diff_pred_tree(d);
}

/* The query block (SELECT) node i sits in, -1 above any. */
static int block_of(const ftree *t, int i) {
  for (int a = t->v[i].parent; a >= 0; a = t->v[a].parent)
    if (t->v[a].slot < 0 && t->v[a].n->kind == SQLSIM_N_SELECT) return a;
  return -1;
}

/* The innermost subquery node i sits in (a SUBLINK: IN, EXISTS, a scalar
 * one; or a SUBQUERY in FROM), not the top query or the arms of its set
 * operations; -1 when none. */
static int enclosing_subquery(const ftree *t, int i) {
  for (int a = t->v[i].parent; a >= 0; a = t->v[a].parent)
    if (t->v[a].slot < 0 && (t->v[a].n->kind == SQLSIM_N_SUBLINK || t->v[a].n->kind == SQLSIM_N_SUBQUERY)) return a;
  return -1;
}

/* For node i inside a subquery compared in the enclosing query (x = (SELECT
 * ..), x IN (SELECT ..), EXISTS): the clause that holds it (WHERE, HAVING,
 * ...); -1 when i is in none, or in a FROM subquery first. */
static int condition_subquery(const ftree *t, int i) {
  int a = enclosing_subquery(t, i);
  return a >= 0 && t->v[a].n->kind == SQLSIM_N_SUBLINK ? t->v[a].clause : -1;
}

/* The gold block an edit's block corresponds to (for pairing a removed part
 * with an added one): its own for gold nodes, the matched one for inserts. */
static int gold_block(const sqlsim_diff *d, const sqlsim_edit *e) {
  if (e->gold_index >= 0) return block_of(diff_gold_tree(d), e->gold_index);
  int b = block_of(diff_pred_tree(d), e->pred_index);
  return b >= 0 ? diff_pred_tree(d)->v[b].match : -1;
}

/* Node i inside an aggregate's FILTER (WHERE ...) (the conditional count's
 * form, equiv.c): a condition on rows, as in WHERE. 1 when it is the whole
 * filter or a part of an AND/OR there, 2 when deeper. */
static int in_agg_filter(const ftree *t, int i) {
  int whole = 1;
  for (int c = i, a = t->v[i].parent; a >= 0; c = a, a = t->v[a].parent) {
    const fnode *f = &t->v[a];
    if (f->slot >= 0 || f->n->kind == SQLSIM_N_SELECT) return 0;
    if (f->n->kind == SQLSIM_N_FUNC && (f->n->flags & SQLSIM_F_FILTER) && f->n->nkids > 1 && f->n->kids[1] == t->v[c].n)
      return whole ? 1 : 2;
    if (f->n->kind != SQLSIM_N_AND && f->n->kind != SQLSIM_N_OR) whole = 0;
  }
  return 0;
}

/* Node i inside a window definition with a PARTITION BY (OVER (PARTITION BY
 * ... ORDER BY ...)): a ranking per group. A window over all rows (OVER
 * (ORDER BY x)) is a computed column like any other. */
static int in_window(const ftree *t, int i) {
  for (int a = i; a >= 0; a = t->v[a].parent) {
    const fnode *f = &t->v[a];
    if (f->slot >= 0 || f->n->kind == SQLSIM_N_SELECT) return 0;
    if (f->n->kind == SQLSIM_N_WINDOW) return f->n->kids[0] && f->n->kids[0]->nkids; /* PARTITION BY */
  }
  return 0;
}

static int partitioned_windows(const ftree *t) {
  int n = 0;
  for (int i = 0; i < t->n; i++)
    if (t->v[i].slot < 0 && t->v[i].n->kind == SQLSIM_N_WINDOW && t->v[i].n->kids[0] && t->v[i].n->kids[0]->nkids) n++;
  return n;
}

/* The first column a condition reads (pre-order): what it filters on. */
static const sqlsim_node *subject(const sqlsim_node *n) {
  if (!n || n->kind == SQLSIM_N_SELECT) return NULL;
  if (n->kind == SQLSIM_N_COLUMN) return n;
  for (uint32_t i = 0; i < n->nkids; i++) {
    const sqlsim_node *s = subject(n->kids[i]);
    if (s) return s;
  }
  return NULL;
}

static int same_schema_column(const sqlsim_node *a, const sqlsim_node *b) {
  if (!a || !b) return 0;
  if (a->column >= 0 || b->column >= 0) return a->column == b->column;
  return a->text && b->text && !strcasecmp(a->text, b->text);
}

/* ---------------------------------------------------------------- aggregates */

/* The bounds below keep each test linear in the size of the trees, whatever
 * the input (a select list of 10,000 items against another): past them a
 * test answers "not shown", and the category stays the plain one. */
#define BOUND_NODES 4096 /* nodes one test reads */
#define BOUND_ITEMS 64   /* items of a list compared item by item */

/* Nodes of one kind under a node, collected within the bounds: at most cap
 * of them and BOUND_NODES visited, else `more`. */
typedef struct nodeset {
  const sqlsim_node *v[BOUND_ITEMS];
  int n, cap, more, seen;
} nodeset;

/* Aggregate calls (kind 0) or columns (kind 1) under n; into sub-queries
 * unless `shallow`. */
static void find_under(const sqlsim_node *n, int kind, int shallow, nodeset *s) {
  if (!n || s->more || (shallow && n->kind == SQLSIM_N_SELECT)) return;
  if (++s->seen > BOUND_NODES) {
    s->more = 1;
    return;
  }
  if (kind == 0 ? is_aggregate(n) : n->kind == SQLSIM_N_COLUMN) {
    if (s->n < s->cap) s->v[s->n++] = n;
    else s->more = 1;
  }
  for (uint32_t i = 0; i < n->nkids; i++) find_under(n->kids[i], kind, shallow, s);
}

/* The aggregate calls under n (at most 32). */
static nodeset aggregates_under(const sqlsim_node *n, int shallow) {
  nodeset s = {.cap = 32};
  find_under(n, 0, shallow, &s);
  return s;
}

/* The columns n reads (at most BOUND_ITEMS). */
static nodeset columns_under(const sqlsim_node *n) {
  nodeset s = {.cap = BOUND_ITEMS};
  find_under(n, 1, 0, &s);
  return s;
}

static int cmp_call(const void *x, const void *y) {
  const sqlsim_node *a = *(const sqlsim_node *const *)x, *b = *(const sqlsim_node *const *)y;
  int c = strcmp(a->text, b->text);
  return c ? c : (int)(a->flags & SQLSIM_F_DISTINCT) - (int)(b->flags & SQLSIM_F_DISTINCT);
}

/* How the aggregates of two expressions compare: 0 the same functions (as
 * a bag), 1 the same but for DISTINCT inside one, 2 others. */
static int aggregates_differ(const sqlsim_node *g, const sqlsim_node *p) {
  nodeset a = aggregates_under(g, 0), b = aggregates_under(p, 0);
  if (a.more || b.more || a.n != b.n) return 2;
  qsort(a.v, (size_t)a.n, sizeof a.v[0], cmp_call);
  qsort(b.v, (size_t)b.n, sizeof b.v[0], cmp_call);
  int distinct = 0;
  for (int i = 0; i < a.n; i++) {
    if (strcmp(a.v[i]->text, b.v[i]->text)) return 2;
    distinct |= (a.v[i]->flags & SQLSIM_F_DISTINCT) != (b.v[i]->flags & SQLSIM_F_DISTINCT);
  }
  return distinct;
}

/* Whether n reads a column that `of` also reads (by schema column, or by name
 * when unresolved); 1 too when that cannot be told within the bounds. */
static int reads_common_column(const sqlsim_node *n, const sqlsim_node *of) {
  nodeset a = columns_under(n), b = columns_under(of);
  if (a.more || b.more) return 1;
  for (int i = 0; i < a.n; i++)
    for (int j = 0; j < b.n; j++)
      if (same_schema_column(a.v[i], b.v[j])) return 1;
  return 0;
}

/* Whether n reads any column (1 too past the bounds). */
static int reads_a_column(const sqlsim_node *n) {
  nodeset a = columns_under(n);
  return a.more || a.n > 0;
}

/* The column pairs a tree's join equalities make equal (a.k = b.k), read
 * once per diff: at most BOUND_ITEMS; past that, none (no pair is taken as
 * equal). */
typedef struct eqpairs {
  int a[BOUND_ITEMS], b[BOUND_ITEMS];
  int n;
} eqpairs;

static void eqpairs_of(const ftree *t, eqpairs *e) {
  e->n = 0;
  for (int i = 0; i < t->n; i++) {
    const sqlsim_node *y = t->v[i].n;
    if (t->v[i].slot >= 0 || !is_join_equality(y) || y->kids[0]->column < 0 || y->kids[1]->column < 0) continue;
    int up = t->v[i].parent; /* a conjunct, not one side of an OR (a join on either of two keys) */
    if (up >= 0 && t->v[up].slot < 0 && t->v[up].n->kind != SQLSIM_N_AND && t->v[up].n->kind != SQLSIM_N_JOIN)
      continue;
    if (e->n == BOUND_ITEMS) {
      e->n = 0;
      return;
    }
    e->a[e->n] = y->kids[0]->column;
    e->b[e->n++] = y->kids[1]->column;
  }
}

static int equal_by_join(const eqpairs *e, int x, int y) {
  for (int i = 0; i < e->n; i++)
    if ((e->a[i] == x && e->b[i] == y) || (e->a[i] == y && e->b[i] == x)) return 1;
  return 0;
}

/* A column replaced by one a join of either query makes equal to it (the
 * gold's countrylanguage.CountryCode, the prediction's country.Code where it
 * joins country on Code = CountryCode): the same value in every row the join
 * keeps. Not in a join condition itself: re-keying a join is a join change. */
static int same_value_by_join(const sqlsim_edit *e, const eqpairs *ge, const eqpairs *pe) {
  if (e->action != SQLSIM_EDIT_UPDATE || e->gold->kind != SQLSIM_N_COLUMN || e->pred->kind != SQLSIM_N_COLUMN ||
      e->gold->column < 0 || e->pred->column < 0 || e->gold->column == e->pred->column)
    return 0;
  if (is_join_condition(e->gold_parent) || is_join_condition(e->pred_parent)) return 0;
  return equal_by_join(pe, e->gold->column, e->pred->column) || equal_by_join(ge, e->gold->column, e->pred->column);
}

/* ---------------------------------------------------------------- grouping */

/* The query blocks (SELECT nodes) an edit sits in, on each side. */
static void edit_blocks(const sqlsim_diff *d, const sqlsim_edit *e, const sqlsim_node **gs, const sqlsim_node **ps) {
  const ftree *g = diff_gold_tree(d), *p = diff_pred_tree(d);
  int gb = e->gold_index >= 0 ? block_of(g, e->gold_index) : -1;
  int pb = e->pred_index >= 0 ? block_of(p, e->pred_index) : -1;
  if (gb < 0 && pb >= 0) gb = p->v[pb].match;
  if (pb < 0 && gb >= 0) pb = g->v[gb].match;
  *gs = gb >= 0 ? g->v[gb].n : NULL;
  *ps = pb >= 0 ? p->v[pb].n : NULL;
}

/* col is fixed to one value by a conjunct col = constant of sel's WHERE. */
static int pinned(const sqlsim_node *sel, const sqlsim_node *col) {
  const sqlsim_node *w = sel->kids[SQLSIM_SEL_WHERE];
  if (!w) return 0;
  int and = w->kind == SQLSIM_N_AND;
  if (and && w->nkids > BOUND_ITEMS) return 0;
  for (uint32_t i = 0; i < (and ? w->nkids : 1); i++) {
    const sqlsim_node *x = and ? w->kids[i] : w;
    if (x->kind != SQLSIM_N_BINOP || x->op != SQLSIM_OP_EQ || x->nkids != 2) continue;
    for (int k = 0; k < 2; k++)
      if (x->kids[k]->kind == SQLSIM_N_COLUMN && x->kids[1 - k]->kind == SQLSIM_N_CONST &&
          x->kids[k]->source == col->source && same_schema_column(x->kids[k], col))
        return 1;
  }
  return 0;
}

/* A GROUP BY of columns each fixed by WHERE (one group at most) in a block
 * whose other side has none and aggregates: one row either way. */
static int grouping_pinned(const sqlsim_node *with, const sqlsim_node *without) {
  const sqlsim_node *gl = with->kids[SQLSIM_SEL_GROUP], *tl = without->kids[SQLSIM_SEL_TARGETS];
  if (!gl || without->kids[SQLSIM_SEL_GROUP] || !tl || gl->nkids > BOUND_ITEMS) return 0;
  nodeset a = aggregates_under(tl, 1);
  if (!a.n) return 0;
  for (uint32_t i = 0; i < gl->nkids; i++)
    if (gl->kids[i]->kind != SQLSIM_N_COLUMN || !pinned(with, gl->kids[i])) return 0;
  return 1;
}

/* The table all of a GROUP BY's columns read, -1 if they read several or are
 * not all columns; *key says whether one of them is a unique column of it. */
static int grouping_table(const sqlsim_node *gl, const sqlsim_schema *s, int *key) {
  int t = -1;
  *key = 0;
  if (gl->nkids > BOUND_ITEMS) return -1;
  for (uint32_t i = 0; i < gl->nkids; i++) {
    const sqlsim_node *c = gl->kids[i];
    if (c->kind != SQLSIM_N_COLUMN || c->table < 0 || (t >= 0 && c->table != t)) return -1;
    t = c->table;
    if (s && c->column >= 0 && c->column < s->ncolumns && s->columns[c->column].unique) *key = 1;
  }
  return t;
}

/* The schema columns a block returns as plain columns (its other items
 * being aggregates), sorted into v[]; -1 when something else is returned. */
static int returned_columns(const sqlsim_node *sel, int *v, int cap) {
  const sqlsim_node *tl = sel->kids[SQLSIM_SEL_TARGETS];
  int n = 0;
  for (uint32_t i = 0; tl && i < tl->nkids; i++) {
    const sqlsim_node *x = tl->kids[i]->kind == SQLSIM_N_TARGET ? tl->kids[i]->kids[0] : tl->kids[i];
    if (is_aggregate(x)) continue;
    if (!x || x->kind != SQLSIM_N_COLUMN || x->column < 0 || n == cap) return -1;
    v[n++] = x->column;
  }
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && v[j] < v[j - 1]; j--) {
      int t = v[j];
      v[j] = v[j - 1];
      v[j - 1] = t;
    }
  return n;
}

/* The GROUP BY of `names` is the columns both blocks return (as a set). */
static int groups_by_returned(const sqlsim_node *names, const sqlsim_node *other) {
  int a[16], b[16], c[16];
  int na = returned_columns(names, a, 16), nb = returned_columns(other, b, 16);
  const sqlsim_node *gl = names->kids[SQLSIM_SEL_GROUP];
  if (na <= 0 || na != nb || memcmp(a, b, sizeof a[0] * (size_t)na) || gl->nkids > 16) return 0;
  int nc = 0;
  for (uint32_t i = 0; i < gl->nkids; i++) c[nc++] = gl->kids[i]->column;
  for (int i = 0; i < na; i++) {
    int found = 0;
    for (int j = 0; j < nc && !found; j++) found = c[j] == a[i];
    if (!found) return 0;
  }
  return nc == na;
}

/* Two groupings a person reads as one: the rows of one table grouped by its
 * key on one side and, on the other, by exactly the columns of it both
 * return (a driver's names for the driver's id); or a GROUP BY whose columns
 * WHERE fixes against none. The groups differ only where two rows share
 * every one of those columns, or the input is empty. */
static int same_groups(const sqlsim_diff *d, const sqlsim_edit *e, const sqlsim_schema *s) {
  const sqlsim_node *g, *p;
  edit_blocks(d, e, &g, &p);
  if (!g || !p) return 0;
  if (grouping_pinned(g, p) || grouping_pinned(p, g)) return 1;
  const sqlsim_node *gl = g->kids[SQLSIM_SEL_GROUP], *pl = p->kids[SQLSIM_SEL_GROUP];
  if (!gl || !pl) return 0;
  int gk, pk, gt = grouping_table(gl, s, &gk), pt = grouping_table(pl, s, &pk);
  if (gt < 0 || gt != pt || gk == pk) return 0;
  return gk ? groups_by_returned(p, g) : groups_by_returned(g, p);
}

/* Neither block of an edit limits its rows (no LIMIT, no OFFSET). */
static int unlimited(const sqlsim_diff *d, const sqlsim_edit *e) {
  const sqlsim_node *g, *p;
  edit_blocks(d, e, &g, &p);
  for (int k = 0; k < 2; k++) {
    const sqlsim_node *b = k ? p : g;
    if (!b || b->kids[SQLSIM_SEL_LIMIT] || b->kids[SQLSIM_SEL_OFFSET]) return 0;
  }
  return 1;
}

/* Evidence so far with one more piece ("; " between, up to about 400 bytes). */
static const char *with_evidence(sqlsim_arena *a, const char *so_far, const char *ev) {
  if (!so_far) return ev;
  return strlen(so_far) < 400 ? sqlsim_arena_printf(a, "%s; %s", so_far, ev) : so_far;
}

/* ---------------------------------------------------------------- conditions */

typedef struct cond {
  const sqlsim_node *n;
  int action, clause, block, used;
} cond;

typedef struct conds {
  cond *v;
  int n, cap;
} conds;

/* The select item an edit's node is (the TARGET's expression), or NULL. */
static const sqlsim_node *item_expr(const ftree *t, int i) {
  const sqlsim_node *n = t->v[i].n;
  if (n->kind == SQLSIM_N_TARGET) return n->nkids ? n->kids[0] : NULL;
  int up = t->v[i].parent;
  return up >= 0 && t->v[up].slot < 0 && t->v[up].n->kind == SQLSIM_N_TARGET ? n : NULL;
}

/* Columns a and b are named alike: the same name, or one inside the other
 * (`lap` and `laps`, `DisplayName` and `UserDisplayName`). */
static int same_attribute_name(const sqlsim_node *a, const sqlsim_node *b) {
  return a->text && b->text && (strcasestr(a->text, b->text) || strcasestr(b->text, a->text));
}

/* A select item changed from g to p (either NULL: missing or added): 1 for
 * another attribute (a plain column for a plain column of another name, or a
 * plain column alone), 0 for the same attribute (a column of the same name in
 * another table: `lap` and `laps`, `points` and `points`) or a column of no
 * table of the schema (the table is what is wrong, or unknown), -1 for a
 * change of what is computed. */
static int attribute_changed(const sqlsim_node *g, const sqlsim_node *p) {
  if ((g && g->kind != SQLSIM_N_COLUMN) || (p && p->kind != SQLSIM_N_COLUMN)) return -1;
  if ((g && (g->column < 0 || (g->flags & SQLSIM_F_UNRESOLVED))) ||
      (p && (p->column < 0 || (p->flags & SQLSIM_F_UNRESOLVED))))
    return 0;
  if (!g || !p) return 1;
  return !same_attribute_name(g, p);
}

/* Counts the changed select items by attribute_changed. */
typedef struct item_changes {
  int other, computed;
} item_changes;

static void count_item(item_changes *ic, int r) {
  if (r > 0) ic->other++;
  else if (r < 0) ic->computed++;
}

static int in_int_list(const int *v, int n, int x) {
  for (int i = 0; i < n; i++)
    if (v[i] == x) return 1;
  return 0;
}

static void add_once(int *v, int *n, int x) {
  if (x >= 0 && *n < BOUND_ITEMS && !in_int_list(v, *n, x)) v[(*n)++] = x;
}

/* A tree's star select items and what they could return, read in one pass:
 * the tables it reads, the tables of its `t.*` items, whether it has a `*`,
 * and the tables of its plain column items. */
typedef struct stars {
  int any;                       /* a `*` item */
  int tab[BOUND_ITEMS], ntab;    /* tables read */
  int qual[BOUND_ITEMS], nqual;  /* tables of `t.*` items */
  int col[BOUND_ITEMS], ncol;    /* tables of plain column items */
} stars;

static void stars_of(const ftree *t, stars *s) {
  memset(s, 0, sizeof *s);
  for (int i = 0; i < t->n; i++) {
    const sqlsim_node *n = t->v[i].n;
    if (t->v[i].slot >= 0) continue;
    if (n->kind == SQLSIM_N_TABLE) add_once(s->tab, &s->ntab, n->table);
    else if (n->kind == SQLSIM_N_STAR && item_expr(t, i)) {
      if (!n->alias) s->any = 1;
      else add_once(s->qual, &s->nqual, n->table);
    } else if (n->kind == SQLSIM_N_COLUMN && n->column >= 0 && item_expr(t, i)) {
      add_once(s->col, &s->ncol, n->table);
    }
  }
}

/* Is plain column c returned by a star item of the tree s describes? */
static int star_returns(const stars *s, const sqlsim_node *c) {
  if (c->column < 0 || c->table < 0) return 0;
  return (s->any && in_int_list(s->tab, s->ntab, c->table)) || in_int_list(s->qual, s->nqual, c->table);
}

/* Does star (an item of the tree own describes) return a plain column item
 * of the tree other describes? `*` every column of own's tables, `t.*` t's. */
static int star_returns_any(const stars *own, const sqlsim_node *star, const stars *other) {
  for (int i = 0; i < other->ncol; i++)
    if (star->alias ? star->table == other->col[i] : in_int_list(own->tab, own->ntab, other->col[i])) return 1;
  return 0;
}

static void cond_add(sqlsim_arena *a, conds *cs, const sqlsim_node *n, int action, int clause, int block) {
  cs->v = arena_array_grow(a, cs->v, cs->n, &cs->cap, sizeof *cs->v, 16);
  cs->v[cs->n++] = (cond){n, action, clause, block, 0};
}

/* Conditions added or removed (one, or an AND group of them): join
 * conditions to `joins`, the others to `cs`, both kept for pairing; only
 * ones that were themselves added or removed (not moved from elsewhere). */
static void collect_conditions(const sqlsim_diff *d, const sqlsim_edit *e, const sqlsim_node *n, int clause,
                               sqlsim_arena *a, conds *cs, conds *joins) {
  int group = n->kind == SQLSIM_N_AND;
  int block = gold_block(d, e);
  for (uint32_t i = 0; i < (group ? n->nkids : 1); i++) {
    const sqlsim_node *x = group ? n->kids[i] : n;
    if (changed_itself(d, x, e->action)) cond_add(a, is_join_condition(x) ? joins : cs, x, e->action, clause, block);
  }
}

/* x = (SELECT t.y FROM t ...) or x IN (SELECT t.y FROM t ...), the subquery
 * a plain block without grouping or LIMIT (so the same rows as a join when
 * y does not repeat): the column compared (*x) and the one the subquery
 * returns (*y); else 0. */
static int subquery_lookup(const sqlsim_node *n, const sqlsim_node **x, const sqlsim_node **y) {
  return tree_lookup_item(n, x, y) && (*x)->kind == SQLSIM_N_COLUMN && (*y)->kind == SQLSIM_N_COLUMN;
}

/* The lookups of a tree (subquery_lookup's x and y of each), read once. */
typedef struct lookup {
  const sqlsim_node *x, *y;
} lookup;
typedef struct lookups {
  lookup *v;
  int n, cap, read;
} lookups;

static void lookups_of(sqlsim_arena *a, const ftree *t, lookups *l) {
  l->read = 1;
  for (int i = 0; i < t->n; i++) {
    lookup k;
    if (t->v[i].slot >= 0 || !subquery_lookup(t->v[i].n, &k.x, &k.y)) continue;
    l->v = arena_array_grow(a, l->v, l->n, &l->cap, sizeof *l->v, 8);
    l->v[l->n++] = k;
  }
}

/* Does join equality j stand for one of the lookups l (either way round)? */
static int joins_lookup(const sqlsim_node *j, const lookups *l) {
  const sqlsim_node *a = j->kids[0], *b = j->kids[1];
  for (int i = 0; i < l->n; i++) {
    const lookup *k = &l->v[i];
    if ((same_schema_column(a, k->x) && same_schema_column(b, k->y)) || (same_schema_column(a, k->y) && same_schema_column(b, k->x))) return 1;
  }
  return 0;
}

/* A join on x = t.y on one side, x = (SELECT t.y FROM t WHERE c) or x IN
 * (SELECT t.y ...) on the other: the same lookup written as a subquery (the
 * same rows when the subquery finds one row, or y does not repeat), named
 * `nesting`, a form; the subquery's own conditions are paired as moved. A
 * join left over that stands for a lookup anywhere in the other query (a
 * block the diff did not pair with the join's: the gold's lookups nested in
 * a subquery, written as one query of joins) is `nesting` too; the join
 * conditions left after that are `join`. */
static void pair_lookups(const sqlsim_diff *d, conds *cs, conds *joins, sqlsim_arena *a, sqlsim_categories *out) {
  for (int i = 0; i < cs->n; i++) {
    cond *c = &cs->v[i];
    lookup k;
    if (c->used || !subquery_lookup(c->n, &k.x, &k.y)) continue;
    const lookups one = {.v = &k, .n = 1};
    for (int j = 0; j < joins->n; j++) {
      cond *jn = &joins->v[j];
      if (jn->used || jn->action == c->action || jn->block != c->block || !is_join_equality(jn->n) ||
          !joins_lookup(jn->n, &one))
        continue;
      const cond *g = c->action == SQLSIM_EDIT_DELETE ? c : jn, *p = g == c ? jn : c;
      cat_add(a, out, SQLSIM_CAT_NESTING,
          sqlsim_arena_printf(a, "%s: %s -> %s (%s)", clause_word(c->clause), sql_of(a, g->n), sql_of(a, p->n),
                              g == jn ? "a join written as a subquery" : "a subquery written as a join"));
      c->used = jn->used = 1;
      break;
    }
  }
  lookups in[2] = {{0}, {0}}; /* the gold's, the prediction's */
  for (int j = 0; j < joins->n; j++) {
    cond *jn = &joins->v[j];
    if (jn->used || !is_join_equality(jn->n)) continue;
    lookups *other = &in[jn->action != SQLSIM_EDIT_INSERT];
    if (!other->read) lookups_of(a, other == in ? diff_gold_tree(d) : diff_pred_tree(d), other);
    if (!joins_lookup(jn->n, other)) continue;
    cat_add(a, out, SQLSIM_CAT_NESTING,
        sqlsim_arena_printf(a, "%s %s: %s (%s)", clause_word(jn->clause),
                            jn->action == SQLSIM_EDIT_INSERT ? "added" : "missing", sql_of(a, jn->n),
                            jn->action == SQLSIM_EDIT_INSERT ? "the gold's lookup subquery written as a join"
                                                             : "a join written as a lookup subquery"));
    jn->used = 1;
  }
  for (int j = 0; j < joins->n; j++)
    if (!joins->v[j].used)
      cat_add(a, out, SQLSIM_CAT_JOIN,
          sqlsim_arena_printf(a, "%s %s: %s", clause_word(joins->v[j].clause),
                              joins->v[j].action == SQLSIM_EDIT_INSERT ? "added" : "missing", sql_of(a, joins->v[j].n)));
}

/* A condition that matches a column against literal values: x = v, x IN
 * (v, ...), x LIKE p, x GLOB p (1), or a negation of one: x <> v, x NOT IN,
 * NOT LIKE, NOT GLOB (2); 0 for anything else. The literals go to vals (at
 * most 16; 0 past that). */
static int matching(const sqlsim_node *c, const sqlsim_node **vals, int *nv) {
  *nv = 0;
  if (!c) return 0;
  const sqlsim_node *x = NULL, *list = NULL, *one = NULL;
  int family = 0;
  if (c->kind == SQLSIM_N_BINOP && c->nkids >= 2) {
    switch (c->op) {
    case SQLSIM_OP_EQ: case SQLSIM_OP_LIKE: case SQLSIM_OP_GLOB: family = 1; break;
    case SQLSIM_OP_NE: case SQLSIM_OP_NOTLIKE: case SQLSIM_OP_NOTGLOB: family = 2; break;
    default: return 0;
    }
    x = c->kids[0];
    one = c->kids[1];
    if (x && x->kind == SQLSIM_N_CONST && one && one->kind != SQLSIM_N_CONST) {
      const sqlsim_node *t = x;
      x = one;
      one = t;
    }
  } else if (c->kind == SQLSIM_N_IN && c->nkids == 2) {
    family = (c->flags & SQLSIM_F_NOT) ? 2 : 1;
    x = c->kids[0];
    list = c->kids[1];
  } else {
    return 0;
  }
  if (!x || x->kind == SQLSIM_N_CONST) return 0;
  if (one) {
    if (one->kind != SQLSIM_N_CONST) return 0;
    vals[(*nv)++] = one;
    return family;
  }
  if (!list || list->kind != SQLSIM_N_LIST || list->nkids > 16) return 0;
  for (uint32_t i = 0; i < list->nkids; i++) {
    if (!list->kids[i] || list->kids[i]->kind != SQLSIM_N_CONST) return 0;
    vals[(*nv)++] = list->kids[i];
  }
  return family;
}

/* A literal's core: its text without LIKE/GLOB wildcards, ASCII case folded,
 * into buf. */
static void literal_core(const sqlsim_node *k, char *buf, size_t cap) {
  size_t n = 0;
  for (const char *t = k->text ? k->text : ""; *t && n + 1 < cap; t++)
    if (*t != '%' && *t != '_' && *t != '*' && *t != '?') buf[n++] = ascii_lower(*t);
  buf[n] = 0;
}

/* Two conditions on the same column that match it against other values, by
 * operators of one family (= for IN ('C', 'D'), LIKE '1:40%' for
 * = '0:01:40', = 'mtgo,paper' for IN ('mtgo', 'paper')): what changed is the
 * values matched, a change of value. The same values under another operator
 * (= 'Republic' for LIKE '%Republic%') are a change of operator. */
static int values_differ(const sqlsim_node *g, const sqlsim_node *p) {
  const sqlsim_node *gv[16], *pv[16];
  int ng, np, fg = matching(g, gv, &ng), fp = matching(p, pv, &np);
  if (!fg || fg != fp || !same_schema_column(subject(g), subject(p))) return 0;
  for (int pass = 0; pass < 2; pass++) {
    const sqlsim_node **a = pass ? pv : gv, **b = pass ? gv : pv;
    int na = pass ? np : ng, nb = pass ? ng : np;
    for (int i = 0; i < na; i++) {
      char x[256], y[256];
      literal_core(a[i], x, sizeof x);
      int found = 0;
      for (int j = 0; j < nb && !found; j++) {
        literal_core(b[j], y, sizeof y);
        found = !strcmp(x, y);
      }
      if (!found) return 1;
    }
  }
  return 0;
}

/* The column under functions that only reformat a value (a date's parts, a
 * prefix, a conversion): strftime('%Y', d), date(d), substr(d, 1, 4),
 * CAST(d AS TEXT) are d. NULL when x is not such a column. */
static const sqlsim_node *format_stripped(const sqlsim_node *x) {
  for (int depth = 0; x && depth < 8; depth++) {
    if (x->kind == SQLSIM_N_COLUMN) return x;
    if (x->kind == SQLSIM_N_CAST) {
      x = x->kids[0];
      continue;
    }
    if (x->kind != SQLSIM_N_FUNC || !x->text || !x->kids[0] || !x->kids[0]->nkids) return NULL;
    static const char *const first[] = {"date", "datetime", "julianday", "time", "unixepoch", "substr",
                                        "substring", "year", "month", "day", "trim", NULL};
    const sqlsim_node *args = x->kids[0];
    const sqlsim_node *next = NULL;
    if (!strcmp(x->text, "strftime") && args->nkids >= 2) next = args->kids[1];
    for (int i = 0; first[i] && !next; i++)
      if (!strcmp(x->text, first[i])) next = args->kids[0];
    x = next;
  }
  return NULL;
}

/* The operand a condition compares with literals (x in x = 'a', x BETWEEN 1
 * AND 2, x IN (...)), NULL when it compares no literal. */
static const sqlsim_node *literal_operand(const sqlsim_node *c) {
  if (!c) return NULL;
  if ((c->kind == SQLSIM_N_BETWEEN || c->kind == SQLSIM_N_IN) && c->nkids >= 2) return c->kids[0];
  if (c->kind != SQLSIM_N_BINOP || c->nkids < 2 || !c->kids[0] || !c->kids[1]) return NULL;
  if (!(is_comparison_op(c->op) || (c->op >= SQLSIM_OP_LIKE && c->op <= SQLSIM_OP_NOTGLOB))) return NULL;
  int k0 = c->kids[0]->kind == SQLSIM_N_CONST, k1 = c->kids[1]->kind == SQLSIM_N_CONST;
  return k0 == k1 ? NULL : k0 ? c->kids[1] : c->kids[0];
}

/* Two conditions that compare the same column with literals, the column
 * reformatted on one side only or differently (strftime('%Y', d) = '2011'
 * for d = '2011', date(d) > '2014-09-01' for d >= '2014-09-01 00:00:00'):
 * the date or text is written in another format, a change of value as
 * people name it, not a change of the column filtered. */
static int format_changed(const sqlsim_node *g, const sqlsim_node *p) {
  const sqlsim_node *x = literal_operand(g), *y = literal_operand(p);
  if (!x || !y) return 0;
  const sqlsim_node *a = format_stripped(x), *b = format_stripped(y);
  if (!a || !b || (a == x && b == y) || !same_schema_column(a, b)) return 0;
  char *xs = sqlsim_print_sql(x, SQLSIM_PRINT_QUALIFY), *ys = sqlsim_print_sql(y, SQLSIM_PRINT_QUALIFY);
  int differ = strcasecmp(xs, ys) != 0; /* the same reformatting on both sides: no change of format */
  free(xs);
  free(ys);
  return differ;
}

static int cond_shape_differs(const sqlsim_node *g, const sqlsim_node *p) {
  return g->kind != p->kind || g->op != p->op || (g->flags & SQLSIM_F_NOT) != (p->flags & SQLSIM_F_NOT);
}

/* A query block that keeps only the first rows of ORDER BY col DESC, with
 * SQLite's NULLs last there. */
static int limited_desc(const sqlsim_node *sel, const sqlsim_node *col) {
  if (!sel || sel->kind != SQLSIM_N_SELECT || sel->op != SQLSIM_SET_NONE || !sel->kids[SQLSIM_SEL_LIMIT]) return 0;
  const sqlsim_node *ord = sel->kids[SQLSIM_SEL_ORDER];
  const sqlsim_node *k = ord && ord->nkids ? ord->kids[0] : NULL;
  return k && k->kind == SQLSIM_N_SORT && k->op == SQLSIM_SORT_DESC && k->aux != SQLSIM_NULLS_FIRST && k->nkids &&
         k->kids[0] && k->kids[0]->kind == SQLSIM_N_COLUMN && same_schema_column(k->kids[0], col);
}

/* `c IS NOT NULL` in the WHERE of one query only, where either query orders
 * by c DESC first and keeps only its first rows: those rows have a c, so in
 * that query the condition is idle, and the two differ by it only when fewer
 * rows than the LIMIT have a c (`ORDER BY dob DESC LIMIT 1` needs no `dob IS
 * NOT NULL`; with ASC it does, NULLs come first). */
static int null_test_limited_away(const sqlsim_diff *d, const cond *c) {
  const sqlsim_node *n = c->n;
  if (c->clause != SQLSIM_SEL_WHERE || c->block < 0 || n->kind != SQLSIM_N_ISNULL || n->op != SQLSIM_NOTNULL ||
      !n->nkids || !n->kids[0] || n->kids[0]->kind != SQLSIM_N_COLUMN)
    return 0;
  const fnode *gb = &diff_gold_tree(d)->v[c->block];
  return limited_desc(gb->n, n->kids[0]) || (gb->match >= 0 && limited_desc(diff_pred_tree(d)->v[gb->match].n, n->kids[0]));
}

/* A removed condition and an added one in the same clause of the same block
 * are one change: on the same column, of operator (`= x` for `IS NOT NULL`)
 * or of value (`= 'a'` for `= 'b'`); on another column, of column. The rest
 * are missing or extra conditions. A NULL test the LIMIT makes idle
 * (null_test_limited_away) is neither: its evidence goes to *idle, for the
 * caller to keep beside another change or name weak alone. */
static void pair_conditions(const sqlsim_diff *d, conds *cs, sqlsim_arena *a, sqlsim_categories *out,
                            const char **idle, int *idle_cat) {
  for (int i = 0; i < cs->n; i++) {
    cond *c = &cs->v[i];
    if (c->used || !null_test_limited_away(d, c)) continue;
    int ins = c->action == SQLSIM_EDIT_INSERT;
    *idle = with_evidence(a, *idle,
                          sqlsim_arena_printf(a, "WHERE %s: %s (the rows kept by ORDER BY .. DESC LIMIT have a value)",
                                              ins ? "added" : "missing", sql_of(a, c->n)));
    *idle_cat = ins ? SQLSIM_CAT_EXTRA_FILTER : SQLSIM_CAT_MISSING_FILTER;
    c->used = 1;
  }
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < cs->n; i++) {
      cond *g = &cs->v[i];
      if (g->used || g->action != SQLSIM_EDIT_DELETE) continue;
      for (int j = 0; j < cs->n; j++) {
        cond *p = &cs->v[j];
        if (p->used || p->action != SQLSIM_EDIT_INSERT || p->clause != g->clause || p->block != g->block) continue;
        int same = same_schema_column(subject(g->n), subject(p->n));
        if (pass == 0 && !same) continue;
        int cat;
        if (g->clause == SQLSIM_SEL_HAVING) cat = SQLSIM_CAT_GROUP_HAVING;
        else if (format_changed(g->n, p->n)) cat = SQLSIM_CAT_FILTER_VALUE;
        else if (!same) cat = SQLSIM_CAT_FILTER_COLUMN;
        else if (cond_shape_differs(g->n, p->n))
          cat = values_differ(g->n, p->n) ? SQLSIM_CAT_FILTER_VALUE : SQLSIM_CAT_FILTER_OPERATOR;
        else {
          /* same column, same operator: the value changed, unless the column
           * side did (lower(x) = 'a' for x = 'a') */
          char *gs = sqlsim_print_sql(g->n->nkids ? g->n->kids[0] : g->n, SQLSIM_PRINT_QUALIFY);
          char *ps = sqlsim_print_sql(p->n->nkids ? p->n->kids[0] : p->n, SQLSIM_PRINT_QUALIFY);
          cat = strcmp(gs, ps) ? SQLSIM_CAT_FILTER_COLUMN : SQLSIM_CAT_FILTER_VALUE;
          free(gs);
          free(ps);
        }
        cat_add(a, out, cat, sqlsim_arena_printf(a, "%s: %s -> %s", clause_word(g->clause), sql_of(a, g->n), sql_of(a, p->n)));
        g->used = p->used = 1;
        break;
      }
    }
  for (int i = 0; i < cs->n; i++) {
    const cond *c = &cs->v[i];
    if (c->used) continue;
    int ins = c->action == SQLSIM_EDIT_INSERT;
    int cat = c->clause == SQLSIM_SEL_HAVING ? SQLSIM_CAT_GROUP_HAVING
              : ins                          ? SQLSIM_CAT_EXTRA_FILTER
                                             : SQLSIM_CAT_MISSING_FILTER;
    cat_add(a, out, cat, sqlsim_arena_printf(a, "%s %s: %s", clause_word(c->clause), ins ? "added" : "missing", sql_of(a, c->n)));
  }
}

/* ---------------------------------------------------------------- parts */

/* Edits inside one condition (or one select item, one ORDER BY key) are one
 * change, named once: a condition whose column and value both changed is a
 * change of column; of operator and value, of operator; a select item whose
 * aggregate and argument changed, of aggregate. */
typedef struct part {
  int root;                 /* gold index of the condition / item the edit sits in */
  int clause;               /* the clause it sits in */
  uint32_t cats;            /* categories its edits suggest */
  const char *ev[SQLSIM_NCAT];
} part;

typedef struct parts {
  part *v;
  int n, cap;
} parts;

/* The condition or item node i belongs to: the ancestor whose parent is a
 * clause, an AND/OR, or an aggregate's FILTER. */
static int part_root(const ftree *t, int i) {
  int c = i;
  for (int a = t->v[i].parent; a >= 0; c = a, a = t->v[a].parent) {
    const fnode *f = &t->v[a];
    if (f->slot >= 0 || f->n->kind == SQLSIM_N_AND || f->n->kind == SQLSIM_N_OR ||
        f->n->kind == SQLSIM_N_SELECT || f->n->kind == SQLSIM_N_LIST)
      return c;
    if (f->n->kind == SQLSIM_N_FUNC && (f->n->flags & SQLSIM_F_FILTER) && f->n->nkids > 1 && f->n->kids[1] == t->v[c].n)
      return c;
  }
  return c;
}

static void part_add(sqlsim_arena *a, parts *ps, const sqlsim_diff *d, const sqlsim_edit *e, int cat, const char *ev) {
  int root;
  if (e->gold_index >= 0) {
    root = part_root(diff_gold_tree(d), e->gold_index);
  } else {
    int r = part_root(diff_pred_tree(d), e->pred_index);
    root = diff_pred_tree(d)->v[r].match >= 0 ? diff_pred_tree(d)->v[r].match : -2 - r; /* an added part: its own */
  }
  part *p = NULL;
  for (int i = 0; i < ps->n && !p; i++)
    if (ps->v[i].root == root) p = &ps->v[i];
  if (!p) {
    ps->v = arena_array_grow(a, ps->v, ps->n, &ps->cap, sizeof *ps->v, 16);
    p = &ps->v[ps->n++];
    memset(p, 0, sizeof *p);
    p->root = root;
    p->clause = e->clause;
  }
  p->cats |= 1u << cat;
  if (!p->ev[cat]) p->ev[cat] = ev;
  else if (strlen(p->ev[cat]) < 300 && !strstr(p->ev[cat], ev)) p->ev[cat] = sqlsim_arena_printf(a, "%s; %s", p->ev[cat], ev);
}

/* The category of a change of what is computed from columns, by the clause
 * it sits in: in WHERE a column filtered, in HAVING grouping, in ORDER BY the
 * order, else (the select list) a column returned. */
static int column_category(int clause) {
  return clause == SQLSIM_SEL_WHERE    ? SQLSIM_CAT_FILTER_COLUMN
         : clause == SQLSIM_SEL_HAVING ? SQLSIM_CAT_GROUP_HAVING
         : clause == SQLSIM_SEL_ORDER  ? SQLSIM_CAT_ORDER_LIMIT
                                       : SQLSIM_CAT_WRONG_COLUMN;
}

/* The category of a column or operand changed at one place: a join key, a
 * grouping, else by its clause (column_category). */
static int place_category(int clause, const sqlsim_node *parent) {
  if (is_join_condition(parent) || clause == SQLSIM_SEL_FROM) return SQLSIM_CAT_JOIN;
  if (clause == SQLSIM_SEL_GROUP) return SQLSIM_CAT_GROUP_HAVING;
  return column_category(clause);
}

/* An aggregate changed inside a part whose aggregates are the same on both
 * sides (the two counts for their difference, a count moved into a scalar
 * subquery) is a change of what is computed around them, named as the
 * clause's column change; the same but for DISTINCT inside one, `distinct`. */
static void aggregate_kept(const sqlsim_diff *d, part *p, sqlsim_arena *a) {
  if (!(p->cats & (1u << SQLSIM_CAT_AGGREGATE)) || p->root < 0) return;
  const ftree *g = diff_gold_tree(d);
  int m = g->v[p->root].match;
  if (m < 0) return;
  int r = aggregates_differ(g->v[p->root].n, diff_pred_tree(d)->v[m].n);
  if (r == 2 && p->clause == SQLSIM_SEL_TARGETS) {
    /* the same aggregates returned, in other items (two counts for their
     * difference) */
    int gb = block_of(g, p->root), pb = block_of(diff_pred_tree(d), m);
    const sqlsim_node *gt = gb >= 0 ? g->v[gb].n->kids[SQLSIM_SEL_TARGETS] : NULL;
    const sqlsim_node *pt = pb >= 0 ? diff_pred_tree(d)->v[pb].n->kids[SQLSIM_SEL_TARGETS] : NULL;
    if (gt && pt && gt->nkids <= BOUND_ITEMS && pt->nkids <= BOUND_ITEMS) r = aggregates_differ(gt, pt);
  }
  if (r == 2 && p->clause == SQLSIM_SEL_TARGETS) {
    /* an aggregate of columns returned where the other side returns a plain
     * value of other columns (max(views) for the name): what is returned
     * changed (COUNT(*) for a column stays a change of aggregate) */
    const sqlsim_node *gn = g->v[p->root].n, *pn = diff_pred_tree(d)->v[m].n;
    nodeset ga = aggregates_under(gn, 0), pa = aggregates_under(pn, 0);
    const sqlsim_node *agg_side = ga.n ? gn : pn;
    if (!ga.more && !pa.more && (!ga.n || !pa.n) && reads_a_column(agg_side) && !reads_common_column(gn, pn)) r = 0;
  }
  if (r == 2) return;
  int to = r == 1 ? SQLSIM_CAT_DISTINCT : column_category(p->clause);
  const char *ev = p->ev[SQLSIM_CAT_AGGREGATE];
  p->cats &= ~(1u << SQLSIM_CAT_AGGREGATE);
  p->ev[SQLSIM_CAT_AGGREGATE] = NULL;
  p->ev[to] = p->ev[to] ? sqlsim_arena_printf(a, "%s; %s", p->ev[to], ev) : ev;
  p->cats |= 1u << to;
}

/* Part p's category `from`, if it has it, becomes filter_value, its evidence
 * going along. */
static void to_value(part *p, int from, sqlsim_arena *a) {
  if (!(p->cats & (1u << from))) return;
  const char *ev = p->ev[from];
  p->cats &= ~(1u << from);
  p->ev[from] = NULL;
  p->ev[SQLSIM_CAT_FILTER_VALUE] =
      p->ev[SQLSIM_CAT_FILTER_VALUE] ? sqlsim_arena_printf(a, "%s; %s", ev, p->ev[SQLSIM_CAT_FILTER_VALUE]) : ev;
  p->cats |= 1u << SQLSIM_CAT_FILTER_VALUE;
}

/* A condition whose operator changed within its family along with the values
 * it matches (values_differ), or whose column is the same but reformatted
 * (format_changed): a change of value, not of operator or column. */
static void operator_is_value(const sqlsim_diff *d, part *p, sqlsim_arena *a) {
  if (!(p->cats & ((1u << SQLSIM_CAT_FILTER_OPERATOR) | (1u << SQLSIM_CAT_FILTER_COLUMN))) || p->root < 0) return;
  const ftree *g = diff_gold_tree(d);
  int m = g->v[p->root].match;
  if (m < 0) return;
  const sqlsim_node *gn = g->v[p->root].n, *pn = diff_pred_tree(d)->v[m].n;
  if (format_changed(gn, pn)) {
    to_value(p, SQLSIM_CAT_FILTER_COLUMN, a);
    to_value(p, SQLSIM_CAT_FILTER_OPERATOR, a);
  } else if (!(p->cats & (1u << SQLSIM_CAT_FILTER_COLUMN)) && values_differ(gn, pn)) {
    to_value(p, SQLSIM_CAT_FILTER_OPERATOR, a);
  }
}

static void parts_categories(const sqlsim_diff *d, parts *ps, sqlsim_arena *a, sqlsim_categories *out) {
  static const int order[] = {SQLSIM_CAT_AGGREGATE,       SQLSIM_CAT_DISTINCT,        SQLSIM_CAT_WRONG_COLUMN,
                              SQLSIM_CAT_FILTER_COLUMN,   SQLSIM_CAT_FILTER_OPERATOR, SQLSIM_CAT_FILTER_VALUE,
                              SQLSIM_CAT_GROUP_HAVING,    SQLSIM_CAT_ORDER_LIMIT};
  for (int i = 0; i < ps->n; i++) {
    part *p = &ps->v[i];
    aggregate_kept(d, p, a);
    operator_is_value(d, p, a);
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
      if (!(p->cats & (1u << order[k]))) continue;
      const char *ev = p->ev[order[k]];
      for (size_t j = k + 1; j < sizeof order / sizeof order[0]; j++)
        if ((p->cats & (1u << order[j])) && strlen(ev) < 300) ev = sqlsim_arena_printf(a, "%s; %s", ev, p->ev[order[j]]);
      cat_add(a, out, order[k], ev);
      break;
    }
  }
}

/* ---------------------------------------------------------------- tables */

static int unresolved_columns(const ftree *t) {
  for (int i = 0; i < t->n; i++)
    if (t->v[i].slot < 0 && t->v[i].n->kind == SQLSIM_N_COLUMN &&
        (t->v[i].n->flags & (SQLSIM_F_UNRESOLVED | SQLSIM_F_AMBIGUOUS)))
      return 1;
  return 0;
}

/* The tables whose same-named column a join equality of t makes equal to
 * column c, when c is its table's key (at most max; their count). Reading c
 * then reads that column's value, and c's table joins at most one row to
 * each of the other's (a parent's key read where the other query reads the
 * child's foreign key). One pass over t. */
static int equated_tables(const ftree *t, const sqlsim_node *c, const sqlsim_schema *s, int *tables, int max) {
  if (!s || c->column < 0 || c->column >= s->ncolumns || !s->columns[c->column].unique) return 0;
  int n = 0;
  for (int i = 0; i < t->n && n < max; i++) {
    const sqlsim_node *y = t->v[i].n;
    if (t->v[i].slot >= 0 || !is_join_equality(y)) continue;
    for (int k = 0; k < 2; k++) {
      const sqlsim_node *x = y->kids[k], *o = y->kids[1 - k];
      if (x->table == c->table && x->column == c->column && o->text && !strcasecmp(o->text, c->text) &&
          !in_int_list(tables, n, o->table) && n < max)
        tables[n++] = o->table;
    }
  }
  return n;
}

/* A column read from FROM item `from` (outside join conditions) whose name
 * the other tree reads from another table: the query meant that column and
 * took it from the wrong table (not when the column is the key of `from`,
 * joined to that table's column: the same value, equated_tables). *read says
 * whether `from` is read at all. */
static int same_name_elsewhere(const ftree *t, const sqlsim_node *from, const ftree *other, int *read,
                               const sqlsim_schema *s) {
  *read = 0;
  for (int i = 0; i < t->n; i++) {
    const sqlsim_node *c = t->v[i].n;
    if (t->v[i].slot >= 0 || c->kind != SQLSIM_N_COLUMN || c->source != from || !c->text) continue;
    int up = t->v[i].parent;
    if (up >= 0 && t->v[up].slot < 0 && is_join_condition(t->v[up].n)) continue;
    *read = 1;
    int eq[8], neq = -1; /* read once per column, when a same-named column is found */
    for (int j = 0; j < other->n; j++) {
      const sqlsim_node *o = other->v[j].n;
      if (other->v[j].slot < 0 && o->kind == SQLSIM_N_COLUMN && o->text && !strcasecmp(o->text, c->text) &&
          o->table != c->table) {
        if (neq < 0) neq = equated_tables(t, c, s, eq, 8);
        if (!in_int_list(eq, neq, o->table)) return 1;
      }
    }
  }
  return 0;
}

/* FROM item `from`, read only by join conditions, each of them on a column
 * of it that is unique (its key): every row it joins meets at most one of its
 * rows, so it can only drop rows that have no match (a parent table joined by
 * its key along a foreign key). */
static int joined_by_key(const ftree *t, const sqlsim_node *from, const sqlsim_schema *s) {
  int joins = 0;
  for (int i = 0; i < t->n; i++) {
    const sqlsim_node *c = t->v[i].n;
    if (t->v[i].slot >= 0 || c->kind != SQLSIM_N_COLUMN || c->source != from) continue;
    int up = t->v[i].parent;
    if (up < 0 || t->v[up].slot >= 0 || !is_join_condition(t->v[up].n)) return 0;
    if (!s || c->column < 0 || c->column >= s->ncolumns || !s->columns[c->column].unique) return 0;
    joins++;
  }
  return joins > 0;
}

/* Does tree t read schema table `table` anywhere (any block)? */
static int reads_table(const ftree *t, int table) {
  for (int i = 0; i < t->n; i++)
    if (t->v[i].slot < 0 && t->v[i].n->kind == SQLSIM_N_TABLE && t->v[i].n->table == table) return 1;
  return 0;
}

/* FROM item `from` is read, outside its join conditions, only by conditions
 * (WHERE, HAVING) on columns of its own (not joined equal to another
 * table's), and the other tree does not read its table anywhere: a table
 * joined to filter rows by one of its columns, gone or added whole. The table
 * goes with its condition, and a person names the table first ("the league
 * table is not joined: no filter on its name"). */
static int read_by_conditions_only(const ftree *t, const sqlsim_node *from, const ftree *other) {
  /* the columns of `from` a join equality makes equal to another FROM item's:
   * reading one of them reads that table's column too (one pass; past the
   * bound, no answer) */
  const sqlsim_node *joined[BOUND_ITEMS];
  int nj = 0;
  for (int i = 0; i < t->n; i++) {
    const sqlsim_node *y = t->v[i].n;
    if (t->v[i].slot >= 0 || !is_join_equality(y)) continue;
    for (int k = 0; k < 2; k++)
      if (y->kids[k]->source == from) {
        if (nj == BOUND_ITEMS) return 0;
        joined[nj++] = y->kids[k];
      }
  }
  int reads = 0;
  for (int i = 0; i < t->n; i++) {
    const sqlsim_node *c = t->v[i].n;
    if (t->v[i].slot >= 0 || c->kind != SQLSIM_N_COLUMN || c->source != from) continue;
    int up = t->v[i].parent;
    if (up >= 0 && t->v[up].slot < 0 && is_join_condition(t->v[up].n)) continue;
    if (t->v[i].clause != SQLSIM_SEL_WHERE && t->v[i].clause != SQLSIM_SEL_HAVING) return 0;
    int own = 1;
    for (int k = 0; k < nj && own; k++) own = !same_schema_column(joined[k], c);
    reads += own;
  }
  return reads > 0 && (from->table < 0 || !reads_table(other, from->table));
}

/* A table missing or extra is named first when it is the cause: the
 * prediction reads a column its tables do not have, or the same-named column
 * of another table, or joins a table only to multiply or filter rows (not by
 * its key, which can only drop rows without a match), or the table was there
 * for a condition on it (read_by_conditions_only); else it follows from
 * another change (a column now read from elsewhere). */
/* The gold joins two tables the prediction also reads on a pair of columns
 * the prediction never equates (0 past the bounds). */
static int gold_join_changed(const sqlsim_diff *d) {
  const ftree *g = diff_gold_tree(d), *p = diff_pred_tree(d);
  int tables[BOUND_ITEMS], pairs[BOUND_ITEMS][2], nt = 0, np = 0, checked = 0;
  for (int j = 0; j < p->n; j++) {
    const sqlsim_node *y = p->v[j].n;
    if (p->v[j].slot >= 0) continue;
    if (y->kind == SQLSIM_N_TABLE && !in_int_list(tables, nt, y->table)) {
      if (nt == BOUND_ITEMS) return 0;
      tables[nt++] = y->table;
    } else if (is_join_equality(y)) {
      if (np == BOUND_ITEMS) return 0;
      pairs[np][0] = y->kids[0]->column;
      pairs[np++][1] = y->kids[1]->column;
    }
  }
  for (int i = 0; i < g->n; i++) {
    const sqlsim_node *x = g->v[i].n;
    if (g->v[i].slot >= 0 || !is_join_equality(x) || x->kids[0]->column < 0 || x->kids[1]->column < 0) continue;
    if (++checked > BOUND_ITEMS) return 0;
    if (!in_int_list(tables, nt, x->kids[0]->table) || !in_int_list(tables, nt, x->kids[1]->table)) continue;
    int a = x->kids[0]->column, b = x->kids[1]->column, found = 0;
    for (int j = 0; j < np && !found; j++)
      found = (pairs[j][0] == a && pairs[j][1] == b) || (pairs[j][0] == b && pairs[j][1] == a);
    if (!found) return 1;
  }
  return 0;
}

static void weigh_tables(const sqlsim_diff *d, const sqlsim_schema *s, sqlsim_arena *a, sqlsim_categories *out) {
  const ftree *g = diff_gold_tree(d), *p = diff_pred_tree(d);
  int strong_missing = unresolved_columns(p), strong_extra = 0, read, any_missing = 0, bridges_only = 1;
  for (int i = 0; i < g->n; i++)
    if (g->v[i].slot < 0 && g->v[i].match < 0 && g->v[i].n->kind == SQLSIM_N_TABLE) {
      any_missing = 1;
      if (same_name_elsewhere(g, g->v[i].n, p, &read, s) || read_by_conditions_only(g, g->v[i].n, p))
        strong_missing = 1;
    }
  for (int j = 0; j < p->n; j++)
    if (p->v[j].slot < 0 && p->v[j].match < 0 && p->v[j].n->kind == SQLSIM_N_TABLE) {
      int elsewhere = same_name_elsewhere(p, p->v[j].n, g, &read, s);
      if (elsewhere || read) bridges_only = 0;
      if (elsewhere || (!read && !joined_by_key(p, p->v[j].n, s)) || read_by_conditions_only(p, p->v[j].n, g))
        strong_extra = 1;
    }
  /* tables added only to join through, where the gold joins the tables both
   * read another way: one change of join path (atoms to bonds through
   * `connected` rather than on molecule_id), named `join` */
  if (strong_extra && bridges_only && !any_missing && !(out->mask & (1u << SQLSIM_CAT_WRONG_TABLE)) &&
      gold_join_changed(d)) {
    const char *why = "the gold joins these tables on other columns; the prediction joins them through the added table";
    if (out->mask & ~((1u << SQLSIM_CAT_JOIN) | (1u << SQLSIM_CAT_EXTRA_TABLE) | out->secondary)) { /* beside another change: the join path, ranked low */
      out->secondary |= 1u << SQLSIM_CAT_EXTRA_TABLE;
      if (!(out->mask & (1u << SQLSIM_CAT_JOIN))) cat_add(a, out, SQLSIM_CAT_JOIN, why);
    } else { /* alone: people name the table added ("table redundancy", 6 to 0 on NL2SQL-BUGs) */
      out->secondary |= 1u << SQLSIM_CAT_JOIN;
      cat_add(a, out, SQLSIM_CAT_EXTRA_TABLE, why);
    }
    return;
  }
  if (!strong_missing) out->secondary |= 1u << SQLSIM_CAT_MISSING_TABLE;
  if (!strong_extra) out->secondary |= 1u << SQLSIM_CAT_EXTRA_TABLE;
  if (out->mask & ((1u << SQLSIM_CAT_WRONG_TABLE) | (1u << SQLSIM_CAT_MISSING_TABLE) | (1u << SQLSIM_CAT_EXTRA_TABLE)))
    out->secondary |= 1u << SQLSIM_CAT_JOIN; /* the join condition goes with the table */
}

/* ---------------------------------------------------------------- edits */

/* COUNT(x) against COUNT(*): the argument itself added or removed. Counting
 * NULLs or not is rarely what a person names: beside another change it goes
 * with that change's evidence; alone it is weak (sqlsim_categories.weak),
 * named only where execution shows the results differ (COUNT(ParentId) where
 * the WHERE keeps only rows whose ParentId IS NULL). */
static int count_argument(const sqlsim_diff *d, const sqlsim_edit *e) {
  int i;
  const ftree *t = side_tree(d, e, &i);
  int list = t->v[i].parent, fn = list >= 0 ? t->v[list].parent : -1;
  if (fn < 0 || t->v[fn].slot >= 0 || t->v[fn].n->kind != SQLSIM_N_FUNC || strcmp(t->v[fn].n->text, "count")) return 0;
  if (t->v[list].n != t->v[fn].n->kids[0]) return 0;
  const ftree *o = t == diff_gold_tree(d) ? diff_pred_tree(d) : diff_gold_tree(d);
  int m = t->v[fn].match;
  return m >= 0 && (o->v[m].n->flags & SQLSIM_F_STAR) && !(t->v[fn].n->flags & SQLSIM_F_STAR);
}

static void fold_consequences(sqlsim_arena *a, sqlsim_categories *out);

/* A weak difference (sqlsim_categories.weak): not in the mask, its evidence
 * kept (after the evidence of another weak one of the same category). */
static void add_weak(sqlsim_arena *a, sqlsim_categories *out, int cat, const char *ev) {
  out->evidence[cat] =
      (out->weak & (1u << cat)) && out->evidence[cat] ? sqlsim_arena_printf(a, "%s; %s", out->evidence[cat], ev) : ev;
  out->weak |= 1u << cat;
}

/* A difference that changes a result only on some data: beside another change
 * it goes with the main one's evidence; alone it is weak. */
static void keep_or_weak(sqlsim_arena *a, sqlsim_categories *out, int cat, const char *ev) {
  if (out->main < 0) {
    add_weak(a, out, cat, ev);
  } else if (out->evidence[out->main] && strlen(out->evidence[out->main]) < 400) {
    out->evidence[out->main] = sqlsim_arena_printf(a, "%s; with it: %s", out->evidence[out->main], ev);
  }
}

/* The select list of a tree's outer query block (a LIST node's index), -1. */
static int outer_targets(const ftree *t) {
  if (t->n == 0 || t->v[0].n->kind != SQLSIM_N_SELECT || t->v[0].n->op != SQLSIM_SET_NONE) return -1;
  for (int k = 0; k < t->v[0].nkids; k++) {
    int c = t->kids[t->v[0].first + k];
    if (t->v[c].slot == SQLSIM_SEL_TARGETS && t->v[c].nkids == 1) return t->kids[t->v[c].first];
  }
  return -1;
}

/* Tree t's query returns a plain column named like col (its outer select
 * list): a column missing on one side that the other returns from another
 * table is the same attribute moved, not another one. */
static int returns_like(const ftree *t, const sqlsim_node *col) {
  int l = outer_targets(t);
  for (int k = 0; l >= 0 && k < t->v[l].nkids; k++) {
    const sqlsim_node *x = t->v[t->kids[t->v[l].first + k]].n;
    if (x->kind == SQLSIM_N_TARGET) x = x->nkids ? x->kids[0] : NULL;
    if (x && x->kind == SQLSIM_N_COLUMN && same_attribute_name(x, col)) return 1;
  }
  return 0;
}

/* The same columns returned in another order: "a, b -> b, a" in the arena, or
 * NULL. Spider's EX matches columns by what they compute and does not see it;
 * BIRD's compares rows as tuples and does. */
static const char *columns_reordered(const sqlsim_diff *d, sqlsim_arena *a) {
  const ftree *g = diff_gold_tree(d), *p = diff_pred_tree(d);
  int gl = outer_targets(g), pl = outer_targets(p);
  if (gl < 0 || pl < 0 || g->v[gl].nkids != p->v[pl].nkids || g->v[gl].nkids < 2) return NULL;
  int moved = 0;
  for (int k = 0; k < g->v[gl].nkids; k++) {
    int m = g->v[g->kids[g->v[gl].first + k]].match;
    if (m < 0 || p->v[m].parent != pl) return NULL;
    moved |= p->v[m].pos != k;
  }
  return moved ? sqlsim_arena_printf(a, "SELECT columns in another order: %s -> %s", sql_of(a, g->v[gl].n),
                                     sql_of(a, p->v[pl].n))
               : NULL;
}

/* What the edits of a script showed so far, as sqlsim_categorize_diff reads
 * them one by one; what must be seen together (conditions removed and added,
 * select items, lookups, the parts of one condition) is paired after the
 * last. */
typedef struct scan {
  const sqlsim_diff *d;
  const sqlsim_schema *s;
  sqlsim_arena *a;
  sqlsim_categories *out;
  conds cs, joins;
  /* removed and added select items, per block, for pairing */
  conds targets;
  /* the star select items of both sides, read when a select item changes */
  stars st[2];
  int st_read;
  /* changes inside one condition or one select item, made one category each */
  parts pv;
  /* GROUP BY changes that leave the same groups (same_groups): named only
   * beside another change of grouping, else folded in with the main one */
  const char *weak_grouping;
  /* an ORDER BY the prediction adds where neither query limits its rows: the
   * order of rows the gold does not order is compared by no EX */
  const char *order_form;
  /* the columns each side's joins make equal, read when a column changes */
  eqpairs eqs[2];
  int eq_read;
  /* the items the query returns (its outer select list) changed: another
   * attribute, or what is computed */
  item_changes ic;
  /* COUNT(x) for COUNT(*) (count_argument): the category, its evidence */
  int count_arg;
  const char *count_ev;
} scan;

/* An edit as the rules read it: the node it changes, where it sits. */
typedef struct edit_view {
  const sqlsim_edit *e;
  const sqlsim_node *n; /* the gold's node, or the prediction's for an insertion */
  const ftree *t;       /* the tree n is in, at index ti (-1: a clause's virtual node) */
  int ti;
  int cl;               /* the clause it counts in */
  int ins, del, upd;
  int whole;            /* a whole condition (or a count's FILTER) added or removed */
  const char *ev;       /* its evidence */
} edit_view;

/* Edits whose category is where they are, not what they change: a table, a
 * window, operands swapped, a column moved to another place, anything moved.
 * Returns 1 when e was one. */
static int classify_placement(scan *sc, const edit_view *v) {
  const sqlsim_diff *d = sc->d;
  sqlsim_arena *a = sc->a;
  sqlsim_categories *out = sc->out;
  const sqlsim_edit *e = v->e;
  const char *ev = v->ev;
  int cl = v->cl;
  if (e->table) {
    cat_add(a, out, v->upd ? SQLSIM_CAT_WRONG_TABLE : v->del ? SQLSIM_CAT_MISSING_TABLE : SQLSIM_CAT_EXTRA_TABLE, ev);
    return 1;
  }
  if (v->ti >= 0 && in_window(v->t, v->ti)) {
    cat_add(a, out, SQLSIM_CAT_GROUP_HAVING, ev); /* a window's partition or order: per-group ranking */
    return 1;
  }
  if (diff_swapped_operand(d, e)) { /* the same operands in another order */
    const sqlsim_node *gp = e->gold_parent, *pp = e->pred_parent;
    const char *sev = gp && pp ? sqlsim_arena_printf(a, "%s: operands in another order: %s -> %s", clause_word(cl),
                                                     sql_of(a, gp), sql_of(a, pp))
                               : ev;
    int cat = place_category(cl, gp);
    if (cat == SQLSIM_CAT_JOIN) cat_add(a, out, cat, sev);
    else part_add(a, &sc->pv, d, e, cat, sev);
    return 1;
  }
  if (diff_leaf_moved(d, e)) { /* a column at another place: a change of column at each */
    const sqlsim_node *gp = e->gold_parent, *pp = e->pred_parent;
    const char *mev =
        gp && pp ? sqlsim_arena_printf(a, "%s: %s moved from %s to %s%s%s", clause_word(e->clause), sql_of(a, e->gold),
                                       sql_of(a, gp), e->pred_clause != e->clause ? clause_word(e->pred_clause) : "",
                                       e->pred_clause != e->clause ? " " : "", sql_of(a, pp))
                 : sqlsim_arena_printf(a, "%s: %s moved to %s", clause_word(e->clause), sql_of(a, e->gold),
                                       clause_word(e->pred_clause));
    cat_add(a, out, place_category(e->clause, e->gold_parent), mev);
    cat_add(a, out, place_category(e->pred_clause, e->pred_parent), mev);
    return 1;
  }
  if (e->action == SQLSIM_EDIT_MOVE) {
    int pc = e->pred_clause;
    /* a condition moved between WHERE and a count's condition (FILTER, the
     * CASE of SUM(CASE ..)): in WHERE it filters every row, the
     * denominator's too; in the count, only what is counted */
    int gf = in_agg_filter(diff_gold_tree(d), e->gold_index), pf = in_agg_filter(diff_pred_tree(d), e->pred_index);
    if (gf && !pf && pc == SQLSIM_SEL_WHERE) cat_add(a, out, SQLSIM_CAT_EXTRA_FILTER, ev);
    else if (!gf && pf && e->clause == SQLSIM_SEL_WHERE) cat_add(a, out, SQLSIM_CAT_MISSING_FILTER, ev);
    else if (cl == SQLSIM_SEL_ORDER || pc == SQLSIM_SEL_ORDER) cat_add(a, out, SQLSIM_CAT_ORDER_LIMIT, ev);
    else if ((cl == SQLSIM_SEL_WHERE && (pc == SQLSIM_SEL_HAVING || pc == SQLSIM_SEL_GROUP)) ||
             (pc == SQLSIM_SEL_WHERE && (cl == SQLSIM_SEL_HAVING || cl == SQLSIM_SEL_GROUP)))
      cat_add(a, out, SQLSIM_CAT_GROUP_HAVING, ev);
    else cat_add(a, out, SQLSIM_CAT_NESTING, ev); /* moved into or out of another query block */
    return 1;
  }
  return 0;
}

/* A whole clause added or removed (the edit of its virtual node). */
static void classify_whole_clause(scan *sc, const edit_view *v) {
  const sqlsim_diff *d = sc->d;
  sqlsim_arena *a = sc->a;
  sqlsim_categories *out = sc->out;
  const sqlsim_edit *e = v->e;
  const char *ev = v->ev;
  int slot = v->cl, ins = v->ins;
  const sqlsim_node *content = ins ? e->pred_content : e->gold_content;
  if ((slot == SQLSIM_SEL_WHERE || slot == SQLSIM_SEL_HAVING) && content)
    collect_conditions(d, e, content, slot, a, &sc->cs, &sc->joins);
  else if (slot == SQLSIM_SEL_WHERE) cat_add(a, out, ins ? SQLSIM_CAT_EXTRA_FILTER : SQLSIM_CAT_MISSING_FILTER, ev);
  else if (slot == SQLSIM_SEL_GROUP && same_groups(d, e, sc->s)) sc->weak_grouping = with_evidence(a, sc->weak_grouping, ev);
  else if (slot == SQLSIM_SEL_GROUP || slot == SQLSIM_SEL_HAVING) cat_add(a, out, SQLSIM_CAT_GROUP_HAVING, ev);
  else if (slot == SQLSIM_SEL_ORDER && ins && unlimited(d, e))
    sc->order_form = with_evidence(a, sc->order_form, ev);
  else if (slot == SQLSIM_SEL_ORDER || slot == SQLSIM_SEL_LIMIT || slot == SQLSIM_SEL_OFFSET)
    cat_add(a, out, SQLSIM_CAT_ORDER_LIMIT, ev);
  else if (slot == SQLSIM_SEL_TARGETS && v->ti >= 0 && enclosing_subquery(v->t, v->ti) >= 0)
    cat_add(a, out, SQLSIM_CAT_NESTING, ev); /* a subquery's whole select list: its block matched another */
  else if (slot == SQLSIM_SEL_TARGETS) cat_add(a, out, ins ? SQLSIM_CAT_EXTRA_COLUMN : SQLSIM_CAT_MISSING_COLUMN, ev);
  else if (slot == SQLSIM_SEL_FROM) cat_add(a, out, ins ? SQLSIM_CAT_EXTRA_TABLE : SQLSIM_CAT_MISSING_TABLE, ev);
  else cat_add(a, out, SQLSIM_CAT_NESTING, ev);
}

/* Inside a select list: a star that returns the other side's columns, a
 * whole item kept for pairing, or a part of an item (and whether an item the
 * query returns changed). */
static void classify_select_item(scan *sc, const edit_view *v) {
  const sqlsim_diff *d = sc->d;
  sqlsim_arena *a = sc->a;
  sqlsim_categories *out = sc->out;
  const sqlsim_edit *e = v->e;
  const ftree *t = v->t;
  int ti = v->ti, ins = v->ins, del = v->del, upd = v->upd;
  /* a star on one side returns the other's plain columns: those are not
   * changed items, and the star is the columns added (or missing) */
  const sqlsim_node *x = (ins || del) && ti >= 0 ? item_expr(t, ti) : NULL;
  if (x && !sc->st_read) {
    stars_of(diff_gold_tree(d), &sc->st[0]);
    stars_of(diff_pred_tree(d), &sc->st[1]);
    sc->st_read = 1;
  }
  const stars *own = &sc->st[t == diff_pred_tree(d)], *other = &sc->st[t != diff_pred_tree(d)];
  if (x && x->kind == SQLSIM_N_COLUMN && star_returns(other, x)) return;
  if (x && x->kind == SQLSIM_N_STAR && star_returns_any(own, x, other)) {
    cat_add(a, out, ins ? SQLSIM_CAT_EXTRA_COLUMN : SQLSIM_CAT_MISSING_COLUMN, v->ev);
    return;
  }
  if ((ins || del) && v->n->kind == SQLSIM_N_TARGET) {
    cond_add(a, &sc->targets, v->n, e->action, v->cl, gold_block(d, e));
    return;
  }
  part_add(a, &sc->pv, d, e, SQLSIM_CAT_WRONG_COLUMN, v->ev);
  if (ti >= 0 && enclosing_subquery(t, ti) < 0) { /* an item the query returns */
    const sqlsim_node *gx = e->gold_index >= 0 ? item_expr(diff_gold_tree(d), e->gold_index) : NULL;
    const sqlsim_node *px = e->pred_index >= 0 ? item_expr(diff_pred_tree(d), e->pred_index) : NULL;
    int r = (upd ? gx && px : gx || px) ? attribute_changed(gx, px) : -1;
    if (r > 0 && !upd && returns_like(gx ? diff_pred_tree(d) : diff_gold_tree(d), gx ? gx : px)) r = 0;
    count_item(&sc->ic, r);
  }
}

/* Inside WHERE or HAVING: a whole condition kept for pairing, a join key, or
 * a part of a condition (what is filtered, the value, the operator). */
static void classify_condition(scan *sc, const edit_view *v) {
  const sqlsim_diff *d = sc->d;
  sqlsim_arena *a = sc->a;
  sqlsim_categories *out = sc->out;
  const sqlsim_edit *e = v->e;
  const sqlsim_node *n = v->n;
  const char *ev = v->ev;
  int ins = v->ins, del = v->del, cl = v->cl;
  if ((ins || del) && v->whole && (n->kind == SQLSIM_N_AND || is_join_condition(n)))
    collect_conditions(d, e, n, cl, a, &sc->cs, &sc->joins);
  else if (is_join_condition(e->gold_parent) || is_join_condition(e->pred_parent))
    cat_add(a, out, SQLSIM_CAT_JOIN, ev); /* a join key */
  else if ((ins || del) && v->whole) cond_add(a, &sc->cs, n, e->action, cl, gold_block(d, e));
  /* part of a condition: an operand (what is filtered, or the value) or the operator */
  else if (cl == SQLSIM_SEL_HAVING) cat_add(a, out, SQLSIM_CAT_GROUP_HAVING, ev);
  else if (n->kind == SQLSIM_N_COLUMN || n->kind == SQLSIM_N_STAR || n->kind == SQLSIM_N_FUNC ||
           n->kind == SQLSIM_N_CAST || n->kind == SQLSIM_N_CASE ||
           (n->kind == SQLSIM_N_BINOP && n->op >= SQLSIM_OP_ADD && n->op <= SQLSIM_OP_SHR))
    part_add(a, &sc->pv, d, e, SQLSIM_CAT_FILTER_COLUMN, ev);
  else if (n->kind == SQLSIM_N_CONST) part_add(a, &sc->pv, d, e, SQLSIM_CAT_FILTER_VALUE, ev);
  else part_add(a, &sc->pv, d, e, SQLSIM_CAT_FILTER_OPERATOR, ev);
}

/* One edit that carries weight: its category now, or kept in sc for pairing. */
static void classify_edit(scan *sc, const sqlsim_edit *e) {
  const sqlsim_diff *d = sc->d;
  sqlsim_arena *a = sc->a;
  sqlsim_categories *out = sc->out;
  edit_view v = {.e = e, .n = e->gold ? e->gold : e->pred};
  v.t = side_tree(d, e, &v.ti);
  int filt = v.ti >= 0 ? in_agg_filter(v.t, v.ti) : 0;
  /* a condition inside COUNT(*) FILTER (WHERE c) is a condition on rows,
   * named as the WHERE it was or stands for */
  v.cl = filt && e->clause != SQLSIM_SEL_HAVING ? SQLSIM_SEL_WHERE : e->clause;
  v.ins = e->action == SQLSIM_EDIT_INSERT, v.del = e->action == SQLSIM_EDIT_DELETE;
  v.upd = e->action == SQLSIM_EDIT_UPDATE;
  /* what a subquery compared in WHERE or HAVING returns is part of that
   * condition (age = (SELECT max(age) ..) for date_of_birth = (SELECT
   * max(date_of_birth) ..): the column filtered, not one returned) */
  if (v.cl == SQLSIM_SEL_TARGETS && v.upd && v.ti >= 0) {
    int subq = condition_subquery(v.t, v.ti);
    if (subq == SQLSIM_SEL_WHERE || subq == SQLSIM_SEL_HAVING) v.cl = subq;
  }
  v.ev = describe(a, e, v.cl);
  v.whole = e->whole || filt == 1;
  const sqlsim_node *n = v.n;
  int cl = v.cl, ins = v.ins, del = v.del, upd = v.upd;
  const char *ev = v.ev;
  if (classify_placement(sc, &v)) return;
  if (!n) {
    classify_whole_clause(sc, &v);
    return;
  }
  if (n->kind == SQLSIM_N_SELECT && upd) {
    int setop = n->op != SQLSIM_SET_NONE || (e->pred && e->pred->op != SQLSIM_SET_NONE);
    cat_add(a, out, setop ? SQLSIM_CAT_NESTING : SQLSIM_CAT_DISTINCT, ev);
    return;
  }
  if ((ins || del) && (n->kind == SQLSIM_N_SUBLINK || n->kind == SQLSIM_N_SUBQUERY || n->kind == SQLSIM_N_SELECT)) {
    cat_add(a, out, SQLSIM_CAT_NESTING, ev);
    return;
  }
  if (same_column_other_table(d, e) || same_column_unresolved(e)) return;
  if (upd && n->kind == SQLSIM_N_COLUMN) {
    if (!sc->eq_read) {
      eqpairs_of(diff_gold_tree(d), &sc->eqs[0]);
      eqpairs_of(diff_pred_tree(d), &sc->eqs[1]);
      sc->eq_read = 1;
    }
    if (same_value_by_join(e, &sc->eqs[0], &sc->eqs[1])) return;
  }
  if ((ins || del) && count_argument(d, e)) {
    /* counting a column's non-NULL values for the rows: named only when
     * nothing else differs (then it is why the results differ) */
    sc->count_arg = column_category(cl);
    sc->count_ev = with_evidence(a, sc->count_ev, ev);
    return;
  }
  if (upd && n->kind == SQLSIM_N_FUNC && e->pred->kind == SQLSIM_N_FUNC && e->gold->text && e->pred->text &&
      !strcmp(e->gold->text, e->pred->text) &&
      (e->gold->flags & SQLSIM_F_DISTINCT) != (e->pred->flags & SQLSIM_F_DISTINCT)) {
    cat_add(a, out, SQLSIM_CAT_DISTINCT, ev); /* COUNT(DISTINCT x) for COUNT(x) */
    return;
  }
  if (is_aggregate(n) || (upd && is_aggregate(e->pred))) {
    if (cl == SQLSIM_SEL_TARGETS && v.ti >= 0 && enclosing_subquery(v.t, v.ti) < 0) sc->ic.computed++;
    if (cl == SQLSIM_SEL_HAVING && (ins || del) && v.whole) cat_add(a, out, SQLSIM_CAT_GROUP_HAVING, ev);
    else part_add(a, &sc->pv, d, e, SQLSIM_CAT_AGGREGATE, ev); /* in any clause: select list, HAVING, ORDER BY */
    return;
  }
  switch (cl) {
  case SQLSIM_SEL_TARGETS:
    classify_select_item(sc, &v);
    break;
  case SQLSIM_SEL_FROM:
    cat_add(a, out, SQLSIM_CAT_JOIN, ev);
    break;
  case SQLSIM_SEL_WHERE:
  case SQLSIM_SEL_HAVING:
    classify_condition(sc, &v);
    break;
  case SQLSIM_SEL_GROUP:
    if (same_groups(d, e, sc->s)) sc->weak_grouping = with_evidence(a, sc->weak_grouping, ev);
    else cat_add(a, out, SQLSIM_CAT_GROUP_HAVING, ev);
    break;
  case SQLSIM_SEL_ORDER:
  case SQLSIM_SEL_LIMIT:
  case SQLSIM_SEL_OFFSET:
    cat_add(a, out, SQLSIM_CAT_ORDER_LIMIT, ev);
    break;
  default: /* WITH, WINDOW, VALUES, the sides of a set operation */
    cat_add(a, out, SQLSIM_CAT_NESTING, ev);
  }
}

/* After the last edit: lookups, conditions and select items paired, the
 * parts of one condition or item made one category each, then what only
 * counts beside another change. */
static void finish_scan(scan *sc) {
  const sqlsim_diff *d = sc->d;
  const sqlsim_schema *s = sc->s;
  sqlsim_arena *a = sc->a;
  sqlsim_categories *out = sc->out;
  pair_lookups(d, &sc->cs, &sc->joins, a, out);
  const char *idle_ev = NULL; /* a NULL test the LIMIT makes idle: as sc->count_arg */
  int idle_cat = -1;
  pair_conditions(d, &sc->cs, a, out, &idle_ev, &idle_cat);
  parts_categories(d, &sc->pv, a, out);
  /* a select item removed and one added in the same block: one changed item */
  for (int i = 0; i < sc->targets.n; i++) {
    cond *g = &sc->targets.v[i];
    if (g->action != SQLSIM_EDIT_DELETE) continue;
    for (int j = 0; j < sc->targets.n; j++) {
      cond *p = &sc->targets.v[j];
      if (p->used || p->action != SQLSIM_EDIT_INSERT || p->block != g->block) continue;
      cat_add(a, out, SQLSIM_CAT_WRONG_COLUMN, sqlsim_arena_printf(a, "SELECT: %s -> %s", sql_of(a, g->n), sql_of(a, p->n)));
      if (g->block >= 0 && enclosing_subquery(diff_gold_tree(d), g->block) < 0)
        count_item(&sc->ic, g->n->nkids && p->n->nkids ? attribute_changed(g->n->kids[0], p->n->kids[0]) : -1);
      g->used = p->used = 1;
      break;
    }
  }
  for (int i = 0; i < sc->targets.n; i++)
    if (!sc->targets.v[i].used) {
      int ins = sc->targets.v[i].action == SQLSIM_EDIT_INSERT;
      cat_add(a, out, ins ? SQLSIM_CAT_EXTRA_COLUMN : SQLSIM_CAT_MISSING_COLUMN,
          sqlsim_arena_printf(a, "SELECT %s: %s", ins ? "added" : "missing", sql_of(a, sc->targets.v[i].n)));
    }
  /* a ranking per group on one side only (rank() OVER (PARTITION BY g)
   * against one global ORDER BY ... LIMIT) */
  int gw = partitioned_windows(diff_gold_tree(d)), pw = partitioned_windows(diff_pred_tree(d));
  if ((gw > 0) != (pw > 0))
    cat_add(a, out, SQLSIM_CAT_GROUP_HAVING,
        gw ? "the gold ranks within groups (a window with PARTITION BY); the prediction does not"
           : "the prediction ranks within groups (a window with PARTITION BY); the gold does not");
  if (sc->order_form) {
    if (!(out->mask & (1u << SQLSIM_CAT_ORDER_LIMIT))) out->secondary |= 1u << SQLSIM_CAT_ORDER_LIMIT;
    cat_add(a, out, SQLSIM_CAT_ORDER_LIMIT, sc->order_form);
  }
  if (sc->weak_grouping) {
    if (!(out->mask & (1u << SQLSIM_CAT_GROUP_HAVING))) out->secondary |= 1u << SQLSIM_CAT_GROUP_HAVING;
    cat_add(a, out, SQLSIM_CAT_GROUP_HAVING, sc->weak_grouping);
  }
  weigh_tables(d, s, a, out);
  /* another attribute returned, nothing computed otherwise: the column is
   * what a person names first, the table that holds it follows (NL2SQL-BUGs:
   * "attribute" before "table" where sqlsim finds both, 8 to 2) */
  if (sc->ic.other && !sc->ic.computed) out->before_tables |= 1u << SQLSIM_CAT_WRONG_COLUMN;
  if (out->mask & ~((1u << SQLSIM_CAT_NESTING) | out->secondary))
    out->secondary |= 1u << SQLSIM_CAT_NESTING; /* a form, beside a change that says what differs */
  fold_consequences(a, out);
  /* COUNT(x) for COUNT(*), a NULL test the LIMIT makes idle: evidence beside
   * another change, else weak */
  if (sc->count_arg >= 0)
    keep_or_weak(a, out, sc->count_arg,
                 sqlsim_arena_printf(a, "%s (COUNT of a column counts its non-NULL values)", sc->count_ev));
  if (idle_cat >= 0) keep_or_weak(a, out, idle_cat, idle_ev);
}

void sqlsim_categorize_diff(const sqlsim_diff *d, const sqlsim_schema *s, sqlsim_arena *a, sqlsim_categories *out) {
  memset(out, 0, sizeof *out);
  out->main = -1;
  scan sc = {.d = d, .s = s, .a = a, .out = out, .count_arg = -1};
  for (int k = 0; k < d->nedits; k++)
    if (d->edits[k].weight > 0) classify_edit(&sc, &d->edits[k]);
  finish_scan(&sc);
}

void analyze_column_order(const sqlsim_diff *d, sqlsim_arena *a, sqlsim_categories *out) {
  const char *reordered = out->main < 0 ? columns_reordered(d, a) : NULL;
  if (reordered) add_weak(a, out, SQLSIM_CAT_WRONG_COLUMN, reordered);
}

/* Categories that follow from another one found are not mistakes of their
 * own: their evidence goes with the main category's, and they leave the list. */
static void fold_consequences(sqlsim_arena *a, sqlsim_categories *out) {
  sqlsim_categories_rank(out);
  uint32_t causes = out->mask & ~out->secondary;
  if (!causes) return;
  int m = out->main;
  for (int k = 0; k < SQLSIM_NCAT; k++) {
    uint32_t bit = 1u << k;
    if (!(out->mask & out->secondary & bit)) continue;
    if (out->evidence[k] && out->evidence[m] && strlen(out->evidence[m]) < 400)
      out->evidence[m] = sqlsim_arena_printf(a, "%s; with it: %s", out->evidence[m], out->evidence[k]);
    out->mask &= ~bit;
    out->evidence[k] = NULL;
  }
  out->secondary = 0;
  sqlsim_categories_rank(out);
}
