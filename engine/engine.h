/* engine.h -- the evaluator's insides, shared by the files of engine/ and by
 * no other module (the faces use sqlsim.h, and engine/fields.h for the
 * record's JSON fields after keys of their own).
 *
 *   metrics.c    the metric table: names, what each needs and implies, its
 *                stage and its per-item fields; the fields' writer
 *   evaluator.c  the evaluator's lifecycle and its checks
 *   workers.c    the pool of workers: each a Spider matcher, open database
 *                connections and the last gold queries prepared
 *   score.c      one pair: the table's stages in turn, then the timing
 *   batch.c      many pairs on worker threads, records delivered in order
 *   reward.c, stream.c on top */
#ifndef SQLSIM_ENGINE_H
#define SQLSIM_ENGINE_H

#include <pthread.h>

#include "core.h"
#include "analyze/analyze.h"
#include "exec/server.h"
#include "metrics/ex.h"
#include "metrics/spider2.h"
#include "synth/runner.h"
#include "fields.h"

typedef struct worker worker;

struct sqlsim_evaluator {
  sqlsim_config cfg;         /* strings point at the copies below */
  char *tables, *db_dir, *sqlite, *now, *engine, *spider2;
  exec_target target;        /* the engine, parsed once (engine NULL: none) */
  int dialect;               /* SQLSIM_DIALECT_*, the engine's resolved */
  unsigned parse_options;    /* sqlsim_parse's for gold and predictions: the dialect, MySQL's sql_mode */
  sqlsim_catalog *catalog;
  int spider;                /* Spider matching and hardness are possible (tables.json, per db_id) */
  pthread_mutex_t mu;
  worker *free_workers;      /* the pool: workers not lent to a call */
  s2_gold_set *s2;           /* config.spider2: the Spider 2.0 gold, opened once */
};

/* ---------------------------------------------------------------- evaluator.c */

/* The database of a db_id, if it can be read: the --sqlite file, or
 * DIR/<db_id>/<db_id>.sqlite written into buf, or the engine's URL with
 * {db_id} replaced (its name for the connection cache and messages; the
 * connection is made from the parsed target); NULL when there is none. */
const char *engine_db_path(const sqlsim_evaluator *ev, const char *db_id, char *buf, size_t n);
/* The dialect gold and predictions are read in (the one rule: the one
 * asked for, else the engine's, else SQLite's) and the parse options it
 * comes to (with the engine's own settings: MySQL's sql_mode). */
int engine_dialect(int asked, const exec_target *t, unsigned *parse_options);
/* The schema a db_id is read with, or NULL. */
const sqlsim_schema *engine_schema(const sqlsim_evaluator *ev, const char *db_id);
/* The comparison the equivalent forms must hold under: BIRD's sets, or
 * Spider's rows with DISTINCT dropped (unless --keep-distinct). */
unsigned engine_equiv_flags(const sqlsim_evaluator *ev);

/* Two db_ids are the same (both may be NULL). */
static inline int engine_same_db_id(const char *a, const char *b) { return a == b || (a && b && !strcmp(a, b)); }

/* ---------------------------------------------------------------- workers.c */

#define GOLD_SLOTS 4 /* prepared gold queries kept per worker */
#define CONN_SLOTS 8 /* open connections kept per worker */

typedef struct conn_slot {
  char *path;
  sqlsim_db *db;
  unsigned long used;
} conn_slot;

/* The gold's side of the audit (config.audit), found once per gold
 * (workers.c) and copied into each of its records. */
typedef struct gold_audit {
  int gold_ok, generated, no_schema;
  evidence_found found;    /* its own evidence */
  char error[320];         /* why the item is not looked at as asked */
  int with_db;             /* its answers come from the item's database */
  int gold_absent;         /* on it, the gold's comparisons with values the database lacks (-1: not known) */
  synth_realm *realm;      /* without a database: the gold's realistic generated databases */
  char *gold_run;          /* the gold's text as run there (SQLite's print of another dialect) */
} gold_audit;

/* A gold query prepared once for every prediction scored against it. */
typedef struct gold_prep {
  char *sql, *db_id;       /* the key; NULL: an empty slot */
  unsigned long used;
  char gold_err[512], match_err[512];
  int hardness;
  sqlsim_spider_gold *spider;
  sqlsim_query *tree, *tree_eq; /* as written; equivalent forms made one */
  const sqlsim_schema *schema;
  int ran;                 /* the gold ran on every database of the item: ex holds */
  char path[1024];         /* the item's database */
  ex_gold ex;              /* its results there and on the test suite (metrics/ex.h) */
  gold_audit audit;        /* config.audit */
  s2_task_gold *s2;        /* spider2: the task's gold variants and rule (NULL: no such task) */
} gold_prep;

struct worker {
  struct worker *next;
  sqlsim_spider *spider;
  conn_slot conns[CONN_SLOTS];
  gold_prep golds[GOLD_SLOTS];
  sqlsim_synth_runner *synth; /* made on first use */
  unsigned long tick;
};

/* A worker lent from the evaluator's pool (made when the pool is empty;
 * aborts only when out of memory), and given back. */
worker *engine_worker_get(sqlsim_evaluator *ev);
void engine_worker_put(sqlsim_evaluator *ev, worker *w);
void engine_worker_free(worker *w);
/* An open connection to the database at path (db_id's, for an engine's
 * target) from the worker's slots (the least recently used one replaced),
 * or NULL with why set. */
sqlsim_db *engine_worker_db(sqlsim_evaluator *ev, worker *w, const char *path, const char *db_id, char *why,
                            size_t wn);
/* The worker's connections, as metrics/ex.c opens databases: ctx is an
 * engine_pool (db_id: the item's). */
typedef struct engine_pool {
  sqlsim_evaluator *ev;
  worker *w;
  const char *db_id;
} engine_pool;
sqlsim_db *engine_pool_open(void *ctx, const char *path, char *why, size_t wn);
/* The worker's preparation of (sql, db_id), made if it has none. */
const gold_prep *engine_gold_for(sqlsim_evaluator *ev, worker *w, const char *sql, const char *db_id);
/* The worker's synthetic runner, made on first use (NULL out of memory). */
sqlsim_synth_runner *engine_worker_synth(sqlsim_evaluator *ev, worker *w);
/* The text a query runs as on the generated databases: as written on an
 * engine's mirror or in SQLite's dialect, else SQLite's print of its tree
 * (malloc'd; NULL out of memory). */
char *engine_synth_text(const sqlsim_evaluator *ev, const sqlsim_query *q, const char *sql);

/* ---------------------------------------------------------------- score.c */

/* One pair being scored: what its stages share. */
typedef struct engine_pair {
  sqlsim_evaluator *ev;
  worker *w;                /* NULL in the timing phase */
  const sqlsim_pair *p;     /* pred: the SQL scored (read out of a model's answer with extract) */
  const gold_prep *g;       /* NULL in the timing phase */
  sqlsim_record *r;
  sqlsim_query *pred;       /* the prediction parsed with the gold's schema, as parsed (engine_pred) */
  int parsed, pred_offset;  /* parsed once; where it does not parse (-1 unknown) */
  sqlsim_query *pred_eq;    /* a copy with equivalent forms made one, for the calibrated diff */
  sqlsim_diff *diff;        /* the calibrated diff (its edits point into pred_eq), for the categories */
  sqlsim_witness *exec_witness; /* a real database's evidence: it outranks a generated one's */
  uint64_t exec_answer;     /* config.audit: the exec stage's answer hash and the audit's comparison */
  int exec_any_order, exec_ran;
  const volatile int *cancel;   /* the timing phase's */
} engine_pair;

/* The prediction parsed with the gold's schema, once a pair; NULL when it
 * does not parse (the record's structure part says why when bis is on). */
sqlsim_query *engine_pred(engine_pair *c);

/* The stages the metric table names (score.c): each writes its own part of
 * the record. */
void engine_stage_match(engine_pair *c);
void engine_stage_exec(engine_pair *c);
void engine_stage_structure(engine_pair *c);
void engine_stage_synth(engine_pair *c);
void engine_stage_analysis(engine_pair *c);
void engine_stage_timing(engine_pair *c);
void engine_stage_audit(engine_pair *c);
void engine_stage_spider2(engine_pair *c);

/* Everything but timing, for one pair, on a worker: r is overwritten. */
void engine_score_pair(sqlsim_evaluator *ev, worker *w, const sqlsim_pair *p, sqlsim_record *r);
/* The timing metrics of a pair EX found correct (on the calling thread,
 * alone on the machine); cancel may stop it between runs. */
void engine_time_pair(sqlsim_evaluator *ev, const sqlsim_pair *p, sqlsim_record *r, const volatile int *cancel);

/* ---------------------------------------------------------------- metrics.c */

enum { ENGINE_NEEDS_TABLES = 1, ENGINE_NEEDS_SCHEMA = 2, ENGINE_NEEDS_DATABASES = 4 };

/* An entry of the metric table. */
typedef struct engine_metric {
  const char *name;        /* as --metrics and Python's metrics= read it; NULL: a part of every
                              record, not a metric */
  unsigned flag;           /* SQLSIM_M_* */
  unsigned implies;        /* metrics computed with it */
  unsigned needs;          /* ENGINE_NEEDS_* */
  unsigned with;           /* its stage runs and its fields are written when one of these is
                              asked (0: its own flag) */
  int timed;               /* its stage runs in the timing phase, alone on the machine */
  void (*score)(engine_pair *c); /* its stage (NULL: another entry's stage computes it) */
  void (*fields)(const sqlsim_record *r, const sqlsim_sink *s, void *ctx); /* its per-item fields */
  const char *help;
} engine_metric;

/* The table, in the per-item line's order, ended by an entry with neither
 * name nor fields. */
extern const engine_metric engine_metrics[];
#define ENGINE_FOR_METRICS(e) for (const engine_metric *e = engine_metrics; (e)->fields || (e)->name; (e)++)
int engine_metric_on(const engine_metric *e, unsigned metrics);
const engine_metric *engine_metric_of(unsigned flag);
/* m with every metric it implies. */
unsigned engine_metrics_closure(unsigned m);
/* What the metrics of c need (a schema, databases) is there: 0, or
 * SQLSIM_ECONFIG with err naming the metric and what to give. */
int engine_metrics_check(const sqlsim_config *c, sqlsim_error *err);

#endif
