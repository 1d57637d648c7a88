/* solver.c -- strict's last stage: both queries encoded over bounded tables
 * for z3, asked for a database on which their answers differ.
 *
 * Each table the queries read (and each parent a foreign key of theirs
 * needs) gets k row slots, each with a presence flag (present slots first)
 * and per column a value and a NULL flag: Int for a column of INTEGER
 * affinity, Real for another number type, and for text an Int code (codes
 * equal exactly when the texts are; a literal of the queries has its own
 * code). The declared schema holds on them: NOT NULL and primary keys (their
 * columns never NULL), UNIQUE, foreign keys (a child value has a present
 * parent row holding it). A query is encoded over the combinations of its
 * FROM items' rows: inner, cross, NATURAL and USING joins, and LEFT and RIGHT
 * joins whose nullable side is one table (it has one more slot, its NULL
 * row, taken where none of its rows meets ON); WHERE and ON in SQL's
 * three-valued logic, GROUP BY and HAVING with COUNT (DISTINCT), SUM, AVG,
 * MIN, MAX, DISTINCT, arithmetic and division (SQLite's: integers truncate,
 * a zero divisor gives NULL), CASE, COALESCE, IFNULL, IIF, NULLIF, ABS, CAST
 * between number types, IN lists, BETWEEN, IS NULL, subqueries (IN, tuple
 * IN, NOT IN, EXISTS, a scalar one answering at most one row), correlated
 * ones encoded again at each combination of the enclosing query's rows,
 * UNION [ALL], INTERSECT, EXCEPT, and ORDER BY .. LIMIT/OFFSET over number
 * keys (a row is kept when fewer than the limit come before it; only
 * databases whose answer does not hinge on how ties are broken are asked
 * about). Its answer is a list of candidate rows, each with a flag saying
 * whether it is in the answer. The two answers differ when some row occurs a
 * different number of times in them (a multiset; for BIRD's comparison, in
 * one and not the other).
 *
 * Satisfiable: the model becomes a witness database (synth_data), which the
 * caller replays on SQLite and judges as strict judges any database; a model
 * that does not replay is a defect of this encoding, reported, never a
 * verdict. Unsatisfiable at k: no database of at most k rows per table tells
 * the two apart under the subset's semantics (a bounded equivalence), and
 * k grows while the budget lasts (and while the encoding stays within its
 * size limits: past them, the bound reached stands). Anything outside the
 * subset (CTEs, subqueries in FROM, FULL joins, window functions, other
 * functions, text ordered or compared with a number, LIMIT without ORDER BY
 * or over text, division of a NUMERIC column's values, which the data makes
 * integer or real division) is said and leaves
 * the verdict to the search. Entry point: synth_solve. */
#include "synth.h"

#include "parser/tree.h"

#include <ctype.h>
#include <math.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <z3.h>

#define MAX_ITEMS 6        /* FROM items of one query */
#define MAX_TUPLES 4096    /* combinations of their rows */
#define MAX_K SYNTH_SOLVER_MAX_K
#define MAX_TEXTS 256      /* text literals */

/* K_NUMTEXT: a text column the queries equate with a number column (Spider's
 * keys declared text on one side): its values are integers written as text,
 * which SQLite converts when comparing with the number column */
enum { K_INT = 'i', K_REAL = 'r', K_TEXT = 't', K_NUMTEXT = 'n' };

typedef struct val {       /* an expression's value: number or text code, NULL flag */
  Z3_ast v, n;
  int kind;
  int lit;                 /* a literal (no column affinity) */
  int nul;                 /* the literal NULL (of any kind) */
  int num;                 /* K_REAL that may be stored as an integer (NUMERIC affinity): / is undecided */
  const char *text;        /* a literal's text as written (its affinity may convert it) */
} val;

typedef struct pred {      /* a condition: true, false (unknown when neither) */
  Z3_ast t, f;
} pred;

typedef struct answer {    /* a query's candidate rows */
  int nrows, ncols;
  Z3_ast *in;              /* the row is in the answer */
  val *cells;              /* nrows x ncols */
  int one;                 /* at most one row: an aggregate without GROUP BY, LIMIT 1 */
  val *keys;               /* the top query's ORDER BY keys, nrows x nk (kept when its order counts) */
  int nk;
  const sqlsim_node *order;
} answer;

typedef struct enc {
  Z3_context z;
  Z3_solver sol;
  const sqlsim_schema *s;
  int k;                   /* slots per table at most; slot k is an outer join's NULL row */
  int *kt;                 /* per table: its slots in use (k, or fewer in a skewed shape) */
  unsigned char *used;     /* tables encoded */
  Z3_ast *present;         /* [t * k + r] */
  val *cells;              /* [r * ncolumns + column] */
  const char *texts[MAX_TEXTS];
  Z3_ast codes[MAX_TEXTS]; /* each literal's code: ordered as the texts are */
  int ntexts;
  struct { const char *pat; Z3_func_decl f; } likes[16]; /* x LIKE pat: f(x's code), SQLite's LIKE on literals */
  int nlikes;
  char why[160];           /* the first construct outside the subset */
  int no_nulls;            /* assume_not_null: no cell is NULL */
  struct { const sqlsim_node *sel; answer a; } subs[8]; /* uncorrelated subqueries, encoded once */
  sqlsim_arena *arena;     /* the literals' texts (a CHECK's query is freed before solving) */
  int nsubs;
  unsigned char *numtext;  /* per column: text holding integers (K_NUMTEXT) */
  int fresh;
  struct extreme { int is_min, n; Z3_ast *cx; Z3_ast m; } ext[32]; /* MIN/MAX encoded, by their terms */
  int next;
  int keep_keys;           /* keep the top query's ORDER BY keys on its answer */
  int size;                /* the why is a size: the bound reached below it stands */
  long work;               /* row combinations encoded, all queries */
  int depth;               /* nesting: subqueries, aliases */
} enc;

struct group;

/* one query's FROM items and the combination being encoded; in a grouped
 * query's targets and HAVING, the group (its first combination's rows) */
typedef struct scope {
  const sqlsim_node *item[MAX_ITEMS];
  int table[MAX_ITEMS];
  int nitems;
  const int *rows;         /* row slot of each item (k: the NULL row of an outer join) */
  const struct group *g;
  const struct scope *outer; /* the enclosing query's scope (a correlated subquery) */
  const struct from *fr;   /* its FROM clause (USING and NATURAL's merged columns) */
} scope;

/* A grouped query at one of its combinations, i: every combination j's rows,
 * whether it qualifies (FROM and WHERE), whether it falls in i's group. */
typedef struct group {
  int n;
  const int *rows;         /* n x nitems */
  const Z3_ast *q;
  const Z3_ast *same;      /* [j]: j in the group of i */
  const sqlsim_node *keys; /* GROUP BY's LIST, or NULL */
  int nfixed;              /* columns holding one value in a group: GROUP BY's, and those */
  struct { const void *source; int column; } fixed[64]; /* an inner join or WHERE equates with them */
} group;

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int out_of_subset(enc *e, const char *fmt, const char *what) {
  if (!e->why[0]) snprintf(e->why, sizeof e->why, fmt, what ? what : "");
  return -1;
}

/* ---------------------------------------------------------------- z3 helpers */

static Z3_ast mk_true(enc *e) { return Z3_mk_true(e->z); }
static Z3_ast mk_false(enc *e) { return Z3_mk_false(e->z); }
static Z3_ast mk_and2(enc *e, Z3_ast a, Z3_ast b) {
  Z3_ast x[2] = {a, b};
  return Z3_mk_and(e->z, 2, x);
}
static Z3_ast mk_or2(enc *e, Z3_ast a, Z3_ast b) {
  Z3_ast x[2] = {a, b};
  return Z3_mk_or(e->z, 2, x);
}
static Z3_ast mk_not(enc *e, Z3_ast a) { return Z3_mk_not(e->z, a); }
static Z3_ast mk_int(enc *e, long long i) { return Z3_mk_int64(e->z, i, Z3_mk_int_sort(e->z)); }
static Z3_ast mk_ite01(enc *e, Z3_ast c) { return Z3_mk_ite(e->z, c, mk_int(e, 1), mk_int(e, 0)); }

static Z3_ast fresh(enc *e, const char *what, Z3_sort sort) {
  char name[64];
  snprintf(name, sizeof name, "%s%d", what, e->fresh++);
  return Z3_mk_const(e->z, Z3_mk_string_symbol(e->z, name), sort);
}

static Z3_ast sum(enc *e, Z3_ast *terms, int n, int real) {
  if (!n) return real ? Z3_mk_real(e->z, 0, 1) : mk_int(e, 0);
  return n == 1 ? terms[0] : Z3_mk_add(e->z, (unsigned)n, terms);
}

static Z3_ast as_real(enc *e, const val *v) { return v->kind == K_REAL ? v->v : Z3_mk_int2real(e->z, v->v); }

/* Values equal as answers compare them: both NULL, or neither and equal
 * (an integer equals the real of its value; text never equals a number). */
static Z3_ast same_value(enc *e, const val *a, const val *b) {
  Z3_ast both_null = mk_and2(e, a->n, b->n);
  if ((a->kind == K_TEXT) != (b->kind == K_TEXT) || (a->kind == K_NUMTEXT) != (b->kind == K_NUMTEXT)) return both_null;
  Z3_ast eq = a->kind == b->kind ? Z3_mk_eq(e->z, a->v, b->v) : Z3_mk_eq(e->z, as_real(e, a), as_real(e, b));
  Z3_ast x[3] = {mk_not(e, a->n), mk_not(e, b->n), eq};
  return mk_or2(e, both_null, Z3_mk_and(e->z, 3, x));
}

/* ---------------------------------------------------------------- the tables */

static int column_kind(const enc *e, int col) {
  const sqlsim_column *c = &e->s->columns[col];
  if (!synth_numeric_column(c)) return e->numtext && e->numtext[col] ? K_NUMTEXT : K_TEXT;
  return core_type_affinity(c->type) == 'I' ? K_INT : K_REAL;
}

static Z3_ast fresh(enc *e, const char *what, Z3_sort sort);

/* A text literal's code: an Int whose order among the literals' codes is
 * the texts' own (SQLite's BINARY order, bytes compared), so that codes
 * compare as the texts do; NULL when there are too many. */
static Z3_ast text_code(enc *e, const char *t) {
  for (int i = 0; i < e->ntexts; i++)
    if (!strcmp(e->texts[i], t)) return e->codes[i];
  if (e->ntexts == MAX_TEXTS) {
    out_of_subset(e, "more than %s text literals", "256");
    return NULL;
  }
  Z3_ast c = fresh(e, "lit", Z3_mk_int_sort(e->z));
  for (int i = 0; i < e->ntexts; i++) {
    int order = strcmp(t, e->texts[i]);
    Z3_solver_assert(e->z, e->sol, order < 0 ? Z3_mk_lt(e->z, c, e->codes[i]) : Z3_mk_gt(e->z, c, e->codes[i]));
  }
  for (int l = 0; l < e->nlikes; l++) { /* the patterns met so far hold of it as SQLite's LIKE says */
    Z3_ast at = Z3_mk_app(e->z, e->likes[l].f, 1, &c);
    Z3_solver_assert(e->z, e->sol, sqlite3_strlike(e->likes[l].pat, t, 0) == 0 ? at : Z3_mk_not(e->z, at));
  }
  e->texts[e->ntexts] = sqlsim_arena_strdup(e->arena, t);
  e->codes[e->ntexts++] = c;
  return c;
}

/* The predicate x LIKE pat over codes: a function the solver chooses, held
 * to SQLite's own LIKE (sqlite3_strlike: % and _, ASCII case folded) on
 * every literal; a model's other codes get texts that meet what it chose
 * (text_map_build), or the model does not replay. Two patterns are two
 * functions, tied only on the literals (and one when they differ in case
 * alone): a bound proved over such free choices holds of SQLite's LIKE, and
 * a model no text realises is a defect, never a verdict. NULL past 16. */
static Z3_func_decl like_pattern(enc *e, const char *pattern) {
  char *pat = sqlsim_arena_strdup(e->arena, pattern); /* LIKE folds ASCII case: 'B%' is 'b%' */
  for (char *p = pat; p && *p; p++)
    if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
  if (!pat) return NULL;
  for (int l = 0; l < e->nlikes; l++)
    if (!strcmp(e->likes[l].pat, pat)) return e->likes[l].f;
  if (e->nlikes == 16) return NULL;
  char name[32];
  snprintf(name, sizeof name, "like%d", e->nlikes);
  Z3_sort is = Z3_mk_int_sort(e->z);
  Z3_func_decl f = Z3_mk_func_decl(e->z, Z3_mk_string_symbol(e->z, name), 1, &is, Z3_mk_bool_sort(e->z));
  e->likes[e->nlikes].pat = pat;
  e->likes[e->nlikes++].f = f;
  for (int i = 0; i < e->ntexts; i++) {
    Z3_ast at = Z3_mk_app(e->z, f, 1, &e->codes[i]);
    Z3_solver_assert(e->z, e->sol, sqlite3_strlike(pat, e->texts[i], 0) == 0 ? at : Z3_mk_not(e->z, at));
  }
  return f;
}

/* The column x IN (SELECT y ..) tests against, y, or NULL. */
static const sqlsim_node *in_column(const sqlsim_node *n) {
  const sqlsim_node *sel = n->nkids > 1 ? n->kids[1] : NULL;
  const sqlsim_node *t = sel && sel->kind == SQLSIM_N_SELECT && sel->op == SQLSIM_SET_NONE ? sel->kids[SQLSIM_SEL_TARGETS] : NULL;
  const sqlsim_node *x = t && t->nkids == 1 && t->kids[0] && t->kids[0]->kind == SQLSIM_N_TARGET && t->kids[0]->nkids
                             ? t->kids[0]->kids[0]
                             : NULL;
  return x && x->kind == SQLSIM_N_COLUMN ? x : NULL;
}

static void mark_tables(enc *e, const sqlsim_node *n, int depth) {
  if (!n || depth > 64) return;
  if (n->kind == SQLSIM_N_TABLE && n->table >= 0 && n->table < e->s->ntables) e->used[n->table] = 1;
  const sqlsim_node *l = NULL, *r = NULL; /* two columns equated: a = b, a IN (SELECT b ..) */
  if (n->kind == SQLSIM_N_BINOP && n->op == SQLSIM_OP_EQ && n->nkids >= 2) l = n->kids[0], r = n->kids[1];
  if (n->kind == SQLSIM_N_SUBLINK && n->op == SQLSIM_SUB_IN && n->nkids > 1) l = n->kids[0], r = in_column(n);
  if (l && r && l->kind == SQLSIM_N_COLUMN && r->kind == SQLSIM_N_COLUMN && l->column >= 0 && r->column >= 0 &&
      e->numtext) { /* a text column equated with a number column */
    int a = l->column, b = r->column;
    int na = synth_numeric_column(&e->s->columns[a]), nb = synth_numeric_column(&e->s->columns[b]);
    if (na != nb) e->numtext[na ? b : a] = 1;
  }
  for (uint32_t i = 0; i < n->nkids; i++) mark_tables(e, n->kids[i], depth + 1);
}

/* The slots of the used tables (and their foreign keys' parents, in turn),
 * with the schema's constraints asserted. */
static void make_tables(enc *e) {
  const sqlsim_schema *s = e->s;
  for (int changed = 1; changed;) { /* parents of used tables are used */
    changed = 0;
    for (int f = 0; f < s->nfkeys; f++) {
      int ct = s->columns[s->fkeys[f].column].table, pt = s->columns[s->fkeys[f].ref_column].table;
      if (e->used[ct] && !e->used[pt]) e->used[pt] = changed = 1;
    }
  }
  int k = e->k;
  e->present = calloc((size_t)s->ntables * (size_t)k, sizeof *e->present);
  e->cells = calloc((size_t)s->ncolumns * (size_t)(k + 1) + 1, sizeof *e->cells); /* row k: NULLs (outer joins) */
  if (!e->present || !e->cells) return;
  Z3_sort is = Z3_mk_int_sort(e->z), rs = Z3_mk_real_sort(e->z), bs = Z3_mk_bool_sort(e->z);
  for (int t = 0; t < s->ntables; t++) {
    if (!e->used[t]) continue;
    const sqlsim_table *tab = &s->tables[t];
    for (int r = 0; r < k; r++) {
      Z3_ast p = e->present[t * k + r] = fresh(e, "p", bs);
      if (r) Z3_solver_assert(e->z, e->sol, Z3_mk_implies(e->z, p, e->present[t * k + r - 1]));
      if (r >= e->kt[t]) Z3_solver_assert(e->z, e->sol, mk_not(e, p)); /* beyond the shape's slots */
      for (int i = 0; i < tab->ncolumns; i++) {
        int c = tab->first_column + i;
        const sqlsim_column *col = &s->columns[c];
        val *v = &e->cells[(size_t)r * (size_t)s->ncolumns + (size_t)c];
        v->kind = column_kind(e, c);
        v->num = v->kind == K_REAL && core_type_affinity(col->type) != 'R';
        v->v = fresh(e, "v", v->kind == K_REAL ? rs : is);
        v->n = fresh(e, "n", bs);
        if (col->notnull || col->pk || e->no_nulls) Z3_solver_assert(e->z, e->sol, mk_not(e, v->n));
      }
    }
    for (int i = 0; i < tab->ncolumns; i++) { /* the NULL row an outer join adds */
      int c = tab->first_column + i;
      val *v = &e->cells[(size_t)k * (size_t)s->ncolumns + (size_t)c];
      v->kind = column_kind(e, c);
      v->num = v->kind == K_REAL && core_type_affinity(s->columns[c].type) != 'R';
      v->v = v->kind == K_REAL ? Z3_mk_real(e->z, 0, 1) : mk_int(e, 0);
      v->n = mk_true(e);
    }
    /* keys: no two present rows agree on the primary key, nor on a UNIQUE column's value */
    for (int a = 0; a < k; a++)
      for (int b = a + 1; b < k; b++) {
        Z3_ast both = mk_and2(e, e->present[t * k + a], e->present[t * k + b]);
        Z3_ast pk_same = NULL;
        for (int i = 0; i < tab->ncolumns; i++) {
          int c = tab->first_column + i;
          const sqlsim_column *col = &s->columns[c];
          const val *x = &e->cells[(size_t)a * (size_t)s->ncolumns + (size_t)c];
          const val *y = &e->cells[(size_t)b * (size_t)s->ncolumns + (size_t)c];
          Z3_ast eq = Z3_mk_eq(e->z, x->v, y->v);
          if (col->pk) pk_same = pk_same ? mk_and2(e, pk_same, eq) : eq;
          if (col->unique && !col->pk) {
            Z3_ast dup[4] = {both, mk_not(e, x->n), mk_not(e, y->n), eq};
            Z3_solver_assert(e->z, e->sol, mk_not(e, Z3_mk_and(e->z, 4, dup)));
          }
        }
        if (pk_same) Z3_solver_assert(e->z, e->sol, mk_not(e, mk_and2(e, both, pk_same)));
      }
  }
  /* foreign keys (a composite key's columns together): a present child row
   * whose key is all set has a present parent row holding it */
  synth_fkey_groups g;
  if (synth_fkey_groups_of(s, &g)) {
    synth_fkey_groups_free(&g);
    out_of_subset(e, "out of memory%s", "");
    return;
  }
  for (int q = 0; q < g.n; q++) {
    const int *pairs = &g.order[g.start[q]];
    int m = g.len[q];
    int ct = s->columns[s->fkeys[pairs[0]].column].table, pt = s->columns[s->fkeys[pairs[0]].ref_column].table;
    if (!e->used[ct]) continue;
    for (int r = 0; r < k; r++) {
      Z3_ast set = e->present[ct * k + r];
      for (int j = 0; j < m; j++)
        set = mk_and2(e, set, mk_not(e, e->cells[(size_t)r * (size_t)s->ncolumns + (size_t)s->fkeys[pairs[j]].column].n));
      Z3_ast *any = calloc((size_t)k, sizeof *any);
      for (int r2 = 0; any && r2 < k; r2++) {
        Z3_ast holds = e->present[pt * k + r2];
        for (int j = 0; j < m; j++) {
          const val *cv = &e->cells[(size_t)r * (size_t)s->ncolumns + (size_t)s->fkeys[pairs[j]].column];
          const val *pv = &e->cells[(size_t)r2 * (size_t)s->ncolumns + (size_t)s->fkeys[pairs[j]].ref_column];
          Z3_ast x[3] = {holds, mk_not(e, pv->n), same_value(e, cv, pv)};
          holds = Z3_mk_and(e->z, 3, x);
        }
        any[r2] = holds;
      }
      if (any) Z3_solver_assert(e->z, e->sol, Z3_mk_implies(e->z, set, Z3_mk_or(e->z, (unsigned)k, any)));
      free(any);
    }
  }
  synth_fkey_groups_free(&g);
}

/* ---------------------------------------------------------------- expressions */

static int expr(enc *e, const scope *sc, const sqlsim_node *n, val *out);
static int cond(enc *e, const scope *sc, const sqlsim_node *n, pred *out);
static int encode_select(enc *e, const sqlsim_node *sel, const scope *outer, answer *out);
static void answer_free(answer *a);

/* Whether a subquery names a column of an enclosing query. */
static int correlated(const sqlsim_node *n, int depth) {
  if (!n || depth > 64) return depth > 64;
  if (n->kind == SQLSIM_N_COLUMN && (n->flags & SQLSIM_F_OUTER)) return 1;
  for (uint32_t i = 0; i < n->nkids; i++)
    if (correlated(n->kids[i], depth + 1)) return 1;
  return 0;
}

/* A subquery's answer: an uncorrelated one encoded once; a correlated one
 * encoded again at each combination of the enclosing query's rows (sc), into
 * *own, which the caller frees. */
static const answer *subquery(enc *e, const scope *sc, const sqlsim_node *sel, answer *own) {
  memset(own, 0, sizeof *own);
  if (e->depth > 3) {
    out_of_subset(e, "subqueries nested more than %s deep", "3");
    return NULL;
  }
  for (int i = 0; i < e->nsubs; i++) /* met before: uncorrelated, encoded once */
    if (e->subs[i].sel == sel) return &e->subs[i].a;
  if (correlated(sel, 0)) {
    e->depth++;
    int rc = encode_select(e, sel, sc, own);
    e->depth--;
    return rc ? NULL : own;
  }
  if (e->nsubs == 8) {
    out_of_subset(e, "more than %s subqueries", "8");
    return NULL;
  }
  answer a;
  e->depth++;
  int rc = encode_select(e, sel, NULL, &a);
  e->depth--;
  if (rc) return NULL;
  e->subs[e->nsubs].sel = sel;
  e->subs[e->nsubs].a = a;
  return &e->subs[e->nsubs++].a;
}

static int constant(enc *e, const sqlsim_node *n, val *out) {
  *out = (val){0};
  out->text = n->text;
  out->n = mk_false(e);
  out->lit = 1;
  switch (n->op) {
  case SQLSIM_CONST_NULL:
    out->kind = K_INT;
    out->v = mk_int(e, 0);
    out->n = mk_true(e);
    out->nul = 1;
    return 0;
  case SQLSIM_CONST_INT: {
    char *end;
    long long i = strtoll(n->text, &end, 10);
    if (*end) return out_of_subset(e, "the number %s", n->text);
    out->kind = K_INT;
    out->v = mk_int(e, i);
    return 0;
  }
  case SQLSIM_CONST_FLOAT: {
    const char *p = n->text;
    for (; *p; p++)
      if (!strchr("0123456789.", *p)) return out_of_subset(e, "the number %s", n->text);
    out->kind = K_REAL;
    out->v = Z3_mk_numeral(e->z, n->text, Z3_mk_real_sort(e->z));
    return 0;
  }
  case SQLSIM_CONST_STRING: {
    Z3_ast code = text_code(e, n->text ? n->text : "");
    if (!code) return -1;
    out->kind = K_TEXT;
    out->v = code;
    return 0;
  }
  default: return out_of_subset(e, "a literal of its kind%s", "");
  }
}

static int grouped_column(const group *g, const void *source, int column) {
  for (int i = 0; i < g->nfixed; i++)
    if (g->fixed[i].source == source && g->fixed[i].column == column) return 1;
  return 0;
}

static void fix_column(group *g, const void *source, int column) {
  if (!grouped_column(g, source, column) && g->nfixed < 64) {
    g->fixed[g->nfixed].source = source;
    g->fixed[g->nfixed++].column = column;
  }
}

/* An equality of two columns of one kind (numbers, or text that no
 * affinity converts) in an inner join's ON or WHERE, as a conjunct. */
static void equalities(const enc *e, const sqlsim_node *c, const sqlsim_node **eq, int *neq, int depth) {
  if (!c || depth > 16) return;
  if (c->kind == SQLSIM_N_AND) {
    for (uint32_t i = 0; i < c->nkids; i++) equalities(e, c->kids[i], eq, neq, depth + 1);
    return;
  }
  if (c->kind != SQLSIM_N_BINOP || c->op != SQLSIM_OP_EQ || c->nkids < 2 || *neq >= 32) return;
  const sqlsim_node *a = c->kids[0], *b = c->kids[1];
  if (!a || !b || a->kind != SQLSIM_N_COLUMN || b->kind != SQLSIM_N_COLUMN || a->column < 0 || b->column < 0 ||
      ((a->flags | b->flags) & (SQLSIM_F_OUTER | SQLSIM_F_ALIASREF | SQLSIM_F_UNRESOLVED | SQLSIM_F_AMBIGUOUS)))
    return;
  int ka = column_kind(e, a->column), kb = column_kind(e, b->column);
  int same = ka == kb ? ka != K_NUMTEXT : (ka == K_INT || ka == K_REAL) && (kb == K_INT || kb == K_REAL);
  if (same) eq[(*neq)++] = c;
}

/* The columns holding one value in each group: GROUP BY's, then, in turn,
 * those an equality (ON of an inner join, WHERE, USING) ties to one. */
static void fixed_columns(const enc *e, group *g, const sqlsim_node *const *on, int non, const sqlsim_node *where,
                          const int (*using)[4], int nusing, const sqlsim_node *const *item) {
  for (uint32_t i = 0; g->keys && i < g->keys->nkids; i++) {
    const sqlsim_node *k = g->keys->kids[i];
    if (k && k->kind == SQLSIM_N_COLUMN) fix_column(g, k->source, k->column);
  }
  const sqlsim_node *eq[32];
  int neq = 0;
  for (int i = 0; i < non; i++) equalities(e, on[i], eq, &neq, 0);
  equalities(e, where, eq, &neq, 0);
  for (int changed = 1, rounds = 0; changed && rounds < 8; rounds++) {
    changed = 0;
    int before = g->nfixed;
    for (int i = 0; i < neq; i++) {
      const sqlsim_node *a = eq[i]->kids[0], *b = eq[i]->kids[1];
      if (grouped_column(g, a->source, a->column)) fix_column(g, b->source, b->column);
      if (grouped_column(g, b->source, b->column)) fix_column(g, a->source, a->column);
    }
    for (int i = 0; i < nusing; i++) {
      const int *u = using[i];
      if (grouped_column(g, item[u[0]], u[1])) fix_column(g, item[u[2]], u[3]);
      if (grouped_column(g, item[u[2]], u[3])) fix_column(g, item[u[0]], u[1]);
    }
    changed = g->nfixed != before;
  }
}

/* Whether column n holds one value in a group: GROUP BY names it, or every
 * column of its FROM item's primary key (then the group holds one row of
 * that table). */
static int grouped(const sqlsim_schema *s, const group *g, const sqlsim_node *n) {
  if (grouped_column(g, n->source, n->column)) return 1;
  if (n->column < 0) return 0;
  const sqlsim_table *t = &s->tables[s->columns[n->column].table];
  int pk = 0;
  for (int i = 0; i < t->ncolumns; i++)
    if (s->columns[t->first_column + i].pk) {
      if (!grouped_column(g, n->source, t->first_column + i)) return 0;
      pk++;
    }
  return pk > 0;
}

static int aggregate(enc *e, const scope *sc, const sqlsim_node *n, val *out);

static int merged(const scope *s, int item, int column);

/* A column: of a FROM item of this query or, correlated, of an enclosing
 * one (at the enclosing query's combination); a select-list alias: its
 * expression. */
static int column(enc *e, const scope *sc, const sqlsim_node *n, val *out) {
  if (n->flags & SQLSIM_F_ALIASREF) {
    const sqlsim_node *t = n->source;
    if (!t || t->kind != SQLSIM_N_TARGET || !t->nkids || e->depth > 8)
      return out_of_subset(e, "the alias %s", n->text);
    e->depth++;
    int rc = expr(e, sc, t->kids[0], out);
    e->depth--;
    return rc;
  }
  if (n->flags & SQLSIM_F_UNRESOLVED || n->column < 0) return out_of_subset(e, "the column %s (unresolved)", n->text);
  for (const scope *s = sc; s; s = s->outer)
    for (int i = 0; i < s->nitems; i++)
      if (s->item[i] == n->source) {
        if ((n->flags & SQLSIM_F_AMBIGUOUS) && !merged(s, i, n->column))
          return out_of_subset(e, "the column %s (ambiguous)", n->text);
        const char *coll = e->s->columns[n->column].collation; /* codes compare as BINARY texts do */
        if (coll && strcasecmp(coll, "binary") && column_kind(e, n->column) == K_TEXT)
          return out_of_subset(e, "the column %s (collation other than BINARY)", n->text);
        if (s->g && !grouped(e->s, s->g, n))
          return out_of_subset(e, "the column %s, neither grouped nor aggregated", n->text);
        *out = e->cells[(size_t)s->rows[i] * (size_t)e->s->ncolumns + (size_t)n->column];
        return 0;
      }
  return out_of_subset(e, "the column %s, not of a table in FROM", n->text);
}

static int arith(enc *e, const scope *sc, const sqlsim_node *n, val *out) {
  val a, b;
  if (expr(e, sc, n->kids[0], &a) || expr(e, sc, n->kids[1], &b)) return -1;
  if (a.kind == K_TEXT || b.kind == K_TEXT) return out_of_subset(e, "arithmetic on text%s", "");
  out->n = mk_or2(e, a.n, b.n);
  out->lit = 1; /* an expression has no affinity */
  out->nul = 0;
  int real = a.kind == K_REAL || b.kind == K_REAL;
  /* a NUMERIC column's value may be an integer: real only beside a real */
  int surely_real = (a.kind == K_REAL && !a.num) || (b.kind == K_REAL && !b.num);
  out->num = real && !surely_real;
  Z3_ast x[2] = {real ? as_real(e, &a) : a.v, real ? as_real(e, &b) : b.v};
  out->kind = real ? K_REAL : K_INT;
  switch (n->op) {
  case SQLSIM_OP_ADD: out->v = Z3_mk_add(e->z, 2, x); return 0;
  case SQLSIM_OP_SUB: out->v = Z3_mk_sub(e->z, 2, x); return 0;
  case SQLSIM_OP_MUL: out->v = Z3_mk_mul(e->z, 2, x); return 0;
  case SQLSIM_OP_DIV: {
    /* SQLite: NULL for a zero divisor; integers divide truncating toward
     * zero (z3's div floors: the magnitudes are divided, the sign put back) */
    if (out->num)
      return out_of_subset(e, "division of a NUMERIC column's value (integer or real division: the data decides)%s", "");
    Z3_ast zero = real ? Z3_mk_real(e->z, 0, 1) : mk_int(e, 0);
    out->n = mk_or2(e, out->n, Z3_mk_eq(e->z, x[1], zero));
    if (real) {
      out->v = Z3_mk_div(e->z, x[0], x[1]);
      return 0;
    }
    Z3_ast na = Z3_mk_lt(e->z, x[0], zero), nb = Z3_mk_lt(e->z, x[1], zero);
    Z3_ast aa = Z3_mk_ite(e->z, na, Z3_mk_unary_minus(e->z, x[0]), x[0]);
    Z3_ast ab = Z3_mk_ite(e->z, nb, Z3_mk_unary_minus(e->z, x[1]), x[1]);
    Z3_ast q = Z3_mk_div(e->z, aa, ab);
    out->v = Z3_mk_ite(e->z, Z3_mk_xor(e->z, na, nb), Z3_mk_unary_minus(e->z, q), q);
    return 0;
  }
  default: return out_of_subset(e, "the operator %s", "of its kind");
  }
}

/* The kind values of several kinds take together (CASE's results,
 * COALESCE's arguments): numbers (real when any is), text, integers held as
 * text; the literal NULL takes any; -1 when they mix. */
static int common_kind(const val *v, int n) {
  int kind = 0;
  for (int i = 0; i < n; i++) {
    if (v[i].nul) continue;
    int k = v[i].kind;
    if (!kind) kind = k;
    else if (kind != k) {
      int num = (kind == K_INT || kind == K_REAL) && (k == K_INT || k == K_REAL);
      if (!num) return -1;
      kind = K_REAL;
    }
  }
  return kind ? kind : K_INT;
}

static Z3_ast as_kind(enc *e, const val *v, int kind) {
  if (v->nul) return kind == K_REAL ? Z3_mk_real(e->z, 0, 1) : mk_int(e, 0);
  return kind == K_REAL ? as_real(e, v) : v->v;
}

/* v[0] where c[0] holds, else v[1] where c[1] holds, .., else v[n] (c has n
 * conditions, v n + 1 values): CASE, COALESCE, IIF. */
static int choose(enc *e, const Z3_ast *c, const val *v, int n, val *out) {
  int kind = common_kind(v, n + 1);
  if (kind < 0) return out_of_subset(e, "values of several kinds in one CASE or COALESCE%s", "");
  val r = {.v = as_kind(e, &v[n], kind), .n = v[n].n, .kind = kind, .lit = 1};
  for (int i = 0; i <= n; i++) /* an integer among reals, or a NUMERIC value: either */
    if (!v[i].nul && kind == K_REAL && (v[i].num || v[i].kind == K_INT)) r.num = 1;
  for (int i = n - 1; i >= 0; i--) {
    r.v = Z3_mk_ite(e->z, c[i], as_kind(e, &v[i], kind), r.v);
    r.n = Z3_mk_ite(e->z, c[i], v[i].n, r.n);
  }
  *out = r;
  return 0;
}

static int case_expr(enc *e, const scope *sc, const sqlsim_node *n, val *out);
static int too_big(enc *e, const char *what);
static int cast(enc *e, const scope *sc, const sqlsim_node *n, val *out);
static int function(enc *e, const scope *sc, const sqlsim_node *n, val *out);
static int is_aggregate(const sqlsim_node *n);

static int expr(enc *e, const scope *sc, const sqlsim_node *n, val *out) {
  if (!n) return out_of_subset(e, "an empty expression%s", "");
  switch (n->kind) {
  case SQLSIM_N_CONST: return constant(e, n, out);
  case SQLSIM_N_COLUMN: return column(e, sc, n, out);
  case SQLSIM_N_BINOP:
    if (n->op == SQLSIM_OP_ADD || n->op == SQLSIM_OP_SUB || n->op == SQLSIM_OP_MUL || n->op == SQLSIM_OP_DIV)
      return arith(e, sc, n, out);
    break;
  case SQLSIM_N_UNOP:
    if (n->op == SQLSIM_OP_NEG || n->op == SQLSIM_OP_PLUS) {
      if (expr(e, sc, n->kids[0], out)) return -1;
      if (out->kind == K_TEXT) return out_of_subset(e, "a sign on text%s", "");
      if (n->op == SQLSIM_OP_NEG) out->v = Z3_mk_unary_minus(e->z, out->v);
      out->text = NULL;
      return 0;
    }
    break;
  default: break;
  }
  if (n->kind == SQLSIM_N_SUBLINK && n->op == SQLSIM_SUB_SCALAR && n->nkids > 1) {
    /* a scalar subquery answering one row (an aggregate without GROUP BY):
     * its value, NULL when HAVING leaves no row */
    answer own;
    const answer *a = subquery(e, sc, n->kids[1], &own);
    if (!a) return -1;
    int rc = 0;
    if (a->ncols != 1 || !(a->one || a->nrows == 1)) rc = out_of_subset(e, "a scalar subquery of %s rows", "several");
    else { /* its one row's value; NULL when it has none */
      Z3_ast c[64];
      val v[65];
      if (a->nrows > 64) rc = too_big(e, "a scalar subquery of more than 64 candidate rows");
      for (int i = 0; !rc && i < a->nrows; i++) c[i] = a->in[i], v[i] = a->cells[i];
      if (!rc) {
        v[a->nrows] = (val){.v = mk_int(e, 0), .n = mk_true(e), .kind = K_INT, .lit = 1, .nul = 1};
        rc = choose(e, c, v, a->nrows, out);
        out->lit = 0;
      }
    }
    answer_free(&own);
    return rc;
  }
  if (n->kind == SQLSIM_N_CASE) return case_expr(e, sc, n, out);
  if (n->kind == SQLSIM_N_CAST) return cast(e, sc, n, out);
  if (n->kind == SQLSIM_N_FUNC && is_aggregate(n)) {
    if (sc->g) return aggregate(e, sc, n, out);
    return out_of_subset(e, "the aggregate %s() outside a grouped query", n->text);
  }
  if (n->kind == SQLSIM_N_FUNC) return function(e, sc, n, out);
  return out_of_subset(e, "an expression of its kind (%s)", n->text ? n->text : "");
}

/* An aggregate the encoding reads: the parser's (tree_is_aggregate) but
 * TOTAL and GROUP_CONCAT. */
static int is_aggregate(const sqlsim_node *n) {
  return tree_is_aggregate(n) && strcmp(n->text, "total") && strcmp(n->text, "group_concat");
}

/* MIN (MAX) of the values x[j] where c[j]: a fresh value that is one of
 * them and below (above) none. Encoded once per distinct terms: the gold's
 * and the prediction's same MAX are then one value, not two the solver must
 * prove equal. */
static Z3_ast extreme(enc *e, int is_min, const Z3_ast *c, const val *x, int n, int kind) {
  for (int i = 0; i < e->next; i++) {
    struct extreme *m = &e->ext[i];
    int same = m->is_min == is_min && m->n == n;
    for (int j = 0; same && j < n; j++) same = m->cx[2 * j] == c[j] && m->cx[2 * j + 1] == x[j].v;
    if (same) return m->m;
  }
  Z3_ast m = fresh(e, "m", kind == K_REAL ? Z3_mk_real_sort(e->z) : Z3_mk_int_sort(e->z));
  size_t nn = n > 0 ? (size_t)n : 1;
  Z3_ast *terms = malloc(sizeof *terms * nn);
  if (!terms) return m;
  for (int j = 0; j < n; j++) {
    terms[j] = mk_and2(e, c[j], Z3_mk_eq(e->z, m, x[j].v));
    Z3_ast bound = is_min ? Z3_mk_le(e->z, m, x[j].v) : Z3_mk_ge(e->z, m, x[j].v);
    Z3_solver_assert(e->z, e->sol, Z3_mk_implies(e->z, c[j], bound));
  }
  Z3_solver_assert(e->z, e->sol, Z3_mk_implies(e->z, Z3_mk_or(e->z, (unsigned)n, c), Z3_mk_or(e->z, (unsigned)n, terms)));
  free(terms);
  Z3_ast *cx = e->next < 32 ? malloc(sizeof *cx * 2 * nn) : NULL;
  if (cx) {
    for (int j = 0; j < n; j++) cx[2 * j] = c[j], cx[2 * j + 1] = x[j].v;
    e->ext[e->next++] = (struct extreme){is_min, n, cx, m};
  }
  return m;
}

/* COUNT, SUM, AVG, MIN, MAX over the group (sc->g), DISTINCT inside them too. */
static int aggregate(enc *e, const scope *sc, const sqlsim_node *n, val *out) {
  const group *g = sc->g;
  if (!is_aggregate(n) || (n->flags & SQLSIM_F_FILTER) || (n->nkids > 2 && n->kids[2]))
    return out_of_subset(e, "the function %s()", n->text);
  const char *f = n->text;
  int star = (n->flags & SQLSIM_F_STAR) != 0, distinct = (n->flags & SQLSIM_F_DISTINCT) != 0;
  const sqlsim_node *args = n->nkids ? n->kids[0] : NULL;
  if (!star && (!args || args->nkids != 1)) return out_of_subset(e, "%s() of its arguments", f);
  if (distinct && (long)g->n * g->n > 20000) return out_of_subset(e, "%s(DISTINCT ..) over too many rows", f);
  val *x = calloc((size_t)g->n, sizeof *x);
  Z3_ast *c = calloc((size_t)g->n, sizeof *c), *terms = calloc((size_t)g->n, sizeof *terms);
  int rc = x && c && terms ? 0 : out_of_subset(e, "out of memory%s", "");
  scope row = *sc;
  row.g = NULL;
  for (int j = 0; j < g->n && !rc; j++) {
    row.rows = &g->rows[(size_t)j * (size_t)sc->nitems];
    c[j] = mk_and2(e, g->q[j], g->same[j]);
    if (star) continue;
    if ((rc = expr(e, &row, args->kids[0], &x[j]))) break;
    c[j] = mk_and2(e, c[j], mk_not(e, x[j].n));
    if (distinct)
      for (int l = 0; l < j; l++) c[j] = mk_and2(e, c[j], mk_not(e, mk_and2(e, c[l], same_value(e, &x[l], &x[j]))));
  }
  int kind = star ? K_INT : x[0].kind;
  int text_ok = !strcmp(f, "count") || (kind == K_TEXT && (!strcmp(f, "min") || !strcmp(f, "max"))); /* codes ordered as texts */
  if (!rc && !star && (kind == K_TEXT || kind == K_NUMTEXT) && !text_ok) rc = out_of_subset(e, "%s() of text", f);
  if (!rc) {
    Z3_ast any = Z3_mk_or(e->z, (unsigned)g->n, c);
    if (!strcmp(f, "count")) {
      for (int j = 0; j < g->n; j++) terms[j] = mk_ite01(e, c[j]);
      *out = (val){.v = sum(e, terms, g->n, 0), .n = mk_false(e), .kind = K_INT};
    } else if (!strcmp(f, "sum") || !strcmp(f, "avg")) {
      Z3_ast zero = kind == K_REAL ? Z3_mk_real(e->z, 0, 1) : mk_int(e, 0);
      for (int j = 0; j < g->n; j++) terms[j] = Z3_mk_ite(e->z, c[j], x[j].v, zero);
      Z3_ast total = sum(e, terms, g->n, kind == K_REAL);
      *out = (val){.v = total, .n = mk_not(e, any), .kind = kind, .num = x[0].num};
      if (!strcmp(f, "avg")) {
        for (int j = 0; j < g->n; j++) terms[j] = mk_ite01(e, c[j]);
        Z3_ast cnt = sum(e, terms, g->n, 0);
        Z3_ast real_total = kind == K_REAL ? total : Z3_mk_int2real(e->z, total);
        /* the count is 1 .. n: a division by each constant (linear), not by the count (nonlinear) */
        Z3_ast avg = Z3_mk_div(e->z, real_total, Z3_mk_int2real(e->z, cnt));
        if (g->n <= 64) {
          avg = Z3_mk_real(e->z, 0, 1);
          for (int i = g->n; i >= 1; i--)
            avg = Z3_mk_ite(e->z, Z3_mk_eq(e->z, cnt, mk_int(e, i)), Z3_mk_div(e->z, real_total, Z3_mk_real(e->z, i, 1)), avg);
        }
        *out = (val){.v = avg, .n = mk_not(e, any), .kind = K_REAL};
      }
    } else
      *out = (val){.v = extreme(e, !strcmp(f, "min"), c, x, g->n, kind), .n = mk_not(e, any), .kind = kind, .num = x[0].num};
  }
  free(x);
  free(c);
  free(terms);
  return rc;
}

static pred truth(enc *e, Z3_ast c) { /* a two-valued condition */
  return (pred){c, mk_not(e, c)};
}

static int compare(enc *e, int op, const val *a, const val *b, pred *out);

/* A number column's value (x) compared with a text literal (t), x op t:
 * SQLite applies the column's NUMERIC affinity to the literal, which becomes
 * the number it spells ('2014' = 2014) or stays text, which every number
 * sorts before. A text column's value (x) against an integer literal, by =
 * or <>: TEXT affinity makes the literal its text (5 = '5'). 1 when neither
 * applies. */
static int text_and_number(enc *e, int op, const val *x, const val *t, pred *out) {
  if (t->lit && t->kind == K_TEXT && t->text && !x->lit && (x->kind == K_INT || x->kind == K_REAL)) {
    const char *p = t->text;
    int digits = 0, dots = 0, other = 0;
    for (const char *q = p + (*p == '-' || *p == '+'); *q; q++) {
      if (*q >= '0' && *q <= '9') digits++;
      else if (*q == '.') dots++;
      else other++;
    }
    if (!other && digits && dots <= 1 && strlen(p) < 19) { /* spells a number */
      val conv = {.n = mk_false(e), .lit = 1};
      if (dots) conv.kind = K_REAL, conv.v = Z3_mk_numeral(e->z, *p == '+' ? p + 1 : p, Z3_mk_real_sort(e->z));
      else conv.kind = K_INT, conv.v = mk_int(e, strtoll(p, NULL, 10));
      return compare(e, op, x, &conv, out);
    }
    if (digits || strchr(p, 'e') || strchr(p, 'E') || strchr(p, ' ') || strchr(p, '.'))
      return out_of_subset(e, "a text literal that may spell a number (%s)", p); /* ' 12', '1e3', '0x1': SQLite's reading */
    Z3_ast known = mk_not(e, x->n); /* a number sorts before any text */
    int c = op == SQLSIM_OP_LT || op == SQLSIM_OP_LE || op == SQLSIM_OP_NE;
    if (op != SQLSIM_OP_EQ && op != SQLSIM_OP_NE && op != SQLSIM_OP_LT && op != SQLSIM_OP_LE && op != SQLSIM_OP_GT &&
        op != SQLSIM_OP_GE)
      return out_of_subset(e, "a comparison of its kind%s", "");
    *out = (pred){c ? known : mk_false(e), c ? mk_false(e) : known};
    return 0;
  }
  if (!x->lit && x->kind == K_TEXT && t->lit && t->kind == K_INT && t->text && (op == SQLSIM_OP_EQ || op == SQLSIM_OP_NE)) {
    char *end;
    long long i = strtoll(t->text, &end, 10);
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", i);
    if (*end || strcmp(buf, t->text)) return 1; /* 007, 1e3: SQLite's rendering differs */
    Z3_ast code = text_code(e, buf);
    if (!code) return -1;
    val conv = {.v = code, .n = mk_false(e), .kind = K_TEXT, .lit = 1, .text = NULL};
    return compare(e, op, x, &conv, out);
  }
  return 1;
}

static int compare(enc *e, int op, const val *a, const val *b, pred *out) {
  if (op == SQLSIM_OP_IS || op == SQLSIM_OP_ISNOT) {
    if ((a->kind == K_NUMTEXT) != (b->kind == K_NUMTEXT))
      return out_of_subset(e, "IS between integers held as text and another kind%s", "");
    Z3_ast same = same_value(e, a, b);
    *out = truth(e, op == SQLSIM_OP_IS ? same : mk_not(e, same));
    return 0;
  }
  if (a->nul || b->nul) { /* NULL compared: unknown */
    *out = (pred){mk_false(e), mk_false(e)};
    return 0;
  }
  if ((a->kind == K_TEXT) != (b->kind == K_TEXT)) {
    int rc = text_and_number(e, op, a, b, out);
    if (rc == 1) {
      rc = text_and_number(e, tree_op_mirror(op), b, a, out);
      if (rc == 1) return out_of_subset(e, "text compared with a number%s", "");
    }
    return rc;
  }
  /* text by order: codes are ordered as the texts (BINARY collation) */
  int nt = (a->kind == K_NUMTEXT) + (b->kind == K_NUMTEXT);
  /* integers held as text: against a number column SQLite compares them as
   * numbers; against a literal or another text column, as text: = only */
  if (nt && op != SQLSIM_OP_EQ && op != SQLSIM_OP_NE && (nt == 2 || a->lit || b->lit))
    return out_of_subset(e, "integers held as text compared by order%s", "");
  if (nt == 1 && (a->lit || b->lit) && (a->kind == K_REAL || b->kind == K_REAL))
    return out_of_subset(e, "integers held as text compared with a real literal%s", "");
  int real = (a->kind == K_REAL) != (b->kind == K_REAL);
  Z3_ast x = real ? as_real(e, a) : a->v, y = real ? as_real(e, b) : b->v, c;
  switch (op) {
  case SQLSIM_OP_EQ: c = Z3_mk_eq(e->z, x, y); break;
  case SQLSIM_OP_NE: c = mk_not(e, Z3_mk_eq(e->z, x, y)); break;
  case SQLSIM_OP_LT: c = Z3_mk_lt(e->z, x, y); break;
  case SQLSIM_OP_LE: c = Z3_mk_le(e->z, x, y); break;
  case SQLSIM_OP_GT: c = Z3_mk_gt(e->z, x, y); break;
  case SQLSIM_OP_GE: c = Z3_mk_ge(e->z, x, y); break;
  default: return out_of_subset(e, "a comparison of its kind%s", "");
  }
  Z3_ast known = mk_not(e, mk_or2(e, a->n, b->n));
  out->t = mk_and2(e, known, c);
  out->f = mk_and2(e, known, mk_not(e, c));
  return 0;
}

static pred p_and(enc *e, pred a, pred b) { return (pred){mk_and2(e, a.t, b.t), mk_or2(e, a.f, b.f)}; }
static pred p_or(enc *e, pred a, pred b) { return (pred){mk_or2(e, a.t, b.t), mk_and2(e, a.f, b.f)}; }
static pred p_not(pred a) { return (pred){a.f, a.t}; }

/* EXISTS S, x IN S, (a, b) IN S, their NOT: S's answer sa. */
static int sublink(enc *e, const scope *sc, const sqlsim_node *n, const answer *sa, pred *out) {
  if (n->op == SQLSIM_SUB_EXISTS) {
    Z3_ast any = sa->nrows ? Z3_mk_or(e->z, (unsigned)sa->nrows, sa->in) : mk_false(e);
    *out = truth(e, any);
  } else if (n->op == SQLSIM_SUB_IN) {
    /* x IN S: true when a row of S equals x, false when every row of S
     * differs from it (S empty included), else unknown; (a, b) IN S row-wise */
    const sqlsim_node *test = n->kids[0];
    int width = test && test->kind == SQLSIM_N_ROW ? (int)test->nkids : 1;
    if (!test || width != sa->ncols || width > 8) return out_of_subset(e, "IN of its width%s", "");
    val x[8];
    for (int c = 0; c < width; c++)
      if (expr(e, sc, width > 1 || test->kind == SQLSIM_N_ROW ? test->kids[c] : test, &x[c])) return -1;
    Z3_ast t = mk_false(e), f = mk_true(e);
    for (int j = 0; j < sa->nrows; j++) {
      pred row = truth(e, mk_true(e));
      for (int c = 0; c < width; c++) {
        pred p;
        if (compare(e, SQLSIM_OP_EQ, &x[c], &sa->cells[(size_t)j * (size_t)sa->ncols + (size_t)c], &p)) return -1;
        row = p_and(e, row, p);
      }
      t = mk_or2(e, t, mk_and2(e, sa->in[j], row.t));
      f = mk_and2(e, f, mk_or2(e, mk_not(e, sa->in[j]), row.f));
    }
    *out = (pred){t, f};
  } else
    return out_of_subset(e, "a subquery of its kind (ANY, ALL, scalar as a condition)%s", "");
  if (n->flags & SQLSIM_F_NOT) *out = p_not(*out);
  return 0;
}

static int cond(enc *e, const scope *sc, const sqlsim_node *n, pred *out) {
  if (!n) return out_of_subset(e, "an empty condition%s", "");
  val a, b;
  switch (n->kind) {
  case SQLSIM_N_AND:
  case SQLSIM_N_OR:
    *out = truth(e, n->kind == SQLSIM_N_AND ? mk_true(e) : mk_false(e));
    for (uint32_t i = 0; i < n->nkids; i++) {
      pred p;
      if (cond(e, sc, n->kids[i], &p)) return -1;
      *out = n->kind == SQLSIM_N_AND ? p_and(e, *out, p) : p_or(e, *out, p);
    }
    return 0;
  case SQLSIM_N_NOT:
    if (cond(e, sc, n->kids[0], out)) return -1;
    *out = p_not(*out);
    return 0;
  case SQLSIM_N_BINOP:
    if ((n->op == SQLSIM_OP_LIKE || n->op == SQLSIM_OP_NOTLIKE) && n->nkids >= 2) {
      const sqlsim_node *pat = n->kids[1];
      if ((n->nkids > 2 && n->kids[2]) || !pat || pat->kind != SQLSIM_N_CONST || pat->op != SQLSIM_CONST_STRING || !pat->text)
        return out_of_subset(e, "LIKE of its form (a pattern that is no literal, ESCAPE)%s", "");
      if (expr(e, sc, n->kids[0], &a)) return -1;
      if (a.kind != K_TEXT || a.nul) return out_of_subset(e, "LIKE on a value that is no text%s", "");
      if (!strpbrk(pat->text, "%_") && !strpbrk(pat->text, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")) {
        /* no wildcard, no letter to fold: LIKE is equality with the pattern's text */
        Z3_ast code = text_code(e, pat->text);
        if (!code) return -1;
        b = (val){.v = code, .n = mk_false(e), .kind = K_TEXT, .lit = 1};
        if (compare(e, SQLSIM_OP_EQ, &a, &b, out)) return -1;
        if (n->op == SQLSIM_OP_NOTLIKE) *out = p_not(*out);
        return 0;
      }
      Z3_func_decl f = like_pattern(e, pat->text);
      if (!f) return out_of_subset(e, "more than %s LIKE patterns", "16");
      Z3_ast known = mk_not(e, a.n), at = Z3_mk_app(e->z, f, 1, &a.v);
      *out = (pred){mk_and2(e, known, at), mk_and2(e, known, mk_not(e, at))};
      if (n->op == SQLSIM_OP_NOTLIKE) *out = p_not(*out);
      return 0;
    }
    if (n->op >= SQLSIM_OP_EQ && n->op <= SQLSIM_OP_ISNOT) {
      if (expr(e, sc, n->kids[0], &a) || expr(e, sc, n->kids[1], &b)) return -1;
      return compare(e, n->op, &a, &b, out);
    }
    break;
  case SQLSIM_N_ISNULL:
    if (expr(e, sc, n->kids[0], &a)) return -1;
    *out = truth(e, n->op == SQLSIM_ISNULL ? a.n : mk_not(e, a.n));
    return 0;
  case SQLSIM_N_BETWEEN: {
    val lo, hi;
    pred p, q;
    if (expr(e, sc, n->kids[0], &a) || expr(e, sc, n->kids[1], &lo) || expr(e, sc, n->kids[2], &hi) ||
        compare(e, SQLSIM_OP_GE, &a, &lo, &p) || compare(e, SQLSIM_OP_LE, &a, &hi, &q))
      return -1;
    *out = p_and(e, p, q);
    if (n->flags & SQLSIM_F_NOT) *out = p_not(*out);
    return 0;
  }
  case SQLSIM_N_IN: {
    const sqlsim_node *list = n->nkids > 1 ? n->kids[1] : NULL;
    if (!list || list->kind != SQLSIM_N_LIST) return out_of_subset(e, "IN of its kind%s", "");
    if (expr(e, sc, n->kids[0], &a)) return -1;
    *out = truth(e, mk_false(e));
    for (uint32_t i = 0; i < list->nkids; i++) {
      pred p;
      if (expr(e, sc, list->kids[i], &b) || compare(e, SQLSIM_OP_EQ, &a, &b, &p)) return -1;
      *out = p_or(e, *out, p);
    }
    if (n->flags & SQLSIM_F_NOT) *out = p_not(*out);
    return 0;
  }
  case SQLSIM_N_CONST:
    if (n->op == SQLSIM_CONST_INT || n->op == SQLSIM_CONST_BOOL) {
      int on = n->text && strcmp(n->text, "0") && strcasecmp(n->text, "false");
      *out = truth(e, on ? mk_true(e) : mk_false(e));
      return 0;
    }
    break;
  case SQLSIM_N_SUBLINK: {
    answer own;
    const answer *sa = n->nkids > 1 && n->kids[1] ? subquery(e, sc, n->kids[1], &own) : NULL;
    if (!sa) return out_of_subset(e, "a subquery%s", "");
    int rc = sublink(e, sc, n, sa, out);
    answer_free(&own);
    return rc;
  }
  default: break;
  }
  return out_of_subset(e, "a condition of its kind (%s)", n->text ? n->text : "");
}

/* CASE [x] WHEN .. THEN .. [ELSE ..] END: the first WHEN that is true
 * (x = the WHEN's value, with the operand) chooses; else ELSE, or NULL. */
static int case_expr(enc *e, const scope *sc, const sqlsim_node *n, val *out) {
  int nw = (int)n->nkids - 2;
  if (nw < 1 || nw > 32) return out_of_subset(e, "a CASE of %s WHENs", nw < 1 ? "no" : "more than 32");
  Z3_ast c[32];
  val v[33], operand;
  if (n->kids[0] && expr(e, sc, n->kids[0], &operand)) return -1;
  for (int i = 0; i < nw; i++) {
    const sqlsim_node *w = n->kids[2 + i];
    if (!w || w->kind != SQLSIM_N_WHEN || w->nkids < 2) return out_of_subset(e, "a CASE of its form%s", "");
    pred p;
    if (n->kids[0]) {
      val x;
      if (expr(e, sc, w->kids[0], &x) || compare(e, SQLSIM_OP_EQ, &operand, &x, &p)) return -1;
    } else if (cond(e, sc, w->kids[0], &p))
      return -1;
    c[i] = p.t;
    if (expr(e, sc, w->kids[1], &v[i])) return -1;
  }
  if (n->kids[1]) {
    if (expr(e, sc, n->kids[1], &v[nw])) return -1;
  } else
    v[nw] = (val){.v = mk_int(e, 0), .n = mk_true(e), .kind = K_INT, .lit = 1, .nul = 1};
  return choose(e, c, v, nw, out);
}

/* CAST of a number to a number type (INTEGER truncates toward zero); to or
 * from text is outside the subset. */
static int cast(enc *e, const scope *sc, const sqlsim_node *n, val *out) {
  if (!n->nkids || expr(e, sc, n->kids[0], out)) return -1;
  int to = core_type_affinity(n->text);
  if (out->nul) return 0;
  if (out->kind == K_TEXT || to == 'T' || to == 'B')
    return out_of_subset(e, "CAST to or from text (%s)", n->text ? n->text : "");
  out->lit = 0; /* a CAST has its type's affinity */
  if (to == 'R') {
    out->v = as_real(e, out);
    out->kind = K_REAL;
    out->num = 0;
  } else if (to == 'I' && out->kind == K_REAL) {
    Z3_ast zero = Z3_mk_real(e->z, 0, 1);
    Z3_ast up = Z3_mk_real2int(e->z, out->v), down = Z3_mk_unary_minus(e->z, Z3_mk_real2int(e->z, Z3_mk_unary_minus(e->z, out->v)));
    out->v = Z3_mk_ite(e->z, Z3_mk_ge(e->z, out->v, zero), up, down);
    out->kind = K_INT;
    out->num = 0;
  } else if (out->kind == K_NUMTEXT)
    out->kind = K_INT;
  else if (to == 'N' && out->kind == K_REAL)
    out->num = 1; /* NUMERIC makes an integral real an integer */
  return 0;
}

/* The scalar functions of the subset: COALESCE, IFNULL, IIF, NULLIF, ABS. */
static int function(enc *e, const scope *sc, const sqlsim_node *n, val *out) {
  const char *f = n->text ? n->text : "";
  const sqlsim_node *args = n->nkids ? n->kids[0] : NULL;
  int na = args ? (int)args->nkids : 0;
  if ((n->flags & (SQLSIM_F_DISTINCT | SQLSIM_F_STAR | SQLSIM_F_FILTER)) || (n->nkids > 2 && n->kids[2]))
    return out_of_subset(e, "the function %s() of its form", f);
  val v[16];
  Z3_ast c[16];
  if ((!strcasecmp(f, "coalesce") && na >= 2 && na <= 16) || (!strcasecmp(f, "ifnull") && na == 2)) {
    for (int i = 0; i < na; i++) {
      if (expr(e, sc, args->kids[i], &v[i])) return -1;
      c[i] = mk_not(e, v[i].n);
    }
    return choose(e, c, v, na - 1, out);
  }
  if (!strcasecmp(f, "iif") && na == 3) {
    pred p;
    if (cond(e, sc, args->kids[0], &p) || expr(e, sc, args->kids[1], &v[0]) || expr(e, sc, args->kids[2], &v[1]))
      return -1;
    return choose(e, &p.t, v, 1, out);
  }
  if (!strcasecmp(f, "nullif") && na == 2) {
    pred p;
    if (expr(e, sc, args->kids[0], &v[0]) || expr(e, sc, args->kids[1], &v[1]) ||
        compare(e, SQLSIM_OP_EQ, &v[0], &v[1], &p))
      return -1;
    *out = v[0];
    out->n = mk_or2(e, v[0].n, p.t);
    out->lit = 1;
    return 0;
  }
  if (!strcasecmp(f, "abs") && na == 1) {
    if (expr(e, sc, args->kids[0], out)) return -1;
    if (out->nul) return 0;
    if (out->kind == K_TEXT) return out_of_subset(e, "abs() of text%s", "");
    if (out->kind == K_NUMTEXT) out->kind = K_INT;
    Z3_ast zero = out->kind == K_REAL ? Z3_mk_real(e->z, 0, 1) : mk_int(e, 0);
    out->v = Z3_mk_ite(e->z, Z3_mk_lt(e->z, out->v, zero), Z3_mk_unary_minus(e->z, out->v), out->v);
    out->lit = 1;
    return 0;
  }
  return out_of_subset(e, "the function %s()", f);
}

/* The tables' CHECK constraints, read as the condition they are and held by
 * every present row (a CHECK fails only when false: NULL passes). 0, or -1
 * (e->why) when one cannot be read: then the model is still replayed, and
 * no bound is claimed. */
static int encode_checks(enc *e) {
  const sqlsim_schema *s = e->s;
  for (int t = 0; t < s->ntables; t++) {
    const sqlsim_table *tab = &s->tables[t];
    if (!e->used[t]) continue;
    for (int c = 0; c < tab->nchecks; c++) {
      strbuf sb = {0};
      sb_puts(&sb, "SELECT 1 FROM ");
      sb_ident(&sb, tab->name);
      sb_printf(&sb, " WHERE (%s)", tab->checks[c]);
      sqlsim_query *q = NULL;
      int rc = sb.buf && !sqlsim_parse(sb.buf, sb.len, s, 0, &q, NULL) ? 0 : -1;
      sb_free(&sb);
      const sqlsim_node *from = rc ? NULL : q->root->kids[SQLSIM_SEL_FROM];
      const sqlsim_node *item = from && from->nkids == 1 ? from->kids[0] : NULL;
      const sqlsim_node *where = rc ? NULL : q->root->kids[SQLSIM_SEL_WHERE];
      if (!item || item->kind != SQLSIM_N_TABLE || item->table != t || !where) rc = -1;
      for (int r = 0; !rc && r < e->k; r++) {
        scope sc = {.item = {item}, .table = {t}, .nitems = 1, .rows = &r};
        pred p;
        if ((rc = cond(e, &sc, where, &p))) break;
        Z3_solver_assert(e->z, e->sol, Z3_mk_implies(e->z, e->present[t * e->k + r], mk_not(e, p.f)));
      }
      sqlsim_query_free(q);
      if (rc) {
        e->why[0] = '\0';
        return out_of_subset(e, "a CHECK constraint it cannot read (table %s): solved, but no bound is claimed",
                             tab->name);
      }
    }
  }
  return 0;
}

/* ---------------------------------------------------------------- a query */

/* The FROM items of sel (tables; inner, cross, left and right joins), the
 * inner joins' ON conditions, the column pairs USING and NATURAL join, and
 * each outer join's nullable item with its ON; -1 outside the subset. */
typedef struct from {
  scope sc;
  const sqlsim_node *on[MAX_ITEMS * 2];
  int non;
  struct { int li, lc, ri, rc; } eq[32]; /* USING / NATURAL: item li's column lc = item ri's rc */
  int neq;
  struct { int item; const sqlsim_node *on; } outer[MAX_ITEMS]; /* NULL where no row of it meets on */
  int nouter;
  int first, overflow;     /* while USING/NATURAL's pairs are added */
} from;

/* A pair USING or NATURAL equates (tree_join_pairs): left table l of the
 * join's left items, its column lc, the right item's column rc. */
static void add_pair(int l, int lc, int r, int rc, void *ctx) {
  from *fr = ctx;
  if (fr->neq == 32) {
    fr->overflow = 1;
    return;
  }
  fr->eq[fr->neq].li = fr->first + l, fr->eq[fr->neq].lc = lc, fr->eq[fr->neq].ri = fr->sc.nitems - 1 + r,
  fr->eq[fr->neq].rc = rc;
  fr->neq++;
}

static int from_items(enc *e, from *fr, const sqlsim_node *n, int depth) {
  if (!n || depth > 16) return out_of_subset(e, "an empty FROM item%s", "");
  if (n->kind == SQLSIM_N_TABLE) {
    if ((n->flags & SQLSIM_F_CTEREF) || n->table < 0) return out_of_subset(e, "FROM %s (a CTE or unknown table)", n->text);
    if (fr->sc.nitems == MAX_ITEMS) return out_of_subset(e, "more than %s tables in FROM", "6");
    fr->sc.item[fr->sc.nitems] = n;
    fr->sc.table[fr->sc.nitems++] = n->table;
    return 0;
  }
  if (n->kind != SQLSIM_N_JOIN) return out_of_subset(e, "a FROM item of its kind (%s)", n->kind == SQLSIM_N_SUBQUERY ? "a subquery" : "");
  int outer = n->op == SQLSIM_JOIN_LEFT || n->op == SQLSIM_JOIN_RIGHT;
  if (n->op != SQLSIM_JOIN_INNER && n->op != SQLSIM_JOIN_CROSS && !outer) return out_of_subset(e, "a FULL join%s", "");
  const sqlsim_node *using = n->nkids > 3 ? n->kids[3] : NULL;
  if (outer && (using || (n->flags & SQLSIM_F_NATURAL)))
    return out_of_subset(e, "an outer join with USING or NATURAL%s", "");
  int first = fr->sc.nitems;
  if (from_items(e, fr, n->kids[0], depth + 1)) return -1;
  int right = fr->sc.nitems;
  if (from_items(e, fr, n->kids[1], depth + 1)) return -1;
  if (outer) { /* the nullable side: one table (the right of LEFT, the left of RIGHT) */
    int left_join = n->op == SQLSIM_JOIN_LEFT;
    if ((left_join ? fr->sc.nitems - right : right - first) != 1)
      return out_of_subset(e, "an outer join whose nullable side is a join%s", "");
    if (!n->kids[2]) return out_of_subset(e, "an outer join without ON%s", "");
    fr->outer[fr->nouter].item = left_join ? right : first;
    fr->outer[fr->nouter++].on = n->kids[2];
    return 0;
  }
  if (n->kids[2]) {
    if (fr->non == MAX_ITEMS * 2) return out_of_subset(e, "too many ON conditions%s", "");
    fr->on[fr->non++] = n->kids[2];
  }
  if (!using && !(n->flags & SQLSIM_F_NATURAL)) return 0;
  if (right != fr->sc.nitems - 1) return out_of_subset(e, "USING or NATURAL with a join on its right%s", "");
  fr->first = first; /* item indexes: the left tables start at first, the right one is right */
  fr->overflow = 0;
  tree_join_pairs(e->s, n, &fr->sc.table[first], right - first, &fr->sc.table[right], 1, add_pair, fr);
  return fr->overflow ? out_of_subset(e, "too many joined columns%s", "") : 0;
}

/* Whether item's column is one USING or NATURAL merges (an unqualified
 * name several tables have, which the join equates). */
static int merged(const scope *s, int item, int column) {
  for (int j = 0; s->fr && j < s->fr->neq; j++)
    if ((s->fr->eq[j].li == item && s->fr->eq[j].lc == column) || (s->fr->eq[j].ri == item && s->fr->eq[j].rc == column))
      return 1;
  return 0;
}

static int has_aggregate(const sqlsim_node *n, int depth) {
  if (!n || depth > 64 || n->kind == SQLSIM_N_SELECT) return 0;
  if (is_aggregate(n)) return 1;
  for (uint32_t i = 0; i < n->nkids; i++)
    if (has_aggregate(n->kids[i], depth + 1)) return 1;
  return 0;
}

/* Rows of the answers equal: each pair of cells the same value (a's column
 * c against b's perm[c]; perm NULL: in order). */
static Z3_ast rows_same_perm(enc *e, const answer *a, int i, const answer *b, int j, const int *perm) {
  Z3_ast *x = malloc(sizeof *x * (size_t)(a->ncols ? a->ncols : 1));
  if (!x) return mk_false(e);
  for (int c = 0; c < a->ncols; c++)
    x[c] = same_value(e, &a->cells[(size_t)i * (size_t)a->ncols + (size_t)c],
                      &b->cells[(size_t)j * (size_t)b->ncols + (size_t)(perm ? perm[c] : c)]);
  Z3_ast r = a->ncols ? Z3_mk_and(e->z, (unsigned)a->ncols, x) : mk_true(e);
  free(x);
  return r;
}

static Z3_ast rows_same(enc *e, const answer *a, int i, const answer *b, int j) {
  return rows_same_perm(e, a, i, b, j, NULL);
}

static void answer_free(answer *a) {
  free(a->in);
  free(a->cells);
  free(a->keys);
  memset(a, 0, sizeof *a);
}

static int too_big(enc *e, const char *what) {
  out_of_subset(e, "%s", what);
  e->size = 1;
  return -1;
}

/* A row only where it first occurs (DISTINCT, UNION, INTERSECT, EXCEPT):
 * in[i] and no earlier row in the answer equal to it. */
static int first_occurrences(enc *e, answer *a) {
  if (a->nrows > 512) return too_big(e, "more than 512 candidate rows to tell apart (DISTINCT or a set operation)");
  Z3_ast *in = calloc((size_t)a->nrows + 1, sizeof *in);
  if (!in) return out_of_subset(e, "out of memory%s", "");
  for (int i = 0; i < a->nrows; i++) {
    in[i] = a->in[i];
    for (int j = 0; j < i; j++) in[i] = mk_and2(e, in[i], mk_not(e, mk_and2(e, a->in[j], rows_same(e, a, i, a, j))));
  }
  free(a->in);
  a->in = in;
  return 0;
}

/* UNION [ALL], INTERSECT, EXCEPT of two answers (SQLite's: the three without
 * ALL answer distinct rows, NULLs equal). */
static int set_operation(enc *e, const sqlsim_node *sel, const scope *outer, answer *out) {
  static const struct { int slot; const char *what; } refused[] = {
      {SQLSIM_SEL_WITH, "WITH"}, {SQLSIM_SEL_LIMIT, "LIMIT on a set operation"}, {SQLSIM_SEL_OFFSET, "OFFSET"}};
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
    if (sel->kids[refused[i].slot]) return out_of_subset(e, "%s", refused[i].what);
  int all = (sel->flags & SQLSIM_F_ALL) != 0;
  if (all && sel->op != SQLSIM_SET_UNION) return out_of_subset(e, "INTERSECT ALL or EXCEPT ALL%s", "");
  answer a, b;
  if (encode_select(e, sel->kids[SQLSIM_SEL_LARG], outer, &a)) return -1;
  if (encode_select(e, sel->kids[SQLSIM_SEL_RARG], outer, &b)) {
    answer_free(&a);
    return -1;
  }
  int rc = 0;
  if (a.ncols != b.ncols) rc = out_of_subset(e, "a set operation of answers of different widths%s", "");
  if (!rc && sel->op == SQLSIM_SET_UNION) {
    out->nrows = a.nrows + b.nrows;
    out->ncols = a.ncols;
    out->in = calloc((size_t)out->nrows + 1, sizeof *out->in);
    out->cells = calloc((size_t)out->nrows * (size_t)out->ncols + 1, sizeof *out->cells);
    if (!out->in || !out->cells) rc = out_of_subset(e, "out of memory%s", "");
    for (int i = 0; !rc && i < out->nrows; i++) {
      const answer *src = i < a.nrows ? &a : &b;
      int r = i < a.nrows ? i : i - a.nrows;
      out->in[i] = src->in[r];
      memcpy(&out->cells[(size_t)i * (size_t)out->ncols], &src->cells[(size_t)r * (size_t)src->ncols],
             sizeof *out->cells * (size_t)out->ncols);
    }
    if (!rc && !all) rc = first_occurrences(e, out);
  } else if (!rc) { /* INTERSECT, EXCEPT: a's distinct rows found (not found) in b */
    *out = a;
    memset(&a, 0, sizeof a);
    rc = first_occurrences(e, out);
    for (int i = 0; !rc && i < out->nrows; i++) {
      Z3_ast found = mk_false(e);
      for (int j = 0; j < b.nrows; j++) found = mk_or2(e, found, mk_and2(e, b.in[j], rows_same(e, out, i, &b, j)));
      out->in[i] = mk_and2(e, out->in[i], sel->op == SQLSIM_SET_INTERSECT ? found : mk_not(e, found));
    }
  }
  answer_free(&a);
  answer_free(&b);
  free(out->keys); /* a branch's (the compound's own ORDER BY is not kept) */
  out->keys = NULL;
  out->nk = 0;
  if (rc) answer_free(out);
  return rc;
}

/* LIMIT and OFFSET: an integer literal (a negative LIMIT is none). */
static int limit_value(const sqlsim_node *n, long *out) {
  int neg = 0;
  if (n && n->kind == SQLSIM_N_UNOP && n->op == SQLSIM_OP_NEG && n->nkids) neg = 1, n = n->kids[0];
  if (!n || n->kind != SQLSIM_N_CONST || n->op != SQLSIM_CONST_INT || !n->text) return -1;
  char *end;
  long v = strtol(n->text, &end, 10);
  if (*end || v > 1000000) return -1;
  *out = neg ? -v : v;
  return 0;
}

/* Row a comes before row b under the ORDER BY keys (each row's nk values):
 * SQLite's order, NULLs first ascending and last descending unless said. */
static Z3_ast sorts_before(enc *e, const sqlsim_node *order, const val *a, const val *b, int nk) {
  Z3_ast acc = mk_false(e);
  for (int kk = nk - 1; kk >= 0; kk--) {
    const sqlsim_node *s = order->kids[kk];
    int desc = s->op == SQLSIM_SORT_DESC;
    int nulls_first = s->aux == SQLSIM_NULLS_FIRST ? 1 : s->aux == SQLSIM_NULLS_LAST ? 0 : !desc;
    const val *x = &a[kk], *y = &b[kk];
    int real = (x->kind == K_REAL) != (y->kind == K_REAL);
    Z3_ast xv = real ? as_real(e, x) : x->v, yv = real ? as_real(e, y) : y->v;
    Z3_ast by_null = nulls_first ? mk_and2(e, x->n, mk_not(e, y->n)) : mk_and2(e, mk_not(e, x->n), y->n);
    Z3_ast by_value = mk_and2(e, mk_and2(e, mk_not(e, x->n), mk_not(e, y->n)),
                              desc ? Z3_mk_gt(e->z, xv, yv) : Z3_mk_lt(e->z, xv, yv));
    acc = mk_or2(e, mk_or2(e, by_null, by_value), mk_and2(e, same_value(e, x, y), acc));
  }
  return acc;
}

static Z3_ast keys_tie(enc *e, const val *a, const val *b, int nk) {
  Z3_ast t = mk_true(e);
  for (int kk = 0; kk < nk; kk++) t = mk_and2(e, t, same_value(e, &a[kk], &b[kk]));
  return t;
}

/* Where the rows of answer a sit when ordered by keys (nk a row): pos[i],
 * the number of rows of the answer before row i (a tie broken by the
 * candidate's place); *tie (when asked), whether two rows of the answer that
 * differ share their keys (their order is then SQLite's choice). */
static int positions(enc *e, const answer *a, const sqlsim_node *order, const val *keys, int nk, Z3_ast *pos,
                     Z3_ast *tie) {
  int n = a->nrows;
  Z3_ast *t = malloc(sizeof *t * (size_t)(n + 1));
  if (!t) return -1;
  if (tie) *tie = mk_false(e);
  for (int i = 0; i < n; i++) {
    int w = 0;
    for (int j = 0; j < n; j++) {
      if (j == i) continue;
      const val *kj = &keys[(size_t)j * (size_t)nk], *ki = &keys[(size_t)i * (size_t)nk];
      Z3_ast before = sorts_before(e, order, kj, ki, nk);
      if (j < i) {
        Z3_ast tied = keys_tie(e, kj, ki, nk);
        before = mk_or2(e, before, tied);
        if (tie) {
          Z3_ast x[4] = {a->in[i], a->in[j], tied, mk_not(e, rows_same(e, a, i, a, j))};
          *tie = mk_or2(e, *tie, Z3_mk_and(e->z, 4, x));
        }
      }
      t[w++] = mk_ite01(e, mk_and2(e, a->in[j], before));
    }
    pos[i] = sum(e, t, w, 0);
  }
  free(t);
  return 0;
}

/* ORDER BY .. LIMIT L OFFSET O: a row is in the answer when fewer than O + L
 * (and at least O) rows of the answer come before it, a tie broken by the
 * candidate's place. Only databases whose answer does not hinge on how ties
 * are broken are asked about: no row kept is tied on the keys with a row
 * cut off that differs from it (strict's judge sets such databases aside). */
static int apply_limit(enc *e, answer *out, const val *keys, int nk, const sqlsim_node *order, long limit, long offset) {
  int n = out->nrows;
  Z3_ast *in = calloc((size_t)n + 1, sizeof *in), *pos = calloc((size_t)n + 1, sizeof *pos);
  if (!in || !pos || positions(e, out, order, keys, nk, pos, NULL)) {
    free(in);
    free(pos);
    return out_of_subset(e, "out of memory%s", "");
  }
  for (int i = 0; i < n; i++) {
    in[i] = mk_and2(e, out->in[i], Z3_mk_ge(e->z, pos[i], mk_int(e, offset)));
    if (limit >= 0) in[i] = mk_and2(e, in[i], Z3_mk_lt(e->z, pos[i], mk_int(e, offset + limit)));
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      if (i == j) continue;
      Z3_ast x[5] = {in[i], out->in[j], mk_not(e, in[j]),
                     keys_tie(e, &keys[(size_t)i * (size_t)nk], &keys[(size_t)j * (size_t)nk], nk),
                     mk_not(e, rows_same(e, out, i, out, j))};
      Z3_solver_assert(e->z, e->sol, mk_not(e, Z3_mk_and(e->z, 5, x)));
    }
  free(out->in);
  out->in = in;
  free(pos);
  return 0;
}

/* Row i's ORDER BY keys (keys[0 .. nkids-1]): an expression, or a column's
 * place in the answer; numbers only. */
static int order_keys(enc *e, const scope *sc, const sqlsim_node *order, const answer *out, int i, val *keys) {
  for (uint32_t kk = 0; kk < order->nkids; kk++) {
    const sqlsim_node *s = order->kids[kk], *x = s && s->kind == SQLSIM_N_SORT && s->nkids ? s->kids[0] : NULL;
    val *v = &keys[kk];
    long place;
    if (!x) return out_of_subset(e, "an ORDER BY key of its form%s", "");
    if (x->kind == SQLSIM_N_CONST && x->op == SQLSIM_CONST_INT && !limit_value(x, &place) && place >= 1 &&
        place <= out->ncols)
      *v = out->cells[(size_t)i * (size_t)out->ncols + (size_t)(place - 1)];
    else if (expr(e, sc, x, v))
      return -1;
    if (v->kind == K_NUMTEXT) return out_of_subset(e, "ORDER BY integers held as text%s", "");
  }
  return 0;
}

/* Whether a combination of the FROM items' rows is in the query's rows
 * before grouping (*out): every row present, the joins' conditions, an outer
 * join's nullable item at a row meeting ON or at its NULL row when none
 * does, WHERE. */
static int combination(enc *e, const from *fr, const int *nullable, const int *rows, int *alt, const sqlsim_node *where,
                       Z3_ast *out) {
  int m = fr->sc.nitems, k = e->k, rc = 0;
  scope sc = fr->sc;
  sc.rows = rows;
  Z3_ast c = mk_true(e);
  for (int i = 0; i < m; i++)
    if (!nullable[i]) c = mk_and2(e, c, e->present[sc.table[i] * k + sc.rows[i]]);
  for (int j = 0; j < fr->neq && !rc; j++) {
    const val *a = &e->cells[(size_t)sc.rows[fr->eq[j].li] * (size_t)e->s->ncolumns + (size_t)fr->eq[j].lc];
    const val *b = &e->cells[(size_t)sc.rows[fr->eq[j].ri] * (size_t)e->s->ncolumns + (size_t)fr->eq[j].rc];
    pred p;
    if ((rc = compare(e, SQLSIM_OP_EQ, a, b, &p))) break;
    c = mk_and2(e, c, p.t);
  }
  for (int j = 0; j < fr->non && !rc; j++) {
    pred p;
    if ((rc = cond(e, &sc, fr->on[j], &p))) break;
    c = mk_and2(e, c, p.t);
  }
  for (int o = 0; o < fr->nouter && !rc; o++) { /* a row of the nullable item meeting ON, or its NULL row when none does */
    int it = fr->outer[o].item, tab = sc.table[it];
    pred p;
    if (sc.rows[it] < k) {
      if ((rc = cond(e, &sc, fr->outer[o].on, &p))) break;
      c = mk_and2(e, c, mk_and2(e, e->present[tab * k + sc.rows[it]], p.t));
      continue;
    }
    memcpy(alt, sc.rows, sizeof *alt * (size_t)m);
    scope other = sc;
    other.rows = alt;
    for (int r = 0; r < e->kt[tab] && !rc; r++) {
      alt[it] = r;
      if ((rc = cond(e, &other, fr->outer[o].on, &p))) break;
      c = mk_and2(e, c, mk_not(e, mk_and2(e, e->present[tab * k + r], p.t)));
    }
  }
  if (!rc && where) {
    pred p;
    if (!(rc = cond(e, &sc, where, &p))) c = mk_and2(e, c, p.t);
  }
  *out = c;
  return rc;
}

/* The select list's expressions into cols (at most 256); * stands for
 * every column of every FROM item, as NULL placeholders. Their count, or -1. */
static int target_list(enc *e, const from *fr, const sqlsim_node *targets, const sqlsim_node **cols) {
  int ncols = 0;
  for (uint32_t i = 0; i < targets->nkids; i++) {
    const sqlsim_node *t = targets->kids[i];
    const sqlsim_node *x = t && t->kind == SQLSIM_N_TARGET && t->nkids ? t->kids[0] : t;
    if (x && x->kind == SQLSIM_N_STAR) {
      if (x->text || x->alias) return out_of_subset(e, "a qualified *%s", "");
      if (fr->neq) return out_of_subset(e, "* over USING or NATURAL (their columns merge)%s", "");
      if (targets->nkids != 1) return out_of_subset(e, "* beside other targets%s", "");
      for (int it = 0; it < fr->sc.nitems; it++) {
        const sqlsim_table *tab = &e->s->tables[fr->sc.table[it]];
        for (int c = 0; c < tab->ncolumns && ncols < 256; c++) cols[ncols++] = NULL;
      }
      return ncols;
    }
    if (ncols == 256) return out_of_subset(e, "more than %s targets", "256");
    cols[ncols++] = x;
  }
  return ncols;
}

/* LIMIT and OFFSET, under an ORDER BY of *nk keys; without them, the top
 * query's keys are kept (*keep) when the comparison counts the order (and
 * dropped, not refused, where they cannot be encoded). */
static int limits(enc *e, const sqlsim_node *sel, long *limit, long *offset, int *nk, int *keep) {
  const sqlsim_node *order = sel->kids[SQLSIM_SEL_ORDER];
  if (sel->kids[SQLSIM_SEL_LIMIT] || sel->kids[SQLSIM_SEL_OFFSET]) {
    if ((sel->kids[SQLSIM_SEL_LIMIT] && limit_value(sel->kids[SQLSIM_SEL_LIMIT], limit)) ||
        (sel->kids[SQLSIM_SEL_OFFSET] && limit_value(sel->kids[SQLSIM_SEL_OFFSET], offset)))
      return out_of_subset(e, "LIMIT or OFFSET of an expression%s", "");
    if (*offset < 0) *offset = 0;
    if (!order || !order->nkids) return out_of_subset(e, "LIMIT without ORDER BY (any rows)%s", "");
    if (order->nkids > 8) return out_of_subset(e, "more than %s ORDER BY keys", "8");
    if (sel->flags & SQLSIM_F_DISTINCT) return out_of_subset(e, "DISTINCT with LIMIT%s", "");
    *nk = (int)order->nkids;
    return 0;
  }
  *keep = e->keep_keys && e->depth == 0 && order && order->nkids && order->nkids <= 8 && !(sel->flags & SQLSIM_F_DISTINCT);
  if (*keep) *nk = (int)order->nkids;
  return 0;
}

#define MAX_WORK 65536 /* row combinations encoded for one pair at one k */

/* The answer of a plain SELECT: its candidate rows over the combinations of
 * its FROM items' rows (k each, k + 1 for an outer join's nullable item:
 * slot k is its NULL row). */
static int plain_select(enc *e, const sqlsim_node *sel, const scope *outer, answer *out) {
  static const struct { int slot; const char *what; } refused[] = {
      {SQLSIM_SEL_WITH, "WITH"}, {SQLSIM_SEL_WINDOW, "WINDOW"}, {SQLSIM_SEL_VALUES, "VALUES"},
      {SQLSIM_SEL_DISTINCT_ON, "DISTINCT ON"}};
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
    if (sel->kids[refused[i].slot]) return out_of_subset(e, "%s", refused[i].what);
  const sqlsim_node *fl = sel->kids[SQLSIM_SEL_FROM], *targets = sel->kids[SQLSIM_SEL_TARGETS];
  if (!fl || !fl->nkids || !targets) return out_of_subset(e, "a SELECT without FROM%s", "");
  from fr = {0};
  fr.sc.outer = outer;
  fr.sc.fr = &fr;
  for (uint32_t i = 0; i < fl->nkids; i++)
    if (from_items(e, &fr, fl->kids[i], 0)) return -1;
  int m = fr.sc.nitems, k = e->k, rad[MAX_ITEMS], nullable[MAX_ITEMS] = {0};
  for (int o = 0; o < fr.nouter; o++) nullable[fr.outer[o].item] = 1;
  long n = 1;
  for (int i = 0; i < m; i++) {
    rad[i] = e->kt[fr.sc.table[i]] + nullable[i]; /* digit kt: the NULL row, slot k */
    if ((n *= rad[i]) > MAX_TUPLES) return too_big(e, "more than 4096 combinations of rows");
  }
  if ((e->work += n) > MAX_WORK) return too_big(e, "more than 65536 combinations of rows in all (correlated subqueries)");
  const sqlsim_node *order = sel->kids[SQLSIM_SEL_ORDER];
  long limit = -1, offset = 0;
  int nk = 0, keep = 0;
  if (limits(e, sel, &limit, &offset, &nk, &keep)) return -1;
  /* the targets, * expanded */
  const sqlsim_node *cols[256];
  int ncols = target_list(e, &fr, targets, cols);
  if (ncols < 0) return -1;
  int star = ncols && !cols[0];
  const sqlsim_node *where = sel->kids[SQLSIM_SEL_WHERE], *groupby = sel->kids[SQLSIM_SEL_GROUP],
                    *having = sel->kids[SQLSIM_SEL_HAVING];
  if (groupby && groupby->nkids == 0) groupby = NULL;
  int agg = groupby || having || (!star && has_aggregate(targets, 0));
  if (star && agg) return out_of_subset(e, "* with GROUP BY%s", "");
  if (groupby)
    for (uint32_t i = 0; i < groupby->nkids; i++)
      if (!groupby->kids[i] || groupby->kids[i]->kind != SQLSIM_N_COLUMN || (groupby->kids[i]->flags & SQLSIM_F_ALIASREF))
        return out_of_subset(e, "GROUP BY an expression%s", "");
  long nout = agg && !groupby ? 1 : n;
  if (nk && nout > 64) {
    if (!keep) return too_big(e, "LIMIT over more than 64 candidate rows");
    keep = 0, nk = 0; /* the order stays unchecked */
  }
  int *rows = malloc(sizeof *rows * (size_t)n * (size_t)(m ? m : 1));
  int *alt = malloc(sizeof *alt * (size_t)(m ? m : 1));
  Z3_ast *q = calloc((size_t)n, sizeof *q), *same = calloc((size_t)n, sizeof *same);
  val *keys = nk ? calloc((size_t)nout * (size_t)nk, sizeof *keys) : NULL;
  int rc = rows && alt && q && same && (keys || !nk) ? 0 : out_of_subset(e, "out of memory%s", "");
  for (long t = 0; t < n && !rc; t++) { /* combination t: item i's row is digit i of t (radix rad[i]) */
    long x = t;
    for (int i = 0; i < m; i++) {
      int d = (int)(x % rad[i]);
      rows[t * m + i] = d < e->kt[fr.sc.table[i]] ? d : k;
      x /= rad[i];
    }
    rc = combination(e, &fr, nullable, &rows[t * m], alt, where, &q[t]);
  }
  out->nrows = (int)nout;
  if (!rc && star) { /* every column of every item, in order */
    ncols = 0;
    for (int it = 0; it < m; it++) ncols += e->s->tables[fr.sc.table[it]].ncolumns;
  }
  out->ncols = ncols;
  out->in = calloc((size_t)nout, sizeof *out->in);
  out->cells = calloc((size_t)nout * (size_t)(ncols ? ncols : 1), sizeof *out->cells);
  if (!rc && !(out->in && out->cells)) rc = out_of_subset(e, "out of memory%s", "");
  group g0 = {.n = (int)n, .rows = rows, .q = q, .same = same, .keys = groupby};
  if (agg) {
    int using_pairs[32][4];
    for (int j = 0; j < fr.neq; j++)
      using_pairs[j][0] = fr.eq[j].li, using_pairs[j][1] = fr.eq[j].lc, using_pairs[j][2] = fr.eq[j].ri,
      using_pairs[j][3] = fr.eq[j].rc;
    fixed_columns(e, &g0, fr.on, fr.non, where, (const int(*)[4])using_pairs, fr.neq, fr.sc.item);
  }
  for (long i = 0; i < nout && !rc; i++) {
    scope sc = fr.sc;
    sc.rows = &rows[i * m];
    group g = g0;
    Z3_ast in = q[i];
    if (agg) {
      sc.g = &g;
      Z3_ast first = q[i];
      for (long j = 0; j < n; j++) { /* j in i's group: the grouping columns hold the same values */
        Z3_ast s1 = mk_true(e);
        scope a = fr.sc, b = fr.sc;
        a.rows = &rows[i * m];
        b.rows = &rows[j * m];
        for (uint32_t kk = 0; groupby && kk < groupby->nkids && !rc; kk++) {
          val x, y;
          if ((rc = column(e, &a, groupby->kids[kk], &x)) || (rc = column(e, &b, groupby->kids[kk], &y))) break;
          s1 = mk_and2(e, s1, same_value(e, &x, &y));
        }
        same[j] = s1;
        if (j < i) first = mk_and2(e, first, mk_not(e, mk_and2(e, q[j], s1)));
      }
      in = groupby ? first : mk_true(e);
      if (!rc && having) {
        pred p;
        if (!(rc = cond(e, &sc, having, &p))) in = mk_and2(e, in, p.t);
      }
    }
    out->in[i] = in;
    if (star) {
      int c = 0;
      for (int it = 0; it < m && !rc; it++) {
        const sqlsim_table *tab = &e->s->tables[fr.sc.table[it]];
        for (int j = 0; j < tab->ncolumns; j++)
          out->cells[(size_t)i * (size_t)ncols + (size_t)c++] =
              e->cells[(size_t)sc.rows[it] * (size_t)e->s->ncolumns + (size_t)(tab->first_column + j)];
      }
    } else
      for (int c = 0; c < ncols && !rc; c++)
        rc = expr(e, &sc, cols[c], &out->cells[(size_t)i * (size_t)ncols + (size_t)c]);
    if (!rc && nk && keys) {
      char why0 = e->why[0];
      int size0 = e->size;
      int r = order_keys(e, &sc, order, out, (int)i, &keys[(size_t)i * (size_t)nk]);
      if (r && keep) { /* the order stays unchecked; the rest is encoded */
        if (!why0) e->why[0] = '\0';
        e->size = size0;
        free(keys);
        keys = NULL;
      } else
        rc = r;
    }
  }
  if (!rc && (sel->flags & SQLSIM_F_DISTINCT)) rc = first_occurrences(e, out);
  if (!rc && (limit >= 0 || offset > 0)) rc = apply_limit(e, out, keys, nk, order, limit, offset);
  out->one = !rc && ((agg && !groupby) || ((limit == 0 || limit == 1) && nk));
  if (!rc && keys && e->keep_keys && e->depth == 0 && !(sel->flags & SQLSIM_F_DISTINCT)) { /* the answer keeps its keys */
    out->keys = keys, out->nk = nk, out->order = order;
    keys = NULL;
  }
  free(rows);
  free(alt);
  free(q);
  free(same);
  free(keys);
  if (rc) answer_free(out);
  return rc;
}

/* A query's answer; outer: the enclosing query's scope (a correlated subquery). */
static int encode_select(enc *e, const sqlsim_node *sel, const scope *outer, answer *out) {
  memset(out, 0, sizeof *out);
  if (!sel || sel->kind != SQLSIM_N_SELECT) return out_of_subset(e, "a statement that is no SELECT%s", "");
  if (sel->op != SQLSIM_SET_NONE) return set_operation(e, sel, outer, out);
  return plain_select(e, sel, outer, out);
}

/* Times row i of a occurs in b (b's columns through perm). */
static Z3_ast occurrences(enc *e, const answer *a, int i, const answer *b, const int *perm) {
  Z3_ast *t = malloc(sizeof *t * (size_t)(b->nrows ? b->nrows : 1));
  if (!t) return mk_int(e, 0);
  for (int j = 0; j < b->nrows; j++) t[j] = mk_ite01(e, mk_and2(e, b->in[j], rows_same_perm(e, a, i, b, j, perm)));
  Z3_ast r = sum(e, t, b->nrows, 0);
  free(t);
  return r;
}

/* The answers differ with b's columns through perm (a's column c is b's
 * perm[c]): a row occurring more often in one (a multiset), or, for BIRD's
 * comparison (sets), in one and not the other. Every pair of candidate rows
 * compared: the form for columns mixing text and numbers. */
static Z3_ast differ_pairwise(enc *e, const answer *a, const answer *b, int sets, const int *perm) {
  int n = a->nrows + b->nrows, inv[8];
  for (int c = 0; perm && c < a->ncols && c < 8; c++) inv[perm[c]] = c;
  Z3_ast *d = malloc(sizeof *d * (size_t)(n ? n : 1));
  if (!d) return mk_false(e);
  for (int side = 0, w = 0; side < 2; side++) {
    const answer *x = side ? b : a, *y = side ? a : b;
    const int *pm = perm ? (side ? inv : perm) : NULL;
    for (int i = 0; i < x->nrows; i++) {
      Z3_ast other = occurrences(e, x, i, y, pm);
      Z3_ast c = sets ? Z3_mk_eq(e->z, other, mk_int(e, 0)) : mk_not(e, Z3_mk_eq(e->z, occurrences(e, x, i, x, NULL), other));
      d[w++] = mk_and2(e, x->in[i], c);
    }
  }
  Z3_ast r = n ? Z3_mk_or(e->z, (unsigned)n, d) : mk_false(e);
  free(d);
  return r;
}

/* Two kinds together (0: none yet): numbers mixed are real; -1 when text
 * and numbers mix. */
static int kind_merge(int a, int b) {
  if (a < 0 || b < 0) return -1;
  if (!a || !b || a == b) return a ? a : b;
  return (a == K_INT || a == K_REAL) && (b == K_INT || b == K_REAL) ? K_REAL : -1;
}

/* The kind an answer's column c holds (kind_merge over its cells; the
 * literal NULL's left out with skip_nul), 0 when it has none. */
static int answer_kind(const answer *a, int c, int skip_nul) {
  int kind = 0;
  for (int i = 0; i < a->nrows && kind >= 0; i++) {
    const val *v = &a->cells[(size_t)i * (size_t)a->ncols + (size_t)c];
    if (!(skip_nul && v->nul)) kind = kind_merge(kind, v->kind);
  }
  return kind;
}

/* The same question through one row w of fresh values: it occurs a
 * different number of times in the two answers (sets: in one and not the
 * other). A count per candidate row, where comparing every pair of
 * candidates costs their product. */
static Z3_ast differ(enc *e, const answer *a, const answer *b, int sets, const int *perm) {
  int nc = a->ncols;
  val *w = calloc((size_t)nc + 1, sizeof *w);
  Z3_ast *t = malloc(sizeof *t * (size_t)(a->nrows + b->nrows + 1)), *x = malloc(sizeof *x * (size_t)(nc + 1));
  Z3_ast r = NULL;
  for (int c = 0; w && t && x && c < nc && !r; c++) { /* w's column c: the kind its cells share (numbers: real when mixed) */
    int kind = kind_merge(answer_kind(a, c, 0), answer_kind(b, perm ? perm[c] : c, 0));
    if (kind < 0) r = differ_pairwise(e, a, b, sets, perm);
    w[c].kind = kind ? kind : K_INT;
    w[c].v = fresh(e, "w", w[c].kind == K_REAL ? Z3_mk_real_sort(e->z) : Z3_mk_int_sort(e->z));
    w[c].n = fresh(e, "wn", Z3_mk_bool_sort(e->z));
  }
  if (!r && w && t && x) {
    Z3_ast count[2];
    for (int side = 0; side < 2; side++) {
      const answer *y = side ? b : a;
      for (int i = 0; i < y->nrows; i++) {
        for (int c = 0; c < nc; c++)
          x[c] = same_value(e, &y->cells[(size_t)i * (size_t)y->ncols + (size_t)(side && perm ? perm[c] : c)], &w[c]);
        t[i] = mk_ite01(e, mk_and2(e, y->in[i], nc ? Z3_mk_and(e->z, (unsigned)nc, x) : mk_true(e)));
      }
      count[side] = sum(e, t, y->nrows, 0);
    }
    if (sets) {
      Z3_ast zero = mk_int(e, 0);
      r = Z3_mk_xor(e->z, Z3_mk_gt(e->z, count[0], zero), Z3_mk_gt(e->z, count[1], zero));
    } else
      r = mk_not(e, Z3_mk_eq(e->z, count[0], count[1]));
  }
  free(w);
  free(t);
  free(x);
  return r ? r : mk_false(e);
}

/* Spider's comparison when the gold's order counts: the answers differ as
 * multisets, or, the gold holding no tie, in order: a place where their rows
 * differ, or a tie in the prediction (SQLite then orders it as it may). */
static Z3_ast differ_ordered(enc *e, const answer *a, const answer *b, const int *perm, const Z3_ast *pa,
                             const Z3_ast *pb, Z3_ast tie_a, Z3_ast tie_b) {
  Z3_ast place = mk_false(e);
  for (int i = 0; i < a->nrows; i++)
    for (int j = 0; j < b->nrows; j++) {
      Z3_ast x[4] = {a->in[i], b->in[j], Z3_mk_eq(e->z, pa[i], pb[j]), mk_not(e, rows_same_perm(e, a, i, b, j, perm))};
      place = mk_or2(e, place, Z3_mk_and(e->z, 4, x));
    }
  return mk_or2(e, differ(e, a, b, 0, perm), mk_and2(e, mk_not(e, tie_a), mk_or2(e, tie_b, place)));
}

/* ---------------------------------------------------------------- the model */

static int model_int(Z3_context z, Z3_model m, Z3_ast a, long long *out) {
  Z3_ast v;
  int64_t i;
  if (!Z3_model_eval(z, m, a, true, &v) || !Z3_get_numeral_int64(z, v, &i)) return -1;
  *out = i;
  return 0;
}

static int model_real(Z3_context z, Z3_model m, Z3_ast a, double *out) {
  Z3_ast v;
  if (!Z3_model_eval(z, m, a, true, &v) || Z3_get_ast_kind(z, v) != Z3_NUMERAL_AST) return -1;
  int64_t p, q;
  if (Z3_get_numeral_rational_int64(z, v, &p, &q) && q) {
    *out = (double)p / (double)q;
    return 0;
  }
  *out = strtod(Z3_get_numeral_decimal_string(z, v, 17), NULL);
  return 0;
}

static int model_true(Z3_context z, Z3_model m, Z3_ast a) {
  Z3_ast v;
  return Z3_model_eval(z, m, a, true, &v) && Z3_get_bool_value(z, v) == Z3_L_TRUE;
}

/* Texts for the codes a model gives: a literal's code its text; other
 * codes, in their order, texts strictly between the literals around them
 * (BINARY order), so that every comparison the model made holds of the
 * texts. NULL where no text fits (the model then does not replay: a defect,
 * never a verdict). */
typedef struct text_map {
  long long *v;            /* the codes, sorted, distinct */
  const char **t;
  int n;
} text_map;

static int cmp_ll(const void *a, const void *b) {
  long long x = *(const long long *)a, y = *(const long long *)b;
  return x < y ? -1 : x > y;
}

/* The r-th (1..) of texts strictly between lo and hi (NULL: unbounded). */
static char *text_between(synth_data *d, const char *lo, const char *hi, int r) {
  if (!lo && !hi) return sqlsim_arena_printf(d->a, "t%04d", r);
  if (!lo) { /* below hi: its first byte less one */
    unsigned char c = (unsigned char)hi[0];
    return c > 0x21 ? sqlsim_arena_printf(d->a, "%c%04d", c - 1, r) : NULL;
  }
  size_t n = strlen(lo);
  if (!hi || strncmp(hi, lo, n)) return sqlsim_arena_printf(d->a, "%s%04d", lo, r); /* any extension of lo is below hi */
  unsigned char c = (unsigned char)hi[n]; /* hi extends lo: stay below its next byte */
  return c > 0x21 ? sqlsim_arena_printf(d->a, "%s%c%04d", lo, c - 1, r) : NULL;
}

/* Whether text t meets every LIKE pattern as the model chose for code v. */
static int likes_hold(enc *e, Z3_model m, long long v, const char *t) {
  for (int l = 0; l < e->nlikes; l++) {
    Z3_ast code = mk_int(e, v), at = Z3_mk_app(e->z, e->likes[l].f, 1, &code);
    if (model_true(e->z, m, at) != (sqlite3_strlike(e->likes[l].pat, t, 0) == 0)) return 0;
  }
  return 1;
}

/* A text for code v after prev and before hi (either NULL: open) meeting
 * the patterns the model chose for it: from the patterns' own letters (%
 * dropped, _ made x), and the same in the other letter case (LIKE ignores
 * case, BINARY order does not: 'B' is LIKE 'b%' and below 'b'). NULL when
 * none of the tries fits. */
static const char *like_fit(enc *e, Z3_model m, synth_data *d, long long v, const char *prev, const char *hi,
                            const char *dflt) {
  char skel[256];
  size_t n = 0;
  for (int l = 0; l < e->nlikes; l++) {
    Z3_ast code = mk_int(e, v), at = Z3_mk_app(e->z, e->likes[l].f, 1, &code);
    if (!model_true(e->z, m, at)) continue;
    for (const char *p = e->likes[l].pat; *p && n + 1 < sizeof skel; p++)
      if (*p != '%') skel[n++] = *p == '_' ? 'x' : *p;
  }
  skel[n] = '\0';
  const char *tries[12] = {0};
  for (int c = 0; c < 2; c++) {
    if (c) /* the other case: upper, or lower where the letters are all upper */
      for (size_t i = 0, up = strcspn(skel, "abcdefghijklmnopqrstuvwxyz") < n; i < n; i++)
        skel[i] = (char)(up ? toupper((unsigned char)skel[i]) : tolower((unsigned char)skel[i]));
    const char **t = tries + 6 * c;
    t[0] = sqlsim_arena_strdup(d->a, skel);
    t[1] = prev ? sqlsim_arena_printf(d->a, "%s%s", prev, skel) : NULL;
    t[2] = prev ? sqlsim_arena_printf(d->a, "%s0%s", prev, skel) : NULL;
    t[3] = sqlsim_arena_printf(d->a, "%s0001", skel);
    t[4] = dflt ? sqlsim_arena_printf(d->a, "%s%s", dflt, skel) : NULL; /* the letters inside, not first */
    t[5] = sqlsim_arena_printf(d->a, "t%s", skel);
  }
  for (int i = 0; i < 12; i++) {
    const char *t = tries[i];
    if (t && (!prev || strcmp(t, prev) > 0) && (!hi || strcmp(t, hi) < 0) && likes_hold(e, m, v, t))
      return sqlsim_arena_strdup(d->a, t);
  }
  return NULL;
}

static const char *decode_text(const text_map *tm, long long code) {
  for (int i = 0; i < tm->n; i++)
    if (tm->v[i] == code) return tm->t[i];
  return NULL;
}

static int text_map_build(enc *e, Z3_model m, synth_data *d, text_map *tm) {
  const sqlsim_schema *s = e->s;
  size_t cap = (size_t)e->ntexts + (size_t)s->ncolumns * (size_t)e->k + 1;
  long long *lit = calloc((size_t)e->ntexts + 1, sizeof *lit);
  tm->v = calloc(cap, sizeof *tm->v);
  tm->t = calloc(cap, sizeof *tm->t);
  tm->n = 0;
  if (!lit || !tm->v || !tm->t) {
    free(lit);
    return -1;
  }
  int nv = 0;
  for (int i = 0; i < e->ntexts; i++) {
    if (model_int(e->z, m, e->codes[i], &lit[i])) lit[i] = 0;
    tm->v[nv++] = lit[i];
  }
  for (int t = 0; t < s->ntables; t++)
    for (int r = 0; e->used[t] && r < e->k; r++)
      for (int i = 0; i < s->tables[t].ncolumns; i++) {
        const val *v = &e->cells[(size_t)r * (size_t)s->ncolumns + (size_t)(s->tables[t].first_column + i)];
        long long x;
        if (v->kind == K_TEXT && !model_int(e->z, m, v->v, &x)) tm->v[nv++] = x;
      }
  qsort(tm->v, (size_t)nv, sizeof *tm->v, cmp_ll);
  for (int i = 0; i < nv; i++)
    if (!tm->n || tm->v[tm->n - 1] != tm->v[i]) tm->v[tm->n++] = tm->v[i];
  const char *lo = NULL, *prev = NULL;
  for (int i = 0, run = 0; i < tm->n; i++) {
    int l = -1;
    for (int j = 0; j < e->ntexts && l < 0; j++)
      if (lit[j] == tm->v[i]) l = j;
    if (l >= 0) {
      tm->t[i] = sqlsim_arena_strdup(d->a, e->texts[l]); /* the query's arena goes */
      lo = prev = e->texts[l];
      run = 0;
      continue;
    }
    const char *hi = NULL; /* the next literal above */
    for (int j = i + 1; j < tm->n && !hi; j++)
      for (int q = 0; q < e->ntexts && !hi; q++)
        if (lit[q] == tm->v[j]) hi = e->texts[q];
    const char *dflt = text_between(d, lo, hi, ++run), *t = dflt;
    if (t && prev && strcmp(t, prev) <= 0) t = NULL; /* below a text a pattern made */
    if (!t || !likes_hold(e, m, tm->v[i], t)) t = like_fit(e, m, d, tm->v[i], prev, hi, dflt);
    tm->t[i] = t;
    if (t) prev = t;
  }
  free(lit);
  return 0;
}

static synth_data *decode(enc *e, Z3_model m) {
  const sqlsim_schema *s = e->s;
  synth_data *d = synth_data_new(s);
  if (!d) return NULL;
  text_map tm = {0};
  if (text_map_build(e, m, d, &tm)) {
    free(tm.v);
    free(tm.t);
    synth_data_free(d);
    return NULL;
  }
  for (int t = 0; t < s->ntables; t++) {
    if (!e->used[t]) continue;
    d->on[t] = 1;
    const sqlsim_table *tab = &s->tables[t];
    for (int r = 0; r < e->k; r++) {
      if (!model_true(e->z, m, e->present[t * e->k + r])) continue;
      synth_val *row = synth_data_add_row(d, t);
      if (!row) {
        free(tm.v);
        free(tm.t);
        synth_data_free(d);
        return NULL;
      }
      for (int i = 0; i < tab->ncolumns; i++) {
        const val *v = &e->cells[(size_t)r * (size_t)s->ncolumns + (size_t)(tab->first_column + i)];
        synth_val *x = &row[i];
        long long iv = 0;
        double rv = 0;
        if (model_true(e->z, m, v->n)) x->kind = 'n';
        else if (v->kind == K_REAL && !model_real(e->z, m, v->v, &rv)) x->kind = 'r', x->r = rv;
        else if (v->kind != K_REAL && !model_int(e->z, m, v->v, &iv)) {
          if (v->kind == K_TEXT) {
            x->t = decode_text(&tm, iv);
            x->kind = x->t ? 't' : 'n'; /* no text fits: the model will not replay */
          }
          else if (v->kind == K_NUMTEXT) x->kind = 't', x->t = sqlsim_arena_printf(d->a, "%lld", iv);
          else x->kind = 'i', x->i = iv;
        } else x->kind = 'n'; /* a value the model leaves open: any, NULL included (never for a NOT NULL column) */
      }
    }
  }
  free(tm.v);
  free(tm.t);
  return d;
}

/* ---------------------------------------------------------------- solving */

/* One z3 context per pair, made in synth_solve and freed at its end (about
 * 0.9 ms; one Spider file's strict run was no slower than with a context kept
 * per thread). A context kept across pairs (as this file did) carries what z3
 * did before into what it does next (its terms' ids, its tables), so that the
 * same pair spent a different number of units after different pairs: 12 of
 * 1,034 items of one Spider file got another bound in a second run. Within
 * one pair, the solvings come in one order and spend the same units every
 * time. */
static Z3_context new_context(void) {
  Z3_config cfg = Z3_mk_config();
  if (!cfg) return NULL;
  Z3_set_param_value(cfg, "model", "true");
  Z3_context z = Z3_mk_context(cfg);
  Z3_del_config(cfg);
  if (z) Z3_set_error_handler(z, NULL);
  return z;
}

/* The budget. Seconds are a poor unit for it: a loaded machine gives z3 less
 * of each second, so that the same pair got a deeper bound, or a refutation,
 * on an idle machine than under load (144 of 7,238 Spider items differed in
 * their bound between two runs). The budget is spent in z3's resource units
 * instead (its rlimit: steps of its search, counted the same on any machine
 * and under any load), converted from the seconds a user gives at
 * UNITS_PER_S, z3's rate on strict's formulas on this project's 2-core VM
 * (3.9 million a second over the 320 pairs of three Spider files that spent
 * their whole budget, 0.051 s each on average at the default 0.05 s; z3's
 * rlimit, read as "rlimit count" in its statistics, bounds one check from
 * the count at its start; the terms an encoding builds are charged too,
 * below). A wall clock stays as a safety cap only, WALL_CAP times the budget
 * and at least WALL_MIN seconds (z3 spends its units more slowly on some
 * formulas, docs/synthetic.md); within it, the verdict and the bound depend
 * on the pair alone. */
#define UNITS_PER_S 4.0e6
#define WALL_CAP 10.0
#define WALL_MIN 1.0
#define UNITS_MIN 1000 /* less left than this: the budget is spent */

/* The terms the encoding builds are charged to the budget too, UNITS_PER_TERM
 * each: z3 counts little of their building, and an encoding of tens of
 * thousands of terms whose check is quick otherwise ran on at a budget's
 * end (a pair of the 7 Spider files built 37,115 terms in 0.2 s). Their
 * number is read from the id a new term gets, which in a context of the
 * pair's own is the same on every run. 0.74 us a term on average over two
 * Spider files (4.2 million terms, 3.1 s of building against 10.3 s of
 * checks), at UNITS_PER_S: 3 units. */
#define UNITS_PER_TERM 3
static unsigned next_term_id(Z3_context z) {
  return Z3_get_ast_id(z, Z3_mk_fresh_const(z, "w", Z3_mk_bool_sort(z)));
}

/* z3's count of resource units so far (cumulative in the context). */
static uint64_t units_count(Z3_context z, Z3_solver sol) {
  uint64_t n = 0;
  Z3_stats st = Z3_solver_get_statistics(z, sol);
  Z3_stats_inc_ref(z, st);
  for (unsigned i = 0, ns = Z3_stats_size(z, st); i < ns; i++)
    if (!strcmp(Z3_stats_get_key(z, st, i), "rlimit count")) {
      n = Z3_stats_is_uint(z, st, i) ? Z3_stats_get_uint_value(z, st, i) : (uint64_t)Z3_stats_get_double_value(z, st, i);
      break;
    }
  Z3_stats_dec_ref(z, st);
  return n;
}
static void enc_free(enc *e) {
  for (int i = 0; i < e->next; i++) free(e->ext[i].cx);
  for (int i = 0; i < e->nsubs; i++) answer_free(&e->subs[i].a);
  sqlsim_arena_free(e->arena);
  if (e->sol) Z3_solver_dec_ref(e->z, e->sol);
  free(e->used);
  free(e->kt);
  free(e->numtext);
  free(e->present);
  free(e->cells);
}

/* One bound k: 1 refuted (*data), 0 no counterexample, -1 outside the
 * subset or undecided (e->why, *unknown set when it was the budget, *size
 * when the encoding at k would be too large). */
/* The kind of an answer's column c, as comparisons class it: text, integers
 * held as text, numbers; -1 when its cells mix them or it has none. */
static int kind_class(const answer *a, int c) {
  int k = answer_kind(a, c, 1);
  return k == K_REAL ? K_INT : k ? k : -1;
}

typedef struct ask {       /* what every solving of a pair asks */
  Z3_context z;            /* the pair's */
  const sqlsim_schema *s;
  const sqlsim_query *g, *p;
  int sets, any_order, no_nulls, ordered;
} ask;

/* units: z3's resource units it may spend (*spent: what it did); wall_s:
 * the safety cap's seconds left. */
static int solve_k(const ask *q, int k, const int *shape, uint64_t units, double wall_s, uint64_t *spent,
                   synth_data **data, char *why, size_t wn, int *unknown, int *size, int *one_row, int *order_checked) {
  const sqlsim_schema *s = q->s;
  const sqlsim_query *g = q->g, *p = q->p;
  int sets = q->sets, any_order = q->any_order;
  enc e = {.s = s, .k = k, .no_nulls = q->no_nulls, .keep_keys = q->ordered};
  int rc = -1;
  answer a = {0}, b = {0};
  Z3_ast *pa = NULL, *pb = NULL, tie_a = NULL, tie_b = NULL; /* places in an ordered answer */
  *spent = 0;
  e.z = q->z;
  e.sol = Z3_mk_simple_solver(e.z); /* the SMT core alone: a tactic solver costs ~12 ms a check to set up */
  Z3_solver_inc_ref(e.z, e.sol);
  uint64_t start = units_count(e.z, e.sol);
  unsigned id0 = next_term_id(e.z);
  Z3_params prm = Z3_mk_params(e.z);
  Z3_params_inc_ref(e.z, prm);
  unsigned ms = wall_s * 1000 > 1 ? (unsigned)(wall_s * 1000) : 1;
  Z3_params_set_uint(e.z, prm, Z3_mk_string_symbol(e.z, "timeout"), ms);
  Z3_solver_set_params(e.z, e.sol, prm);
  e.used = calloc((size_t)s->ntables + 1, 1);
  e.kt = calloc((size_t)s->ntables + 1, sizeof *e.kt);
  e.numtext = calloc((size_t)s->ncolumns + 1, 1);
  e.arena = sqlsim_arena_new();
  if (!e.used || !e.kt || !e.numtext || !e.arena) goto done;
  for (int t = 0; t < s->ntables; t++) e.kt[t] = shape ? shape[t] : k;
  mark_tables(&e, g->root, 0);
  mark_tables(&e, p->root, 0);
  make_tables(&e);
  int checks = e.why[0] == 0 && e.present && e.cells && encode_checks(&e) != 0; /* solved, no bound claimed */
  char check_why[160];
  snprintf(check_why, sizeof check_why, "%s", e.why);
  e.why[0] = '\0';
  if (!e.present || !e.cells || encode_select(&e, g->root, NULL, &a) || encode_select(&e, p->root, NULL, &b)) {
    *size = e.size;
    snprintf(why, wn, "outside the solver's subset: %s", e.why[0] ? e.why : "out of memory");
    goto done;
  }
  if (a.ncols != b.ncols) {
    snprintf(why, wn, "outside the solver's subset: answers of %d and %d columns", a.ncols, b.ncols);
    goto done;
  }
  *one_row = a.one && b.one;
  /* the order, when it counts: both answers ordered by number keys */
  *order_checked = 0;
  if (q->ordered && !sets && a.nk && b.nk && a.nrows <= 64 && b.nrows <= 64 &&
      (pa = calloc((size_t)a.nrows + 1, sizeof *pa)) && (pb = calloc((size_t)b.nrows + 1, sizeof *pb)) &&
      !positions(&e, &a, a.order, a.keys, a.nk, pa, &tie_a) && !positions(&e, &b, b.order, b.keys, b.nk, pb, &tie_b))
    *order_checked = 1;
  /* Spider's comparison (and the audit's) takes the columns in any order:
   * the answers must differ under every order of b's columns (up to 4
   * columns; past that in order, which still proves a bound: equal in
   * order is equal in any). Orders that pair a text column with a number
   * column are left out when another order pairs kinds alike (their rows
   * can be equal only where both cells are NULL): fewer conditions prove the
   * same bound, and a model is replayed before it refutes. */
  if (!any_order || a.ncols < 2 || a.ncols > 4) {
    Z3_solver_assert(e.z, e.sol, *order_checked ? differ_ordered(&e, &a, &b, NULL, pa, pb, tie_a, tie_b)
                                                : differ(&e, &a, &b, sets, NULL));
  } else {
    int perm[4] = {0, 1, 2, 3}, n = a.ncols, ka[4], kb[4];
    for (int c = 0; c < n; c++) ka[c] = kind_class(&a, c), kb[c] = kind_class(&b, c);
    for (int pass = 0; pass < 2; pass++) { /* pass 0: the orders pairing kinds alike; 1: all, when there is none */
      int asserted = 0;
      for (;;) {
        int alike = 1;
        for (int c = 0; c < n; c++) alike &= ka[c] < 0 || kb[perm[c]] < 0 || ka[c] == kb[perm[c]];
        if (alike || pass) {
          Z3_solver_assert(e.z, e.sol, *order_checked ? differ_ordered(&e, &a, &b, perm, pa, pb, tie_a, tie_b)
                                                      : differ(&e, &a, &b, sets, perm));
          asserted++;
        }
        int i = n - 2; /* the next permutation, lexicographic */
        while (i >= 0 && perm[i] > perm[i + 1]) i--;
        if (i < 0) break;
        int j = n - 1;
        while (perm[j] < perm[i]) j--;
        int t = perm[i];
        perm[i] = perm[j], perm[j] = t;
        for (int l = i + 1, r = n - 1; l < r; l++, r--) t = perm[l], perm[l] = perm[r], perm[r] = t;
      }
      for (int c = 0; c < n; c++) perm[c] = c;
      if (asserted) break;
    }
  }
  /* the units the building of the terms took (z3 counts some of it) are
   * spent too; z3 reads an rlimit of 0 as none */
  int terms = (int)(next_term_id(e.z) - id0); /* (an id freed and made again: negative, 0 charged) */
  uint64_t charge = terms > 0 ? (uint64_t)terms * UNITS_PER_TERM : 0;
  uint64_t built = units_count(e.z, e.sol) - start + charge;
  uint64_t left = units > built ? units - built : 1;
  Z3_params_set_uint(e.z, prm, Z3_mk_string_symbol(e.z, "rlimit"), left > UINT32_MAX ? UINT32_MAX : (unsigned)left);
  Z3_solver_set_params(e.z, e.sol, prm);
  Z3_lbool res = Z3_solver_check(e.z, e.sol);
  *spent = units_count(e.z, e.sol) - start + charge;
  switch (res) {
  case Z3_L_TRUE: {
    Z3_model m = Z3_solver_get_model(e.z, e.sol);
    Z3_model_inc_ref(e.z, m);
    *data = decode(&e, m);
    Z3_model_dec_ref(e.z, m);
    rc = *data ? 1 : -1;
    if (!*data) snprintf(why, wn, "out of memory");
    break;
  }
  case Z3_L_FALSE:
    rc = checks ? -1 : 0;
    if (checks) snprintf(why, wn, "%s", check_why);
    break;
  default:
    *unknown = 1;
    snprintf(why, wn, "the solver's budget ran out at %d rows per table (%s)", k, Z3_solver_get_reason_unknown(e.z, e.sol));
  }
done:
  Z3_params_dec_ref(e.z, prm);
  free(pa);
  free(pb);
  answer_free(&a);
  answer_free(&b);
  enc_free(&e);
  return rc;
}

/* The tables the queries name in FROM (in[t] set). */
static void query_tables(const sqlsim_node *n, unsigned char *in, int ntables, int depth) {
  if (!n || depth > 64) return;
  if (n->kind == SQLSIM_N_TABLE && n->table >= 0 && n->table < ntables) in[n->table] = 1;
  for (uint32_t i = 0; i < n->nkids; i++) query_tables(n->kids[i], in, ntables, depth + 1);
}

/* Skewed shapes, for counterexamples only, when the queries name three
 * tables or more: one table at MAX_K slots, every other at `others` (a group of exactly five rows of one
 * table through a join of five: 5 x 1 x 1 x 1 x 1 combinations, where five
 * slots for every table make 3,125). 1 when one refutes (out filled). */
static int try_shapes(const ask *q, int others, uint64_t units, uint64_t *spent, double wall_end, synth_solved *out) {
  int nt = q->s->ntables, rc = 0, n = 0;
  unsigned char *in = calloc((size_t)nt + 1, 1);
  int *shape = calloc((size_t)nt + 1, sizeof *shape);
  if (in && shape) {
    query_tables(q->g->root, in, nt, 0);
    query_tables(q->p->root, in, nt, 0);
    for (int t = 0; t < nt; t++) n += in[t];
  }
  /* children first (a table no other table of the queries references: the
   * many side, where groups of rows sit), then their parents */
  unsigned char *parent = calloc((size_t)nt + 1, 1);
  for (int f = 0; parent && in && f < q->s->nfkeys; f++) {
    int ct = q->s->columns[q->s->fkeys[f].column].table, pt = q->s->columns[q->s->fkeys[f].ref_column].table;
    if (ct != pt && in[ct] && in[pt]) parent[pt] = 1;
  }
  for (int i = 0; n > 2 && parent && i < 2 * nt && !rc; i++) { /* two tables: uniform k reaches six slots anyway */
    int big = i % nt;
    if (!in[big] || parent[big] != (i >= nt)) continue;
    double wall = wall_end - now_seconds();
    if (units < *spent + UNITS_MIN || wall <= 0.001) break;
    for (int t = 0; t < nt; t++) shape[t] = t == big ? MAX_K : others;
    synth_data *d = NULL;
    int unknown = 0, size = 0, one = 0, ordered = 0;
    char why[200] = "";
    uint64_t used = 0;
    int r = solve_k(q, MAX_K, shape, units - *spent, wall, &used, &d, why, sizeof why, &unknown, &size, &one, &ordered);
    *spent += used;
    if (r == 1) {
      out->status = SYNTH_SOLVE_REFUTED;
      out->data = d;
      snprintf(out->why, sizeof out->why, "the solver found a database of at most %d rows in %s and %d in each other table",
               MAX_K, q->s->tables[big].name, others);
      rc = 1;
    }
  }
  free(in);
  free(parent);
  free(shape);
  return rc;
}

int synth_solve(const sqlsim_schema *s, const char *gold_text, const char *pred_text, int flags, double budget_s,
                synth_solved *out) {
  memset(out, 0, sizeof *out);
  double t0 = now_seconds();
  sqlsim_query *g = NULL, *p = NULL;
  sqlsim_error err = {0};
  if (sqlsim_parse(gold_text, strlen(gold_text), s, 0, &g, &err) ||
      sqlsim_parse(pred_text, strlen(pred_text), s, 0, &p, &err)) {
    snprintf(out->why, sizeof out->why, "not solved: the text as run does not parse (%.120s)", err.message);
    sqlsim_query_free(g);
    sqlsim_query_free(p);
    out->status = SYNTH_SOLVE_OUTSIDE;
    return 0;
  }
  ask q = {.z = new_context(), .s = s, .g = g, .p = p, .sets = (flags & SYNTH_SOLVE_SETS) != 0,
           .any_order = (flags & SYNTH_SOLVE_ANY_ORDER) != 0, .no_nulls = (flags & SYNTH_SOLVE_NO_NULLS) != 0,
           .ordered = (flags & SYNTH_SOLVE_ORDERED) != 0};
  out->status = SYNTH_SOLVE_OUTSIDE;
  if (!q.z) {
    snprintf(out->why, sizeof out->why, "not solved: z3 could not make a context");
    sqlsim_query_free(g);
    sqlsim_query_free(p);
    return 0;
  }
  /* the budget in units, and the wall clock's safety cap */
  double units_d = budget_s * UNITS_PER_S;
  uint64_t units = units_d > 1e18 ? (uint64_t)1e18 : units_d > UNITS_MIN ? (uint64_t)units_d : UNITS_MIN;
  uint64_t spent = 0;
  double wall_end = t0 + (budget_s * WALL_CAP > WALL_MIN ? budget_s * WALL_CAP : WALL_MIN);
  /* k = 1, 2, .. rows in every table (the bound), with skewed shapes tried
   * after k = 1: one table large, the others small */
  for (int k = 1; k <= MAX_K; k++) {
    double wall = wall_end - now_seconds();
    if (units < spent + UNITS_MIN || wall <= 0.001) {
      if (out->bound) {
        out->status = SYNTH_SOLVE_BOUNDED;
        snprintf(out->why, sizeof out->why, "no counterexample up to %d rows per table (the budget, %g s, ran out)",
                 out->bound, budget_s);
      } else snprintf(out->why, sizeof out->why, "the solver's budget (%g s) ran out at %d rows per table", budget_s, k);
      break;
    }
    synth_data *d = NULL;
    int unknown = 0, size = 0, ordered = 0;
    char why[200] = "";
    uint64_t used = 0;
    int r = solve_k(&q, k, NULL, units - spent, wall, &used, &d, why, sizeof why, &unknown, &size, &out->one_row,
                    &ordered);
    spent += used;
    out->k = k;
    if (r == 1) {
      out->status = SYNTH_SOLVE_REFUTED;
      out->data = d;
      snprintf(out->why, sizeof out->why, "the solver found a database of at most %d rows per table", k);
      break;
    }
    if (r == 0) {
      if (ordered && out->order_bound == out->bound) out->order_bound = k; /* the order compared at every k so far */
      out->bound = k;
      out->status = SYNTH_SOLVE_BOUNDED;
      snprintf(out->why, sizeof out->why, "no counterexample up to %d rows per table", k);
      if (k == 1 && try_shapes(&q, 1, units, &spent, wall_end, out)) break;
      continue;
    }
    if (out->bound && (unknown || size)) { /* the bound reached stands */
      out->status = SYNTH_SOLVE_BOUNDED;
      snprintf(out->why, sizeof out->why, "no counterexample up to %d rows per table (%.120s)", out->bound, why);
    } else {
      out->status = unknown ? SYNTH_SOLVE_BUDGET : SYNTH_SOLVE_OUTSIDE;
      snprintf(out->why, sizeof out->why, "%s", why);
    }
    break;
  }
  out->seconds = now_seconds() - t0;
  out->units = spent;
  Z3_del_context(q.z);
  sqlsim_query_free(g);
  sqlsim_query_free(p);
  return 0;
}
