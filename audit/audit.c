/* audit.c -- the benchmark audited: every gold item looked at with the
 * systems' predictions beside it (docs/audit.md).
 *
 * Three passes. First, on jobs threads, each item: the gold parsed and run
 * (on the item's database, or on databases generated from the schema), each
 * system's answer compared with the gold's and with the others' (the same
 * set of rows on the database; without one, synthetic execution against the
 * gold, and the disagreeing ones against each other), and the checks of the
 * gold's own form (evidence.c). Second, one thread: each system's weight,
 * its agreement with the gold over the other items (a system right on most
 * items counts more), each item's consensus strength and score, the ranking,
 * the EX of each system with the flagged items left out. Third, on threads
 * again: the flagged items' consensus shown, the rows (or the witness
 * database) on which the group's representative and the gold differ. */
#include "audit.h"
#include "engine/fields.h"
#include "exec/exec.h"
#include "exec/server.h"
#include "exec/sandbox.h"
#include "metrics/ex.h"
#include "synth/runner.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

const char *const sqlsim_audit_kind_names[SQLSIM_AUDIT_NKINDS] = {
    "consensus", "gold_fails", "gold_empty", "limit_ties", "limit_unordered", "group_free", "int_division",
    "literal_case"};

#define CACHED_DBS 4
#define MAX_ROUNDS 8 /* groups looked for among the disagreeing predictions (synthetic) */

void audit_add(audit_found *f, unsigned kind, double w, const char *what, const char *more) {
  int k = 0;
  while (k < SQLSIM_AUDIT_NKINDS && !(kind & (1u << k))) k++;
  if (f->json.len) sb_putc(&f->json, ',');
  sb_printf(&f->json, "{\"kind\":\"%s\",\"weight\":", sqlsim_audit_kind_names[k]);
  sb_json_num(&f->json, w);
  sb_puts(&f->json, ",\"what\":");
  sb_json_str(&f->json, what);
  if (more && *more) {
    sb_putc(&f->json, ',');
    sb_puts(&f->json, more);
  }
  sb_putc(&f->json, '}');
  f->kinds |= kind;
  if (kind != SQLSIM_AUDIT_CONSENSUS) f->keep *= 1 - w;
}

/* ---------------------------------------------------------------- one item */

enum { NO_PREDICTION = -1, NO_VERDICT = -2 };

typedef struct item_state {
  signed char *agree;  /* per system: 1 the gold's answer, 0 another (or it failed), NO_VERDICT (nothing told
                          them apart or together), NO_PREDICTION (none, or the item has no schema or database) */
  int *group;          /* per system: its group among those answering alike but not as the gold, -1 none */
  unsigned char *absent; /* per system: left out of the groups, its answer resting on a value the database
                            does not hold */
  audit_found found;
  int gold_ok;         /* parsed (and ran, on a database) */
  int no_schema;       /* its db_id has no schema: nothing was looked at */
  int generated;       /* a database was given but not this item's: compared on generated ones */
  char error[300];     /* why the item could not be looked at (no schema) */
  /* filled by the second pass */
  double consensus;    /* strength */
  int best;            /* the largest group by weight, -1 none */
  int rep;             /* its representative: the heaviest system in it */
  int size;
  double wgroup, wgold, wall;
  char *witness;       /* the third pass: the rows or database showing it (JSON members) */
} item_state;

typedef struct db_slot {
  char *db_id;
  sqlsim_db *db;
} db_slot;

typedef struct audit_job {
  const sqlsim_itemset *gold;
  const char *const *const *preds;
  int npreds;
  const sqlsim_audit_opts *o;
  unsigned parse_opts;
  int dialect, with_db;
  item_state *items;
  const int *todo; /* the items of this pass */
  int ntodo;
  int next;
  int pass;        /* 1 or 3 */
  pthread_mutex_t mu;
} audit_job;

typedef struct worker_state {
  audit_job *j;
  db_slot dbs[CACHED_DBS];
  int turn;
  sqlsim_synth_runner *synth, *witness;
} worker_state;

static sqlsim_db *open_db(worker_state *w, const char *db_id, char *why, size_t wn) {
  if (!db_id) db_id = "";
  for (int k = 0; k < CACHED_DBS; k++)
    if (w->dbs[k].db && !strcmp(w->dbs[k].db_id, db_id)) return w->dbs[k].db;
  db_slot *s = &w->dbs[w->turn++ % CACHED_DBS];
  if (s->db) sqlsim_db_close(s->db);
  free(s->db_id);
  s->db = NULL;
  s->db_id = strdup(db_id);
  const sqlsim_audit_opts *o = w->j->o;
  sqlsim_exec_opts eo = {.timeout_s = o->timeout_s > 0 ? o->timeout_s : 30, .fixed_now = o->fixed_now};
  sqlsim_error err = {0};
  if (o->engine || o->sqlite) {
    if (sqlsim_db_connect(o->engine ? o->engine : o->sqlite, db_id, &eo, &s->db, &err)) s->db = NULL;
  } else {
    char *path = sqlsim_db_path(o->db_dir, db_id, &err);
    if (path && sqlsim_db_open(path, &eo, &s->db, &err)) s->db = NULL;
    free(path);
  }
  if (!s->db) snprintf(why, wn, "the database of '%.100s' cannot be opened: %.150s", db_id, err.message);
  return s->db;
}

/* No row, or only NULLs (r run with SQLSIM_EXEC_VALUES). */
static int nothing_returned(const sqlsim_result *r) {
  for (long i = 0; r->kinds && i < r->nrows * r->ncols; i++)
    if (r->kinds[i] != 0) return 0;
  return !r->nrows || r->kinds;
}

/* Groups the systems whose hash (0: failed) is the same, not the gold's. */
static void group_by_hash(item_state *it, const uint64_t *h, int n) {
  int ngroups = 0;
  for (int p = 0; p < n; p++) {
    if (it->agree[p] != 0 || !h[p] || it->group[p] >= 0) continue;
    for (int q = p; q < n; q++)
      if (it->agree[q] == 0 && h[q] == h[p] && it->group[q] < 0) it->group[q] = ngroups;
    ngroups++;
  }
}

/* On the item's database: 0, or -1 (it->error says why) when it cannot be
 * opened. */
static int item_on_db(worker_state *w, int i, item_state *it, const sqlsim_query *gq) {
  audit_job *j = w->j;
  const sqlsim_item *g = &j->gold->items[i];
  char why[300];
  sqlsim_db *db = open_db(w, g->db_id, why, sizeof why);
  if (!db) {
    snprintf(it->error, sizeof it->error, "%s", why);
    return -1;
  }
  sqlsim_result gr;
  sqlsim_exec_flags(db, g->sql, SQLSIM_EXEC_VALUES, &gr);
  uint64_t *h = calloc((size_t)j->npreds, sizeof *h);
  if (gr.status != SQLSIM_EXEC_OK) {
    char what[400];
    snprintf(what, sizeof what, "the gold fails on the item's database: %.300s", gr.reason);
    audit_add(&it->found, SQLSIM_AUDIT_GOLD_FAILS, AUDIT_W_FAILS, what, NULL);
  } else {
    it->gold_ok = 1;
    if (nothing_returned(&gr))
      audit_add(&it->found, SQLSIM_AUDIT_GOLD_EMPTY, AUDIT_W_EMPTY_DB,
                gr.nrows ? "the gold returns only NULLs on the item's database" :
                           "the gold returns no row on the item's database", NULL);
    audit_form_checks(&it->found, gq, db, j->dialect);
    audit_literal_checks(&it->found, gq, db);
  }
  for (int p = 0; p < j->npreds; p++) {
    const char *sql = j->preds[p][i];
    if (!sql) {
      it->agree[p] = -1;
      continue;
    }
    sqlsim_result pr;
    sqlsim_exec_flags(db, sql, 0, &pr);
    if (pr.status == SQLSIM_EXEC_OK) h[p] = ex_answer_hash(&pr);
    it->agree[p] = gr.status == SQLSIM_EXEC_OK && pr.status == SQLSIM_EXEC_OK && ex_sets_any_column_order(&gr, &pr);
    sqlsim_result_free(&pr);
  }
  /* a system whose answer rests on a value the database does not hold
   * (WHERE name = 'France' where the column holds 'france') made its own
   * mistake: it does not stand against a gold whose values all occur */
  if (gq && audit_absent_values(gq, db) == 0)
    for (int p = 0; p < j->npreds; p++) {
      sqlsim_query *pq = NULL;
      sqlsim_error err = {0};
      if (it->agree[p] != 0 || !h[p] || sqlsim_parse(j->preds[p][i], strlen(j->preds[p][i]), gq->schema, j->parse_opts,
                                                     &pq, &err))
        continue;
      if (audit_absent_values(pq, db) > 0) h[p] = 0, it->absent[p] = 1;
      sqlsim_query_free(pq);
    }
  group_by_hash(it, h, j->npreds);
  free(h);
  sqlsim_result_free(&gr);
  return 0;
}

/* The worker's synthetic runner (witness: the one that keeps witnesses),
 * made on first use; NULL out of memory. */
static sqlsim_synth_runner *runner(worker_state *w, int witness) {
  sqlsim_synth_runner **x = witness ? &w->witness : &w->synth;
  if (!*x) {
    sqlsim_synth_opts o = {.bird = 2, .fixed_now = w->j->o->fixed_now, .strict = witness, .witness = witness};
    *x = sqlsim_synth_runner_new(&o);
  }
  return *x;
}

/* Whether q prints the normalized SQL printed: the same query, however written. */
static int same_query(const char *printed, const sqlsim_query *q) {
  char *y = printed ? sqlsim_print_sql(q->root, 0) : NULL;
  int same = y && !strcmp(printed, y);
  free(y);
  return same;
}

static void item_generated(worker_state *w, int i, item_state *it, const sqlsim_query *gq) {
  audit_job *j = w->j;
  const sqlsim_item *g = &j->gold->items[i];
  const sqlsim_schema *s = gq->schema;
  int n = j->npreds, empty_all = 1, judged = 0;
  sqlsim_query **pq = calloc((size_t)n, sizeof *pq);
  char *gold_printed = sqlsim_print_sql(gq->root, 0);
  for (int p = 0; p < n; p++) {
    const char *sql = j->preds[p][i];
    if (!sql) {
      it->agree[p] = -1;
      continue;
    }
    sqlsim_error err = {0};
    if (sqlsim_parse(sql, strlen(sql), s, j->parse_opts, &pq[p], &err)) { /* it cannot run as written */
      it->agree[p] = 0;
      continue;
    }
    if (same_query(gold_printed, pq[p])) { /* the gold's own query, however written: its answer wherever it runs */
      it->agree[p] = 1;
      continue;
    }
    sqlsim_synth out;
    if (!runner(w, 0) || sqlsim_synth_trees(w->synth, gq, g->sql, pq[p], sql, &out, &err)) {
      it->agree[p] = NO_VERDICT;
      continue;
    }
    judged++;
    empty_all &= out.gold_empty;
    it->agree[p] = (signed char)(out.pass == 1 ? 1 : out.pass == 0 ? 0 : NO_VERDICT);
    sqlsim_witness_free(out.witness);
  }
  free(gold_printed);
  if (judged && empty_all)
    audit_add(&it->found, SQLSIM_AUDIT_GOLD_EMPTY, AUDIT_W_EMPTY_GEN,
              "the gold returns no row (or only NULLs) on every database generated for the item", NULL);
  /* the disagreeing ones against each other: the first left is a group's
   * seed, run as the gold beside the real gold's literals */
  int *left = malloc(sizeof *left * (size_t)(n > 0 ? n : 1)), nleft = 0, ngroups = 0;
  const char **sqls = malloc(sizeof *sqls * (size_t)(n > 0 ? n : 1));
  int *pass = malloc(sizeof *pass * (size_t)(n > 0 ? n : 1));
  double *graded = malloc(sizeof *graded * (size_t)(n > 0 ? n : 1));
  for (int p = 0; p < n; p++)
    if (it->agree[p] == 0 && pq[p]) left[nleft++] = p;
  for (int round = 0; nleft >= 2 && round < MAX_ROUNDS; round++) {
    int seed = left[0], m = 0;
    for (int k = 1; k < nleft; k++) sqls[m++] = j->preds[left[k]][i];
    sqlsim_error err = {0};
    if (synth_many(w->synth, pq[seed], j->preds[seed][i], gq, g->sql, sqls, m, 0, pass, graded, &err)) break;
    int keep = 0, members = 1;
    it->group[seed] = ngroups;
    for (int k = 1; k < nleft; k++) {
      if (pass[k - 1] == 1) it->group[left[k]] = ngroups, members++;
      else left[keep++] = left[k];
    }
    if (members == 1) it->group[seed] = -1; /* alone: no group */
    else ngroups++;
    nleft = keep;
  }
  free(left);
  free(sqls);
  free(pass);
  free(graded);
  for (int p = 0; p < n; p++) sqlsim_query_free(pq[p]);
  free(pq);
  audit_form_checks(&it->found, gq, NULL, j->dialect);
}

/* The item's schema: its db_id's, or the one schema of a --sqlite file. */
static const sqlsim_schema *schema_of(const sqlsim_audit_opts *o, const char *db_id) {
  const sqlsim_schema *s = db_id ? sqlsim_catalog_find(o->catalog, db_id) : NULL;
  if (!s && o->sqlite && sqlsim_catalog_count(o->catalog) == 1) s = sqlsim_catalog_at(o->catalog, 0);
  return s;
}

static void look_at_item(worker_state *w, int i) {
  audit_job *j = w->j;
  item_state *it = &j->items[i];
  const sqlsim_item *g = &j->gold->items[i];
  const sqlsim_schema *s = schema_of(j->o, g->db_id);
  if (!s) {
    snprintf(it->error, sizeof it->error, "no schema for db_id '%.200s'", g->db_id ? g->db_id : "");
    it->no_schema = 1;
    for (int p = 0; p < j->npreds; p++) it->agree[p] = -1;
    return;
  }
  sqlsim_query *gq = NULL;
  sqlsim_error err = {0};
  if (sqlsim_parse(g->sql, strlen(g->sql), s, j->parse_opts, &gq, &err) && j->with_db) {
    gq = NULL; /* the database says whether it runs */
  } else if (!gq) {
    char what[600];
    snprintf(what, sizeof what, "the gold does not parse: %.400s (at byte %d)", err.message, err.offset);
    audit_add(&it->found, SQLSIM_AUDIT_GOLD_FAILS, AUDIT_W_FAILS, what, NULL);
    for (int p = 0; p < j->npreds; p++) it->agree[p] = j->preds[p][i] ? 0 : -1;
    return; /* the systems' answers are not compared: nothing stands for the gold's */
  }
  if (j->with_db && item_on_db(w, i, it, gq) == 0) {
    /* done */
  } else if (!gq) {
    for (int p = 0; p < j->npreds; p++) it->agree[p] = -1;
  } else {
    if (j->with_db) { /* no database for this item: generated ones stand in */
      size_t l = strlen(it->error);
      snprintf(it->error + l, sizeof it->error - l, "; compared on generated databases instead");
      it->generated = 1;
    }
    if (gq->nunresolved)
      audit_add(&it->found, SQLSIM_AUDIT_GOLD_FAILS, AUDIT_W_UNRESOLVED,
                "the gold names a table or column the schema does not have, or one several tables have", NULL);
    it->gold_ok = 1;
    item_generated(w, i, it, gq);
  }
  sqlsim_query_free(gq);
}

/* The third pass: where the flagged item's group and the gold differ. */
static void show_consensus(worker_state *w, int i) {
  audit_job *j = w->j;
  item_state *it = &j->items[i];
  const sqlsim_item *g = &j->gold->items[i];
  const char *rep = j->preds[it->rep][i];
  sqlsim_witness *wit = NULL;
  if (j->with_db && !it->generated) {
    char why[300];
    sqlsim_db *db = open_db(w, g->db_id, why, sizeof why);
    if (!db) return;
    sqlsim_result gr, pr;
    sqlsim_exec_flags(db, g->sql, 0, &gr);
    sqlsim_exec_flags(db, rep, 0, &pr);
    if (gr.status == SQLSIM_EXEC_OK && pr.status == SQLSIM_EXEC_OK) wit = ex_witness(db, g->sql, rep, &gr, &pr);
    sqlsim_result_free(&gr);
    sqlsim_result_free(&pr);
  } else {
    const sqlsim_schema *s = schema_of(j->o, g->db_id);
    sqlsim_synth out;
    sqlsim_error err = {0};
    if (s && runner(w, 1) && !sqlsim_synth_pair(w->witness, s, g->sql, rep, &out, &err)) wit = out.witness;
  }
  if (!wit) return;
  strbuf sb = {0};
  sb_puts(&sb, "\"witness\":");
  engine_witness_json(&sb, wit);
  sqlsim_witness_free(wit);
  it->witness = sb_take(&sb);
}

static void *work(void *arg) {
  worker_state *w = arg;
  audit_job *j = w->j;
  for (;;) {
    pthread_mutex_lock(&j->mu);
    int k = j->next < j->ntodo ? j->next++ : -1;
    pthread_mutex_unlock(&j->mu);
    if (k < 0) break;
    if (j->pass == 1) look_at_item(w, j->todo[k]);
    else show_consensus(w, j->todo[k]);
  }
  return NULL;
}

static int run_pass(audit_job *j, int pass, const int *todo, int ntodo, sqlsim_error *err) {
  int jobs = j->o->jobs > 0 ? j->o->jobs : 1;
  if (jobs > 64) jobs = 64;
  j->pass = pass;
  j->todo = todo;
  j->ntodo = ntodo;
  j->next = 0;
  worker_state *ws = calloc((size_t)jobs, sizeof *ws);
  pthread_t *th = calloc((size_t)jobs, sizeof *th);
  if (!ws || !th) {
    free(ws);
    free(th);
    return sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
  }
  int started = 0; /* threads 1..started run beside this one (fewer when one cannot be made) */
  for (int t = 0; t < jobs; t++) ws[t].j = j;
  for (int t = 1; t < jobs && pthread_create(&th[t], NULL, work, &ws[t]) == 0; t++) started = t;
  work(&ws[0]);
  for (int t = 1; t <= started; t++) pthread_join(th[t], NULL);
  for (int t = 0; t < jobs; t++) {
    for (int k = 0; k < CACHED_DBS; k++) {
      if (ws[t].dbs[k].db) sqlsim_db_close(ws[t].dbs[k].db);
      free(ws[t].dbs[k].db_id);
    }
    if (ws[t].synth) sqlsim_synth_runner_free(ws[t].synth);
    if (ws[t].witness) sqlsim_synth_runner_free(ws[t].witness);
  }
  free(ws);
  free(th);
  return 0;
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
  if (it->error[0]) {
    sb_puts(&sb, ",\"error\":");
    sb_json_str(&sb, it->error);
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
  if (it->found.json.len) sb_printf(&sb, "%s%s", any ? "," : "", it->found.json.buf);
  sb_puts(&sb, "]}");
  out->json = sb_take(&sb);
}

static int by_score(const void *x, const void *y) {
  const sqlsim_audit_item *a = x, *b = y;
  if (a->score != b->score) return a->score > b->score ? -1 : 1;
  return a->index - b->index;
}

int sqlsim_audit_run(const sqlsim_itemset *gold, const char *const *const *preds, const char *const *names,
                     int npreds, const sqlsim_audit_opts *opts, sqlsim_audit **out, sqlsim_error *err) {
  *out = NULL;
  if (!opts || !opts->catalog)
    return sqlsim_error_set(err, SQLSIM_ECONFIG, -1, "audit: the schemas are needed (--tables or --sqlite)");
  if (!gold || gold->n <= 0) return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "audit: no gold items");
  if (npreds < 1) return sqlsim_error_set(err, SQLSIM_ECONFIG, -1, "audit: no prediction file (give --pred)");
  double t0 = sbx_clock();
  int n = gold->n;
  audit_job j = {.gold = gold, .preds = preds, .npreds = npreds, .o = opts};
  j.with_db = opts->db_dir || opts->sqlite || opts->engine;
  j.dialect = opts->dialect;
  if (j.dialect == SQLSIM_DIALECT_ENGINE)
    j.dialect = !opts->engine ? SQLSIM_DIALECT_SQLITE : exec_engine_for(opts->engine)->dialect;
  j.parse_opts = sqlsim_dialect_parse_options(j.dialect);
  pthread_mutex_init(&j.mu, NULL);
  j.items = calloc((size_t)n, sizeof *j.items);
  int *todo = malloc(sizeof *todo * (size_t)n);
  sqlsim_audit *a = calloc(1, sizeof *a);
  int rc = 0;
  if (!j.items || !todo || !a) {
    rc = sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
    goto done;
  }
  for (int i = 0; i < n; i++) {
    item_state *it = &j.items[i];
    it->agree = malloc((size_t)npreds);
    it->group = malloc(sizeof *it->group * (size_t)npreds);
    it->absent = calloc((size_t)npreds, 1);
    it->found.keep = 1;
    it->best = -1;
    for (int p = 0; p < npreds; p++) it->agree[p] = -1, it->group[p] = -1;
    todo[i] = i;
  }
  if ((rc = run_pass(&j, 1, todo, n, err))) goto done;
  int looked = 0;
  for (int i = 0; i < n; i++) looked += !j.items[i].no_schema;
  if (!looked) { /* a catalog of another benchmark: nothing can be audited */
    rc = sqlsim_error_set(err, SQLSIM_ENOTFOUND, -1, "audit: no gold item's db_id has a schema (the first: '%.200s'): "
                          "are these the benchmark's tables?", gold->items[0].db_id ? gold->items[0].db_id : "");
    goto done;
  }

  /* the systems' weights */
  int *right = calloc((size_t)npreds, sizeof *right), *judged = calloc((size_t)npreds, sizeof *judged);
  for (int i = 0; i < n; i++)
    for (int p = 0; p < npreds; p++) right[p] += j.items[i].agree[p] == 1, judged[p] += j.items[i].agree[p] >= 0;
  a->nitems = n;
  a->nsystems = npreds;
  a->with_db = j.with_db;
  a->items = calloc((size_t)n, sizeof *a->items);
  a->systems = calloc((size_t)npreds, sizeof *a->systems);
  a->weight = calloc((size_t)npreds, sizeof *a->weight);
  a->ex = calloc((size_t)npreds, sizeof *a->ex);
  a->ex_kept = calloc((size_t)npreds, sizeof *a->ex_kept);
  for (int p = 0; p < npreds; p++) {
    a->systems[p] = strdup(names && names[p] ? names[p] : "system");
    a->weight[p] = judged[p] ? (double)right[p] / judged[p] : 0;
  }
  double min_score = opts->min_score > 0 ? opts->min_score : 0.5;
  int nflag = 0;
  for (int i = 0; i < n; i++) {
    item_state *it = &j.items[i];
    weigh_item(it, right, judged, npreds);
    sqlsim_audit_item *ai = &a->items[i];
    ai->index = i;
    ai->kinds = it->found.kinds | (it->best >= 0 ? SQLSIM_AUDIT_CONSENSUS : 0);
    ai->score = 1 - (1 - it->consensus) * it->found.keep;
    ai->score = round(ai->score * 1e6) / 1e6;
    ai->flagged = ai->score >= min_score;
    ai->group = it->best >= 0 ? it->size : 0;
    for (int p = 0; p < npreds; p++) ai->agree += it->agree[p] == 1;
    if (ai->flagged && it->best >= 0 && opts->witness >= 0) todo[nflag++] = i;
    a->flagged += ai->flagged;
  }
  if (nflag && (rc = run_pass(&j, 3, todo, nflag, err))) {
    free(right);
    free(judged);
    goto done;
  }
  for (int p = 0; p < npreds; p++) {
    int all = 0, kept = 0, n_kept = 0;
    for (int i = 0; i < n; i++) {
      all += j.items[i].agree[p] == 1;
      if (!a->items[i].flagged) kept += j.items[i].agree[p] == 1, n_kept++;
    }
    a->ex[p] = (double)all / n;
    a->ex_kept[p] = n_kept ? (double)kept / n_kept : NAN;
  }
  for (int i = 0; i < n; i++) item_json(a, gold, preds, i, &j.items[i], right, judged, &a->items[i]);
  free(right);
  free(judged);
  qsort(a->items, (size_t)n, sizeof *a->items, by_score);
  a->seconds = sbx_clock() - t0;
done:
  if (j.items)
    for (int i = 0; i < n; i++) {
      free(j.items[i].agree);
      free(j.items[i].group);
      free(j.items[i].absent);
      free(j.items[i].found.json.buf);
      free(j.items[i].witness);
    }
  free(j.items);
  free(todo);
  pthread_mutex_destroy(&j.mu);
  if (rc) sqlsim_audit_free(a);
  else *out = a;
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
