/* synth.c -- a pair run on K generated databases and the verdict.
 *
 * A runner keeps, per schema, one executor connection over an in-memory
 * database holding the schema's tables (exec_open_scratch). For each of the
 * K shapes (synth_shape_of) the generator refills the tables the pair reads
 * with the sandbox's restrictions lifted for sqlsim's own statements only
 * (exec_writable), then both queries run under the executor's usual rules and
 * limits. Per database: the gold's result counts when it has a row with a
 * non-NULL value; it is compared with the prediction's under the chosen
 * semantics; a disagreement on a gold with a top-level ORDER BY is looked at
 * again through the gold run once more with its sort keys as extra columns
 * and no LIMIT: a LIMIT (or OFFSET) cut between equal keys sets the database
 * aside, equal keys without a LIMIT make the row order free.
 *
 * The runner also keeps the verdicts of its last pairs (VERDICT_SLOTS): the
 * samples of one question repeat (RL draws 8 to 64 per prompt, and models
 * agree on easy ones), and a pair seen again is answered from there. */
#include "synth.h"
#include "exec/sandbox.h"
#include "metrics/ex.h"
#include "parser/tree.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RUNNER_SLOTS 4
#define SUITE_SLOTS 8 /* distilled suites kept per runner (the last golds) */
#define VERDICT_SLOTS 16 /* verdicts kept per runner (the last pairs) */
#define DEFAULT_K 6
#define PAIR_SEEDS 2 /* the pair's databases its own search varies (strict) */
#define DEFAULT_SEED 0x5eed5eedULL
#define DEFAULT_TIMEOUT 2.0
#define MAX_ROWS_RESULT 200000L

typedef struct slot {
  char *ddl;             /* the schema's tables, as created: the slot's key (a schema's
                            address may be reused by another once freed) */
  int ntables;
  sqlsim_db *db;
  unsigned char *filled; /* [ntables] tables holding rows now */
  unsigned long used;
} slot;

/* A pair's verdict, as scored: key the schema's connection and the two texts. */
typedef struct verdict {
  const char *ddl;       /* the slot's text (NULL: empty) */
  char *gold, *pred;
  sqlsim_synth out;      /* its witness owned here */
  unsigned long used;
} verdict;

/* The databases of the last pair run, as SQLite images (keep_pair): the
 * repair's checks of that pair (synth_many) load them instead of making them
 * again. */
#define KEPT_MAX 16
typedef struct kept_pair {
  char *ddl, *gold, *pred; /* the key: the slot's tables, the two texts (NULL: none) */
  int n;                   /* databases kept, 0..n-1 */
  unsigned char *img[KEPT_MAX];
  sqlite3_int64 len[KEPT_MAX];
  unsigned char *filled[KEPT_MAX]; /* the slot's filled[] with that database in */
  unsigned char told[KEPT_MAX]; /* KEPT_TOLD: the pair disagreed there; KEPT_SAME: agreed;
                                   KEPT_NONE: it did not count (the gold answered nothing, ties) */
} kept_pair;
enum { KEPT_NONE, KEPT_SAME, KEPT_TOLD };

struct sqlsim_synth_runner {
  sqlsim_synth_opts o;
  int keep;              /* keep the last pair's databases (synth_runner_keep) */
  kept_pair kept;
  sqlsim_exec_opts eo;
  slot slots[RUNNER_SLOTS];
  verdict verdicts[VERDICT_SLOTS];
  synth_suite *suites[SUITE_SLOTS]; /* the last golds' suites; key: gold text, schema text */
  unsigned long suite_used[SUITE_SLOTS];
  unsigned long tick;
};

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

sqlsim_synth_runner *sqlsim_synth_runner_new(const sqlsim_synth_opts *opts) {
  sqlsim_synth_runner *x = calloc(1, sizeof *x);
  if (!x) return NULL;
  if (opts) x->o = *opts;
  if (x->o.databases <= 0) x->o.databases = DEFAULT_K;
  if (x->o.databases > 64) x->o.databases = 64;
  if (!x->o.seed) x->o.seed = DEFAULT_SEED;
  if (x->o.timeout_s <= 0) x->o.timeout_s = DEFAULT_TIMEOUT;
  x->eo = (sqlsim_exec_opts){.timeout_s = x->o.timeout_s, .max_rows = MAX_ROWS_RESULT,
                             .fixed_now = x->o.fixed_now, .max_memory = (size_t)64 << 20};
  return x;
}

static void slot_clear(slot *s) {
  sqlsim_db_close(s->db);
  free(s->filled);
  free(s->ddl);
  memset(s, 0, sizeof *s);
}

static void verdict_clear(verdict *v) {
  free(v->gold);
  free(v->pred);
  sqlsim_witness_free(v->out.witness);
  memset(v, 0, sizeof *v);
}

static void kept_clear(kept_pair *k) {
  for (int i = 0; i < k->n; i++) {
    free(k->img[i]);
    free(k->filled[i]);
  }
  free(k->ddl);
  free(k->gold);
  free(k->pred);
  memset(k, 0, sizeof *k);
}

void synth_runner_keep(sqlsim_synth_runner *x, int on) {
  x->keep = on;
  if (!on) kept_clear(&x->kept);
}

/* Database k of the pair (gold, pred) has just been made in slot sl: its
 * image kept (inside the slot's memory account). */
static void kept_add(sqlsim_synth_runner *x, const slot *sl, const char *gold, const char *pred, int k) {
  kept_pair *kp = &x->kept;
  if (k == 0) {
    kept_clear(kp);
    kp->ddl = strdup(sl->ddl);
    kp->gold = strdup(gold);
    kp->pred = strdup(pred);
    if (!kp->ddl || !kp->gold || !kp->pred) {
      kept_clear(kp);
      return;
    }
  }
  if (k != kp->n || k >= KEPT_MAX || !kp->gold) return;
  sqlite3_int64 len = 0;
  unsigned char *b = sqlite3_serialize(exec_handle(sl->db), "main", &len, 0);
  unsigned char *img = b ? malloc((size_t)len) : NULL, *filled = malloc((size_t)sl->ntables + 1);
  if (img && filled) {
    memcpy(img, b, (size_t)len);
    memcpy(filled, sl->filled, (size_t)sl->ntables);
    kp->img[k] = img;
    kp->len[k] = len;
    kp->filled[k] = filled;
    kp->told[k] = KEPT_NONE;
    kp->n++;
  } else {
    free(img);
    free(filled);
  }
  sqlite3_free(b);
}

/* Loads kept database k into slot sl (writable, inside its account): 0, or
 * -1 (the caller makes it). */
static int kept_load(sqlsim_synth_runner *x, slot *sl, int k) {
  kept_pair *kp = &x->kept;
  unsigned char *m = sqlite3_malloc64((sqlite3_uint64)kp->len[k]);
  if (!m) return -1;
  memcpy(m, kp->img[k], (size_t)kp->len[k]);
  if (sqlite3_deserialize(exec_handle(sl->db), "main", m, kp->len[k], kp->len[k],
                          SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE) != SQLITE_OK)
    return -1; /* m is freed by SQLite on failure too */
  memcpy(sl->filled, kp->filled[k], (size_t)sl->ntables);
  return 0;
}

void sqlsim_synth_runner_free(sqlsim_synth_runner *x) {
  if (!x) return;
  kept_clear(&x->kept);
  for (int i = 0; i < VERDICT_SLOTS; i++) verdict_clear(&x->verdicts[i]);
  for (int i = 0; i < RUNNER_SLOTS; i++) slot_clear(&x->slots[i]);
  for (int i = 0; i < SUITE_SLOTS; i++) synth_suite_free(x->suites[i]);
  free(x);
}

/* The runner's connection for schema s, created with its tables if new. */
static slot *slot_for(sqlsim_synth_runner *x, const sqlsim_schema *s, sqlsim_error *err) {
  char *ddl = sqlsim_schema_ddl(s);
  if (!ddl) {
    sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
    return NULL;
  }
  slot *lru = &x->slots[0];
  for (int i = 0; i < RUNNER_SLOTS; i++) {
    if (x->slots[i].db && x->slots[i].ntables == s->ntables && !strcmp(x->slots[i].ddl, ddl)) {
      free(ddl);
      x->slots[i].used = ++x->tick;
      return &x->slots[i];
    }
    if (x->slots[i].used < lru->used) lru = &x->slots[i];
  }
  for (int i = 0; i < SUITE_SLOTS; i++) /* the suites made on the connection going away */
    if (x->suites[i] && lru->ddl && x->suites[i]->ddl == lru->ddl) {
      synth_suite_free(x->suites[i]);
      x->suites[i] = NULL;
    }
  for (int i = 0; i < VERDICT_SLOTS; i++) /* and the verdicts */
    if (x->verdicts[i].ddl && x->verdicts[i].ddl == lru->ddl) verdict_clear(&x->verdicts[i]);
  slot_clear(lru);
  sqlsim_db *db;
  if (exec_open_scratch(&x->eo, &db, err)) {
    free(ddl);
    return NULL;
  }
  void *saved;
  exec_enter(db, 10, &saved);
  int bad = exec_writable(db, 1);
  char *msg = NULL;
  bad |= sqlite3_exec(exec_handle(db), ddl, NULL, NULL, &msg) != SQLITE_OK;
  bad |= exec_writable(db, 0);
  exec_leave(db, saved);
  if (bad) {
    sqlsim_error_set(err, SQLSIM_ESQLITE, -1, "cannot create the tables of '%s' in memory: %s",
                     s->db_id ? s->db_id : "?", msg ? msg : "out of memory");
    sqlite3_free(msg);
    free(ddl);
    sqlsim_db_close(db);
    return NULL;
  }
  lru->ddl = ddl;
  lru->ntables = s->ntables;
  lru->db = db;
  lru->filled = calloc((size_t)s->ntables + 1, 1);
  lru->used = ++x->tick;
  if (!lru->filled) {
    slot_clear(lru);
    sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
    return NULL;
  }
  return lru;
}

/* ---------------------------------------------------------------- ties */

/* A query (the gold, or the prediction) with its sort keys as extra trailing
 * columns and without LIMIT and OFFSET, for a plain top-level SELECT with
 * ORDER BY; its LIMIT and OFFSET (-1 none). NULL when the query is not of
 * that form. malloc'd. */
static char *keyed_query(const sqlsim_query *query, long *limit, long *offset, int *nkeys) {
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
 * return different values: the order between them, or which of them a LIMIT
 * keeps, changes the answer. Rows that return the same values (a join
 * repeating the top row) can be taken in any order. */
static int tied_apart(const sqlsim_result *r, long a, long b, int nkeys) {
  int ret = r->ncols - nkeys;
  if (!same_cells(r, a, b, ret, r->ncols)) return 0;
  long lo = a, hi = b; /* the whole run of rows with these keys */
  while (lo > 0 && same_cells(r, lo - 1, a, ret, r->ncols)) lo--;
  while (hi + 1 < r->nrows && same_cells(r, hi + 1, a, ret, r->ncols)) hi++;
  for (long i = lo; i <= hi; i++)
    if (!same_cells(r, i, a, 0, ret)) return 1;
  return 0;
}

enum { TIE_NONE, TIE_LIMIT, TIE_ORDER };

/* Whether the query's answer on this database hinges on ties. */
static int tie_kind(sqlsim_db *db, const char *keyed, long limit, long offset, int nkeys, double *spent) {
  sqlsim_result r;
  sqlsim_exec(db, keyed, &r);
  *spent = r.total_s;
  int kind = TIE_NONE;
  if (r.status == SQLSIM_EXEC_OK && r.ncols >= nkeys) {
    long o = offset > 0 ? offset : 0;
    if (limit >= 0) {
      long end = limit > LONG_MAX - o ? LONG_MAX : o + limit; /* rows [o, end) are the answer */
      if ((end > 0 && end < r.nrows && tied_apart(&r, end - 1, end, nkeys)) ||
          (o > 0 && o < r.nrows && tied_apart(&r, o - 1, o, nkeys)))
        kind = TIE_LIMIT;
    } else {
      for (long i = o + 1; i < r.nrows && kind == TIE_NONE; i++)
        if (same_cells(&r, i - 1, i, r.ncols - nkeys, r.ncols) && !same_cells(&r, i - 1, i, 0, r.ncols - nkeys))
          kind = TIE_ORDER;
    }
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
static int top_row_of_top_rows(const sqlsim_query *gold, const sqlsim_query *pred) {
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

/* ---------------------------------------------------------------- a pair */

static int informative(const sqlsim_result *r) {
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
static int one_row_aggregate(const sqlsim_query *q) {
  const sqlsim_node *sel = q ? q->root : NULL;
  if (!sel || sel->kind != SQLSIM_N_SELECT || sel->op != SQLSIM_SET_NONE || sel->kids[SQLSIM_SEL_GROUP]) return 0;
  int found = 0;
  sqlsim_walk(sel->kids[SQLSIM_SEL_TARGETS], agg_pre, NULL, &found);
  return found;
}

/* One row of zeros and NULLs: what an aggregate over no matching row gives
 * (COUNT 0, SUM NULL). Two queries agreeing on it have only agreed that
 * nothing matched. */
static int nothing_counted(const sqlsim_result *r) {
  if (r->nrows != 1) return 0;
  for (int i = 0; i < r->ncols; i++)
    if (!(r->kinds[i] == 0 || (r->kinds[i] == 1 && r->nums[i] == 0))) return 0;
  return 1;
}

/* ---------------------------------------------------------------- judging (strict, suite, witness) */

char *synth_run_text(const char *sql, int bird, int keep_distinct) {
  return bird ? strdup(sql) : sqlsim_spider_exec_text_opts(sql, keep_distinct);
}

int synth_informative(const sqlsim_result *r) { return informative(r); }

int synth_judge(synth_env *e, const sqlsim_result *g, const sqlsim_result *p) {
  if (p->status != SQLSIM_EXEC_OK) return SYNTH_DIFFER;
  if (e->bird ? sqlsim_ex_bird(g, p) : sqlsim_ex_spider(g, p, e->ordered)) return SYNTH_SAME;
  if (!e->keyed_done) {
    e->keyed = keyed_query(e->gold, &e->limit, &e->offset, &e->nkeys);
    e->keyed_done = 1;
  }
  if (!e->keyed) return SYNTH_DIFFER;
  double spent;
  int tie = tie_kind(e->db, e->keyed, e->limit, e->offset, e->nkeys, &spent);
  e->spent += spent;
  if (tie == TIE_LIMIT) return SYNTH_TIED;
  if (tie == TIE_ORDER && !e->bird) return sqlsim_ex_spider(g, p, 0) ? SYNTH_SAME : SYNTH_DIFFER;
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
static int differs_however_tied(const synth_env *e, const sqlsim_result *g, const sqlsim_result *p) {
  if (p->status != SQLSIM_EXEC_OK || (g->nrows && p->nrows && g->ncols != p->ncols)) return 1;
  if (!e->bird) return p->nrows != g->nrows;
  return (p->nrows == 0) != (g->nrows == 0) || ex_distinct_rows(p) > g->nrows;
}

/* The prediction ran past its limits (a time, a size). */
static int ran_away(const sqlsim_result *p) {
  return p->status == SQLSIM_EXEC_TIMEOUT || p->status == SQLSIM_EXEC_TOO_BIG;
}

int synth_judge_strict(synth_env *e, const sqlsim_result *g, const sqlsim_result *p) {
  int v = synth_judge(e, g, p);
  if (v == SYNTH_TIED && differs_however_tied(e, g, p)) v = SYNTH_DIFFER;
  if (v == SYNTH_DIFFER) snprintf(e->runaway, sizeof e->runaway, "%s", ran_away(p) ? p->reason : "");
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

/* The runner's suite of the gold (gold_text as run) on slot sl's schema,
 * distilled when it has none. NULL: out of memory. */
static synth_suite *suite_for(sqlsim_synth_runner *x, slot *sl, synth_env *e, const sqlsim_query *gold,
                              const char *gold_text) {
  int lru = 0;
  for (int i = 0; i < SUITE_SLOTS; i++) {
    synth_suite *st = x->suites[i];
    if (st && st->ddl == sl->ddl && st->bird == e->bird && st->keep_distinct == e->keep_distinct &&
        !strcmp(st->gold_text, gold_text)) {
      x->suite_used[i] = ++x->tick;
      return st;
    }
    if (x->suite_used[i] < x->suite_used[lru]) lru = i;
  }
  synth_suite_free(x->suites[lru]);
  x->suites[lru] = synth_suite_build(e, gold, gold_text, x->o.seed);
  if (x->suites[lru]) x->suites[lru]->ddl = sl->ddl;
  x->suite_used[lru] = ++x->tick;
  return x->suites[lru];
}

/* The two trees are one once their equivalent forms are made one (diff/
 * equiv.c): no database can tell them apart, so no search is needed. */
static int same_form(const sqlsim_query *gold, const sqlsim_query *pred, int bird, int keep_distinct) {
  if (!gold || !pred) return 0;
  int how = bird ? SQLSIM_EQUIV_SETS : keep_distinct ? 0 : SQLSIM_EQUIV_NO_DISTINCT;
  sqlsim_query *g = sqlsim_query_clone(gold), *p = sqlsim_query_clone(pred);
  char *a = NULL, *b = NULL;
  if (g && p) {
    sqlsim_equiv_normalize_as(g, how);
    sqlsim_equiv_normalize_as(p, how);
    a = sqlsim_print_sql(g->root, 0);
    b = sqlsim_print_sql(p->root, 0);
  }
  int same = a && b && !strcmp(a, b);
  free(a);
  free(b);
  sqlsim_query_free(g);
  sqlsim_query_free(p);
  return same;
}

/* A cached suite's databases read with this call's schema (the same tables:
 * the slot's text is the key; the caller's schema may be another copy). */
static void suite_rebind(synth_suite *st, const sqlsim_schema *s) {
  for (int i = 0; st && i < st->ndbs; i++) st->dbs[i]->s = s;
}

/* The rows of the database now on the connection, when the schema allows
 * them (the evidence of a strict verdict must be such a database). */
static synth_data *valid_now(synth_env *e, const unsigned char *tables) {
  synth_data *d;
  char why[200];
  if (synth_data_read(exec_handle(e->db), e->s, e->filled, &d)) return NULL;
  for (int t = 0; t < e->s->ntables; t++) d->on[t] |= tables[t];
  if (synth_data_valid(d, why, sizeof why)) return d;
  synth_data_free(d);
  return NULL;
}

/* The verdict of the pair (gold_sql, pred_sql) on slot sl, copied into out
 * (its times 0: nothing ran), when the runner has it: 1, else 0. */
static int verdict_find(sqlsim_synth_runner *x, const slot *sl, const char *gold_sql, const char *pred_sql,
                        sqlsim_synth *out) {
  for (int i = 0; i < VERDICT_SLOTS; i++) {
    verdict *v = &x->verdicts[i];
    if (v->ddl != sl->ddl || strcmp(v->gold, gold_sql) || strcmp(v->pred, pred_sql)) continue;
    sqlsim_witness *w = NULL;
    if (v->out.witness && !(w = sqlsim_witness_copy(v->out.witness))) return 0;
    *out = v->out;
    out->witness = w;
    out->gen_s = out->exec_s = 0;
    v->used = ++x->tick;
    return 1;
  }
  return 0;
}

static void verdict_keep(sqlsim_synth_runner *x, const slot *sl, const char *gold_sql, const char *pred_sql,
                         const sqlsim_synth *out) {
  verdict *lru = &x->verdicts[0];
  for (int i = 1; i < VERDICT_SLOTS; i++)
    if (x->verdicts[i].used < lru->used) lru = &x->verdicts[i];
  verdict_clear(lru);
  lru->gold = strdup(gold_sql);
  lru->pred = strdup(pred_sql);
  lru->out = *out;
  lru->out.witness = out->witness ? sqlsim_witness_copy(out->witness) : NULL;
  if (!lru->gold || !lru->pred || (out->witness && !lru->out.witness)) {
    verdict_clear(lru);
    return;
  }
  lru->ddl = sl->ddl;
  lru->used = ++x->tick;
}

/* Database k of a run in slot sl: loaded from the kept images (from_kept),
 * else generated from f and, when the runner keeps databases and the pair's
 * texts are given, kept. The connection is writable for sqlsim's own
 * statements only meanwhile. 0, or a negative code with err set (the slot
 * cleared when it could not be made read-only again). */
static int make_database(sqlsim_synth_runner *x, slot *sl, const synth_facts *f, int k, int from_kept,
                         const char *gold_sql, const char *pred_sql, sqlsim_error *err) {
  synth_shape sh = synth_shape_of(k, x->o.seed);
  char why[200];
  void *saved;
  exec_enter(sl->db, 10, &saved);
  int bad = exec_writable(sl->db, 1);
  long rows = bad         ? -1
              : from_kept ? (kept_load(x, sl, k) ? -1 : 0)
                          : synth_fill(exec_handle(sl->db), f, &sh, sl->filled, why, sizeof why);
  if (bad) snprintf(why, sizeof why, "the in-memory database cannot be written");
  else if (from_kept && rows < 0) snprintf(why, sizeof why, "the kept database cannot be loaded");
  if (rows >= 0 && !from_kept && x->keep && gold_sql && pred_sql) kept_add(x, sl, gold_sql, pred_sql, k);
  if (exec_writable(sl->db, 0)) { /* it must never run model SQL writable */
    exec_leave(sl->db, saved);
    slot_clear(sl);
    return sqlsim_error_set(err, SQLSIM_ESQLITE, -1, "the in-memory database cannot be made read-only again");
  }
  exec_leave(sl->db, saved);
  if (rows < 0) return sqlsim_error_set(err, SQLSIM_ESQLITE, -1, "database %d: %s", k + 1, why);
  return 0;
}

int sqlsim_synth_trees(sqlsim_synth_runner *x, const sqlsim_query *gold, const char *gold_sql,
                       const sqlsim_query *pred, const char *pred_sql, sqlsim_synth *out, sqlsim_error *err) {
  memset(out, 0, sizeof *out);
  out->graded = NAN;
  out->pass = -1;
  if (!gold || !gold->schema || !gold_sql || !pred_sql)
    return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "synthetic execution needs the gold parsed with its schema");
  const sqlsim_schema *s = gold->schema;
  slot *sl = slot_for(x, s, err);
  if (!sl) return err ? err->code : SQLSIM_ESQLITE;
  if (verdict_find(x, sl, gold_sql, pred_sql, out)) return 0;
  synth_facts *f = synth_facts_read(s, gold, pred && pred->schema == s ? pred : NULL);
  if (!f) return sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
  int bird = x->o.bird;
  char *gtext = bird ? strdup(gold_sql) : sqlsim_spider_exec_text_opts(gold_sql, x->o.keep_distinct);
  char *ptext = bird ? strdup(pred_sql) : sqlsim_spider_exec_text_opts(pred_sql, x->o.keep_distinct);
  int ordered = !bird && sqlsim_spider_order_matters(gtext);
  int gold_agg = one_row_aggregate(gold);
  char *keyed = NULL, *pkeyed = NULL;
  int keyed_done = 0, nkeys = 0, pnkeys = 0, empty = 0, zero = 0, ran = 0;
  long limit = -1, offset = -1, plimit = -1, poffset = -1;
  double pred_s = 0; /* the prediction's time over the databases so far */
  int rc = 0;
  /* the strict verdict and the witnesses: the pair's own databases that tell
   * the two apart (the first one the schema allows), then the gold's suite */
  int strict = x->o.strict, wit = x->o.witness;
  synth_env env = {.db = sl->db, .filled = sl->filled, .s = s, .bird = bird, .keep_distinct = x->o.keep_distinct,
                   .gold = gold, .ordered = ordered, .limit_s = x->o.timeout_s};
  synth_data *strict_data = NULL, *synth_fail = NULL; /* the evidence, for the witness */
  synth_data *own[PAIR_SEEDS] = {0}; /* the pair's first databases, for its own search */
  int strict_found = 0, nown = 0, answered = 0; /* strict: databases judged where the gold returned a row */
  char synth_runaway[256] = ""; /* the prediction's error on synth_fail, when it ran past its limits */
  char strict_runaway[256] = ""; /* the same on strict_data (env.runaway when it was found) */
  out->strict = -1;
  int nk = x->o.databases;
  out->databases = nk;
  for (int k = 0; k < nk; k++) {
    double t0 = now_s();
    rc = make_database(x, sl, f, k, 0, gold_sql, pred_sql, err);
    double t1 = now_s();
    out->gen_s += t1 - t0;
    if (rc) break;
    sqlsim_result g, p;
    sqlsim_exec_flags(sl->db, gtext, SQLSIM_EXEC_VALUES, &g);
    if (g.status != SQLSIM_EXEC_OK) {
      if (!out->gold_failed++)
        snprintf(out->why, sizeof out->why, "the gold fails on database %d: %.200s", k + 1, g.reason);
      int runaway = g.status == SQLSIM_EXEC_TIMEOUT || g.status == SQLSIM_EXEC_TOO_BIG;
      sqlsim_result_free(&g);
      out->exec_s += now_s() - t1;
      if (runaway) { /* it would be the same on the next ones: stop here */
        out->databases = k + 1;
        break;
      }
      continue;
    }
    ran++;
    if (strict && nown < PAIR_SEEDS && !synth_data_read(exec_handle(sl->db), s, sl->filled, &own[nown]))
      nown++;
    if (!informative(&g)) {
      empty++;
      if (strict && !strict_found) { /* for strict, a gold that returns nothing counts too */
        sqlsim_exec_flags(sl->db, ptext, SQLSIM_EXEC_VALUES, &p);
        out->strict_databases++;
        answered += g.nrows > 0;
        if (synth_judge_strict(&env, &g, &p) == SYNTH_DIFFER && (strict_data = valid_now(&env, f->tables))) {
          strict_found = 1;
          snprintf(strict_runaway, sizeof strict_runaway, "%s", env.runaway);
          snprintf(out->strict_why, sizeof out->strict_why, "database %d: the gold %s, the prediction %s", k + 1,
                   g.nrows ? "returns only NULLs" : "returns nothing",
                   p.status != SQLSIM_EXEC_OK ? "fails" : p.nrows ? "returns rows" : "answers otherwise");
        }
        sqlsim_result_free(&p);
      }
      sqlsim_result_free(&g);
      out->exec_s += now_s() - t1;
      continue;
    }
    sqlsim_exec(sl->db, ptext, &p);
    pred_s += p.total_s;
    /* a prediction past its limits, or past the time limit over all databases
     * together, is not run on the next ones: one pair costs about two
     * limits at most, however many databases */
    int stop = p.status == SQLSIM_EXEC_TIMEOUT || p.status == SQLSIM_EXEC_TOO_BIG || pred_s > x->o.timeout_s;
    int ok = p.status == SQLSIM_EXEC_OK && (bird ? sqlsim_ex_bird(&g, &p) : sqlsim_ex_spider(&g, &p, ordered));
    int set_aside = 0;
    if (!ok && p.status == SQLSIM_EXEC_OK) {
      if (!keyed_done) {
        keyed = keyed_query(gold, &limit, &offset, &nkeys);
        pkeyed = top_row_of_top_rows(gold, pred) ? keyed_query(pred, &plimit, &poffset, &pnkeys) : NULL;
        keyed_done = 1;
      }
      double spent;
      int tie = keyed ? tie_kind(sl->db, keyed, limit, offset, nkeys, &spent) : TIE_NONE;
      if (tie == TIE_LIMIT) set_aside = 1;
      else if (tie == TIE_ORDER && !bird) ok = sqlsim_ex_spider(&g, &p, 0);
      /* the top row for the rows at the top (top_row_of_top_rows), where
       * several rows share the top; this run of the prediction's own SQL
       * counts towards its time like the other */
      if (!set_aside && pkeyed) {
        set_aside = tie_kind(sl->db, pkeyed, plimit, poffset, pnkeys, &spent) == TIE_LIMIT;
        pred_s += spent;
        stop |= pred_s > x->o.timeout_s;
      }
    }
    if (strict && !strict_found) {
      int v = ok                                                   ? SYNTH_SAME
              : set_aside && !differs_however_tied(&env, &g, &p) ? SYNTH_TIED
                                                                  : synth_judge_strict(&env, &g, &p);
      if (v == SYNTH_DIFFER) snprintf(env.runaway, sizeof env.runaway, "%s", ran_away(&p) ? p.reason : "");
      out->strict_databases += v != SYNTH_TIED;
      answered += v != SYNTH_TIED;
      if (v == SYNTH_DIFFER && (strict_data = valid_now(&env, f->tables))) {
        strict_found = 1;
        snprintf(strict_runaway, sizeof strict_runaway, "%s", env.runaway);
        if (p.status != SQLSIM_EXEC_OK)
          snprintf(out->strict_why, sizeof out->strict_why, "database %d: the prediction fails: %.200s", k + 1,
                   p.reason);
        else
          snprintf(out->strict_why, sizeof out->strict_why, "database %d: %ld rows x %d columns, the gold %ld x %d",
                   k + 1, p.nrows, p.ncols, g.nrows, g.ncols);
      }
    }
    if (set_aside) {
      out->ties++;
    } else if (ok && gold_agg && nothing_counted(&g)) {
      /* an aggregate over nothing: agreeing is no evidence (disagreeing is) */
      empty++;
      zero++;
    } else {
      out->informative++;
      out->agree += ok;
      if (x->keep && k < x->kept.n) x->kept.told[k] = ok ? KEPT_SAME : KEPT_TOLD;
      if (!ok && out->informative - out->agree == 1 && wit && !synth_fail) {
        if (synth_data_read(exec_handle(sl->db), s, sl->filled, &synth_fail)) synth_fail = NULL;
        snprintf(synth_runaway, sizeof synth_runaway, "%s", ran_away(&p) ? p.reason : "");
      }
      if (!ok && out->informative - out->agree == 1) {
        if (p.status != SQLSIM_EXEC_OK)
          snprintf(out->why, sizeof out->why, "database %d: the prediction fails: %.200s", k + 1, p.reason);
        else
          snprintf(out->why, sizeof out->why, "database %d: %ld rows x %d columns, the gold %ld x %d", k + 1,
                   p.nrows, p.ncols, g.nrows, g.ncols);
      }
    }
    sqlsim_result_free(&g);
    sqlsim_result_free(&p);
    out->exec_s += now_s() - t1;
    if (stop && k + 1 < nk) {
      out->databases = k + 1;
      if (!out->why[0])
        snprintf(out->why, sizeof out->why, "stopped after database %d: the prediction ran %.1f s, over the %g s limit "
                 "for all databases together", k + 1, pred_s, x->o.timeout_s);
      break;
    }
  }
  if (!rc) {
    if (out->informative) {
      out->graded = (double)out->agree / out->informative;
      out->pass = out->agree == out->informative;
    } else if (ran) {
      out->gold_empty = empty == ran;
      if (out->gold_empty && !out->why[0] && zero)
        snprintf(out->why, sizeof out->why,
                 "the gold matched nothing on any of the %d databases (no rows, or %d times an aggregate over no "
                 "rows, on which the prediction agreed)",
                 out->databases, zero);
      else if (out->gold_empty && !out->why[0])
        snprintf(out->why, sizeof out->why, "the gold returned no rows on any of the %d databases", out->databases);
      else if (!out->why[0])
        snprintf(out->why, sizeof out->why, "every database was set aside (ties at a LIMIT)");
    }
  }
  if (!rc && strict) {
    synth_suite *st = strict_found ? NULL : suite_for(x, sl, &env, gold, gtext);
    if (st) {
      suite_rebind(st, s);
      int judged, with_rows;
      int at = synth_suite_judge(&env, st, ptext, &judged, &with_rows, out->strict_why, sizeof out->strict_why);
      out->strict_databases += judged;
      answered += with_rows;
      if (at >= 0) {
        strict_found = 1;
        snprintf(strict_runaway, sizeof strict_runaway, "%s", env.runaway);
        strict_data = wit ? synth_data_copy(st->dbs[at]) : NULL;
        if (strict_data)
          for (int t = 0; t < s->ntables; t++) strict_data->on[t] |= f->tables[t];
      }
    }
    /* the pair's own search: not for the gold's own text or form */
    if (!strict_found && strcmp(gtext, ptext) && !same_form(gold, pred && pred->schema == s ? pred : NULL, bird,
                                                            x->o.keep_distinct)) {
      int judged, with_rows;
      synth_data *d;
      if (synth_search_pair(&env, own, nown, f, gtext, ptext, &d, &judged, &with_rows, out->strict_why,
                            sizeof out->strict_why)) {
        strict_found = 1;
        snprintf(strict_runaway, sizeof strict_runaway, "%s", env.runaway);
        strict_data = d;
        for (int t = 0; t < s->ntables; t++) strict_data->on[t] |= f->tables[t];
      }
      out->strict_databases += judged;
      answered += with_rows;
    }
    if (st || strict_found) {
      st = st ? st : suite_for(x, sl, &env, gold, gtext);
      if (st) {
        out->suite = st->ndbs;
        out->neighbors = st->neighbors;
        out->told = st->told;
      }
    }
    /* a pass needs a database where the gold answered (agreeing on nothing
     * everywhere is no evidence), and the stages run to their end */
    int stopped = !strict_found && env.strict_s > SYNTH_STRICT_TIME * x->o.timeout_s;
    out->strict = strict_found ? 0 : answered && !stopped ? 1 : -1;
    if (stopped)
      snprintf(out->strict_why, sizeof out->strict_why,
               "stopped: the strict stages ran queries for %.1f s, past %g times the %g s limit", env.strict_s,
               (double)SYNTH_STRICT_TIME, x->o.timeout_s);
    if (out->strict < 0 && !out->strict_why[0])
      snprintf(out->strict_why, sizeof out->strict_why,
               out->strict_databases ? "the gold returned no rows on any of the %d databases judged"
                                     : "the gold ran on no database",
               out->strict_databases);
  }
  if (!rc && wit) { /* the witness of the failing verdict: strict's, else synth's */
    if (strict_found && strict_data)
      out->witness = synth_witness_make(&env, strict_data, gtext, ptext, 0, "strict", f->tables, strict_runaway),
      strict_data = NULL;
    else if (out->pass == 0 && synth_fail)
      out->witness = synth_witness_make(&env, synth_fail, gtext, ptext, 1, "synth", f->tables, synth_runaway),
      synth_fail = NULL;
  }
  if (!rc && sl->ddl) verdict_keep(x, sl, gold_sql, pred_sql, out);
  synth_data_free(strict_data);
  synth_data_free(synth_fail);
  for (int i = 0; i < nown; i++) synth_data_free(own[i]);
  synth_env_done(&env);
  free(keyed);
  free(pkeyed);
  free(gtext);
  free(ptext);
  synth_facts_free(f);
  return rc;
}

/* Several queries judged against the gold on the databases of the pair
 * (gold, pred): the same K databases sqlsim_synth_trees builds for the pair,
 * loaded from its run when the runner kept them (synth_runner_keep), else
 * made again; the gold run once on each, every query after it. The error
 * analysis's repair (analyze/repair.c) checks its repaired predictions so:
 * they are made of the two queries' parts, whose literals these databases
 * hold. A database counts as sqlsim_synth_trees counts it (the gold returned
 * rows, a LIMIT does not cut through ties, not an aggregate over nothing).
 * pass[i] is 1 when query i agreed on every one, 0 when not, -1 when none
 * counted (or the deadline, on sbx_clock(), passed before it was judged
 * everywhere: 0 is none); graded[i] the share that agreed. With the pair's run kept, the
 * databases that told the pair apart come first and decide graded[i] (the
 * share of them the query fixes), and the others (where the pair agreed)
 * run only the queries that failed nowhere yet. Returns 0, or a negative
 * code (err says why) with pass[] all -1. */
int synth_many(sqlsim_synth_runner *x, const sqlsim_query *gold, const char *gold_sql, const sqlsim_query *pred,
               const char *pred_sql, const char *const *sqls, int n, double deadline, int *pass, double *graded,
               sqlsim_error *err) {
  for (int i = 0; i < n; i++) pass[i] = -1, graded[i] = 0;
  if (!gold || !gold->schema || !gold_sql || n <= 0)
    return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "synthetic execution needs the gold parsed with its schema");
  const sqlsim_schema *s = gold->schema;
  slot *sl = slot_for(x, s, err);
  if (!sl) return err ? err->code : SQLSIM_ESQLITE;
  kept_pair *kp = &x->kept; /* the pair's databases, when its run kept them */
  int kept = kp->gold && pred_sql && kp->n == x->o.databases && !strcmp(kp->ddl, sl->ddl) &&
             !strcmp(kp->gold, gold_sql) && !strcmp(kp->pred, pred_sql);
  synth_facts *f = kept ? NULL : synth_facts_read(s, gold, pred && pred->schema == s ? pred : NULL);
  int *agree = calloc((size_t)n, sizeof *agree), *counted = calloc((size_t)n, sizeof *counted);
  int *failed = calloc((size_t)n, sizeof *failed), *fixed = calloc((size_t)n, sizeof *fixed);
  char **texts = calloc((size_t)n, sizeof *texts);
  double *spent = calloc((size_t)n, sizeof *spent);
  int bird = x->o.bird, rc = 0, told = 0;
  char *gtext = bird ? strdup(gold_sql) : sqlsim_spider_exec_text_opts(gold_sql, x->o.keep_distinct);
  char *keyed = NULL;
  if ((!kept && !f) || !agree || !counted || !failed || !fixed || !texts || !spent || !gtext) {
    rc = sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
    goto done;
  }
  for (int i = 0; i < n; i++)
    if (!(texts[i] = bird ? strdup(sqls[i]) : sqlsim_spider_exec_text_opts(sqls[i], x->o.keep_distinct))) {
      rc = sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
      goto done;
    }
  int ordered = !bird && sqlsim_spider_order_matters(gtext), gold_agg = one_row_aggregate(gold);
  int keyed_done = 0, nkeys = 0, late = 0;
  long limit = -1, offset = -1;
  for (int pass_no = 0; pass_no < 2 && !rc && !late; pass_no++) /* kept: told first, then the others */
    for (int k = 0; k < x->o.databases; k++) {
      if (kept && (kp->told[k] == KEPT_NONE || (kp->told[k] == KEPT_TOLD) != (pass_no == 0))) continue;
      if (!kept && pass_no) break;
      int wanted = 0;
      for (int i = 0; i < n; i++) wanted += !(kept && pass_no && failed[i]);
      if (!wanted) continue;
      told += kept && !pass_no;
      if ((rc = make_database(x, sl, f, k, kept, NULL, NULL, err))) break;
      sqlsim_result g;
      sqlsim_exec_flags(sl->db, gtext, SQLSIM_EXEC_VALUES, &g);
      if (g.status != SQLSIM_EXEC_OK || !informative(&g)) {
        int runaway = g.status == SQLSIM_EXEC_TIMEOUT || g.status == SQLSIM_EXEC_TOO_BIG;
        sqlsim_result_free(&g);
        if (runaway) break;
        continue;
      }
      int tie = -1; /* the gold's ties, looked at once per database when a query disagrees */
      int nothing = gold_agg && nothing_counted(&g); /* agreeing on an aggregate over nothing is no evidence */
      for (int i = 0; i < n && !late; i++) {
        if (kept && pass_no && failed[i]) continue;
        if (deadline > 0 && sbx_clock() > deadline) {
          late = 1;
          break;
        }
        if (spent[i] > x->o.timeout_s) { /* past its limits: disagrees from here on */
          counted[i]++;
          failed[i] = 1;
          continue;
        }
        sqlsim_result p;
        sqlsim_exec(sl->db, texts[i], &p);
        spent[i] += p.total_s;
        if (p.status == SQLSIM_EXEC_TIMEOUT || p.status == SQLSIM_EXEC_TOO_BIG) spent[i] += x->o.timeout_s + 1;
        int ok = p.status == SQLSIM_EXEC_OK && (bird ? sqlsim_ex_bird(&g, &p) : sqlsim_ex_spider(&g, &p, ordered));
        if (!ok && p.status == SQLSIM_EXEC_OK) {
          if (tie < 0) {
            if (!keyed_done) {
              keyed = keyed_query(gold, &limit, &offset, &nkeys);
              keyed_done = 1;
            }
            double t;
            tie = keyed ? tie_kind(sl->db, keyed, limit, offset, nkeys, &t) : TIE_NONE;
          }
          if (tie == TIE_ORDER && !bird) ok = sqlsim_ex_spider(&g, &p, 0);
        }
        sqlsim_result_free(&p);
        if ((!ok && tie == TIE_LIMIT) || (ok && nothing)) continue; /* set aside */
        counted[i]++;
        agree[i] += ok;
        failed[i] |= !ok;
        fixed[i] += ok && kept && !pass_no;
      }
      sqlsim_result_free(&g);
      if (late) break;
    }
  for (int i = 0; !rc && !late && i < n; i++)
    if (counted[i]) {
      pass[i] = !failed[i];
      graded[i] = told ? (double)fixed[i] / told : (double)agree[i] / counted[i];
    }
done:
  free(keyed);
  free(gtext);
  if (texts)
    for (int i = 0; i < n; i++) free(texts[i]);
  free(texts);
  free(agree);
  free(counted);
  free(failed);
  free(fixed);
  free(spent);
  synth_facts_free(f);
  return rc;
}

int sqlsim_synth_pair(sqlsim_synth_runner *x, const sqlsim_schema *schema, const char *gold, const char *pred,
                      sqlsim_synth *out, sqlsim_error *err) {
  memset(out, 0, sizeof *out);
  out->graded = NAN;
  out->pass = -1;
  if (!schema || !gold || !pred) return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "a pair and a schema are needed");
  sqlsim_query *g, *p = NULL;
  int rc = sqlsim_parse(gold, strlen(gold), schema, 0, &g, err);
  if (rc) return rc;
  if (sqlsim_parse(pred, strlen(pred), schema, 0, &p, NULL)) p = NULL;
  rc = sqlsim_synth_trees(x, g, gold, p, pred, out, err);
  sqlsim_query_free(g);
  sqlsim_query_free(p);
  return rc;
}

int sqlsim_synth_suite(sqlsim_synth_runner *x, const sqlsim_schema *schema, const char *gold,
                       sqlsim_suite_report *out, sqlsim_error *err) {
  memset(out, 0, sizeof *out);
  if (!x || !schema || !gold) return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "a gold and a schema are needed");
  sqlsim_query *g;
  int rc = sqlsim_parse(gold, strlen(gold), schema, 0, &g, err);
  if (rc) return rc;
  slot *sl = slot_for(x, schema, err);
  char *gtext = synth_run_text(gold, x->o.bird, x->o.keep_distinct);
  synth_env env = {.s = schema, .bird = x->o.bird, .keep_distinct = x->o.keep_distinct, .gold = g, .limit_s = x->o.timeout_s,
                   .ordered = !x->o.bird && gtext && sqlsim_spider_order_matters(gtext)};
  synth_suite *st = NULL;
  if (!sl) rc = err ? err->code : SQLSIM_ESQLITE;
  else if (!gtext) rc = sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
  else {
    env.db = sl->db;
    env.filled = sl->filled;
    st = suite_for(x, sl, &env, g, gtext);
    if (!st) rc = sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
  }
  if (st) {
    out->databases = st->ndbs;
    out->neighbors = st->neighbors;
    out->told = st->told;
    out->equivalent = st->equivalent;
    out->survivors = calloc((size_t)st->nsurvivors + 1, sizeof *out->survivors);
    for (int i = 0; out->survivors && i < st->nsurvivors; i++)
      if ((out->survivors[out->nsurvivors] = strdup(st->survivors[i]))) out->nsurvivors++;
  }
  synth_env_done(&env);
  free(gtext);
  sqlsim_query_free(g);
  return rc;
}

void sqlsim_suite_report_free(sqlsim_suite_report *r) {
  if (!r) return;
  for (int i = 0; i < r->nsurvivors; i++) free(r->survivors[i]);
  free(r->survivors);
  memset(r, 0, sizeof *r);
}

int sqlsim_synth_dump(const sqlsim_schema *schema, const char *gold, const char *pred,
                      const sqlsim_synth_opts *opts, int k, const char *path, sqlsim_error *err) {
  sqlsim_query *g, *p = NULL;
  int rc = sqlsim_parse(gold, strlen(gold), schema, 0, &g, err);
  if (rc) return rc;
  if (pred && sqlsim_parse(pred, strlen(pred), schema, 0, &p, NULL)) p = NULL;
  synth_facts *f = synth_facts_read(schema, g, p);
  void *h = NULL;
  rc = f ? sqlsim_schema_create_sqlite(schema, path, &h, err) : sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
  if (!rc) {
    unsigned char *filled = calloc((size_t)schema->ntables + 1, 1);
    synth_shape sh = synth_shape_of(k, opts && opts->seed ? opts->seed : DEFAULT_SEED);
    char why[200];
    if (!filled || synth_fill(h, f, &sh, filled, why, sizeof why) < 0)
      rc = sqlsim_error_set(err, SQLSIM_ESQLITE, -1, "%s: %s", path, filled ? why : "out of memory");
    free(filled);
    sqlite3_close(h);
  }
  synth_facts_free(f);
  sqlsim_query_free(g);
  sqlsim_query_free(p);
  return rc;
}
