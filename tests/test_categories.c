/* test_categories.c -- structural error categories from the calibrated diff,
 * and dialect constructs. Each case names the categories expected, and only those. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "analyze/analyze.h"
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

/* The categories of gold vs pred, as analyze computes them: both sides with
 * equivalent forms made one, then diffed. */
static uint32_t categorize(const char *gold, const char *pred, sqlsim_arena *a, sqlsim_categories *out) {
  sqlsim_query *g, *p;
  sqlsim_error err = {0};
  if (sqlsim_parse(gold, strlen(gold), concert, 0, &g, &err)) fail_msg("gold %s: %s", gold, err.message);
  if (sqlsim_parse(pred, strlen(pred), concert, 0, &p, &err)) fail_msg("pred %s: %s", pred, err.message);
  sqlsim_equiv_normalize(g);
  sqlsim_equiv_normalize(p);
  sqlsim_diff *d;
  if (sqlsim_diff_trees(g->root, p->root, &d, &err)) fail_msg("diff: %s", err.message);
  sqlsim_categorize_diff(d, concert, a, out);
  sqlsim_diff_free(d);
  sqlsim_query_free(g);
  sqlsim_query_free(p);
  return out->mask;
}

#define C(x) (1u << SQLSIM_CAT_##x)

/* A failing case's categories with their evidence, on stderr. */
static void print_found(uint32_t got, const sqlsim_categories *c) {
  for (int k = 0; k < SQLSIM_NCAT; k++)
    if (got & (1u << k)) fprintf(stderr, " %s (%s)", sqlsim_category_names[k], c->evidence[k]);
  fputc('\n', stderr);
}

static const struct {
  const char *gold, *pred;
  uint32_t want;
} cases[] = {
    /* nothing that changes the result */
    {"SELECT name FROM singer WHERE age > 20", "SELECT s.name FROM singer AS s WHERE 20 < s.age", 0},
    {"SELECT count(*) FROM singer", "SELECT count(singer_id) FROM singer", 0},
    /* a select-list alias in ORDER BY is the expression it names */
    {"SELECT country, count(*) FROM singer GROUP BY country ORDER BY count(*) DESC LIMIT 1",
     "SELECT country, count(*) AS n FROM singer GROUP BY country ORDER BY n DESC LIMIT 1", 0},
    /* tables */
    {"SELECT name FROM singer", "SELECT name FROM stadium", C(WRONG_TABLE)},
    {"SELECT T1.name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id",
     "SELECT name FROM singer", C(MISSING_TABLE) | C(JOIN)},
    /* the select list */
    {"SELECT name, age FROM singer", "SELECT name FROM singer", C(MISSING_COLUMN)},
    {"SELECT name FROM singer", "SELECT name, age FROM singer", C(EXTRA_COLUMN)},
    {"SELECT name FROM singer", "SELECT country FROM singer", C(WRONG_COLUMN)},
    {"SELECT max(age) FROM singer", "SELECT min(age) FROM singer", C(AGGREGATE)},
    {"SELECT avg(age) FROM singer", "SELECT age FROM singer", C(AGGREGATE)},
    /* an aggregate of another column for a plain one: what is returned changed */
    {"SELECT name FROM singer", "SELECT max(age) FROM singer", C(WRONG_COLUMN)},
    {"SELECT name FROM singer", "SELECT count(*) FROM singer", C(AGGREGATE)},
    /* filters */
    {"SELECT name FROM singer WHERE age > 20", "SELECT name FROM singer WHERE country > 20", C(FILTER_COLUMN)},
    {"SELECT name FROM singer WHERE age > 20", "SELECT name FROM singer WHERE age < 20", C(FILTER_OPERATOR)},
    {"SELECT name FROM singer WHERE country = 'France'", "SELECT name FROM singer WHERE country = 'Spain'",
     C(FILTER_VALUE)},
    {"SELECT name FROM singer WHERE age > 20", "SELECT name FROM singer", C(MISSING_FILTER)},
    {"SELECT name FROM singer", "SELECT name FROM singer WHERE age > 20", C(EXTRA_FILTER)},
    {"SELECT name FROM singer WHERE age > 20 AND country = 'x'", "SELECT name FROM singer WHERE age > 20",
     C(MISSING_FILTER)},
    {"SELECT name FROM singer WHERE age > 20", "SELECT name FROM singer WHERE age > 20 AND country = 'x'",
     C(EXTRA_FILTER)},
    {"SELECT name FROM singer WHERE lower(country) = 'x'", "SELECT name FROM singer WHERE country = 'x'",
     C(FILTER_COLUMN)},
    {"SELECT name FROM singer WHERE age > 20", "SELECT name FROM singer WHERE age * 2 > 20", C(FILTER_COLUMN)},
    /* a join key */
    {"SELECT T2.name FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id",
     "SELECT T2.name FROM concert AS T1 JOIN stadium AS T2 ON T1.concert_id = T2.stadium_id", C(JOIN)},
    {"SELECT T2.name FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id",
     "SELECT T2.name FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id OR T1.concert_id = "
     "T2.stadium_id",
     C(JOIN)}, /* a join on either of two keys */
    /* grouping, order, distinct, nesting */
    {"SELECT country, count(*) FROM singer GROUP BY country", "SELECT country, count(*) FROM singer",
     C(GROUP_HAVING)},
    {"SELECT country FROM singer GROUP BY country HAVING count(*) > 2",
     "SELECT country FROM singer GROUP BY country", C(GROUP_HAVING)},
    {"SELECT name FROM singer ORDER BY age DESC LIMIT 1", "SELECT name FROM singer ORDER BY age ASC LIMIT 1",
     C(ORDER_LIMIT)},
    {"SELECT name FROM singer ORDER BY age LIMIT 1", "SELECT name FROM singer ORDER BY age", C(ORDER_LIMIT)},
    {"SELECT DISTINCT country FROM singer", "SELECT country FROM singer", C(DISTINCT)},
    {"SELECT name FROM singer WHERE age > (SELECT avg(age) FROM singer)", "SELECT name FROM singer WHERE age > 30",
     C(FILTER_VALUE)}, /* the subquery's replacement by a constant is the change; nesting goes with it */
    {"SELECT name FROM singer UNION SELECT name FROM stadium", "SELECT name FROM singer INTERSECT SELECT name FROM stadium",
     C(NESTING)},
    /* a CAST is the conversion its type names (SQLite's affinity), not the spelling */
    {"SELECT CAST(count(*) AS REAL) / 2 FROM singer", "SELECT CAST(count(*) AS real) / 2 FROM singer", 0},
    {"SELECT CAST(count(*) AS REAL) / 2 FROM singer", "SELECT CAST(count(*) AS FLOAT) / 2 FROM singer", 0},
    {"SELECT CAST(age AS REAL) FROM singer", "SELECT CAST(age AS INTEGER) FROM singer", C(WRONG_COLUMN)},
    /* a lone conditional count is a count under WHERE: the WHERE is compared
     * with the other's, and only what differs is named */
    {"SELECT singer_id FROM singer WHERE country = 'x' GROUP BY singer_id",
     "SELECT count(singer_id) FROM singer WHERE country = 'x'", C(AGGREGATE) | C(GROUP_HAVING)},
    {"SELECT count(*) FROM singer WHERE country = 'x'", "SELECT sum(iif(country = 'x', 1, 0)) FROM singer", 0},
    /* the values a column is matched against, by operators of one family:
     * a change of value; the same value under another operator: of operator */
    {"SELECT name FROM singer WHERE country IN ('a', 'b')", "SELECT name FROM singer WHERE country = 'a'",
     C(FILTER_VALUE)},
    {"SELECT name FROM singer WHERE name LIKE 'Jo%'", "SELECT name FROM singer WHERE name = 'Mary'", C(FILTER_VALUE)},
    {"SELECT name FROM singer WHERE country = 'Republic'", "SELECT name FROM singer WHERE country LIKE '%Republic%'",
     C(FILTER_OPERATOR)},
    /* the same column reformatted (a date's year, a prefix): a change of value */
    {"SELECT name FROM singer WHERE strftime('%Y', age) = '2011'", "SELECT name FROM singer WHERE age = '2011'",
     C(FILTER_VALUE)},
    {"SELECT name FROM singer WHERE strftime('%Y', age) > '1990'", "SELECT name FROM singer WHERE age >= '1991-01-01'",
     C(FILTER_VALUE)},
    {"SELECT name FROM singer WHERE strftime('%Y', age) > '1990'",
     "SELECT name FROM singer WHERE strftime('%Y', age) = '1990'", C(FILTER_OPERATOR)},
    /* the same operands in another order: what is computed changed */
    {"SELECT age - singer_id FROM singer", "SELECT singer_id - age FROM singer", C(WRONG_COLUMN)},
    {"SELECT name FROM singer WHERE name LIKE country", "SELECT name FROM singer WHERE country LIKE name",
     C(FILTER_COLUMN)},
    {"SELECT substr(name, 1, 3) FROM singer", "SELECT substr(name, 3, 1) FROM singer", C(WRONG_COLUMN)},
    {"SELECT age * singer_id FROM singer", "SELECT singer_id * age FROM singer", 0},
    /* two columns swapped between a filter and the order: a change of column
     * at each place (the matcher pairs each column with itself, as a move) */
    {"SELECT name FROM singer WHERE country = 'x' ORDER BY age", "SELECT name FROM singer WHERE age = 'x' ORDER BY country",
     C(FILTER_COLUMN) | C(ORDER_LIMIT)},
    /* ... but a join written as a lookup moves its key into the subquery: a
     * form (under multisets not one form: nesting) */
    {"SELECT T1.name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id WHERE T2.concert_id = 1",
     "SELECT name FROM singer WHERE singer_id IN (SELECT singer_id FROM singer_in_concert WHERE concert_id = 1)",
     C(NESTING)},
    /* the select list in another order: weak where rows are tuples (test_column_order) */
    {"SELECT name, age FROM singer", "SELECT age, name FROM singer", 0},
    /* COUNT(x) for COUNT(*): weak alone (test_weak), evidence beside another change */
    {"SELECT count(*) FROM singer", "SELECT count(country) FROM singer", 0},
    /* a column replaced by the one a join makes equal to it: the same value
     * (the missing max and its grouping are what differ) */
    {"SELECT stadium_id, max(year) FROM concert GROUP BY stadium_id",
     "SELECT T1.stadium_id FROM stadium AS T1 JOIN concert AS T2 ON T1.stadium_id = T2.stadium_id",
     C(MISSING_COLUMN) | C(GROUP_HAVING)},
    /* a condition moved between WHERE and a count's condition: in WHERE it
     * filters every row (the denominator's too), in the count only what is counted */
    {"SELECT CAST(sum(CASE WHEN age > 20 AND country = 'x' THEN 1 ELSE 0 END) AS REAL) / count(*) FROM singer",
     "SELECT CAST(sum(CASE WHEN country = 'x' THEN 1 ELSE 0 END) AS REAL) / count(*) FROM singer WHERE age > 20",
     C(EXTRA_FILTER)},
    {"SELECT CAST(sum(CASE WHEN country = 'x' THEN 1 ELSE 0 END) AS REAL) / count(*) FROM singer WHERE age > 20",
     "SELECT CAST(sum(CASE WHEN age > 20 AND country = 'x' THEN 1 ELSE 0 END) AS REAL) / count(*) FROM singer",
     C(MISSING_FILTER)},
    /* an ORDER BY added where no row is limited: no EX compares that order;
     * named alone, it goes with another change */
    {"SELECT name FROM singer", "SELECT name FROM singer ORDER BY age", C(ORDER_LIMIT)},
    {"SELECT name FROM singer", "SELECT name, country FROM singer ORDER BY age", C(EXTRA_COLUMN)},
    {"SELECT name FROM singer LIMIT 3", "SELECT name, country FROM singer ORDER BY age LIMIT 3",
     C(EXTRA_COLUMN) | C(ORDER_LIMIT)},
    /* ... but a join re-keyed is a join change */
    {"SELECT T2.name FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id",
     "SELECT T2.name FROM concert AS T1 JOIN stadium AS T2 ON T1.concert_id = T2.stadium_id", C(JOIN)},
    {"SELECT count(*) FROM singer WHERE age > 20", "SELECT count(country) FROM singer WHERE age > 30",
     C(FILTER_VALUE)},
};

static void test_structural(void **state) {
  (void)state;
  sqlsim_arena *a = sqlsim_arena_new();
  int bad = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    sqlsim_categories c;
    uint32_t got = categorize(cases[i].gold, cases[i].pred, a, &c);
    if (got == cases[i].want) continue;
    bad++;
    fprintf(stderr, "case %zu: %s  vs  %s\n  want:", i, cases[i].gold, cases[i].pred);
    for (int k = 0; k < SQLSIM_NCAT; k++)
      if (cases[i].want & (1u << k)) fprintf(stderr, " %s", sqlsim_category_names[k]);
    fputs("\n  got: ", stderr);
    print_found(got, &c);
  }
  sqlsim_arena_free(a);
  assert_int_equal(bad, 0);
}

/* Every category found says why. */
static void test_evidence(void **state) {
  (void)state;
  sqlsim_arena *a = sqlsim_arena_new();
  sqlsim_categories c;
  categorize("SELECT name FROM singer WHERE country = 'France'", "SELECT name FROM singer WHERE country = 'Spain'",
             a, &c);
  assert_non_null(c.evidence[SQLSIM_CAT_FILTER_VALUE]);
  assert_non_null(strstr(c.evidence[SQLSIM_CAT_FILTER_VALUE], "'France'"));
  assert_non_null(strstr(c.evidence[SQLSIM_CAT_FILTER_VALUE], "'Spain'"));
  sqlsim_arena_free(a);
}

/* The main category, and the categories left beside it, where one change
 * brings others with it. */
static void test_main(void **state) {
  (void)state;
  static const struct {
    const char *gold, *pred;
    int main;
    uint32_t want;
    const char *evidence; /* in the main category's evidence */
  } m[] = {
      /* another attribute returned, from the table that replaces the
       * gold's: the attribute is named first, the table beside it ... */
      {"SELECT T2.capacity FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id WHERE T1.year = 2014",
       "SELECT T2.country FROM concert AS T1 JOIN singer AS T2 ON T1.stadium_id = T2.singer_id WHERE T1.year = 2014",
       SQLSIM_CAT_WRONG_COLUMN, C(WRONG_COLUMN) | C(WRONG_TABLE), "stadium.capacity -> singer.country"},
      /* ... the same attribute from another table is the table changed */
      {"SELECT T2.name FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id WHERE T1.year = 2014",
       "SELECT T2.name FROM concert AS T1 JOIN singer AS T2 ON T1.stadium_id = T2.singer_id WHERE T1.year = 2014",
       SQLSIM_CAT_WRONG_TABLE, C(WRONG_TABLE), "stadium AS t2 -> singer"},
      /* a join written as a lookup subquery: a form, named nesting, not a
       * missing join plus an extra filter */
      {"SELECT T2.name FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id WHERE T1.year = 2014",
       "SELECT name FROM stadium WHERE stadium_id = (SELECT stadium_id FROM concert WHERE year = 2014)",
       SQLSIM_CAT_NESTING, C(NESTING), "written as a subquery"},
      {"SELECT T2.name FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id WHERE T1.year = 2014",
       "SELECT name, capacity FROM stadium WHERE stadium_id IN (SELECT stadium_id FROM concert WHERE year = 2014)",
       SQLSIM_CAT_EXTRA_COLUMN, C(EXTRA_COLUMN), "capacity"},
      /* a parent table joined by its key can only drop rows: the filter is the
       * change a person names */
      {"SELECT concert_name FROM concert WHERE year = 2014",
       "SELECT T1.concert_name FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id WHERE T1.year = 2015",
       SQLSIM_CAT_FILTER_VALUE, C(FILTER_VALUE), "2015"},
      /* a child table joined by a column that repeats multiplies rows */
      {"SELECT name FROM stadium WHERE capacity > 10",
       "SELECT T1.name FROM stadium AS T1 JOIN concert AS T2 ON T1.stadium_id = T2.stadium_id WHERE T1.capacity > 10",
       SQLSIM_CAT_EXTRA_TABLE, C(EXTRA_TABLE), "concert"},
      /* a condition moved into a conditional count is named as a condition on rows */
      {"SELECT count(*) FROM singer WHERE country = 'France'", "SELECT count(*) FROM singer WHERE country = 'Spain'",
       SQLSIM_CAT_FILTER_VALUE, C(FILTER_VALUE), "WHERE"},
      /* grouped by the key or by exactly the columns both return (names):
       * the same groups to a person; the other change is named */
      {"SELECT name, count(*) FROM singer GROUP BY singer_id",
       "SELECT name, count(*) FROM singer WHERE age > 20 GROUP BY name", SQLSIM_CAT_EXTRA_FILTER, C(EXTRA_FILTER),
       "GROUP BY"},
      /* ... but grouping by another column than the ones returned is a change,
       * named after the count returned for the singer's id */
      {"SELECT singer_id, country FROM singer GROUP BY singer_id", "SELECT country, count(*) FROM singer GROUP BY country",
       SQLSIM_CAT_AGGREGATE, C(GROUP_HAVING) | C(AGGREGATE), "count"},
      /* a GROUP BY of a column WHERE fixes: one group, as without it */
      {"SELECT sum(age) FROM singer WHERE singer_id = 3",
       "SELECT sum(age) FROM singer WHERE singer_id = 3 AND country = 'x' GROUP BY singer_id",
       SQLSIM_CAT_EXTRA_FILTER, C(EXTRA_FILTER), "GROUP BY clause added"},
      {"SELECT sum(age) FROM singer WHERE singer_id = 3", "SELECT sum(age) FROM singer WHERE singer_id = 3 GROUP BY singer_id",
       SQLSIM_CAT_GROUP_HAVING, C(GROUP_HAVING), "GROUP BY clause added"},
      /* the same aggregates returned in other items: what is returned changed */
      {"SELECT max(age) - min(age) FROM singer", "SELECT max(age), min(age) FROM singer", SQLSIM_CAT_WRONG_COLUMN,
       C(WRONG_COLUMN) | C(EXTRA_COLUMN), "max"},
      /* a table added only to join through, where the gold joins the same two
       * tables directly: alone, the table added (people: "table redundancy");
       * beside another change, a change of join path ranked low */
      {"SELECT T2.concert_name FROM singer AS T1 JOIN concert AS T2 ON T1.singer_id = T2.concert_id WHERE T1.age > 30",
       "SELECT T3.concert_name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id JOIN "
       "concert AS T3 ON T2.concert_id = T3.concert_id WHERE T1.age > 30",
       SQLSIM_CAT_EXTRA_TABLE, C(EXTRA_TABLE), "singer_in_concert"},
      {"SELECT T2.concert_name FROM singer AS T1 JOIN concert AS T2 ON T1.singer_id = T2.concert_id WHERE T1.age > 30",
       "SELECT T3.concert_name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id JOIN "
       "concert AS T3 ON T2.concert_id = T3.concert_id WHERE T1.age > 40",
       SQLSIM_CAT_FILTER_VALUE, C(FILTER_VALUE) | C(JOIN), "40"},
      /* DISTINCT inside an aggregate */
      {"SELECT count(country) FROM singer", "SELECT count(DISTINCT country) FROM singer", SQLSIM_CAT_DISTINCT,
       C(DISTINCT), "DISTINCT"},
      /* the gold's column written where two tables have it (the query cannot
       * run): not another column; the filter is the change */
      {"SELECT T1.singer_id FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id WHERE "
       "T2.concert_id = 1",
       "SELECT singer_id FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id WHERE "
       "T2.concert_id = 2",
       SQLSIM_CAT_FILTER_VALUE, C(FILTER_VALUE), "2"},
      /* three tables joined on one value, through another table: the same
       * joins; the count's DISTINCT is the change */
      {"SELECT count(*) FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id JOIN concert AS T3 "
       "ON T1.singer_id = T3.concert_id WHERE T3.year = 2014",
       "SELECT count(DISTINCT T1.singer_id) FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = "
       "T2.singer_id JOIN concert AS T3 ON T2.singer_id = T3.concert_id WHERE T3.year = 2014",
       SQLSIM_CAT_DISTINCT, C(DISTINCT), "DISTINCT"},
      /* SELECT * returns the gold's columns and more */
      {"SELECT name FROM singer WHERE age > 3", "SELECT * FROM singer WHERE age > 3", SQLSIM_CAT_EXTRA_COLUMN,
       C(EXTRA_COLUMN), "*"},
      {"SELECT T1.name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id",
       "SELECT T1.* FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id",
       SQLSIM_CAT_EXTRA_COLUMN, C(EXTRA_COLUMN), "*"},
      {"SELECT * FROM singer WHERE age > 3", "SELECT name FROM singer WHERE age > 3", SQLSIM_CAT_MISSING_COLUMN,
       C(MISSING_COLUMN), "*"},
      /* ... but not columns of another table */
      {"SELECT T2.concert_id FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id",
       "SELECT T1.* FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id",
       SQLSIM_CAT_WRONG_COLUMN, C(WRONG_COLUMN), "*"},
      /* a parent joined by its key, where only that key is read: the value
       * is the child's foreign key the gold reads, so the table is not the
       * change (gpt-35-turbo #196 of BIRD mini-dev) */
      {"SELECT count(stadium_id) FROM concert",
       "SELECT T2.stadium_id, count(T2.stadium_id) FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = "
       "T2.stadium_id GROUP BY T2.stadium_id",
       SQLSIM_CAT_WRONG_COLUMN, C(GROUP_HAVING) | C(WRONG_COLUMN) | C(EXTRA_COLUMN), "stadium_id"},
      /* ... but a child joined to the gold's table multiplies its rows: the
       * same-named column read from it is no key, and the table is named */
      {"SELECT stadium_id FROM stadium WHERE capacity > 10",
       "SELECT T1.stadium_id FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id "
       "WHERE T2.capacity > 20",
       SQLSIM_CAT_EXTRA_TABLE, C(EXTRA_TABLE) | C(FILTER_VALUE), "concert"},
      /* a rank over all rows is a column like any other: the gold's rank
       * column is missing, its order is the prediction's ORDER BY */
      {"SELECT name, rank() OVER (ORDER BY age DESC) FROM singer", "SELECT name FROM singer ORDER BY age DESC",
       SQLSIM_CAT_MISSING_COLUMN, C(MISSING_COLUMN) | C(ORDER_LIMIT), "rank()"},
      /* a table that was there for a condition on it, missing or added with
       * the condition: the table is named first */
      {"SELECT T1.name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id JOIN concert AS "
       "T3 ON T2.concert_id = T3.concert_id WHERE T3.year = 2014",
       "SELECT T1.name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id",
       SQLSIM_CAT_MISSING_TABLE, C(MISSING_TABLE) | C(MISSING_FILTER), "concert"},
      {"SELECT concert_name FROM concert WHERE year = 2014",
       "SELECT T1.concert_name FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id WHERE "
       "T2.capacity > 100 AND T1.year = 2014",
       SQLSIM_CAT_EXTRA_TABLE, C(EXTRA_TABLE) | C(EXTRA_FILTER), "stadium"},
      /* ... not when the table is still read, in a subquery */
      {"SELECT T1.name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id JOIN concert AS "
       "T3 ON T2.concert_id = T3.concert_id WHERE T3.year = 2014",
       "SELECT T1.name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id WHERE "
       "T2.concert_id IN (SELECT concert_id FROM concert WHERE year = 2015)",
       SQLSIM_CAT_FILTER_VALUE, C(FILTER_VALUE), "2015"},
      /* a column moved between places: the evidence says from where to where */
      {"SELECT name FROM singer WHERE country = 'x' ORDER BY age", "SELECT name FROM singer WHERE age = 'x' ORDER BY country",
       SQLSIM_CAT_FILTER_COLUMN, C(FILTER_COLUMN) | C(ORDER_LIMIT), "moved from singer.country = 'x' to ORDER BY"},
      /* the column returned before its aggregate or the grouping it needs */
      {"SELECT country, max(age) FROM singer GROUP BY country", "SELECT country, age FROM singer",
       SQLSIM_CAT_AGGREGATE, C(AGGREGATE) | C(GROUP_HAVING), "max"},
      /* a subquery's block matched to the prediction's top block (the diff
       * pairs the blocks that read the same tables): the subquery's own
       * select list is part of its form, not a column the query returns */
      {"SELECT name FROM singer WHERE singer_id NOT IN (SELECT T1.singer_id FROM singer AS T1 JOIN singer_in_concert "
       "AS T2 ON T1.singer_id = T2.singer_id WHERE T2.concert_id = 1)",
       "SELECT T1.name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id WHERE "
       "T2.concert_id <> 1",
       SQLSIM_CAT_FILTER_OPERATOR, C(FILTER_OPERATOR), "<> 1"},
      /* what a subquery in WHERE returns is part of the condition: the column
       * filtered on, not a column the query returns */
      {"SELECT name FROM stadium WHERE stadium_id NOT IN (SELECT stadium_id FROM concert WHERE year = 2014)",
       "SELECT name FROM stadium WHERE stadium_id NOT IN (SELECT concert_id FROM concert WHERE year = 2014)",
       SQLSIM_CAT_FILTER_COLUMN, C(FILTER_COLUMN), "concert_id"},
      {"SELECT name FROM singer WHERE age = (SELECT max(age) FROM singer)",
       "SELECT name FROM singer WHERE age = (SELECT max(singer_id) FROM singer)", SQLSIM_CAT_FILTER_COLUMN,
       C(FILTER_COLUMN), "singer_id"},
      /* the gold's lookups nested in a subquery, written as one query of
       * joins (the diff pairs the prediction's block with the gold's inner
       * lookup): each join is a lookup written another way, not a join
       * condition added; what differs is the ORDER BY ... LIMIT */
      {"SELECT concert_name FROM concert WHERE concert_id IN (SELECT concert_id FROM singer_in_concert WHERE "
       "singer_id = (SELECT singer_id FROM singer WHERE name = 'Ann' AND country = 'France'))",
       "SELECT T3.concert_name FROM singer_in_concert AS T1 JOIN singer AS T2 ON T1.singer_id = T2.singer_id JOIN "
       "concert AS T3 ON T1.concert_id = T3.concert_id WHERE T2.name = 'Ann' AND T2.country = 'France' ORDER BY "
       "T3.year LIMIT 1",
       SQLSIM_CAT_ORDER_LIMIT, C(ORDER_LIMIT), "LIMIT"},
      /* ... a rank within groups is grouping */
      {"SELECT name, rank() OVER (PARTITION BY country ORDER BY age DESC) FROM singer",
       "SELECT name, rank() OVER (ORDER BY age DESC) FROM singer", SQLSIM_CAT_GROUP_HAVING, C(GROUP_HAVING),
       "country"},
  };
  sqlsim_arena *a = sqlsim_arena_new();
  int bad = 0;
  for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
    sqlsim_categories c;
    uint32_t got = categorize(m[i].gold, m[i].pred, a, &c);
    const char *ev = c.main >= 0 ? c.evidence[c.main] : NULL;
    if (got == m[i].want && c.main == m[i].main && ev && strstr(ev, m[i].evidence)) continue;
    bad++;
    fprintf(stderr, "case %zu: %s  vs  %s\n  want main %s, got %s:", i, m[i].gold, m[i].pred,
            sqlsim_category_names[m[i].main], c.main >= 0 ? sqlsim_category_names[c.main] : "none");
    print_found(got, &c);
  }
  sqlsim_arena_free(a);
  assert_int_equal(bad, 0);
}

/* A difference that seldom changes a result, found alone: weak, not in mask,
 * with its evidence, for the caller to name where the results differ. */
static void test_weak(void **state) {
  (void)state;
  sqlsim_arena *a = sqlsim_arena_new();
  sqlsim_categories c;
  assert_int_equal(categorize("SELECT count(*) FROM singer", "SELECT count(country) FROM singer", a, &c), 0);
  assert_int_equal(c.weak, C(WRONG_COLUMN));
  assert_non_null(c.evidence[SQLSIM_CAT_WRONG_COLUMN]);
  assert_non_null(strstr(c.evidence[SQLSIM_CAT_WRONG_COLUMN], "non-NULL"));
  /* beside another change: that change's evidence, nothing weak */
  assert_int_equal(categorize("SELECT count(*) FROM singer WHERE age > 20",
                              "SELECT count(country) FROM singer WHERE age > 30", a, &c),
                   C(FILTER_VALUE));
  assert_int_equal(c.weak, 0);
  assert_non_null(strstr(c.evidence[SQLSIM_CAT_FILTER_VALUE], "non-NULL"));
  /* `c IS NOT NULL` where either query keeps the first rows of ORDER BY c
   * DESC (NULLs last in SQLite): weak alone, evidence beside another change;
   * with ASC (NULLs first) on both, or without a LIMIT, a missing filter */
  assert_int_equal(categorize("SELECT name FROM singer WHERE age IS NOT NULL ORDER BY age DESC LIMIT 1",
                              "SELECT name FROM singer ORDER BY age DESC LIMIT 1", a, &c),
                   0);
  assert_int_equal(c.weak, C(MISSING_FILTER));
  assert_non_null(strstr(c.evidence[SQLSIM_CAT_MISSING_FILTER], "IS NOT NULL"));
  assert_int_equal(categorize("SELECT name FROM singer ORDER BY age DESC LIMIT 3",
                              "SELECT name FROM singer WHERE age IS NOT NULL ORDER BY age DESC LIMIT 3", a, &c),
                   0);
  assert_int_equal(c.weak, C(EXTRA_FILTER));
  assert_int_equal(categorize("SELECT name FROM singer WHERE age IS NOT NULL ORDER BY age ASC LIMIT 1",
                              "SELECT name FROM singer ORDER BY age DESC LIMIT 1", a, &c),
                   C(ORDER_LIMIT));
  assert_int_equal(c.weak, 0);
  assert_non_null(strstr(c.evidence[SQLSIM_CAT_ORDER_LIMIT], "IS NOT NULL"));
  assert_int_equal(categorize("SELECT name FROM singer WHERE age IS NOT NULL ORDER BY age DESC LIMIT 1",
                              "SELECT name FROM singer ORDER BY age ASC LIMIT 1", a, &c),
                   C(ORDER_LIMIT));
  assert_int_equal(categorize("SELECT name FROM singer WHERE age IS NOT NULL ORDER BY age ASC LIMIT 1",
                              "SELECT name FROM singer ORDER BY age ASC LIMIT 1", a, &c),
                   C(MISSING_FILTER));
  assert_int_equal(categorize("SELECT name FROM singer WHERE age IS NOT NULL ORDER BY age DESC",
                              "SELECT name FROM singer ORDER BY age DESC", a, &c),
                   C(MISSING_FILTER));
  assert_int_equal(categorize("SELECT name FROM singer WHERE age IS NOT NULL ORDER BY age DESC NULLS FIRST LIMIT 1",
                              "SELECT name FROM singer ORDER BY age DESC NULLS FIRST LIMIT 1", a, &c),
                   C(MISSING_FILTER));
  sqlsim_arena_free(a);
}

/* Another operator over the same operands (`a / b` for `b * a`, the `*`
 * sorted like every commutative one) is a change of operator, not also of
 * operand order. */
static void test_operator_not_order(void **state) {
  (void)state;
  sqlsim_arena *a = sqlsim_arena_new();
  sqlsim_categories c;
  assert_int_equal(categorize("SELECT age / singer_id FROM singer", "SELECT singer_id * age FROM singer", a, &c),
                   C(WRONG_COLUMN));
  assert_non_null(c.evidence[SQLSIM_CAT_WRONG_COLUMN]);
  assert_null(strstr(c.evidence[SQLSIM_CAT_WRONG_COLUMN], "another order"));
  /* the same operator, operands swapped: that is the change */
  assert_int_equal(categorize("SELECT age / singer_id FROM singer", "SELECT singer_id / age FROM singer", a, &c),
                   C(WRONG_COLUMN));
  assert_non_null(strstr(c.evidence[SQLSIM_CAT_WRONG_COLUMN], "another order"));
  sqlsim_arena_free(a);
}

/* Where rows are compared as tuples (BIRD), the same columns in another
 * order, found alone, are weak wrong_column; beside another change, nothing. */
static void test_column_order(void **state) {
  (void)state;
  sqlsim_arena *a = sqlsim_arena_new();
  static const struct {
    const char *gold, *pred;
    uint32_t mask, weak;
  } t[] = {
      {"SELECT name, age FROM singer", "SELECT age, name FROM singer", 0, C(WRONG_COLUMN)},
      {"SELECT name, age, country FROM singer WHERE age > 3", "SELECT name, country, age FROM singer WHERE age > 3",
       0, C(WRONG_COLUMN)},
      {"SELECT name, age FROM singer", "SELECT name, age FROM singer", 0, 0},
      {"SELECT name, age FROM singer", "SELECT age, country FROM singer", C(WRONG_COLUMN), 0},
      {"SELECT name, age FROM singer WHERE age > 3", "SELECT age, name FROM singer WHERE age > 4", C(FILTER_VALUE), 0},
      {"SELECT name, age FROM singer UNION SELECT name, age FROM singer",
       "SELECT age, name FROM singer UNION SELECT age, name FROM singer", 0, 0},
  };
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
    sqlsim_query *g, *p;
    sqlsim_error err = {0};
    if (sqlsim_parse(t[i].gold, strlen(t[i].gold), concert, 0, &g, &err)) fail_msg("%s: %s", t[i].gold, err.message);
    if (sqlsim_parse(t[i].pred, strlen(t[i].pred), concert, 0, &p, &err)) fail_msg("%s: %s", t[i].pred, err.message);
    sqlsim_equiv_normalize_as(g, SQLSIM_EQUIV_SETS);
    sqlsim_equiv_normalize_as(p, SQLSIM_EQUIV_SETS);
    sqlsim_diff *d;
    if (sqlsim_diff_trees(g->root, p->root, &d, &err)) fail_msg("diff: %s", err.message);
    sqlsim_categories c;
    sqlsim_categorize_diff(d, concert, a, &c);
    analyze_column_order(d, a, &c);
    sqlsim_diff_free(d);
    sqlsim_query_free(g);
    sqlsim_query_free(p);
    if (c.mask != t[i].mask || c.weak != t[i].weak) {
      fprintf(stderr, "case %zu: mask %x weak %x, want %x %x:", i, c.mask, c.weak, t[i].mask, t[i].weak);
      print_found(c.mask | c.weak, &c);
      fail();
    }
    if (t[i].weak) assert_non_null(strstr(c.evidence[SQLSIM_CAT_WRONG_COLUMN], "another order"));
  }
  sqlsim_arena_free(a);
}

static void test_dialect(void **state) {
  (void)state;
  static const struct {
    const char *sql;
    int foreign;
  } d[] = {
      {"SELECT name FROM singer WHERE YEAR(age) = 2000", 1},
      {"SELECT DATE_FORMAT(age, '%Y') FROM singer", 1},
      {"SELECT name FROM singer WHERE name ILIKE 'a%'", 1},
      {"SELECT age::text FROM singer", 1},
      {"SELECT strftime('%Y', age) FROM singer WHERE name LIKE 'a%'", 0},
      {"SELECT CAST(age AS TEXT) FROM singer", 0},
  };
  sqlsim_arena *a = sqlsim_arena_new();
  for (size_t i = 0; i < sizeof d / sizeof d[0]; i++) {
    sqlsim_query *q;
    sqlsim_error err = {0};
    if (sqlsim_parse(d[i].sql, strlen(d[i].sql), concert, 0, &q, &err)) fail_msg("%s: %s", d[i].sql, err.message);
    const char *what = NULL;
    int got = sqlsim_dialect_construct(q, a, &what);
    if (got != d[i].foreign) fail_msg("%s: dialect %d, want %d", d[i].sql, got, d[i].foreign);
    if (got) assert_non_null(what);
    sqlsim_query_free(q);
  }
  sqlsim_arena_free(a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_structural),
      cmocka_unit_test(test_evidence),
      cmocka_unit_test(test_main),
      cmocka_unit_test(test_weak),
      cmocka_unit_test(test_operator_not_order),
      cmocka_unit_test(test_column_order),
      cmocka_unit_test(test_dialect),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
