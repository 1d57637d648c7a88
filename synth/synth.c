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
#define EXTRA_DATABASES 6 /* strict: databases of other seeds when nothing else told them apart */
#define DEFAULT_SEED 0x5eed5eedULL
#define DEFAULT_TIMEOUT 2.0
#define MAX_ROWS_RESULT 200000L

typedef synth_slot slot;

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
  const exec_target *engine; /* the pair's engine (synth_runner_engine), NULL: SQLite judges */
  char *engine_db;       /* the db_id of its database there */
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
  synth_mirror_clear(&s->mirror);
  sqlsim_db_close(s->db);
  synth_checks_free(s->checks);
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

int synth_slot_image(sqlsim_synth_runner *x, synth_slot *sl, const unsigned char *img, sqlite3_int64 len,
                     const unsigned char *filled) {
  (void)x;
  void *saved;
  exec_enter(sl->db, 10, &saved);
  int bad = exec_writable(sl->db, 1);
  unsigned char *m = bad ? NULL : sqlite3_malloc64((sqlite3_uint64)len);
  if (m) {
    memcpy(m, img, (size_t)len);
    bad = sqlite3_deserialize(exec_handle(sl->db), "main", m, len, len,
                              SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE) != SQLITE_OK;
    if (!bad) memcpy(sl->filled, filled, (size_t)sl->ntables);
  } else {
    bad = 1;
  }
  if (exec_writable(sl->db, 0)) { /* it must never run model SQL writable */
    exec_leave(sl->db, saved);
    slot_clear(sl);
    return -1;
  }
  exec_leave(sl->db, saved);
  return bad ? -1 : 0;
}

int synth_slot_fill(sqlsim_synth_runner *x, synth_slot *sl, const synth_facts *f, const synth_shape *sh, char *why,
                    size_t wn) {
  (void)x;
  void *saved;
  exec_enter(sl->db, 10, &saved);
  long rows = exec_writable(sl->db, 1) ? -1 : synth_fill(exec_handle(sl->db), f, sh, sl->filled, why, wn);
  if (exec_writable(sl->db, 0)) {
    exec_leave(sl->db, saved);
    slot_clear(sl);
    snprintf(why, wn, "the in-memory database cannot be made read-only again");
    return -1;
  }
  exec_leave(sl->db, saved);
  return rows < 0 ? -1 : 0;
}

const synth_checks *synth_slot_checks(const synth_slot *sl) { return sl->checks; }
const sqlsim_synth_opts *synth_runner_opts(const sqlsim_synth_runner *x) { return &x->o; }

void sqlsim_synth_runner_free(sqlsim_synth_runner *x) {
  if (!x) return;
  kept_clear(&x->kept);
  for (int i = 0; i < VERDICT_SLOTS; i++) verdict_clear(&x->verdicts[i]);
  for (int i = 0; i < RUNNER_SLOTS; i++) slot_clear(&x->slots[i]);
  for (int i = 0; i < SUITE_SLOTS; i++) synth_suite_free(x->suites[i]);
  free(x->engine_db);
  free(x);
}

int synth_runner_engine(sqlsim_synth_runner *x, const exec_target *t, const char *db_id) {
  if (!t) db_id = NULL;
  if (x->engine == t && ((!db_id && !x->engine_db) || (db_id && x->engine_db && !strcmp(db_id, x->engine_db)))) return 0;
  free(x->engine_db);
  x->engine = t;
  x->engine_db = db_id ? strdup(db_id) : NULL;
  return db_id && !x->engine_db ? -1 : 0;
}

/* The runner's connection for schema s, created with its tables if new. */
synth_slot *synth_slot_for(sqlsim_synth_runner *x, const sqlsim_schema *s, sqlsim_error *err) {
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
      if (synth_mirror_bind(&x->slots[i].mirror, x->engine, x->engine_db, s, &x->eo, err)) return NULL;
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
  sqlsim_error made = {0};
  int bad = exec_writable(db, 1);
  bad |= sqlsim_schema_create_tables(exec_handle(db), s, NULL, &made) != 0;
  bad |= exec_writable(db, 0);
  exec_leave(db, saved);
  if (bad) {
    sqlsim_error_set(err, SQLSIM_ESQLITE, -1, "cannot create the tables of '%s' in memory: %s",
                     s->db_id ? s->db_id : "?", made.message[0] ? made.message : "the connection cannot be written");
    free(ddl);
    sqlsim_db_close(db);
    return NULL;
  }
  lru->ddl = ddl;
  lru->ntables = s->ntables;
  lru->db = db;
  lru->checks = synth_checks_make(s);
  lru->filled = calloc((size_t)s->ntables + 1, 1);
  lru->used = ++x->tick;
  if (!lru->filled) {
    slot_clear(lru);
    sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
    return NULL;
  }
  exec_set_user(db, &lru->mirror); /* its queries run where the mirror says (mirror.c) */
  if (synth_mirror_bind(&lru->mirror, x->engine, x->engine_db, s, &x->eo, err)) {
    slot_clear(lru);
    return NULL;
  }
  return lru;
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
  /* which databases tell the gold from its neighbors is chosen on SQLite (a
   * few hundred runs of printed SQL); the pairs are judged on them where the
   * engine is (mirror.c) */
  sl->mirror.paused = 1;
  x->suites[lru] = synth_suite_build(e, gold, gold_text, x->o.seed);
  sl->mirror.paused = 0;
  if (x->suites[lru] && sl->mirror.engine) synth_suite_regold(e, x->suites[lru]); /* its answers: the engine's */
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

/* ---------------------------------------------------------------- one pair (sqlsim_synth_trees) */

/* What the stages of one pair's run share: the pair's texts as run, its
 * databases' facts, the synth verdict's counts, and what strict and the
 * witness keep as they go. */
typedef struct pair_run {
  sqlsim_synth_runner *x;
  slot *sl;
  const sqlsim_schema *s;
  const sqlsim_query *gold, *pred; /* pred: NULL, or parsed with the gold's schema */
  const char *gold_sql, *pred_sql;
  synth_facts *f;
  char *gtext, *ptext;     /* as run (Spider's execution text, or as written for BIRD) */
  int bird, ordered, gold_agg;
  char *keyed, *pkeyed;    /* the gold and the prediction with their sort keys (ties) */
  int keyed_done, nkeys, pnkeys;
  long limit, offset, plimit, poffset;
  int empty, zero, ran;    /* databases where the gold matched nothing, an aggregate over nothing, ran */
  double pred_s;           /* the prediction's time over the databases so far */
  synth_env env;
  int strict, wit;
  /* the strict verdict and the witnesses: the pair's own databases that tell
   * the two apart (the first one the schema allows), then the gold's suite */
  synth_data *strict_data, *synth_fail; /* the evidence, for the witness */
  synth_data *own[PAIR_SEEDS];          /* the pair's first databases, for its own search */
  int nown, strict_found, answered;     /* strict: databases judged where the gold returned a row */
  char synth_runaway[256];              /* the prediction's error on synth_fail, when it ran past its limits */
  char strict_runaway[256];             /* the same on strict_data (env.runaway when it was found) */
  sqlsim_synth *out;
} pair_run;

/* Strict's difference found on the database now on the connection (k,
 * 0-based), when the schema allows that database: kept, with its reason. */
static void strict_found_here(pair_run *pr, int k, const sqlsim_result *g, const sqlsim_result *p, int empty) {
  if (!(pr->strict_data = valid_now(&pr->env, pr->f->tables))) return;
  pr->strict_found = 1;
  snprintf(pr->strict_runaway, sizeof pr->strict_runaway, "%s", pr->env.runaway);
  sqlsim_synth *out = pr->out;
  if (empty)
    snprintf(out->strict_why, sizeof out->strict_why, "database %d: the gold %s, the prediction %s", k + 1,
             g->nrows ? "returns only NULLs" : "returns nothing",
             p->status != SQLSIM_EXEC_OK ? "fails" : p->nrows ? "returns rows" : "answers otherwise");
  else if (p->status != SQLSIM_EXEC_OK)
    snprintf(out->strict_why, sizeof out->strict_why, "database %d: the prediction fails: %.200s", k + 1, p->reason);
  else
    snprintf(out->strict_why, sizeof out->strict_why, "database %d: %ld rows x %d columns, the gold %ld x %d", k + 1,
             p->nrows, p->ncols, g->nrows, g->ncols);
}

/* A gold that matched nothing on database k: it does not count for synth;
 * for strict it does (the prediction must match nothing too). */
static void judge_empty_gold(pair_run *pr, int k, const sqlsim_result *g) {
  pr->empty++;
  if (!pr->strict || pr->strict_found) return;
  sqlsim_result p;
  synth_exec(pr->sl->db, pr->ptext, SQLSIM_EXEC_VALUES, &p);
  pr->out->strict_databases++;
  pr->answered += g->nrows > 0;
  if (synth_judge_strict(&pr->env, g, &p) == SYNTH_DIFFER) strict_found_here(pr, k, g, &p, 1);
  sqlsim_result_free(&p);
}

/* Whether the prediction's answer p agrees with the gold's g on database
 * k, and whether ties at a LIMIT set the database aside (*set_aside). A
 * disagreement is looked at again through the sort keys (the gold's, and the
 * prediction's where it takes one top row of the gold's top rows). */
static int agrees(pair_run *pr, const sqlsim_result *g, const sqlsim_result *p, int *set_aside, int *stop) {
  int ok = p->status == SQLSIM_EXEC_OK && synth_same_answer(pr->bird, pr->ordered, g, p);
  *set_aside = 0;
  if (ok || p->status != SQLSIM_EXEC_OK) return ok;
  if (!pr->keyed_done) {
    pr->keyed = synth_keyed_query(pr->gold, &pr->limit, &pr->offset, &pr->nkeys);
    pr->pkeyed = synth_top_row_of_top_rows(pr->gold, pr->pred)
                     ? synth_keyed_query(pr->pred, &pr->plimit, &pr->poffset, &pr->pnkeys)
                     : NULL;
    pr->keyed_done = 1;
  }
  double spent;
  int tie = pr->keyed ? synth_tie_kind(pr->sl->db, pr->keyed, pr->limit, pr->offset, pr->nkeys, &spent) : TIE_NONE;
  if (tie == TIE_LIMIT) *set_aside = 1;
  else if (tie == TIE_ORDER && !pr->bird) ok = synth_same_answer(0, 0, g, p);
  /* the top row for the rows at the top (synth_top_row_of_top_rows), where
   * several rows share the top; this run of the prediction's own SQL counts
   * towards its time like the other */
  if (!*set_aside && pr->pkeyed) {
    *set_aside = synth_tie_kind(pr->sl->db, pr->pkeyed, pr->plimit, pr->poffset, pr->pnkeys, &spent) == TIE_LIMIT;
    pr->pred_s += spent;
    *stop |= pr->pred_s > pr->x->o.timeout_s;
  }
  return ok;
}

/* Database k, where the gold returned a value: the prediction run and
 * judged for synth (informative, agreeing, set aside) and for strict. 1 when
 * the prediction must not run on the next databases (past its limits). */
static int judge_database(pair_run *pr, int k, const sqlsim_result *g) {
  sqlsim_synth *out = pr->out;
  sqlsim_synth_runner *x = pr->x;
  sqlsim_result p;
  synth_exec(pr->sl->db, pr->ptext, SQLSIM_EXEC_VALUES, &p);
  pr->pred_s += p.total_s;
  /* a prediction past its limits, or past the time limit over all databases
   * together, is not run on the next ones: one pair costs about two limits
   * at most, however many databases */
  int stop = p.status == SQLSIM_EXEC_TIMEOUT || p.status == SQLSIM_EXEC_TOO_BIG || pr->pred_s > x->o.timeout_s;
  int set_aside;
  int ok = agrees(pr, g, &p, &set_aside, &stop);
  if (pr->strict && !pr->strict_found) {
    int v = ok                                                            ? SYNTH_SAME
            : set_aside && !synth_differs_however_tied(&pr->env, g, &p) ? SYNTH_TIED
                                                                         : synth_judge_strict(&pr->env, g, &p);
    if (v == SYNTH_DIFFER) snprintf(pr->env.runaway, sizeof pr->env.runaway, "%s", synth_ran_away(&p) ? p.reason : "");
    out->strict_databases += v != SYNTH_TIED;
    pr->answered += v != SYNTH_TIED;
    if (v == SYNTH_DIFFER) strict_found_here(pr, k, g, &p, 0);
  }
  if (set_aside) {
    out->ties++;
  } else if (ok && pr->gold_agg && synth_nothing_counted(g)) {
    /* an aggregate over nothing: agreeing is no evidence (disagreeing is) */
    pr->empty++;
    pr->zero++;
  } else {
    out->informative++;
    out->agree += ok;
    if (x->keep && k < x->kept.n) x->kept.told[k] = ok ? KEPT_SAME : KEPT_TOLD;
    if (!ok && out->informative - out->agree == 1) {
      if (pr->wit && !pr->synth_fail) {
        if (synth_data_read(exec_handle(pr->sl->db), pr->s, pr->sl->filled, &pr->synth_fail)) pr->synth_fail = NULL;
        snprintf(pr->synth_runaway, sizeof pr->synth_runaway, "%s", synth_ran_away(&p) ? p.reason : "");
      }
      if (p.status != SQLSIM_EXEC_OK)
        snprintf(out->why, sizeof out->why, "database %d: the prediction fails: %.200s", k + 1, p.reason);
      else
        snprintf(out->why, sizeof out->why, "database %d: %ld rows x %d columns, the gold %ld x %d", k + 1, p.nrows,
                 p.ncols, g->nrows, g->ncols);
    }
  }
  sqlsim_result_free(&p);
  return stop;
}

/* The K databases of the pair, made and judged in turn. 0, or a negative
 * code when one could not be made. */
static int run_databases(pair_run *pr, sqlsim_error *err) {
  sqlsim_synth *out = pr->out;
  sqlsim_synth_runner *x = pr->x;
  int nk = x->o.databases;
  out->databases = nk;
  for (int k = 0; k < nk; k++) {
    double t0 = now_s();
    int rc = make_database(x, pr->sl, pr->f, k, 0, pr->gold_sql, pr->pred_sql, err);
    double t1 = now_s();
    out->gen_s += t1 - t0;
    if (rc) return rc;
    sqlsim_result g;
    synth_exec(pr->sl->db, pr->gtext, SQLSIM_EXEC_VALUES, &g);
    if (g.status != SQLSIM_EXEC_OK) {
      if (!out->gold_failed++)
        snprintf(out->why, sizeof out->why, "the gold fails on database %d: %.200s", k + 1, g.reason);
      int runaway = g.status == SQLSIM_EXEC_TIMEOUT || g.status == SQLSIM_EXEC_TOO_BIG;
      sqlsim_result_free(&g);
      out->exec_s += now_s() - t1;
      if (runaway) { /* it would be the same on the next ones: stop here */
        out->databases = k + 1;
        return 0;
      }
      continue;
    }
    pr->ran++;
    if (pr->strict && pr->nown < PAIR_SEEDS &&
        !synth_data_read(exec_handle(pr->sl->db), pr->s, pr->sl->filled, &pr->own[pr->nown]))
      pr->nown++;
    int stop = 0;
    if (!synth_informative(&g)) judge_empty_gold(pr, k, &g);
    else stop = judge_database(pr, k, &g);
    sqlsim_result_free(&g);
    out->exec_s += now_s() - t1;
    if (stop && k + 1 < nk) {
      out->databases = k + 1;
      if (!out->why[0])
        snprintf(out->why, sizeof out->why, "stopped after database %d: the prediction ran %.1f s, over the %g s limit "
                 "for all databases together", k + 1, pr->pred_s, x->o.timeout_s);
      return 0;
    }
  }
  return 0;
}

/* The synth verdict from the counts: graded, pass, or why nothing counted. */
static void synth_verdict(pair_run *pr) {
  sqlsim_synth *out = pr->out;
  if (out->informative) {
    out->graded = (double)out->agree / out->informative;
    out->pass = out->agree == out->informative;
  } else if (pr->ran) {
    out->gold_empty = pr->empty == pr->ran;
    if (out->gold_empty && !out->why[0] && pr->zero)
      snprintf(out->why, sizeof out->why,
               "the gold matched nothing on any of the %d databases (no rows, or %d times an aggregate over no "
               "rows, on which the prediction agreed)",
               out->databases, pr->zero);
    else if (out->gold_empty && !out->why[0])
      snprintf(out->why, sizeof out->why, "the gold returned no rows on any of the %d databases", out->databases);
    else if (!out->why[0])
      snprintf(out->why, sizeof out->why, "every database was set aside (ties at a LIMIT)");
  }
}

/* d with its NULLs (in the tables tables[] marks) given values: each the
 * value of its column in the nearest row that holds one, else 0, '0' or a
 * CHECK's first value; NULL when some NULL cannot be given one. */
static synth_data *nulls_filled(const synth_data *d, const synth_facts *f) {
  const sqlsim_schema *s = d->s;
  synth_data *c = synth_data_copy(d);
  for (int t = 0; c && t < s->ntables; t++) {
    int nc = s->tables[t].ncolumns;
    for (int i = 0; i < nc; i++) {
      int col = s->tables[t].first_column + i, integer = core_type_affinity(s->columns[col].type) == 'I';
      for (int r = 0; r < c->nrows[t]; r++) {
        synth_val *v = &synth_data_row(c, t, r)[i];
        if (v->kind != 'n') continue;
        for (int k = 1; k < c->nrows[t] && v->kind == 'n'; k++) {
          const synth_val *w = &synth_data_row(c, t, (r + k) % c->nrows[t])[i];
          if (w->kind != 'n') *v = *w;
        }
        if (v->kind == 'n') *v = synth_numeric_column(&s->columns[col]) || integer ? (synth_val){.kind = 'i', .i = 0}
                                                                               : (synth_val){.kind = 't', .t = "0"};
        if (!synth_check_conform(f->checks, col, r, integer, c->a, v) || v->kind == 'n') {
          synth_data_free(c);
          return NULL;
        }
      }
    }
  }
  return c;
}

/* Strict refuted through a database holding a NULL: a refutation without
 * one, looked for in turn on that database with its NULLs given values, on
 * the gold's suite's databases that hold none, and by the pair's own search
 * with NULLs ruled out (on its databases that hold none). 1 with it in
 * pr->strict_data (the witness is made from it); 0 when none is found: the
 * refutation needs a NULL. */
static int refute_without_nulls(pair_run *pr) {
  synth_env *e = &pr->env;
  const unsigned char *read = pr->f->tables;
  synth_data *d = nulls_filled(pr->strict_data, pr->f);
  if (d && synth_env_tells(e, d, pr->gtext, pr->ptext) == 1) goto found;
  synth_data_free(d);
  d = NULL;
  synth_suite *st = suite_for(pr->x, pr->sl, e, pr->gold, pr->gtext);
  for (int i = 0; st && i < st->ndbs; i++) {
    if (synth_data_holds_null(st->dbs[i], read)) continue;
    st->dbs[i]->s = pr->s;
    if (synth_env_tells(e, st->dbs[i], pr->gtext, pr->ptext) == 1) {
      d = synth_data_copy(st->dbs[i]);
      if (d) goto found;
    }
  }
  synth_data *seeds[PAIR_SEEDS];
  int n = 0;
  for (int i = 0; i < pr->nown; i++)
    if (!synth_data_holds_null(pr->own[i], read)) seeds[n++] = pr->own[i];
  int judged, with_rows, was = pr->f->no_nulls;
  char why[256];
  pr->f->no_nulls = 1;
  int hit = synth_search_pair(e, seeds, n, pr->f, pr->gtext, pr->ptext, &d, &judged, &with_rows, why, sizeof why);
  pr->f->no_nulls = was;
  if (!hit) return 0;
found:
  for (int t = 0; t < pr->s->ntables; t++) d->on[t] |= read[t];
  synth_data_free(pr->strict_data);
  pr->strict_data = d;
  snprintf(pr->strict_runaway, sizeof pr->strict_runaway, "%s", e->runaway);
  return 1;
}

/* Strict with nothing found on the pair's databases, the suite or the pair's
 * own search: EXTRA_DATABASES more databases generated for the pair (the
 * same shapes, other seeds: the gold may have matched nothing on the first
 * ones, or the coincidence that tells them apart not have come up), each
 * judged as the pair's own are; those where the gold returned a row then
 * seed one more search of the pair's own. 1 when a database refutes
 * (pr->strict_data). Within the strict stages' time. */
static int extra_databases(pair_run *pr) {
  sqlsim_synth_runner *x = pr->x;
  sqlsim_synth *out = pr->out;
  synth_data *seeds[PAIR_SEEDS] = {0};
  int nseeds = 0, found = 0;
  sqlsim_error err = {0};
  for (int k = x->o.databases; k < x->o.databases + EXTRA_DATABASES && !found; k++) {
    if (pr->env.strict_s > SYNTH_STRICT_TIME * x->o.timeout_s) break;
    if (make_database(x, pr->sl, pr->f, k, 0, NULL, NULL, &err)) break;
    synth_env_forget(&pr->env);
    sqlsim_result g, p;
    synth_exec(pr->sl->db, pr->gtext, SQLSIM_EXEC_VALUES, &g);
    pr->env.strict_s += g.total_s;
    if (g.status != SQLSIM_EXEC_OK) {
      sqlsim_result_free(&g);
      continue;
    }
    synth_exec(pr->sl->db, pr->ptext, SQLSIM_EXEC_VALUES, &p);
    pr->env.strict_s += p.total_s;
    int v = synth_judge_strict(&pr->env, &g, &p);
    out->strict_databases += v != SYNTH_TIED;
    pr->answered += v != SYNTH_TIED && g.nrows > 0;
    if (v == SYNTH_DIFFER) {
      strict_found_here(pr, k, &g, &p, !synth_informative(&g));
      found = pr->strict_found;
    }
    if (!found && nseeds < PAIR_SEEDS && synth_informative(&g) &&
        !synth_data_read(exec_handle(pr->sl->db), pr->s, pr->sl->filled, &seeds[nseeds]))
      nseeds++;
    sqlsim_result_free(&g);
    sqlsim_result_free(&p);
  }
  if (!found && nseeds) {
    int judged, with_rows;
    synth_data *d;
    if (synth_search_pair(&pr->env, seeds, nseeds, pr->f, pr->gtext, pr->ptext, &d, &judged, &with_rows,
                          out->strict_why, sizeof out->strict_why)) {
      found = pr->strict_found = 1;
      snprintf(pr->strict_runaway, sizeof pr->strict_runaway, "%s", pr->env.runaway);
      pr->strict_data = d;
      for (int t = 0; t < pr->s->ntables; t++) d->on[t] |= pr->f->tables[t];
    }
    out->strict_databases += judged;
    pr->answered += with_rows;
  }
  for (int i = 0; i < nseeds; i++) synth_data_free(seeds[i]);
  return found;
}

/* The solver stage (solver.c) when the search found nothing: its database,
 * replayed here and judged as any database is, refutes; a model that does
 * not replay is this encoding's defect (said in out->solver), never a
 * verdict. Without a refutation, the bound it reached. */
static void solver_stage(pair_run *pr) {
  sqlsim_synth *out = pr->out;
  const sqlsim_synth_opts *o = &pr->x->o;
  if (o->no_solver) {
    snprintf(out->solver, sizeof out->solver, "not checked by the solver: --no-solver");
    return;
  }
  if (!strcmp(pr->gtext, pr->ptext)) { /* the same text as run answers the same on every database */
    out->bound = SYNTH_SOLVER_MAX_K;
    snprintf(out->solver, sizeof out->solver, "the gold's own text: the same answer on every database (bound %d stated)",
             SYNTH_SOLVER_MAX_K);
    return;
  }
  synth_solved sv;
  synth_solve(pr->s, pr->gtext, pr->ptext,
              (pr->bird ? SYNTH_SOLVE_SETS : 0) | (pr->bird != 1 ? SYNTH_SOLVE_ANY_ORDER : 0) |
                  (o->assume_not_null ? SYNTH_SOLVE_NO_NULLS : 0) | (pr->ordered ? SYNTH_SOLVE_ORDERED : 0),
              o->solver_budget_s > 0 ? o->solver_budget_s : SYNTH_SOLVER_BUDGET, &sv);
  out->solver_s = sv.seconds;
  if (sv.status == SYNTH_SOLVE_REFUTED) {
    synth_env_forget(&pr->env);
    int told = synth_env_tells(&pr->env, sv.data, pr->gtext, pr->ptext);
    if (told == 1) {
      pr->strict_found = 1;
      out->by_solver = 1;
      for (int t = 0; t < pr->s->ntables; t++) sv.data->on[t] |= pr->f->tables[t];
      pr->strict_data = sv.data;
      snprintf(pr->strict_runaway, sizeof pr->strict_runaway, "%s", pr->env.runaway);
      snprintf(out->strict_why, sizeof out->strict_why, "solver: %.180s", sv.why);
      snprintf(out->solver, sizeof out->solver, "refuted: %.180s", sv.why);
      return;
    }
    synth_data_free(sv.data);
    snprintf(out->solver, sizeof out->solver, "defect: the solver's database (%d rows per table) did not %s", sv.k,
             told == 0 ? "tell the two apart when run" : "load or run");
    if (sv.bound) out->bound = sv.bound;
    return;
  }
  if (sv.status == SYNTH_SOLVE_BOUNDED && pr->ordered && !sv.one_row) { /* the order counts */
    if (sv.order_bound > 0) {
      out->bound = sv.order_bound;
      snprintf(out->solver, sizeof out->solver, "no counterexample up to %d rows per table, rows compared in order",
               sv.order_bound);
    } else
      snprintf(out->solver, sizeof out->solver,
               "not checked by the solver: the answers' order counts (ORDER BY); as multisets %.100s", sv.why);
    return;
  }
  if (sv.status == SYNTH_SOLVE_BOUNDED) out->bound = sv.bound;
  snprintf(out->solver, sizeof out->solver, "%s%.160s", sv.status == SYNTH_SOLVE_BOUNDED ? "" : "not checked by the solver: ",
           sv.why);
}

/* The strict stages after the pair's databases: the gold's distilled suite,
 * then the pair's own search; the strict verdict. */
static void strict_verdict(pair_run *pr) {
  sqlsim_synth *out = pr->out;
  sqlsim_synth_runner *x = pr->x;
  const sqlsim_schema *s = pr->s;
  synth_suite *st = pr->strict_found ? NULL : suite_for(x, pr->sl, &pr->env, pr->gold, pr->gtext);
  if (st) {
    suite_rebind(st, s);
    int judged, with_rows;
    int at = synth_suite_judge(&pr->env, st, pr->ptext, &judged, &with_rows, out->strict_why, sizeof out->strict_why);
    out->strict_databases += judged;
    pr->answered += with_rows;
    if (at >= 0) {
      pr->strict_found = 1;
      snprintf(pr->strict_runaway, sizeof pr->strict_runaway, "%s", pr->env.runaway);
      pr->strict_data = synth_data_copy(st->dbs[at]); /* the witness's start, and whether a NULL is needed */
      if (pr->strict_data)
        for (int t = 0; t < s->ntables; t++) pr->strict_data->on[t] |= pr->f->tables[t];
    }
  }
  /* the pair's own search: not for the gold's own text or form */
  if (!pr->strict_found && strcmp(pr->gtext, pr->ptext) &&
      !same_form(pr->gold, pr->pred, pr->bird, x->o.keep_distinct)) {
    int judged, with_rows;
    synth_data *d;
    if (synth_search_pair(&pr->env, pr->own, pr->nown, pr->f, pr->gtext, pr->ptext, &d, &judged, &with_rows,
                          out->strict_why, sizeof out->strict_why)) {
      pr->strict_found = 1;
      snprintf(pr->strict_runaway, sizeof pr->strict_runaway, "%s", pr->env.runaway);
      pr->strict_data = d;
      for (int t = 0; t < s->ntables; t++) pr->strict_data->on[t] |= pr->f->tables[t];
    }
    out->strict_databases += judged;
    pr->answered += with_rows;
  }
  /* more databases, other seeds: not for the gold's own text or form either */
  if (!pr->strict_found && strcmp(pr->gtext, pr->ptext) &&
      !same_form(pr->gold, pr->pred, pr->bird, x->o.keep_distinct))
    extra_databases(pr);
  /* the solver: a database of at most k rows per table, or the bound k */
  if (!pr->strict_found) solver_stage(pr);
  if (st || pr->strict_found) {
    st = st ? st : suite_for(x, pr->sl, &pr->env, pr->gold, pr->gtext);
    if (st) {
      out->suite = st->ndbs;
      out->neighbors = st->neighbors;
      out->told = st->told;
    }
  }
  /* a pass needs a database where the gold answered (agreeing on nothing
   * everywhere is no evidence), and the stages run to their end */
  int stopped = !pr->strict_found && pr->env.strict_s > SYNTH_STRICT_TIME * x->o.timeout_s;
  out->strict = pr->strict_found ? 0 : pr->answered && !stopped ? 1 : -1;
  /* is a NULL needed? (the refuting database is kept only with witnesses) */
  out->needs_null = -1;
  if (pr->strict_found)
    out->needs_null = pr->strict_data && synth_data_holds_null(pr->strict_data, pr->f->tables) ? !refute_without_nulls(pr)
                      : pr->strict_data ? 0
                                        : -1;
  if (stopped)
    snprintf(out->strict_why, sizeof out->strict_why,
             "stopped: the strict stages ran queries for %.1f s, past %g times the %g s limit", pr->env.strict_s,
             (double)SYNTH_STRICT_TIME, x->o.timeout_s);
  if (out->strict < 0 && !out->strict_why[0])
    snprintf(out->strict_why, sizeof out->strict_why,
             out->strict_databases ? "the gold returned no rows on any of the %d databases judged"
                                   : "the gold ran on no database",
             out->strict_databases);
}

/* The witness of the failing verdict: strict's, else synth's (taken over). */
static void make_witness(pair_run *pr) {
  sqlsim_synth *out = pr->out;
  if (pr->strict_found && pr->strict_data) {
    out->witness = synth_witness_make(&pr->env, pr->strict_data, pr->gtext, pr->ptext, 0, "strict", pr->f->tables,
                                      pr->strict_runaway);
    pr->strict_data = NULL;
  } else if (out->pass == 0 && pr->synth_fail) {
    out->witness = synth_witness_make(&pr->env, pr->synth_fail, pr->gtext, pr->ptext, 1, "synth", pr->f->tables,
                                      pr->synth_runaway);
    pr->synth_fail = NULL;
  }
}

static void pair_run_free(pair_run *pr) {
  synth_data_free(pr->strict_data);
  synth_data_free(pr->synth_fail);
  for (int i = 0; i < pr->nown; i++) synth_data_free(pr->own[i]);
  synth_env_done(&pr->env);
  free(pr->keyed);
  free(pr->pkeyed);
  free(pr->gtext);
  free(pr->ptext);
  synth_facts_free(pr->f);
}

int sqlsim_synth_trees(sqlsim_synth_runner *x, const sqlsim_query *gold, const char *gold_sql,
                       const sqlsim_query *pred, const char *pred_sql, sqlsim_synth *out, sqlsim_error *err) {
  memset(out, 0, sizeof *out);
  out->graded = NAN;
  out->pass = -1;
  if (!gold || !gold->schema || !gold_sql || !pred_sql)
    return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "synthetic execution needs the gold parsed with its schema");
  const sqlsim_schema *s = gold->schema;
  slot *sl = synth_slot_for(x, s, err);
  if (!sl) return err ? err->code : SQLSIM_ESQLITE;
  if (verdict_find(x, sl, gold_sql, pred_sql, out)) return 0;
  pair_run pr = {.x = x, .sl = sl, .s = s, .gold = gold, .pred = pred && pred->schema == s ? pred : NULL,
                 .gold_sql = gold_sql, .pred_sql = pred_sql, .bird = x->o.bird, .strict = x->o.strict,
                 .wit = x->o.witness, .out = out};
  if (!(pr.f = synth_facts_read(s, gold, pr.pred)))
    return sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
  pr.f->checks = sl->checks;
  pr.f->no_nulls = x->o.assume_not_null;
  pr.gtext = pr.bird ? strdup(gold_sql) : sqlsim_spider_exec_text_opts(gold_sql, x->o.keep_distinct);
  pr.ptext = pr.bird ? strdup(pred_sql) : sqlsim_spider_exec_text_opts(pred_sql, x->o.keep_distinct);
  pr.ordered = !pr.bird && sqlsim_spider_order_matters(pr.gtext);
  pr.gold_agg = synth_one_row_aggregate(gold);
  pr.limit = pr.offset = pr.plimit = pr.poffset = -1;
  pr.env = (synth_env){.db = sl->db, .filled = sl->filled, .s = s, .bird = pr.bird,
                       .keep_distinct = x->o.keep_distinct, .checks = sl->checks,
                       .no_nulls = x->o.assume_not_null, .gold = gold,
                       .ordered = pr.ordered, .limit_s = x->o.timeout_s};
  out->strict = -1;
  out->bound = -1;
  int rc = run_databases(&pr, err);
  if (!rc) {
    synth_verdict(&pr);
    if (pr.strict) strict_verdict(&pr);
    if (pr.wit) make_witness(&pr);
    if (sl->ddl) verdict_keep(x, sl, gold_sql, pred_sql, out);
  }
  pair_run_free(&pr);
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
  slot *sl = synth_slot_for(x, s, err);
  if (!sl) return err ? err->code : SQLSIM_ESQLITE;
  kept_pair *kp = &x->kept; /* the pair's databases, when its run kept them */
  int kept = kp->gold && pred_sql && kp->n == x->o.databases && !strcmp(kp->ddl, sl->ddl) &&
             !strcmp(kp->gold, gold_sql) && !strcmp(kp->pred, pred_sql);
  synth_facts *f = kept ? NULL : synth_facts_read(s, gold, pred && pred->schema == s ? pred : NULL);
  if (f) f->checks = sl->checks, f->no_nulls = x->o.assume_not_null;
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
  int ordered = !bird && sqlsim_spider_order_matters(gtext), gold_agg = synth_one_row_aggregate(gold);
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
      synth_exec(sl->db, gtext, SQLSIM_EXEC_VALUES, &g);
      if (g.status != SQLSIM_EXEC_OK || !synth_informative(&g)) {
        int runaway = g.status == SQLSIM_EXEC_TIMEOUT || g.status == SQLSIM_EXEC_TOO_BIG;
        sqlsim_result_free(&g);
        if (runaway) break;
        continue;
      }
      int tie = -1; /* the gold's ties, looked at once per database when a query disagrees */
      int nothing = gold_agg && synth_nothing_counted(&g); /* agreeing on an aggregate over nothing is no evidence */
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
        synth_exec(sl->db, texts[i], SQLSIM_EXEC_VALUES, &p);
        spent[i] += p.total_s;
        if (p.status == SQLSIM_EXEC_TIMEOUT || p.status == SQLSIM_EXEC_TOO_BIG) spent[i] += x->o.timeout_s + 1;
        int ok = p.status == SQLSIM_EXEC_OK && synth_same_answer(bird, ordered, &g, &p);
        if (!ok && p.status == SQLSIM_EXEC_OK) {
          if (tie < 0) {
            if (!keyed_done) {
              keyed = synth_keyed_query(gold, &limit, &offset, &nkeys);
              keyed_done = 1;
            }
            double t;
            tie = keyed ? synth_tie_kind(sl->db, keyed, limit, offset, nkeys, &t) : TIE_NONE;
          }
          if (tie == TIE_ORDER && !bird) ok = synth_same_answer(0, 0, &g, &p);
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
  slot *sl = synth_slot_for(x, schema, err);
  char *gtext = synth_run_text(gold, x->o.bird, x->o.keep_distinct);
  synth_env env = {.s = schema, .bird = x->o.bird, .keep_distinct = x->o.keep_distinct, .gold = g, .limit_s = x->o.timeout_s,
                   .ordered = !x->o.bird && gtext && sqlsim_spider_order_matters(gtext), .checks = sl ? sl->checks : NULL,
                   .no_nulls = x->o.assume_not_null};
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
  synth_checks *checks = synth_checks_make(schema);
  if (f) f->checks = checks;
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
  synth_checks_free(checks);
  sqlsim_query_free(g);
  sqlsim_query_free(p);
  return rc;
}
