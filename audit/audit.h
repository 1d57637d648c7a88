/* audit.h -- the audit's inside: one gold item's evidence (evidence.c)
 * gathered by the driver (audit.c), which weighs the systems, scores and
 * ranks the items. The public API is sqlsim.h's sqlsim_audit_*. */
#ifndef SQLSIM_AUDIT_H
#define SQLSIM_AUDIT_H

#include "core.h"

/* The a-priori weight of each kind of evidence but consensus (whose strength
 * is measured): how likely a gold showing it alone is wrong or
 * underdetermined. Chosen before any corpus was audited, from what each
 * kind means (docs/audit.md says why); never fitted to items. */
#define AUDIT_W_FAILS 1.0        /* it fails to run or to parse */
#define AUDIT_W_UNRESOLVED 0.6   /* it names what the schema lacks (no database to run it on) */
#define AUDIT_W_EMPTY_DB 0.5     /* no row, or only NULLs, on the item's database */
#define AUDIT_W_EMPTY_GEN 0.25   /* ... on every generated database */
#define AUDIT_W_TIES_DB 0.35     /* rows of equal keys at the LIMIT's cut on the database */
#define AUDIT_W_TIES_FORM 0.1    /* ORDER BY keys that nothing makes unique, no database to look */
#define AUDIT_W_UNORDERED_DB 0.35
#define AUDIT_W_UNORDERED_FORM 0.2
#define AUDIT_W_GROUP_DB 0.35    /* groups shown holding several values of the free column */
#define AUDIT_W_GROUP_FORM 0.15
#define AUDIT_W_INT_DIV 0.25
#define AUDIT_W_CASE 0.4

/* One item's evidence, as it is found. */
typedef struct audit_found {
  unsigned kinds;
  double keep;       /* product of (1 - weight) over the evidence but consensus */
  strbuf json;       /* the evidence objects, comma-separated */
} audit_found;

/* Adds evidence of kind (SQLSIM_AUDIT_*) with weight w: an object whose
 * "kind", "weight" and "what" (a sentence) are written here, then more
 * (text after a comma, or NULL) as the object's other members. */
void audit_add(audit_found *f, unsigned kind, double w, const char *what, const char *more);

/* The checks of the gold's form alone (evidence.c): LIMIT without ORDER BY,
 * a column outside GROUP BY the groups do not determine, integer division,
 * and (without a database: db NULL) ORDER BY keys that may tie at a LIMIT.
 * On a database, each form is looked at there and reported with the rows
 * that show it, or not at all when the database shows none. */
void audit_form_checks(audit_found *f, const sqlsim_query *gold, sqlsim_db *db, int dialect);
/* On the item's database: text literals the gold compares a column with
 * that occur there only in another case or spelling. */
void audit_literal_checks(audit_found *f, const sqlsim_query *gold, sqlsim_db *db);

/* How many of q's comparisons of a text column with a value (=, IN, LIKE)
 * name a value the column never holds on db: an answer resting on such a
 * value is the query's mistake, not evidence about another's. */
int audit_absent_values(const sqlsim_query *q, sqlsim_db *db);

#endif
