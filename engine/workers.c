/* workers.c -- the evaluator's pool of workers. A worker holds what
 * scoring a pair borrows: a Spider matcher, a few open database connections
 * (the least recently used replaced) and the last few gold queries prepared
 * (parsed for matching, parsed and normalized for the tree diff, run on
 * every database of their item). Pairs that share a gold query reuse its
 * preparation, so a batch of N models' (or N samples') predictions per
 * question prepares each gold once. A call borrows a worker from the pool
 * and gives it back; workers are freed with the evaluator. */
#include "engine.h"

#include <stdlib.h>
#include <string.h>

static void gold_clear(gold_prep *g) {
  if (!g->sql) return;
  free(g->audit.found.json.buf);
  synth_realm_free(g->audit.realm);
  free(g->audit.gold_run);
  if (g->s2) s2_task_gold_clear(g->s2);
  free(g->s2);
  free(g->sql);
  free(g->db_id);
  sqlsim_spider_gold_free(g->spider);
  sqlsim_query_free(g->tree);
  sqlsim_query_free(g->tree_eq);
  ex_gold_clear(&g->ex);
  memset(g, 0, sizeof *g);
}

void engine_worker_free(worker *w) {
  for (int k = 0; k < GOLD_SLOTS; k++) gold_clear(&w->golds[k]);
  for (int k = 0; k < CONN_SLOTS; k++) {
    sqlsim_db_close(w->conns[k].db);
    free(w->conns[k].path);
  }
  sqlsim_spider_free(w->spider);
  sqlsim_synth_runner_free(w->synth);
  free(w);
}

worker *engine_worker_get(sqlsim_evaluator *ev) {
  pthread_mutex_lock(&ev->mu);
  worker *w = ev->free_workers;
  if (w) ev->free_workers = w->next;
  pthread_mutex_unlock(&ev->mu);
  if (w) return w;
  w = calloc(1, sizeof *w);
  if (!w) {
    fputs("sqlsim: out of memory\n", stderr);
    abort();
  }
  if (ev->spider) sqlsim_spider_new(ev->catalog, ev->db_dir, ev->cfg.mode, &w->spider, NULL);
  return w;
}

void engine_worker_put(sqlsim_evaluator *ev, worker *w) {
  pthread_mutex_lock(&ev->mu);
  w->next = ev->free_workers;
  ev->free_workers = w;
  pthread_mutex_unlock(&ev->mu);
}

sqlsim_db *engine_worker_db(sqlsim_evaluator *ev, worker *w, const char *path, const char *db_id, char *why,
                            size_t wn) {
  conn_slot *lru = &w->conns[0];
  for (int k = 0; k < CONN_SLOTS; k++) {
    conn_slot *s = &w->conns[k];
    if (s->path && !strcmp(s->path, path)) {
      s->used = ++w->tick;
      return s->db;
    }
    if (s->used < lru->used) lru = s;
  }
  sqlsim_db_close(lru->db);
  free(lru->path);
  lru->db = NULL;
  lru->path = NULL;
  sqlsim_exec_opts o = {.timeout_s = ev->cfg.timeout_s, .fixed_now = ev->cfg.now, .max_memory = ev->cfg.max_memory};
  sqlsim_error e = {0};
  int rc = ev->engine ? exec_connect(&ev->target, db_id, &o, &lru->db, &e) : sqlsim_db_open(path, &o, &lru->db, &e);
  if (rc) {
    snprintf(why, wn, "the database cannot be opened: %.400s", e.message);
    lru->db = NULL;
    return NULL;
  }
  lru->path = strdup(path);
  lru->used = ++w->tick;
  return lru->db;
}

sqlsim_db *engine_pool_open(void *ctx, const char *path, char *why, size_t wn) {
  engine_pool *c = ctx;
  return engine_worker_db(c->ev, c->w, path, c->db_id, why, wn);
}

/* Prepares a gold query for every metric the evaluator computes: read by the
 * Spider matcher (hardness, whether or not matching is asked), parsed as
 * written and with its equivalent forms made one, run on every database of
 * its item. What fails is said in gold_err / match_err. */
static void gold_prepare(sqlsim_evaluator *ev, worker *w, gold_prep *g, const char *sql, const char *db_id) {
  unsigned m = ev->cfg.metrics;
  g->sql = strdup(sql);
  g->db_id = db_id ? strdup(db_id) : NULL;
  g->hardness = SQLSIM_HARD_UNKNOWN;
  if (m & SQLSIM_M_SPIDER2) { /* the gold is a task's instance id: its gold tables, read once */
    if (!(g->s2 = calloc(1, sizeof *g->s2))) {
      snprintf(g->gold_err, sizeof g->gold_err, "out of memory");
    } else if (s2_task_gold_load(ev->s2, sql, g->s2)) {
      free(g->s2);
      g->s2 = NULL;
      snprintf(g->gold_err, sizeof g->gold_err, "'%.200s' is not a task of the gold's eval file", sql);
    }
    return;
  }
  g->schema = engine_schema(ev, db_id);
  if (ev->spider) { /* hardness, whether or not matching is asked */
    sqlsim_error err = {0};
    if (sqlsim_spider_gold_prepare(w->spider, sql, db_id, &g->spider, &err)) {
      if (m & SQLSIM_M_MATCH) snprintf(g->match_err, sizeof g->match_err, "%s", err.message);
      g->spider = NULL;
    } else {
      g->hardness = sqlsim_spider_gold_hardness(g->spider);
    }
  }
  if (m & SQLSIM_M_BIS) { /* synth too: it implies BIS */
    sqlsim_error err = {0};
    if (sqlsim_parse(sql, strlen(sql), g->schema, ev->parse_options, &g->tree, &err) ||
        !(g->tree_eq = sqlsim_query_clone(g->tree))) {
      snprintf(g->gold_err, sizeof g->gold_err, "the gold query does not parse (offset %d): %.400s", err.offset,
               err.message);
      sqlsim_query_free(g->tree);
      g->tree = NULL;
    } else {
      sqlsim_equiv_normalize_as(g->tree_eq, engine_equiv_flags(ev));
    }
  }
  if (m & SQLSIM_M_DB) {
    const char *path = engine_db_path(ev, db_id, g->path, sizeof g->path);
    if (!path) {
      char why[480];
      sqlsim_error e = {0};
      char *u = ev->engine ? srv_url_expand(ev->engine, db_id, &e) : NULL;
      free(u);
      if (ev->engine) snprintf(why, sizeof why, "%.400s", e.message[0] ? e.message : "the engine URL is too long");
      else if (ev->db_dir && db_id && sqlsim_check_db_id(db_id, &e)) snprintf(why, sizeof why, "%.400s", e.message);
      else snprintf(why, sizeof why, "no database for db_id '%.200s'", db_id ? db_id : "");
      if (!g->gold_err[0]) snprintf(g->gold_err, sizeof g->gold_err, "%s", why);
      return;
    }
    if (path != g->path) snprintf(g->path, sizeof g->path, "%s", path);
    char **suite = NULL, err[512];
    int nsuite = ev->db_dir && !ev->sqlite ? ex_suite_paths(g->path, &suite) : 0;
    engine_pool c = {ev, w, db_id};
    if (ex_gold_run(&g->ex, sql, g->path, suite, nsuite, ev->cfg.keep_distinct, engine_pool_open, &c, err,
                    sizeof err)) {
      if (!g->gold_err[0]) snprintf(g->gold_err, sizeof g->gold_err, "%s", err);
      return;
    }
    g->ran = 1;
  }
}


sqlsim_synth_runner *engine_worker_synth(sqlsim_evaluator *ev, worker *w) {
  if (w->synth) return w->synth;
  sqlsim_synth_opts o = {.databases = ev->cfg.synth_databases, .bird = ev->cfg.bird_semantics,
                         .keep_distinct = ev->cfg.keep_distinct, .fixed_now = ev->cfg.now,
                         .strict = (ev->cfg.metrics & SQLSIM_M_STRICT) != 0, .witness = ev->cfg.witness,
                         .assume_not_null = ev->cfg.assume_not_null, .no_solver = ev->cfg.no_solver,
                         .solver_budget_s = ev->cfg.solver_budget};
  if (!(w->synth = sqlsim_synth_runner_new(&o))) return NULL;
  synth_runner_keep(w->synth, ev->cfg.repair); /* the repair checks on the pair's databases */
  return w->synth;
}

char *engine_synth_text(const sqlsim_evaluator *ev, const sqlsim_query *q, const char *sql) {
  if (ev->engine || ev->dialect == SQLSIM_DIALECT_SQLITE || !q) return strdup(sql);
  return sqlsim_print_sql(q->root, 0);
}

/* ---------------------------------------------------------------- the gold's side of the audit */

/* No row, or only NULLs (r run with SQLSIM_EXEC_VALUES). */
static int nothing_returned(const sqlsim_result *r) {
  for (long i = 0; r->kinds && i < r->nrows * r->ncols; i++)
    if (r->kinds[i] != 0) return 0;
  return !r->nrows || r->kinds;
}

/* The audit's look at the gold (config.audit): on the item's database, or
 * on its realistic generated databases when there is none (docs/audit.md):
 * whether it parses and runs, returns something, and what its own form shows
 * (analyze/evidence.c). What each pair's stage copies into its record. */
static void gold_audit_prepare(sqlsim_evaluator *ev, worker *w, gold_prep *g) {
  gold_audit *a = &g->audit;
  a->found.keep = 1;
  a->gold_absent = -1;
  if (!g->schema) {
    snprintf(a->error, sizeof a->error, "no schema for db_id '%.200s'", g->db_id ? g->db_id : "");
    a->no_schema = 1;
    return;
  }
  int with_db = (ev->cfg.metrics & SQLSIM_M_DB) && (ev->db_dir || ev->sqlite || ev->engine);
  if (!g->tree && !with_db) { /* nothing stands for the gold's answer */
    sqlsim_query *q = NULL;
    sqlsim_error e = {0};
    if (!sqlsim_parse(g->sql, strlen(g->sql), g->schema, ev->parse_options, &q, &e)) sqlsim_query_free(q);
    char what[600];
    snprintf(what, sizeof what, "the gold does not parse: %.400s (at byte %d)", e.message, e.offset);
    evidence_add(&a->found, SQLSIM_AUDIT_GOLD_FAILS, evidence_kind_of(SQLSIM_AUDIT_GOLD_FAILS)->weight, what, NULL);
    return;
  }
  if (with_db) {
    char why[420] = "";
    sqlsim_db *db = NULL;
    if (g->path[0]) db = engine_worker_db(ev, w, g->path, g->db_id, why, sizeof why);
    if (db) {
      a->with_db = 1;
      if (!g->ran) {
        const char *reason = g->gold_err, *p = strstr(reason, "the gold query fails: ");
        char what[400];
        snprintf(what, sizeof what, "the gold fails on the item's database: %.300s", p == reason ? reason + 22 : reason);
        evidence_add(&a->found, SQLSIM_AUDIT_GOLD_FAILS, evidence_kind_of(SQLSIM_AUDIT_GOLD_FAILS)->weight, what, NULL);
        return;
      }
      a->gold_ok = 1;
      if (nothing_returned(&g->ex.dbs[0].raw))
        evidence_add(&a->found, SQLSIM_AUDIT_GOLD_EMPTY, evidence_kind_of(SQLSIM_AUDIT_GOLD_EMPTY)->weight,
                     g->ex.dbs[0].raw.nrows ? "the gold returns only NULLs on the item's database"
                                            : "the gold returns no row on the item's database",
                     NULL);
      evidence_gold_checks(&a->found, g->tree, db, ev->dialect);
      a->gold_absent = g->tree ? evidence_absent_values(g->tree, db) : -1;
      return;
    }
    /* no database for this item: generated ones stand in */
    sqlsim_error e = {0};
    char *path = ev->db_dir ? sqlsim_db_path(ev->db_dir, g->db_id, &e) : NULL;
    sqlsim_db *x = NULL;
    if (path && !sqlsim_db_open(path, NULL, &x, &e)) sqlsim_db_close(x);
    free(path);
    snprintf(a->error, sizeof a->error, "the database of '%.100s' cannot be opened: %.150s", g->db_id ? g->db_id : "",
             e.message[0] ? e.message : why);
    if (!g->tree) return;
    size_t l = strlen(a->error);
    snprintf(a->error + l, sizeof a->error - l, "; compared on generated databases instead");
  }
  a->generated = 1;
  if (g->tree->nunresolved)
    evidence_add(&a->found, SQLSIM_AUDIT_GOLD_FAILS, evidence_kind_of(SQLSIM_AUDIT_GOLD_FAILS)->weight_form,
                 "the gold names a table or column the schema does not have, or one several tables have", NULL);
  a->gold_ok = 1;
  sqlsim_synth_runner *x = engine_worker_synth(ev, w);
  sqlsim_error err = {0};
  if (x && !synth_runner_engine(x, ev->engine ? &ev->target : NULL, g->db_id) &&
      (a->gold_run = engine_synth_text(ev, g->tree, g->sql)) &&
      (a->realm = synth_realm_make(x, g->tree, a->gold_run, &err))) {
    if (!synth_realm_informative(a->realm))
      evidence_add(&a->found, SQLSIM_AUDIT_GOLD_EMPTY, evidence_kind_of(SQLSIM_AUDIT_GOLD_EMPTY)->weight_form,
                   "the gold returns no row (or only NULLs) on every database generated for the item", NULL);
    sqlsim_db *db0 = synth_realm_load(x, a->realm, 0);
    a->gold_absent = db0 ? evidence_absent_values(g->tree, db0) : -1;
  } else if (!a->error[0]) {
    snprintf(a->error, sizeof a->error, "the item's databases cannot be generated: %.250s", err.message);
  }
  evidence_gold_checks(&a->found, g->tree, NULL, ev->dialect);
}

static void gold_prepare_all(sqlsim_evaluator *ev, worker *w, gold_prep *g, const char *sql, const char *db_id) {
  gold_prepare(ev, w, g, sql, db_id);
  if (ev->cfg.audit) gold_audit_prepare(ev, w, g);
}

const gold_prep *engine_gold_for(sqlsim_evaluator *ev, worker *w, const char *sql, const char *db_id) {
  gold_prep *lru = &w->golds[0];
  for (int k = 0; k < GOLD_SLOTS; k++) {
    gold_prep *g = &w->golds[k];
    if (g->sql && !strcmp(g->sql, sql) && engine_same_db_id(g->db_id, db_id)) {
      g->used = ++w->tick;
      return g;
    }
    if (g->used < lru->used) lru = g;
  }
  gold_clear(lru);
  gold_prepare_all(ev, w, lru, sql, db_id);
  lru->used = ++w->tick;
  return lru;
}
