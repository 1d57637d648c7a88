/* fuzz_synth.c -- synthetic execution: facts read from a pair of queries, the
 * generator and the runner. An input "gold\npred" runs on the fuzz schema; an
 * input starting with byte 1 is "tables.json\0gold\npred", so hostile schemas
 * (odd types and names, key loops, keys to themselves) reach the generator
 * too. Every input runs twice: with the synth verdict alone, and with the
 * strict verdict and witnesses (the gold's neighbors, the search for its
 * suite, the pair's own search, the shrinker and the witness's SQL).
 * Invariants: the counts add up, the graded share is in [0, 1] (or NaN when
 * nothing counted), pass agrees with them; strict is -1, 0 or 1, its suite
 * tells apart no more neighbors than it has; a witness is whole, holds at
 * most what it was shrunk from, and its SQL loads into a fresh SQLite. */
#include "fuzz_common.h"

#include <math.h>
#include <sqlite3.h>

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static sqlsim_synth_runner *runner, *strict;
  if (!runner) {
    sqlsim_synth_opts o = {.databases = 3, .timeout_s = 0.5};
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
  free(buf);
  sqlsim_catalog_free(own);
  return 0;
}
