/* cmd_eval.c -- `sqlsim eval`: score prediction files against gold. The
 * options are read here; the work is the engine's (report/run.c) and the
 * report report/eval_report.c's. Per-item lines are written and flushed as
 * records finish; SIGINT/SIGTERM stop the run, and what finished is written
 * and reported. */
#include <errno.h>
#include <string.h>

#include "cli.h"
#include "report/report.h"

static const cli_opt options[] = {
    {"metrics", 0, "LIST", CLI_METRICS_HELP "; default match"},
    {"gold", 0, "FILE", "gold queries: Spider .sql (SQL<TAB>db_id lines) or dev.json, BIRD dev.json,\n"
                        "BIS questions JSON; - for standard input"},
    {"pred", 0, "[NAME=]FILE", "predictions, one file per model (repeat the option): one SQL per line, or\n"
                               "BIRD's predict_dev.json object (keyed by question index; may cover part of\n"
                               "the set); - for standard input. NAME names the model (default: the file's\n"
                               "base name, with its directory when two would be the same)"},
    CLI_ENGINE_OPTS,
    {"alternate", 0, NULL, "ves/rves: swap which query runs first every iteration (default: the\n"
                           "prediction first, as BIRD's evaluator)"},
    {"all-items", 0, NULL, "when a prediction file covers part of the gold set, score the questions it\n"
                           "lacks as wrong (default: report on the questions every file covers)"},
    {"per-item", 0, "FILE", "one JSON line per item and model, written as each finishes\n"
                            "(docs/per-item.md); - for standard output (the report then goes to stderr)"},
    {"format", 0, "FORMAT", "the report: text (default) or json"},
    {"quiet", 'q', NULL, "no progress on stderr"},
    {NULL, 0, NULL, NULL},
};

static int cmd_eval(int argc, char **argv);

const cli_command cmd_eval_spec = {
    .name = "eval",
    .fn = cmd_eval,
    .summary = "score predictions against gold: exact set match, execution accuracy (EX), VES,\n"
               "R-VES, BIS result and tree similarity",
    .synopsis = "--gold FILE --pred [NAME=]FILE [--pred ...] [--metrics LIST]\n"
                "[--tables FILE] [--db-dir DIR | --sqlite FILE] [options]",
    .opts = options,
    .details = "examples:\n"
               "  sqlsim eval --metrics match,exec --gold dev_gold.sql --pred dail=pred.sql \\\n"
               "      --tables tables.json --db-dir database\n"
               "  sqlsim eval --metrics exec,rves --gold dev.json --pred predict_dev.json --db-dir dev_databases\n"
               "\n"
               "Gold and predictions pair up by position (by question index for BIRD's predict_dev.json);\n"
               "a count that differs is an error before anything runs.\n",
};

static int cmd_eval(int argc, char **argv) {
  run c;
  memset(&c, 0, sizeof c);
  cli_engine_opts eo = {.cfg = {.mode = SQLSIM_SPIDER_COMPATIBLE, .iterations = 100, .timeout_s = 30},
                        .metrics = "match", .jobs = 1};
  sqlsim_config *cfg = &eo.cfg;
  const char *per_item = NULL;
  int json = 0, quiet = 0, k;
  const char *v;
  cli_parser ps = {.cmd = &cmd_eval_spec, .argc = argc, .argv = argv};
  while ((k = cli_next(&ps, &v)) != CLI_END) {
    if (k == CLI_HELP) return cli_parser_free(&ps), 0;
    if (k == CLI_ERROR) return cli_parser_free(&ps), CLI_EUSAGE;
    if (k == CLI_ARG) return cli_parser_free(&ps), error("eval: unexpected argument '%s': files are given with --gold and --pred (see sqlsim help eval)", v), CLI_EUSAGE;
    const char *name = options[k].name;
    int taken = cli_engine_opt("eval", &eo, name, v);
    if (taken < 0) return cli_parser_free(&ps), CLI_EUSAGE;
    if (taken) continue;
    if (!strcmp(name, "gold")) c.gold_path = v;
    else if (!strcmp(name, "pred")) {
      if (c.npreds == RUN_MAX_PREDS) return cli_parser_free(&ps), error("eval: at most %d --pred files", RUN_MAX_PREDS), CLI_EUSAGE;
      c.pred_paths[c.npreds++] = v;
    } else if (!strcmp(name, "alternate")) cfg->alternate = 1;
    else if (!strcmp(name, "all-items")) c.all_items = 1;
    else if (!strcmp(name, "per-item")) per_item = v;
    else if (!strcmp(name, "quiet")) quiet = 1;
    else if (!strcmp(name, "format")) {
      if (!strcmp(v, "json")) json = 1;
      else if (strcmp(v, "text")) return cli_parser_free(&ps), error("eval: --format must be text or json, not '%s'", v), CLI_EUSAGE;
    }
  }
  cli_parser_free(&ps);
  if (cli_engine_metrics("eval", &eo)) return CLI_EUSAGE;
  if (!c.gold_path) return error("eval: --gold FILE is required (see sqlsim help eval)"), CLI_EUSAGE;
  if (!c.npreds) return error("eval: at least one --pred FILE is required (see sqlsim help eval)"), CLI_EUSAGE;
  int stdin_uses = !strcmp(c.gold_path, "-");
  for (int p = 0; p < c.npreds; p++) stdin_uses += !strcmp(c.pred_paths[p], "-");
  if (stdin_uses > 1) return error("eval: only one of --gold and --pred can be - (standard input)"), CLI_EUSAGE;
  c.tables = cfg->tables;
  c.db_dir = cfg->db_dir;
  c.sqlite = cfg->sqlite;

  int rc = 0;
  cli_sink out = {.r = &c};
  cli_progress_init(&out.prog, "eval", quiet);
  sqlsim_error err = {0};
  if ((rc = run_load(&c, cfg, &err))) {
    error("eval: %s", err.message);
    goto done;
  }
  if (per_item && !(out.per_item = cli_open_out(per_item))) {
    rc = -1;
    goto done;
  }
  cli_catch_signals();
  sqlsim_batch_opts bo = {.jobs = eo.jobs, .on_record = cli_sink_record, .on_progress = cli_sink_progress, .ctx = &out,
                          .cancel = &cli_cancel};
  run_score(&c, &bo);
  cli_progress_end(&out.prog);
  if (cli_close_out(out.per_item, per_item)) rc = -1;
  sb_free(&out.sb);
  FILE *rep = out.per_item == stdout ? stderr : stdout;
  if (cli_signal_status())
    fprintf(stderr, "eval: interrupted: %d of %d items scored; the per-item lines and the report cover those\n",
            c.scored, c.gold->n);
  if (json) eval_report_json(rep, &c);
  else eval_report_text(rep, &c);
  if (fflush(rep) != 0 || ferror(rep)) rc = error("eval: could not write the report: %s", strerror(errno ? errno : EIO));
  if (!rc && cli_signal_status()) rc = cli_signal_status();
done:
  run_free(&c);
  return rc;
}
