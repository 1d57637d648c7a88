/* test_schema.c -- tables.json loading, SQLite schema reading, Spider 2.0's
 * database folders (DDL.csv and sample rows), and schema-only databases made
 * from tables.json. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sqlsim.h"

#define FIXTURE SQLSIM_SOURCE_DIR "/tests/data/tables_small.json"

static void test_tables_json(void **state) {
  (void)state;
  sqlsim_catalog *c;
  sqlsim_error err = {0};
  assert_int_equal(sqlsim_catalog_load_tables_json(FIXTURE, &c, &err), 0);
  assert_int_equal(sqlsim_catalog_count(c), 2);
  const sqlsim_schema *s = sqlsim_catalog_find(c, "concert");
  assert_non_null(s);
  assert_null(sqlsim_catalog_find(c, "nope"));
  assert_int_equal(s->ntables, 4);
  assert_int_equal(s->ncolumns, 13); /* Spider's "*" is not a column */
  int t = sqlsim_schema_find_table(s, "SINGER");
  assert_int_equal(t, 1);
  int col = sqlsim_schema_find_column(s, t, "singer_id");
  assert_true(col >= 0);
  assert_string_equal(s->columns[col].name, "Singer_ID");
  assert_true(s->columns[col].pk && s->columns[col].unique);
  /* composite key: both parts pk, neither unique alone */
  int sic = sqlsim_schema_find_table(s, "singer_in_concert");
  int k1 = sqlsim_schema_find_column(s, sic, "concert_ID");
  assert_true(s->columns[k1].pk);
  assert_false(s->columns[k1].unique);
  assert_int_equal(s->nfkeys, 3);
  assert_int_equal(s->columns[s->fkeys[0].column].table, 2);
  assert_int_equal(sqlsim_schema_find_column(s, t, "capacity"), -1);
  sqlsim_catalog_free(c);
}

static void test_bad_files(void **state) {
  (void)state;
  sqlsim_catalog *c;
  sqlsim_error err = {0};
  assert_int_equal(sqlsim_catalog_load_tables_json("/nonexistent.json", &c, &err), SQLSIM_EIO);
  assert_null(c);
  char path[] = "/tmp/sqlsim_test_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  const char *bad = "[{\"db_id\": \"x\", \"table_names_original\": [\"a\"], "
                    "\"column_names_original\": [[3, \"c\"]]}]";
  assert_int_equal(write(fd, bad, strlen(bad)), (int)strlen(bad));
  close(fd);
  assert_int_equal(sqlsim_catalog_load_tables_json(path, &c, &err), SQLSIM_EFORMAT);
  assert_non_null(strstr(err.message, "db_id x"));
  FILE *f = fopen(path, "w");
  fputs("[{\"db_id\": ", f);
  fclose(f);
  assert_int_equal(sqlsim_catalog_load_tables_json(path, &c, &err), SQLSIM_EFORMAT);
  assert_non_null(strstr(err.message, "invalid JSON"));
  unlink(path);
}

/* tables.json -> schema-only SQLite file -> read back: same tables, keys. */
static void test_schema_roundtrip(void **state) {
  (void)state;
  sqlsim_catalog *c, *back;
  sqlsim_error err = {0};
  assert_int_equal(sqlsim_catalog_load_tables_json(FIXTURE, &c, &err), 0);
  const sqlsim_schema *s = sqlsim_catalog_find(c, "concert");
  char path[] = "/tmp/sqlsim_schema_XXXXXX";
  int fd = mkstemp(path);
  close(fd);
  void *db;
  /* refuses to write into an existing file */
  assert_int_equal(sqlsim_schema_create_sqlite(s, path, &db, &err), SQLSIM_EIO);
  unlink(path);
  assert_int_equal(sqlsim_schema_create_sqlite(s, path, &db, &err), 0);
  sqlite3_close(db);
  assert_int_equal(sqlsim_catalog_load_sqlite(path, &back, &err), 0);
  const sqlsim_schema *b = sqlsim_catalog_at(back, 0);
  assert_int_equal(b->ntables, s->ntables);
  assert_int_equal(b->ncolumns, s->ncolumns);
  assert_int_equal(b->nfkeys, s->nfkeys);
  for (int i = 0; i < s->ncolumns; i++) {
    assert_string_equal(b->columns[i].name, s->columns[i].name);
    assert_int_equal(b->columns[i].pk, s->columns[i].pk);
    assert_int_equal(b->columns[i].unique, s->columns[i].unique);
  }
  unlink(path);
  sqlsim_catalog_free(back);
  sqlsim_catalog_free(c);
}

static void test_sqlite_reader(void **state) {
  (void)state;
  char path[] = "/tmp/sqlsim_db_XXXXXX";
  int fd = mkstemp(path);
  close(fd);
  sqlite3 *db;
  assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
  assert_int_equal(sqlite3_exec(db,
                                "CREATE TABLE p (id INTEGER PRIMARY KEY, name TEXT COLLATE NOCASE "
                                "NOT NULL, code TEXT UNIQUE);"
                                "CREATE TABLE c (cid INT, pid INT REFERENCES p, x REAL,"
                                " PRIMARY KEY (cid, pid));"
                                "CREATE UNIQUE INDEX cx ON c(x);"
                                "CREATE VIEW v AS SELECT name FROM p;",
                                NULL, NULL, NULL),
                   SQLITE_OK);
  sqlite3_close(db);
  sqlsim_catalog *c;
  sqlsim_error err = {0};
  assert_int_equal(sqlsim_catalog_load_sqlite(path, &c, &err), 0);
  const sqlsim_schema *s = sqlsim_catalog_at(c, 0);
  assert_int_equal(s->ntables, 3); /* the view counts: queries may read it */
  int p = sqlsim_schema_find_table(s, "P");
  const sqlsim_column *id = &s->columns[sqlsim_schema_find_column(s, p, "id")];
  assert_true(id->pk && id->unique && id->notnull);
  const sqlsim_column *name = &s->columns[sqlsim_schema_find_column(s, p, "name")];
  assert_true(name->notnull);
  assert_string_equal(name->collation, "nocase");
  assert_true(s->columns[sqlsim_schema_find_column(s, p, "code")].unique);
  int ct = sqlsim_schema_find_table(s, "c");
  const sqlsim_column *cid = &s->columns[sqlsim_schema_find_column(s, ct, "cid")];
  assert_true(cid->pk && !cid->unique);
  assert_true(s->columns[sqlsim_schema_find_column(s, ct, "x")].unique);
  assert_int_equal(s->nfkeys, 1);
  assert_int_equal(s->fkeys[0].ref_column, sqlsim_schema_find_column(s, p, "id"));
  sqlsim_catalog_free(c);
  unlink(path);
  assert_int_equal(sqlsim_catalog_load_sqlite(path, &c, &err), SQLSIM_EIO);
}

/* CHECK constraints read from a SQLite file: column and table constraints,
 * named ones, with comments, strings and nested parentheses; the schema's DDL
 * carries them and SQLite enforces them there. */
static void test_checks(void **state) {
  (void)state;
  char path[] = "/tmp/sqlsim_checks_XXXXXX";
  int fd = mkstemp(path);
  close(fd);
  sqlite3 *db;
  assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
  assert_int_equal(sqlite3_exec(db,
                                "CREATE TABLE t (id INTEGER PRIMARY KEY, op TEXT CHECK (op IN ('<', '>', ')')), -- a ) here\n"
                                " n INTEGER CONSTRAINT pos CHECK(n > 0 /* ) */), s TEXT,"
                                " CHECK ((length(s) BETWEEN 1 AND 5)), CHECK (n < 100))",
                                NULL, NULL, NULL),
                   SQLITE_OK);
  sqlite3_close(db);
  sqlsim_catalog *c = NULL;
  assert_int_equal(sqlsim_catalog_load_sqlite(path, &c, NULL), 0);
  const sqlsim_schema *s = sqlsim_catalog_at(c, 0);
  assert_int_equal(s->tables[0].nchecks, 4);
  assert_string_equal(s->tables[0].checks[0], "op IN ('<', '>', ')')");
  assert_non_null(strstr(s->tables[0].checks[1], "n > 0"));
  assert_null(strstr(s->tables[0].checks[1], "/*"));
  assert_string_equal(s->tables[0].checks[2], "(length(s) BETWEEN 1 AND 5)");
  assert_string_equal(s->tables[0].checks[3], "n < 100");
  /* the DDL carries them, and SQLite holds a table made from it to them */
  sqlite3 *mem;
  assert_int_equal(sqlite3_open(":memory:", &mem), SQLITE_OK);
  assert_int_equal(sqlsim_schema_create_tables(mem, s, NULL, NULL), 0);
  assert_int_equal(sqlite3_exec(mem, "INSERT INTO t VALUES (1, '<', 5, 'ab')", NULL, NULL, NULL), SQLITE_OK);
  assert_int_not_equal(sqlite3_exec(mem, "INSERT INTO t VALUES (2, '!', 5, 'ab')", NULL, NULL, NULL), SQLITE_OK);
  assert_int_not_equal(sqlite3_exec(mem, "INSERT INTO t VALUES (3, '<', 500, 'ab')", NULL, NULL, NULL), SQLITE_OK);
  assert_int_not_equal(sqlite3_exec(mem, "INSERT INTO t VALUES (4, '<', 5, 'abcdefg')", NULL, NULL, NULL), SQLITE_OK);
  sqlite3_close(mem);
  sqlsim_catalog_free(c);
  unlink(path);
}

/* A hostile file: its schema text (written through writable_schema) holds a
 * CHECK whose text would end the clause and run a statement of its own. The
 * file is refused with a message, or the text is not kept; what sqlsim
 * creates from the schema is its tables and nothing else. */
static void test_hostile_checks(void **state) {
  (void)state;
  char path[] = "/tmp/sqlsim_checks_XXXXXX";
  int fd = mkstemp(path);
  close(fd);
  sqlite3 *db;
  assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
  assert_int_equal(sqlite3_exec(db, "CREATE TABLE t (a INTEGER, b TEXT)", NULL, NULL, NULL), SQLITE_OK);
  sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 0, NULL);
  assert_int_equal(sqlite3_exec(db, "PRAGMA writable_schema = ON", NULL, NULL, NULL), SQLITE_OK);
  sqlite3_stmt *up;
  assert_int_equal(sqlite3_prepare_v2(db, "UPDATE sqlite_schema SET sql = ? WHERE name = 't'", -1, &up, NULL),
                   SQLITE_OK);
  sqlite3_bind_text(up, 1,
                    "CREATE TABLE t (a INTEGER CHECK (a > 0); CREATE TABLE evil (x); SELECT (1), "
                    "b TEXT CHECK (b <> ')'), CHECK ('unended))",
                    -1, SQLITE_STATIC);
  assert_int_equal(sqlite3_step(up), SQLITE_DONE);
  sqlite3_finalize(up);
  sqlite3_exec(db, "PRAGMA writable_schema = OFF", NULL, NULL, NULL);
  sqlite3_close(db);
  sqlsim_catalog *c = NULL;
  sqlsim_error err = {0};
  int rc = sqlsim_catalog_load_sqlite(path, &c, &err);
  /* SQLite refuses the file as malformed (it parses the schema text itself):
   * sqlsim says so and goes no further; were it read, no CHECK kept could
   * run a statement (schema_checks_of, fuzzed by fuzz_readers) */
  if (rc) assert_non_null(strstr(err.message, "malformed"));
  if (rc == 0) {
    const sqlsim_schema *s = sqlsim_catalog_at(c, 0);
    for (int t = 0; t < s->ntables; t++)
      for (int k = 0; k < s->tables[t].nchecks; k++) assert_null(strchr(s->tables[t].checks[k], ';'));
    sqlite3 *mem;
    assert_int_equal(sqlite3_open(":memory:", &mem), SQLITE_OK);
    sqlsim_schema_create_tables(mem, s, NULL, NULL);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(mem, "SELECT count(*) FROM sqlite_schema WHERE name = 'evil'", -1, &st, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(st, 0), 0);
    sqlite3_finalize(st);
    sqlite3_close(mem);
    sqlsim_catalog_free(c);
  }
  unlink(path);
}

/* ---------------------------------------------------------------- Spider 2.0 folders */

static void put(const char *dir, const char *name, const char *text) {
  char p[512];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  FILE *f = fopen(p, "wb");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

/* A root with one database folder db1 whose DDL.csv is ddl (NULL: a good
 * one) and its tables' JSON. */
static void make_spider2(char *root, const char *ddl) {
  strcpy(root, "/tmp/sqlsim_s2schema_XXXXXX");
  assert_non_null(mkdtemp(root));
  char db[300];
  snprintf(db, sizeof db, "%s/Db-One", root);
  mkdir(db, 0755);
  put(db, "DDL.csv",
      ddl ? ddl
          : "table_name,DDL\n"
            "orders,\"CREATE TABLE orders (\n    order_id INTEGER,\n    status TEXT, -- a \"\"quoted\"\" note\n"
            "    amount FLOAT\n);\"\n"
            "sqlite_sequence,\"CREATE TABLE sqlite_sequence(name,seq)\"\n"
            "territory,\"CREATE TABLE territory (\n    id INTEGER,\n    group TEXT\n)\"\n");
  put(db, "orders.json",
      "{\"table_name\": \"orders\", \"column_names\": [\"order_id\", \"status\", \"amount\"],"
      " \"sample_rows\": [{\"order_id\": 7, \"status\": \"delivered\", \"amount\": 12.5},"
      " {\"order_id\": 8, \"status\": \"delivered\", \"amount\": \"\"},"
      " {\"order_id\": 9, \"status\": \"shipped\", \"amount\": 3}]}");
  put(db, "territory.json",
      "{\"table_name\": \"territory\", \"column_names\": [\"id\", \"group\"], \"column_types\": [\"INTEGER\", \"TEXT\"],"
      " \"sample_rows\": [{\"id\": 1, \"group\": \"North America\"}]}");
  put(db, "broken.json", "{\"table_name\": ");
}

static void rm_tree(const char *root) {
  char cmd[400];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  assert_int_equal(system(cmd), 0);
}

static void test_spider2_folders(void **state) {
  (void)state;
  char root[64];
  make_spider2(root, NULL);
  sqlsim_catalog *c;
  sqlsim_error err = {0};
  assert_int_equal(sqlsim_catalog_load_tables_json(root, &c, &err), 0); /* a folder: Spider 2.0's */
  const sqlsim_schema *s = sqlsim_catalog_find(c, "db-one");          /* named loosely */
  assert_non_null(s);
  assert_ptr_equal(sqlsim_catalog_find(c, "DB_ONE"), s);
  assert_int_equal(s->ntables, 2); /* SQLite's own table left out */
  int t = sqlsim_schema_find_table(s, "orders");
  assert_int_equal(t, 0);
  const sqlsim_column *st = &s->columns[sqlsim_schema_find_column(s, t, "status")];
  assert_int_equal(st->nsamples, 2); /* distinct */
  assert_string_equal(st->samples[0], "delivered");
  assert_string_equal(st->samples[1], "shipped");
  const sqlsim_column *am = &s->columns[sqlsim_schema_find_column(s, t, "amount")];
  assert_int_equal(am->nsamples, 2); /* the empty cell is no value */
  assert_string_equal(am->samples[0], "12.5");
  assert_string_equal(am->samples[1], "3");
  assert_true(am->numeric);
  /* `group` unquoted: SQLite refuses the statement, the table's JSON gives its columns */
  int tt = sqlsim_schema_find_table(s, "territory");
  assert_true(tt >= 0);
  int g = sqlsim_schema_find_column(s, tt, "group");
  assert_true(g >= 0);
  assert_string_equal(s->columns[g].samples[0], "North America");
  sqlsim_catalog_free(c);
  rm_tree(root);
}

static void test_spider2_hostile(void **state) {
  (void)state;
  static const struct {
    const char *ddl, *want;
  } cases[] = {
      {"table_name,DDL\na,\"CREATE TABLE a (x INTEGER); DROP TABLE b\"\n", "DDL.csv:2: table a: not one CREATE TABLE"},
      {"table_name,DDL\na,\"ATTACH DATABASE '/tmp/x' AS y\"\n", "DDL.csv:2: table a"},
      {"table_name,DDL\na,\"CREATE TABLE a AS SELECT 1\"\n", "DDL.csv:2: table a"},
      {"table_name,DDL\na,\"CREATE TABLE a (x)\"\nb,\"CREATE TABLE b (\n y\n", "DDL.csv:3: a quoted field is not closed"},
      {"table_name,DDL\nonly_a_name\n", "DDL.csv:2: expected table_name,DDL"},
      {"table_name,DDL\nzz,\"CREATE TABLE zz (select TEXT)\"\n", "DDL.csv:2: table zz"}, /* no JSON to repair it */
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    char root[64];
    make_spider2(root, cases[k].ddl);
    sqlsim_catalog *c = NULL;
    sqlsim_error err = {0};
    assert_int_not_equal(sqlsim_catalog_load_spider2(root, &c, &err), 0);
    assert_null(c);
    if (!strstr(err.message, cases[k].want)) fail_msg("case %zu: %s", k, err.message);
    rm_tree(root);
  }
  char root[64] = "/tmp/sqlsim_s2schema_XXXXXX";
  assert_non_null(mkdtemp(root));
  sqlsim_catalog *c = NULL;
  sqlsim_error err = {0};
  assert_int_not_equal(sqlsim_catalog_load_spider2(root, &c, &err), 0); /* no database folder */
  assert_non_null(strstr(err.message, "no database folders"));
  rm_tree(root);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tables_json),
      cmocka_unit_test(test_bad_files),
      cmocka_unit_test(test_spider2_folders),
      cmocka_unit_test(test_spider2_hostile),
      cmocka_unit_test(test_schema_roundtrip),
      cmocka_unit_test(test_sqlite_reader),
      cmocka_unit_test(test_checks),
      cmocka_unit_test(test_hostile_checks),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
