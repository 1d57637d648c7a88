/* rewrite.h -- the rewriter's internals: rules (rules.c) and the proof of a
 * candidate (rewrite.c). */
#ifndef SQLSIM_REWRITE_H
#define SQLSIM_REWRITE_H

#include "core.h"

/* Applies one rule (SQLSIM_RULE_*) everywhere its conditions hold, changing q
 * in place; facts about the data are read from db (read-only; NULL: rules
 * that need them leave their places alone). Appends to notes, one line each,
 * the places looked at and left alone, and why. Returns how many places
 * changed. */
int sqlsim_rewrite_apply(sqlsim_query *q, int rule, sqlsim_db *db, strbuf *notes);

#endif
