/* run.c -- a benchmark's files loaded and scored through the engine. */
#include "run.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"

int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

const char *model_name(const char *path) {
  const char *b = strrchr(path, '/');
  b = b ? b + 1 : path;
  const char *dot = strrchr(b, '.');
  static _Thread_local char buf[64][256];
  static _Thread_local int slot;
  char *out = buf[slot++ % 64];
  snprintf(out, 256, "%.*s", (int)(dot && dot != b ? dot - b : (long)strlen(b)), b);
  return out;
}

const char *run_group(const run *r, int i) { return sqlsim_group_of(&r->gold->items[i], R(r, 0, i)); }

int run_load(run *r, const sqlsim_config *cfg) {
  sqlsim_error err = {0};
  if (sqlsim_items_load(r->gold_path, &r->gold, &err)) return error("%s", err.message);
  for (int p = 0; p < r->npreds; p++) {
    if (sqlsim_items_load(r->pred_paths[p], &r->pred[p], &err)) return error("%s", err.message);
    if (r->pred[p]->n != r->gold->n)
      return error("%s has %d predictions but %s has %d gold queries: they must pair up one to one",
                   r->pred_paths[p], r->pred[p]->n, r->gold_path, r->gold->n);
  }
  r->cfg = *cfg;
  sqlsim_config_for_benchmark(&r->cfg, r->gold);
  r->bird = r->cfg.bird_semantics;
  r->with_db = (r->cfg.metrics & SQLSIM_M_DB) != 0;
  if (sqlsim_evaluator_new(&r->cfg, &r->ev, &err)) return error("%s", err.message);
  r->cfg = *sqlsim_evaluator_config(r->ev);
  if (sqlsim_evaluator_check(r->ev, r->gold, r->gold_path, &err)) return error("%s", err.message);
  return 0;
}

void run_score(run *r, const sqlsim_batch_opts *o) {
  size_t n = (size_t)r->gold->n * (size_t)r->npreds;
  sqlsim_pair *pairs = malloc(sizeof *pairs * (n ? n : 1));
  r->recs = calloc(n ? n : 1, sizeof *r->recs);
  if (!pairs || !r->recs) {
    fputs("sqlsim: out of memory\n", stderr);
    abort();
  }
  for (int i = 0; i < r->gold->n; i++)
    for (int p = 0; p < r->npreds; p++) {
      sqlsim_pair *q = &pairs[(size_t)i * (size_t)r->npreds + (size_t)p];
      q->gold = r->gold->items[i].sql;
      q->pred = r->pred[p]->items[i].sql;
      q->db_id = r->gold->items[i].db_id;
    }
  r->done = sqlsim_evaluate_batch(r->ev, pairs, n, r->recs, o);
  free(pairs);
}

void run_free(run *r) {
  if (r->recs) {
    size_t n = (size_t)r->gold->n * (size_t)r->npreds;
    for (size_t k = 0; k < n; k++) sqlsim_record_clear(&r->recs[k]);
    free(r->recs);
  }
  sqlsim_items_free(r->gold);
  for (int p = 0; p < r->npreds; p++) sqlsim_items_free(r->pred[p]);
  sqlsim_evaluator_free(r->ev);
  r->recs = NULL;
  r->gold = NULL;
  r->ev = NULL;
}

void run_item_json(strbuf *sb, const run *r, size_t k) {
  int i = (int)(k / (size_t)r->npreds), p = (int)(k % (size_t)r->npreds);
  const sqlsim_item *gi = &r->gold->items[i];
  const sqlsim_record *rec = &r->recs[k];
  sb_puts(sb, "{\"model\":");
  sb_json_str(sb, model_name(r->pred_paths[p]));
  sb_puts(sb, ",\"benchmark\":");
  sb_json_str(sb, r->gold_path);
  sb_printf(sb, ",\"index\":%d,\"db_id\":", i);
  if (gi->db_id) sb_json_str(sb, gi->db_id);
  else sb_puts(sb, "null");
  const char *grp = sqlsim_group_of(gi, rec);
  sb_puts(sb, ",\"group\":");
  if (grp) sb_json_str(sb, grp);
  else sb_puts(sb, "null");
  if (gi->difficulty) {
    sb_puts(sb, ",\"difficulty\":");
    sb_json_str(sb, gi->difficulty);
  }
  if (gi->case_type) {
    sb_puts(sb, ",\"case_type\":");
    sb_json_str(sb, gi->case_type);
  }
  sb_putc(sb, ',');
  record_json_fields(sb, rec);
  sb_puts(sb, "}\n");
}
