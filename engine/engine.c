/* engine.c -- the evaluator: every metric for a (gold, prediction, db_id)
 * pair, one pair at a time or a batch on worker threads.
 *
 * A pair is scored by a worker: a Spider matcher, a few open database
 * connections, and the last few gold queries prepared (parsed for matching,
 * parsed and normalized for the tree diff, run on their database). Pairs that
 * share a gold query reuse its preparation, so a batch of N models' (or N
 * samples') predictions per question prepares each gold once. Workers live in
 * a pool on the evaluator; a call borrows one, so any number of threads may
 * score on one evaluator. A batch runs everything but timing in parallel,
 * then the timing metrics one pair at a time, since a timing taken while
 * other threads run measures them too. */
#include "engine.h"
#include "analyze/analyze.h"

#include <dirent.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define GOLD_SLOTS 4  /* prepared gold queries kept per worker */
#define CONN_SLOTS 8  /* open connections kept per worker */
#define CHUNK 64      /* most pairs a batch worker takes at once */
#define DEDUP_BACK 16 /* earlier predictions of the same gold looked at for the same text */
#define MAX_SUITE 1000 /* most sibling databases of one db_id (a test suite) */
#define MAX_PLUG 1000  /* most plug_value alternatives tried for one prediction */

typedef struct conn_slot {
  char *path;
  sqlsim_db *db;
  unsigned long used;
} conn_slot;

/* A gold query prepared once for every prediction scored against it. */
/* The gold's results on one more database of its db_id (a test suite). */
typedef struct suite_db {
  char *path;
  sqlsim_result raw, sp; /* as written; Spider's text (when it differs) */
} suite_db;

typedef struct gold_prep {
  char *sql, *db_id;       /* the key; NULL: an empty slot */
  unsigned long used;
  char gold_err[512], match_err[512];
  int hardness;
  sqlsim_spider_gold *spider;
  sqlsim_query *tree, *tree_eq; /* as written; equivalent forms made one */
  const sqlsim_schema *schema;
  int ran;                 /* the gold ran: the results below hold */
  char path[1024];
  sqlsim_result graw, gsp; /* as written; Spider's execution text (when it differs) */
  char *gtext;             /* Spider's execution text */
  int ordered, same_text;
  suite_db *suite;         /* the other databases of the db_id, where the gold ran */
  int nsuite;
} gold_prep;

struct worker {
  struct worker *next;
  sqlsim_spider *spider;
  conn_slot conns[CONN_SLOTS];
  gold_prep golds[GOLD_SLOTS];
  sqlsim_synth_runner *synth; /* made on first use */
  unsigned long tick;
};

/* ---------------------------------------------------------------- metric names */

const char *const sqlsim_metric_names[SQLSIM_NMETRICS] = {"match", "exec",  "ves",        "rves",
                                                           "result", "bis", "categories", "synth"};

int sqlsim_metrics_parse(const char *list, unsigned *out, sqlsim_error *err) {
  *out = 0;
  const char *p = list ? list : "";
  while (*p) {
    const char *e = strchr(p, ',');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    int found = -1;
    for (int k = 0; k < SQLSIM_NMETRICS && found < 0; k++)
      if (strlen(sqlsim_metric_names[k]) == n && !strncmp(p, sqlsim_metric_names[k], n)) found = k;
    if (found < 0 && n == 2 && !strncmp(p, "ex", 2)) found = 1;
    if (found < 0)
      return sqlsim_error_set(err, SQLSIM_EFORMAT, (int)(p - list),
                              "unknown metric '%.*s' (match, exec, ves, rves, result, bis, categories, synth)",
                              (int)(n > 100 ? 100 : n), p);
    *out |= 1u << found;
    p += n;
    if (*p == ',') p++;
  }
  if (!*out) return sqlsim_error_set(err, SQLSIM_EFORMAT, 0, "no metric given");
  return 0;
}

/* ---------------------------------------------------------------- evaluator */

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

int sqlsim_evaluator_new(const sqlsim_config *cfg, sqlsim_evaluator **out, sqlsim_error *err) {
  *out = NULL;
  sqlsim_config c = *cfg;
  if (!c.metrics) c.metrics = SQLSIM_M_BIS;
  if (c.metrics & (SQLSIM_M_CATEGORIES | SQLSIM_M_SYNTH)) c.metrics |= SQLSIM_M_BIS;
  if (c.synth_databases < 0 || c.synth_databases > 64)
    return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "synthetic databases %d: give 1 to 64", c.synth_databases);
  if ((c.metrics & SQLSIM_M_SYNTH) && !c.tables && !c.sqlite)
    return sqlsim_error_set(err, SQLSIM_EFORMAT, -1,
                            "the synth metric needs a schema: a tables.json (tables) or a SQLite file (sqlite)");
  if (c.timeout_s == 0) c.timeout_s = 30;
  if (c.iterations == 0) c.iterations = 100;
  if (!(c.timeout_s > 0) || c.timeout_s > 86400)
    return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "timeout %g s: give a time above 0 and at most a day",
                            c.timeout_s);
  if (c.iterations < 0 || c.iterations > 1000000)
    return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "iterations %d: give 1 to 1000000", c.iterations);
  if (c.noise_every == 0) c.noise_every = 40;
  if (c.noise_every < -1 || c.noise_every > 1000000)
    return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "noise every %d: give 1 to 1000000 (or -1: never)",
                            c.noise_every);
  if (c.auto_width < 0 || c.auto_width > 10 || c.auto_width != c.auto_width)
    return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "auto width %g: give a share of the ratio above 0 (0.1: 10%%)",
                            c.auto_width);
  if (c.mode != SQLSIM_SPIDER_COMPATIBLE && c.mode != SQLSIM_SPIDER_CORRECTED)
    return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "mode %d: compatible or corrected", c.mode);
  if (c.now && sqlsim_check_now(c.now, err)) return SQLSIM_EFORMAT;
  if (c.db_dir && c.sqlite)
    return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "give a database directory or one SQLite file, not both");
  if ((c.metrics & SQLSIM_M_DB) && !c.db_dir && !c.sqlite)
    return sqlsim_error_set(err, SQLSIM_EFORMAT, -1,
                            "execution metrics need databases: a directory (db_dir) or one SQLite file (sqlite)");
  if ((c.metrics & SQLSIM_M_MATCH) && !c.tables)
    return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "the match metric needs a tables.json schema (tables)");
  if (c.db_dir && access(c.db_dir, R_OK | X_OK) != 0)
    return sqlsim_error_set(err, SQLSIM_EIO, -1, "%s: not a directory that can be read", c.db_dir);
  if (c.sqlite && access(c.sqlite, R_OK) != 0)
    return sqlsim_error_set(err, SQLSIM_EIO, -1, "%s: cannot be read", c.sqlite);

  sqlsim_evaluator *ev = calloc(1, sizeof *ev);
  if (!ev) return sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
  pthread_mutex_init(&ev->mu, NULL);
  int rc = 0;
  if (c.tables) rc = sqlsim_catalog_load_tables_json(c.tables, &ev->catalog, err);
  else if (c.sqlite) rc = sqlsim_catalog_load_sqlite(c.sqlite, &ev->catalog, err);
  if (rc) {
    free(ev);
    return rc;
  }
  c.tables = ev->tables = dup_or_null(c.tables);
  c.db_dir = ev->db_dir = dup_or_null(c.db_dir);
  c.sqlite = ev->sqlite = dup_or_null(c.sqlite);
  c.now = ev->now = dup_or_null(c.now);
  ev->cfg = c;
  /* Spider matching and hardness need a tables.json schema per db_id. */
  ev->spider = c.tables && !c.sqlite;
  *out = ev;
  return 0;
}

static void worker_free(worker *w);

void sqlsim_evaluator_free(sqlsim_evaluator *ev) {
  if (!ev) return;
  for (worker *w = ev->free_workers; w;) {
    worker *next = w->next;
    worker_free(w);
    w = next;
  }
  sqlsim_catalog_free(ev->catalog);
  free(ev->tables);
  free(ev->db_dir);
  free(ev->sqlite);
  free(ev->now);
  pthread_mutex_destroy(&ev->mu);
  free(ev);
}

const sqlsim_config *sqlsim_evaluator_config(const sqlsim_evaluator *ev) { return &ev->cfg; }

void sqlsim_config_for_benchmark(sqlsim_config *cfg, const sqlsim_itemset *gold) {
  if (!gold || !gold->format) return;
  if (!cfg->now && !strcmp(gold->format, "bis-json")) cfg->now = "2023-01-17 00:00:00";
  if (!strcmp(gold->format, "bird-json")) cfg->bird_semantics = 1;
}

/* The database of a db_id, if it can be read: a static path, or buf. */
static const char *db_path(const sqlsim_evaluator *ev, const char *db_id, char *buf, size_t n) {
  if (ev->sqlite) return ev->sqlite;
  if (!ev->db_dir || !db_id) return NULL;
  char *p = sqlsim_db_path(ev->db_dir, db_id, NULL);
  if (!p) return NULL;
  snprintf(buf, n, "%s", p);
  free(p);
  return access(buf, R_OK) == 0 ? buf : NULL;
}

static const sqlsim_schema *schema_of(const sqlsim_evaluator *ev, const char *db_id) {
  if (!ev->catalog) return NULL;
  if (ev->sqlite || sqlsim_catalog_count(ev->catalog) == 1) return sqlsim_catalog_at(ev->catalog, 0);
  return db_id ? sqlsim_catalog_find(ev->catalog, db_id) : NULL;
}

const sqlsim_schema *sqlsim_evaluator_schema(const sqlsim_evaluator *ev, const char *db_id) {
  return schema_of(ev, db_id);
}

int sqlsim_evaluator_check(const sqlsim_evaluator *ev, const sqlsim_itemset *gold, const char *name,
                           sqlsim_error *err) {
  int n = gold->n;
  if (!name) name = gold->path ? gold->path : "the gold set";
  if (n == 0) return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "%s: no gold queries in it, so nothing to score", name);
  if (!ev->sqlite && (ev->db_dir || ev->spider))
    for (int i = 0; i < n; i++)
      if (!gold->items[i].db_id)
        return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "%s: item %d (line %d) has no db_id", name, i,
                                gold->items[i].line);
  if ((ev->cfg.metrics & SQLSIM_M_DB) && ev->db_dir) {
    int found = 0, first = -1;
    char buf[1024];
    for (int i = 0; i < n && !found; i++) {
      if (db_path(ev, gold->items[i].db_id, buf, sizeof buf)) found = 1;
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

/* ---------------------------------------------------------------- workers */

static void suite_free(gold_prep *g) {
  for (int k = 0; k < g->nsuite; k++) {
    sqlsim_result_free(&g->suite[k].raw);
    if (!g->same_text) sqlsim_result_free(&g->suite[k].sp);
    free(g->suite[k].path);
  }
  free(g->suite);
  g->suite = NULL;
  g->nsuite = 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The other databases beside main in its directory, as the test-suite
 * evaluator finds them (every file whose name has ".sqlite" in it), without
 * SQLite's own -journal, -wal and -shm files; sorted by name. */
static int suite_paths(const char *main, char ***out) {
  *out = NULL;
  const char *slash = strrchr(main, '/');
  if (!slash) return 0;
  size_t dl = (size_t)(slash - main);
  char *dir = strndup(main, dl ? dl : 1);
  DIR *d = opendir(dir);
  int n = 0, cap = 0;
  char **v = NULL;
  struct dirent *e;
  while (d && n < MAX_SUITE && (e = readdir(d))) {
    const char *nm = e->d_name, *x = strstr(nm, ".sqlite");
    if (!x || !strcmp(nm, slash + 1)) continue;
    size_t l = strlen(nm);
    if ((l > 8 && !strcmp(nm + l - 8, "-journal")) || (l > 4 && (!strcmp(nm + l - 4, "-wal") || !strcmp(nm + l - 4, "-shm"))))
      continue;
    char *path = malloc(dl + l + 2);
    snprintf(path, dl + l + 2, "%.*s/%s", (int)dl, main, nm);
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || access(path, R_OK) != 0) {
      free(path);
      continue;
    }
    if (n == cap) v = realloc(v, sizeof *v * (size_t)(cap = cap ? 2 * cap : 8));
    v[n++] = path;
  }
  if (d) closedir(d);
  free(dir);
  if (n > 1) qsort(v, (size_t)n, sizeof *v, cmp_str);
  *out = v;
  return n;
}

static sqlsim_db *worker_db(sqlsim_evaluator *ev, struct worker *w, const char *path, char *why, size_t wn);

/* Runs the gold on every other database of its db_id; a failure on any makes
 * the item unscorable (the official evaluator stops there). */
static void suite_prepare(sqlsim_evaluator *ev, struct worker *w, gold_prep *g) {
  char **paths;
  int n = suite_paths(g->path, &paths);
  if (!n) return;
  g->suite = calloc((size_t)n, sizeof *g->suite);
  for (int k = 0; k < n; k++) {
    suite_db *s = &g->suite[g->nsuite++];
    s->path = paths[k];
    char why[480];
    const char *base = strrchr(s->path, '/') + 1;
    sqlsim_db *db = worker_db(ev, w, s->path, why, sizeof why);
    if (!db) {
      snprintf(g->gold_err, sizeof g->gold_err, "test-suite database %.200s: %.280s", base, why);
    } else {
      sqlsim_exec_flags(db, g->sql, SQLSIM_EXEC_VALUES, &s->raw);
      if (s->raw.status != SQLSIM_EXEC_OK)
        snprintf(g->gold_err, sizeof g->gold_err, "the gold query fails on test-suite database %.200s: %.250s", base,
                 s->raw.reason);
      else if (!g->same_text)
        sqlsim_exec(db, g->gtext, &s->sp);
    }
    if (g->gold_err[0]) {
      for (int j = k + 1; j < n; j++) free(paths[j]);
      break;
    }
  }
  free(paths);
}

static void gold_clear(gold_prep *g) {
  if (!g->sql) return;
  free(g->sql);
  free(g->db_id);
  sqlsim_spider_gold_free(g->spider);
  sqlsim_query_free(g->tree);
  sqlsim_query_free(g->tree_eq);
  if (g->ran) {
    sqlsim_result_free(&g->graw);
    if (!g->same_text) sqlsim_result_free(&g->gsp);
  }
  suite_free(g);
  free(g->gtext);
  memset(g, 0, sizeof *g);
}

static void worker_free(worker *w) {
  for (int k = 0; k < GOLD_SLOTS; k++) gold_clear(&w->golds[k]);
  for (int k = 0; k < CONN_SLOTS; k++) {
    sqlsim_db_close(w->conns[k].db);
    free(w->conns[k].path);
  }
  sqlsim_spider_free(w->spider);
  sqlsim_synth_runner_free(w->synth);
  free(w);
}

static worker *worker_get(sqlsim_evaluator *ev) {
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

static void worker_put(sqlsim_evaluator *ev, worker *w) {
  pthread_mutex_lock(&ev->mu);
  w->next = ev->free_workers;
  ev->free_workers = w;
  pthread_mutex_unlock(&ev->mu);
}

/* An open connection to path from the worker's slots (the least recently
 * used one replaced), or NULL with why set. */
static sqlsim_db *worker_db(sqlsim_evaluator *ev, worker *w, const char *path, char *why, size_t wn) {
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
  if (sqlsim_db_open(path, &o, &lru->db, &e)) {
    snprintf(why, wn, "the database cannot be opened: %.400s", e.message);
    lru->db = NULL;
    return NULL;
  }
  lru->path = strdup(path);
  lru->used = ++w->tick;
  return lru->db;
}

static int same_key(const char *a, const char *b) { return a == b || (a && b && !strcmp(a, b)); }

/* Prepares a gold query for every metric the evaluator computes. */
/* The comparison the equivalent forms must hold under: BIRD's sets, or
 * Spider's rows with DISTINCT dropped (unless --keep-distinct). */
static unsigned equiv_flags(const sqlsim_evaluator *ev) {
  if (ev->cfg.bird_semantics) return SQLSIM_EQUIV_SETS;
  return ev->cfg.keep_distinct ? 0 : SQLSIM_EQUIV_NO_DISTINCT;
}

static void gold_prepare(sqlsim_evaluator *ev, worker *w, gold_prep *g, const char *sql, const char *db_id) {
  unsigned m = ev->cfg.metrics;
  g->sql = strdup(sql);
  g->db_id = dup_or_null(db_id);
  g->hardness = SQLSIM_HARD_UNKNOWN;
  g->schema = schema_of(ev, db_id);
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
    if (sqlsim_parse(sql, strlen(sql), g->schema, 0, &g->tree, &err) || !(g->tree_eq = sqlsim_query_clone(g->tree))) {
      snprintf(g->gold_err, sizeof g->gold_err, "the gold query does not parse (offset %d): %.400s", err.offset,
               err.message);
      sqlsim_query_free(g->tree);
      g->tree = NULL;
    } else {
      sqlsim_equiv_normalize_as(g->tree_eq, equiv_flags(ev));
    }
  }
  if (m & SQLSIM_M_DB) {
    const char *path = db_path(ev, db_id, g->path, sizeof g->path);
    char why[480];
    if (!path) {
      sqlsim_error e = {0};
      if (ev->db_dir && db_id && sqlsim_check_db_id(db_id, &e)) snprintf(why, sizeof why, "%.400s", e.message);
      else snprintf(why, sizeof why, "no database for db_id '%.200s'", db_id ? db_id : "");
      if (!g->gold_err[0]) snprintf(g->gold_err, sizeof g->gold_err, "%s", why);
      return;
    }
    if (path != g->path) snprintf(g->path, sizeof g->path, "%s", path);
    sqlsim_db *db = worker_db(ev, w, g->path, why, sizeof why);
    if (!db) {
      if (!g->gold_err[0]) snprintf(g->gold_err, sizeof g->gold_err, "%s", why);
      return;
    }
    sqlsim_exec_flags(db, sql, SQLSIM_EXEC_VALUES, &g->graw);
    if (g->graw.status != SQLSIM_EXEC_OK) {
      if (!g->gold_err[0]) snprintf(g->gold_err, sizeof g->gold_err, "the gold query fails: %s", g->graw.reason);
      sqlsim_result_free(&g->graw);
      return;
    }
    /* Spider's semantics run the texts with DISTINCT removed (unless kept). */
    g->gtext = sqlsim_spider_exec_text_opts(sql, ev->cfg.keep_distinct);
    g->ordered = sqlsim_spider_order_matters(g->gtext);
    g->same_text = !strcmp(g->gtext, sql);
    if (!g->same_text) sqlsim_exec(db, g->gtext, &g->gsp);
    g->ran = 1;
    if (ev->db_dir && !ev->sqlite) {
      suite_prepare(ev, w, g);
      if (g->gold_err[0]) { /* the item cannot be scored: nothing of the run is kept */
        sqlsim_result_free(&g->graw);
        if (!g->same_text) sqlsim_result_free(&g->gsp);
        suite_free(g);
        g->ran = 0;
      }
    }
  }
}

/* The worker's preparation of (sql, db_id), made if it has none. */
static gold_prep *gold_for(sqlsim_evaluator *ev, worker *w, const char *sql, const char *db_id) {
  gold_prep *lru = &w->golds[0];
  for (int k = 0; k < GOLD_SLOTS; k++) {
    gold_prep *g = &w->golds[k];
    if (g->sql && !strcmp(g->sql, sql) && same_key(g->db_id, db_id)) {
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

/* ---------------------------------------------------------------- one pair */

static sqlsim_arena *rec_arena(sqlsim_record *r) {
  if (!r->arena) r->arena = arena_new_sized(1024);
  return r->arena;
}

/* The prediction parsed with the gold's schema, or NULL with the record
 * saying why (bis = score = 0) and *offset where (-1 unknown). */
static sqlsim_query *parse_pred(const gold_prep *g, const char *pred, sqlsim_record *r, int *offset) {
  sqlsim_query *q;
  sqlsim_error err = {0};
  *offset = -1;
  if (!sqlsim_parse(pred, strlen(pred), g->schema, 0, &q, &err)) return q;
  snprintf(r->bis_err, sizeof r->bis_err, "the prediction does not parse (offset %d): %.200s", err.offset,
           err.message);
  *offset = err.offset;
  return NULL;
}

/* The tree diff against the gold as written (BIS similarity) and against its
 * equivalence-normalized form (calibrated score). q is changed (equivalent
 * forms made one). With keep, *keep gets the calibrated diff (the caller
 * frees it, before q: its edits point into q), NULL when not compared. */
static void score_structure(sqlsim_evaluator *ev, const gold_prep *g, sqlsim_query *q, sqlsim_record *r,
                            sqlsim_diff **keep) {
  sqlsim_error err = {0};
  if (keep) sqlsim_dialect_construct(q, rec_arena(r), &r->dialect);
  sqlsim_diff *d;
  if (sqlsim_diff_trees(g->tree->root, q->root, &d, &err) == 0) {
    r->bis = d->bis;
    sqlsim_diff_free(d);
  } else {
    snprintf(r->diff_err, sizeof r->diff_err, "not compared by structure: %.200s", err.message);
  }
  sqlsim_equiv_normalize_as(q, equiv_flags(ev));
  if (sqlsim_diff_trees(g->tree_eq->root, q->root, &d, &err) == 0) {
    r->score = d->score;
    if (keep) *keep = d;
    else sqlsim_diff_free(d);
  } else if (!r->diff_err[0]) {
    snprintf(r->diff_err, sizeof r->diff_err, "not compared by structure: %.200s", err.message);
  }
}

/* Synthetic execution on databases made from the gold's schema (q may be
 * NULL: a prediction that does not parse still runs, and fails or not). */
static void score_synth(sqlsim_evaluator *ev, worker *w, const gold_prep *g, const char *pred,
                        const sqlsim_query *q, sqlsim_record *r) {
  if (!g->schema) {
    snprintf(r->synth_err, sizeof r->synth_err, "no schema for db_id '%.200s'", g->db_id ? g->db_id : "");
    return;
  }
  if (!w->synth) {
    sqlsim_synth_opts o = {.databases = ev->cfg.synth_databases, .bird = ev->cfg.bird_semantics,
                           .keep_distinct = ev->cfg.keep_distinct, .fixed_now = ev->cfg.now};
    if (!(w->synth = sqlsim_synth_runner_new(&o))) {
      snprintf(r->synth_err, sizeof r->synth_err, "out of memory");
      return;
    }
  }
  sqlsim_error err = {0};
  if (sqlsim_synth_trees(w->synth, g->tree, g->sql, q, pred, &r->synth, &err))
    snprintf(r->synth_err, sizeof r->synth_err, "%.250s", err.message);
  else
    r->has_synth = 1;
}

/* The calibrated score with synthetic execution (docs/synthetic.md): when a
 * generated database counted, (pass + 0.1 graded + 0.01 structure) / 1.11, so
 * agreeing everywhere decides, the share of databases that agree orders the
 * rest and structure breaks ties; else structure alone. The weights were
 * chosen on the 7 Spider files of ../shared (ROC AUC against official EX
 * 0.969, against 0.968 for 0.5 / 0.45 / 0.05). */
static double combined_score(const sqlsim_record *r) {
  if (!r->has_synth || r->synth.pass < 0) return r->score_structure;
  return (r->synth.pass + 0.1 * r->synth.graded + 0.01 * r->score_structure) / 1.11;
}

/* Spider's verdict for a prediction's execution text on the gold's result gs. */
static int spider_eq(sqlsim_db *db, const char *ptext, const sqlsim_result *gs, int ordered) {
  sqlsim_result psp;
  sqlsim_exec(db, ptext, &psp);
  int ok = psp.status == SQLSIM_EXEC_OK && gs->status == SQLSIM_EXEC_OK && sqlsim_ex_spider(gs, &psp, ordered);
  sqlsim_result_free(&psp);
  return ok;
}

/* Spider's verdict for ptext on every database of the item (the test suite). */
static int spider_all(sqlsim_evaluator *ev, worker *w, const gold_prep *g, const char *ptext) {
  char why[480];
  for (int k = -1; k < g->nsuite; k++) {
    sqlsim_db *db = worker_db(ev, w, k < 0 ? g->path : g->suite[k].path, why, sizeof why);
    const sqlsim_result *gs = k < 0 ? (g->same_text ? &g->graw : &g->gsp)
                                    : (g->same_text ? &g->suite[k].raw : &g->suite[k].sp);
    if (!db || !spider_eq(db, ptext, gs, g->ordered)) return 0;
  }
  return 1;
}

/* The prediction on the db_id's other databases: it stays correct under a
 * semantics only if it matches on each of them (the test-suite rule). */
static void score_suite(sqlsim_evaluator *ev, worker *w, const gold_prep *g, const char *pred, const char *ptext,
                        sqlsim_record *r) {
  char why[480];
  for (int k = 0; k < g->nsuite && (r->ex_bird == 1 || r->ex_spider == 1); k++) {
    const suite_db *s = &g->suite[k];
    const char *base = strrchr(s->path, '/') + 1;
    sqlsim_db *db = worker_db(ev, w, s->path, why, sizeof why);
    sqlsim_result praw;
    if (db) sqlsim_exec_flags(db, pred, SQLSIM_EXEC_VALUES, &praw);
    if (!db || praw.status != SQLSIM_EXEC_OK) {
      snprintf(r->ex_err, sizeof r->ex_err, "on test-suite database %.60s: %.150s", base, db ? praw.reason : why);
      if (db) sqlsim_result_free(&praw);
      r->ex_bird = r->ex_spider = 0;
      return;
    }
    if (r->ex_bird == 1) r->ex_bird = sqlsim_ex_bird(&s->raw, &praw);
    if (r->ex_spider == 1) {
      if (g->same_text && !strcmp(ptext, pred)) r->ex_spider = sqlsim_ex_spider(&s->raw, &praw, g->ordered);
      else r->ex_spider = spider_eq(db, ptext, g->same_text ? &s->raw : &s->sp, g->ordered);
    }
    sqlsim_result_free(&praw);
  }
}

/* --plug_value: the gold's values in the prediction's value slots, each
 * assignment tried on every database until one matches. */
static void plug_values(sqlsim_evaluator *ev, worker *w, const gold_prep *g, const char *pred, sqlsim_record *r) {
  char **alts;
  int n = sqlsim_plug_values(g->sql, pred, MAX_PLUG, &alts);
  for (int k = 0; k < n; k++) {
    if (r->ex_spider != 1) {
      char *t = sqlsim_spider_exec_text_opts(alts[k], ev->cfg.keep_distinct);
      if (spider_all(ev, w, g, t)) r->ex_spider = 1;
      free(t);
    }
    free(alts[k]);
  }
  free(alts);
}

static void score_exec(sqlsim_evaluator *ev, worker *w, const gold_prep *g, const char *pred, sqlsim_record *r) {
  char why[480];
  r->databases = 1 + g->nsuite;
  sqlsim_db *db = worker_db(ev, w, g->path, why, sizeof why);
  if (!db) { /* opened for the gold a moment ago; closed since only if slots ran out */
    snprintf(r->ex_err, sizeof r->ex_err, "%.250s", why);
    r->ex_bird = r->ex_spider = 0;
    return;
  }
  sqlsim_result praw;
  sqlsim_exec_flags(db, pred, SQLSIM_EXEC_VALUES, &praw);
  r->gold_rows = g->graw.nrows;
  r->pred_rows = praw.status == SQLSIM_EXEC_OK ? praw.nrows : -1;
  if (praw.status != SQLSIM_EXEC_OK) {
    snprintf(r->ex_err, sizeof r->ex_err, "%s", praw.reason);
    r->ex_bird = r->ex_spider = 0;
    if (ev->cfg.metrics & SQLSIM_M_RESULT) r->has_rsim = 1; /* all zero */
    sqlsim_result_free(&praw);
    if (ev->cfg.plug_value) plug_values(ev, w, g, pred, r);
    return;
  }
  r->ex_bird = sqlsim_ex_bird(&g->graw, &praw);
  if (ev->cfg.metrics & SQLSIM_M_RESULT) {
    sqlsim_result_similarity(&g->graw, &praw, g->graw.nrows > 1 && g->ordered, &r->rsim);
    r->has_rsim = 1;
  }
  char *ptext = sqlsim_spider_exec_text_opts(pred, ev->cfg.keep_distinct);
  if (g->same_text && !strcmp(ptext, pred)) r->ex_spider = sqlsim_ex_spider(&g->graw, &praw, g->ordered);
  else r->ex_spider = spider_eq(db, ptext, g->same_text ? &g->graw : &g->gsp, g->ordered);
  sqlsim_result_free(&praw);
  score_suite(ev, w, g, pred, ptext, r);
  free(ptext);
  if (ev->cfg.plug_value && r->ex_spider != 1) plug_values(ev, w, g, pred, r);
}

/* Everything but timing, for one pair, on a worker. */
static void score_pair(sqlsim_evaluator *ev, worker *w, const sqlsim_pair *p, sqlsim_record *r) {
  unsigned m = ev->cfg.metrics;
  memset(r, 0, sizeof *r);
  r->metrics = m;
  r->ex_spider = r->ex_bird = -1;
  r->gold_rows = r->pred_rows = -1;
  const gold_prep *g = gold_for(ev, w, p->gold, p->db_id);
  r->hardness = g->hardness;
  memcpy(r->gold_err, g->gold_err, sizeof r->gold_err);
  memcpy(r->match_err, g->match_err, sizeof r->match_err);
  if ((m & SQLSIM_M_MATCH) && g->spider) {
    sqlsim_spider_score_pred(w->spider, g->spider, p->pred, &r->match);
    r->has_match = 1;
  }
  int cats = (m & SQLSIM_M_CATEGORIES) != 0, offset = -1;
  sqlsim_query *q = NULL;
  sqlsim_diff *d = NULL; /* the calibrated diff, kept for the categories */
  if ((m & SQLSIM_M_BIS) && g->tree) {
    r->has_bis = 1;
    q = parse_pred(g, p->pred, r, &offset);
    if (m & SQLSIM_M_SYNTH) score_synth(ev, w, g, p->pred, q, r);
    if (q) score_structure(ev, g, q, r, cats ? &d : NULL);
    r->score_structure = r->score;
    if (m & SQLSIM_M_SYNTH) r->score = combined_score(r);
  }
  if ((m & SQLSIM_M_DB) && g->ran) score_exec(ev, w, g, p->pred, r);
  if (cats) {
    analyze_input in = {.diff = d, .schema = g->schema, .bird = ev->cfg.bird_semantics, .pred_error_offset = offset};
    analyze_pair(&in, r);
  }
  sqlsim_diff_free(d);
  sqlsim_query_free(q);
}

/* Is this pair's gold one of the noise floor's? About one in noise_every,
 * by a hash of the gold and its database: the same golds whatever the batch
 * sizes, the order or the worker (a Dask run samples as one process does). */
static int noise_sample(const sqlsim_evaluator *ev, const sqlsim_pair *p) {
  if (ev->cfg.noise_every < 1) return 0;
  uint64_t h = 1469598103934665603ULL;
  for (const char *s = p->gold; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  for (const char *s = p->db_id ? p->db_id : ""; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  return mix64(h) % (uint64_t)ev->cfg.noise_every == 0;
}

static void time_pair(sqlsim_evaluator *ev, const sqlsim_pair *p, sqlsim_record *r, const volatile int *cancel) {
  if (!(ev->cfg.metrics & SQLSIM_M_TIMING) || r->ex_bird != 1) return; /* the correctness gate */
  char buf[1024];
  const char *path = db_path(ev, p->db_id, buf, sizeof buf);
  if (!path) return;
  sqlsim_timing_opts o = {.iterations = ev->cfg.iterations, .timeout_s = ev->cfg.timeout_s,
                          .fixed_now = ev->cfg.now, .alternate = ev->cfg.alternate, .cancel = cancel,
                          .auto_width = ev->cfg.auto_width, .reuse = ev->cfg.reuse_connection};
  sqlsim_time_pair(path, p->gold, p->pred, &o, &r->timing);
  r->has_timing = 1;
  if (r->timing.ok && noise_sample(ev, p)) {
    sqlsim_time_pair(path, p->gold, p->gold, &o, &r->self_timing);
    r->has_self_timing = r->self_timing.ok;
  }
}

int sqlsim_evaluate(sqlsim_evaluator *ev, const char *gold, const char *pred, const char *db_id,
                    sqlsim_record *out, sqlsim_error *err) {
  memset(out, 0, sizeof *out);
  if (!gold || !pred) return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "a pair needs a gold and a predicted query");
  sqlsim_pair p = {gold, pred, db_id};
  worker *w = worker_get(ev);
  score_pair(ev, w, &p, out);
  worker_put(ev, w);
  time_pair(ev, &p, out, NULL);
  return 0;
}

/* ---------------------------------------------------------------- records */

static void copy_record(sqlsim_record *dst, const sqlsim_record *src) {
  *dst = *src;
  dst->arena = NULL;
  if (!src->arena) return;
  sqlsim_arena *a = rec_arena(dst);
  for (int k = 0; k < SQLSIM_NCAT; k++)
    if (src->cats.evidence[k]) dst->cats.evidence[k] = sqlsim_arena_strdup(a, src->cats.evidence[k]);
  if (src->dialect) dst->dialect = sqlsim_arena_strdup(a, src->dialect);
  if (src->dialect && src->cats.evidence[SQLSIM_CAT_DIALECT] == src->dialect)
    dst->cats.evidence[SQLSIM_CAT_DIALECT] = dst->dialect;
  if (src->gspans) {
    dst->gspans = sqlsim_arena_alloc(a, sizeof(int) * (size_t)(2 * src->ngspans + 1));
    memcpy(dst->gspans, src->gspans, sizeof(int) * (size_t)(2 * src->ngspans));
  }
  if (src->pspans) {
    dst->pspans = sqlsim_arena_alloc(a, sizeof(int) * (size_t)(2 * src->npspans + 1));
    memcpy(dst->pspans, src->pspans, sizeof(int) * (size_t)(2 * src->npspans));
  }
}

void sqlsim_record_clear(sqlsim_record *r) {
  if (!r) return;
  sqlsim_arena_free(r->arena);
  memset(r, 0, sizeof *r);
}

const char *sqlsim_group_of(const sqlsim_item *gold, const sqlsim_record *r) {
  if (gold && gold->difficulty) return gold->difficulty;
  if (gold && gold->case_type) return gold->case_type;
  if (r && r->hardness >= 0 && r->hardness < SQLSIM_HARD_UNKNOWN) return sqlsim_hardness_names[r->hardness];
  return NULL;
}

/* ---------------------------------------------------------------- batch */

typedef struct batch {
  sqlsim_evaluator *ev;
  const sqlsim_pair *pairs;
  size_t n;
  sqlsim_record *out;
  const sqlsim_batch_opts *o;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  size_t next;      /* first pair no worker has taken */
  unsigned char *done;
  int stop;         /* cancelled: take nothing more */
  int exited;       /* worker threads that have finished */
} batch;

static int cancelled(const batch *b) { return b->o && b->o->cancel && *b->o->cancel; }

static int same_gold(const sqlsim_pair *a, const sqlsim_pair *b) {
  return (a->gold == b->gold || !strcmp(a->gold, b->gold)) && same_key(a->db_id, b->db_id);
}

/* Scores pairs [lo, hi), which share their gold query: a prediction written
 * exactly as one a little earlier copies its record. */
static size_t score_run(batch *b, worker *w, size_t lo, size_t hi) {
  for (size_t k = lo; k < hi; k++) {
    if (k > lo && cancelled(b)) return k; /* the rest stay unfinished */
    const sqlsim_pair *p = &b->pairs[k];
    size_t same = k;
    for (size_t j = k > lo + DEDUP_BACK ? k - DEDUP_BACK : lo; j < k && same == k; j++)
      if (!strcmp(b->pairs[j].pred, p->pred)) same = j;
    if (same < k) copy_record(&b->out[k], &b->out[same]);
    else score_pair(b->ev, w, p, &b->out[k]);
  }
  return hi;
}

static void *batch_worker(void *arg) {
  batch *b = arg;
  worker *w = worker_get(b->ev);
  for (;;) {
    pthread_mutex_lock(&b->mu);
    if (cancelled(b)) b->stop = 1;
    size_t lo = b->next, hi = lo;
    if (!b->stop && lo < b->n) {
      hi = lo + 1;
      while (hi < b->n && hi - lo < CHUNK && same_gold(&b->pairs[lo], &b->pairs[hi])) hi++;
      b->next = hi;
    }
    pthread_mutex_unlock(&b->mu);
    if (lo == hi) break;
    size_t end = score_run(b, w, lo, hi);
    pthread_mutex_lock(&b->mu);
    for (size_t k = lo; k < end; k++) b->done[k] = 1;
    pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->mu);
  }
  worker_put(b->ev, w);
  sqlsim_thread_cleanup();
  pthread_mutex_lock(&b->mu);
  b->exited++;
  pthread_cond_broadcast(&b->cv);
  pthread_mutex_unlock(&b->mu);
  return NULL;
}

size_t sqlsim_evaluate_batch(sqlsim_evaluator *ev, const sqlsim_pair *pairs, size_t n, sqlsim_record *out,
                             const sqlsim_batch_opts *opts) {
  static const sqlsim_batch_opts none = {0};
  const sqlsim_batch_opts *o = opts ? opts : &none;
  if (n == 0) return 0;
  memset(out, 0, n * sizeof *out);
  batch b = {.ev = ev, .pairs = pairs, .n = n, .out = out, .o = o};
  b.done = calloc(n, 1);
  if (!b.done) return 0;
  pthread_mutex_init(&b.mu, NULL);
  pthread_cond_init(&b.cv, NULL);
  int jobs = o->jobs > 0 ? o->jobs : 1;
  if ((size_t)jobs > n) jobs = (int)n;
  pthread_t *th = calloc((size_t)jobs, sizeof *th);
  int started = 0;
  for (int t = 0; t < jobs; t++)
    if (pthread_create(&th[t], NULL, batch_worker, &b) == 0) started++;
    else break;
  if (!started) batch_worker(&b); /* no thread to be had: score here */
  int timing = (ev->cfg.metrics & SQLSIM_M_TIMING) != 0;
  /* Deliver finished records in order (without timing) and report progress,
   * here on the calling thread. */
  size_t ready = 0;
  pthread_mutex_lock(&b.mu);
  for (;;) {
    size_t was = ready;
    while (ready < n && b.done[ready]) ready++;
    if (ready > was) {
      pthread_mutex_unlock(&b.mu);
      for (size_t k = was; k < ready; k++) {
        if (!timing && o->on_record) o->on_record(o->ctx, k, &out[k]);
        if (o->on_progress) o->on_progress(o->ctx, "scoring", k + 1, n);
      }
      pthread_mutex_lock(&b.mu);
      continue;
    }
    if (ready == n) break;
    if (cancelled(&b)) b.stop = 1;
    if (b.stop && (b.next <= ready || b.exited == started)) break; /* nothing more can finish */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += 200 * 1000000L; /* wake to see a cancel set by a signal handler */
    if (ts.tv_nsec >= 1000000000L) ts.tv_sec++, ts.tv_nsec -= 1000000000L;
    pthread_cond_timedwait(&b.cv, &b.mu, &ts);
  }
  b.stop = 1;
  pthread_mutex_unlock(&b.mu);
  for (int t = 0; t < started; t++) pthread_join(th[t], NULL);
  free(th);
  /* Pairs finished past the first unfinished one are dropped: the result is a prefix. */
  for (size_t k = ready; k < n; k++)
    if (b.done[k]) sqlsim_record_clear(&out[k]);
  free(b.done);
  pthread_cond_destroy(&b.cv);
  pthread_mutex_destroy(&b.mu);
  if (timing) {
    size_t total = 0, t = 0;
    for (size_t k = 0; k < ready; k++) total += out[k].ex_bird == 1;
    for (size_t k = 0; k < ready; k++) {
      if (o->cancel && *o->cancel) {
        for (size_t j = k; j < ready; j++) sqlsim_record_clear(&out[j]);
        return k;
      }
      time_pair(ev, &pairs[k], &out[k], o->cancel);
      if (o->cancel && *o->cancel) { /* stopped inside this pair's timing: it is not finished */
        for (size_t j = k; j < ready; j++) sqlsim_record_clear(&out[j]);
        return k;
      }
      if (o->on_record) o->on_record(o->ctx, k, &out[k]);
      if (out[k].has_timing && o->on_progress) o->on_progress(o->ctx, "timing", ++t, total);
    }
  }
  return ready;
}
