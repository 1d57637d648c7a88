/* test_rewrite.c -- each rule's safety conditions, with the counterexamples of
 * ../shared/REWRITE.md, and the proof: nothing offered unless it returns the
 * same rows and was measured faster, and the database never written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rewrite.h"

static char dir[64], path[128];

static const char *const ddl =
    "CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT NOT NULL, created DATE, age INT, code TEXT);"
    "CREATE TABLE member(code TEXT PRIMARY KEY, name TEXT);"   /* TEXT PK: NULL allowed */
    "CREATE TABLE t2(k INT PRIMARY KEY, v TEXT);"             /* not a rowid alias */
    "CREATE TABLE badges(id INTEGER PRIMARY KEY, user_id INT, name TEXT, date TEXT);"
    "CREATE TABLE ev(id INTEGER PRIMARY KEY, d TEXT);"
    "INSERT INTO users VALUES (1,'ann','1997-03-01',30,'a'),(2,'bob','1997-12-31 10:00:00',30,NULL),"
    "(3,'cat','1998-01-01',25,'c'),(4,'dan',NULL,NULL,'d');"
    "INSERT INTO member VALUES ('x','a'),(NULL,'b'),(NULL,'c');"
    "INSERT INTO t2 VALUES (1,'a'),(NULL,'b');"
    "INSERT INTO badges VALUES (1,1,'gold','2012-01-01'),(2,1,'gold','2012-05-05'),(3,2,'x','not a date');"
    "INSERT INTO ev VALUES (1,'1997-13-01'),(2,'1997-03-01');";

static int setup(void **state) {
  (void)state;
  snprintf(dir, sizeof dir, "/tmp/sqlsim-test-rewrite-XXXXXX");
  if (!mkdtemp(dir)) return -1;
  snprintf(path, sizeof path, "%s/t.sqlite", dir);
  sqlite3 *db;
  if (sqlite3_open(path, &db) != SQLITE_OK) return -1;
  int rc = sqlite3_exec(db, ddl, NULL, NULL, NULL);
  sqlite3_close(db);
  return rc == SQLITE_OK ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  unlink(path);
  rmdir(dir);
  sqlsim_thread_cleanup();
  return 0;
}

/* Applies one rule; returns the count of changes, the rewritten SQL in *out
 * and the notes in *notes (both malloc'd). */
static int apply(const char *sql, int rule, char **out, char **notes) {
  sqlsim_catalog *cat;
  sqlsim_error err = {0};
  assert_int_equal(sqlsim_catalog_load_sqlite(path, &cat, &err), 0);
  sqlsim_query *q;
  if (sqlsim_parse(sql, strlen(sql), sqlsim_catalog_at(cat, 0), 0, &q, &err)) fail_msg("%s: %s", sql, err.message);
  sqlsim_db *db;
  assert_int_equal(sqlsim_db_open(path, NULL, &db, &err), 0);
  strbuf sb = {0};
  rewrite_facts facts = {db, NULL};
  int n = sqlsim_rewrite_apply(q, rule, &facts, &sb);
  free(facts.iso_dates);
  *out = sqlsim_print_sql(q->root, 0);
  *notes = sb_take(&sb);
  sqlsim_db_close(db);
  sqlsim_query_free(q);
  sqlsim_catalog_free(cat);
  return n;
}

static void expect(const char *sql, int rule, int changes, const char *want_sql, const char *want_note) {
  char *out, *notes;
  int n = apply(sql, rule, &out, &notes);
  if (n != changes) fail_msg("%s: %d changes, want %d (%s; notes: %s)", sql, n, changes, out, notes);
  if (want_sql && strcmp(out, want_sql)) fail_msg("%s: got %s, want %s", sql, out, want_sql);
  if (want_note && !strstr(notes, want_note)) fail_msg("%s: notes '%s' do not say '%s'", sql, notes, want_note);
  free(out);
  free(notes);
}

static void test_count_star(void **state) {
  (void)state;
  expect("SELECT count(id) FROM users", SQLSIM_RULE_COUNT_STAR, 1, "SELECT count(*) FROM users", NULL);
  expect("SELECT count(name) FROM users", SQLSIM_RULE_COUNT_STAR, 1, "SELECT count(*) FROM users", NULL);
  /* REWRITE.md A2.1: a TEXT PRIMARY KEY holds NULLs (COUNT(*) 3, COUNT(code) 1) */
  expect("SELECT count(code) FROM member", SQLSIM_RULE_COUNT_STAR, 0, NULL, "PRIMARY KEY but not NOT NULL");
  /* "INT PRIMARY KEY" is not a rowid alias (2 vs 1) */
  expect("SELECT count(k) FROM t2", SQLSIM_RULE_COUNT_STAR, 0, NULL, "PRIMARY KEY but not NOT NULL");
  expect("SELECT count(code) FROM users", SQLSIM_RULE_COUNT_STAR, 0, NULL, "can be NULL");
  /* p LEFT JOIN c: COUNT(c.id) counts the matches only */
  expect("SELECT count(b.id) FROM users AS u LEFT JOIN badges AS b ON u.id = b.user_id", SQLSIM_RULE_COUNT_STAR, 0,
         NULL, "outer join");
  expect("SELECT count(u.id) FROM users AS u LEFT JOIN badges AS b ON u.id = b.user_id", SQLSIM_RULE_COUNT_STAR, 1,
         NULL, NULL);
  expect("SELECT count(DISTINCT id) FROM users", SQLSIM_RULE_COUNT_STAR, 0, NULL, NULL);
}

static void test_date_range(void **state) {
  (void)state;
  /* a DATE (NUMERIC affinity) column: full-date bounds, never a bare '1997' */
  expect("SELECT name FROM users WHERE strftime('%Y', created) = '1997'", SQLSIM_RULE_DATE_RANGE, 1,
         "SELECT name FROM users WHERE created >= '1997-01-01' AND created < '1998-01-01'", NULL);
  expect("SELECT name FROM users WHERE '1997' = substr(created, 1, 4)", SQLSIM_RULE_DATE_RANGE, 1, NULL, NULL);
  expect("SELECT name FROM users WHERE created LIKE '1997-12%'", SQLSIM_RULE_DATE_RANGE, 1,
         "SELECT name FROM users WHERE created >= '1997-12-01' AND created < '1998-01-01'", NULL);
  /* text that is not a date, and a month 13 (strftime gives NULL, the range would match) */
  expect("SELECT name FROM badges WHERE date LIKE '2012%'", SQLSIM_RULE_DATE_RANGE, 0, NULL, "valid ISO date");
  expect("SELECT id FROM ev WHERE strftime('%Y', d) = '1997'", SQLSIM_RULE_DATE_RANGE, 0, NULL, "valid ISO date");
  /* an integer literal never equals strftime's text; year 9999 has no next year */
  expect("SELECT name FROM users WHERE strftime('%Y', created) = 1997", SQLSIM_RULE_DATE_RANGE, 0, NULL, NULL);
  expect("SELECT name FROM users WHERE strftime('%Y', created) = '9999'", SQLSIM_RULE_DATE_RANGE, 0, NULL, NULL);
  expect("SELECT name FROM users WHERE strftime('%m', created) = '12'", SQLSIM_RULE_DATE_RANGE, 0, NULL, NULL);
}

static void test_distinct_group(void **state) {
  (void)state;
  expect("SELECT DISTINCT age, count(*) FROM users GROUP BY age", SQLSIM_RULE_DISTINCT_GROUP, 1,
         "SELECT age, count(*) FROM users GROUP BY age", NULL);
  /* A4: a key not selected, and DISTINCT over COUNT(*) alone, are not redundant */
  expect("SELECT DISTINCT count(*) FROM users GROUP BY age", SQLSIM_RULE_DISTINCT_GROUP, 0, NULL, "not a plain select item");
  expect("SELECT DISTINCT name FROM users GROUP BY name, age", SQLSIM_RULE_DISTINCT_GROUP, 0, NULL, NULL);
}

static unsigned long checksum(void) {
  FILE *f = fopen(path, "rb");
  unsigned long h = 5381;
  int c;
  while ((c = getc(f)) != EOF) h = h * 33 + (unsigned)c;
  fclose(f);
  return h;
}

/* Whatever is offered passed the checks and was measured faster; the
 * database file is byte for byte the same. */
static void test_proof(void **state) {
  (void)state;
  static const char *queries[] = {
      "SELECT count(id) FROM users",
      "SELECT name FROM users WHERE strftime('%Y', created) = '1997'",
      "SELECT DISTINCT age, count(*) FROM users GROUP BY age",
      "SELECT count(code) FROM member",
  };
  unsigned long before = checksum();
  sqlsim_rewrite_opts o = {0};
  o.iterations = 10;
  for (size_t i = 0; i < sizeof queries / sizeof queries[0]; i++) {
    sqlsim_rewrite_result r;
    sqlsim_error err = {0};
    assert_int_equal(sqlsim_rewrite(path, queries[i], &o, &r, &err), 0);
    if (r.offered) {
      assert_non_null(r.sql);
      assert_true(r.timing.ratio >= 1.1);
      assert_true(r.timing.ci_low > 1);
      assert_non_null(strstr(r.checks, "empty tables"));
    } else {
      assert_null(r.sql);
      assert_true(r.reason[0] != 0);
    }
    sqlsim_rewrite_result_free(&r);
  }
  /* a query that does not run is an error, not a rewrite */
  sqlsim_rewrite_result r;
  sqlsim_error err = {0};
  assert_int_not_equal(sqlsim_rewrite(path, "SELECT nosuch FROM users", &o, &r, &err), 0);
  assert_true(err.message[0] != 0);
  sqlsim_rewrite_result_free(&r);
  assert_true(checksum() == before);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_count_star),
      cmocka_unit_test(test_date_range),
      cmocka_unit_test(test_distinct_group),
      cmocka_unit_test(test_proof),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
