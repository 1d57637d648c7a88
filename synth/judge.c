/* judge.c -- how a query's answer on a generated database is judged
 * against the gold's, and the connection the judging runs on (synth_env).
 *
 * Below the verdict (synth.c), the distilled suite (suite.c) and the
 * witness (witness.c), which all judge through it: ties at the gold's LIMIT
 * or under its ORDER BY (its sort keys returned as extra columns, without the
 * LIMIT), a gold that counts (a row holding a value), an aggregate over
 * nothing, and the rows a connection holds (loaded from a synth_data, with the
 * tables already there kept). */
#include "synth.h"
#include "exec/sandbox.h"
#include "metrics/ex.h"
#include "parser/tree.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- ties */

/* A query (the gold, or the prediction) with its sort keys as extra trailing
 * columns and without LIMIT and OFFSET, for a plain top-level SELECT with
 * ORDER BY; its LIMIT and OFFSET (-1 none). NULL when the query is not of
 * that form. malloc'd. */
char *synth_keyed_query(const sqlsim_query *query, long *limit, long *offset, int *nkeys) {
  *limit = *offset = -1;
  *nkeys = 0;
  const sqlsim_node *root = query ? query->root : NULL;
  if (!root || root->kind != SQLSIM_N_SELECT || root->op != SQLSIM_SET_NONE) return NULL;
  const sqlsim_node *order = root->kids[SQLSIM_SEL_ORDER], *targets = root->kids[SQLSIM_SEL_TARGETS];
  if (!order || !order->nkids || !targets) return NULL;
  const sqlsim_node *lim = root->kids[SQLSIM_SEL_LIMIT], *off = root->kids[SQLSIM_SEL_OFFSET];
  if (lim) {
    if (lim->kind != SQLSIM_N_CONST || lim->op != SQLSIM_CONST_INT) return NULL;
    long long v;
    core_int_literal(lim->text, &v); /* past 64 bits: the end of the range */
    *limit = (long)v; /* negative: no limit, as SQLite reads it */
  }
  if (off) {
    if (off->kind != SQLSIM_N_CONST || off->op != SQLSIM_CONST_INT) return NULL;
    long long v;
    core_int_literal(off->text, &v);
    *offset = (long)v;
  }
  sqlsim_query *q = sqlsim_query_clone(query);
  if (!q) return NULL;
  sqlsim_node *r = q->root, *t = r->kids[SQLSIM_SEL_TARGETS], *o = r->kids[SQLSIM_SEL_ORDER];
  sqlsim_node **kids = sqlsim_arena_alloc(q->arena, sizeof *kids * (t->nkids + o->nkids));
  memcpy(kids, t->kids, sizeof *kids * t->nkids);
  uint32_t n = t->nkids;
  for (uint32_t i = 0; i < o->nkids; i++) {
    sqlsim_node *e = o->kids[i] && o->kids[i]->nkids ? o->kids[i]->kids[0] : NULL;
    if (!e) goto fail;
    if (e->kind == SQLSIM_N_CONST && e->op == SQLSIM_CONST_INT) { /* ORDER BY 2 */
      long k = atol(e->text);
      if (k < 1 || k > (long)t->nkids || !t->kids[k - 1]->nkids) goto fail;
      e = t->kids[k - 1]->kids[0];
    } else if (e->kind == SQLSIM_N_COLUMN && (e->flags & SQLSIM_F_ALIASREF)) { /* ORDER BY an alias */
      sqlsim_node *found = NULL;
      for (uint32_t j = 0; j < t->nkids; j++)
        if (t->kids[j]->text && e->text && core_fold_eq(t->kids[j]->text, e->text) && t->kids[j]->nkids)
          found = t->kids[j]->kids[0];
      if (!found) goto fail;
      e = found;
    }
    sqlsim_node *tg = sqlsim_arena_alloc(q->arena, sizeof *tg);
    tg->kind = SQLSIM_N_TARGET;
    tg->start = tg->end = -1;
    tg->table = tg->column = -1;
    tg->kids = sqlsim_arena_alloc(q->arena, sizeof *tg->kids);
    tg->kids[0] = e;
    tg->nkids = 1;
    kids[n++] = tg;
  }
  t->kids = kids;
  t->nkids = n;
  t->flags &= ~(uint32_t)SQLSIM_F_UNORDERED;
  r->kids[SQLSIM_SEL_LIMIT] = r->kids[SQLSIM_SEL_OFFSET] = NULL;
  *nkeys = (int)o->nkids;
  char *sql = sqlsim_print_sql(r, 0);
  sqlsim_query_free(q);
  return sql;
fail:
  sqlsim_query_free(q);
  return NULL;
}

/* Whether rows a and b agree on columns [from, to). */
static int same_cells(const sqlsim_result *r, long a, long b, int from, int to) {
  for (int c = from; c < to; c++)
    if (r->cells[a * r->ncols + c] != r->cells[b * r->ncols + c]) return 0;
  return 1;
}

/* Rows a and b (a < b) share their sort keys (the trailing nkeys columns) but
 * the run of rows with those keys returns different values: the order between
 * them, or which of them a LIMIT keeps, changes the answer. Rows that return
 * the same values (a join repeating the top row) can be taken in any order.
 * The run is rows [*lo, *hi]. */
static int tied_apart(const sqlsim_result *r, long a, long b, int nkeys, long *lo, long *hi) {
  int ret = r->ncols - nkeys;
  if (!same_cells(r, a, b, ret, r->ncols)) return 0;
  *lo = a, *hi = b; /* the whole run of rows with these keys */
  while (*lo > 0 && same_cells(r, *lo - 1, a, ret, r->ncols)) --*lo;
  while (*hi + 1 < r->nrows && same_cells(r, *hi + 1, a, ret, r->ncols)) ++*hi;
  for (long i = *lo; i <= *hi; i++)
    if (!same_cells(r, i, a, 0, ret)) return 1;
  return 0;
}

int synth_cut_ties(const sqlsim_result *r, long limit, long offset, int nkeys, long *lo, long *hi) {
  if (limit < 0 || r->ncols < nkeys) return 0;
  long o = offset > 0 ? offset : 0;
  long end = limit > LONG_MAX - o ? LONG_MAX : o + limit; /* rows [o, end) are the answer */
  return (end > 0 && end < r->nrows && tied_apart(r, end - 1, end, nkeys, lo, hi)) ||
         (o > 0 && o < r->nrows && tied_apart(r, o - 1, o, nkeys, lo, hi));
}

/* Whether the query's answer on this database hinges on ties. */
int synth_tie_kind(sqlsim_db *db, const char *keyed, long limit, long offset, int nkeys, double *spent) {
  sqlsim_result r;
  synth_exec_own(db, keyed, 0, &r); /* sqlsim's printed SQL: the scratch answers what the engine does not read */
  *spent = r.total_s;
  int kind = TIE_NONE;
  if (r.status == SQLSIM_EXEC_OK && r.ncols >= nkeys) {
    long o = offset > 0 ? offset : 0;
    long end = limit < 0 ? r.nrows : limit > LONG_MAX - o ? LONG_MAX : o + limit; /* rows [o, end) are the answer */
    long lo, hi;
    if (synth_cut_ties(&r, limit, offset, nkeys, &lo, &hi)) kind = TIE_LIMIT;
    /* ties inside the answer: their order is free (with a LIMIT too, where
     * the cut keeps every row of the tie) */
    for (long i = o; i < r.nrows - 1 && i < end - 1 && kind == TIE_NONE; i++)
      if (same_cells(&r, i, i + 1, r.ncols - nkeys, r.ncols) && !same_cells(&r, i, i + 1, 0, r.ncols - nkeys))
        kind = TIE_ORDER;
  }
  sqlsim_result_free(&r);
  return kind;
}

/* cond is `col = (SELECT max(col) FROM ..)` (*desc 1) or min (*desc 0), the
 * subquery a plain block without GROUP BY or LIMIT. */
static int lookup_column(const sqlsim_node *cond, const sqlsim_node *col, int *desc) {
  const sqlsim_node *x, *f;
  if (!tree_lookup_item(cond, &x, &f) || cond->kind != SQLSIM_N_BINOP || x->kind != SQLSIM_N_COLUMN ||
      x->column < 0 || x->column != col->column)
    return 0;
  if (f->kind != SQLSIM_N_FUNC || !tree_is_aggregate(f) || (f->flags & SQLSIM_F_DISTINCT) ||
      (strcmp(f->text, "max") && strcmp(f->text, "min")))
    return 0;
  const sqlsim_node *arg = f->kids[0] && f->kids[0]->nkids == 1 ? f->kids[0]->kids[0] : NULL;
  if (!arg || arg->kind != SQLSIM_N_COLUMN || arg->column != col->column) return 0;
  *desc = !strcmp(f->text, "max");
  return 1;
}

/* The gold keeps every row at the top by such a lookup in its WHERE, the
 * prediction one of them by ORDER BY col DESC (ASC for min) LIMIT 1: the two
 * differ only where the top value is shared. */
int synth_top_row_of_top_rows(const sqlsim_query *gold, const sqlsim_query *pred) {
  if (!gold || !pred || pred->schema != gold->schema) return 0;
  const sqlsim_node *g = gold->root, *p = pred->root;
  if (!g || !p || g->kind != SQLSIM_N_SELECT || p->kind != SQLSIM_N_SELECT || g->op != SQLSIM_SET_NONE ||
      p->op != SQLSIM_SET_NONE || g->kids[SQLSIM_SEL_LIMIT] || p->kids[SQLSIM_SEL_OFFSET])
    return 0;
  const sqlsim_node *lim = p->kids[SQLSIM_SEL_LIMIT], *ord = p->kids[SQLSIM_SEL_ORDER];
  if (!lim || lim->kind != SQLSIM_N_CONST || lim->op != SQLSIM_CONST_INT || strcmp(lim->text, "1") || !ord ||
      !ord->nkids)
    return 0;
  const sqlsim_node *key = ord->kids[0], *col = key->nkids ? key->kids[0] : NULL;
  if (key->kind != SQLSIM_N_SORT || !col || col->kind != SQLSIM_N_COLUMN || col->column < 0) return 0;
  const sqlsim_node *w = g->kids[SQLSIM_SEL_WHERE];
  int and = w && w->kind == SQLSIM_N_AND, desc;
  for (uint32_t i = 0; w && i < (and ? w->nkids : 1); i++)
    if (lookup_column(and ? w->kids[i] : w, col, &desc)) return desc == (key->op == SQLSIM_SORT_DESC);
  return 0;
}

/* ---------------------------------------------------------------- what an answer says */

int synth_informative(const sqlsim_result *r) {
  if (r->nrows <= 0) return 0;
  for (long i = 0; i < r->nrows * r->ncols; i++)
    if (r->kinds[i] != 0) return 1;
  return 0;
}

static int agg_pre(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  if (n->kind == SQLSIM_N_SELECT || n->kind == SQLSIM_N_SUBLINK) return SQLSIM_WALK_PRUNE;
  if (tree_is_aggregate(n)) {
    *(int *)ctx = 1;
    return SQLSIM_WALK_ABORT;
  }
  return SQLSIM_WALK_CONTINUE;
}

/* Does the query aggregate over all its rows (an aggregate in its select
 * list, no GROUP BY, no set operation)? It returns one row whatever the data. */
int synth_one_row_aggregate(const sqlsim_query *q) {
  const sqlsim_node *sel = q ? q->root : NULL;
  if (!sel || sel->kind != SQLSIM_N_SELECT || sel->op != SQLSIM_SET_NONE || sel->kids[SQLSIM_SEL_GROUP]) return 0;
  int found = 0;
  sqlsim_walk(sel->kids[SQLSIM_SEL_TARGETS], agg_pre, NULL, &found);
  return found;
}

/* One row of zeros and NULLs: what an aggregate over no matching row gives
 * (COUNT 0, SUM NULL). Two queries agreeing on it have only agreed that
 * nothing matched. */
int synth_nothing_counted(const sqlsim_result *r) {
  if (r->nrows != 1) return 0;
  for (int i = 0; i < r->ncols; i++)
    if (!(r->kinds[i] == 0 || (r->kinds[i] == 1 && r->nums[i] == 0))) return 0;
  return 1;
}

/* ---------------------------------------------------------------- answers compared */

/* Reals agree to SYNTH_REAL_DIGITS significant digits. Two queries that
 * compute one sum or average over the rows in another order (a join read
 * the other way, a subquery, SUM against SUM over parts) can differ in the
 * last bits of a double: the rounding error of adding n values in another
 * order is below n times 2^-53 of the sum (about 1.3e-14 for the 120 rows
 * a generated table holds at most), far inside 12 digits (1e-12); two reals
 * that differ in the 12th digit are different answers here. Official EX on
 * real databases compares exactly (Spider and BIRD do); this tolerance is
 * synthetic execution's alone, whose data is sqlsim's choice, not the
 * user's. */
#define SYNTH_REAL_DIGITS 12

/* The hash exec.c gives a number (an integral value as the integer). */
static uint64_t number_hash(double x) {
  if (x == x && x >= -9.2e18 && x <= 9.2e18 && (double)(long long)x == x)
    return mix64((uint64_t)(long long)x ^ 0x1111111111111111ULL);
  if (x == 0) x = 0;
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  return mix64(bits ^ 0x2222222222222222ULL);
}

/* x to SYNTH_REAL_DIGITS significant digits; grid 1 is offset by half a
 * unit of the last digit, so two values closer than half a unit share a
 * bucket on one of the two grids. */
static double rounded(double x, int grid) {
  if (!isfinite(x) || x == 0) return x;
  double unit = pow(10, floor(log10(fabs(x))) - (SYNTH_REAL_DIGITS - 1));
  double off = grid ? unit / 2 : 0;
  return floor((x + off) / unit + 0.5) * unit - off;
}

/* Whether r holds a real that is not an integer (kept with SQLSIM_EXEC_VALUES). */
static int has_fraction(const sqlsim_result *r) {
  if (!r->kinds || !r->nums) return 0;
  for (long i = 0; i < r->nrows * r->ncols; i++)
    if (r->kinds[i] == 1 && r->nums[i] != floor(r->nums[i])) return 1;
  return 0;
}

/* r with its numbers' hashes taken on grid g (cells malloc'd; NULL on no memory). */
static uint64_t *regrid(const sqlsim_result *r, int grid) {
  long n = r->nrows * r->ncols;
  uint64_t *c = malloc(sizeof *c * (size_t)(n ? n : 1));
  if (!c) return NULL;
  for (long i = 0; i < n; i++) c[i] = r->kinds[i] == 1 ? number_hash(rounded(r->nums[i], grid)) : r->cells[i];
  return c;
}

static int compare(int bird, int ordered, const sqlsim_result *g, const sqlsim_result *p) {
  if (bird == 2) return ex_sets_any_column_order(g, p);
  return bird ? sqlsim_ex_bird(g, p) : sqlsim_ex_spider(g, p, ordered);
}

int synth_same_answer(int bird, int ordered, const sqlsim_result *g, const sqlsim_result *p) {
  if (compare(bird, ordered, g, p)) return 1;
  if (g->ncols != p->ncols || (!has_fraction(g) && !has_fraction(p)) || !g->kinds || !p->kinds) return 0;
  for (int grid = 0; grid < 2; grid++) {
    sqlsim_result a = *g, b = *p;
    a.cells = regrid(g, grid);
    b.cells = regrid(p, grid);
    int same = a.cells && b.cells && compare(bird, ordered, &a, &b);
    free(a.cells);
    free(b.cells);
    if (same) return 1;
  }
  return 0;
}

/* ---------------------------------------------------------------- judging (strict, suite, witness) */

char *synth_run_text(const char *sql, int bird, int keep_distinct) {
  return bird ? strdup(sql) : sqlsim_spider_exec_text_opts(sql, keep_distinct);
}

int synth_judge(synth_env *e, const sqlsim_result *g, const sqlsim_result *p) {
  if (p->status != SQLSIM_EXEC_OK) return SYNTH_DIFFER;
  if (synth_same_answer(e->bird, e->ordered, g, p)) return SYNTH_SAME;
  if (!e->keyed_done) {
    e->keyed = synth_keyed_query(e->gold, &e->limit, &e->offset, &e->nkeys);
    e->keyed_done = 1;
  }
  if (!e->keyed) return SYNTH_DIFFER;
  double spent;
  int tie = synth_tie_kind(e->db, e->keyed, e->limit, e->offset, e->nkeys, &spent);
  e->spent += spent;
  if (tie == TIE_LIMIT) return SYNTH_TIED;
  if (tie == TIE_ORDER && !e->bird) return synth_same_answer(0, 0, g, p) ? SYNTH_SAME : SYNTH_DIFFER;
  return SYNTH_DIFFER;
}

void synth_env_forget(synth_env *e) {
  if (e->sig_ok) memset(e->sig_ok, 0, (size_t)e->s->ntables);
}

/* The signatures allocated (0), or -1: then nothing is known. */
static int env_sigs(synth_env *e) {
  if (e->sig) return 0;
  e->sig = calloc((size_t)e->s->ntables + 1, sizeof *e->sig);
  e->sig_ok = calloc((size_t)e->s->ntables + 1, 1);
  if (e->sig && e->sig_ok) return 0;
  free(e->sig);
  free(e->sig_ok);
  e->sig = NULL;
  e->sig_ok = NULL;
  return -1;
}

void synth_env_holds(synth_env *e, const synth_data *d) {
  if (env_sigs(e)) return;
  for (int t = 0; t < e->s->ntables; t++) {
    e->sig[t] = synth_table_sig(d, t);
    e->sig_ok[t] = 1;
  }
}

void synth_env_done(synth_env *e) {
  free(e->keyed);
  free(e->sig);
  free(e->sig_ok);
  e->keyed = NULL;
  e->sig = NULL;
  e->sig_ok = NULL;
}

/* However the ties at a LIMIT are broken, the answers differ: the gold's
 * LIMIT fixes how many rows it returns, so a prediction returning another
 * number of rows (Spider's multisets), or more different rows than the gold
 * returns at all or none where it returns some (BIRD's sets), or other
 * columns, differs from each. */
int synth_differs_however_tied(const synth_env *e, const sqlsim_result *g, const sqlsim_result *p) {
  if (p->status != SQLSIM_EXEC_OK || (g->nrows && p->nrows && g->ncols != p->ncols)) return 1;
  if (!e->bird) return p->nrows != g->nrows;
  return (p->nrows == 0) != (g->nrows == 0) || ex_distinct_rows(p) > g->nrows;
}

/* The prediction ran past its limits (a time, a size). */
int synth_ran_away(const sqlsim_result *p) {
  return p->status == SQLSIM_EXEC_TIMEOUT || p->status == SQLSIM_EXEC_TOO_BIG;
}

int synth_judge_strict(synth_env *e, const sqlsim_result *g, const sqlsim_result *p) {
  int v = synth_judge(e, g, p);
  if (v == SYNTH_TIED && synth_differs_however_tied(e, g, p)) v = SYNTH_DIFFER;
  if (v == SYNTH_DIFFER) snprintf(e->runaway, sizeof e->runaway, "%s", synth_ran_away(p) ? p->reason : "");
  return v;
}

int synth_env_load(synth_env *e, const synth_data *d, char *why, size_t wn) {
  int nt = e->s->ntables, known = !env_sigs(e);
  unsigned char *keep = known ? calloc((size_t)nt + 1, 1) : NULL;
  uint64_t *sig = known ? malloc(sizeof *sig * (size_t)(nt + 1)) : NULL;
  for (int t = 0; keep && sig && t < nt; t++) {
    sig[t] = synth_table_sig(d, t);
    keep[t] = e->sig_ok[t] && e->sig[t] == sig[t];
  }
  if (known && !(keep && sig)) synth_env_forget(e);
  void *saved;
  exec_enter(e->db, 10, &saved);
  int bad = exec_writable(e->db, 1);
  int rc = bad ? -1 : synth_data_load(exec_handle(e->db), d, keep && sig ? keep : NULL, e->filled, why, wn);
  if (known && keep && sig && !rc)
    for (int t = 0; t < nt; t++) {
      e->sig[t] = sig[t];
      e->sig_ok[t] = 1;
    }
  else synth_env_forget(e);
  free(keep);
  free(sig);
  if (bad) snprintf(why, wn, "the in-memory database cannot be written");
  bad |= exec_writable(e->db, 0);
  exec_leave(e->db, saved);
  return rc || bad ? -1 : 0;
}

int synth_env_tells(synth_env *e, const synth_data *d, const char *gold_text, const char *pred_text) {
  char why[200];
  if (!synth_data_valid(d, why, sizeof why) || synth_env_load(e, d, why, sizeof why)) return -1;
  sqlsim_result g, p;
  synth_exec(e->db, gold_text, SQLSIM_EXEC_VALUES, &g);
  e->strict_s += g.total_s;
  if (g.status != SQLSIM_EXEC_OK) {
    sqlsim_result_free(&g);
    return -1;
  }
  synth_exec(e->db, pred_text, SQLSIM_EXEC_VALUES, &p);
  e->strict_s += p.total_s;
  int v = synth_judge_strict(e, &g, &p);
  sqlsim_result_free(&g);
  sqlsim_result_free(&p);
  return v == SYNTH_DIFFER ? 1 : v == SYNTH_SAME ? 0 : -1;
}
