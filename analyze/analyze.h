/* analyze.h -- error analysis: what kind of mistake a prediction makes. The
 * engine's interface to analyze/, which sits between the diff and the
 * engine.
 *
 * One module decides a pair's categories: the structural rules read the
 * calibrated edit script (categories.c, through the diff's flattened trees,
 * diff/flat.h), the verdict weighs them with what execution, or synthetic
 * execution, found (verdict.c), and the dialect check names constructs
 * SQLite does not have (dialect.c). With a check to run queries, a wrong
 * pair's repair is searched too (repair.c). The public entry points
 * (sqlsim_categorize_diff, sqlsim_categories_rank, sqlsim_categories_limit,
 * sqlsim_dialect_construct) are in sqlsim.h. */
#ifndef SQLSIM_ANALYZE_H
#define SQLSIM_ANALYZE_H

#include "core.h"

/* What the verdict needs beside the record's scores. */
typedef struct analyze_input {
  const sqlsim_diff *diff;     /* the calibrated diff of gold and prediction (their
                                  equivalent forms made one); NULL: not compared */
  const sqlsim_schema *schema; /* the schema both were read with (may be NULL) */
  int bird;                    /* BIRD's EX decides "correct" (rows as tuples: the
                                  column order counts); else Spider's */
  int pred_error_offset;       /* the prediction does not parse: where, -1 unknown */
  /* Repair (repair.c): with check, a wrong pair's repair is searched. */
  const sqlsim_query *gold;    /* the gold as written, normalized with schema */
  const char *pred_sql;        /* the prediction's text (parsed again with schema) */
  unsigned equiv_flags;        /* sqlsim_equiv_normalize_as's, for each part's categories */
  /* Checks n queries against the gold where the pair is judged (the real
   * databases, or generated ones): pass[i] 1 when query i gives the gold's
   * answer there, 0 not, -1 not known (none is started after deadline, on
   * sbx_clock()); graded[i] the share of databases where it does. 0, or -1
   * when they could not be checked. */
  int (*check)(void *ctx, const char *const *sqls, int n, double deadline, int *pass, double *graded);
  void *ctx;
  int repair_checks;           /* at most this many repaired queries checked (0: no repair) */
  double repair_time_s;        /* and no more started past this time */
} analyze_input;

/* The categories of a scored pair: fills r->cats (ranked, the main reason
 * and the next kept, the others folded into their evidence) and the spans of
 * the parts that differ (r->gspans, r->pspans), from the diff and the
 * record's execution and synthetic execution results. Evidence and spans go
 * into the record's arena (made when needed). analyze/verdict.c */
void analyze_pair(const analyze_input *in, sqlsim_record *r);

/* Where rows are compared as tuples (BIRD): the same columns returned in
 * another order, found with nothing else, is why results differ. Added to
 * out as weak wrong_column (named only where execution shows the results
 * differ). Spider's EX matches columns by what they compute and does not see
 * it: not called there. analyze/categories.c */
void analyze_column_order(const sqlsim_diff *d, sqlsim_arena *a, sqlsim_categories *out);

/* A wrong pair's repair: the smallest set of its parts found whose fix gives
 * the gold's answer (in->check), as SQL, with those parts' categories:
 * fills r->repair_sql, r->repair_cats, r->repair_no_effect. 0, or -1 with
 * r->repair_note saying why none was found (the prediction does not parse,
 * the gold's parts in its places do not give the gold's answer, the budget
 * was spent). analyze/repair.c */
int analyze_repair(const analyze_input *in, sqlsim_record *r);

/* Where category c comes in the order a person names reasons (lower
 * first): sqlsim_categories_rank's. analyze/verdict.c */
int analyze_category_rank(int c);

#endif
