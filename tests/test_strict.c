/* test_strict.c -- the strict verdict and its witnesses: textbook pairs that
 * differ only on data the generator's databases do not hold by themselves
 * (a NULL no query tests for, an empty input, a key of two columns matched
 * on one, a group at a HAVING threshold, a gold that answers nothing, rows
 * repeated through a join) are refuted; pairs that agree on every database
 * the schema allows are not, whatever a literal says (a text in a number
 * column); every refutation comes with a witness that plain SQLite loads and
 * on which the two queries answer differently. */
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

#include "sqlsim.h"

#include "shop.h"

static sqlsim_catalog *cat;
static const sqlsim_schema *schema;

static int setup(void **state) {
  (void)state;
  sqlsim_error err = {0};
  if (sqlsim_catalog_parse_tables_json(TABLES, strlen(TABLES), "shop", &cat, &err)) {
    fprintf(stderr, "%s\n", err.message);
    return -1;
  }
  schema = sqlsim_catalog_find(cat, "shop");
  return schema ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  sqlsim_catalog_free(cat);
  sqlsim_thread_cleanup();
  return 0;
}

/* A query's answer on a plain SQLite database, as sorted row texts joined by
 * newlines (a multiset, as Spider's comparison without ORDER BY sees it). */
static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static char *answer(sqlite3 *db, const char *sql, long *count) {
  sqlite3_stmt *st;
  *count = -1;
  if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) return NULL;
  char **rows = NULL;
  long n = 0;
  while (sqlite3_step(st) == SQLITE_ROW) {
    char buf[1024];
    size_t at = 0;
    for (int i = 0; i < sqlite3_column_count(st); i++) {
      const unsigned char *t = sqlite3_column_text(st, i);
      double d = sqlite3_column_double(st, i);
      if (sqlite3_column_type(st, i) == SQLITE_NULL) at += (size_t)snprintf(buf + at, sizeof buf - at, "|NULL");
      else if (sqlite3_column_type(st, i) != SQLITE_TEXT) at += (size_t)snprintf(buf + at, sizeof buf - at, "|%g", d);
      else at += (size_t)snprintf(buf + at, sizeof buf - at, "|'%s'", t);
      if (at >= sizeof buf) at = sizeof buf - 1;
    }
    rows = realloc(rows, sizeof *rows * (size_t)(n + 1));
    rows[n++] = strdup(buf);
  }
  sqlite3_finalize(st);
  if (n) qsort(rows, (size_t)n, sizeof *rows, cmp_str);
  size_t len = 1;
  for (long i = 0; i < n; i++) len += strlen(rows[i]) + 1;
  char *out = calloc(len, 1);
  for (long i = 0; i < n; i++) {
    strcat(out, rows[i]);
    strcat(out, "\n");
    free(rows[i]);
  }
  free(rows);
  *count = n;
  return out;
}

/* The witness loads into a fresh in-memory SQLite and the two queries, as
 * run, answer differently there; its answers are the ones it reports. */
static void check_witness(const sqlsim_witness *w, const char *what) {
  if (!w) fail_msg("%s: no witness", what);
  assert_non_null(w->database);
  sqlite3 *db;
  assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
  char *msg = NULL;
  if (sqlite3_exec(db, w->database, NULL, NULL, &msg) != SQLITE_OK) fail_msg("%s: witness does not load: %s", what, msg);
  long gc, pc;
  char *g = answer(db, w->gold_sql, &gc), *p = answer(db, w->pred_sql, &pc);
  assert_non_null(g);
  assert_int_equal(gc, w->gold_count);
  if (p) assert_int_equal(pc, w->pred_count);
  if (p && !strcmp(g, p)) fail_msg("%s: the witness does not tell them apart:\n%s", what, w->database);
  assert_true(w->rows <= 40);
  free(g);
  free(p);
  sqlite3_close(db);
}

static void strict_of(sqlsim_synth_runner *x, const char *gold, const char *pred, sqlsim_synth *out) {
  sqlsim_error err = {0};
  if (sqlsim_synth_pair(x, schema, gold, pred, out, &err)) fail_msg("%s: %s", gold, err.message);
}

/* Pairs that differ on some database the schema allows: each a class of the
 * known counterexamples of SQL equivalence. */
static void test_refuted(void **state) {
  (void)state;
  static const char *pairs[][3] = {
      {"a NULL in a column COUNT reads", "SELECT count(*) FROM emp", "SELECT count(bonus) FROM emp"},
      {"NOT IN over a NULL", "SELECT name FROM dept WHERE id NOT IN (SELECT dept_id FROM emp)",
       "SELECT name FROM dept WHERE NOT EXISTS (SELECT 1 FROM emp WHERE emp.dept_id = dept.id)"},
      {"a join on a NULL key", "SELECT count(*) FROM emp JOIN dept ON emp.dept_id = dept.id",
       "SELECT count(*) FROM emp"},
      {"an inner join for a left one", "SELECT emp.name FROM emp LEFT JOIN dept ON emp.dept_id = dept.id",
       "SELECT emp.name FROM emp JOIN dept ON emp.dept_id = dept.id"},
      {"SUM(CASE) where no row matches", "SELECT sum(CASE WHEN salary > 100 THEN 1 ELSE 0 END) FROM emp",
       "SELECT sum(1) FILTER (WHERE salary > 100) FROM emp"},
      {"a key of two columns matched on one",
       "SELECT link.v FROM link JOIN pair ON link.a = pair.a AND link.b = pair.b",
       "SELECT link.v FROM link JOIN pair ON link.a = pair.a"},
      {"a group at a HAVING threshold", "SELECT dept_id FROM emp GROUP BY dept_id HAVING count(*) > 4",
       "SELECT dept_id FROM emp GROUP BY dept_id HAVING count(*) > 5"},
      {"a sum at its literal", "SELECT dept_id FROM emp GROUP BY dept_id HAVING sum(salary) = 100",
       "SELECT dept_id FROM emp GROUP BY dept_id HAVING sum(salary) >= 100"},
      {"a gold that answers nothing", "SELECT name FROM emp WHERE salary = (SELECT max(salary) FROM emp)",
       "SELECT name FROM emp ORDER BY salary DESC LIMIT 1"},
      {"rows repeated through a join", "SELECT name FROM dept WHERE id IN (SELECT dept_id FROM emp)",
       "SELECT dept.name FROM dept JOIN emp ON emp.dept_id = dept.id"},
      {"AVG and NULLs", "SELECT avg(bonus) FROM emp", "SELECT sum(bonus) / count(*) FROM emp"},
      {"SUM and TOTAL on nothing", "SELECT sum(salary) FROM emp WHERE name = 'nobody'",
       "SELECT total(salary) FROM emp WHERE name = 'nobody'"},
      {"the COUNT bug", "SELECT name FROM dept WHERE budget = (SELECT count(*) FROM emp WHERE emp.dept_id = dept.id)",
       "SELECT dept.name FROM dept JOIN (SELECT dept_id, count(*) AS c FROM emp GROUP BY dept_id) AS t "
       "ON t.dept_id = dept.id WHERE dept.budget = t.c"},
      {"MAX and the top row of an empty group", "SELECT max(salary) FROM emp WHERE dept_id = 3",
       "SELECT salary FROM emp WHERE dept_id = 3 ORDER BY salary DESC LIMIT 1"},
      {"MIN and the first row with NULLs", "SELECT min(salary) FROM emp", "SELECT salary FROM emp ORDER BY salary LIMIT 1"},
      {"OR and UNION (duplicates)", "SELECT name FROM emp WHERE salary > 10 OR bonus > 10",
       "SELECT name FROM emp WHERE salary > 10 UNION SELECT name FROM emp WHERE bonus > 10"},
      {"EXCEPT and NOT over NULLs", "SELECT id FROM emp EXCEPT SELECT id FROM emp WHERE bonus > 5",
       "SELECT id FROM emp WHERE NOT bonus > 5"},
      {"GROUP BY a nullable key", "SELECT dept_id, count(*) FROM emp GROUP BY dept_id",
       "SELECT dept_id, count(*) FROM emp WHERE dept_id IS NOT NULL GROUP BY dept_id"},
      {"LIKE and = (case)", "SELECT id FROM emp WHERE name LIKE 'Bob'", "SELECT id FROM emp WHERE name = 'Bob'"},
      {"NOT EXISTS and NOT IN, a NULL key beside a matching value",
       "SELECT name FROM dept WHERE NOT EXISTS (SELECT 1 FROM emp WHERE emp.dept_id = dept.id AND emp.salary > 50)",
       "SELECT name FROM dept WHERE id NOT IN (SELECT dept_id FROM emp WHERE salary > 50)"},
      {"HAVING SUM at its threshold", "SELECT dept_id FROM emp GROUP BY dept_id HAVING sum(salary) > 100",
       "SELECT dept_id FROM emp GROUP BY dept_id HAVING sum(salary) >= 100"},
      {"COALESCE of a correlated SUM", "SELECT name FROM dept WHERE budget > (SELECT sum(salary) FROM emp WHERE emp.dept_id = dept.id)",
       "SELECT name FROM dept WHERE budget > (SELECT coalesce(sum(salary), 0) FROM emp WHERE emp.dept_id = dept.id)"},
      {"the top row and every row at the top (ties)", "SELECT name FROM emp ORDER BY salary DESC LIMIT 1",
       "SELECT name FROM emp WHERE salary = (SELECT max(salary) FROM emp)"},
      {"the top row where every key is NULL", "SELECT name FROM emp ORDER BY bonus DESC LIMIT 1",
       "SELECT name FROM emp WHERE bonus IS NOT NULL ORDER BY bonus DESC LIMIT 1"},
      {"a range's edge as the top row", "SELECT id FROM emp WHERE salary > 10 AND salary < 50 ORDER BY salary DESC LIMIT 1",
       "SELECT id FROM emp WHERE salary BETWEEN 10 AND 50 ORDER BY salary DESC LIMIT 1"},
      {"a sum and a sum of the positive", "SELECT sum(salary) FROM emp", "SELECT sum(salary) FROM emp WHERE salary > 0"},
  };
  sqlsim_synth_opts o = {.strict = 1, .witness = 1};
  sqlsim_synth_runner *x = sqlsim_synth_runner_new(&o);
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
    sqlsim_synth r;
    strict_of(x, pairs[i][1], pairs[i][2], &r);
    if (r.strict != 0)
      fail_msg("%s: strict %d (%d databases judged, suite %d, %d of %d neighbors told apart)", pairs[i][0], r.strict,
               r.strict_databases, r.suite, r.told, r.neighbors);
    check_witness(r.witness, pairs[i][0]);
    sqlsim_witness_free(r.witness);
  }
  sqlsim_synth_runner_free(x);
}

/* Pairs that agree on every database the schema allows, compared as SQL
 * answers them (DISTINCT kept: Spider's comparison drops it, and then
 * SELECT DISTINCT x and SELECT x ... GROUP BY x answer differently). */
static void test_equivalent(void **state) {
  (void)state;
  static const char *pairs[][3] = {
      {"COUNT of the key", "SELECT count(*) FROM emp", "SELECT count(id) FROM emp"},
      {"a negated comparison", "SELECT name FROM emp WHERE salary > 30", "SELECT name FROM emp WHERE NOT salary <= 30"},
      {"IN and EXISTS", "SELECT name FROM dept WHERE id IN (SELECT dept_id FROM emp)",
       "SELECT name FROM dept WHERE EXISTS (SELECT 1 FROM emp WHERE emp.dept_id = dept.id)"},
      {"DISTINCT and GROUP BY", "SELECT DISTINCT dept_id FROM emp", "SELECT dept_id FROM emp GROUP BY dept_id"},
      {"BETWEEN", "SELECT name FROM emp WHERE salary BETWEEN 10 AND 20",
       "SELECT name FROM emp WHERE salary >= 10 AND salary <= 20"},
      {"text no number column holds", "SELECT name FROM emp WHERE salary = 'SECURITY'",
       "SELECT name FROM emp WHERE 0"},
      {"a left join filtered on its right side",
       "SELECT emp.name FROM emp LEFT JOIN dept ON emp.dept_id = dept.id WHERE dept.name = 'x'",
       "SELECT emp.name FROM emp JOIN dept ON emp.dept_id = dept.id WHERE dept.name = 'x'"},
      {"ties at the gold's LIMIT", "SELECT name FROM emp ORDER BY salary DESC LIMIT 1",
       "SELECT name FROM emp ORDER BY salary DESC, name LIMIT 1"},
      {"the same query", "SELECT link.v FROM link JOIN pair ON link.a = pair.a AND link.b = pair.b",
       "SELECT v FROM link AS l JOIN pair AS p ON p.b = l.b AND p.a = l.a"},
      {"a term moved across a comparison", "SELECT count(*) FROM emp WHERE salary + bonus > 10",
       "SELECT count(*) FROM emp WHERE salary > 10 - bonus"},
      {"<> and NOT =", "SELECT name FROM emp WHERE salary <> 5", "SELECT name FROM emp WHERE NOT (salary = 5)"},
      {"a correlated average and its join",
       "SELECT e.name FROM emp AS e WHERE e.salary > (SELECT avg(salary) FROM emp AS x WHERE x.dept_id = e.dept_id)",
       "SELECT e.name FROM emp AS e JOIN (SELECT dept_id, avg(salary) AS a FROM emp GROUP BY dept_id) AS t "
       "ON t.dept_id = e.dept_id WHERE e.salary > t.a"},
      {"a factor moved across a comparison", "SELECT count(*) FROM emp WHERE salary * 2 > 100",
       "SELECT count(*) FROM emp WHERE salary > 50"},
      {"= 0 and NOT", "SELECT count(*) FROM emp WHERE salary = 0", "SELECT count(*) FROM emp WHERE NOT salary"},
      {"COUNT(*) of a left join's inner side", "SELECT count(*) FROM emp LEFT JOIN dept ON emp.dept_id = dept.id",
       "SELECT count(*) FROM emp"},
  };
  sqlsim_synth_opts o = {.strict = 1, .witness = 1, .keep_distinct = 1};
  sqlsim_synth_runner *x = sqlsim_synth_runner_new(&o);
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
    sqlsim_synth r;
    strict_of(x, pairs[i][1], pairs[i][2], &r);
    if (r.strict == 0)
      fail_msg("%s: refuted: %s\n%s", pairs[i][0], r.strict_why, r.witness ? r.witness->database : "(no witness)");
    /* a gold that answers nothing on any database the schema allows gets no
     * verdict: agreeing on nothing is no evidence */
    if (strstr(pairs[i][1], "'SECURITY'")) assert_int_equal(r.strict, -1);
    else assert_int_equal(r.strict, 1);
    assert_null(r.witness);
  }
  sqlsim_synth_runner_free(x);
}

/* The suite is the gold's: a second prediction of one gold reuses it, and a
 * gold's neighbors are told apart by it (coverage). */
static void test_suite(void **state) {
  (void)state;
  sqlsim_synth_opts o = {.strict = 1};
  sqlsim_synth_runner *x = sqlsim_synth_runner_new(&o);
  sqlsim_synth a, b;
  const char *gold = "SELECT dept_id, count(*) FROM emp WHERE salary > 50 GROUP BY dept_id HAVING count(*) > 2";
  strict_of(x, gold, "SELECT dept_id, count(*) FROM emp WHERE salary >= 50 GROUP BY dept_id HAVING count(*) > 2", &a);
  strict_of(x, gold, "SELECT dept_id, count(*) FROM emp WHERE salary > 50 GROUP BY dept_id HAVING count(*) > 2", &b);
  assert_int_equal(a.strict, 0);
  assert_int_equal(b.strict, 1);
  assert_true(a.suite > 0 && a.suite == b.suite);
  assert_true(a.neighbors > 5);
  assert_true(a.told >= a.neighbors * 3 / 4);
  assert_int_equal(a.told, b.told);
  sqlsim_synth_runner_free(x);
}

/* A runner outlives the catalogs it was used with: its cached suites are
 * freed (evicted by later golds) after their schema is (found by fuzz_synth:
 * freeing a suite's databases read the freed schema). */
static void test_suite_outlives_schema(void **state) {
  (void)state;
  sqlsim_synth_opts o = {.strict = 1};
  sqlsim_synth_runner *x = sqlsim_synth_runner_new(&o);
  for (int round = 0; round < 2; round++) {
    sqlsim_catalog *own;
    assert_int_equal(sqlsim_catalog_parse_tables_json(TABLES, strlen(TABLES), "shop", &own, NULL), 0);
    const sqlsim_schema *s = sqlsim_catalog_find(own, "shop");
    for (int i = 0; i < 10; i++) { /* more golds than the runner keeps suites for */
      char gold[128];
      snprintf(gold, sizeof gold, "SELECT name FROM emp WHERE salary > %d", round * 100 + i);
      sqlsim_synth r;
      assert_int_equal(sqlsim_synth_pair(x, s, gold, "SELECT name FROM emp", &r, NULL), 0);
      assert_int_equal(r.strict, 0);
    }
    sqlsim_catalog_free(own);
  }
  sqlsim_synth_runner_free(x);
}

/* Hostile pairs stay within their limits: a 12-way cross join, a 500-arm
 * UNION. */
static void test_hostile(void **state) {
  (void)state;
  sqlsim_synth_opts o = {.strict = 1, .witness = 1, .timeout_s = 0.5};
  sqlsim_synth_runner *x = sqlsim_synth_runner_new(&o);
  char cross[1024] = "SELECT count(*) FROM emp AS t0";
  for (int i = 1; i < 12; i++) snprintf(cross + strlen(cross), sizeof cross - strlen(cross), ", emp AS t%d", i);
  sqlsim_synth r;
  strict_of(x, "SELECT count(*) FROM emp", cross, &r);
  assert_int_not_equal(r.strict, 1);
  sqlsim_witness_free(r.witness);
  size_t cap = 64 * 600;
  char *u = malloc(cap);
  strcpy(u, "SELECT name FROM emp WHERE salary = 0");
  for (int i = 1; i < 500; i++) snprintf(u + strlen(u), cap - strlen(u), " UNION SELECT name FROM emp WHERE salary = %d", i);
  strict_of(x, u, "SELECT name FROM emp", &r);
  assert_true(r.strict == 0 || r.strict == -1);
  sqlsim_witness_free(r.witness);
  free(u);
  sqlsim_synth_runner_free(x);
}

/* ---------------------------------------------------------------- the classes (issue 45) */

/* The textbook's EMP and DEPT (Oracle's SCOTT schema), declared as a SQLite
 * file declares them: INTEGER and REAL, keys, and CHECKs. */
static const char *SCOTT =
    "CREATE TABLE dept (deptno INTEGER PRIMARY KEY, dname TEXT, loc TEXT);"
    "CREATE TABLE emp (empno INTEGER PRIMARY KEY, ename TEXT NOT NULL,"
    " job TEXT CHECK (job IN ('CLERK', 'SALESMAN', 'MANAGER', 'ANALYST', 'PRESIDENT')),"
    " mgr INTEGER REFERENCES emp (empno), hiredate TEXT, sal INTEGER CHECK (sal > 0),"
    " comm INTEGER CHECK (comm >= 0), bonus INTEGER, deptno INTEGER REFERENCES dept (deptno));"
    "CREATE TABLE ops (id INTEGER PRIMARY KEY, op TEXT NOT NULL CHECK (op IN ('<', '>', '=')),"
    " code TEXT CHECK (length(code) BETWEEN 2 AND 4));"
    "CREATE TABLE meas (id INTEGER PRIMARY KEY, x REAL);";

static sqlsim_catalog *scott_catalog(char *path, size_t n) {
  snprintf(path, n, "/tmp/sqlsim_scott_XXXXXX");
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  sqlite3 *db;
  assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
  assert_int_equal(sqlite3_exec(db, SCOTT, NULL, NULL, NULL), SQLITE_OK);
  sqlite3_close(db);
  sqlsim_catalog *c = NULL;
  sqlsim_error err = {0};
  if (sqlsim_catalog_load_sqlite(path, &c, &err)) fail_msg("%s", err.message);
  return c;
}

/* The witness as the declared schema holds it: loaded with foreign keys
 * enforced (its CREATE TABLE carries the file's CHECKs), integers in the
 * INTEGER columns. */
static void check_declared(const sqlsim_witness *w, const char *what) {
  sqlite3 *db;
  assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
  char *msg = NULL;
  sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
  if (sqlite3_exec(db, w->database, NULL, NULL, &msg) != SQLITE_OK)
    fail_msg("%s: the witness breaks the declared schema: %s\n%s", what, msg, w->database);
  if (!strstr(w->database, "CHECK")) fail_msg("%s: the witness's tables lost their CHECKs:\n%s", what, w->database);
  sqlite3_stmt *st;
  const char *q = "SELECT count(*) FROM emp WHERE typeof(sal) = 'real' OR typeof(comm) = 'real'";
  if (strstr(w->database, "\"emp\"") && sqlite3_prepare_v2(db, q, -1, &st, NULL) == SQLITE_OK) {
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    if (sqlite3_column_int(st, 0)) fail_msg("%s: a real in an INTEGER column:\n%s", what, w->database);
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
}

/* One pair of each class of wrong query strict must refute (docs/synthetic.md,
 * "The classes"), each a textbook question on EMP and DEPT, and its witness
 * a database the declared schema allows. */
static void test_classes(void **state) {
  (void)state;
  char path[64];
  sqlsim_catalog *c = scott_catalog(path, sizeof path);
  const sqlsim_schema *s = sqlsim_catalog_at(c, 0);
  static const char *pairs[][4] = {
      /* class, gold, prediction, needs a NULL */
      {"duplicates through a join: departments with employees",
       "SELECT dname FROM dept WHERE deptno IN (SELECT deptno FROM emp)",
       "SELECT dname FROM dept JOIN emp ON emp.deptno = dept.deptno", "0"},
      {"ties on a timestamp: employees hired before their manager",
       "SELECT e.ename FROM emp AS e JOIN emp AS m ON e.mgr = m.empno WHERE e.hiredate < m.hiredate",
       "SELECT e.ename FROM emp AS e JOIN emp AS m ON e.mgr = m.empno WHERE e.hiredate <= m.hiredate", "0"},
      {"a threshold after arithmetic: monthly pay over 250", "SELECT ename FROM emp WHERE sal / 12 > 250",
       "SELECT ename FROM emp WHERE sal > 3000", "0"},
      {"a value on the threshold", "SELECT count(*) FROM emp WHERE sal > 1000",
       "SELECT count(*) FROM emp WHERE sal >= 1000", "0"},
      {"negative numbers where the schema allows them", "SELECT count(*) FROM emp WHERE bonus > 0",
       "SELECT count(*) FROM emp WHERE bonus <> 0", "0"},
      {"0 as a sentinel: employees who earn a commission", "SELECT count(*) FROM emp WHERE comm > 0",
       "SELECT count(comm) FROM emp", "0"},
      {"two columns coinciding: commission above salary", "SELECT ename FROM emp WHERE comm > sal",
       "SELECT ename FROM emp WHERE comm >= sal", "0"},
      {"a gold that returns rows only where everything meets",
       "SELECT e.ename FROM emp AS e JOIN dept AS d ON e.deptno = d.deptno WHERE d.loc = 'DALLAS' AND "
       "e.job = 'CLERK' AND e.sal = 800",
       "SELECT e.ename FROM emp AS e JOIN dept AS d ON e.deptno = d.deptno WHERE d.loc = 'DALLAS' AND "
       "e.job = 'CLERK' AND e.sal = 950", "0"},
      {"an empty table: the highest salary", "SELECT max(sal) FROM emp",
       "SELECT sal FROM emp ORDER BY sal DESC LIMIT 1", "0"},
      {"a NULL: employees with a manager counted", "SELECT count(*) FROM emp", "SELECT count(mgr) FROM emp", "1"},
      {"a value of a CHECK's list: the operators that are not =", "SELECT count(*) FROM ops WHERE op IN ('<', '>')",
       "SELECT count(*) FROM ops WHERE op = '<'", "0"},
  };
  sqlsim_synth_opts o = {.strict = 1, .witness = 1};
  sqlsim_synth_runner *x = sqlsim_synth_runner_new(&o);
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
    sqlsim_synth r;
    sqlsim_error err = {0};
    if (sqlsim_synth_pair(x, s, pairs[i][1], pairs[i][2], &r, &err)) fail_msg("%s: %s", pairs[i][0], err.message);
    if (r.strict != 0)
      fail_msg("%s: strict %d (%d databases judged): %s", pairs[i][0], r.strict, r.strict_databases, r.strict_why);
    if (r.needs_null != atoi(pairs[i][3])) fail_msg("%s: needs_null %d", pairs[i][0], r.needs_null);
    check_witness(r.witness, pairs[i][0]);
    check_declared(r.witness, pairs[i][0]);
    assert_int_equal(r.dropped, 0);
    sqlsim_witness_free(r.witness);
  }
  sqlsim_synth_runner_free(x);
  sqlsim_catalog_free(c);
  unlink(path);
}

/* Pairs equal on every database the declared schema allows, which a
 * database it forbids, or the last bits of a float sum, would tell apart. */
static void test_declared_equivalent(void **state) {
  (void)state;
  char path[64];
  sqlsim_catalog *c = scott_catalog(path, sizeof path);
  const sqlsim_schema *s = sqlsim_catalog_at(c, 0);
  static const char *pairs[][3] = {
      {"CHECK (op IN ('<', '>', '=')): not '=' is '<' or '>'", "SELECT count(*) FROM ops WHERE op IN ('<', '>')",
       "SELECT count(*) FROM ops WHERE op <> '='"},
      {"CHECK (comm >= 0): no negative commission", "SELECT count(*) FROM emp WHERE comm > 0",
       "SELECT count(*) FROM emp WHERE comm <> 0"},
      {"CHECK (sal > 0): every salary positive", "SELECT count(sal) FROM emp", "SELECT count(*) FROM emp WHERE sal > 0"},
      {"CHECK (length(code) BETWEEN 2 AND 4)", "SELECT count(code) FROM ops",
       "SELECT count(*) FROM ops WHERE length(code) >= 2"},
      {"INTEGER: nothing between 1000 and 1001", "SELECT count(*) FROM emp WHERE sal > 1000",
       "SELECT count(*) FROM emp WHERE sal >= 1001"},
      {"INTEGER ties broken within the type: the top salaries", "SELECT ename FROM emp ORDER BY sal DESC LIMIT 2",
       "SELECT ename FROM emp ORDER BY sal DESC, ename LIMIT 2"},
      {"a float sum in another order", "SELECT sum(x) FROM meas", "SELECT sum(x) FROM (SELECT x FROM meas ORDER BY x DESC)"},
      {"an average written out", "SELECT avg(x) FROM meas", "SELECT sum(x) / count(x) FROM meas"},
  };
  sqlsim_synth_opts o = {.strict = 1, .witness = 1, .keep_distinct = 1};
  sqlsim_synth_runner *x = sqlsim_synth_runner_new(&o);
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
    sqlsim_synth r;
    sqlsim_error err = {0};
    if (sqlsim_synth_pair(x, s, pairs[i][1], pairs[i][2], &r, &err)) fail_msg("%s: %s", pairs[i][0], err.message);
    if (r.strict == 0)
      fail_msg("%s: refuted: %s\n%s", pairs[i][0], r.strict_why, r.witness ? r.witness->database : "(no witness)");
    assert_null(r.witness);
  }
  sqlsim_synth_runner_free(x);
  sqlsim_catalog_free(c);
  unlink(path);
}

/* --assume-not-null: the pair a NULL alone tells apart is judged equal; one
 * a value tells apart is still refuted, with a witness that holds no NULL. */
static void test_assume_not_null(void **state) {
  (void)state;
  char path[64];
  sqlsim_catalog *c = scott_catalog(path, sizeof path);
  const sqlsim_schema *s = sqlsim_catalog_at(c, 0);
  sqlsim_synth_opts o = {.strict = 1, .witness = 1, .assume_not_null = 1};
  sqlsim_synth_runner *x = sqlsim_synth_runner_new(&o);
  sqlsim_synth r;
  assert_int_equal(sqlsim_synth_pair(x, s, "SELECT count(*) FROM emp", "SELECT count(mgr) FROM emp", &r, NULL), 0);
  assert_int_equal(r.strict, 1);
  assert_int_equal(sqlsim_synth_pair(x, s, "SELECT count(*) FROM emp WHERE sal > 1000",
                                     "SELECT count(*) FROM emp WHERE sal >= 1000", &r, NULL),
                   0);
  assert_int_equal(r.strict, 0);
  assert_int_equal(r.needs_null, 0);
  assert_non_null(r.witness);
  if (strstr(r.witness->database, ", NULL") || strstr(r.witness->database, "(NULL")) fail_msg("a NULL in the witness:\n%s", r.witness->database);
  assert_null(strstr(r.witness->database, "NULL)"));
  sqlsim_witness_free(r.witness);
  sqlsim_synth_runner_free(x);
  sqlsim_catalog_free(c);
  unlink(path);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_classes),
      cmocka_unit_test(test_declared_equivalent),
      cmocka_unit_test(test_assume_not_null),
      cmocka_unit_test(test_refuted),
      cmocka_unit_test(test_equivalent),
      cmocka_unit_test(test_suite),
      cmocka_unit_test(test_suite_outlives_schema),
      cmocka_unit_test(test_hostile),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
