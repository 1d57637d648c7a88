/* test_pgnodes.c -- PostgreSQL's parse tree read without JSON (pgnodes.c):
 * the document it makes is the one read from libpg_query's JSON for the same
 * tree, member for member, for every node type it reads; a tree with any
 * other node is handed to the JSON route and the builder says what it said
 * before; syntax errors keep PostgreSQL's position. (The corpora, the parse
 * seeds and the hostile files are compared both ways by pgnodes_check; the
 * fuzz target fuzz_pgnodes compares them on whatever it makes.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pg_query.h>
#include <stdlib.h>
#include <string.h>

#include "pgnodes.h"
#include "sqlsim.h"

static void same_both_ways(const char *sql) {
  sqlsim_arena *a = sqlsim_arena_new();
  const pj *nodes, *json;
  pg_doc d;
  assert_int_equal(pg_parse_both(a, sql, &nodes, &json, &d), 0);
  if (!nodes) fail_msg("handed over: %s", sql);
  if (!pj_same(nodes, json)) fail_msg("not the same document: %s", sql);
  pg_doc_done(&d);
  sqlsim_arena_free(a);
}

static void test_in_use(void **state) {
  (void)state;
#if PG_VERSION_NUM / 10000 == 15
  assert_int_equal(pg_nodes_in_use(), 1); /* the check query passed */
#else
  assert_int_equal(pg_nodes_in_use(), 0);
#endif
}

static void test_same_document(void **state) {
  (void)state;
  if (!pg_nodes_in_use()) skip();
  static const char *const queries[] = {
      "SELECT 1",
      "",
      ";",
      "SELECT 1; SELECT 2",
      "  SELECT a FROM t ; ",
      /* integers: PostgreSQL folds the minus in; 15-4.0.0 writes no negative ival */
      "SELECT -5, - 0, -(3), 0, 2147483647, -2147483648, 99999999999999999999, 1e5, .5, 00012",
      /* strings the JSON escapes */
      "SELECT 'a\"b\\c', E'nl\\n\\t\\r\\b\\f', 'é😀<>', 'ctl\x01\x1f', '' AS \"q\"\"z\"",
      "SELECT x'0F', B'101', TRUE, FALSE, NULL, NULL::int, DATE '2020-01-01', $1, $2",
      "SELECT DISTINCT a, b FROM t WHERE c IS NOT NULL ORDER BY a DESC NULLS FIRST, b USING <",
      "SELECT a FROM t LIMIT ALL OFFSET 3",
      "SELECT * FROM a NATURAL LEFT JOIN b RIGHT JOIN c ON TRUE FULL JOIN d USING (x, y)",
      "SELECT * FROM (SELECT 1) s, LATERAL (SELECT 2) l, ONLY t, cat.sch.rel AS r (c1, c2)",
      "SELECT * FROM unnest(a) WITH ORDINALITY AS u",
      "WITH RECURSIVE r (n) AS MATERIALIZED (SELECT 1 UNION SELECT n + 1 FROM r) SELECT * FROM r",
      "SELECT 1 EXCEPT ALL SELECT 2 INTERSECT SELECT 3 ORDER BY 1 LIMIT 1",
      "(SELECT 1 LIMIT 1) UNION (SELECT 2 ORDER BY 1)",
      "VALUES (1, 'a'), (2, 'b')",
      "SELECT a = ALL (SELECT 1), a < ANY (SELECT 2), a NOT IN (SELECT 3), ARRAY(SELECT 1) IS NULL",
      "SELECT a SIMILAR TO 'x', a NOT ILIKE 'y', a IS NOT DISTINCT FROM b, a BETWEEN SYMMETRIC 1 AND 2",
      "SELECT a IS UNKNOWN, a IS NOT FALSE, NOT (a AND b OR c), a || b, @ a, a ->> 'k', a ~ 'r'",
      "SELECT LEAST(1, 2), NULLIF(a, ''), COALESCE(a), current_timestamp, current_time(3), localtime, "
      "user, current_schema, current_catalog",
      "SELECT CAST(a AS double precision), a::numeric(10, 2), a::varchar[], a::int ARRAY[3], "
      "CAST(b AS timestamp with time zone)",
      "SELECT a COLLATE \"C\" COLLATE pg_catalog.\"default\"",
      "SELECT rank() OVER (w ROWS UNBOUNDED PRECEDING), count(*) OVER (), lag(a, 1) OVER "
      "(PARTITION BY b RANGE BETWEEN 3 PRECEDING AND 2 FOLLOWING EXCLUDE TIES) FROM t WINDOW w AS "
      "(PARTITION BY c)",
      "SELECT count(DISTINCT a) FILTER (WHERE b), sum(VARIADIC a), extract(year FROM d), "
      "substring(s FROM 1 FOR 2), trim(both 'x' FROM s), position('a' IN s), overlay(s placing 'x' from 1)",
      "SELECT ROW(1, 2) = ROW(a, b), (a, b) IN ((1, 2)), CASE WHEN a THEN 1 END, CASE a WHEN 1 THEN 2 ELSE 3 END",
      "SELECT a FROM t GROUP BY DISTINCT a HAVING count(*) > 1",
  };
  for (size_t i = 0; i < sizeof queries / sizeof *queries; i++) same_both_ways(queries[i]);
}

/* Trees with nodes the reader does not write go to the JSON route. */
static void test_handed_over(void **state) {
  (void)state;
  if (!pg_nodes_in_use()) skip();
  static const char *const queries[] = {
      "SELECT a[1] FROM t",                          /* A_Indirection */
      "SELECT ARRAY[1, 2]",                          /* A_ArrayExpr */
      "INSERT INTO t VALUES (1)",                    /* another statement */
      "SELECT * FROM unnest(a) WITH ORDINALITY AS u (x int)", /* a column definition list */
      "SELECT a INTO b FROM t",                      /* IntoClause */
      "SELECT a FROM t FOR UPDATE",                  /* LockingClause */
      "SELECT a FROM t GROUP BY ROLLUP (a)",         /* GroupingSet */
  };
  int handed = 0;
  for (size_t i = 0; i < sizeof queries / sizeof *queries; i++) {
    sqlsim_arena *a = sqlsim_arena_new();
    const pj *nodes, *json;
    pg_doc d;
    assert_int_equal(pg_parse_both(a, queries[i], &nodes, &json, &d), 0);
    if (!nodes) handed++;
    else assert_true(pj_same(nodes, json)); /* what it does read, it reads the same */
    pg_doc_done(&d);
    sqlsim_arena_free(a);
  }
  assert_int_equal(handed, (int)(sizeof queries / sizeof *queries));
  /* and the builder names them from the JSON, as before (sqlsim's own text:
   * the front end reads a[1] as SQLite does, a column and an alias) */
  sqlsim_query *q;
  sqlsim_error err = {0};
  const char *rollup = "SELECT a FROM t GROUP BY ROLLUP (a)";
  assert_int_not_equal(sqlsim_parse(rollup, strlen(rollup), NULL, 0, &q, &err), 0);
  assert_string_equal(err.message, "unsupported construct GroupingSet");
  assert_int_equal(err.offset, 25);
  assert_int_not_equal(sqlsim_parse("INSERT INTO t VALUES (1)", 24, NULL, 0, &q, &err), 0);
  assert_non_null(strstr(err.message, "only SELECT statements"));
  assert_non_null(strstr(err.message, "Insert"));
}

/* A syntax error: no document, and PostgreSQL's message and position. */
static void test_syntax_error(void **state) {
  (void)state;
  static const char *const bad[] = {"SELECT FROM WHERE", "SELECT 'é', FROM t", "SELECT (1"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    sqlsim_arena *a = sqlsim_arena_new();
    pg_doc d;
    assert_int_equal(pg_parse_doc(a, bad[i], &d), 0);
    assert_null(d.root);
    PgQueryParseResult pr = pg_query_parse(bad[i]);
    assert_non_null(pr.error);
    assert_string_equal(d.error, pr.error->message);
    assert_int_equal(d.error_cursor, pr.error->cursorpos);
    pg_query_free_parse_result(pr);
    pg_doc_done(&d);
    sqlsim_arena_free(a);
  }
}

/* pj_same itself: it must be able to say no. */
static void test_same(void **state) {
  (void)state;
  sqlsim_arena *a = sqlsim_arena_new();
  const char *texts[] = {"{\"a\":[1,\"x\",true,null,{}]}", "{\"a\":[1,\"x\",true,null,{}]}",
                         "{\"a\":[1,\"y\",true,null,{}]}", "{\"a\":[2,\"x\",true,null,{}]}",
                         "{\"b\":[1,\"x\",true,null,{}]}", "{\"a\":[1,\"x\",false,null,{}]}",
                         "{\"a\":[1,\"x\",true,null]}",    "{\"a\":[1,\"x\",true,null,[]]}"};
  const pj *v[8];
  for (int i = 0; i < 8; i++) {
    char *buf = sqlsim_arena_strdup(a, texts[i]);
    v[i] = pj_parse(a, buf, strlen(buf), NULL);
    assert_non_null(v[i]);
  }
  assert_true(pj_same(v[0], v[1]));
  for (int i = 2; i < 8; i++) assert_false(pj_same(v[0], v[i]));
  assert_false(pj_same(v[0], NULL));
  sqlsim_arena_free(a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_in_use),      cmocka_unit_test(test_same_document),
      cmocka_unit_test(test_handed_over), cmocka_unit_test(test_syntax_error),
      cmocka_unit_test(test_same),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  sqlsim_thread_cleanup();
  return rc;
}
