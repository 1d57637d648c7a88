/* rewrite.h -- the rewriter's internals: rules (rules.c, subquery.c,
 * top1.c) and the proof of a candidate (rewrite.c). */
#ifndef SQLSIM_REWRITE_H
#define SQLSIM_REWRITE_H

#include "core.h"

/* What the rules know of the data: read from db (read-only) when a rule first
 * needs it, then kept, so trying rules alone and together reads each fact
 * once. Start from {db, path, NULL, NULL}; rewrite_facts_free when done. */
typedef struct rewrite_facts {
  sqlsim_db *db;   /* NULL: rules that need the data leave their places alone */
  const char *path; /* the database file, for facts read outside the executor */
  int *iso_dates;  /* per schema column: 0 unread, 1 all valid ISO date text, -1 not, -2 unreadable */
  int *indexed;    /* per schema column: 0 unread, 1 leads an index (or is the rowid), -1 not */
} rewrite_facts;
void rewrite_facts_free(rewrite_facts *f);

/* Applies one rule (SQLSIM_RULE_*) everywhere its conditions hold, changing q
 * in place. Appends to notes, one line each, the places looked at and left
 * alone, and why. Returns how many places changed. */
int rewrite_apply(sqlsim_query *q, int rule, rewrite_facts *facts, strbuf *notes);

/* ---------------------------------------------------------------- for the rules */

/* One application of one rule: the walk callbacks' context. */
typedef struct rule_ctx {
  sqlsim_query *q;
  rewrite_facts *facts; /* what is known of the data, kept across applications */
  strbuf *notes;        /* why places were left alone */
  int changed;
  /* FROM items on the NULL-filled side of an outer join */
  const sqlsim_node **nullable;
  int nnullable, capnullable;
} rule_ctx;

/* Appends "rule: <at as SQL> left alone: why" to the notes. */
void rule_note(rule_ctx *c, const char *rule, const sqlsim_node *at, const char *why);
/* The schema column n reads when n is a resolved column of a base table (not
 * of a derived table or CTE), else NULL. */
const sqlsim_column *rule_base_column(const rule_ctx *c, const sqlsim_node *n);
/* Whether a FROM item is on the NULL-filled side of an outer join. */
int rule_nullable_side(const rule_ctx *c, const sqlsim_node *from_item);
/* Whether the column leads an index of its table or is the rowid (read from
 * the database once, then kept). */
int rule_indexed(rule_ctx *c, const sqlsim_node *colnode);
/* Whether n holds an aggregate call outside any subquery. */
int rule_has_aggregate(const sqlsim_node *n);
/* Whether n holds a subquery. */
int rule_has_subquery(const sqlsim_node *n);
/* Whether a column anywhere in n reads a FROM item outside the subtree sel
 * (sel correlated to an enclosing query). */
int rule_correlated(const sqlsim_node *sel, const sqlsim_node *n);
/* Whether from_item is one of sel's own FROM items (in its list or its joins). */
int rule_own_item(const sqlsim_node *sel, const sqlsim_node *from_item);
/* The collation a comparison "a = b" uses, as SQLite picks it (explicit
 * COLLATE, then the left column's, then the right column's), and the one an
 * expression carries alone; NULL for BINARY. */
const char *rule_cmp_collation(const rule_ctx *c, const sqlsim_node *a, const sqlsim_node *b);
const char *rule_expr_collation(const rule_ctx *c, const sqlsim_node *e);
int rule_same_collation(const char *a, const char *b);
/* The affinity an expression carries into a comparison: 'I', 'T', 'B'
 * (BLOB/none declared), 'R', 'N' for columns and CASTs, 0 for an expression
 * without one, -1 for a column whose affinity is not known here. */
int rule_affinity(const rule_ctx *c, const sqlsim_node *e);

/* Tree surgery for the rules that move parts between queries. */
/* The top-level AND terms of a WHERE (the node itself when it is no AND). */
uint32_t rule_nterms(const sqlsim_node *where);
sqlsim_node *rule_term(sqlsim_node *where, uint32_t i);
/* Replaces (with NULL: removes) the top-level WHERE term of sel. */
void rule_replace_term(rule_ctx *c, sqlsim_node *sel, sqlsim_node *term, sqlsim_node *with);
/* ANDs cond into sel's WHERE. */
void rule_add_where(rule_ctx *c, sqlsim_node *sel, sqlsim_node *cond);
/* A name no FROM item or target of the query uses: prefix1, prefix2, ... */
const char *rule_fresh_name(rule_ctx *c, const char *prefix);
/* The qualifier a column of from_item is written with (alias, else table name). */
const char *rule_qualifier(const sqlsim_node *from_item);
/* Gives from_item the alias and every column of it under scope the qualifier. */
void rule_rename_item(sqlsim_node *scope, sqlsim_node *from_item, const char *alias);
/* Prepares sel to take one more FROM item: every column of its own FROM items
 * is written qualified, and a bare '*' names the one item it expanded to.
 * Returns 0, or -1 (with a note) when that cannot be done safely: an alias
 * used outside ORDER BY, a LIMIT without ORDER BY, or a column of an
 * aggregated query that is neither grouped nor aggregated (the rows these
 * pick depend on the scan order). */
int rule_open_scope(rule_ctx *c, const char *rule, sqlsim_node *sel);
/* New nodes (in the query's arena). */
sqlsim_node *rule_column(rule_ctx *c, sqlsim_node *from_item, const char *name, int column);
sqlsim_node *rule_binop(rule_ctx *c, int op, sqlsim_node *l, sqlsim_node *r);
sqlsim_node *rule_int(rule_ctx *c, const char *v);
sqlsim_node *rule_string(rule_ctx *c, const char *v);
sqlsim_node *rule_func(rule_ctx *c, const char *name, sqlsim_node *arg1, sqlsim_node *arg2);
sqlsim_node *rule_list(rule_ctx *c, uint32_t n);

/* The rules' walk callbacks (rules.c, subquery.c, top1.c). */
int rule_in_join(sqlsim_node *n, sqlsim_node *parent, void *ctx);
int rule_in_exists(sqlsim_node *n, sqlsim_node *parent, void *ctx);
int rule_decorrelate(sqlsim_node *n, sqlsim_node *parent, void *ctx);
int rule_top1_max(sqlsim_node *n, sqlsim_node *parent, void *ctx);
int rule_max_top1(sqlsim_node *n, sqlsim_node *parent, void *ctx);
int rule_in_plus(sqlsim_node *n, sqlsim_node *parent, void *ctx);
int rule_join_in(sqlsim_node *n, sqlsim_node *parent, void *ctx);
int rule_subquery_order(sqlsim_node *n, sqlsim_node *parent, void *ctx);

#endif
