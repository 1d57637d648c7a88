/* evidence.c -- the audit's evidence about a gold (audit/ weighs it): the
 * table of its kinds, and what a gold query's own form says about its
 * answer and what the item's database shows of it: LIMIT without ORDER BY,
 * ORDER BY .. LIMIT cutting through ties, a column outside GROUP BY that
 * the groups do not determine, integers divided as integers, a text
 * literal the column holds only in another case or spelling. Each check is
 * a class of wrong or underdetermined golds (docs/audit.md), never an item;
 * on a database a form is reported only with the rows that show it. The
 * engine runs them once per gold, on its connection to the item's database
 * (engine/workers.c). */
#include "analyze.h"
#include "exec/exec.h"
#include "parser/tree.h"
#include "synth/runner.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define SHOW_ROWS 6

/* ---------------------------------------------------------------- the table of kinds */

/* Each kind of evidence with its a-priori weights: how likely a gold showing
 * it alone is wrong or underdetermined, shown on the item's database (with
 * the rows that show it) or found in the form alone (no database to look
 * at). Chosen before any corpus was audited, from what each kind means
 * (docs/audit.md says why); never fitted to items. Consensus's strength is
 * measured (audit/audit.c); a gold that fails or returns nothing the engine
 * sees as it runs the gold (its weights here); the others are checks. */
static void check_unordered(evidence_found *f, const sqlsim_query *gold, sqlsim_db *db, int dialect);
static void check_ties(evidence_found *f, const sqlsim_query *gold, sqlsim_db *db, int dialect);
static void check_groups(evidence_found *f, const sqlsim_query *gold, sqlsim_db *db, int dialect);
static void check_division(evidence_found *f, const sqlsim_query *gold, sqlsim_db *db, int dialect);
static void check_literals(evidence_found *f, const sqlsim_query *gold, sqlsim_db *db, int dialect);

/* In the order the checks run (and their evidence is listed). */
const evidence_kind evidence_kinds[SQLSIM_AUDIT_NKINDS] = {
    {SQLSIM_AUDIT_CONSENSUS, "consensus", 0, 0, NULL},
    /* it fails to run or to parse; without a database: it names what the schema lacks */
    {SQLSIM_AUDIT_GOLD_FAILS, "gold_fails", 1.0, 0.6, NULL},
    /* no row, or only NULLs: on the item's database; on every generated one */
    {SQLSIM_AUDIT_GOLD_EMPTY, "gold_empty", 0.5, 0.25, NULL},
    {SQLSIM_AUDIT_LIMIT_UNORDERED, "limit_unordered", 0.35, 0.2, check_unordered},
    /* rows of equal keys at the LIMIT's cut; keys nothing makes unique */
    {SQLSIM_AUDIT_LIMIT_TIES, "limit_ties", 0.35, 0.1, check_ties},
    /* groups shown holding several values of the free column; the form */
    {SQLSIM_AUDIT_GROUP_FREE, "group_free", 0.35, 0.15, check_groups},
    {SQLSIM_AUDIT_INT_DIVISION, "int_division", 0.25, 0.25, check_division},
    /* a literal the column holds only in another case or spelling (a database only) */
    {SQLSIM_AUDIT_LITERAL_CASE, "literal_case", 0.4, 0, check_literals},
};

const char *const sqlsim_audit_kind_names[SQLSIM_AUDIT_NKINDS] = {
    "consensus", "gold_fails", "gold_empty", "limit_ties", "limit_unordered", "group_free", "int_division",
    "literal_case"};

const evidence_kind *evidence_kind_of(unsigned kind) {
  for (int k = 0; k < SQLSIM_AUDIT_NKINDS; k++)
    if (evidence_kinds[k].kind == kind) return &evidence_kinds[k];
  return NULL;
}

#define W_DB(kind) (evidence_kind_of(kind)->weight)
#define W_FORM(kind) (evidence_kind_of(kind)->weight_form)

void evidence_add(evidence_found *f, unsigned kind, double w, const char *what, const char *more) {
  const evidence_kind *k = evidence_kind_of(kind);
  if (f->json.len) sb_putc(&f->json, ',');
  sb_printf(&f->json, "{\"kind\":\"%s\",\"weight\":", k ? k->name : "?");
  sb_json_num(&f->json, w);
  sb_puts(&f->json, ",\"what\":");
  sb_json_str(&f->json, what);
  if (more && *more) {
    sb_putc(&f->json, ',');
    sb_puts(&f->json, more);
  }
  sb_putc(&f->json, '}');
  f->kinds |= kind;
  if (kind != SQLSIM_AUDIT_CONSENSUS) f->keep *= 1 - w;
}

void evidence_gold_checks(evidence_found *f, const sqlsim_query *gold, sqlsim_db *db, int dialect) {
  if (!gold || !gold->root) return;
  for (int k = 0; k < SQLSIM_AUDIT_NKINDS; k++)
    if (evidence_kinds[k].check) evidence_kinds[k].check(f, gold, db, dialect);
}

/* ---------------------------------------------------------------- helpers */

static sqlsim_node *node_const_int(sqlsim_arena *a, const char *text) {
  sqlsim_node *n = tree_node_new(a, SQLSIM_N_CONST, 0);
  n->op = SQLSIM_CONST_INT;
  n->text = sqlsim_arena_strdup(a, text);
  return n;
}

static sqlsim_node *node_target(sqlsim_arena *a, sqlsim_node *e) {
  sqlsim_node *t = tree_node_new(a, SQLSIM_N_TARGET, 1);
  t->kids[0] = e;
  return t;
}

/* sql run on db: its row count, or -1 when it fails. */
static long count_rows(sqlsim_db *db, const char *sql) {
  sqlsim_result r;
  sqlsim_exec_flags(db, sql, 0, &r);
  long n = r.status == SQLSIM_EXEC_OK ? r.nrows : -1;
  sqlsim_result_free(&r);
  return n;
}

/* `"what": ..., "sql": ..., "rows": [..]` members for evidence_add. */
static char *rows_member(sqlsim_db *db, const char *sql, const long *want, int nwant) {
  long count;
  char *err = NULL;
  char *rows = exec_rows_json(db, sql, want, nwant, SHOW_ROWS, &count, &err);
  free(err);
  if (!rows) return NULL;
  strbuf sb = {0};
  sb_puts(&sb, "\"sql\":");
  sb_json_str(&sb, sql);
  sb_printf(&sb, ",\"rows\":%s", rows);
  free(rows);
  return sb_take(&sb);
}

/* ---------------------------------------------------------------- LIMIT */

/* LIMIT in a block without ORDER BY: which rows it keeps is the engine's
 * reading order. On the database (the outermost block): shown when the
 * query without its LIMIT returns more rows than the LIMIT keeps. */
static void limit_unordered(evidence_found *f, const sqlsim_query *gold, const sqlsim_node *blk, sqlsim_db *db) {
  const sqlsim_node *lim = blk->kids[SQLSIM_SEL_LIMIT];
  if (!lim || blk->kids[SQLSIM_SEL_ORDER]) return;
  if (lim->kind != SQLSIM_N_CONST || lim->op != SQLSIM_CONST_INT) return;
  long keep = atol(lim->text);
  if (keep < 0) return;
  if (!db || blk != gold->root) {
    if (!db) evidence_add(f, SQLSIM_AUDIT_LIMIT_UNORDERED, W_FORM(SQLSIM_AUDIT_LIMIT_UNORDERED),
                       "LIMIT without ORDER BY: which rows it keeps is the order the engine reads them in", NULL);
    return;
  }
  sqlsim_query *q = sqlsim_query_clone(gold);
  if (!q) return;
  q->root->kids[SQLSIM_SEL_LIMIT] = q->root->kids[SQLSIM_SEL_OFFSET] = NULL;
  char *all = sqlsim_print_sql(q->root, 0);
  sqlsim_query_free(q);
  long n = all ? count_rows(db, all) : -1;
  if (n > keep) {
    char what[200];
    snprintf(what, sizeof what, "LIMIT %ld without ORDER BY keeps %ld of the %ld rows the query finds, in the order "
             "the engine happens to read them", keep, keep, n);
    char *rows = rows_member(db, all, NULL, 0);
    evidence_add(f, SQLSIM_AUDIT_LIMIT_UNORDERED, W_DB(SQLSIM_AUDIT_LIMIT_UNORDERED), what, rows);
    free(rows);
  }
  free(all);
}

/* Whether an ORDER BY key is a column that is unique by the schema (a
 * single-column primary key or UNIQUE): then the keys cannot tie. */
static int unique_key(const sqlsim_node *order, const sqlsim_query *q) {
  if (!q->schema) return 0;
  for (uint32_t i = 0; i < order->nkids; i++) {
    const sqlsim_node *e = order->kids[i] && order->kids[i]->nkids ? order->kids[i]->kids[0] : NULL;
    if (e && e->kind == SQLSIM_N_COLUMN && e->column >= 0 && e->column < q->schema->ncolumns &&
        q->schema->columns[e->column].unique)
      return 1;
  }
  return 0;
}

/* ORDER BY .. LIMIT on the outermost block: on the database, rows of equal
 * sort keys on both sides of the cut that return different values (the
 * answer depends on which the engine puts first); without one, keys that
 * nothing makes unique. */
static void limit_ties(evidence_found *f, const sqlsim_query *gold, sqlsim_db *db) {
  const sqlsim_node *root = gold->root;
  if (root->op != SQLSIM_SET_NONE || !root->kids[SQLSIM_SEL_ORDER] || !root->kids[SQLSIM_SEL_LIMIT]) return;
  if (!db) {
    if (!unique_key(root->kids[SQLSIM_SEL_ORDER], gold))
      evidence_add(f, SQLSIM_AUDIT_LIMIT_TIES, W_FORM(SQLSIM_AUDIT_LIMIT_TIES),
                "ORDER BY .. LIMIT on keys the schema does not make unique: rows of equal keys at the cut would "
                "make the answer depend on row order", NULL);
    return;
  }
  long limit, offset;
  int nkeys;
  char *keyed = synth_keyed_query(gold, &limit, &offset, &nkeys);
  if (!keyed) return;
  sqlsim_result r;
  sqlsim_exec_flags(db, keyed, 0, &r);
  long lo, hi;
  if (r.status == SQLSIM_EXEC_OK && r.ncols > nkeys && synth_cut_ties(&r, limit, offset, nkeys, &lo, &hi)) {
    long o = offset > 0 ? offset : 0, end = limit > LONG_MAX - o ? LONG_MAX : o + limit;
    long kept = end > lo && end <= hi ? end - lo : hi + 1 - o; /* the cut at the end, or at the offset */
    long want[SHOW_ROWS];
    int nw = 0;
    for (long i = lo; i <= hi && nw < SHOW_ROWS; i++) want[nw++] = i;
    char what[300];
    snprintf(what, sizeof what, "ORDER BY .. LIMIT %ld cuts through %ld rows of equal sort keys (rows %ld to %ld "
             "of the ordered answer, the keys last): %ld of them are kept, which ones is not determined",
             limit, hi - lo + 1, lo + 1, hi + 1, kept);
    char *rows = rows_member(db, keyed, want, nw);
    evidence_add(f, SQLSIM_AUDIT_LIMIT_TIES, W_DB(SQLSIM_AUDIT_LIMIT_TIES), what, rows);
    free(rows);
  }
  sqlsim_result_free(&r);
  free(keyed);
}

/* ---------------------------------------------------------------- GROUP BY */

typedef struct colref {
  const sqlsim_node *source;
  int column;
} colref;

typedef struct group_ctx {
  const sqlsim_schema *s;
  colref known[64];      /* columns the groups determine */
  int nknown;
  const sqlsim_node *whole[32]; /* FROM items the groups determine entirely */
  int nwhole;
  const sqlsim_node *eq[64][2]; /* column = column conditions of the block */
  int neq;
  const sqlsim_node *fixed[64]; /* column = constant conditions: one value in every group */
  int nfixed;
  const sqlsim_node *tables[32]; /* the block's FROM tables */
  int ntables;
  const sqlsim_node *group; /* the GROUP BY list, or NULL */
  const sqlsim_node *free_col; /* the first column found free */
} group_ctx;

static int is_known(const group_ctx *g, const sqlsim_node *c) {
  for (int i = 0; i < g->nwhole; i++)
    if (g->whole[i] == c->source) return 1;
  for (int i = 0; i < g->nknown; i++)
    if (g->known[i].source == c->source && g->known[i].column == c->column) return 1;
  return 0;
}

static int add_known(group_ctx *g, const sqlsim_node *c) {
  if (c->kind != SQLSIM_N_COLUMN || !c->source || c->column < 0 || is_known(g, c) || g->nknown == 64) return 0;
  g->known[g->nknown++] = (colref){c->source, c->column};
  return 1;
}

static void collect_eqs(group_ctx *g, const sqlsim_node *cond) {
  if (!cond) return;
  if (cond->kind == SQLSIM_N_AND) {
    for (uint32_t i = 0; i < cond->nkids; i++) collect_eqs(g, cond->kids[i]);
  } else if (cond->kind == SQLSIM_N_BINOP && cond->op == SQLSIM_OP_EQ && cond->nkids >= 2 && cond->kids[0] &&
             cond->kids[1] && cond->kids[0]->kind == SQLSIM_N_COLUMN && cond->kids[1]->kind == SQLSIM_N_COLUMN &&
             g->neq < 64) {
    g->eq[g->neq][0] = cond->kids[0];
    g->eq[g->neq++][1] = cond->kids[1];
  } else if (cond->kind == SQLSIM_N_BINOP && cond->op == SQLSIM_OP_EQ && cond->nkids >= 2 && g->nfixed < 64) {
    for (int side = 0; side < 2; side++)
      if (cond->kids[side] && cond->kids[side]->kind == SQLSIM_N_COLUMN && cond->kids[1 - side] &&
          cond->kids[1 - side]->kind == SQLSIM_N_CONST)
        g->fixed[g->nfixed++] = cond->kids[side];
  }
}

static void collect_from(group_ctx *g, const sqlsim_node *n) {
  if (!n) return;
  if (n->kind == SQLSIM_N_LIST) {
    for (uint32_t i = 0; i < n->nkids; i++) collect_from(g, n->kids[i]);
  } else if (n->kind == SQLSIM_N_JOIN) {
    collect_from(g, n->kids[0]);
    collect_from(g, n->kids[1]);
    if (n->op == SQLSIM_JOIN_INNER && n->nkids > 2) collect_eqs(g, n->kids[2]);
  } else if (n->kind == SQLSIM_N_TABLE && n->table >= 0 && !(n->flags & SQLSIM_F_CTEREF) && g->ntables < 32) {
    g->tables[g->ntables++] = n;
  }
}

/* A table whose primary key (or a UNIQUE column) the groups determine is
 * determined entirely. */
static int table_known(group_ctx *g, const sqlsim_node *t) {
  const sqlsim_table *st = &g->s->tables[t->table];
  int npk = 0, have = 0;
  for (int c = st->first_column; c < st->first_column + st->ncolumns; c++) {
    sqlsim_node probe = {.kind = SQLSIM_N_COLUMN, .source = (sqlsim_node *)t, .column = c};
    int k = is_known(g, &probe);
    if (g->s->columns[c].unique && k) return 1;
    if (g->s->columns[c].pk) npk++, have += k;
  }
  return npk && have == npk;
}

static void close_known(group_ctx *g) {
  for (int changed = 1; changed;) {
    changed = 0;
    for (int i = 0; i < g->neq; i++) {
      if (is_known(g, g->eq[i][0])) changed |= add_known(g, g->eq[i][1]);
      if (is_known(g, g->eq[i][1])) changed |= add_known(g, g->eq[i][0]);
    }
    for (int t = 0; t < g->ntables; t++) {
      int done = 0;
      for (int w = 0; w < g->nwhole; w++) done |= g->whole[w] == g->tables[t];
      if (!done && g->nwhole < 32 && table_known(g, g->tables[t])) g->whole[g->nwhole++] = g->tables[t], changed = 1;
    }
  }
}

/* The GROUP BY item expression k stands for (GROUP BY 2, GROUP BY an alias). */
static const sqlsim_node *group_expr(const sqlsim_node *blk, const sqlsim_node *e) {
  const sqlsim_node *t = blk->kids[SQLSIM_SEL_TARGETS];
  if (!t) return e;
  if (e->kind == SQLSIM_N_CONST && e->op == SQLSIM_CONST_INT) {
    long k = atol(e->text);
    if (k >= 1 && k <= (long)t->nkids && t->kids[k - 1]->nkids) return t->kids[k - 1]->kids[0];
  } else if (e->kind == SQLSIM_N_COLUMN && (e->flags & SQLSIM_F_ALIASREF)) {
    for (uint32_t j = 0; j < t->nkids; j++)
      if (t->kids[j]->text && e->text && !strcmp(t->kids[j]->text, e->text) && t->kids[j]->nkids)
        return t->kids[j]->kids[0];
  }
  return e;
}

static int in_group(const group_ctx *g, const sqlsim_node *blk, const sqlsim_node *e) {
  if (!g->group) return 0;
  for (uint32_t i = 0; i < g->group->nkids; i++)
    if (g->group->kids[i] && !sqlsim_node_cmp(group_expr(blk, g->group->kids[i]), e)) return 1;
  return 0;
}

typedef struct free_walk {
  group_ctx *g;
  const sqlsim_node *blk;
} free_walk;

static int free_pre(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  free_walk *w = ctx;
  if (w->g->free_col) return SQLSIM_WALK_ABORT;
  if (n->kind == SQLSIM_N_SELECT || n->kind == SQLSIM_N_SUBLINK || tree_is_aggregate(n)) return SQLSIM_WALK_PRUNE;
  if (n->kind == SQLSIM_N_FUNC && n->nkids > 2 && n->kids[2]) return SQLSIM_WALK_PRUNE; /* a window function */
  if (in_group(w->g, w->blk, n)) return SQLSIM_WALK_PRUNE;
  if (n->kind == SQLSIM_N_COLUMN && !(n->flags & (SQLSIM_F_OUTER | SQLSIM_F_ALIASREF)) && n->source &&
      n->source->kind == SQLSIM_N_TABLE && n->column >= 0 && !is_known(w->g, n)) {
    w->g->free_col = n;
    return SQLSIM_WALK_ABORT;
  }
  return SQLSIM_WALK_CONTINUE;
}

typedef struct agg_walk {
  int aggregates, minmax;
} agg_walk;

static int agg_pre(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  agg_walk *a = ctx;
  if (n->kind == SQLSIM_N_SELECT || n->kind == SQLSIM_N_SUBLINK) return SQLSIM_WALK_PRUNE;
  if (tree_is_aggregate(n)) {
    a->aggregates++;
    a->minmax += n->text && (!strcmp(n->text, "max") || !strcmp(n->text, "min"));
    return SQLSIM_WALK_PRUNE;
  }
  return SQLSIM_WALK_CONTINUE;
}

/* The first column of blk's select list that its groups do not determine:
 * under GROUP BY, one that is neither grouped nor fixed by what is grouped
 * (a key, through column = column conditions); without GROUP BY, a plain
 * column beside aggregates other than a single MIN or MAX (SQLite takes it
 * from some row). */
static const sqlsim_node *free_column(const sqlsim_node *blk, const sqlsim_schema *s) {
  const sqlsim_node *targets = blk->kids[SQLSIM_SEL_TARGETS], *group = blk->kids[SQLSIM_SEL_GROUP];
  if (!s || !targets || blk->op != SQLSIM_SET_NONE) return NULL;
  if (!group || !group->nkids) {
    agg_walk a = {0};
    for (uint32_t i = 0; i < targets->nkids; i++) sqlsim_walk((sqlsim_node *)targets->kids[i], agg_pre, NULL, &a);
    if (!a.aggregates || (a.aggregates == 1 && a.minmax == 1)) return NULL;
    group = NULL;
  }
  group_ctx *g = calloc(1, sizeof *g);
  if (!g) return NULL;
  g->s = s;
  g->group = group;
  collect_from(g, blk->kids[SQLSIM_SEL_FROM]);
  collect_eqs(g, blk->kids[SQLSIM_SEL_WHERE]);
  for (uint32_t i = 0; group && i < group->nkids; i++)
    if (group->kids[i]) add_known(g, group_expr(blk, group->kids[i]));
  for (int i = 0; i < g->nfixed; i++) add_known(g, g->fixed[i]);
  close_known(g);
  free_walk w = {g, blk};
  for (uint32_t i = 0; i < targets->nkids && !g->free_col; i++) sqlsim_walk((sqlsim_node *)targets->kids[i], free_pre, NULL, &w);
  const sqlsim_node *c = g->free_col;
  free(g);
  return c;
}

/* On the database: groups of the outermost block holding more than one
 * value of the free column (the query's own FROM and WHERE, its GROUP BY,
 * COUNT(DISTINCT col) > 1), printed from a copy of the gold. */
static char *groups_shown(const sqlsim_query *gold, sqlsim_db *db, long *n) {
  sqlsim_query *q = sqlsim_query_clone(gold);
  if (!q) return NULL;
  sqlsim_node *r = q->root, *c = (sqlsim_node *)free_column(r, q->schema);
  char *sql = NULL;
  *n = 0;
  if (c) {
    sqlsim_arena *a = q->arena;
    sqlsim_node *group = r->kids[SQLSIM_SEL_GROUP];
    int ng = group ? (int)group->nkids : 0;
    sqlsim_node *targets = tree_node_new(a, SQLSIM_N_LIST, ng + 1);
    for (int i = 0; i < ng; i++) targets->kids[i] = node_target(a, (sqlsim_node *)group_expr(r, group->kids[i]));
    sqlsim_node *args = tree_node_new(a, SQLSIM_N_LIST, 1);
    args->kids[0] = c;
    sqlsim_node *count = tree_node_new(a, SQLSIM_N_FUNC, 3);
    count->text = "count";
    count->flags = SQLSIM_F_DISTINCT;
    count->kids[0] = args;
    targets->kids[ng] = node_target(a, count);
    sqlsim_node *gt = tree_node_new(a, SQLSIM_N_BINOP, 2);
    gt->op = SQLSIM_OP_GT;
    gt->kids[0] = count;
    gt->kids[1] = node_const_int(a, "1");
    r->kids[SQLSIM_SEL_TARGETS] = targets;
    r->kids[SQLSIM_SEL_HAVING] = gt;
    r->kids[SQLSIM_SEL_ORDER] = r->kids[SQLSIM_SEL_OFFSET] = NULL;
    r->kids[SQLSIM_SEL_LIMIT] = NULL;
    r->flags &= ~(uint32_t)SQLSIM_F_DISTINCT;
    sql = sqlsim_print_sql(r, 0);
    if (sql) *n = count_rows(db, sql);
  }
  sqlsim_query_free(q);
  return sql;
}

typedef struct blocks {
  const sqlsim_node *list[64];
  int n;
} blocks;

static int block_pre(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  blocks *b = ctx;
  if (n->kind == SQLSIM_N_SELECT && b->n < 64) b->list[b->n++] = n;
  return SQLSIM_WALK_CONTINUE;
}

static void group_free(evidence_found *f, const sqlsim_query *gold, const blocks *b, sqlsim_db *db) {
  for (int i = 0; i < b->n; i++) {
    const sqlsim_node *c = free_column(b->list[i], gold->schema);
    if (!c) continue;
    const sqlsim_column *col = &gold->schema->columns[c->column];
    const char *table = gold->schema->tables[col->table].name;
    char what[300];
    int grouped = b->list[i]->kids[SQLSIM_SEL_GROUP] != NULL;
    if (!db || b->list[i] != gold->root) {
      if (db) continue; /* a nested block: its groups are not looked at on the database */
      snprintf(what, sizeof what, "%s.%s is returned %s: nothing in the schema makes it one value per %s", table,
               col->name, grouped ? "but not grouped" : "beside aggregates without GROUP BY",
               grouped ? "group" : "answer");
      evidence_add(f, SQLSIM_AUDIT_GROUP_FREE, W_FORM(SQLSIM_AUDIT_GROUP_FREE), what, NULL);
      continue;
    }
    long n;
    char *sql = groups_shown(gold, db, &n);
    if (sql && n > 0) {
      snprintf(what, sizeof what, "%s.%s is returned %s: %ld %s of the database hold%s several values of it, and "
               "the engine returns one of them", table, col->name,
               grouped ? "but not grouped" : "beside aggregates without GROUP BY", n, grouped ? "groups" : "answer",
               n == 1 && grouped ? "s" : (grouped ? "" : "s"));
      char *rows = rows_member(db, sql, NULL, 0);
      evidence_add(f, SQLSIM_AUDIT_GROUP_FREE, W_DB(SQLSIM_AUDIT_GROUP_FREE), what, rows);
      free(rows);
    }
    free(sql);
  }
}

/* ---------------------------------------------------------------- division */

static int type_int(const char *type) {
  for (const char *p = type; p && *p; p++)
    if (!strncasecmp(p, "int", 3)) return 1;
  return 0;
}

/* Whether e is an integer in every row by its form and the schema's types. */
static int int_valued(const sqlsim_node *e, const sqlsim_schema *s) {
  if (!e) return 0;
  switch (e->kind) {
  case SQLSIM_N_COLUMN:
    return s && e->column >= 0 && e->column < s->ncolumns && type_int(s->columns[e->column].type);
  case SQLSIM_N_CONST:
    return e->op == SQLSIM_CONST_INT;
  case SQLSIM_N_CAST:
    return type_int(e->text);
  case SQLSIM_N_UNOP:
    return e->nkids && int_valued(e->kids[0], s);
  case SQLSIM_N_BINOP:
    if (e->op != SQLSIM_OP_ADD && e->op != SQLSIM_OP_SUB && e->op != SQLSIM_OP_MUL && e->op != SQLSIM_OP_DIV &&
        e->op != SQLSIM_OP_MOD)
      return 0;
    return int_valued(e->kids[0], s) && int_valued(e->kids[1], s);
  case SQLSIM_N_FUNC: {
    if (!e->text) return 0;
    if (!strcmp(e->text, "count") || !strcmp(e->text, "length")) return 1;
    const sqlsim_node *args = e->nkids ? e->kids[0] : NULL;
    if (!args || args->nkids != 1) return 0;
    if (!strcmp(e->text, "sum") || !strcmp(e->text, "max") || !strcmp(e->text, "min") || !strcmp(e->text, "abs"))
      return int_valued(args->kids[0], s);
    return 0;
  }
  default:
    return 0;
  }
}

typedef struct div_walk {
  evidence_found *f;
  const sqlsim_schema *s;
  int found;
} div_walk;

static int div_pre(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  div_walk *w = ctx;
  if (w->found) return SQLSIM_WALK_ABORT;
  if (n->kind == SQLSIM_N_BINOP && n->op == SQLSIM_OP_DIV && n->nkids >= 2 && int_valued(n->kids[0], w->s) &&
      int_valued(n->kids[1], w->s) && !(n->kids[1]->kind == SQLSIM_N_CONST && !strcmp(n->kids[1]->text, "1"))) {
    char *text = sqlsim_print_sql(n, 0);
    char what[400];
    snprintf(what, sizeof what, "%.300s divides an integer by an integer: the engine keeps the integer part (a share "
             "below 1 is 0)", text ? text : "a division");
    free(text);
    evidence_add(w->f, SQLSIM_AUDIT_INT_DIVISION, W_DB(SQLSIM_AUDIT_INT_DIVISION), what, NULL);
    w->found = 1;
    return SQLSIM_WALK_ABORT;
  }
  return SQLSIM_WALK_CONTINUE;
}

/* ---------------------------------------------------------------- the form's checks */

static void check_unordered(evidence_found *f, const sqlsim_query *gold, sqlsim_db *db, int dialect) {
  (void)dialect;
  blocks b = {0};
  sqlsim_walk(gold->root, block_pre, NULL, &b);
  for (int i = 0; i < b.n; i++) limit_unordered(f, gold, b.list[i], db);
}

static void check_ties(evidence_found *f, const sqlsim_query *gold, sqlsim_db *db, int dialect) {
  (void)dialect;
  limit_ties(f, gold, db);
}

static void check_groups(evidence_found *f, const sqlsim_query *gold, sqlsim_db *db, int dialect) {
  (void)dialect;
  blocks b = {0};
  sqlsim_walk(gold->root, block_pre, NULL, &b);
  group_free(f, gold, &b, db);
}

static void check_division(evidence_found *f, const sqlsim_query *gold, sqlsim_db *db, int dialect) {
  (void)db;
  if (dialect == SQLSIM_DIALECT_MYSQL) return; /* MySQL's / divides as decimals */
  div_walk w = {f, gold->schema, 0};
  sqlsim_walk(gold->root, div_pre, NULL, &w);
}

/* ---------------------------------------------------------------- literals */

static void put_literal(strbuf *sb, const char *s) {
  sb_putc(sb, '\'');
  for (; *s; s++) {
    if (*s == '\'') sb_putc(sb, '\'');
    sb_putc(sb, *s);
  }
  sb_putc(sb, '\'');
}

typedef struct lit_walk {
  evidence_found *f;        /* NULL: only count the values the database lacks */
  const sqlsim_schema *s;
  sqlsim_db *db;
  int checked, found, absent;
} lit_walk;

/* Whether column col holds a value that equals lit (like: matches it as a
 * LIKE pattern): 1, 0, or -1 when the query fails. */
static long column_holds(lit_walk *w, const sqlsim_column *c, const char *lit, int like) {
  strbuf sb = {0};
  sb_puts(&sb, "SELECT 1 FROM ");
  sb_ident(&sb, w->s->tables[c->table].name);
  sb_puts(&sb, " WHERE ");
  sb_ident(&sb, c->name);
  sb_puts(&sb, like ? " LIKE " : " = ");
  put_literal(&sb, lit);
  sb_puts(&sb, " LIMIT 1");
  long n = count_rows(w->db, sb.buf);
  free(sb.buf);
  return n;
}

/* Where the database holds a literal the column never equals: in another case
 * or with other spaces, or inside longer values ('Alameda' for 'Alameda
 * County'); each a condition on the column c and the literal l. */
static const struct {
  const char *cond; /* %1$s the column, %2$s the literal */
  const char *how;
} elsewhere[] = {
    {"lower(trim(%1$s)) = lower(trim(%2$s))", "in another case or with other spaces"},
    {"instr(lower(%1$s), lower(%2$s)) > 0", "only inside longer values"},
};

static void check_literal(lit_walk *w, const sqlsim_node *col, const char *lit, int like) {
  if (w->checked >= 8 || w->found || !*lit) return;
  w->checked++;
  const sqlsim_column *c = &w->s->columns[col->column];
  const char *table = w->s->tables[c->table].name;
  long n = column_holds(w, c, lit, like);
  if (n == 0) w->absent++;
  if (n != 0 || !w->f || like) return;
  char *end;
  strtod(lit, &end);
  if (c->numeric && end != lit && !*end) return; /* a number written as text: the value is absent, not its type */
  strbuf name = {0}, value = {0}, sb = {0};
  sb_ident(&name, c->name);
  put_literal(&value, lit);
  char what[400];
  if (c->numeric) { /* a number column compared with text it never holds: a literal of another type */
    sb_printf(&sb, "SELECT DISTINCT %s FROM ", name.buf);
    sb_ident(&sb, table);
    sb_puts(&sb, " LIMIT 6");
    snprintf(what, sizeof what, "%s.%s holds numbers and never equals the text '%.120s'", table, c->name, lit);
  } else {
    size_t k = 0;
    for (; k < sizeof elsewhere / sizeof *elsewhere; k++) {
      sb.len = 0;
      sb_printf(&sb, "SELECT DISTINCT %s FROM ", name.buf);
      sb_ident(&sb, table);
      sb_puts(&sb, " WHERE ");
      sb_printf(&sb, elsewhere[k].cond, name.buf, value.buf);
      sb_puts(&sb, " LIMIT 6");
      if (count_rows(w->db, sb.buf) > 0) break;
    }
    if (k == sizeof elsewhere / sizeof *elsewhere) {
      free(name.buf), free(value.buf), free(sb.buf);
      return;
    }
    snprintf(what, sizeof what, "%s.%s never equals '%.120s'; the database holds it %s", table, c->name, lit,
             elsewhere[k].how);
  }
  char *rows = rows_member(w->db, sb.buf, NULL, 0);
  evidence_add(w->f, SQLSIM_AUDIT_LITERAL_CASE, W_DB(SQLSIM_AUDIT_LITERAL_CASE), what, rows);
  free(rows);
  free(name.buf), free(value.buf), free(sb.buf);
  w->found = 1;
}

/* A column of a table in FROM (a text column, unless any_type: a number
 * column compared with text holds that text no more). */
static const sqlsim_node *table_column(const sqlsim_node *n, const sqlsim_schema *s, int any_type) {
  if (!n || n->kind != SQLSIM_N_COLUMN || n->column < 0 || n->column >= s->ncolumns || !n->source ||
      n->source->kind != SQLSIM_N_TABLE || (s->columns[n->column].numeric && !any_type))
    return NULL;
  return n;
}

static const char *text_literal(const sqlsim_node *n) {
  return n && n->kind == SQLSIM_N_CONST && n->op == SQLSIM_CONST_STRING && n->text ? n->text : NULL;
}

static int lit_pre(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  lit_walk *w = ctx;
  if (w->found) return SQLSIM_WALK_ABORT;
  if (n->kind == SQLSIM_N_BINOP && n->op == SQLSIM_OP_EQ && n->nkids >= 2) {
    for (int side = 0; side < 2; side++) {
      const sqlsim_node *c = table_column(n->kids[side], w->s, 1);
      const char *lit = text_literal(n->kids[1 - side]);
      if (c && lit) check_literal(w, c, lit, 0);
    }
  } else if (n->kind == SQLSIM_N_BINOP && n->op == SQLSIM_OP_LIKE && n->nkids >= 2 && !w->f) {
    const sqlsim_node *c = table_column(n->kids[0], w->s, !w->f);
    const char *lit = text_literal(n->kids[1]);
    if (c && lit) check_literal(w, c, lit, 1);
  } else if (n->kind == SQLSIM_N_IN && !(n->flags & SQLSIM_F_NOT) && n->nkids >= 2 && n->kids[1] &&
             n->kids[1]->kind == SQLSIM_N_LIST) {
    const sqlsim_node *c = table_column(n->kids[0], w->s, 1);
    for (uint32_t i = 0; c && i < n->kids[1]->nkids; i++) {
      const char *lit = text_literal(n->kids[1]->kids[i]);
      if (lit) check_literal(w, c, lit, 0);
    }
  }
  return SQLSIM_WALK_CONTINUE;
}

static void check_literals(evidence_found *f, const sqlsim_query *gold, sqlsim_db *db, int dialect) {
  (void)dialect;
  if (!gold || !gold->root || !gold->schema || !db || sqlsim_db_engine(db) != SQLSIM_ENGINE_SQLITE) return;
  lit_walk w = {f, gold->schema, db, 0, 0, 0};
  sqlsim_walk(gold->root, lit_pre, NULL, &w);
}

int evidence_absent_values(const sqlsim_query *q, sqlsim_db *db) {
  if (!q || !q->root || !q->schema || !db || sqlsim_db_engine(db) != SQLSIM_ENGINE_SQLITE) return 0;
  lit_walk w = {NULL, q->schema, db, 0, 0, 0};
  sqlsim_walk(q->root, lit_pre, NULL, &w);
  return w.absent;
}
