/* fuzz_synth.c -- synthetic execution: facts read from a pair of queries, the
 * generator and the runner. An input "gold\npred" runs on the fuzz schema; an
 * input starting with byte 1 is "tables.json\0gold\npred", so hostile schemas
 * (odd types and names, key loops, keys to themselves) reach the generator
 * too. Every input runs twice: with the synth verdict alone, and with the
 * strict verdict and witnesses (the gold's neighbors, the search for its
 * suite, the pair's own search, the solver's encoding (z3, a short budget),
 * the shrinker and the witness's SQL).
 * On the fuzz schema the pair is also scored by an evaluator with the error
 * analysis's repair (analyze/repair.c), which prints parts of both queries
 * into repaired predictions and runs them on the pair's databases, and with
 * witnesses: twice in one batch, so that the second record is a copy of the
 * first (record_copy), the two then cleared in either order.
 * Invariants: the counts add up, the graded share is in [0, 1] (or NaN when
 * nothing counted), pass agrees with them; strict is -1, 0 or 1, its suite
 * tells apart no more neighbors than it has, a bound is 1..6 and never
 * beside a refutation; a witness is whole, holds at
 * most what it was shrunk from, and its SQL loads into a fresh SQLite; a
 * repair has one or two categories and its SQL parses, and a pair with none
 * says why when it was wrong. */
#include "fuzz_common.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

static void check(const sqlsim_synth *s) {
  if (s->informative < 0 || s->agree < 0 || s->agree > s->informative ||
      s->informative + s->ties + s->gold_failed > s->databases)
    abort();
  if (s->informative ? !(s->graded >= 0 && s->graded <= 1) : !isnan(s->graded)) abort();
  if (s->pass != (s->informative ? s->agree == s->informative : -1)) abort();
}

static void check_strict(const sqlsim_synth *s) {
  check(s);
  if (s->strict < -1 || s->strict > 1 || s->told < 0 || s->told > s->neighbors || s->suite < 0) abort();
  if (s->strict == 1 && !s->strict_databases) abort();
  /* the solver: a bound is 1..6 rows per table and never beside a refutation; a
   * refutation by the solver is one */
  if (s->bound != -1 && (s->bound < 1 || s->bound > 6 || s->strict == 0)) abort();
  if (s->by_solver && s->strict != 0) abort();
  const sqlsim_witness *w = s->witness;
  if (!w) return;
  if ((s->strict != 0 && s->pass != 0) || !w->verdict || !w->database || !w->gold_sql || !w->pred_sql ||
      !w->gold_rows || !w->pred_rows || w->rows < 0 || w->gold_count < 0 || w->gold_rows[0] != '[' ||
      w->pred_rows[0] != '[' || (w->pred_count < 0) != (w->pred_error != NULL))
    abort();
  sqlite3 *db;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) abort();
  if (sqlite3_exec(db, w->database, NULL, NULL, NULL) != SQLITE_OK) abort();
  sqlite3_close(db);
}

/* The evaluator with the repair, on the fuzz schema (written to a memory
 * file the evaluator reads by path). */
static sqlsim_evaluator *repair_evaluator(void) {
  static sqlsim_evaluator *ev;
  if (ev) return ev;
  int fd = memfd_create("fuzz_tables", 0);
  if (fd < 0 || write(fd, fuzz_tables_json, sizeof fuzz_tables_json - 1) != (ssize_t)(sizeof fuzz_tables_json - 1))
    abort();
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  sqlsim_config c = {.tables = path, .metrics = SQLSIM_M_BIS | SQLSIM_M_SYNTH | SQLSIM_M_CATEGORIES,
                     .synth_databases = 3, .repair = 1, .witness = 1};
  if (sqlsim_evaluator_new(&c, &ev, NULL)) abort();
  return ev;
}

static void check_repair(const sqlsim_record *r) {
  if (!r->repair.asked) abort();
  if (!r->repair.sql) return;
  const sqlsim_categories *c = &r->repair.cats;
  if (c->nranked < 1 || c->nranked > 2 || c->main != c->ranked[0] || c->main < 0 || c->main >= SQLSIM_NCAT ||
      r->repair.checks < 1)
    abort();
  sqlsim_query *q = NULL;
  if (sqlsim_parse(r->repair.sql, strlen(r->repair.sql), NULL, 0, &q, NULL)) abort();
  sqlsim_query_free(q);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static sqlsim_synth_runner *runner, *strict;
  if (!runner) {
    sqlsim_synth_opts o = {.databases = 3, .timeout_s = 0.5, .solver_budget_s = 0.05}; /* the solver reached, briefly */
    runner = sqlsim_synth_runner_new(&o);
    o.strict = o.witness = 1;
    strict = sqlsim_synth_runner_new(&o);
  }
  sqlsim_catalog *own = NULL;
  const sqlsim_schema *schema = sqlsim_catalog_at(fuzz_catalog(), 0);
  if (size && data[0] == 1) { /* tables.json, NUL, then the pair */
    const uint8_t *nul = memchr(data + 1, 0, size - 1);
    if (!nul) return 0;
    size_t tn = (size_t)(nul - data - 1);
    if (sqlsim_catalog_parse_tables_json((const char *)data + 1, tn, "fuzz", &own, NULL) ||
        sqlsim_catalog_count(own) < 1) {
      sqlsim_catalog_free(own);
      return 0;
    }
    schema = sqlsim_catalog_at(own, 0);
    size -= tn + 2;
    data = nul + 1;
  }
  char *buf;
  const char *gold, *pred;
  fuzz_split(data, size, &buf, &gold, &pred);
  sqlsim_synth s;
  if (sqlsim_synth_pair(runner, schema, gold, pred, &s, NULL) == 0) check(&s);
  if (sqlsim_synth_pair(strict, schema, gold, pred, &s, NULL) == 0) {
    check_strict(&s);
    sqlsim_witness_free(s.witness);
  }
  if (!own) { /* the pair twice in a batch: the second record is the first's copy */
    sqlsim_pair pairs[2] = {{gold, pred, "concert_singer"}, {gold, pred, "concert_singer"}};
    sqlsim_record r[2];
    if (sqlsim_evaluate_batch(repair_evaluator(), pairs, 2, r, NULL) != 2) abort();
    check_repair(&r[0]);
    char *a = sqlsim_record_to_json(&r[0]), *b = sqlsim_record_to_json(&r[1]);
    if (!a || !b || strcmp(a, b)) abort();
    int first = size % 2; /* either cleared first: the other reads the same */
    sqlsim_record_clear(&r[first]);
    char *c = sqlsim_record_to_json(&r[!first]);
    if (!c || strcmp(a, c)) abort();
    sqlsim_record_clear(&r[!first]);
    free(a);
    free(b);
    free(c);
  }
  free(buf);
  sqlsim_catalog_free(own);
  return 0;
}
