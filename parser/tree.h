/* tree.h -- what the rest of the library uses of the parser's insides: the
 * node API for passes that build or change trees (diff/equiv.c, rewrite/,
 * synth/, analyze/), and the literals of a text as the front end reads them
 * (metrics/ex.c's plug_value). The public tree (sqlsim_node, sqlsim_walk,
 * the printers) is in sqlsim.h; the front end (frontend.h) and the builder
 * (build.h) stay inside parser/. */
#ifndef SQLSIM_TREE_H
#define SQLSIM_TREE_H

#include "core.h"

/* A node of kind with room for nkids children (NULL), in arena a
 * (parser/build.c). */
sqlsim_node *tree_node_new(sqlsim_arena *a, int kind, int nkids);
/* A deep copy of a subtree (parser/walk.c); sources into the subtree follow
 * the copy, sources outside it are kept. */
sqlsim_node *tree_clone(sqlsim_arena *a, const sqlsim_node *n);
/* Puts a (modified) normalized tree back in canonical order
 * (parser/normalize.c). */
void tree_reorder(sqlsim_query *q);
/* An aggregate function's name: count, sum, avg, min, max, total, group_concat
 * (parser/walk.c). */
int tree_is_aggregate_name(const char *name);
/* An aggregate call: such a name, not a window function, min/max with one
 * argument (min(a, b) is SQLite's scalar minimum). */
int tree_is_aggregate(const sqlsim_node *n);
/* A lookup: x IN (SELECT ..) (not NOT IN), or x = (SELECT ..) with the
 * scalar subquery on either side: the operand tested in *x and the
 * subquery's query in *sub; 0 for anything else (parser/walk.c). */
int tree_lookup(const sqlsim_node *n, const sqlsim_node **x, const sqlsim_node **sub);
/* A lookup whose subquery is a plain block (no set operation, GROUP BY or
 * LIMIT) returning one item: the operand tested in *x, that item's expression
 * in *item; 0 for anything else (parser/walk.c). */
int tree_lookup_item(const sqlsim_node *n, const sqlsim_node **x, const sqlsim_node **item);
/* The columns a USING or NATURAL join equates: for each column of a right
 * table (right[0..nr)) it names, the first left table (left[0..nl)) with a
 * column of that name: fn(l, lc, r, rc, ctx), l and r indexes into the
 * lists, lc and rc schema columns (parser/walk.c). */
typedef void (*tree_pair_fn)(int l, int lc, int r, int rc, void *ctx);
void tree_join_pairs(const sqlsim_schema *s, const sqlsim_node *join, const int *left, int nl, const int *right, int nr,
                     tree_pair_fn fn, void *ctx);
/* The comparison seen from the other side: a < b is b > a (parser/walk.c). */
int tree_op_mirror(int op);

/* The string and number literals of sql, as the front end tokenizes it, in
 * text order: *spans gets 2 ints (start, length) per literal, in arena a.
 * Returns how many, or -1 when the text cannot be tokenized (parser/lexer.c). */
int tree_literal_spans(sqlsim_arena *a, const char *sql, int **spans);

/* Frees the calling thread's parser state: the scratch arena of
 * libpg_query's tree and libpg_query's own memory (parser/parse.c; called by
 * sqlsim_thread_cleanup, engine/threads.c). */
void parse_thread_cleanup(void);

#endif
