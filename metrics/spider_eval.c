/* spider_eval.c -- the Spider evaluator: gold parsed once, predictions scored
 * against it, totals by hardness.
 *
 * Per db_id the evaluator keeps the schema as the official evaluator sees it
 * (sp_schema), built on first use. A prepared gold holds its parsed form for
 * the mode (and, in corrected mode, the official parse too when it exists, for
 * the official hardness). Every prediction is parsed into a scratch arena
 * that is reset after scoring, so scoring N files costs no more memory than
 * scoring one. */
#include "spider.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

const char *const sqlsim_spider_partial_names[SQLSIM_SPIDER_NPARTIAL] = {
    "select", "select_no_agg", "where", "where_no_op", "group_no_having",
    "group",  "order",         "and_or", "iuen",        "keywords"};
const char *const sqlsim_spider_partial_labels[SQLSIM_SPIDER_NPARTIAL] = {
    "select", "select(no AGG)", "where", "where(no OP)", "group(no Having)",
    "group",  "order",          "and/or", "IUEN",        "keywords"};
const char *const sqlsim_hardness_names[5] = {"easy", "medium", "hard", "extra", "unknown"};

typedef struct schema_entry {
  const char *db_id;
  sp_schema *sp;
  const sqlsim_schema *schema;
  UT_hash_handle hh;
} schema_entry;

struct sqlsim_spider {
  const sqlsim_catalog *cat;
  const char *db_dir;
  int mode;
  sqlsim_arena *arena;   /* schemas */
  sqlsim_arena *scratch; /* one prediction at a time */
  schema_entry *schemas;
};

struct sqlsim_spider_gold {
  sqlsim_arena *arena;   /* the gold's own: it goes with sqlsim_spider_gold_free */
  const char *db_id;
  schema_entry *se;
  sp_val *sql;           /* rebuilt, ready to compare */
  int hardness;
};

int sqlsim_spider_new(const sqlsim_catalog *cat, const char *db_dir, int mode, sqlsim_spider **out,
                      sqlsim_error *err) {
  (void)err;
  sqlsim_spider *e = calloc(1, sizeof *e);
  e->cat = cat;
  e->db_dir = db_dir;
  e->mode = mode;
  e->arena = sqlsim_arena_new();
  e->scratch = arena_new_sized(64 * 1024);
  *out = e;
  return 0;
}

void sqlsim_spider_free(sqlsim_spider *e) {
  if (!e) return;
  schema_entry *se, *tmp;
  HASH_ITER(hh, e->schemas, se, tmp) sp_schema_release(se->sp);
  HASH_CLEAR(hh, e->schemas);
  sqlsim_arena_free(e->arena);
  sqlsim_arena_free(e->scratch);
  free(e);
}

static schema_entry *schema_for(sqlsim_spider *e, const char *db_id) {
  schema_entry *se;
  HASH_FIND_STR(e->schemas, db_id, se);
  if (se) return se;
  se = sqlsim_arena_alloc(e->arena, sizeof *se);
  se->db_id = sqlsim_arena_strdup(e->arena, db_id);
  se->schema = sqlsim_catalog_find(e->cat, db_id);
  char *p = e->db_dir ? sqlsim_db_path(e->db_dir, db_id, NULL) : NULL; /* NULL for a db_id that is a path */
  const char *path = p ? sqlsim_arena_strdup(e->arena, p) : NULL;
  free(p);
  se->sp = sp_schema_build(e->arena, se->schema, e->mode == SQLSIM_SPIDER_COMPATIBLE ? path : NULL);
  HASH_ADD_KEYPTR(hh, e->schemas, se->db_id, strlen(se->db_id), se);
  return se;
}

/* The official reader takes the line's text before the first tab, stripped;
 * tabs inside a query are white space to SQLite, so they become spaces. */
static char *official_text(sqlsim_arena *a, const char *sql, int is_pred) {
  size_t n = strlen(sql);
  while (n && strchr(" \t\r\n\v\f", sql[n - 1])) n--;
  while (n && strchr(" \t\r\n\v\f", *sql)) sql++, n--;
  char *r = arena_alloc_raw(a, n + 1), *w = r; /* never longer than the input */
  for (size_t i = 0; i < n; i++) {
    if (is_pred && sql[i] == ' ' && !strncmp(sql + i, " value ", 7)) { /* may read the trimmed end, as before */
      memcpy(w, " 1 ", 3); /* the official replace(" value ", " 1 ") */
      w += 3;
      i += 6;
      continue;
    }
    *w++ = sql[i] == '\t' ? ' ' : sql[i];
  }
  *w = '\0';
  return r;
}

/* Reads a query in the evaluator's mode into arena a: the rebuilt sp_val, or
 * NULL with err. official_hardness, when not NULL, gets the hardness of the
 * official parse (-1 if the official parser rejects it). */
static sp_val *read_query(sqlsim_spider *e, sqlsim_arena *a, schema_entry *se, const char *sql,
                          int is_pred, int *official_hardness, sqlsim_error *err) {
  char why[512];
  sp_val *v = NULL;
  if (official_hardness) *official_hardness = -1;
  if (e->mode == SQLSIM_SPIDER_COMPATIBLE || official_hardness) {
    v = sp_official_parse(a, se->sp, official_text(a, sql, is_pred), why, sizeof why);
    if (v && official_hardness) *official_hardness = sp_hardness(v);
    if (e->mode == SQLSIM_SPIDER_COMPATIBLE) {
      if (!v) {
        sqlsim_error_set(err, SQLSIM_EUNSUPPORTED, -1, "the official Spider parser rejects it: %s", why);
        return NULL;
      }
      sp_official_rebuild(a, se->sp, v);
      return v;
    }
  }
  sqlsim_query *q;
  if (sqlsim_parse(sql, strlen(sql), se->schema, 0, &q, err)) return NULL;
  v = sp_corrected_build(a, se->sp, q);
  sqlsim_query_free(q);
  sp_official_rebuild(a, se->sp, v);
  return v;
}

int sqlsim_spider_gold_prepare(sqlsim_spider *e, const char *sql, const char *db_id,
                               sqlsim_spider_gold **out, sqlsim_error *err) {
  *out = NULL;
  if (!db_id || !sqlsim_catalog_find(e->cat, db_id))
    return sqlsim_error_set(err, SQLSIM_ENOTFOUND, -1, "unknown db_id '%s'", db_id ? db_id : "");
  schema_entry *se = schema_for(e, db_id);
  int hard = -1;
  sqlsim_arena *ga = sqlsim_arena_new();
  sp_val *v = read_query(e, ga, se, sql, 0, &hard, err);
  if (!v) {
    sqlsim_arena_free(ga);
    return err && err->code ? err->code : SQLSIM_ESYNTAX;
  }
  sqlsim_spider_gold *g = sqlsim_arena_alloc(ga, sizeof *g);
  g->arena = ga;
  g->db_id = se->db_id;
  g->se = se;
  g->sql = v;
  /* The official hardness; in corrected mode, for a gold the official parser
   * cannot read, the same formula on sqlsim's reading. */
  g->hardness = hard >= 0 ? hard : sp_hardness(v);
  *out = g;
  return 0;
}

int sqlsim_spider_gold_hardness(const sqlsim_spider_gold *g) { return g->hardness; }

void sqlsim_spider_gold_free(sqlsim_spider_gold *g) {
  if (g) sqlsim_arena_free(g->arena);
}

void sqlsim_spider_score_pred(sqlsim_spider *e, const sqlsim_spider_gold *g, const char *pred,
                              sqlsim_spider_score *out) {
  memset(out, 0, sizeof *out);
  out->hardness = g->hardness;
  sqlsim_arena *a = e->scratch;
  sp_val *p = read_query(e, a, g->se, pred, 1, NULL, &out->error);
  if (!p) {
    out->pred_rejected = 1;
    p = sp_empty_sql(a);
  }
  sp_item_score s;
  if (sp_match(a, p, g->sql, &s)) {
    /* Python would raise comparing two different FROM subqueries: the
     * official run stops there; we score the item 0 and say so. */
    s.exact = 0;
    if (!out->error.code)
      sqlsim_error_set(&out->error, SQLSIM_EUNSUPPORTED, -1,
                       "the official evaluator raises TypeError comparing the FROM subqueries");
  }
  out->exact = s.exact;
  for (int k = 0; k < SP__NPARTIAL; k++) {
    out->f1[k] = s.f1[k];
    out->pred_total[k] = s.pred_total[k];
    out->label_total[k] = s.label_total[k];
  }
  arena_reset(a);
}

void sqlsim_spider_totals_add(sqlsim_spider_totals *t, const sqlsim_spider_score *s) {
  int levels[2] = {s->hardness < 4 ? s->hardness : -1, 4};
  for (int i = 0; i < 2; i++) {
    int l = levels[i];
    if (l < 0) continue;
    t->count[l]++;
    t->exact[l] += s->exact;
    for (int k = 0; k < SP__NPARTIAL; k++) {
      if (s->pred_total[k] > 0) {
        t->acc[l][k] += s->f1[k];
        t->acc_count[l][k]++;
      }
      if (s->label_total[k] > 0) {
        t->rec[l][k] += s->f1[k];
        t->rec_count[l][k]++;
      }
    }
  }
  t->rejected += s->pred_rejected;
}

void sqlsim_spider_totals_final(const sqlsim_spider_totals *t, int mode, int l, double *exact,
                                double acc[], double rec[], double f1[]) {
  *exact = t->count[l] ? t->exact[l] / t->count[l] : 0;
  for (int k = 0; k < SP__NPARTIAL; k++) {
    acc[k] = t->acc_count[l][k] ? t->acc[l][k] / t->acc_count[l][k] : 0;
    rec[k] = t->rec_count[l][k] ? t->rec[l][k] / t->rec_count[l][k] : 0;
    if (acc[k] == 0 && rec[k] == 0) {
      if (mode == SQLSIM_SPIDER_COMPATIBLE) f1[k] = 1; /* the official quirk */
      else f1[k] = (t->acc_count[l][k] || t->rec_count[l][k]) ? 0 : NAN;
    } else {
      f1[k] = 2.0 * acc[k] * rec[k] / (acc[k] + rec[k]);
    }
  }
}
