/* run.h -- one benchmark scored: its gold items, each model's predictions,
 * and the engine's record per (item, model). `sqlsim eval` and `sqlsim
 * analyze` fill runs (report/run.c); the reports read them. */
#ifndef SQLSIM_RUN_H
#define SQLSIM_RUN_H

#include "core.h"

#define RUN_MAX_PREDS 64

typedef struct run {
  const char *gold_path, *tables, *db_dir, *sqlite;
  const char *pred_paths[RUN_MAX_PREDS];
  int npreds;
  sqlsim_itemset *gold, *pred[RUN_MAX_PREDS];
  sqlsim_config cfg;       /* what the evaluator was made with */
  sqlsim_evaluator *ev;
  sqlsim_record *recs;     /* item-major: the models' records of item 0, then item 1, ... */
  size_t done;             /* records finished, from the first (all, unless interrupted) */
  int bird;                /* BIRD gold: BIRD's EX decides "correct" */
  int with_db;             /* execution ran */
} run;

static inline sqlsim_record *R(const run *r, int p, int i) {
  return &r->recs[(size_t)i * (size_t)r->npreds + (size_t)p];
}

/* A model's name from its file (the basename without extension); for
 * display. Returns one of a ring of static buffers. */
const char *model_name(const char *path);
/* The group item i is reported in (sqlsim_group_of), or NULL. */
const char *run_group(const run *r, int i);

/* Loads the gold and prediction files, pairs them up, makes the evaluator
 * from cfg (the benchmark's defaults added) and checks that something can
 * be scored. Returns 0, or -1 after printing why. */
int run_load(run *r, const sqlsim_config *cfg);
/* Scores every (item, model) pair with the engine's batch options (threads;
 * on_record sees each record in order as it finishes, k counting item-major;
 * progress; a cancel flag that stops with the records finished so far, whose
 * count is r->done). */
void run_score(run *r, const sqlsim_batch_opts *o);
void run_free(run *r);

/* The per-item JSON line of record k: model, benchmark, index, db_id, group
 * and the item's labels, then the record's fields (docs/per-item.md). */
void run_item_json(strbuf *sb, const run *r, size_t k);

#endif
