/* engine.h -- the evaluator's insides, shared by the files of engine/ and by
 * no other module (the faces use sqlsim.h, and engine/record.h for the
 * record's JSON fields).
 *
 *   evaluator.c  metric names, the evaluator's lifecycle and its checks
 *   workers.c    the pool of workers: each a Spider matcher, open database
 *                connections and the last gold queries prepared
 *   score.c      one pair: every metric, the categories, the timing
 *   batch.c      many pairs on worker threads, records delivered in order
 *   record.c     a record as JSON; reward.c, stream.c on top */
#ifndef SQLSIM_ENGINE_H
#define SQLSIM_ENGINE_H

#include <pthread.h>

#include "core.h"
#include "metrics/ex.h"
#include "record.h"

typedef struct worker worker;

struct sqlsim_evaluator {
  sqlsim_config cfg;         /* strings point at the copies below */
  char *tables, *db_dir, *sqlite, *now;
  sqlsim_catalog *catalog;
  int spider;                /* Spider matching and hardness are possible (tables.json, per db_id) */
  pthread_mutex_t mu;
  worker *free_workers;      /* the pool: workers not lent to a call */
};

/* ---------------------------------------------------------------- evaluator.c */

/* The database of a db_id, if it can be read: the --sqlite file, or
 * DIR/<db_id>/<db_id>.sqlite written into buf; NULL when there is none. */
const char *engine_db_path(const sqlsim_evaluator *ev, const char *db_id, char *buf, size_t n);
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
/* An open connection to path from the worker's slots (the least recently
 * used one replaced), or NULL with why set. */
sqlsim_db *engine_worker_db(sqlsim_evaluator *ev, worker *w, const char *path, char *why, size_t wn);
/* The worker's connections, as metrics/ex.c opens databases: ctx is an
 * engine_pool. */
typedef struct engine_pool {
  sqlsim_evaluator *ev;
  worker *w;
} engine_pool;
sqlsim_db *engine_pool_open(void *ctx, const char *path, char *why, size_t wn);
/* The worker's preparation of (sql, db_id), made if it has none. */
const gold_prep *engine_gold_for(sqlsim_evaluator *ev, worker *w, const char *sql, const char *db_id);

/* ---------------------------------------------------------------- score.c */

/* Everything but timing, for one pair, on a worker: r is overwritten. */
void engine_score_pair(sqlsim_evaluator *ev, worker *w, const sqlsim_pair *p, sqlsim_record *r);
/* The timing metrics of a pair EX found correct (on the calling thread,
 * alone on the machine); cancel may stop it between runs. */
void engine_time_pair(sqlsim_evaluator *ev, const sqlsim_pair *p, sqlsim_record *r, const volatile int *cancel);

/* ---------------------------------------------------------------- record.c */

/* The record's arena, made on first use. */
sqlsim_arena *engine_record_arena(sqlsim_record *r);
/* A deep copy of src into dst (its own arena). */
void engine_record_copy(sqlsim_record *dst, const sqlsim_record *src);

#endif
