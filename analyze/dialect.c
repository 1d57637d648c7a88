/* dialect.c -- constructs SQLite does not have, in a parsed prediction:
 * another dialect's syntax the front end flagged (::, ILIKE, ...) and calls
 * of functions this SQLite does not define (YEAR(), DATE_FORMAT, DIVIDE()).
 * The function list is read once per process from SQLite itself (PRAGMA
 * function_list) and never changes after. Entry point:
 * sqlsim_dialect_construct (sqlsim.h). */
#include "analyze.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

/* The functions this SQLite has (PRAGMA function_list), read once. */
static char **sqlite_funcs;
static int nsqlite_funcs;
static pthread_once_t funcs_once = PTHREAD_ONCE_INIT;

static int cmp_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void load_funcs(void) {
  sqlite3 *db;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) return;
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(db, "SELECT DISTINCT name FROM pragma_function_list", -1, &st, NULL) == SQLITE_OK) {
    int cap = 512;
    sqlite_funcs = malloc(sizeof *sqlite_funcs * (size_t)cap);
    while (sqlite3_step(st) == SQLITE_ROW) {
      if (nsqlite_funcs == cap) sqlite_funcs = realloc(sqlite_funcs, sizeof *sqlite_funcs * (size_t)(cap *= 2));
      const char *nm = (const char *)sqlite3_column_text(st, 0);
      size_t l = strlen(nm);
      char *c = malloc(l + 1);
      for (size_t i = 0; i <= l; i++) c[i] = ascii_lower(nm[i]);
      sqlite_funcs[nsqlite_funcs++] = c;
    }
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  qsort(sqlite_funcs, (size_t)nsqlite_funcs, sizeof *sqlite_funcs, cmp_name);
}

static int sqlite_has(const char *name) {
  pthread_once(&funcs_once, load_funcs);
  return bsearch(&name, sqlite_funcs, (size_t)nsqlite_funcs, sizeof *sqlite_funcs, cmp_name) != NULL;
}

typedef struct dialect_ctx {
  const sqlsim_node *found;
  const char *what;
} dialect_ctx;

/* A function call SQLite does not have (another dialect's YEAR(), CONCAT() on
 * an older SQLite, or one of no dialect, such as the DIVIDE() of BIRD's
 * evidence notation): the query cannot run. Table-valued functions in FROM are
 * virtual tables, not in the function list, and are left alone. */
static int dialect_pre(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  dialect_ctx *c = ctx;
  if (n->flags & SQLSIM_F_DIALECT) {
    c->found = n;
    return SQLSIM_WALK_ABORT;
  }
  if (n->kind == SQLSIM_N_FUNC && n->aux != 1 && !(parent && parent->kind == SQLSIM_N_FUNCTABLE) &&
      n->text && !sqlite_has(n->text)) {
    c->found = n;
    c->what = n->text;
    return SQLSIM_WALK_ABORT;
  }
  return SQLSIM_WALK_CONTINUE;
}

int sqlsim_dialect_construct(const sqlsim_query *q, sqlsim_arena *a, const char **what) {
  dialect_ctx c = {NULL, NULL};
  sqlsim_walk(q->root, dialect_pre, NULL, &c);
  if (!c.found) return 0;
  char *s = sqlsim_print_sql(c.found, 0);
  if (c.what) *what = sqlsim_arena_printf(a, "%s() is not a SQLite function: %.120s", c.what, s);
  else *what = sqlsim_arena_printf(a, "not SQLite syntax: %.120s", s);
  free(s);
  return 1;
}
