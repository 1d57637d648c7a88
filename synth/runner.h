/* runner.h -- synth's declared interface to the engine, beside sqlsim.h's
 * runner (sqlsim_synth_runner_new, sqlsim_synth_trees): a pair's databases
 * kept and several queries judged on them, for the error analysis's repair
 * (analyze/repair.c, through the engine), and the keyed form of an ordered
 * query (audit/). synth.h is synth's inside. */
#ifndef SQLSIM_SYNTH_RUNNER_H
#define SQLSIM_SYNTH_RUNNER_H

#include "core.h"
#include "exec/server.h"

/* Several queries judged against the gold on the pair's databases, each
 * database made once, or loaded from the pair's run when the runner kept
 * them (synth.c, synth_many): pass[i] 1/0/-1, graded[i]; no query starts
 * after deadline (sbx_clock(); 0: none), and what it stopped is -1. */
int synth_many(sqlsim_synth_runner *x, const sqlsim_query *gold, const char *gold_sql, const sqlsim_query *pred,
               const char *pred_sql, const char *const *sqls, int n, double deadline, int *pass, double *graded,
               sqlsim_error *err);
/* Keep the last pair's databases (on) for synth_many, or stop and free
 * them (synth.c). */
void synth_runner_keep(sqlsim_synth_runner *x, int on);
/* The engine the runner's next pairs are judged on: the database of db_id
 * at target t (which outlives the runner's use of it), or t NULL for the
 * runner's own SQLite (synth.c, mirror.c). 0, or -1 out of memory. */
int synth_runner_engine(sqlsim_synth_runner *x, const exec_target *t, const char *db_id);

/* A plain top-level SELECT with ORDER BY (the gold, or a prediction) with its
 * sort keys as extra trailing columns and without LIMIT and OFFSET, its LIMIT
 * and OFFSET (-1 none) and the number of keys: what the ties at a cut are read
 * from, on generated databases and, by the audit, on real ones (judge.c).
 * NULL when the query is not of that form; malloc'd. */
char *synth_keyed_query(const sqlsim_query *query, long *limit, long *offset, int *nkeys);
/* On the keyed query's answer r (its last nkeys columns the sort keys):
 * whether the LIMIT/OFFSET window's cut falls inside a run of rows with equal
 * keys that return different values, so which rows the window keeps is not
 * determined; that run is rows [*lo, *hi] (judge.c). */
int synth_cut_ties(const sqlsim_result *r, long limit, long offset, int nkeys, long *lo, long *hi);

#endif
