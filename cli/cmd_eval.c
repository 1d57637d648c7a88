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

#include "cli.h"
#include "run.h"

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

static void add(agg *a, const sqlsim_record *r, unsigned metrics) {
  if ((metrics & SQLSIM_M_DB) && r->ex_bird >= 0) {
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
static int build_groups(const run *c, int p, agg *a) {
  static const char *order[] = {"easy", "medium", "hard", "extra", "simple", "moderate", "challenging", NULL};
  int na = 0;
  for (int k = 0; order[k]; k++)
    for (int i = 0; i < c->gold->n; i++) {
      const char *g = run_group(c, i);
      if (g && !strcmp(g, order[k])) {
        group_index(a, &na, order[k]);
        break;
      }
    }
  for (int i = 0; i < c->gold->n; i++) {
    const char *g = run_group(c, i);
    if (g) add(&a[group_index(a, &na, g)], R(c, p, i), c->cfg.metrics);
  }
  a[na].group = "all";
  for (int i = 0; i < c->gold->n; i++) add(&a[na], R(c, p, i), c->cfg.metrics);
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

static void print_exec(FILE *f, const run *c, int p) {
  unsigned metrics = c->cfg.metrics;
  agg a[64];
  memset(a, 0, sizeof a);
  int na = build_groups(c, p, a);
  double v[64];
  fprintf(f, "%-20s", "");
  for (int k = 0; k < na; k++) fprintf(f, " %-20.20s", a[k].group);
  fputc('\n', f);
  if (metrics & SQLSIM_M_BIS) {
    for (int k = 0; k < na; k++) v[k] = a[k].n_bis;
    print_row(f, "count", v, na, 1);
    fputs("=====================   WITHOUT EXECUTION   ========================\n", f);
    for (int k = 0; k < na; k++) v[k] = a[k].n_bis ? a[k].bis / a[k].n_bis : NAN;
    print_row(f, "BIS similarity", v, na, 0);
    for (int k = 0; k < na; k++) v[k] = a[k].n_bis ? a[k].score / a[k].n_bis : NAN;
    print_row(f, "calibrated score", v, na, 0);
  }
  if (!(metrics & SQLSIM_M_DB)) return;
  for (int k = 0; k < na; k++) v[k] = a[k].n_ex;
  print_row(f, "count (with db)", v, na, 1);
  if (metrics & SQLSIM_M_EXEC) {
    fputs("=====================   EXECUTION ACCURACY     =====================\n", f);
    for (int k = 0; k < na; k++) v[k] = a[k].n_ex ? (double)a[k].ex_spider / a[k].n_ex : NAN;
    print_row(f, "EX spider", v, na, 0);
    for (int k = 0; k < na; k++) v[k] = a[k].n_ex ? (double)a[k].ex_bird / a[k].n_ex : NAN;
    print_row(f, "EX bird", v, na, 0);
  }
  if (metrics & (SQLSIM_M_VES | SQLSIM_M_RVES)) {
    fprintf(f, "=====================   EFFICIENCY (%d iterations, full fetch)   =====\n",
            c->cfg.iterations);
    if (metrics & SQLSIM_M_VES) {
      for (int k = 0; k < na; k++) v[k] = a[k].n_time ? 100 * a[k].ves / a[k].n_time : NAN;
      print_row(f, "VES", v, na, 0);
    }
    if (metrics & SQLSIM_M_RVES) {
      for (int k = 0; k < na; k++) v[k] = a[k].n_time ? 100 * a[k].rves / a[k].n_time : NAN;
      print_row(f, "R-VES", v, na, 0);
    }
  }
  if (metrics & SQLSIM_M_RESULT) {
    fputs("=====================   RESULT SIMILARITY (BIS)   ==================\n", f);
    for (int k = 0; k < na; k++) v[k] = a[k].n_rsim ? a[k].rp / a[k].n_rsim : NAN;
    print_row(f, "precision", v, na, 0);
    for (int k = 0; k < na; k++) v[k] = a[k].n_rsim ? a[k].rr / a[k].n_rsim : NAN;
    print_row(f, "recall", v, na, 0);
    for (int k = 0; k < na; k++) v[k] = a[k].n_rsim ? a[k].rf / a[k].n_rsim : NAN;
    print_row(f, "F1", v, na, 0);
  }
}

static void json_report(const run *c, sqlsim_spider_totals *tot) {
  unsigned metrics = c->cfg.metrics;
  strbuf sb = {0};
  sb_puts(&sb, "{\"gold\":");
  sb_json_str(&sb, c->gold_path);
  sb_printf(&sb, ",\"items\":%d,\"mode\":\"%s\",\"models\":[", c->gold->n,
            c->cfg.mode == SQLSIM_SPIDER_COMPATIBLE ? "compatible" : "corrected");
  static const char *levels[] = {"easy", "medium", "hard", "extra", "all"};
  for (int p = 0; p < c->npreds; p++) {
    sb_puts(&sb, p ? ",{\"model\":" : "{\"model\":");
    sb_json_str(&sb, model_name(c->pred_paths[p]));
    if (metrics & SQLSIM_M_MATCH) {
      sb_printf(&sb, ",\"match\":{\"pred_rejected\":%d", tot[p].rejected);
      for (int l = 0; l < 5; l++) {
        double exact, acc[10], rec_[10], f1[10];
        sqlsim_spider_totals_final(&tot[p], c->cfg.mode, l, &exact, acc, rec_, f1);
        sb_printf(&sb, ",\"%s\":{\"count\":%d,\"exact\":", levels[l], tot[p].count[l]);
        sb_json_num(&sb, exact);
        sb_puts(&sb, ",\"partial\":{");
        for (int k = 0; k < SQLSIM_SPIDER_NPARTIAL; k++) {
          sb_printf(&sb, "%s\"%s\":{\"acc\":", k ? "," : "", sqlsim_spider_partial_names[k]);
          sb_json_num(&sb, acc[k]);
          sb_puts(&sb, ",\"rec\":");
          sb_json_num(&sb, rec_[k]);
          sb_puts(&sb, ",\"f1\":");
          sb_json_num(&sb, f1[k]);
          sb_puts(&sb, "}");
        }
        sb_puts(&sb, "}}");
      }
      sb_puts(&sb, "}");
    }
    if (metrics & (SQLSIM_M_DB | SQLSIM_M_BIS)) {
      agg a[64];
      memset(a, 0, sizeof a);
      int na = build_groups(c, p, a);
      sb_puts(&sb, ",\"execution\":{");
      for (int k = 0; k < na; k++) {
        sb_puts(&sb, k ? "," : "");
        sb_json_str(&sb, a[k].group);
        sb_printf(&sb, ":{\"count\":%d", (metrics & SQLSIM_M_DB) ? a[k].n_ex : a[k].n_bis);
        if (metrics & SQLSIM_M_BIS) {
          sb_puts(&sb, ",\"bis\":");
          sb_json_num(&sb, a[k].n_bis ? a[k].bis / a[k].n_bis : NAN);
          sb_puts(&sb, ",\"score\":");
          sb_json_num(&sb, a[k].n_bis ? a[k].score / a[k].n_bis : NAN);
        }
        if (metrics & SQLSIM_M_EXEC) {
          sb_puts(&sb, ",\"ex_spider\":");
          sb_json_num(&sb, a[k].n_ex ? (double)a[k].ex_spider / a[k].n_ex : NAN);
          sb_puts(&sb, ",\"ex_bird\":");
          sb_json_num(&sb, a[k].n_ex ? (double)a[k].ex_bird / a[k].n_ex : NAN);
        }
        if (metrics & SQLSIM_M_VES) {
          sb_puts(&sb, ",\"ves\":");
          sb_json_num(&sb, a[k].n_time ? 100 * a[k].ves / a[k].n_time : NAN);
        }
        if (metrics & SQLSIM_M_RVES) {
          sb_puts(&sb, ",\"rves\":");
          sb_json_num(&sb, a[k].n_time ? 100 * a[k].rves / a[k].n_time : NAN);
        }
        if (metrics & SQLSIM_M_RESULT) {
          sb_puts(&sb, ",\"result_p\":");
          sb_json_num(&sb, a[k].n_rsim ? a[k].rp / a[k].n_rsim : NAN);
          sb_puts(&sb, ",\"result_r\":");
          sb_json_num(&sb, a[k].n_rsim ? a[k].rr / a[k].n_rsim : NAN);
          sb_puts(&sb, ",\"result_f1\":");
          sb_json_num(&sb, a[k].n_rsim ? a[k].rf / a[k].n_rsim : NAN);
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

typedef struct eval_out {
  const run *r;
  FILE *per_item;
  strbuf sb;
  double started, last;
} eval_out;

static void on_record(void *ctx, size_t k, const sqlsim_record *rec) {
  eval_out *o = ctx;
  if (!o->per_item) return;
  o->sb.len = 0;
  run_item_json(&o->sb, o->r, k);
  fwrite(o->sb.buf, 1, o->sb.len, o->per_item);
  fflush(o->per_item);
}

/* A bar on a terminal for the timing phase, the one that takes minutes. */
static void on_progress(void *ctx, const char *phase, size_t done, size_t total) {
  eval_out *o = ctx;
  if (strcmp(phase, "timing") || !isatty(2)) return;
  double now = (double)time(NULL);
  if (!o->started) o->started = now;
  if (done < total && now == o->last) return;
  o->last = now;
  double el = now - o->started;
  int w = 40, filled = total ? (int)(done * (size_t)w / total) : w;
  fprintf(stderr, "\rtiming [");
  for (int k = 0; k < w; k++) fputc(k < filled ? '#' : '.', stderr);
  fprintf(stderr, "] %zu/%zu pairs", done, total);
  if (done > 0 && done < total) fprintf(stderr, ", about %.0f s left", el / (double)done * (double)(total - done));
  if (done == total) fputc('\n', stderr);
  fflush(stderr);
}

int cmd_eval(int argc, char **argv) {
  run c;
  memset(&c, 0, sizeof c);
  cli_engine_opts eo = {.cfg = {.mode = SQLSIM_SPIDER_COMPATIBLE, .iterations = 100, .timeout_s = 30},
                        .metrics = "match", .jobs = 1};
  sqlsim_config *cfg = &eo.cfg;
  const char *per_item = NULL;
  int json = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--alternate")) {
      cfg->alternate = 1;
      continue;
    }
    if (i + 1 >= argc) return error("eval: %s needs a value (or is unknown)", a);
    const char *v = argv[++i];
    int taken = cli_engine_opt("eval", &eo, a, v);
    if (taken < 0) return -1;
    if (taken) continue;
    if (!strcmp(a, "--gold")) c.gold_path = v;
    else if (!strcmp(a, "--pred")) {
      if (c.npreds == RUN_MAX_PREDS) return error("eval: at most %d --pred files", RUN_MAX_PREDS);
      c.pred_paths[c.npreds++] = v;
    } else if (!strcmp(a, "--per-item")) per_item = v;
    else if (!strcmp(a, "--format")) {
      if (!strcmp(v, "json")) json = 1;
      else if (strcmp(v, "text")) return error("eval: --format must be text or json, not '%s'", v);
    } else {
      return error("eval: unknown option '%s'", a);
    }
  }
  if (cli_engine_metrics("eval", &eo)) return -1;
  if (!c.gold_path) return error("eval: --gold FILE is required");
  if (!c.npreds) return error("eval: at least one --pred FILE is required");
  if ((cfg->metrics & SQLSIM_M_MATCH) && !cfg->tables) return error("eval: the match metric needs --tables FILE");
  if ((cfg->metrics & SQLSIM_M_DB) && !cfg->db_dir && !cfg->sqlite)
    return error("eval: execution metrics need --db-dir DIR or --sqlite FILE");
  c.tables = cfg->tables;
  c.db_dir = cfg->db_dir;
  c.sqlite = cfg->sqlite;

  int rc = 0;
  eval_out out = {.r = &c};
  if (run_load(&c, cfg)) {
    rc = -1;
    goto out;
  }
  if (per_item && !(out.per_item = fopen(per_item, "w"))) {
    rc = error("%s: cannot write", per_item);
    goto out;
  }
  sqlsim_batch_opts bo = {.jobs = eo.jobs, .on_record = on_record, .on_progress = on_progress, .ctx = &out};
  run_score(&c, &bo);
  if (out.per_item) fclose(out.per_item);
  sb_free(&out.sb);

  sqlsim_spider_totals *tot = calloc(c.npreds > 0 ? (size_t)c.npreds : 1, sizeof *tot);
  for (int p = 0; p < c.npreds; p++)
    for (int i = 0; i < c.gold->n; i++)
      if (R(&c, p, i)->has_match) sqlsim_spider_totals_add(&tot[p], &R(&c, p, i)->match);
  int gold_errors = 0;
  for (int i = 0; i < c.gold->n; i++) gold_errors += R(&c, 0, i)->gold_err[0] || R(&c, 0, i)->match_err[0];
  unsigned m = c.cfg.metrics;
  if (json) {
    json_report(&c, tot);
  } else {
    const char *mode_name = c.cfg.mode == SQLSIM_SPIDER_COMPATIBLE ? "compatible" : "corrected";
    for (int p = 0; p < c.npreds; p++) {
      printf("== %s: %d items", model_name(c.pred_paths[p]), c.gold->n);
      if (gold_errors) printf(", %d gold items not scored (see --per-item)", gold_errors);
      printf("\n");
      if (m & SQLSIM_M_MATCH) {
        printf("-- exact set match, %s mode: %d predictions %s\n", mode_name, tot[p].rejected,
               c.cfg.mode == SQLSIM_SPIDER_COMPATIBLE ? "the official parser rejects (scored as empty)"
                                                     : "sqlsim cannot read (scored as empty)");
        print_official_match(stdout, &tot[p], c.cfg.mode);
        printf("\n");
      }
      if (m & (SQLSIM_M_DB | SQLSIM_M_BIS)) {
        print_exec(stdout, &c, p);
        printf("\n");
      }
    }
    if (c.npreds > 1) {
      printf("== by model (all items)\n%-20s", "");
      for (int p = 0; p < c.npreds; p++) printf(" %-20.20s", model_name(c.pred_paths[p]));
      printf("\n");
      if (m & SQLSIM_M_MATCH) {
        printf("%-20s", "exact match");
        for (int p = 0; p < c.npreds; p++)
          printf(" %-20.3f", tot[p].count[4] ? tot[p].exact[4] / tot[p].count[4] : 0.0);
        printf("\n");
      }
      if (m & (SQLSIM_M_DB | SQLSIM_M_BIS)) {
        static const char *rows[] = {"EX spider", "EX bird", "VES", "R-VES", "result F1", "BIS similarity",
                                     "calibrated score"};
        static const unsigned need[] = {SQLSIM_M_EXEC, SQLSIM_M_EXEC, SQLSIM_M_VES, SQLSIM_M_RVES,
                                        SQLSIM_M_RESULT, SQLSIM_M_BIS, SQLSIM_M_BIS};
        for (int k = 0; k < 7; k++) {
          if (!(m & need[k])) continue;
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
out:
  run_free(&c);
  return rc;
}
