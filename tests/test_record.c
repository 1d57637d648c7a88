/* test_record.c -- the record (record/): who owns what.
 *
 * Records of every kind (a wrong prediction with its repair, witness,
 * categories and spans; the same prediction again, which a batch copies; a
 * model's answer read out of its text; a dialect construct; one that does
 * not parse; a right one), scored by the engine on a database made here and
 * on generated databases; then copied, cleared and freed in every order, each
 * survivor's JSON checked against what it was before. Run in the sanitizer
 * build, a field the copy shares with its source is a use after free here
 * (engine_record_copy once shared the repair's SQL and evidence). */
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
#include "record/record.h"


static const char *TABLES =
    "[{\"db_id\":\"shop\",\"table_names_original\":[\"item\"],\"table_names\":[\"item\"],"
    "\"column_names_original\":[[-1,\"*\"],[0,\"id\"],[0,\"name\"],[0,\"price\"]],"
    "\"column_names\":[[-1,\"*\"],[0,\"id\"],[0,\"name\"],[0,\"price\"]],"
    "\"column_types\":[\"text\",\"number\",\"text\",\"number\"],\"primary_keys\":[1],\"foreign_keys\":[]}]";

static int setup(void **state) {
  (void)state;
  return testdb_make("record", "shop", TABLES,
                     "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, price REAL);"
                     "INSERT INTO item VALUES (1,'pen',2.5),(2,'ink',7),(3,'pad',4),(4,'cap',7);");
}

static int teardown(void **state) {
  (void)state;
  testdb_remove();
  return 0;
}

#define GOLD "SELECT name FROM item WHERE price > 3 ORDER BY name"
#define WRONG "SELECT name FROM item WHERE price >= 7 ORDER BY name"
/* the pairs of a batch: the wrong prediction twice (the second a copy), a
 * dialect construct, a model's answer, one that does not parse, a right one */
static const sqlsim_pair PAIRS[] = {
    {GOLD, WRONG, "shop"},
    {GOLD, WRONG, "shop"},
    {GOLD, "SELECT name FROM item WHERE price > 3 AND YEAR(name) > 0 ORDER BY name", "shop"},
    {GOLD, "The answer:\n```sql\nSELECT name FROM item WHERE price > 5 ORDER BY name\n```", "shop"},
    {GOLD, "SELECT name FROM WHERE", "shop"},
    {GOLD, GOLD, "shop"},
};
#define NPAIRS (sizeof PAIRS / sizeof PAIRS[0])

static sqlsim_evaluator *make(int with_db, int extract) {
  sqlsim_config c = {.tables = tables, .db_dir = with_db ? dir : NULL, .timeout_s = 5, .witness = 1, .repair = 1,
                     .extract = extract,
                     .metrics = SQLSIM_M_BIS | SQLSIM_M_CATEGORIES | SQLSIM_M_STRICT |
                                (with_db ? SQLSIM_M_EXEC | SQLSIM_M_RESULT | SQLSIM_M_MATCH : 0)};
  sqlsim_evaluator *ev = NULL;
  sqlsim_error err = {0};
  if (sqlsim_evaluator_new(&c, &ev, &err)) fail_msg("evaluator: %s", err.message);
  return ev;
}

/* The batch scored, and each record's JSON. */
static void score(sqlsim_evaluator *ev, sqlsim_record *recs, char **json) {
  sqlsim_batch_opts o = {.jobs = 1};
  assert_int_equal(sqlsim_evaluate_batch(ev, PAIRS, NPAIRS, recs, &o), NPAIRS);
  for (size_t k = 0; k < NPAIRS; k++) assert_non_null(json[k] = sqlsim_record_to_json(&recs[k]));
}

static void same_json(const sqlsim_record *r, const char *want) {
  char *now = sqlsim_record_to_json(r);
  assert_string_equal(now, want);
  free(now);
}

/* What the records hold: the parts a copy must not share are there. */
static void parts_there(const sqlsim_record *recs, int with_db) {
  const sqlsim_record *w = &recs[0];
  assert_non_null(w->repair.sql);
  assert_true(w->repair.cats.nranked >= 1);
  assert_non_null(w->repair.cats.evidence[w->repair.cats.main]);
  assert_non_null(w->witness);
  assert_true(w->analysis.ngspans + w->analysis.npspans > 0);
  assert_non_null(w->analysis.cats.evidence[w->analysis.cats.main]);
  assert_string_equal(w->witness->verdict, with_db ? "exec" : "strict");
  assert_non_null(recs[2].structure.dialect);
  assert_int_equal(recs[4].analysis.cats.main, SQLSIM_CAT_UNPARSEABLE);
}

/* Scored with and without a database: the batch's copy (record 1 of record
 * 0) cleared before and after its source, every record copied and cleared
 * before and after its copy. */
static void orders(int with_db) {
  sqlsim_evaluator *ev = make(with_db, 0);
  sqlsim_record recs[NPAIRS];
  char *json[NPAIRS];
  score(ev, recs, json);
  parts_there(recs, with_db);
  assert_string_equal(json[0], json[1]);
  /* the source first, then its copy */
  sqlsim_record_clear(&recs[0]);
  same_json(&recs[1], json[1]);
  /* every record: a copy, the copy of the copy; cleared in turns */
  for (size_t k = 1; k < NPAIRS; k++) {
    sqlsim_record a, b;
    record_copy(&a, &recs[k]);
    record_copy(&b, &a);
    if (k % 2) { /* source, then copy, then the copy's copy */
      sqlsim_record_clear(&recs[k]);
      same_json(&a, json[k]);
      sqlsim_record_clear(&a);
      same_json(&b, json[k]);
      sqlsim_record_clear(&b);
    } else { /* the copy's copy, then the copy, then the source */
      sqlsim_record_clear(&b);
      same_json(&a, json[k]);
      sqlsim_record_clear(&a);
      same_json(&recs[k], json[k]);
      sqlsim_record_clear(&recs[k]);
    }
  }
  /* and the batch again, the copy cleared before its source */
  for (size_t k = 0; k < NPAIRS; k++) free(json[k]);
  score(ev, recs, json);
  sqlsim_record_clear(&recs[1]);
  same_json(&recs[0], json[0]);
  for (size_t k = 0; k < NPAIRS; k++) {
    sqlsim_record_clear(&recs[k]);
    sqlsim_record_clear(&recs[k]); /* twice: a cleared record is empty */
    free(json[k]);
  }
  sqlsim_evaluator_free(ev);
}

static void test_orders_with_database(void **state) {
  (void)state;
  orders(1);
}

static void test_orders_generated(void **state) {
  (void)state;
  orders(0);
}

/* A model's answer: its SQL lives in the record's arena, and a copy holds
 * its own. */
static void test_answer_copied(void **state) {
  (void)state;
  sqlsim_evaluator *ev = make(1, 1);
  sqlsim_record r, c;
  assert_int_equal(sqlsim_evaluate(ev, GOLD, PAIRS[3].pred, "shop", &r, NULL), 0);
  assert_non_null(r.answer.sql);
  assert_int_equal(r.answer.from, SQLSIM_FROM_FENCE);
  char *want = sqlsim_record_to_json(&r);
  record_copy(&c, &r);
  assert_ptr_not_equal(c.answer.sql, r.answer.sql);
  sqlsim_record_clear(&r);
  same_json(&c, want);
  sqlsim_record_clear(&c);
  free(want);
  sqlsim_evaluator_free(ev);
}

/* A string two parts share (the dialect, and the dialect category's
 * evidence) stays one string in the copy, in the copy's arena. */
static void test_shared_string_stays_one(void **state) {
  (void)state;
  sqlsim_evaluator *ev = make(1, 0);
  sqlsim_record r, c;
  assert_int_equal(sqlsim_evaluate(ev, GOLD, PAIRS[2].pred, "shop", &r, NULL), 0);
  const char *d = r.structure.dialect;
  assert_non_null(d);
  int shared = r.analysis.cats.evidence[SQLSIM_CAT_DIALECT] == d;
  record_copy(&c, &r);
  assert_ptr_not_equal(c.structure.dialect, d);
  if (shared) assert_ptr_equal(c.analysis.cats.evidence[SQLSIM_CAT_DIALECT], c.structure.dialect);
  sqlsim_record_clear(&r);
  assert_non_null(strstr(c.structure.dialect, "YEAR") ? c.structure.dialect : strstr(c.structure.dialect, "year"));
  sqlsim_record_clear(&c);
  sqlsim_evaluator_free(ev);
}

/* The fields through a sink of one's own: the same walk as the JSON. */
typedef struct counting {
  int keys, values;
} counting;
static void c_key(void *x, const char *k) {
  (void)k;
  ((counting *)x)->keys++;
}
static void c_value(void *x) { ((counting *)x)->values++; }
static void c_bool(void *x, int v) { (void)v, c_value(x); }
static void c_int(void *x, long long v) { (void)v, c_value(x); }
static void c_num(void *x, double v) { (void)v, c_value(x); }
static void c_str(void *x, const char *s) { (void)s, c_value(x); }
static void c_begin(void *x, int a) { (void)a, c_value(x); }
static void c_end(void *x, int a) { (void)x, (void)a; }

static void test_sink_walk(void **state) {
  (void)state;
  sqlsim_evaluator *ev = make(1, 0);
  sqlsim_record r;
  assert_int_equal(sqlsim_evaluate(ev, GOLD, WRONG, "shop", &r, NULL), 0);
  sqlsim_sink s = {c_key, c_value, c_bool, c_int, c_num, c_str, c_str, c_begin, c_end};
  counting n = {0};
  sqlsim_record_write(&r, &s, &n);
  /* every member has a key, and the JSON has as many "key": as the sink saw keys */
  char *js = sqlsim_record_to_json(&r);
  int colons = 0;
  for (const char *p = js; (p = strstr(p, "\":")); p += 2) colons++;
  assert_true(n.keys > 20);
  assert_true(n.values >= n.keys);
  assert_true(colons >= n.keys); /* evidence text may hold more */
  free(js);
  sqlsim_record_clear(&r);
  sqlsim_evaluator_free(ev);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_orders_with_database),
      cmocka_unit_test(test_orders_generated),
      cmocka_unit_test(test_answer_copied),
      cmocka_unit_test(test_shared_string_stays_one),
      cmocka_unit_test(test_sink_walk),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
