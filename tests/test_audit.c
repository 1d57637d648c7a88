/* test_audit.c -- the benchmark audit (audit/) on a small hand-made
 * benchmark: a shop's employees and sales, a gold item per kind of evidence
 * (rows tied at a LIMIT's cut, a column GROUP BY does not determine, systems
 * agreeing against the gold, a gold that returns nothing, a literal the
 * column holds in another case, LIMIT without ORDER BY, integer division), a
 * clean item, and systems whose disagreement rests on a value the database
 * does not hold (no evidence); a number column compared with a text. On the database and on generated ones; with
 * hostile predictions the database is left as it was. */
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

#include <cjson/cJSON.h>

#include "sqlsim.h"
#include "testdb.h"

static const char *DDL =
    "CREATE TABLE emp (id INTEGER PRIMARY KEY, name TEXT, dept TEXT, salary INTEGER, city TEXT);"
    "CREATE TABLE sale (id INTEGER PRIMARY KEY, emp_id INTEGER REFERENCES emp(id), amount INTEGER);"
    "INSERT INTO emp VALUES (1,'Ann','sales',100,'Paris'),(2,'Bob','sales',100,'Rome'),(3,'Cy','it',90,'Paris'),"
    "(4,'Di','it',80,'Oslo');"
    "INSERT INTO sale VALUES (1,1,10),(2,1,20),(3,2,5),(4,3,7);";

enum { TIES, GROUP, CONSENSUS, EMPTY, CASE, UNORDERED, DIVISION, CLEAN, ABSENT, TYPE, NITEMS };

static const char *GOLD[NITEMS] = {
    [TIES] = "SELECT name FROM emp ORDER BY salary DESC LIMIT 1",
    [GROUP] = "SELECT dept, city FROM emp GROUP BY dept",
    [CONSENSUS] = "SELECT count(*) FROM emp WHERE salary > 90",
    [EMPTY] = "SELECT name FROM emp WHERE city = 'London'",
    [CASE] = "SELECT name FROM emp WHERE city = 'paris'",
    [UNORDERED] = "SELECT name FROM emp LIMIT 2",
    [DIVISION] = "SELECT sum(amount) / count(*) FROM sale",
    [CLEAN] = "SELECT count(*) FROM sale",
    [ABSENT] = "SELECT count(*) FROM emp WHERE dept = 'sales'",
    [TYPE] = "SELECT name FROM emp WHERE salary = 'high'",
};

/* What the three systems predict where they do not copy the gold. */
static const char *OTHER[NITEMS] = {
    [CONSENSUS] = "SELECT count(*) FROM emp WHERE salary >= 90",
    [ABSENT] = "SELECT count(*) FROM emp WHERE dept = 'Sales'",
};

/* The shop's schema as tables.json, with the file's declared types, and
 * another benchmark's (a catalog of several schemas finds each by db_id;
 * one schema would stand for every item, as the evaluator reads it). */
static const char *TABLES =
    "[{\"db_id\":\"shop\",\"table_names_original\":[\"emp\",\"sale\"],\"table_names\":[\"emp\",\"sale\"],"
    "\"column_names_original\":[[-1,\"*\"],[0,\"id\"],[0,\"name\"],[0,\"dept\"],[0,\"salary\"],[0,\"city\"],[1,\"id\"],"
    "[1,\"emp_id\"],[1,\"amount\"]],\"column_names\":[[-1,\"*\"],[0,\"id\"],[0,\"name\"],[0,\"dept\"],[0,\"salary\"],"
    "[0,\"city\"],[1,\"id\"],[1,\"emp_id\"],[1,\"amount\"]],\"column_types\":[\"text\",\"integer\",\"text\",\"text\","
    "\"integer\",\"text\",\"integer\",\"integer\",\"integer\"],\"primary_keys\":[1,6],\"foreign_keys\":[[7,1]]},"
    "{\"db_id\":\"depot\",\"table_names_original\":[\"bin\"],\"table_names\":[\"bin\"],\"column_names_original\":"
    "[[-1,\"*\"],[0,\"id\"]],\"column_names\":[[-1,\"*\"],[0,\"id\"]],\"column_types\":[\"text\",\"integer\"],"
    "\"primary_keys\":[1],\"foreign_keys\":[]}]";

static sqlsim_itemset *gold;

static int setup(void **state) {
  (void)state;
  sqlsim_error err = {0};
  if (testdb_make("audit", "shop", TABLES, DDL)) return -1;
  char text[4096] = "";
  for (int i = 0; i < NITEMS; i++) {
    size_t l = strlen(text);
    snprintf(text + l, sizeof text - l, "%s\tshop\n", GOLD[i]);
  }
  return sqlsim_items_parse(text, strlen(text), "gold", &gold, &err) ? -1 : 0;
}

static int teardown(void **state) {
  (void)state;
  sqlsim_items_free(gold);
  testdb_remove();
  sqlsim_thread_cleanup();
  return 0;
}

static const sqlsim_audit_item *item(const sqlsim_audit *a, int index) {
  for (int r = 0; r < a->nitems; r++)
    if (a->items[r].index == index) return &a->items[r];
  return NULL;
}

static sqlsim_audit *run(const char *db_dir, const char *extra_system[NITEMS]) {
  static const char *names[4] = {"a", "b", "c", "hostile"};
  const char *sys[4][NITEMS];
  for (int p = 0; p < 3; p++)
    for (int i = 0; i < NITEMS; i++) sys[p][i] = OTHER[i] ? OTHER[i] : GOLD[i];
  int n = 3;
  if (extra_system) {
    for (int i = 0; i < NITEMS; i++) sys[3][i] = extra_system[i];
    n = 4;
  }
  const char *const *preds[4] = {sys[0], sys[1], sys[2], sys[3]};
  sqlsim_audit_opts o = {.tables = tables, .db_dir = db_dir, .jobs = 2, .timeout_s = 1};
  sqlsim_audit *a = NULL;
  sqlsim_error err = {0};
  int rc = sqlsim_audit_run(gold, preds, names, n, &o, &a, &err);
  if (rc) fprintf(stderr, "%s\n", err.message);
  assert_int_equal(rc, 0);
  assert_int_equal(a->nitems, NITEMS);
  return a;
}

static void test_on_database(void **state) {
  (void)state;
  sqlsim_audit *a = run(dir, NULL);
  assert_true(a->with_db);
  /* each kind where it was planted */
  assert_true(item(a, TIES)->kinds & SQLSIM_AUDIT_LIMIT_TIES);
  assert_true(item(a, GROUP)->kinds & SQLSIM_AUDIT_GROUP_FREE);
  assert_true(item(a, EMPTY)->kinds & SQLSIM_AUDIT_GOLD_EMPTY);
  assert_true(item(a, CASE)->kinds & SQLSIM_AUDIT_LITERAL_CASE);
  assert_true(item(a, UNORDERED)->kinds & SQLSIM_AUDIT_LIMIT_UNORDERED);
  assert_true(item(a, DIVISION)->kinds & SQLSIM_AUDIT_INT_DIVISION);
  const sqlsim_audit_item *c = item(a, CONSENSUS);
  assert_true(c->kinds & SQLSIM_AUDIT_CONSENSUS);
  assert_int_equal(c->group, 3);
  assert_int_equal(c->agree, 0);
  assert_true(c->flagged);
  assert_true(c->score > 0.9);
  /* the rows that show it: the tie's two rows, the group's two cities, the value's real spelling */
  assert_non_null(strstr(item(a, TIES)->json, "\"Bob\""));
  assert_non_null(strstr(item(a, TIES)->json, "\"Ann\""));
  assert_non_null(strstr(item(a, GROUP)->json, "[\"sales\",2]"));
  assert_non_null(strstr(item(a, CASE)->json, "[\"Paris\"]"));
  assert_true(item(a, TYPE)->kinds & SQLSIM_AUDIT_LITERAL_CASE); /* a number column and a text it never holds */
  assert_non_null(strstr(item(a, TYPE)->json, "holds numbers and never equals the text 'high'"));
  assert_non_null(strstr(c->json, "\"witness\":{"));
  /* nothing where nothing was planted; no consensus from values the database lacks */
  assert_int_equal(item(a, CLEAN)->kinds, 0);
  assert_true(item(a, CLEAN)->score == 0);
  const sqlsim_audit_item *ab = item(a, ABSENT);
  assert_false(ab->kinds & SQLSIM_AUDIT_CONSENSUS);
  assert_int_equal(ab->agree, 0);
  assert_true(ab->score == 0);
  assert_non_null(strstr(ab->json, "\"evidence\":[]"));
  /* ranked, consensus first; each system's EX with the flagged items left out */
  assert_int_equal(a->items[0].index, CONSENSUS);
  for (int r = 1; r < a->nitems; r++) assert_true(a->items[r - 1].score >= a->items[r].score);
  assert_true(a->ex[0] < a->ex_kept[0]);
  cJSON *j = cJSON_Parse(c->json);
  assert_non_null(j);
  assert_int_equal(cJSON_GetObjectItem(j, "index")->valueint, CONSENSUS);
  assert_true(cJSON_IsArray(cJSON_GetObjectItem(j, "evidence")));
  cJSON_Delete(j);
  char *summary = sqlsim_audit_summary_json(a);
  assert_non_null(strstr(summary, "\"ex_kept\""));
  free(summary);
  sqlsim_audit_free(a);
}

static void test_generated(void **state) {
  (void)state;
  sqlsim_audit *a = run(NULL, NULL);
  assert_false(a->with_db);
  const sqlsim_audit_item *c = item(a, CONSENSUS);
  assert_true(c->kinds & SQLSIM_AUDIT_CONSENSUS); /* > 90 against >= 90: a generated database holds a 90 */
  assert_int_equal(c->group, 3);
  assert_true(c->flagged);
  assert_non_null(strstr(c->json, "CREATE TABLE")); /* the witness database */
  assert_true(item(a, GROUP)->kinds & SQLSIM_AUDIT_GROUP_FREE);
  assert_true(item(a, UNORDERED)->kinds & SQLSIM_AUDIT_LIMIT_UNORDERED);
  assert_true(item(a, DIVISION)->kinds & SQLSIM_AUDIT_INT_DIVISION);
  assert_false(item(a, CLEAN)->kinds & SQLSIM_AUDIT_CONSENSUS);
  sqlsim_audit_free(a);
}

static char *file_bytes(const char *path, long *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  *n = ftell(f);
  rewind(f);
  char *b = malloc((size_t)*n + 1);
  if (fread(b, 1, (size_t)*n, f) != (size_t)*n) *n = -1;
  fclose(f);
  return b;
}

/* A fourth system that writes, attaches, recurses without end and crosses
 * tables: each is refused or stopped, the audit finishes, the database file
 * is the same byte for byte, and the hostile system is only a system that
 * disagrees. */
static void test_hostile_system(void **state) {
  (void)state;
  const char *hostile[NITEMS] = {
      "DELETE FROM emp",
      "DROP TABLE sale",
      "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT count(*) FROM r",
      "ATTACH DATABASE '/tmp/sqlsim_audit_evil.db' AS evil",
      "SELECT count(*) FROM emp a, emp b, emp c, emp d, emp e, emp f, emp g, emp h, emp i, emp j, emp k, emp l",
      "SELECT 1; DELETE FROM emp",
      "SELECT randomblob(1000000000)",
      "PRAGMA writable_schema = 1",
      NULL,
  };
  long n0, n1;
  char *before = file_bytes(dbfile, &n0);
  sqlsim_audit *a = run(dir, hostile);
  char *after = file_bytes(dbfile, &n1);
  assert_int_equal(n0, n1);
  assert_memory_equal(before, after, (size_t)n0);
  assert_int_equal(access("/tmp/sqlsim_audit_evil.db", F_OK), -1);
  assert_true(item(a, CONSENSUS)->kinds & SQLSIM_AUDIT_CONSENSUS);
  assert_int_equal(item(a, CONSENSUS)->group, 3);
  free(before);
  free(after);
  sqlsim_audit_free(a);
}

/* Bad input is evidence or an error, never a crash: a gold that does not
 * parse is evidence; no catalog and no systems are errors; a db_id without a
 * schema is said in the item. */
static void test_bad_input(void **state) {
  (void)state;
  sqlsim_itemset *g = NULL;
  sqlsim_error err = {0};
  const char *text = "SELEC name FROM emp\tshop\nSELECT 1\tnowhere\n";
  assert_int_equal(sqlsim_items_parse(text, strlen(text), "bad", &g, &err), 0);
  const char *s0[2] = {"SELECT name FROM emp", "SELECT 1"};
  const char *const *preds[1] = {s0};
  const char *names[1] = {"x"};
  sqlsim_audit_opts o = {.tables = tables};
  sqlsim_audit *a = NULL;
  assert_int_equal(sqlsim_audit_run(g, preds, names, 1, &o, &a, &err), 0);
  assert_true(item(a, 0)->kinds & SQLSIM_AUDIT_GOLD_FAILS);
  assert_true(item(a, 0)->flagged);
  assert_non_null(strstr(item(a, 1)->json, "no schema for db_id 'nowhere'"));
  sqlsim_audit_free(a);
  sqlsim_audit_opts none = {0};
  assert_int_equal(sqlsim_audit_run(g, preds, names, 1, &none, &a, &err), SQLSIM_ECONFIG);
  assert_null(a);
  assert_int_equal(sqlsim_audit_run(g, preds, names, 0, &o, &a, &err), SQLSIM_ECONFIG);
  sqlsim_items_free(g);
  /* a catalog of another benchmark: no item can be looked at, an error, not an empty audit */
  const char *other = "SELECT 1\tnowhere\nSELECT 2\telsewhere\n";
  assert_int_equal(sqlsim_items_parse(other, strlen(other), "other", &g, &err), 0);
  assert_int_equal(sqlsim_audit_run(g, preds, names, 1, &o, &a, &err), SQLSIM_ENOTFOUND);
  assert_null(a);
  assert_non_null(strstr(err.message, "'nowhere'"));
  sqlsim_items_free(g);
}

/* Pairing a prediction file with the gold: by position, or by key. */
static void test_items_pair(void **state) {
  (void)state;
  sqlsim_itemset *p = NULL;
  sqlsim_error err = {0};
  int slot[NITEMS];
  const char *keyed = "{\"3\": \"SELECT 1\\t----- bird -----\\tshop\"}";
  assert_int_equal(sqlsim_items_parse(keyed, strlen(keyed), "pred", &p, &err), 0);
  assert_int_equal(sqlsim_items_pair(gold, p, slot, &err), 0);
  assert_int_equal(slot[3], 0);
  assert_int_equal(slot[0], -1);
  sqlsim_items_free(p);
  const char *lines = "SELECT 1\nSELECT 2\n";
  assert_int_equal(sqlsim_items_parse(lines, strlen(lines), "pred", &p, &err), 0);
  assert_int_equal(sqlsim_items_pair(gold, p, slot, &err), SQLSIM_EFORMAT);
  assert_non_null(strstr(err.message, "must pair up"));
  sqlsim_items_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_on_database), cmocka_unit_test(test_generated), cmocka_unit_test(test_hostile_system),
      cmocka_unit_test(test_bad_input),   cmocka_unit_test(test_items_pair),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
