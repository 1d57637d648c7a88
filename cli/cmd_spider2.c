/* cmd_spider2.c -- `sqlsim spider2`: a Spider 2.0 prediction folder scored
 * as the benchmark's evaluate.py scores it (the library's
 * sqlsim_spider2_run does the work; this reads the options and prints). */
#include "cli.h"
#include "engine/fields.h"
#include "report/report.h"

#include <stdlib.h>
#include <string.h>

static const cli_opt options[] = {
    {"gold", 0, "DIR", "the gold, laid out as the repository's evaluation_suite/gold: exec_result/ (the\n"
                       "gold result tables) and spider2lite_eval.jsonl or spider2snow_eval.jsonl"},
    {"pred", 0, "DIR", "the predictions: <instance_id>.csv result tables (result mode) or\n"
                       "<instance_id>.sql queries (SQL mode), as the script takes them"},
    {"mode", 0, "M", "result or sql (default: by the folder's files)"},
    {"flavor", 0, "F", "lite or snow: whose evaluate.py (default: by the eval file in --gold)"},
    {"rows", 0, NULL, "also judge row by row: the gold's matched columns must come from the same\n"
                      "predicted rows (Spider2 #226), beside the official score, never in its place"},
    {"db-dir", 0, "DIR", "SQL mode: the databases, DIR/<db>.sqlite (Spider 2.0's local SQLite files)"},
    {"sqlite", 0, "FILE", "SQL mode: one SQLite database for every task"},
    {"engine", 0, "URL", "SQL mode: the databases on another engine (its URL: the engines below)"},
    {"tasks", 0, "FILE", "SQL mode: the tasks file naming each task's database (default: spider2-lite.jsonl\n"
                         "or spider2-snow.jsonl beside --gold)"},
    {"per-item", 0, "FILE", "one JSON line per task: instance_id, score, the gold file that matched, rows\n"
                            "(with --rows) and error (docs/spider2.md); '-' for standard output"},
    {"format", 0, "F", "text (default) or json: the summary by engine"},
    {"jobs", 'j', "N", "worker threads (default 1)"},
    {"timeout", 0, "SECONDS", "SQL mode: per query (default 60)"},
    {"quiet", 'q', NULL, "no progress on standard error"},
    {NULL, 0, NULL, NULL},
};

static int cmd_spider2(int argc, char **argv);

const cli_command cmd_spider2_spec = {
    .name = "spider2",
    .fn = cmd_spider2,
    .summary = "score Spider 2.0 predictions as its evaluate.py does (result tables or SQL)",
    .synopsis = "--gold DIR --pred DIR [--mode result|sql] [--rows] [--per-item FILE]\n"
                "             [--db-dir DIR | --sqlite FILE | --engine URL] [--format text|json]",
    .opts = options,
    .details = "Each task's predicted table is read as pandas 1.5.3 reads a CSV and compared with each of the\n"
               "task's gold tables by the script's rules (docs/spider2.md): every gold column (those of\n"
               "condition_cols when given) must equal some predicted column, each sorted by str() of its values\n"
               "with ignore_order, numbers within 0.01; one gold table matching passes. The score is given over\n"
               "the predicted tasks and over the benchmark's, by engine (BigQuery: bq and ga, Snowflake: sf,\n"
               "SQLite: local). A prediction that cannot be read or run scores 0 with the reason; the run goes on.\n",
};

typedef struct sp_sink {
  FILE *per_item;
  strbuf sb;
  cli_progress prog;
} sp_sink;

static void on_record(void *ctx, const char *id, const sqlsim_record *r) {
  sp_sink *k = ctx;
  if (!k->per_item) return;
  k->sb.len = 0;
  sb_puts(&k->sb, "{\"instance_id\":");
  sb_json_str(&k->sb, id);
  sb_putc(&k->sb, ',');
  engine_record_json(&k->sb, r);
  sb_puts(&k->sb, "}\n");
  fwrite(k->sb.buf, 1, k->sb.len, k->per_item);
  fflush(k->per_item);
}

static void on_progress(void *ctx, const char *phase, size_t done, size_t total) {
  sp_sink *k = ctx;
  cli_progress_update(&k->prog, phase, done, total, "tasks");
}

static int cmd_spider2(int argc, char **argv) {
  const char *v, *pred = NULL, *per_item = NULL, *format = "text";
  int k, rc = 0, quiet = 0;
  sqlsim_spider2_opts o = {.mode = -1};
  cli_parser ps = {.cmd = &cmd_spider2_spec, .argc = argc, .argv = argv};
  while ((k = cli_next(&ps, &v)) != CLI_END) {
    if (k == CLI_HELP) return cli_parser_free(&ps), 0;
    if (k == CLI_ERROR) return cli_parser_free(&ps), CLI_EUSAGE;
    if (k == CLI_ARG) {
      rc = error("spider2: unexpected argument '%s'", v);
      break;
    }
    const char *name = options[k].name;
    if (!strcmp(name, "gold")) {
      if ((rc = cli_dir("--gold", v))) break;
      o.gold = v;
    } else if (!strcmp(name, "pred")) {
      if ((rc = cli_dir("--pred", v))) break;
      pred = v;
    } else if (!strcmp(name, "mode")) {
      if (!strcmp(v, "result") || !strcmp(v, "exec_result")) o.mode = SQLSIM_SPIDER2_CSV;
      else if (!strcmp(v, "sql")) o.mode = SQLSIM_SPIDER2_SQL;
      else {
        rc = error("spider2: --mode must be result or sql, not '%s'", v);
        break;
      }
    } else if (!strcmp(name, "flavor")) {
      if (!strcmp(v, "lite")) o.flavor = SQLSIM_SPIDER2_LITE;
      else if (!strcmp(v, "snow")) o.flavor = SQLSIM_SPIDER2_SNOW;
      else {
        rc = error("spider2: --flavor must be lite or snow, not '%s'", v);
        break;
      }
    } else if (!strcmp(name, "rows")) o.rows = 1;
    else if (!strcmp(name, "db-dir")) {
      if ((rc = cli_dir("--db-dir", v))) break;
      o.db_dir = v;
    } else if (!strcmp(name, "sqlite")) o.sqlite = v;
    else if (!strcmp(name, "engine")) {
      if (sqlsim_engine_of(v) == SQLSIM_ENGINE_SQLITE) {
        rc = error("spider2: --engine takes a %s URL, not '%.60s'", sqlsim_engine_urls(), v);
        break;
      }
      o.engine = v;
    } else if (!strcmp(name, "tasks")) o.tasks = v;
    else if (!strcmp(name, "per-item")) per_item = v;
    else if (!strcmp(name, "format")) {
      if (strcmp(v, "text") && strcmp(v, "json")) {
        rc = error("spider2: --format must be text or json, not '%s'", v);
        break;
      }
      format = v;
    } else if (!strcmp(name, "jobs")) {
      if ((rc = cli_int("-j", v, 1, 1024, &o.jobs))) break;
    } else if (!strcmp(name, "timeout")) {
      if ((rc = cli_double("--timeout", v, 0.001, CLI_MAX_TIMEOUT, &o.timeout_s))) break;
    } else if (!strcmp(name, "quiet")) quiet = 1;
  }
  cli_parser_free(&ps);
  if (rc) return CLI_EUSAGE;
  if (!o.gold) return error("spider2: --gold DIR is required"), CLI_EUSAGE;
  if (!pred) return error("spider2: --pred DIR is required"), CLI_EUSAGE;
  if ((o.db_dir != NULL) + (o.sqlite != NULL) + (o.engine != NULL) > 1)
    return error("spider2: give one of --db-dir, --sqlite and --engine"), CLI_EUSAGE;
  sp_sink sink = {0};
  if (per_item && !(sink.per_item = cli_open_out(per_item))) return 1;
  cli_progress_init(&sink.prog, "spider2", quiet);
  cli_catch_signals();
  o.cancel = &cli_cancel;
  o.on_record = on_record;
  o.on_progress = on_progress;
  o.ctx = &sink;
  sqlsim_spider2 *s = NULL;
  sqlsim_error err = {0};
  int code = sqlsim_spider2_run(&o, pred, NULL, NULL, 0, &s, &err);
  cli_progress_end(&sink.prog);
  sb_free(&sink.sb);
  int status = 0;
  if (code) {
    error("spider2: %s", err.message);
    status = code == SQLSIM_ECONFIG ? CLI_EUSAGE : 1;
  } else {
    FILE *out = per_item && !strcmp(per_item, "-") ? stderr : stdout;
    if (!strcmp(format, "json")) {
      char *j = sqlsim_spider2_summary_json(s);
      fprintf(out, "%s\n", j ? j : "{}");
      free(j);
    } else {
      spider2_text(out, s);
    }
    if (s->done < s->n) fprintf(stderr, "spider2: interrupted: %zu of %zu tasks scored\n", s->done, s->n);
    if (!s->n) { /* nothing could be scored: exit 1, as every command does */
      error("spider2: no prediction in %s names a task of %s (%d ignored)", pred, o.gold, s->ignored);
      status = 1;
    }
  }
  sqlsim_spider2_free(s);
  if (sink.per_item && cli_close_out(sink.per_item, per_item)) status = 1;
  int sig = cli_signal_status();
  return sig ? sig : status;
}
