/* exec.h -- the executor's declared interface to other modules (with
 * sandbox.h, which it includes: the deadline guard and its clock, the
 * per-thread cleanup): databases built in memory (rewrite copies, synthetic
 * databases) run through the same executor, and readers of a user's schema
 * use an executor connection's handle under its deadline and memory
 * account. The public executor (sqlsim_db, sqlsim_exec) is in sqlsim.h. */
#ifndef SQLSIM_EXEC_INTERNAL_H
#define SQLSIM_EXEC_INTERNAL_H

#include "sandbox.h"
#include "server.h"

/* An executor connection over an in-memory image (sqlite3_serialize output,
 * taken over). Returns 0 or a negative code with err set. */
int exec_open_image(unsigned char *image, size_t n, const sqlsim_exec_opts *opts, sqlsim_db **out,
                    sqlsim_error *err);
/* An executor connection over an empty in-memory database that sqlsim fills
 * itself (synthetic databases): run its own DDL and rows between
 * exec_writable(d, 1) and exec_writable(d, 0); model SQL runs only outside. */
int exec_open_scratch(const sqlsim_exec_opts *opts, sqlsim_db **out, sqlsim_error *err);
/* 1: lifts the authorizer and query_only for sqlsim's own writes; 0: puts
 * both back (returns non-zero if query_only could not be restored: the
 * connection must then not run model SQL). */
int exec_writable(sqlsim_db *d, int on);
/* The connection's sqlite3 handle, for reading the schema with PRAGMAs
 * (NULL for a server's). */
sqlite3 *exec_handle(sqlsim_db *d);
/* How many times the connection was opened for sqlsim's own writes: its
 * content's version (synth's mirror on a server reloads when it moved). */
unsigned long exec_writes(const sqlsim_db *d);
/* A pointer the connection's owner keeps with it (synth: its mirror). */
void exec_set_user(sqlsim_db *d, void *user);
void *exec_user(const sqlsim_db *d);

/* Another engine's connection (remote.c; its entry: server.h's
 * exec_engine_of): sqlsim's own statements, several,
 * writing (temporary tables), in a read-write transaction of their own: 0,
 * or -1 with why (rolled back). */
int exec_server_script(sqlsim_db *d, const char *sql, char *why, size_t wn);
/* text[0..n) as the server's quoted literal, into sb. */
void exec_server_quote(sqlsim_db *d, strbuf *sb, const char *text, size_t n);
/* sqlsim's own query on a server (unchecked: not model SQL), each row's
 * first cell as text to row(ctx, text, n); 0, or -1 with why. */
int exec_server_rows(sqlsim_db *d, const char *sql, void (*row)(void *ctx, const char *text, size_t n), void *ctx,
                     char *why, size_t wn);
/* Brackets direct use of the handle: enters the connection's memory account
 * and sets its deadline (timeout_s, or the connection's own when 0). */
void exec_enter(sqlsim_db *d, double timeout_s, void **saved);
void exec_leave(sqlsim_db *d, void *saved);
/* trusted = 1 lifts the authorizer for sqlsim's own fixed, read-only SQL
 * (pragma table functions, which it would refuse); 0 puts it back. */
void exec_trust(sqlsim_db *d, int trusted);

/* Runs one query as sqlsim_exec does (the same checks, limits and status in
 * r) but keeps no cells: each row's values go to row(ctx, cells, n) as the
 * driver reads them (SQLite: NULL, INT, REAL, TEXT, BLOB; another engine:
 * its cells, server.h), after one call with cells NULL and n the column
 * count. A non-zero return stops the query (r says too big). A server's
 * query run again after a lost connection calls reset(ctx) first. */
void exec_each_row(sqlsim_db *d, const char *sql, int (*row)(void *ctx, const srv_cell *cells, int n),
                   void (*reset)(void *ctx), void *ctx, sqlsim_result *r);

/* Runs one query under the executor's rules and limits and writes rows of
 * its answer as a JSON array of arrays (malloc'd): those at the 0-based
 * positions want[0..nwant) (ascending), or with want NULL the first first_n.
 * *count gets the number of rows, or -1 with *err saying why (malloc'd). For
 * the evidence of a verdict (witnesses), not for scoring. */
char *exec_rows_json(sqlsim_db *d, const char *sql, const long *want, int nwant, int first_n, long *count,
                     char **err);

#endif
