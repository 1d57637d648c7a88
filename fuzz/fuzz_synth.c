/* fuzz_synth.c -- synthetic execution: facts read from a pair of queries, the
 * generator and the runner. An input "gold\npred" runs on the fuzz schema; an
 * input starting with byte 1 is "tables.json\0gold\npred", so hostile schemas
 * (odd types and names, key loops, keys to themselves) reach the generator
 * too. Invariants: the counts add up, the graded share is in [0, 1] (or NaN
 * when nothing counted), pass agrees with them. */
#include "fuzz_common.h"

#include <math.h>

static void check(const sqlsim_synth *s) {
  if (s->informative < 0 || s->agree < 0 || s->agree > s->informative ||
      s->informative + s->ties + s->gold_failed > s->databases)
    abort();
  if (s->informative ? !(s->graded >= 0 && s->graded <= 1) : !isnan(s->graded)) abort();
  if (s->pass != (s->informative ? s->agree == s->informative : -1)) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static sqlsim_synth_runner *runner;
  if (!runner) {
    sqlsim_synth_opts o = {.databases = 3, .timeout_s = 0.5};
    runner = sqlsim_synth_runner_new(&o);
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
  free(buf);
  sqlsim_catalog_free(own);
  return 0;
}
