/* run.c -- a benchmark's files loaded and scored through the engine. */
#include "run.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/fields.h"

#include <stdarg.h>

/* Says why in err and returns -1 (the faces print it). */
static int fail(sqlsim_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(sqlsim_error *err, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (err) {
    err->code = SQLSIM_EFORMAT;
    err->offset = -1;
    vsnprintf(err->message, sizeof err->message, fmt, ap);
  }
  va_end(ap);
  return -1;
}

/* ---------------------------------------------------------------- names */

/* NAME=FILE, when the whole is not itself a file and NAME has no '/'. */
static void split_name(const char *arg, char **name, const char **file) {
  const char *eq = strchr(arg, '=');
  *name = NULL;
  *file = arg;
  if (!eq || eq == arg || access(arg, F_OK) == 0 || memchr(arg, '/', (size_t)(eq - arg))) return;
  *name = strndup(arg, (size_t)(eq - arg));
  *file = eq + 1;
}

/* The default name of a file: its base name without the extension, with
 * `up` directories before it; "stdin" for "-", predN for a pipe's path. */
static char *default_name(const char *file, int p, int up) {
  char buf[512];
  if (!strcmp(file, "-")) return strdup("stdin");
  if (!strncmp(file, "/dev/fd/", 8) || !strncmp(file, "/proc/self/fd/", 14)) {
    snprintf(buf, sizeof buf, "pred%d", p + 1);
    return strdup(buf);
  }
  const char *b = file + strlen(file);
  while (b > file && b[-1] == '/') b--; /* "dir/" */
  const char *end = b;
  for (int k = 0; k <= up && b > file; k++) {
    if (k) b--; /* past the '/' */
    while (b > file && b[-1] != '/') b--;
  }
  const char *base = end;
  while (base > file && base[-1] != '/') base--;
  const char *dot = NULL;
  for (const char *q = base; q < end; q++)
    if (*q == '.') dot = q;
  if (dot && dot > base) end = dot;
  snprintf(buf, sizeof buf, "%.*s", (int)(end - b), b);
  return strdup(buf);
}

int run_name_models(run *r, sqlsim_error *err) {
  int given[RUN_MAX_PREDS] = {0};
  for (int p = 0; p < r->npreds; p++) {
    split_name(r->pred_paths[p], &r->names[p], &r->files[p]);
    given[p] = r->names[p] != NULL;
    if (!given[p]) r->names[p] = default_name(r->files[p], p, 0);
  }
  /* same default names: add directories until they differ (up to 3) */
  for (int up = 1; up <= 3; up++) {
    int clash[RUN_MAX_PREDS] = {0}, any = 0;
    for (int p = 0; p < r->npreds; p++)
      for (int q = p + 1; q < r->npreds; q++)
        if (!strcmp(r->names[p], r->names[q])) clash[p] = clash[q] = any = 1;
    if (!any) break;
    for (int p = 0; p < r->npreds; p++)
      if (clash[p] && !given[p]) {
        free(r->names[p]);
        r->names[p] = default_name(r->files[p], p, up);
      }
  }
  for (int p = 0; p < r->npreds; p++)
    for (int q = p + 1; q < r->npreds; q++)
      if (!strcmp(r->names[p], r->names[q]))
        return fail(err, "two models are named '%s' (%s and %s): give each a name with --pred NAME=FILE", r->names[p],
                     r->files[p], r->files[q]);
  return 0;
}

const char *run_group(const run *r, int i) { return sqlsim_group_of(&r->gold->items[i], run_record(r, 0, i)); }

/* ---------------------------------------------------------------- loading */

/* The prediction of an item a file has no prediction for (--all-items). */
static const char MISSING_SQL[] = "";

static sqlsim_itemset *selection(const sqlsim_itemset *from, int n) {
  sqlsim_itemset *s = calloc(1, sizeof *s);
  s->path = from->path;
  s->format = from->format;
  s->items = calloc((size_t)(n ? n : 1), sizeof *s->items);
  return s;
}

/* Pairs gold items with each file's predictions: by position, or by
 * question index for a BIRD prediction object. Fills r->gold, r->pred[],
 * r->index with the items scored. */
static int pair_items(run *r, sqlsim_error *err) {
  int n = r->gold_all->n;
  r->total = n;
  if (n == 0) return fail(err, "%s: no gold queries in it, so nothing to score", r->gold_path);
  unsigned char *have = calloc((size_t)(n ? n : 1) * (size_t)r->npreds, 1);
  int **slot = calloc((size_t)r->npreds, sizeof *slot);
  int rc = 0;
  for (int p = 0; p < r->npreds && !rc; p++) {
    slot[p] = malloc(sizeof **slot * (size_t)(n ? n : 1));
    rc = sqlsim_items_pair(r->gold_all, r->pred_all[p], slot[p], err) ? -1 : 0;
    for (int i = 0; i < n && !rc; i++) have[(size_t)i * (size_t)r->npreds + (size_t)p] = slot[p][i] >= 0;
  }
  if (!rc) {
    int sel = 0;
    r->index = malloc(sizeof *r->index * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
      int all = 1;
      for (int p = 0; p < r->npreds; p++)
        if (!have[(size_t)i * (size_t)r->npreds + (size_t)p]) all = 0, r->missing[p]++;
      if (all || r->all_items) r->index[sel++] = i;
    }
    if (!sel)
      rc = fail(err, "%s: no question has a prediction in every --pred file, so nothing can be scored", r->gold_path);
    r->gold = selection(r->gold_all, sel);
    for (int p = 0; p < r->npreds; p++) r->pred[p] = selection(r->pred_all[p], sel);
    for (int s = 0; s < sel; s++) {
      int i = r->index[s];
      r->gold->items[r->gold->n++] = r->gold_all->items[i];
      for (int p = 0; p < r->npreds; p++) {
        sqlsim_item it = {.sql = MISSING_SQL, .db_id = r->gold_all->items[i].db_id, .line = i + 1};
        if (have[(size_t)i * (size_t)r->npreds + (size_t)p]) it = r->pred_all[p]->items[slot[p][i]];
        r->pred[p]->items[r->pred[p]->n++] = it;
      }
    }
  }
  for (int p = 0; p < r->npreds; p++) free(slot[p]);
  free(slot);
  free(have);
  return rc;
}

int run_load(run *r, const sqlsim_config *cfg, sqlsim_error *err) {
  if (run_name_models(r, err)) return -2; /* a bad argument: nothing was run */
  if (sqlsim_items_load(r->gold_path, &r->gold_all, err)) return -1;
  for (int p = 0; p < r->npreds; p++)
    if (sqlsim_items_load(r->files[p], &r->pred_all[p], err)) return -1;
  if (pair_items(r, err)) return -1;
  sqlsim_config c = *cfg;
  sqlsim_config_for_benchmark(&c, r->gold);
  int rc = sqlsim_evaluator_new(&c, &r->ev, err);
  if (rc) return rc == SQLSIM_ECONFIG ? -2 : -1;
  r->bird = run_config(r)->bird_semantics;
  r->with_db = (run_config(r)->metrics & SQLSIM_M_DB) != 0;
  if (sqlsim_evaluator_check(r->ev, r->gold, r->gold_path, err)) return -1;
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
  r->scored = (int)(r->done / (size_t)r->npreds);
  free(pairs);
}

void run_free(run *r) {
  if (r->recs) {
    size_t n = (size_t)r->gold->n * (size_t)r->npreds;
    for (size_t k = 0; k < n; k++) sqlsim_record_clear(&r->recs[k]);
    free(r->recs);
  }
  sqlsim_items_free(r->gold);
  sqlsim_items_free(r->gold_all);
  for (int p = 0; p < r->npreds; p++) {
    sqlsim_items_free(r->pred[p]);
    sqlsim_items_free(r->pred_all[p]);
    free(r->names[p]);
    r->pred[p] = r->pred_all[p] = NULL;
    r->names[p] = NULL;
  }
  free(r->index);
  sqlsim_evaluator_free(r->ev);
  sqlsim_audit_free(r->audit);
  r->audit = NULL;
  r->recs = NULL;
  r->gold = r->gold_all = NULL;
  r->index = NULL;
  r->ev = NULL;
}

int run_audit(run *r, sqlsim_error *err) {
  if (!run_config(r)->audit)
    return sqlsim_error_set(err, SQLSIM_ECONFIG, -1, "the run was not scored for the audit"), -1;
  const char **sqls[RUN_MAX_PREDS];
  int n = r->scored;
  for (int p = 0; p < r->npreds; p++) {
    sqls[p] = malloc(sizeof *sqls[p] * (size_t)(n > 0 ? n : 1));
    for (int i = 0; sqls[p] && i < n; i++) sqls[p][i] = r->pred[p]->items[i].sql;
  }
  sqlsim_audit_opts o = {0};
  int rc = n ? sqlsim_audit_records(r->ev, r->gold, n, r->recs, (const char *const *const *)sqls,
                                    (const char *const *)r->names, r->npreds, &o, &r->audit, err)
             : 0;
  for (int p = 0; p < r->npreds; p++) free(sqls[p]);
  return rc ? -1 : 0;
}

void run_item_json(strbuf *sb, const run *r, size_t k, const sqlsim_record *rec) {
  int i = (int)(k / (size_t)r->npreds), p = (int)(k % (size_t)r->npreds);
  const sqlsim_item *gi = &r->gold->items[i];
  sb_puts(sb, "{\"model\":");
  sb_json_str(sb, model_name(r, p));
  sb_puts(sb, ",\"benchmark\":");
  sb_json_str(sb, r->gold_path);
  sb_printf(sb, ",\"index\":%d,", r->index ? r->index[i] : i);
  if (r->pred[p]->items[i].sql == MISSING_SQL) sb_puts(sb, "\"missing\":true,");
  sb_puts(sb, "\"db_id\":");
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
  engine_record_json(sb, rec);
  sb_puts(sb, "}\n");
}
