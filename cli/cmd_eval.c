/* cmd_eval.c -- `sqlsim eval`: score prediction files against gold.
 *
 *   sqlsim eval --metrics LIST --gold FILE --pred FILE [--pred FILE ...]
 *               [--tables FILE] [--db-dir DIR | --sqlite FILE] [--mode compatible|corrected]
 *               [-j N] [--iterations N] [--timeout S] [--now DATETIME] [--alternate]
 *               [--per-item FILE] [--format text|json]
 *
 * LIST: match (Spider exact set match), exec (EX, BIRD and Spider semantics),
 * ves (the paper's VES), rves (the mini-dev R-VES), result (BIS result
 * similarity). Gold and predictions are read in any published format; a count
 * mismatch is an error before anything runs. The work goes in phases over
 * per-item records: matching (gold parsed once), execution (-j N threads, a
 * connection per thread), timing (serial, on a fresh connection per run),
 * then the per-item JSON Lines and the report. */
#include "cli.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "evalrun.h"

/* ---------------------------------------------------------------- totals */

typedef struct agg {
  const char *group;
  int n_ex, ex_spider, ex_bird;
  int n_time;
  double ves, rves;
  int n_rsim;
  double rp, rr, rf;
  int n_bis;
  double bis, score;
} agg;

static int group_index(agg *a, int *na, const char *g) {
  for (int k = 0; k < *na; k++)
    if (!strcmp(a[k].group, g)) return k;
  a[*na].group = g;
  return (*na)++;
}

static void add(agg *a, const rec *r, int metrics) {
  if ((metrics & M_DB) && r->ex_bird >= 0) {
    a->n_ex++;
    a->ex_spider += r->ex_spider == 1;
    a->ex_bird += r->ex_bird == 1;
    /* VES and R-VES count every item, failures as 0 */
    if (r->has_timing && r->timing.ok) {
      a->ves += sqrt(r->timing.ratio);
      a->rves += sqrt(sqlsim_rves_reward(r->timing.ratio));
    }
    a->n_time++;
  }
  if (r->has_bis) {
    a->n_bis++;
    a->bis += r->bis;
    a->score += r->score;
  }
  if (r->has_rsim) {
    a->n_rsim++;
    a->rp += r->rsim.p;
    a->rr += r->rsim.r;
    a->rf += r->rsim.f1;
  }
}

/* Groups in a stable order: Spider hardness, BIRD difficulty, then others as met. */
static int build_groups(eval_ctx *c, int p, agg *a) {
  static const char *order[] = {"easy", "medium", "hard", "extra", "simple", "moderate", "challenging", NULL};
  int na = 0;
  for (int k = 0; order[k]; k++)
    for (int i = 0; i < c->gold->n; i++) {
      const char *g = group_of(c, i);
      if (g && !strcmp(g, order[k])) {
        group_index(a, &na, order[k]);
        break;
      }
    }
  for (int i = 0; i < c->gold->n; i++) {
    const char *g = group_of(c, i);
    if (g) add(&a[group_index(a, &na, g)], R(c, p, i), c->metrics);
  }
  a[na].group = "all";
  for (int i = 0; i < c->gold->n; i++) add(&a[na], R(c, p, i), c->metrics);
  return na + 1;
}

/* ---------------------------------------------------------------- report */

static void print_row(FILE *f, const char *name, const double *v, int n, int as_int) {
  fprintf(f, "%-20s", name);
  for (int i = 0; i < n; i++) {
    if (as_int) fprintf(f, " %-20d", (int)v[i]);
    else if (isnan(v[i])) fprintf(f, " %-20s", "n/a");
    else fprintf(f, " %-20.3f", v[i]);
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
  print_row(f, "count", counts, 5, 1);
  fputs("\n====================== EXACT MATCHING ACCURACY =====================\n", f);
  print_row(f, "exact match", exact, 5, 0);
  const char *titles[3] = {"\n---------------------PARTIAL MATCHING ACCURACY----------------------\n",
                           "---------------------- PARTIAL MATCHING RECALL ----------------------\n",
                           "---------------------- PARTIAL MATCHING F1 --------------------------\n"};
  for (int w = 0; w < 3; w++) {
    fputs(titles[w], f);
    for (int k = 0; k < SQLSIM_SPIDER_NPARTIAL; k++) {
      double row[5];
      for (int l = 0; l < 5; l++) row[l] = w == 0 ? acc[l][k] : w == 1 ? rec_[l][k] : f1[l][k];
      print_row(f, sqlsim_spider_partial_labels[k], row, 5, 0);
    }
  }
}

static void print_exec(FILE *f, eval_ctx *c, int p) {
  agg a[64];
  memset(a, 0, sizeof a);
  int na = build_groups(c, p, a);
  double v[64];
  fprintf(f, "%-20s", "");
  for (int k = 0; k < na; k++) fprintf(f, " %-20.20s", a[k].group);
  fputc('\n', f);
  if (c->metrics & M_BIS) {
    for (int k = 0; k < na; k++) v[k] = a[k].n_bis;
    print_row(f, "count", v, na, 1);
    fputs("=====================   WITHOUT EXECUTION   ========================\n", f);
    for (int k = 0; k < na; k++) v[k] = a[k].n_bis ? a[k].bis / a[k].n_bis : NAN;
    print_row(f, "BIS similarity", v, na, 0);
    for (int k = 0; k < na; k++) v[k] = a[k].n_bis ? a[k].score / a[k].n_bis : NAN;
    print_row(f, "calibrated score", v, na, 0);
  }
  if (!(c->metrics & M_DB)) return;
  for (int k = 0; k < na; k++) v[k] = a[k].n_ex;
  print_row(f, "count (with db)", v, na, 1);
  if (c->metrics & M_EXEC) {
    fputs("=====================   EXECUTION ACCURACY     =====================\n", f);
    for (int k = 0; k < na; k++) v[k] = a[k].n_ex ? (double)a[k].ex_spider / a[k].n_ex : NAN;
    print_row(f, "EX spider", v, na, 0);
    for (int k = 0; k < na; k++) v[k] = a[k].n_ex ? (double)a[k].ex_bird / a[k].n_ex : NAN;
    print_row(f, "EX bird", v, na, 0);
  }
  if (c->metrics & (M_VES | M_RVES)) {
    fprintf(f, "=====================   EFFICIENCY (%d iterations, full fetch)   =====\n",
            c->iterations);
    if (c->metrics & M_VES) {
      for (int k = 0; k < na; k++) v[k] = a[k].n_time ? 100 * a[k].ves / a[k].n_time : NAN;
      print_row(f, "VES", v, na, 0);
    }
    if (c->metrics & M_RVES) {
      for (int k = 0; k < na; k++) v[k] = a[k].n_time ? 100 * a[k].rves / a[k].n_time : NAN;
      print_row(f, "R-VES", v, na, 0);
    }
  }
  if (c->metrics & M_RESULT) {
    fputs("=====================   RESULT SIMILARITY (BIS)   ==================\n", f);
    for (int k = 0; k < na; k++) v[k] = a[k].n_rsim ? a[k].rp / a[k].n_rsim : NAN;
    print_row(f, "precision", v, na, 0);
    for (int k = 0; k < na; k++) v[k] = a[k].n_rsim ? a[k].rr / a[k].n_rsim : NAN;
    print_row(f, "recall", v, na, 0);
    for (int k = 0; k < na; k++) v[k] = a[k].n_rsim ? a[k].rf / a[k].n_rsim : NAN;
    print_row(f, "F1", v, na, 0);
  }
}

static void json_num(strbuf *sb, double v) {
  if (isnan(v)) sb_puts(sb, "null");
  else sb_printf(sb, "%.6g", v);
}

static void json_error(strbuf *sb, const char *msg, int offset, const char *side) {
  sb_puts(sb, "{\"message\":");
  sb_json_str(sb, msg);
  if (offset >= 0) sb_printf(sb, ",\"offset\":%d", offset);
  else sb_puts(sb, ",\"offset\":null");
  sb_printf(sb, ",\"side\":\"%s\"}", side);
}

static void write_item(strbuf *sb, eval_ctx *c, int p, int i) {
  const sqlsim_item *gi = &c->gold->items[i];
  rec *r = R(c, p, i);
  sb_puts(sb, "{\"model\":");
  sb_json_str(sb, model_name(c->pred_paths[p]));
  sb_printf(sb, ",\"index\":%d,\"db_id\":", i);
  if (gi->db_id) sb_json_str(sb, gi->db_id);
  else sb_puts(sb, "null");
  if (c->hardness[i] != SQLSIM_HARD_UNKNOWN) sb_printf(sb, ",\"hardness\":\"%s\"", sqlsim_hardness_names[c->hardness[i]]);
  else sb_puts(sb, ",\"hardness\":null");
  if (gi->difficulty) {
    sb_puts(sb, ",\"difficulty\":");
    sb_json_str(sb, gi->difficulty);
  }
  if (gi->case_type) {
    sb_puts(sb, ",\"case_type\":");
    sb_json_str(sb, gi->case_type);
  }
  if (c->metrics & M_MATCH) {
    if (r->has_match) {
      sb_printf(sb, ",\"exact\":%d,\"partial\":{", r->match.exact);
      for (int k = 0; k < SQLSIM_SPIDER_NPARTIAL; k++)
        sb_printf(sb, "%s\"%s\":%d", k ? "," : "", sqlsim_spider_partial_names[k], r->match.f1[k]);
      sb_puts(sb, "}");
    } else {
      sb_puts(sb, ",\"exact\":null,\"partial\":null");
    }
  }
  if (c->metrics & (M_EXEC | M_VES | M_RVES | M_RESULT)) {
    if (r->ex_bird >= 0) sb_printf(sb, ",\"ex\":{\"spider\":%d,\"bird\":%d}", r->ex_spider, r->ex_bird);
    else sb_puts(sb, ",\"ex\":null");
  }
  if (c->metrics & (M_VES | M_RVES)) {
    if (r->has_timing && r->timing.ok) {
      sb_puts(sb, ",\"ves_ratio\":");
      json_num(sb, r->timing.ratio);
      sb_puts(sb, ",\"ves_interval\":[");
      json_num(sb, r->timing.ci_low);
      sb_putc(sb, ',');
      json_num(sb, r->timing.ci_high);
      sb_puts(sb, "],\"first_row_ratio\":");
      json_num(sb, r->timing.first_row_ratio);
      sb_printf(sb, ",\"iterations\":%d,\"kept\":%d,\"rves_reward\":%g", r->timing.n, r->timing.kept,
                sqlsim_rves_reward(r->timing.ratio));
    } else {
      sb_puts(sb, ",\"ves_ratio\":null,\"ves_interval\":null,\"rves_reward\":0");
    }
  }
  if (c->metrics & M_BIS) {
    if (r->has_bis) sb_printf(sb, ",\"bis\":%.6g,\"score\":%.6g", r->bis, r->score);
    else sb_puts(sb, ",\"bis\":null,\"score\":null");
  }
  if (c->metrics & M_RESULT) {
    if (r->has_rsim) {
      sb_printf(sb, ",\"result_p\":%.6g,\"result_r\":%.6g,\"result_f1\":%.6g", r->rsim.p, r->rsim.r,
                r->rsim.f1);
    } else {
      sb_puts(sb, ",\"result_p\":null,\"result_r\":null,\"result_f1\":null");
    }
  }
  sb_puts(sb, ",\"error\":");
  if (c->gold_err[i]) json_error(sb, c->gold_err[i], -1, "gold");
  else if (c->match_err[i]) json_error(sb, c->match_err[i], -1, "gold");
  else if (r->has_match && r->match.error.code) json_error(sb, r->match.error.message, r->match.error.offset, "pred");
  else if (r->ex_err[0]) json_error(sb, r->ex_err, -1, "pred");
  else if (r->bis_err[0]) json_error(sb, r->bis_err, -1, "pred");
  else if (r->has_timing && !r->timing.ok) json_error(sb, r->timing.reason, -1, "pred");
  else sb_puts(sb, "null");
  sb_puts(sb, "}\n");
}

static void json_report(eval_ctx *c, sqlsim_spider_totals *tot) {
  strbuf sb = {0};
  sb_puts(&sb, "{\"gold\":");
  sb_json_str(&sb, c->gold_path);
  sb_printf(&sb, ",\"items\":%d,\"mode\":\"%s\",\"models\":[", c->gold->n,
            c->mode == SQLSIM_SPIDER_COMPATIBLE ? "compatible" : "corrected");
  static const char *levels[] = {"easy", "medium", "hard", "extra", "all"};
  for (int p = 0; p < c->npreds; p++) {
    sb_puts(&sb, p ? ",{\"model\":" : "{\"model\":");
    sb_json_str(&sb, model_name(c->pred_paths[p]));
    if (c->metrics & M_MATCH) {
      sb_printf(&sb, ",\"match\":{\"pred_rejected\":%d", tot[p].rejected);
      for (int l = 0; l < 5; l++) {
        double exact, acc[10], rec_[10], f1[10];
        sqlsim_spider_totals_final(&tot[p], c->mode, l, &exact, acc, rec_, f1);
        sb_printf(&sb, ",\"%s\":{\"count\":%d,\"exact\":", levels[l], tot[p].count[l]);
        json_num(&sb, exact);
        sb_puts(&sb, ",\"partial\":{");
        for (int k = 0; k < SQLSIM_SPIDER_NPARTIAL; k++) {
          sb_printf(&sb, "%s\"%s\":{\"acc\":", k ? "," : "", sqlsim_spider_partial_names[k]);
          json_num(&sb, acc[k]);
          sb_puts(&sb, ",\"rec\":");
          json_num(&sb, rec_[k]);
          sb_puts(&sb, ",\"f1\":");
          json_num(&sb, f1[k]);
          sb_puts(&sb, "}");
        }
        sb_puts(&sb, "}}");
      }
      sb_puts(&sb, "}");
    }
    if (c->metrics & (M_DB | M_BIS)) {
      agg a[64];
      memset(a, 0, sizeof a);
      int na = build_groups(c, p, a);
      sb_puts(&sb, ",\"execution\":{");
      for (int k = 0; k < na; k++) {
        sb_puts(&sb, k ? "," : "");
        sb_json_str(&sb, a[k].group);
        sb_printf(&sb, ":{\"count\":%d", (c->metrics & M_DB) ? a[k].n_ex : a[k].n_bis);
        if (c->metrics & M_BIS) {
          sb_puts(&sb, ",\"bis\":");
          json_num(&sb, a[k].n_bis ? a[k].bis / a[k].n_bis : NAN);
          sb_puts(&sb, ",\"score\":");
          json_num(&sb, a[k].n_bis ? a[k].score / a[k].n_bis : NAN);
        }
        if (c->metrics & M_EXEC) {
          sb_puts(&sb, ",\"ex_spider\":");
          json_num(&sb, a[k].n_ex ? (double)a[k].ex_spider / a[k].n_ex : NAN);
          sb_puts(&sb, ",\"ex_bird\":");
          json_num(&sb, a[k].n_ex ? (double)a[k].ex_bird / a[k].n_ex : NAN);
        }
        if (c->metrics & M_VES) {
          sb_puts(&sb, ",\"ves\":");
          json_num(&sb, a[k].n_time ? 100 * a[k].ves / a[k].n_time : NAN);
        }
        if (c->metrics & M_RVES) {
          sb_puts(&sb, ",\"rves\":");
          json_num(&sb, a[k].n_time ? 100 * a[k].rves / a[k].n_time : NAN);
        }
        if (c->metrics & M_RESULT) {
          sb_puts(&sb, ",\"result_p\":");
          json_num(&sb, a[k].n_rsim ? a[k].rp / a[k].n_rsim : NAN);
          sb_puts(&sb, ",\"result_r\":");
          json_num(&sb, a[k].n_rsim ? a[k].rr / a[k].n_rsim : NAN);
          sb_puts(&sb, ",\"result_f1\":");
          json_num(&sb, a[k].n_rsim ? a[k].rf / a[k].n_rsim : NAN);
        }
        sb_puts(&sb, "}");
      }
      sb_puts(&sb, "}");
    }
    sb_puts(&sb, "}");
  }
  sb_puts(&sb, "]}\n");
  fputs(sb.buf, stdout);
  sb_free(&sb);
}

/* ---------------------------------------------------------------- command */

static int parse_metrics(const char *list, int *out) {
  char *m = strdup(list);
  *out = 0;
  for (char *tok = strtok(m, ","); tok; tok = strtok(NULL, ",")) {
    if (!strcmp(tok, "match")) *out |= M_MATCH;
    else if (!strcmp(tok, "exec") || !strcmp(tok, "ex")) *out |= M_EXEC;
    else if (!strcmp(tok, "ves")) *out |= M_VES;
    else if (!strcmp(tok, "rves")) *out |= M_RVES;
    else if (!strcmp(tok, "result")) *out |= M_RESULT;
    else if (!strcmp(tok, "bis")) *out |= M_BIS;
    else {
      error("eval: unknown metric '%s' (match, exec, ves, rves, result, bis)", tok);
      free(m);
      return -1;
    }
  }
  free(m);
  return 0;
}

int cmd_eval(int argc, char **argv) {
  eval_ctx c;
  memset(&c, 0, sizeof c);
  c.mode = SQLSIM_SPIDER_COMPATIBLE;
  c.jobs = 1;
  c.iterations = 100;
  c.timeout = 30;
  const char *metrics = "match", *per_item = NULL;
  const char *preds[64];
  int json = 0;
  cli_schema_opts so = {0};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--tables") || !strcmp(a, "--db")) {
      if (cli_schema_arg(&so, argc, argv, &i) < 0) return -1;
      continue;
    }
    if (!strcmp(a, "--alternate")) {
      c.alternate = 1;
      continue;
    }
    if (i + 1 >= argc) return error("eval: %s needs a value (or is unknown)", a);
    const char *v = argv[++i];
    if (!strcmp(a, "--metrics")) metrics = v;
    else if (!strcmp(a, "--gold")) c.gold_path = v;
    else if (!strcmp(a, "--pred")) {
      if (c.npreds == 64) return error("eval: at most 64 --pred files");
      preds[c.npreds++] = v;
    } else if (!strcmp(a, "--db-dir")) {
      if (cli_dir(a, v)) return -1;
      c.db_dir = v;
    }
    else if (!strcmp(a, "--sqlite")) c.sqlite = v;
    else if (!strcmp(a, "--per-item")) per_item = v;
    else if (!strcmp(a, "-j") || !strcmp(a, "--jobs")) {
      if (cli_int(a, v, 1, 1024, &c.jobs)) return -1;
    } else if (!strcmp(a, "--iterations")) {
      if (cli_int(a, v, 1, 1000000, &c.iterations)) return -1;
    } else if (!strcmp(a, "--timeout")) {
      if (cli_double(a, v, 0.001, CLI_MAX_TIMEOUT, &c.timeout)) return -1;
    } else if (!strcmp(a, "--now")) {
      if (cli_now(a, v)) return -1;
      c.now = v;
    }
    else if (!strcmp(a, "--mode")) {
      if (!strcmp(v, "compatible")) c.mode = SQLSIM_SPIDER_COMPATIBLE;
      else if (!strcmp(v, "corrected")) c.mode = SQLSIM_SPIDER_CORRECTED;
      else return error("eval: --mode must be compatible or corrected, not '%s'", v);
    } else if (!strcmp(a, "--format")) {
      if (!strcmp(v, "json")) json = 1;
      else if (strcmp(v, "text")) return error("eval: --format must be text or json, not '%s'", v);
    } else {
      return error("eval: unknown option '%s'", a);
    }
  }
  if (parse_metrics(metrics, &c.metrics)) return -1;
  if (!c.metrics) return error("eval: no metric given");
  if (!c.gold_path) return error("eval: --gold FILE is required");
  if (!c.npreds) return error("eval: at least one --pred FILE is required");
  if ((c.metrics & M_MATCH) && !so.tables) return error("eval: the match metric needs --tables FILE");
  if ((c.metrics & M_DB) && !c.db_dir && !c.sqlite)
    return error("eval: execution metrics need --db-dir DIR or --sqlite FILE");
  if (c.jobs < 1 || c.iterations < 1 || c.timeout <= 0) return error("eval: -j, --iterations and --timeout must be positive");
  if (c.sqlite && !so.tables && !so.sqlite) so.sqlite = c.sqlite; /* its schema, for names */
  if (cli_schema_load(&so)) return -1;
  c.catalog = so.catalog;
  c.pred_paths = preds;
  pthread_mutex_init(&c.mu, NULL);

  int rc = 0;
  sqlsim_error err = {0};
  sqlsim_itemset *pred[64] = {0};
  c.pred = pred;
  if (sqlsim_items_load(c.gold_path, &c.gold, &err)) {
    rc = error("%s", err.message);
    goto out;
  }
  for (int p = 0; p < c.npreds; p++) {
    if (sqlsim_items_load(preds[p], &pred[p], &err)) {
      rc = error("%s", err.message);
      goto out;
    }
    if (pred[p]->n != c.gold->n) {
      rc = error("%s has %d predictions but %s has %d gold queries: they must pair up one to one",
                 preds[p], pred[p]->n, c.gold_path, c.gold->n);
      goto out;
    }
  }
  if (!c.sqlite)
    for (int i = 0; i < c.gold->n; i++)
      if (!c.gold->items[i].db_id) {
        rc = error("%s: item %d (line %d) has no db_id", c.gold_path, i, c.gold->items[i].line);
        goto out;
      }
  if (check_setup(&c, (c.metrics & M_DB) != 0, (c.metrics & (M_MATCH | M_BIS)) != 0)) {
    rc = -1;
    goto out;
  }
  /* BIS fixes "now" at 2023-01-17 (its README); other benchmarks use the clock. */
  if (!c.now && !strcmp(c.gold->format, "bis-json")) c.now = "2023-01-17 00:00:00";

  size_t n = c.gold->n > 0 ? (size_t)c.gold->n : 1;
  c.recs = calloc((size_t)c.npreds * n, sizeof *c.recs);
  c.hardness = malloc(sizeof *c.hardness * n);
  c.gold_err = calloc(n, sizeof *c.gold_err);
  c.match_err = calloc(n, sizeof *c.match_err);
  for (int i = 0; i < c.gold->n; i++) c.hardness[i] = SQLSIM_HARD_UNKNOWN;
  if (c.catalog && !c.sqlite) phase_match(&c);
  if (c.metrics & M_BIS) phase_bis(&c);
  if (c.metrics & M_DB) phase_exec(&c);
  if (c.metrics & (M_VES | M_RVES)) phase_timing(&c);

  sqlsim_spider_totals *tot = calloc(c.npreds > 0 ? (size_t)c.npreds : 1, sizeof *tot);
  for (int p = 0; p < c.npreds; p++)
    for (int i = 0; i < c.gold->n; i++)
      if (R(&c, p, i)->has_match) sqlsim_spider_totals_add(&tot[p], &R(&c, p, i)->match);
  if (per_item) {
    FILE *pf = fopen(per_item, "w");
    if (!pf) {
      rc = error("%s: cannot write", per_item);
    } else {
      strbuf sb = {0};
      for (int i = 0; i < c.gold->n; i++)
        for (int p = 0; p < c.npreds; p++) {
          sb.len = 0;
          write_item(&sb, &c, p, i);
          fwrite(sb.buf, 1, sb.len, pf);
        }
      sb_free(&sb);
      fclose(pf);
    }
  }
  int gold_errors = 0;
  for (int i = 0; i < c.gold->n; i++) gold_errors += c.gold_err[i] != NULL || c.match_err[i] != NULL;
  if (json) {
    json_report(&c, tot);
  } else {
    const char *mode_name = c.mode == SQLSIM_SPIDER_COMPATIBLE ? "compatible" : "corrected";
    for (int p = 0; p < c.npreds; p++) {
      printf("== %s: %d items", model_name(preds[p]), c.gold->n);
      if (gold_errors) printf(", %d gold items not scored (see --per-item)", gold_errors);
      printf("\n");
      if (c.metrics & M_MATCH) {
        printf("-- exact set match, %s mode: %d predictions %s\n", mode_name, tot[p].rejected,
               c.mode == SQLSIM_SPIDER_COMPATIBLE ? "the official parser rejects (scored as empty)"
                                                 : "sqlsim cannot read (scored as empty)");
        print_official_match(stdout, &tot[p], c.mode);
        printf("\n");
      }
      if (c.metrics & (M_DB | M_BIS)) {
        print_exec(stdout, &c, p);
        printf("\n");
      }
    }
    if (c.npreds > 1) {
      printf("== by model (all items)\n%-20s", "");
      for (int p = 0; p < c.npreds; p++) printf(" %-20.20s", model_name(preds[p]));
      printf("\n");
      if (c.metrics & M_MATCH) {
        printf("%-20s", "exact match");
        for (int p = 0; p < c.npreds; p++)
          printf(" %-20.3f", tot[p].count[4] ? tot[p].exact[4] / tot[p].count[4] : 0.0);
        printf("\n");
      }
      if (c.metrics & (M_DB | M_BIS)) {
        static const char *rows[] = {"EX spider", "EX bird", "VES", "R-VES", "result F1", "BIS similarity",
                                     "calibrated score"};
        static const int need[] = {M_EXEC, M_EXEC, M_VES, M_RVES, M_RESULT, M_BIS, M_BIS};
        for (int k = 0; k < 7; k++) {
          if (!(c.metrics & need[k])) continue;
          printf("%-20s", rows[k]);
          for (int p = 0; p < c.npreds; p++) {
            agg a[64];
            memset(a, 0, sizeof a);
            int na = build_groups(&c, p, a);
            agg *all = &a[na - 1];
            double v = k == 0 ? (all->n_ex ? (double)all->ex_spider / all->n_ex : NAN)
                       : k == 1 ? (all->n_ex ? (double)all->ex_bird / all->n_ex : NAN)
                       : k == 2 ? (all->n_time ? 100 * all->ves / all->n_time : NAN)
                       : k == 3 ? (all->n_time ? 100 * all->rves / all->n_time : NAN)
                       : k == 4 ? (all->n_rsim ? all->rf / all->n_rsim : NAN)
                       : k == 5 ? (all->n_bis ? all->bis / all->n_bis : NAN)
                                : (all->n_bis ? all->score / all->n_bis : NAN);
            printf(" %-20.3f", v);
          }
          printf("\n");
        }
      }
    }
  }
  free(tot);
  for (int i = 0; i < c.gold->n; i++) {
    free(c.gold_err[i]);
    free(c.match_err[i]);
  }
  free(c.gold_err);
  free(c.match_err);
  free(c.hardness);
  free(c.recs);
out:
  sqlsim_items_free(c.gold);
  for (int p = 0; p < c.npreds; p++) sqlsim_items_free(pred[p]);
  sqlsim_catalog_free(so.catalog);
  pthread_mutex_destroy(&c.mu);
  return rc;
}
