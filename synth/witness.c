/* witness.c -- the database that proves a prediction wrong, made small.
 *
 * A failing verdict names a database on which the two queries' answers
 * differ. That database is shrunk while it still tells them apart (the same
 * comparison as the verdict: the semantics, ties at the gold's LIMIT set
 * aside, and for the synth verdict a gold that returns a value) and still
 * satisfies the schema: each table emptied, then its rows removed in halves,
 * quarters, ... down to one at a time (Zeller's delta debugging, greedily),
 * the rows that lose their parent going with it; then long text cut short;
 * within WITNESS_PROBES databases and WITNESS_TIME query limits. A prediction
 * that ran past its limits there is not run again: its database is the
 * witness as it is, with the error.
 * The witness is that database as SQL text (CREATE TABLE and INSERT, which
 * plain sqlite3 loads) with both answers, at most 20 rows each, and their
 * counts. Entry point: synth_witness_make (synth.h). */
#include "synth.h"

#include <stdlib.h>
#include <string.h>

#define WITNESS_PROBES 400 /* databases tried while shrinking */
#define WITNESS_TIME 1     /* ... for at most this many query limits of query runs (a prediction
                            that runs to its limit is not run 400 times) */
#define WITNESS_ROWS 20    /* rows of each answer shown */

void sqlsim_witness_free(sqlsim_witness *w) {
  if (!w) return;
  free(w->database);
  free(w->tables);
  free(w->gold_sql);
  free(w->pred_sql);
  free(w->gold_rows);
  free(w->pred_rows);
  free(w->pred_error);
  free(w);
}

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

sqlsim_witness *sqlsim_witness_copy(const sqlsim_witness *w) {
  if (!w) return NULL;
  sqlsim_witness *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  *c = *w;
  c->database = dup_or_null(w->database);
  c->tables = dup_or_null(w->tables);
  c->gold_sql = dup_or_null(w->gold_sql);
  c->pred_sql = dup_or_null(w->pred_sql);
  c->gold_rows = dup_or_null(w->gold_rows);
  c->pred_rows = dup_or_null(w->pred_rows);
  c->pred_error = dup_or_null(w->pred_error);
  if ((w->database && !c->database) || (w->tables && !c->tables) || (w->gold_sql && !c->gold_sql) ||
      (w->pred_sql && !c->pred_sql) || (w->gold_rows && !c->gold_rows) || (w->pred_rows && !c->pred_rows) ||
      (w->pred_error && !c->pred_error)) {
    sqlsim_witness_free(c);
    return NULL;
  }
  return c;
}

typedef struct shrink {
  synth_env *e;
  const char *gold_text, *pred_text;
  int informative;
  int probes;
  double spent; /* seconds of query runs */
} shrink;

/* Does d tell the two queries apart (and is it a database the schema allows)? */
static int tells(shrink *k, const synth_data *d) {
  char why[256];
  if (k->probes >= WITNESS_PROBES || k->spent > WITNESS_TIME * k->e->limit_s) return 0;
  k->probes++;
  if (!synth_data_valid(d, why, sizeof why) || synth_env_load(k->e, d, why, sizeof why)) return 0;
  sqlsim_result g, p;
  synth_exec(k->e->db, k->gold_text, SQLSIM_EXEC_VALUES, &g);
  k->spent += g.total_s;
  int yes = 0;
  if (g.status == SQLSIM_EXEC_OK && (!k->informative || synth_informative(&g))) {
    synth_exec(k->e->db, k->pred_text, SQLSIM_EXEC_VALUES, &p);
    k->spent += p.total_s;
    /* the verdict's comparison: synth sets ties aside, strict only where
     * they could decide */
    yes = (k->informative ? synth_judge(k->e, &g, &p) : synth_judge_strict(k->e, &g, &p)) == SYNTH_DIFFER;
    sqlsim_result_free(&p);
  }
  sqlsim_result_free(&g);
  return yes;
}

/* d without rows [from, from + n) of table t (and the rows that lose their
 * parent), or NULL. */
static synth_data *without(const synth_data *d, int t, int from, int n) {
  synth_data *c = synth_data_copy(d);
  if (!c) return NULL;
  for (int r = from + n - 1; r >= from; r--)
    if (r < c->nrows[t]) synth_data_delete_row(c, t, r);
  synth_data_cascade(c);
  return c;
}

/* Keeps c in *d when it still tells the queries apart; frees the loser. */
static int take(shrink *k, synth_data **d, synth_data *c) {
  if (!c) return 0;
  if (tells(k, c)) {
    synth_data_free(*d);
    *d = c;
    return 1;
  }
  synth_data_free(c);
  return 0;
}

static void shrink_rows(shrink *k, synth_data **d) {
  const sqlsim_schema *s = (*d)->s;
  for (int t = 0; t < s->ntables; t++)
    if ((*d)->nrows[t]) take(k, d, without(*d, t, 0, (*d)->nrows[t]));
  for (int t = 0; t < s->ntables; t++) {
    for (int size = (*d)->nrows[t] / 2; size >= 1; size /= 2)
      for (int from = 0; from < (*d)->nrows[t] && k->probes < WITNESS_PROBES;) {
        if (!take(k, d, without(*d, t, from, size))) from += size;
      }
  }
}

/* Long text cut to its first characters, where the answers still differ. */
static void shrink_values(shrink *k, synth_data **d) {
  const sqlsim_schema *s = (*d)->s;
  for (int t = 0; t < s->ntables; t++)
    for (int r = 0; r < (*d)->nrows[t]; r++)
      for (int i = 0; i < s->tables[t].ncolumns && k->probes < WITNESS_PROBES; i++) {
        const synth_val *v = &synth_data_row(*d, t, r)[i];
        if (v->kind != 't' || strlen(v->t) <= 12) continue;
        synth_data *c = synth_data_copy(*d);
        if (!c) return;
        synth_val *w = &synth_data_row(c, t, r)[i];
        w->t = sqlsim_arena_strndup(c->a, w->t, 8);
        take(k, d, c);
      }
}

sqlsim_witness *synth_witness_make(synth_env *e, synth_data *d, const char *gold_text, const char *pred_text,
                                   int informative, const char *verdict, const unsigned char *tables,
                                   const char *runaway) {
  shrink k = {e, gold_text, pred_text, informative, 0, 0};
  int ran_away = runaway && runaway[0];
  if (!d) return NULL;
  if (!ran_away && !tells(&k, d)) {
    synth_data_free(d);
    return NULL;
  }
  if (!ran_away) {
    shrink_rows(&k, &d);
    shrink_values(&k, &d);
  }
  sqlsim_witness *w = calloc(1, sizeof *w);
  char why[200];
  if (!w || synth_env_load(e, d, why, sizeof why)) {
    free(w);
    synth_data_free(d);
    return NULL;
  }
  for (int t = 0; t < e->s->ntables; t++) d->on[t] = (tables && tables[t]) || d->nrows[t] > 0;
  w->verdict = verdict;
  const synth_mirror *m = exec_user(e->db);
  w->database = m && m->engine && m->ddl ? synth_mirror_sql(m, d) : synth_data_sql(d); /* SQL its engine loads */
  w->tables = synth_data_json(d);
  w->rows = synth_data_size(d);
  w->gold_sql = strdup(gold_text);
  w->pred_sql = strdup(pred_text);
  char *gerr = NULL;
  w->gold_rows = synth_rows_json(e->db, gold_text, NULL, 0, WITNESS_ROWS, &w->gold_count, &gerr);
  free(gerr);
  if (ran_away) { /* it would run to its limit again */
    w->pred_rows = strdup("[]");
    w->pred_count = -1;
    w->pred_error = strdup(runaway);
  } else {
    w->pred_rows = synth_rows_json(e->db, pred_text, NULL, 0, WITNESS_ROWS, &w->pred_count, &w->pred_error);
  }
  synth_data_free(d);
  return w;
}
