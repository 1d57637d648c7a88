/* ex.h -- EX on the databases of one item, the interface of metrics/ex.c to
 * the engine: the gold run once on its database and on the db_id's other
 * databases (a test suite, as Spider's test-suite evaluator finds them),
 * then each prediction scored against those results with both published
 * semantics. The single comparisons (sqlsim_ex_bird, sqlsim_ex_spider) and
 * the one-database items are in sqlsim.h. */
#ifndef SQLSIM_EX_H
#define SQLSIM_EX_H

#include "core.h"

#define EX_MAX_SUITE 1000 /* most sibling databases of one db_id */
#define EX_MAX_PLUG 1000  /* most plug_value alternatives tried for one prediction */

/* An open connection to path, or NULL with why set: the caller's pool. */
typedef sqlsim_db *(*ex_open_fn)(void *ctx, const char *path, char *why, size_t wn);

/* The gold's results on one database. */
typedef struct ex_gold_db {
  char *path;
  sqlsim_result raw, sp; /* as written (with values); Spider's text (when it differs) */
} ex_gold_db;

/* A gold query run on every database of its item. */
typedef struct ex_gold {
  char *text;            /* Spider's execution text (DISTINCT removed unless kept) */
  int ordered;           /* Spider compares rows in order ("order by" in the text) */
  int same_text;         /* the text is the query as written: sp is raw */
  ex_gold_db *dbs;       /* [0] the item's database, then its test suite */
  int ndbs;
} ex_gold;

/* Whether two answers are the same set of rows once columns are put in an
 * order that does not depend on how each query wrote them (the audit's
 * comparison, and synthetic execution's with opts.bird = 2): the answer, not
 * its presentation. */
int ex_sets_any_column_order(const sqlsim_result *g, const sqlsim_result *p);
/* A hash of the answer as that comparison sees it (never 0): equal answers
 * hash equal. */
uint64_t ex_answer_hash(const sqlsim_result *r);

/* Rows of r that differ from each other (as BIRD's sets see them; 1 when
 * there is no memory to count them: never more than there are). */
long ex_distinct_rows(const sqlsim_result *r);

/* The other databases beside main_path in its directory, as the test-suite
 * evaluator finds them (every file whose name has ".sqlite" in it, not
 * SQLite's own -journal, -wal and -shm), readable regular files, sorted by
 * name, at most EX_MAX_SUITE: malloc'd paths in a malloc'd array. Returns
 * how many. */
int ex_suite_paths(const char *main_path, char ***out);

/* Runs sql on main_path and each of suite[0..nsuite) (which g takes over:
 * they are freed with g, or here on failure). Returns 0 with g filled, or -1
 * with err saying why the item cannot be scored (a database that does not
 * open, the gold failing on one: the official evaluator stops there) and g
 * empty. */
int ex_gold_run(ex_gold *g, const char *sql, const char *main_path, char **suite, int nsuite, int keep_distinct,
                ex_open_fn open, void *ctx, char *err, size_t en);
void ex_gold_clear(ex_gold *g);

typedef struct ex_opts {
  int keep_distinct;     /* Spider: DISTINCT kept in both texts */
  int plug_value;        /* Spider: the gold's values also tried in the prediction's value slots */
  int result;            /* BIS result similarity on the item's database too */
  int soft_f1;           /* mini-dev's Soft F1-Score there too */
  int witness;           /* a wrong prediction's answers shown (ex_verdict.witness) */
  int bird;              /* the evaluator's semantics, for witness: BIRD's, else Spider's */
  int audit;             /* the audit's comparison too (ex_verdict.answer, .any_order) */
} ex_opts;

/* What a prediction scored on the item's databases. */
typedef struct ex_verdict {
  int bird, spider;      /* 1/0: matched on every database */
  int databases;         /* how many it was judged on */
  long gold_rows, pred_rows; /* on the item's database; pred_rows -1 when it failed there */
  int has_rsim;
  sqlsim_result_sim rsim;
  int has_soft_f1;
  double soft_f1;
  int reconnected;       /* a server's connection was lost and opened again to run the prediction */
  uint64_t answer;       /* with opts.audit: ex_answer_hash of its answer on the item's database (0: failed) */
  int any_order;         /* ... and whether it is the gold's there as ex_sets_any_column_order sees it */
  char err[256];         /* why the prediction did not run ("" when it did) */
  sqlsim_witness *witness; /* with opts.witness, for a prediction wrong under the semantics on the
                            item's database: the first rows each returned that the other did not
                            (malloc'd: sqlsim_witness_free) */
} ex_verdict;

/* Scores pred against g (gold_sql is the gold as written, for plug_value). */
void ex_score(const ex_gold *g, const char *gold_sql, const char *pred, const ex_opts *o, ex_open_fn open, void *ctx,
              ex_verdict *out);

/* The evidence of a wrong prediction on a real database: the first rows
 * (at most 20) each query's answer has that the other's lacks, whole rows as
 * multisets, and the counts; g and p are their answers there (p may have
 * failed). NULL only when out of memory. */
sqlsim_witness *ex_witness(sqlsim_db *db, const char *gold, const char *pred, const sqlsim_result *g,
                           const sqlsim_result *p);

#endif
