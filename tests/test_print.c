/* test_print.c -- the printer: printed SQL parses to the same tree, and runs
 * on SQLite with the same result as the original. Operator precedence,
 * compound queries and SQLite-only forms are the cases that break printers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

static const char *cases[] = {
    "SELECT 1 - (2 - 3)",
    "SELECT (1 - 2) - 3",
    "SELECT 2 * (3 + 4), 2 * 3 + 4",
    "SELECT -(-5), - (1 + 2), - -1",
    "SELECT (1 = 1) = 1, 1 = 1 = 1",
    "SELECT 1 < (2) > 0, (1) < 2 > 0, 1 < abs(2) > 0, 3 > (2 > 1) > 0 = (1) = 1",
    "SELECT 1 < 2 = 1, 0 = 2 < 1, 1 = 2 < 3 < 4 = 0 AND 1 < 2 > 3 = 0, 2 <> 1 < 0 != 1 >= 1",
    "SELECT 'a'||-1, 1>=-1, 2<-1, 3*-1, 1<>-1, 5==-5, 1-+1, 1+-+-1, 8>>1>2, 1<<2<<1",
    "SELECT 1 = 2 < 3 x, 1 = 1 < 2 AS y, 'a' = 'b' < 'c' COLLATE nocase ORDER BY 1 = 2 < 3 DESC, 2",
    "SELECT ~1 + 1, ~ 2 * 3, - ~ 2 * 3, 1 + 2 || 3, '1' || 2 + 3, 2 & 1 || 1, 1 || 2 || 3 * 2",
    "SELECT - 2 || 3, 'a' || CASE WHEN 1 THEN 'b' END * 2, abs(1) || abs(2) * 2, 1 IN (1, 2) || 'x'",
    "SELECT 'a' COLLATE nocase || 'b' * 2, (1) || (2) * 3, 2 * (1) || 3, ~(1) || 2, 2 * ~1 || 1",
    /* a run of || inside an operand of another run (fuzz_parse) */
    "SELECT 'x' || (2 + '[5]' -> '$[0]'), 'x' || (NOT ~1 + '[5]' -> '$[0]'), 'a' || abs(1 || 2 + 3) || 'b', "
    "('a' || 1) || 2 + 3, 1 || (2 || 3) || 4 + 5",
    "SELECT 1 < 2 LIKE 1, 1 = 2 LIKE 0, 2 < 1 NOT IN (1, 0), 1 < 2 BETWEEN 0 AND 1, 1 = 0 < 1 BETWEEN 1 AND 2",
    "SELECT 'a' LIKE 'a' = 1, 1 IN (1) = 1, 0 < 1 NOT BETWEEN 2 AND 3, 3 > 2 NOT LIKE 0, 1 < 2 GLOB '1'",
    "SELECT -(1), -(-1), - -(-(7)), -((3)) * 2, -(0x10), +(+1) || 2, -(1) || 2 * 3, 1 + -(2) || 3",
    "SELECT NOT (1 = 2), NOT 1 = 2",
    "SELECT 1 BETWEEN 0 AND 2 AND 1",
    "SELECT (1 < 2) + 1",
    "SELECT 'a' || 'b' = 'ab'",
    "SELECT 7 % 3 * 2, 7 % (3 * 2)",
    "SELECT 1 IN (1, 2) = 1",
    "SELECT CASE WHEN 1 THEN 'x' ELSE 'y' END, CASE 2 WHEN 1 THEN 'a' WHEN 2 THEN 'b' END",
    "SELECT 1 IS NULL, NULL IS NOT 1, 2 IS 2, NULL NOT NULL",
    "SELECT 'abc' LIKE 'A%', 'abc' NOT LIKE 'a\\%' ESCAPE '\\', 'abc' GLOB 'a*', 'a' NOT GLOB 'b'",
    "SELECT 1 << 2 | 1, ~5, 6 & 3",
    "SELECT CAST('12' AS INTEGER) + 1, CAST(3 AS REAL) / 2",
    "SELECT 'Ab' COLLATE NOCASE = 'ab', 'ab' = 'Ab' COLLATE NOCASE",
    "SELECT 1 UNION SELECT 2 INTERSECT SELECT 2",
    "SELECT 3 EXCEPT SELECT 1 UNION SELECT 2",
    "SELECT * FROM (SELECT 1 AS a UNION ALL SELECT 2) ORDER BY a DESC LIMIT 1",
    "WITH x(a) AS (SELECT 3) SELECT a FROM x",
    "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 5) SELECT sum(n) FROM c",
    "SELECT max(1, 2), coalesce(NULL, 3), iif(1, 2, 3), nullif(1, 1)",
    "SELECT 0x10 + 1, 1e3, .5",
    "SELECT count(*) FILTER (WHERE a > 1) FROM (SELECT 1 AS a UNION ALL SELECT 2)",
    "SELECT sum(a) OVER (ORDER BY a ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM (SELECT 1 AS a "
    "UNION ALL SELECT 2)",
    "SELECT a, rank() OVER w FROM (SELECT 1 AS a) WINDOW w AS (ORDER BY a)",
    "SELECT (SELECT 1) + 1, EXISTS (SELECT 1), NOT EXISTS (SELECT 1 WHERE 0)",
    "SELECT 5 NOT BETWEEN 1 AND 3, 2 NOT IN (1, 3), 2 IN (SELECT 2)",
    "SELECT a FROM (SELECT 1 AS a) LIMIT 0, 1",
    "SELECT a FROM (SELECT 1 AS a) LIMIT 1 OFFSET 0",
    "SELECT 'x' AS \"order\", 1 AS 'one', 2 AS `two`",
    "SELECT * FROM (SELECT 1 AS a) JOIN (SELECT 1 AS b)",
    "SELECT * FROM (SELECT 1 AS a) AS x LEFT JOIN (SELECT 2 AS b) AS y ON x.a = y.b",
    "SELECT * FROM (SELECT 1 AS a) AS x JOIN (SELECT 1 AS a) AS y USING (a)",
    "SELECT * FROM (SELECT 1 AS a) NATURAL JOIN (SELECT 1 AS a, 2 AS b)",
    "SELECT DISTINCT a FROM (SELECT 1 AS a UNION ALL SELECT 1) GROUP BY a HAVING count(*) > 0",
    "SELECT group_concat(a, '-') FROM (SELECT 'x' AS a UNION ALL SELECT 'y')",
    "SELECT substr('hello', 2, 3), instr('abc', 'b'), strftime('%Y', '2020-05-01')",
    "SELECT CURRENT_DATE IS NOT NULL",
    "SELECT 1 WHERE 1 = 1 OR 0 AND 0",
    "SELECT 1 WHERE (1 = 1 OR 0) AND 0",
    "SELECT X'41' = CAST('A' AS BLOB)",
    "SELECT abs(-3), 10 / 4, 10 / 4.0",
    "SELECT 1 ORDER BY 1 NULLS LAST",
};

static void test_roundtrip(void **state) {
  (void)state;
  sqlite3 *db;
  assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    sqlsim_query *q, *q2;
    sqlsim_error err = {0};
    if (sqlsim_parse(cases[i], strlen(cases[i]), NULL, 0, &q, &err))
      fail_msg("case %zu does not parse: %s", i, err.message);
    char *printed = sqlsim_print_sql(q->root, 0);
    if (sqlsim_parse(printed, strlen(printed), NULL, 0, &q2, &err))
      fail_msg("case %zu: printed SQL does not parse: %s\n  %s", i, err.message, printed);
    if (sqlsim_node_cmp(q->root, q2->root) != 0)
      fail_msg("case %zu: tree changed through printing\n  %s\n  %s", i, cases[i], printed);
    /* Same result on SQLite, compared as text rows. */
    char *e1 = NULL, *e2 = NULL;
    char **r1, **r2;
    int n1, c1, n2, c2;
    if (sqlite3_get_table(db, cases[i], &r1, &n1, &c1, &e1) != SQLITE_OK)
      fail_msg("case %zu: SQLite rejects the original: %s", i, e1);
    if (sqlite3_get_table(db, printed, &r2, &n2, &c2, &e2) != SQLITE_OK)
      fail_msg("case %zu: SQLite rejects the printed SQL: %s\n  %s", i, e2, printed);
    assert_int_equal(n1, n2);
    assert_int_equal(c1, c2);
    for (int k = c1; k < (n1 + 1) * c1; k++) { /* skip the header row */
      const char *a = r1[k] ? r1[k] : "NULL", *b = r2[k] ? r2[k] : "NULL";
      if (strcmp(a, b)) fail_msg("case %zu: value %d differs: %s vs %s\n  %s", i, k, a, b, printed);
    }
    sqlite3_free_table(r1);
    sqlite3_free_table(r2);
    free(printed);
    sqlsim_query_free(q);
    sqlsim_query_free(q2);
  }
  sqlite3_close(db);
}

/* Identifiers are quoted exactly when SQLite needs it. */
static void test_quoting(void **state) {
  (void)state;
  sqlsim_query *q;
  const char *sql = "SELECT `Free Meal Count`, \"order\", name, [a\"b] FROM `my table` AS t";
  assert_int_equal(sqlsim_parse(sql, strlen(sql), NULL, 0, &q, NULL), 0);
  char *p = sqlsim_print_sql(q->root, 0);
  assert_string_equal(p, "SELECT \"Free Meal Count\", \"order\", name, \"a\"\"b\" FROM \"my table\" AS t");
  free(p);
  sqlsim_query_free(q);
}

/* Unquoted names keep the user's case (SQLite keeps it in result column
 * names; PostgreSQL's parser folds it). */
static void test_case_kept(void **state) {
  (void)state;
  sqlsim_query *q;
  const char *sql = "SELECT Name AS SingerName, T1.Age, count(*) Cnt, x.* FROM main.Singer AS T1, Song x ORDER BY SingerName";
  assert_int_equal(sqlsim_parse(sql, strlen(sql), NULL, 0, &q, NULL), 0);
  char *p = sqlsim_print_sql(q->root, 0);
  assert_string_equal(p, "SELECT Name AS SingerName, t1.Age, count(*) AS Cnt, x.* FROM Singer AS t1, Song AS x ORDER BY "
                         "SingerName");
  free(p);
  sqlsim_query_free(q);
}

/* Fuzz findings: a cast's type is the words PostgreSQL's grammar reads as one
 * type, never the words after it (`a::int OR b` printed as a cast to
 * "int OR b"); PostgreSQL's own operators print so they read back the same. */
static void test_cast_type_words(void **state) {
  (void)state;
  static const char *in_out[][2] = {
      {"SELECT a FROM t WHERE a::int OR b", "SELECT a FROM t WHERE b OR CAST(a AS int)"},
      {"SELECT a::\"x\" AND b FROM t", "SELECT b AND CAST(a AS \"x\") FROM t"},
      {"SELECT a::int y FROM t", "SELECT CAST(a AS int) AS y FROM t"},
      {"SELECT CAST(a AS double precision), a::timestamp with time zone FROM t",
       "SELECT CAST(a AS double precision), CAST(a AS timestamp with time zone) FROM t"},
      {"SELECT CAST(a AS character varying(10)) FROM t", "SELECT CAST(a AS character varying(10)) FROM t"},
      /* PostgreSQL's own operators, fully parenthesized (no SQLite precedence to lean on) */
      {"SELECT a | b ! c, 2 ^ 3 * 4, 2 * 3 ^ 4 FROM t", "SELECT (a | b) ! c, (2 ^ 3) * 4, (3 ^ 4) * 2 FROM t"},
      /* SQLite has no int or time keyword: as names they read back as names */
      {"SELECT \"int\" ~ 1, time, real + 1, CAST(a AS int) FROM t", "SELECT int ~ 1, time, real + 1, CAST(a AS int) FROM t"},
  };
  for (size_t i = 0; i < sizeof in_out / sizeof in_out[0]; i++) {
    sqlsim_query *q;
    assert_int_equal(sqlsim_parse(in_out[i][0], strlen(in_out[i][0]), NULL, 0, &q, NULL), 0);
    char *p = sqlsim_print_sql(q->root, 0);
    assert_string_equal(p, in_out[i][1]);
    free(p);
    sqlsim_query_free(q);
  }
  /* and prefix operators SQLite does not have are refused, with the position */
  static const char *refused[][2] = {{"SELECT @ -5 + 1", "not an SQLite prefix operator: @"},
                                     {"SELECT a FROM t WHERE ! ! a", "not an SQLite prefix operator: !"},
                                     {"SELECT a FROM t WHERE ~ ~ GLOB 'x'", "GLOB or REGEXP with no left operand"},
                                     {"SELECT [a\0b] FROM t", "NUL byte at offset 9"},
                                     {"SELECT 'a' SIMILAR TO 'b'", "SIMILAR TO is not SQLite's"},
                                     {"SELECT nullif@avR AS Dgs", "a name before a value: not SQLite syntax"}};
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
    sqlsim_query *q = NULL;
    sqlsim_error err = {0};
    size_t len = strlen(refused[i][0]);
    if (strstr(refused[i][0], "[a")) len += 3; /* past the NUL */
    assert_int_not_equal(sqlsim_parse(refused[i][0], len, NULL, 0, &q, &err), 0);
    assert_string_equal(err.message, refused[i][1]);
    assert_true(err.offset > 6);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_roundtrip),
      cmocka_unit_test(test_quoting),
      cmocka_unit_test(test_case_kept),
      cmocka_unit_test(test_cast_type_words),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
