/* report.h -- reports over scored runs (report/run.h). */
#ifndef SQLSIM_REPORT_H
#define SQLSIM_REPORT_H

#include "run.h"

/* Whether a record's final categories say the prediction is right. */
static inline int an_correct(const sqlsim_record *r) {
  return (r->analysis.cats.mask & ((1u << SQLSIM_CAT_CORRECT) | (1u << SQLSIM_CAT_CORRECT_OTHER_FORM))) != 0;
}

/* `sqlsim eval`'s report of a run, as text or as one JSON object. */
void eval_report_text(FILE *f, const run *c);
void eval_report_json(FILE *f, const run *c);

/* `sqlsim analyze`'s outputs of a run: CSV rows (header first when asked),
 * the text summary, and the same tables as one JSON object. */
void analyze_csv(FILE *f, const run *g, int header);
void analyze_text(FILE *f, const run *g);
void analyze_json(strbuf *sb, const run *g);

/* The audit as text (report/audit_report.c): the ranked table of the top
 * items (top_n, default 20), each one's evidence, each system's EX with and
 * without the flagged items; and its section of the HTML report (the
 * flagged items, at most 100). */
void audit_text(FILE *f, const sqlsim_audit *a, int top_n, double min_score);
void audit_html(FILE *f, const run *r);

/* A Spider 2.0 run's summary as text (report/spider2.c): by engine, the
 * score over the predicted tasks and over the benchmark's. */
void spider2_text(FILE *f, const sqlsim_spider2 *s);

/* Writes the self-contained HTML report of an analysis. Returns 0 or -1. */
int html_report(const char *path, const run *runs, int nruns);

#endif
