/* analyze.h -- the data of an analysis run, shared by `sqlsim analyze` and the
 * HTML report (report/html.c). */
#ifndef SQLSIM_ANALYZE_H
#define SQLSIM_ANALYZE_H

#include "evalrun.h"

/* One benchmark: a gold file, its schema and databases, its prediction files. */
typedef struct an_group {
  const char *gold_path, *tables, *db_dir, *sqlite;
  const char *pred_paths[64];
  int npreds;
  int bird;             /* BIRD gold: EX with BIRD's semantics decides "correct" */
  int with_db;          /* execution ran */
  eval_ctx c;           /* records, items, catalog */
  sqlsim_itemset *pred[64];
} an_group;

/* Category counts of one model: overall, per group label. */
int an_correct(const rec *r);

/* Writes the self-contained HTML report. Returns 0 or -1. */
int html_report(const char *path, an_group *groups, int ngroups);

#endif
