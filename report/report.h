/* report.h -- reports over scored runs (report/run.h). */
#ifndef SQLSIM_REPORT_H
#define SQLSIM_REPORT_H

#include "run.h"

/* Whether a record's final categories say the prediction is right. */
static inline int an_correct(const sqlsim_record *r) {
  return (r->cats.mask & ((1u << SQLSIM_CAT_CORRECT) | (1u << SQLSIM_CAT_CORRECT_OTHER_FORM))) != 0;
}

/* Writes the self-contained HTML report of an analysis. Returns 0 or -1. */
int html_report(const char *path, const run *runs, int nruns);

#endif
