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
  gold_prepare(ev, w, lru, sql, db_id);
  lru->used = ++w->tick;
  return lru;
}
