/* test_lexer.c -- the dialect front end: each SQLite/MySQL form, what it
 * becomes for libpg_query, and that positions map back to the user's text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "frontend.h"

static const struct {
  const char *in, *out;
} rewrites[] = {
    {"SELECT `a b` FROM [t]", "SELECT \"a b\" FROM \"t\""},
    {"SELECT `a\"b` FROM t", "SELECT \"a\"\"b\" FROM t"},
    {"SELECT a FROM t WHERE a == 1", "SELECT a FROM t WHERE a = 1"},
    {"SELECT a FROM t LIMIT 5, 10", "SELECT a FROM t LIMIT 10 OFFSET 5"},
    {"SELECT a FROM t LIMIT 2 OFFSET 3", "SELECT a FROM t LIMIT 2 OFFSET 3"},
    /* a LIMIT inside an earlier one's range (its '(' never closed) is not moved a
     * second time: each token once (was "LIMIT (SELECT b LIMIT 2 3 OFFSET OFFSET 2",
     * and past the counted length on longer texts; fuzz_pgnodes) */
    {"SELECT a FROM t LIMIT 1, (SELECT b LIMIT 2, 3", "SELECT a FROM t LIMIT (SELECT b LIMIT 2, 3 OFFSET 1"},
    {"SELECT * FROM (SELECT 1)", "SELECT * FROM (SELECT 1) AS \"#sqlsim_sq1\""},
    {"SELECT * FROM (SELECT 1) x", "SELECT * FROM (SELECT 1) x"},
    {"SELECT * FROM a, (SELECT 1) WHERE 1", "SELECT * FROM a, (SELECT 1) AS \"#sqlsim_sq1\" WHERE 1"},
    {"SELECT * FROM a JOIN b WHERE a.x = b.y", "SELECT * FROM a CROSS JOIN b WHERE a.x = b.y"},
    {"SELECT * FROM a INNER JOIN b AS c", "SELECT * FROM a  CROSS JOIN b AS c"},
    {"SELECT * FROM a LEFT JOIN b", "SELECT * FROM a LEFT JOIN b ON TRUE"},
    {"SELECT * FROM a JOIN b ON a.x = b.x", "SELECT * FROM a JOIN b ON a.x = b.x"},
    {"SELECT * FROM a NATURAL JOIN b", "SELECT * FROM a NATURAL JOIN b"},
    {"SELECT a IS 1, a IS NOT b, a IS NULL, a IS NOT NULL FROM t",
     "SELECT a IS NOT DISTINCT FROM 1, a IS DISTINCT FROM  b, a IS NULL, a IS NOT NULL FROM t"},
    {"SELECT a FROM t WHERE a NOT NULL", "SELECT a FROM t WHERE a IS NOT NULL"},
    {"SELECT a FROM t WHERE a GLOB 'x*' AND b NOT GLOB 'y'",
     "SELECT a FROM t WHERE a ~# 'x*' AND b  !~# 'y'"},
    {"SELECT a FROM t WHERE a REGEXP 'x'", "SELECT a FROM t WHERE a ~## 'x'"},
    {"SELECT glob('a*', x) FROM t", "SELECT glob('a*', x) FROM t"},
    {"SELECT 0x1F", "SELECT 31"},
    {"SELECT a FROM t WHERE b = \"\"", "SELECT a FROM t WHERE b = ''"},
    {"SELECT count(*) AS '342111' FROM t", "SELECT count(*) AS \"342111\" FROM t"},
    {"SELECT user FROM t", "SELECT \"user\" FROM t"},
    {"SELECT any, some(x) FROM t WHERE any = 1 AND x = any", "SELECT \"any\", \"some\"(x) FROM t WHERE \"any\" = 1 AND x = \"any\""},
    {"SELECT a FROM t WHERE a = ANY (SELECT b FROM u)", "SELECT a FROM t WHERE a = ANY (SELECT b FROM u)"},
    {"SELECT any ~ 1, - any + 2 FROM t", "SELECT \"any\" ~ 1, - \"any\" + 2 FROM t"}, /* as a ~ 1 */
    {"SELECT 1 WHERE 1 = ANY ('{1}') OR ~ some(x)", "SELECT 1 WHERE 1 = \"any\" ('{1}') OR (~ \"some\"(x))"},
    {"SELECT time('now'), char(65), trim(x, 'a') FROM t",
     "SELECT \"time\"('now'), \"char\"(65), \"trim\"(x, 'a') FROM t"},
    {"SELECT CAST(x AS CHAR(10)) FROM t", "SELECT CAST(x AS CHAR(10)) FROM t"},
    {"SELECT a FROM t WHERE a = b = c", "SELECT a FROM t WHERE (a = b) = c"},
    {"SELECT a FROM t -- comment\r\n;", "SELECT a FROM t -- comment\r\n;"},
    {"SELECT 'it''s `x`'", "SELECT 'it''s `x`'"},
};

/* Copies s with runs of blanks folded to one: spacing is not the point here. */
static char *squeeze(sqlsim_arena *a, const char *s) {
  char *out = sqlsim_arena_alloc(a, strlen(s) + 1), *o = out;
  for (; *s; s++)
    if (!(*s == ' ' && o > out && o[-1] == ' ')) *o++ = *s;
  return out;
}

static void test_rewrites(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof rewrites / sizeof rewrites[0]; i++) {
    sqlsim_arena *a = sqlsim_arena_new();
    fe_result r;
    sqlsim_error err = {0};
    int rc = fe_translate(a, rewrites[i].in, (int)strlen(rewrites[i].in), &r, &err);
    assert_int_equal(rc, 0);
    if (strcmp(squeeze(a, r.out), squeeze(a, rewrites[i].out)) != 0)
      fail_msg("case %zu: %s\n  got:      %s\n  expected: %s", i, rewrites[i].in, r.out,
               rewrites[i].out);
    sqlsim_arena_free(a);
  }
}

static void test_keyword_table(void **state) {
  (void)state;
  assert_true(fe_keywords_sorted());
}

static void test_long_identifier(void **state) {
  (void)state;
  const char *sql = "SELECT `a column name that is much longer than sixty-three bytes, as BIRD has` "
                    "FROM t";
  sqlsim_arena *a = sqlsim_arena_new();
  fe_result r;
  assert_int_equal(fe_translate(a, sql, (int)strlen(sql), &r, NULL), 0);
  assert_int_equal(r.nlongids, 1);
  assert_string_equal(r.longids[0],
                      "a column name that is much longer than sixty-three bytes, as BIRD has");
  assert_non_null(strstr(r.out, "\"#sqlsim_id0\""));
  sqlsim_arena_free(a);
}

static void test_unterminated(void **state) {
  (void)state;
  static const struct {
    const char *sql;
    int offset;
  } cases[] = {{"SELECT 'abc FROM t", 7}, {"SELECT `abc FROM t", 7}, {"SELECT a FROM [t", 14}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    sqlsim_arena *a = sqlsim_arena_new();
    fe_result r;
    sqlsim_error err = {0};
    assert_int_equal(fe_translate(a, cases[i].sql, (int)strlen(cases[i].sql), &r, &err),
                     SQLSIM_ESYNTAX);
    assert_int_equal(err.offset, cases[i].offset);
    assert_non_null(strstr(err.message, "expected a closing"));
    sqlsim_arena_free(a);
  }
}

/* A model's answer still in its Markdown fence says so. */
static void test_code_fence(void **state) {
  (void)state;
  const char *sql = "```sql\nSELECT 1\n```";
  sqlsim_arena *a = sqlsim_arena_new();
  fe_result r;
  sqlsim_error err = {0};
  assert_int_equal(fe_translate(a, sql, (int)strlen(sql), &r, &err), SQLSIM_ESYNTAX);
  assert_int_equal(err.offset, 0);
  assert_non_null(strstr(err.message, "Markdown code fence"));
  sqlsim_arena_free(a);
}

/* Offsets in the rewritten text map back to the byte the user wrote. */
static void test_offset_map(void **state) {
  (void)state;
  const char *sql = "SELECT `x` FROM t LIMIT 3, 4 WHERE";
  sqlsim_arena *a = sqlsim_arena_new();
  fe_result r;
  assert_int_equal(fe_translate(a, sql, (int)strlen(sql), &r, NULL), 0);
  const char *w = strstr(r.out, "WHERE");
  assert_non_null(w);
  assert_int_equal(fe_map(&r, (int)(w - r.out)), (int)(strstr(sql, "WHERE") - sql));
  const char *f = strstr(r.out, "FROM");
  assert_int_equal(fe_map(&r, (int)(f - r.out)), (int)(strstr(sql, "FROM") - sql));
  const char *four = strstr(r.out, "4");
  assert_int_equal(fe_map(&r, (int)(four - r.out)), (int)(strstr(sql, "4") - sql));
  sqlsim_arena_free(a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rewrites),
      cmocka_unit_test(test_keyword_table),
      cmocka_unit_test(test_long_identifier),
      cmocka_unit_test(test_unterminated),
      cmocka_unit_test(test_code_fence),
      cmocka_unit_test(test_offset_map),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
