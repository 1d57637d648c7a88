/* test_items.c -- gold and prediction files in the formats they are
 * published in. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sqlsim.h"

static char *write_tmp(const char *text) {
  static char path[64];
  snprintf(path, sizeof path, "/tmp/sqlsim_items_XXXXXX");
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, text, strlen(text)), (int)strlen(text));
  close(fd);
  return path;
}

static void test_lines(void **state) {
  (void)state;
  /* CRLF, a tab inside a query, SQL<TAB>db_id, no final newline */
  char *p = write_tmp("SELECT 1;\r\nSELECT a\tFROM t\tconcert_singer\r\nSELECT\tb FROM (x)\n  SELECT 3");
  sqlsim_itemset *s;
  sqlsim_error err = {0};
  assert_int_equal(sqlsim_items_load(p, &s, &err), 0);
  assert_int_equal(s->n, 4);
  assert_string_equal(s->items[0].sql, "SELECT 1;");
  assert_null(s->items[0].db_id);
  assert_string_equal(s->items[1].sql, "SELECT a\tFROM t");
  assert_string_equal(s->items[1].db_id, "concert_singer");
  assert_string_equal(s->items[2].sql, "SELECT\tb FROM (x)");
  assert_null(s->items[2].db_id);
  assert_string_equal(s->items[3].sql, "  SELECT 3");
  sqlsim_items_free(s);
  unlink(p);
}

static void test_json_formats(void **state) {
  (void)state;
  sqlsim_itemset *s;
  sqlsim_error err = {0};
  char *p = write_tmp("[{\"question_id\": 0, \"db_id\": \"d\", \"question\": \"q?\", \"SQL\": "
                      "\"SELECT 1\", \"difficulty\": \"simple\"}]");
  assert_int_equal(sqlsim_items_load(p, &s, &err), 0);
  assert_string_equal(s->format, "bird-json");
  assert_string_equal(s->items[0].difficulty, "simple");
  assert_string_equal(s->items[0].question, "q?");
  sqlsim_items_free(s);
  unlink(p);
  p = write_tmp("[{\"db_id\": \"dataset_1\", \"query\": \"select 2\", \"case_type\": \"filtering\"}]");
  assert_int_equal(sqlsim_items_load(p, &s, &err), 0);
  assert_string_equal(s->format, "bis-json");
  assert_string_equal(s->items[0].case_type, "filtering");
  sqlsim_items_free(s);
  unlink(p);
  /* BIRD submission object: keys out of order, values with the separator */
  p = write_tmp("{\"1\": \"SELECT b\\n\\t----- bird -----\\tdb2\", "
                "\"0\": \"SELECT a\\t----- bird -----\\tdb1\"}");
  assert_int_equal(sqlsim_items_load(p, &s, &err), 0);
  assert_string_equal(s->format, "bird-pred");
  assert_int_equal(s->n, 2);
  assert_string_equal(s->items[0].sql, "SELECT a");
  assert_string_equal(s->items[0].db_id, "db1");
  assert_string_equal(s->items[1].sql, "SELECT b");
  sqlsim_items_free(s);
  unlink(p);
}

static void test_bad_json(void **state) {
  (void)state;
  sqlsim_itemset *s;
  sqlsim_error err = {0};
  char *p = write_tmp("[{\"query\": \"SELECT 1\"}, {\"nosql\": 1}]");
  assert_int_equal(sqlsim_items_load(p, &s, &err), SQLSIM_EFORMAT);
  assert_non_null(strstr(err.message, "item 1"));
  unlink(p);
  /* a BIRD prediction object may cover part of the set: items by key, line = key + 1 */
  p = write_tmp("{\"7\": \"b\", \"0\": \"a\"}");
  assert_int_equal(sqlsim_items_load(p, &s, &err), 0);
  assert_int_equal(s->n, 2);
  assert_int_equal(s->items[0].line, 1);
  assert_int_equal(s->items[1].line, 8);
  assert_string_equal(s->items[1].sql, "b");
  sqlsim_items_free(s);
  unlink(p);
  p = write_tmp("{\"0\": \"a\", \"x7\": \"b\"}");
  assert_int_equal(sqlsim_items_load(p, &s, &err), SQLSIM_EFORMAT);
  assert_non_null(strstr(err.message, "\"x7\""));
  unlink(p);
  p = write_tmp("{\"3\": \"a\", \"3\": \"b\"}");
  assert_int_equal(sqlsim_items_load(p, &s, &err), SQLSIM_EFORMAT);
  assert_non_null(strstr(err.message, "twice"));
  unlink(p);
  p = write_tmp("[{\"query\": ");
  assert_int_equal(sqlsim_items_load(p, &s, &err), SQLSIM_EFORMAT);
  assert_non_null(strstr(err.message, "invalid JSON"));
  unlink(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lines),
      cmocka_unit_test(test_json_formats),
      cmocka_unit_test(test_bad_json),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
