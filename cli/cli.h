/* cli.h -- shared pieces of the sqlsim command-line subcommands. */
#ifndef SQLSIM_CLI_H
#define SQLSIM_CLI_H

#include "core.h"

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
/* Consumes argv[*i] if it is a schema option; returns 1 if consumed, -1 on error. */
int cli_schema_arg(cli_schema_opts *o, int argc, char **argv, int *i);
int cli_schema_load(cli_schema_opts *o);
const sqlsim_schema *cli_schema_for(cli_schema_opts *o, const char *db_id);

/* Option values checked at startup; each prints an error naming the option
 * and returns -1 when the value is not one it accepts. */
int cli_double(const char *opt, const char *v, double lo, double hi, double *out);
int cli_int(const char *opt, const char *v, long lo, long hi, int *out);
int cli_dir(const char *opt, const char *path);
int cli_now(const char *opt, const char *v);
/* The longest time limit sqlsim accepts for one query (a day). */
#define CLI_MAX_TIMEOUT 86400.0

/* The evaluator's options, shared by the commands that make one (eval,
 * stream): --metrics, --tables, --db-dir, --sqlite, -j/--jobs, --iterations,
 * --timeout, --now, --mode. */
typedef struct cli_engine_opts {
  sqlsim_config cfg;
  const char *metrics;    /* parsed by cli_engine_metrics once all options are read */
  int jobs;
} cli_engine_opts;
/* Takes option opt with its value v if it is one of the above: 1 taken, 0 not
 * one of them, -1 a bad value (an error naming cmd and the option printed). */
int cli_engine_opt(const char *cmd, cli_engine_opts *o, const char *opt, const char *v);
/* Reads o->metrics into o->cfg.metrics; 0 or -1 after printing why. */
int cli_engine_metrics(const char *cmd, cli_engine_opts *o);

int cmd_parse(int argc, char **argv);
int cmd_eval(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_rewrite(int argc, char **argv);
int cmd_stream(int argc, char **argv);

#endif
