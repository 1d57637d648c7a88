/* testdb.h -- the one-database benchmark a test makes for itself: a
 * temporary DIR holding DIR/<db_id>/<db_id>.sqlite (Spider's layout, so DIR
 * is a --db-dir) made from SQL, and DIR/tables.json when the test gives one;
 * removed after. Each test file that includes it has its own. */
#ifndef SQLSIM_TESTDB_H
#define SQLSIM_TESTDB_H

#include <sqlite3.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64], dbdir[160], dbfile[320], tables[160];

/* Makes /tmp/sqlsim_<name>_XXXXXX with the database of db_id from sql, and
 * tables.json from tables_json (NULL: none). 0, or -1. */
static int testdb_make(const char *name, const char *db_id, const char *tables_json, const char *sql) {
  snprintf(dir, sizeof dir, "/tmp/sqlsim_%s_XXXXXX", name);
  if (!mkdtemp(dir)) return -1;
  snprintf(dbdir, sizeof dbdir, "%s/%s", dir, db_id);
  mkdir(dbdir, 0755);
  snprintf(dbfile, sizeof dbfile, "%s/%s.sqlite", dbdir, db_id);
  tables[0] = '\0';
  if (tables_json) {
    snprintf(tables, sizeof tables, "%s/tables.json", dir);
    FILE *f = fopen(tables, "w");
    if (!f) return -1;
    fputs(tables_json, f);
    fclose(f);
  }
  sqlite3 *db;
  if (sqlite3_open(dbfile, &db) != SQLITE_OK) return -1;
  int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
  sqlite3_close(db);
  return rc == SQLITE_OK ? 0 : -1;
}

static void testdb_remove(void) {
  unlink(dbfile);
  rmdir(dbdir);
  if (tables[0]) unlink(tables);
  rmdir(dir);
}

#endif
