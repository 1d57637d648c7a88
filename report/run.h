/* run.h -- one benchmark scored: its gold items, each model's predictions,
 * and the engine's record per (item, model). `sqlsim eval` and `sqlsim
 * analyze` fill runs (report/run.c); the reports read them. */
#ifndef SQLSIM_RUN_H
#define SQLSIM_RUN_H

#include "core.h"

#define RUN_MAX_PREDS 64

typedef struct run {
  const char *gold_path, *tables, *db_dir, *sqlite, *engine;
  int dialect; /* SQLSIM_DIALECT_* */
  const char *pred_paths[RUN_MAX_PREDS]; /* as given: FILE or NAME=FILE */
  int npreds;
  int all_items;           /* gold items without a prediction scored (as wrong), not left out */
  char *names[RUN_MAX_PREDS]; /* each model's name, unique in the run (run_load) */
  const char *files[RUN_MAX_PREDS]; /* each model's file */
  /* The gold items scored: all of them, or those every prediction file
   * covers (BIRD predictions keyed by question index may be a subset);
   * index[i] is item i's position in the whole gold set of total items. */
  sqlsim_itemset *gold, *pred[RUN_MAX_PREDS];
  sqlsim_itemset *gold_all, *pred_all[RUN_MAX_PREDS];
  int *index, total;
  int missing[RUN_MAX_PREDS]; /* gold items the model's file has no prediction for */
  sqlsim_evaluator *ev;    /* its configuration is the run's (run_config) */
  sqlsim_record *recs;     /* item-major: the models' records of item 0, then item 1, ... */
  size_t done;             /* records finished, from the first (all, unless interrupted) */
  int scored;              /* items whose records are all finished: the reports cover these */
  int bird;                /* BIRD gold: BIRD's EX decides "correct" */
  sqlsim_audit *audit;     /* the benchmark's audit (analyze --audit), or NULL */
  int with_db;             /* execution ran */
} run;

/* The record of model p on item i. */
static inline sqlsim_record *run_record(const run *r, int p, int i) {
  return &r->recs[(size_t)i * (size_t)r->npreds + (size_t)p];
}

/* The configuration the run was scored with (the evaluator's, defaults
 * filled in). */
static inline const sqlsim_config *run_config(const run *r) { return sqlsim_evaluator_config(r->ev); }

/* Model p's name (unique in the run). */
static inline const char *model_name(const run *r, int p) { return r->names[p]; }
/* The group item i is reported in (sqlsim_group_of), or NULL. */
const char *run_group(const run *r, int i);

/* Loads the gold and prediction files, names the models (NAME=FILE, else
 * the file's base name, with its directory where two would be the same;
 * two models of one name are an error), pairs items up (by position, or by
 * question index for BIRD prediction objects), makes the evaluator
 * from cfg (the benchmark's defaults added; the library checks it) and checks
 * that something can be scored. Returns 0, or -1 with err saying why (-2
 * for a bad argument: model names that clash, a configuration the library
 * refuses); the face prints it. */
int run_load(run *r, const sqlsim_config *cfg, sqlsim_error *err);
/* Names the models of r->pred_paths (run_load's first step; sqlsim audit
 * names its systems so): 0, or -1 when two would have one name. */
int run_name_models(run *r, sqlsim_error *err);
/* Scores every (item, model) pair with the engine's batch options (threads;
 * on_record sees each record in order as it finishes, k counting item-major;
 * progress; a cancel flag that stops with the records finished so far, whose
 * count is r->done). */
void run_score(run *r, const sqlsim_batch_opts *o);
void run_free(run *r);
/* The benchmark audited over the items scored (sqlsim_audit_records over
 * the run's records: it was scored with config.audit): 0, or -1 with err. */
int run_audit(run *r, sqlsim_error *err);

/* The per-item JSON line of rec, record k of the run: model, benchmark,
 * index, db_id, group and the item's labels, then the record's fields
 * (docs/per-item.md). */
void run_item_json(strbuf *sb, const run *r, size_t k, const sqlsim_record *rec);

#endif
