/* test_pgjson.c -- the in-place reader of libpg_query's JSON: values, escapes
 * and numbers read right, every malformed text refused at the byte where it
 * goes wrong, any depth without recursion, and libpg_query's own output for
 * a query read the same as cJSON reads it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pg_query.h>
#include <stdlib.h>
#include <string.h>

#include "pgjson.h"

/* pj_parse on a modifiable copy of s; the copy stays alive with the arena. */
static const pj *parse(sqlsim_arena *a, const char *s, size_t *err) {
  size_t n = strlen(s);
  char *buf = sqlsim_arena_alloc(a, n + 1);
  memcpy(buf, s, n + 1);
  return pj_parse(a, buf, n, err);
}

static void test_values(void **state) {
  (void)state;
  sqlsim_arena *a = sqlsim_arena_new();
  const pj *v = parse(a, " {\"a\": [1, -2, 3.75, -0.5, 2e3, true, false, null, \"x\"], \"b\": {}, \"c\": []} ", NULL);
  assert_non_null(v);
  assert_int_equal(v->type, PJ_OBJ);
  assert_int_equal(pj_size(v), 3);
  const pj *arr = pj_get(v, "a");
  assert_int_equal(arr->type, PJ_ARR);
  assert_int_equal(pj_size(arr), 9);
  static const int ints[] = {1, -2, 3, 0, 2000};
  for (int i = 0; i < 5; i++) {
    assert_int_equal(pj_item(arr, i)->type, PJ_NUM);
    assert_int_equal(pj_item(arr, i)->ival, ints[i]);
  }
  assert_int_equal(pj_item(arr, 5)->type, PJ_TRUE);
  assert_int_equal(pj_item(arr, 6)->type, PJ_FALSE);
  assert_int_equal(pj_item(arr, 7)->type, PJ_NULL);
  assert_string_equal(pj_item(arr, 8)->str, "x");
  assert_null(pj_item(arr, 9));
  assert_null(pj_item(arr, -1));
  assert_null(pj_get(arr, "a")); /* an array has no members by name */
  assert_int_equal(pj_get(v, "b")->type, PJ_OBJ);
  assert_int_equal(pj_size(pj_get(v, "b")), 0);
  assert_null(pj_get(v, "b")->child);
  assert_int_equal(pj_size(pj_get(v, "c")), 0);
  assert_null(pj_get(v, "d"));
  assert_null(pj_get(NULL, "a"));
  assert_int_equal(pj_size(NULL), 0);
  /* a member found by name is the first of that name, as cJSON finds it */
  v = parse(a, "{\"k\": 1, \"k\": 2}", NULL);
  assert_int_equal(pj_get(v, "k")->ival, 1);
  /* numbers saturate to int; the integer part is kept */
  v = parse(a, "[99999999999999999999, -99999999999999999999, 1e300, -1e300, 2147483647, 12.9e-1]", NULL);
  assert_int_equal(pj_item(v, 0)->ival, 2147483647);
  assert_int_equal(pj_item(v, 1)->ival, -2147483647 - 1);
  assert_int_equal(pj_item(v, 2)->ival, 2147483647);
  assert_int_equal(pj_item(v, 3)->ival, -2147483647 - 1);
  assert_int_equal(pj_item(v, 4)->ival, 2147483647);
  assert_int_equal(pj_item(v, 5)->ival, 1);
  /* an exponent longer than any buffer on the stack still counts */
  v = parse(a, "[0.000000000000000000000000000000000000000000000000000000000000000000001e70]", NULL);
  assert_int_equal(pj_item(v, 0)->ival, 10);
  /* a scalar alone is a document */
  v = parse(a, "\"only\"", NULL);
  assert_string_equal(v->str, "only");
  sqlsim_arena_free(a);
}

static void test_escapes(void **state) {
  (void)state;
  sqlsim_arena *a = sqlsim_arena_new();
  const pj *v = parse(a, "{\"s\\\"q\": \"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\te\", \"u\": \"\\u0041\\u00e9\\u20ac\\ud83d\\ude00z\", "
                         "\"raw\": \"\xc3\xa9\xf0\x9f\x98\x80\"}",
                      NULL);
  assert_non_null(v);
  assert_string_equal(pj_get(v, "s\"q")->str, "a\"b\\c/d\b\f\n\r\te");
  assert_string_equal(pj_get(v, "u")->str, "A\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80z");
  assert_string_equal(pj_get(v, "raw")->str, "\xc3\xa9\xf0\x9f\x98\x80");
  sqlsim_arena_free(a);
}

static void test_malformed(void **state) {
  (void)state;
  static const struct {
    const char *text;
    size_t at; /* where reading stops */
  } bad[] = {
      {"", 0},
      {"   ", 3},
      {"{", 1},
      {"[1,]", 3},
      {"[1 2]", 3},
      {"{\"a\" 1}", 5},
      {"{\"a\": 1,}", 8},
      {"{1: 2}", 1},
      {"[1] x", 4},
      {"[tru]", 1},
      {"[nul]", 1},
      {"[-]", 1},
      {"[01]", 1},
      {"[1.]", 1},
      {"[1e]", 1},
      {"[+1]", 1},
      {"\"abc", 4},
      {"\"a\\x\"", 2},
      {"\"a\\u12\"", 2},
      {"\"a\\u0000\"", 2},     /* a NUL cannot stay in a C string */
      {"\"\\ud83d\"", 1},      /* a high surrogate alone */
      {"\"\\ude00\"", 1},      /* a low surrogate alone */
      {"\"\\ud83d\\u0041\"", 1}, /* a high surrogate and no low one */
      {"\"a\tb\"", 2},         /* a control character unescaped */
      {"[1]]", 3},
      {"{\"a\": [1}", 8},
      {"[\"a\\", 3},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    sqlsim_arena *a = sqlsim_arena_new();
    size_t at = 999;
    const pj *v = parse(a, bad[i].text, &at);
    if (v || at != bad[i].at)
      fail_msg("'%s': %s, stopped at %zu, expected %zu", bad[i].text, v ? "accepted" : "refused", at,
               bad[i].at);
    sqlsim_arena_free(a);
  }
}

/* The text need not be NUL-terminated: only len bytes are read. */
static void test_length_bound(void **state) {
  (void)state;
  sqlsim_arena *a = sqlsim_arena_new();
  char buf[] = "[12]xyz";
  const pj *v = pj_parse(a, buf, 4, NULL);
  assert_non_null(v);
  assert_int_equal(pj_item(v, 0)->ival, 12);
  char s[] = "\"ab\"";
  size_t at = 0;
  assert_null(pj_parse(a, s, 3, &at)); /* the closing quote is outside */
  assert_int_equal(at, 3);
  char num[] = "123456";
  v = pj_parse(a, num, 2, NULL);
  assert_int_equal(v->ival, 12);
  sqlsim_arena_free(a);
}

/* 200,000 levels: arena memory, not C stack (the sanitizer build would
 * catch an overflow). */
static void test_deep(void **state) {
  (void)state;
  enum { D = 200000 };
  char *buf = malloc(4 * D + 8);
  size_t n = 0;
  for (int i = 0; i < D; i++) buf[n++] = '[';
  for (int i = 0; i < D; i++) buf[n++] = ']';
  sqlsim_arena *a = sqlsim_arena_new();
  const pj *v = pj_parse(a, buf, n, NULL);
  assert_non_null(v);
  int depth = 0;
  while (v && v->type == PJ_ARR) {
    depth++;
    v = v->child;
  }
  assert_int_equal(depth, D);
  buf[n - 1] = '}';
  size_t at = 0;
  assert_null(pj_parse(a, buf, n, &at));
  assert_int_equal(at, n - 1);
  sqlsim_arena_free(a);
  free(buf);
}

/* Both readers agree on every value of a document: same types, names,
 * strings and integers, in the same order. */
static void same_as_cjson(const pj *v, const cJSON *c) {
  assert_non_null(c);
  if (v->key || c->string) assert_string_equal(v->key, c->string);
  switch (v->type) {
  case PJ_NULL: assert_true(cJSON_IsNull(c)); break;
  case PJ_TRUE: assert_true(cJSON_IsTrue(c)); break;
  case PJ_FALSE: assert_true(cJSON_IsFalse(c)); break;
  case PJ_NUM: assert_true(cJSON_IsNumber(c)); assert_int_equal(v->ival, c->valueint); break;
  case PJ_STR: assert_true(cJSON_IsString(c)); assert_string_equal(v->str, c->valuestring); break;
  default: {
    assert_true(v->type == PJ_ARR ? cJSON_IsArray(c) : cJSON_IsObject(c));
    assert_int_equal(pj_size(v), cJSON_GetArraySize(c));
    const pj *k;
    const cJSON *ck = c->child;
    pj_foreach(k, v) {
      same_as_cjson(k, ck);
      ck = ck->next;
    }
    assert_null(ck);
  }
  }
}

static void test_libpg_query_output(void **state) {
  (void)state;
  static const char *const queries[] = {
      "SELECT a, count(*) AS \"n\"\"q\" FROM t AS x JOIN u ON x.k = u.k WHERE b LIKE 'a\\%' ESCAPE '\\' "
      "AND c IN (SELECT d FROM v) GROUP BY a HAVING count(*) > 1.5e3 ORDER BY 2 DESC LIMIT 10",
      "SELECT 'tab\there', E'nl\\n', 'é😀', -2147483648, 99999999999999999999, B'101', NULL::int "
      "UNION ALL SELECT 1, 2, 3, 4, 5, 6, 7",
      "SELECT CASE WHEN x THEN 'a\"b' ELSE \"q\"\"z\" END FROM t WHERE y BETWEEN 1 AND 2 OR NOT z IS NULL",
  };
  for (size_t i = 0; i < sizeof queries / sizeof *queries; i++) {
    PgQueryParseResult pr = pg_query_parse(queries[i]);
    assert_null(pr.error);
    cJSON *c = cJSON_Parse(pr.parse_tree);
    sqlsim_arena *a = sqlsim_arena_new();
    const pj *v = pj_parse(a, pr.parse_tree, strlen(pr.parse_tree), NULL);
    assert_non_null(v);
    same_as_cjson(v, c);
    cJSON_Delete(c);
    sqlsim_arena_free(a);
    pg_query_free_parse_result(pr);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_values),        cmocka_unit_test(test_escapes),
      cmocka_unit_test(test_malformed),     cmocka_unit_test(test_length_bound),
      cmocka_unit_test(test_deep),          cmocka_unit_test(test_libpg_query_output),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  pg_query_exit();
  return rc;
}
