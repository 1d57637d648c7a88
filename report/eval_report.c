/* eval_report.c -- `sqlsim eval`'s report: the official Spider tables for
 * exact set match, then each metric by group (Spider hardness, BIRD
 * difficulty or BIS case type) and a table of models side by side; as text,
 * or as one JSON object holding the same figures. Only the items scored
 * (run->scored: all, unless interrupted) are counted. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* ---------------------------------------------------------------- totals */

typedef struct agg {
  const char *group;
  int n_ex, ex_spider, ex_bird, max_db;
  sqlsim_ves_sum vs;    /* VES and R-VES over the items executed (n: those) */
  int n_rsim;
  double rp, rr, rf;
  int n_f1;
  double soft_f1;
  int reconnected;      /* items whose prediction ran again on a reopened server connection */
  int n_bis;
  double bis, score;
  int n_synth;          /* items where a generated database counted */
  double synth, synth_pass;
  int n_strict;         /* items with a strict verdict */
  double strict_pass;
  int n_timed;          /* pairs timed, and their iterations */
  long runs;
} agg;

#define MAX_GROUPS 64

static int group_index(agg *a, int *na, const char *g) {
  for (int k = 0; k < *na; k++)
    if (!strcmp(a[k].group, g)) return k;
  if (*na == MAX_GROUPS - 1) return -1; /* the last slot is "all" */
  a[*na].group = g;
  return (*na)++;
}

static void add(agg *a, const sqlsim_record *r, unsigned metrics) {
  if ((metrics & SQLSIM_M_DB) && r->exec.bird >= 0) {
    a->n_ex++;
    a->ex_spider += r->exec.spider == 1;
    a->ex_bird += r->exec.bird == 1;
    if (r->exec.databases > a->max_db) a->max_db = r->exec.databases;
    /* VES and R-VES count every item, failures as 0 */
    int timed = r->has_timing && r->timing.ok;
    sqlsim_ves_add(&a->vs, timed ? r->timing.ratio : 0);
    if (timed) {
      a->n_timed++;
      a->runs += r->timing.n;
    }
  }
  if (r->structure.has) {
    a->n_bis++;
    a->bis += r->structure.bis;
    a->score += r->score;
  }
  if (r->has_synth && r->synth.pass >= 0) {
    a->n_synth++;
    a->synth += r->synth.graded;
    a->synth_pass += r->synth.pass;
  }
  if (r->has_synth && r->synth.strict >= 0) {
    a->n_strict++;
    a->strict_pass += r->synth.strict;
  }
  a->reconnected += r->exec.reconnected;
  if (r->exec.has_soft_f1) {
    a->n_f1++;
    a->soft_f1 += r->exec.soft_f1;
  }
  if (r->exec.has_rsim) {
    a->n_rsim++;
    a->rp += r->exec.rsim.p;
    a->rr += r->exec.rsim.r;
    a->rf += r->exec.rsim.f1;
  }
}

/* Groups in a stable order: Spider hardness, BIRD difficulty, then others as
 * met; "all" last. */
static int build_groups(const run *c, int p, agg *a) {
  static const char *order[] = {"easy", "medium", "hard", "extra", "simple", "moderate", "challenging", NULL};
  memset(a, 0, sizeof *a * MAX_GROUPS);
  int na = 0;
  for (int k = 0; order[k]; k++)
    for (int i = 0; i < c->scored; i++) {
      const char *g = run_group(c, i);
      if (g && !strcmp(g, order[k])) {
        group_index(a, &na, order[k]);
        break;
      }
    }
  for (int i = 0; i < c->scored; i++) {
    const char *g = run_group(c, i);
    int k = g ? group_index(a, &na, g) : -1;
    if (k >= 0) add(&a[k], run_record(c, p, i), run_config(c)->metrics);
  }
  a[na].group = "all";
  for (int i = 0; i < c->scored; i++) add(&a[na], run_record(c, p, i), run_config(c)->metrics);
  return na + 1;
}

/* What the groups are: the gold's labels, or the Spider hardness of its SQL. */
static const char *group_kind(const run *c) {
  if (c->gold->n && c->gold->items[0].difficulty) return "BIRD difficulty";
  if (c->gold->n && c->gold->items[0].case_type) return "BIS case type";
  return "Spider hardness of the gold SQL";
}

static double ratio(double x, int n) { return n ? x / n : NAN; }

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The coverage of the golds' suites in each group (the share of a gold's
 * neighbors its suite tells apart): median and tenth percentile, NaN where no
 * gold has neighbors. */
static void coverage_stats(const run *c, int p, const agg *a, int na, double *med, double *p10) {
  double *x = malloc(sizeof *x * (size_t)(c->scored + 1));
  for (int k = 0; k < na; k++) {
    int n = 0;
    for (int i = 0; x && i < c->scored; i++) {
      const sqlsim_record *r = run_record(c, p, i);
      const char *g = run_group(c, i);
      if (!r->has_synth || r->synth.strict < 0 || r->synth.neighbors <= 0) continue;
      if (k < na - 1 && !(g && !strcmp(g, a[k].group))) continue;
      x[n++] = (double)r->synth.told / r->synth.neighbors;
    }
    qsort(x, (size_t)n, sizeof *x, cmp_double);
    med[k] = n ? (n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2) : NAN;
    p10[k] = n ? x[(n - 1) / 10] : NAN;
  }
  free(x);
}

/* The noise floor of model p's timing: its records' golds timed against
 * themselves. */
static void noise_floor(const run *c, int p, sqlsim_noise_floor *nf) {
  double *x = malloc(sizeof *x * (size_t)(c->scored + 1));
  int n = 0;
  for (int i = 0; i < c->scored; i++) {
    const sqlsim_record *r = run_record(c, p, i);
    if (r->has_self_timing) x[n++] = r->self_timing.ratio;
  }
  sqlsim_noise_floor_of(x, n, nf);
  free(x);
}

/* ---------------------------------------------------------------- text */

static void print_row(FILE *f, const char *name, const double *v, int n, int as_int, int w) {
  fprintf(f, "%-20s", name);
  for (int i = 0; i < n; i++) {
    if (as_int) fprintf(f, " %-*d", w, (int)v[i]);
    else if (isnan(v[i])) fprintf(f, " %-*s", w, "n/a");
    else fprintf(f, " %-*.3f", w, v[i]);
  }
  fputc('\n', f);
}

static void print_official_match(FILE *f, const sqlsim_spider_totals *t, int mode) {
  static const char *levels[] = {"easy", "medium", "hard", "extra", "all"};
  fprintf(f, "%-20s", "");
  for (int l = 0; l < 5; l++) fprintf(f, " %-20s", levels[l]);
  fputc('\n', f);
  double counts[5], exact[5], acc[5][SQLSIM_SPIDER_NPARTIAL], rec_[5][SQLSIM_SPIDER_NPARTIAL],
      f1[5][SQLSIM_SPIDER_NPARTIAL];
  for (int l = 0; l < 5; l++) {
    counts[l] = t->count[l];
    sqlsim_spider_totals_final(t, mode, l, &exact[l], acc[l], rec_[l], f1[l]);
  }
  print_row(f, "count", counts, 5, 1, 20);
  fputs("\n====================== EXACT MATCHING ACCURACY =====================\n", f);
  print_row(f, "exact match", exact, 5, 0, 20);
  const char *titles[3] = {"\n---------------------PARTIAL MATCHING ACCURACY----------------------\n",
                           "---------------------- PARTIAL MATCHING RECALL ----------------------\n",
                           "---------------------- PARTIAL MATCHING F1 --------------------------\n"};
  for (int w = 0; w < 3; w++) {
    fputs(titles[w], f);
    for (int k = 0; k < SQLSIM_SPIDER_NPARTIAL; k++) {
      double row[5];
      for (int l = 0; l < 5; l++) row[l] = w == 0 ? acc[l][k] : w == 1 ? rec_[l][k] : f1[l][k];
      print_row(f, sqlsim_spider_partial_labels[k], row, 5, 0, 20);
    }
  }
}

static void print_groups(FILE *f, const run *c, int p) {
  unsigned metrics = run_config(c)->metrics;
  agg a[MAX_GROUPS];
  int na = build_groups(c, p, a);
  double v[MAX_GROUPS];
  int w = 20;
  for (int k = 0; k < na; k++)
    if ((int)strlen(a[k].group) > w) w = (int)strlen(a[k].group);
  fprintf(f, "%-20s", na > 1 ? "by group:" : "");
  for (int k = 0; k < na; k++) fprintf(f, " %-*s", w, a[k].group);
  fputc('\n', f);
  if (na > 1) fprintf(f, "%-20s(groups: %s)\n", "", group_kind(c));
  if (metrics & SQLSIM_M_BIS) {
    for (int k = 0; k < na; k++) v[k] = a[k].n_bis;
    print_row(f, "count", v, na, 1, w);
    fputs("=====================   WITHOUT EXECUTION   ========================\n", f);
    for (int k = 0; k < na; k++) v[k] = ratio(a[k].bis, a[k].n_bis);
    print_row(f, "BIS similarity", v, na, 0, w);
    for (int k = 0; k < na; k++) v[k] = ratio(a[k].score, a[k].n_bis);
    print_row(f, "calibrated score", v, na, 0, w);
  }
  if (metrics & SQLSIM_M_SYNTH) {
    fprintf(f, "synthetic execution: %d databases generated from the schema per item; the share that\n"
               "agree, and the items agreeing on all, where the gold returned rows on one\n",
            run_config(c)->synth_databases ? run_config(c)->synth_databases : 6);
    for (int k = 0; k < na; k++) v[k] = a[k].n_synth;
    print_row(f, "count (synthetic)", v, na, 1, w);
    for (int k = 0; k < na; k++) v[k] = ratio(a[k].synth, a[k].n_synth);
    print_row(f, "synthetic EX", v, na, 0, w);
    for (int k = 0; k < na; k++) v[k] = ratio(a[k].synth_pass, a[k].n_synth);
    print_row(f, "synthetic pass", v, na, 0, w);
  }
  if (metrics & SQLSIM_M_STRICT) {
    fputs("strict: equivalent under the schema, on the gold's distilled suite and the pair's own\n"
          "databases (a gold answering nothing counts); coverage: the share of the gold's neighbors\n"
          "its suite tells apart\n",
          f);
    for (int k = 0; k < na; k++) v[k] = a[k].n_strict;
    print_row(f, "count (strict)", v, na, 1, w);
    for (int k = 0; k < na; k++) v[k] = ratio(a[k].strict_pass, a[k].n_strict);
    print_row(f, "strict pass", v, na, 0, w);
    double p10[MAX_GROUPS];
    coverage_stats(c, p, a, na, v, p10);
    print_row(f, "coverage median", v, na, 0, w);
    print_row(f, "coverage p10", p10, na, 0, w);
  }
  if (!(metrics & SQLSIM_M_DB)) return;
  for (int k = 0; k < na; k++) v[k] = a[k].n_ex;
  print_row(f, "count (with db)", v, na, 1, w);
  if (metrics & SQLSIM_M_EXEC) {
    int maxdb = a[na - 1].max_db;
    fputs("=====================   EXECUTION ACCURACY     =====================\n", f);
    if (maxdb > 1)
      fprintf(f, "execution accuracy on Spider test suites: up to %d databases per item, a prediction\n"
                 "counts only if it matches on every one\n", maxdb);
    else
      fputs("execution accuracy (EX), by the Spider test-suite and the BIRD evaluators' semantics\n", f);
    for (int k = 0; k < na; k++) v[k] = ratio(a[k].ex_spider, a[k].n_ex);
    print_row(f, maxdb > 1 ? "EX test-suite" : "EX spider", v, na, 0, w);
    for (int k = 0; k < na; k++) v[k] = ratio(a[k].ex_bird, a[k].n_ex);
    print_row(f, "EX bird", v, na, 0, w);
  }
  if (metrics & (SQLSIM_M_VES | SQLSIM_M_RVES)) {
    if (run_config(c)->auto_width > 0) {
      fputs("=====================   EFFICIENCY (adaptive, full fetch)   ========\n", f);
      fprintf(f, "--iterations auto: each pair ran until the 95%% interval of its ratio was within %g%% of it\n"
                 "(10 to %d iterations; the papers' protocol is a fixed 100)\n",
              100 * run_config(c)->auto_width, run_config(c)->iterations);
      for (int k = 0; k < na; k++) v[k] = a[k].n_timed ? (double)a[k].runs / a[k].n_timed : NAN;
      print_row(f, "iterations/pair", v, na, 0, w);
    } else {
      fprintf(f, "=====================   EFFICIENCY (%d iterations, full fetch)   =====\n", run_config(c)->iterations);
    }
    if (run_config(c)->reuse_connection)
      fputs("one connection per pair (--connection reuse): the queries' own time without a connection's\n"
            "set-up; not the papers' protocol, so not comparable with published VES/R-VES\n",
            f);
    if (metrics & SQLSIM_M_VES) {
      for (int k = 0; k < na; k++) v[k] = sqlsim_ves_value(&a[k].vs);
      print_row(f, "VES", v, na, 0, w);
    }
    if (metrics & SQLSIM_M_RVES) {
      for (int k = 0; k < na; k++) v[k] = sqlsim_rves_value(&a[k].vs);
      print_row(f, "R-VES", v, na, 0, w);
    }
    sqlsim_noise_floor nf;
    noise_floor(c, p, &nf);
    if (nf.n)
      fprintf(f, "noise floor: %d golds timed against themselves in this run, same protocol: ratio median\n"
                 "%.3f, 90%% of them %.3f-%.3f; a prediction exactly as fast as its gold scores VES %.1f,\n"
                 "R-VES %.1f on average (100 if timing had no noise)\n",
              nf.n, nf.median, nf.p05, nf.p95, nf.ves, nf.rves);
    else if (sqlsim_evaluator_config(c->ev)->noise_every > 0) /* the default filled in */
      fprintf(f, "noise floor: no gold of this run was sampled (about one timed pair in %d is;\n"
                 "--noise-every 1 times every gold against itself)\n",
              sqlsim_evaluator_config(c->ev)->noise_every);
  }
  if (metrics & SQLSIM_M_RESULT) {
    fputs("=====================   RESULT SIMILARITY (BIS)   ==================\n", f);
    for (int k = 0; k < na; k++) v[k] = ratio(a[k].rp, a[k].n_rsim);
    print_row(f, "precision", v, na, 0, w);
    for (int k = 0; k < na; k++) v[k] = ratio(a[k].rr, a[k].n_rsim);
    print_row(f, "recall", v, na, 0, w);
    for (int k = 0; k < na; k++) v[k] = ratio(a[k].rf, a[k].n_rsim);
    print_row(f, "F1", v, na, 0, w);
  }
  if (a[na - 1].reconnected)
    fprintf(f, "note: on %d items the server's connection was lost and opened again before the prediction ran\n",
            a[na - 1].reconnected);
  if (metrics & SQLSIM_M_SOFT_F1) {
    fputs("=====================   SOFT F1 (BIRD mini-dev)   ===================\n", f);
    for (int k = 0; k < na; k++) v[k] = a[k].n_f1 ? 100 * a[k].soft_f1 / a[k].n_f1 : NAN;
    print_row(f, "Soft F1", v, na, 0, w);
  }
}

static sqlsim_spider_totals *match_totals(const run *c) {
  sqlsim_spider_totals *tot = calloc((size_t)c->npreds, sizeof *tot);
  for (int p = 0; p < c->npreds; p++)
    for (int i = 0; i < c->scored; i++)
      if (run_record(c, p, i)->has_match) sqlsim_spider_totals_add(&tot[p], &run_record(c, p, i)->match);
  return tot;
}

/* The items line: "1034 items", "500 of 1534 items", and why fewer. */
static void items_line(FILE *f, const run *c, int p) {
  if (c->scored < c->gold->n)
    fprintf(f, "%d of %d items (interrupted: the report covers the items finished)", c->scored, c->total);
  else if (c->gold->n < c->total)
    fprintf(f, "%d of %d items (the items every --pred file has a prediction for)", c->gold->n, c->total);
  else
    fprintf(f, "%d items", c->total);
  if (c->missing[p] && c->all_items)
    fprintf(f, ", %d without a prediction (scored as wrong)", c->missing[p]);
  else if (c->missing[p])
    fprintf(f, ", %d without a prediction (left out; --all-items scores them as wrong)", c->missing[p]);
}

void eval_report_text(FILE *f, const run *c) {
  unsigned m = run_config(c)->metrics;
  sqlsim_spider_totals *tot = match_totals(c);
  int gold_errors = 0;
  for (int i = 0; i < c->scored; i++) gold_errors += run_record(c, 0, i)->gold_err[0] || run_record(c, 0, i)->match_err[0];
  const char *mode_name = run_config(c)->mode == SQLSIM_SPIDER_COMPATIBLE ? "compatible" : "corrected";
  for (int p = 0; p < c->npreds; p++) {
    fprintf(f, "== %s: ", model_name(c, p));
    items_line(f, c, p);
    if (gold_errors) fprintf(f, ", %d gold items not scored (see --per-item)", gold_errors);
    fputc('\n', f);
    if (m & SQLSIM_M_MATCH) {
      fprintf(f, "-- exact set match, %s mode: %d predictions %s\n", mode_name, tot[p].rejected,
              run_config(c)->mode == SQLSIM_SPIDER_COMPATIBLE ? "the official parser rejects (scored as empty)"
                                                     : "sqlsim cannot read (scored as empty)");
      print_official_match(f, &tot[p], run_config(c)->mode);
      fputc('\n', f);
    }
    if (m & (SQLSIM_M_DB | SQLSIM_M_BIS)) {
      print_groups(f, c, p);
      fputc('\n', f);
    }
  }
  if (c->npreds > 1) {
    int w = 12;
    for (int p = 0; p < c->npreds; p++)
      if ((int)strlen(model_name(c, p)) > w) w = (int)strlen(model_name(c, p));
    fprintf(f, "== by model (all items scored)\n%-20s", "");
    for (int p = 0; p < c->npreds; p++) fprintf(f, " %-*s", w, model_name(c, p));
    fputc('\n', f);
    static const char *rows[] = {"exact match",    "EX spider",        "EX bird",      "VES",
                                 "R-VES",          "result F1",        "BIS similarity", "calibrated score",
                                 "synthetic EX",   "synthetic pass",   "strict pass",  "Soft F1"};
    static const unsigned need[] = {SQLSIM_M_MATCH,  SQLSIM_M_EXEC,  SQLSIM_M_EXEC,  SQLSIM_M_VES,
                                    SQLSIM_M_RVES,   SQLSIM_M_RESULT, SQLSIM_M_BIS,  SQLSIM_M_BIS,
                                    SQLSIM_M_SYNTH,  SQLSIM_M_SYNTH, SQLSIM_M_STRICT, SQLSIM_M_SOFT_F1};
    agg *alls = malloc(sizeof *alls * (size_t)c->npreds); /* each model's "all" group, made once */
    for (int p = 0; p < c->npreds; p++) {
      agg a[MAX_GROUPS];
      alls[p] = a[build_groups(c, p, a) - 1];
    }
    for (int k = 0; k < 12; k++) {
      if (!(m & need[k])) continue;
      fprintf(f, "%-20s", rows[k]);
      for (int p = 0; p < c->npreds; p++) {
        const agg *all = &alls[p];
        double v = k == 0   ? ratio(tot[p].exact[4], tot[p].count[4])
                   : k == 1 ? ratio(all->ex_spider, all->n_ex)
                   : k == 2 ? ratio(all->ex_bird, all->n_ex)
                   : k == 3 ? sqlsim_ves_value(&all->vs)
                   : k == 4 ? sqlsim_rves_value(&all->vs)
                   : k == 5 ? ratio(all->rf, all->n_rsim)
                   : k == 6 ? ratio(all->bis, all->n_bis)
                   : k == 7 ? ratio(all->score, all->n_bis)
                   : k == 8 ? ratio(all->synth, all->n_synth)
                   : k == 9 ? ratio(all->synth_pass, all->n_synth)
                   : k == 10 ? ratio(all->strict_pass, all->n_strict)
                             : (all->n_f1 ? 100 * all->soft_f1 / all->n_f1 : NAN);
        if (isnan(v)) fprintf(f, " %-*s", w, "n/a");
        else fprintf(f, " %-*.3f", w, v);
      }
      fputc('\n', f);
    }
    free(alls);
  }
  free(tot);
}

/* ---------------------------------------------------------------- JSON */

static void num_field(strbuf *sb, const char *name, double v) {
  sb_printf(sb, ",\"%s\":", name);
  sb_json_num(sb, v);
}

void eval_report_json(FILE *f, const run *c) {
  unsigned metrics = run_config(c)->metrics;
  sqlsim_spider_totals *tot = match_totals(c);
  strbuf sb = {0};
  sb_puts(&sb, "{\"gold\":");
  sb_json_str(&sb, c->gold_path);
  sb_printf(&sb, ",\"items\":%d,\"total_items\":%d,\"scored\":%d,\"interrupted\":%s,\"mode\":\"%s\",\"metrics\":[",
            c->gold->n, c->total, c->scored, c->scored < c->gold->n ? "true" : "false",
            run_config(c)->mode == SQLSIM_SPIDER_COMPATIBLE ? "compatible" : "corrected");
  for (int k = 0, first = 1; k < SQLSIM_NMETRICS; k++)
    if (metrics & (1u << k)) {
      sb_printf(&sb, "%s\"%s\"", first ? "" : ",", sqlsim_metric_name(1u << k));
      first = 0;
    }
  sb_printf(&sb, "],\"iterations\":%d,\"timing_protocol\":\"%s\"", run_config(c)->iterations,
            run_config(c)->auto_width > 0 ? "auto" : "fixed");
  if (run_config(c)->auto_width > 0) sb_printf(&sb, ",\"auto_width\":%g", run_config(c)->auto_width);
  sb_printf(&sb, ",\"timing_connection\":\"%s\"", run_config(c)->reuse_connection ? "reuse" : "fresh");
  sb_puts(&sb, ",\"groups\":");
  sb_json_str(&sb, group_kind(c));
  sb_puts(&sb, ",\"models\":[");
  static const char *levels[] = {"easy", "medium", "hard", "extra", "all"};
  for (int p = 0; p < c->npreds; p++) {
    sb_puts(&sb, p ? ",{\"model\":" : "{\"model\":");
    sb_json_str(&sb, model_name(c, p));
    sb_puts(&sb, ",\"file\":");
    sb_json_str(&sb, c->files[p]);
    sb_printf(&sb, ",\"missing\":%d", c->missing[p]);
    if (metrics & SQLSIM_M_MATCH) {
      sb_printf(&sb, ",\"match\":{\"pred_rejected\":%d", tot[p].rejected);
      for (int l = 0; l < 5; l++) {
        double exact, acc[10], rec_[10], f1[10];
        sqlsim_spider_totals_final(&tot[p], run_config(c)->mode, l, &exact, acc, rec_, f1);
        sb_printf(&sb, ",\"%s\":{\"count\":%d", levels[l], tot[p].count[l]);
        num_field(&sb, "exact", exact);
        sb_puts(&sb, ",\"partial\":{");
        for (int k = 0; k < SQLSIM_SPIDER_NPARTIAL; k++) {
          sb_printf(&sb, "%s\"%s\":{\"acc\":", k ? "," : "", sqlsim_spider_partial_names[k]);
          sb_json_num(&sb, acc[k]);
          num_field(&sb, "rec", rec_[k]);
          num_field(&sb, "f1", f1[k]);
          sb_puts(&sb, "}");
        }
        sb_puts(&sb, "}}");
      }
      sb_puts(&sb, "}");
    }
    agg a[MAX_GROUPS];
    int na = build_groups(c, p, a);
    double cov_med[MAX_GROUPS], cov_p10[MAX_GROUPS];
    if (metrics & SQLSIM_M_STRICT) coverage_stats(c, p, a, na, cov_med, cov_p10);
    if (metrics & SQLSIM_M_BIS) { /* without execution: its own count */
      sb_puts(&sb, ",\"structure\":{");
      for (int k = 0; k < na; k++) {
        sb_puts(&sb, k ? "," : "");
        sb_json_str(&sb, a[k].group);
        sb_printf(&sb, ":{\"count\":%d", a[k].n_bis);
        num_field(&sb, "bis", ratio(a[k].bis, a[k].n_bis));
        num_field(&sb, "score", ratio(a[k].score, a[k].n_bis));
        if (metrics & SQLSIM_M_SYNTH) {
          sb_printf(&sb, ",\"synth_count\":%d", a[k].n_synth);
          num_field(&sb, "synth", ratio(a[k].synth, a[k].n_synth));
          num_field(&sb, "synth_pass", ratio(a[k].synth_pass, a[k].n_synth));
        }
        if (metrics & SQLSIM_M_STRICT) {
          sb_printf(&sb, ",\"strict_count\":%d", a[k].n_strict);
          num_field(&sb, "strict_pass", ratio(a[k].strict_pass, a[k].n_strict));
          num_field(&sb, "coverage_median", cov_med[k]);
          num_field(&sb, "coverage_p10", cov_p10[k]);
        }
        sb_puts(&sb, "}");
      }
      sb_puts(&sb, "}");
    }
    if (metrics & SQLSIM_M_DB) {
      sb_puts(&sb, ",\"execution\":{");
      for (int k = 0; k < na; k++) {
        sb_puts(&sb, k ? "," : "");
        sb_json_str(&sb, a[k].group);
        sb_printf(&sb, ":{\"count\":%d,\"databases_max\":%d", a[k].n_ex, a[k].max_db);
        if (metrics & SQLSIM_M_EXEC) {
          num_field(&sb, "ex_spider", ratio(a[k].ex_spider, a[k].n_ex));
          num_field(&sb, "ex_bird", ratio(a[k].ex_bird, a[k].n_ex));
        }
        if (metrics & SQLSIM_M_VES) num_field(&sb, "ves", sqlsim_ves_value(&a[k].vs));
        if (metrics & SQLSIM_M_RVES) num_field(&sb, "rves", sqlsim_rves_value(&a[k].vs));
        if (metrics & SQLSIM_M_RESULT) {
          num_field(&sb, "result_p", ratio(a[k].rp, a[k].n_rsim));
          num_field(&sb, "result_r", ratio(a[k].rr, a[k].n_rsim));
          num_field(&sb, "result_f1", ratio(a[k].rf, a[k].n_rsim));
        }
        if (metrics & SQLSIM_M_SOFT_F1) num_field(&sb, "soft_f1", a[k].n_f1 ? 100 * a[k].soft_f1 / a[k].n_f1 : NAN);
        sb_puts(&sb, "}");
      }
      sb_puts(&sb, "}");
    }
    if (metrics & SQLSIM_M_TIMING) {
      sqlsim_noise_floor nf;
      noise_floor(c, p, &nf);
      sb_printf(&sb, ",\"noise_floor\":{\"items\":%d", nf.n);
      num_field(&sb, "median", nf.median);
      num_field(&sb, "p05", nf.p05);
      num_field(&sb, "p95", nf.p95);
      num_field(&sb, "ves", nf.ves);
      num_field(&sb, "rves", nf.rves);
      sb_puts(&sb, "}");
    }
    sb_puts(&sb, "}");
  }
  sb_puts(&sb, "]}\n");
  fputs(sb.buf, f);
  sb_free(&sb);
  free(tot);
}
