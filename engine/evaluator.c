/* evaluator.c -- the evaluator: its configuration made whole (the metrics
 * each metric implies, the defaults) and checked once, its schemas loaded, the checks that a benchmark can be scored
 * under it, and where a db_id's database and schema are.
 *
 * An evaluator holds what every pair needs (the configuration, the
 * catalog) and a pool of workers (workers.c) that hold what a pair borrows:
 * connections, prepared gold queries, a Spider matcher, a synthetic
 * runner. A call borrows a worker, so any number of threads may score on
 * one evaluator (score.c, batch.c). */
#include "engine.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---------------------------------------------------------------- the evaluator */

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

int sqlsim_evaluator_new(const sqlsim_config *cfg, sqlsim_evaluator **out, sqlsim_error *err) {
  *out = NULL;
  sqlsim_config c = *cfg;
  if (!c.metrics) c.metrics = SQLSIM_M_BIS;
  c.metrics = engine_metrics_closure(c.metrics);
  if (c.synth_databases < 0 || c.synth_databases > 64)
    return sqlsim_error_set(err, SQLSIM_ECONFIG, -1, "synthetic databases %d: give 1 to 64", c.synth_databases);
  if (c.timeout_s == 0) c.timeout_s = 30;
  if (c.iterations == 0) c.iterations = 100;
  if (!(c.timeout_s > 0) || c.timeout_s > 86400)
    return sqlsim_error_set(err, SQLSIM_ECONFIG, -1, "timeout %g s: give a time above 0 and at most a day",
                            c.timeout_s);
  if (c.iterations < 0 || c.iterations > 1000000)
    return sqlsim_error_set(err, SQLSIM_ECONFIG, -1, "iterations %d: give 1 to 1000000", c.iterations);
  if (c.noise_every == 0) c.noise_every = 40;
  if (c.noise_every < -1 || c.noise_every > 1000000)
    return sqlsim_error_set(err, SQLSIM_ECONFIG, -1, "noise every %d: give 1 to 1000000 (or -1: never)",
                            c.noise_every);
  if (c.auto_width < 0 || c.auto_width > 10 || c.auto_width != c.auto_width)
    return sqlsim_error_set(err, SQLSIM_ECONFIG, -1, "auto width %g: give a share of the ratio above 0 (0.1: 10%%)",
                            c.auto_width);
  if (c.mode != SQLSIM_SPIDER_COMPATIBLE && c.mode != SQLSIM_SPIDER_CORRECTED)
    return sqlsim_error_set(err, SQLSIM_ECONFIG, -1, "mode %d: compatible or corrected", c.mode);
  if (c.now && sqlsim_check_now(c.now, err)) return SQLSIM_ECONFIG;
  if (c.db_dir && c.sqlite)
    return sqlsim_error_set(err, SQLSIM_ECONFIG, -1, "give a database directory or one SQLite file, not both");
  if (!sqlsim_dialect_name(c.dialect))
    return sqlsim_error_set(err, SQLSIM_ECONFIG, -1, "dialect %d: give one sqlsim_dialect_parse reads", c.dialect);
  if (c.engine) {
    if (!exec_engine_for(c.engine)->connect)
      return sqlsim_error_set(err, SQLSIM_ECONFIG, -1,
                              "engine '%.80s': give a %s URL (SQLite databases are given as a directory or a file)",
                              c.engine, exec_engine_urls());
    if (c.db_dir || c.sqlite)
      return sqlsim_error_set(err, SQLSIM_ECONFIG, -1,
                              "give the databases as a server (engine) or as SQLite files (db_dir, sqlite), not both");
    if (c.now)
      return sqlsim_error_set(err, SQLSIM_ECONFIG, -1,
                              "a fixed 'now' is SQLite's (its date functions); another engine keeps its own clock");
  }
  if (c.audit) { /* the gold parsed; on databases, the answers exec gets */
    if (!c.tables && !c.sqlite)
      return sqlsim_error_set(err, SQLSIM_ECONFIG, -1, "the audit needs the schemas (tables or sqlite)");
    c.metrics |= SQLSIM_M_BIS | (c.db_dir || c.sqlite || c.engine ? SQLSIM_M_EXEC : 0);
  }
  if (c.metrics & SQLSIM_M_SPIDER2) { /* a pair's gold is a task, not a query: nothing else reads it */
    if (c.metrics != SQLSIM_M_SPIDER2)
      return sqlsim_error_set(err, SQLSIM_ECONFIG, -1,
                              "spider2 judges a result table against a task's gold tables: it is not combined with "
                              "other metrics (their gold is a query)");
    if (!c.spider2)
      return sqlsim_error_set(err, SQLSIM_ECONFIG, -1,
                              "spider2 needs the gold directory (evaluation_suite/gold: exec_result/ and the eval file)");
    if (c.spider2_pred == SQLSIM_SPIDER2_SQL && !c.db_dir && !c.sqlite && !c.engine)
      return sqlsim_error_set(err, SQLSIM_ECONFIG, -1,
                              "spider2 with predicted SQL runs it: give the databases (db_dir: DIR/<db>.sqlite, "
                              "sqlite, or an engine)");
    if (c.spider2_pred < SQLSIM_SPIDER2_SQL || c.spider2_pred > SQLSIM_SPIDER2_CSV_FILE)
      return sqlsim_error_set(err, SQLSIM_ECONFIG, -1, "spider2 prediction kind %d: SQL, CSV or a CSV file",
                              c.spider2_pred);
  }
  int rc = engine_metrics_check(&c, err);
  if (rc) return rc;
  if (c.repair && !(c.metrics & SQLSIM_M_CATEGORIES))
    return sqlsim_error_set(err, SQLSIM_ECONFIG, -1, "repair is part of the error analysis: it needs the categories metric");
  if (c.repair && !(c.metrics & (SQLSIM_M_DB | SQLSIM_M_SYNTH)))
    return sqlsim_error_set(err, SQLSIM_ECONFIG, -1,
                            "repair runs the repaired predictions: it needs databases (db_dir or sqlite, with an "
                            "execution metric) or a schema to generate them from (tables or sqlite, with the synth "
                            "metric)");
  if (c.db_dir && access(c.db_dir, R_OK | X_OK) != 0)
    return sqlsim_error_set(err, SQLSIM_EIO, -1, "%s: not a directory that can be read", c.db_dir);
  if (c.sqlite && access(c.sqlite, R_OK) != 0)
    return sqlsim_error_set(err, SQLSIM_EIO, -1, "%s: cannot be read", c.sqlite);

  sqlsim_evaluator *ev = calloc(1, sizeof *ev);
  if (!ev) return sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
  if (c.engine && exec_target_parse(c.engine, &ev->target, err)) {
    free(ev);
    return SQLSIM_ECONFIG;
  }
  pthread_mutex_init(&ev->mu, NULL);
  if (c.metrics & SQLSIM_M_SPIDER2) rc = s2_gold_open(c.spider2, c.spider2_flavor, &ev->s2, err);
  if (!rc && c.tables) rc = sqlsim_catalog_load_tables_json(c.tables, &ev->catalog, err);
  else if (c.sqlite) rc = sqlsim_catalog_load_sqlite(c.sqlite, &ev->catalog, err);
  if (rc) {
    s2_gold_close(ev->s2);
    exec_target_clear(&ev->target);
    pthread_mutex_destroy(&ev->mu);
    free(ev);
    return rc;
  }
  if (ev->s2) c.spider2_flavor = s2_gold_flavor(ev->s2);
  c.spider2 = ev->spider2 = dup_or_null(c.spider2);
  c.tables = ev->tables = dup_or_null(c.tables);
  c.db_dir = ev->db_dir = dup_or_null(c.db_dir);
  c.sqlite = ev->sqlite = dup_or_null(c.sqlite);
  c.now = ev->now = dup_or_null(c.now);
  c.engine = ev->engine = dup_or_null(c.engine);
  ev->dialect = engine_dialect(c.dialect, c.engine ? &ev->target : NULL, &ev->parse_options);
  ev->cfg = c;
  /* Spider matching and hardness need a tables.json schema per db_id. */
  ev->spider = c.tables && !c.sqlite;
  *out = ev;
  return 0;
}

void sqlsim_evaluator_free(sqlsim_evaluator *ev) {
  if (!ev) return;
  for (worker *w = ev->free_workers; w;) {
    worker *next = w->next;
    engine_worker_free(w);
    w = next;
  }
  sqlsim_catalog_free(ev->catalog);
  s2_gold_close(ev->s2);
  free(ev->spider2);
  exec_target_clear(&ev->target);
  free(ev->tables);
  free(ev->db_dir);
  free(ev->sqlite);
  free(ev->now);
  free(ev->engine);
  pthread_mutex_destroy(&ev->mu);
  free(ev);
}

const sqlsim_config *sqlsim_evaluator_config(const sqlsim_evaluator *ev) { return &ev->cfg; }

unsigned sqlsim_evaluator_parse_options(const sqlsim_evaluator *ev) { return ev->parse_options; }

void sqlsim_config_for_benchmark(sqlsim_config *cfg, const sqlsim_itemset *gold) {
  if (!gold || !gold->format) return;
  if (!cfg->now && !cfg->engine && !strcmp(gold->format, "bis-json")) cfg->now = "2023-01-17 00:00:00";
  if (!strcmp(gold->format, "bird-json")) cfg->bird_semantics = 1;
}

int engine_dialect(int asked, const exec_target *t, unsigned *parse_options) {
  int d = asked != SQLSIM_DIALECT_ENGINE ? asked : t ? t->engine->dialect : SQLSIM_DIALECT_SQLITE;
  *parse_options = sqlsim_dialect_parse_options(d);
  if (t && d == t->engine->dialect && t->engine->parse_options) /* the engine's own reading (MySQL's || and "x") */
    *parse_options |= t->engine->parse_options(&t->url);
  return d;
}

const char *engine_db_path(const sqlsim_evaluator *ev, const char *db_id, char *buf, size_t n) {
  if (ev->sqlite) return ev->sqlite;
  if (ev->engine) {
    char *u = srv_url_expand(ev->engine, db_id, NULL);
    if (!u || strlen(u) >= n) {
      free(u);
      return NULL;
    }
    snprintf(buf, n, "%s", u);
    free(u);
    return buf;
  }
  if (!ev->db_dir || !db_id) return NULL;
  char *p = sqlsim_db_path(ev->db_dir, db_id, NULL);
  if (!p) return NULL;
  snprintf(buf, n, "%s", p);
  free(p);
  if (access(buf, R_OK) == 0) return buf;
  if (!(ev->cfg.metrics & SQLSIM_M_SPIDER2)) return NULL;
  snprintf(buf, n, "%s/%s.sqlite", ev->db_dir, db_id); /* Spider 2.0's layout: DIR/<db>.sqlite */
  return access(buf, R_OK) == 0 ? buf : NULL;
}

const sqlsim_schema *engine_schema(const sqlsim_evaluator *ev, const char *db_id) {
  if (!ev->catalog) return NULL;
  if (ev->sqlite || sqlsim_catalog_count(ev->catalog) == 1) return sqlsim_catalog_at(ev->catalog, 0);
  return db_id ? sqlsim_catalog_find(ev->catalog, db_id) : NULL;
}

const sqlsim_schema *sqlsim_evaluator_schema(const sqlsim_evaluator *ev, const char *db_id) {
  return engine_schema(ev, db_id);
}

int sqlsim_evaluator_check(const sqlsim_evaluator *ev, const sqlsim_itemset *gold, const char *name,
                           sqlsim_error *err) {
  int n = gold->n;
  if (!name) name = gold->path ? gold->path : "the gold set";
  if (n == 0) return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "%s: no gold queries in it, so nothing to score", name);
  if (!ev->sqlite && (ev->db_dir || ev->spider || (ev->engine && ev->target.per_db)))
    for (int i = 0; i < n; i++)
      if (!gold->items[i].db_id)
        return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "%s: item %d (line %d) has no db_id", name, i,
                                gold->items[i].line);
  if ((ev->cfg.metrics & SQLSIM_M_DB) && ev->db_dir) {
    int found = 0, first = -1;
    char buf[1024];
    for (int i = 0; i < n && !found; i++) {
      if (engine_db_path(ev, gold->items[i].db_id, buf, sizeof buf)) found = 1;
      if (first < 0 && gold->items[i].db_id && !sqlsim_check_db_id(gold->items[i].db_id, NULL)) first = i;
    }
    if (!found) {
      char *eg = first >= 0 ? sqlsim_db_path(ev->db_dir, gold->items[first].db_id, NULL) : NULL;
      sqlsim_error_set(err, SQLSIM_ENOTFOUND, -1,
                       "--db-dir %s: no database for any of the %d gold items (expected DIR/<db_id>/<db_id>.sqlite%s%s)",
                       ev->db_dir, n, eg ? ", e.g. " : "", eg ? eg : "");
      free(eg);
      return SQLSIM_ENOTFOUND;
    }
  }
  if ((ev->cfg.metrics & SQLSIM_M_DB) && ev->engine) { /* the server answers for some item, or nothing runs */
    char buf[1024], last[400] = "";
    const char *tried[5];
    int ntried = 0;
    for (int i = 0; i < n && ntried < 5; i++) {
      const char *id = gold->items[i].db_id;
      int seen = 0;
      for (int k = 0; k < ntried; k++) seen |= engine_same_db_id(tried[k], id);
      if (seen) continue;
      tried[ntried++] = id;
      const char *url = engine_db_path(ev, id, buf, sizeof buf);
      if (!url) continue;
      sqlsim_db *db;
      sqlsim_error e = {0};
      sqlsim_exec_opts o = {.timeout_s = ev->cfg.timeout_s, .max_memory = ev->cfg.max_memory};
      if (exec_connect(&ev->target, id, &o, &db, &e) == 0) {
        sqlsim_db_close(db);
        last[0] = '\0';
        break;
      }
      snprintf(last, sizeof last, "%.390s", e.message);
    }
    if (last[0])
      return sqlsim_error_set(err, SQLSIM_EIO, -1, "the engine answers for none of the first %d db_ids: %s", ntried,
                              last);
  }
  if (ev->catalog && !ev->sqlite && (ev->cfg.metrics & (SQLSIM_M_MATCH | SQLSIM_M_BIS))) {
    int found = 0, first = -1;
    for (int i = 0; i < n && !found; i++) {
      const char *id = gold->items[i].db_id;
      if (id && sqlsim_catalog_find(ev->catalog, id)) found = 1;
      if (id && first < 0) first = i;
    }
    if (!found && first >= 0)
      return sqlsim_error_set(err, SQLSIM_ENOTFOUND, -1,
                              "--tables: no schema for any gold db_id (the first is '%.100s'): is it the tables.json "
                              "of this benchmark?",
                              gold->items[first].db_id);
  }
  return 0;
}

unsigned engine_equiv_flags(const sqlsim_evaluator *ev) {
  if (ev->cfg.bird_semantics) return SQLSIM_EQUIV_SETS;
  return ev->cfg.keep_distinct ? 0 : SQLSIM_EQUIV_NO_DISTINCT;
}
