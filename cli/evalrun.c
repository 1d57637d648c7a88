/* evalrun.c -- phases that fill per-item records for eval and analyze.
 *
 * Matching parses each gold once; BIS parses each gold once (and clones it
 * for the calibrated score's rewriting) and each distinct prediction once;
 * execution runs gold and predictions with -j N threads, one connection per
 * thread; timing runs serially on a fresh connection per run. */
#include "evalrun.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

rec *R(eval_ctx *c, int p, int i) { return &c->recs[(size_t)p * (size_t)c->gold->n + (size_t)i]; }

const char *model_name(const char *path) {
  const char *b = strrchr(path, '/');
  b = b ? b + 1 : path;
  const char *dot = strrchr(b, '.');
  static char buf[64][256];
  static int slot;
  char *out = buf[slot++ % 64];
  snprintf(out, 256, "%.*s", (int)(dot && dot != b ? dot - b : (long)strlen(b)), b);
  return out;
}

const char *db_path(eval_ctx *c, const char *db_id, char *buf, size_t n) {
  if (c->sqlite) return c->sqlite;
  if (!c->db_dir || !db_id) return NULL;
  char *p = sqlsim_db_path(c->db_dir, db_id, NULL);
  if (!p) return NULL;
  snprintf(buf, n, "%s", p);
  free(p);
  return access(buf, R_OK) == 0 ? buf : NULL;
}

int check_setup(eval_ctx *c, int need_db, int need_schema) {
  int n = c->gold->n;
  if (n == 0) return error("%s: no gold queries in it, so nothing to score", c->gold_path ? c->gold_path : "--gold");
  if (need_db && c->db_dir && n > 0) {
    int found = 0, first = -1;
    char buf[1024];
    for (int i = 0; i < n && !found; i++) {
      if (db_path(c, c->gold->items[i].db_id, buf, sizeof buf)) found = 1;
      if (first < 0 && c->gold->items[i].db_id && !sqlsim_check_db_id(c->gold->items[i].db_id, NULL)) first = i;
    }
    if (!found) {
      char *eg = first >= 0 ? sqlsim_db_path(c->db_dir, c->gold->items[first].db_id, NULL) : NULL;
      error("--db-dir %s: no database for any of the %d gold items (expected DIR/<db_id>/<db_id>.sqlite%s%s)",
            c->db_dir, n, eg ? ", e.g. " : "", eg ? eg : "");
      free(eg);
      return -1;
    }
  }
  if (need_schema && c->catalog && !c->sqlite && n > 0) {
    int found = 0, first = -1;
    for (int i = 0; i < n && !found; i++) {
      const char *id = c->gold->items[i].db_id;
      if (id && sqlsim_catalog_find(c->catalog, id)) found = 1;
      if (id && first < 0) first = i;
    }
    if (!found && first >= 0)
      return error("--tables: no schema for any gold db_id (the first is '%.100s'): is it the tables.json of this "
                   "benchmark?",
                   c->gold->items[first].db_id);
  }
  return 0;
}

void set_gold_err(eval_ctx *c, int i, const char *msg) {
  pthread_mutex_lock(&c->mu);
  if (!c->gold_err[i]) c->gold_err[i] = strdup(msg);
  pthread_mutex_unlock(&c->mu);
}

/* ---------------------------------------------------------------- match */

void phase_match(eval_ctx *c) {
  sqlsim_spider *ev;
  sqlsim_spider_new(c->catalog, c->db_dir, c->mode, &ev, NULL);
  for (int i = 0; i < c->gold->n; i++) {
    const sqlsim_item *gi = &c->gold->items[i];
    sqlsim_spider_gold *g = NULL;
    sqlsim_error err = {0};
    if (sqlsim_spider_gold_prepare(ev, gi->sql, gi->db_id, &g, &err)) {
      if (c->metrics & M_MATCH) c->match_err[i] = strdup(err.message);
      continue;
    }
    c->hardness[i] = sqlsim_spider_gold_hardness(g);
    for (int p = 0; (c->metrics & M_MATCH) && p < c->npreds; p++) {
      rec *r = R(c, p, i);
      sqlsim_spider_score_pred(ev, g, c->pred[p]->items[i].sql, &r->match);
      r->has_match = 1;
    }
    sqlsim_spider_gold_free(g);
  }
  sqlsim_spider_free(ev);
}

/* ---------------------------------------------------------------- BIS */

const sqlsim_schema *schema_of(eval_ctx *c, const char *db_id) {
  if (!c->catalog) return NULL;
  if (c->sqlite || sqlsim_catalog_count(c->catalog) == 1) return sqlsim_catalog_at(c->catalog, 0);
  return db_id ? sqlsim_catalog_find(c->catalog, db_id) : NULL;
}

/* The byte spans of the edits that count, on each side, for highlighting. */
static void collect_spans(eval_ctx *c, const sqlsim_diff *d, rec *r) {
  int ng = 0, np = 0;
  for (int k = 0; k < d->nedits; k++) {
    const sqlsim_edit *e = &d->edits[k];
    if (e->weight <= 0) continue;
    ng += e->gold_content && e->gold_content->start >= 0;
    np += e->pred_content && e->pred_content->start >= 0;
  }
  r->gspans = sqlsim_arena_alloc(c->arena, sizeof(int) * (size_t)(2 * ng + 1));
  r->pspans = sqlsim_arena_alloc(c->arena, sizeof(int) * (size_t)(2 * np + 1));
  for (int k = 0; k < d->nedits; k++) {
    const sqlsim_edit *e = &d->edits[k];
    if (e->weight <= 0) continue;
    const sqlsim_node *g = e->gold_content, *p = e->pred_content;
    if (g && g->start >= 0) {
      r->gspans[2 * r->ngspans] = g->start;
      r->gspans[2 * r->ngspans + 1] = g->end > g->start ? g->end : g->start + 1;
      r->ngspans++;
    }
    if (p && p->start >= 0) {
      r->pspans[2 * r->npspans] = p->start;
      r->pspans[2 * r->npspans + 1] = p->end > p->start ? p->end : p->start + 1;
      r->npspans++;
    }
  }
}

/* Gold parsed twice (as written, and with equivalent forms made one), once per
 * item; each prediction parsed once and diffed against both. */
void phase_bis(eval_ctx *c) {
  for (int i = 0; i < c->gold->n; i++) {
    const sqlsim_item *gi = &c->gold->items[i];
    const sqlsim_schema *schema = schema_of(c, gi->db_id);
    sqlsim_query *g = NULL, *ge = NULL;
    sqlsim_error err = {0};
    if (sqlsim_parse(gi->sql, strlen(gi->sql), schema, 0, &g, &err) || !(ge = sqlsim_query_clone(g))) {
      char msg[600];
      snprintf(msg, sizeof msg, "the gold query does not parse (offset %d): %.500s", err.offset, err.message);
      set_gold_err(c, i, msg);
      sqlsim_query_free(g);
      continue;
    }
    sqlsim_equiv_normalize(ge);
    for (int p = 0; p < c->npreds; p++) {
      rec *r = R(c, p, i);
      const char *psql = c->pred[p]->items[i].sql;
      sqlsim_query *q;
      r->has_bis = 1;
      /* several models (or samples) often write the very same query: score it once */
      int same = -1;
      for (int o = 0; o < p && same < 0; o++)
        if (sqlsim_same_text(c->pred[o]->items[i].sql, psql)) same = o;
      if (same >= 0) {
        rec *s = R(c, same, i);
        r->bis = s->bis;
        r->score = s->score;
        memcpy(r->bis_err, s->bis_err, sizeof r->bis_err);
        r->dialect = s->dialect;
        r->cats = s->cats;
        r->gspans = s->gspans;
        r->pspans = s->pspans;
        r->ngspans = s->ngspans;
        r->npspans = s->npspans;
        continue;
      }
      if (sqlsim_parse(psql, strlen(psql), schema, 0, &q, &err)) {
        snprintf(r->bis_err, sizeof r->bis_err, "the prediction does not parse (offset %d): %.200s", err.offset,
                 err.message);
        if (c->want_categories) {
          r->cats.mask = 1u << SQLSIM_CAT_UNPARSEABLE;
          r->cats.evidence[SQLSIM_CAT_UNPARSEABLE] = sqlsim_arena_strdup(c->arena, r->bis_err);
          if (err.offset >= 0) {
            r->pspans = sqlsim_arena_alloc(c->arena, sizeof(int) * 2);
            r->pspans[0] = err.offset;
            r->pspans[1] = err.offset + 1;
            r->npspans = 1;
          }
        }
        continue; /* bis = score = 0 */
      }
      if (c->want_categories) sqlsim_dialect_construct(q, c->arena, &r->dialect);
      sqlsim_diff *d;
      if (sqlsim_diff_trees(g->root, q->root, &d, &err) == 0) {
        r->bis = d->bis;
        sqlsim_diff_free(d);
      }
      sqlsim_equiv_normalize(q);
      if (sqlsim_diff_trees(ge->root, q->root, &d, &err) == 0) {
        r->score = d->score;
        if (c->want_categories) {
          sqlsim_categorize_diff(d, c->arena, &r->cats);
          collect_spans(c, d, r);
        }
        sqlsim_diff_free(d);
      }
      sqlsim_query_free(q);
    }
    sqlsim_query_free(g);
    sqlsim_query_free(ge);
  }
}

/* ---------------------------------------------------------------- execution */

typedef struct conn_cache {
  char path[1024];
  sqlsim_db *db;
} conn_cache;

static sqlsim_db *cached_db(eval_ctx *c, conn_cache *cc, const char *path) {
  if (cc->db && !strcmp(cc->path, path)) return cc->db;
  sqlsim_db_close(cc->db);
  cc->db = NULL;
  sqlsim_exec_opts o = {0};
  o.timeout_s = c->timeout;
  o.fixed_now = c->now;
  snprintf(cc->path, sizeof cc->path, "%s", path);
  if (sqlsim_db_open(path, &o, &cc->db, NULL)) cc->db = NULL;
  return cc->db;
}

static void exec_item(eval_ctx *c, conn_cache *cc, int i) {
  const sqlsim_item *gi = &c->gold->items[i];
  char buf[1024];
  const char *path = db_path(c, gi->db_id, buf, sizeof buf);
  if (!path) {
    char msg[400];
    sqlsim_error e = {0};
    if (c->db_dir && gi->db_id && sqlsim_check_db_id(gi->db_id, &e)) snprintf(msg, sizeof msg, "%.390s", e.message);
    else snprintf(msg, sizeof msg, "no database for db_id '%.200s'", gi->db_id ? gi->db_id : "");
    set_gold_err(c, i, msg);
    return;
  }
  sqlsim_db *db = cached_db(c, cc, path);
  if (!db) {
    set_gold_err(c, i, "the database cannot be opened");
    return;
  }
  sqlsim_result graw, gsp;
  sqlsim_exec_flags(db, gi->sql, SQLSIM_EXEC_VALUES, &graw);
  if (graw.status != SQLSIM_EXEC_OK) {
    char msg[300];
    snprintf(msg, sizeof msg, "the gold query fails: %s", graw.reason);
    set_gold_err(c, i, msg);
    sqlsim_result_free(&graw);
    return;
  }
  /* Spider's semantics run the texts with DISTINCT removed. */
  char *gtext = sqlsim_spider_exec_text(gi->sql);
  int ordered = sqlsim_spider_order_matters(gtext);
  int same_text = !strcmp(gtext, gi->sql);
  if (!same_text) sqlsim_exec(db, gtext, &gsp);
  for (int p = 0; p < c->npreds; p++) {
    rec *r = R(c, p, i);
    const char *psql = c->pred[p]->items[i].sql;
    sqlsim_result praw;
    sqlsim_exec_flags(db, psql, SQLSIM_EXEC_VALUES, &praw);
    r->gold_rows = graw.nrows;
    r->pred_rows = praw.status == SQLSIM_EXEC_OK ? praw.nrows : -1;
    if (praw.status != SQLSIM_EXEC_OK) {
      snprintf(r->ex_err, sizeof r->ex_err, "%s", praw.reason);
      r->ex_bird = r->ex_spider = 0;
      if (c->metrics & M_RESULT) r->has_rsim = 1; /* all zero */
      sqlsim_result_free(&praw);
      continue;
    }
    r->ex_bird = sqlsim_ex_bird(&graw, &praw);
    if (c->metrics & M_RESULT) {
      sqlsim_result_similarity(&graw, &praw, graw.nrows > 1 && ordered, &r->rsim);
      r->has_rsim = 1;
    }
    char *ptext = sqlsim_spider_exec_text(psql);
    if (same_text && !strcmp(ptext, psql)) {
      r->ex_spider = sqlsim_ex_spider(&graw, &praw, ordered);
    } else {
      sqlsim_result psp;
      sqlsim_exec(db, ptext, &psp);
      const sqlsim_result *g = same_text ? &graw : &gsp;
      r->ex_spider = psp.status == SQLSIM_EXEC_OK && g->status == SQLSIM_EXEC_OK &&
                     sqlsim_ex_spider(g, &psp, ordered);
      sqlsim_result_free(&psp);
    }
    free(ptext);
    sqlsim_result_free(&praw);
  }
  if (!same_text) sqlsim_result_free(&gsp);
  free(gtext);
  sqlsim_result_free(&graw);
}

static void *exec_worker(void *arg) {
  eval_ctx *c = arg;
  conn_cache cc = {{0}, NULL};
  for (;;) {
    pthread_mutex_lock(&c->mu);
    int i = c->next_item++;
    pthread_mutex_unlock(&c->mu);
    if (i >= c->gold->n) break;
    exec_item(c, &cc, i);
  }
  sqlsim_db_close(cc.db);
  sqlsim_thread_cleanup();
  return NULL;
}

void phase_exec(eval_ctx *c) {
  for (int p = 0; p < c->npreds; p++)
    for (int i = 0; i < c->gold->n; i++) {
      R(c, p, i)->ex_bird = R(c, p, i)->ex_spider = -1;
      R(c, p, i)->gold_rows = R(c, p, i)->pred_rows = -1;
    }
  int jobs = c->jobs > 0 ? c->jobs : 1;
  pthread_t *th = calloc((size_t)jobs, sizeof *th);
  for (int t = 0; t < jobs; t++) pthread_create(&th[t], NULL, exec_worker, c);
  for (int t = 0; t < jobs; t++) pthread_join(th[t], NULL);
  free(th);
}

/* ---------------------------------------------------------------- timing */

static void progress(int done, int total, double started) {
  if (!isatty(2)) return;
  double el = (double)time(NULL) - started;
  int w = 40, filled = total ? done * w / total : w;
  fprintf(stderr, "\rtiming [");
  for (int k = 0; k < w; k++) fputc(k < filled ? '#' : '.', stderr);
  fprintf(stderr, "] %d/%d pairs", done, total);
  if (done > 0 && done < total) fprintf(stderr, ", about %.0f s left", el / done * (total - done));
  if (done == total) fputc('\n', stderr);
  fflush(stderr);
}

void phase_timing(eval_ctx *c) {
  sqlsim_timing_opts o = {0};
  o.iterations = c->iterations;
  o.timeout_s = c->timeout;
  o.fixed_now = c->now;
  o.alternate = c->alternate;
  int total = 0, done = 0;
  for (int p = 0; p < c->npreds; p++)
    for (int i = 0; i < c->gold->n; i++) total += R(c, p, i)->ex_bird == 1;
  double started = (double)time(NULL);
  for (int p = 0; p < c->npreds; p++)
    for (int i = 0; i < c->gold->n; i++) {
      rec *r = R(c, p, i);
      if (r->ex_bird != 1) continue; /* the correctness gate */
      char buf[1024];
      const char *path = db_path(c, c->gold->items[i].db_id, buf, sizeof buf);
      sqlsim_time_pair(path, c->gold->items[i].sql, c->pred[p]->items[i].sql, &o, &r->timing);
      r->has_timing = 1;
      progress(++done, total, started);
    }
}

/* The group an item is reported in: BIRD difficulty, BIS case_type, or the
 * Spider hardness. */
const char *group_of(eval_ctx *c, int i) {
  const sqlsim_item *g = &c->gold->items[i];
  if (g->difficulty) return g->difficulty;
  if (g->case_type) return g->case_type;
  if (c->hardness[i] != SQLSIM_HARD_UNKNOWN) return sqlsim_hardness_names[c->hardness[i]];
  return NULL;
}

