/* test_engine.c -- the evaluator (engine/): one pair, batches, threads.
 *
 * A small database made here (a Spider-style directory DIR/shop/shop.sqlite
 * and a tables.json for it); every metric is asked for, and the answers are
 * checked against what the pair must score, not against a stored run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sqlsim.h"
#include "testdb.h"


static const char *TABLES =
    "[{\"db_id\":\"shop\",\"table_names_original\":[\"item\"],\"table_names\":[\"item\"],"
    "\"column_names_original\":[[-1,\"*\"],[0,\"id\"],[0,\"name\"],[0,\"price\"]],"
    "\"column_names\":[[-1,\"*\"],[0,\"id\"],[0,\"name\"],[0,\"price\"]],"
    "\"column_types\":[\"text\",\"number\",\"text\",\"number\"],\"primary_keys\":[1],\"foreign_keys\":[]}]";

static int setup(void **state) {
  (void)state;
  return testdb_make("engine", "shop", TABLES,
                     "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, price REAL);"
                     "INSERT INTO item VALUES (1,'pen',2.5),(2,'ink',7),(3,'pad',4),(4,'cap',7);");
}

static int teardown(void **state) {
  (void)state;
  testdb_remove();
  return 0;
}

static sqlsim_evaluator *make(unsigned metrics) {
  sqlsim_config c = {.tables = tables, .db_dir = dir, .metrics = metrics, .iterations = 3, .timeout_s = 5};
  sqlsim_evaluator *ev = NULL;
  sqlsim_error err = {0};
  int rc = sqlsim_evaluator_new(&c, &ev, &err);
  if (rc) fprintf(stderr, "%s\n", err.message);
  assert_int_equal(rc, 0);
  return ev;
}

static const unsigned ALL = SQLSIM_M_MATCH | SQLSIM_M_EXEC | SQLSIM_M_RESULT | SQLSIM_M_BIS | SQLSIM_M_CATEGORIES;

static void test_metrics_parse(void **state) {
  (void)state;
  unsigned m;
  sqlsim_error err = {0};
  assert_int_equal(sqlsim_metrics_parse("match,ex,bis", &m, &err), 0);
  assert_int_equal(m, SQLSIM_M_MATCH | SQLSIM_M_EXEC | SQLSIM_M_BIS);
  assert_int_equal(sqlsim_metrics_parse("match,exac", &m, &err), SQLSIM_EFORMAT);
  assert_non_null(strstr(err.message, "'exac'"));
  assert_int_equal(err.offset, 6);
  assert_int_equal(sqlsim_metrics_parse("", &m, &err), SQLSIM_EFORMAT);
}

static void test_config_errors(void **state) {
  (void)state;
  sqlsim_evaluator *ev = NULL;
  sqlsim_error err = {0};
  sqlsim_config c = {.metrics = SQLSIM_M_EXEC};
  assert_int_not_equal(sqlsim_evaluator_new(&c, &ev, &err), 0);
  assert_null(ev);
  assert_non_null(strstr(err.message, "databases"));
  sqlsim_config m = {.metrics = SQLSIM_M_MATCH};
  assert_int_not_equal(sqlsim_evaluator_new(&m, &ev, &err), 0);
  assert_non_null(strstr(err.message, "tables"));
  sqlsim_config t = {.metrics = SQLSIM_M_BIS, .tables = "/nonexistent/tables.json"};
  assert_int_not_equal(sqlsim_evaluator_new(&t, &ev, &err), 0);
  assert_non_null(strstr(err.message, "/nonexistent/tables.json"));
  sqlsim_config n = {.metrics = SQLSIM_M_EXEC, .db_dir = dir, .now = "yesterday"};
  assert_int_not_equal(sqlsim_evaluator_new(&n, &ev, &err), 0);
}

static void test_one_pair(void **state) {
  (void)state;
  sqlsim_evaluator *ev = make(ALL);
  sqlsim_record r;
  sqlsim_error err = {0};
  /* the same rows written another way */
  assert_int_equal(sqlsim_evaluate(ev, "SELECT count(*) FROM item WHERE price = 7",
                                   "select count(id) from item as i where i.price = 7", "shop", &r, &err), 0);
  assert_int_equal(r.exec.spider, 1);
  assert_int_equal(r.exec.bird, 1);
  assert_int_equal(r.has_match, 1);
  assert_int_equal(r.structure.has, 1);
  assert_true(r.score > 0.9);
  assert_int_equal(r.hardness, SQLSIM_HARD_EASY);
  assert_true(r.analysis.cats.mask & ((1u << SQLSIM_CAT_CORRECT) | (1u << SQLSIM_CAT_CORRECT_OTHER_FORM)));
  assert_null(sqlsim_record_error(&r, &(const char *){0}, &(int){0}));
  sqlsim_record_clear(&r);
  /* a wrong filter: executes, differs, and says where */
  assert_int_equal(sqlsim_evaluate(ev, "SELECT name FROM item WHERE price = 7", "SELECT name FROM item WHERE price > 3",
                                   "shop", &r, &err), 0);
  assert_int_equal(r.exec.bird, 0);
  assert_int_equal(r.exec.gold_rows, 2);
  assert_int_equal(r.exec.pred_rows, 3);
  assert_true(r.score < 1);
  assert_true(r.analysis.cats.mask & (1u << SQLSIM_CAT_FILTER_OPERATOR));
  assert_true(r.analysis.npspans > 0);
  char *js = sqlsim_record_to_json(&r);
  assert_non_null(strstr(js, "\"ex\":{\"spider\":0,\"bird\":0}"));
  assert_non_null(strstr(js, "\"categories\":["));
  free(js);
  sqlsim_record_clear(&r);
  /* a prediction that does not parse: a record, with the position */
  assert_int_equal(sqlsim_evaluate(ev, "SELECT name FROM item", "SELECT name FROM item WHERE", "shop", &r, &err), 0);
  const char *side;
  int off;
  const char *why = sqlsim_record_error(&r, &side, &off);
  assert_non_null(why);
  assert_string_equal(side, "pred");
  assert_int_equal(r.score, 0);
  assert_true(r.analysis.cats.mask & (1u << SQLSIM_CAT_UNPARSEABLE));
  sqlsim_record_clear(&r);
  /* an unknown database: the gold side says so, nothing crashes */
  assert_int_equal(sqlsim_evaluate(ev, "SELECT 1", "SELECT 1", "nosuchdb", &r, &err), 0);
  assert_int_equal(r.exec.bird, -1);
  assert_non_null(strstr(r.gold_err, "nosuchdb"));
  sqlsim_record_clear(&r);
  /* a db_id that is a path is refused, not opened */
  assert_int_equal(sqlsim_evaluate(ev, "SELECT 1", "SELECT 1", "../shop", &r, &err), 0);
  assert_int_equal(r.exec.bird, -1);
  assert_true(r.gold_err[0] != 0);
  sqlsim_record_clear(&r);
  assert_int_equal(sqlsim_evaluate(ev, NULL, "SELECT 1", "shop", &r, &err), SQLSIM_EFORMAT);
  sqlsim_evaluator_free(ev);
}

static void test_timing_pair(void **state) {
  (void)state;
  sqlsim_evaluator *ev = make(SQLSIM_M_EXEC | SQLSIM_M_VES);
  sqlsim_record r;
  assert_int_equal(sqlsim_evaluate(ev, "SELECT name FROM item", "SELECT name FROM item", "shop", &r, NULL), 0);
  assert_int_equal(r.has_timing, 1);
  assert_int_equal(r.timing.ok, 1);
  assert_int_equal(r.timing.n, 3);
  sqlsim_record_clear(&r);
  /* wrong answers are not timed (the correctness gate) */
  assert_int_equal(sqlsim_evaluate(ev, "SELECT name FROM item", "SELECT id FROM item", "shop", &r, NULL), 0);
  assert_int_equal(r.has_timing, 0);
  assert_int_equal(r.has_self_timing, 0);
  sqlsim_record_clear(&r);
  sqlsim_evaluator_free(ev);
}

/* The noise floor: with noise_every 1 every timed pair's gold is also timed
 * against itself, by the same protocol, and the record's JSON says so; with
 * -1 none is; the default samples by the gold, so the same golds whatever
 * the batch. */
static void test_noise_sample(void **state) {
  (void)state;
  sqlsim_error err = {0};
  for (int every = -1; every <= 1; every += 2) {
    sqlsim_config c = {.tables = tables, .db_dir = dir, .metrics = SQLSIM_M_EXEC | SQLSIM_M_RVES, .iterations = 4,
                       .timeout_s = 5, .noise_every = every};
    sqlsim_evaluator *ev = NULL;
    assert_int_equal(sqlsim_evaluator_new(&c, &ev, &err), 0);
    sqlsim_record r;
    assert_int_equal(sqlsim_evaluate(ev, "SELECT name FROM item", "SELECT name FROM item ORDER BY 1", "shop", &r, NULL), 0);
    assert_int_equal(r.has_timing, 1);
    assert_int_equal(r.has_self_timing, every == 1);
    char *json = sqlsim_record_to_json(&r);
    assert_int_equal(strstr(json, "\"self_ratio\":") != NULL, every == 1);
    if (every == 1) {
      assert_int_equal(r.self_timing.n, 4);
      assert_true(r.self_timing.ratio > 0.1 && r.self_timing.ratio < 10);
      assert_non_null(strstr(json, "\"self_interval\":["));
    }
    free(json);
    sqlsim_record_clear(&r);
    sqlsim_evaluator_free(ev);
  }
  sqlsim_config bad = {.tables = tables, .db_dir = dir, .metrics = SQLSIM_M_EXEC | SQLSIM_M_VES, .noise_every = -2};
  sqlsim_evaluator *ev = NULL;
  assert_int_equal(sqlsim_evaluator_new(&bad, &ev, &err), SQLSIM_ECONFIG);
  assert_non_null(strstr(err.message, "noise every"));
  /* the default: about one gold in 40, chosen by the gold; a batch of one
   * pair and a batch of many pick the same golds */
  sqlsim_config c = {.tables = tables, .db_dir = dir, .metrics = SQLSIM_M_EXEC | SQLSIM_M_VES, .iterations = 2,
                     .timeout_s = 5};
  assert_int_equal(sqlsim_evaluator_new(&c, &ev, &err), 0);
  enum { N = 120 };
  static char gold[N][64];
  sqlsim_pair pairs[N];
  for (int i = 0; i < N; i++) {
    snprintf(gold[i], sizeof gold[i], "SELECT name FROM item WHERE %d = %d", i, i);
    pairs[i] = (sqlsim_pair){gold[i], gold[i], "shop"};
  }
  sqlsim_record *recs = calloc(N, sizeof *recs);
  assert_int_equal(sqlsim_evaluate_batch(ev, pairs, N, recs, NULL), N);
  int sampled = 0;
  for (int i = 0; i < N; i++) {
    sampled += recs[i].has_self_timing;
    sqlsim_record one;
    assert_int_equal(sqlsim_evaluate_batch(ev, &pairs[i], 1, &one, NULL), 1);
    assert_int_equal(one.has_self_timing, recs[i].has_self_timing);
    sqlsim_record_clear(&one);
    sqlsim_record_clear(&recs[i]);
  }
  assert_true(sampled >= 1 && sampled <= 10); /* 3 expected */
  free(recs);
  sqlsim_evaluator_free(ev);
}

#define NPAIRS 300
static const char *golds[] = {"SELECT name FROM item WHERE price = 7", "SELECT count(*) FROM item",
                              "SELECT max(price) FROM item"};
static const char *preds[] = {"SELECT name FROM item WHERE price = 7", "SELECT name FROM item", "SELECT count(*) FROM item",
                              "SELECT max(price) FROM item", "SELECT price FROM item ORDER BY price DESC LIMIT 1",
                              "SELECT FROM", "SELECT nope FROM item"};

static void make_pairs(sqlsim_pair *p) {
  for (int k = 0; k < NPAIRS; k++) { /* runs of a few pairs per gold, repeated texts among them */
    p[k].gold = golds[(k / 5) % 3];
    p[k].pred = preds[(k * 7 + k / 3) % 7];
    p[k].db_id = "shop";
  }
}

typedef struct seen {
  size_t next;
  int in_order;
} seen;

static void count_record(void *ctx, size_t k, const sqlsim_record *r) {
  seen *s = ctx;
  if (k != s->next) s->in_order = 0;
  s->next = k + 1;
}

/* A batch on 3 threads gives each pair the record a lone call gives it, in order. */
static void test_batch_matches_single(void **state) {
  (void)state;
  sqlsim_evaluator *ev = make(ALL);
  sqlsim_pair pairs[NPAIRS];
  make_pairs(pairs);
  sqlsim_record *out = calloc(NPAIRS, sizeof *out);
  seen s = {0, 1};
  sqlsim_batch_opts o = {.jobs = 3, .on_record = count_record, .ctx = &s};
  assert_int_equal(sqlsim_evaluate_batch(ev, pairs, NPAIRS, out, &o), NPAIRS);
  assert_int_equal(s.next, NPAIRS);
  assert_true(s.in_order);
  sqlsim_evaluator *fresh = make(ALL);
  for (int k = 0; k < NPAIRS; k++) {
    sqlsim_record one;
    sqlsim_evaluate(fresh, pairs[k].gold, pairs[k].pred, "shop", &one, NULL);
    char *a = sqlsim_record_to_json(&out[k]), *b = sqlsim_record_to_json(&one);
    if (strcmp(a, b)) fprintf(stderr, "pair %d:\n  batch %s\n  alone %s\n", k, a, b);
    assert_string_equal(a, b);
    free(a);
    free(b);
    sqlsim_record_clear(&one);
    sqlsim_record_clear(&out[k]);
  }
  free(out);
  sqlsim_evaluator_free(fresh);
  sqlsim_evaluator_free(ev);
}

/* A cancel flag already set: nothing is started, nothing is kept. One set
 * from a record callback: the records kept are a prefix. */
static volatile int stop_flag;
static void stop_after_10(void *ctx, size_t k, const sqlsim_record *r) {
  if (k == 9) stop_flag = 1;
}

static void test_batch_cancel(void **state) {
  (void)state;
  sqlsim_evaluator *ev = make(SQLSIM_M_BIS | SQLSIM_M_EXEC);
  sqlsim_pair pairs[NPAIRS];
  make_pairs(pairs);
  sqlsim_record *out = calloc(NPAIRS, sizeof *out);
  stop_flag = 1;
  sqlsim_batch_opts o = {.jobs = 2, .cancel = &stop_flag};
  assert_int_equal(sqlsim_evaluate_batch(ev, pairs, NPAIRS, out, &o), 0);
  stop_flag = 0;
  o.on_record = stop_after_10;
  size_t done = sqlsim_evaluate_batch(ev, pairs, NPAIRS, out, &o);
  assert_true(done >= 10 && done < NPAIRS);
  for (size_t k = 0; k < done; k++) assert_int_equal(out[k].structure.has, 1);
  for (size_t k = done; k < NPAIRS; k++) assert_int_equal(out[k].structure.has, 0); /* cleared */
  for (size_t k = 0; k < NPAIRS; k++) sqlsim_record_clear(&out[k]);
  free(out);
  sqlsim_evaluator_free(ev);
}

/* Many threads calling sqlsim_evaluate on one evaluator at once. */
static sqlsim_evaluator *shared_ev;
static void *hammer(void *arg) {
  long t = (long)arg;
  int bad = 0;
  for (int k = 0; k < 200; k++) {
    sqlsim_record r;
    const char *g = golds[(k + t) % 3];
    sqlsim_evaluate(shared_ev, g, g, "shop", &r, NULL);
    bad += r.exec.bird != 1 || r.score != 1;
    sqlsim_record_clear(&r);
  }
  return (void *)(long)bad;
}

static void test_threads(void **state) {
  (void)state;
  shared_ev = make(ALL);
  pthread_t th[4];
  for (long t = 0; t < 4; t++) pthread_create(&th[t], NULL, hammer, (void *)t);
  long bad = 0;
  for (int t = 0; t < 4; t++) {
    void *rv;
    pthread_join(th[t], &rv);
    bad += (long)rv;
  }
  assert_int_equal(bad, 0);
  sqlsim_evaluator_free(shared_ev);
}

/* Invalid UTF-8 in a query never reaches the JSON raw. */
static void test_json_utf8(void **state) {
  (void)state;
  sqlsim_evaluator *ev = make(SQLSIM_M_BIS);
  sqlsim_record r;
  sqlsim_evaluate(ev, "SELECT name FROM item", "SELECT \xff\xfe FROM", "shop", &r, NULL);
  char *js = sqlsim_record_to_json(&r);
  for (const unsigned char *p = (const unsigned char *)js; *p; p++) assert_true(*p != 0xff && *p != 0xfe);
  free(js);
  sqlsim_record_clear(&r);
  sqlsim_evaluator_free(ev);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_metrics_parse),   cmocka_unit_test(test_config_errors),
      cmocka_unit_test(test_one_pair),        cmocka_unit_test(test_timing_pair), cmocka_unit_test(test_noise_sample),
      cmocka_unit_test(test_batch_matches_single), cmocka_unit_test(test_batch_cancel),
      cmocka_unit_test(test_threads),         cmocka_unit_test(test_json_utf8),
  };
  int rc = cmocka_run_group_tests(tests, setup, teardown);
  sqlsim_thread_cleanup();
  return rc;
}
