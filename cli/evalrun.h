/* evalrun.h -- the per-item machinery shared by `sqlsim eval` and `sqlsim analyze`:
 * one record per (prediction file, item), filled by phases (matching, BIS and
 * the calibrated score, execution, timing). */
#ifndef SQLSIM_EVALRUN_H
#define SQLSIM_EVALRUN_H

#include "cli.h"

#include <pthread.h>

enum { M_MATCH = 1, M_EXEC = 2, M_VES = 4, M_RVES = 8, M_RESULT = 16, M_BIS = 32 };
#define M_DB (M_EXEC | M_VES | M_RVES | M_RESULT)

typedef struct rec {
  int has_match;
  sqlsim_spider_score match;
  int ex_spider, ex_bird; /* 1/0, -1 not run */
  char ex_err[256];       /* why the prediction did not run */
  int has_rsim;
  sqlsim_result_sim rsim;
  int has_timing;
  sqlsim_timing timing;
  int has_bis;
  double bis, score;
  char bis_err[256];
  /* for analyze */
  long gold_rows, pred_rows;  /* -1 when not run */
  const char *dialect;        /* a construct SQLite does not have, or NULL */
  sqlsim_categories cats;     /* structural, then final */
  int *gspans, *pspans;       /* byte spans [start, end) of the differing parts */
  int ngspans, npspans;
} rec;

typedef struct eval_ctx {
  int metrics, mode, npreds, jobs, alternate, iterations;
  double timeout;
  const char *now, *db_dir, *sqlite, *gold_path;
  const char **pred_paths;
  sqlsim_itemset *gold, **pred;
  sqlsim_catalog *catalog;
  int *hardness;          /* per gold item, SQLSIM_HARD_* (UNKNOWN without tables) */
  char **gold_err;        /* per gold item: why it cannot be scored (BIS parse, execution) */
  char **match_err;       /* per gold item: why the matcher cannot read it */
  rec *recs;              /* npreds x n */
  int next_item;          /* work queue for exec threads */
  pthread_mutex_t mu;
  int want_categories;    /* analyze: categories and spans from the calibrated diff */
  sqlsim_arena *arena;    /* their evidence strings and spans */
} eval_ctx;


rec *R(eval_ctx *c, int p, int i);
const char *model_name(const char *path);
const char *db_path(eval_ctx *c, const char *db_id, char *buf, size_t n);
void set_gold_err(eval_ctx *c, int i, const char *msg);
/* After loading: a configuration under which nothing could be scored is an
 * error (no database under --db-dir for any gold item; a --tables file with
 * no schema for any gold db_id). Returns 0 or -1 after printing why. */
int check_setup(eval_ctx *c, int need_db, int need_schema);
const sqlsim_schema *schema_of(eval_ctx *c, const char *db_id);
/* Phases; each fills its part of the records. */
void phase_match(eval_ctx *c);
void phase_bis(eval_ctx *c);
void phase_exec(eval_ctx *c);
void phase_timing(eval_ctx *c);
/* The group an item is reported in: BIRD difficulty, BIS case_type, Spider hardness. */
const char *group_of(eval_ctx *c, int i);

#endif
