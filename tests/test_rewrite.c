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
    "INSERT INTO ev VALUES (1,'1997-13-01'),(2,'1997-03-01');"
    "CREATE INDEX ix_badges_user ON badges(user_id);"
    /* REWRITE.md A1: a NOCASE column against a BINARY one */
    "CREATE TABLE c1(name TEXT COLLATE NOCASE); CREATE TABLE c2(name TEXT);"
    "INSERT INTO c1 VALUES ('Bob'); INSERT INTO c2 VALUES ('BOB');"
    /* TEXT values that one INTEGER equals after conversion */
    "CREATE TABLE codes(code TEXT UNIQUE); INSERT INTO codes VALUES ('1'),('01'),(NULL);"
    /* amounts with ties (REWRITE.md rule 3), an account without loans */
    "CREATE TABLE account(account_id INTEGER PRIMARY KEY, district TEXT);"
    "CREATE TABLE loan(loan_id INTEGER PRIMARY KEY, account_id INT NOT NULL, amount INT NOT NULL, status TEXT);"
    "INSERT INTO account VALUES (1,'a'),(2,'b'),(3,'c');"
    "INSERT INTO loan VALUES (1,1,100,'A'),(2,1,300,'B'),(3,2,300,'A'),(4,2,50,'A'),(5,1,20,NULL);";

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
  rewrite_facts facts = {db, path, NULL, NULL};
  int n = rewrite_apply(q, rule, &facts, &sb);
  rewrite_facts_free(&facts);
  *out = sqlsim_print_sql(q->root, 0);
  *notes = sb_take(&sb);
  sqlsim_db_close(db);
  sqlsim_query_free(q);
  sqlsim_catalog_free(cat);
  return n;
}

/* Runs a and b on the test database: whether they return the same rows (as
 * multisets, or in order when a has ORDER BY); *nrows gets a's row count. */
static int same_result(const char *a, const char *b, long *nrows) {
  sqlsim_db *db;
  assert_int_equal(sqlsim_db_open(path, NULL, &db, NULL), 0);
  sqlsim_result ra, rb;
  sqlsim_exec(db, a, &ra);
  sqlsim_exec(db, b, &rb);
  if (ra.status != SQLSIM_EXEC_OK) fail_msg("%s: %s", a, ra.reason);
  if (rb.status != SQLSIM_EXEC_OK) fail_msg("%s: %s", b, rb.reason);
  int same = ra.ncols == rb.ncols && ra.nrows == rb.nrows && sqlsim_same_rows(&ra, &rb, ra.has_order_by);
  if (nrows) *nrows = ra.nrows;
  sqlsim_result_free(&ra);
  sqlsim_result_free(&rb);
  sqlsim_db_close(db);
  return same;
}

/* Whether a and b name their result columns alike. */
static int same_names(const char *a, const char *b) {
  sqlite3 *db;
  sqlite3_stmt *sa = NULL, *sb = NULL;
  assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
  int same = sqlite3_prepare_v2(db, a, -1, &sa, NULL) == SQLITE_OK && sqlite3_prepare_v2(db, b, -1, &sb, NULL) == SQLITE_OK &&
             sqlite3_column_count(sa) == sqlite3_column_count(sb);
  for (int i = 0; same && i < sqlite3_column_count(sa); i++) same = !strcmp(sqlite3_column_name(sa, i), sqlite3_column_name(sb, i));
  sqlite3_finalize(sa);
  sqlite3_finalize(sb);
  sqlite3_close(db);
  return same;
}

/* One rule on sql: the number of changes, the SQL it gives (when want_sql),
 * a note (when want_note); a rewrite must return what sql returns here. */
static void expect(const char *sql, int rule, int changes, const char *want_sql, const char *want_note) {
  char *out, *notes;
  int n = apply(sql, rule, &out, &notes);
  if (n != changes) fail_msg("%s: %d changes, want %d (%s; notes: %s)", sql, n, changes, out, notes);
  if (want_sql && strcmp(out, want_sql)) fail_msg("%s: got %s, want %s", sql, out, want_sql);
  if (want_note && !strstr(notes, want_note)) fail_msg("%s: notes '%s' do not say '%s'", sql, notes, want_note);
  if (n && !same_result(sql, out, NULL)) fail_msg("%s: the rewrite %s returns other rows", sql, out);
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

/* REWRITE.md rule 1: the naive join repeats rows (users 1 has two badges). */
static void test_in_join(void **state) {
  (void)state;
  long n;
  assert_false(same_result("SELECT age FROM users WHERE id IN (SELECT user_id FROM badges)",
                           "SELECT age FROM users JOIN badges ON users.id = badges.user_id", &n));
  assert_int_equal(n, 2);
  expect("SELECT age FROM users WHERE id IN (SELECT user_id FROM badges)", SQLSIM_RULE_IN_JOIN, 1,
         "SELECT users.age FROM users, (SELECT DISTINCT user_id AS _k1 FROM badges) AS _in1 WHERE users.id = _in1._k1",
         NULL);
  /* the subquery's own alias gives way to the join key's */
  expect("SELECT age FROM users WHERE id IN (SELECT user_id AS uid FROM badges)", SQLSIM_RULE_IN_JOIN, 1, NULL, NULL);
  /* a unique inner column: the table itself is joined */
  expect("SELECT count(*) FROM badges WHERE user_id IN (SELECT id FROM users WHERE age = 30)", SQLSIM_RULE_IN_JOIN, 1,
         "SELECT count(*) FROM badges, users AS _in1 WHERE badges.user_id = _in1.id AND _in1.age = 30", NULL);
  expect("SELECT * FROM badges WHERE user_id IN (SELECT id FROM users) ORDER BY id", SQLSIM_RULE_IN_JOIN, 1, NULL, NULL);
  /* NOT IN: a NULL in the subquery (users 4 has age NULL) empties the result */
  expect("SELECT name FROM users WHERE age NOT IN (SELECT age FROM users WHERE id > 2)", SQLSIM_RULE_IN_JOIN, 0, NULL,
         "NOT IN");
  expect("SELECT name FROM users WHERE id IN (SELECT user_id FROM badges ORDER BY date LIMIT 2)", SQLSIM_RULE_IN_JOIN,
         0, NULL, "LIMIT");
  expect("SELECT name FROM users AS u WHERE id IN (SELECT user_id FROM badges AS b WHERE b.date > u.created)",
         SQLSIM_RULE_IN_JOIN, 0, NULL, "correlated");
  /* collation: c2.name 'BOB' is in c1 under c1's NOCASE, not under c2's BINARY */
  expect("SELECT name FROM c2 WHERE name IN (SELECT name FROM c1)", SQLSIM_RULE_IN_JOIN, 0, NULL, "collation");
  expect("SELECT name FROM c1 WHERE name IN (SELECT name FROM c2)", SQLSIM_RULE_IN_JOIN, 0, NULL, "collation");
  /* affinity: '1' and '01' are distinct TEXT values that both equal INTEGER 1 */
  assert_false(same_result("SELECT id FROM users WHERE id IN (SELECT code FROM codes)",
                           "SELECT id FROM users, (SELECT DISTINCT code AS k FROM codes) AS d WHERE users.id = d.k", NULL));
  expect("SELECT id FROM users WHERE id IN (SELECT code FROM codes)", SQLSIM_RULE_IN_JOIN, 0, NULL, "affinity");
  /* a bare column under GROUP BY comes from whichever row is read last */
  expect("SELECT user_id, name FROM badges WHERE user_id IN (SELECT id FROM users) GROUP BY user_id", SQLSIM_RULE_IN_JOIN,
         0, NULL, "neither grouped nor aggregated");
  expect("SELECT user_id, count(*) FROM badges WHERE user_id IN (SELECT id FROM users) GROUP BY user_id",
         SQLSIM_RULE_IN_JOIN, 1, NULL, NULL);
  expect("SELECT name FROM badges WHERE user_id IN (SELECT id FROM users) LIMIT 1", SQLSIM_RULE_IN_JOIN, 0, NULL,
         "LIMIT without ORDER BY");
  /* OR above the IN: not a WHERE term */
  expect("SELECT name FROM users WHERE age = 25 OR id IN (SELECT user_id FROM badges)", SQLSIM_RULE_IN_JOIN, 0, NULL,
         NULL);
}

static void test_in_exists(void **state) {
  (void)state;
  expect("SELECT age FROM users WHERE id IN (SELECT user_id AS u FROM badges)", SQLSIM_RULE_IN_EXISTS, 1, NULL, NULL);
  expect("SELECT age FROM users WHERE id IN (SELECT user_id FROM badges)", SQLSIM_RULE_IN_EXISTS, 1,
         "SELECT age FROM users WHERE EXISTS (SELECT 1 FROM badges AS _ex1 WHERE users.id = _ex1.user_id)", NULL);
  expect("SELECT name FROM users AS u WHERE id IN (SELECT user_id FROM badges AS b WHERE b.date > u.created)",
         SQLSIM_RULE_IN_EXISTS, 1, NULL, NULL);
  /* REWRITE.md: an unindexed EXISTS runs once per outer row (> 120 s) */
  expect("SELECT id FROM users WHERE name IN (SELECT name FROM badges)", SQLSIM_RULE_IN_EXISTS, 0, NULL, "no index");
  expect("SELECT id FROM users WHERE id IN (SELECT user_id FROM badges GROUP BY user_id HAVING count(*) > 1)",
         SQLSIM_RULE_IN_EXISTS, 0, NULL, "groups");
  expect("SELECT name FROM users WHERE age NOT IN (SELECT age FROM users WHERE id > 2)", SQLSIM_RULE_IN_EXISTS, 0,
         NULL, "NOT IN");
}

/* The reverse of in_join's first form: a join to a unique key whose table is
 * read nowhere else. */
static void test_join_in(void **state) {
  (void)state;
  expect("SELECT count(*) FROM badges AS b JOIN users AS u ON b.user_id = u.id WHERE u.age = 30", SQLSIM_RULE_JOIN_IN, 1,
         "SELECT count(*) FROM badges AS b WHERE b.user_id IN (SELECT u.id FROM users AS u WHERE u.age = 30)", NULL);
  expect("SELECT b.name FROM badges AS b JOIN users AS u ON u.id = b.user_id AND u.age = 30 AND b.id > 1 ORDER BY b.id",
         SQLSIM_RULE_JOIN_IN, 1, NULL, NULL);
  expect("SELECT b.name, u.name FROM badges AS b JOIN users AS u ON b.user_id = u.id", SQLSIM_RULE_JOIN_IN, 0, NULL,
         "read outside");
  expect("SELECT * FROM badges AS b JOIN users AS u ON b.user_id = u.id", SQLSIM_RULE_JOIN_IN, 0, NULL, "read outside");
  expect("SELECT b.name FROM badges AS b JOIN users AS u ON b.user_id = u.id WHERE u.age > b.id", SQLSIM_RULE_JOIN_IN, 0,
         NULL, "with another");
  /* a join to a key that is not unique repeats rows (user 1 has two badges): IN would not */
  assert_false(same_result("SELECT u.name FROM users AS u JOIN badges AS b ON u.id = b.user_id",
                           "SELECT u.name FROM users AS u WHERE u.id IN (SELECT b.user_id FROM badges AS b)", NULL));
  expect("SELECT u.name FROM users AS u JOIN badges AS b ON u.id = b.user_id", SQLSIM_RULE_JOIN_IN, 0, NULL, NULL);
  /* an outer join keeps the rows without a match */
  expect("SELECT b.name FROM badges AS b LEFT JOIN users AS u ON b.user_id = u.id", SQLSIM_RULE_JOIN_IN, 0, NULL, NULL);
  /* affinity: TEXT codes '1' and '01' are both unique and both equal INTEGER 1 */
  expect("SELECT u.name FROM users AS u JOIN codes AS k ON u.id = k.code", SQLSIM_RULE_JOIN_IN, 0, NULL, "affinity");
}

static void test_in_plus(void **state) {
  (void)state;
  expect("SELECT age FROM users WHERE id IN (SELECT user_id FROM badges)", SQLSIM_RULE_IN_PLUS, 1,
         "SELECT age FROM users WHERE +id IN (SELECT user_id FROM badges)", NULL);
  expect("SELECT age FROM users WHERE id IN (SELECT user_id FROM badges WHERE name = 'gold')", SQLSIM_RULE_IN_PLUS, 0,
         NULL, "has a WHERE");
  /* REWRITE.md A1.22: +x drops x's affinity; TEXT code against INTEGER id */
  expect("SELECT code FROM users WHERE code IN (SELECT id FROM badges)", SQLSIM_RULE_IN_PLUS, 0, NULL, "affinity");
  expect("SELECT id FROM users WHERE name IN (SELECT name FROM badges)", SQLSIM_RULE_IN_PLUS, 0, NULL, NULL);
}

static void test_subquery_order(void **state) {
  (void)state;
  expect("SELECT name FROM users WHERE id IN (SELECT user_id FROM badges ORDER BY date)", SQLSIM_RULE_SUBQUERY_ORDER, 1,
         "SELECT name FROM users WHERE id IN (SELECT user_id FROM badges)", NULL);
  /* with LIMIT the order picks the rows (REWRITE.md A1: IN 1,3 against 1,2,3) */
  expect("SELECT name FROM users WHERE id IN (SELECT user_id FROM badges ORDER BY date LIMIT 1)",
         SQLSIM_RULE_SUBQUERY_ORDER, 0, NULL, NULL);
  expect("SELECT name FROM users WHERE id = (SELECT user_id FROM badges ORDER BY date DESC)", SQLSIM_RULE_SUBQUERY_ORDER,
         0, NULL, NULL);
}

static void test_decorrelate(void **state) {
  (void)state;
  /* COUNT is 0 over no rows: an inner join would lose accounts 3 (REWRITE.md C, rule 1) */
  expect("SELECT district FROM account AS a WHERE 0 = (SELECT count(*) FROM loan AS l WHERE l.account_id = "
         "a.account_id)",
         SQLSIM_RULE_DECORRELATE, 1,
         "SELECT a.district FROM account AS a LEFT JOIN (SELECT count(*) AS _v1, l.account_id AS _k1 FROM loan AS l "
         "GROUP BY l.account_id) AS _d1 ON a.account_id = _d1._k1 WHERE coalesce(_d1._v1, 0) = 0",
         NULL);
  assert_false(same_result(
      "SELECT district FROM account AS a WHERE 0 = (SELECT count(*) FROM loan AS l WHERE l.account_id = a.account_id)",
      "SELECT district FROM account AS a JOIN (SELECT count(*) AS v, account_id AS k FROM loan GROUP BY account_id) AS "
      "d ON d.k = a.account_id WHERE 0 = d.v",
      NULL));
  expect("SELECT loan_id FROM loan AS l WHERE amount > (SELECT avg(amount) FROM loan AS m WHERE m.account_id = "
         "l.account_id AND m.status IS NOT NULL)",
         SQLSIM_RULE_DECORRELATE, 1, NULL, NULL);
  expect("SELECT u.name, (SELECT max(b.date) AS last FROM badges AS b WHERE b.user_id = u.id) AS last_badge FROM users AS u",
         SQLSIM_RULE_DECORRELATE, 1, NULL, NULL);
  expect("SELECT u.name, (SELECT count(*) FROM badges AS b WHERE b.user_id = u.id) * 2 FROM users AS u",
         SQLSIM_RULE_DECORRELATE, 0, NULL, NULL);
  expect("SELECT name FROM users AS u WHERE 1 < (SELECT count(*) FROM badges AS b WHERE b.date > u.created)",
         SQLSIM_RULE_DECORRELATE, 0, NULL, "not an inner column equal");
  expect("SELECT name FROM users AS u WHERE 1 < (SELECT count(*) * 2 FROM badges AS b WHERE b.user_id = u.id)",
         SQLSIM_RULE_DECORRELATE, 0, NULL, "not COUNT");
  /* the outer column and the key differ in affinity ('1' and '01' are two groups) */
  expect("SELECT id FROM users AS u WHERE 0 < (SELECT count(*) FROM codes AS c WHERE c.code = u.id)",
         SQLSIM_RULE_DECORRELATE, 0, NULL, "affinity");
}

static void test_top1(void **state) {
  (void)state;
  expect("SELECT loan_id, amount FROM loan WHERE status = 'A' ORDER BY loan_id DESC LIMIT 1", SQLSIM_RULE_TOP1_MAX, 1,
         "SELECT loan_id, amount FROM loan WHERE status = 'A' AND loan_id = (SELECT max(_m1.loan_id) FROM loan AS _m1 "
         "WHERE _m1.status = 'A')",
         NULL);
  /* REWRITE.md A3.6: ties at the maximum (loans 2 and 3 have 300) */
  assert_false(same_result("SELECT loan_id FROM loan ORDER BY amount DESC LIMIT 1",
                           "SELECT loan_id FROM loan WHERE amount = (SELECT max(amount) FROM loan)", NULL));
  expect("SELECT loan_id FROM loan ORDER BY amount DESC LIMIT 1", SQLSIM_RULE_TOP1_MAX, 0, NULL, "not unique");
  /* A3.10: NULLs sort first under ASC (users 4 has age NULL) */
  expect("SELECT name FROM users ORDER BY age LIMIT 1", SQLSIM_RULE_TOP1_MAX, 0, NULL, "NULL");
  expect("SELECT loan_id FROM loan ORDER BY loan_id, amount LIMIT 1", SQLSIM_RULE_TOP1_MAX, 0, NULL, "several sort keys");
  expect("SELECT loan_id FROM loan ORDER BY loan_id DESC LIMIT 1 OFFSET 1", SQLSIM_RULE_TOP1_MAX, 0, NULL, NULL);
  expect("SELECT loan_id FROM loan ORDER BY loan_id DESC LIMIT 2", SQLSIM_RULE_TOP1_MAX, 0, NULL, NULL);

  expect("SELECT status FROM loan WHERE status = 'A' AND loan_id = (SELECT max(loan_id) FROM loan WHERE status = 'A')",
         SQLSIM_RULE_MAX_TOP1, 1,
         "SELECT status FROM loan WHERE loan_id IS NOT NULL AND status = 'A' ORDER BY loan_id DESC LIMIT 1", NULL);
  expect("SELECT name FROM users WHERE id = (SELECT min(id) FROM users)", SQLSIM_RULE_MAX_TOP1, 1,
         "SELECT name FROM users WHERE id IS NOT NULL ORDER BY id ASC LIMIT 1", NULL);
  /* = MAX returns both tied loans */
  expect("SELECT loan_id FROM loan WHERE amount = (SELECT max(amount) FROM loan)", SQLSIM_RULE_MAX_TOP1, 0, NULL,
         "not unique");
  /* A3.5: the subquery ranks other rows */
  expect("SELECT loan_id FROM loan WHERE status = 'A' AND loan_id = (SELECT max(loan_id) FROM loan)",
         SQLSIM_RULE_MAX_TOP1, 0, NULL, "conditions");
}

static void test_count_pk(void **state) {
  (void)state;
  expect("SELECT count(*) FROM users", SQLSIM_RULE_COUNT_PK, 1, "SELECT count(users.id) FROM users", NULL);
  expect("SELECT count(*) FROM users AS u LEFT JOIN badges AS b ON u.id = b.user_id", SQLSIM_RULE_COUNT_PK, 1,
         "SELECT count(u.id) FROM users AS u LEFT JOIN badges AS b ON u.id = b.user_id", NULL);
  /* A2.1: a TEXT key holds NULLs; A2.3 "INT PRIMARY KEY" too */
  expect("SELECT count(*) FROM member", SQLSIM_RULE_COUNT_PK, 0, NULL, NULL);
  expect("SELECT count(*) FROM t2", SQLSIM_RULE_COUNT_PK, 0, NULL, NULL);
  expect("SELECT count(*) FROM badges AS b RIGHT JOIN users AS u ON u.id = b.user_id", SQLSIM_RULE_COUNT_PK, 0, NULL,
         NULL);
}

/* Under ORDER BY, rows of equal keys may come in any order among themselves. */
static void test_tie_groups(void **state) {
  (void)state;
  sqlsim_db *db;
  assert_int_equal(sqlsim_db_open(path, NULL, &db, NULL), 0);
  static const char *const sql[] = {"VALUES ('a', 1), ('b', 1), ('c', 2)", "VALUES ('b', 1), ('a', 1), ('c', 2)",
                                    "VALUES ('a', 1), ('c', 2), ('b', 1)", "VALUES ('a', 1), ('b', 2), ('c', 2)"};
  sqlsim_result r[4];
  for (int i = 0; i < 4; i++) sqlsim_exec(db, sql[i], &r[i]);
  assert_true(sqlsim_same_rows_ties(&r[0], &r[1], 1));
  assert_false(sqlsim_same_rows(&r[0], &r[1], 1));
  assert_false(sqlsim_same_rows_ties(&r[0], &r[2], 1)); /* the key sequence differs */
  assert_false(sqlsim_same_rows_ties(&r[0], &r[3], 1));
  for (int i = 0; i < 4; i++) sqlsim_result_free(&r[i]);
  sqlsim_db_close(db);
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
      "SELECT age FROM users WHERE id IN (SELECT user_id FROM badges)",
      "SELECT district FROM account AS a WHERE 0 = (SELECT count(*) FROM loan AS l WHERE l.account_id = a.account_id)",
      "SELECT name FROM users WHERE id = (SELECT max(id) FROM users)",
      "SELECT loan_id, amount FROM loan WHERE account_id IN (SELECT account_id FROM account) ORDER BY amount",
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
      assert_true(same_names(queries[i], r.sql)); /* the result columns keep their names */
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
      cmocka_unit_test(test_in_join),
      cmocka_unit_test(test_in_exists),
      cmocka_unit_test(test_join_in),
      cmocka_unit_test(test_in_plus),
      cmocka_unit_test(test_subquery_order),
      cmocka_unit_test(test_decorrelate),
      cmocka_unit_test(test_top1),
      cmocka_unit_test(test_count_pk),
      cmocka_unit_test(test_tie_groups),
      cmocka_unit_test(test_proof),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
