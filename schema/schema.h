/* schema.h -- the schema module's inside (catalog.c, sqlite_schema.c): the
 * catalog and each schema's lookup index. Other modules use sqlsim.h. */
#ifndef SQLSIM_SCHEMA_INTERNAL_H
#define SQLSIM_SCHEMA_INTERNAL_H

#include "core.h"

struct sqlsim_catalog {
  sqlsim_arena *arena;
  sqlsim_schema **schemas;
  int nschemas, cap;
  struct schema_entry *by_id; /* uthash db_id -> schema */
};

/* Adds to c the schema of an open SQLite connection (a sqlite3 *): its
 * tables, columns, keys and CHECKs, db_id the base name of path. 0 or an
 * error code with err set (c keeps what it held). */
int schema_from_sqlite(void *db, const char *path, sqlsim_catalog *c, sqlsim_error *err);

/* SQLite's authorizer for running schema text: tables and indexes are
 * created, nothing else happens (sqlite_schema.c). */
int schema_ddl_only(void *ctx, int action, const char *a1, const char *a2, const char *db, const char *trig);

/* Builds the private lookup tables of a schema whose arrays are filled. */
void schema_index_build(sqlsim_schema *s, sqlsim_arena *a);
/* Frees the uthash buckets of a schema's lookup tables (not the arena). */
void schema_index_clear(sqlsim_schema *s);

/* The CHECK constraints of a CREATE TABLE text (sql may be NULL): each
 * expression's text, comments taken out, at most SCHEMA_MAX_CHECKS; text
 * that could close a CHECK clause (a ';', parentheses that do not balance, a
 * quote that does not end) is left out. *out in the arena; returns the
 * number. sqlite_schema.c, fuzz_readers. */
#define SCHEMA_MAX_CHECKS 64
int schema_checks_of(const char *sql, sqlsim_arena *a, const char ***out);

sqlsim_catalog *catalog_new(void);
void catalog_add(sqlsim_catalog *c, sqlsim_schema *s);

#endif
