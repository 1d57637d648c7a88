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

/* A gold's realistic databases (realm.c), for the audit: K databases made
 * as real data looks from the schema and the gold's facts alone (the same
 * for every prediction of the gold), each kept with the gold's answer
 * there. Made on x's connection for the gold's schema, gold_sql as run
 * (the engine's text): NULL with err set. */
typedef struct synth_realm synth_realm;
synth_realm *synth_realm_make(sqlsim_synth_runner *x, const sqlsim_query *gold, const char *gold_sql,
                              sqlsim_error *err);
void synth_realm_free(synth_realm *r);
/* The gold returned a row (not only NULLs) on one of them; it ran on all. */
int synth_realm_informative(const synth_realm *r);
int synth_realm_gold_ran(const synth_realm *r);
/* sql's answers there: *hash, the answers as the audit compares them (sets
 * of rows, the columns in an order of their own), database after database
 * (0: it failed on one); *same 1 when each is the gold's, 0 when not, -1
 * when the gold answered nothing on every one (no verdict). 0, or -1 when
 * a database cannot be loaded. */
int synth_realm_answer(sqlsim_synth_runner *x, synth_realm *r, const char *sql, uint64_t *hash, int *same);
/* x's connection holding database k of the realm (to look at its values),
 * NULL when it cannot be loaded. */
sqlsim_db *synth_realm_load(sqlsim_synth_runner *x, synth_realm *r, int k);
/* The first of them on which sql's answer is not the gold's, as a witness
 * (the database, both answers' first rows; malloc'd), NULL when none. */
sqlsim_witness *synth_realm_witness(sqlsim_synth_runner *x, synth_realm *r, const char *sql);

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
