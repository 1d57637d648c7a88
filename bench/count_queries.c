/* count_queries.c -- an LD_PRELOAD shim for measuring, not shipping: counts
 * the statements a process prepares through SQLite (sqlite3_prepare_v2),
 * those that read model SQL apart from sqlsim's own (PRAGMAs, schema reads),
 * and prints the counts at exit (bench/count_queries.sh builds and uses it).
 * A statement prepared is a statement run once or more: sqlsim prepares
 * every run of a query anew. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

typedef struct sqlite3 sqlite3;
typedef struct sqlite3_stmt sqlite3_stmt;
static atomic_long all, own;

int sqlite3_prepare_v2(sqlite3 *db, const char *sql, int n, sqlite3_stmt **st, const char **tail) {
  static int (*real)(sqlite3 *, const char *, int, sqlite3_stmt **, const char **);
  if (!real) real = (int (*)(sqlite3 *, const char *, int, sqlite3_stmt **, const char **))dlsym(RTLD_NEXT, "sqlite3_prepare_v2");
  atomic_fetch_add(&all, 1);
  const char *p = sql;
  while (p && (*p == ' ' || *p == '\n')) p++;
  if (p && (!strncasecmp(p, "PRAGMA", 6) || strstr(p, "sqlite_schema") || strstr(p, "sqlite_master"))) atomic_fetch_add(&own, 1);
  return real(db, sql, n, st, tail);
}

__attribute__((destructor)) static void report(void) {
  fprintf(stderr, "count_queries: %ld statements prepared, %ld of them sqlsim's own (PRAGMA, schema)\n",
          (long)all, (long)own);
}
