/* rewrite.h -- the rewriter's internals: rules (rules.c) and the proof of a
 * candidate (rewrite.c). */
#ifndef SQLSIM_REWRITE_H
#define SQLSIM_REWRITE_H

#include "core.h"

/* What the rules know of the data: read from db (read-only) when a rule first
 * needs it, then kept, so trying rules alone and together reads each fact
 * once. Start from {db, NULL}; free(iso_dates) when done. */
typedef struct rewrite_facts {
  sqlsim_db *db;   /* NULL: rules that need the data leave their places alone */
  int *iso_dates;  /* per schema column: 0 unread, 1 all valid ISO date text, -1 not, -2 unreadable */
} rewrite_facts;

/* Applies one rule (SQLSIM_RULE_*) everywhere its conditions hold, changing q
 * in place. Appends to notes, one line each, the places looked at and left
 * alone, and why. Returns how many places changed. */
int sqlsim_rewrite_apply(sqlsim_query *q, int rule, rewrite_facts *facts, strbuf *notes);

#endif
