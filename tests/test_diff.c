/* test_diff.c -- the edit script, the BIS similarity and the calibrated score. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "sqlsim.h"

static sqlsim_catalog *cat;
static const sqlsim_schema *concert;

static int setup(void **state) {
  (void)state;
  if (sqlsim_catalog_load_tables_json(SQLSIM_SOURCE_DIR "/tests/data/tables_small.json", &cat, NULL)) return -1;
  concert = sqlsim_catalog_find(cat, "concert");
  return 0;
}
static int teardown(void **state) {
  (void)state;
  sqlsim_catalog_free(cat);
  sqlsim_thread_cleanup();
  return 0;
}

static void sim(const char *g, const char *p, double *bis, double *score) {
  sqlsim_error err = {0};
  if (sqlsim_similarity(g, p, concert, bis, score, &err)) fail_msg("gold: %s", err.message);
}

static const struct {
  const char *gold, *pred;
  double bis_lo, bis_hi, score_lo, score_hi;
} cases[] = {
    /* the paper's invariances: 1 */
    {"SELECT name, age FROM singer WHERE age > 20 AND country = 'x'",
     "SELECT name, age FROM singer WHERE age > 20 AND country = 'x'", 1, 1, 1, 1},
    {"SELECT name, age FROM singer WHERE age > 20 AND country = 'x'",
     "SELECT age, name FROM singer WHERE country = 'x' AND 20 < age", 1, 1, 1, 1},
    {"SELECT name FROM singer WHERE age > 20", "SELECT s.name AS n FROM singer AS s WHERE s.age > 20", 1, 1, 1, 1},
    /* a changed table: 0 */
    {"SELECT name FROM singer", "SELECT name FROM stadium", 0, 0, 0, 0.2},
    /* a dropped column and a changed literal: strictly between */
    {"SELECT name, age FROM singer", "SELECT name FROM singer", 0.01, 0.99, 0.01, 0.99},
    {"SELECT name FROM singer WHERE country = 'France'", "SELECT name FROM singer WHERE country = 'Spain'",
     0.01, 0.99, 0.01, 0.99},
    /* equivalent forms: the calibrated score sees through them, BIS does not */
    {"SELECT T2.name FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id",
     "SELECT stadium.name FROM concert, stadium WHERE concert.stadium_id = stadium.stadium_id", 0.01, 0.99, 1, 1},
    {"SELECT count(*) FROM singer", "SELECT count(singer_id) FROM singer", 0.01, 0.99, 1, 1},
    {"SELECT name FROM singer WHERE age BETWEEN 20 AND 30",
     "SELECT name FROM singer WHERE age >= 20 AND age <= 30", 0.01, 0.99, 1, 1},
    {"SELECT name FROM singer WHERE NOT age = 3", "SELECT name FROM singer WHERE age <> 3", 0.01, 0.99, 1, 1},
    /* joins on one value written through different tables: a = b AND a = c
     * is a = b AND b = c (three tables, their ON conditions nested in WHERE) */
    {"SELECT T1.name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id JOIN concert AS T3 "
     "ON T1.singer_id = T3.concert_id WHERE T3.year = 2014",
     "SELECT T1.name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id JOIN concert AS T3 "
     "ON T2.singer_id = T3.concert_id WHERE T3.year = 2014",
     0.01, 0.99, 1, 1},
    /* a list of equalities on one expression is an IN list, and back */
    {"SELECT name FROM singer WHERE country = 'a' OR country = 'b'",
     "SELECT name FROM singer WHERE country IN ('b', 'a')", 0.01, 0.99, 1, 1},
    {"SELECT name FROM singer WHERE country <> 'a' AND age > 3 AND country <> 'b'",
     "SELECT name FROM singer WHERE age > 3 AND country NOT IN ('a', 'b')", 0.01, 0.99, 1, 1},
    {"SELECT name FROM singer WHERE country = 'a' OR age = 3 OR country IN ('b', 'c')",
     "SELECT name FROM singer WHERE country IN ('a', 'b', 'c') OR age = 3", 0.01, 0.99, 1, 1},
    {"SELECT name FROM singer WHERE country IN ('a')", "SELECT name FROM singer WHERE country = 'a'", 0.01, 0.99, 1,
     1},
    /* ... but not across expressions, nor with NOT IN under OR */
    {"SELECT name FROM singer WHERE country = 'a' OR name = 'b'",
     "SELECT name FROM singer WHERE country IN ('a', 'b')", 0.01, 0.99, 0.01, 0.99},
    {"SELECT name FROM singer WHERE country <> 'a' OR country <> 'b'",
     "SELECT name FROM singer WHERE country NOT IN ('a', 'b')", 0.01, 0.99, 0.01, 0.99},
    {"SELECT name FROM singer WHERE singer_id IN (SELECT singer_id FROM singer_in_concert ORDER BY concert_id)",
     "SELECT name FROM singer WHERE singer_id IN (SELECT singer_id FROM singer_in_concert)", 0.01, 0.99, 1, 1},
    /* ORDER BY an alias is ORDER BY the expression it names */
    {"SELECT country, count(*) FROM singer GROUP BY country ORDER BY count(*) DESC",
     "SELECT country, count(*) AS n FROM singer GROUP BY country ORDER BY n DESC", 0.01, 0.99, 1, 1},
    /* grouping by a key and a column of the same table is grouping by the key */
    {"SELECT T1.name, count(*) FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id "
     "GROUP BY T1.singer_id",
     "SELECT T1.name, count(*) FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id "
     "GROUP BY T1.name, T1.singer_id",
     0.01, 0.99, 1, 1},
    {"SELECT T1.name, count(*) FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id "
     "GROUP BY T1.singer_id",
     "SELECT T1.name, count(*) FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id "
     "GROUP BY T1.name",
     0.01, 0.99, 0.01, 0.99},
    /* operands of an operator that does not commute, and a function's
     * arguments, in another order: a move BIS does not count, a change of
     * value the calibrated score does; commuting ones are one form */
    {"SELECT age - singer_id FROM singer", "SELECT singer_id - age FROM singer", 1, 1, 0.3, 0.8},
    {"SELECT name FROM singer WHERE substr(name, 1, 3) = 'abc'",
     "SELECT name FROM singer WHERE substr(name, 3, 1) = 'abc'", 1, 1, 0.3, 0.8},
    {"SELECT name FROM singer WHERE age BETWEEN 20 AND 30", "SELECT name FROM singer WHERE age BETWEEN 30 AND 20",
     0.01, 1, 0.01, 0.8},
    {"SELECT age + singer_id FROM singer", "SELECT singer_id + age FROM singer", 1, 1, 1, 1},
    /* two columns swapped between a filter and the order: two moves BIS does
     * not count, a change at each place the calibrated score does */
    {"SELECT name FROM singer WHERE country = 'x' ORDER BY age", "SELECT name FROM singer WHERE age = 'x' ORDER BY country",
     1, 1, 0.3, 0.6},
    /* COUNT of a join key counts the joined rows (the join's equality holds
     * on each, so the key is never NULL there): COUNT(*) */
    {"SELECT count(T1.stadium_id) FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id",
     "SELECT count(*) FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id", 0.5, 0.99, 1, 1},
    {"SELECT count(T1.stadium_id) FROM concert AS T1", "SELECT count(*) FROM concert AS T1", 0.5, 0.99, 0.01, 0.99},
    /* x IS NOT NULL where the block's one row is made only by aggregates
     * that skip NULLs over x: the rows it drops are skipped anyway; not so
     * per group (a group of NULLs vanishes), nor beside COUNT(*) */
    {"SELECT avg(age) * 1.2 FROM singer WHERE country = 'x'",
     "SELECT avg(age) * 1.2 FROM singer WHERE age IS NOT NULL AND country = 'x'", 0.5, 0.99, 1, 1},
    {"SELECT country, avg(age) FROM singer GROUP BY country",
     "SELECT country, avg(age) FROM singer WHERE age IS NOT NULL GROUP BY country", 0.5, 0.99, 0.01, 0.99},
    {"SELECT avg(age), count(*) FROM singer", "SELECT avg(age), count(*) FROM singer WHERE age IS NOT NULL", 0.5, 0.99,
     0.01, 0.99},
    /* what changes the result weighs more than what does not */
    {"SELECT name FROM singer ORDER BY age DESC LIMIT 1", "SELECT name FROM singer ORDER BY age ASC LIMIT 1",
     0.01, 0.99, 0.01, 0.5},
};

static void test_cases(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    double b, s;
    sim(cases[i].gold, cases[i].pred, &b, &s);
    if (b < cases[i].bis_lo - 1e-12 || b > cases[i].bis_hi + 1e-12 || s < cases[i].score_lo - 1e-12 ||
        s > cases[i].score_hi + 1e-12)
      fail_msg("case %zu: bis %.3f score %.3f\n  %s\n  %s", i, b, s, cases[i].gold, cases[i].pred);
  }
}

static void test_unparseable(void **state) {
  (void)state;
  double b = 1, s = 1;
  sqlsim_error err = {0};
  assert_int_equal(sqlsim_similarity("SELECT name FROM singer", "SELECT name FROM", concert, &b, &s, &err), 0);
  assert_true(b == 0 && s == 0);
  assert_non_null(strstr(err.message, "syntax error"));
}

/* The script itself: counts add up, and one changed literal is one update. */
static void test_script(void **state) {
  (void)state;
  sqlsim_query *g, *p;
  const char *a = "SELECT name FROM singer WHERE country = 'France'", *b = "SELECT name FROM singer WHERE country = 'Spain'";
  assert_int_equal(sqlsim_parse(a, strlen(a), concert, 0, &g, NULL), 0);
  assert_int_equal(sqlsim_parse(b, strlen(b), concert, 0, &p, NULL), 0);
  sqlsim_diff *d;
  assert_int_equal(sqlsim_diff_trees(g->root, p->root, &d, NULL), 0);
  assert_int_equal(d->nupdate, 1);
  assert_int_equal(d->ninsert + d->ndelete, 0);
  assert_int_equal(d->nkeep + d->nmove + d->nupdate, d->nedits);
  int found = 0;
  for (int k = 0; k < d->nedits; k++)
    if (d->edits[k].action == SQLSIM_EDIT_UPDATE) {
      assert_string_equal(d->edits[k].gold->text, "France");
      assert_string_equal(d->edits[k].pred->text, "Spain");
      assert_int_equal(d->edits[k].clause, SQLSIM_SEL_WHERE);
      found = 1;
    }
  assert_true(found);
  sqlsim_diff_free(d);
  sqlsim_query_free(g);
  sqlsim_query_free(p);
}

/* Recovery pairs the children of matched containers with the candidate most
 * like them, not the first in order: each range condition with its own
 * rewritten bound, not with the join condition the prediction added. */
static void test_recovery_by_content(void **state) {
  (void)state;
  const char *a = "SELECT name FROM singer WHERE age < 60 AND age > 50",
             *b = "SELECT T1.name FROM singer AS T1, singer_in_concert AS T2 WHERE T1.singer_id = T2.singer_id "
                  "AND T1.age <= 59 AND T1.age >= 51";
  sqlsim_query *g, *p;
  assert_int_equal(sqlsim_parse(a, strlen(a), concert, 0, &g, NULL), 0);
  assert_int_equal(sqlsim_parse(b, strlen(b), concert, 0, &p, NULL), 0);
  sqlsim_diff *plain, *cal;
  assert_int_equal(sqlsim_diff_pair(g, p, 0, &plain, &cal, NULL), 0);
  assert_non_null(cal);
  int bounds = 0;
  for (int k = 0; k < cal->nedits; k++) {
    const sqlsim_edit *e = &cal->edits[k];
    if (e->action != SQLSIM_EDIT_UPDATE || e->gold->kind != SQLSIM_N_CONST) continue;
    bounds += (!strcmp(e->gold->text, "60") && !strcmp(e->pred->text, "59")) ||
              (!strcmp(e->gold->text, "50") && !strcmp(e->pred->text, "51"));
  }
  assert_int_equal(bounds, 2);
  sqlsim_diff_free(plain);
  sqlsim_diff_free(cal);
  sqlsim_query_free(g);
  sqlsim_query_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cases),
      cmocka_unit_test(test_unparseable),
      cmocka_unit_test(test_script),
      cmocka_unit_test(test_recovery_by_content),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
