/* score.c -- one pair: the metric table's stages in turn, on a worker.
 *
 * A pair's stages share an engine_pair: the gold prepared once per worker
 * (workers.c), the prediction parsed once with the gold's schema. Each stage
 * writes its own part of the record: Spider matching against the prepared
 * gold; EX on every database of the item (metrics/ex.c); the tree diff
 * against the gold as written (BIS) and, on a copy with equivalent forms made
 * one, against the gold's such form (the calibrated score); synthetic
 * execution on databases made from the schema (synth/); with the categories
 * asked for, the error analysis of all of it (analyze/). Then the record's
 * derived values: the calibrated score combined with synthetic execution, and
 * the witness (a real database's outranks a generated one's). Timing runs
 * apart (alone on the machine), for pairs EX found correct. */
#include "engine.h"
#include "analyze/analyze.h"
#include "exec/exec.h"
#include "exec/sandbox.h"
#include "record/record.h"
#include "synth/runner.h"

#include <stdlib.h>
#include <string.h>

/* The repair's budget per wrong pair (docs/error-categories.md): repaired
 * predictions run, and the time after which none is started. */
#define REPAIR_CHECKS 64
#define REPAIR_TIME_S 0.5

sqlsim_query *engine_pred(engine_pair *c) {
  if (c->parsed) return c->pred;
  c->parsed = 1;
  c->pred_offset = -1;
  sqlsim_error err = {0};
  const char *sql = c->p->pred;
  if (!c->g->tree || !sqlsim_parse(sql, strlen(sql), c->g->schema, c->ev->parse_options, &c->pred, &err))
    return c->pred;
  c->pred = NULL;
  c->pred_offset = err.offset;
  snprintf(c->r->structure.err, sizeof c->r->structure.err, "the prediction does not parse (offset %d): %.200s",
           err.offset, err.message);
  return NULL;
}

/* A prediction that fails to parse or to run because it is a model's whole
 * answer (a fence, <think>, "Final answer:" around its SQL) says so in err,
 * with the way to score its SQL, instead of SQLite's bare "syntax error". */
static void explain_answer(const engine_pair *c, char *err, size_t n) {
  if (!err[0] || c->ev->cfg.extract) return;
  sqlsim_extract x;
  const char *pred = c->p->pred;
  if (sqlsim_extract_sql(pred, strlen(pred), &x) || x.from == SQLSIM_FROM_TEXT) return;
  static const char *where[] = {"", "in a Markdown code fence", "in an <answer> element", "after a final-answer marker",
                                "after </think>", "before other text"};
  snprintf(err, n, "the prediction is a model's answer, not SQL: its SQL is %s at offset %zu (score answers with "
           "--extract, or extract=True in Python)", where[x.from], x.start);
}

/* ---------------------------------------------------------------- stages */

void engine_stage_match(engine_pair *c) {
  if (!c->g->spider) return;
  sqlsim_spider_score_pred(c->w->spider, c->g->spider, c->p->pred, &c->r->match);
  c->r->has_match = 1;
}

/* EX on every database of the item, both semantics (metrics/ex.c), and BIS
 * result similarity on its own database. */
void engine_stage_exec(engine_pair *c) {
  sqlsim_evaluator *ev = c->ev;
  if (!c->g->ran) return;
  ex_opts o = {.keep_distinct = ev->cfg.keep_distinct, .plug_value = ev->cfg.plug_value,
               .result = (ev->cfg.metrics & SQLSIM_M_RESULT) != 0, .witness = ev->cfg.witness,
               .bird = ev->cfg.bird_semantics, .soft_f1 = (ev->cfg.metrics & SQLSIM_M_SOFT_F1) != 0,
               .audit = ev->cfg.audit};
  engine_pool pool = {ev, c->w, c->g->db_id};
  ex_verdict v;
  ex_score(&c->g->ex, c->g->sql, c->p->pred, &o, engine_pool_open, &pool, &v);
  sqlsim_exec_part x = {.spider = v.spider, .bird = v.bird, .databases = v.databases, .gold_rows = v.gold_rows,
                        .pred_rows = v.pred_rows, .has_rsim = v.has_rsim, .rsim = v.rsim,
                        .has_soft_f1 = v.has_soft_f1, .soft_f1 = v.soft_f1, .reconnected = v.reconnected};
  memcpy(x.err, v.err, sizeof x.err);
  explain_answer(c, x.err, sizeof x.err);
  c->r->exec = x;
  c->exec_witness = v.witness;
  c->exec_answer = v.answer;
  c->exec_any_order = v.any_order;
  c->exec_ran = !v.err[0] || v.pred_rows >= 0;
}

/* The tree diff against the gold as written (BIS similarity) and, on a copy
 * with equivalent forms made one, against the gold's such form (the
 * calibrated score); kept for the categories. */
void engine_stage_structure(engine_pair *c) {
  const gold_prep *g = c->g;
  if (!g->tree) return;
  sqlsim_record *r = c->r;
  sqlsim_structure_part *x = &r->structure;
  x->has = 1;
  sqlsim_query *q = engine_pred(c);
  explain_answer(c, x->err, sizeof x->err);
  if (!q) return;
  sqlsim_error err = {0};
  if (r->metrics & SQLSIM_M_CATEGORIES) sqlsim_dialect_construct(q, record_arena(r), &x->dialect);
  sqlsim_diff *d;
  if (sqlsim_diff_trees(g->tree->root, q->root, &d, &err) == 0) {
    x->bis = d->bis;
    sqlsim_diff_free(d);
  } else {
    snprintf(x->diff_err, sizeof x->diff_err, "not compared by structure: %.200s", err.message);
  }
  if (!(c->pred_eq = sqlsim_query_clone(q))) {
    if (!x->diff_err[0]) snprintf(x->diff_err, sizeof x->diff_err, "not compared by structure: out of memory");
    return;
  }
  sqlsim_equiv_normalize_as(c->pred_eq, engine_equiv_flags(c->ev));
  if (sqlsim_diff_trees(g->tree_eq->root, c->pred_eq->root, &d, &err) == 0) {
    x->score = d->score;
    if (r->metrics & SQLSIM_M_CATEGORIES) c->diff = d;
    else sqlsim_diff_free(d);
  } else if (!x->diff_err[0]) {
    snprintf(x->diff_err, sizeof x->diff_err, "not compared by structure: %.200s", err.message);
  }
}

/* Synthetic execution on databases made from the gold's schema (a
 * prediction that does not parse still runs, and fails or not). */
void engine_stage_synth(engine_pair *c) {
  sqlsim_evaluator *ev = c->ev;
  const gold_prep *g = c->g;
  worker *w = c->w;
  sqlsim_record *r = c->r;
  if (!g->tree) return;
  if (!g->schema) {
    snprintf(r->synth_err, sizeof r->synth_err, "no schema for db_id '%.200s'", g->db_id ? g->db_id : "");
    return;
  }
  /* the generated databases are judged where the pair's queries run: on the
   * engine when there is one (the item's database there), else on SQLite,
   * with a dialect's texts printed as SQLite's */
  if (!engine_worker_synth(ev, w) || synth_runner_engine(w->synth, ev->engine ? &ev->target : NULL, g->db_id)) {
    snprintf(r->synth_err, sizeof r->synth_err, "out of memory");
    return;
  }
  const char *gold_sql = g->sql, *pred_sql = c->p->pred;
  char *gprint = NULL, *pprint = NULL;
  if (!ev->engine && ev->dialect != SQLSIM_DIALECT_SQLITE) {
    sqlsim_query *pq = engine_pred(c);
    gold_sql = gprint = engine_synth_text(ev, g->tree, g->sql);
    if (pq) pred_sql = pprint = engine_synth_text(ev, pq, c->p->pred);
  }
  sqlsim_error err = {0};
  sqlsim_synth y;
  int rc = sqlsim_synth_trees(w->synth, g->tree, gold_sql, engine_pred(c), pred_sql, &y, &err);
  free(gprint);
  free(pprint);
  if (rc) {
    snprintf(r->synth_err, sizeof r->synth_err, "%.250s", err.message);
    return;
  }
  record_take_witness(r, y.witness);
  y.witness = NULL;
  r->synth = y;
  r->has_synth = 1;
}

/* ---------------------------------------------------------------- Spider 2.0 */

/* A query's rows kept as the driver gave them (text and bytes copied out). */
typedef struct s2_rows {
  s2_cell *cells;
  long n, cap;             /* cells */
  int ncols;
  strbuf bytes;            /* every text's bytes; cells hold offsets until the end */
} s2_rows;

static void s2_rows_reset(void *ctx) {
  s2_rows *k = ctx;
  k->n = 0;
  k->bytes.len = 0;
}

/* A timedelta's str(): "[-]D day[s], H:MM:SS[.ffffff]". */
static void duration_text(strbuf *sb, long long us) {
  long long days = us >= 0 ? us / 86400000000LL : -((-us + 86399999999LL) / 86400000000LL);
  long long rest = us - days * 86400000000LL, sec = rest / 1000000, frac = rest % 1000000;
  if (days) sb_printf(sb, "%lld day%s, ", days, days == 1 || days == -1 ? "" : "s");
  sb_printf(sb, "%lld:%02lld:%02lld", sec / 3600, sec / 60 % 60, sec % 60);
  if (frac) sb_printf(sb, ".%06lld", frac);
}

static int s2_rows_add(void *ctx, const srv_cell *cells, int nc) {
  s2_rows *k = ctx;
  if (!cells) {
    k->ncols = nc;
    return 0;
  }
  if (k->n + nc > k->cap) {
    long cap = k->cap ? k->cap * 2 : 256 + nc;
    s2_cell *c = realloc(k->cells, sizeof *c * (size_t)cap);
    if (!c) return -1;
    k->cells = c;
    k->cap = cap;
  }
  for (int i = 0; i < nc; i++) {
    const srv_cell *x = &cells[i];
    s2_cell *o = &k->cells[k->n++];
    memset(o, 0, sizeof *o);
    size_t at = k->bytes.len;
    switch (x->type) {
    case SRV_NULL: o->type = S2_C_NULL; continue;
    case SRV_INT: o->type = S2_C_INT, o->i = x->i; continue;
    case SRV_REAL: o->type = S2_C_REAL, o->x = x->x; continue;
    case SRV_DECIMAL: o->type = S2_C_DECIMAL; sb_putn(&k->bytes, x->p, x->n); break;
    case SRV_TEXT: o->type = S2_C_TEXT; sb_putn(&k->bytes, x->p, x->n); break;
    case SRV_BLOB: o->type = S2_C_BLOB; sb_putn(&k->bytes, x->p, x->n); break;
    case SRV_DURATION: o->type = S2_C_OBJECT; duration_text(&k->bytes, x->i); break;
    default: o->type = S2_C_OBJECT; sb_putn(&k->bytes, x->p, x->n); break; /* dates and times: their text */
    }
    o->i = (int64_t)at;
    o->n = k->bytes.len - at;
  }
  return k->bytes.len > ((size_t)256 << 20);
}

/* The predicted table: the pair's CSV (text, or a file's), or its SQL's
 * result on the pair's database saved as lite's script saves it (chunks of
 * 500 rows through pandas to CSV). NULL with why. */
static s2_frame *spider2_pred_table(engine_pair *c, char *why, size_t wn) {
  sqlsim_evaluator *ev = c->ev;
  const char *pred = c->p->pred;
  sqlsim_error e = {0};
  s2_frame *f = NULL;
  if (ev->cfg.spider2_pred != SQLSIM_SPIDER2_SQL) {
    char *text = NULL;
    size_t len = strlen(pred);
    if (ev->cfg.spider2_pred == SQLSIM_SPIDER2_CSV_FILE && core_file_read(pred, &text, &len, &e)) {
      snprintf(why, wn, "%.390s", e.message);
      return NULL;
    }
    if (s2_frame_read(text ? text : pred, len, &f, &e))
      snprintf(why, wn, "the predicted table cannot be read as pandas reads it: %.300s", e.message);
    free(text);
    return f;
  }
  char buf[1024];
  const char *path = engine_db_path(ev, c->p->db_id, buf, sizeof buf);
  if (!path) {
    snprintf(why, wn, "no database for '%.200s' (the task's db) to run the prediction on",
             c->p->db_id ? c->p->db_id : "");
    return NULL;
  }
  sqlsim_db *db = engine_worker_db(ev, c->w, path, c->p->db_id, why, wn);
  if (!db) return NULL;
  s2_rows k = {0};
  sqlsim_result r;
  exec_each_row(db, pred, s2_rows_add, s2_rows_reset, &k, &r);
  if (r.status != SQLSIM_EXEC_OK) {
    snprintf(why, wn, "%.390s", r.reason);
  } else {
    for (long i = 0; i < k.n; i++) /* offsets into bytes become pointers */
      if (k.cells[i].type >= S2_C_TEXT && k.cells[i].type != S2_C_BOOL)
        k.cells[i].p = k.bytes.buf ? k.bytes.buf + k.cells[i].i : "";
    strbuf csv = {0};
    long nrows = k.ncols ? k.n / k.ncols : 0;
    if (s2_rows_csv(k.cells, nrows, k.ncols, 500, &csv, &e) ||
        s2_frame_read(csv.buf ? csv.buf : "", csv.len, &f, &e))
      snprintf(why, wn, "%.390s", e.message);
    sb_free(&csv);
  }
  free(k.cells);
  sb_free(&k.bytes);
  return f;
}

void engine_stage_spider2(engine_pair *c) {
  const s2_task_gold *t = c->g->s2;
  sqlsim_spider2_part *x = &c->r->spider2;
  x->rows = c->ev->cfg.spider2_rows ? 0 : -1;
  x->pred_rows = -1;
  if (!t) return; /* no such task: the gold's error says so */
  s2_frame *f = spider2_pred_table(c, x->err, sizeof x->err);
  if (!f) return;
  s2_verdict v;
  s2_judge(t, f, c->ev->cfg.spider2_rows, &v);
  x->has = 1;
  x->pred_rows = f->nrows;
  x->score = v.score;
  x->rows = v.rows;
  x->variant = v.variant >= 0 ? sqlsim_arena_strdup(record_arena(c->r), t->names[v.variant]) : NULL;
  snprintf(x->err, sizeof x->err, "%s", v.error);
  x->err_gold = v.gold_side;
  s2_frame_free(f);
}

/* ---------------------------------------------------------------- the audit */

/* Whether q prints the normalized SQL printed: the same query, however written. */
static int same_query(const sqlsim_query *gold, const sqlsim_query *q) {
  char *x = sqlsim_print_sql(gold->root, 0), *y = x ? sqlsim_print_sql(q->root, 0) : NULL;
  int same = y && !strcmp(x, y);
  free(x);
  free(y);
  return same;
}

/* config.audit: the prediction's answer as the audit compares answers (on
 * the item's database, the exec stage's; without one, on the gold's
 * realistic databases), set aside when it rests on a value the database does
 * not hold; and the gold's side (workers.c) copied into the record. */
void engine_stage_audit(engine_pair *c) {
  sqlsim_evaluator *ev = c->ev;
  if (!ev->cfg.audit) return;
  const gold_audit *ga = &c->g->audit;
  sqlsim_audit_part *a = &c->r->audit;
  sqlsim_arena *ar = record_arena(c->r);
  a->has = 1;
  a->gold_ok = ga->gold_ok;
  a->generated = ga->generated;
  a->no_schema = ga->no_schema;
  a->kinds = ga->found.kinds;
  a->keep = ga->found.keep;
  a->evidence = sqlsim_arena_strdup(ar, ga->found.json.buf ? ga->found.json.buf : "");
  a->error = sqlsim_arena_strdup(ar, ga->error);
  a->agree = -1;
  if (ga->no_schema) return;
  if (!ga->gold_ok) { /* it fails: no answer is the gold's, and none stands for it on generated ones */
    a->agree = 0;
    if (!ga->with_db) return;
  }
  sqlsim_db *db = NULL;
  sqlsim_query *pq = engine_pred(c);
  if (ga->with_db) {
    char why[256];
    if (ga->gold_ok && c->exec_ran) {
      a->answer = c->exec_answer;
      a->agree = c->exec_any_order;
    } else if (!ga->gold_ok && (db = engine_worker_db(ev, c->w, c->g->path, c->g->db_id, why, sizeof why))) {
      sqlsim_result pr; /* the gold failed, so exec did not run it: its answer still groups it */
      sqlsim_exec_flags(db, c->p->pred, 0, &pr);
      if (pr.status == SQLSIM_EXEC_OK) a->answer = ex_answer_hash(&pr);
      sqlsim_result_free(&pr);
    } else {
      a->agree = 0;
    }
    if (a->agree == 0 && a->answer && ga->gold_absent == 0 && pq &&
        (db || (db = engine_worker_db(ev, c->w, c->g->path, c->g->db_id, why, sizeof why))) &&
        evidence_absent_values(pq, db) > 0)
      a->answer = 0, a->absent = 1;
    return;
  }
  if (!pq) { /* it cannot run as written */
    a->agree = 0;
    return;
  }
  if (same_query(c->g->tree, pq)) { /* the gold's own query, however written: its answer wherever it runs */
    a->agree = 1;
    return;
  }
  sqlsim_synth_runner *x = ga->realm ? engine_worker_synth(ev, c->w) : NULL;
  char *text = x ? engine_synth_text(ev, pq, c->p->pred) : NULL;
  uint64_t h = 0;
  int same = -1;
  if (!text || synth_runner_engine(x, ev->engine ? &ev->target : NULL, c->g->db_id) ||
      synth_realm_answer(x, ga->realm, text, &h, &same)) {
    free(text);
    return; /* no verdict */
  }
  free(text);
  a->answer = h;
  a->agree = same;
  if (same == 0 && h && ga->gold_absent == 0 && (db = synth_realm_load(x, ga->realm, 0)) &&
      evidence_absent_values(pq, db) > 0)
    a->answer = 0, a->absent = 1;
}

sqlsim_witness *sqlsim_evaluator_witness(sqlsim_evaluator *ev, const char *gold, const char *pred, const char *db_id) {
  if (!gold || !pred) return NULL;
  worker *w = engine_worker_get(ev);
  const gold_prep *g = engine_gold_for(ev, w, gold, db_id);
  sqlsim_witness *wit = NULL;
  char why[256];
  sqlsim_db *db = g->audit.with_db || (g->ran && !g->audit.realm) ? engine_worker_db(ev, w, g->path, db_id, why, sizeof why)
                                                                   : NULL;
  if (db) { /* the item's database: the rows each returned that the other did not */
    sqlsim_result gr, pr;
    sqlsim_exec_flags(db, gold, 0, &gr);
    sqlsim_exec_flags(db, pred, 0, &pr);
    if (gr.status == SQLSIM_EXEC_OK && pr.status == SQLSIM_EXEC_OK) wit = ex_witness(db, gold, pred, &gr, &pr);
    sqlsim_result_free(&gr);
    sqlsim_result_free(&pr);
  } else if (g->audit.realm && g->tree) { /* a realistic generated database where they differ */
    sqlsim_query *pq = NULL;
    sqlsim_error err = {0};
    sqlsim_synth_runner *x = engine_worker_synth(ev, w);
    if (x && !sqlsim_parse(pred, strlen(pred), g->schema, ev->parse_options, &pq, &err) &&
        !synth_runner_engine(x, ev->engine ? &ev->target : NULL, db_id)) {
      char *text = engine_synth_text(ev, pq, pred);
      if (text) wit = synth_realm_witness(x, g->audit.realm, text);
      free(text);
    }
    sqlsim_query_free(pq);
  }
  engine_worker_put(ev, w);
  return wit;
}

/* ---------------------------------------------------------------- the analysis and the repair */

/* The repair's check of repaired predictions (analyze/repair.c): where the
 * pair was judged, the real databases (the evaluator's EX, on every database
 * of the item), else the pair's own generated databases (kept by its
 * synthetic run). */
static int repair_check(void *ctx, const char *const *sqls, int n, double deadline, int *pass, double *graded) {
  engine_pair *c = ctx;
  sqlsim_evaluator *ev = c->ev;
  if (c->r->exec.bird >= 0) { /* the real databases */
    ex_opts o = {.keep_distinct = ev->cfg.keep_distinct, .plug_value = ev->cfg.plug_value,
                 .bird = ev->cfg.bird_semantics};
    engine_pool pool = {ev, c->w, c->g->db_id};
    for (int i = 0; i < n; i++) {
      if (sbx_clock() > deadline) {
        pass[i] = -1;
        graded[i] = 0;
        continue;
      }
      ex_verdict v;
      ex_score(&c->g->ex, c->g->sql, sqls[i], &o, engine_pool_open, &pool, &v);
      sqlsim_witness_free(v.witness);
      pass[i] = (ev->cfg.bird_semantics ? v.bird : v.spider) == 1;
      graded[i] = pass[i];
    }
    return 0;
  }
  if (!c->w->synth) return -1; /* the pair's run made the runner */
  sqlsim_error err = {0};
  return synth_many(c->w->synth, c->g->tree, c->g->sql, engine_pred(c), c->p->pred, sqls, n, deadline, pass, graded,
                    &err)
             ? -1
             : 0;
}

void engine_stage_analysis(engine_pair *c) {
  sqlsim_evaluator *ev = c->ev;
  sqlsim_record *r = c->r;
  r->repair.asked = ev->cfg.repair;
  analyze_input in = {.diff = c->diff, .schema = c->g->schema, .bird = ev->cfg.bird_semantics,
                      .pred_error_offset = c->pred_offset, .gold = c->g->tree, .pred = engine_pred(c),
                      .pred_sql = c->p->pred, .equiv_flags = engine_equiv_flags(ev),
                      .check = ev->cfg.repair ? repair_check : NULL, .ctx = c, .repair_checks = REPAIR_CHECKS,
                      .repair_time_s = REPAIR_TIME_S};
  sqlsim_analysis_part an = {0};
  sqlsim_repair_part rep = {.asked = r->repair.asked};
  analyze_pair(&in, r, record_arena(r), &an, &rep);
  r->analysis = an;
  r->repair = rep;
}

/* ---------------------------------------------------------------- one pair */

/* With config.extract, the SQL of the prediction (a model's answer): in the
 * record's arena, with where it was found; "" when there is none (every
 * metric then fails, and the record's error says why). */
static const char *answer_of(const sqlsim_evaluator *ev, const char *pred, sqlsim_record *r) {
  r->answer.from = -1;
  if (!ev->cfg.extract) return pred;
  sqlsim_extract x;
  if (sqlsim_extract_sql(pred, strlen(pred), &x)) {
    r->answer.from = SQLSIM_FROM_NONE;
    return "";
  }
  r->answer.from = x.from;
  r->answer.sql = sqlsim_arena_strndup(record_arena(r), pred + x.start, x.len);
  return r->answer.sql ? r->answer.sql : "";
}

/* The calibrated score with synthetic execution (docs/synthetic.md): when a
 * generated database counted, (pass + 0.1 graded + 0.01 structure) / 1.11, so
 * agreeing everywhere decides, the share of databases that agree orders the
 * rest and structure breaks ties; else structure alone. The weights were
 * chosen on the 7 Spider files of ../shared (ROC AUC against official EX
 * 0.969, against 0.968 for 0.5 / 0.45 / 0.05). */
static double combined_score(const sqlsim_record *r) {
  if (!r->has_synth || r->synth.pass < 0) return r->structure.score;
  return (r->synth.pass + 0.1 * r->synth.graded + 0.01 * r->structure.score) / 1.11;
}

void engine_score_pair(sqlsim_evaluator *ev, worker *w, const sqlsim_pair *pair, sqlsim_record *r) {
  memset(r, 0, sizeof *r);
  sqlsim_pair answer = *pair;
  answer.pred = answer_of(ev, pair->pred, r);
  r->metrics = ev->cfg.metrics;
  r->witness_asked = ev->cfg.witness;
  r->exec.spider = r->exec.bird = -1;
  r->exec.gold_rows = r->exec.pred_rows = -1;
  const gold_prep *g = engine_gold_for(ev, w, answer.gold, answer.db_id);
  r->hardness = g->hardness;
  memcpy(r->gold_err, g->gold_err, sizeof r->gold_err);
  memcpy(r->match_err, g->match_err, sizeof r->match_err);
  engine_pair c = {.ev = ev, .w = w, .p = &answer, .g = g, .r = r, .pred_offset = -1};
  ENGINE_FOR_METRICS(e)
    if (e->score && !e->timed && engine_metric_on(e, r->metrics)) e->score(&c);
  r->score = combined_score(r);
  if (c.exec_witness) record_take_witness(r, c.exec_witness); /* a real database's evidence outranks */
  sqlsim_diff_free(c.diff);
  sqlsim_query_free(c.pred_eq);
  sqlsim_query_free(c.pred);
}

/* ---------------------------------------------------------------- timing */

/* Is this pair's gold one of the noise floor's? About one in noise_every,
 * by a hash of the gold and its database: the same golds whatever the batch
 * sizes, the order or the worker (a Dask run samples as one process does). */
static int noise_sample(const sqlsim_evaluator *ev, const sqlsim_pair *p) {
  if (ev->cfg.noise_every < 1) return 0;
  uint64_t h = fnv1a_str(fnv1a_str(FNV_OFFSET, p->gold), p->db_id);
  return mix64(h) % (uint64_t)ev->cfg.noise_every == 0;
}

void engine_stage_timing(engine_pair *c) {
  sqlsim_evaluator *ev = c->ev;
  sqlsim_record *r = c->r;
  if (r->exec.bird != 1) return; /* the correctness gate */
  const sqlsim_pair *p = c->p;
  char buf[1024];
  const char *path = engine_db_path(ev, p->db_id, buf, sizeof buf);
  if (!path) return;
  sqlsim_timing_opts o = {.iterations = ev->cfg.iterations, .timeout_s = ev->cfg.timeout_s,
                          .fixed_now = ev->cfg.now, .alternate = ev->cfg.alternate, .cancel = c->cancel,
                          .auto_width = ev->cfg.auto_width, .reuse = ev->cfg.reuse_connection};
  sqlsim_time_pair(path, p->gold, p->pred, &o, &r->timing);
  r->has_timing = 1;
  if (r->timing.ok && noise_sample(ev, p)) {
    sqlsim_time_pair(path, p->gold, p->gold, &o, &r->self_timing);
    r->has_self_timing = r->self_timing.ok;
  }
}

void engine_time_pair(sqlsim_evaluator *ev, const sqlsim_pair *pair, sqlsim_record *r, const volatile int *cancel) {
  sqlsim_pair answer = *pair;
  if (r->answer.sql) answer.pred = r->answer.sql; /* the SQL scored, not the model's whole answer */
  engine_pair c = {.ev = ev, .p = &answer, .r = r, .cancel = cancel};
  ENGINE_FOR_METRICS(e)
    if (e->score && e->timed && engine_metric_on(e, r->metrics)) e->score(&c);
}

int sqlsim_evaluate(sqlsim_evaluator *ev, const char *gold, const char *pred, const char *db_id,
                    sqlsim_record *out, sqlsim_error *err) {
  memset(out, 0, sizeof *out);
  if (!gold || !pred) return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "a pair needs a gold and a predicted query");
  sqlsim_pair p = {gold, pred, db_id};
  worker *w = engine_worker_get(ev);
  engine_score_pair(ev, w, &p, out);
  engine_worker_put(ev, w);
  engine_time_pair(ev, &p, out, NULL);
  return 0;
}
