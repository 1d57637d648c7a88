/* cli.h -- shared pieces of the sqlsim command-line subcommands. */
#ifndef SQLSIM_CLI_H
#define SQLSIM_CLI_H

#include <signal.h>
#include <stdio.h>

#include "core.h"
#include "opts.h"

/* Prints "error: ..." to stderr and returns -1 (git's error()). */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

typedef struct cli_line {
  char *text; /* NUL-terminated, without the line end (CR LF or LF) */
  int len;
  int lineno; /* 1-based */
} cli_line;

typedef struct cli_lines {
  char *buf;
  cli_line *lines;
  int n;
} cli_lines;

/* Reads a text file ("-" for stdin) into lines; CRLF and a missing final
 * newline are fine. Returns 0 or -1 after printing an error. */
int cli_read_lines(const char *path, cli_lines *out);
void cli_lines_free(cli_lines *l);

/* Schema options shared by parse/diff/eval: --tables FILE [--db ID] or --sqlite FILE. */
typedef struct cli_schema_opts {
  const char *tables, *db, *sqlite;
  sqlsim_catalog *catalog;
} cli_schema_opts;
/* Takes option name (without "--") if it is a schema option: 1, else 0. */
int cli_schema_opt(cli_schema_opts *o, const char *name, const char *v);
#define CLI_SCHEMA_OPTS                                                                        \
  {"tables", 0, "FILE", "Spider-style tables.json: the schema, to resolve names and aliases"}, \
      {"db", 0, "ID", "the db_id in --tables (needed when it holds more than one schema)"},     \
      {"sqlite", 0, "FILE", "a SQLite database whose schema is used (it is not modified)"}
int cli_schema_load(cli_schema_opts *o);
const sqlsim_schema *cli_schema_for(cli_schema_opts *o, const char *db_id);

/* Option values checked at startup; each prints an error naming the option
 * and returns CLI_EUSAGE when the value is not one it accepts. */
int cli_double(const char *opt, const char *v, double lo, double hi, double *out);
int cli_int(const char *opt, const char *v, long lo, long hi, int *out);
int cli_dir(const char *opt, const char *path);
int cli_now(const char *opt, const char *v);
/* The longest time limit sqlsim accepts for one query (a day). */
#define CLI_MAX_TIMEOUT 86400.0

/* The evaluator's options, shared by the commands that make one (eval,
 * stream): --metrics, --tables, --db-dir, --sqlite, -j/--jobs, --iterations,
 * --timeout, --now, --mode, --keep-distinct, --plug-value, --synth-databases, --witness, --extract; their table
 * entries are CLI_ENGINE_OPTS. */
/* The dialects --dialect reads (sqlsim_dialect_parse). */
#define CLI_DIALECTS "sqlite, postgres, mysql or duckdb"

#define CLI_ENGINE_OPTS                                                                                             \
  {"tables", 0, "FILE", "Spider-style tables.json: schemas for matching, the tree diff and hardness"},              \
      {"db-dir", 0, "DIR", "databases as DIR/<db_id>/<db_id>.sqlite; every other *.sqlite file in\n"            \
                           "DIR/<db_id>/ is a test-suite database: a prediction is correct only if it\n"         \
                           "matches on all of them"},                                                             \
      {"sqlite", 0, "FILE", "one SQLite database for every item (its schema too, without --tables)"},               \
      {"engine", 0, "URL", "run on another engine instead (its URL: the engines below); {db_id} in it names\n"  \
                           "a database per db_id, else one database holds every db_id's tables (BIRD's\n"     \
                           "layout); a password from the URL, password_file=PATH or the environment\n"        \
                           "(PGPASSWORD, MYSQL_PWD), never printed (docs/engines.md)"},                          \
      {"dialect", 0, "D", "the SQL's dialect: " CLI_DIALECTS " (default: the engine's;\n"                     \
                          "SQLite's for files)"},                                                              \
      {"mode", 0, "MODE", "Spider matching: compatible (the official evaluator, bugs included; default)\n"          \
                          "or corrected"},                                                                         \
      {"jobs", 'j', "N", "worker threads (default 1); timing always runs one pair at a time"},                       \
      {"iterations", 0, "N|auto", "timed runs per pair for ves/rves (default 100, the papers' protocol);\n"       \
                                  "auto: each pair stops once its ratio's 95% interval is narrower than\n"        \
                                  "--auto-width (at most 100 runs)"},                                             \
      {"auto-width", 0, "W", "with --iterations auto: the interval's width as a share of the ratio\n"              \
                             "(default 0.1)"},                                                                   \
      {"connection", 0, "MODE", "ves/rves: fresh (default, the papers' protocol: a new connection for every\n"     \
                                "timed run) or reuse (one per pair, both queries run once first: faster and\n"      \
                                "quieter, but its ratios are not the published protocol's)"},                     \
      {"noise-every", 0, "N|never", "ves/rves: about one timed pair in N also has its gold timed against\n"       \
                                    "itself, for the run's noise floor beside VES and R-VES (default 40)"},      \
      {"timeout", 0, "S", "seconds one query may run (default 30)"},                                                \
      {"now", 0, "DATETIME", "fixed 'now' for SQLite, YYYY-MM-DD HH:MM:SS (default: the clock; BIS gold:\n"        \
                             "2023-01-17 00:00:00)"},                                                              \
      {"keep-distinct", 0, NULL, "exec: keep DISTINCT when comparing (Spider's test-suite --keep_distinct;\n"       \
                                 "by default it is removed from both queries, as the official evaluator does)"},   \
      {"plug-value", 0, NULL, "exec: also try the prediction with the gold's values plugged into its value\n"      \
                              "slots (the test-suite --plug_value; Spider EX only)"},                          \
      {"synth-databases", 0, "K", "synth: databases generated per pair (default 6, at most 64)"},                  \
      {"witness", 0, NULL, "each wrong item's evidence in its per-item line (\"witness\"): the smallest\n"     \
                           "generated database found that tells gold and prediction apart (synth,\n"         \
                           "strict), as SQL text sqlite3 loads, with both answers; on a real database\n"      \
                           "the rows each query returned that the other did not"},                            \
      {"assume-not-null", 0, NULL, "synth, strict: judge as if every column were NOT NULL (no generated\n"      \
                                   "database holds a NULL), for data known to have none"},                       \
      {"solver-budget", 0, "SECONDS", "strict: the solver's budget per pair (z3: a database of at most k rows per\n" \
                                      "table telling the two apart, k grown while it lasts; default 0.05),\n"     \
                                      "counted in z3's units, 4 million a second: the same on any machine"},      \
      {"no-solver", 0, NULL, "strict: the search only, no solver stage (per-item bound null)"},                  \
      {"reward-bound", 0, "K", "the reward without a database, with strict: 1 only for a pass with no\n"          \
                               "counterexample up to K rows per table (the solver's bound; default any pass)"}, \
      {"extract", 0, NULL, "predictions are model answers: score the SQL read out of each (the last\n"        \
                           "```sql fence, an <answer> element, the text after \"Final answer:\" or\n"      \
                           "</think>, the query before trailing prose); an answer with none fails with\n"    \
                           "\"no SQL found in the answer\" (per-item \"answer\": where, and the SQL)"}
#define CLI_METRICS_HELP "comma-separated metric names (the metrics are listed below)"
typedef struct cli_engine_opts {
  sqlsim_config cfg;
  const char *metrics;    /* parsed by cli_engine_metrics once all options are read */
  int jobs;
  int iterations_auto;    /* --iterations auto, with --auto-width (0: the default) */
  double auto_width;
} cli_engine_opts;
/* Takes option opt with its value v if it is one of the above: 1 taken, 0 not
 * one of them, -1 a bad value (an error naming cmd and the option printed). */
int cli_engine_opt(const char *cmd, cli_engine_opts *o, const char *opt, const char *v);
/* Reads o->metrics into o->cfg.metrics; 0 or CLI_EUSAGE after printing why. */
int cli_engine_metrics(const char *cmd, cli_engine_opts *o);

/* ---------------------------------------------------------------- outputs */

/* An output file: "-" is standard output. NULL after printing why. */
FILE *cli_open_out(const char *path);
/* Closes it (flushing standard output instead); -1 after printing why if
 * anything could not be written. */
int cli_close_out(FILE *f, const char *path);

/* ---------------------------------------------------------------- interrupts */

/* Set by the first SIGINT or SIGTERM after cli_catch_signals(); a second one
 * ends the process at once. Long runs pass it to the engine as its cancel
 * flag, then write what finished. */
extern volatile int cli_cancel;
void cli_catch_signals(void);
/* 0, or the exit status of the signal that arrived (128 + its number). */
int cli_signal_status(void);

/* ---------------------------------------------------------------- progress */

/* Progress on stderr: a bar redrawn on a terminal, a line every 10 s
 * otherwise (logs), nothing with --quiet. */
typedef struct cli_progress {
  const char *cmd;
  int quiet, tty, drawn;
  double start, last;
  const char *phase;
} cli_progress;
void cli_progress_init(cli_progress *p, const char *cmd, int quiet);
void cli_progress_update(cli_progress *p, const char *phase, size_t done, size_t total, const char *unit);
/* Ends a bar on a terminal with a newline. */
void cli_progress_end(cli_progress *p);

/* Where eval and analyze send what the engine reports while it scores a
 * run (report/run.h): each finished record as a per-item JSON line, written
 * and flushed at once (when per_item is set), and progress. Pass
 * cli_sink_record / cli_sink_progress as the batch's callbacks, the sink as
 * their context. */
struct run;
typedef struct cli_sink {
  const struct run *r;
  FILE *per_item;
  strbuf sb;
  cli_progress prog;
} cli_sink;
void cli_sink_record(void *sink, size_t k, const sqlsim_record *rec);
void cli_sink_progress(void *sink, const char *phase, size_t done, size_t total);

extern const char *const cli_exit_status;

extern const cli_command cmd_parse_spec, cmd_load_spec, cmd_eval_spec, cmd_diff_spec, cmd_analyze_spec, cmd_rewrite_spec,
    cmd_stream_spec, cmd_audit_spec, cmd_spider2_spec;

#endif
