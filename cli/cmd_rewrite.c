/* cmd_rewrite.c -- `sqlsim rewrite`: a faster query with the same results, or
 * the original and why.
 *
 * One query: the rewrite (printed SQLite SQL), the rules, the checks passed,
 * the times before and after with the ratio's interval; or the reason it is
 * not offered, and the places the rules left alone. A predictions file: one
 * JSON line per item (with --format json) and per-rule counts: how often a
 * rule took part in a candidate, in a candidate rejected for changing
 * results, for not being faster, and in the offered rewrite. */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int parse_rules(const char *list, unsigned *out) {
  sqlsim_error err = {0};
  if (!sqlsim_rules_parse(list, out, &err)) return 0;
  error("rewrite: %s", err.message);
  return CLI_EUSAGE;
}

static void rules_list(strbuf *sb, unsigned rules, int json) {
  int first = 1;
  for (int r = 0; r < SQLSIM_NRULES; r++)
    if (rules & (1u << r)) {
      if (json) sb_printf(sb, "%s\"%s\"", first ? "" : ",", sqlsim_rule_names[r]);
      else sb_printf(sb, "%s%s", first ? "" : ", ", sqlsim_rule_names[r]);
      first = 0;
    }
}

/* How the timing ran: the runs, why it stopped (JSON's word and the text's
 * phrase), the original's own noise. */
static const char *stopped_by(const sqlsim_race *rc, int text) {
  if (rc->early) return text ? "stopped as soon as the interval cleared the threshold" : "early";
  if (rc->budget_spent) return text ? "stopped by the time budget" : "budget";
  return text ? "ran to the most runs" : "max_runs";
}

static void timing_line(const sqlsim_rewrite_result *r) {
  const sqlsim_race *rc = &r->race;
  if (!rc->na) { /* the fixed protocol */
    printf("-- timed: medians of %d alternating full runs each (fixed protocol), %.2f s of timing\n", r->timing.n,
           r->timing_s);
    return;
  }
  printf("-- timed: medians of %d runs of the original and %d of the rewrite, full fetch; %s; the original's "
         "own spread (IQR / median) %.1f%%; %.2f s of timing\n",
         rc->na, rc->nb, stopped_by(rc, 1), 100 * rc->spread_a, r->timing_s);
}

static void print_one_text(const char *sql, const sqlsim_rewrite_result *r) {
  strbuf sb = {0};
  rules_list(&sb, r->rules, 0);
  if (r->offered) {
    printf("%s\n-- rules: %s\n-- checks passed: %s\n", r->sql, sb.buf, r->checks);
    printf("-- time: %.3f ms -> %.3f ms; ratio %.2f, %s interval %.2f-%.2f\n", r->timing.gold_median_s * 1e3,
           r->timing.pred_median_s * 1e3, r->timing.ratio,
           r->race.early ? "99% (Welch, the early stop's)" : "95%", r->timing.ci_low, r->timing.ci_high);
    timing_line(r);
  } else {
    printf("%s\n-- not rewritten: %s\n", sql, r->reason);
  }
  if (r->notes && r->notes[0]) {
    printf("-- left alone:\n");
    for (const char *p = r->notes; *p;) {
      const char *e = strchr(p, '\n');
      int n = e ? (int)(e - p) : (int)strlen(p);
      printf("--   %.*s\n", n, p);
      p += n + (e ? 1 : 0);
    }
  }
  sb_free(&sb);
}

static void json_one(strbuf *sb, const sqlsim_rewrite_result *r) {
  sb_printf(sb, "\"offered\":%s,\"sql\":", r->offered ? "true" : "false");
  if (r->sql) sb_json_str(sb, r->sql);
  else sb_puts(sb, "null");
  sb_puts(sb, ",\"rules\":[");
  rules_list(sb, r->rules, 1);
  sb_printf(sb, "],\"candidates\":%d,\"rejected_results\":%d,\"rejected_speed\":%d,\"checks\":", r->candidates,
            r->rejected_results, r->rejected_speed);
  sb_json_str(sb, r->checks);
  sb_puts(sb, ",\"reason\":");
  if (r->offered) sb_puts(sb, "null");
  else sb_json_str(sb, r->reason);
  if (r->timing.ok && r->timing.n) {
    sb_printf(sb, ",\"time_before_ms\":%.4f,\"time_after_ms\":%.4f,\"ratio\":%.4f,\"ratio_ci\":[%.4f,",
              r->timing.gold_median_s * 1e3, r->timing.pred_median_s * 1e3, r->timing.ratio, r->timing.ci_low);
    sb_json_num(sb, r->timing.ci_high); /* infinite when the runs are too few for an interval: null */
    if (r->race.na)
      sb_printf(sb, "],\"protocol\":\"sequential\",\"runs\":[%d,%d],\"stopped\":\"%s\",\"noise\":%.4f",
                r->race.na, r->race.nb, stopped_by(&r->race, 0), r->race.spread_a);
    else sb_printf(sb, "],\"protocol\":\"fixed\",\"runs\":[%d,%d]", r->timing.n, r->timing.n);
  }
  sb_printf(sb, ",\"timing_s\":%.3f", r->timing_s);
  sb_puts(sb, ",\"left_alone\":");
  sb_json_str(sb, r->notes ? r->notes : "");
}

typedef struct tally {
  int candidate, rejected_results, rejected_speed, offered;
} tally;

/* VES and R-VES of the predictions before and after the offered rewrites:
 * each item's prediction timed against its gold (BIRD's protocol, full
 * fetch), and the rewrite timed against the gold where one was offered;
 * where none was, the item keeps its measured ratio. Items whose prediction
 * does not match the gold (BIRD EX) count 0, as in VES. */
typedef struct ves_sum {
  int n, correct;
  sqlsim_ves_sum before, after;
} ves_sum;

/* The item's EX, then (when it matches) its prediction and its rewrite
 * each timed against the gold: *before_ratio and *after_ratio (0: not
 * correct or not timed). */
static void ves_time(const char *path, const char *gold, const char *pred, const sqlsim_rewrite_result *r,
                     const sqlsim_rewrite_opts *o, strbuf *json, int *correct, double *before_ratio,
                     double *after_ratio) {
  sqlsim_db *db;
  char why[256];
  int ex = 0;
  sqlsim_exec_opts eo = {.timeout_s = o->timeout_s, .fixed_now = o->fixed_now};
  if (!sqlsim_db_open(path, &eo, &db, NULL)) {
    ex = sqlsim_ex_bird_item(db, gold, pred, why, sizeof why) == 1;
    sqlsim_db_close(db);
  }
  if (json) sb_printf(json, ",\"ex\":%d", ex);
  if (!ex) return;
  ++*correct;
  sqlsim_timing_opts to = {.iterations = o->iterations > 0 ? o->iterations : 20, .timeout_s = o->timeout_s,
                          .fixed_now = o->fixed_now, .alternate = 1, .cancel = &cli_cancel};
  sqlsim_timing before, after;
  sqlsim_time_pair(path, gold, pred, &to, &before);
  double rb = *before_ratio = before.ok ? before.ratio : 0, ra = rb;
  if (r->offered) {
    sqlsim_time_pair(path, gold, r->sql, &to, &after);
    ra = after.ok ? after.ratio : 0;
  }
  *after_ratio = ra;
  if (json) sb_printf(json, ",\"ves_ratio_before\":%.4f,\"ves_ratio_after\":%.4f", rb, ra);
}

static void ves_item(ves_sum *v, const char *path, const char *gold, const char *pred, const sqlsim_rewrite_result *r,
                     const sqlsim_rewrite_opts *o, strbuf *json) {
  v->n++;
  double rb = 0, ra = 0;
  ves_time(path, gold, pred, r, o, json, &v->correct, &rb, &ra);
  sqlsim_ves_add(&v->before, rb);
  sqlsim_ves_add(&v->after, ra);
}

static int batch(const char *db_dir, const char *sqlite, const char *pred_path, const char *gold_path, const sqlsim_rewrite_opts *o,
                 int json, int quiet) {
  cli_progress prog;
  cli_progress_init(&prog, "rewrite", quiet);
  cli_catch_signals();
  sqlsim_itemset *pred = NULL, *gold = NULL;
  sqlsim_error err = {0};
  if (sqlsim_items_load(pred_path, &pred, &err)) return error("%s", err.message);
  if (gold_path && sqlsim_items_load(gold_path, &gold, &err)) {
    sqlsim_items_free(pred);
    return error("%s", err.message);
  }
  if (gold && gold->n != pred->n) {
    error("%s has %d items and %s %d", pred_path, pred->n, gold_path, gold->n);
    sqlsim_items_free(pred);
    sqlsim_items_free(gold);
    return -1;
  }
  tally t[SQLSIM_NRULES] = {{0}};
  ves_sum vs = {0};
  int offered = 0, failed = 0, none = 0;
  double ratio_sum = 0, worst = 1e30;
  int i;
  for (i = 0; i < pred->n && !cli_cancel; i++) {
    cli_progress_update(&prog, "rewriting", (size_t)i, (size_t)pred->n, "queries");
    const char *db_id = pred->items[i].db_id ? pred->items[i].db_id : gold ? gold->items[i].db_id : NULL;
    if (sqlite && !db_id) db_id = "";
    if (!db_id) {
      error("item %d: no db_id (give --gold with one)", i);
      failed++;
      continue;
    }
    char path[1024];
    if (sqlite) {
      snprintf(path, sizeof path, "%s", sqlite);
    } else {
      char *p = sqlsim_db_path(db_dir, db_id, &err);
      if (!p) {
        error("item %d: %s", i, err.message);
        failed++;
        continue;
      }
      snprintf(path, sizeof path, "%s", p);
      free(p);
    }
    sqlsim_rewrite_result r;
    if (sqlsim_rewrite(path, pred->items[i].sql, o, &r, &err)) {
      if (json) {
        strbuf sb = {0};
        sb_printf(&sb, "{\"index\":%d,\"db_id\":", i);
        sb_json_str(&sb, db_id);
        sb_puts(&sb, ",\"error\":");
        sb_json_str(&sb, err.message);
        printf("%s}\n", sb.buf);
        sb_free(&sb);
      }
      failed++;
      sqlsim_rewrite_result_free(&r);
      continue;
    }
    if (!r.candidates) none++;
    /* per rule: took part in the best candidate, and how it ended */
    for (int k = 0; k < SQLSIM_NRULES; k++) {
      if (!(r.rules & (1u << k))) continue;
      t[k].candidate++;
      t[k].offered += r.verdict == SQLSIM_REWRITE_OFFERED;
      t[k].rejected_speed += r.verdict == SQLSIM_REWRITE_NOT_FASTER;
      t[k].rejected_results += r.verdict == SQLSIM_REWRITE_CHANGES_RESULT;
    }
    if (r.offered) {
      offered++;
      ratio_sum += r.timing.ratio;
      if (r.timing.ratio < worst) worst = r.timing.ratio;
    }
    strbuf sb = {0};
    if (json) {
      sb_printf(&sb, "{\"index\":%d,\"db_id\":", i);
      sb_json_str(&sb, db_id);
      sb_putc(&sb, ',');
      json_one(&sb, &r);
    }
    if (gold) ves_item(&vs, path, gold->items[i].sql, pred->items[i].sql, &r, o, json ? &sb : NULL);
    if (json) printf("%s}\n", sb.buf);
    else if (r.offered) {
      strbuf rl = {0};
      rules_list(&rl, r.rules, 0);
      cli_progress_end(&prog);
      printf("#%d %s: %.2fx faster (95%% interval %.2f-%.2f) by %s\n  before: %s\n  after:  %s\n", i, db_id,
             r.timing.ratio, r.timing.ci_low, r.timing.ci_high, rl.buf, pred->items[i].sql, r.sql);
      sb_free(&rl);
    }
    fflush(stdout);
    sb_free(&sb);
    sqlsim_rewrite_result_free(&r);
  }
  cli_progress_end(&prog);
  FILE *f = json ? stderr : stdout;
  if (cli_signal_status()) fprintf(f, "interrupted: %d of %d queries done; the counts cover those\n", i, pred->n);
  fprintf(f, "%s: %d queries, %d with no rule applying, %d could not be read or run, %d rewrites offered", pred_path,
          i, none, failed, offered);
  if (offered) fprintf(f, " (mean ratio %.2f, worst %.2f)", ratio_sum / offered, worst);
  fprintf(f, "\n");
  if (gold && vs.n)
    fprintf(f,
            "VES %.2f -> %.2f, R-VES %.2f -> %.2f with the offered rewrites (%d of %d predictions match their gold; "
            "each timed against it, %d alternating full runs)\n",
            sqlsim_ves_value(&vs.before), sqlsim_ves_value(&vs.after), sqlsim_rves_value(&vs.before),
            sqlsim_rves_value(&vs.after), vs.correct,
            vs.n, o->iterations > 0 ? o->iterations : 20);
  fprintf(f, "%-16s %10s %16s %15s %8s\n", "rule", "candidate", "changed results", "not faster", "offered");
  for (int k = 0; k < SQLSIM_NRULES; k++)
    fprintf(f, "%-16s %10d %16d %15d %8d\n", sqlsim_rule_names[k], t[k].candidate, t[k].rejected_results,
            t[k].rejected_speed, t[k].offered);
  sqlsim_items_free(pred);
  sqlsim_items_free(gold);
  return cli_signal_status();
}

static const cli_opt options[] = {
    {"sqlite", 0, "FILE", "the database the query runs on (one query), or every prediction's database"},
    {"db-dir", 0, "DIR", "databases as DIR/<db_id>/<db_id>.sqlite, for --pred"},
    {"pred", 0, "FILE", "rewrite every query of a predictions file (any format sqlsim eval reads)"},
    {"gold", 0, "FILE", "with --pred: the gold, for VES and R-VES before and after the rewrites (and\n"
                        "the db_ids, if the predictions have none)"},
    {"rules", 0, "LIST", "comma-separated rules to try (default: all but top1_max and count_pk)"},
    {"iterations", 0, "N", "the most timed runs of each side per candidate (the race stops earlier as\n"
                         "soon as the ratio is clearly above or below 1.1), and with --gold the runs\n"
                         "of each VES pair (default 20)"},
    {"time-budget", 0, "S", "seconds of timing per query, shared by its candidates; when spent, the\n"
                            "runs so far decide (default: no limit)"},
    {"fixed", 0, NULL, "the fixed protocol: exactly --iterations alternating runs each, no early stop"},
    {"timeout", 0, "S", "seconds one query may run (default 30)"},
    {"format", 0, "FORMAT", "text (default) or json (one object; with --pred one line per query, the\n"
                            "summary on stderr)"},
    {"quiet", 'q', NULL, "no progress on stderr"},
    {NULL, 0, NULL, NULL},
};

static int cmd_rewrite(int argc, char **argv);

const cli_command cmd_rewrite_spec = {
    .name = "rewrite",
    .fn = cmd_rewrite,
    .summary = "a faster query with the same results, proved by running both, or the reason none\n"
               "is offered",
    .synopsis = "--sqlite DB [options] SQL|-\n"
                "sqlsim rewrite (--db-dir DIR | --sqlite DB) --pred FILE [--gold FILE] [options]",
    .opts = options,
    .details = "rules: count_star, date_range, distinct_group, in_join, in_exists, decorrelate, max_top1,\n"
               "join_in, in_plus, subquery_order (the default set), and the BIRD paper's forward forms\n"
               "top1_max and count_pk when listed. docs/rewrite.md says when each applies.\n"
               "The database is opened read-only; the proof runs on private copies.\n",
};

static int cmd_rewrite(int argc, char **argv) {
  const char *sqlite = NULL, *db_dir = NULL, *pred = NULL, *gold = NULL, *sql = NULL;
  int json = 0, quiet = 0, k;
  sqlsim_rewrite_opts o = {0};
  cli_parser ps = {.cmd = &cmd_rewrite_spec, .argc = argc, .argv = argv};
  const char *v;
  while ((k = cli_next(&ps, &v)) != CLI_END) {
    int bad = 0;
    if (k == CLI_HELP) return cli_parser_free(&ps), 0;
    if (k == CLI_ERROR) bad = 1;
    else if (k == CLI_ARG) {
      if (sql) bad = (error("rewrite: one query at a time (got a second: '%.40s'); use --pred FILE for many", v), 1);
      sql = v;
    } else {
      const char *name = options[k].name;
      if (!strcmp(name, "sqlite") || !strcmp(name, "db-dir")) {
        if (sqlsim_engine_of(v) != SQLSIM_ENGINE_SQLITE) {
          sqlsim_rewrite_result r;
          sqlsim_error e = {0};
          sqlsim_rewrite(v, "SELECT 1", NULL, &r, &e); /* the library's reason, said once */
          bad = (error("rewrite: %s", e.message), 1);
        }
      }
      if (!strcmp(name, "sqlite")) sqlite = v;
      else if (!strcmp(name, "db-dir") && !bad) {
        bad = cli_dir("--db-dir", v) != 0;
        db_dir = v;
      } else if (!strcmp(name, "pred")) pred = v;
      else if (!strcmp(name, "gold")) gold = v;
      else if (!strcmp(name, "quiet")) quiet = 1;
      else if (!strcmp(name, "format")) {
        if (!strcmp(v, "json")) json = 1;
        else if (strcmp(v, "text")) bad = (error("rewrite: --format must be text or json, not '%s'", v), 1);
      } else if (!strcmp(name, "iterations")) bad = cli_int("--iterations", v, 1, 1000000, &o.iterations) != 0;
      else if (!strcmp(name, "timeout")) bad = cli_double("--timeout", v, 0.001, CLI_MAX_TIMEOUT, &o.timeout_s) != 0;
      else if (!strcmp(name, "time-budget"))
        bad = cli_double("--time-budget", v, 0.001, CLI_MAX_TIMEOUT, &o.time_budget_s) != 0;
      else if (!strcmp(name, "fixed")) o.fixed = 1;
      else if (!strcmp(name, "rules")) bad = parse_rules(v, &o.rules) != 0;
    }
    if (bad) return cli_parser_free(&ps), CLI_EUSAGE;
  }
  cli_parser_free(&ps);
  if (pred) {
    if (sql) return error("rewrite: give a query or --pred FILE, not both"), CLI_EUSAGE;
    if (!db_dir == !sqlite) return error("rewrite: a predictions file needs --db-dir DIR or --sqlite DB"), CLI_EUSAGE;
    return batch(db_dir, sqlite, pred, gold, &o, json, quiet);
  }
  if (!sqlite || !sql) return error("rewrite: needs --sqlite DB and a query (or --db-dir/--sqlite with --pred FILE)"), CLI_EUSAGE;
  cli_lines in = {0};
  char *owned = NULL;
  if (!strcmp(sql, "-")) {
    if (cli_read_lines("-", &in)) return -1;
    strbuf sb = {0};
    for (int i = 0; i < in.n; i++) sb_printf(&sb, "%s\n", in.lines[i].text);
    cli_lines_free(&in);
    sql = owned = sb_take(&sb);
  }
  sqlsim_rewrite_result r;
  sqlsim_error err = {0};
  int rc = sqlsim_rewrite(sqlite, sql, &o, &r, &err);
  if (rc) {
    sqlsim_rewrite_result_free(&r);
    free(owned);
    return error("rewrite: %s", err.message);
  }
  if (json) {
    strbuf sb = {0};
    sb_putc(&sb, '{');
    json_one(&sb, &r);
    printf("%s}\n", sb.buf);
    sb_free(&sb);
  } else {
    print_one_text(sql, &r);
  }
  sqlsim_rewrite_result_free(&r);
  free(owned);
  return 0;
}
