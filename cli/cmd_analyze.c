/* cmd_analyze.c -- `sqlsim analyze`: what kinds of mistakes models make.
 * Each --gold starts a benchmark; the --tables, --db-dir, --sqlite and --pred
 * after it belong to it, so Spider and BIRD files go in one call. The options
 * are read here; scoring is the engine's (report/run.c), the outputs
 * report/analyze_report.c's and report/html.c's. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report/report.h"

static const cli_opt options[] = {
    {"gold", 0, "FILE", "starts a benchmark: its gold queries (any format sqlsim eval reads); the\n"
                        "--tables, --db-dir, --sqlite and --pred options after it belong to it"},
    {"pred", 0, "[NAME=]FILE", "a model's predictions for the benchmark (repeat for more models)"},
    {"tables", 0, "FILE", "the benchmark's tables.json (schemas; Spider hardness and matching)"},
    {"db-dir", 0, "DIR", "the benchmark's databases, DIR/<db_id>/<db_id>.sqlite (with test-suite\n"
                         "siblings); without databases the analysis is structure only"},
    {"sqlite", 0, "FILE", "one database for every item of the benchmark"},
    {"engine", 0, "URL", "or the benchmark's databases on another engine (its URL: the engines below),\n"
                         "{db_id} naming a database per db_id (docs/engines.md)"},
    {"dialect", 0, "D", "the benchmark's SQL dialect: " CLI_DIALECTS " (default: the\n"
                        "engine's)"},
    {"jobs", 'j', "N", "worker threads (default 1)"},
    {"timeout", 0, "S", "seconds one query may run (default 30)"},
    {"no-exec", 0, NULL, "do not run queries even where databases are given (structure only)"},
    {"witness", 0, NULL, "each wrong item's evidence, in its per-item line and the HTML report: the\n"
                         "rows each query returned on the real database, or without one the smallest\n"
                         "generated database that tells them apart (its tables) with both answers"},
    {"repair", 0, NULL, "each wrong item's repair, in its per-item line and the HTML report: the\n"
                        "smallest set of its parts found whose fix gives the gold's answer, run where\n"
                        "the item was judged, with those parts' categories (slower: up to 40\n"
                        "repaired queries per wrong item)"},
    {"all-items", 0, NULL, "score questions a prediction file lacks as wrong (default: left out)"},
    {"per-item", 0, "FILE", "one JSON line per item and model, written as each finishes; - for stdout"},
    {"csv", 0, "FILE", "one CSV row per item and model, with the categories and their evidence"},
    {"html", 0, "FILE", "a self-contained HTML report"},
    {"audit", 0, NULL, "also audit each benchmark's gold against the models (sqlsim audit): the items likely\n"
                       "wrong or underdetermined, in the summary and the HTML report"},
    {"format", 0, "FORMAT", "the summary: text (default) or json (the same tables)"},
    {"quiet", 'q', NULL, "no progress on stderr"},
    {NULL, 0, NULL, NULL},
};

static int cmd_analyze(int argc, char **argv);

const cli_command cmd_analyze_spec = {
    .name = "analyze",
    .fn = cmd_analyze,
    .summary = "what kinds of mistakes models make: error categories by model, group and database,\n"
               "models side by side, per item with evidence (text, JSON, CSV, HTML)",
    .synopsis = "--gold FILE [--tables FILE] [--db-dir DIR | --sqlite FILE] --pred [NAME=]FILE ...\n"
                "[--gold FILE ... --pred ...] [options]",
    .opts = options,
    .details = "An item is \"correct\" by execution (BIRD's EX for BIRD gold, Spider's otherwise) where its\n"
               "database is found, and by structure alone elsewhere; the summary counts the two apart.\n",
};

#define MAX_BENCH 16

static int read_options(int argc, char **argv, run *groups, int *ng, int *jobs, double *timeout, int *no_exec,
                        int *witness, int *repair, int *all_items, const char **per_item, const char **csv, const char **html, int *json,
                        int *quiet, int *audit) {
  cli_parser ps = {.cmd = &cmd_analyze_spec, .argc = argc, .argv = argv};
  const char *v;
  int k, rc = 0;
  while (!rc && (k = cli_next(&ps, &v)) != CLI_END) {
    if (k == CLI_HELP) rc = 1;
    else if (k == CLI_ERROR) rc = CLI_EUSAGE;
    else if (k == CLI_ARG)
      rc = (error("analyze: unexpected argument '%s': files are given with --gold and --pred", v), CLI_EUSAGE);
    if (rc) break;
    const char *name = options[k].name;
    run *g = *ng ? &groups[*ng - 1] : NULL;
    if (!strcmp(name, "gold")) {
      if (*ng == MAX_BENCH) rc = (error("analyze: at most %d --gold benchmarks", MAX_BENCH), CLI_EUSAGE);
      else groups[(*ng)++].gold_path = v;
    } else if (!strcmp(name, "tables") || !strcmp(name, "db-dir") || !strcmp(name, "sqlite") || !strcmp(name, "pred") ||
               !strcmp(name, "engine") || !strcmp(name, "dialect")) {
      sqlsim_error e = {0};
      if (!g) rc = (error("analyze: --%s belongs to a benchmark: give --gold first", name), CLI_EUSAGE);
      else if (!strcmp(name, "tables")) g->tables = v;
      else if (!strcmp(name, "engine")) {
        if (sqlsim_engine_of(v) == SQLSIM_ENGINE_SQLITE)
          rc = (error("analyze: --engine takes a %s URL, not '%.60s'", sqlsim_engine_urls(), v), CLI_EUSAGE);
        g->engine = v;
      } else if (!strcmp(name, "dialect")) {
        if (sqlsim_dialect_parse(v, &g->dialect, &e)) rc = (error("analyze: --dialect: %s", e.message), CLI_EUSAGE);
      }
      else if (!strcmp(name, "db-dir")) {
        if (cli_dir("--db-dir", v)) rc = CLI_EUSAGE;
        g->db_dir = v;
      } else if (!strcmp(name, "sqlite")) g->sqlite = v;
      else if (g->npreds == RUN_MAX_PREDS)
        rc = (error("analyze: at most %d --pred files per benchmark", RUN_MAX_PREDS), CLI_EUSAGE);
      else g->pred_paths[g->npreds++] = v;
    } else if (!strcmp(name, "jobs")) {
      if (cli_int("-j", v, 1, 1024, jobs)) rc = CLI_EUSAGE;
    } else if (!strcmp(name, "timeout")) {
      if (cli_double("--timeout", v, 0.001, CLI_MAX_TIMEOUT, timeout)) rc = CLI_EUSAGE;
    } else if (!strcmp(name, "no-exec")) *no_exec = 1;
    else if (!strcmp(name, "witness")) *witness = 1;
    else if (!strcmp(name, "repair")) *repair = 1;
    else if (!strcmp(name, "all-items")) *all_items = 1;
    else if (!strcmp(name, "per-item")) *per_item = v;
    else if (!strcmp(name, "csv")) *csv = v;
    else if (!strcmp(name, "html")) *html = v;
    else if (!strcmp(name, "quiet")) *quiet = 1;
    else if (!strcmp(name, "audit")) *audit = 1;
    else if (!strcmp(name, "format")) {
      if (!strcmp(v, "json")) *json = 1;
      else if (strcmp(v, "text")) rc = (error("analyze: --format must be text or json, not '%s'", v), CLI_EUSAGE);
    }
  }
  cli_parser_free(&ps);
  if (rc) return rc;
  if (!*ng) return error("analyze: give at least one --gold FILE with its --pred files (see sqlsim help analyze)"), CLI_EUSAGE;
  for (int b = 0; b < *ng; b++)
    if (!groups[b].npreds) return error("analyze: %s has no --pred file after it", groups[b].gold_path), CLI_EUSAGE;
  int to_stdout = (*per_item && !strcmp(*per_item, "-")) + (*csv && !strcmp(*csv, "-")) + (*html && !strcmp(*html, "-"));
  if (to_stdout > 1) return error("analyze: only one output can be - (standard output)"), CLI_EUSAGE;
  return 0;
}

static int cmd_analyze(int argc, char **argv) {
  run *groups = calloc(MAX_BENCH, sizeof *groups);
  int ng = 0, jobs = 1, no_exec = 0, witness = 0, repair = 0, all_items = 0, json = 0, quiet = 0, audit = 0;
  double timeout = 30;
  const char *per_item = NULL, *csv = NULL, *html = NULL;
  int rc = read_options(argc, argv, groups, &ng, &jobs, &timeout, &no_exec, &witness, &repair, &all_items, &per_item, &csv, &html,
                        &json, &quiet, &audit);
  if (rc) {
    free(groups);
    return rc == 1 ? 0 : rc;
  }
  cli_sink out = {0};
  cli_progress_init(&out.prog, "analyze", quiet);
  /* load every benchmark first: a mistake in the last one shows before any work */
  for (int k = 0; k < ng && !rc; k++) {
    run *g = &groups[k];
    g->all_items = all_items;
    sqlsim_config cfg = {.tables = g->tables, .db_dir = no_exec ? NULL : g->db_dir, .sqlite = g->sqlite,
                         .engine = no_exec ? NULL : g->engine, .dialect = g->dialect, .timeout_s = timeout,
                         .iterations = 1, .metrics = SQLSIM_M_BIS | SQLSIM_M_CATEGORIES, .witness = witness,
                         .repair = repair, .audit = audit};
    if (g->tables && !cfg.sqlite) cfg.metrics |= SQLSIM_M_MATCH;
    if (!no_exec && (g->db_dir || g->sqlite || g->engine)) cfg.metrics |= SQLSIM_M_EXEC;
    else if (g->tables || g->sqlite) cfg.metrics |= SQLSIM_M_SYNTH; /* no database: generated ones judge */
    sqlsim_error err = {0};
    if ((rc = run_load(g, &cfg, &err))) error("analyze: %s", err.message);
  }
  if (!rc && per_item && !(out.per_item = cli_open_out(per_item))) rc = -1;
  if (!rc) cli_catch_signals();
  for (int k = 0; k < ng && !rc && !cli_cancel; k++) {
    out.r = &groups[k];
    sqlsim_batch_opts bo = {.jobs = jobs, .on_record = cli_sink_record, .on_progress = cli_sink_progress, .ctx = &out,
                            .cancel = &cli_cancel};
    run_score(&groups[k], &bo);
  }
  cli_progress_end(&out.prog);
  sb_free(&out.sb);
  for (int k = 0; k < ng && audit && !rc && !cli_cancel; k++) {
    sqlsim_error err = {0};
    if (run_audit(&groups[k], &err)) rc = error("analyze: audit of %s: %s", groups[k].gold_path, err.message);
  }
  if (cli_close_out(out.per_item, per_item)) rc = -1;
  if (rc) goto out;
  if (cli_signal_status()) fprintf(stderr, "analyze: interrupted: the outputs cover the items finished\n");
  if (csv) {
    FILE *f = cli_open_out(csv);
    if (!f) rc = -1;
    for (int k = 0; f && k < ng; k++) analyze_csv(f, &groups[k], k == 0);
    if (f && cli_close_out(f, csv)) rc = -1;
  }
  if (html && html_report(html, groups, ng)) rc = error("%s: cannot write the HTML report", html);
  FILE *rep = (per_item && !strcmp(per_item, "-")) || (csv && !strcmp(csv, "-")) || (html && !strcmp(html, "-"))
                  ? stderr : stdout;
  if (json) {
    strbuf sb = {0};
    sb_puts(&sb, "{\"benchmarks\":[");
    for (int k = 0; k < ng; k++) {
      if (k) sb_putc(&sb, ',');
      analyze_json(&sb, &groups[k]);
    }
    sb_puts(&sb, "]}\n");
    fputs(sb.buf, rep);
    sb_free(&sb);
  } else {
    for (int k = 0; k < ng; k++) {
      analyze_text(rep, &groups[k]);
      if (groups[k].audit) {
        fputs("\n", rep);
        audit_text(rep, groups[k].audit, 10, 0);
      }
    }
  }
  if (fflush(rep) != 0 || ferror(rep)) rc = error("analyze: could not write the summary: %s", strerror(errno ? errno : EIO));
  if (!rc && cli_signal_status()) rc = cli_signal_status();
out:
  for (int k = 0; k < ng; k++) run_free(&groups[k]);
  free(groups);
  return rc;
}
