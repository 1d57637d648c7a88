/* realm.c -- a gold's realistic databases, for the audit: K databases made
 * as real data looks (synth_shape.realistic: every table filled, the gold's
 * literals as it writes them and no other case beside them, a child's keys
 * to one parent naming one parent row, dates with their times) from the
 * schema and the gold's facts alone. They are the same for every system's
 * prediction of the gold, so each prediction's answers there can be
 * compared with every other's as on the item's own database: systems
 * grouped by their answers, not judged against the gold on databases made
 * to refute it (docs/audit.md says why).
 *
 * Each database is kept as an image of the runner's connection for the
 * schema (synth_slot), with the gold's answer there; a prediction is run on
 * each in turn, and its answers hashed as the audit compares answers: a set
 * of rows, the columns in an order of their own (ex_answer_hash). */
#include "synth.h"
#include "metrics/ex.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#define REALM_K 6
#define REALM_SEED 0x7ea1d47aULL
#define WITNESS_ROWS 20

struct synth_realm {
  char *ddl;               /* the schema's text: the slot its images load into */
  const sqlsim_schema *s;
  char *gold_sql;          /* as run */
  int n;
  unsigned char *img[REALM_K];
  sqlite3_int64 len[REALM_K];
  unsigned char *filled[REALM_K];
  sqlsim_result gold[REALM_K]; /* the gold's answer on each (its status says whether it ran) */
  int informative;         /* the gold returned a row (not only NULLs) on one of them */
};

void synth_realm_free(synth_realm *r) {
  if (!r) return;
  for (int k = 0; k < r->n; k++) {
    free(r->img[k]);
    free(r->filled[k]);
    sqlsim_result_free(&r->gold[k]);
  }
  free(r->ddl);
  free(r->gold_sql);
  free(r);
}

synth_realm *synth_realm_make(sqlsim_synth_runner *x, const sqlsim_query *gold, const char *gold_sql,
                              sqlsim_error *err) {
  if (!gold || !gold->schema) {
    sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "the gold must be parsed with its schema");
    return NULL;
  }
  const sqlsim_schema *s = gold->schema;
  synth_slot *sl = synth_slot_for(x, s, err);
  if (!sl) return NULL;
  synth_realm *r = calloc(1, sizeof *r);
  synth_facts *f = synth_facts_read(s, gold, NULL);
  if (!r || !f || !(r->ddl = strdup(sl->ddl)) || !(r->gold_sql = strdup(gold_sql))) {
    synth_facts_free(f);
    synth_realm_free(r);
    sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
    return NULL;
  }
  r->s = s;
  f->checks = synth_slot_checks(sl);
  f->no_nulls = synth_runner_opts(x)->assume_not_null;
  for (int k = 0; k < REALM_K; k++) {
    synth_shape sh = synth_shape_of(k, REALM_SEED);
    sh.realistic = 1;
    char why[200];
    if (synth_slot_fill(x, sl, f, &sh, why, sizeof why)) {
      sqlsim_error_set(err, SQLSIM_ESQLITE, -1, "realistic database %d: %s", k + 1, why);
      break;
    }
    sqlite3_int64 len = 0;
    void *saved; /* inside the connection's memory account, its own statements allowed */
    exec_enter(sl->db, 10, &saved);
    exec_trust(sl->db, 1);
    unsigned char *b = sqlite3_serialize(exec_handle(sl->db), "main", &len, 0);
    exec_trust(sl->db, 0);
    exec_leave(sl->db, saved);
    r->img[k] = b ? malloc((size_t)len) : NULL;
    r->filled[k] = malloc((size_t)sl->ntables + 1);
    if (!r->img[k] || !r->filled[k]) {
      exec_enter(sl->db, 10, &saved);
      sqlite3_free(b);
      exec_leave(sl->db, saved);
      free(r->img[k]);
      free(r->filled[k]);
      sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
      break;
    }
    memcpy(r->img[k], b, (size_t)len);
    memcpy(r->filled[k], sl->filled, (size_t)sl->ntables);
    exec_enter(sl->db, 10, &saved);
    sqlite3_free(b);
    exec_leave(sl->db, saved);
    r->len[k] = len;
    synth_exec(sl->db, gold_sql, SQLSIM_EXEC_VALUES, &r->gold[k]);
    if (r->gold[k].status == SQLSIM_EXEC_OK && synth_informative(&r->gold[k])) r->informative = 1;
    r->n++;
  }
  synth_facts_free(f);
  if (r->n < REALM_K) {
    synth_realm_free(r);
    return NULL;
  }
  return r;
}

int synth_realm_informative(const synth_realm *r) { return r->informative; }

int synth_realm_gold_ran(const synth_realm *r) {
  for (int k = 0; k < r->n; k++)
    if (r->gold[k].status != SQLSIM_EXEC_OK) return 0;
  return 1;
}

sqlsim_db *synth_realm_load(sqlsim_synth_runner *x, synth_realm *r, int k) {
  sqlsim_error err = {0};
  synth_slot *sl = synth_slot_for(x, r->s, &err);
  if (!sl || strcmp(sl->ddl, r->ddl) || k < 0 || k >= r->n) return NULL;
  return synth_slot_image(x, sl, r->img[k], r->len[k], r->filled[k]) ? NULL : sl->db;
}

int synth_realm_answer(sqlsim_synth_runner *x, synth_realm *r, const char *sql, uint64_t *hash, int *same) {
  *hash = 0;
  *same = 0;
  uint64_t h = FNV_OFFSET;
  int all = 1;
  for (int k = 0; k < r->n; k++) {
    sqlsim_db *db = synth_realm_load(x, r, k);
    if (!db) return -1;
    sqlsim_result p;
    synth_exec(db, sql, SQLSIM_EXEC_VALUES, &p);
    if (p.status != SQLSIM_EXEC_OK) { /* it fails: no answer, not the gold's */
      sqlsim_result_free(&p);
      return 0;
    }
    h = fnv1a_word(h, ex_answer_hash(&p));
    if (r->gold[k].status != SQLSIM_EXEC_OK || !ex_sets_any_column_order(&r->gold[k], &p)) all = 0;
    sqlsim_result_free(&p);
  }
  *hash = h ? h : 1;
  *same = r->informative ? all : -1;
  return 0;
}

sqlsim_witness *synth_realm_witness(sqlsim_synth_runner *x, synth_realm *r, const char *sql) {
  for (int k = 0; k < r->n; k++) {
    sqlsim_db *db = synth_realm_load(x, r, k);
    if (!db) return NULL;
    sqlsim_result p;
    synth_exec(db, sql, SQLSIM_EXEC_VALUES, &p);
    int differ = p.status != SQLSIM_EXEC_OK || r->gold[k].status != SQLSIM_EXEC_OK ||
                 !ex_sets_any_column_order(&r->gold[k], &p);
    sqlsim_result_free(&p);
    if (!differ) continue;
    synth_slot *sl = synth_slot_for(x, r->s, NULL);
    synth_data *d = NULL;
    void *saved;
    exec_enter(db, 10, &saved);
    exec_trust(db, 1);
    int rc = synth_data_read(exec_handle(db), r->s, sl->filled, &d);
    exec_trust(db, 0);
    exec_leave(db, saved);
    sqlsim_witness *w = rc ? NULL : calloc(1, sizeof *w);
    if (!w) {
      synth_data_free(d);
      return NULL;
    }
    for (int t = 0; t < r->s->ntables; t++) d->on[t] = d->nrows[t] > 0;
    const synth_mirror *m = exec_user(db);
    w->verdict = "synth";
    w->database = m && m->engine && m->ddl ? synth_mirror_sql(m, d) : synth_data_sql(d);
    w->tables = synth_data_json(d);
    w->rows = synth_data_size(d);
    w->gold_sql = strdup(r->gold_sql);
    w->pred_sql = strdup(sql);
    char *gerr = NULL;
    w->gold_rows = synth_rows_json(db, r->gold_sql, NULL, 0, WITNESS_ROWS, &w->gold_count, &gerr);
    free(gerr);
    w->pred_rows = synth_rows_json(db, sql, NULL, 0, WITNESS_ROWS, &w->pred_count, &w->pred_error);
    synth_data_free(d);
    return w;
  }
  return NULL;
}
