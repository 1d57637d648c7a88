/* opts.h -- every subcommand's options as a table: read with getopt_long
 * (--opt VALUE, --opt=VALUE, -j4, -j 4, unique prefixes of long names), and
 * printed as the command's help, so help and behaviour come from one place. */
#ifndef SQLSIM_OPTS_H
#define SQLSIM_OPTS_H

#include <stdio.h>

typedef struct cli_opt {
  const char *name;  /* long name, without "--" */
  char short_name;   /* 0: none */
  const char *arg;   /* the value's name ("FILE", "N"); NULL for a flag */
  const char *help;  /* what it does, and its default */
} cli_opt;

typedef struct cli_command {
  const char *name;
  int (*fn)(int argc, char **argv);
  const char *summary;  /* one line, for `sqlsim --help` */
  const char *synopsis; /* the usage line(s) after "sqlsim NAME " */
  const cli_opt *opts;  /* ends with an entry whose name is NULL */
  const char *details;  /* printed after the options, or NULL */
} cli_command;

/* Exit statuses (README "Exit status"). */
enum {
  CLI_OK = 0,
  CLI_FAIL = 1,  /* an input could not be read or written, or nothing could be scored */
  CLI_USAGE = 2, /* a bad option, value or argument: nothing was run */
};
/* What command functions return on an error they printed: -1 for CLI_FAIL,
 * -2 for CLI_USAGE. */
#define CLI_EUSAGE (-2)

/* Results of cli_next besides an option's index. */
enum { CLI_END = -1, CLI_ARG = -2, CLI_ERROR = -3, CLI_HELP = -4 };

typedef struct cli_parser {
  const cli_command *cmd;
  int argc;
  char **argv;
  int started;
  void *longopts; /* struct option[], made on the first call */
  char shorts[64];
} cli_parser;

/* The next thing on the command line: the index of an option in cmd->opts
 * (its value in *val, NULL for a flag), CLI_ARG for an argument that is not
 * an option (in *val), CLI_END, CLI_HELP after printing the command's help
 * for -h/--help, or CLI_ERROR after printing what is wrong. Options and
 * arguments come back in the order given. */
int cli_next(cli_parser *p, const char **val);
void cli_parser_free(cli_parser *p);

void cli_print_help(FILE *f, const cli_command *c);

#endif
