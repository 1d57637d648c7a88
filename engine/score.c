/* score.c -- one pair: every metric the evaluator computes, on a worker.
 *
 * Spider matching against the gold prepared once (workers.c); the
 * prediction parsed with the gold's schema; synthetic execution on databases
 * made from the schema (synth/); the tree diff against the gold as written
 * (BIS) and with equivalent forms made one (the calibrated score); EX on every
 * database of the item (metrics/ex.c); then, with the categories asked for,
 * the error analysis of all of it (analyze/). Timing runs apart (alone on the
 * machine), for pairs EX found correct. */
#include "engine.h"
#include "analyze/analyze.h"
#include "exec/sandbox.h"
#include "synth/runner.h"

#include <string.h>

/* The repair's budget per wrong pair (docs/error-categories.md): repaired
 * predictions run, and the time after which none is started. */
#define REPAIR_CHECKS 64
#define REPAIR_TIME_S 0.5

/* The prediction parsed with the gold's schema, or NULL with the record
 * saying why (bis = score = 0) and *offset where (-1 unknown). */
static sqlsim_query *parse_pred(const gold_prep *g, const char *pred, sqlsim_record *r, int *offset) {
  sqlsim_query *q;
  sqlsim_error err = {0};
  *offset = -1;
  if (!sqlsim_parse(pred, strlen(pred), g->schema, 0, &q, &err)) return q;
  snprintf(r->bis_err, sizeof r->bis_err, "the prediction does not parse (offset %d): %.200s", err.offset,
           err.message);
  *offset = err.offset;
  return NULL;
}

/* The tree diff against the gold as written (BIS similarity) and against its
 * equivalence-normalized form (calibrated score). q is changed (equivalent
 * forms made one). With keep, *keep gets the calibrated diff (the caller
 * frees it, before q: its edits point into q), NULL when not compared. */
static void score_structure(sqlsim_evaluator *ev, const gold_prep *g, sqlsim_query *q, sqlsim_record *r,
                            sqlsim_diff **keep) {
  sqlsim_error err = {0};
  if (keep) sqlsim_dialect_construct(q, engine_record_arena(r), &r->dialect);
  sqlsim_diff *d;
  if (sqlsim_diff_trees(g->tree->root, q->root, &d, &err) == 0) {
    r->bis = d->bis;
    sqlsim_diff_free(d);
  } else {
    snprintf(r->diff_err, sizeof r->diff_err, "not compared by structure: %.200s", err.message);
  }
  sqlsim_equiv_normalize_as(q, engine_equiv_flags(ev));
  if (sqlsim_diff_trees(g->tree_eq->root, q->root, &d, &err) == 0) {
    r->score = d->score;
    if (keep) *keep = d;
    else sqlsim_diff_free(d);
  } else if (!r->diff_err[0]) {
    snprintf(r->diff_err, sizeof r->diff_err, "not compared by structure: %.200s", err.message);
  }
}

/* Synthetic execution on databases made from the gold's schema (q may be
 * NULL: a prediction that does not parse still runs, and fails or not). */
static void score_synth(sqlsim_evaluator *ev, worker *w, const gold_prep *g, const char *pred,
                        const sqlsim_query *q, sqlsim_record *r) {
  if (!g->schema) {
    snprintf(r->synth_err, sizeof r->synth_err, "no schema for db_id '%.200s'", g->db_id ? g->db_id : "");
    return;
  }
  if (!w->synth) {
    sqlsim_synth_opts o = {.databases = ev->cfg.synth_databases, .bird = ev->cfg.bird_semantics,
                           .keep_distinct = ev->cfg.keep_distinct, .fixed_now = ev->cfg.now,
                           .strict = (ev->cfg.metrics & SQLSIM_M_STRICT) != 0, .witness = ev->cfg.witness};
    if (!(w->synth = sqlsim_synth_runner_new(&o))) {
      snprintf(r->synth_err, sizeof r->synth_err, "out of memory");
      return;
    }
    synth_runner_keep(w->synth, ev->cfg.repair); /* the repair checks on the pair's databases */
  }
  sqlsim_error err = {0};
  if (sqlsim_synth_trees(w->synth, g->tree, g->sql, q, pred, &r->synth, &err)) {
    snprintf(r->synth_err, sizeof r->synth_err, "%.250s", err.message);
  } else {
    r->has_synth = 1;
    r->witness = r->synth.witness; /* the record owns it now */
  }
  r->synth.witness = NULL;
}

/* The calibrated score with synthetic execution (docs/synthetic.md): when a
 * generated database counted, (pass + 0.1 graded + 0.01 structure) / 1.11, so
 * agreeing everywhere decides, the share of databases that agree orders the
 * rest and structure breaks ties; else structure alone. The weights were
 * chosen on the 7 Spider files of ../shared (ROC AUC against official EX
 * 0.969, against 0.968 for 0.5 / 0.45 / 0.05). */
static double combined_score(const sqlsim_record *r) {
  if (!r->has_synth || r->synth.pass < 0) return r->score_structure;
  return (r->synth.pass + 0.1 * r->synth.graded + 0.01 * r->score_structure) / 1.11;
}

/* EX on every database of the item, both semantics (metrics/ex.c), and BIS
 * result similarity on its own database. */
static void score_exec(sqlsim_evaluator *ev, worker *w, const gold_prep *g, const char *pred, sqlsim_record *r) {
  ex_opts o = {.keep_distinct = ev->cfg.keep_distinct, .plug_value = ev->cfg.plug_value,
               .result = (ev->cfg.metrics & SQLSIM_M_RESULT) != 0, .witness = ev->cfg.witness,
               .bird = ev->cfg.bird_semantics};
  engine_pool c = {ev, w};
  ex_verdict v;
  ex_score(&g->ex, g->sql, pred, &o, engine_pool_open, &c, &v);
  r->databases = v.databases;
  r->ex_bird = v.bird;
  r->ex_spider = v.spider;
  r->gold_rows = v.gold_rows;
  r->pred_rows = v.pred_rows;
  r->has_rsim = v.has_rsim;
  r->rsim = v.rsim;
  memcpy(r->ex_err, v.err, sizeof r->ex_err);
  if (v.witness) { /* a real database's evidence outranks a generated one's */
    sqlsim_witness_free(r->witness);
    r->witness = v.witness;
  }
}

/* With config.extract, the SQL of the prediction (a model's answer): in the
 * record's arena, with where it was found; "" when there is none (every
 * metric then fails, and the record's error says why). */
static const char *answer_of(const sqlsim_evaluator *ev, const char *pred, sqlsim_record *r) {
  r->answer_from = -1;
  if (!ev->cfg.extract) return pred;
  sqlsim_extract x;
  if (sqlsim_extract_sql(pred, strlen(pred), &x)) {
    r->answer_from = SQLSIM_FROM_NONE;
    return "";
  }
  r->answer_from = x.from;
  r->answer_sql = sqlsim_arena_strndup(engine_record_arena(r), pred + x.start, x.len);
  return r->answer_sql ? r->answer_sql : "";
}

/* A prediction that fails to parse or to run because it is a model's whole
 * answer (a fence, <think>, "Final answer:" around its SQL) says so, with the
 * way to score its SQL, instead of SQLite's bare "syntax error". */
static void explain_answer(const char *pred, sqlsim_record *r) {
  if (!r->ex_err[0] && !r->bis_err[0]) return;
  sqlsim_extract x;
  if (sqlsim_extract_sql(pred, strlen(pred), &x) || x.from == SQLSIM_FROM_TEXT) return;
  static const char *where[] = {"", "in a Markdown code fence", "in an <answer> element", "after a final-answer marker",
                                "after </think>", "before other text"};
  char msg[256];
  snprintf(msg, sizeof msg, "the prediction is a model's answer, not SQL: its SQL is %s at offset %zu (score answers with "
           "--extract, or extract=True in Python)", where[x.from], x.start);
  if (r->ex_err[0]) snprintf(r->ex_err, sizeof r->ex_err, "%s", msg);
  if (r->bis_err[0]) snprintf(r->bis_err, sizeof r->bis_err, "%s", msg);
}

/* ---------------------------------------------------------------- repair */

/* The repair's check of repaired predictions (analyze/repair.c): where the
 * pair was judged, the real databases (the evaluator's EX, on every database
 * of the item), else the pair's own generated databases (kept by its
 * synthetic run). */
typedef struct repair_ctx {
  sqlsim_evaluator *ev;
  worker *w;
  const gold_prep *g;
  const sqlsim_record *r;
  const char *pred;        /* the prediction's text: its literals are planted */
  sqlsim_query *pred_q;    /* ... parsed with the gold's schema, on the first check that wants it */
  int parsed;
} repair_ctx;

static int repair_check(void *ctx, const char *const *sqls, int n, double deadline, int *pass, double *graded) {
  repair_ctx *c = ctx;
  sqlsim_evaluator *ev = c->ev;
  if (c->r->ex_bird >= 0) { /* the real databases */
    ex_opts o = {.keep_distinct = ev->cfg.keep_distinct, .plug_value = ev->cfg.plug_value,
                 .bird = ev->cfg.bird_semantics};
    engine_pool pool = {ev, c->w};
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
  if (!c->parsed && sqlsim_parse(c->pred, strlen(c->pred), c->g->schema, 0, &c->pred_q, &err)) c->pred_q = NULL;
  c->parsed = 1;
  return synth_many(c->w->synth, c->g->tree, c->g->sql, c->pred_q, c->pred, sqls, n, deadline, pass, graded, &err)
             ? -1
             : 0;
}

void engine_score_pair(sqlsim_evaluator *ev, worker *w, const sqlsim_pair *pair, sqlsim_record *r) {
  unsigned m = ev->cfg.metrics;
  memset(r, 0, sizeof *r);
  sqlsim_pair answer = *pair, *p = &answer;
  answer.pred = answer_of(ev, pair->pred, r);
  r->metrics = m;
  r->witness_asked = ev->cfg.witness;
  r->ex_spider = r->ex_bird = -1;
  r->gold_rows = r->pred_rows = -1;
  const gold_prep *g = engine_gold_for(ev, w, p->gold, p->db_id);
  r->hardness = g->hardness;
  memcpy(r->gold_err, g->gold_err, sizeof r->gold_err);
  memcpy(r->match_err, g->match_err, sizeof r->match_err);
  if ((m & SQLSIM_M_MATCH) && g->spider) {
    sqlsim_spider_score_pred(w->spider, g->spider, p->pred, &r->match);
    r->has_match = 1;
  }
  int cats = (m & SQLSIM_M_CATEGORIES) != 0, offset = -1;
  sqlsim_query *q = NULL;
  sqlsim_diff *d = NULL; /* the calibrated diff, kept for the categories */
  if ((m & SQLSIM_M_BIS) && g->tree) {
    r->has_bis = 1;
    q = parse_pred(g, p->pred, r, &offset);
    if (m & SQLSIM_M_SYNTH) score_synth(ev, w, g, p->pred, q, r);
    if (q) score_structure(ev, g, q, r, cats ? &d : NULL);
    r->score_structure = r->score;
    if (m & SQLSIM_M_SYNTH) r->score = combined_score(r);
  }
  if ((m & SQLSIM_M_DB) && g->ran) score_exec(ev, w, g, p->pred, r);
  if (!ev->cfg.extract) explain_answer(p->pred, r);
  if (cats) {
    r->repair_asked = ev->cfg.repair;
    repair_ctx rc = {ev, w, g, r, p->pred, NULL, 0};
    analyze_input in = {.diff = d, .schema = g->schema, .bird = ev->cfg.bird_semantics, .pred_error_offset = offset,
                        .gold = g->tree, .pred_sql = p->pred, .equiv_flags = engine_equiv_flags(ev),
                        .check = ev->cfg.repair ? repair_check : NULL, .ctx = &rc, .repair_checks = REPAIR_CHECKS,
                        .repair_time_s = REPAIR_TIME_S};
    analyze_pair(&in, r);
    sqlsim_query_free(rc.pred_q);
  }
  sqlsim_diff_free(d);
  sqlsim_query_free(q);
}

/* Is this pair's gold one of the noise floor's? About one in noise_every,
 * by a hash of the gold and its database: the same golds whatever the batch
 * sizes, the order or the worker (a Dask run samples as one process does). */
static int noise_sample(const sqlsim_evaluator *ev, const sqlsim_pair *p) {
  if (ev->cfg.noise_every < 1) return 0;
  uint64_t h = fnv1a_str(fnv1a_str(FNV_OFFSET, p->gold), p->db_id);
  return mix64(h) % (uint64_t)ev->cfg.noise_every == 0;
}

void engine_time_pair(sqlsim_evaluator *ev, const sqlsim_pair *pair, sqlsim_record *r, const volatile int *cancel) {
  if (!(ev->cfg.metrics & SQLSIM_M_TIMING) || r->ex_bird != 1) return; /* the correctness gate */
  sqlsim_pair answer = *pair, *p = &answer;
  if (r->answer_sql) answer.pred = r->answer_sql; /* the SQL scored, not the model's whole answer */
  char buf[1024];
  const char *path = engine_db_path(ev, p->db_id, buf, sizeof buf);
  if (!path) return;
  sqlsim_timing_opts o = {.iterations = ev->cfg.iterations, .timeout_s = ev->cfg.timeout_s,
                          .fixed_now = ev->cfg.now, .alternate = ev->cfg.alternate, .cancel = cancel,
                          .auto_width = ev->cfg.auto_width, .reuse = ev->cfg.reuse_connection};
  sqlsim_time_pair(path, p->gold, p->pred, &o, &r->timing);
  r->has_timing = 1;
  if (r->timing.ok && noise_sample(ev, p)) {
    sqlsim_time_pair(path, p->gold, p->gold, &o, &r->self_timing);
    r->has_self_timing = r->self_timing.ok;
  }
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
