/* test_repair.c -- a wrong pair's repair (analyze/repair.c, config.repair):
 * the smallest set of the prediction's parts whose fix gives the gold's
 * answer, found by running the repaired prediction where the pair was judged
 * (here a real database whose rows make each difference matter, and, without
 * it, the pair's generated databases). One pair per category, whose repair
 * names it; parts that differ but change nothing (an alias, a join to a
 * parent table through its key, an order the comparison ignores) are not
 * categories, they are listed as having no effect; correct pairs and
 * predictions that do not parse get no repair. */
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
#include "testdb.h"


/* dept <- emp (every emp.dept_id names a dept) */
static const char *TABLES =
    "[{\"db_id\":\"co\",\"table_names_original\":[\"dept\",\"emp\"],\"table_names\":[\"dept\",\"emp\"],"
    "\"column_names_original\":[[-1,\"*\"],[0,\"id\"],[0,\"name\"],[0,\"budget\"],"
    "[1,\"id\"],[1,\"name\"],[1,\"dept_id\"],[1,\"salary\"],[1,\"bonus\"]],"
    "\"column_names\":[[-1,\"*\"],[0,\"id\"],[0,\"name\"],[0,\"budget\"],"
    "[1,\"id\"],[1,\"name\"],[1,\"dept id\"],[1,\"salary\"],[1,\"bonus\"]],"
    "\"column_types\":[\"text\",\"number\",\"text\",\"number\",\"number\",\"text\",\"number\",\"number\",\"number\"],"
    "\"primary_keys\":[1,4],\"foreign_keys\":[[6,1]]}]";

static int setup(void **state) {
  (void)state;
  return testdb_make("repair", "co", TABLES,
                     "CREATE TABLE dept (id INTEGER PRIMARY KEY, name TEXT, budget INTEGER);"
                     "CREATE TABLE emp (id INTEGER PRIMARY KEY, name TEXT, dept_id INTEGER REFERENCES dept(id),"
                     " salary INTEGER, bonus INTEGER);"
                     "INSERT INTO dept VALUES (1,'sales',1000),(2,'ops',500),(3,'lab',2000);"
                     "INSERT INTO emp VALUES (1,'ann',1,50,300),(2,'bob',1,150,20),(3,'cy',2,150,10),"
                     "(4,'dee',2,250,5),(5,'eve',3,300,250),(6,'fay',3,150,40);");
}

static int teardown(void **state) {
  (void)state;
  testdb_remove();
  sqlsim_thread_cleanup();
  return 0;
}

/* An evaluator with the repair: on the database (exec), or without it
 * (generated databases). */
static sqlsim_evaluator *make(int exec) {
  sqlsim_config c = {.tables = tables, .db_dir = exec ? dir : NULL, .timeout_s = 5, .keep_distinct = 1,
                     .repair = 1,
                     .metrics = SQLSIM_M_BIS | SQLSIM_M_CATEGORIES | (exec ? SQLSIM_M_EXEC : SQLSIM_M_SYNTH)};
  sqlsim_evaluator *ev = NULL;
  sqlsim_error err = {0};
  int rc = sqlsim_evaluator_new(&c, &ev, &err);
  if (rc) fprintf(stderr, "%s\n", err.message);
  assert_int_equal(rc, 0);
  return ev;
}

/* Scores the pair; its repair's main category is want, and the repaired SQL
 * gives the gold's answer on the database (it is scored again). */
static void expect(sqlsim_evaluator *ev, const char *gold, const char *pred, const char *want, const char *no_effect) {
  sqlsim_record r;
  sqlsim_error err = {0};
  assert_int_equal(sqlsim_evaluate(ev, gold, pred, "co", &r, &err), 0);
  if (!r.repair.sql || r.repair.cats.main < 0 || strcmp(sqlsim_category_names[r.repair.cats.main], want)) {
    fprintf(stderr, "gold %s\npred %s\nrepair %s (%s), structure %s; want %s\n", gold, pred,
            r.repair.sql ? r.repair.sql : "none", r.repair.note ? r.repair.note : "",
            r.analysis.cats.main >= 0 ? sqlsim_category_names[r.analysis.cats.main] : "-", want);
    fail();
  }
  assert_true(r.repair.cats.nranked >= 1 && r.repair.cats.nranked <= 2);
  assert_true(r.repair.checks >= 1);
  if (no_effect) {
    if (!r.repair.no_effect || !strstr(r.repair.no_effect, no_effect)) {
      fprintf(stderr, "pred %s: no effect '%s', want '%s'\n", pred, r.repair.no_effect ? r.repair.no_effect : "",
              no_effect);
      fail();
    }
  } else if (r.repair.no_effect) {
    fprintf(stderr, "pred %s: no effect '%s', want none\n", pred, r.repair.no_effect);
    fail();
  }
  sqlsim_record again;
  char *fixed = strdup(r.repair.sql);
  sqlsim_record_clear(&r);
  assert_int_equal(sqlsim_evaluate(ev, gold, fixed, "co", &again, &err), 0);
  assert_true(again.analysis.cats.main == SQLSIM_CAT_CORRECT || again.analysis.cats.main == SQLSIM_CAT_CORRECT_OTHER_FORM);
  assert_null(again.repair.sql); /* a correct pair has no repair */
  free(fixed);
  sqlsim_record_clear(&again);
}

static const char *G = "SELECT name FROM emp WHERE salary > 100";

static void test_one_category_each(void **state) {
  (void)state;
  sqlsim_evaluator *ev = make(1);
  expect(ev, G, "SELECT name FROM emp WHERE salary > 200", "filter_value", NULL);
  expect(ev, "SELECT name FROM emp WHERE salary >= 150", "SELECT name FROM emp WHERE salary > 150", "filter_operator",
         NULL);
  expect(ev, G, "SELECT name FROM emp WHERE bonus > 100", "filter_column", NULL);
  expect(ev, G, "SELECT name FROM emp", "missing_filter", NULL);
  expect(ev, G, "SELECT name FROM emp WHERE salary > 100 AND bonus > 8", "extra_filter", NULL);
  expect(ev, "SELECT name FROM emp", "SELECT salary FROM emp", "wrong_column", NULL);
  expect(ev, "SELECT name, salary FROM emp", "SELECT name FROM emp", "missing_column", NULL);
  expect(ev, "SELECT name FROM emp", "SELECT name, bonus FROM emp", "extra_column", NULL);
  expect(ev, "SELECT max(salary) FROM emp", "SELECT min(salary) FROM emp", "wrong_aggregate", NULL);
  expect(ev, "SELECT name FROM emp ORDER BY salary DESC LIMIT 1", "SELECT name FROM emp ORDER BY salary ASC LIMIT 1",
         "order_limit", NULL);
  expect(ev, "SELECT dept_id, count(*) FROM emp GROUP BY dept_id", "SELECT dept_id, count(*) FROM emp",
         "group_having", NULL);
  expect(ev, "SELECT DISTINCT salary FROM emp", "SELECT salary FROM emp", "distinct", NULL);
  expect(ev, "SELECT name FROM dept", "SELECT name FROM emp", "wrong_table", NULL);
  sqlsim_evaluator_free(ev);
}

/* Two mistakes: the repair needs both, and names the one that alone fixes
 * the most first (on one database: the order of sqlsim_categories_rank). */
static void test_two_parts(void **state) {
  (void)state;
  sqlsim_evaluator *ev = make(1);
  sqlsim_record r;
  sqlsim_error err = {0};
  assert_int_equal(sqlsim_evaluate(ev, "SELECT name, salary FROM emp WHERE salary > 100",
                                   "SELECT name, bonus FROM emp WHERE salary > 200", "co", &r, &err),
                   0);
  assert_non_null(r.repair.sql);
  assert_int_equal(r.repair.cats.nranked, 2);
  assert_int_equal(r.repair.cats.ranked[0], SQLSIM_CAT_WRONG_COLUMN);
  assert_int_equal(r.repair.cats.ranked[1], SQLSIM_CAT_FILTER_VALUE);
  sqlsim_record_clear(&r);
  sqlsim_evaluator_free(ev);
}

/* Differences with no effect on the answer are not categories. */
static void test_no_effect(void **state) {
  (void)state;
  sqlsim_evaluator *ev = make(1);
  /* an alias: no part differs for it */
  expect(ev, G, "SELECT e.name FROM emp AS e WHERE e.salary > 200", "filter_value", NULL);
  /* a join to the parent table through the key every row has */
  expect(ev, G, "SELECT emp.name FROM emp JOIN dept ON emp.dept_id = dept.id WHERE emp.salary > 200", "filter_value",
         "FROM");
  /* a condition this database cannot tell from the gold's (no salary is 120) */
  expect(ev, "SELECT name FROM emp WHERE salary > 100 ORDER BY salary DESC LIMIT 1",
         "SELECT name FROM emp WHERE salary > 120 ORDER BY salary ASC LIMIT 1", "order_limit", "condition");
  sqlsim_evaluator_free(ev);
}

/* Without a database, on the pair's generated databases. */
static void test_generated(void **state) {
  (void)state;
  sqlsim_evaluator *ev = make(0);
  expect(ev, "SELECT name FROM emp WHERE name = 'ann'", "SELECT name FROM emp WHERE name = 'Ann'", "filter_value",
         NULL);
  expect(ev, "SELECT name FROM emp WHERE salary > 100", "SELECT name FROM emp WHERE bonus > 100", "filter_column",
         NULL);
  expect(ev, "SELECT max(salary) FROM emp", "SELECT min(salary) FROM emp", "wrong_aggregate", NULL);
  sqlsim_evaluator_free(ev);
}

/* No repair where there is nothing to repair, and none asked. */
static void test_no_repair(void **state) {
  (void)state;
  sqlsim_evaluator *ev = make(1);
  sqlsim_record r;
  sqlsim_error err = {0};
  assert_int_equal(sqlsim_evaluate(ev, G, "SELECT e.name FROM emp e WHERE e.salary > 100", "co", &r, &err), 0);
  assert_true(r.repair.asked);
  assert_null(r.repair.sql);
  assert_null(r.repair.note);
  sqlsim_record_clear(&r);
  assert_int_equal(sqlsim_evaluate(ev, G, "SELECT name FROM emp WHERE", "co", &r, &err), 0);
  assert_null(r.repair.sql);
  sqlsim_record_clear(&r);
  assert_int_equal(sqlsim_evaluate(ev, G, "SELECT nosuch FROM emp", "co", &r, &err), 0); /* does not run */
  assert_null(r.repair.sql);
  sqlsim_record_clear(&r);
  char *json = NULL;
  assert_int_equal(sqlsim_evaluate(ev, G, "SELECT name FROM emp WHERE salary > 200", "co", &r, &err), 0);
  json = sqlsim_record_to_json(&r);
  assert_non_null(strstr(json, "\"repair\":{\"sql\":\"SELECT"));
  free(json);
  sqlsim_record_clear(&r);
  sqlsim_evaluator_free(ev);
  /* a repair that could check nothing is a configuration error, not a silent null */
  sqlsim_config nocat = {.tables = tables, .db_dir = dir, .metrics = SQLSIM_M_BIS | SQLSIM_M_EXEC, .repair = 1};
  assert_int_equal(sqlsim_evaluator_new(&nocat, &ev, &err), SQLSIM_ECONFIG);
  assert_non_null(strstr(err.message, "categories"));
  sqlsim_config norun = {.tables = tables, .metrics = SQLSIM_M_BIS | SQLSIM_M_CATEGORIES, .repair = 1};
  assert_int_equal(sqlsim_evaluator_new(&norun, &ev, &err), SQLSIM_ECONFIG);
  assert_non_null(strstr(err.message, "databases"));
  sqlsim_config c = {.tables = tables, .db_dir = dir, .metrics = SQLSIM_M_BIS | SQLSIM_M_CATEGORIES | SQLSIM_M_EXEC};
  assert_int_equal(sqlsim_evaluator_new(&c, &ev, &err), 0);
  assert_int_equal(sqlsim_evaluate(ev, G, "SELECT name FROM emp WHERE salary > 200", "co", &r, &err), 0);
  assert_false(r.repair.asked);
  assert_null(r.repair.sql);
  json = sqlsim_record_to_json(&r);
  assert_null(strstr(json, "\"repair\""));
  free(json);
  sqlsim_record_clear(&r);
  sqlsim_evaluator_free(ev);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_one_category_each), cmocka_unit_test(test_two_parts), cmocka_unit_test(test_no_effect),
      cmocka_unit_test(test_generated),         cmocka_unit_test(test_no_repair),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
