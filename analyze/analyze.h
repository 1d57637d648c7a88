/* analyze.h -- error analysis: what kind of mistake a prediction makes. The
 * engine's interface to analyze/, which sits between the diff and the
 * engine.
 *
 * One module decides a pair's categories: the structural rules read the
 * calibrated edit script (categories.c, through the diff's flattened trees,
 * diff/flat.h), the verdict weighs them with what execution, or synthetic
 * execution, found (verdict.c), and the dialect check names constructs
 * SQLite does not have (dialect.c). With a check to run queries, a wrong
 * pair's repair is searched too (repair.c). For the audit of a benchmark,
 * what a gold's own form and its database show (evidence.c). The public
 * entry points
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
  const sqlsim_query *pred;    /* the prediction as written, normalized with schema (NULL: it does
                                  not parse); read, never changed */
  const char *pred_sql;        /* the prediction's text (its literals are planted) */
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

/* Categories a pair keeps: the main reason and the next (the others are
 * folded into their evidence). */
#define ANALYZE_KEEP 2

/* The analysis of a scored pair r: *an gets its categories (ranked, the
 * first ANALYZE_KEEP kept) and the spans of the parts that differ, from the
 * diff and r's execution and synthetic execution parts; with in->check, a
 * wrong pair's repair goes into *rep (analyze_repair). Strings and spans
 * are allocated in a (the record's arena). analyze/verdict.c */
void analyze_pair(const analyze_input *in, const sqlsim_record *r, sqlsim_arena *a, sqlsim_analysis_part *an,
                  sqlsim_repair_part *rep);

/* Where rows are compared as tuples (BIRD): the same columns returned in
 * another order, found with nothing else, is why results differ. Added to
 * out as weak wrong_column (named only where execution shows the results
 * differ). Spider's EX matches columns by what they compute and does not see
 * it: not called there. analyze/categories.c */
void analyze_column_order(const sqlsim_diff *d, sqlsim_arena *a, sqlsim_categories *out);

/* A wrong pair's repair: the smallest set of its parts found whose fix gives
 * the gold's answer (in->check), as SQL, with those parts' categories:
 * fills rep->sql, rep->cats, rep->no_effect, rep->checks (strings in a).
 * 0, or -1 with rep->note saying why none was found (the prediction does not
 * parse, the gold's parts in its places do not give the gold's answer, the
 * budget was spent). analyze/repair.c */
int analyze_repair(const analyze_input *in, sqlsim_arena *a, sqlsim_repair_part *rep);

/* Keeps the first keep ranked categories of c (at least 1) and folds the
 * others into the last one kept: their names and evidence follow its
 * evidence ("also missing_filter: ..."), and they leave the mask; nranked
 * becomes keep, the order of those kept as it was. sqlsim_categories_limit
 * is this, then the ranking again. analyze/verdict.c */
void analyze_fold(sqlsim_categories *c, sqlsim_arena *a, int keep);

/* Where category c comes in the order a person names reasons (lower
 * first): sqlsim_categories_rank's. analyze/verdict.c */
int analyze_category_rank(int c);

/* ---------------------------------------------------------------- a gold's evidence (evidence.c) */

/* One gold's evidence, as it is found: the kinds, the product of (1 -
 * weight) over all but consensus, the evidence objects (comma-separated
 * JSON: {"kind", "weight", "what", ...}). keep starts at 1. */
typedef struct evidence_found {
  unsigned kinds;
  double keep;
  strbuf json;
} evidence_found;

/* A kind of evidence (SQLSIM_AUDIT_*) with its a-priori weights: how likely
 * a gold showing it alone is wrong or underdetermined, shown on the item's
 * database (weight) or found in the form alone (weight_form); its check
 * (NULL: found otherwise: consensus by the audit, a gold that fails or
 * returns nothing by the engine as it runs the gold). */
typedef struct evidence_kind {
  unsigned kind;
  const char *name;
  double weight, weight_form;
  void (*check)(evidence_found *f, const sqlsim_query *gold, sqlsim_db *db, int dialect);
} evidence_kind;

/* The table, in the order the checks run. */
extern const evidence_kind evidence_kinds[SQLSIM_AUDIT_NKINDS];
const evidence_kind *evidence_kind_of(unsigned kind);
/* Adds evidence of kind with weight w: an object whose "kind", "weight" and
 * "what" (a sentence) are written here, then more (text after a comma, or
 * NULL) as the object's other members. */
void evidence_add(evidence_found *f, unsigned kind, double w, const char *what, const char *more);
/* The table's checks of the gold's form (gold parsed with its schema): on
 * the item's database db each is reported only with the rows that show it;
 * without one (db NULL) from the form alone. dialect: SQLSIM_DIALECT_*. */
void evidence_gold_checks(evidence_found *f, const sqlsim_query *gold, sqlsim_db *db, int dialect);
/* How many of q's comparisons of a text column with a value (=, IN, LIKE)
 * name a value the column never holds on db (a SQLite connection): an
 * answer resting on such a value is the query's mistake, not evidence about
 * another's. */
int evidence_absent_values(const sqlsim_query *q, sqlsim_db *db);

#endif
