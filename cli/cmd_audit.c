/* cmd_audit.c -- `sqlsim audit`: the benchmark's gold items ranked by how
 * likely each is wrong or underdetermined, with the evidence (the library's
 * sqlsim_audit_run does the work; this reads the files and prints). */
#include "cli.h"
#include "report/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const cli_opt options[] = {
    {"gold", 0, "FILE", "the benchmark: SQL<TAB>db_id lines, or Spider's/BIRD's JSON"},
    {"pred", 0, "[NAME=]FILE", "one system's predictions (repeat: the more systems, the better the consensus);\n"
                               "aligned with the gold by position, or by question index (BIRD's objects)"},
    {"tables", 0, "FILE", "Spider-style tables.json: the schemas"},
    {"sqlite", 0, "FILE", "one SQLite database for every item (its schema, its rows)"},
    {"db-dir", 0, "DIR", "databases as DIR/<db_id>/<db_id>.sqlite: answers compared there; without one (and\n"
                         "without --sqlite or --engine) on databases generated from the schema"},
    {"engine", 0, "URL", "the databases on another engine (its URL: the engines below; as sqlsim eval's\n"
                         "--engine)"},
    {"dialect", 0, "D", "the SQL's dialect: " CLI_DIALECTS " (default: the engine's)"},
    {"format", 0, "F", "text (default): a ranked table, the top items' evidence and each system's EX with\n"
                       "and without the flagged items; json: one JSON object per line for each flagged\n"
                       "item, ranked (docs/audit.md)"},
    {"top", 0, "N", "show at most N items (text default 20; json default every flagged one)"},
    {"all", 0, NULL, "json: every item, flagged or not, ranked"},
    {"min-score", 0, "S", "flag items scoring at least S (0 to 1, default 0.5)"},
    {"no-witness", 0, NULL, "do not look for the rows or database that show a consensus (faster)"},
    {"jobs", 'j', "N", "worker threads (default 1)"},
    {"timeout", 0, "SECONDS", "per query on a real database (default 30)"},
    {"now", 0, "TIME", "fix SQLite's 'now' (YYYY-MM-DD HH:MM:SS)"},
    {NULL, 0, NULL, NULL},
};

static int cmd_audit(int argc, char **argv);

const cli_command cmd_audit_spec = {
    .name = "audit",
    .fn = cmd_audit,
    .summary = "find the gold queries that are likely wrong or underdetermined, with evidence",
    .synopsis = "--gold FILE (--tables FILE | --sqlite FILE) [--db-dir DIR | --engine URL]\n"
                "             --pred [NAME=]FILE [--pred ...] [--format text|json] [--top N]",
    .opts = options,
    .details = "Each gold item is scored from 0 to 1 by its evidence (docs/audit.md): systems agreeing with\n"
               "each other and not with the gold (each weighed by its agreement with the gold on the other\n"
               "items), a gold that fails or returns nothing, ORDER BY .. LIMIT cutting through ties, LIMIT\n"
               "without ORDER BY, a column GROUP BY does not determine, integer division, a literal the\n"
               "column holds only in another case. Items scoring at least --min-score are flagged; each\n"
               "system's EX is shown over all items and with the flagged ones left out.\n",
};

typedef struct audit_args {
  const char *gold, *format;
  int top, all;
  double min_score;
  run names; /* the systems' names (run_name_models) */
} audit_args;

static int cmd_audit(int argc, char **argv) {
  const char *v;
  int k, rc = 0;
  audit_args o = {.format = "text"};
  sqlsim_audit_opts ao = {0};
  cli_schema_opts so = {0};
  const char *db_dir = NULL;
  cli_parser ps = {.cmd = &cmd_audit_spec, .argc = argc, .argv = argv};
  while ((k = cli_next(&ps, &v)) != CLI_END) {
    if (k == CLI_HELP) return cli_parser_free(&ps), 0;
    if (k == CLI_ERROR) return cli_parser_free(&ps), CLI_EUSAGE;
    if (k == CLI_ARG) {
      rc = error("audit: unexpected argument '%s'", v);
      break;
    }
    const char *name = options[k].name;
    if (!strcmp(name, "gold")) o.gold = v;
    else if (!strcmp(name, "pred")) {
      if (o.names.npreds == RUN_MAX_PREDS) {
        rc = error("audit: at most %d --pred files", RUN_MAX_PREDS);
        break;
      }
      o.names.pred_paths[o.names.npreds++] = v;
    } else if (!strcmp(name, "tables")) so.tables = v;
    else if (!strcmp(name, "sqlite")) so.sqlite = ao.sqlite = v;
    else if (!strcmp(name, "db-dir")) {
      if ((rc = cli_dir("--db-dir", v))) break;
      db_dir = ao.db_dir = v;
    } else if (!strcmp(name, "engine")) {
      if (sqlsim_engine_of(v) == SQLSIM_ENGINE_SQLITE) {
        rc = error("audit: --engine takes a %s URL, not '%.60s'", sqlsim_engine_urls(), v);
        break;
      }
      ao.engine = v;
    } else if (!strcmp(name, "dialect")) {
      sqlsim_error e = {0};
      if (sqlsim_dialect_parse(v, &ao.dialect, &e)) {
        rc = error("audit: --dialect: %s", e.message);
        break;
      }
    } else if (!strcmp(name, "format")) {
      if (strcmp(v, "text") && strcmp(v, "json")) {
        rc = error("audit: --format must be text or json, not '%s'", v);
        break;
      }
      o.format = v;
    } else if (!strcmp(name, "top")) {
      if ((rc = cli_int("--top", v, 1, 100000000, &o.top))) break;
    } else if (!strcmp(name, "all")) o.all = 1;
    else if (!strcmp(name, "min-score")) {
      if ((rc = cli_double("--min-score", v, 1e-9, 1, &ao.min_score))) break;
      o.min_score = ao.min_score;
    } else if (!strcmp(name, "no-witness")) ao.witness = -1;
    else if (!strcmp(name, "jobs")) {
      if ((rc = cli_int("-j", v, 1, 1024, &ao.jobs))) break;
    } else if (!strcmp(name, "timeout")) {
      if ((rc = cli_double("--timeout", v, 0.001, CLI_MAX_TIMEOUT, &ao.timeout_s))) break;
    } else if (!strcmp(name, "now")) {
      if ((rc = cli_now("--now", v))) break;
      ao.fixed_now = v;
    }
  }
  cli_parser_free(&ps);
  if (rc) return CLI_EUSAGE;
  if (!o.gold) return error("audit: --gold FILE is required"), CLI_EUSAGE;
  if (!o.names.npreds) return error("audit: give each system's predictions with --pred FILE"), CLI_EUSAGE;
  if (!so.tables && !so.sqlite) return error("audit: the schemas are needed: --tables FILE or --sqlite FILE"), CLI_EUSAGE;
  if ((db_dir != NULL) + (ao.sqlite != NULL) + (ao.engine != NULL) > 1)
    return error("audit: give one of --db-dir, --sqlite and --engine"), CLI_EUSAGE;
  sqlsim_error err = {0};
  if (run_name_models(&o.names, &err)) return error("audit: %s", err.message), CLI_EUSAGE;
  ao.tables = so.tables;
  sqlsim_itemset *gold = NULL, *pred[RUN_MAX_PREDS] = {0};
  const char **sqls[RUN_MAX_PREDS] = {0};
  int *slot = NULL;
  sqlsim_audit *a = NULL;
  rc = -1;
  if (sqlsim_items_load(o.gold, &gold, &err)) {
    error("%s", err.message);
    goto done;
  }
  slot = malloc(sizeof *slot * (size_t)(gold->n > 0 ? gold->n : 1));
  for (int p = 0; p < o.names.npreds; p++) {
    if (sqlsim_items_load(o.names.files[p], &pred[p], &err) || sqlsim_items_pair(gold, pred[p], slot, &err)) {
      error("%s", err.message);
      goto done;
    }
    sqls[p] = calloc((size_t)(gold->n > 0 ? gold->n : 1), sizeof *sqls[p]);
    for (int i = 0; i < gold->n; i++) sqls[p][i] = slot[i] >= 0 ? pred[p]->items[slot[i]].sql : NULL;
  }
  if (sqlsim_audit_run(gold, (const char *const *const *)sqls, (const char *const *)o.names.names, o.names.npreds, &ao,
                       &a, &err)) {
    error("audit: %s", err.message);
    goto done;
  }
  if (!strcmp(o.format, "json")) {
    int shown = 0;
    for (int r = 0; r < a->nitems && (!o.top || shown < o.top); r++)
      if (o.all || a->items[r].flagged) printf("%s\n", a->items[r].json), shown++;
  } else {
    audit_text(stdout, a, o.top, o.min_score);
  }
  rc = 0;
done:
  sqlsim_audit_free(a);
  for (int p = 0; p < o.names.npreds; p++) {
    sqlsim_items_free(pred[p]);
    free(sqls[p]);
    free(o.names.names[p]);
  }
  sqlsim_items_free(gold);
  free(slot);
  return rc;
}
