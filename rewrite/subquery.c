/* subquery.c -- rules that remove subqueries: IN to a join or to EXISTS, and
 * decorrelation of a correlated aggregate.
 *
 * Each works on one SELECT at a time and on one place of it: a top-level AND
 * term of its WHERE (where a FALSE and a NULL drop the row alike), or for
 * decorrelation also a plain select item. The conditions are what
 * ../shared/REWRITE.md measured; the counterexamples are in
 * tests/test_rewrite.c.
 *
 *  in_join      x IN (SELECT y FROM t WHERE w) ->
 *                 ... FROM <outer>, t AS _in1 WHERE x = _in1.y AND w
 *                 when y is a column of the only table of the subquery that
 *                 alone is a PRIMARY KEY or UNIQUE (each outer row meets at
 *                 most one inner row), the subquery has no GROUP BY or
 *                 aggregate; otherwise
 *                 ... FROM <outer>, (SELECT DISTINCT y AS _k1 ...) AS _in1
 *                 WHERE x = _in1._k1
 *               Both exact (duplicates kept as IN keeps them), so nothing
 *               above them can count differently. Not for NOT IN (a NULL in
 *               the subquery empties the result), not under OR/NOT/CASE,
 *               not for a correlated subquery (SQLite has no LATERAL), not
 *               with LIMIT/OFFSET in the subquery. x = y compares as IN does
 *               (same operand order: collation and affinity follow it), and
 *               y's distinct values must stay distinct under that
 *               comparison: the comparison's collation is y's own, and x has
 *               no affinity or y's (TEXT '1' and '01' both equal INTEGER 1).
 *
 *  in_exists    x IN (SELECT y FROM t WHERE w) ->
 *                 EXISTS (SELECT 1 FROM t AS _ex1 WHERE w AND x = _ex1.y)
 *               Exact for IN as a WHERE term (FALSE and NULL both drop the
 *               row), correlated subqueries included. Only when y leads an
 *               index: unindexed, SQLite runs the EXISTS once per outer row
 *               (REWRITE.md: >120 s against 1.2 s). No GROUP BY or
 *               aggregate in the subquery (the added term would filter
 *               before them).
 *
 *  join_in      SELECT .. FROM <left> JOIN t ON x = t.y [AND p(t)] WHERE q(t) AND ..
 *                 -> SELECT .. FROM <left> WHERE x IN (SELECT t.y FROM t WHERE
 *                 p(t) AND q(t)) AND ..
 *               The reverse of in_join's first form, the faster one on SQLite
 *               without an index (REWRITE.md: IN 1219 ms, JOIN 1885 ms). t is
 *               the right side of the outermost INNER join of the only FROM
 *               item, t.y alone is PRIMARY KEY/UNIQUE (each left row met at
 *               most one t row), and t is read nowhere but in the ON clause
 *               and in WHERE terms that read t alone (no '*', no select item,
 *               no ORDER BY, no correlated subquery). The join compares as IN
 *               will: the collation of both operand orders is t.y's own and
 *               the affinities agree.
 *
 *  in_plus      x IN (SELECT y FROM t) -> +x IN (SELECT y FROM t)
 *               (REWRITE.md rule 4) The unary plus stops x's index from
 *               driving the IN, so the index on y can: only when y leads an
 *               index and the subquery has no WHERE (with one it measured
 *               slower). +x keeps x's collation but drops its affinity, so x
 *               and y must have the same affinity, a real one (not BLOB).
 *
 *  subquery_order  ORDER BY dropped in an IN or EXISTS subquery without
 *               LIMIT/OFFSET: order means nothing to a set test (REWRITE.md
 *               rule 8; SQLite keeps the sort otherwise).
 *
 *  decorrelate  E op (SELECT agg(v) FROM t WHERE t.k = o.e AND w) ->
 *                 ... JOIN (SELECT agg(v) AS _v1, t.k AS _k1 FROM t WHERE w
 *                 GROUP BY t.k) AS _d1 ON _d1._k1 = o.e ... E op _d1._v1
 *               The correlation is only equalities of an inner column with
 *               an expression of the outer query's own FROM items. agg is
 *               AVG/SUM/MIN/MAX (NULL over no rows, so a missing group drops
 *               the row as the NULL comparison did; arithmetic and CAST on
 *               top keep that) or COUNT, which is 0 over no rows: LEFT JOIN
 *               and COALESCE(_d1._v1, 0). In the select list always a LEFT
 *               JOIN (a missing group gives NULL, as the subquery did). One
 *               row per group, so no outer row is repeated, provided each
 *               outer value equals at most one group key: the comparison's
 *               collation is the key's own and the affinities agree.
 */
#include "rewrite.h"

#include "parser/tree.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- shared */

static void append_from(rule_ctx *c, sqlsim_node *sel, sqlsim_node *item) {
  sqlsim_node *old = sel->kids[SQLSIM_SEL_FROM];
  uint32_t n = old ? old->nkids : 0;
  sqlsim_node *l = rule_list(c, n + 1);
  for (uint32_t i = 0; i < n; i++) l->kids[i] = old->kids[i];
  l->kids[n] = item;
  if (old) {
    l->start = old->start;
    l->end = old->end;
  }
  sel->kids[SQLSIM_SEL_FROM] = l;
}

static int qualify_cols(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  (void)ctx;
  if (n->kind == SQLSIM_N_COLUMN && !n->alias && n->source && !(n->flags & SQLSIM_F_ALIASREF) &&
      !(n->source->kind == SQLSIM_N_SUBQUERY && !n->source->alias))
    n->alias = rule_qualifier(n->source);
  return SQLSIM_WALK_CONTINUE;
}

/* Every column of an expression written with its qualifier, so it names the
 * same thing when moved to another scope. */
static void qualify(sqlsim_node *e) { sqlsim_walk(e, qualify_cols, NULL, NULL); }

/* Whether the inner side's distinct values stay distinct under the
 * comparison "left = right" (inner is one of them); why says what fails. */
static int one_match(rule_ctx *c, const sqlsim_node *left, const sqlsim_node *right, const sqlsim_node *inner,
                     const char **why) {
  const sqlsim_node *other = inner == left ? right : left;
  if (!rule_same_collation(rule_cmp_collation(c, left, right), rule_expr_collation(c, inner))) {
    *why = "the comparison uses another collation than the inner column's own: several inner values could match one "
           "outer value";
    return 0;
  }
  int ai = rule_affinity(c, inner), ao = rule_affinity(c, other);
  if (ai <= 0 || (ao && ao != ai)) {
    *why = "the two sides differ in affinity: several inner values could equal one outer value after conversion";
    return 0;
  }
  return 1;
}

/* The IN places: a WHERE term "x IN (SELECT y ...)" with one expression and a
 * plain one-column SELECT without LIMIT/OFFSET. Returns y, or NULL. */
static sqlsim_node *in_place(rule_ctx *c, const char *rule, sqlsim_node *term) {
  if (term->kind != SQLSIM_N_SUBLINK || term->op != SQLSIM_SUB_IN) return NULL;
  if (term->flags & SQLSIM_F_NOT) {
    rule_note(c, rule, term, "NOT IN: one NULL in the subquery empties the result, which a join or NOT EXISTS does not");
    return NULL;
  }
  sqlsim_node *x = term->kids[0], *sub = term->kids[1];
  if (!x || x->kind == SQLSIM_N_ROW || rule_has_subquery(x) || !sub || sub->kind != SQLSIM_N_SELECT ||
      sub->op != SQLSIM_SET_NONE || !sub->kids[SQLSIM_SEL_TARGETS] || sub->kids[SQLSIM_SEL_TARGETS]->nkids != 1 ||
      !sub->kids[SQLSIM_SEL_FROM] || sub->kids[SQLSIM_SEL_WITH] || sub->kids[SQLSIM_SEL_WINDOW])
    return NULL;
  if (sub->kids[SQLSIM_SEL_LIMIT] || sub->kids[SQLSIM_SEL_OFFSET]) {
    rule_note(c, rule, term, "the subquery has LIMIT/OFFSET: which rows it keeps depends on it");
    return NULL;
  }
  sqlsim_node *y = sub->kids[SQLSIM_SEL_TARGETS]->kids[0]->kids[0];
  return y && y->kind != SQLSIM_N_STAR ? y : NULL;
}

static int is_plain_select(const sqlsim_node *n) {
  return n->kind == SQLSIM_N_SELECT && n->op == SQLSIM_SET_NONE && n->kids[SQLSIM_SEL_FROM] &&
         n->kids[SQLSIM_SEL_FROM]->nkids && !n->kids[SQLSIM_SEL_VALUES];
}

/* Calls at() on each top-level WHERE term of a plain SELECT n (the WHERE is
 * read again after each call: a rule may have replaced the term). */
static int each_where_term(sqlsim_node *n, rule_ctx *c, int (*at)(rule_ctx *, sqlsim_node *, sqlsim_node *)) {
  if (!is_plain_select(n)) return SQLSIM_WALK_CONTINUE;
  for (uint32_t i = 0; i < rule_nterms(n->kids[SQLSIM_SEL_WHERE]); i++) at(c, n, rule_term(n->kids[SQLSIM_SEL_WHERE], i));
  return SQLSIM_WALK_CONTINUE;
}

/* ---------------------------------------------------------------- in_join */

static int in_join_at(rule_ctx *c, sqlsim_node *sel, sqlsim_node *term) {
  sqlsim_node *y = in_place(c, "in_join", term);
  if (!y) return 0;
  sqlsim_node *x = term->kids[0], *sub = term->kids[1];
  const char *why;
  if (rule_correlated(sub, sub)) {
    rule_note(c, "in_join", term, "the subquery is correlated: SQLite has no LATERAL join to take it");
    return 0;
  }
  if (!one_match(c, x, y, y, &why)) {
    rule_note(c, "in_join", term, why);
    return 0;
  }
  const sqlsim_column *ycol = rule_base_column(c, y);
  sqlsim_node *from = sub->kids[SQLSIM_SEL_FROM];
  int flat = ycol && ycol->unique && from->nkids == 1 && from->kids[0] == y->source &&
             !sub->kids[SQLSIM_SEL_GROUP] && !sub->kids[SQLSIM_SEL_HAVING] &&
             !rule_has_aggregate(sub->kids[SQLSIM_SEL_TARGETS]);
  if (rule_open_scope(c, "in_join", sel)) return 0;
  const char *alias = rule_fresh_name(c, "_in");
  if (flat) {
    /* each outer row meets at most one row of t: join t itself */
    sqlsim_node *item = from->kids[0];
    rule_rename_item(sub, item, alias);
    append_from(c, sel, item);
    rule_replace_term(c, sel, term, rule_binop(c, SQLSIM_OP_EQ, x, y));
    if (sub->kids[SQLSIM_SEL_WHERE]) rule_add_where(c, sel, sub->kids[SQLSIM_SEL_WHERE]);
  } else {
    /* join the distinct values: each outer row meets each value once */
    const char *key = rule_fresh_name(c, "_k");
    sub->flags |= SQLSIM_F_DISTINCT;
    sub->kids[SQLSIM_SEL_ORDER] = NULL;
    sub->kids[SQLSIM_SEL_TARGETS]->kids[0]->text = key;
    sub->kids[SQLSIM_SEL_TARGETS]->kids[0]->raw = NULL; /* the alias as written gives way */
    sqlsim_node *item = tree_node_new(c->q->arena, SQLSIM_N_SUBQUERY, 1);
    item->kids[0] = sub;
    item->alias = alias;
    append_from(c, sel, item);
    rule_replace_term(c, sel, term, rule_binop(c, SQLSIM_OP_EQ, x, rule_column(c, item, key, -1)));
  }
  c->changed++;
  return 1;
}

int rule_in_join(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  return each_where_term(n, ctx, in_join_at);
}

/* ---------------------------------------------------------------- in_exists */

static void rename_own(rule_ctx *c, sqlsim_node *sel, sqlsim_node *item) {
  if (!item) return;
  if (item->kind == SQLSIM_N_JOIN) {
    rename_own(c, sel, item->kids[0]);
    rename_own(c, sel, item->kids[1]);
    return;
  }
  rule_rename_item(sel, item, rule_fresh_name(c, "_ex"));
}

static int in_exists_at(rule_ctx *c, sqlsim_node *sel, sqlsim_node *term) {
  sqlsim_node *y = in_place(c, "in_exists", term);
  if (!y) return 0;
  sqlsim_node *x = term->kids[0], *sub = term->kids[1];
  if (sub->kids[SQLSIM_SEL_GROUP] || sub->kids[SQLSIM_SEL_HAVING] || rule_has_aggregate(sub->kids[SQLSIM_SEL_TARGETS])) {
    rule_note(c, "in_exists", term, "the subquery groups or aggregates: a term added to its WHERE would filter first");
    return 0;
  }
  if (!rule_base_column(c, y) || !rule_own_item(sub, y->source) || !rule_indexed(c, y)) {
    rule_note(c, "in_exists", term,
              "the inner column leads no index: SQLite would run the EXISTS once per outer row (measured: over 120 s "
              "where IN took 1.2 s; docs/rewrite.md)");
    return 0;
  }
  qualify(x);
  sqlsim_node *from = sub->kids[SQLSIM_SEL_FROM];
  for (uint32_t i = 0; i < from->nkids; i++) rename_own(c, sub, from->kids[i]);
  sub->kids[SQLSIM_SEL_TARGETS]->kids[0]->kids[0] = rule_int(c, "1");
  sub->kids[SQLSIM_SEL_TARGETS]->kids[0]->text = NULL;
  sub->kids[SQLSIM_SEL_TARGETS]->kids[0]->raw = NULL;
  sub->flags &= ~SQLSIM_F_DISTINCT;
  sub->kids[SQLSIM_SEL_ORDER] = NULL;
  rule_add_where(c, sub, rule_binop(c, SQLSIM_OP_EQ, x, y));
  sqlsim_node *ex = tree_node_new(c->q->arena, SQLSIM_N_SUBLINK, 2);
  ex->op = SQLSIM_SUB_EXISTS;
  ex->kids[1] = sub;
  rule_replace_term(c, sel, term, ex);
  c->changed++;
  return 1;
}

int rule_in_exists(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  return each_where_term(n, ctx, in_exists_at);
}

/* ---------------------------------------------------------------- join_in */

typedef struct reads_ctx {
  const sqlsim_node *item;
  int reads;
} reads_ctx;

static int reads_item(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  reads_ctx *k = ctx;
  if (((n->kind == SQLSIM_N_COLUMN || n->kind == SQLSIM_N_STAR) && n->source == k->item) ||
      (n->kind == SQLSIM_N_STAR && !n->alias)) {
    k->reads = 1;
    return SQLSIM_WALK_ABORT;
  }
  return SQLSIM_WALK_CONTINUE;
}

/* Whether anything in n reads the FROM item (an unqualified '*' reads all). */
static int reads(const sqlsim_node *n, const sqlsim_node *item) {
  reads_ctx k = {item, 0};
  sqlsim_walk((sqlsim_node *)n, reads_item, NULL, &k);
  return k.reads;
}

typedef struct only_ctx {
  const sqlsim_node *item;
  int mine, other;
} only_ctx;

static int count_reads(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  only_ctx *k = ctx;
  if (n->kind == SQLSIM_N_STAR && !n->alias) k->other++;
  else if (n->kind == SQLSIM_N_COLUMN || n->kind == SQLSIM_N_STAR) {
    if (n->source == k->item) k->mine++;
    else k->other++;
  }
  return SQLSIM_WALK_CONTINUE;
}

/* Whether n reads item and nothing else. */
static int reads_only(const sqlsim_node *n, const sqlsim_node *item) {
  only_ctx k = {item, 0, 0};
  sqlsim_walk((sqlsim_node *)n, count_reads, NULL, &k);
  return k.mine && !k.other;
}

static int join_in_at(rule_ctx *c, sqlsim_node *sel) {
  sqlsim_node *from = sel->kids[SQLSIM_SEL_FROM];
  if (from->nkids != 1 || from->kids[0]->kind != SQLSIM_N_JOIN) return 0;
  sqlsim_node *j = from->kids[0], *t = j->kids[1];
  if (j->op != SQLSIM_JOIN_INNER || (j->flags & SQLSIM_F_NATURAL) || j->kids[3] || !j->kids[2] ||
      t->kind != SQLSIM_N_TABLE || t->table < 0 || (t->flags & SQLSIM_F_CTEREF))
    return 0;
  /* the ON clause: one key term x = t.y, terms on t alone, terms on the left alone */
  sqlsim_node *on = j->kids[2], *key = NULL, *x = NULL, *y = NULL;
  sqlsim_node *inner[64], *outer[64];
  uint32_t ni = 0, no = 0, nt = rule_nterms(on);
  if (nt > 64) return 0;
  for (uint32_t i = 0; i < nt; i++) {
    sqlsim_node *term = rule_term(on, i);
    if (!key && term->kind == SQLSIM_N_BINOP && term->op == SQLSIM_OP_EQ) {
      for (int s = 0; s < 2 && !key; s++) {
        sqlsim_node *a = term->kids[s], *b = term->kids[1 - s];
        const sqlsim_column *col = rule_base_column(c, b);
        if (col && col->unique && b->source == t && !reads(a, t) && !rule_has_subquery(a)) {
          key = term;
          x = a;
          y = b;
        }
      }
      if (key == term) continue;
    }
    if (rule_has_subquery(term)) return 0;
    if (reads_only(term, t)) inner[ni++] = term;
    else if (!reads(term, t)) outer[no++] = term;
    else return 0;
  }
  if (!key) return 0;
  if ((sel->kids[SQLSIM_SEL_LIMIT] || sel->kids[SQLSIM_SEL_OFFSET]) && !sel->kids[SQLSIM_SEL_ORDER]) {
    rule_note(c, "join_in", key, "LIMIT without ORDER BY keeps whichever rows come first, an order the rewrite changes");
    return 0;
  }
  const char *why;
  if (!one_match(c, key->kids[0], key->kids[1], y, &why) || !one_match(c, x, y, y, &why)) {
    rule_note(c, "join_in", key, why);
    return 0;
  }
  /* t read nowhere else; WHERE terms on t alone move into the subquery */
  for (int slot = SQLSIM_SEL_TARGETS; slot < SQLSIM_SEL__COUNT; slot++)
    if (slot != SQLSIM_SEL_FROM && slot != SQLSIM_SEL_WHERE && sel->kids[slot] && reads(sel->kids[slot], t)) {
      rule_note(c, "join_in", key, "the joined table is read outside the join and the WHERE filters on it alone");
      return 0;
    }
  sqlsim_node *where = sel->kids[SQLSIM_SEL_WHERE];
  uint32_t nw = rule_nterms(where);
  if (nw > 64 - ni) return 0;
  for (uint32_t i = 0; i < nw; i++) {
    sqlsim_node *term = rule_term(where, i);
    if (!reads(term, t)) continue;
    if (!reads_only(term, t) || rule_has_subquery(term)) {
      rule_note(c, "join_in", term, "a WHERE term reads the joined table with another");
      return 0;
    }
    inner[ni++] = term;
  }
  /* the subquery */
  sqlsim_arena *a = c->q->arena;
  sqlsim_node *sub = tree_node_new(a, SQLSIM_N_SELECT, SQLSIM_SEL__COUNT);
  sub->kids[SQLSIM_SEL_TARGETS] = rule_list(c, 1);
  sub->kids[SQLSIM_SEL_TARGETS]->kids[0] = tree_node_new(a, SQLSIM_N_TARGET, 1);
  sub->kids[SQLSIM_SEL_TARGETS]->kids[0]->kids[0] = y;
  sub->kids[SQLSIM_SEL_FROM] = rule_list(c, 1);
  sub->kids[SQLSIM_SEL_FROM]->kids[0] = t;
  for (uint32_t i = 0; i < ni; i++) {
    rule_replace_term(c, sel, inner[i], NULL); /* a no-op for ON terms */
    rule_add_where(c, sub, inner[i]);
  }
  sqlsim_node *in = tree_node_new(a, SQLSIM_N_SUBLINK, 2);
  in->op = SQLSIM_SUB_IN;
  in->kids[0] = x;
  in->kids[1] = sub;
  from->kids[0] = j->kids[0];
  for (uint32_t i = 0; i < no; i++) rule_add_where(c, sel, outer[i]);
  rule_add_where(c, sel, in);
  c->changed++;
  return 1;
}

int rule_join_in(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  rule_ctx *c = ctx;
  if (is_plain_select(n)) join_in_at(c, n);
  return SQLSIM_WALK_CONTINUE;
}

/* ---------------------------------------------------------------- in_plus */

static int in_plus_at(rule_ctx *c, sqlsim_node *sel, sqlsim_node *term) {
  (void)sel;
  if (term->kind != SQLSIM_N_SUBLINK || term->op != SQLSIM_SUB_IN) return 0;
  sqlsim_node *y = in_place(c, "in_plus", term);
  if (!y) return 0;
  sqlsim_node *x = term->kids[0], *sub = term->kids[1];
  if (!rule_base_column(c, x) || !rule_base_column(c, y) || sub->kids[SQLSIM_SEL_FROM]->nkids != 1 ||
      sub->kids[SQLSIM_SEL_FROM]->kids[0] != y->source || sub->kids[SQLSIM_SEL_GROUP] || sub->kids[SQLSIM_SEL_HAVING])
    return 0;
  if (sub->kids[SQLSIM_SEL_WHERE]) {
    rule_note(c, "in_plus", term, "the subquery has a WHERE: +x IN was measured slower then (docs/rewrite.md)");
    return 0;
  }
  int ax = rule_affinity(c, x), ay = rule_affinity(c, y);
  if (ax != ay || ay == 'B') {
    rule_note(c, "in_plus", term, "+x has no affinity: x and y must share one (not BLOB) for the comparison to stay");
    return 0;
  }
  if (!rule_indexed(c, y)) {
    rule_note(c, "in_plus", term, "the inner column leads no index: nothing for the IN to drive");
    return 0;
  }
  sqlsim_node *plus = tree_node_new(c->q->arena, SQLSIM_N_UNOP, 1);
  plus->op = SQLSIM_OP_PLUS;
  plus->kids[0] = x;
  term->kids[0] = plus;
  c->changed++;
  return 1;
}

int rule_in_plus(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  return each_where_term(n, ctx, in_plus_at);
}

/* ---------------------------------------------------------------- subquery_order */

int rule_subquery_order(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  rule_ctx *c = ctx;
  if (n->kind != SQLSIM_N_SUBLINK || (n->op != SQLSIM_SUB_IN && n->op != SQLSIM_SUB_EXISTS)) return SQLSIM_WALK_CONTINUE;
  sqlsim_node *sub = n->kids[1];
  if (sub && sub->kind == SQLSIM_N_SELECT && sub->kids[SQLSIM_SEL_ORDER] && !sub->kids[SQLSIM_SEL_LIMIT] &&
      !sub->kids[SQLSIM_SEL_OFFSET]) {
    sub->kids[SQLSIM_SEL_ORDER] = NULL;
    c->changed++;
  }
  return SQLSIM_WALK_CONTINUE;
}

/* ---------------------------------------------------------------- decorrelate */

static int is_func(const sqlsim_node *e, const char *name) {
  return e->kind == SQLSIM_N_FUNC && !strcmp(e->text, name) && !(e->nkids > 2 && e->kids[2]);
}

/* 1: an aggregate value NULL over no rows; 2: COUNT (0 over no rows); 0: neither. */
static int agg_shape(const sqlsim_node *e) {
  if (!e) return 0;
  if (is_func(e, "count")) return 2;
  if ((is_func(e, "avg") || is_func(e, "sum") || is_func(e, "min") || is_func(e, "max")) && e->kids[0] &&
      e->kids[0]->nkids == 1)
    return !rule_has_subquery(e) ? 1 : 0;
  if (e->kind == SQLSIM_N_CAST) return agg_shape(e->kids[0]) == 1;
  if (e->kind == SQLSIM_N_BINOP && (e->op == SQLSIM_OP_ADD || e->op == SQLSIM_OP_SUB || e->op == SQLSIM_OP_MUL ||
                                    e->op == SQLSIM_OP_DIV)) {
    for (int s = 0; s < 2; s++)
      if (e->kids[1 - s]->kind == SQLSIM_N_CONST && e->kids[1 - s]->op != SQLSIM_CONST_NULL)
        return agg_shape(e->kids[s]) == 1;
  }
  return 0;
}

typedef struct own_ctx {
  const sqlsim_node *sel;
  int own, other;
} own_ctx;

static int count_own(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  own_ctx *k = ctx;
  if (n->kind == SQLSIM_N_COLUMN || n->kind == SQLSIM_N_STAR) {
    if (n->source && rule_own_item(k->sel, n->source)) k->own++;
    else k->other++;
  }
  return SQLSIM_WALK_CONTINUE;
}

/* Whether every column of e reads one of sel's own FROM items. */
static int only_own(const sqlsim_node *sel, const sqlsim_node *e) {
  own_ctx k = {sel, 0, 0};
  sqlsim_walk((sqlsim_node *)e, count_own, NULL, &k);
  return k.own > 0 && !k.other && !rule_has_subquery(e);
}

enum { MAXKEYS = 8 };

static int decorrelate_at(rule_ctx *c, sqlsim_node *sel, sqlsim_node *sublink, int in_where) {
  sqlsim_node *sub = sublink->kids[1];
  if (!is_plain_select(sub) || !sub->kids[SQLSIM_SEL_TARGETS] || sub->kids[SQLSIM_SEL_TARGETS]->nkids != 1 ||
      sub->kids[SQLSIM_SEL_WITH] || sub->kids[SQLSIM_SEL_WINDOW] || !rule_correlated(sub, sub))
    return 0;
  if (sub->kids[SQLSIM_SEL_GROUP] || sub->kids[SQLSIM_SEL_HAVING] || sub->kids[SQLSIM_SEL_LIMIT] ||
      sub->kids[SQLSIM_SEL_OFFSET]) {
    rule_note(c, "decorrelate", sublink, "the subquery has GROUP BY, HAVING, LIMIT or OFFSET");
    return 0;
  }
  sqlsim_node *value = sub->kids[SQLSIM_SEL_TARGETS]->kids[0]->kids[0];
  int shape = agg_shape(value);
  if (!shape) {
    rule_note(c, "decorrelate", sublink,
              "its value is not COUNT, or AVG/SUM/MIN/MAX (with arithmetic or CAST on top), of the inner rows");
    return 0;
  }
  if (rule_correlated(sub, sub->kids[SQLSIM_SEL_TARGETS]) || rule_correlated(sub, sub->kids[SQLSIM_SEL_FROM])) {
    rule_note(c, "decorrelate", sublink, "the outer query is read outside the WHERE of the subquery");
    return 0;
  }
  /* the WHERE terms: local ones stay, correlated ones become join keys */
  sqlsim_node *where = sub->kids[SQLSIM_SEL_WHERE];
  uint32_t nt = rule_nterms(where), nlocal = 0, nkeys = 0;
  sqlsim_node *local[64], *inner[MAXKEYS], *outer[MAXKEYS];
  int inner_left[MAXKEYS];
  if (nt > 64) return 0;
  for (uint32_t i = 0; i < nt; i++) {
    sqlsim_node *t = rule_term(where, i);
    if (!rule_correlated(sub, t)) {
      local[nlocal++] = t;
      continue;
    }
    int ok = 0;
    if (t->kind == SQLSIM_N_BINOP && t->op == SQLSIM_OP_EQ && nkeys < MAXKEYS)
      for (int s = 0; s < 2 && !ok; s++) {
        sqlsim_node *in = t->kids[s], *out = t->kids[1 - s];
        if (in->kind == SQLSIM_N_COLUMN && in->source && rule_own_item(sub, in->source) && rule_base_column(c, in) &&
            only_own(sel, out)) {
          const char *why;
          if (!one_match(c, t->kids[0], t->kids[1], in, &why)) {
            rule_note(c, "decorrelate", t, why);
            return 0;
          }
          inner[nkeys] = in;
          outer[nkeys] = out;
          inner_left[nkeys++] = s == 0;
          ok = 1;
        }
      }
    if (!ok) {
      rule_note(c, "decorrelate", t,
                "a correlation that is not an inner column equal to an expression of the outer query's own tables");
      return 0;
    }
  }
  if (!nkeys) return 0;
  if (rule_open_scope(c, "decorrelate", sel)) return 0;

  /* the grouped derived table */
  sqlsim_node *targets = rule_list(c, nkeys + 1), *group = rule_list(c, nkeys);
  targets->kids[0] = sub->kids[SQLSIM_SEL_TARGETS]->kids[0];
  sub->kids[SQLSIM_SEL_TARGETS] = targets;
  targets->kids[0]->text = rule_fresh_name(c, "_v");
  targets->kids[0]->raw = NULL;
  const char *keys[MAXKEYS];
  for (uint32_t j = 0; j < nkeys; j++) {
    sqlsim_node *t = tree_node_new(c->q->arena, SQLSIM_N_TARGET, 1);
    t->kids[0] = tree_clone(c->q->arena, inner[j]);
    targets->kids[j + 1] = t;
    t->text = keys[j] = rule_fresh_name(c, "_k");
    group->kids[j] = tree_clone(c->q->arena, inner[j]);
  }
  sub->kids[SQLSIM_SEL_GROUP] = group;
  sqlsim_node *lw = NULL;
  if (nlocal == 1) lw = local[0];
  if (nlocal > 1) {
    lw = tree_node_new(c->q->arena, SQLSIM_N_AND, (int)nlocal);
    memcpy(lw->kids, local, sizeof *local * nlocal);
  }
  sub->kids[SQLSIM_SEL_WHERE] = lw;
  sqlsim_node *item = tree_node_new(c->q->arena, SQLSIM_N_SUBQUERY, 1);
  item->kids[0] = sub;
  item->alias = rule_fresh_name(c, "_d");

  /* joined on the correlation, to the last FROM item of the outer query */
  sqlsim_node *on = nkeys == 1 ? NULL : tree_node_new(c->q->arena, SQLSIM_N_AND, (int)nkeys);
  for (uint32_t j = 0; j < nkeys; j++) {
    qualify(outer[j]);
    sqlsim_node *k = rule_column(c, item, keys[j], -1);
    sqlsim_node *eq = inner_left[j] ? rule_binop(c, SQLSIM_OP_EQ, k, outer[j]) : rule_binop(c, SQLSIM_OP_EQ, outer[j], k);
    if (on) on->kids[j] = eq;
    else on = eq;
  }
  sqlsim_node *from = sel->kids[SQLSIM_SEL_FROM];
  sqlsim_node *join = tree_node_new(c->q->arena, SQLSIM_N_JOIN, 4);
  join->op = (shape == 2 || !in_where) ? SQLSIM_JOIN_LEFT : SQLSIM_JOIN_INNER;
  join->kids[0] = from->kids[from->nkids - 1];
  join->kids[1] = item;
  join->kids[2] = on;
  from->kids[from->nkids - 1] = join;

  /* the subquery's place now reads the joined value */
  sqlsim_node *v = rule_column(c, item, targets->kids[0]->text, -1);
  if (shape == 2) v = rule_func(c, "coalesce", v, rule_int(c, "0"));
  int32_t start = sublink->start, end = sublink->end;
  *sublink = *v;
  sublink->start = start;
  sublink->end = end;
  c->changed++;
  return 1;
}

static int is_scalar(const sqlsim_node *n) {
  return n && n->kind == SQLSIM_N_SUBLINK && n->op == SQLSIM_SUB_SCALAR && !(n->flags & SQLSIM_F_NOT);
}

int rule_decorrelate(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  rule_ctx *c = ctx;
  if (!is_plain_select(n)) return SQLSIM_WALK_CONTINUE;
  sqlsim_node *where = n->kids[SQLSIM_SEL_WHERE];
  for (uint32_t i = 0; i < rule_nterms(where); i++) {
    sqlsim_node *t = rule_term(where, i);
    if (t->kind != SQLSIM_N_BINOP || t->op < SQLSIM_OP_EQ || t->op > SQLSIM_OP_GE) continue;
    for (int s = 0; s < 2; s++)
      if (is_scalar(t->kids[s]) && !rule_has_subquery(t->kids[1 - s])) {
        decorrelate_at(c, n, t->kids[s], 1);
        break;
      }
    where = n->kids[SQLSIM_SEL_WHERE];
  }
  /* select items: only where no grouping could see the joined rows */
  sqlsim_node *targets = n->kids[SQLSIM_SEL_TARGETS];
  if (!targets || n->kids[SQLSIM_SEL_GROUP] || rule_has_aggregate(targets)) return SQLSIM_WALK_CONTINUE;
  for (uint32_t i = 0; i < targets->nkids; i++)
    if (targets->kids[i]->nkids && is_scalar(targets->kids[i]->kids[0]))
      decorrelate_at(c, n, targets->kids[i]->kids[0], 0);
  return SQLSIM_WALK_CONTINUE;
}
