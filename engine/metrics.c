/* metrics.c -- the metric table: each metric once, with the metrics it
 * implies, what it needs, the stage that scores it and the per-item fields
 * it writes.
 *
 * The evaluator checks a configuration against the table (what a metric
 * needs, what it implies), the engine scores a pair by walking it
 * (score.c: each entry's stage, in table order), and a record's fields are
 * written by walking it (sqlsim_record_write): through the JSON sink for the
 * per-item lines, the stream and sqlsim_record_to_json, through the Python
 * face's sink for its dicts. The table is in the order of the per-item line;
 * an entry without a flag is a part of every record (its fields say when),
 * not a metric.
 *
 * Adding a metric: its SQLSIM_M_ flag and its part of the record (sqlsim.h),
 * one entry here, its stage and its fields (docs/engine.md, "Adding a
 * metric"). */
#include "engine.h"
#include "record/record.h"

#include <pthread.h>
#include <string.h>

/* ---------------------------------------------------------------- fields */

#define K(name) s->key(x, name)

static void str_or_null(const sqlsim_sink *s, void *x, const char *v) {
  if (v) s->string(x, v);
  else s->null(x);
}

static void fields_hardness(const sqlsim_record *r, const sqlsim_sink *s, void *x) {
  if (r->metrics == SQLSIM_M_SPIDER2) return; /* a task has no Spider hardness */
  K("hardness");
  str_or_null(s, x, r->hardness >= 0 && r->hardness < SQLSIM_HARD_UNKNOWN ? sqlsim_hardness_names[r->hardness] : NULL);
}

static void fields_match(const sqlsim_record *r, const sqlsim_sink *s, void *x) {
  if (!r->has_match) {
    K("exact"), s->null(x);
    K("partial"), s->null(x);
    return;
  }
  K("exact"), s->integer(x, r->match.exact);
  K("partial"), s->begin(x, 0);
  for (int k = 0; k < SQLSIM_SPIDER_NPARTIAL; k++) K(sqlsim_spider_partial_names[k]), s->integer(x, r->match.f1[k]);
  s->end(x, 0);
}

static void fields_exec(const sqlsim_record *r, const sqlsim_sink *s, void *x) {
  K("ex");
  if (r->exec.bird < 0) {
    s->null(x);
    return;
  }
  s->begin(x, 0);
  K("spider"), s->integer(x, r->exec.spider);
  K("bird"), s->integer(x, r->exec.bird);
  s->end(x, 0);
  K("databases"), s->integer(x, r->exec.databases);
  if (r->exec.reconnected) K("reconnected"), s->boolean(x, 1); /* a server's connection was made again */
}

/* NAME_ratio and NAME_interval of a timing. */
static void ratio_fields(const sqlsim_sink *s, void *x, const char *ratio, const char *interval,
                         const sqlsim_timing *t) {
  K(ratio), s->number(x, t->ratio);
  K(interval), s->begin(x, 1);
  s->number(x, t->ci_low);
  s->number(x, t->ci_high);
  s->end(x, 1);
}

static void fields_timing(const sqlsim_record *r, const sqlsim_sink *s, void *x) {
  if (!r->has_timing || !r->timing.ok) {
    K("ves_ratio"), s->null(x);
    K("ves_interval"), s->null(x);
    K("rves_reward"), s->integer(x, 0);
    return;
  }
  ratio_fields(s, x, "ves_ratio", "ves_interval", &r->timing);
  K("first_row_ratio"), s->number(x, r->timing.first_row_ratio);
  K("iterations"), s->integer(x, r->timing.n);
  K("kept"), s->integer(x, r->timing.kept);
  K("rves_reward"), s->number(x, sqlsim_rves_reward(r->timing.ratio));
  /* this item's gold also timed against itself: the noise floor */
  if (r->has_self_timing) ratio_fields(s, x, "self_ratio", "self_interval", &r->self_timing);
}

static void fields_bis(const sqlsim_record *r, const sqlsim_sink *s, void *x) {
  if (!r->structure.has) {
    K("bis"), s->null(x);
    K("score"), s->null(x);
    return;
  }
  K("bis"), s->number(x, r->structure.bis);
  K("score"), s->number(x, r->score);
}

static void fields_synth(const sqlsim_record *r, const sqlsim_sink *s, void *x) {
  K("score_structure");
  if (r->structure.has) s->number(x, r->structure.score);
  else s->null(x);
  const sqlsim_synth *y = &r->synth;
  if (!r->has_synth) {
    K("synth"), s->null(x);
    K("synth_pass"), s->null(x);
    K("synth_informative"), s->integer(x, 0);
    return;
  }
  K("synth"), s->number(x, y->graded);
  K("synth_pass");
  if (y->pass < 0) s->null(x);
  else s->boolean(x, y->pass);
  K("synth_informative"), s->integer(x, y->informative);
  K("synth_databases"), s->integer(x, y->databases);
  K("synth_ties"), s->integer(x, y->ties);
  K("synth_gold_empty"), s->boolean(x, y->gold_empty);
  K("synth_why"), str_or_null(s, x, y->why[0] ? y->why : NULL);
}

static void fields_strict(const sqlsim_record *r, const sqlsim_sink *s, void *x) {
  const sqlsim_synth *y = &r->synth;
  if (r->has_synth && y->strict >= 0) {
    K("strict"), s->boolean(x, y->strict);
    K("strict_databases"), s->integer(x, y->strict_databases);
    K("suite"), s->integer(x, y->suite);
    K("neighbors"), s->integer(x, y->neighbors);
    K("coverage");
    if (y->neighbors) s->number(x, (double)y->told / y->neighbors);
    else s->null(x);
    K("needs_null");
    if (y->strict == 0 && y->needs_null >= 0) s->boolean(x, y->needs_null);
    else s->null(x);
  } else {
    K("strict"), s->null(x);
    K("strict_databases"), s->integer(x, 0);
    K("suite"), s->null(x);
    K("neighbors"), s->null(x);
    K("coverage"), s->null(x);
    K("needs_null"), s->null(x);
  }
  K("strict_why"), str_or_null(s, x, r->has_synth && y->strict_why[0] ? y->strict_why : NULL);
  K("bound");
  if (r->has_synth && y->strict >= 0 && y->bound > 0) s->integer(x, y->bound);
  else s->null(x);
  K("solver"), str_or_null(s, x, r->has_synth && y->solver[0] ? y->solver : NULL);
}

static void fields_result(const sqlsim_record *r, const sqlsim_sink *s, void *x) {
  int has = r->exec.has_rsim;
  K("result_p"), has ? s->number(x, r->exec.rsim.p) : s->null(x);
  K("result_r"), has ? s->number(x, r->exec.rsim.r) : s->null(x);
  K("result_f1"), has ? s->number(x, r->exec.rsim.f1) : s->null(x);
}

/* Soft F1 with every digit (the per-item lines' numbers have six): the
 * figure is mini-dev's to the last bit, and checked so. */
static void fields_soft_f1(const sqlsim_record *r, const sqlsim_sink *s, void *x) {
  K("soft_f1");
  if (!r->exec.has_soft_f1) {
    s->null(x);
    return;
  }
  strbuf t = {0};
  sb_json_real(&t, r->exec.soft_f1);
  s->json(x, t.buf);
  sb_free(&t);
}

/* spider2: the script's score, the gold file that matched, the row-by-row
 * judgement when asked (docs/spider2.md). */
static void fields_spider2(const sqlsim_record *r, const sqlsim_sink *s, void *x) {
  const sqlsim_spider2_part *p = &r->spider2;
  K("score"), s->integer(x, p->has ? p->score : 0);
  K("variant"), str_or_null(s, x, p->variant);
  if (p->rows >= 0) K("rows"), s->integer(x, p->rows);
}

/* With config.extract: where the answer's SQL was found, and the SQL. */
static void fields_answer(const sqlsim_record *r, const sqlsim_sink *s, void *x) {
  if (!r->answer.sql && r->answer.from != SQLSIM_FROM_NONE) return;
  K("answer"), s->begin(x, 0);
  K("from"), s->string(x, sqlsim_extract_names[r->answer.from]);
  K("sql"), str_or_null(s, x, r->answer.sql);
  s->end(x, 0);
}

static void witness_value(const sqlsim_witness *w, const sqlsim_sink *s, void *x) {
  if (!w) {
    s->null(x);
    return;
  }
  s->begin(x, 0);
  K("verdict"), s->string(x, w->verdict);
  K("database"), str_or_null(s, x, w->database);
  K("rows"), s->integer(x, w->rows);
  K("gold_sql"), s->string(x, w->gold_sql ? w->gold_sql : "");
  K("pred_sql"), s->string(x, w->pred_sql ? w->pred_sql : "");
  K("gold_rows"), s->json(x, w->gold_rows ? w->gold_rows : "[]");
  K("pred_rows"), s->json(x, w->pred_rows ? w->pred_rows : "[]");
  K("gold_count"), w->gold_count >= 0 ? s->integer(x, w->gold_count) : s->null(x);
  K("pred_count"), w->pred_count >= 0 ? s->integer(x, w->pred_count) : s->null(x);
  K("pred_error"), str_or_null(s, x, w->pred_error);
  s->end(x, 0);
}

/* With config.witness: a wrong pair's evidence, or null. */
static void fields_witness(const sqlsim_record *r, const sqlsim_sink *s, void *x) {
  if (!r->witness_asked) return;
  K("witness");
  witness_value(r->witness, s, x);
}

/* "category", "categories" (ranked) and "evidence" (per category). */
static void categories_fields(const sqlsim_categories *k, const sqlsim_sink *s, void *x) {
  K("category"), str_or_null(s, x, k->main >= 0 ? sqlsim_category_names[k->main] : NULL);
  K("categories"), s->begin(x, 1);
  for (int i = 0; i < k->nranked; i++) s->string(x, sqlsim_category_names[k->ranked[i]]);
  s->end(x, 1);
  K("evidence"), s->begin(x, 0);
  for (int i = 0; i < k->nranked; i++) {
    int c = k->ranked[i];
    if (k->evidence[c]) K(sqlsim_category_names[c]), s->string(x, k->evidence[c]);
  }
  s->end(x, 0);
}

/* config.repair: null for a pair that is not wrong (or was not judged); the
 * repair found; or why none was. */
static void repair_value(const sqlsim_repair_part *p, const sqlsim_sink *s, void *x) {
  if (!p->sql && !p->note) {
    s->null(x);
    return;
  }
  s->begin(x, 0);
  K("sql"), str_or_null(s, x, p->sql);
  if (p->sql) {
    categories_fields(&p->cats, s, x);
    K("no_effect"), str_or_null(s, x, p->no_effect);
  } else {
    K("note"), s->string(x, p->note);
  }
  K("checks"), s->integer(x, p->checks);
  s->end(x, 0);
}

static void fields_categories(const sqlsim_record *r, const sqlsim_sink *s, void *x) {
  categories_fields(&r->analysis.cats, s, x);
  if (r->repair.asked) K("repair"), repair_value(&r->repair, s, x);
  K("structure_only"), s->boolean(x, r->exec.bird < 0);
}

/* config.audit: the prediction's answer as the audit compares answers, and
 * the gold's own evidence (docs/per-item.md). */
static void fields_audit(const sqlsim_record *r, const sqlsim_sink *s, void *x) {
  const sqlsim_audit_part *a = &r->audit;
  if (!a->has) return;
  K("audit"), s->begin(x, 0);
  char hex[20];
  snprintf(hex, sizeof hex, "%016llx", a->answer);
  K("answer"), a->answer ? s->string(x, hex) : s->null(x);
  K("agree"), a->agree >= 0 ? s->integer(x, a->agree) : s->null(x);
  K("absent"), s->boolean(x, a->absent);
  K("gold_ok"), s->boolean(x, a->gold_ok);
  K("generated"), s->boolean(x, a->generated);
  strbuf ev = {0};
  sb_printf(&ev, "[%s]", a->evidence ? a->evidence : "");
  K("evidence"), s->json(x, ev.buf);
  sb_free(&ev);
  K("error"), str_or_null(s, x, a->error && a->error[0] ? a->error : NULL);
  s->end(x, 0);
}

static void fields_error(const sqlsim_record *r, const sqlsim_sink *s, void *x) {
  const char *side;
  int offset;
  const char *msg = sqlsim_record_error(r, &side, &offset);
  K("error");
  if (!msg) {
    s->null(x);
    return;
  }
  s->begin(x, 0);
  K("message"), s->string(x, msg);
  K("offset"), offset >= 0 ? s->integer(x, offset) : s->null(x);
  K("side"), s->string(x, side);
  s->end(x, 0);
}

#undef K

/* ---------------------------------------------------------------- the table */

const engine_metric engine_metrics[] = {
    {.fields = fields_hardness},
    {"match", SQLSIM_M_MATCH, .needs = ENGINE_NEEDS_TABLES, .score = engine_stage_match, .fields = fields_match,
     .help = "Spider exact set match and partial components"},
    {"exec", SQLSIM_M_EXEC, .needs = ENGINE_NEEDS_DATABASES, .with = SQLSIM_M_DB, .score = engine_stage_exec,
     .fields = fields_exec, .help = "execution accuracy (EX): Spider's test-suite and BIRD's semantics"},
    {"ves", SQLSIM_M_VES, .needs = ENGINE_NEEDS_DATABASES, .with = SQLSIM_M_TIMING, .timed = 1,
     .score = engine_stage_timing, .fields = fields_timing, .help = "BIRD's VES: the timing ratio of correct pairs"},
    {"rves", SQLSIM_M_RVES, .needs = ENGINE_NEEDS_DATABASES, .help = "mini-dev's R-VES reward (ves's timing)"},
    {"bis", SQLSIM_M_BIS, .score = engine_stage_structure, .fields = fields_bis,
     .help = "BIS tree similarity and the calibrated score"},
    {"synth", SQLSIM_M_SYNTH, .implies = SQLSIM_M_BIS, .needs = ENGINE_NEEDS_SCHEMA, .score = engine_stage_synth,
     .fields = fields_synth, .help = "execution on databases generated from the schema, no database needed"},
    {"strict", SQLSIM_M_STRICT, .implies = SQLSIM_M_SYNTH, .needs = ENGINE_NEEDS_SCHEMA, .fields = fields_strict,
     .help = "equivalence under the schema: the gold's distilled suite and the pair's own search"},
    {"result", SQLSIM_M_RESULT, .needs = ENGINE_NEEDS_DATABASES, .fields = fields_result,
     .help = "BIS result similarity (exec's stage)"},
    {"soft_f1", SQLSIM_M_SOFT_F1, .needs = ENGINE_NEEDS_DATABASES, .fields = fields_soft_f1,
     .help = "BIRD mini-dev's Soft F1-Score (exec's stage)"},
    {"spider2", SQLSIM_M_SPIDER2, .score = engine_stage_spider2, .fields = fields_spider2,
     .help = "Spider 2.0's judgement: a result table against the task's gold tables (config spider2)"},
    {.fields = fields_answer},
    {.fields = fields_witness},
    {"categories", SQLSIM_M_CATEGORIES, .implies = SQLSIM_M_BIS, .score = engine_stage_analysis,
     .fields = fields_categories, .help = "error categories with their evidence (sqlsim analyze's)"},
    {.score = engine_stage_audit, .fields = fields_audit}, /* config.audit: what the benchmark's audit reads */
    {.fields = fields_error},
    {0},
};

/* Whether entry e's stage runs and its fields are written under metrics m. */
int engine_metric_on(const engine_metric *e, unsigned m) {
  if (!e->flag) return 1;
  return (m & (e->with ? e->with : e->flag)) != 0;
}

void sqlsim_record_write(const sqlsim_record *r, const sqlsim_sink *s, void *ctx) {
  for (const engine_metric *e = engine_metrics; e->fields || e->name; e++)
    if (e->fields && engine_metric_on(e, r->metrics)) e->fields(r, s, ctx);
}

void engine_record_json(strbuf *sb, const sqlsim_record *r) {
  record_json j;
  record_json_init(&j, sb, 0);
  sqlsim_record_write(r, &record_json_sink, &j);
}

char *sqlsim_record_to_json(const sqlsim_record *r) {
  strbuf sb = {0};
  sb_putc(&sb, '{');
  engine_record_json(&sb, r);
  sb_putc(&sb, '}');
  return sb_take(&sb);
}

char *sqlsim_witness_to_json(const sqlsim_witness *w) {
  strbuf sb = {0};
  engine_witness_json(&sb, w);
  return sb_take(&sb);
}

void engine_witness_json(strbuf *sb, const sqlsim_witness *w) {
  record_json j;
  record_json_init(&j, sb, 0);
  witness_value(w, &record_json_sink, &j);
}

/* ---------------------------------------------------------------- names */

const engine_metric *engine_metric_of(unsigned flag) {
  for (const engine_metric *e = engine_metrics; e->fields || e->name; e++)
    if (e->flag == flag) return e;
  return NULL;
}

const char *sqlsim_metric_name(unsigned flag) {
  const engine_metric *e = engine_metric_of(flag);
  return e ? e->name : NULL;
}

/* The metrics' names, in bit order, comma-separated. */
static void all_names(strbuf *sb) {
  for (int b = 0; b < SQLSIM_NMETRICS; b++) sb_printf(sb, "%s%s", b ? ", " : "", sqlsim_metric_name(1u << b));
}

int sqlsim_metrics_parse(const char *list, unsigned *out, sqlsim_error *err) {
  *out = 0;
  const char *p = list ? list : "";
  while (*p) {
    const char *e = strchr(p, ',');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    unsigned found = 0;
    for (const engine_metric *m = engine_metrics; (m->fields || m->name) && !found; m++)
      if (m->name && strlen(m->name) == n && !strncmp(p, m->name, n)) found = m->flag;
    if (!found && n == 2 && !strncmp(p, "ex", 2)) found = SQLSIM_M_EXEC;
    if (!found) {
      strbuf names = {0};
      all_names(&names);
      sqlsim_error_set(err, SQLSIM_EFORMAT, (int)(p - list), "unknown metric '%.*s' (%s)", (int)(n > 100 ? 100 : n),
                       p, names.buf ? names.buf : "");
      sb_free(&names);
      return SQLSIM_EFORMAT;
    }
    *out |= found;
    p += n;
    if (*p == ',') p++;
  }
  if (!*out) return sqlsim_error_set(err, SQLSIM_EFORMAT, 0, "no metric given");
  return 0;
}

/* The metrics as help text: one line each, in the table's order, with what
 * each needs and implies. Made once. */
static char help_text[2048];
static pthread_once_t help_once = PTHREAD_ONCE_INIT;

static void make_help(void) {
  strbuf sb = {0};
  ENGINE_FOR_METRICS(e) {
    if (!e->name) continue;
    sb_printf(&sb, "  %-11s %s", e->name, e->help ? e->help : "");
    if (e->needs & ENGINE_NEEDS_TABLES) sb_puts(&sb, "; needs --tables");
    if (e->needs & ENGINE_NEEDS_SCHEMA) sb_puts(&sb, "; needs a schema (--tables or --sqlite)");
    if (e->needs & ENGINE_NEEDS_DATABASES) sb_puts(&sb, "; needs databases (--db-dir, --sqlite or --engine)");
    for (unsigned b = 1; b && e->implies; b <<= 1)
      if (e->implies & b) sb_printf(&sb, "; implies %s", sqlsim_metric_name(b));
    sb_putc(&sb, '\n');
  }
  snprintf(help_text, sizeof help_text, "%s", sb.buf ? sb.buf : "");
  sb_free(&sb);
}

const char *sqlsim_metrics_help(void) {
  pthread_once(&help_once, make_help);
  return help_text;
}

/* ---------------------------------------------------------------- what a configuration needs */

unsigned engine_metrics_closure(unsigned m) {
  for (unsigned before = 0; before != m;) {
    before = m;
    for (const engine_metric *e = engine_metrics; e->fields || e->name; e++)
      if (e->flag && (m & e->flag)) m |= e->implies;
  }
  return m;
}

int engine_metrics_check(const sqlsim_config *c, sqlsim_error *err) {
  int schema = c->tables || c->sqlite, tables = c->tables != NULL, databases = c->db_dir || c->sqlite || c->engine;
  for (const engine_metric *e = engine_metrics; e->fields || e->name; e++) {
    if (!e->flag || !(c->metrics & e->flag)) continue;
    if ((e->needs & ENGINE_NEEDS_TABLES) && !tables)
      return sqlsim_error_set(err, SQLSIM_ECONFIG, -1,
                              "the %s metric needs a tables.json schema (--tables FILE; in Python tables=)", e->name);
    if ((e->needs & ENGINE_NEEDS_SCHEMA) && !schema)
      return sqlsim_error_set(err, SQLSIM_ECONFIG, -1,
                              "the %s metric needs a schema: a tables.json (--tables FILE) or a SQLite file whose "
                              "schema is read (--sqlite FILE; in Python tables= or sqlite=)",
                              e->name);
    if ((e->needs & ENGINE_NEEDS_DATABASES) && !databases)
      return sqlsim_error_set(err, SQLSIM_ECONFIG, -1,
                              "the %s metric runs queries: it needs databases, a directory (--db-dir DIR), one "
                              "SQLite file (--sqlite FILE) or a server (--engine URL; in Python db_dir=, sqlite= "
                              "or engine=)",
                              e->name);
  }
  return 0;
}
