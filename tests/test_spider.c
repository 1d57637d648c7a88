/* test_spider.c -- Spider matching: the official parser's decisions that
 * decide published numbers, corrected mode's fixes, totals and their F1. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "sqlsim.h"

static sqlsim_catalog *cat;

static int setup(void **state) {
  (void)state;
  return sqlsim_catalog_load_tables_json(SQLSIM_SOURCE_DIR "/tests/data/tables_small.json", &cat, NULL);
}
static int teardown(void **state) {
  (void)state;
  sqlsim_catalog_free(cat);
  sqlsim_thread_cleanup();
  return 0;
}

static sqlsim_spider_score score(int mode, const char *gold, const char *pred) {
  sqlsim_spider *ev;
  sqlsim_spider_new(cat, NULL, mode, &ev, NULL);
  sqlsim_spider_gold *g;
  sqlsim_error err = {0};
  if (sqlsim_spider_gold_prepare(ev, gold, "concert", &g, &err)) fail_msg("gold: %s", err.message);
  sqlsim_spider_score s;
  sqlsim_spider_score_pred(ev, g, pred, &s);
  sqlsim_spider_gold_free(g);
  sqlsim_spider_free(ev);
  return s;
}

static const struct {
  const char *gold, *pred;
  int exact_compat, rejected_compat, exact_corrected;
  const char *why; /* part of the official message, for rejected ones */
} cases[] = {
    /* same query, other spelling: values and DISTINCT ignored, bag order free */
    {"SELECT name FROM singer WHERE age > 20", "select Name from singer where age > 99", 1, 0, 1, NULL},
    {"SELECT name, age FROM singer", "SELECT DISTINCT age, name FROM singer", 1, 0, 1, NULL},
    /* AS on a select item: official rejects, corrected reads */
    {"SELECT name FROM singer", "SELECT name AS n FROM singer", 0, 1, 1, "Error col: as"},
    /* LEFT JOIN: 'left' is taken for a table name */
    {"SELECT T1.name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id",
     "SELECT T1.name FROM singer AS T1 LEFT JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id",
     0, 1, 1, "KeyError: 'left'"}, /* join kind is not a Spider component */
    /* t.* : Punkt splits "singer." from "*" */
    {"SELECT * FROM singer", "SELECT singer.* FROM singer", 0, 1, 1, "Error col: singer"},
    /* the alias map is global: the last T1 wins */
    {"SELECT T1.name FROM singer AS T1 WHERE T1.singer_id IN (SELECT T2.singer_id FROM singer_in_concert AS T2)",
     "SELECT T1.name FROM singer AS T1 WHERE T1.singer_id IN (SELECT T1.singer_id FROM singer_in_concert AS T1)",
     0, 1, 1, "KeyError"},
    /* foreign-key equivalent keys in GROUP BY */
    {"SELECT count(*) FROM concert GROUP BY stadium_id",
     "SELECT count(*) FROM concert GROUP BY concert.stadium_id", 1, 0, 1, NULL},
    /* a wrong table is never exact */
    {"SELECT name FROM singer", "SELECT name FROM stadium", 0, 0, 0, NULL},
    /* the value token: replaced only with a space on each side */
    {"SELECT name FROM singer WHERE age > 3 ORDER BY age",
     "SELECT name FROM singer WHERE age > value ORDER BY age", 1, 0, 1, NULL},
    {"SELECT name FROM singer WHERE age > 3", "SELECT name FROM singer WHERE age > value", 0, 1, 1,
     "Error col: value"},
    /* unbalanced quote */
    {"SELECT name FROM singer", "SELECT name FROM singer WHERE country = 'France", 0, 1, 0,
     "Unexpected quote"},
};

static void test_cases(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    sqlsim_spider_score c = score(SQLSIM_SPIDER_COMPATIBLE, cases[i].gold, cases[i].pred);
    sqlsim_spider_score r = score(SQLSIM_SPIDER_CORRECTED, cases[i].gold, cases[i].pred);
    if (c.exact != cases[i].exact_compat || c.pred_rejected != cases[i].rejected_compat ||
        r.exact != cases[i].exact_corrected)
      fail_msg("case %zu: compatible exact %d rejected %d (%s), corrected exact %d", i, c.exact,
               c.pred_rejected, c.error.message, r.exact);
    if (cases[i].why && !strstr(c.error.message, cases[i].why))
      fail_msg("case %zu: message '%s' lacks '%s'", i, c.error.message, cases[i].why);
  }
}

static void test_hardness(void **state) {
  (void)state;
  static const struct {
    const char *sql;
    int hardness;
  } h[] = {
      {"SELECT count(*) FROM singer", SQLSIM_HARD_EASY},
      {"SELECT name, age FROM singer ORDER BY age DESC", SQLSIM_HARD_MEDIUM},
      {"SELECT name FROM singer WHERE age > (SELECT avg(age) FROM singer)", SQLSIM_HARD_HARD},
      {"SELECT name FROM singer WHERE age > 20 INTERSECT SELECT name FROM singer", SQLSIM_HARD_HARD},
      {"SELECT name FROM singer WHERE age > 20 AND country = 'x' GROUP BY name HAVING count(*) > 1 "
       "ORDER BY name LIMIT 3",
       SQLSIM_HARD_EXTRA},
  };
  sqlsim_spider *ev;
  sqlsim_spider_new(cat, NULL, SQLSIM_SPIDER_COMPATIBLE, &ev, NULL);
  for (size_t i = 0; i < sizeof h / sizeof h[0]; i++) {
    sqlsim_spider_gold *g;
    assert_int_equal(sqlsim_spider_gold_prepare(ev, h[i].sql, "concert", &g, NULL), 0);
    if (sqlsim_spider_gold_hardness(g) != h[i].hardness)
      fail_msg("case %zu: hardness %d, expected %d", i, sqlsim_spider_gold_hardness(g), h[i].hardness);
    sqlsim_spider_gold_free(g);
  }
  sqlsim_spider_gold *g;
  sqlsim_error err = {0};
  assert_int_equal(sqlsim_spider_gold_prepare(ev, "SELECT 1", "nope", &g, &err), SQLSIM_ENOTFOUND);
  sqlsim_spider_free(ev);
}

/* F1 of a level where every item is wrong: official 1, corrected 0; where
 * no item has the component: corrected n/a. */
static void test_totals_f1(void **state) {
  (void)state;
  sqlsim_spider_totals t;
  memset(&t, 0, sizeof t);
  sqlsim_spider_score s = score(SQLSIM_SPIDER_COMPATIBLE, "SELECT name FROM singer",
                                "SELECT age FROM singer");
  sqlsim_spider_totals_add(&t, &s);
  double exact, acc[10], rec[10], f1[10];
  sqlsim_spider_totals_final(&t, SQLSIM_SPIDER_COMPATIBLE, 4, &exact, acc, rec, f1);
  assert_true(exact == 0 && acc[0] == 0 && rec[0] == 0 && f1[0] == 1); /* the quirk */
  sqlsim_spider_totals_final(&t, SQLSIM_SPIDER_CORRECTED, 4, &exact, acc, rec, f1);
  assert_true(f1[0] == 0);
  assert_true(isnan(f1[8])); /* IUEN: no item has one */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cases),
      cmocka_unit_test(test_hardness),
      cmocka_unit_test(test_totals_f1),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
