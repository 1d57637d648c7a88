/* audit.c -- the benchmark audited: every gold item looked at with the
 * systems' predictions beside it (docs/audit.md), as a pass over the
 * records an evaluator made.
 *
 * The evaluator does the looking (config.audit): it runs each gold and each
 * prediction once, on the item's database or, without one, on the gold's
 * realistic generated databases, on its own worker threads and connections;
 * each record keeps the prediction's answer as the audit compares answers
 * and the gold's own evidence (engine/score.c, engine/workers.c,
 * analyze/evidence.c). This pass groups the systems by answer, weighs each
 * system by its agreement with the gold over the other items (a system
 * right on most items counts more), scores each item by the noisy-OR of its
 * evidence (consensus strength (W_group/W)(1 - W_gold/W)), ranks them, and
 * asks the evaluator for the rows (or the generated database) on which each
 * flagged consensus's representative and the gold differ. */
#include "core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---------------------------------------------------------------- one item */

enum { NO_PREDICTION = -1, NO_VERDICT = -2 };

typedef struct item_state {
  signed char *agree;  /* per system: 1 the gold's answer, 0 another (or it failed), NO_VERDICT (nothing told
                          them apart or together), NO_PREDICTION (none, or the item has no schema) */
  int *group;          /* per system: its group among those answering alike but not as the gold, -1 none */
  unsigned char *absent; /* per system: left out of the groups, its answer resting on a value the database
                            does not hold */
  const sqlsim_audit_part *gold; /* the gold's side (a record of the item), NULL: none */
  /* filled by the weighing */
  double consensus;    /* strength */
  int best;            /* the largest group by weight, -1 none */
  int rep;             /* its representative: the heaviest system in it */
  int size;
  double wgroup, wgold, wall;
  char *witness;       /* the rows or database showing it (JSON members) */
} item_state;

/* Item i's state from its records: each system's verdict, the groups of
 * those answering alike but not as the gold. */
static void item_from_records(item_state *it, const sqlsim_record *recs, const char *const *const *preds, int i,
                              int n) {
  int ngroups = 0;
  for (int p = 0; p < n; p++) {
    const sqlsim_record *r = &recs[(size_t)i * (size_t)n + (size_t)p];
    it->group[p] = -1;
    it->agree[p] = NO_PREDICTION;
    if (!r->audit.has) continue;
    if (!it->gold) it->gold = &r->audit;
    if (!preds[p][i] || r->audit.no_schema) continue;
    it->agree[p] = (signed char)(r->audit.agree >= 0 ? r->audit.agree : NO_VERDICT);
    it->absent[p] = (unsigned char)r->audit.absent;
  }
  for (int p = 0; p < n; p++) { /* those answering alike, not as the gold */
    const sqlsim_record *rp = &recs[(size_t)i * (size_t)n + (size_t)p];
    if (it->agree[p] != 0 || !rp->audit.answer || it->group[p] >= 0) continue;
    for (int q = p; q < n; q++)
      if (it->agree[q] == 0 && recs[(size_t)i * (size_t)n + (size_t)q].audit.answer == rp->audit.answer &&
          it->group[q] < 0)
        it->group[q] = ngroups;
    ngroups++;
  }
}

/* ---------------------------------------------------------------- weighing */

/* Each system's weight on item i: its agreement with the gold over the
 * other items it was judged on (leave-one-out), so that an item's own
 * verdict does not weigh its own evidence. */
static double weight_of(const int *right, const int *judged, const item_state *it, int p) {
  int r = right[p] - (it->agree[p] == 1), n = judged[p] - (it->agree[p] >= 0);
  return n > 0 ? (double)r / n : 0;
}

static void weigh_item(item_state *it, const int *right, const int *judged, int n) {
  double wall = 0, wgold = 0, *wg = calloc((size_t)(n > 0 ? n : 1), sizeof *wg);
  int *size = calloc((size_t)(n > 0 ? n : 1), sizeof *size);
  for (int p = 0; p < n; p++) {
    if (it->agree[p] == NO_PREDICTION) continue;
    /* a prediction without a verdict (the gold answered nothing where they were compared) neither
     * supports nor opposes the gold, but it is a system that did not join the group */
    double w = weight_of(right, judged, it, p);
    wall += w;
    if (it->agree[p] == 1) wgold += w;
    if (it->group[p] >= 0) wg[it->group[p]] += w, size[it->group[p]]++;
  }
  it->best = -1;
  for (int c = 0; c < n; c++)
    if (size[c] >= 2 && (it->best < 0 || wg[c] > wg[it->best])) it->best = c;
  it->wall = wall;
  it->wgold = wgold;
  it->consensus = 0;
  if (it->best >= 0 && wall > 0) {
    it->wgroup = wg[it->best];
    it->size = size[it->best];
    it->consensus = (wg[it->best] / wall) * (1 - wgold / wall);
    double top = -1;
    for (int p = 0; p < n; p++)
      if (it->group[p] == it->best && weight_of(right, judged, it, p) > top)
        top = weight_of(right, judged, it, p), it->rep = p;
  }
  if (!(it->consensus > 0)) it->best = -1, it->consensus = 0; /* a group of systems right nowhere else says nothing */
  free(wg);
  free(size);
}

/* ---------------------------------------------------------------- the record */

static void item_json(sqlsim_audit *a, const sqlsim_itemset *gold, const char *const *const *preds, int i,
                      item_state *it, const int *right, const int *judged, sqlsim_audit_item *out) {
  const sqlsim_item *g = &gold->items[i];
  strbuf sb = {0};
  sb_printf(&sb, "{\"index\":%d,\"db_id\":", i);
  sb_json_str(&sb, g->db_id ? g->db_id : "");
  sb_puts(&sb, ",\"score\":");
  sb_json_num(&sb, out->score);
  sb_puts(&sb, ",\"flagged\":");
  sb_puts(&sb, out->flagged ? "true" : "false");
  sb_puts(&sb, ",\"kinds\":[");
  int first = 1;
  for (int k = 0; k < SQLSIM_AUDIT_NKINDS; k++)
    if (out->kinds & (1u << k)) sb_printf(&sb, "%s\"%s\"", first ? "" : ",", sqlsim_audit_kind_names[k]), first = 0;
  sb_puts(&sb, "],\"question\":");
  if (g->question) sb_json_str(&sb, g->question);
  else sb_puts(&sb, "null");
  sb_puts(&sb, ",\"gold\":");
  sb_json_str(&sb, g->sql);
  sb_puts(&sb, ",\"agree\":[");
  first = 1;
  for (int p = 0; p < a->nsystems; p++)
    if (it->agree[p] == 1) {
      if (!first) sb_putc(&sb, ',');
      sb_json_str(&sb, a->systems[p]);
      first = 0;
    }
  sb_printf(&sb, "],\"systems\":%d", a->nsystems);
  if (it->gold && it->gold->error && it->gold->error[0]) {
    sb_puts(&sb, ",\"error\":");
    sb_json_str(&sb, it->gold->error);
  }
  sb_puts(&sb, ",\"evidence\":[");
  int any = 0;
  if (it->best >= 0) {
    sb_puts(&sb, "{\"kind\":\"consensus\",\"weight\":");
    sb_json_num(&sb, it->consensus);
    char what[300];
    snprintf(what, sizeof what, "%d of %d systems give one answer that is not the gold's (weight %.2f of %.2f; the "
             "gold's own answer: weight %.2f)", it->size, a->nsystems, it->wgroup, it->wall, it->wgold);
    sb_puts(&sb, ",\"what\":");
    sb_json_str(&sb, what);
    sb_puts(&sb, ",\"group\":[");
    first = 1;
    for (int p = 0; p < a->nsystems; p++)
      if (it->group[p] == it->best) {
        if (!first) sb_putc(&sb, ',');
        sb_json_str(&sb, a->systems[p]);
        first = 0;
      }
    sb_puts(&sb, "],\"values_absent\":[");
    first = 1;
    for (int p = 0; p < a->nsystems; p++)
      if (it->absent[p]) {
        if (!first) sb_putc(&sb, ',');
        sb_json_str(&sb, a->systems[p]);
        first = 0;
      }
    sb_puts(&sb, "],\"group_weight\":");
    sb_json_num(&sb, it->wall > 0 ? it->wgroup / it->wall : 0);
    sb_puts(&sb, ",\"gold_weight\":");
    sb_json_num(&sb, it->wall > 0 ? it->wgold / it->wall : 0);
    sb_puts(&sb, ",\"representative\":{\"system\":");
    sb_json_str(&sb, a->systems[it->rep]);
    sb_printf(&sb, ",\"weight\":");
    sb_json_num(&sb, weight_of(right, judged, it, it->rep));
    sb_puts(&sb, ",\"sql\":");
    sb_json_str(&sb, preds[it->rep][i]);
    sb_putc(&sb, '}');
    if (it->witness) sb_printf(&sb, ",%s", it->witness);
    sb_putc(&sb, '}');
    any = 1;
  }
  if (it->gold && it->gold->evidence && it->gold->evidence[0])
    sb_printf(&sb, "%s%s", any ? "," : "", it->gold->evidence);
  sb_puts(&sb, "]}");
  out->json = sb_take(&sb);
}

static int by_score(const void *x, const void *y) {
  const sqlsim_audit_item *a = x, *b = y;
  if (a->score != b->score) return a->score > b->score ? -1 : 1;
  return a->index - b->index;
}

/* The rows (or the generated database) on which the flagged item's group
 * and the gold differ: the evaluator's, as JSON members. */
static void show_consensus(sqlsim_evaluator *ev, const sqlsim_itemset *gold, const char *const *const *preds, int i,
                           item_state *it) {
  const sqlsim_item *g = &gold->items[i];
  sqlsim_witness *w = sqlsim_evaluator_witness(ev, g->sql, preds[it->rep][i], g->db_id);
  if (!w) return;
  char *json = sqlsim_witness_to_json(w);
  sqlsim_witness_free(w);
  if (!json) return;
  strbuf sb = {0};
  sb_printf(&sb, "\"witness\":%s", json);
  free(json);
  it->witness = sb_take(&sb);
}

int sqlsim_audit_records(sqlsim_evaluator *ev, const sqlsim_itemset *gold, int n, const sqlsim_record *recs,
                         const char *const *const *preds, const char *const *names, int npreds,
                         const sqlsim_audit_opts *opts, sqlsim_audit **out, sqlsim_error *err) {
  *out = NULL;
  if (n <= 0 || npreds < 1) return sqlsim_error_set(err, SQLSIM_ECONFIG, -1, "audit: no gold items or no systems");
  item_state *items = calloc((size_t)n, sizeof *items);
  sqlsim_audit *a = calloc(1, sizeof *a);
  int *right = calloc((size_t)npreds, sizeof *right), *judged = calloc((size_t)npreds, sizeof *judged);
  int rc = 0;
  if (!items || !a || !right || !judged) {
    rc = sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
    goto done;
  }
  int looked = 0;
  for (int i = 0; i < n; i++) {
    item_state *it = &items[i];
    it->agree = malloc((size_t)npreds);
    it->group = malloc(sizeof *it->group * (size_t)npreds);
    it->absent = calloc((size_t)npreds, 1);
    it->best = -1;
    if (!it->agree || !it->group || !it->absent) {
      rc = sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
      goto done;
    }
    item_from_records(it, recs, preds, i, npreds);
    looked += it->gold && !it->gold->no_schema;
  }
  if (!looked) { /* a catalog of another benchmark: nothing can be audited */
    rc = sqlsim_error_set(err, SQLSIM_ENOTFOUND, -1, "audit: no gold item's db_id has a schema (the first: '%.200s'): "
                          "are these the benchmark's tables?", gold->items[0].db_id ? gold->items[0].db_id : "");
    goto done;
  }
  /* the systems' weights */
  for (int i = 0; i < n; i++)
    for (int p = 0; p < npreds; p++) right[p] += items[i].agree[p] == 1, judged[p] += items[i].agree[p] >= 0;
  a->nitems = n;
  a->nsystems = npreds;
  a->items = calloc((size_t)n, sizeof *a->items);
  a->systems = calloc((size_t)npreds, sizeof *a->systems);
  a->weight = calloc((size_t)npreds, sizeof *a->weight);
  a->ex = calloc((size_t)npreds, sizeof *a->ex);
  a->ex_kept = calloc((size_t)npreds, sizeof *a->ex_kept);
  if (!a->items || !a->systems || !a->weight || !a->ex || !a->ex_kept) {
    rc = sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
    goto done;
  }
  for (int p = 0; p < npreds; p++) {
    a->systems[p] = strdup(names && names[p] ? names[p] : "system");
    a->weight[p] = judged[p] ? (double)right[p] / judged[p] : 0;
  }
  for (int i = 0; i < n && !a->with_db; i++) a->with_db = items[i].gold && !items[i].gold->generated && !items[i].gold->no_schema;
  double min_score = opts && opts->min_score > 0 ? opts->min_score : 0.5;
  for (int i = 0; i < n; i++) {
    item_state *it = &items[i];
    weigh_item(it, right, judged, npreds);
    sqlsim_audit_item *ai = &a->items[i];
    double keep = it->gold ? it->gold->keep : 1;
    ai->index = i;
    ai->kinds = (it->gold ? it->gold->kinds : 0) | (it->best >= 0 ? SQLSIM_AUDIT_CONSENSUS : 0);
    ai->score = 1 - (1 - it->consensus) * keep;
    ai->score = round(ai->score * 1e6) / 1e6;
    ai->flagged = ai->score >= min_score;
    ai->group = it->best >= 0 ? it->size : 0;
    for (int p = 0; p < npreds; p++) ai->agree += it->agree[p] == 1;
    if (ai->flagged && it->best >= 0 && !(opts && opts->witness < 0) && ev) show_consensus(ev, gold, preds, i, it);
    a->flagged += ai->flagged;
  }
  for (int p = 0; p < npreds; p++) {
    int all = 0, kept = 0, n_kept = 0;
    for (int i = 0; i < n; i++) {
      all += items[i].agree[p] == 1;
      if (!a->items[i].flagged) kept += items[i].agree[p] == 1, n_kept++;
    }
    a->ex[p] = (double)all / n;
    a->ex_kept[p] = n_kept ? (double)kept / n_kept : NAN;
  }
  for (int i = 0; i < n; i++) item_json(a, gold, preds, i, &items[i], right, judged, &a->items[i]);
  qsort(a->items, (size_t)n, sizeof *a->items, by_score);
done:
  if (items)
    for (int i = 0; i < n; i++) {
      free(items[i].agree);
      free(items[i].group);
      free(items[i].absent);
      free(items[i].witness);
    }
  free(items);
  free(right);
  free(judged);
  if (rc) sqlsim_audit_free(a);
  else *out = a;
  return rc;
}

int sqlsim_audit_run(const sqlsim_itemset *gold, const char *const *const *preds, const char *const *names,
                     int npreds, const sqlsim_audit_opts *opts, sqlsim_audit **out, sqlsim_error *err) {
  *out = NULL;
  if (!opts || (!opts->tables && !opts->sqlite))
    return sqlsim_error_set(err, SQLSIM_ECONFIG, -1, "audit: the schemas are needed (--tables or --sqlite)");
  if (!gold || gold->n <= 0) return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "audit: no gold items");
  if (npreds < 1) return sqlsim_error_set(err, SQLSIM_ECONFIG, -1, "audit: no prediction file (give --pred)");
  double t0 = now_s();
  sqlsim_config cfg = {.tables = opts->tables, .db_dir = opts->db_dir, .sqlite = opts->sqlite,
                       .engine = opts->engine, .dialect = opts->dialect, .timeout_s = opts->timeout_s,
                       .now = opts->fixed_now, .metrics = SQLSIM_M_BIS, .audit = 1};
  if (opts->db_dir || opts->sqlite || opts->engine) cfg.metrics |= SQLSIM_M_EXEC;
  sqlsim_evaluator *ev;
  int rc = sqlsim_evaluator_new(&cfg, &ev, err);
  if (rc) return rc;
  size_t np = (size_t)gold->n * (size_t)npreds;
  sqlsim_pair *pairs = malloc(sizeof *pairs * np);
  sqlsim_record *recs = calloc(np, sizeof *recs);
  if (!pairs || !recs) {
    rc = sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
    goto done;
  }
  for (int i = 0; i < gold->n; i++) /* gold-major: the batch prepares each gold once */
    for (int p = 0; p < npreds; p++)
      pairs[(size_t)i * (size_t)npreds + (size_t)p] = (sqlsim_pair){gold->items[i].sql, preds[p][i] ? preds[p][i] : "",
                                                                   gold->items[i].db_id};
  sqlsim_batch_opts bo = {.jobs = opts->jobs > 0 ? opts->jobs : 1};
  size_t done = sqlsim_evaluate_batch(ev, pairs, np, recs, &bo);
  if (done < np) {
    rc = sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "audit: %zu of %zu pairs scored", done, np);
    goto done;
  }
  rc = sqlsim_audit_records(ev, gold, gold->n, recs, preds, names, npreds, opts, out, err);
  if (!rc) (*out)->seconds = now_s() - t0;
done:
  for (size_t k = 0; recs && k < np; k++) sqlsim_record_clear(&recs[k]);
  free(recs);
  free(pairs);
  sqlsim_evaluator_free(ev);
  return rc;
}

void sqlsim_audit_free(sqlsim_audit *a) {
  if (!a) return;
  for (int i = 0; a->items && i < a->nitems; i++) free(a->items[i].json);
  for (int p = 0; a->systems && p < a->nsystems; p++) free(a->systems[p]);
  free(a->items);
  free(a->systems);
  free(a->weight);
  free(a->ex);
  free(a->ex_kept);
  free(a);
}

char *sqlsim_audit_summary_json(const sqlsim_audit *a) {
  strbuf sb = {0};
  sb_printf(&sb, "{\"items\":%d,\"flagged\":%d,\"with_db\":%s,\"seconds\":", a->nitems, a->flagged,
            a->with_db ? "true" : "false");
  sb_json_num(&sb, a->seconds);
  sb_puts(&sb, ",\"systems\":[");
  for (int p = 0; p < a->nsystems; p++) {
    sb_puts(&sb, p ? ",{\"name\":" : "{\"name\":");
    sb_json_str(&sb, a->systems[p]);
    sb_puts(&sb, ",\"weight\":");
    sb_json_num(&sb, a->weight[p]);
    sb_puts(&sb, ",\"ex\":");
    sb_json_num(&sb, a->ex[p]);
    sb_puts(&sb, ",\"ex_kept\":");
    sb_json_num(&sb, a->ex_kept[p]);
    sb_putc(&sb, '}');
  }
  sb_puts(&sb, "]}");
  return sb_take(&sb);
}
