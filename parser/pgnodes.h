/* pgnodes.h -- PostgreSQL's parse tree read without JSON.
 *
 * pg_query_parse() is PostgreSQL's parser and then a JSON writer: on Spider
 * dev gold the writer is three fifths of its time, and reading the JSON back
 * (pgjson.c) costs more again. pg_parse_doc() runs the parser alone
 * (libpg_query's pg_query_raw_parse) and reads its node tree into the same pj
 * records pj_parse() would make of the JSON libpg_query writes for that
 * tree, member for member, so the tree builder (build.c) has one input
 * whichever way it came.
 *
 * The node layouts are PostgreSQL 15's, as libpg_query 15-4 builds them;
 * pgnodes.c is compiled for them only when pg_query.h says PostgreSQL 15.
 * A tree holding a node this reader does not know is handed to libpg_query's
 * own JSON writer instead (an unsupported construct, DDL: the builder names
 * them from the JSON as before). And once per process the two routes read a
 * query that holds every node the reader knows; if their documents differ
 * (a libpg_query whose writer changed), the JSON route is taken for good. */
#ifndef SQLSIM_PGNODES_H
#define SQLSIM_PGNODES_H

#include "pgjson.h"

/* What pg_parse_doc() hands back. */
typedef struct pg_doc {
  const pj *root;    /* the document, in the scratch arena; NULL on a syntax error */
  int error_cursor;  /* on a syntax error: PostgreSQL's 1-based character position, or 0 */
  char *error;       /* on a syntax error: its message (malloc'd; pg_doc_done frees it) */
  void *pg_memory;   /* libpg_query's memory for this parse (the strings of root live there) */
} pg_doc;

/* Parses text (NUL-terminated, PostgreSQL's dialect) into d. The document's
 * records go into scratch. Returns 0 with d->root set, or 0 with d->root NULL
 * and d->error set for a syntax error, or -1 if the JSON route's text could
 * not be read. Call pg_doc_done(d) after the document's last use, whatever
 * was returned. */
int pg_parse_doc(sqlsim_arena *scratch, const char *text, pg_doc *d);
void pg_doc_done(pg_doc *d);

/* The same document both ways, for the tests and the differential fuzz
 * target: *nodes the node reader's (NULL if it handed the tree over, or is
 * not compiled in), *json the JSON route's. Returns -1 on a syntax error (in
 * d) or an unreadable JSON. Call pg_doc_done(d) after. */
int pg_parse_both(sqlsim_arena *scratch, const char *text, const pj **nodes, const pj **json,
                  pg_doc *d);

/* 1 if two documents are the same value (members in the same order). */
int pj_same(const pj *a, const pj *b);

/* 1 if the node reader is compiled in and passed its check in this process. */
int pg_nodes_in_use(void);

#endif
