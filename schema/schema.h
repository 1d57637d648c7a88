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

/* Builds the private lookup tables of a schema whose arrays are filled. */
void schema_index_build(sqlsim_schema *s, sqlsim_arena *a);
/* Frees the uthash buckets of a schema's lookup tables (not the arena). */
void schema_index_clear(sqlsim_schema *s);

sqlsim_catalog *catalog_new(void);
void catalog_add(sqlsim_catalog *c, sqlsim_schema *s);

#endif
