/* main.c -- the sqlsim command: a table of subcommands, as in git.c. Each
 * subcommand's options are a table in its own file (opts.h), which is also
 * its help. */
#include "cli.h"

#include <malloc.h>
#include <pg_query.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const cli_command *const commands[] = {&cmd_eval_spec,    &cmd_analyze_spec, &cmd_stream_spec,
                                              &cmd_rewrite_spec, &cmd_diff_spec,    &cmd_parse_spec, &cmd_load_spec, &cmd_audit_spec,
                                              &cmd_spider2_spec};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

const char *const cli_exit_status =
    "exit status:\n"
    "  0    the run finished (items that could not be scored are reported per item)\n"
    "  1    an input could not be read or written, or nothing could be scored\n"
    "  2    a bad option, value or argument: nothing was run\n"
    "  130  interrupted (SIGINT; 143 for SIGTERM) after writing the items finished\n"
    "       and a report of them";

int error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return -1;
}

static void usage(FILE *f) {
  fputs("usage: sqlsim COMMAND [options]\n\n"
        "Scores and improves SQL written by text-to-SQL systems.\n\ncommands:\n",
        f);
  for (size_t i = 0; i < NCOMMANDS; i++) fprintf(f, "  %-9s %s\n", commands[i]->name, commands[i]->summary);
  fputs("  help      sqlsim help COMMAND: a command's options, their meanings and defaults\n\n"
        "  --version  the version of sqlsim and of the libraries it runs on\n\n",
        f);
  fputs(cli_exit_status, f);
  fputc('\n', f);
}

static const cli_command *find(const char *name) {
  for (size_t i = 0; i < NCOMMANDS; i++)
    if (!strcmp(name, commands[i]->name)) return commands[i];
  return NULL;
}

int main(int argc, char **argv) {
  /* Memory a scored item frees is kept for the next (one process, one run):
   * Spider 2.0's tables of a few MB each were mapped and unmapped, every page
   * a fault, a third of spider2's time (1.47 s -> 0.95 s on lite's gold). */
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  if (argc < 2) {
    usage(stderr);
    return CLI_USAGE;
  }
  const char *a = argv[1];
  if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
    usage(stdout);
    return CLI_OK;
  }
  if (!strcmp(a, "--version") || !strcmp(a, "version")) {
    printf("sqlsim %s (libpg_query for PostgreSQL %s, SQLite %s)\n", SQLSIM_VERSION, PG_VERSION, sqlite3_libversion());
    return CLI_OK;
  }
  if (!strcmp(a, "help")) {
    if (argc < 3) {
      usage(stdout);
      return CLI_OK;
    }
    const cli_command *c = find(argv[2]);
    if (!c) {
      error("help: no command '%s' (the commands are listed by sqlsim --help)", argv[2]);
      return CLI_USAGE;
    }
    cli_print_help(stdout, c);
    return CLI_OK;
  }
  const cli_command *c = find(a);
  if (!c) {
    error("unknown command '%s' (the commands are listed by sqlsim --help)", a);
    return CLI_USAGE;
  }
  int rc = c->fn(argc - 1, argv + 1);
  sqlsim_thread_cleanup();
  return rc == CLI_EUSAGE ? CLI_USAGE : rc < 0 ? CLI_FAIL : rc;
}
